"""Claim sheet 002 section 2.3 on trajectories (planted P9, P15 of 5.2): the NAR conservation law LT-X1 (GF; GD and
SGD), Theorem 6.1 (LT-T61, with LT-IMP-A8's KKT trend as its part (c)) and Corollary 6.2 (LT-C62) as honest finite
tests on [t2, T], and the P9 SKIP (the NAR detector reports hypothesis (ii) violated). Runs and their reading:
:mod:`.flow_runs`. Every HOLDS claim is paired with a planted one on the same check.

[DER] behind LT-C62's rho part: inside an NAR with all q_j > 0, y_j <w-bar - u-bar, x_j> > 0 for every j. With the
common slopes a+-_j, q_j = k y_j (a+_j <w-bar, x_j> - a-_j <u-bar, x_j>): s+_j = s-_j gives q_j = k a+_j y_j <w-bar -
u-bar, x_j>; s+_j = y_j = -s-_j gives y_j <w-bar, x_j> > 0 > y_j <u-bar, x_j>; s+_j = -y_j = -s-_j gives q_j < 0. So
(paper time) d||w-bar - u-bar||^2/dt = (2/n) sum_j c_j (a+_j + a-_j) y_j <w-bar - u-bar, x_j> > 0, and rho = r /
||w-bar - u-bar|| strictly decreases on [max(t0, t2), T] (r is constant there by LT-X1).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.verdicts import Verdict

from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers import quantities as Q
from properties.sarussi2021_linear_teachers._shared import exact_margin, paper_claim
from properties.sarussi2021_linear_teachers.flow_runs import (GD_DRIFT_RTOL, GF, KKT_FLOOR, NO_NAR, SMALL_INIT, STEPS,
                                                              UNGATED, _intervals_with_events, _margin, differences,
                                                              discrete_runs, kkt_residual, large_init_flows,
                                                              nar_window, one_flip_runs, p9_flows, small_init_flows,
                                                              trace, window_start)


# --- LT-X1: differences are conserved while the neurons of a type agree -------------------------------------------

@measures("tol - the largest change of w_i - w_1 (u_i - u_1) over a gated interval, relative to ||W||")
def differences_conserved(run: Any) -> Margin:
    """LT-X1: ||(w_i - w_1)(b) - (w_i - w_1)(a)|| <= tol max ||W|| on every sample pair (GF) or step (GD, SGD) where
    the + neurons agree in sign (GF: on every point at both ends, no crossing between; GD: on every point at the
    step's start; SGD: on the sampled point); the same for the u's. Mutation UNGATED (P15): every pair / step.
    A pair sliding on its kink (``Trace.on_kink``) has sign 0: its float64 sign is rounding, and reading it as
    agreement gated in an interval where a sliding neuron's Filippov slope set it apart (a drift of 0.6% of ||W||,
    FAILED as an engine inconsistency against the mp run, whose rounding read 0; found at the thorough budget)."""
    tr = trace(run)
    gated, k = tr.mutation != UNGATED, tr.k
    rel = np.linalg.norm(np.diff(differences(tr.W), axis=0), axis=2) / np.maximum(tr.norms[:-1], tr.norms[1:])[:, None]
    if tr.algorithm != "gf":
        steps = np.asarray(run.trajectory.stats["sample_steps"])
        consecutive = np.diff(steps) == 1
    checked, drift, site = 0, 0.0, None
    for rows in (range(0, k), range(k, 2 * k)):
        sign = np.sign(np.einsum("snd,jd->sjn", tr.W[:, rows.start:rows.stop], tr.X))  # (S, n points, k)
        sign[tr.on_kink[:, :, rows.start:rows.stop]] = 0.0  # a sliding pair is on its kink (sign 0), not rounding
        agree = np.all(sign == sign[..., :1], axis=2) & (sign[..., 0] != 0.0)  # (S, n)
        if not gated:
            gate = np.ones(len(tr.t) - 1, bool)
        elif tr.algorithm == "gf":
            same = np.all(sign[:-1] == sign[1:], axis=(1, 2))
            gate = agree[:-1].all(axis=1) & agree[1:].all(axis=1) & same & ~_intervals_with_events(tr, rows)
        elif tr.algorithm == "gd":
            gate = agree[:-1].all(axis=1)
        else:
            gate = agree[np.arange(len(tr.t) - 1), tr.order[steps[:-1], 0]]
        if tr.algorithm != "gf":
            gate &= consecutive
        if gate.any():
            checked += int(gate.sum())
            block = np.where(gate[:, None], rel[:, rows.start:rows.stop], -np.inf)
            a, i = np.unravel_index(int(np.argmax(block)), block.shape)
            if block[a, i] > drift:  # where the largest drift is: the interval's end, the neuron
                site = {"t": float(tr.t_engine[a + 1]), "j": rows.start + int(i)}
            drift = max(drift, float(np.max(rel[gate][:, rows.start:rows.stop])))
    if checked == 0:
        return Margin(0.0, 0.0, "no interval with agreement", vacuous=True)
    what = "every interval (gate removed)" if not gated else "agreeing intervals"
    return Margin(tr.tol - drift, 0.0, f"{tr.algorithm}: {checked} {what}, max drift / ||W|| = {drift:.3g} "
                  f"(tol {tr.tol:.1g})", ratio=drift / tr.tol, site=site)


X1_GF = paper_claim(
    "Section 6 (LT-X1, GF)",
    id="LT-X1", node="X1", uses=("DER", "LEAKY"),
    statement="Along GF, on every sample interval where all + neurons agree in sign on every training point (both "
              "ends, no crossing between), w^(i) - w^(j) is constant (to 10 rtol ||W||); the same for the u's",
    check=differences_conserved, over=small_init_flows(), **GF,
    assumptions=SMALL_INIT + ("agreement read per interval (gate)",), meta={"budget": {"ci": 6}},
)


X1_STEPS = paper_claim(
    "Section 6 (LT-X1, GD and SGD)",
    id="LT-X1-gd", node="X1", uses=("DER", "LEAKY", "D4"),
    statement="Under full-batch GD (every step whose start has all + neurons agreeing on every point) and SGD (every "
              "step whose sampled point they agree on), w^(i) - w^(j) changes by at most 1e-12 ||W|| per step; the "
              "same for the u's (small-init runs and P15's one-flip starts)",
    check=differences_conserved, over=st.one_of(discrete_runs(), one_flip_runs()), **STEPS,
    assumptions=SMALL_INIT + ("agreement read per step (gate)", "SGD: batch 1, epochs without replacement"),
    meta={"budget": {"ci": 8}},
)


P15_X1 = paper_claim(
    "sheet 5.2 P15 (LT-X1 without its agreement gate)",
    id="P15-X1-ungated", node="X1", uses=("DER", "LEAKY"),
    statement="PLANTED: 'the differences w^(i) - w^(j) are always conserved' (LT-X1 with the agreement gate removed) "
              "on GD started in a PAR with one + neuron rotated to disagree on one point",
    check=differences_conserved, over=one_flip_runs(mutation=UNGATED), **STEPS,
    expected=Verdict.REFUTED, tags=("planted",), assumptions=("P15 construction (one disagreement at t = 0)",),
    meta={"budget": {"ci": 4}},
)


# --- Theorem 6.1: consistency on [t2, T] ----------------------------------------------------------------------------

@measures("worst of (a) tol - drift of w_i - w_1 over ||W||, (b) relative steps of ||W||, r, r/||W||, (c) eps_KKT drop")
def theorem61_consistent(run: Any) -> Margin:
    """LT-T61 on [max(t0, t2), T]: (a) LT-X1 since the window's start, ||D(t) - D(ts)|| <= tol ||W(t)|| (GF: 10 rtol;
    GD: 1e-10 (1 + ||W||)); (b) ||W|| non-decreasing, r constant, r / ||W|| non-increasing; (c) eps_KKT trends down
    (max over the late half <= max over the early half). Mutation NO_NAR (P9): the window starts at t0."""
    tr = trace(run)
    start, note = window_start(tr)
    if start is None or len(tr.t) - start < 4:
        return Margin(0.0, 0.0, note if start is None else f"{note}: fewer than 4 samples in the window", vacuous=True)
    W, norms = tr.W[start:], tr.norms[start:]
    tol = tr.tol if tr.algorithm == "gf" else GD_DRIFT_RTOL
    scale = norms if tr.algorithm == "gf" else 1.0 + norms
    D = differences(W)
    drift = float(np.max(np.linalg.norm(D - D[0], axis=2).max(axis=1) / scale))
    r = np.array([N.clusters(Wi).r for Wi in W])
    ratio = r / norms
    eps = np.array([kkt_residual(Wi, tr.X, tr.y, tr.alpha)[0] for Wi in W])
    half = len(eps) // 2
    parts = [Margin(tol - drift, 0.0, f"(a) max ||D(t) - D(t2)|| / ||W|| = {drift:.3g}", ratio=drift / tol),
             Margin(float(np.min(np.diff(norms) / norms[1:])), tol, "(b) ||W|| non-decreasing"),
             Margin(-float(np.max(np.abs(r - r[0])) / np.max(scale)), tol,
                    f"(b) r constant: r(t2) = {r[0]:.4g}, r(T) = {r[-1]:.4g}"),
             Margin(float(np.min(-np.diff(ratio))), tol * float(np.max(ratio)), "(b) r / ||W|| non-increasing"),
             Margin(float(np.max(eps[:half]) - np.max(eps[half:])), KKT_FLOOR,
                    f"(c) eps_KKT {eps[0]:.3g} -> {eps[-1]:.3g}")]
    return _margin(parts, f"consistent on [t2, T] if >= 0 ({note})")


T61 = paper_claim(
    "Theorem 6.1 (LT-T61, honest finite test, sheet 2.3)",
    id="LT-T61", node="T61", uses=("X1", "A61", "NARH", "IMP", "EA"),
    statement="On [max(t0, t2), T] of a GF run that ends in an NAR (gamma = min gamma_NAR / 2 reported): (a) w^(i) - "
              "w^(j), u^(i) - u^(j) stay at their t2 values, (b) ||W|| increases, r is constant and r / ||W|| "
              "decreases, (c) the approximate-KKT residual of (P) trends down (LT-IMP-A8); 'consistent on [t2, T]'",
    check=theorem61_consistent, over=st.one_of(small_init_flows(), large_init_flows()), **GF,
    assumptions=("A6.1 reached at a sample (else vacuous)", "NAR at T, the final window from t2 (else vacuous: "
                 "hypothesis (ii) reported violated)", "leaky"),
    assumed=("'for all t >= t2' (unverifiable in finite time)",), meta={"budget": {"ci": 8}},
)


P9_T61 = paper_claim(
    "sheet 5.2 P9 (Theorem 6.1 without the NAR hypothesis)",
    id="P9-T61-no-NAR", node="T61", uses=("X1", "A61", "IMP"),
    statement="PLANTED: 'GF always clusters': the finite consequences of Theorem 6.1 (conserved differences, constant "
              "r, r / ||W|| and eps_KKT decreasing) hold on [t0, T] without the NAR hypothesis (large init, P9)",
    check=theorem61_consistent, over=large_init_flows(mutation=NO_NAR), **GF,
    expected=Verdict.REFUTED, tags=("planted",), assumptions=("A6.1 reached", "NAR hypothesis dropped"),
    meta={"budget": {"ci": 4}},
)


# --- Corollary 6.2: linear boundary outside a shrinking cone -------------------------------------------------------

def exact_output_sign(W: np.ndarray, x: np.ndarray, alpha: float) -> tuple[int, int]:
    """(sign N_W(x), sign <w-bar - u-bar, x>) in exact rational arithmetic on the float entries."""
    a = Fraction(alpha)
    k = W.shape[0] // 2
    xs = [Fraction(float(v)) for v in x]
    pre = [sum((Fraction(float(w)) * xv for w, xv in zip(row, xs)), Fraction(0)) for row in W]
    out = sum(p if p > 0 else a * p for p in pre[:k]) - sum(p if p > 0 else a * p for p in pre[k:])
    lin = sum(pre[:k]) - sum(pre[k:])
    return (out > 0) - (out < 0), (lin > 0) - (lin < 0)


@measures("worst of the exact sign test (+1 / -1), the least drop of rho and r(t2) / ||w-bar - u-bar|| - rho")
def linear_boundary(run: Any) -> Margin:
    """LT-C62 on [max(t0, t2), T]: sign N_W(t)(x) = sign <w-bar - u-bar, x> for every sampled direction with |cos(x,
    w-bar - u-bar)| > 2 r(t2) / ||w-bar - u-bar|| (exact: float, then Fractions where |N| is within rounding of 0), rho
    non-increasing and rho(t) <= r(t2) / ||w-bar - u-bar||(t). Mutation NO_NAR (P9): t2 := t0."""
    tr = trace(run)
    start, note = window_start(tr)
    if start is None or len(tr.t) - start < 2:
        return Margin(0.0, 0.0, note if start is None else f"{note}: one sample in the window", vacuous=True)
    U = Q.unit_directions(tr.X.shape[1])
    r2 = N.clusters(tr.W[start]).r
    mismatches, checked, rho, gap = 0, 0, [], []
    for Wi in tr.W[start:]:
        c = N.clusters(Wi)
        e = c.w_bar - c.u_bar
        gap.append(float(np.linalg.norm(e)))
        rho.append(c.rho)
        lin = U @ e
        outside = np.abs(lin) > 2.0 * r2 * (1.0 + 1e-9) * gap[-1] + 1e-12 * gap[-1]
        out = N.output(Wi, U[outside], tr.alpha)
        rounding = 1e-12 * float(np.sum(np.linalg.norm(Wi, axis=1)))
        lin_sign = np.sign(lin[outside])
        checked += int(outside.sum())
        for x in U[outside][lin_sign * out <= rounding]:
            s_out, s_lin = exact_output_sign(Wi, x, tr.alpha)
            mismatches += int(s_out != s_lin)
    rho, gap = np.array(rho), np.array(gap)
    parts = [exact_margin(mismatches == 0, f"{mismatches} of {checked} directions outside the cone mismatch"),
             Margin(float(np.min(-np.diff(rho))) if len(rho) > 1 else 0.0, tr.tol * float(np.max(rho)),
                    f"rho non-increasing ({rho[0]:.3g} -> {rho[-1]:.3g})"),
             Margin(float(np.min(r2 / gap - rho)), tr.tol * float(np.max(tr.norms[start:] / gap)),
                    "rho(t) <= r(t2) / ||w-bar - u-bar||")]
    return _margin(parts, note)


C62 = paper_claim(
    "Corollary 6.2 (LT-C62, finite-time form)",
    id="LT-C62", node="C62", uses=("T51", "X1", "T61", "LEAKY"),
    statement="For samples t >= max(t0, t2) of a GF run in its final NAR: sign N_W(t)(x) = sign <w-bar - u-bar, x> "
              "for every sampled direction with |cos(x, w-bar - u-bar)| > 2 r(t2) / ||w-bar - u-bar|| (exact), and "
              "rho(t) = r / ||w-bar - u-bar|| decreases with rho(t) <= r(t2) / ||w-bar - u-bar||(t)",
    check=linear_boundary, over=st.one_of(small_init_flows(), large_init_flows()), **GF,
    assumptions=("A6.1 reached at a sample (else vacuous)", "NAR at T (else vacuous)", "leaky"),
    assumed=("'for all t >= t2' (unverifiable in finite time)",), meta={"budget": {"ci": 6}},
)


P9_C62 = paper_claim(
    "sheet 5.2 P9 (Corollary 6.2 without the NAR hypothesis)",
    id="P9-C62-clusters", node="C62", uses=("T51", "T61"),
    statement="PLANTED: 'GF always clusters (rho -> 0)': LT-C62's finite form with t2 := t0 holds on large-init runs "
              "without an NAR (P9)",
    check=linear_boundary, over=large_init_flows(mutation=NO_NAR), **GF,
    expected=Verdict.REFUTED, tags=("planted",), assumptions=("A6.1 reached", "NAR hypothesis dropped"),
    meta={"budget": {"ci": 4}},
)


# --- P9: the NAR detector ---------------------------------------------------------------------------------------

@measures("+1 no NAR at T / -1 an NAR window found (exact decision of the detector)")
def nar_absent(run: Any) -> Margin:
    """P9 (SKIP for Theorem 6.1): the NAR detector reports no final NAR window at T (hypothesis (ii) violated)."""
    tr = trace(run)
    win = nar_window(tr)
    return exact_margin(win is None, "no NAR at T (d_max = %d)" % tr.agreements[-1].d_max if win is None else
                        f"NAR from t2 = {win.t2:.3g}, gamma = {win.gamma:.3g}")


NAR_P9 = paper_claim(
    "sheet 5.2 P9 (Theorem 6.1: hypothesis (ii) reported violated)",
    id="LT-T61-P9", node="NARH", uses=("T61",),
    statement="On the P9 runs (large init, scale 1 or 10, 2-D asymmetric Gaussians) the NAR detector reports no NAR at "
              "T: Theorem 6.1 is SKIP there (hypothesis (ii) violated), never refuted",
    check=nar_absent, over=st.sampled_from(p9_flows()), **GF,
    assumptions=("P9 construction: the draws of P9_DRAWS",), meta={"budget": {"ci": 4}},
)


NAR_SMALL = paper_claim(
    "sheet 5.2 P9 (the detector's control)",
    id="P9-NAR-detector-small-init", node="NARH", uses=("T61",),
    statement="PLANTED: the NAR detector reports no NAR on small-init runs too (a detector that always says 'no NAR' "
              "would make every Theorem 6.1 check vacuous)",
    check=nar_absent, over=small_init_flows(), **GF,
    expected=Verdict.REFUTED, tags=("planted",), assumptions=SMALL_INIT, meta={"budget": {"ci": 4}},
)
