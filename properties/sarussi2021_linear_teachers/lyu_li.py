"""Claim sheet 002 sections 2.3-2.5 and 2.8 along GF and GD (planted P12 and sheet 5.1's lost factor n): Assumption
6.1 / (B4) (LT-A61, LT-EB4), Lyu-Li's monotone smoothed margin (LT-IMP-A7, GF and small-step GD; P12: GD with eta =
50), and the trajectory parts of LT-X6 (an integral lower bound on F) and LT-X7 (the ||W||^2 identity, ||W|| growth).
Runs and their reading: :mod:`.flow_runs`. Every HOLDS claim is paired with a planted one on the same check.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.margins import max_margin
from verify.verdicts import Verdict

from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers._shared import paper_claim, worst
from properties.sarussi2021_linear_teachers.flow_runs import (ALWAYS, GD_MARGIN_STEP, GF, LOG2, MEAN_THRESHOLD,
                                                             QUADRATURE_SAFETY, SLOPE_ONE, SMALL_INIT, STEPS,
                                                             _intervals_with_events, _margin, large_init_flows,
                                                             large_step_runs, separation_index, small_init_flows,
                                                             small_step_runs, trace)


# --- Assumption 6.1 / (B4) ------------------------------------------------------------------------------------------

@measures("min over samples t >= t0 of gamma-bar = min_j q_j / ||W|| (normalised margin)")
def separable_after_t0(run: Any) -> Margin:
    """LT-A61 / LT-EB4: a first sample t0 with n L_S < log 2 exists (else vacuous) and min_j q_j(t) / ||W(t)|| > 0 at
    every sample t >= t0. Mutation MEAN_THRESHOLD (sheet 5.1): t0 read as the first L_S < log 2 (the factor n lost)."""
    tr = trace(run)
    i0 = separation_index(tr, LOG2 * (tr.n if tr.mutation == MEAN_THRESHOLD else 1.0))
    if i0 is None:
        return Margin(0.0, 0.0, f"n L_S >= log 2 up to T = {tr.t[-1]:.3g} (vacuous)", vacuous=True)
    gbar = tr.q[i0:].min(axis=1) / tr.norms[i0:]
    B = float(np.max(np.linalg.norm(tr.X, axis=1)))
    s = int(np.argmin(gbar))  # the sample and point where the normalised margin is least
    return Margin(float(np.min(gbar)), 1e-12 * B, f"t0 = {tr.t[i0]:.3g}: min_(t >= t0) gamma-bar = {np.min(gbar):.3g}",
                  site={"t": float(tr.t_engine[i0 + s]), "i": int(np.argmin(tr.q[i0 + s]))})


A61 = paper_claim(
    "Assumption 6.1 (LT-A61)",
    id="LT-A61", node="A61", uses=("LOSS",),
    statement="Along GF, some sample t0 has L_S < log(2) / n (vacuous if not within T) and from then on every training "
              "point is correctly classified: min_j q_j(t) / ||W(t)|| > 0 for every t >= t0",
    check=separable_after_t0, over=st.one_of(small_init_flows(), large_init_flows()), **GF,
    assumptions=("LT-D1 data (by construction)", "leaky"), meta={"budget": {"ci": 6}},
)


EB4 = paper_claim(
    "Appendix E (LT-EB4, Lyu-Li (B4))",
    id="LT-EB4", node="EA", uses=("A61", "LOSS"),
    statement="(B4) for the summed loss: along small-init GF some sample t0 has sum_j l(q_j) < e^{-f(b_f)} = log 2, "
              "and every q_j > 0 from then on",
    check=separable_after_t0, over=small_init_flows(), **GF,
    assumptions=SMALL_INIT, meta={"budget": {"ci": 4}},
)


A61_MEAN = paper_claim(
    "sheet 5.1 'mean vs sum loss' (Assumption 6.1 without the factor n)",
    id="S51-A61-mean-loss", node="A61", uses=("LOSS",),
    statement="PLANTED: Assumption 6.1 read with the mean loss, L_S < log 2 (the factor n lost), implies every point "
              "correctly classified from then on (large-init runs)",
    check=separable_after_t0, over=large_init_flows(mutation=MEAN_THRESHOLD), **GF,
    expected=Verdict.REFUTED, tags=("planted",), assumptions=("threshold log 2 on L_S (mutated)",),
    meta={"budget": {"ci": 4}},
)


# --- LT-IMP-A7: the smoothed margin is non-decreasing after t0 ----------------------------------------------------

@measures("worst of the gamma~ step between samples, gamma-bar - gamma~ (normalised margin), relative ||W|| step")
def smoothed_margin_monotone(run: Any) -> Margin:
    """LT-IMP-A7 after t0: gamma~ non-decreasing between samples (GF: error 10 rtol (1 + |log n L_S|) / ||W|| + 10 rtol
    gamma~; GD: GD_MARGIN_STEP per step, sheet 6), gamma~ <= gamma-bar (LT-X8), ||W|| non-decreasing."""
    tr = trace(run)
    i0 = separation_index(tr)
    if i0 is None or len(tr.t) - i0 < 2:
        return Margin(0.0, 0.0, "fewer than 2 samples after t0 (vacuous)", vacuous=True)
    g = np.array([N.smoothed_margin(Wi, tr.X, tr.y, tr.alpha) for Wi in tr.W[i0:]])
    gbar = tr.q[i0:].min(axis=1) / tr.norms[i0:]
    if tr.algorithm == "gf":
        err = tr.tol * ((1.0 + np.abs(np.log(tr.nL[i0 + 1:]))) / tr.norms[i0 + 1:] + np.abs(g[1:]))
    else:
        err = np.full(len(g) - 1, GD_MARGIN_STEP)
    j = int(np.argmin(np.diff(g) + err))
    parts = [Margin(float(np.diff(g)[j]), float(err[j]), f"worst step of gamma~: {np.diff(g)[j]:.3g} at t = "
                    f"{tr.t[i0 + j + 1]:.4g} (gamma~ {g[0]:.3g} -> {g[-1]:.3g})",
                    site={"t": float(tr.t_engine[i0 + j + 1])}),
             Margin(float(np.min(gbar - g)), 1e-12 * float(np.max(np.abs(gbar))), "gamma~ <= gamma-bar"),
             Margin(float(np.min(np.diff(tr.norms[i0:]) / tr.norms[i0 + 1:])), tr.tol, "||W|| non-decreasing")]
    return _margin(parts, f"{tr.algorithm}, t0 = {tr.t[i0]:.3g}")


IMP_A7 = paper_claim(
    "Lyu & Li 2020 Thm A.7 (LT-IMP-A7, GF)",
    id="LT-IMP-A7", node="IMP", uses=("A61", "EA"),
    statement="Along GF after t0 (n L_S < log 2): the smoothed margin gamma~ = -log(expm1(n L_S)) / ||W|| is "
              "non-decreasing (to 10 rtol), gamma~ <= gamma-bar, and ||W|| increases",
    check=smoothed_margin_monotone, over=st.one_of(small_init_flows(), large_init_flows()), **GF,
    assumptions=("A6.1 reached at a sample (else vacuous)", "leaky"), meta={"budget": {"ci": 6}},
)


IMP_A7_GD = paper_claim(
    "Lyu & Li 2020 Thm A.7 for small-step GD (LT-IMP-A7, sheet 6 tolerance)",
    id="LT-IMP-A7-gd", node="IMP", uses=("A61", "EA"),
    statement="Under GD with eta = 0.05 after t0: gamma~ falls by at most 1e-8 per step, gamma~ <= gamma-bar, ||W|| "
              "increases (the control of P12)",
    check=smoothed_margin_monotone, over=small_step_runs(), **STEPS,
    assumptions=("A6.1 reached at a step (else vacuous)", "GD eta = 0.05"), tags=("control",),
    meta={"budget": {"ci": 4}},
)


P12 = paper_claim(
    "sheet 5.2 P12 (LT-IMP-A7 applied to large-step GD)",
    id="P12-IMP-A7-gd50", node="IMP", uses=("A61", "EA"),
    statement="PLANTED: gamma~ is non-decreasing (1e-8 per step) after t0 under GD with eta = 50 on small random "
              "separable data (two positives at wide angles, one negative)",
    check=smoothed_margin_monotone, over=large_step_runs(), **STEPS,
    expected=Verdict.REFUTED, tags=("planted",), assumptions=("GD eta = 50 (drops gradient flow)",),
    meta={"budget": {"ci": 12}},
)


# --- LT-X6 / LT-X7 along GF ---------------------------------------------------------------------------------------

@measures("worst of min (dF/dt - floor) / (dF/dt) (relative) and F(b) - F(a) - integral bound (units of F)")
def teacher_correlation_grows(run: Any) -> Margin:
    """LT-X6 (GF, paper time): with w* = w_svm (y_j <w*, x_j> >= 1), F = <W, W*> has dF/dt = (1/n) sum_j c_j y_j
    <w*, x_j> sum_i (sigma'(<w_i, x_j>) + sigma'(<u_i, x_j>)) >= (2 k alpha / n) sum_j c(q_j) at every sample, and
    between samples F(b) - F(a) >= (t_b - t_a) (2 k alpha / n) (1 - exp(-n L_S(b))) (sum_j c_j = sum_j (1 - e^-l_j)
    >= 1 - e^(-n L_S) by concavity, L_S non-increasing along GF). Mutation SLOPE_ONE: alpha replaced by 1."""
    tr = trace(run)
    w_star = max_margin(Dataset(tr.X, tr.y)).svm.w
    if w_star is None:
        return Margin(0.0, 0.0, "no linear teacher (vacuous)", vacuous=True)
    a = 1.0 if tr.mutation == SLOPE_ONE else tr.alpha
    k, n = tr.k, tr.n
    c = N.point_weight(tr.q)
    teach = tr.y * (tr.X @ w_star)
    F = np.array([N.teacher_correlation(Wi, w_star) for Wi in tr.W])
    slopes = np.array([N.slope(tr.X @ Wi.T, tr.alpha).sum(axis=1) for Wi in tr.W])  # (S, n)
    dF = (c * teach * slopes).sum(axis=1) / n
    bound = 2.0 * k * a * c.sum(axis=1) / n
    lower = np.diff(tr.t) * 2.0 * k * a * -np.expm1(-tr.nL[1:]) / n
    err = tr.tol * (np.abs(F[1:]) + tr.norms[1:] * math.sqrt(2 * k) * float(np.linalg.norm(w_star)))
    j = int(np.argmin(np.diff(F) - lower + err))
    s = int(np.argmin((dF - bound) / dF))
    parts = [Margin(float(np.min((dF - bound) / dF)), 1e-12, "dF/dt >= (2 k alpha / n) sum c(q_j)",
                    ratio=float(np.max(bound / dF)), site={"t": float(tr.t_engine[s])}),
             Margin(float(np.diff(F)[j] - lower[j]), float(err[j]), f"F(b) - F(a) >= integral bound (worst at t = "
                    f"{tr.t[j + 1]:.3g})", ratio=float(np.max(lower / np.maximum(np.diff(F), 1e-300))),
                    site={"t": float(tr.t_engine[j + 1])})]
    return _margin(parts, f"GF, w* = w_svm, slope constant {a:g}")


X6 = paper_claim(
    "sheet 2.8 LT-X6 (GF part)",
    id="LT-X6-gf-integral", node="DER", uses=("D1", "LEAKY", "LOSS"),
    statement="Along GF with w* = w_svm: dF/dt >= (2 k alpha / n) sum_j c(q_j) at every sample (F = <W, W*>) and "
              "F(b) - F(a) >= (t_b - t_a) (2 k alpha / n) (1 - exp(-n L_S(b))) between samples",
    check=teacher_correlation_grows, over=st.one_of(small_init_flows(), large_init_flows()), **GF,
    assumptions=("LT-D1: w_svm with y <w*, x> >= 1", "leaky"), meta={"budget": {"ci": 6}},
)


X6_SLOPE = paper_claim(
    "sheet 2.8 LT-X6 with alpha replaced by 1 (mutated constant)",
    id="LT-X6-gf-slope-one", node="DER", uses=("D1", "LEAKY"),
    statement="PLANTED: dF/dt >= (2 k / n) sum_j c(q_j) along GF (sigma' = 1 assumed everywhere: the slope alpha on "
              "the inactive side dropped)",
    check=teacher_correlation_grows, over=small_init_flows(mutation=SLOPE_ONE), **GF,
    expected=Verdict.REFUTED, tags=("planted",), assumptions=SMALL_INIT, meta={"budget": {"ci": 4}},
)


def _simpson(h1: float, h2: float, f0: float, f1: float, f2: float) -> float:
    """Simpson's rule on the non-uniform nodes t0, t0 + h1, t0 + h1 + h2."""
    s = h1 + h2
    return s / 6.0 * ((2.0 - h2 / h1) * f0 + s * s / (h1 * h2) * f1 + (2.0 - h1 / h2) * f2)


@measures("worst of -|Simpson residual of the ||W||^2 identity| / ||W||^2 and the relative ||W|| step (dimensionless)")
def norm_growth(run: Any) -> Margin:
    """LT-X7 (GF, paper time): d||W||^2/dt = (2/n) sum_j c(q_j) q_j, checked in integral form on consecutive sample
    triples without events (Simpson; error QUADRATURE_SAFETY x the largest |Simpson - trapezoid| of the triple and its
    neighbours + 1e-6 |increment| + 10 rtol ||W||^2), and ||W|| non-decreasing between samples after t0 (all q_j > 0).
    Mutation ALWAYS: ||W|| non-decreasing between every two samples."""
    tr = trace(run)
    g = 2.0 * (N.point_weight(tr.q) * tr.q).sum(axis=1) / tr.n
    sq = tr.norms ** 2
    busy = _intervals_with_events(tr)
    spread = np.full(len(tr.t), np.nan)
    deviation = np.full(len(tr.t), np.nan)
    for a in range(len(tr.t) - 2):
        if busy[a] or busy[a + 1]:
            continue
        h1, h2 = tr.t[a + 1] - tr.t[a], tr.t[a + 2] - tr.t[a + 1]
        simpson = _simpson(h1, h2, g[a], g[a + 1], g[a + 2])
        spread[a] = abs(simpson - 0.5 * (h1 * (g[a] + g[a + 1]) + h2 * (g[a + 1] + g[a + 2])))
        deviation[a] = sq[a + 2] - sq[a] - simpson
    parts = []
    for a in np.flatnonzero(np.isfinite(deviation)):
        err = (QUADRATURE_SAFETY * float(np.nanmax(spread[max(a - 1, 0):a + 2])) + 1e-6 * abs(sq[a + 2] - sq[a])
               + tr.tol * sq[a + 2])
        parts.append(Margin(-abs(deviation[a]) / sq[a + 2], err / sq[a + 2],
                            f"||W||^2 identity on [{tr.t[a]:.3g}, {tr.t[a + 2]:.3g}]"))
    identity = worst(parts, "no event-free triple")
    i0 = 0 if tr.mutation == ALWAYS else separation_index(tr)
    if i0 is None or len(tr.t) - i0 < 2:
        return identity if not identity.vacuous else Margin(0.0, 0.0, "nothing to check (vacuous)", vacuous=True)
    growth = np.diff(tr.norms[i0:]) / tr.norms[i0 + 1:]
    j = int(np.argmin(growth))
    monotone = Margin(float(growth[j]), tr.tol, f"||W|| non-decreasing from t = {tr.t[i0]:.3g} (worst at t = "
                      f"{tr.t[i0 + j + 1]:.3g})", site={"t": float(tr.t_engine[i0 + j + 1])})
    return _margin([identity, monotone] if not identity.vacuous else [monotone], "GF")


X7 = paper_claim(
    "sheet 2.8 LT-X7 (GF part)",
    id="LT-X7-gf", node="DER", uses=("EA", "LEAKY"),
    statement="Along GF: ||W(b)||^2 - ||W(a)||^2 = integral of (2/n) sum_j c(q_j) q_j (Simpson on event-free sample "
              "triples) and ||W|| increases between samples once all q_j > 0 (t >= t0)",
    check=norm_growth, over=st.one_of(small_init_flows(), large_init_flows()), **GF,
    assumptions=("leaky", "Euler identity (A2)"), meta={"budget": {"ci": 6}},
)


X7_ALWAYS = paper_claim(
    "sheet 2.8 LT-X7 without 'all q_j > 0'",
    id="LT-X7-gf-always", node="DER", uses=("EA", "LEAKY"),
    statement="PLANTED: ||W|| increases along GF between every two samples (the hypothesis 'all q_j > 0' dropped; "
              "large-init runs, where misclassified points shrink W)",
    check=norm_growth, over=large_init_flows(mutation=ALWAYS), **GF,
    expected=Verdict.REFUTED, tags=("planted",), assumptions=("large init (P9 family)",), meta={"budget": {"ci": 4}},
)
