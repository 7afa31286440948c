"""Claim sheet 000, section 5.6 PC7: the polynomial-tailed loss l(m) = sqrt(1 + m^2) - m (engine loss "poly") meets
the paper's "more general" loss conditions (sheet 1.3: l' bounded by 2 and Lipschitz, -y l' > 0), so the
finite-time lemmas still hold -- PL-X1, Lemma 3, Lemma B.1, Lemma A.4 (the existing checks of :mod:`.cone` and
:mod:`.lemma_a4`, rerun with loss="poly"; Lemma 2 with c_i = 1 is PL-L2-lgen) -- but Theorem 1's max-margin limit
does not (planted PC7-T1).

Why the limit changes (derivation, sheet PL-P2 and the caveat of sheet 1.3). After T^ the J+ block is a linear
two-layer net f(x) = beta^T x, beta = sum_{J+} a_j w_j, trained on the positives alone (decoupling, PL-P2), with
dbeta/dt = (||a_+||^2 I + W_+^T W_+) g, g = sum_{y_i = 1} -l'(m_i) x_i. The tail -l'(m) = 1/(2 m^2) (1 + O(m^-2))
gives, for beta = r u, g = (2 r^2)^-1 sum_i x_i / <u, x_i>^2 = -(2 r^2)^-1 grad Phi(u) with
Phi(u) = sum_{y_i = 1} 1 / <u, x_i>; the preconditioner adds only a multiple of u (W_+ tends to rank one along u),
so du/dt = -c(t) P_u^perp grad Phi(u) with c(t) ~ 1/t, whose integral diverges: the direction follows the
projected gradient flow of Phi on the sphere and tends to its critical point. Phi is homogeneous of degree -1, so a
critical point u of Phi on the sphere has grad Phi(u) = -Phi(u) u, which is the KKT condition of the strictly convex
problem min Phi(v) over ||v|| <= 1 (H-SPAN: the positives span R^d): the critical point u*_+ is unique. Every J+
neuron is driven by the same g (its increments lie along g), so w_j / ||w_j|| -> u*_+ as well, and likewise J- with
the negatives (margins sum_{J-} |a_j| w_j^T x_i, so Phi over the raw negatives). With the exponential tail of CE the
same argument gives the max-margin w^_+- instead (the weights concentrate on the supports).

u* is computed from the strictly convex unconstrained problem min_v h(v) = Phi(v) + ||v||^2 / 2 (its stationary
point v* = -grad Phi(v*) has direction u*); h is 1-strongly convex (Hessian sum 2 x x^T / <v, x>^3 + I >= I), so
||v - v*|| <= ||grad h(v)||, a certified error of the computed direction (:func:`tail_direction`). On the fixture
(sheet 7) cos(u*_+, w^_+) = 0.998951 and cos(u*_-, w^_-) = 0.984310: the sheet's plateau 0.99895 / 0.9843.

Runs stop at t = 1e6 (not theorem1's 1e12): at 1e6 the fixture's neurons are already within 4.2e-4 rad of u*,
0.046 (+) and 0.18 (-) rad away from w^, and the mp reruns (the REFUTED confirmation at 30 digits, the HOLDS
cross-check) cost ~3 s to 1e10-1e12 on this loss against well under a second to 1e6.
The refutation's value comes from the data (cos(u*, w^) - 1, certified error); the run only corroborates the
derivation (else the margin is inconclusive), and a run converging to w^ (logistic loss) never corroborates it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.scenarios import Scenario
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import cone as C
from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import lemma_a4 as A4
from properties.phuong_lampert2021 import measures as M
from properties.phuong_lampert2021 import scenarios as SC
from properties.phuong_lampert2021 import theorem1 as T
from properties.phuong_lampert2021._shared import U_ROUND, paper_claim, worst

POLY = "poly"  # l(m) = sqrt(1 + m^2) - m, m = y f (verify/model/losses.py)
HORIZON = 1e6  # see the module docstring: the mp backend's limit with this loss
SAMPLES = 91  # "log" spacing from 1e-3: ten samples per decade
RTOL = 1e-11
WINDOW = (1e2, 1e4)  # trend window [1e2, 1e6], its early half ending at 1e4; T^ must come before 1e2
NEWTON_STEPS = 100

HYP = ("H-OS (by construction)", "balanced init", "poly loss sqrt(1 + m^2) - m (H-LGEN: sup|l'| = 2)")
LATE = ("H-OS (precondition: audit)", "H-SPAN (precondition: audit.span_holds)", "balanced init (by construction)",
        "T^ <= 1e2 (precondition)", "poly loss sqrt(1 + m^2) - m (H-LGEN, drops H-CE)")
DERIVED = ("Clarke GF with relu'(0) = 0", "the limit direction u* of the linear blocks (derivation in the module "
                                           "docstring: projected gradient flow of Phi with divergent time change)")
PC7_USES = ("OS", "SPAN", "BAL", "L1", "L3", "P2")
CASES = st.one_of(st.just(SC.fixture_scenario(loss=POLY)), SC.os_scenarios(loss=POLY))
LIMIT_CASES: list[Scenario] = [  # the fixture with its sheet init first (Hypothesis shrinks towards it), Gaussian inits
    SC.fixture_scenario(loss=POLY), T.gaussian_scenario(D.fixture(), 3, 1e-3, 2, loss=POLY),
    T.gaussian_scenario(T.pulled_span(2, 1, seed=1), 3, 1e-3, 1, loss=POLY),
    T.gaussian_scenario(T.pulled_span(3, 1, seed=5), 4, 1e-3, 5, loss=POLY)]

pc7_claim = partial(paper_claim, over=CASES, assumptions=HYP, tags=("control",))


# --- the finite-time lemmas still hold (the checks of cone.py and lemma_a4.py) ---------------------------------

X1 = pc7_claim(
    id="PC7-X1",
    node="X1", uses=("OS", "LA4"),
    source="PL-X1 under the 'more general loss' clause (sheet 5.6 PC7: must still hold; needs only -y l' > 0)",
    statement="With l(m) = sqrt(1 + m^2) - m on OS data s_j y_k w_j^T x_k is non-decreasing, w_j(t) - w_j(0) lies in "
              "s_j cone{y_i x_i} and each step in the cone of its active examples (sampled states)",
    check=C.cone_property,
    horizon=C.LOG_HORIZON, samples=120, spacing="log",
)

L3 = pc7_claim(
    id="PC7-L3",
    node="L3", uses=("OS", "LA3", "LA4", "X1"),
    source="Lemma 3 under the 'more general loss' clause (PL-L3; sheet 5.6 PC7: must still hold)",
    statement="With l(m) = sqrt(1 + m^2) - m, once a neuron is in its extremal sector (a_j > 0 and S_sigma+, or a_j < 0 "
              "and S_sigma-; sigma+- = sign(X m+-), c_i = 1) its activation pattern stays constant",
    check=C.extremal_sector_kept,
    horizon=C.OS_HORIZON, samples=C.DENSE,
)

LB1 = pc7_claim(
    id="PC7-LB1",
    node="LB1", uses=("OS", "LA4", "X1"),
    source="Lemma B.1 under the 'more general loss' clause (PL-LB1; sheet 5.6 PC7: must still hold)",
    statement="With l(m) = sqrt(1 + m^2) - m: if a_j(T) > 0 and w_j(T)^T x_k > 0 for a positive k, then w_j(t)^T x_k > 0 "
              "for all t >= T; likewise for a_j(T) < 0 and a negative k",
    check=C.positive_activations_kept,
    horizon=C.OS_HORIZON, samples=C.DENSE,
)

LA4_GF = pc7_claim(
    id="PC7-LA4-GF",
    node="LA4", uses=("LA3",),
    source="Lemma A.4 under the 'more general loss' clause (PL-LA4 check (a); sheet 5.6 PC7: must still hold)",
    statement="With l(m) = sqrt(1 + m^2) - m, a_j(t)^2 - ||w_j(t)||^2 stays 0 along gradient flow (relative drift at "
              "integrator level, rtol 1e-11)",
    check=A4.balance_drift,
    horizon=A4.GF_HORIZON, rtol=1e-11, form="cartesian",
)

LA4_GROWTH = pc7_claim(
    id="PC7-LA4-growth",
    node="LA4", uses=("LA3", "BAL"),
    source="Lemma A.4, proof (|d a_j^2/dt| <= 2nBV a_j^2, B = sup|l'| = 2) under the 'more general loss' clause "
           "(PL-LA4 check (c); sheet 5.6 PC7)",
    statement="With l(m) = sqrt(1 + m^2) - m (|l'| < 2), |log|a_j(t)| - log|a_j(0)|| <= 2 t sum_i ||x_i||",
    check=A4.growth_bound,
    horizon=A4.GF_HORIZON, form="cartesian",
)

LA4_SIGNS = pc7_claim(
    id="PC7-LA4-signs",
    node="LA4", uses=("LA3", "BAL"),
    source="Lemma A.4, eq. (57) under the 'more general loss' clause (PL-LA4 check (b); sheet 5.6 PC7)",
    statement="With l(m) = sqrt(1 + m^2) - m, sign(a_j(t)) = sign(a_j(0)) for all t and j under the balanced init",
    check=A4.signs_kept,
    horizon=A4.GF_HORIZON, form="cartesian",
)


# --- Theorem 1: the limit direction is u*, not w^ --------------------------------------------------------------

def tail_direction(P: np.ndarray) -> tuple[np.ndarray, float]:
    """u* = argmin_{||u|| = 1} sum_i 1/<u, p_i> (rows p_i with pairwise products >= 0, spanning R^d) and a bound
    on ||u - u*||: damped Newton on h(v) = sum_i 1/<v, p_i> + ||v||^2/2 (1-strongly convex, v* = -grad Phi(v*));
    ||v - v*|| <= ||grad h(v)|| + rounding, and ||v/||v|| - u*|| <= 2 ||v - v*|| / (||v|| - ||v - v*||)."""
    P = np.asarray(P, float)

    def h(v: np.ndarray) -> float:
        return float(np.sum(1.0 / (P @ v)) + 0.5 * v @ v)

    v = P.sum(axis=0)
    v *= math.sqrt(float(np.sum(1.0 / (P @ v)))) / np.linalg.norm(v) ** 1.5  # near the scale ||v*||^3 ~ sum 1/<u, p>
    for _ in range(NEWTON_STEPS):
        m = P @ v
        grad = v - P.T @ (1.0 / m**2)
        if np.linalg.norm(grad) <= 1e-15 * np.linalg.norm(v):
            break
        step = np.linalg.solve(np.eye(P.shape[1]) + 2.0 * (P.T * (1.0 / m**3)) @ P, grad)
        s = 1.0
        while np.any(P @ (v - s * step) <= 0.0) or h(v - s * step) > h(v):
            s *= 0.5
            if s < 1e-12:
                break
        v = v - s * step
    m = P @ v
    grad = v - P.T @ (1.0 / m**2)
    rounding = 16.0 * P.shape[0] * U_ROUND * (np.linalg.norm(v) + float(np.sum(np.linalg.norm(P, axis=1) / m**2)))
    dv = float(np.linalg.norm(grad)) + rounding
    nv = float(np.linalg.norm(v))
    return v / nv, (2.0 * dv / (nv - dv) if dv < nv else math.inf)


@dataclass(frozen=True)
class PolyPhase:
    """A run read after T^ on the PC7 window: samples, entry index, groups at T^, window indices with the early
    mask, the state tolerance, and per live class s the carrying neurons, u*_s with its error and w^_s."""

    smp: M.Samples
    entry: int
    groups: np.ndarray
    window: np.ndarray
    early: np.ndarray
    tol: float
    classes: tuple[tuple[int, np.ndarray, np.ndarray, float, np.ndarray], ...]


@lru_cache(maxsize=16)
def poly_phase(run: Any) -> PolyPhase | str:
    """The late phase of a PC7 run, or why there is none (H-OS / H-SPAN false, T^ after 1e2, all neurons dead)."""
    hyp = T.theorem_hypotheses(run)
    if hyp is not True:
        return hyp
    smp = M.samples(run)
    entry = M.entry_index(run.X, run.y, smp)
    if entry is None or smp.t[entry] > WINDOW[0] or smp.t[-1] < 10.0 * WINDOW[1]:
        return f"T^ not reached by t = {WINDOW[0]:g} (or horizon {smp.t[-1]:.3g} before {10.0 * WINDOW[1]:g})"
    sp, sm = M.extremal_sectors(run.X, run.y)
    groups = M.groups(run.X, smp.W[entry], smp.a[entry], sp, sm)
    W_end = smp.W[-1]
    share = np.sum(W_end**2, axis=1) / np.sum(W_end**2)
    classes = []
    for s, w_hat in ((1, run.audit.w_plus), (-1, run.audit.w_minus)):
        carrying = np.flatnonzero((groups == s) & (share >= T.SHARE_MIN))
        if carrying.size:
            u, err = tail_direction(run.X[run.y == s])
            classes.append((s, carrying, u, err, np.asarray(w_hat, float) / np.linalg.norm(w_hat)))
    if not classes:
        return "no live neuron carries weight at the horizon (every neuron dead: Theorem 1 not claimed)"
    window = np.flatnonzero(smp.t >= WINDOW[0] * (1 - 1e-9))
    return PolyPhase(smp, entry, groups, window, smp.t[window] <= WINDOW[1] * (1 + 1e-9), M.state_tolerance(run),
                     tuple(classes))


def poly_phase_reached(run: Any) -> bool | str:
    """Precondition of the PC7 limit claims: H-OS, H-SPAN, T^ <= 1e2 and a live neuron."""
    ph = poly_phase(run)
    return ph if isinstance(ph, str) else True


def _gaps(ph: PolyPhase, s: int, carrying: np.ndarray, u: np.ndarray) -> np.ndarray:
    """1 - cos(w_j(t), u) over the window, columns the carrying neurons of class s."""
    W = ph.smp.W[ph.window][:, carrying]
    return 1.0 - (W @ u) / np.linalg.norm(W, axis=2)


def _angle(c: float | np.ndarray) -> Any:
    return np.arccos(np.clip(c, -1.0, 1.0))


def _resolution(ph: PolyPhase, err: float) -> float:
    """Angle error of a sampled direction against u*: sqrt(2 SAFETY tol) (1 - cos known to SAFETY tol) + 2 err(u*)."""
    return math.sqrt(2.0 * T.SAFETY * ph.tol) + 2.0 * err


def _trend(values: np.ndarray, ph: PolyPhase, error: float, what: str) -> Margin:
    """theorem1.envelope_trend on this module's window (its note names the window's halves)."""
    return T.envelope_trend(values, ph.early, error, what, halves=("[1e2, 1e4]", "(1e4, 1e6]"))


@measures("worst of the envelope drop of 1 - cos(w_j, u*) and min_j angle(w_j, w^) - angle(w_j, u*) (radians)")
def direction_to_tail_limit(run: Any) -> Margin:
    """Per live class s: 1 - cos(w_j, u*_s) shrinks in envelope over [1e2, 1e6] split at 1e4 (theorem1.envelope_trend,
    error SAFETY tol + err(u*)), and at the horizon each w_j is closer to u*_s than to w^_s: margin
    min_j angle(w_j, w^_s) - angle(w_j, u*_s), error :func:`_resolution`. The directions go to u*, not to w^."""
    ph = poly_phase(run)
    if isinstance(ph, str):
        return Margin(0.0, 0.0, ph, vacuous=True)
    parts = []
    for s, carrying, u, err, w_hat in ph.classes:
        name = "+" if s > 0 else "-"
        gap = _gaps(ph, s, carrying, u)
        parts.append(_trend(gap, ph, T.SAFETY * ph.tol + err, f"1 - cos(w_j, u*{name}), neurons {carrying.tolist()}"))
        W = ph.smp.W[-1][carrying]
        to_w = _angle(W @ w_hat / np.linalg.norm(W, axis=1))
        to_u = _angle(1.0 - gap[-1])
        k = int(np.argmin(to_w - to_u))
        parts.append(Margin(float(to_w[k] - to_u[k]), _resolution(ph, err),
                            f"class {name}: neuron {carrying[k]} at t = {ph.smp.t[-1]:.3g} is {to_u[k]:.3g} rad from u*, "
                            f"{to_w[k]:.3g} rad from w^ (angle(u*, w^) = {float(_angle(u @ w_hat)):.3g} rad)"))
    return worst(parts)


PC7_USTAR = paper_claim(
    id="PC7-T1-ustar",
    node="T1", uses=PC7_USES,
    source="Theorem 1 under the 'more general loss' clause, the polynomial-tail reading (PL-T1, PL-P2, sheet 5.6 PC7)",
    statement="With l(m) = sqrt(1 + m^2) - m, each live neuron's direction tends to u*_{sign a_j} = argmin_{||u|| = 1} "
              "sum_{y_i = sign a_j} 1/<u, x_i>: 1 - cos(w_j, u*) shrinks (max over (1e4, 1e6] <= max over [1e2, 1e4]) "
              "and at t = 1e6 each w_j is closer to u* than to w^",
    check=direction_to_tail_limit,
    over=st.sampled_from(LIMIT_CASES),
    horizon=HORIZON, rtol=RTOL, samples=SAMPLES, spacing="log",
    precondition=poly_phase_reached,
    assumptions=LATE, assumed=DERIVED,
    tags=("control",),
)


@measures("cos(u*, w^) - 1 per live class (cosine units); -1 with infinite error where the run does not corroborate u*")
def max_margin_limit_refuted(run: Any) -> Margin:
    """Theorem 1 (cos(w_j, w^_{sign a_j}) -> 1) against the derived limit u*, per live class: a run whose
    1 - cos(w_j, u*) does not shrink in envelope does not corroborate the derivation (inconclusive); one that does
    gives value cos(u*, w^) - 1 with error err(u*) (|cos(u, w^) - cos(u*, w^)| <= ||u - u*||) where it tells u*
    from w^ (angle(w_j, u*) + resolution < angle(u*, w^) / 2), else with error err(u*) + 1 - cos(2 (angle +
    resolution)) >= 1 - cos(u*, w^): a run that cannot tell them apart (u* = w^, or not yet near u*) never refutes."""
    ph = poly_phase(run)
    if isinstance(ph, str):
        return Margin(0.0, 0.0, ph, vacuous=True)
    parts, notes = [], []
    for s, carrying, u, err, w_hat in ph.classes:
        name, c = ("+" if s > 0 else "-"), float(u @ w_hat)
        gap = _gaps(ph, s, carrying, u)
        trend = _trend(gap, ph, T.SAFETY * ph.tol + err, "")
        half, end = 0.5 * float(_angle(c)), float(np.max(_angle(1.0 - gap[-1]))) + _resolution(ph, err)
        c_end = M.cosines(ph.smp.W[-1][carrying], ph.smp.s[carrying], w_hat, w_hat)
        note = (f"class {name}: cos(u*, w^) = {c:.6f} (u* error {err:.2g}); neurons {carrying.tolist()} at "
                f"t = {ph.smp.t[-1]:.3g}: cos with w^ {np.round(c_end, 6).tolist()}, angle to u* {end:.3g} rad "
                f"(with resolution), half angle(u*, w^) {half:.3g} rad")
        notes.append(note)
        if math.isfinite(trend.error) and trend.value >= -trend.error:
            parts.append(Margin(c - 1.0, err if end < half else err + 1.0 - math.cos(2.0 * end), note))
    if not parts:
        return Margin(-1.0, math.inf, "the run does not corroborate the limit u* (1 - cos(w_j, u*) not shrinking): "
                                      "undecided; " + "; ".join(notes))
    out = worst(parts)
    return Margin(out.value, out.error, "; ".join(notes))


PC7_T1 = paper_claim(
    id="PC7-T1",
    node="T1", uses=PC7_USES,
    source="Theorem 1 under the 'more general loss' clause (PL-T1, PC7)",
    statement="PLANTED: with l(m) = sqrt(1 + m^2) - m (l' bounded and Lipschitz, -y l' > 0) cos(w_j, w^_{sign a_j}) -> 1 "
              "fails: the derived limit is u*_{sign a_j} (argmin_{||u|| = 1} sum 1/<u, x_i> over the class), with "
              "cos(u*, w^) < 1 beyond the certified error, wherever the run corroborates it (fixture: 0.998951, 0.984310)",
    check=max_margin_limit_refuted,
    over=st.sampled_from(LIMIT_CASES),
    horizon=HORIZON, rtol=RTOL, samples=SAMPLES, spacing="log",
    precondition=poly_phase_reached,
    expected=Verdict.REFUTED,
    assumptions=LATE, assumed=DERIVED,
    tags=("planted",),
)
