"""Claim sheet 000 section 6 (sympy): the symbolic encodings, each decided by :mod:`verify.symbolic` (PROVED with a
certificate, REFUTED with an exactly re-checked witness): PL-LA4 (balancedness for every Clarke selection),
PL-X4 (the early-phase closed form), PL-LC1 (the stationarity algebra of Lemma C.1), the expansion of g(q)
behind eq. (21) (PL-P4), and Lemma A.4's growth bound as printed (n B V instead of 2 n B V; erratum).
"""

from __future__ import annotations

import sympy as sp

from verify.claims.direct import symbolic_claim
from verify.claims.model import Claim
from verify.symbolic import ClaimSpec, prove_identity
from verify.symbolic.result import Claim as Texts, SymbolicResult, proved, refuted, unknown
from verify.symbolic.witness import substitution_witness
from verify.verdicts import Verdict

R = dict(real=True)
P = dict(positive=True)


def check_balancedness(claim: Texts) -> SymbolicResult:
    """d/dt (a^2 - ||w||^2) = 2 a a' - 2 w.w' = 0 with a' = -sum_i l_i' delta_i (w.x_i), w' = -sum_i l_i' delta_i a x_i
    (d = 3, n = 3, free indicator symbols delta_i: any Clarke selection, since relu(p) = delta p for every
    delta in [0, 1] at p = 0)."""
    a = sp.Symbol("a", **R)
    w = sp.Matrix(sp.symbols("w0:3", **R))
    xs = [sp.Matrix(sp.symbols(f"x{i}_0:3", **R)) for i in range(3)]
    lp = sp.symbols("l0:3", **R)
    dl = sp.symbols("delta0:3", **R)
    adot = -sum(lp[i] * dl[i] * (w.T * xs[i])[0] for i in range(3))
    wdot = -sum((lp[i] * dl[i] * a * xs[i] for i in range(3)), sp.zeros(3, 1))
    return prove_identity(claim, 2 * a * adot - 2 * (w.T * wdot)[0], sp.Integer(0),
                          note="one term per example; the sum over any n of zero terms is zero, in any d")


def check_early_phase(claim: Texts) -> SymbolicResult:
    """PL-X4: with c(t) = r sinh(k t + phi) (r, k > 0): c'^2 = k^2 (c^2 + r^2) and c' > 0, so c' = k sqrt(c^2 + r^2);
    ||w|| = sqrt(c^2 + r^2) = r cosh(k t + phi); tan(theta/2) = sin(theta)/(1 + cos(theta)) = e^{-(k t + phi)}."""
    t, phi = sp.symbols("t phi", **R)
    r, k = sp.symbols("r k", **P)
    s = k * t + phi
    c = r * sp.sinh(s)
    cdot = sp.diff(c, t)
    norm = r * sp.cosh(s)
    cos_t, sin_t = c / norm, r / norm
    lhs = [cdot**2 - k**2 * (c**2 + r**2), norm**2 - (c**2 + r**2), (sin_t / (1 + cos_t)).rewrite(sp.exp)]
    rhs = [sp.Integer(0), sp.Integer(0), sp.exp(-s)]
    return prove_identity(claim, lhs, rhs, note="c' = r k cosh(k t + phi) > 0, so the square root is the positive one")


def check_kkt_algebra(claim: Texts) -> SymbolicResult:
    """Lemma C.1's stationarity and feasibility per neuron of J+ (d = 3, three support examples, two neurons):
    w+ = sum_i alpha_i x_i (eq. (78)), N = ||w+||, rows u_j w+, a_j = N u_j with u_1^2 + u_2^2 = 1/N; on positives
    relu(u_j w+.x_i) = u_j w+.x_i (w+.x_i >= 1). Then sum_i (alpha_i/N)[a_j x_i ; u_j w+.x_i] = [u_j w+ ; a_j] and
    f(x_i) = sum_j a_j u_j w+.x_i = w+.x_i. J- is the same with signs flipped."""
    al = sp.symbols("alpha0:3", positive=True)
    xs = [sp.Matrix(sp.symbols(f"x{i}_0:3", **R)) for i in range(3)]
    u1 = sp.Symbol("u1", positive=True)
    w = sum((al[i] * xs[i] for i in range(3)), sp.zeros(3, 1))
    N = sp.sqrt((w.T * w)[0])
    u2 = sp.sqrt(1 / N - u1**2)
    lhs, rhs = [], []
    for u in (u1, u2):
        grad_w = sum(((al[i] / N) * (N * u) * xs[i] for i in range(3)), sp.zeros(3, 1))
        grad_a = sum((al[i] / N) * u * (w.T * xs[i])[0] for i in range(3))
        lhs += list(grad_w) + [grad_a]
        rhs += list(u * w) + [N * u]
    xq = sp.Matrix(sp.symbols("q0:3", **R))
    lhs.append(sum(N * uj * uj * (w.T * xq)[0] for uj in (u1, u2)))
    rhs.append((w.T * xq)[0])
    return prove_identity(claim, lhs, rhs, note="on negatives the J+ rows are inactive by eq. (79) (w+.x_i <= 0 under OS)")


def check_g_expansion(claim: Texts) -> SymbolicResult:
    """PL-P4 / eq. (21): g(q) = -log(exp(exp(-q)) - 1) at q = log(1/l) is log(1/l) - l/2 + O(l^2) as l -> 0+."""
    ell = sp.Symbol("l", positive=True)
    expr = -sp.log(sp.exp(ell) - 1) - sp.log(1 / ell) + ell / 2
    series = sp.series(expr, ell, 0, 2)
    rest = sp.simplify(series.removeO())
    if rest != 0:
        return unknown(claim, f"series remainder below O(l^2) is {rest}, not 0")
    return proved(claim, {"method": "sympy series at l = 0", "series": str(series)},
                  "g(log(1/l)) - log(1/l) + l/2 = O(l^2)")


def check_growth_printed(claim: Texts) -> SymbolicResult:
    """Lemma A.4's bound as printed, |d a^2/dt| <= n B V a^2, on one instance: d = n = 1, x = 1, y = +1, w = s,
    a = -s (balanced), CE loss (B = 1, V = 1): f = -s^2, a' = s/(1 + exp(-s^2)), so n B V a^2 - |d a^2/dt| =
    s^2 - 2 s^2/(1 + exp(-s^2)); the witness s = 1 makes it negative (the correct constant is 2 n B V)."""
    s = sp.Symbol("s", positive=True)
    a, f = -s, -s**2
    adot = (1 / (1 + sp.exp(f))) * s  # -l'(f) relu(w x) with l'(f) = -1/(1 + e^{f}) for y = +1
    expr = s**2 - sp.Abs(2 * a * adot)
    return refuted(claim, substitution_witness(expr, {s: sp.Integer(1)}, ">="),
                   "at s = 1: 1 - 2/(1 + e^{-1}) = -tanh(1/2) < 0")


SPECS = [
    (ClaimSpec("PL-LA4-sym", "000 Lemma A.4 (eq. (57)); PL-LA4 symbolic check, sheet 6",
               "d/dt (a_j^2 - ||w_j||^2) = 0 along the field of Lemma A.3 for every Clarke selection delta_i in [0, 1]",
               "any loss derivatives l_i', any (a, w, x_i); d = 3, n = 3 terms (each term vanishes)", Verdict.PROVED,
               check_balancedness), "LA4", ("LA3",)),
    (ClaimSpec("PL-X4-sym", "000 PL-X4 (derived early-phase closed form); sheet 6",
               "c(t) = r sinh(||m+|| t + asinh(c0/r)) solves c' = ||m+|| sqrt(c^2 + r^2); ||w|| = r cosh(.); "
               "tan(theta/2) = tan(theta0/2) e^{-||m+|| t}", "r, k = ||m+|| > 0, real t, phi", Verdict.PROVED,
               check_early_phase), "X4", ("X3", "LA4")),
    (ClaimSpec("PL-LC1-sym", "000 Lemma C.1, eqs. (78), (89); PL-LC1 (stationarity algebra), sheet 6",
               "theta = sum_i lambda_i y_i g_i(theta) with lambda_i = alpha_i/||w+||, and y_i f(x_i) = w+^T x_i on positives",
               "alpha_i > 0, any x_i in R^3, two J+ neurons with ||u||^2 = 1/||w+||", Verdict.PROVED, check_kkt_algebra),
     "LC1", ("OS",)),
    (ClaimSpec("PL-P4-g-expansion", "000 eqs. (19)-(21); PL-P4, sheet 6 (g(q) = -log(e^{e^{-q}} - 1))",
               "g(log(1/l)) = log(1/l) - l/2 + O(l^2) as l -> 0+", "l > 0", Verdict.PROVED, check_g_expansion),
     "P4", ()),
    (ClaimSpec("PL-LA4-growth-printed", "000 Lemma A.4 proof, growth bound as printed (n B V); sheet 8 erratum",
               "AS PRINTED: |d a_j^2/dt| <= n B V a_j^2 (B = sup |l'|, V = max ||x_i||); the correct factor is 2 n B V",
               "balanced neuron, CE loss, one example", Verdict.REFUTED, check_growth_printed), "LA4", ("LA3",)),
]

CLAIMS_SYMBOLIC: list[Claim] = [symbolic_claim(spec, node, uses) for spec, node, uses in SPECS]
