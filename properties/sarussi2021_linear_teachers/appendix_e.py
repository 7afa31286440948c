"""Claim sheet 002 section 2.4, Appendix E (static, pointwise over Hypothesis draws of W and x): LT-EA1 (A1), N_W(x) is
sqrt(2k) ||x||-Lipschitz in W (tight: ratio 1 on aligned pairs); LT-EA2 (A2), N_{cW} = c N_W for c > 0 and Euler
<W, grad_W N_W(x)> = N_W(x) for sigma'(0) in {alpha, 1} (exact Fractions); LT-EB3 / LT-EB3.4, Lyu-Li's (B3.1)-(B3.4)
for f(q) = -log log(1 + e^-q), proved with sympy (the helpers of :mod:`.symbolic`; the sheet's [NUM] "d/dq [q f'] >=
0.75 on (0, 50]" fails near 0: LT-EB3-slope-sheet). The GF trajectory claims (LT-EB4, Assumption 6.1) are in
:mod:`.lyu_li`. Each claim is paired with a planted one that runs the SAME check on a mutated case (a smaller
constant, c < 0, a reversed monotonicity). The draws shared with :mod:`.derived` and :mod:`.appendix_k` (teacher data,
the min-norm teacher direction) are here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

import numpy as np
import sympy as sp
from hypothesis import strategies as st

from verify.claims.model import Claim, Margin, measures
from verify.data.dataset import Dataset
from verify.margins import max_margin
from verify.scenarios import SEEDS
from verify.symbolic import decide_sign, prove_nonneg_symbolic
from verify.symbolic.result import Claim as Texts, SymbolicResult, proved, unknown
from verify.verdicts import Verdict

from properties.sarussi2021_linear_teachers import datasets as D
from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers._shared import ALPHA, exact_margin, paper_claim, worst
from properties.sarussi2021_linear_teachers.exact_network import ONE, ZERO, ExactNet, Vec, dot
from properties.sarussi2021_linear_teachers.symbolic import (HALF, LOG2, PROVED, REFUTED, P, Q, T, U, all_of, entry,
                                                          first_violation, from_zero, grid, identities, in_t, loss,
                                                          lyu_li_f, lyu_li_f_prime)

U_ROUND = 2.0 ** -53
ALPHAS = (0.01, ALPHA, 0.5, 0.99)
EXACT_ALPHAS = (Fraction(1, 100), Fraction(1, 5), Fraction(1, 2), Fraction(99, 100))
ANTIPODAL_TOL = 1e-12  # quantities' audit: antipodal iff mismatch / B <= 1e-12
static_claim = partial(paper_claim, horizon=None, tags=("pointwise", "static"))
planted_claim = partial(paper_claim, horizon=None, expected=Verdict.REFUTED, tags=("pointwise", "static", "planted"))


def teacher_direction(ds: Dataset) -> np.ndarray:
    """The min-norm teacher w* of LT-D1 data (y_j <w*, x_j> >= 1), verify's max-margin solver."""
    return np.asarray(max_margin(ds).svm.w, float)


@st.composite
def teacher_data(draw: st.DrawFn, n: tuple[int, int] = (1, 8), d: tuple[int, int] = (1, 4)) -> Dataset:
    """LT-D1 data (verify's linear_teacher: ||x|| <= 1, margin >= 0.05); n = 1 allowed (a single + point)."""
    return D.teacher(draw(st.integers(*n)), draw(st.integers(*d)), draw(st.sampled_from((0.05, 0.2, 0.5))), draw(SEEDS))


# ---------------------------------------------------------------- LT-EA1: Lipschitz in W

@dataclass(frozen=True)
class PairCase:
    """Two first layers W, W2 (2k, d), a point x, the slope, and the Lipschitz constant asserted ("sqrt(2k)" or the
    planted "1"); ``family`` "aligned" moves every row by +-t x/||x|| with all pre-activations positive (tight)."""

    W: np.ndarray
    W2: np.ndarray
    x: np.ndarray
    alpha: float
    constant: str
    family: str


@st.composite
def pair_cases(draw: st.DrawFn, constant: str = "sqrt(2k)") -> PairCase:
    """Random pairs at scales 1e-2..1e2, and aligned pairs where |N_W(x) - N_W2(x)| = 2k t ||x|| =
    sqrt(2k) ||x|| ||W - W2||."""
    k, d, seed = draw(st.integers(1, 4)), draw(st.integers(1, 4)), draw(SEEDS)
    scale, family = draw(st.sampled_from((1e-2, 1.0, 1e2))), draw(st.sampled_from(("random", "aligned")))
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(d) * draw(st.sampled_from((0.1, 1.0)))
    base = scale * rng.standard_normal((2 * k, d))
    if family == "random":
        W2 = base + draw(st.sampled_from((1e-3, 1.0, 10.0))) * scale * rng.standard_normal((2 * k, d))
        return PairCase(base, W2, x, draw(st.sampled_from(ALPHAS)), constant, family)
    unit, t = x / np.linalg.norm(x), scale * draw(st.sampled_from((0.1, 1.0)))
    lift = float(np.max(np.abs(base @ unit))) + 2.0 * t + scale
    W = base + lift * unit
    step = np.vstack([np.tile(t * unit, (k, 1)), np.tile(-t * unit, (k, 1))])
    return PairCase(W, W + step, x, draw(st.sampled_from(ALPHAS)), constant, family)


@measures("1 - |N_W(x) - N_W'(x)| / (C ||x|| ||W - W'||): slack of the Lipschitz ratio (dimensionless)")
def lipschitz_margin(case: PairCase) -> Margin:
    """LT-EA1: 1 - |N_W(x) - N_W2(x)| / (C ||x|| ||W - W2||), C = sqrt(2k) (or the case's planted 1); error from the
    rounding of the 4k pre-activations."""
    k = case.W.shape[0] // 2
    C = math.sqrt(2 * k) if case.constant == "sqrt(2k)" else 1.0
    bound = C * float(np.linalg.norm(case.x)) * float(np.linalg.norm(case.W - case.W2))
    if bound == 0.0:
        return Margin(0.0, 0.0, "W = W2 or x = 0", vacuous=True)
    change = abs(float(N.output(case.W, case.x, case.alpha)[0] - N.output(case.W2, case.x, case.alpha)[0]))
    size = float(np.sum(np.abs(case.W @ case.x)) + np.sum(np.abs(case.W2 @ case.x)))
    ratio = change / bound
    return Margin(1.0 - ratio, 64.0 * U_ROUND * (size / bound + 1.0),
                  f"|dN| / ({case.constant} ||x|| ||dW||) = {ratio:.12g} ({case.family}, k = {k})", ratio=ratio)


EA1 = static_claim(
    "Appendix E (A1) (LT-EA1)",
    id="LT-EA1", node="EA", uses=("LEAKY",),
    statement="|N_W(x) - N_W'(x)| <= sqrt(2k) ||x|| ||W - W'|| for all W, W', x (N is globally Lipschitz in W; the "
              "constant is attained by aligned pairs)",
    check=lipschitz_margin, over=pair_cases(), assumptions=("leaky",),
)

EA1_ONE = planted_claim(
    "Appendix E (A1) (LT-EA1), planted constant",
    id="LT-EA1-constant-1", node="EA", uses=("LEAKY",),
    statement="PLANTED: |N_W(x) - N_W'(x)| <= ||x|| ||W - W'|| (constant 1 instead of sqrt(2k)); aligned pairs give "
              "sqrt(2k)",
    check=lipschitz_margin, over=pair_cases("1"), assumptions=("leaky",),
)


# ---------------------------------------------------------------- LT-EA2 / LT-X7 (static): homogeneity and Euler

@dataclass(frozen=True)
class ExactCase:
    """An integer first layer (theorem51's exact net; pre-activations 0 occur: the kink), an integer x and a rational
    scale c."""

    net: ExactNet
    x: Vec
    c: Fraction


@st.composite
def exact_cases(draw: st.DrawFn, negative: bool = False) -> ExactCase:
    """k, d in [1, 3], entries in [-3, 3], alpha in EXACT_ALPHAS; c > 0 (or c < 0 where ``negative``)."""
    k, d = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    entries = st.lists(st.integers(-3, 3), min_size=d, max_size=d).map(lambda v: tuple(Fraction(a) for a in v))
    rows = tuple(draw(entries) for _ in range(2 * k))
    c = Fraction(draw(st.integers(1, 5)), draw(st.integers(1, 4))) * (-1 if negative else 1)
    return ExactCase(ExactNet(rows[:k], rows[k:], draw(st.sampled_from(EXACT_ALPHAS))), draw(entries), c)


def euler_sum(net: ExactNet, x: Vec, at_zero: Fraction) -> Fraction:
    """<W, grad_W N_W(x)> with dN/dw_i = sigma'(<w_i, x>) x, dN/du_i = -sigma'(<u_i, x>) x, sigma'(0) = ``at_zero``."""
    def term(row: Vec) -> Fraction:
        p = dot(row, x)
        return (ONE if p > 0 else net.alpha if p < 0 else at_zero) * p

    return sum((term(w) for w in net.plus), ZERO) - sum((term(u) for u in net.minus), ZERO)


@measures("+1 holds / -1 violated (exact decision, rational arithmetic); worst of homogeneity and Euler")
def homogeneity_margin(case: ExactCase) -> Margin:
    """LT-EA2, exact: N_{cW}(x) = c N_W(x) and <W, grad_W N_W(x)> = N_W(x) for sigma'(0) in {alpha, 1}."""
    net, x, c = case.net, case.x, case.c
    value = net.output(x)
    scale = lambda rows: tuple(tuple(c * v for v in row) for row in rows)  # noqa: E731
    scaled = ExactNet(scale(net.plus), scale(net.minus), net.alpha).output(x)
    euler = [euler_sum(net, x, s0) for s0 in (net.alpha, ONE)]
    return worst([exact_margin(scaled == c * value, f"N_cW = {scaled}, c N_W = {c * value} (c = {c})"),
                  exact_margin(all(e == value for e in euler), f"<W, grad N> = {euler} (sigma'(0) = alpha, 1), "
                                                               f"N = {value}")])


EA2 = static_claim(
    "Appendix E (A2) (LT-EA2)",
    id="LT-EA2", node="EA", uses=("LEAKY",),
    statement="N_{cW}(x) = c N_W(x) for c > 0 (1-homogeneous), and <W, grad_W N_W(x)> = N_W(x) for sigma'(0) = alpha "
              "and for sigma'(0) = 1 (exact rationals, kinks included)",
    check=homogeneity_margin, over=exact_cases(), assumptions=("leaky",),
)

EA2_NEGATIVE = planted_claim(
    "Appendix E (A2) (LT-EA2), planted c < 0",
    id="LT-EA2-negative-c", node="EA", uses=("LEAKY",),
    statement="PLANTED: N_{cW}(x) = c N_W(x) also for c < 0 (false: N_{cW} - c N_W = |c|(1 - alpha)(sum_i |<w_i, x>| "
              "- sum_i |<u_i, x>|))",
    check=homogeneity_margin, over=exact_cases(negative=True), assumptions=("leaky",),
)


# ---------------------------------------------------------------- (B3.1)-(B3.4) for the logistic loss (sympy)

def monotone_f_prime(claim: Texts) -> SymbolicResult:
    """f' > 0 and non-decreasing: d/dq (1/f') = e^q log(1 + e^-q) - 1 <= 0, since with t = e^-q,
    (1 - log(1 + t)/t) t = t - log(1 + t) >= 0 (monotone from t = 0)."""
    inverse_slope = sp.exp(Q) * loss(Q) - 1
    return all_of(claim, [
        identities(claim, [sp.diff(1 / lyu_li_f_prime(Q), Q)], [inverse_slope]),
        prove_nonneg_symbolic(claim, in_t(lyu_li_f_prime(Q), Q, -1), strict=True),
        identities(claim, [sp.expand(in_t(-inverse_slope, Q, -1) * T)], [T - sp.log(1 + T)]),
        from_zero(claim, U - sp.log(1 + U), U, "t - log(1 + t)")],
        "1/f' > 0 is non-increasing, so f' is non-decreasing")


def check_b3(claim: Texts, direction: str = "non-decreasing") -> SymbolicResult:
    """(B3.1)-(B3.3): f is C^1 with f' = 1/((1 + e^q) log(1 + e^-q)) (continuous: the denominator is > 0), f' > 0,
    f'(0) = 1/(2 log 2), f' ``direction`` on R; with b_f = 0, q f'(q) is a product of two non-negative
    non-decreasing functions on (0, oo) and >= q f'(0) -> oo. The planted "non-increasing" is refuted at q = 0, 1."""
    q1, q2 = sp.symbols("q1 q2", real=True)
    step = lyu_li_f_prime(q2) - lyu_li_f_prime(q1)
    target = step if direction == "non-decreasing" else -step
    out = first_violation(claim, target, [{q1: sp.Integer(a), q2: sp.Integer(a + 1)} for a in (-1, 0, 1)])
    if out is not None:
        return out
    if direction != "non-decreasing":
        return unknown(claim, f"no argument for f' {direction}")
    return all_of(claim, [
        identities(claim, [sp.diff(lyu_li_f(Q), Q), lyu_li_f_prime(sp.Integer(0))],
                   [lyu_li_f_prime(Q), 1 / (2 * LOG2)]),
        monotone_f_prime(claim),
        identities(claim, [sp.limit(lyu_li_f_prime(Q), Q, sp.oo)], [1])],
        "(B3.1) f' is continuous (its denominator is > 0: B3.2); (B3.3) with b_f = 0: for 0 < q < q', "
        "q f'(q) <= q' f'(q'); q f'(q) >= q/(2 log 2) -> oo")


def check_b34(claim: Texts, K: sp.Expr = 2 * LOG2) -> SymbolicResult:
    """(B3.4) with b_f = 0, b_g = 2 f(0) = -2 log log 2 (>= max{2 f(b_f), f(2 b_f)} = 2 f(0) as f(0) > 0) and K:
    g'(x) = 1/f'(g(x)) <= 1/f'(g(theta x)) = g'(theta x) (g increasing, f' non-decreasing; theta x >= b_g/2 = f(0)
    lies in g's domain), and for y > g(b_g) > 0, f'(y) <= 1 <= K f'(0) <= K f'(theta y). Needs K >= 1 and
    K f'(0) >= 1: K = 2 log 2 works; the planted K = 1 fails the f-part at y = 2, theta = 1/2."""
    y, theta = sp.Symbol("y", positive=True), sp.Symbol("theta", positive=True)
    target = K * lyu_li_f_prime(theta * y) - lyu_li_f_prime(y)
    points = [{y: sp.Integer(v), theta: th} for v in (1, 2, 5) for th in (HALF, sp.Rational(3, 4))]
    out = first_violation(claim, target, points)
    if out is not None:
        return out
    signs = [decide_sign(e) for e in (lyu_li_f(sp.Integer(0)), K - 1, K * lyu_li_f_prime(sp.Integer(0)) - 1)]
    if any(s is None or s < 0 for s, _ in signs) or signs[0][0] == 0:
        return unknown(claim, f"f(0) > 0, K >= 1, K f'(0) >= 1 not all certified: {[d for _, d in signs]}")
    return all_of(claim, [
        monotone_f_prime(claim),
        identities(claim, [sp.expand(in_t(1 / lyu_li_f_prime(Q) - 1, Q, -1) * T)],
                   [(1 + T) * sp.log(1 + T) - T]),
        from_zero(claim, (1 + U) * sp.log(1 + U) - U, U, "(1 + t) log(1 + t) - t (f' <= 1)"),
        proved(claim, {"f(0) > 0": signs[0][1], "K >= 1": signs[1][1], "K f'(0) >= 1": signs[2][1]},
               "constants")],
        "g-part with factor 1 <= K by monotonicity; f-part: f'(y) <= 1 <= K f'(0) <= K f'(theta y)")


def check_b3_slope(claim: Texts, lower: sp.Expr = 1 / (2 * LOG2)) -> SymbolicResult:
    """d/dq [q f'(q)] >= lower for q > 0. d/dq [q f'] = f' + q f'' with f'' = (1 - e^q log(1 + e^-q)) f'^2 >= 0, so
    d/dq [q f'] >= f'(q) >= f'(0) = 1/(2 log 2) (f' non-decreasing), sharp as q -> 0+: true for lower <= f'(0); the
    sheet's [NUM] 0.75 fails at q = 1/100 (0.7245...)."""
    target = sp.diff(Q * lyu_li_f_prime(Q), Q) - lower
    out = first_violation(claim, target, grid(Q, [sp.Rational(v) for v in ("1/100", "1/10", "1/2", "1", "5", "50")]))
    if out is not None:
        return out
    sign, detail = decide_sign(lyu_li_f_prime(sp.Integer(0)) - lower)
    if sign is None or sign < 0:
        return unknown(claim, f"lower <= f'(0) not certified: {detail}")
    fp = lyu_li_f_prime(Q)
    return all_of(claim, [
        monotone_f_prime(claim),
        identities(claim, [sp.diff(Q * fp, Q)], [fp + Q * fp ** 2 * (1 - sp.exp(Q) * loss(Q))],
                   note="d/dq [q f'] = f' + q f'', f'' = -(1/f')' f'^2"),
        proved(claim, {"f'(0) - lower": detail}, "lower <= f'(0)")],
        "for q > 0: q f'^2 (1 - e^q log(1 + e^-q)) >= 0, so d/dq [q f'] >= f'(q) >= f'(0) >= lower")


CLAIMS_B3: list[Claim] = [
    entry("LT-EB3", "Appendix E (LT-EB3), (B3.1)-(B3.3) for f = -log log(1 + e^-q)", "f is C^1 with f'(q) = "
          "1/((1 + e^q) log(1 + e^-q)) > 0, f'(0) = 1/(2 log 2), f' non-decreasing with f' -> 1, so q f'(q) is "
          "non-decreasing on (0, oo) (b_f = 0) and -> oo", "every real q", PROVED, check_b3, "EA", ("LOSS",)),
    entry("LT-EB3-decreasing", "Appendix E (LT-EB3), planted reversed monotonicity", "PLANTED: f' is non-increasing "
          "(f'(q) <= f'(0) = 1/(2 log 2) for q > 0)", "every real q", REFUTED,
          partial(check_b3, direction="non-increasing"), "EA", ("LOSS",), P),
    entry("LT-EB3-slope", "Appendix E (LT-EB3), (B3.3) rate", "d/dq [q f'(q)] >= f'(0) = 1/(2 log 2) for every q > 0 "
          "(the infimum, approached as q -> 0+)", "every q > 0", PROVED, check_b3_slope, "EA", ("LOSS",)),
    entry("LT-EB3-slope-sheet", "Appendix E (LT-EB3), sheet 2.4 [NUM] reference value", "AS IN THE SHEET [NUM]: "
          "d/dq [q f'(q)] >= 0.75 on (0, 50] (false near 0: 0.7245... at q = 1/100, infimum 1/(2 log 2) = 0.7213...)",
          "q in (0, 50]", REFUTED, partial(check_b3_slope, lower=sp.Rational(3, 4)), "EA", ("LOSS",), ("sheet-num",)),
    entry("LT-EB3.4", "Appendix E (LT-EB3), (B3.4)", "with b_f = 0, b_g = 2 f(0) and K = 2 log 2: g'(x) <= K "
          "g'(theta x) and f'(y) <= K f'(theta y) for x > b_g, y > g(b_g), theta in [1/2, 1)", "x > b_g, y > g(b_g), "
          "theta in [1/2, 1)", PROVED, check_b34, "EA", ("LOSS",)),
    entry("LT-EB3.4-K1", "Appendix E (LT-EB3), (B3.4) planted constant", "PLANTED: (B3.4) with K = 1: f'(y) <= "
          "f'(theta y)", "y > g(b_g), theta in [1/2, 1)", REFUTED, partial(check_b34, K=sp.Integer(1)), "EA",
          ("LOSS",), P),
]
