"""Claim sheet 003, the sympy encodings: each claim is decided by :mod:`verify.symbolic` (PROVED with a certificate,
REFUTED with an exact witness re-checked by substitution).

- (I1)-(I3) of sheet 1.2, piecewise in z on the branches z = s > 0, z = -s < 0, z = 0 (alpha > 0 symbolic; no
  identity needs alpha < 1), and the symmetrisation of C-T4.2 (iii);
- G on symmetric data (C-Eq2/3): ((1+alpha)/4) <mu, w> PROVED, the printed ((1+alpha)/2) <mu, w> REFUTED (S-1), and
  the logistic loss' l(0), l'(0), l''(0);
- the spectrum of M_mu~ (sheet 1.6): eigenvalues +-||mu~|| and 0, top eigenvector (mu-bar, 1)/sqrt 2; the printed
  (1/sqrt 2)(mu~, 1) REFUTED (S-2);
- Lemma 5.4 (i): T12 = T1(r) + T2(r) does not depend on r;
- Theorem 5.5: the limit (1/2)(w*, -w*, 1, -1) is a unit direction with f = ((1+alpha)/4) <w*, x>; the printed
  (1/4)(...) has norm 1/2 (S-3);
- balancedness (C-S6-bal), Lemma 5.3 (f, gradient equivariance, isometry of pi_b), the algebra of C-T4.2 (a);
- planted readings that the same checks refute: (I3) with c < 0, the exponential loss (S-16), a bias term (S-23),
  an embedding with a negative scale, the pairing on non-mirrored data (S-10).

phi is the sheet's piecewise max{z, alpha z} (:func:`phi`). For networks of symbolic vectors the sign of a
pre-activation <w, x> is unknown, so they use the abs form ((1+alpha) z + (1-alpha)|z|)/2 (:func:`phi_abs`), equal to
phi for every real z by LY-I2. Not symbolic (standard facts, used by C-T4.2 (a)): ||v|| <= sum_k |a_k| ||w_k||
(triangle inequality), q_min <= the mean of two margins, and min_i <v, x_i> <= ||v|| gamma_lin (Definition 3.3).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Callable, Sequence

import sympy as sp

from verify.claims.direct import symbolic_claim
from verify.claims.model import Claim
from verify.symbolic import ClaimSpec, prove_identity, prove_nonneg_symbolic
from verify.symbolic.result import Claim as Texts, SymbolicResult, proved, refuted
from verify.symbolic.witness import substitution_witness
from verify.verdicts import Verdict

R = dict(real=True)
ALPHA = sp.Symbol("alpha", positive=True)
S = sp.Symbol("s", positive=True)
BRANCHES = (S, -S, sp.Integer(0))  # z > 0, z < 0, z = 0
HALF = sp.Rational(1, 2)


def vec(name: str, d: int, **assumptions: bool) -> sp.Matrix:
    """A column of d symbols name0 .. name{d-1} (real unless told)."""
    return sp.Matrix(sp.symbols(f"{name}0:{d}", **(assumptions or R)))


def dot(u: sp.Matrix, v: sp.Matrix) -> sp.Expr:
    """<u, v>, common factors pulled out (so |c <w, x>| and sign(c <w, x>) see the factor c)."""
    return sp.factor_terms((u.T * v)[0])


def phi(z: sp.Expr, alpha: sp.Expr = ALPHA) -> sp.Expr:
    """Leaky ReLU max{z, alpha z} for alpha in (0, 1): z if z >= 0, alpha z otherwise."""
    return sp.Piecewise((z, z >= 0), (alpha * z, True))


def phi_prime(z: sp.Expr, clarke: sp.Expr, alpha: sp.Expr = ALPHA) -> sp.Expr:
    """phi'(z): 1 for z > 0, alpha for z < 0, the Clarke choice ``clarke`` in [alpha, 1] at z = 0."""
    return sp.Piecewise((1, z > 0), (alpha, z < 0), (clarke, True))


def phi_abs(z: sp.Expr, alpha: sp.Expr = ALPHA) -> sp.Expr:
    """phi in abs form, ((1+alpha) z + (1-alpha)|z|)/2 = ((I1) + (I2))/2."""
    return ((1 + alpha) * z + (1 - alpha) * sp.Abs(z)) / 2


def phi_abs_prime(z: sp.Expr, alpha: sp.Expr = ALPHA) -> sp.Expr:
    """d/dz of the abs form, ((1+alpha) + (1-alpha) sign z)/2 (the Clarke element (1+alpha)/2 at z = 0)."""
    return ((1 + alpha) + (1 - alpha) * sp.sign(z)) / 2


def net(a: Sequence[sp.Expr], W: Sequence[sp.Matrix], x: sp.Matrix, alpha: sp.Expr = ALPHA) -> sp.Expr:
    """f_theta(x) = sum_k a_k phi(<w_k, x>) (abs form of phi)."""
    return sum(a_k * phi_abs(dot(w_k, x), alpha) for a_k, w_k in zip(a, W))


def net_gradient(a: Sequence[sp.Expr], W: Sequence[sp.Matrix], x: sp.Matrix) -> list[sp.Expr]:
    """grad_theta f_theta(x) in the order (w_1, .., w_m, a_1, .., a_m): a_k phi'(<w_k, x>) x, then phi(<w_k, x>)."""
    return [a_k * phi_abs_prime(dot(w_k, x)) * x_j for a_k, w_k in zip(a, W) for x_j in x] + \
        [phi_abs(dot(w_k, x)) for w_k in W]


def decide(claim: Texts, lhs: Sequence[sp.Expr], rhs: Sequence[sp.Expr], candidate: dict | None = None,
           note: str = "") -> SymbolicResult:
    """lhs == rhs componentwise: REFUTED at the exact ``candidate`` point (symbol name -> value; real symbols not
    named are 0) on the first component it violates, else :func:`prove_identity`."""
    for k, (left, right) in enumerate(zip(lhs, rhs) if candidate else ()):
        diff = sp.expand(left - right)
        point = {str(s): candidate.get(str(s), 0) for s in sorted(diff.free_symbols, key=str)}  # by name: same text every run
        if any(s.is_positive and point[str(s)] == 0 for s in diff.free_symbols):
            raise ValueError(f"candidate {candidate} leaves a positive symbol of component {k} at 0")
        out = refuted(claim, substitution_witness(diff, point, "==", component=k), f"component {k} fails at {point}")
        if out.verdict is Verdict.REFUTED:
            return out
    return prove_identity(claim, list(lhs), list(rhs), note=note)


def all_of(claim: Texts, results: Sequence[SymbolicResult]) -> SymbolicResult:
    """PROVED with every part's certificate when every part is PROVED, else the first part that is not."""
    for res in results:
        if res.verdict is not Verdict.PROVED:
            return res
    return proved(claim, {"parts": [res.certificate for res in results]}, f"all {len(results)} parts proved")


# ---------------------------------------------------------------- (I1)-(I3) and the symmetrisation (Theorem 4.2)

def check_i1(claim: Texts) -> SymbolicResult:
    """(I1) phi(z) - phi(-z) = (1+alpha) z on the three branches of z."""
    return decide(claim, [phi(z) - phi(-z) for z in BRANCHES], [(1 + ALPHA) * z for z in BRANCHES])


def check_i2(claim: Texts) -> SymbolicResult:
    """(I2) phi(z) + phi(-z) = (1-alpha)|z|, then phi(z) = phi_abs(z), each on the three branches of z."""
    lhs = [phi(z) + phi(-z) for z in BRANCHES] + [phi(z) for z in BRANCHES]
    return decide(claim, lhs, [(1 - ALPHA) * sp.Abs(z) for z in BRANCHES] + [phi_abs(z) for z in BRANCHES])


def check_i3(claim: Texts, scale_sign: int = 1, candidate: dict | None = None) -> SymbolicResult:
    """(I3) phi(c z) = c phi(z) for c = scale_sign * c0, c0 > 0 (the paper: c > 0; c < 0 is planted), and
    phi'(z) z = phi(z) with a free Clarke choice kappa at z = 0."""
    c, kappa = scale_sign * sp.Symbol("c0", positive=True), sp.Symbol("kappa", **R)
    lhs = [phi(c * z) for z in BRANCHES] + [phi_prime(z, kappa) * z for z in BRANCHES]
    return decide(claim, lhs, [c * phi(z) for z in BRANCHES] + [phi(z) for z in BRANCHES], candidate,
                  note="kappa is a free symbol: every Clarke choice in [alpha, 1] at z = 0")


def check_symmetrisation(claim: Texts) -> SymbolicResult:
    """m = 3, d = 3, symbolic (a_k, w_k, x): f_sym(x) = (f(x) - f(-x))/2 = ((1+alpha)/2) <sum_k a_k w_k, x>, the even
    part (f(x) + f(-x))/2 = ((1-alpha)/2) sum_k a_k |<w_k, x>|, and the paper's symmetrised net (neurons
    (a_k, w_k)/sqrt 2 and (-a_k, -w_k)/sqrt 2) has f = f_sym and the same norm ||theta||^2."""
    a, x, W = sp.symbols("a0:3", **R), vec("x", 3), [vec(f"w{k}_", 3) for k in range(3)]
    v = sum((a_k * w_k for a_k, w_k in zip(a, W)), sp.zeros(3, 1))
    r2 = sp.sqrt(2)
    a_sym, W_sym = [a_k / r2 for a_k in a] + [-a_k / r2 for a_k in a], [w / r2 for w in W] + [-w / r2 for w in W]
    norm_sq = lambda aa, WW: sum(a_k**2 + dot(w_k, w_k) for a_k, w_k in zip(aa, WW))  # noqa: E731
    f_sym, f_even = (net(a, W, x) - net(a, W, -x)) / 2, (net(a, W, x) + net(a, W, -x)) / 2
    lhs = [f_sym, f_even, net(a_sym, W_sym, x), norm_sq(a_sym, W_sym)]
    rhs = [(1 + ALPHA) / 2 * dot(v, x), (1 - ALPHA) / 2 * sum(a_k * sp.Abs(dot(w, x)) for a_k, w in zip(a, W)),
           f_sym, norm_sq(a, W)]
    return decide(claim, lhs, rhs, note="phi in abs form (LY-I2); one term per neuron, so any m, d")


def check_t42a(claim: Texts, shifted: bool = False, candidate: dict | None = None) -> SymbolicResult:
    """C-T4.2 (a). (1) pairing, y_i = 1, partner x_{i+n/2} = -x_i with y = -1: (q_i + q_{i+n/2})/2 =
    ((1+alpha)/2) <v, x_i>, v = sum_k a_k w_k (m = 3, d = 3 symbolic; ``shifted``: partner -x_i + delta, planted);
    (2) per neuron |a| N <= (a^2 + N^2)/2 for real a, N = ||w|| >= 0 (branches a = s, a = -s, s >= 0)."""
    a, x, W = sp.symbols("a0:3", **R), vec("x", 3), [vec(f"w{k}_", 3) for k in range(3)]
    v = sum((a_k * w_k for a_k, w_k in zip(a, W)), sp.zeros(3, 1))
    partner = -x + (vec("delta", 3) if shifted else sp.zeros(3, 1))
    pairing = decide(claim, [(net(a, W, x) - net(a, W, partner)) / 2], [(1 + ALPHA) / 2 * dot(v, x)], candidate)
    s, N = sp.Symbol("s", nonnegative=True), sp.Symbol("N", nonnegative=True)
    return all_of(claim, [pairing] + [prove_nonneg_symbolic(claim, (s**2 + N**2) / 2 - sp.Abs(sa) * N)
                                      for sa in (s, -s)])


# ---------------------------------------------------------------- G on symmetric data, eqs. (2)-(3), erratum S-1

def mirror(positives: Sequence[sp.Matrix]) -> tuple[list[sp.Matrix], list[int]]:
    """Assumption 4.1's data: x_1..x_h (y = +1) followed by -x_1..-x_h (y = -1)."""
    return list(positives) + [-x for x in positives], [1] * len(positives) + [-1] * len(positives)


def G(w: sp.Matrix, X: Sequence[sp.Matrix], y: Sequence[int], alpha: sp.Expr = ALPHA) -> sp.Expr:
    """G(w) = (-l'(0)/n) sum_i y_i phi(w.x_i) = (1/(2n)) sum_i y_i phi(w.x_i) (logistic loss)."""
    return sum(y_i * phi_abs(dot(w, x_i), alpha) for x_i, y_i in zip(X, y)) / (2 * len(X))


def mean_signed(X: Sequence[sp.Matrix], y: Sequence[int]) -> sp.Matrix:
    """mu = (1/n) sum_i y_i x_i."""
    return sum((y_i * x_i for x_i, y_i in zip(X, y)), sp.zeros(X[0].rows, 1)) / len(X)


def check_g(claim: Texts, coef: sp.Expr, candidate: dict | None = None) -> SymbolicResult:
    """G(w) = coef <mu, w> on h = 3 mirror pairs (n = 6) in d = 3, symbolic x_i, w: true for coef = (1+alpha)/4 (the
    pairs' Abs terms cancel); the printed (1+alpha)/2 fails, e.g. at alpha = 1/2, x_1 = w = e_1, x_2 = x_3 = 0
    (G = 1/8, printed 1/4)."""
    X, y = mirror([vec(f"x{i}_", 3) for i in range(3)])
    w = vec("w", 3)
    return decide(claim, [G(w, X, y)], [coef * dot(mean_signed(X, y), w)], candidate,
                  note="one term per mirror pair: any h, d")


def logistic(q: sp.Expr) -> sp.Expr:
    """l(q) = ln(1 + e^{-q})."""
    return sp.log(1 + sp.exp(-q))


def check_loss(claim: Texts, loss: Callable[[sp.Expr], sp.Expr] = logistic) -> SymbolicResult:
    """l(0) = ln 2, l'(0) = -1/2, l''(0) = 1/4 (true for the logistic loss; the exponential e^{-q} is planted, S-16),
    and the first-order term (1/n) sum_i l'(0) y_i f(x_i) = -sum_k a_k G(w_k) (n = 3, m = 2, d = 2, phi an undefined
    function: eq. (2) needs no property of phi)."""
    q, act = sp.Symbol("q", **R), sp.Function("phi")
    taylor = [loss(q).diff(q, j).subs(q, 0) for j in range(3)]
    a, y, W, X = sp.symbols("a0:2", **R), sp.symbols("y0:3", **R), [vec(f"w{k}_", 2) for k in range(2)], \
        [vec(f"x{i}_", 2) for i in range(3)]
    first = sum(taylor[1] * y[i] * sum(a[k] * act(dot(W[k], X[i])) for k in range(2)) for i in range(3)) / 3
    g = [-taylor[1] / 3 * sum(y[i] * act(dot(W[k], X[i])) for i in range(3)) for k in range(2)]
    return decide(claim, taylor + [first], [sp.log(2), -HALF, sp.Rational(1, 4), -sum(a[k] * g[k] for k in range(2))])


# ---------------------------------------------------------------- the spectrum of M_mu~, erratum S-2

def m_matrix(mt: sp.Matrix) -> sp.Matrix:
    """M_mu~ = [[0_{dxd}, mu~], [mu~^T, 0]]."""
    d = mt.rows
    return sp.Matrix(sp.BlockMatrix([[sp.zeros(d, d), mt], [mt.T, sp.zeros(1, 1)]]))


def check_spectrum(claim: Texts, reading: str = "corrected", candidate: dict | None = None) -> SymbolicResult:
    """d = 3, mu~ in R^3 \\ {0} symbolic: det(lambda I - M) = lambda^2 (lambda^2 - ||mu~||^2) (eigenvalues +-||mu~||,
    0 twice), and v has ||v|| = 1, M v = ||mu~|| v: true for v = (mu-bar, 1)/sqrt 2, mu-bar = mu~/||mu~||; the printed
    v = (1/sqrt 2)(mu~, 1) fails unless ||mu~|| = 1, e.g. at mu~ = (1/2, 0, 0) (||v||^2 = 5/8)."""
    mt, lam = vec("mt", 3), sp.Symbol("lambda")
    M, N = m_matrix(mt), sp.sqrt(dot(mt, mt))
    v = sp.Matrix(list(mt / N if reading == "corrected" else mt) + [1]) / sp.sqrt(2)
    return decide(claim, [M.charpoly(lam).as_expr(), dot(v, v)] + list(M * v),
                  [lam**2 * (lam**2 - N**2), 1] + list(N * v), candidate,
                  note="mu~ = c mu with c > 0, so mu~/||mu~|| = mu/||mu|| = mu-bar")


# ---------------------------------------------------------------- Lemma 5.4 (i), Theorem 5.5 and erratum S-3

def check_t12(claim: Texts) -> SymbolicResult:
    """T1(r) + T2(r) = (1/lambda0) ln(r / (sqrt m sigma M)) + (1/lambda0) ln(1/r) = (1/lambda0) ln(1/(sqrt m sigma M))
    and d/dr (T1 + T2) = 0 (lambda0, r, m, sigma, M = ||theta0||_M all > 0)."""
    lam0, r, m, sigma, M = sp.symbols("lambda0 r m sigma M", positive=True)
    t1, t2 = sp.log(r / (sp.sqrt(m) * sigma * M)) / lam0, sp.log(1 / r) / lam0
    return decide(claim, [t1 + t2, sp.diff(t1 + t2, r)], [sp.log(1 / (sp.sqrt(m) * sigma * M)) / lam0, 0])


def limit_direction(wstar: sp.Matrix, c: sp.Expr) -> sp.Matrix:
    """theta = c (w*, -w*, 1, -1) in the paper's (w1, w2, a1, a2) order, flattened."""
    return sp.Matrix(list(c * wstar) + list(-c * wstar) + [c, -c])


def unit(v: sp.Matrix) -> sp.Matrix:
    """v/||v||: every unit vector of R^d is one, for v != 0."""
    return v / sp.sqrt(dot(v, v))


def check_t55(claim: Texts, c: sp.Expr, candidate: dict | None = None) -> SymbolicResult:
    """theta = c (w*, -w*, 1, -1), w* = v/||v|| (v in R^3 \\ {0}): ||theta||^2 = 1 and f(x) = c phi(c t) - c phi(-c t)
    = ((1+alpha)/4) t, t = <w*, x>, on the branches of t. True for c = 1/2; the printed c = 1/4 has norm^2
    (2||w*||^2 + 2)/16 = 1/4 at every unit w*, e.g. w* = (1, 2, 2)/3."""
    theta = limit_direction(unit(vec("v", 3)), c)
    f = [c * phi(c * t) - c * phi(-c * t) for t in BRANCHES]
    return decide(claim, [dot(theta, theta)] + f, [1] + [(1 + ALPHA) / 4 * t for t in BRANCHES], candidate,
                  note="<w1, x> = c t and <w2, x> = -c t for w1 = c w*, w2 = -c w*")


# ---------------------------------------------------------------- balancedness, Lemma 5.3

def check_balancedness(claim: Texts, bias: bool = False, candidate: dict | None = None) -> SymbolicResult:
    """d/dt (a^2 - ||w||^2) = -2 a dL/da + 2 w.dL/dw = 0, dL/da = (1/n) sum_i g_i y_i phi(p_i),
    dL/dw = (1/n) sum_i g_i y_i a phi'(p_i) x_i, p_i = <w, x_i> (+ beta if ``bias``: planted, S-23); d = 3, n = 3,
    g_i = l'(q_i), y_i free. phi(p_i) = s_i p_i with s_i = phi'(p_i) (I3), s_i free: 1, alpha, or any Clarke
    choice in [alpha, 1] where p_i = 0."""
    a, w, beta = sp.Symbol("a", **R), vec("w", 3), sp.Symbol("beta", **R) if bias else 0
    X, g, y, s = [vec(f"x{i}_", 3) for i in range(3)], sp.symbols("g0:3", **R), sp.symbols("y0:3", **R), \
        sp.symbols("s0:3", **R)
    dl_da = sum(g[i] * y[i] * s[i] * (dot(w, X[i]) + beta) for i in range(3)) / 3
    dl_dw = sum((g[i] * y[i] * a * s[i] * X[i] for i in range(3)), sp.zeros(3, 1)) / 3
    return decide(claim, [-2 * a * dl_da + 2 * dot(w, dl_dw)], [0], candidate,
                  note="one term per example and per Clarke slope s_i: any n, d and selection")


def embed(b: Sequence[sp.Expr], w1: sp.Matrix, w2: sp.Matrix, a1: sp.Expr, a2: sp.Expr,
          groups: Sequence[int] | None = None) -> tuple[list[sp.Expr], list[sp.Matrix]]:
    """pi_b(w1, w2, a1, a2) -> (a, W): (w_k, a_k) = (b_k/b+)(w1, a1) in group 1 (b_k > 0 unless ``groups`` says),
    (b_k/b-)(w2, a2) in group 2, b+ = sqrt(sum_{group 1} b_k^2), b- = -sqrt(sum_{group 2} b_k^2)."""
    groups = groups or [1 if b_k.is_positive else 2 for b_k in b]
    b_plus = sp.sqrt(sum(b_k**2 for b_k, j in zip(b, groups) if j == 1))
    b_minus = -sp.sqrt(sum(b_k**2 for b_k, j in zip(b, groups) if j == 2))
    scaled = [(b_k / b_plus, w1, a1) if j == 1 else (b_k / b_minus, w2, a2) for b_k, j in zip(b, groups)]
    return [c * a_j for c, _, a_j in scaled], [c * w_j for c, w_j, _ in scaled]


def check_embedding(claim: Texts, negative_scale: bool = False, candidate: dict | None = None) -> SymbolicResult:
    """m = 4 (b_1, b_2 > 0 > b_3, b_4), d = 2, n = 2, g_i = l'(q_i) free: f_{pi_b theta} = f_theta at a symbolic x
    (so the q_i and g_i agree), grad L_4(pi_b theta) = pi_b grad L_2(theta) with grad L = (1/n) sum_i g_i y_i
    grad_theta f(x_i), and ||pi_b theta||^2 = ||theta||^2. ``negative_scale`` (planted): b_2 < 0 kept in group 1."""
    b1, b2, c3, c4 = sp.symbols("b1 b2 c3 c4", positive=True)
    b = [b1, -b2 if negative_scale else b2, -c3, -c4]
    w1, w2, a1, a2 = vec("u", 2), vec("v", 2), sp.Symbol("a1", positive=True), -sp.Symbol("a2n", positive=True)
    a, W = embed(b, w1, w2, a1, a2, groups=(1, 1, 2, 2))
    x, X, y, g = vec("x", 2), [vec(f"x{i}_", 2) for i in range(2)], sp.symbols("y0:2", **R), sp.symbols("g0:2", **R)

    def grad_loss(aa: list, WW: list) -> list:
        per_point = [net_gradient(aa, WW, X[i]) for i in range(2)]
        return [sum(g[i] * y[i] * per_point[i][j] for i in range(2)) / 2 for j in range(len(per_point[0]))]

    g2 = grad_loss([a1, a2], [w1, w2])
    a_img, W_img = embed(b, sp.Matrix(g2[:2]), sp.Matrix(g2[2:4]), g2[4], g2[5], groups=(1, 1, 2, 2))
    norm4, norm2 = sum(a_k**2 + dot(w, w) for a_k, w in zip(a, W)), a1**2 + a2**2 + dot(w1, w1) + dot(w2, w2)
    return decide(claim, [net(a, W, x)] + grad_loss(a, W) + [norm4],
                  [net([a1, a2], [w1, w2], x)] + [c for w in W_img for c in w] + a_img + [norm2], candidate,
                  note="phi'(z) = ((1+alpha) + (1-alpha) sign z)/2 and sign(c z) = sign(z) for c > 0; at a kink "
                       "sign(0) = 0 picks (1+alpha)/2, and any selection that depends on sign(z) only agrees")


# ---------------------------------------------------------------- the catalogue

FAMILIES: dict[Callable, Callable[[object], float]] = {}


def entry(claim_id: str, source: str, statement: str, domain: str, expected: Verdict, check: Callable, node: str,
          uses: tuple[str, ...], assumptions: tuple[str, ...] = (), tags: tuple[str, ...] = ()) -> Claim:
    """The symbolic catalogue claim of one encoding. Readings decided by one check function (``partial`` of it with
    another parameter) share ``Claim.check``, so a REFUTED reading is the teeth of the others."""
    claim = symbolic_claim(ClaimSpec(claim_id, f"003 {source}", statement, domain, expected, check), node, uses)
    shared = FAMILIES.setdefault(getattr(check, "func", check), lambda _: 0.0)
    return replace(claim, check=shared, assumptions=assumptions, tags=claim.tags + tags)


PHI = "every real z (branches z > 0, z < 0, z = 0), alpha > 0 symbolic"
P, E = ("planted",), ("erratum",)
WITNESS = {  # exact points (real symbols not named are 0) where a printed or planted reading fails
    "LY-I3-negative-c": {"alpha": HALF, "c0": 1, "s": 1},
    "LY-T42a-nonsym": {"alpha": HALF, "a0": 1, "w0_0": 1, "x0": 1, "delta0": 1},
    "S1-G-printed": {"alpha": HALF, "x0_0": 1, "w0": 1},
    "S2-eigvec-printed": {"mt0": HALF},
    "S3-T55-printed": {"v0": 1, "v1": 2, "v2": 2},
    "LY-BAL-bias": {"a": 1, "beta": 1, "g0": 1, "y0": 1, "s0": 1},
    "LY-L53-negative-scale": {"alpha": HALF, "b1": 1, "b2": 1, "c3": 1, "c4": 1, "a1": 1, "a2n": 1, "u0": 1, "x0": 1},
}
CLAIMS_SYMBOLIC: list[Claim] = [
    entry("LY-I1", "Sec. 4, identity (I1) (sheet 1.2)", "phi(z) - phi(-z) = (1+alpha) z", PHI, Verdict.PROVED,
          check_i1, "I1", ("LEAKY",), ("leaky",)),
    entry("LY-I2", "identity (I2) (sheet 1.2, derived)", "phi(z) + phi(-z) = (1-alpha)|z|, so "
          "phi(z) = ((1+alpha) z + (1-alpha)|z|)/2", PHI, Verdict.PROVED, check_i2, "I1", ("LEAKY",),
          ("leaky",)),
    entry("LY-I3", "identity (I3) (sheet 1.2)", "phi(c z) = c phi(z) for c > 0; phi'(z) z = phi(z) for every Clarke "
          "choice at 0", PHI + ", c > 0, Clarke choice free", Verdict.PROVED, check_i3, "I1", ("LEAKY",),
          ("leaky",)),
    entry("LY-I3-negative-c", "identity (I3) with c < 0 (planted; homogeneity needs c > 0)",
          "PLANTED: phi(c z) = c phi(z) also for c < 0", PHI + ", c < 0", Verdict.REFUTED,
          partial(check_i3, scale_sign=-1, candidate=WITNESS["LY-I3-negative-c"]), "I1", ("LEAKY",),
          ("leaky",), P),
    entry("LY-T42-sym", "Theorem 4.2, proof (C-T4.2 (iii))", "f_sym(x) = (f(x) - f(-x))/2 = ((1+alpha)/2) "
          "<sum_k a_k w_k, x>; the symmetrised net realises f_sym with the same norm",
          "m = 3, d = 3, symbolic a_k, w_k, x", Verdict.PROVED, check_symmetrisation, "T42", ("I1",),
          ("leaky",)),
    entry("LY-T42a-algebra", "Theorem 4.2, corollary (a), upper-bound algebra (C-T4.2 (a))",
          "(q_i + q_{i+n/2})/2 = ((1+alpha)/2) <v, x_i>, v = sum_k a_k w_k, and |a| ||w|| <= (a^2 + ||w||^2)/2",
          "m = 3, d = 3 symbolic; a real, ||w|| >= 0", Verdict.PROVED, check_t42a, "T42", ("I1", "A41"),
          ("A4.1", "leaky")),
    entry("LY-T42a-nonsym", "Theorem 4.2 (a) pairing on non-mirrored data (C-T4.2 (a), planted S-10)",
          "PLANTED: the pairing identity with partner -x_i + delta (A4.1 broken)", "m = 3, d = 3, delta symbolic",
          Verdict.REFUTED, partial(check_t42a, shifted=True, candidate=WITNESS["LY-T42a-nonsym"]), "T42",
          ("I1", "A41"), ("leaky",), P),
    entry("LY-EQ23-G", "Sec. 5.1, G on symmetric data, corrected (C-Eq2/3, erratum S-1)",
          "under A4.1, G(w) = ((1+alpha)/4) <mu, w>", "3 mirror pairs (n = 6), d = 3, symbolic x_i, w",
          Verdict.PROVED, partial(check_g, coef=(1 + ALPHA) / 4), "EQ23", ("I1", "A41"), ("A4.1", "leaky")),
    entry("S1-G-printed", "Sec. 5.1, mu~ = ((1+alpha)/2) mu as printed (C-Eq2/3, erratum S-1)",
          "AS PRINTED: under A4.1, G(w) = ((1+alpha)/2) <mu, w>", "3 mirror pairs (n = 6), d = 3", Verdict.REFUTED,
          partial(check_g, coef=(1 + ALPHA) / 2, candidate=WITNESS["S1-G-printed"]), "EQ23", ("I1", "A41"),
          ("A4.1", "leaky"), E),
    entry("LY-EQ23-loss", "eqs. (2)-(3), logistic Taylor step (C-Eq2/3)", "l(0) = ln 2, l'(0) = -1/2, l''(0) = 1/4; "
          "first-order term of L = -sum_k a_k G(w_k)", "l(q) = ln(1 + e^-q); n = 3, m = 2, d = 2, any activation",
          Verdict.PROVED, check_loss, "EQ23", ()),
    entry("LY-EQ23-exp-loss", "eqs. (2)-(3) with the exponential loss (planted S-16: l'(0) = -1)",
          "PLANTED: l(q) = e^-q has l(0) = ln 2, l'(0) = -1/2, l''(0) = 1/4", "l(q) = e^-q", Verdict.REFUTED,
          partial(check_loss, loss=lambda q: sp.exp(-q)), "EQ23", (), (), P),
    entry("LY-EIG", "Sec. 5.1, spectrum of M_mu~ (sheet 1.6)", "eigenvalues of M_mu~ are +-||mu~|| and 0 (d-1 "
          "times); the top eigenvector is (mu-bar, 1)/sqrt 2", "d = 3, mu~ in R^3 \\ {0} symbolic", Verdict.PROVED,
          check_spectrum, "EIG", ("EQ23",)),
    entry("S2-eigvec-printed", "Sec. 5.1, top eigenvector as printed (sheet 1.6, erratum S-2)",
          "AS PRINTED: (1/sqrt 2)(mu~, 1) is the unit top eigenvector of M_mu~", "d = 3, mu~ != 0", Verdict.REFUTED,
          partial(check_spectrum, reading="printed", candidate=WITNESS["S2-eigvec-printed"]), "EIG", ("EQ23",),
          (), E),
    entry("LY-L54-T12", "Lemma 5.4 (i) (C-L5.4)", "T12 = T1(r) + T2(r) is independent of r",
          "lambda0, r, m, sigma, ||theta0||_M > 0", Verdict.PROVED, check_t12, "L54", ("EIG",)),
    entry("LY-T55-limit", "Theorem 5.5, corrected limit (C-T5.5, erratum S-3)", "(1/2)(w*, -w*, 1, -1) is a unit "
          "direction with f = ((1+alpha)/4) <w*, x>", "unit w* in R^3 (w* = v/||v||), t = <w*, x> on its three "
          "branches, alpha > 0", Verdict.PROVED, partial(check_t55, c=HALF), "T55", ("I1", "T42"), ("leaky",)),
    entry("S3-T55-printed", "Theorem 5.5, limit (1/4)(w*, -w*, 1, -1) as printed (C-T5.5, erratum S-3)",
          "AS PRINTED: the limit direction (1/4)(w*, -w*, 1, -1) is a unit vector with f = ((1+alpha)/4) <w*, x>",
          "unit w* in R^3", Verdict.REFUTED,
          partial(check_t55, c=sp.Rational(1, 4), candidate=WITNESS["S3-T55-printed"]), "T55", ("I1", "T42"),
          ("leaky",), E),
    entry("LY-BAL", "Sec. 6, Corollary B.18 (C-S6-bal, sympy part)", "d/dt (a_k^2 - ||w_k||^2) = -2 a dL/da + "
          "2 w.dL/dw = 0 for every Clarke selection", "d = 3, n = 3, free l'(q_i), y_i and slopes s_i",
          Verdict.PROVED, check_balancedness, "BAL", ("I1",), ("leaky",)),
    entry("LY-BAL-bias", "Corollary B.18 with a bias term (C-S6-bal, planted S-23)", "PLANTED: with p_i = <w, x_i> + "
          "beta, a^2 - ||w||^2 is still conserved", "d = 3, n = 3, beta symbolic", Verdict.REFUTED,
          partial(check_balancedness, bias=True, candidate=WITNESS["LY-BAL-bias"]), "BAL", ("I1",),
          ("leaky",), P),
    entry("LY-L53-embed", "Lemma 5.3 (C-Emb / C-L5.3, symbolic part)", "f_{pi_b theta} = f_theta, "
          "grad L_m(pi_b theta) = pi_b grad L_2(theta), ||pi_b theta|| = ||theta||", "m = 4 (b_1, b_2 > 0 > b_3, "
          "b_4), d = 2, n = 2, a1 > 0 > a2, free l'(q_i)", Verdict.PROVED, check_embedding, "L53", ("I1",),
          ("leaky", "m >= 2")),
    entry("LY-L53-negative-scale", "Lemma 5.3 with a negative scale b_k/b+ (C-L5.3, planted: sign assumption "
          "dropped)", "PLANTED: f_{pi_b theta} = f_theta when a neuron with b_k < 0 joins the first group",
          "m = 4, d = 2, n = 2", Verdict.REFUTED,
          partial(check_embedding, negative_scale=True, candidate=WITNESS["LY-L53-negative-scale"]), "L53", ("I1",),
          ("leaky",), P),
]
