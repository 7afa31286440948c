"""Claim sheet 003, Phase I (Section 5.1): Lemma 5.2 at T1(r) (C-L5.2) and the early-phase function of C-Intro (c)
(S-21, paired), with the Phase-I helpers the other dynamic modules share (:mod:`.time_scale`, :mod:`.embedding`).

Phase I off one run. A run from theta0 = sigma theta0-bar passes T1(r) for every r: its sample at engine time t is
theta(T1(r)) with r(t) = sqrt(m) sigma ||theta0-bar||_M exp(lambda0 n t) (n t is paper time, ``_shared``). One run to
T1(R_MAX) so gives theta(T1(r)) at every sampled r; the claims read the window r in [r_lo, R_MAX] with r_lo =
max(R_MIN, (sqrt(m) sigma ||theta0-bar||_M / SIGMA_ROOM)^(1/3)): sigma is five decades inside Lemma 5.2's hypothesis
sigma <= r^3 / (sqrt(m) ||theta0-bar||_M), so the O(sigma) part of Delta stays below 1e-5 r^3 / sqrt(m).

Bounded as the scale shrinks. Lemma 5.2's C is "universal" and not given, so ||Delta||_M <= C r^3 / sqrt(m) is a trend
(sheet 2.0): E(r) = ||Delta||_M sqrt(m) / r^3 must not grow as r shrinks. Its growth exponent p (least-squares slope of
ln E against ln(1/r) over the window) must stay below GROWTH_TOL = 1/4: a converging E has p -> 0, a wrong time scale
(printed lambda0) or a wrong prediction (a linear f) gives p = 2. The same test reads eqs. (2)-(3) and S-21.

Data: the sheet's D-SYM and random symmetric separable data (:func:`symmetric_data`). x_i and -x_i share one switching
surface per neuron; the engine settles such a line as one surface with coupled slopes, in float64 and in the mp
cross-check alike (``verify.dynamics.switching.lines``).

Sliding is never evidence here (:func:`slid`). On either side of the line of x_i and -x_i the mean-loss field gives
d<w_k, x_i>/dt = a_k <mu~, x_i> + O(|a_k| ||theta||^2): by (I1) the pair's leading terms add to a_k (1+alpha) x_i /
(2n) whatever the side, and only the O(||theta||^2) loss-curvature term jumps. Under A4.5 the normal rate so has one
sign on both sides while ||theta||^2 << |<mu~, x_i>|: a Phase-I crossing is transversal unless a_k vanishes at that
very instant (probability 0 under D_init). A run that reports Filippov sliding in Phase I is out of that regime or
an integrator fault (the engine's former pair-by-pair rule misread exactly these crossings), and its sliding line has
no independent check (the mp backend refuses it): such an example is inconclusive, so it can make a claim UNKNOWN but
never HOLDS or REFUTED.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.scenarios import SEEDS, Scenario
from verify.strategies import GeometryCase
from verify.verdicts import Verdict

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import quantities as Q
from properties.lyu2021_margin._shared import engine_time, paper_claim, paper_time, worst
from properties.lyu2021_margin.network import outputs, phi
from properties.lyu2021_margin.scenarios import draw_of, draw_scenario

R_MAX, R_MIN = 0.3, 0.02  # Lemma 5.2's r, the sheet's range 0.3 .. 0.02
SIGMA_ROOM = 1e-5  # sigma <= SIGMA_ROOM r^3 / (sqrt(m) ||theta0-bar||_M) inside the window
PHASE1_SIGMAS = (1e-10, 1e-12, 1e-14)
GROWTH_TOL = 0.25  # growth exponent allowed for a "bounded" quantity (a bounded converging one has p -> 0)
B_MIN = 0.02  # neurons checked for signs: |Delta| / (r |b_k|) <= C r^2 / (sqrt(m) B_MIN) is small
SAMPLES = 240  # half uniform: about a dozen samples in the window
RTOL = 1e-11
PLANTED_RTOL = 1e-9  # planted runs: their violations are O(1); confirmed at 1000x tighter rtol
SAFETY = 10.0  # error of a state read: SAFETY (rtol + the engine's own estimate), relative per neuron
SIGMA_PART = 2.0  # the O(sigma) part of Delta per neuron: at most SIGMA_PART sigma ||theta0-bar||_M (PhaseOne)
PHASE1 = ("A3.2", "A4.1", "A4.5", "leaky", "D_init")
SWEEP_BUDGET = {"ci": 3, "thorough": 20}  # static claims that integrate a sigma sweep per example


# --- shared by the dynamic modules -------------------------------------------------------------------------------

def symmetric_data() -> st.SearchStrategy[Dataset]:
    """The sheet's D-SYM (n = 20, d = 3) or random symmetric separable data (d in {2, 3}, n/2 in 2..5)."""
    return st.one_of(st.builds(D.d_sym),
                     st.builds(lambda n_half, d, seed: D.random_symmetric(n_half, d, seed=seed), st.integers(2, 5),
                               st.integers(2, 3), SEEDS))


def mu_hat(ds: Dataset) -> np.ndarray:
    """mu^ = mu / ||mu||."""
    mu = Q.mean_signed(ds.X, ds.y)
    return mu / np.linalg.norm(mu)


def slid(*runs: Any) -> bool:
    """Whether any of the runs (trajectories or Runs) reported Filippov sliding (never evidence: module docstring)."""
    return any(e.kind == "sliding" for run in runs for e in run.events)


def state_tolerance(trajectory: Any, rtol: float) -> float:
    """Relative error of a sampled neuron state: SAFETY (rtol + the engine's accumulated error estimate)."""
    est = float(trajectory.error_estimate)
    return SAFETY * (rtol + (est if math.isfinite(est) else rtol))


def m_norms(W: np.ndarray, a: np.ndarray) -> np.ndarray:
    """||theta||_M = max_k max(||w_k||, |a_k|) (Definition 5.1) over the leading axes of W (..., m, d), a (..., m)."""
    return np.maximum(np.max(np.linalg.norm(W, axis=-1), axis=-1), np.max(np.abs(a), axis=-1))


def slope_bound(x: np.ndarray, y: np.ndarray, dy: np.ndarray) -> tuple[float, float]:
    """Least-squares slope of y on x, and its worst-case change sum_j |c_j| dy_j when each y_j moves by <= dy_j."""
    c = (x - x.mean()) / float(np.sum((x - x.mean()) ** 2))
    return float(c @ y), float(np.abs(c) @ dy)


def exponent_ratio(excess: float, span: float) -> float | None:
    """The slack of a bound on a fitted exponent over a log-range ``span``: exp(excess span), the factor the fitted
    exponent implies over the range / the factor the bound allows (excess = fitted - allowed for an upper bound,
    required - fitted for a lower one; <= 1 iff the bound holds); exponent capped at 700, None where not finite."""
    x = excess * span
    return math.exp(min(x, 700.0)) if math.isfinite(x) else None


def bounded_trend(scales: np.ndarray, values: np.ndarray, errors: np.ndarray, what: str) -> Margin:
    """"``values`` stay bounded as ``scales`` shrink": the growth exponent p (slope of ln value against ln(1/scale))
    is at most GROWTH_TOL. Value GROWTH_TOL - p, error the slope bound of the relative errors, ratio = the growth over
    the range implied by p / the growth GROWTH_TOL allows."""
    s, v = np.asarray(scales, float), np.asarray(values, float)
    if np.all(v == 0.0):
        return Margin(GROWTH_TOL, 0.0, f"{what} = 0 at every scale")
    if np.any(v <= 0.0):
        return Margin(0.0, math.inf, f"{what} = 0 at some scales only: no growth exponent")
    p, err = slope_bound(-np.log(s), np.log(v), np.asarray(errors, float) / v)
    span = math.log(float(s.max() / s.min()))
    lo, hi = int(np.argmin(s)), int(np.argmax(s))
    return Margin(GROWTH_TOL - p, err, f"{what}: {v[hi]:.4g} at {s[hi]:.3g}, {v[lo]:.4g} at {s[lo]:.3g} "
                                       f"({s.size} scales); growth exponent {p:.4g} (allowed {GROWTH_TOL:g})",
                  ratio=exponent_ratio(p - GROWTH_TOL, span))


def with_params(cases: st.SearchStrategy[GeometryCase], **variant: str) -> st.SearchStrategy[GeometryCase]:
    """The same cases with ``variant`` added to their params (a planted reading the shared check reads there)."""
    return cases.map(lambda c: GeometryCase(c.dataset, c.seed, {**c.params, **variant}))


def sweep_cases(m: tuple[int, int] = (2, 6), **variant: str) -> st.SearchStrategy[GeometryCase]:
    """:func:`symmetric_data`, a width and the seed of theta0-bar (static claims that integrate a sweep themselves)."""
    cases = st.builds(lambda ds, width, seed: GeometryCase(ds, seed, {"data": ds.name, "m": width}), symmetric_data(),
                      st.integers(*m), SEEDS)
    return with_params(cases, **variant)


def flipped(draw: Q.Draw, direction: np.ndarray) -> Q.Draw:
    """Neuron 0 with <w_0, mu^> = 1.5 and a_0 = -0.5: b_0 > 0 > a_0(0), so sign(a_0) must change in Phase I."""
    W, a = draw.W.copy(), draw.a.copy()
    W[0] += (1.5 - W[0] @ direction) * direction
    a[0] = -0.5
    return Q.Draw(W, a, draw.kind, draw.seed)


@st.composite
def phase_one_scenarios(draw: st.DrawFn, m: tuple[int, int] = (2, 6), flip: bool = False, **variant: str) -> Scenario:
    """theta0 = sigma theta0-bar, theta0-bar ~ D_init(1) (neuron 0 :func:`flipped` if ``flip``), on
    :func:`symmetric_data`; ``variant`` (``reading``, ``sign_reference``, ``prediction``) goes to the params, where the
    checks read it."""
    ds = draw(symmetric_data())
    theta = Q.d_init(draw(st.integers(*m)), ds.d, draw(SEEDS))
    if flip:
        theta = flipped(theta, mu_hat(ds))
    return draw_scenario(ds, theta, draw(st.sampled_from(PHASE1_SIGMAS)), data=ds.name, flipped=flip, **variant)


# --- Lemma 5.2 along a run ----------------------------------------------------------------------------------------

def phase_one_horizon(scenario: Scenario, audit: Any) -> float:
    """The run's end: engine time of T1(R_MAX), lambda0 of the scenario's ``reading`` (default corrected)."""
    ds, theta = scenario.dataset, draw_of(scenario)
    lam = Q.lambda0(ds.X, ds.y, scenario.alpha, scenario.params.get("reading", "corrected"))
    return engine_time(Q.phase_times(lam, theta.a.size, scenario.params["sigma"], theta.m_norm, R_MAX)[0], ds.n)


@dataclass(frozen=True)
class PhaseOne:
    """A run read at T1(r) for the r of its window: r (k,), W (k, m, d), a (k, m), b-bar (m,), mu^, the relative
    state error tol, alpha, and ``sigma_part``: SIGMA_PART sigma ||theta0-bar||_M, the size per neuron of the O(sigma)
    part of Delta (the linear Phase-I flow keeps w_k's part off mu^ and shrinks the decaying mode (<w_k, mu^> - a_k)
    / 2: neither grows, and each is at most ||theta0_k||). Lemma 5.2's C r^3 covers it, but it grows like r^-3 in the
    remainders: on data whose C is tiny (E ~ 2e-6 on a 4-point set, below the window's 1e-5 floor) it made E "grow"
    with exponent 0.42 at sigma = 1e-10 and not at 1e-12 (found at the thorough budget). The remainders count it in
    their errors."""

    r: np.ndarray
    W: np.ndarray
    a: np.ndarray
    b: np.ndarray
    mu_hat: np.ndarray
    tol: float
    alpha: float
    sigma_part: float


@lru_cache(maxsize=32)
def phase_one(run: Any) -> PhaseOne | str:
    """The run's window (module docstring; lambda0 of the scenario's ``reading``), or why there is none (hypotheses,
    window too short)."""
    audit, sc = run.audit, run.scenario
    reading = sc.params.get("reading", "corrected")
    if not audit.symmetric or not audit.a45:
        return "A4.1 or A4.5 fails on this dataset"
    theta, sigma, n = draw_of(sc), float(sc.params["sigma"]), run.X.shape[0]
    m = theta.a.size
    lam = Q.lambda0(run.X, run.y, sc.alpha, reading)
    r = math.sqrt(m) * sigma * theta.m_norm * np.exp(lam * paper_time(1.0, n) * np.asarray(run.times, float))
    r_lo = max(R_MIN, (math.sqrt(m) * sigma * theta.m_norm / SIGMA_ROOM) ** (1.0 / 3.0))
    keep = (r >= r_lo) & (r <= R_MAX * (1.0 + 1e-9))
    if np.count_nonzero(keep) < 3 or r[keep].max() < 4.0 * r[keep].min():
        return f"window [{r_lo:.3g}, {R_MAX}] holds too few samples (sigma = {sigma:g})"
    direction = mu_hat(run.dataset)
    b = Q.embedding_vector(theta, direction)
    return PhaseOne(r[keep], np.asarray(run.W, float)[keep], np.asarray(run.v, float)[keep], b, direction,
                    state_tolerance(run.trajectory, float(run.params.get("rtol") or RTOL)), sc.alpha,
                    SIGMA_PART * sigma * theta.m_norm)


def window_reached(run: Any) -> bool | str:
    """Precondition: the run has a Phase-I window."""
    p1 = phase_one(run)
    return p1 if isinstance(p1, str) else True


def read_window(run: Any) -> PhaseOne | Margin:
    """The window, or the margin to return instead: vacuous without one, inconclusive where the engine reported
    Filippov sliding (Phase-I crossings are transversal under A4.5: module docstring)."""
    if slid(run):
        return Margin(0.0, math.inf, "the engine reports Filippov sliding in Phase I, where A4.5 makes crossings "
                                     "transversal: no evidence")
    p1 = phase_one(run)
    return Margin(0.0, 0.0, p1, vacuous=True) if isinstance(p1, str) else p1


def remainders(p1: PhaseOne) -> tuple[np.ndarray, np.ndarray]:
    """(E(r), its error) over the window: E = ||theta(T1(r)) - r b (x) (mu^, 1)||_M sqrt(m) / r^3; error (tol max_k
    ||(w_k, a_k)|| + sigma_part) sqrt(m) / r^3 (relative state error, per neuron, and the O(sigma) part, PhaseOne)."""
    r, m = p1.r, p1.b.size
    dW = p1.W - r[:, None, None] * p1.b[None, :, None] * p1.mu_hat[None, None, :]
    da = p1.a - r[:, None] * p1.b[None, :]
    size = np.max(np.sqrt(np.sum(p1.W**2, axis=2) + p1.a**2), axis=1)
    return m_norms(dW, da) * math.sqrt(m) / r**3, (p1.tol * size + p1.sigma_part) * math.sqrt(m) / r**3


@measures("1/4 minus the growth exponent of E(r) = ||Delta||_M sqrt(m) / r^3 in ln(1/r) (dimensionless)")
def lemma52_remainder(run: Any) -> Margin:
    """Lemma 5.2: E(r) (:func:`remainders`; T1 with lambda0 of the scenario's ``reading``) stays bounded
    (``bounded_trend``)."""
    p1 = read_window(run)
    if isinstance(p1, Margin):
        return p1
    return bounded_trend(p1.r, *remainders(p1), f"E(r) ({run.scenario.params.get('reading', 'corrected')} lambda0)")


L52_E = paper_claim(
    id="LY-L52-E",
    node="L52", uses=("EIG", "EQ23", "DINIT", "A45"),
    source="Lemma 5.2 (C-L5.2: ||Delta theta||_M <= C r^3 / sqrt(m) at T1(r), corrected lambda0)",
    statement="At T1(r) = (1/lambda0) ln(r / (sqrt(m) sigma ||theta0||_M)), lambda0 = ((1+alpha)/4)||mu||, "
              "E(r) = ||theta - r b (x) (mu^, 1)||_M sqrt(m) / r^3 stays bounded as r shrinks over [0.02, 0.3] "
              "(growth exponent <= 1/4; values reported)",
    check=lemma52_remainder,
    over=phase_one_scenarios(),
    horizon=phase_one_horizon,
    rtol=RTOL, samples=SAMPLES,
    precondition=window_reached,
    assumptions=PHASE1 + ("sigma <= 1e-5 r^3 / (sqrt(m) ||theta0||_M) (window)",),
    assumed=("finite-r proxy of C r^3: growth exponent of E over the window",),
)

L52_E_PRINTED = paper_claim(
    id="LY-L52-E-printed",
    node="L52", uses=("EIG", "EQ23", "DINIT", "A45"),
    source="Lemma 5.2 with the printed mu~ = ((1+alpha)/2) mu (erratum S-1)",
    statement="AS PRINTED: with lambda0 = ((1+alpha)/2)||mu|| in T1(r), E(r) stays bounded as r shrinks. False: T1 is "
              "then half the escape time and E grows like r^-2",
    check=lemma52_remainder,
    over=phase_one_scenarios(reading="printed"),
    horizon=phase_one_horizon,
    rtol=PLANTED_RTOL, samples=SAMPLES,
    precondition=window_reached,
    expected=Verdict.REFUTED,
    assumptions=PHASE1,
    tags=("erratum", "planted"),
)


@measures("min over neurons and r of s_k a_k / ||(w_k, a_k)|| and cos(w_k, s_k mu^) (cosine, dimensionless)")
def signs_at_t1(run: Any) -> Margin:
    """For each neuron with |b_k| >= B_MIN and every r of the window: s_k a_k / ||(w_k, a_k)|| > 0 and s_k <w_k, mu^> /
    ||w_k|| > 0, s_k = sign(b_k) (Lemma 5.2) or sign(a_k(0)) (the scenario's ``sign_reference`` "a0"); reports the
    worst cos(w_k, s_k mu^). Error: the relative state error."""
    reference = run.scenario.params.get("sign_reference", "b")
    p1 = read_window(run)
    if isinstance(p1, Margin):
        return p1
    ks = np.flatnonzero(np.abs(p1.b) >= B_MIN)
    s = np.sign(p1.b if reference == "b" else draw_of(run.scenario).a)
    name = "b_k" if reference == "b" else "a_k(0)"
    sizes = np.sqrt(np.sum(p1.W**2, axis=2) + p1.a**2)
    parts = []
    for k in ks.tolist():
        sign_part = s[k] * p1.a[:, k] / sizes[:, k]
        cos = s[k] * (p1.W[:, k] @ p1.mu_hat) / np.linalg.norm(p1.W[:, k], axis=1)
        i = int(np.argmin(np.minimum(sign_part, cos)))
        parts.append(Margin(float(min(sign_part[i], cos[i])), p1.tol,
                            f"neuron {k} (b = {p1.b[k]:.3g}, s = sign({name}) = {s[k]:+.0f}) at r = {p1.r[i]:.3g}: "
                            f"s a / ||(w, a)|| = {sign_part[i]:.4g}, cos(w, s mu^) = {cos[i]:.10f}", site={"j": int(k)}))
    return worst(parts, f"no neuron with |b_k| >= {B_MIN}")


L52_SIGNS = paper_claim(
    id="LY-L52-signs",
    node="L52", uses=("EIG", "DINIT"),
    source="Lemma 5.2, consequences (C-L5.2: w_k / ||w_k|| ~ sign(b_k) mu^, sign(a_k(T1)) = sign(b_k))",
    statement="At T1(r), r in [0.02, 0.3], every neuron with |b_k| >= 0.02 has sign(a_k) = sign(b_k) and "
              "<w_k, sign(b_k) mu^> > 0 (cosines reported), whatever sign(a_k(0)) was",
    check=signs_at_t1,
    over=phase_one_scenarios(),
    horizon=phase_one_horizon,
    rtol=RTOL, samples=SAMPLES,
    precondition=window_reached,
    assumptions=PHASE1 + ("|b_k| >= 0.02 for the neurons checked",),
)

L52_SIGNS_A0 = paper_claim(
    id="LY-L52-signs-a0",
    node="L52", uses=("EIG", "DINIT"),
    source="Lemma 5.2 / C-L5.2 ('sign(a_k(T1)) = sign(b_k), which may differ from sign(a_k(0))'; planted)",
    statement="PLANTED: under D_init the output sign is preserved through Phase I (true only under D~_init). Fails on "
              "a draw with <w_0, mu^> = 1.5, a_0(0) = -0.5: b_0 > 0 and a_0(T1) > 0",
    check=signs_at_t1,
    over=phase_one_scenarios(flip=True, sign_reference="a0"),
    horizon=phase_one_horizon,
    rtol=PLANTED_RTOL, samples=SAMPLES,
    precondition=window_reached,
    expected=Verdict.REFUTED,
    assumptions=PHASE1,
    tags=("planted",),
)


# --- C-Intro (c) / S-21: the function at T1(r) ---------------------------------------------------------------

def probe_points(ds: Dataset, count: int = 64) -> np.ndarray:
    """The data points and ``count`` seeded unit directions (seed 0): where sup_x |f - prediction| is read."""
    U = np.random.default_rng(0).standard_normal((count, ds.d))
    return np.vstack([ds.X, U / np.linalg.norm(U, axis=1, keepdims=True)])


def early_prediction(x: np.ndarray, r: float, b: np.ndarray, direction: np.ndarray, alpha: float,
                     shape: str = "feature") -> np.ndarray:
    """f at T1(r) (C-Intro (c)): "feature" r^2 [b+^2 phi(t) - b-^2 phi(-t)], t = <mu^, x>; "linear" its odd part
    ((1+alpha)/2) r^2 (b+^2 + b-^2) t, i.e. f linear at T1 (S-21)."""
    bp, bm = Q.b_plus_minus(b)
    t = x @ direction
    if shape == "linear":
        return 0.5 * (1.0 + alpha) * r**2 * (bp**2 + bm**2) * t
    return r**2 * (bp**2 * phi(t, alpha) - bm**2 * phi(-t, alpha))


@measures("1/4 minus the growth exponent of sup_x |f - prediction| / r^4 in ln(1/r) (dimensionless)")
def early_function_gap(run: Any) -> Margin:
    """D(r) = sup_x |f_theta(T1(r))(x) - prediction(x)| / r^4 over :func:`probe_points` stays bounded
    (``bounded_trend``); the scenario's ``prediction`` picks the shape. Error of D: (2 tol sum_k ||(w_k, a_k)||^2
    + sum_k (2 ||(w_k, a_k)|| s + s^2)) max||x|| / r^4, s the O(sigma) part per neuron (``PhaseOne.sigma_part``; f is
    quadratic per neuron)."""
    shape = run.scenario.params.get("prediction", "feature")
    p1 = read_window(run)
    if isinstance(p1, Margin):
        return p1
    P = probe_points(run.dataset)
    xmax = float(np.max(np.linalg.norm(P, axis=1)))
    gap, err = [], []
    for k, r in enumerate(p1.r):
        f = outputs(P, p1.W[k], p1.a[k], p1.alpha)
        gap.append(float(np.max(np.abs(f - early_prediction(P, r, p1.b, p1.mu_hat, p1.alpha, shape)))) / r**4)
        sizes = np.sqrt(np.sum(p1.W[k] ** 2, axis=1) + p1.a[k] ** 2)
        sigma_part = float(np.sum(2.0 * sizes * p1.sigma_part + p1.sigma_part**2))
        err.append((2.0 * p1.tol * float(np.sum(sizes**2)) + sigma_part) * xmax / r**4)
    return bounded_trend(p1.r, np.array(gap), np.array(err), f"sup|f - {shape} prediction| / r^4")


INTRO_FEATURE = paper_claim(
    id="LY-Intro-c-feature",
    node="INTRO", uses=("L52", "I1"),
    source="Sec. 1 / 7 'simplicity bias' early on (C-Intro (c), DERIVED form, sheet S-21)",
    statement="At T1(r) f depends on <mu^, x> only: sup_x |f(x) - r^2 [b+^2 phi(t) - b-^2 phi(-t)]| / r^4, "
              "t = <mu^, x>, stays bounded as r shrinks over [0.02, 0.3]",
    check=early_function_gap,
    over=phase_one_scenarios(),
    horizon=phase_one_horizon,
    rtol=RTOL, samples=SAMPLES,
    precondition=window_reached,
    assumptions=PHASE1,
    assumed=("finite-r proxy of O(r^4): growth exponent over the window",),
)

INTRO_LINEAR = paper_claim(
    id="LY-Intro-c-linear",
    node="INTRO", uses=("L52", "I1"),
    source="Sec. 1 'GF learns a linear classifier early (Phase I)' read literally (C-Intro (c), sheet S-21)",
    statement="OVERCLAIM: f is linear at T1(r) up to O(r^4): sup_x |f(x) - ((1+alpha)/2) r^2 (b+^2 + b-^2) <mu^, x>| "
              "/ r^4 stays bounded. False unless b+ = |b-|: the even part (1-alpha) r^2 (b+^2 - b-^2) |t| / 2 remains",
    check=early_function_gap,
    over=phase_one_scenarios(prediction="linear"),
    horizon=phase_one_horizon,
    rtol=PLANTED_RTOL, samples=SAMPLES,
    precondition=window_reached,
    expected=Verdict.REFUTED,
    assumptions=PHASE1,
    tags=("planted", "prose"),
)
