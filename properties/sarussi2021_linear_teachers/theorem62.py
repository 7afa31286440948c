"""Claim sheet 002, Theorem 6.2 (LT-T62) on GD trajectories with the planted P10, and the SVM view of the PAR-SVM QP
(8) (sheet 1.10, LT-DQP) as an independent path to its solution. Lemma 6.1, LT-X3, LT-X4 / P11 and LT-X5 (the static
parts) are in :mod:`.lemma61`.

SVM view: z = (w, u), phi(x, +1) = (x, -alpha x), phi(x, -1) = (alpha x, -x), K = <x, x'> ((1 + alpha)^2 +
(1 - alpha)^2 y y') / 2; the dual max sum beta - (1/2) beta^T (y y^T o K) beta over beta >= 0 gives
z = sum_j beta_j y_j phi(x_j, y_j) (:func:`kernel_dual`: Lawson-Hanson NNLS in the Gram's factor space; the solve
sees only K, the feature rows only map beta back to z), compared with verify's min-norm-point solution
(:func:`quantities.par_svm`).

A derived bridge used on trajectories ([DER], this module): for every W in the PAR, q_j = k <(w-bar, u-bar), a_j>
with a_j the QP's constraint row, so z = k (w-bar, u-bar) / q_min is feasible for (8) and <z - z~, z~> >= 0 (z~ is
the min-norm point); with ||W||^2 >= k ||(w-bar, u-bar)||^2 this gives cos(vec W, vec W^_inf) >= gamma-bar(W) /
gamma*_PAR. So the direction converges to the QP's limit as soon as the normalised margin converges to gamma*_PAR
(on the runs below it is tight to ~1e-7).

Theorem 6.2 on GD (eta = 0.5, init radius 1e-4, k in 2..5, small antipodal sets, 1e4 steps): t2 starts the final
window of samples in one NAR(s+, s-), gamma = half its least gamma_NAR (sheet 2.3), t1 is the first sample with
gamma~ > alpha sqrt(k) B (hypothesis 3, B-scaled), hypothesis 4 is gamma > max(Gamma_A, Gamma_B) (the audit's values).
FINITE (hard): every sample in [t_a, T], t_a = max(t1, t2), is in the PAR and satisfies the bridge. ASYMP (trend,
generous): cos(W(T), W^_inf) >= min(COS_MIN, cos(W(t_a), W^_inf)) - TREND_TOL. It is not >= 0.99 at T in general:
from a small init GD first aligns every neuron with the class mean (+-), then turns toward w_svm only logarithmically
in t (cos 0.93-0.999 at 1e4 steps on 30 Gaussian points), and the approach is not monotone (sheet 2.3), so no
per-step trend is asserted. "For all t >= t2" is unverifiable: consistent on [t_a, T] only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st
from scipy.optimize import nnls

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.scenarios import SEEDS, Scenario
from verify.verdicts import Verdict

from properties.sarussi2021_linear_teachers import datasets as D
from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers import quantities as Q
from properties.sarussi2021_linear_teachers import scenarios as SC
from properties.sarussi2021_linear_teachers._shared import ALPHA, SEED, engine_time, exact_margin, paper_claim, worst
from properties.sarussi2021_linear_teachers.lemma61 import (GAMMA_TOL, SYM_HYP, QpCase, asymmetric_sets, solution_error,
                                                            symmetric_sets)

PSD_TOL = 1e-12  # eigenvalues of the Gram above -PSD_TOL max|eigenvalue| are rounding (G counts as PSD)
COS_MIN = 0.99  # the sheet's tolerance for cos(W^(T), W^_inf) (section 6)
TREND_TOL = 0.01  # the generous trend tolerance: cos may dip this far below min(COS_MIN, cos at t_a)
STEPS, ETA, INIT_R = 10_000, 0.5, 1e-4  # GD steps (mean-loss eta), init radius (sheet 7: init 1e-4, eta 0.5)
SAMPLES = 96  # log-spaced samples along a run
ROUNDING = 256 * np.finfo(float).eps  # relative rounding of the per-sample readings (cosines, margins)


# --- QP (8)'s SVM view: the kernel dual, an independent path ---------------------------------------------------

def par_kernel(X: np.ndarray, y: np.ndarray, alpha: float = ALPHA, kernel: str = "paper") -> np.ndarray:
    """K_ij = <x_i, x_j> ((1 + alpha)^2 + (1 - alpha)^2 y_i y_j) / 2 (sheet 1.10: 1 + alpha^2 for equal labels,
    2 alpha otherwise); "label-blind": <x_i, x_j> (1 + alpha^2) for every pair."""
    if kernel == "label-blind":
        return (X @ X.T) * (1.0 + alpha ** 2)
    return (X @ X.T) * ((1.0 + alpha) ** 2 + (1.0 - alpha) ** 2 * np.outer(y, y)) / 2.0


def kernel_dual(X: np.ndarray, y: np.ndarray, alpha: float = ALPHA,
                kernel: str = "paper") -> tuple[np.ndarray | None, float, str]:
    """(z = sum_j beta_j y_j phi(x_j, y_j), its KKT residual, a note) from the dual of the SVM view with kernel
    :func:`par_kernel` (the residual is the dual's own, in its kernel's geometry).
    The Gram G = (y y^T) o K is factored G = L L^T (eigh); the least-distance dual in factor space is Lawson-Hanson's
    NNLS min ||E v - e|| over v >= 0, E = [L^T; 1^T], beta = v / (1 - 1^T v) (the solve sees only K). None
    where G is not PSD beyond rounding (then K is no kernel: the SVM view fails) or the dual is unbounded."""
    G = np.outer(y, y) * par_kernel(X, y, alpha, kernel)
    evals, V = np.linalg.eigh(G)
    top = float(np.max(np.abs(evals)))
    if evals[0] < -PSD_TOL * top:
        return None, math.inf, f"G is not PSD: least eigenvalue {evals[0]:.3g} of {top:.3g}"
    keep = evals > PSD_TOL * top
    L = V[:, keep] * np.sqrt(evals[keep])
    E = np.vstack([L.T, np.ones((1, len(y)))])
    e = np.zeros(E.shape[0])
    e[-1] = 1.0
    v, _ = nnls(E, e, maxiter=50 * E.shape[1])
    denominator = 1.0 - float(v.sum())
    if denominator <= 1e-12:
        return None, math.inf, "the dual is unbounded (QP (8) infeasible)"
    beta = v / denominator
    slack = G @ beta - 1.0  # the dual's own KKT residual (in its kernel's geometry): how well it was solved
    kkt = max(float(np.max(np.maximum(-slack, 0.0))), float(np.max(np.abs(beta * slack))))
    return beta @ Q.par_rows(X, y, alpha), kkt, f"{int(np.sum(beta > 0))} support points"  # rows y_j phi(x_j, y_j)


@measures("-||z_dual - z_QP|| / ||z_QP|| (relative distance); -1: the dual is unbounded or K not PSD (exact)")
def dual_agreement_margin(case: QpCase) -> Margin:
    """The kernel dual (SVM view) and the primal QP (8) give the same z = (w~, u~): value -||z_dual - z_QP|| / ||z_QP||,
    error from both KKT residuals (:func:`solution_error`); an unbounded dual is a violation."""
    par = Q.par_svm(case.ds.X, case.ds.y, ALPHA)
    if par.w is None:
        return Margin(0.0, 0.0, "QP (8) infeasible: not separable through the origin", vacuous=True)
    z_qp = np.r_[par.w, par.u]
    z, kkt, note = kernel_dual(case.ds.X, case.ds.y, ALPHA, case.kernel)
    if z is None:
        return exact_margin(False, f"{case.kernel} kernel: {note} on {case.ds.name}")
    rel = float(np.linalg.norm(z - z_qp) / np.linalg.norm(z_qp))
    return Margin(-rel, solution_error(par.point.kkt_residual, kkt),
                  f"||z_dual - z_QP|| / ||z_QP|| = {rel:.3g} ({case.kernel} kernel, {note}) on {case.ds.name}")


QP8_DUAL = paper_claim(
    "Section 6.2 SVM view of QP (8) (LT-DQP)",
    id="LT-QP8-dual", node="QP8",
    statement="QP (8) is the hard-margin SVM with features phi(x, +1) = (x, -alpha x), phi(x, -1) = (alpha x, -x) and "
              "kernel K = <x, x'> ((1 + alpha)^2 + (1 - alpha)^2 y y') / 2: its kernel dual gives the primal solution",
    check=dual_agreement_margin,
    over=st.builds(QpCase, st.one_of(symmetric_sets(), asymmetric_sets())),
)

QP8_DUAL_BLIND = paper_claim(
    "Section 6.2 SVM view with a label-blind kernel (a misreading of LT-DQP)",
    id="LT-QP8-dual-blind", node="QP8",
    statement="PLANTED: the SVM view with the kernel read as <x, x'> (1 + alpha^2) for every pair (the equal-label "
              "case only) gives QP (8)'s solution",
    check=dual_agreement_margin,
    over=st.builds(QpCase, st.one_of(symmetric_sets(), asymmetric_sets()), st.just(1), st.just("label-blind")),
    expected=Verdict.REFUTED,
    tags=("planted",),
)


# --- Theorem 6.2 on GD trajectories (LT-T62), P10 ------------------------------------------------------------------

@dataclass(frozen=True)
class Reading:
    """Per-sample readings of a trajectory W (T, 2k, d) on (X, y): NAR / PAR membership, the NAR signs, gamma_NAR,
    the PAR margin min_{i,j} min(y_j <w^_i, x_j>, -y_j <u^_i, x_j>), gamma-bar, gamma~ (NaN where n L_S >= log 2)."""

    nar: np.ndarray
    par: np.ndarray
    s_plus: np.ndarray
    s_minus: np.ndarray
    gamma_nar: np.ndarray
    par_margin: np.ndarray
    gamma_bar: np.ndarray
    gamma_tilde: np.ndarray
    norm: np.ndarray


def read_trajectory(Ws: np.ndarray, X: np.ndarray, y: np.ndarray, alpha: float = ALPHA) -> Reading:
    """:class:`Reading` of every sample (:mod:`.network`'s agreement, margins and smoothed margin per sample; signs 0
    where a neuron type does not agree)."""
    y = np.asarray(y, float)
    zero = np.zeros(len(y))
    rows = []
    for W in Ws:
        a = N.agreement(W, X)
        Wp, Wm = N.halves(W)
        norm = float(np.linalg.norm(W))
        par_margin = float(min(np.min(y[:, None] * (X @ Wp.T)), np.min(-y[:, None] * (X @ Wm.T)))) / norm
        rows.append((a.nar, a.par(y), zero if a.s_plus is None else a.s_plus, zero if a.s_minus is None else a.s_minus,
                     a.gamma, par_margin, N.normalised_margin(W, X, y, alpha), N.smoothed_margin(W, X, y, alpha), norm))
    return Reading(*(np.array(column) for column in zip(*rows)))


def final_window(r: Reading) -> int | None:
    """t2: the first sample index from which every sample is in the NAR of the last sample's signs (None: the last
    sample is in no NAR)."""
    if not r.nar[-1]:
        return None
    same = r.nar & np.all(r.s_plus == r.s_plus[-1], axis=1) & np.all(r.s_minus == r.s_minus[-1], axis=1)
    breaks = np.flatnonzero(~same)
    return int(breaks[-1] + 1) if breaks.size else 0


def unit_cos(a: np.ndarray, b: np.ndarray) -> float:
    """cos(a, b)."""
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def gd_horizon(scenario: Scenario, _audit: Any) -> float:
    """params["steps"] GD steps of the scenario's lr (engine time)."""
    return engine_time(float(scenario.params["steps"]) * float(scenario.params["eta"]), scenario.dataset.n)


def gd_scenario(ds: Dataset, k: int, seed: int, steps: int = STEPS, drop: tuple[str, ...] = ()) -> Scenario:
    """GD (eta = 0.5) from ball_init(k, d, 1e-4, seed) on ``ds``; ``drop`` names the hypotheses a mutated statement
    drops ("H3", "H4")."""
    return SC.model_scenario(ds, SC.ball_init(k, ds.d, INIT_R, seed), "gd", eta=ETA, init_seed=seed, R=INIT_R,
                             steps=steps, drop=drop)


@st.composite
def t62_scenarios(draw: st.DrawFn) -> Scenario:
    """Theorem 6.2's setting, small and fast: antipodal Gaussians (n_half 4..15) or antipodal teacher data (n_half
    3..10, d 2..4, margin >= 0.3), k in 2..5, GD eta = 0.5 from init radius 1e-4."""
    ds = draw(st.one_of(st.builds(D.symmetric_gaussians, st.integers(4, 15), st.just(0.3), SEEDS),
                        st.builds(D.symmetric_teacher, st.integers(3, 10), st.integers(2, 4),
                                  st.sampled_from((0.3, 0.4, 0.5)), SEEDS)))
    return gd_scenario(ds, draw(st.integers(2, 5)), draw(SEEDS))


def largest_gamma(run: Any) -> float:
    """max(Gamma_A, Gamma_B): the audit's values (computed here where the audit skipped them, n > 400)."""
    q = run.audit.papers[SEED].quantities
    if q.get("gamma_A") is None:
        return max(Q.misclassifying_margins(run.X, run.y))
    return max(q["gamma_A"], q["gamma_B"])


def hypotheses_4(run: Any, gamma: float) -> tuple[bool, str]:
    """Hypothesis 4 at NAR margin gamma: gamma > max(Gamma_A, Gamma_B)."""
    top = largest_gamma(run)
    return gamma > top, f"gamma = {gamma:.3g} vs max(Gamma_A, Gamma_B) = {top:.3g}"


@measures("worst of the least normalised PAR margin on [t_a, T], cos - gamma-bar / gamma*_PAR and cos(T) - trend floor")
def t62_margin(run: Any) -> Margin:
    """Theorem 6.2 on a GD run (module docstring): vacuous without t2 (final NAR window), t1 (gamma~ > alpha sqrt(k) B)
    or hypothesis 4, unless the scenario's ``drop`` removes H3 / H4 (a mutated statement). Parts: PAR margin >= 0 on
    every sample of [t_a, T]; the bridge cos(W, W^_inf) >= gamma-bar / gamma*_PAR there (error ROUNDING); the ASYMP
    trend cos(T) >= min(COS_MIN, cos(t_a)) - TREND_TOL."""
    X, y, W = run.X, run.y, run.W
    k = W.shape[1] // 2
    drop = tuple(run.scenario.params.get("drop", ()))
    r = read_trajectory(W, X, y, run.scenario.alpha)
    t2 = final_window(r)
    if t2 is None:
        return Margin(0.0, 0.0, "no NAR at T: hypothesis 2 not met in the horizon", vacuous=True)
    gamma = 0.5 * float(np.min(r.gamma_nar[t2:]))
    threshold = run.scenario.alpha * math.sqrt(k) * Q.data_radius(X)
    above = np.flatnonzero(np.nan_to_num(r.gamma_tilde, nan=-np.inf) > threshold)
    if "H3" not in drop and not above.size:
        return Margin(0.0, 0.0, f"hyp. 3 not met by T: max gamma~ = {np.nanmax(np.r_[r.gamma_tilde, -np.inf]):.4g} <= "
                                f"alpha sqrt(k) B = {threshold:.4g}", vacuous=True)
    h4, h4_note = hypotheses_4(run, gamma)
    if "H4" not in drop and not h4:
        return Margin(0.0, 0.0, f"hyp. 4 violated: {h4_note}", vacuous=True)
    t1 = int(above[0]) if above.size and "H3" not in drop else 0
    start = max(t1, t2)
    t = run.times / run.scenario.lr  # GD steps
    window = f"steps [{t[start]:.0f}, {t[-1]:.0f}] ({len(t) - start} samples)"
    par = Q.par_svm(X, y, run.scenario.alpha)
    pred = par.limit(k)
    cos = np.einsum("thd,hd->t", W, pred) / r.norm
    least = start + int(np.argmin(r.par_margin[start:]))
    parts = [Margin(float(np.min(r.par_margin[start:])), 0.0, f"PAR margin on {window}, gamma = {gamma:.3g}; {h4_note}",
                    site={"t": float(run.times[least])})]
    inside = np.arange(start, len(t))[r.par[start:]]
    if inside.size:
        bridge = cos[inside] - r.gamma_bar[inside] / par.limit_margin(k)
        j = int(inside[np.argmin(bridge)])
        parts.append(Margin(float(np.min(bridge)), ROUNDING, f"bridge at step {t[j]:.0f}: cos {cos[j]:.6f} >= gamma-bar / "
                            f"gamma*_PAR = {r.gamma_bar[j] / par.limit_margin(k):.6f}",
                            site={"t": float(run.times[j])}))
    floor = min(COS_MIN, float(cos[start])) - TREND_TOL
    means = N.clusters(W[-1])
    parts.append(Margin(float(cos[-1]) - floor, 0.0, f"cos(W, W^_inf) {cos[start]:.6f} at step {t[start]:.0f} -> "
                        f"{cos[-1]:.6f} at {t[-1]:.0f} (>= {floor:.4f}); cos(w-bar, w~) {unit_cos(means.w_bar, par.w):.4f}, "
                        f"cos(u-bar, u~) {unit_cos(means.u_bar, par.u):.4f}; gamma~ {r.gamma_tilde[-1]:.4g}, gamma*_PAR "
                        f"{par.limit_margin(k):.4g}; consistent on {window} only"))
    return worst(parts)


T62_HYP = ("A6.1 (gamma~ defined)", "NAR final window (hyp. 2, on the samples)",
           "hyp. 3: gamma~ > alpha sqrt(k) B at t1", "hyp. 4: gamma > max(Gamma_A, Gamma_B)", "leaky (alpha = 0.2)",
           "antipodal data (hyp. 4 via Lemma 6.1)")

T62 = paper_claim(
    "Theorem 6.2 (LT-T62)",
    id="LT-T62", node="T62", uses=("X3", "QP8", "L61", "H3", "H4", "A61", "NARH", "LEAKY"),
    statement="Under A6.1, an NAR from t2 on, gamma~(t1) > alpha sqrt(k) B and A_gamma = B_gamma = empty: W(t) is in the "
              "PAR for t >= max(t1, t2) (hard, every sample) and W^(t) tends to the QP (8) limit (w~, u~) / Z (trend: "
              "cos(W^(T), W^_inf) >= min(0.99, cos at max(t1, t2)) - 0.01; bridge cos >= gamma-bar / gamma*_PAR)",
    check=t62_margin,
    over=t62_scenarios(),
    horizon=gd_horizon,
    backend="gd",
    spacing="log",
    samples=SAMPLES,
    assumptions=T62_HYP,
    assumed=("'for all t >= t2' read on the sampled window [max(t1, t2), T] (sheet 5.1)",),
    meta={"budget": {"ci": 6}},
)

P10_RUNS = ((30, 7), (50, 4), (50, 3))  # (n_half, seed) of asymmetric Gaussians whose k = 3 GD run ends in a non-PAR NAR
P10_STEPS = 5000


def p10_scenarios(drop: tuple[str, ...] = ()) -> st.SearchStrategy[Scenario]:
    """P10: GD (k = 3, eta = 0.5, init 1e-4, P10_STEPS steps) on the asymmetric Gaussians of P10_RUNS."""
    return st.builds(lambda run: gd_scenario(D.asymmetric_gaussians(run[0], seed=run[1]), 3, run[1], P10_STEPS, drop),
                     st.sampled_from(P10_RUNS))


P10_T62 = paper_claim(
    "sheet 5.2 P10 (Theorem 6.2 without hypotheses 3 and 4: 'the NAR is always the PAR')",
    id="P10-T62-nar-is-par", node="T62", uses=("NARH", "A61", "LEAKY"),
    statement="PLANTED: whenever GD from a small init ends in an NAR, that NAR is the PAR and W^ tends to the QP (8) "
              "limit (hyp. 3 and 4 dropped); on P10's asymmetric Gaussians the run ends in an NAR that is not the PAR",
    check=t62_margin,
    over=p10_scenarios(drop=("H3", "H4")),
    horizon=gd_horizon,
    backend="gd",
    spacing="log",
    samples=SAMPLES,
    expected=Verdict.REFUTED,
    assumptions=("NAR final window (hyp. 2, on the samples)", "drops hyp. 3 and hyp. 4 (asymmetric data)"),
    tags=("planted",),
    meta={"budget": {"ci": 3}},
)


@measures("max(Gamma_A, Gamma_B) - gamma of the final NAR window (units of ||x||; >= 0: hyp. 4 flagged)")
def h4_flag_margin(run: Any) -> Margin:
    """Theorem 6.2's hypothesis 4 reported violated on the run's final NAR window: value max(Gamma_A, Gamma_B) - gamma
    (>= 0: A_gamma or B_gamma is non-empty, so the theorem is skipped, not refuted), gamma half the window's least
    gamma_NAR; vacuous without a final NAR window."""
    r = read_trajectory(run.W, run.X, run.y, run.scenario.alpha)
    t2 = final_window(r)
    if t2 is None:
        return Margin(0.0, 0.0, "no NAR at T", vacuous=True)
    gamma = 0.5 * float(np.min(r.gamma_nar[t2:]))
    holds, note = hypotheses_4(run, gamma)
    return Margin(largest_gamma(run) - gamma, GAMMA_TOL,
                  f"hyp. 4 {'holds' if holds else 'violated'}: {note} (final NAR window from sample {t2}, "
                  f"PAR {bool(r.par[-1])})")


P10_H4 = paper_claim(
    "sheet 5.2 P10 (Theorem 6.2 SKIP: hypothesis 4 flagged)",
    id="P10-T62-h4-flagged", node="H4", uses=("L61", "SYM"),
    statement="On P10's asymmetric runs the hypothesis test of Theorem 6.2 reports hyp. 4 violated: max(Gamma_A, Gamma_B) "
              ">= gamma for the final NAR window's gamma (so LT-T62 is vacuous there: a SKIP, not a refutation)",
    check=h4_flag_margin,
    over=p10_scenarios(),
    horizon=gd_horizon,
    backend="gd",
    spacing="log",
    samples=SAMPLES,
    assumptions=("NAR final window (hyp. 2, on the samples)", "asymmetric data"),
    meta={"budget": {"ci": 3}},
)

P10_H4_TWIN = paper_claim(
    "sheet 5.2 P10 (twin: the hypothesis-4 test on antipodal runs)",
    id="P10-T62-h4-flagged-sym", node="H4", uses=("L61", "SYM"),
    statement="PLANTED: the hyp. 4 test flags antipodal runs too (max(Gamma_A, Gamma_B) >= gamma); by Lemma 6.1 Gamma = 0 "
              "there, so it must not",
    check=h4_flag_margin,
    over=st.builds(lambda ds, k, seed: gd_scenario(ds, k, seed, 500), symmetric_sets(), st.integers(2, 5), SEEDS),
    horizon=gd_horizon,
    backend="gd",
    spacing="log",
    samples=SAMPLES,
    expected=Verdict.REFUTED,
    assumptions=SYM_HYP,
    tags=("planted",),
    meta={"budget": {"ci": 3}},
)
