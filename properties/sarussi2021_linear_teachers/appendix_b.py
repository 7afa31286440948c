"""Claim sheet 002 section 2.1, Appendix B: the per-step inequalities behind Theorem 4.1 (LT-P41a..h, Eqs. (11)-(24)),
each with a planted twin sharing its check: the dropped alpha of Eq. (14), the unscaled Eq. (15) on ||x|| = 10 (P5),
Eq. (16) without its eta^2 term, Eq. (17) as c >= eps', F growing per mistake epoch for ReLU (P4), Cauchy-Schwarz
without sqrt(2k), the Lipschitz constant without sqrt(2k). Theorem 4.1 and Eqs. (25)-(27) (LT-P41i) are in
:mod:`.theorem41`; the step reader (runs, tolerances, readings) in :mod:`.sgd_update`. Bounds report measured / bound
as ``ratio``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st
from scipy.special import expit

from verify.claims.model import Margin, measures
from verify.verdicts import Verdict

from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers import quantities as Q
from properties.sarussi2021_linear_teachers import scenarios as SC
from properties.sarussi2021_linear_teachers._shared import paper_claim, worst
from properties.sarussi2021_linear_teachers.sgd_update import (SGD_HYP, STEP_EPOCHS, STEP_TOL, U_ROUND, p4_scenarios,
                                                              read_steps, row_radius, step_scenarios, variant)


# --- LT-P41a, Eq. (14): F rises by eta c y <w*, x> (sum a + sum b) >= 2 k alpha eta c ---------------------------

def with_ratio(margin: Margin, ratio: float) -> Margin:
    """``margin`` carrying a bound's measured / bound."""
    return Margin(margin.value, margin.error, margin.note, ratio=max(0.0, float(ratio)), site=margin.site)


def at_worst(value: np.ndarray, error: np.ndarray, what: str, times: np.ndarray | None = None) -> Margin:
    """The entry of value (>= -error holds) closest to a violation, as a margin naming it (index 0 = step 1); with
    ``times`` (the run's time of each entry along the first axis) its site: that time and, for a second axis (the data
    points j), the point."""
    value, error = np.broadcast_arrays(np.asarray(value, float), np.asarray(error, float))
    at = np.unravel_index(int(np.argmin(value + error)), value.shape)
    where = ", ".join(f"{i}" for i in (at[0] + 1, *at[1:]))
    site = None if times is None else {"t": float(times[at[0]]), **({"i": int(at[1])} if len(at) > 1 else {})}
    return Margin(float(value[at]), float(error[at]), f"{what}: worst at ({where}), {value[at]:.3g} "
                                                     f"(tol {error[at]:.2g})", site=site)


@measures("worst of -|dF - Eq. (14)| and dF - 2 k alpha eta c_t over the SGD steps (absolute, units of F = <W, W*>)")
def correlation_step(run: Any) -> Margin:
    """LT-P41a: F(W_t) - F(W_{t-1}) = eta c_t y_t <w*, x_t> (sum_i a_t^(i) + sum_i b_t^(i)) (identity) and
    >= 2 k alpha eta c_t (the planted "no-alpha" reading: 2 k eta c_t); ratio the largest floor / rise."""
    S = read_steps(run)
    rise, tol = np.diff(S.F), S.tol()
    formula = S.eta * S.c * S.ys * (S.x @ S.w_star) * S.slopes.sum(axis=1)
    floor = 2.0 * S.k * (1.0 if variant(run) == "no-alpha" else S.alpha) * S.eta * S.c
    ratio = float(np.max(np.where(rise > 0.0, floor / np.where(rise > 0.0, rise, 1.0), 0.0)))
    return with_ratio(worst([at_worst(-np.abs(rise - formula), tol, "|dF - Eq. (14)|", run.times[1:]),
                             at_worst(rise - floor, tol, "dF - 2 k alpha eta c", run.times[1:])]), ratio)


P41A = paper_claim(
    "App. B, Eq. (14) (LT-P41a)",
    id="LT-P41a", node="P41", uses=("D4", "LOSS", "D1", "LEAKY"),
    statement="At every SGD step F(W_t) - F(W_{t-1}) = eta c_t y_t <w*, x_t> (sum_i a_t^(i) + sum_i b_t^(i)) >= "
              "2 k alpha eta c_t > 0 (w* the min-norm teacher, y <w*, x> >= 1, sigma' in [alpha, 1])",
    check=correlation_step, over=step_scenarios(), horizon=SC.epochs_horizon(STEP_EPOCHS), backend="gd",
    spacing="steps", assumptions=SGD_HYP, tags=("sgd", "per-step"), meta={"budget": {"ci": 6}},
)

P41A_NO_ALPHA = paper_claim(
    "App. B, Eq. (14) with the slope floor alpha dropped (planted)",
    id="LT-P41a-no-alpha", node="P41", uses=("D4", "LOSS", "D1", "LEAKY"),
    statement="PLANTED: F rises by at least 2 k eta c_t per step (alpha dropped from sigma' >= alpha). False: a "
              "support vector (y <w*, x> = 1) sampled while some neuron is off gives less",
    check=correlation_step, over=step_scenarios(variant="no-alpha"), horizon=SC.epochs_horizon(2), backend="gd",
    spacing="steps", expected=Verdict.REFUTED, assumptions=SGD_HYP, tags=("planted", "sgd"),
    meta={"budget": {"ci": 4}},
)


# --- LT-P41b, Eq. (15): the G^2 increment ----------------------------------------------------------------------

@measures("worst of -|dG^2 - Eq. (15)| and the Eq. (15) bound - dG^2 over the SGD steps (absolute, units of ||W||^2)")
def norm_step(run: Any) -> Margin:
    """LT-P41b: G(W_t)^2 - G(W_{t-1})^2 = 2 eta c z + eta^2 c^2 ||x_t||^2 sum_i (a^2 + b^2) (identity) <= 2 eta c z +
    2 k eta^2 c^2 B^2 with B = max ||x_j|| (the planted "unit-B" reading: B = 1, the paper's ||x|| <= 1); ratio
    the largest ||x_t||^2 sum (a^2 + b^2) / (2 k B^2)."""
    S = read_steps(run)
    rise, tol = np.diff(S.G2), S.tol()
    quad = np.einsum("td,td->t", S.x, S.x) * np.sum(S.slopes ** 2, axis=1)
    linear = 2.0 * S.eta * S.c * S.z
    B = 1.0 if variant(run) == "unit-B" else S.B
    cap = 2.0 * S.k * B * B
    return with_ratio(worst([at_worst(-np.abs(rise - linear - (S.eta * S.c) ** 2 * quad), tol, "|dG^2 - Eq. (15)|",
                                      run.times[1:]),
                             at_worst(linear + (S.eta * S.c) ** 2 * cap - rise, tol,
                                      f"2 eta c z + 2 k eta^2 c^2 B^2 - dG^2 (B = {B:.3g})", run.times[1:])]),
                      float(np.max(quad)) / cap)


P41B = paper_claim(
    "App. B, Eq. (15) (LT-P41b)",
    id="LT-P41b", node="P41", uses=("D4", "LOSS", "D1"),
    statement="At every SGD step G(W_t)^2 - G(W_{t-1})^2 = 2 eta c_t z_t + eta^2 c_t^2 ||x_t||^2 sum_i (a^2 + b^2) <= "
              "2 eta c_t z_t + 2 k eta^2 c_t^2 B^2 (B = max ||x_j||; also on P5's ||x|| = 10 data)",
    check=norm_step, over=st.one_of(step_scenarios(), step_scenarios(large=True)),
    horizon=SC.epochs_horizon(STEP_EPOCHS), backend="gd", spacing="steps", assumptions=SGD_HYP,
    tags=("sgd", "per-step"), meta={"budget": {"ci": 6}},
)

P5_UNSCALED = paper_claim(
    "sheet 5.2 P5 (Eq. (15) with the unscaled constant 2 k eta^2 on ||x|| = 10 data)",
    id="P5-P41b-unscaled", node="P41", uses=("D4", "LOSS", "D1"),
    statement="PLANTED: G^2 rises by at most 2 eta c z + 2 k eta^2 c^2 (B = 1) on data with ||x|| up to 10. False "
              "once alpha^2 ||x||^2 > 1, since sum (a^2 + b^2) >= 2 k alpha^2 (LT-D1's ||x|| <= 1 dropped)",
    check=norm_step, over=step_scenarios(large=True, variant="unit-B", alphas=(0.2,)), horizon=SC.epochs_horizon(2),
    backend="gd", spacing="steps", expected=Verdict.REFUTED, assumptions=("drops LT-D1's ||x|| <= 1",),
    tags=("planted", "sgd"), meta={"budget": {"ci": 4}},
)


# --- LT-P41c, Eq. (16): G grows at most like sqrt(t) ----------------------------------------------------------

@measures("worst of 2 k R^2 - G_0^2 and t (2 eta s* + 2 k eta^2 B^2) - (G_t^2 - G_0^2) (absolute, units of ||W||^2)")
def norm_growth(run: Any) -> Margin:
    """LT-P41c: G(W_t)^2 - G(W_0)^2 <= t (2 eta s* + 2 k eta^2 B^2) with s* = W_0(1/e) (l4; the paper's s = 1 is
    weaker) and G(W_0)^2 <= 2 k R^2; the planted "no-eta2" reading drops 2 k eta^2 B^2. Ratio the largest growth /
    bound (the ratio against s = 1 in the note)."""
    S = read_steps(run)
    t = np.arange(S.W.shape[0], dtype=float)
    eta2 = 0.0 if variant(run) == "no-eta2" else 2.0 * S.k * S.eta ** 2 * S.B ** 2
    growth, tol = S.G2 - S.G2[0], STEP_TOL * (1.0 + np.abs(S.F) + S.G2)
    sharp, paper = t * (2.0 * S.eta * Q.S_STAR + eta2), t * (2.0 * S.eta + eta2)
    ratios = growth[1:] / sharp[1:]
    init = Margin(2.0 * S.k * row_radius(S.W[0]) ** 2 - S.G2[0], tol[0], "2 k R^2 - G(W_0)^2")
    out = worst([init, at_worst(sharp[1:] - growth[1:], tol[1:], "t (2 eta s* + 2 k eta^2 B^2) - (G_t^2 - G_0^2)",
                                run.times[1:])])
    return Margin(out.value, out.error, f"{out.note}; growth / bound: {np.max(ratios):.3g} (s*), "
                                        f"{np.max(growth[1:] / paper[1:]):.3g} (s = 1)", ratio=max(0.0, np.max(ratios)),
                  site=out.site)


P41C = paper_claim(
    "App. B, Eq. (16) (LT-P41c)",
    id="LT-P41c", node="P41", uses=("D4", "LOSS", "D1", "INIT"),
    statement="G(W_t)^2 <= G(W_0)^2 + t (2 eta s + 2 k eta^2 B^2) <= 2 k R^2 + t (2 eta s + 2 k eta^2 B^2), checked "
              "with the sharp s* = W_0(1/e) = 0.2785 (l4: c(z) z <= s*; the paper's s = 1 follows)",
    check=norm_growth, over=step_scenarios(), horizon=SC.epochs_horizon(STEP_EPOCHS), backend="gd", spacing="steps",
    assumptions=SGD_HYP, tags=("sgd", "per-step"), meta={"budget": {"ci": 6}},
)

P41C_NO_ETA2 = paper_claim(
    "App. B, Eq. (16) without its O(eta^2) term (planted)",
    id="LT-P41c-no-eta2", node="P41", uses=("D4", "LOSS", "D1", "INIT"),
    statement="PLANTED: G(W_t)^2 <= G(W_0)^2 + 2 eta s* t (the 2 k eta^2 B^2 term dropped). False for large steps: "
              "the eta^2 c^2 ||x||^2 sum (a^2 + b^2) part of Eq. (15) exceeds 2 eta s* at the first steps",
    check=norm_growth, over=step_scenarios(variant="no-eta2", etas=(5.0, 10.0), alphas=(0.5, 0.99),
                                           radii=(1e-3, 0.1), margins=(0.4,)), horizon=SC.epochs_horizon(2),
    backend="gd", spacing="steps", expected=Verdict.REFUTED, assumptions=SGD_HYP, tags=("planted", "sgd"),
    meta={"budget": {"ci": 4}},
)


# --- LT-P41d, Eq. (17): a mistake forces a large step ----------------------------------------------------------

@dataclass(frozen=True)
class MistakeDraw:
    """A point margin z at distance ``offset`` below the threshold -log(e^eps' - 1) where l(z) = eps'."""

    z: float
    eps_prime: float
    offset: float
    reading: str


@st.composite
def mistake_draws(draw: st.DrawFn, reading: str = "paper") -> MistakeDraw:
    """eps' in [1e-4, 3] and z at the threshold or 1e-9 .. 3 below it (l(z) >= eps')."""
    eps_prime = draw(st.floats(1e-4, 3.0))
    offset = draw(st.sampled_from((0.0, 1e-9, 1e-4, 0.01, 0.3, 3.0)))
    return MistakeDraw(-math.log(math.expm1(eps_prime)) - offset, eps_prime, offset, reading)


@measures("(c(z) - floor) / floor, floor = 1 - e^-eps' (planted reading: eps'), relative")
def mistake_weight(value: MistakeDraw) -> Margin:
    """LT-P41d: l(z) >= eps' => c(z) >= 1 - e^-eps' (c = 1 - e^-l exactly; the planted "linear" reading: c >= eps');
    value (c - floor) / floor, error 1e-12 (vacuous where l(z) < eps' in float64)."""
    loss, c = float(N.point_loss(value.z)), float(expit(-value.z))
    if loss < value.eps_prime:
        return Margin(0.0, 0.0, f"l(z) = {loss!r} < eps' = {value.eps_prime!r} in float64", vacuous=True)
    floor = value.eps_prime if value.reading == "linear" else -math.expm1(-value.eps_prime)
    return Margin((c - floor) / floor, 1e-12, f"z = {value.z:.6g}: l = {loss:.6g} >= eps' = {value.eps_prime:.6g}, "
                                               f"c = {c:.6g} vs {floor:.6g}", ratio=floor / c)


P41D = paper_claim(
    "App. B, Eq. (17) (LT-P41d)",
    id="LT-P41d", node="P41", uses=("LOSS",),
    statement="l(z) >= eps' implies c(z) >= 1 - e^-eps' (l5; equality at l(z) = eps' since c = 1 - e^-l)",
    check=mistake_weight, over=mistake_draws(), tags=("pointwise", "loss"), meta={"budget": {"ci": 12}},
)

P41D_LINEAR = paper_claim(
    "App. B, Eq. (17) read as c >= eps' (planted: the OCR lost the bound)",
    id="LT-P41d-linear", node="P41", uses=("LOSS",),
    statement="PLANTED: l(z) >= eps' implies c(z) >= eps'. False near the threshold: there c = 1 - e^-eps' < eps'",
    check=mistake_weight, over=mistake_draws("linear"), expected=Verdict.REFUTED, tags=("planted", "pointwise"),
    meta={"budget": {"ci": 12}},
)


# --- LT-P41e, Eqs. (18)-(19): F grows linearly in the mistake epochs --------------------------------------------

@measures("min over epochs T of F(W_nT) - F(W_0) - 2 k alpha eta c_eps m_T (absolute, units of F = <W, W*>)")
def mistake_epochs(run: Any) -> Margin:
    """LT-P41e: F(W_{nT}) >= F(W_0) + 2 k alpha eta (1 - e^-eps') m_T for every T, m_T the epochs among the first T
    with a point sampled at l >= eps' (eps' of sheet 2.1); the rate's alpha is ``params["alpha_rate"]`` where set
    (P4's planted ReLU reading). Ratio the largest (floor - F_0) / (F - F_0)."""
    S, sc = read_steps(run), run.scenario
    alpha_rate = float(sc.params.get("alpha_rate", S.alpha))
    bound = Q.sgd_bound(float(sc.params["eps"]), S.n, S.k, alpha_rate, S.eta, row_radius(S.W[0]), S.B,
                        float(np.linalg.norm(S.w_star)))
    m = np.cumsum(np.any(S.epoch_losses() >= bound.eps_prime, axis=1))
    F_end = S.F[S.n * np.arange(1, m.size + 1)]
    gain = 2.0 * S.k * alpha_rate * S.eta * bound.c_eps * m
    tol = STEP_TOL * (1.0 + np.abs(F_end) + S.G2[S.n * np.arange(1, m.size + 1)])
    rise = F_end - S.F[0]
    out = at_worst(rise - gain, tol, f"F(W_nT) - F(W_0) - 2 k alpha eta c_eps m_T (alpha = {alpha_rate:g}, "
                                     f"eps' = {bound.eps_prime:.3g}, m_T = {m[-1]} of {m.size})",
                   run.times[S.n * np.arange(1, m.size + 1)])
    return with_ratio(out, float(np.max(np.where(rise > 0.0, gain / np.where(rise > 0.0, rise, 1.0), 0.0))))


P41E = paper_claim(
    "App. B, Eqs. (18)-(19) (LT-P41e)",
    id="LT-P41e", node="P41", uses=("D4", "LOSS", "D1", "LEAKY"),
    statement="F(W_nT) >= F(W_0) + 2 k alpha eta (1 - e^-eps') m_T for every T, m_T = the number of epochs among the "
              "first T with a point sampled at loss >= eps' = eps / (1 + 2 k eta n B^2)",
    check=mistake_epochs, over=step_scenarios(), horizon=SC.epochs_horizon(STEP_EPOCHS), backend="gd",
    spacing="steps", assumptions=SGD_HYP, tags=("sgd", "per-epoch"), meta={"budget": {"ci": 6}},
)

P4_P41E = paper_claim(
    "sheet 5.2 P4 (Eqs. (18)-(19) for ReLU, alpha = 0)",
    id="P4-P41e-relu", node="P41", uses=("D4", "LOSS", "D1", "LEAKY"),
    statement="PLANTED: for a ReLU net F still grows by 2 k alpha_0 eta (1 - e^-eps') per mistake epoch for some "
              "alpha_0 > 0 (0.01 or 0.2). False on P4: every epoch is a mistake epoch (l = log 2) and F is constant",
    check=mistake_epochs, over=p4_scenarios(), horizon=SC.epochs_horizon(2), backend="gd", spacing="steps",
    expected=Verdict.REFUTED, assumptions=("drops 'leaky' (alpha = 0)",), tags=("planted", "sgd"),
    meta={"budget": {"ci": 4}},
)


# --- LT-P41f, Eq. (11) and the init bound ---------------------------------------------------------------------

@measures("worst of G ||W*|| - F per iterate and F(W_0) + 2 k R ||w*|| (absolute, units of F = <W, W*>)")
def cauchy_schwarz(run: Any) -> Margin:
    """LT-P41f: F(W_t) <= G(W_t) ||W*|| = G(W_t) sqrt(2k) ||w*|| at every iterate and F(W_0) >= -2 k R ||w*|| (the
    planted "no-sqrt2k" reading: ||W*|| = ||w*||). Ratio the largest F / (G ||W*||)."""
    S = read_steps(run)
    norm_w = float(np.linalg.norm(S.w_star))
    star = norm_w * (1.0 if variant(run) == "no-sqrt2k" else math.sqrt(2.0 * S.k))
    cap, tol = np.sqrt(S.G2) * star, STEP_TOL * (1.0 + np.abs(S.F) + S.G2)
    init = Margin(S.F[0] + 2.0 * S.k * row_radius(S.W[0]) * norm_w, tol[0], "F(W_0) + 2 k R ||w*||")
    out = worst([init, at_worst(cap - S.F, tol, "G ||W*|| - F", run.times)])
    return with_ratio(out, float(np.max(S.F / cap)))


P41F = paper_claim(
    "App. B, Eq. (11) and the init bound (LT-P41f)",
    id="LT-P41f", node="P41", uses=("D1", "INIT"),
    statement="|F(W)| <= G(W) ||W*|| = G(W) sqrt(2k) ||w*|| along SGD, and F(W_0) >= -||W_0|| ||W*|| >= -2 k R ||w*||",
    check=cauchy_schwarz, over=step_scenarios(), horizon=SC.epochs_horizon(STEP_EPOCHS), backend="gd",
    spacing="steps", assumptions=SGD_HYP, tags=("sgd", "per-step"), meta={"budget": {"ci": 6}},
)

P41F_NO_SQRT = paper_claim(
    "App. B, Eq. (11) with ||W*|| read as ||w*|| (planted)",
    id="LT-P41f-no-sqrt2k", node="P41", uses=("D1", "INIT"),
    statement="PLANTED: F(W) <= G(W) ||w*|| (the sqrt(2k) of ||W*|| = sqrt(2k) ||w*|| dropped). False once W aligns "
              "with W* (cos(W, W*) > 1 / sqrt(2k)), as SGD makes it",
    check=cauchy_schwarz, over=step_scenarios(variant="no-sqrt2k"), horizon=SC.epochs_horizon(STEP_EPOCHS),
    backend="gd", spacing="steps", expected=Verdict.REFUTED, assumptions=SGD_HYP, tags=("planted", "sgd"),
    meta={"budget": {"ci": 4}},
)


# --- LT-P41g, Eq. (20): all-mistake epochs are bounded ----------------------------------------------------------

@measures("worst of sqrt(b^2 + D T) - (a m_T - b) (units of F) and T_max - the last T with m_T = T (epochs)")
def all_mistake_epochs(run: Any) -> Margin:
    """LT-P41g: a m_T - b <= sqrt(b^2 + D T) for every T (the [DER] form for any T), a = alpha eta c_eps, b = R ||w*||,
    D = n ||w*||^2 (eta s + k eta^2 B^2) / k, s = 1; where m_T = T also T <= T_max (sheet 2.1). Ratio the largest
    (a m_T - b) / sqrt(b^2 + D T)."""
    S, sc = read_steps(run), run.scenario
    norm_w, R = float(np.linalg.norm(S.w_star)), row_radius(S.W[0])
    bound = Q.sgd_bound(float(sc.params["eps"]), S.n, S.k, S.alpha, S.eta, R, S.B, norm_w)
    m = np.cumsum(np.any(S.epoch_losses() >= bound.eps_prime, axis=1))
    T = np.arange(1, m.size + 1)
    a, b = S.alpha * S.eta * bound.c_eps, R * norm_w
    D_ = S.n * norm_w ** 2 * (S.eta + S.k * S.eta ** 2 * S.B ** 2) / S.k
    cap = np.sqrt(b * b + D_ * T)
    parts = [at_worst(cap - (a * m - b), 1e-12 * cap, "sqrt(b^2 + D T) - (a m_T - b)", run.times[S.n * T])]
    full = T[m == T]
    if full.size:
        parts.append(Margin(bound.T_max - float(full[-1]), 1e-12 * bound.T_max,
                            f"m_T = T up to T = {full[-1]} <= T_max = {bound.T_max:.4g}"))
    return with_ratio(worst(parts), float(np.max((a * m - b) / cap)))


P41G = paper_claim(
    "App. B, Eq. (20) (LT-P41g)",
    id="LT-P41g", node="P41", uses=("D1", "INIT", "LEAKY"),
    statement="a m_T - b <= sqrt(b^2 + D T) for every T (a = alpha eta c_eps, b = R ||w*||, D = n ||w*||^2 (eta + k "
              "eta^2 B^2) / k), so m_T = T implies T <= T_max = (2 a b + D) / a^2 (sheet 2.1)",
    check=all_mistake_epochs, over=step_scenarios(), horizon=SC.epochs_horizon(STEP_EPOCHS), backend="gd",
    spacing="steps", assumptions=SGD_HYP, tags=("sgd", "per-epoch"), meta={"budget": {"ci": 6}},
)


# --- LT-P41h, Eqs. (21)-(24): Lipschitz control ------------------------------------------------------------------

@measures("worst slack of the Lipschitz bounds on |dN(x_j)| per step and epoch, row moves, l_t - c_t (absolute)")
def step_lipschitz(run: Any) -> Margin:
    """LT-P41h: per step and point j, |N_{W_t}(x_j) - N_{W_{t-1}}(x_j)| <= ||x_j|| sum_rows ||d row|| <= sqrt(2k)
    ||x_j|| ||W_t - W_{t-1}|| (the planted "unit-lipschitz" reading: ||x_j|| ||dW||), each row moves <= eta c_t
    ||x_t||, c_t <= l_t (l3); per epoch |dN(x_j)| <= 2 k eta ||x_j|| sum_tau c_tau ||x_tau||. Ratio the largest
    |dN| / (sqrt(2k) ||x_j|| ||dW||)."""
    S = read_steps(run)
    v, xn = N.second_layer(S.k), np.linalg.norm(S.X, axis=1)
    pre = np.einsum("tkd,nd->tnk", S.W, S.X)
    out = N.leaky(pre, S.alpha) @ v
    err = 64.0 * U_ROUND * (1.0 + np.einsum("tkd,nd->tn", np.abs(S.W), np.abs(S.X)))
    dN, dN_err = np.abs(np.diff(out, axis=0)), err[1:] + err[:-1]
    rows = np.linalg.norm(np.diff(S.W, axis=0), axis=2)
    dW = np.sqrt(np.sum(rows ** 2, axis=1))
    lip = 1.0 if variant(run) == "unit-lipschitz" else math.sqrt(2.0 * S.k)
    after = run.times[1:]  # each step's end
    parts = [at_worst(xn * (lip * dW)[:, None] - dN, dN_err, f"L ||x_j|| ||dW|| - |dN(x_j)| (L = {lip:.3g})", after)]
    if lip > 1.0:
        parts.append(at_worst(xn * rows.sum(axis=1)[:, None] - dN, dN_err, "||x_j|| sum ||d row|| - |dN(x_j)|", after))
    move = S.eta * S.c * np.linalg.norm(S.x, axis=1)
    size = np.max(np.linalg.norm(S.W[1:], axis=2), axis=1)
    parts.append(at_worst(move - np.max(rows, axis=1), 1e-12 * move + 4.0 * U_ROUND * size,
                          "eta c ||x_t|| - max ||d row||", after))
    parts.append(at_worst(S.loss - S.c, 1e-12 * S.loss, "l_t - c_t (l3)", after))
    if S.epochs:
        ends = S.n * np.arange(S.epochs + 1)
        budget = 2.0 * S.k * S.eta * np.add.reduceat(S.c * np.linalg.norm(S.x, axis=1), ends[:-1])[:S.epochs]
        drift = np.abs(out[ends[1:]] - out[ends[:-1]])
        parts.append(at_worst(xn * budget[:, None] - drift, err[ends[1:]] + err[ends[:-1]],
                              "2 k eta ||x_j|| sum c ||x|| - |N_end(x_j) - N_start(x_j)| per epoch",
                              run.times[ends[1:]]))
    ratio = np.max(dN / np.maximum(math.sqrt(2.0 * S.k) * xn * dW[:, None], np.finfo(float).tiny))
    return with_ratio(worst(parts), float(ratio))


P41H = paper_claim(
    "App. B, Eqs. (21)-(24) (LT-P41h)",
    id="LT-P41h", node="P41", uses=("D4", "LOSS"),
    statement="|N_W(x) - N_W'(x)| <= ||x|| sum_rows ||row - row'|| <= sqrt(2k) ||x|| ||W - W'|| at every SGD step, "
              "each row moves <= eta c_t ||x_t|| (c_t <= l_t), so over an epoch |dN(x)| <= 2 k eta ||x|| sum_tau c_tau "
              "||x_tau||",
    check=step_lipschitz, over=step_scenarios(), horizon=SC.epochs_horizon(STEP_EPOCHS), backend="gd",
    spacing="steps", assumptions=SGD_HYP, tags=("sgd", "per-step"), meta={"budget": {"ci": 6}},
)

P41H_UNIT = paper_claim(
    "App. B, Eqs. (21)-(24) with the Lipschitz constant ||x|| (planted: sqrt(2k) dropped)",
    id="LT-P41h-unit-lipschitz", node="P41", uses=("D4", "LOSS"),
    statement="PLANTED: |N_W(x) - N_W'(x)| <= ||x|| ||W - W'||. False along SGD: on the sampled point the step "
              "changes N by eta c ||x||^2 sum (a^2 + b^2), i.e. sqrt(sum (a^2 + b^2)) ||x|| ||dW|| > ||x|| ||dW||",
    check=step_lipschitz, over=step_scenarios(variant="unit-lipschitz"), horizon=SC.epochs_horizon(2), backend="gd",
    spacing="steps", expected=Verdict.REFUTED, assumptions=SGD_HYP, tags=("planted", "sgd"),
    meta={"budget": {"ci": 4}},
)
