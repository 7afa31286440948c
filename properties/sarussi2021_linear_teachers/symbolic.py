"""Claim sheet 002, the sympy encodings (sections 1.2, 1.3, 1.10 and 2.4): each claim is decided by
:mod:`verify.symbolic` (PROVED with a certificate, REFUTED with an exact witness re-checked by substitution).

- LT-L1 .. LT-L7, the logistic-loss facts l1-l7 of sheet 1.3 (l(z) = log(1 + e^-z), c(z) = -l'(z) = 1/(1 + e^z)),
  LT-L4 with the sharp constant s* = W_0(1/e) attained at z = 1 + W_0(1/e) (and the paper's weaker c z <= 1);
- the helpers shared with :mod:`.appendix_e`, which proves Lyu-Li's (B3.1)-(B3.4) for f(q) = -log log(1 + e^-q);
- LT-D2-leaky, the leaky-ReLU identities of sheet 1.2, alpha in (0, 1) written alpha = 1/(1 + b), b > 0;
- LT-DQP-kernel, the feature map and kernel of QP (8) (sheet 1.10): the sheet's phi(x, +1) = (x, -alpha x),
  phi(x, -1) = (alpha x, -x) is right (<phi, phi'> = K and y <(w, u), phi(x, y)> is the QP's constraint);
- a planted reading next to each (a constant below the sharp one, a reversed monotonicity, a swapped kernel, ...):
  the same check refutes it at an exact point.

Reparametrisations (each a bijection, so the statement over z in R is the statement over the new variable):
z = log t and z = -log t with t > 0 (so e^z = t or 1/t); a monotone-from-zero argument extends t to u >= 0 where the
expression is continuous at 0. W_0(1/e) is the positive symbol w with w e^(w+1) = 1, i.e. log w = -1 - w (the
principal branch's defining equation; w e^w is increasing on w > 0, so the root is unique), bracketed exactly.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Callable, Sequence

import sympy as sp

from verify.claims.direct import symbolic_claim
from verify.claims.model import Claim
from verify.symbolic import ClaimSpec, decide_sign, prove_identity, prove_nonneg_symbolic
from verify.symbolic.result import Claim as Texts, SymbolicResult, proved, refuted, unknown
from verify.symbolic.witness import substitution_witness
from verify.verdicts import Verdict

Z = sp.Symbol("z", real=True)
Q = sp.Symbol("q", real=True)
T = sp.Symbol("t", positive=True)
U = sp.Symbol("u", nonnegative=True)
EPS = sp.Symbol("epsilon", positive=True)
W0 = sp.Symbol("w", positive=True)  # W_0(1/e): w e^(w + 1) = 1
HALF = sp.Rational(1, 2)
LOG2 = sp.log(2)
# an exact bracket of W_0(1/e) = 0.27846454276107379510935873902298...: w e^(w+1) - 1 changes sign on it
W0_BRACKET = (sp.Rational("0.2784645427610737"), sp.Rational("0.2784645427610739"))
Z_GRID = tuple(sp.Rational(v) for v in ("-5", "-2", "-1", "-1/2", "-1/10", "0", "1/10", "1/2", "1", "5/4", "13/10",
                                        "2", "5"))
_VIOLATED = {">=": lambda s: s < 0, ">": lambda s: s <= 0, "==": lambda s: s != 0}


def loss(z: sp.Expr) -> sp.Expr:
    """l(z) = log(1 + e^-z)."""
    return sp.log(1 + sp.exp(-z))


def weight(z: sp.Expr) -> sp.Expr:
    """c(z) = 1/(1 + e^z) (= -l'(z), LT-L1)."""
    return 1 / (1 + sp.exp(z))


def lyu_li_f(q: sp.Expr) -> sp.Expr:
    """f(q) = -log l(q) = -log log(1 + e^-q): the logistic loss written l = e^{-f} (Lyu-Li, Appendix E)."""
    return -sp.log(loss(q))


def lyu_li_f_prime(q: sp.Expr) -> sp.Expr:
    """f'(q) = 1/((1 + e^q) log(1 + e^-q)) (sheet 2.4)."""
    return 1 / ((1 + sp.exp(q)) * loss(q))


def in_t(expr: sp.Expr, var: sp.Symbol = Z, sign: int = 1) -> sp.Expr:
    """expr at var = sign * log t (t > 0), simplified: a bijection of R onto (0, oo)."""
    return sp.simplify(expr.subs(var, sign * sp.log(T)))


def all_of(claim: Texts, results: Sequence[SymbolicResult], note: str = "") -> SymbolicResult:
    """PROVED with every part's certificate when every part is PROVED, else the first part that is not."""
    for res in results:
        if res.verdict is not Verdict.PROVED:
            return res
    cert = {"parts": [res.certificate for res in results]}
    if note:
        cert["argument"] = note
    return proved(claim, cert, f"all {len(results)} parts proved")


def first_violation(claim: Texts, target: sp.Expr, points: Sequence[dict],
                    relation: str = ">=") -> SymbolicResult | None:
    """REFUTED at the first exact point (symbol -> rational) where ``target REL 0`` fails, else None."""
    for point in points:
        sign, detail = decide_sign(target.subs(point))
        if sign is not None and _VIOLATED[relation](sign):
            wit = substitution_witness(target, point, relation, found_by="candidate point")
            return refuted(claim, wit, f"{target} {relation} 0 fails at {point}: {detail}")
    return None


def grid(var: sp.Symbol = Z, values: Sequence[sp.Rational] = Z_GRID) -> list[dict]:
    """Candidate points var = v."""
    return [{var: v} for v in values]


def from_zero(claim: Texts, expr: sp.Expr, var: sp.Symbol = U, label: str = "") -> SymbolicResult:
    """expr(var) >= 0 on var >= 0: expr(0) >= 0 exactly and expr' >= 0 there (sympy assumptions on var >= 0), so
    expr(var) = expr(0) + int_0^var expr' >= 0."""
    start, detail = decide_sign(sp.simplify(expr.subs(var, 0)))
    if start is None or start < 0:
        return unknown(claim, f"{label}: the value at {var} = 0 is not >= 0 ({detail})")
    slope = prove_nonneg_symbolic(claim, sp.diff(expr, var))
    if slope.verdict is not Verdict.PROVED:
        return unknown(claim, f"{label}: the derivative {sp.diff(expr, var)} was not certified >= 0 ({slope.reason})")
    return proved(claim, {"method": "monotone from 0", "piece": label, "expr": str(expr), "at_0": detail,
                          "derivative": slope.certificate}, f"{label}: {var} = 0 value >= 0, derivative >= 0")


def identities(claim: Texts, lhs: Sequence[sp.Expr], rhs: Sequence[sp.Expr], points: Sequence[dict] = (),
               note: str = "") -> SymbolicResult:
    """lhs == rhs componentwise: REFUTED at the first candidate point (symbols not named are 0) where a component
    differs, else :func:`prove_identity`."""
    for k, (left, right) in enumerate(zip(lhs, rhs)):
        diff = sp.sympify(left - right)
        for point in points:
            full = {s: point.get(s, 0) for s in sorted(diff.free_symbols, key=str)}  # by name: the same text every run
            if any(s.is_positive and v == 0 for s, v in full.items()):
                continue  # the point lies outside this component's domain
            out = first_violation(claim, diff, [full], "==")
            if out is not None:
                return out
    return prove_identity(claim, list(lhs), list(rhs), note=note)


# ---------------------------------------------------------------- sheet 1.3, l1-l7

def check_l1(claim: Texts, formula: Callable[[sp.Expr], sp.Expr] = weight) -> SymbolicResult:
    """l1: -l'(z) = formula(z) and 0 < formula(z) < 1 (z = log t: 1/(1 + t) and t/(1 + t) are > 0)."""
    c = formula(Z)
    same = identities(claim, [-sp.diff(loss(Z), Z)], [c], grid())
    if same.verdict is not Verdict.PROVED:
        return same
    return all_of(claim, [same, prove_nonneg_symbolic(claim, in_t(c), strict=True),
                          prove_nonneg_symbolic(claim, in_t(1 - c), strict=True)])


def check_l2(claim: Texts, lipschitz: sp.Expr = sp.Integer(1)) -> SymbolicResult:
    """l2: |l'(z)| < lipschitz. l' = -c with 0 < c < 1 (l1), so |l'| = c; decided as lipschitz - c(z) > 0."""
    target = lipschitz - weight(Z)
    out = first_violation(claim, target, grid(), ">")
    if out is not None:
        return out
    return all_of(claim, [identities(claim, [sp.diff(loss(Z), Z)], [-weight(Z)]),
                          prove_nonneg_symbolic(claim, in_t(weight(Z)), strict=True),
                          prove_nonneg_symbolic(claim, in_t(target), strict=True)])


def check_l3(claim: Texts, factor: sp.Expr = sp.Integer(1)) -> SymbolicResult:
    """l3: factor * c(z) <= l(z). With u = e^-z: l = log(1 + u), c = u/(1 + u); monotone from u = 0."""
    target = loss(Z) - factor * weight(Z)
    out = first_violation(claim, target, grid())
    if out is not None:
        return out
    return from_zero(claim, in_t(target, sign=-1).subs(T, U), U, f"{target} at z = -log u")


def w0_facts(claim: Texts) -> SymbolicResult:
    """W_0(1/e) in W0_BRACKET (w e^(w+1) - 1 changes sign, and is increasing in w > 0) and below 1."""
    lo, hi = W0_BRACKET
    defining = W0 * sp.exp(W0 + 1) - 1
    s_lo, d_lo = decide_sign(defining.subs(W0, lo))
    s_hi, d_hi = decide_sign(defining.subs(W0, hi))
    if s_lo != -1 or s_hi != 1:
        return unknown(claim, f"W_0(1/e) not bracketed: {d_lo}; {d_hi}")
    increasing = prove_nonneg_symbolic(claim, sp.diff(defining, W0), strict=True)
    return all_of(claim, [increasing, proved(claim, {"W0(1/e) in": [str(lo), str(hi)], "at lo": d_lo, "at hi": d_hi,
                                                     "below 1": str(hi < 1)}, "bracketed")])


def check_l4(claim: Texts, bound: sp.Expr = W0) -> SymbolicResult:
    """l4: c(z) z <= bound. h(z) = bound (1 + e^z) - z = (bound - c(z) z)(1 + e^z) is convex (h'' = bound e^z > 0)
    with h'(z0) = 0 at z0 = -log bound, so h >= h(z0) = bound + 1 + log bound. For bound = W_0(1/e): log w = -1 - w
    gives h(z0) = 0 (the maximum s* is attained at z0 = 1 + w); for a rational bound the sign of h(z0) decides, and
    a violation is witnessed at z0 rounded to 1e-3."""
    target = bound - Z * weight(Z)
    if not target.free_symbols - {Z}:
        out = first_violation(claim, target, grid())
        if out is not None:
            return out
    h = bound * (1 + sp.exp(Z)) - Z
    z0 = -sp.log(bound)
    parts = [identities(claim, [target * (1 + sp.exp(Z))], [h], note="(bound - c(z) z)(1 + e^z) = h(z)"),
             prove_nonneg_symbolic(claim, sp.diff(h, Z, 2), strict=True),
             identities(claim, [sp.diff(h, Z).subs(Z, z0)], [0], note=f"h'(z0) = bound e^z0 - 1 = 0 at z0 = {z0}")]
    at_min = sp.simplify(h.subs(Z, z0).subs(sp.log(W0), -1 - W0))
    sign, detail = decide_sign(at_min)
    if sign is not None and sign < 0:
        point = {Z: sp.Rational(round(float(z0) * 1000), 1000)}
        return first_violation(claim, target, [point]) or unknown(claim, f"h(z0) < 0 ({detail}), no rational witness")
    if sign is None:
        return unknown(claim, f"sign of h(z0) = {at_min} undecided: {detail}")
    parts.append(proved(claim, {"h(z0)": str(at_min), "sign": detail}, "h(z0) >= 0"))
    if bound == W0:
        attained = sp.simplify((Z * weight(Z)).subs(Z, 1 + W0).subs(sp.exp(W0 + 1), 1 / W0))
        parts += [identities(claim, [attained, sp.expand_log(z0, force=True).subs(sp.log(W0), -1 - W0)],
                             [W0, 1 + W0]), w0_facts(claim)]
    return all_of(claim, parts, "h convex with a stationary point z0: h(z) >= h(z0) for every real z; "
                                "bound - c(z) z = h(z)/(1 + e^z)")


def check_l5(claim: Texts, lower: Callable[[sp.Expr], sp.Expr] = lambda e: e / (1 + e)) -> SymbolicResult:
    """l5: l(z) >= eps' <=> z <= -log(e^eps' - 1) (l strictly decreasing, l(-log(e^eps - 1)) = eps), then
    c(z) = 1 - e^{-l(z)} >= 1 - e^{-eps'} >= lower(eps'). The last step: (1 - e^-eps - eps/(1+eps))(1 + eps) =
    1 - (1 + eps) e^-eps, monotone from eps = 0."""
    gap = 1 - sp.exp(-EPS) - lower(EPS)
    out = first_violation(claim, gap, grid(EPS, [sp.Rational(v) for v in ("1/10", "1/2", "1", "2", "5")]))
    if out is not None:
        return out
    times = sp.expand(gap * (1 + EPS))
    return all_of(claim, [
        identities(claim, [loss(-sp.log(sp.exp(EPS) - 1)), weight(Z)], [EPS, 1 - sp.exp(-loss(Z))]),
        prove_nonneg_symbolic(claim, in_t(weight(Z)), strict=True),
        identities(claim, [times], [1 - (1 + EPS) * sp.exp(-EPS)]),
        from_zero(claim, 1 - (1 + U) * sp.exp(-U), U, "1 - (1 + eps) e^-eps")],
        "l' = -c < 0: l is strictly decreasing, so l(z) >= eps' iff z <= -log(e^eps' - 1); c = 1 - e^{-l} is "
        "increasing in l")


def check_l6(claim: Texts, threshold: sp.Expr = LOG2) -> SymbolicResult:
    """l6: l(z) < threshold <=> z > 0, i.e. threshold - l(z) > 0 for z > 0 and l(z) - threshold >= 0 for z <= 0;
    proved from l' = -c < 0 and l(0) = threshold."""
    for v in Z_GRID:
        out = (first_violation(claim, threshold - loss(Z), [{Z: v}], ">") if v > 0
               else first_violation(claim, loss(Z) - threshold, [{Z: v}]))
        if out is not None:
            return out
    return all_of(claim, [identities(claim, [sp.diff(loss(Z), Z), loss(sp.Integer(0))], [-weight(Z), threshold]),
                          prove_nonneg_symbolic(claim, in_t(weight(Z)), strict=True)],
                  "l strictly decreasing with l(0) = threshold")


def check_l7(claim: Texts, extra: sp.Expr = sp.Integer(0)) -> SymbolicResult:
    """l7: l(z) + l(-z) >= 2 log 2 + extra. With t = e^z: e^{l(z) + l(-z)} = (1 + t)^2/t and (1 + t)^2/t - 4 =
    (t - 1)^2/t >= 0, so l(z) + l(-z) >= log 4, with equality at z = 0; then -extra >= 0 decides."""
    target = loss(Z) + loss(-Z) - 2 * LOG2 - extra
    out = first_violation(claim, target, grid())
    if out is not None:
        return out
    sign, detail = decide_sign(-extra)
    if sign is None or sign < 0:
        return unknown(claim, f"-extra >= 0 not certified: {detail}")
    return all_of(claim, [identities(claim, [in_t(sp.exp(loss(Z) + loss(-Z)))], [(1 + T) ** 2 / T]),
                          prove_nonneg_symbolic(claim, (1 + T) ** 2 / T - 4),
                          proved(claim, {"-extra": detail}, "-extra >= 0")],
                  "log is increasing: l(z) + l(-z) = log((1 + t)^2/t) >= log 4")


# ---------------------------------------------------------------- sheet 1.2 and 1.10: leaky ReLU, kernel of QP (8)

B = sp.Symbol("b", positive=True)
ALPHA = 1 / (1 + B)  # every alpha in (0, 1)
S = sp.Symbol("s", positive=True)
BRANCHES = (S, -S, sp.Integer(0))


def leaky(z: sp.Expr, alpha: sp.Expr = ALPHA) -> sp.Expr:
    """sigma(z) = max(z, alpha z)."""
    return sp.Max(z, alpha * z)


def check_leaky(claim: Texts, odd: sp.Expr = 1 + ALPHA) -> SymbolicResult:
    """Sheet 1.2 on the branches z = s > 0, -s, 0: sigma(z) = alpha z + (1 - alpha) max(z, 0); sigma(z) - z >= 0 and
    sigma(z) - alpha z >= 0; sigma'(z) z = sigma(z) (slope 1, alpha; any Clarke choice kappa at 0);
    sigma(z) - sigma(-z) = odd * z (true for odd = 1 + alpha)."""
    kappa = sp.Symbol("kappa", real=True)
    slopes = (1, ALPHA, kappa)
    lhs = [leaky(z) for z in BRANCHES] + [d * z for d, z in zip(slopes, BRANCHES)] + \
        [leaky(z) - leaky(-z) for z in BRANCHES]
    rhs = [ALPHA * z + (1 - ALPHA) * sp.Max(z, 0) for z in BRANCHES] + [leaky(z) for z in BRANCHES] + \
        [odd * z for z in BRANCHES]
    same = identities(claim, lhs, rhs, [{B: sp.Integer(1), S: sp.Integer(1), kappa: HALF}])
    if same.verdict is not Verdict.PROVED:
        return same
    return all_of(claim, [same] + [prove_nonneg_symbolic(claim, leaky(z) - low * z) for z in BRANCHES
                                   for low in (1, ALPHA)])


def dot(u: sp.Matrix, v: sp.Matrix) -> sp.Expr:
    """<u, v>."""
    return (u.T * v)[0]


def feature(x: sp.Matrix, y: int, alpha: sp.Expr) -> sp.Matrix:
    """phi(x, +1) = (x, -alpha x), phi(x, -1) = (alpha x, -x) (sheet 1.10)."""
    return sp.Matrix.vstack(x, -alpha * x) if y > 0 else sp.Matrix.vstack(alpha * x, -x)


def sheet_kernel(inner: sp.Expr, y: int, y2: int, alpha: sp.Expr) -> sp.Expr:
    """K = <x, x'> ((1 + alpha)^2 + (1 - alpha)^2 y y') / 2 (sheet 1.10)."""
    return inner * ((1 + alpha) ** 2 + (1 - alpha) ** 2 * y * y2) / 2


def swapped_kernel(inner: sp.Expr, y: int, y2: int, alpha: sp.Expr) -> sp.Expr:
    """Planted: the same-label and cross-label coefficients swapped, ((1 + alpha)^2 - (1 - alpha)^2 y y') / 2."""
    return inner * ((1 + alpha) ** 2 - (1 - alpha) ** 2 * y * y2) / 2


def check_kernel(claim: Texts,
                 kernel: Callable[[sp.Expr, int, int, sp.Expr], sp.Expr] = sheet_kernel) -> SymbolicResult:
    """x, x', w, u in R^3 symbolic, alpha > 0: <phi(x, y), phi(x', y')> = kernel(<x, x'>, y, y') for the four label
    pairs, and y <(w, u), phi(x, y)> is QP (8)'s constraint (<w, x> - alpha <u, x> on S+, <u, x> - alpha <w, x> on
    S-). One term per coordinate: any d."""
    alpha = sp.Symbol("alpha", positive=True)
    x, x2, w, u = (sp.Matrix(sp.symbols(f"{n}0:3", real=True)) for n in ("x", "xp", "w", "u"))
    pairs = [(a, b) for a in (1, -1) for b in (1, -1)]
    lhs = [dot(feature(x, a, alpha), feature(x2, b, alpha)) for a, b in pairs]
    rhs = [kernel(dot(x, x2), a, b, alpha) for a, b in pairs]
    z = sp.Matrix.vstack(w, u)
    lhs += [a * dot(z, feature(x, a, alpha)) for a in (1, -1)]
    rhs += [dot(w, x) - alpha * dot(u, x), dot(u, x) - alpha * dot(w, x)]
    point = {alpha: HALF, sp.Symbol("x0", real=True): 1, sp.Symbol("xp0", real=True): 1}
    return identities(claim, lhs, rhs, [point], note="bilinear, one term per coordinate: any d")


# ---------------------------------------------------------------- the catalogue

FAMILIES: dict[Callable, Callable[[object], float]] = {}


def entry(claim_id: str, source: str, statement: str, domain: str, expected: Verdict, check: Callable, node: str,
          uses: tuple[str, ...] = (), tags: tuple[str, ...] = ()) -> Claim:
    """The symbolic catalogue claim of one encoding. Readings decided by one check function (``partial`` of it with
    another parameter) share ``Claim.check``, so a REFUTED reading is the teeth of the others."""
    claim = symbolic_claim(ClaimSpec(claim_id, f"002 {source}", statement, domain, expected, check), node, uses)
    shared = FAMILIES.setdefault(getattr(check, "func", check), lambda _: 0.0)
    return replace(claim, check=shared, tags=claim.tags + tags)


REAL = "every real z"
P = ("planted",)
PROVED, REFUTED = Verdict.PROVED, Verdict.REFUTED
CLAIMS_SYMBOLIC: list[Claim] = [
    entry("LT-L1", "Sec. 1.3 l1 (LT-L1)", "c(z) := -l'(z) = 1/(1 + e^z) lies in (0, 1)", REAL, PROVED, check_l1,
          "LOSS"),
    entry("LT-L1-sigmoid", "Sec. 1.3 l1 (LT-L1), planted sign slip", "PLANTED: -l'(z) = 1/(1 + e^-z)", REAL,
          REFUTED, partial(check_l1, formula=lambda z: 1 / (1 + sp.exp(-z))), "LOSS", tags=P),
    entry("LT-L2", "Sec. 1.3 l2 (LT-L2), App. B 'locally Lipschitz with coefficient 1'", "|l'(z)| < 1: l is "
          "1-Lipschitz", REAL, PROVED, check_l2, "LOSS"),
    entry("LT-L2-half", "Sec. 1.3 l2 (LT-L2), planted constant", "PLANTED: |l'(z)| < 1/2 (l 1/2-Lipschitz)", REAL,
          REFUTED, partial(check_l2, lipschitz=HALF), "LOSS", tags=P),
    entry("LT-L3", "Sec. 1.3 l3 (LT-L3), used in App. B Eq. (24)", "c(z) <= l(z)", REAL, PROVED, check_l3, "LOSS"),
    entry("LT-L3-double", "Sec. 1.3 l3 (LT-L3), planted factor", "PLANTED: 2 c(z) <= l(z)", REAL, REFUTED,
          partial(check_l3, factor=sp.Integer(2)), "LOSS", tags=P),
    entry("LT-L4", "Sec. 1.3 l4 (LT-L4), App. B 'c(z) z <= 1'", "c(z) z <= s* = W_0(1/e) = 0.27846..., attained at "
          "z = 1 + W_0(1/e); so also the paper's c(z) z <= 1", REAL, PROVED, check_l4, "LOSS"),
    entry("LT-L4-below-sstar", "Sec. 1.3 l4 (LT-L4), planted constant below s*", "PLANTED: c(z) z <= 0.27", REAL,
          REFUTED, partial(check_l4, bound=sp.Rational(27, 100)), "LOSS", tags=P),
    entry("LT-L4-paper", "Sec. 1.3 l4 (LT-L4), the paper's constant (App. B)", "c(z) z <= 1", REAL, PROVED,
          partial(check_l4, bound=sp.Integer(1)), "LOSS"),
    entry("LT-L5", "Sec. 1.3 l5 (LT-L5), App. B Eq. (17)", "l(z) >= eps' <=> z <= -log(e^eps' - 1), and then "
          "c(z) >= 1 - e^-eps' >= eps'/(1 + eps')", REAL + ", eps' > 0", PROVED, check_l5, "LOSS"),
    entry("LT-L5-eps", "Sec. 1.3 l5 (LT-L5), planted lower bound", "PLANTED: 1 - e^-eps' >= eps' (so l(z) >= eps' "
          "=> c(z) >= eps')", "eps' > 0", REFUTED, partial(check_l5, lower=lambda e: e), "LOSS", tags=P),
    entry("LT-L6", "Sec. 1.3 l6 (LT-L6)", "l(z) < log 2 <=> z > 0", REAL, PROVED, check_l6, "LOSS"),
    entry("LT-L6-one", "Sec. 1.3 l6 (LT-L6), planted threshold", "PLANTED: l(z) < 1 <=> z > 0", REAL, REFUTED,
          partial(check_l6, threshold=sp.Integer(1)), "LOSS", tags=P),
    entry("LT-L7", "Sec. 1.3 l7 (LT-L7), sheet P6", "l(z) + l(-z) >= 2 log 2 (conflicting duplicates cannot be "
          "fitted)", REAL, PROVED, check_l7, "LOSS"),
    entry("LT-L7-plus", "Sec. 1.3 l7 (LT-L7), planted constant", "PLANTED: l(z) + l(-z) >= 2 log 2 + 0.01", REAL,
          REFUTED, partial(check_l7, extra=sp.Rational(1, 100)), "LOSS", tags=P),
    entry("LT-D2-leaky", "Sec. 1.2 (LT-D2), leaky-ReLU identities", "sigma(z) = max(z, alpha z) = alpha z + "
          "(1 - alpha) max(z, 0); sigma(z) >= z, sigma(z) >= alpha z; sigma'(z) z = sigma(z) (any Clarke choice at "
          "0); sigma(z) - sigma(-z) = (1 + alpha) z", "every real z (branches), every alpha in (0, 1)", PROVED,
          check_leaky, "LEAKY"),
    entry("LT-D2-odd-minus", "Sec. 1.2 (LT-D2), planted coefficient", "PLANTED: sigma(z) - sigma(-z) = (1 - alpha) z",
          "every real z, alpha in (0, 1)", REFUTED, partial(check_leaky, odd=1 - ALPHA), "LEAKY", tags=P),
    entry("LT-DQP-kernel", "Eq. (8) / Sec. 6.2 kernel (LT-DQP, sheet 1.10)", "<phi(x, y), phi(x', y')> = <x, x'> "
          "((1 + alpha)^2 + (1 - alpha)^2 y y')/2 with phi(x, +1) = (x, -alpha x), phi(x, -1) = (alpha x, -x), and "
          "y <(w, u), phi(x, y)> is QP (8)'s constraint", "x, x', w, u in R^3 symbolic, alpha > 0, y, y' = +-1",
          PROVED, check_kernel, "QP8", ("LEAKY",)),
    entry("LT-DQP-kernel-swapped", "Eq. (8) kernel (LT-DQP), planted coefficients", "PLANTED: K = <x, x'> "
          "((1 + alpha)^2 - (1 - alpha)^2 y y')/2 (same- and cross-label coefficients swapped)",
          "x, x' in R^3, alpha > 0", REFUTED, partial(check_kernel, kernel=swapped_kernel), "QP8", ("LEAKY",), P),
]
