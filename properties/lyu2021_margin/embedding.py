"""Claim sheet 003, Phase II (Section 5.2): Lemma 5.3, the exact embedding pi_b of two-neuron nets into width m
(C-Emb / C-L5.3, numeric part), and Lemma 5.4 (iii)-(iv), the coupling of the m-neuron flow to the two-neuron limit
flow (C-L5.4), as trend claims.

pi_b (Phase II): for a good embedding vector b in R^m (every entry non-zero, both signs) and theta^ = (w^1, w^2, a^1,
a^2) with a^1 > 0 > a^2, neuron k of pi_b(theta^) is (b_k / b+) (w^1, a^1) if b_k > 0 and (b_k / b-) (w^2, a^2) if
b_k < 0, b+ = sqrt(sum_{b_j > 0} b_j^2), b- = -sqrt(sum_{b_j < 0} b_j^2). Lemma 5.3: Phi(pi_b theta^, t) =
pi_b(Phi(theta^, t)).

Lemma 5.4 with theta^ = (b+ mu^, b- mu^, b+, b-) (b = b-bar of the draw, sheet 1.6): (iii) Phi(r theta^, T2(r) + t)
converges as r -> 0 (sheet: Cauchy differences 1.2e-6, 1.2e-8, 1.2e-10 at r = 1e-2, 1e-3, 1e-4: O(r^2)); (iv)
theta(T12 + t) -> pi_b(theta~(t)) as sigma -> 0 (sheet: 2.07 sigma, m = 5: O(sigma)). The sheet's draw is D_init(5, 3,
seed 7) on D-SYM (its ||theta~(t)|| = 0.590, 1.234, 3.644 at t = 0, 5, 20; sheet 0.59, 1.23, 3.64); the engine gives
the constant 2.066 and the differences 1.16e-6, 1.16e-8 at t = 0 (tests/test_paper_003_phases.py). Both are limits;
each is read as a trend: the fitted order q of the difference against r (sigma) must reach the observed order minus
ORDER_TOL. Times are paper times (mean loss), converted with ``_shared.engine_time``; t in COUPLING_TIMES as in the
sheet.

Data: the sheet's D-SYM and random symmetric data (``phase1.symmetric_data``). A Lemma 5.4 run that reports Filippov
sliding is inconclusive, never read: its Phase I crosses transversally (``phase1`` module docstring), and a sliding line
has no independent check (the mp backend refuses it).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.model.init import Initialization
from verify.scenarios import SEEDS, Scenario
from verify.simulate import simulate
from verify.strategies import GeometryCase, as_case
from verify.verdicts import Verdict

from properties.lyu2021_margin import quantities as Q
from properties.lyu2021_margin._shared import ALPHA, LOSS, engine_time, paper_claim, paper_time
from properties.lyu2021_margin.phase1 import (SWEEP_BUDGET, exponent_ratio, mu_hat, slid, slope_bound, state_tolerance,
                                              sweep_cases, symmetric_data)

EMBED_HORIZON = 60.0  # paper time of the Lemma 5.3 runs
EMBED_RTOL = 1e-11
COUPLING_TIMES = (0.0, 5.0, 20.0)  # paper times t after T2(r) (iii) or T12 (iv), as in the sheet
CAUCHY_RS = (1e-1, 1e-2, 1e-3)
R_REF = 1e-5  # reference r of the Cauchy test and of the limit theta~(t) (its own error O(R_REF^2))
COUPLING_SIGMAS = (1e-3, 1e-4, 1e-5, 1e-6)
ORDER_TOL = 0.5
L54_RTOL = 1e-12
EMBEDDINGS = ("paper", "unnormalised", "one-sided")


def embed(W_hat: np.ndarray, a_hat: np.ndarray, b: np.ndarray,
          norms: tuple[float, float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """pi_b(theta^): neuron k = (b_k / b+) (w^1, a^1) for b_k > 0, (b_k / b-) (w^2, a^2) for b_k < 0, 0 for b_k = 0;
    ``norms`` replaces (b+, b-) (the planted unnormalised embedding uses (1, -1)). W_hat (2, d), a_hat (2,)."""
    b = np.asarray(b, float)
    bp, bm = Q.b_plus_minus(b) if norms is None else norms
    c1 = np.where(b > 0.0, b / bp if bp else 0.0, 0.0)
    c2 = np.where(b < 0.0, b / bm if bm else 0.0, 0.0)
    W = c1[:, None] * W_hat[0][None, :] + c2[:, None] * W_hat[1][None, :]
    return W, c1 * a_hat[0] + c2 * a_hat[1]


def embedding_norms(kind: str) -> tuple[float, float] | None:
    """(b+, b-) of the paper (None) or (1, -1) for the planted "unnormalised" embedding."""
    return (1.0, -1.0) if kind == "unnormalised" else None


def two_neuron_direction(b: np.ndarray, direction: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """theta^ = (b+ mu^, b- mu^, b+, b-) (Lemma 5.4, the sheet's order of the garbled tuple)."""
    bp, bm = Q.b_plus_minus(b)
    return np.vstack([bp * direction, bm * direction]), np.array([bp, bm])


# --- Lemma 5.3 along a run -----------------------------------------------------------------------------------

@st.composite
def embedding_scenarios(draw: st.DrawFn, kind: str = "paper", m: tuple[int, int] = (2, 6)) -> Scenario:
    """pi_b(theta^) on ``phase1.symmetric_data``: |b_k| uniform in [0.2, 1], b_0 > 0 > b_1 and fair signs otherwise
    (all > 0 for ``kind`` "one-sided"); theta^ aligned, s (b+ mu^, b- mu^, b+, b-), or random, s (w^1, w^2, a^1, a^2)
    with w Gaussian and +-a^ in [0.2, 1.2]; scale s in {0.1, 0.5, 1}. ``kind`` "unnormalised": pi_b without 1 / b+-."""
    ds = draw(symmetric_data())
    width, seed = draw(st.integers(*m)), draw(SEEDS)
    rng = np.random.default_rng(seed)
    signs = np.where(rng.random(width) < 0.5, -1.0, 1.0)
    signs[:2] = (1.0, -1.0)
    b = rng.uniform(0.2, 1.0, width) * (1.0 if kind == "one-sided" else signs)
    scale = draw(st.sampled_from((0.1, 0.5, 1.0)))
    shape = draw(st.sampled_from(("aligned", "random")))
    if shape == "aligned":
        W_hat, a_hat = two_neuron_direction(np.where(signs > 0, b, -b) if kind == "one-sided" else b, mu_hat(ds))
    else:
        W_hat, a_hat = rng.standard_normal((2, ds.d)), np.array([1.0, -1.0]) * rng.uniform(0.2, 1.2, 2)
    W_hat, a_hat = scale * W_hat, scale * a_hat
    W, a = embed(W_hat, a_hat, b, embedding_norms(kind))
    init = Initialization(W, a, 0.0, "given")
    return Scenario(ds, init, LOSS, ALPHA, {"data": ds.name, "m": width, "b": b.tolist(), "W_hat": W_hat.tolist(),
                                            "a_hat": a_hat.tolist(), "embedding": kind, "theta_hat": shape,
                                            "scale": scale, "seed": seed})


def embed_horizon(scenario: Scenario, audit: Any) -> float:
    """EMBED_HORIZON in engine time."""
    return engine_time(EMBED_HORIZON, scenario.dataset.n)


@measures("minus the largest per-neuron relative gap between the m-neuron flow and pi_b of the two-neuron flow")
def embedding_gap(run: Any) -> Margin:
    """Lemma 5.3: max over samples and neurons of ||z_k(t) - pi_b(Phi(theta^, t))_k|| / max(both norms), z_k = (w_k,
    a_k) of the m-neuron run, the two-neuron flow integrated here at the same times and rtol. Margin -gap, error
    the two runs' relative state errors (``phase1.state_tolerance``)."""
    p = run.scenario.params
    W_hat, a_hat, b = np.array(p["W_hat"]), np.array(p["a_hat"]), np.array(p["b"])
    rtol = float(run.params.get("rtol") or EMBED_RTOL)
    two = simulate(run.dataset, W_hat, a_hat, float(run.times[-1]), loss=run.scenario.loss, alpha=run.scenario.alpha,
                   times=np.asarray(run.times, float), rtol=rtol)
    Z = np.concatenate([np.asarray(run.W, float), np.asarray(run.v, float)[..., None]], axis=2)
    pairs = [embed(two.W[k], two.v[k], b, embedding_norms(p["embedding"])) for k in range(two.times.size)]
    Zh = np.stack([np.concatenate([Wk, ak[:, None]], axis=1) for Wk, ak in pairs])
    size = np.maximum(np.linalg.norm(Z, axis=2), np.linalg.norm(Zh, axis=2))
    gap = np.where(size > 0.0, np.linalg.norm(Z - Zh, axis=2) / np.where(size > 0.0, size, 1.0), 0.0)
    k, j = np.unravel_index(int(np.argmax(gap)), gap.shape)
    error = state_tolerance(run.trajectory, rtol) + state_tolerance(two, rtol)
    t = paper_time(float(run.times[k]), run.dataset.n)
    return Margin(-float(gap[k, j]), error, f"max relative gap {gap[k, j]:.3g} (neuron {j}, paper t = {t:.4g}; "
                                            f"{p['embedding']} embedding, {p['theta_hat']} theta^, "
                                            f"b = {np.round(b, 3).tolist()})",
                  site={"t": float(run.times[k]), "j": int(j)})


L53_FLOW = paper_claim(
    id="LY-L53-flow",
    node="L53", uses=("I1",),
    source="Lemma 5.3 (C-Emb / C-L5.3, numeric: Phi(pi_b theta^, t) = pi_b(Phi(theta^, t)))",
    statement="For a good b and theta^ with a^1 > 0 > a^2, the m-neuron flow from pi_b(theta^) equals pi_b of the "
              "two-neuron flow at every sample up to paper time 60, within the two runs' tolerances",
    check=embedding_gap,
    over=embedding_scenarios(),
    horizon=embed_horizon,
    rtol=EMBED_RTOL,
    assumptions=("A4.1 (by construction)", "A3.2 (by construction)", "leaky",
                 "b good, a^1 > 0 > a^2 (by construction)"),
    assumed=("A4.6 (non-branching: the engine's Caratheodory solution)",),
)

L53_UNNORMALISED = paper_claim(
    id="LY-L53-flow-unnormalised",
    node="L53", uses=("I1",),
    source="Lemma 5.3 with pi_b applied without the 1 / b+- scaling (planted)",
    statement="PLANTED: (w_k, a_k) = |b_k| (w^i, a^i) (no division by b+-) commutes with the flow. False unless "
              "b+^2 = b-^2 = 1: the embedded net is not f_theta^",
    check=embedding_gap,
    over=embedding_scenarios("unnormalised"),
    horizon=embed_horizon,
    rtol=EMBED_RTOL,
    expected=Verdict.REFUTED,
    assumptions=("A4.1 (by construction)", "leaky", "drops the 1 / b+- scaling"),
    tags=("planted",),
)

L53_ONE_SIDED = paper_claim(
    id="LY-L53-flow-one-sided",
    node="L53", uses=("I1",),
    source="Lemma 5.3 with a non-good b (all entries > 0; planted)",
    statement="PLANTED: pi_b commutes with the flow for b with all entries positive. False: pi_b drops neuron 2, "
              "whose pull on neuron 1 the two-neuron flow keeps",
    check=embedding_gap,
    over=embedding_scenarios("one-sided"),
    horizon=embed_horizon,
    rtol=EMBED_RTOL,
    expected=Verdict.REFUTED,
    assumptions=("A4.1 (by construction)", "leaky", "drops 'b good' (no negative entry)"),
    tags=("planted",),
)


# --- Lemma 5.4 (iii)-(iv): trend claims -----------------------------------------------------------------------

def order_trend(scales: np.ndarray, values: np.ndarray, errors: np.ndarray, order: float, what: str) -> Margin:
    """``values`` shrink with ``scales`` at least at order ``order`` - ORDER_TOL: the fitted order q (least-squares
    slope of ln value against ln scale) gives margin q - (order - ORDER_TOL), error the slope bound of the relative
    errors; ratio = the shrink over the range implied by q / the shrink the required order allows (phase1's
    ``exponent_ratio``)."""
    s, v = np.asarray(scales, float), np.asarray(values, float)
    q, err = slope_bound(np.log(s), np.log(v), np.asarray(errors, float) / v)
    pairs = ", ".join(f"{x:.0e}: {y:.3g}" for x, y in zip(s, v))
    ratio = exponent_ratio(order - ORDER_TOL - q, math.log(float(s.max() / s.min())))
    slack = "" if ratio is None else f"; implied / allowed shrink = {ratio:.3g}"
    return Margin(q - (order - ORDER_TOL), err, f"{what} ({pairs}); fitted order {q:.3f} (expected {order:g}, "
                                               f"required >= {order - ORDER_TOL:g}){slack}", ratio=ratio)


def flow_at(ds: Dataset, W: np.ndarray, a: np.ndarray, t_paper: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """(W, a) at the paper times ``t_paper`` (increasing, > 0) from (W, a), and the relative state error."""
    times = np.array([engine_time(t, ds.n) for t in t_paper])
    traj = simulate(ds, W, a, float(times[-1]), loss=LOSS, alpha=ALPHA, times=times, rtol=L54_RTOL)
    if slid(traj):
        raise ValueError("the engine reported Filippov sliding: no evidence (phase1.slid)")
    return traj.W, traj.v, state_tolerance(traj, L54_RTOL)


def good_draw(case: GeometryCase) -> tuple[Dataset, Q.Draw, np.ndarray] | str:
    """(data, theta0-bar = D_init(1) of width m, b-bar), or why the case is outside Lemma 5.4 (b-bar not good)."""
    c = as_case(case)
    theta = Q.d_init(int(c.params["m"]), c.dataset.d, c.seed)
    b = Q.embedding_vector(theta, mu_hat(c.dataset))
    if not Q.good_embedding(b):
        return f"b-bar = {np.round(b, 3).tolist()} is not good (probability 2^(1-m)): Lemma 5.4 not claimed"
    return c.dataset, theta, b


def limit_flow(ds: Dataset, b: np.ndarray, r: float,
               reading: str = "corrected") -> tuple[np.ndarray, np.ndarray, float]:
    """Phi(r theta^, T2(r) + t) for t in COUPLING_TIMES (T2 with lambda0 of ``reading``): states (k, 2, d), (k, 2)."""
    W_hat, a_hat = two_neuron_direction(b, mu_hat(ds))
    t2 = math.log(1.0 / r) / Q.lambda0(ds.X, ds.y, ALPHA, reading)
    return flow_at(ds, r * W_hat, r * a_hat, t2 + np.array(COUPLING_TIMES))


def cauchy_differences(ds: Dataset, b: np.ndarray, rs: tuple[float, ...] = CAUCHY_RS,
                       reading: str = "corrected") -> tuple[np.ndarray, np.ndarray]:
    """(D, error), each (len(rs), len(COUPLING_TIMES)): D = ||Phi(r theta^, T2(r) + t) - Phi(R_REF theta^, T2(R_REF) +
    t)|| (T2 with lambda0 of ``reading``; sheet, t = 0: 1.2e-6, 1.2e-8 at r = 1e-2, 1e-3); error: the states'
    relative errors times their norms. ValueError where a run slid."""
    ref_W, ref_a, ref_tol = limit_flow(ds, b, R_REF, reading)
    ref_norm = np.sqrt(np.sum(ref_W**2, axis=(1, 2)) + np.sum(ref_a**2, axis=1))
    gaps, errs = [], []
    for r in rs:
        W, a, tol = limit_flow(ds, b, r, reading)
        gaps.append(np.sqrt(np.sum((W - ref_W) ** 2, axis=(1, 2)) + np.sum((a - ref_a) ** 2, axis=1)))
        errs.append(tol * np.sqrt(np.sum(W**2, axis=(1, 2)) + np.sum(a**2, axis=1)) + ref_tol * ref_norm)
    return np.array(gaps), np.array(errs)


def at_worst_time(gaps: np.ndarray, errs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row (scale), the largest gap over the times and the error at that time."""
    k = np.argmax(gaps, axis=1)
    rows = np.arange(gaps.shape[0])
    return gaps[rows, k], errs[rows, k]


@measures("fitted order in r of the Cauchy differences minus the required 1.5 (exponent)")
def cauchy_in_r(case: GeometryCase) -> Margin:
    """(iii): max_t D(r) (:func:`cauchy_differences`, T2 with lambda0 of the case's ``reading``) over CAUCHY_RS
    shrinks at order >= 2 - ORDER_TOL (``order_trend``)."""
    reading = as_case(case).params.get("reading", "corrected")
    got = good_draw(case)
    if isinstance(got, str):
        return Margin(0.0, 0.0, got, vacuous=True)
    try:
        gaps, errs = at_worst_time(*cauchy_differences(got[0], got[2], CAUCHY_RS, reading))
    except ValueError as exc:
        return Margin(0.0, math.inf, str(exc))
    return order_trend(np.array(CAUCHY_RS), gaps, errs, 2.0,
                       f"max_t ||Phi(r theta^, T2(r) + t) - Phi(1e-5 theta^, ...)|| ({reading} lambda0)")


L54_CAUCHY = paper_claim(
    id="LY-L54-iii",
    node="L54", uses=("L52", "L53", "EIG"),
    source="Lemma 5.4 (iii), eq. (4): theta~(t) = lim_{r -> 0} Phi(r theta^, T2(r) + t) exists (C-L5.4 (iii), "
           "Cauchy test)",
    statement="For theta^ = (b+ mu^, b- mu^, b+, b-) (b-bar good), ||Phi(r theta^, T2(r) + t) - Phi(1e-5 theta^, "
              "T2(1e-5) + t)|| (max over t in {0, 5, 20}) shrinks like r^2 over r in {1e-1, 1e-2, 1e-3} "
              "(fitted order >= 1.5)",
    check=cauchy_in_r,
    over=sweep_cases(),
    horizon=None,
    assumptions=("A3.2", "A4.1", "A4.5", "leaky", "b-bar good (vacuous otherwise)"),
    assumed=("finite-r proxy of the limit: fitted order of the Cauchy differences", "A4.6"),
    tags=("static", "sweep"),
    meta={"budget": SWEEP_BUDGET},
)

L54_CAUCHY_PRINTED = paper_claim(
    id="LY-L54-iii-printed",
    node="L54", uses=("L52", "L53", "EIG"),
    source="Lemma 5.4 (iii) with T2(r) = (1/lambda0) ln(1/r), lambda0 as printed (erratum S-1)",
    statement="AS PRINTED: with lambda0 = ((1+alpha)/2)||mu|| in T2(r), Phi(r theta^, T2(r) + t) converges as r -> 0 "
              "(fitted order >= 1.5). False: T2 is then half the time the flow needs to leave 0",
    check=cauchy_in_r,
    over=sweep_cases(reading="printed"),
    horizon=None,
    expected=Verdict.REFUTED,
    assumptions=("A3.2", "A4.1", "A4.5", "leaky", "b-bar good (vacuous otherwise)"),
    tags=("static", "sweep", "erratum"),
    meta={"budget": SWEEP_BUDGET},
)


def coupling_errors(ds: Dataset, theta: Q.Draw, b: np.ndarray, sigmas: tuple[float, ...] = COUPLING_SIGMAS,
                    reading: str = "corrected") -> tuple[np.ndarray, np.ndarray]:
    """(e, error), each (len(sigmas), len(COUPLING_TIMES)): e = ||theta(T12 + t) - pi_b(theta~(t))||, theta from sigma
    theta0-bar, theta~(t) ~ Phi(R_REF theta^, T2(R_REF) + t), T12 with lambda0 of ``reading`` (sheet: e ~ 2.07 sigma on
    D-SYM, m = 5). Error: the states' relative errors times their norms + the limit's own O(R_REF^2) part, read as 1/100
    of the difference between the r = 10 R_REF and R_REF flows (order 2, as (iii) measures). ValueError where a run
    slid."""
    lam = Q.lambda0(ds.X, ds.y, ALPHA, reading)
    lim_W, lim_a, lim_tol = limit_flow(ds, b, R_REF)
    W10, a10, _ = limit_flow(ds, b, 10.0 * R_REF)
    emb = [embed(lim_W[k], lim_a[k], b) for k in range(len(COUPLING_TIMES))]
    lim_norm = np.sqrt(np.sum(lim_W**2, axis=(1, 2)) + np.sum(lim_a**2, axis=1))  # pi_b is an isometry
    limit_err = float(np.max(np.sqrt(np.sum((W10 - lim_W) ** 2, axis=(1, 2)) + np.sum((a10 - lim_a) ** 2, axis=1))))
    gaps, errs = [], []
    for sigma in sigmas:
        t12 = Q.phase_times(lam, theta.a.size, sigma, theta.m_norm, 1.0)[2]
        W, a, tol = flow_at(ds, sigma * theta.W, sigma * theta.a, t12 + np.array(COUPLING_TIMES))
        gaps.append([math.sqrt(float(np.sum((W[k] - Wk) ** 2) + np.sum((a[k] - ak) ** 2)))
                     for k, (Wk, ak) in enumerate(emb)])
        errs.append(tol * np.sqrt(np.sum(W**2, axis=(1, 2)) + np.sum(a**2, axis=1)) + lim_tol * lim_norm
                    + limit_err / 100.0)
    return np.array(gaps), np.array(errs)


@measures("fitted order in sigma of ||theta(T12 + t) - pi_b(theta~(t))|| minus the required 0.5 (exponent)")
def coupling_in_sigma(case: GeometryCase) -> Margin:
    """(iv): max_t e(sigma) (:func:`coupling_errors`, T12 with lambda0 of the case's ``reading``) over COUPLING_SIGMAS
    shrinks at order >= 1 - ORDER_TOL (``order_trend``)."""
    reading = as_case(case).params.get("reading", "corrected")
    got = good_draw(case)
    if isinstance(got, str):
        return Margin(0.0, 0.0, got, vacuous=True)
    ds, theta, b = got
    try:
        gaps, errs = at_worst_time(*coupling_errors(ds, theta, b, COUPLING_SIGMAS, reading))
    except ValueError as exc:
        return Margin(0.0, math.inf, str(exc))
    return order_trend(np.array(COUPLING_SIGMAS), gaps, errs, 1.0,
                       f"max_t ||theta(T12 + t) - pi_b(theta~(t))|| ({reading} lambda0, m = {theta.a.size})")


L54_COUPLING = paper_claim(
    id="LY-L54-iv",
    node="L54", uses=("L52", "L53", "EIG", "DINIT"),
    source="Lemma 5.4 (iv), eq. (5): lim_{sigma -> 0} theta(T12 + t) = pi_b(theta~(t)) (C-L5.4 (iv))",
    statement="For theta0-bar ~ D_init(1) with b-bar good, ||theta(T12 + t) - pi_b(theta~(t))|| (max over t in "
              "{0, 5, 20}) shrinks like sigma over sigma in 1e-3 .. 1e-6 (fitted order >= 0.5)",
    check=coupling_in_sigma,
    over=sweep_cases(),
    horizon=None,
    assumptions=("A3.2", "A4.1", "A4.5", "leaky", "D_init", "m >= 2", "b-bar good (vacuous otherwise)"),
    assumed=("finite-sigma proxy of the limit: fitted order of the coupling error", "A4.6"),
    tags=("static", "sweep"),
    meta={"budget": SWEEP_BUDGET},
)

L54_COUPLING_PRINTED = paper_claim(
    id="LY-L54-iv-printed",
    node="L54", uses=("L52", "L53", "EIG", "DINIT"),
    source="Lemma 5.4 (iv) with T12 from the printed lambda0 (erratum S-1)",
    statement="AS PRINTED: with lambda0 = ((1+alpha)/2)||mu|| in T12, theta(T12 + t) -> pi_b(theta~(t)) as sigma -> 0. "
              "False: at that T12 the net is still of size sigma^(1/2)",
    check=coupling_in_sigma,
    over=sweep_cases(reading="printed"),
    horizon=None,
    expected=Verdict.REFUTED,
    assumptions=("A3.2", "A4.1", "A4.5", "leaky", "D_init", "m >= 2"),
    tags=("static", "sweep", "erratum"),
    meta={"budget": SWEEP_BUDGET},
)
