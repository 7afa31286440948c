"""Claim sheet 002 section 2.8, the derived exact facts (static, pointwise): LT-X7 (the GF norm rate d||W||^2/dt =
(2/n) sum_j c(q_j) q_j, the engine's field against the formula, > 0 when every q_j > 0), LT-X8 (gamma~ <= gamma-bar
when n L_S < log 2), LT-X9 (inside an NAR the margins are linear in W with slopes in {1, alpha}, affine along a segment
while the NAR persists), LT-X10 (q_j <= sqrt(2k) B ||W||, so L_S >= l(sqrt(2k) B ||W||) and L_S -> 0 forces ||W|| ->
oo). Each is paired with a planted claim running the SAME check on a mutated case (the mean margin instead of every
margin, the reversed inequality, the NAR left, the constant 1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.dynamics.field import NetworkField
from verify.scenarios import SEEDS

from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers._shared import LOSS, worst
from properties.sarussi2021_linear_teachers.quantities import data_radius
from properties.sarussi2021_linear_teachers.appendix_e import (ALPHAS, U_ROUND, planted_claim, static_claim,
                                                               teacher_data, teacher_direction)


@dataclass(frozen=True)
class StateCase:
    """LT-D1 data with one first layer W (2k, d), the slope, and which reading is asserted (``reading``)."""

    X: np.ndarray
    y: np.ndarray
    W: np.ndarray
    alpha: float
    reading: str


@st.composite
def teacher_states(draw: st.DrawFn, reading: str, noise: Sequence[float] = (0.0, 0.1, 1.0, 3.0),
                   level: Sequence[float] = (0.3, 1.0, 3.0, 10.0), families: Sequence[str] = ("teacher",)) -> StateCase:
    """"teacher": W = level * W*/(k (1 + alpha)) + noise ||w*|| * Gaussian, W* the teacher stack of the min-norm teacher
    (at noise 0 every q_j >= level); "mixed": a Gaussian W with its halves swapped where the mean margin is negative
    (N changes sign exactly), scaled to max_j |q_j| = 10, n >= 4, d >= 2, redrawn until the margins take both signs."""
    family = draw(st.sampled_from(tuple(families)))
    ds = draw(teacher_data((4, 8), (2, 4)) if family == "mixed" else teacher_data())
    k, alpha, rng = draw(st.integers(1, 4)), draw(st.sampled_from(ALPHAS)), np.random.default_rng(draw(SEEDS))
    if family == "mixed":
        for _ in range(32):  # redraw (seeded) until the margins take both signs
            W = rng.standard_normal((2 * k, ds.d))
            q = N.margins(W, ds.X, ds.y, alpha)
            if np.min(q) < 0.0 < np.max(q):
                break
        if np.mean(q) < 0.0:
            W, q = np.vstack([W[k:], W[:k]]), -q
        return StateCase(ds.X, ds.y, W * 10.0 / max(float(np.max(np.abs(q))), 1e-300), alpha, reading)
    w = teacher_direction(ds)
    base = N.teacher_stack(w, k) * draw(st.sampled_from(tuple(level))) / (k * (1.0 + alpha))
    W = base + draw(st.sampled_from(tuple(noise))) * float(np.linalg.norm(w)) * rng.standard_normal(base.shape)
    return StateCase(ds.X, ds.y, W, alpha, reading)


@measures("worst of -|engine 2<W, W'> - (2/n) sum c(q) q| and, under the premise, that rate (units of d||W||^2/dt)")
def norm_rate_margin(case: StateCase) -> Margin:
    """LT-X7: along GF, d||W||^2/dt = 2 <W, -grad L_S> = (2/n) sum_j c(q_j) q_j (Euler), the field taken from the
    engine (verify.dynamics.field, summed loss / n); and the rate is > 0 when every q_j > 0 (``reading`` "all") or,
    planted, when the mean margin is > 0 ("mean")."""
    X, y, W, n = case.X, case.y, case.W, case.y.size
    k = W.shape[0] // 2
    field = NetworkField(X, y, LOSS, case.alpha, train_v=False)
    v = N.second_layer(k)
    Wdot, _ = field.cartesian(W, v, field.mode(X @ W.T))
    engine_rate = 2.0 * float(np.sum(W * Wdot)) / n
    q = N.margins(W, X, y, case.alpha)
    terms = N.point_weight(q) * q
    formula = 2.0 * float(np.sum(terms)) / n
    # c(q) = (1 - tanh(q/2))/2 is accurate to ~u absolutely (not relatively: cancellation for q >> 1), so the
    # error of c(q_j) q_j is ~u (|q_j| + c(q_j) sum_i |<row_i, x_j>|)
    scale = 2.0 * float(np.sum(np.abs(q) + N.point_weight(q) * np.sum(np.abs(X @ W.T), axis=1))) / n
    parts = [Margin(-abs(engine_rate - formula), 64.0 * U_ROUND * scale,
                    f"engine 2<W, W'> = {engine_rate:.12g}, (2/n) sum c(q) q = {formula:.12g}")]
    premise = bool(np.all(q > 0.0)) if case.reading == "all" else float(np.mean(q)) > 0.0
    if premise:
        parts.append(Margin(formula, 64.0 * U_ROUND * scale,
                            f"rate {formula:.6g} with min q = {q.min():.4g}, mean q = {q.mean():.4g} ({case.reading})"))
    return worst(parts)


X7 = static_claim(
    "Sheet 2.8 (LT-X7), Euler along GF",
    id="LT-X7", node="DER", uses=("EA", "LOSS"),
    statement="d||W||^2/dt = 2 <W, -grad L_S(W)> = (2/n) sum_j c(q_j) q_j (the engine's GF field vs the Euler "
              "formula), so ||W|| increases whenever every q_j > 0",
    check=norm_rate_margin, over=teacher_states("all", families=("teacher", "mixed")), assumptions=("leaky", "LT-D1"),
)

X7_MEAN = planted_claim(
    "Sheet 2.8 (LT-X7), planted weaker premise",
    id="LT-X7-mean-margin", node="DER", uses=("EA", "LOSS"),
    statement="PLANTED: ||W|| increases along GF whenever the MEAN margin is positive (false: c(q) q <= s* = 0.278 for "
              "q > 0, while c(q) q ~ q for q < 0)",
    check=norm_rate_margin, over=teacher_states("mean", families=("mixed",)), assumptions=("leaky", "LT-D1"),
)


# ---------------------------------------------------------------- LT-X8: gamma~ <= gamma-bar

@measures("gamma-bar - gamma~ (planted '>=' reading: gamma~ - gamma-bar), normalised-margin units")
def smoothed_margin_gap(case: StateCase) -> Margin:
    """LT-X8: gamma-bar - gamma~ >= 0 where n L_S < log 2 (``reading`` "<="); the planted ">=" asserts
    gamma~ - gamma-bar >= 0. Equality for n = 1. Vacuous where n L_S >= log 2 (gamma~ undefined)."""
    n = case.y.size
    loss_sum = n * N.mean_loss(case.W, case.X, case.y, case.alpha)
    smooth = N.smoothed_margin(case.W, case.X, case.y, case.alpha)
    if not loss_sum < N.LOG2 or math.isnan(smooth):
        return Margin(0.0, 0.0, f"n L_S = {loss_sum:.4g} >= log 2: gamma~ undefined", vacuous=True)
    bar = N.normalised_margin(case.W, case.X, case.y, case.alpha)
    gap = bar - smooth if case.reading == "<=" else smooth - bar
    return Margin(gap, 1e-10 * max(abs(bar), abs(smooth)),
                  f"gamma-bar = {bar:.12g}, gamma~ = {smooth:.12g}, n = {n}, n L_S = {loss_sum:.3g}",
                  ratio=smooth / bar if case.reading == "<=" and bar > 0.0 else None)


X8 = static_claim(
    "Sheet 1.7 / 2.8 (LT-X8)",
    id="LT-X8", node="DER", uses=("LOSS",),
    statement="gamma~(W) <= gamma-bar(W) whenever n L_S(W) < log 2 (n L_S >= l(q_min), so e^{n L_S} - 1 >= "
              "e^{-q_min}); equality for n = 1",
    check=smoothed_margin_gap, over=teacher_states("<=", noise=(0.0, 0.05, 0.3)),
    assumptions=("leaky", "LT-D1", "n L_S < log 2 (A6.1 at this W; vacuous otherwise)"),
)

X8_REVERSED = planted_claim(
    "Sheet 1.7 / 2.8 (LT-X8), planted reversed inequality",
    id="LT-X8-reversed", node="DER", uses=("LOSS",),
    statement="PLANTED: gamma~(W) >= gamma-bar(W) whenever n L_S(W) < log 2",
    check=smoothed_margin_gap, over=teacher_states(">=", noise=(0.0, 0.05, 0.3)),
    assumptions=("leaky", "LT-D1", "n L_S < log 2 (A6.1 at this W; vacuous otherwise)"),
)


# ---------------------------------------------------------------- LT-X9: margins linear inside an NAR

@dataclass(frozen=True)
class SegmentCase:
    """LT-D1 data, W in an NAR by construction (rows v+- + delta_i, ||delta_i|| < min_j |<v+-, x_j>| / ||x_j||), a
    direction D, and where the segment's sample points lie: "inside" (t < the first sign change) or "beyond"."""

    X: np.ndarray
    y: np.ndarray
    W: np.ndarray
    D: np.ndarray
    alpha: float
    where: str


@st.composite
def segment_cases(draw: st.DrawFn, where: str = "inside") -> SegmentCase:
    ds, k, alpha = draw(teacher_data(n=(2, 8))), draw(st.integers(1, 4)), draw(st.sampled_from(ALPHAS))
    rng = np.random.default_rng(draw(SEEDS))
    rows = []
    for _ in range(2):
        v = rng.standard_normal(ds.d)
        room = float(np.min(np.abs(ds.X @ v) / np.linalg.norm(ds.X, axis=1)))
        delta = rng.standard_normal((k, ds.d))
        shrink = draw(st.sampled_from((0.1, 0.5, 0.9))) * room
        delta *= shrink / np.maximum(np.linalg.norm(delta, axis=1), 1e-300)[:, None]
        rows.append(v + delta)
    W = draw(st.sampled_from((1e-2, 1.0, 1e2))) * np.vstack(rows)
    return SegmentCase(ds.X, ds.y, W, float(np.linalg.norm(W)) * rng.standard_normal(W.shape), alpha, where)


def first_sign_change(W: np.ndarray, D: np.ndarray, X: np.ndarray) -> float:
    """The least t > 0 where some <w_i + t d_i, x_j> crosses 0 (inf if none)."""
    P, V = X @ W.T, X @ D.T
    crossing = (P * V < 0.0)
    return float(np.min(-P[crossing] / V[crossing])) if np.any(crossing) else math.inf


@measures("-max_j |q_j - its linear formula| along the segment, relative to the pre-activation scale")
def nar_linearity_margin(case: SegmentCase) -> Margin:
    """LT-X9: with a_j^+ = 1 if s+_j > 0 else alpha (and a_j^- from s-), q_j(W) = y_j (sum_i a_j^+ <w_i, x_j> -
    sum_i a_j^- <u_i, x_j>), and q_j(W + t D) = q_j(W) + t y_j (sum_i a_j^+ <d_i, x_j> - sum_i a_j^- <e_i, x_j>) at
    t = (0.1, 0.5, 0.9) t_c ("inside", t_c the first sign change) or (1.5, 2, 3) t_c ("beyond", the NAR left)."""
    X, y, W, D, alpha = case.X, case.y, case.W, case.D, case.alpha
    k = W.shape[0] // 2
    agree = N.agreement(W, X)
    if not agree.nar:
        return Margin(0.0, 0.0, "W not in an NAR (construction failed)", vacuous=True)
    a_plus, a_minus = np.where(agree.s_plus > 0, 1.0, alpha), np.where(agree.s_minus > 0, 1.0, alpha)

    def linear(M: np.ndarray) -> np.ndarray:
        P = X @ M.T
        return y * (a_plus * P[:, :k].sum(axis=1) - a_minus * P[:, k:].sum(axis=1))

    t_c = first_sign_change(W, D, X)
    if case.where == "beyond" and math.isinf(t_c):
        return Margin(0.0, 0.0, "the segment never leaves the NAR", vacuous=True)
    ts = (0.1, 0.5, 0.9) if case.where == "inside" else (1.5, 2.0, 3.0)
    ts = tuple(f * (t_c if math.isfinite(t_c) else 1.0) for f in ts)
    scale = float(np.sum(np.abs(X @ W.T)) + max(ts) * np.sum(np.abs(X @ D.T)))
    deviation = max(float(np.max(np.abs(N.margins(W, X, y, alpha) - linear(W)))),
                    *(float(np.max(np.abs(N.margins(W + t * D, X, y, alpha) - linear(W) - t * linear(D)))) for t in ts))
    return Margin(-deviation / scale, 64.0 * U_ROUND, f"max |q_j - linear formula| / scale = {deviation / scale:.3g}, "
                                                      f"t_c = {t_c:.4g} ({case.where})")


X9 = static_claim(
    "Sheet 2.8 (LT-X9), App. F footnote 8",
    id="LT-X9", node="DER", uses=("LEAKY",),
    statement="inside an NAR every margin is linear in W with fixed slopes a_j^+-, a in {1, alpha}: q_j(W) = "
              "y_j (sum_i a_j^+ <w_i, x_j> - sum_i a_j^- <u_i, x_j>), and q_j(W + t D) is affine in t while the NAR "
              "persists",
    check=nar_linearity_margin, over=segment_cases(), assumptions=("leaky", "NAR (by construction)"),
)

X9_BEYOND = planted_claim(
    "Sheet 2.8 (LT-X9), planted: the NAR hypothesis dropped",
    id="LT-X9-beyond-nar", node="DER", uses=("LEAKY",),
    statement="PLANTED: q_j(W + t D) stays affine in t with W's slopes past the first sign change (outside the NAR)",
    check=nar_linearity_margin, over=segment_cases("beyond"), assumptions=("leaky",),
)


# ---------------------------------------------------------------- LT-X10: q_j <= sqrt(2k) B ||W||

@dataclass(frozen=True)
class BoundCase:
    """LT-D1 data, W (random, or the maximiser w_i = x^, u_i = -alpha x^ of q / ||W|| at the largest point), and the
    constant asserted ("sqrt(2k)" or the planted "1")."""

    X: np.ndarray
    y: np.ndarray
    W: np.ndarray
    alpha: float
    constant: str


@st.composite
def bound_cases(draw: st.DrawFn, constant: str = "sqrt(2k)") -> BoundCase:
    ds, k, alpha, seed = draw(teacher_data()), draw(st.integers(1, 4)), draw(st.sampled_from(ALPHAS)), draw(SEEDS)
    rng = np.random.default_rng(seed)
    scale = draw(st.sampled_from((1e-2, 1.0, 1e2)))
    if draw(st.booleans()):
        W = scale * rng.standard_normal((2 * k, ds.d))
    else:
        j = int(np.argmax(np.linalg.norm(ds.X, axis=1)))
        unit = ds.y[j] * ds.X[j] / np.linalg.norm(ds.X[j])
        W = scale * np.vstack([np.tile(unit, (k, 1)), np.tile(-alpha * unit, (k, 1))])
    return BoundCase(ds.X, ds.y, W, alpha, constant)


@measures("worst of 1 - max_j q_j / (C B ||W||) (dimensionless) and L_S - l(C B ||W||) (loss units)")
def margin_bound_margin(case: BoundCase) -> Margin:
    """LT-X10: 1 - max_j q_j / (C B ||W||) and the loss floor L_S - l(C B ||W||) (C = sqrt(2k), or the planted 1)."""
    k = case.W.shape[0] // 2
    C = math.sqrt(2 * k) if case.constant == "sqrt(2k)" else 1.0
    cap = C * data_radius(case.X) * float(np.linalg.norm(case.W))
    q = N.margins(case.W, case.X, case.y, case.alpha)
    size = float(np.max(np.sum(np.abs(case.X @ case.W.T), axis=1)))
    ratio = float(np.max(q)) / cap
    floor = N.mean_loss(case.W, case.X, case.y, case.alpha) - float(N.point_loss(cap))
    decided = worst([Margin(1.0 - ratio, 64.0 * U_ROUND * (size / cap + 1.0)),
                     Margin(floor, 64.0 * U_ROUND * (1.0 + size))])
    return replace(decided, ratio=max(ratio, 0.0), note=f"max_j q_j / ({case.constant} B ||W||) = {ratio:.12g}, "
                                                        f"L_S - l({case.constant} B ||W||) = {floor:.6g}")


X10 = static_claim(
    "Sheet 2.8 (LT-X10), App. B Eq. (21)",
    id="LT-X10", node="DER", uses=("LEAKY", "LOSS"),
    statement="q_j(W) <= sqrt(2k) B ||W|| for every j (B = max ||x_j||), hence L_S(W) >= l(sqrt(2k) B ||W||): "
              "L_S -> 0 forces ||W|| -> oo (sharp constant sqrt(k (1 + alpha^2)))",
    check=margin_bound_margin, over=bound_cases(), assumptions=("leaky",),
)

X10_ONE = planted_claim(
    "Sheet 2.8 (LT-X10), planted constant",
    id="LT-X10-constant-1", node="DER", uses=("LEAKY", "LOSS"),
    statement="PLANTED: q_j(W) <= B ||W|| (constant 1; w_i = x^, u_i = -alpha x^ gives sqrt(k (1 + alpha^2)))",
    check=margin_bound_margin, over=bound_cases("1"), assumptions=("leaky",),
)
