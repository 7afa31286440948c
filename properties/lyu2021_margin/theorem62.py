"""Claim sheet 003, Theorem 6.2 as trend tests (C-T6.2 with S-9, S-11), the numeric companion of the Section-6 intro
(C-S6-intro) and the exploratory S-17, on the hinted data of Definition 6.1 (:mod:`.section6`). The probability of
Theorem 6.2 (S-4) is in :mod:`.probability`.

Horizons are engine (summed-loss) times; the paper's are n times larger (``_shared.engine_time``).

Theorem 6.2 is "t -> inf, then sigma -> 0" (sheet 2.0); it is read as two trends:
- in sigma (:func:`sigma_trend`): one draw theta0-bar at sigma = 1e-4, 1e-6, 1e-8, each to the same time T. As sigma
  shrinks the net must approach the flow of one positive unit started along argmax G (the reference): the negative
  group's odds N/P (sums of ||theta_k||^2 over s_k = -1 and +1; predicted ~ sigma^(2 (1 - lambda-/lambda+))) and the
  positive group's misalignment with the reference must each shrink by SHRINK from sigma = 1e-4, 1e-6 to 1e-8 to
  pass; a slower shrink is inconclusive and only one that persists or grows is a violation (sheet 2.0: "FAIL-CANDIDATE
  only when a violation persists or grows as sigma shrinks");
- in t (:func:`unit_limit`): that unit tends to (1/2) phi(<w*, x>): at the end its margin is within the sheet's
  finite-time gap (ln n)/||theta||^2 of gamma_f_inf = (1/2) min(eps, alpha gamma_neg(S), H), and 1 - cos(w, w*) shrinks.
A positive group split at sigma = 1e-8 is escape (S-9, "sigma not small enough"): vacuous where it is split at every
sigma, inconclusive where it is not (non-monotone in sigma), never a counterexample.
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache
from typing import Any, Callable

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.scenarios import SEEDS, Scenario
from verify.simulate import simulate
from verify.verdicts import Verdict

from properties.lyu2021_margin import max_margin as MM
from properties.lyu2021_margin import network as N
from properties.lyu2021_margin import quantities as Q
from properties.lyu2021_margin import single_direction as SD
from properties.lyu2021_margin._shared import ALPHA, LOSS, largest_ratio, paper_claim, worst
from properties.lyu2021_margin.scenarios import draw_scenario
from properties.lyu2021_margin.section6 import H_SMALL, HINTED, HINTED_B, TEST_POINTS, hinted_ds, tolerance

SIGMAS = (1e-4, 1e-6, 1e-8)
TREND_T, SNAPSHOT_T = 1e2, 1e3  # engine times (paper 1.5e3, 1.5e4; the escape time T12 is ~4 at sigma = 1e-8)
UNIT_T, UNIT_SPLIT = 1e6, 1e3  # the t-trend compares [1e1, UNIT_SPLIT] with (UNIT_SPLIT, UNIT_T]
SHRINK = 0.5  # required shrink over 2-4 decades of sigma (predicted odds factor 0.044 over 4 decades on (5, 1, 0.05))
SHARE_MIN = 1e-3  # neurons with less of ||theta||^2 do not shape f
SPLIT = 1e-2  # 1 - min pairwise cos of the positive group above this: escape (S-9)
COS_MIN = 0.95  # "argmax G ~ w*" (sheet: 0.977 and 0.986 in the good regime, 0.904 when K >> H)
BAND = 0.05  # test points with |<w*, x^>| < BAND need not agree in sign
HINTED_HYP = ("A3.2", "leaky", "D~_init", "hinted data unscaled (S-12)")
REGIME = ("lambda+ > lambda-, cos(argmax G, w*) >= 0.95 (S-11, precondition)",)


def gamma_f_inf(ds: Dataset) -> float:
    """gamma_f_inf = (1/2) min(min_pos <w*, x>, alpha min_neg |<w*, x>|), the margin of f = (1/2) phi(<w*, x>)
    (:func:`single_direction.leaky_unit`)."""
    return SD.leaky_unit(ds, ALPHA).lower


# --- Theorem 6.2 (C-T6.2): trends in sigma and in t ---------------------------------------------------------------

@st.composite
def t62_scenarios(draw: st.DrawFn, config: tuple[float, float, float] = HINTED, m: tuple[int, int] = (1, 4),
                  sigmas: tuple[float, ...] = (SIGMAS[-1],), sign: float | None = None) -> Scenario:
    """theta0 = sigma theta0-bar, theta0-bar ~ D~_init(1) of width m on hinted(config) (``sign``: every s_k forced)."""
    ds, seed = hinted_ds(config), draw(SEEDS)
    theta = Q.balanced_draw(draw(st.integers(*m)), ds.d, seed)
    if sign is not None:
        theta = Q.Draw(theta.W, sign * np.abs(theta.a), "balanced", seed)
    return draw_scenario(ds, theta, draw(st.sampled_from(sigmas)), hinted=list(config))


def fixed_scenarios(config: tuple[float, float, float], draws: tuple[tuple[int, int], ...], sigma: float,
                    init: Callable[[int, int, int], Q.Draw] = Q.balanced_draw) -> st.SearchStrategy[Scenario]:
    """The named draws (m, seed) on hinted(config) at scale sigma."""
    ds = hinted_ds(config)
    return st.sampled_from([draw_scenario(ds, init(m, ds.d, seed), sigma, hinted=list(config)) for m, seed in draws])


def event_horizon(t_end: float) -> Callable[[Scenario, Any], float]:
    """``t_end``, or 0 outside the event (no run; the precondition gives the reason)."""
    return lambda scenario, audit: t_end if np.any(scenario.init.v0 > 0) else 0.0


def inside_event(run: Any) -> bool | str:
    """Theorem 6.2's event (probability 1 - 2^-m, S-4): some s_k = +1."""
    s = np.sign(run.init.v0)
    return True if np.any(s > 0) else f"outside the event: every s_k = -1 (probability 2^-{s.size}), T6.2 claims nothing"


def t62_regime(run: Any) -> bool | str:
    """S-11: "H, K large, eps small" read as lambda+ > lambda- and cos(argmax G, w*) >= COS_MIN (from the audit)."""
    a = run.audit
    if a.max_margin.gamma_lin is None:
        return "A3.2 fails: not separable through the origin"
    if not a.lambda_plus > a.lambda_minus:
        return f"S-11: lambda+ = {a.lambda_plus:.4g} <= lambda- = {a.lambda_minus:.4g}: H not large enough"
    if a.cos_argmax_G_w_star < COS_MIN:
        return f"S-11: cos(argmax G, w*) = {a.cos_argmax_G_w_star:.4g} < {COS_MIN}: argmax G tilted (K >> H)"
    return True


def t62_hypotheses(run: Any) -> bool | str:
    """The regime (S-11) and the event."""
    ok = t62_regime(run)
    return inside_event(run) if ok is True else ok


def groups(W: np.ndarray, a: np.ndarray, s: np.ndarray) -> tuple[float, np.ndarray]:
    """(odds N/P, N and P the sums of ||theta_k||^2 over s_k = -1 and +1; the unit directions of the positive neurons
    carrying >= SHARE_MIN of ||theta||^2)."""
    size = np.sum(W**2, axis=1) + a**2
    big, pos = (s > 0) & (size >= SHARE_MIN * size.sum()), size[s > 0].sum()
    return (float(size[s < 0].sum() / pos) if pos > 0.0 else math.inf), W[big] / np.linalg.norm(W[big], axis=1)[:, None]


def spread(U: np.ndarray) -> float:
    """1 - min pairwise cos of the rows of U (0 for fewer than two)."""
    return float(1.0 - np.min(U @ U.T)) if len(U) > 1 else 0.0


def describe(ds: Dataset, W: np.ndarray, a: np.ndarray, s: np.ndarray, w_star: np.ndarray) -> str:
    """The sheet's read-outs: negative share, gamma / gamma_f_inf, even part / ((1 - alpha)/4), min_+ cos(w_k, w*)."""
    odds, U = groups(W, a, s)
    dirs = np.vstack([np.random.default_rng(0).standard_normal((TEST_POINTS, ds.d)), w_star])
    even = N.even_part_sup(W, a, ALPHA, dirs) / ((1.0 - ALPHA) / 4.0)
    g = N.normalised_margin(ds.X, ds.y, W, a, ALPHA) / gamma_f_inf(ds)
    return (f"neg share {odds / (1.0 + odds) if math.isfinite(odds) else 1.0:.3g}, gamma/gamma_f_inf {g:.5g}, "
            f"even/((1-a)/4) {even:.4g}, min cos(w+, w*) {float(np.min(U @ w_star)) if len(U) else math.nan:.6g}")


@lru_cache(maxsize=64)
def sibling(config: tuple[float, float, float], m: int, seed: int, sigma: float, t_end: float,
            rtol: float) -> tuple[np.ndarray, np.ndarray, float]:
    """(W, a, tolerance) at t_end of Q.balanced_draw(m, d, seed) at scale sigma on hinted(config)."""
    ds = hinted_ds(config)
    theta = Q.balanced_draw(m, ds.d, seed)
    traj = simulate(ds, theta.W, theta.a, t_end, loss=LOSS, alpha=ALPHA, times=[t_end], log_eps=math.log(sigma), rtol=rtol)
    return traj.W[-1], traj.v[-1], tolerance(traj)


@lru_cache(maxsize=8)
def reference(config: tuple[float, float, float], direction: tuple[float, ...], t_end: float,
              rtol: float) -> tuple[np.ndarray, np.ndarray, float]:
    """The sigma -> 0 proxy: one positive unit from sigma (u+, 1), u+ = argmax G, sigma = SIGMAS[-1], at t_end."""
    traj = simulate(hinted_ds(config), np.array([direction]), np.ones(1), t_end, loss=LOSS, alpha=ALPHA, times=[t_end],
                    log_eps=math.log(SIGMAS[-1]), rtol=rtol)
    return traj.W[-1], traj.v[-1], tolerance(traj)


def sigma_shrink(values: list[float], err: float, what: str) -> Margin:
    """The value at sigma = 1e-8 against the earlier max: SHRINK max - value (error ``err``, ratio value / (SHRINK
    max), None where SHRINK max is within err). Sheet 2.0: a shrink by less than 1/SHRINK is slow, not a violation
    (inconclusive); only a value that persists or grows (>= the earlier max beyond err) is one."""
    top, end = max(values[:-1]), values[-1]
    bound = SHRINK * top
    out = Margin(bound - end, err, what, ratio=end / bound if bound > err else None)
    if out.value < -err and end < top + err:
        return Margin(out.value, math.inf, f"{what} shrinks by only {top / end if end > 0 else math.inf:.3g}x: slow, "
                                           f"inconclusive (sheet 2.0)", ratio=out.ratio)
    return out


@measures("SHRINK x the earlier max minus the value at sigma = 1e-8 of the odds N/P or the misalignment 1 - cos")
def sigma_trend(run: Any) -> Margin:
    """C-T6.2 in sigma: the run (sigma = 1e-8) and its draw at 1e-4, 1e-6, to the same time T, against the reference.
    Parts (:func:`sigma_shrink`): odds N/P at 1e-8 <= SHRINK max(odds at 1e-4, 1e-6) (error 4 err max odds), and the
    positive group's misalignment max_k (1 - cos(w_k, w_ref)) likewise (error err: the runs' tolerances summed); a
    slower shrink is inconclusive, a value that persists or grows a violation. The check's ratio is the larger of the
    two."""
    p, ds = run.scenario.params, run.dataset
    config, s, T = tuple(p["hinted"]), np.sign(run.init.v0), float(run.horizon)
    rtol = min(max(float(run.trajectory.params.get("rtol") or 1e-10), 1e-12), 1e-10)
    states = [sibling(config, s.size, int(p["init_seed"]), sg, T, rtol) for sg in SIGMAS[:-1]]
    states.append((run.W[-1], run.v[-1], tolerance(run.trajectory)))
    Wr, ar, tol_r = reference(config, tuple(float(v) for v in run.audit.argmax_G), T, rtol)
    w_ref, w_star = Wr[0] / np.linalg.norm(Wr[0]), run.audit.max_margin.svm.direction
    err = sum(x[2] for x in states) + tol_r
    odds, mis, spl = [], [], []
    for W, a, _ in states:
        o, U = groups(W, a, s)
        odds.append(o)
        mis.append(float(np.max(1.0 - U @ w_ref)) if len(U) else 0.0)
        spl.append(spread(U))
    note = "; ".join(f"sigma {sg:g}: {describe(ds, W, a, s, w_star)}, odds {o:.3g}, misalignment {q:.3g}, spread {sp:.3g}"
                     for sg, (W, a, _), o, q, sp in zip(SIGMAS, states, odds, mis, spl))
    note += f"; reference unit at t = {T:g}: {describe(ds, Wr, ar, np.ones(1), w_star)}; s = {s.astype(int).tolist()}"
    if spl[-1] > SPLIT:
        if min(spl) > SPLIT:
            return Margin(0.0, 0.0, f"escape at every sigma (S-9: sigma not small enough for this draw): {note}", vacuous=True)
        return Margin(0.0, math.inf, f"positive group split at sigma = 1e-8 only: non-monotone in sigma (sheet 2.0): {note}")
    parts = [sigma_shrink(mis, err, "misalignment")]
    if np.any(s < 0):
        parts.append(sigma_shrink(odds, 4.0 * err * max(odds), "odds"))
    out, ratio = worst(parts), largest_ratio(parts)
    slack = "" if ratio is None else f"; largest value at 1e-8 / (SHRINK x max earlier) = {ratio:.3g}"
    return Margin(out.value, out.error, f"worst part: {out.note}; {note}{slack}", ratio=ratio)


T62_SIGMA = paper_claim(
    id="LY-T62-sigma", node="T62", uses=("D61", "BINIT", "BAL", "T31"),
    source="Theorem 6.2 (C-T6.2, trend in sigma; S-9, S-11)",
    statement=f"On hinted (5, 1, 0.05), m in 1..4, D~_init: from sigma = 1e-4, 1e-6 to 1e-8 (one draw, t = {TREND_T:g}) "
              f"the negative group's odds N/P and the positive group's misalignment with the one-unit flow from argmax G "
              f"each shrink by >= {1 / SHRINK:g}x (slower: inconclusive; persisting or growing: a violation, sheet 2.0; "
              f"that unit's limit (1/2) phi(<w*, x>): LY-T62-unit); escape is S-9",
    check=sigma_trend, over=t62_scenarios(HINTED),
    horizon=event_horizon(TREND_T), samples=8, spacing="log", precondition=t62_hypotheses,
    assumptions=HINTED_HYP + REGIME + ("some s_k = +1 (event)",),
    assumed=("A.6 (not in seed)", "finite sigma and t: a trend, not the limit"), meta={"budget": {"ci": 3}},
)

T62_SIGMA_B = replace(
    T62_SIGMA, id="LY-T62-sigma-10-2", over=t62_scenarios(HINTED_B),
    source="003 Theorem 6.2 (C-T6.2, trend in sigma on hinted (10, 2, 0.02); S-9, S-11)",
    statement=T62_SIGMA.statement.replace("(5, 1, 0.05)", "(10, 2, 0.02)"), meta={"budget": {"ci": 1}})

T62_H_SMALL = replace(
    T62_SIGMA, id="S11-T62-sigma-H-small", precondition=inside_event,
    over=fixed_scenarios(H_SMALL, ((3, 0), (2, 1)), SIGMAS[-1]),
    source="003 Theorem 6.2 without 'H sufficiently large' (S-11, planted: hinted (1, 1, 0.05))",
    statement="PLANTED: the sigma-trend of LY-T62-sigma on hinted (1, 1, 0.05), where lambda- = 0.180 > lambda+ = 0.167: "
              "the negative share stays at 0.7-0.9 and grows as sigma shrinks (draws (m, seed) = (3, 0), (2, 1))",
    expected=Verdict.REFUTED, tags=("planted",), assumptions=HINTED_HYP + ("drops H large (lambda- > lambda+)",),
    meta={"budget": {"ci": 1}})


@measures("worst of ((ln n)/||theta||^2 - |gamma - gamma_f_inf|) / gamma_f_inf and early-late max of 1 - cos(w, w*)")
def unit_limit(run: Any) -> Margin:
    """C-T6.2 in t, one unit: |gamma(T) - gamma_f_inf| <= (ln n)/||theta(T)||^2 (the sheet's finite-time gap; ratio
    reported), and 1 - cos(w, w*) shrinks: its max over (UNIT_SPLIT, T] <= its max over [1e1, UNIT_SPLIT]."""
    ds, w_star = run.dataset, run.audit.max_margin.svm.direction
    g_inf, tol, t = gamma_f_inf(ds), tolerance(run.trajectory), run.times
    W, a = run.W[-1], run.v[-1]
    g, gap = N.normalised_margin(ds.X, ds.y, W, a, ALPHA), math.log(ds.n) / N.norm_sq(W, a)
    mis = 1.0 - run.W[:, 0] @ w_star / np.linalg.norm(run.W[:, 0], axis=1)
    early, late = mis[(t >= 1e1) & (t <= UNIT_SPLIT)].max(), mis[t > UNIT_SPLIT].max()
    note = f"{describe(ds, W, a, np.sign(a), w_star)} at t = {t[-1]:g}; gamma_f_inf {g_inf:.6g}, ln n/||theta||^2 {gap:.3g}"
    return worst([Margin((gap - abs(g - g_inf)) / g_inf, tol, f"|gamma - gamma_f_inf| = {abs(g - g_inf):.3g}; {note}",
                         ratio=abs(g - g_inf) / gap),
                  Margin(early - late, tol, f"1 - cos(w, w*): max {early:.3g} early, {late:.3g} late; {note}",
                         ratio=late / early if early > 0.0 else None)])


T62_UNIT = paper_claim(
    id="LY-T62-unit", node="T62", uses=("D61", "BINIT", "BAL", "T31"),
    source="Theorem 6.2 (C-T6.2, the limit (1/2) phi(<w*, x>), trend in t; m = 1, s = +1)",
    statement=f"One positive unit from D~_init on hinted (5, 1, 0.05), t to {UNIT_T:g}: |gamma - gamma_f_inf| <= "
              f"(ln n)/||theta||^2 at the end (gamma_f_inf = (1/2) min(eps, alpha gamma_neg(S), H)) and the max of "
              f"1 - cos(w, w*) over (1e3, {UNIT_T:g}] is <= its max over [1e1, 1e3]",
    check=unit_limit, over=t62_scenarios(HINTED, (1, 1), SIGMAS, 1.0),
    horizon=UNIT_T, samples=28, spacing="log", precondition=t62_hypotheses,
    assumptions=HINTED_HYP + REGIME + ("s_1 = +1 (event)",),
    assumed=("A.6 (not in seed)", "finite t: gap and envelope, not the limit"), meta={"budget": {"ci": 2}},
)

T62_UNIT_NEG = replace(
    T62_UNIT, id="LY-T62-unit-outside-event", precondition=t62_regime, over=t62_scenarios(HINTED, (1, 1), SIGMAS, -1.0),
    source="003 Theorem 6.2 outside its event (all s_k = -1, probability 2^-m; planted)",
    statement="PLANTED: the t-trend of LY-T62-unit for a negative unit (s_1 = -1): it tends to -(1/2) phi(-<w*, x>) "
              "instead (margin alpha eps / 2, w -> -w*)",
    expected=Verdict.REFUTED, tags=("planted",), assumptions=HINTED_HYP + ("drops the event (s_1 = -1)",),
    meta={"budget": {"ci": 2}})


# --- Section 6 intro (C-S6-intro), numeric companion; S-17 ---------------------------------------------------------

@measures("worst of min sign(<w*, x>) f / ||theta||^2, SPLIT - spread, relative gaps of the margin chain")
def linear_boundary(run: Any) -> Margin:
    """C-S6-intro at t = T: the positive group is co-aligned (spread <= SPLIT); sign f(x) = sign <w*, x> on TEST_POINTS
    seeded unit x with |<w*, x>| >= BAND (value min sign(<w*, x>) f(x) / ||theta||^2); gamma <= gamma_f_inf + (ln n) /
    ||theta||^2, which is below the lower end of the global max margin (:func:`max_margin.global_margin`, the
    infinite-width LP). Error SAFETY (rtol + error estimate); for the last part the relative width of the LP bracket.
    Ratio: the larger of gamma / (gamma_f_inf + ln n/||theta||^2) (0 for gamma <= 0) and (gamma_f_inf + ln n /
    ||theta||^2) / the LP's lower end (the spread and sign parts are structure, no ratio)."""
    ds, w_star, tol = run.dataset, run.audit.max_margin.svm.direction, tolerance(run.trajectory)
    W, a, s = run.W[-1], run.v[-1], np.sign(run.init.v0)
    th2, g_inf, lp = N.norm_sq(W, a), gamma_f_inf(ds), MM.global_margin(ds, ALPHA)
    g, gap = N.normalised_margin(ds.X, ds.y, W, a, ALPHA), math.log(ds.n) / th2
    x = np.random.default_rng(int(run.scenario.params["init_seed"])).standard_normal((TEST_POINTS, ds.d))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    x = x[np.abs(x @ w_star) >= BAND]
    agree, sp = np.sign(x @ w_star) * N.outputs(x, W, a, ALPHA) / th2, spread(groups(W, a, s)[1])
    note = f"{describe(ds, W, a, s, w_star)}; global max margin in [{lp.lower:.6g}, {lp.upper:.6g}] (LP, sheet 0.0676)"
    chain = [Margin((g_inf + gap - g) / g_inf, tol, f"gamma {g:.5g} vs gamma_f_inf + ln n/||theta||^2 = "
                                                    f"{g_inf + gap:.5g}; {note}", ratio=max(0.0, g) / (g_inf + gap)),
             Margin((lp.lower - g_inf - gap) / lp.lower, (lp.upper - lp.lower) / lp.lower,
                    f"gamma_f_inf + ln n/||theta||^2 = {g_inf + gap:.5g} below the global max; {note}",
                    ratio=(g_inf + gap) / lp.lower)]
    out = worst([Margin(float(agree.min()), tol, f"min sign(<w*, x>) f(x)/||theta||^2 = {agree.min():.3g} over "
                                                 f"{len(x)} test points; {note}"),
                 Margin(SPLIT - sp, tol, f"positive-group spread {sp:.3g}; {note}")] + chain)
    return Margin(out.value, out.error, f"{out.note}; gamma / (gamma_f_inf + ln n/||theta||^2) = {chain[0].ratio:.4g}, "
                                        f"(gamma_f_inf + ln n/||theta||^2) / LP lower end = {chain[1].ratio:.4g}",
                  ratio=largest_ratio(chain))


S6I = paper_claim(
    id="LY-S6I-limit", node="S6I", uses=("T62", "D61"),
    source="Section 6 intro and footnote 3 (C-S6-intro, numeric companion)",
    statement=f"GF from D~_init (sigma = 1e-8, m in 2..4) on hinted (5, 1, 0.05) picks a linear decision boundary: at t = "
              f"{SNAPSHOT_T:g} the positive group is co-aligned, sign f(x) = sign <w*, x> off a {BAND} band, and gamma <= "
              f"gamma_f_inf + (ln n)/||theta||^2 < the global max margin (gamma_f_inf = 0.025, LP 0.0677; sheet 4.3)",
    check=linear_boundary, over=t62_scenarios(HINTED, (2, 4)),
    horizon=event_horizon(SNAPSHOT_T), samples=8, spacing="log", precondition=t62_hypotheses,
    assumptions=HINTED_HYP + REGIME + ("some s_k = +1 (event)",),
    assumed=("finite sigma and t: a snapshot; the limit is LY-T62-sigma / -unit",), meta={"budget": {"ci": 4}},
)

S6I_ESCAPE = replace(
    S6I, id="S9-S6I-escape", over=fixed_scenarios(HINTED, ((3, 2), (4, 3)), SIGMAS[0]),
    source="003 Section 6 intro at sigma = 1e-4 (S-9 'sigma not small enough', planted)",
    statement="PLANTED: the same check at sigma = 1e-4 on draws whose positive neurons split (m, seed = (3, 2), (4, 3)): "
              "GF escapes to a nonlinear classifier with gamma ~ 2.2-2.7 gamma_f_inf (S-9; not a counterexample to T6.2)",
    expected=Verdict.REFUTED, tags=("planted",), assumptions=HINTED_HYP + ("drops sigma small",), meta={"budget": {"ci": 2}})


@measures("none: exploratory read-outs (value 0, infinite error, no verdict)")
def dinit_explore(run: Any) -> Margin:
    """S-17: D_init on hinted data is outside Theorem 6.2: the read-outs (groups by the final sign of a_k), no verdict
    (infinite error)."""
    a = run.v[-1]
    return Margin(0.0, math.inf, f"S-17 exploratory: final signs {np.sign(a).astype(int).tolist()} (initial "
                                 f"{np.sign(run.init.v0).astype(int).tolist()}); "
                                 f"{describe(run.dataset, run.W[-1], a, np.sign(a), run.audit.max_margin.svm.direction)}")


S17 = paper_claim(
    id="S17-T62-Dinit", node="T62", uses=("D61", "DINIT"),
    source="sheet S-17 (unbalanced D_init on hinted data: not covered by Theorem 6.2)",
    statement="EXPLORATORY: GF from D_init (sigma = 1e-8, draws (m, seed) = (3, 0), (4, 1)) on hinted (5, 1, 0.05): the T6.2 "
              "read-outs are reported, no verdict (expected UNKNOWN)",
    check=dinit_explore, over=fixed_scenarios(HINTED, ((3, 0), (4, 1)), SIGMAS[-1], Q.d_init),
    horizon=TREND_T, samples=8, spacing="log",
    expected=Verdict.UNKNOWN, assumptions=("A3.2", "leaky", "D_init", "drops the balanced init"), tags=("exploratory",),
    meta={"budget": {"ci": 2}},
)
