"""Claim sheet 003, Theorem 5.6 (C-T5.6; sheet E6), read with :mod:`.late_phase`'s helpers: from the embedded optimum
pi_b((1/2)(w*, -w*, 1, -1)) perturbed by eps, at norm rho, the margin tends to the optimum's; the drift max_t
||theta-bar(t) - theta-bar*|| is reported (an empirical eps0(delta)); the maximisers form a manifold for m >= 3, so
margins are compared, not points. At finite norm the margin gap need not shrink over [1e4, 1e12] (planted S19-T56-gap),
so the decision is by the two certificates (Lyu-Li, one sign). Planted: the same from C-KKTsub's direction
(:mod:`.kkt_directions`) with a small neuron of the other sign, a KKT direction that is not a local max (the sheet's
warning).

Norms. The sheet's rho in {10, 100} cannot move within engine time 1e12: at ||theta|| = 100 on D-SYM q_min ~ 670, and
the flow's time scale is e^{q_min}. rho in {3, 10} here (q_min <= ~15).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.margins import max_margin
from verify.model.init import Initialization
from verify.scenarios import SEEDS, Scenario
from verify.verdicts import Verdict

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import network as N
from properties.lyu2021_margin._shared import ALPHA, LOSS, paper_claim
from properties.lyu2021_margin.embedding import embed
from properties.lyu2021_margin.flows import direction_distance, two_group_direction
from properties.lyu2021_margin.kkt_directions import suboptimal_direction
from properties.lyu2021_margin.late_phase import (C_GLOBAL, LATE, beyond, envelope, gate, margin_ratio, one_sign,
                                                  ratio_error, read, series)
from properties.lyu2021_margin.theorem55 import symmetric_data

EPSILONS = (1e-1, 1e-2, 1e-3)
RHOS = (3.0, 10.0)


def anchor(ds: Dataset, m: int, seed: int, target: str) -> tuple[np.ndarray, np.ndarray]:
    """theta-bar*: the embedded optimum pi_b((1/2)(w*, -w*, 1, -1)) (embedding.embed; a unit vector with margin
    C gamma_lin on symmetric data) with b_k = s_k (0.3 + |g_k|) (alternating signs, seeded g), or ("kkt") C-KKTsub's
    direction on m - 1 neurons plus a zero neuron."""
    w_star = np.asarray(max_margin(ds).svm.direction, float)
    if target == "kkt":
        W, a = suboptimal_direction(w_star, m - 1, seed)
        return np.vstack([W, np.zeros(ds.d)]), np.r_[a, 0.0]
    g = np.random.default_rng(seed).standard_normal(m)
    return embed(*two_group_direction(w_star), np.where(np.arange(m) % 2 == 0, 1.0, -1.0) * (0.3 + np.abs(g)))


def perturbed_scenario(ds: Dataset, m: int, eps: float, rho: float, seed: int, target: str = "optimum") -> Scenario:
    """T5.6's start: theta0 = rho (theta-bar* + eps u) / ||theta-bar* + eps u||, u a seeded unit vector of R^D; for
    ``target`` "kkt", u puts the zero neuron at (-w*, -1)/sqrt(2) (a small neuron of the other sign)."""
    W, a = anchor(ds, m, seed, target)
    u = np.random.default_rng(seed + 1).standard_normal(W.size + a.size)
    if target == "kkt":
        w_star = np.asarray(max_margin(ds).svm.direction, float)
        u = np.r_[np.zeros(W.size - ds.d), -w_star, np.zeros(m - 1), -1.0]
    theta = np.r_[W.ravel(), a] + eps * u / np.linalg.norm(u)
    theta /= np.linalg.norm(theta)
    return Scenario(ds, Initialization(theta[:W.size].reshape(W.shape), theta[W.size:], math.log(rho), "given"), LOSS,
                    ALPHA, {"data": ds.name, "init": f"perturbed {target}", "m": m, "eps": eps, "rho": rho,
                            "init_seed": seed, "target": target})


@st.composite
def perturbed_scenarios(draw: st.DrawFn) -> Scenario:
    """:func:`perturbed_scenario` around the embedded optimum: m in 2..5, eps in EPSILONS, rho in RHOS."""
    return perturbed_scenario(symmetric_data(draw), draw(st.integers(2, 5)), draw(st.sampled_from(EPSILONS)),
                              draw(st.sampled_from(RHOS)), draw(SEEDS))


def margin_gap(run: Any) -> tuple[Any, float, np.ndarray, str]:
    """(the run's Late, gamma* = gamma(theta-bar*), |gamma(t) - gamma*| / gamma*, the drift note)."""
    lt = read(run)
    p = run.scenario.params
    W_star, a_star = anchor(run.dataset, int(p["m"]), int(p["init_seed"]), p["target"])
    gamma_star = N.normalised_margin(lt.X, lt.y, W_star, a_star, ALPHA)
    drift = float(np.max(series(lt, lambda W, a: direction_distance(W, a, (W_star, a_star)))))
    gap = np.abs(margin_ratio(lt) * C_GLOBAL * lt.gamma_lin - gamma_star) / gamma_star
    return lt, gamma_star, gap, (f"drift max_t ||theta-bar - theta-bar*|| = {drift:.3g} at eps = {p['eps']:g}, rho = "
                                 f"{p['rho']:g} (drift / eps = {drift / p['eps']:.3g}): eps0(delta) >= eps for delta >= "
                                 f"{drift:.3g}")


@measures("(gamma* - gamma~(t_end)) / gamma*: room left below the anchor's margin (relative; certificates < 0)")
def local_convergence(run: Any) -> Margin:
    """T5.6, gamma(limit) = gamma* = gamma(theta-bar*), by its two finite-time certificates: gamma~(t_end) > gamma*
    (Lyu-Li: the limit margin is larger) and a single-signed end with (alpha/2) gamma_lin < gamma* (the limit margin is
    smaller; :func:`late_phase.one_sign`) are violations. Otherwise the value is (gamma* - gamma~(t_end)) / gamma*, the
    room left in the bracket gamma~(t_end) <= gamma(limit) <= max, ratio gamma~(t_end) / gamma* (0 for gamma~ <= 0;
    gamma* / ((alpha/2) gamma_lin) at a single-signed end); the note gives the gap's envelope trend (a finite-time
    reading that fails near the optimum, see S19-T56-gap) and the drift against eps."""
    blocked = gate(run)
    if blocked is not None:
        return blocked
    lt, gamma_star, gap, drift = margin_gap(run)
    over = beyond(lt, gamma_star, "gamma(theta-bar*)")
    if over is not None:
        return over
    low = 0.5 * ALPHA * lt.gamma_lin
    sign = one_sign(lt)
    err = ratio_error(lt) * C_GLOBAL * lt.gamma_lin / gamma_star
    if sign is not None and low < gamma_star * (1.0 - err):
        return Margin(low / gamma_star - 1.0, err, f"{sign}: the limit margin is <= (alpha/2) gamma_lin = {low:.6g} < "
                                                   f"gamma* = {gamma_star:.6g}; {drift}", ratio=gamma_star / low)
    smooth = N.smoothed_margin(lt.X, lt.y, lt.W[-1], lt.a[-1], ALPHA)
    trend = envelope(gap, lt, err, "|gamma - gamma*| / gamma*")
    ratio = max(0.0, smooth) / gamma_star
    return Margin((gamma_star - smooth) / gamma_star, err, f"gamma~(t_end) = {smooth:.6g} <= gamma(limit) <= gamma* = "
                                                          f"{gamma_star:.6g}; {trend.note}; {drift}; gamma~(t_end) / "
                                                          f"gamma* = {ratio:.6g}", ratio=ratio)


@measures("early-window max minus late-window max of |gamma - gamma*| / gamma* (relative)")
def gap_trend(run: Any) -> Margin:
    """The finite-time reading of T5.6 (sheet C-T5.6 'final gamma equals gamma* within a trend'), read literally:
    |gamma - gamma*| / gamma* shrinks in envelope (error :func:`late_phase.ratio_error` / gamma*), a rise is a
    violation of the reading (S19-T56-gap)."""
    blocked = gate(run)
    if blocked is not None:
        return blocked
    lt, gamma_star, gap, drift = margin_gap(run)
    trend = envelope(gap, lt, ratio_error(lt) * C_GLOBAL * lt.gamma_lin / gamma_star, "|gamma - gamma*| / gamma*",
                     literal=True)
    return Margin(trend.value, trend.error, f"{trend.note}; {drift}", ratio=trend.ratio)


T56_LOCAL = paper_claim(
    id="LY-T56-local",
    node="T56", uses=("T31", "T42", "L53"),
    source="Theorem 5.6 at the embedded optimum pi_b((1/2)(w*, -w*, 1, -1)) (C-T5.6 check; sheet E6)",
    statement="From theta-bar* = the embedded optimum (m in 2..5, symmetric data) perturbed by eps in {1e-1, 1e-2, "
              "1e-3} at norm rho in {3, 10}, the limit margin is gamma(theta-bar*): neither certificate (gamma~ above it, "
              "a single-signed end below it) fires by t = 1e12; the gap's trend and the drift max_t ||theta-bar(t) - "
              "theta-bar*|| (an empirical eps0(delta)) are reported",
    check=local_convergence,
    over=perturbed_scenarios(),
    **LATE,
    assumptions=("A3.2 (by construction)", "A4.1 (by construction)", "m >= 2", "leaky",
                 "theta-bar* a global (hence local) max (T4.2)", "integrator gate (C-S6-bal)"),
    assumed=("rho >= rho0 and eps <= eps0 (unquantified; sheet 2.0 item 4)",),
)

T56_KKT = paper_claim(
    id="LY-T56-not-local-max",
    node="T56", uses=("T31", "KKTSUB"),
    source="C-T5.6 'Beware: the KKT directions of C-KKTsub are not known to be local maxima' (planted)",
    statement="PLANTED: T5.6's conclusion at C-KKTsub's direction (m - 1 neurons along +w*, one zero neuron) with the "
              "zero neuron moved to eps (-w*, -1)/sqrt(2), eps = 0.1, rho = 1: the flow leaves it for a larger margin "
              "(gamma~ > (alpha/2) gamma_lin), so it is not a local max (expected REFUTED; hypothesis 'local max' "
              "violated)",
    check=local_convergence,
    over=st.sampled_from([perturbed_scenario(D.random_symmetric(n_half, d, seed=seed), m, 0.1, 1.0, seed, "kkt")
                          for n_half, d, seed, m in ((4, 2, 22, 2), (4, 3, 31, 3), (5, 2, 80, 2))]),
    **LATE,
    expected=Verdict.REFUTED,
    assumptions=("A3.2", "A4.1", "m >= 2", "leaky", "drops 'local max' (a KKT direction only)"),
    tags=("planted",),
)

S19_T56 = paper_claim(
    id="S19-T56-gap",
    node="T56", uses=("T31", "T42"),
    source="sheet S-19 / C-T5.6 ('final gamma equals gamma* within a trend'), a finite-time reading",
    statement="PLANTED (finite-time reading): |gamma(t) - gamma*| / gamma* need not shrink over [1e4, 1e12] from a start "
              "near the optimum: at finite norm the flow first leaves theta-bar* (rho = 10, eps = 0.01: gap 0.0076 -> "
              "0.0087) (expected REFUTED; T5.6 is a limit, not a monotone statement)",
    check=gap_trend,
    over=st.sampled_from([perturbed_scenario(D.random_symmetric(3, 3, seed=5), 2, 0.01, 10.0, 0)]),
    **LATE,
    expected=Verdict.REFUTED,
    assumptions=("A3.2", "A4.1", "m >= 2", "leaky", "theta-bar* a global max (T4.2)"),
    tags=("planted", "reading"),
)
