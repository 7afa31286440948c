"""Claim sheet 003, the late phase: the readers every late-phase module shares (the trend window, the envelope trend,
the integrator gate, the Lyu-Li and one-sign certificates, the planted draws of fixture 3) and Theorem 3.1 (Lyu-Li:
the loss, the accuracy, the smoothed margin, the KKT residual; planted S-19 reading). Theorem 4.3 / Corollary 4.4 are
in :mod:`.theorem43`, the suboptimal KKT direction and the S-8 control in :mod:`.kkt_directions`, Theorems 5.5 and 5.6
in :mod:`.theorem55` and :mod:`.theorem56`; they read runs with the helpers below.

Runs go to engine time 1e12 with "log" spacing (121 samples, eight per decade: 1e4 and 1e8 are hit exactly).

How a limit is read (sheet 2.0). A quantity E tending to its limit "shrinks" when its envelope does: over the window
[1e4, 1e12] split at 1e8, max_late E <= max_early E (seed 000's reading; value max_early - max_late, ratio
max_late / max_early). Per-decade monotonicity is not claimed, and a rise between the halves is INCONCLUSIVE (sheet 2.0:
"a finite run can neither prove nor refute the claim"; S-19's planted readings show valid runs rising), never a
violation, except in the planted readings that state the trend itself (``literal``). Two certificates make a run a
violation of a limit:

- Lyu-Li (T3.1): gamma~ is non-decreasing once n L < ln 2, and gamma >= gamma~; so the limit direction has margin
  >= gamma~(t) for every t, and gamma~(t_end) > gamma(target) rules the target out (:func:`beyond`);
- one sign (derived): if every a_k has one sign, f(x) + f(-x) = (1 - alpha) sum_k a_k |<w_k, x>| has the sign of the
  a_k and modulus >= (1 - alpha) |<v, x>|, v = sum_k a_k w_k; on symmetric data this gives gamma <= (alpha/2) gamma_lin
  (q at the mirror point <= alpha <v, x_i>) and N >= ((1 - alpha)/2) ||v|| / ||theta||^2. sign(a_k) changes only
  through a_k = 0, i.e. ||w_k||^2 = -c_k with c_k = a_k^2 - ||w_k||^2 conserved: a run that ends single-signed with
  every ||w_k||^2 >= CLEAR |c_k| (always at m = 1) sits on the (alpha/2) plateau (:func:`one_sign`; asymptotic
  evidence, as the sheet's S-8 runs).

Integrator gate (C-S6-bal, S-20): every trajectory check first requires the conserved c_k to drift at integrator
level (:func:`gate`); a run that fails it is inconclusive (error inf), never a refutation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

import numpy as np
from hypothesis import strategies as st

from verify.claims import trends
from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.margins import max_margin
from verify.model.init import Initialization
from verify.scenarios import SEEDS, Scenario
from verify.verdicts import Verdict

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import network as N
from properties.lyu2021_margin import quantities as Q
from properties.lyu2021_margin import scenarios as SC
from properties.lyu2021_margin._shared import ALPHA, LOSS, U_ROUND, paper_claim, worst

HORIZON = 1e12  # engine time (verify.claims.run.MAX_HORIZON); a D-SYM run gets there in ~0.3 s
SAMPLES = 121
RTOL = 1e-10
WINDOW = (1e4, 1e8)  # the early half of the trend window; the late half is (1e8, HORIZON]
SAFETY = 10.0  # error of a normalised measure: SAFETY x the state tolerance x the measure's sensitivity
GATE = 4.0  # C-S6-bal: |c_k(t) - c_k(0)| / S_k(t)^2 <= GATE tol (c is quadratic in the state)
CLEAR = 100.0  # one sign: every ||w_k||^2 >= CLEAR |c_k| at the horizon
KKT_ACTIVE = 0.1  # KKT residual: active set q_i <= (1 + KKT_ACTIVE) q_min (any fixed > 0 works in the limit)
C_GLOBAL = (1.0 + ALPHA) / 4.0  # Theorem 4.3's C: f^inf = C <w*, x>
BAD_PLATEAU = 2.0 * ALPHA / (1.0 + ALPHA)  # (alpha/2) gamma_lin / (C gamma_lin), 0.667 at alpha = 1/2

LATE = dict(horizon=HORIZON, rtol=RTOL, samples=SAMPLES, spacing="log")
TREND = ("finite-time proxy of a limit: envelope trend over [1e4, 1e12] split at 1e8 (sheet 2.0)",)


@dataclass(frozen=True)
class Late:
    """A run's samples with t = 0 first (t, W (k, m, d), a (k, m)), the window's early/late masks, the state
    tolerance, and the data's gamma_lin and w*."""

    t: np.ndarray
    W: np.ndarray
    a: np.ndarray
    early: np.ndarray
    late: np.ndarray
    tol: float
    X: np.ndarray
    y: np.ndarray
    gamma_lin: float
    w_star: np.ndarray

    @property
    def window(self) -> np.ndarray:
        return self.early | self.late


@lru_cache(maxsize=16)
def read(run: Any) -> Late:
    """The run's samples and what every check shares; tol = 10 (rtol + the engine's error estimate) is the relative
    error of a sampled state (per neuron)."""
    t, W, a = np.asarray(run.times, float), np.asarray(run.W, float), np.asarray(run.v, float)
    if t[0] > 0.0:
        t, W, a = np.r_[0.0, t], np.concatenate([run.W0[None], W]), np.concatenate([run.v0[None], a])
    est = run.trajectory.error_estimate if run.trajectory is not None else 0.0
    tol = 10.0 * (float(run.params.get("rtol") or RTOL) + (float(est) if math.isfinite(est) else 0.0))
    mm = max_margin(run.dataset)
    early = (t >= WINDOW[0] * (1 - 1e-9)) & (t <= WINDOW[1] * (1 + 1e-9))
    return Late(t, W, a, early, t > WINDOW[1] * (1 + 1e-9), tol, run.X, run.y, float(mm.gamma_lin),
                np.asarray(mm.svm.direction, float))


def gate(run: Any) -> Margin | None:
    """C-S6-bal / S-20: c_k = a_k^2 - ||w_k||^2 is conserved along GF. Drift max_{t,k} |c_k(t) - c_k(0)| / S_k(t)^2,
    S_k the running max of ||(w_k, a_k)||; above GATE x tol the run is inconclusive (error inf), else None."""
    lt = read(run)
    c = lt.a**2 - np.sum(lt.W**2, axis=2)
    size = np.maximum.accumulate(lt.a**2 + np.sum(lt.W**2, axis=2), axis=0)
    drift = float(np.max(np.abs(c - c[0]) / size))
    if drift <= GATE * lt.tol:
        return None
    return Margin(0.0, math.inf, f"integrator gate failed: a^2 - ||w||^2 drifts {drift:.3g} relative "
                                 f"(> {GATE:g} x tol {lt.tol:.3g}; S-20): inconclusive, not a refutation")


def envelope(values: np.ndarray, lt: Late, error: float, what: str, literal: bool = False) -> Margin:
    """E shrinks in envelope over the window: verify's :func:`~verify.claims.trends.envelope_trend` on the late
    phase's halves, where a rise of a limit's error is inconclusive (sheet 2.0), not a violation (``literal``: the
    statement is the finite-time trend itself, as S-19's planted readings)."""
    return trends.envelope_trend(values, lt.early, lt.late, error, what, literal=literal)


def series(lt: Late, fn: Callable[..., Any]) -> np.ndarray:
    """fn(W, a) at every sample."""
    return np.array([fn(W, a) for W, a in zip(lt.W, lt.a)])


def margin_ratio(lt: Late) -> np.ndarray:
    """gamma(theta(t)) / (C gamma_lin) at every sample (1 at Theorem 4.3's limit on symmetric data)."""
    return series(lt, lambda W, a: N.normalised_margin(lt.X, lt.y, W, a, ALPHA)) / (C_GLOBAL * lt.gamma_lin)


def ratio_error(lt: Late) -> float:
    """Error of gamma / (C gamma_lin): a relative state error tol moves f(x) by <= tol ||theta||^2 ||x|| (f is
    2-homogeneous, |grad f| <= ||theta|| ||x||) and ||theta||^2 by 2 tol."""
    return SAFETY * lt.tol * (float(np.max(np.linalg.norm(lt.X, axis=1))) / (C_GLOBAL * lt.gamma_lin) + 2.0)


def beyond(lt: Late, target: float, what: str) -> Margin | None:
    """Lyu-Li certificate: gamma~(t_end) > target + error means the limit margin exceeds ``target`` (a violation of
    convergence to a direction of margin ``target``), else None. Error: gamma~'s sensitivity, as :func:`ratio_error`;
    ratio gamma~ / target (> 1 where it fires; target > 0)."""
    smooth = N.smoothed_margin(lt.X, lt.y, lt.W[-1], lt.a[-1], ALPHA)
    err = ratio_error(lt) * C_GLOBAL * lt.gamma_lin * 1.4
    if smooth is None or smooth <= target + err:
        return None
    return Margin(target - smooth, err, f"gamma~(t = {lt.t[-1]:.3g}) = {smooth:.6g} > {what} = {target:.6g}: "
                                        f"the limit margin is >= gamma~ (Lyu-Li), so the limit is not there",
                  ratio=smooth / target, site={"t": float(lt.t[-1])})


def one_sign(lt: Late) -> str | None:
    """The one-sign plateau (module docstring): every a_k(t_end) of one sign, clear of the state error, and every
    ||w_k||^2 >= CLEAR |c_k| (no sign change without shrinking by sqrt(CLEAR)); m = 1 always. A description or None."""
    W, a = lt.W[-1], lt.a[-1]
    size = np.sqrt(a**2 + np.sum(W**2, axis=1))
    c = np.abs(lt.a[0] ** 2 - np.sum(lt.W[0] ** 2, axis=1))
    signed = np.all(a > SAFETY * lt.tol * size) or np.all(a < -SAFETY * lt.tol * size)
    if a.size > 1 and not (signed and np.all(np.sum(W**2, axis=1) >= CLEAR * c)):
        return None
    return (f"every a_k has sign {int(np.sign(a[0])):+d} at t = {lt.t[-1]:.3g} (m = {a.size}): single-signed nets have "
            f"gamma <= (alpha/2) gamma_lin and N >= ((1 - alpha)/2) ||v|| / ||theta||^2")


def bad_draw(draw: Q.Draw, mu_hat: np.ndarray, sign: float = 1.0) -> Q.Draw:
    """Sheet section 5 fixture 3 (S-8): a-bar_k = sign (|a-bar_k| + |<w-bar_k, mu^>|), so every b-bar_k has that sign
    and every a_k keeps it in Phase I (both eigen-coefficients of (w_k, a_k) are >= 0)."""
    return Q.Draw(draw.W, sign * (np.abs(draw.a) + np.abs(draw.W @ mu_hat)), draw.kind, draw.seed)


def fixed_draws(cases: tuple[tuple[int, int, int, int], ...], bad: bool = False) -> list[Scenario]:
    """Planted runs on random symmetric data (n_half, d, data seed, m), init seed = data seed, sigma = 1e-6: data
    whose mirror-pair crossings the mp backend confirms (it stalls at some, e.g. on D-SYM's sliding point)."""
    out = []
    for n_half, d, seed, m in cases:
        ds = D.random_symmetric(n_half, d, seed=seed)
        theta = Q.d_init(m, d, seed)
        if bad:
            mu = Q.mean_signed(ds.X, ds.y)
            theta = bad_draw(theta, mu / np.linalg.norm(mu))
        out.append(SC.draw_scenario(ds, theta, 1e-6, n_half=n_half, d=d, seed=seed))
    return out


@st.composite
def bad_scenarios(draw: st.DrawFn, families: tuple[str, ...] = ("d_sym", "random")) -> Scenario:
    """Fixture-3 draws (m in 2..4, either sign) on D-SYM or random symmetric data, sigma in {1e-4, 1e-6, 1e-8}."""
    params: dict[str, Any] = {}
    if draw(st.sampled_from(families)) == "random":
        params = {"n_half": draw(st.integers(3, 5)), "d": draw(st.integers(2, 3)), "seed": draw(SEEDS)}
        ds = D.random_symmetric(**params)
    else:
        ds = D.d_sym()
    mu = Q.mean_signed(ds.X, ds.y)
    theta = bad_draw(Q.d_init(draw(st.integers(2, 4)), ds.d, draw(SEEDS)), mu / np.linalg.norm(mu),
                     draw(st.sampled_from((1.0, -1.0))))
    return SC.draw_scenario(ds, theta, draw(st.sampled_from(SC.SIGMAS)), fixture="bad draw (S-8)", **params)


# ---------------------------------------------------------------------------------------------- Theorem 3.1


def separating_scenario(ds: Dataset, m: int, seed: int) -> Scenario:
    """Sheet C-T3.1's start "a scaled-up separating network": a D_init(1) draw of width m plus the pair beta (w*, 1),
    beta (-w*, -1) with beta^2 (1 + alpha) gamma_lin = 1 + 2 max_i |f_draw(x_i)| (so q_min >= 1), scaled by c with
    c^2 q_min = ln(2n / ln 2): then n L <= n exp(-c^2 q_min) = (ln 2)/2 < ln 2 (ln(1 + u) <= u)."""
    draw = Q.d_init(m, ds.d, seed)
    mm = max_margin(ds)
    w_star = np.asarray(mm.svm.direction, float)
    beta = math.sqrt((1.0 + 2.0 * float(np.max(np.abs(N.outputs(ds.X, draw.W, draw.a, ALPHA)))))
                     / ((1.0 + ALPHA) * mm.gamma_lin))
    W, a = np.vstack([draw.W, beta * w_star, -beta * w_star]), np.r_[draw.a, beta, -beta]
    qmin = float(np.min(N.margins(ds.X, ds.y, W, a, ALPHA)))
    log_c = 0.5 * math.log(math.log(2.0 * ds.n / math.log(2.0)) / qmin)
    return Scenario(ds, Initialization(W, a, log_c, "given"), LOSS, ALPHA,
                    {"data": ds.name, "init": "separating", "m": m + 2, "init_seed": seed})


@st.composite
def separating_scenarios(draw: st.DrawFn) -> Scenario:
    """:func:`separating_scenario` on D-SYM, D-S or random symmetric data (T3.1 needs no symmetry), m in 0..4."""
    family = draw(st.sampled_from(("d_sym", "d_s", "random")))
    ds = (D.d_sym() if family == "d_sym" else D.d_s() if family == "d_s" else
          D.random_symmetric(draw(st.integers(2, 5)), draw(st.integers(2, 3)), seed=draw(SEEDS)))
    return separating_scenario(ds, draw(st.integers(0, 4)), draw(SEEDS))


def t31_scenarios() -> st.SearchStrategy[Scenario]:
    """T3.1's invariants: small D_init (both events, m in 1..4) and scaled-up separating nets."""
    return st.one_of(SC.small_init_scenarios(m=(1, 4)), separating_scenarios())


@measures("worst of: minus the relative loss rise between samples, q_min / ||theta||^2, the step of gamma~")
def lyu_li_invariants(run: Any) -> Margin:
    """T3.1 invariants: L non-increasing between samples; once n L < ln 2, q_min > 0 and gamma~ non-decreasing.
    Relative errors (see :func:`ratio_error`): L moves by <= L max|dq| (|l'| <= l for the logistic loss), plus the
    float64 rounding of each L (a mean of n positive terms: relative (n + 4) u; where theta is tiny L barely moves and a
    rise of one rounding unit was a confirmed "violation", found at the thorough budget), gamma~ by
    <= 1.4 max|dq| / ||theta||^2 + 2 tol |gamma~|."""
    blocked = gate(run)
    if blocked is not None:
        return blocked
    lt = read(run)
    xmax = float(np.max(np.linalg.norm(lt.X, axis=1)))
    size = series(lt, N.norm_sq)
    dq = SAFETY * lt.tol * size * xmax
    L = series(lt, lambda W, a: N.mean_loss(lt.X, lt.y, W, a, ALPHA))
    rise = (L[1:] - L[:-1]) / L[:-1]
    rounding = 2.0 * (len(lt.y) + 4) * U_ROUND * (1.0 + np.abs(rise))  # both L's, relative
    k = int(np.argmax(rise - dq[1:] - dq[:-1] - rounding))
    parts = [Margin(-float(rise[k]), float(dq[k] + dq[k + 1] + rounding[k]), f"max relative loss increase {rise[k]:.3g} "
                                                               f"(t = {lt.t[k]:.3g} -> {lt.t[k + 1]:.3g})",
                    site={"t": float(lt.t[k])})]
    below = np.flatnonzero(len(lt.y) * L < math.log(2.0))
    if below.size == 0:
        return Margin(0.0, 0.0, f"n L >= ln 2 up to t = {lt.t[-1]:.3g}: T3.1's premise never met", vacuous=True)
    qmin = series(lt, lambda W, a: float(np.min(N.margins(lt.X, lt.y, W, a, ALPHA))))[below] / size[below]
    j = int(np.argmin(qmin))
    parts.append(Margin(float(qmin[j]), float(dq[below][j] / size[below][j]),
                        f"min normalised q_min {qmin[j]:.4g} once n L < ln 2 (from t = {lt.t[below[0]]:.3g})"))
    gt = np.array([N.smoothed_margin(lt.X, lt.y, lt.W[i], lt.a[i], ALPHA) for i in below])
    err = 1.4 * dq[below] / size[below] + 2.0 * SAFETY * lt.tol * np.abs(gt)
    drop = gt[:-1] - gt[1:] - err[:-1] - err[1:]
    if drop.size:
        i = int(np.argmax(drop))
        parts.append(Margin(float(gt[i + 1] - gt[i]), float(err[i] + err[i + 1]),
                            f"gamma~ step {gt[i + 1] - gt[i]:.3g} at t = {lt.t[below[i]]:.3g} (gamma~ {gt[0]:.5g} -> "
                            f"{gt[-1]:.5g})", site={"t": float(lt.t[below[i]])}))
    out = worst(parts)
    return Margin(out.value, out.error, "; ".join(p.note for p in parts), site=out.site)


T31_INVARIANTS = paper_claim(
    id="LY-T31-invariants",
    node="T31", uses=("BAL",),
    source="Theorem 3.1 (Lyu & Li 2020; C-T3.1 check: invariants; sheet 4.4)",
    statement="Along GF the mean logistic loss L is non-increasing; once n L < ln 2, every q_i > 0 (100 % accuracy) "
              "and the smoothed margin gamma~ = -log(exp(n L) - 1) / ||theta||^2 is non-decreasing (to t = 1e12)",
    check=lyu_li_invariants,
    over=t31_scenarios(),
    **LATE,
    assumptions=("n L < ln 2 at some sampled time (else vacuous)", "leaky", "integrator gate (C-S6-bal)"),
    assumed=("2-homogeneous definable net (two-layer leaky ReLU, sheet 1.3)",),
)


@measures("early-window max minus late-window max of eps_KKT and of the direction's motion per decade (normalised)")
def kkt_trend(run: Any) -> Margin:
    """T3.1: the KKT residual eps_KKT of (P) at theta(t) (network.kkt_residual, active set q_i <= 1.1 q_min) shrinks
    in envelope, and so does the direction's motion per decade ||theta-bar(10 t) - theta-bar(t)||. Error SAFETY tol
    (both are normalised); a rise is inconclusive (a limit)."""
    return _kkt_trend(run, literal=False)


@measures("early-window max minus late-window max of eps_KKT and of the direction's motion per decade (normalised)")
def kkt_trend_literal(run: Any) -> Margin:
    """:func:`kkt_trend` read literally (S-19's planted reading): a rise beyond the error is a violation."""
    return _kkt_trend(run, literal=True)


def _kkt_trend(run: Any, literal: bool) -> Margin:
    blocked = gate(run)
    if blocked is not None:
        return blocked
    lt = read(run)
    kkt = np.array([N.kkt_residual(lt.X, lt.y, W, a, ALPHA, KKT_ACTIVE)[0] if lt.window[k] else 0.0
                    for k, (W, a) in enumerate(zip(lt.W, lt.a))])
    if not np.all(np.isfinite(kkt[lt.window])):
        return Margin(0.0, 0.0, "some q_i <= 0 in the window: T3.1's premise n L < ln 2 not met by t = 1e4",
                      vacuous=True)
    theta = np.concatenate([lt.W.reshape(len(lt.t), -1), lt.a], axis=1)
    bar = theta / np.linalg.norm(theta, axis=1, keepdims=True)
    step = np.zeros(len(lt.t))
    step[8:] = np.linalg.norm(bar[8:] - bar[:-8], axis=1)  # eight samples per decade
    parts = [envelope(kkt, lt, SAFETY * lt.tol, f"eps_KKT (active q_i <= {1 + KKT_ACTIVE:g} q_min)", literal),
             envelope(step, lt, 4.0 * SAFETY * lt.tol, "||theta-bar(10 t) - theta-bar(t)||", literal)]
    out = worst(parts)
    return Margin(out.value, out.error, f"{parts[0].note}; {parts[1].note}; eps_KKT(t_end) = {kkt[-1]:.3g}",
                  ratio=out.ratio)


T31_KKT = paper_claim(
    id="LY-T31-KKT",
    node="T31", uses=("BAL",),
    source="Theorem 3.1 (C-T3.1 check from a scaled-up separating network: KKT residual -> 0, direction stabilises)",
    statement="From a scaled-up separating net (n L < ln 2 at t = 0), the KKT residual of (P) at theta(t)/||theta(t)|| "
              "and the direction's motion per decade shrink: their max over (1e8, 1e12] is at most their max over "
              "[1e4, 1e8]",
    check=kkt_trend,
    over=separating_scenarios(),
    **LATE,
    assumptions=("n L(theta0) < ln 2 (by construction)", "leaky", "integrator gate (C-S6-bal)") + TREND,
    assumed=("2-homogeneous definable net (two-layer leaky ReLU, sheet 1.3)",),
)


S19_KKT = paper_claim(
    id="S19-T31-KKT-transit",
    node="T31", uses=("BAL", "KKTSUB"),
    source="sheet S-19 / 2.0 (a finite-time reading of Theorem 3.1's KKT limit) on small-init runs",
    statement="PLANTED (finite-time reading): the same trend on good-event small-init runs with a lopsided b-bar fails: "
              "they pass near the suboptimal KKT direction (C-KKTsub) and leave it, so eps_KKT rises over [1e4, 1e12] "
              "while gamma/(C gamma_lin) rises (expected REFUTED; T3.1 is a limit, not a monotone statement)",
    check=kkt_trend_literal,
    over=st.sampled_from(fixed_draws(((4, 2, 22, 2), (4, 3, 31, 3), (5, 2, 80, 2)))),
    **LATE,
    expected=Verdict.REFUTED,
    assumptions=("A3.2", "A4.1", "m >= 2", "D_init", "leaky", "good event, b-bar_- / b-bar_+ < 0.1"),
    tags=("planted", "reading"),
)
