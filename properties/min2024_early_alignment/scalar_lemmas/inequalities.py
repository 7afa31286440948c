"""Encodings of the sheet-004 inequalities (section 6: S2, S3, S7, S8, S10).

Public builders take the constants and domains as parameters so that tests can run the same
decision procedure on deliberately broken variants (constant halved, domain widened, ...).
"""

from __future__ import annotations

import sympy as sp

from verify.symbolic.inequalities import Piece, crossing_bracket, decide_inequality
from verify.symbolic.result import Claim, SymbolicResult
from verify.symbolic.signs import prove_nonneg_symbolic

Y = sp.Symbol("y", real=True)
YHAT = sp.Symbol("yhat", real=True)
U = sp.Symbol("u", nonnegative=True)
Q = sp.Rational

LOSSES: dict[str, sp.Expr] = {
    "exp": sp.exp(-Y * YHAT),
    "logistic2": 2 * sp.log(1 + sp.exp(-Y * YHAT)),
    "logistic": sp.log(1 + sp.exp(-Y * YHAT)),
    "l2": (Y - YHAT) ** 2 / 2,
}


def data_weight(loss: str) -> sp.Expr:
    """g = -dl/dyhat (y, yhat) for a loss of sheet 004 section 1.3."""
    return sp.simplify(-sp.diff(LOSSES[loss], YHAT))


def _touch(expr: sp.Expr) -> list[dict]:
    return [{U: sp.Integer(0)}] if sp.simplify(expr.subs(U, 0)) == 0 else []


def abs_bound_pieces(a_of: sp.Expr, bound_const: sp.Expr, lo: sp.Rational, hi: sp.Rational,
                     fixed: dict) -> list[Piece]:
    """Pieces of ``|A(yhat)| <= c |yhat|`` on [lo, hi] (lo <= 0 <= hi): each side of 0, both signs of A."""
    pieces = []
    for side, width in ((1, hi), (-1, -lo)):
        if width <= 0:
            continue
        a_u = a_of.subs(YHAT, side * U)
        b_u = bound_const * U
        for sgn, name in ((1, "c|yhat| - A"), (-1, "c|yhat| + A")):
            expr = b_u - sgn * a_u
            pieces.append(Piece(expr, {U: (sp.Integer(0), sp.Rational(width))},
                                {YHAT: side * U, **{k: v for k, v in fixed.items()}},
                                _touch(expr), f"{fixed}, yhat {'>=' if side > 0 else '<='} 0: {name}"))
    return pieces


def check_lemma2(claim: Claim, loss: str, *, const: sp.Expr = 2, lo: sp.Rational = Q(-1),
                 hi: sp.Rational = Q(1), ys: tuple[int, ...] = (1, -1), candidates: list[dict] = (),
                 report_threshold: bool = False) -> SymbolicResult:
    """S2 / Lemma 2 (R1): |-l'(y, yhat) - y| <= const |yhat| for y in ``ys``, yhat in [lo, hi]."""
    g = data_weight(loss)
    target = const * sp.Abs(YHAT) - sp.Abs(g - Y)
    pieces = []
    for y in ys:
        pieces += abs_bound_pieces((g - Y).subs(Y, y), const, Q(lo), Q(hi), {Y: sp.Integer(y)})
    extra = None
    if report_threshold:
        # first violation of the exp bound for z = y yhat < 0: root of 2 s - (e^s - 1) = 0
        s = sp.Symbol("s", real=True)
        br = crossing_bracket(const * s - (sp.exp(s) - 1), s, Q(1), Q(-lo))
        if br is not None:
            extra = {"violation_starts_at_z": f"z* ~ {float(-(br[0] + br[1]) / 2):.6f}, certified sign change "
                                              f"of 2|z| - |e^-z - 1| in [{-br[1]}, {-br[0]}]"}
    return decide_inequality(claim, target, pieces, candidates=candidates, extra=extra)


def check_logistic_factor(claim: Claim, lo: sp.Rational = Q(-1), hi: sp.Rational = Q(1)) -> SymbolicResult:
    """S2: |tanh(z/2)| <= |e^{-z} - 1| on [lo, hi], decided as (e^{-z}-1)^2 - tanh(z/2)^2 >= 0."""
    z = sp.Symbol("z", real=True)
    target = sp.Abs(sp.exp(-z) - 1) - sp.Abs(sp.tanh(z / 2))
    pieces = []
    for side, width in ((1, hi), (-1, -lo)):
        if width <= 0:
            continue
        expr = (sp.exp(-side * U) - 1) ** 2 - sp.tanh(side * U / 2) ** 2
        pieces.append(Piece(expr, {U: (sp.Integer(0), Q(width))}, {z: side * U}, _touch(expr),
                            f"z {'>=' if side > 0 else '<='} 0, squared form"))
    return decide_inequality(claim, target, pieces)


def check_eq40(claim: Claim, loss: str, radius: sp.Rational = Q(1, 4),
               low: sp.Rational = Q(1, 2), high: sp.Rational = Q(3, 2)) -> SymbolicResult:
    """S2 / eq. (40): |yhat| <= radius implies y g in [low, high] (y = +1: g_i; y = -1: -g_i)."""
    g = data_weight(loss)
    target = sp.Min(Y * g - low, high - Y * g)
    pieces = []
    for y in (1, -1):
        yg = (Y * g).subs(Y, y)
        for expr, name in ((yg - low, "y g - low"), (high - yg, "high - y g")):
            pieces.append(Piece(expr, {YHAT: (-Q(radius), Q(radius))}, {YHAT: YHAT, Y: sp.Integer(y)},
                                [], f"y = {y}: {name}"))
    return decide_inequality(claim, target, pieces)


def check_one_var(claim: Claim, expr_of_x: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                  strict: bool = False, candidates: list[dict] = ()) -> SymbolicResult:
    """Generic ``f(x) >= 0`` on [lo, hi] (``hi`` may be oo: sympy monotonicity only)."""
    touching = [{x: Q(lo)}] if lo.is_finite and sp.simplify(expr_of_x.subs(x, lo)) == 0 else []
    if hi.is_finite and sp.simplify(expr_of_x.subs(x, hi)) == 0:
        touching.append({x: Q(hi)})
    piece = Piece(expr_of_x, {x: (sp.sympify(lo), sp.sympify(hi))}, {x: x}, touching, "whole interval")
    return decide_inequality(claim, expr_of_x, [piece], strict=strict, candidates=candidates)


def check_lemma15(claim: Claim, hi: sp.Rational = Q(1), numerator: sp.Expr = 2) -> SymbolicResult:
    """S3 / Lemma 15: numerator*x/(1+x) - log(1+x) >= 0 on [0, hi] (paper: numerator 2, hi 1)."""
    x = sp.Symbol("x", real=True)
    return check_one_var(claim, numerator * x / (1 + x) - sp.log(1 + x), x, sp.Integer(0), Q(hi))


def check_e5_bound(claim: Claim) -> SymbolicResult:
    """S3 / E.5: u/(1+u) <= log(1+u) for u >= 0 (so |l'| <= l for the 2x logistic)."""
    u = sp.Symbol("u", real=True)
    return check_one_var(claim, sp.log(1 + u) - u / (1 + u), u, sp.Integer(0), sp.oo)


def check_s7_lemma3(claim: Claim) -> SymbolicResult:
    """S7: exp(((1+delta)/2) ln(1/(sqrt(h) eps))) eps^2 W^2 <= eps W^2/sqrt(h), 0 <= delta <= 1, sqrt(h) eps <= 1."""
    h, W = sp.symbols("h W", positive=True)
    L, e = sp.symbols("L e", nonnegative=True)  # L = ln(1/(sqrt(h) eps)) >= 0, e = 1 - delta in [0, 1]
    delta, eps = sp.symbols("delta eps", positive=True)
    lhs = sp.exp(((1 + delta) / 2) * sp.log(1 / (sp.sqrt(h) * eps))) * eps ** 2 * W ** 2
    rhs = eps * W ** 2 / sp.sqrt(h)
    return prove_nonneg_symbolic(claim, sp.log(rhs) - sp.log(lhs),
                                 {eps: sp.exp(-L) / sp.sqrt(h), delta: 1 - e},
                                 note="both sides are positive and log is increasing, so LHS <= RHS iff "
                                      "log RHS - log LHS = (1 - delta) L / 2 >= 0; eps = e^{-L}/sqrt(h) with "
                                      "L >= 0 encodes sqrt(h) eps <= 1; the final '< 2 eps W^2/sqrt(h)' is "
                                      "strict because eps W^2/sqrt(h) > 0.")


def check_s8_epsl3(claim: Claim) -> SymbolicResult:
    """S8: (28) (c = 8) implies eps <= eps_L3: eps1/eps_L3 = mm sqrt(mu) X_min/(2 n X_max) <= 1/2."""
    r, mu, q, k = sp.symbols("r mu q k", real=True)  # r = mm/mu, q = X_min/X_max, k = 1/n, all in [0, 1]
    ratio = r * mu * sp.sqrt(mu) * q * k / 2
    unit = (sp.Integer(0), sp.Integer(1))
    piece = Piece(Q(1, 2) - ratio, {r: unit, mu: unit, q: unit, k: unit}, {r: r, mu: mu, q: q, k: k}, [],
                  "1/2 - eps1/eps_L3 on [0, 1]^4")
    return decide_inequality(claim, Q(1, 2) - ratio, [piece])


def check_s10_termwise(claim: Claim, lo: sp.Rational = Q(1, 2), hi: sp.Rational = Q(3, 2)) -> SymbolicResult:
    """S10: c_i c_j in [1/4, 9/4] for c_i, c_j in [lo, hi] (termwise bound on sum c_i c_j G_ij)."""
    c1, c2 = sp.symbols("c1 c2", real=True)
    box = {c1: (Q(lo), Q(hi)), c2: (Q(lo), Q(hi))}
    target = sp.Min(c1 * c2 - Q(1, 4), Q(9, 4) - c1 * c2)
    pieces = [Piece(c1 * c2 - Q(1, 4), box, {c1: c1, c2: c2}, [], "c1 c2 - 1/4"),
              Piece(Q(9, 4) - c1 * c2, box, {c1: c1, c2: c2}, [], "9/4 - c1 c2")]
    return decide_inequality(claim, target, pieces)


def check_s10_ratio(claim: Claim, q_hi: sp.Rational = Q(9, 4)) -> SymbolicResult:
    """S10: (1/2) S/(sqrt(S) sqrt(Q)) = 1/(2 sqrt(q)) >= 1/3 for q = Q/S in [1/4, q_hi] (equality at 9/4)."""
    q = sp.Symbol("q", real=True)
    return check_one_var(claim, 1 / (2 * sp.sqrt(q)) - Q(1, 3), q, Q(1, 4), Q(q_hi))
