"""Claim sheet 000, Theorem 1 (PL-T1, eqs. (8)-(9)) at t -> infinity, as finite-time trend tests on log-time runs
to t = 1e12: the distances D_W, D_a (i), the rate (ii), the per-neuron cosines (iii), the group structure, the
controls PC5 (one group empty) and PC8 (exponential loss), and the large-init case PC3 (undecidable).

How "trend" is read. Per-decade monotonicity of D_W or of a neuron's 1 - cos is NOT a consequence of the theorem:
valid runs overshoot w+- and come back (one neuron on ``pulled_span(2, 1, seed=11)``, lambda = 1e-4: D_W = 0.0043
at t = 1e3, 0.0080 at 1e5, 0.0048 at 1e12), or pass through D_W ~ 0 and rebound to their O(1/log t) offset. A
decade-by-decade test would refute the paper on them. Here a quantity E "shrinks" when its envelope does: over the
window [1e4, 1e12] split at 1e8, max_late E <= max_early E (value max_early - max_late, ratio max_late / max_early
reported as the slack). That is a pass criterion (PL-T1 check 5), not the sheet's counterexample signature: valid
runs also rise between the halves (the first thorough audit: 1 - cos(w_j, w+-) from 5.6e-6 to 7.5e-6 on
``pulled_span(2, 1, seed=165)``, confirmed at 30 digits), so a rise beyond the integration error is inconclusive
(:func:`verify.claims.trends.envelope_trend`): never a pass, never a violation. Violations come from the exact and
monotone certificates (group structure, PL-X6, PL-P3-rank1). Rates (ii) are undecidable at finite time: that
claim's margin is inconclusive unless D_W stops shrinking altogether (its statement's own, literal reading).

Scenarios: the sheet's fixture (section 7) with its init or Gaussian balanced inits, and :func:`pulled_span` data
(OS and H-SPAN by construction, angle(m+-, w+-) mostly >= 20 degrees as PL-T1 check 1 asks). H-OS and H-SPAN are
read from the audit (precondition); T^ (every neuron dead or in its extremal sector, Lemma 1) must come before the
window, else the example is vacuous (H-SMALL not met within the horizon).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from hypothesis import strategies as st

from verify.claims import trends
from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.scenarios import SEEDS, Scenario
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import measures as M
from properties.phuong_lampert2021 import scenarios as SC
from properties.phuong_lampert2021._shared import paper_claim, worst

HORIZON = 1e12  # verify.claims.run.MAX_HORIZON; the fixture runs there in 0.1 s
SAMPLES = 151  # "log" spacing from 1e-3: ten samples per decade, whole decades hit exactly
RTOL = 1e-11
WINDOW = (1e4, 1e8)  # the trend window starts at 1e4; its early half ends at 1e8, its late half at HORIZON
SHARE_MIN = 1e-3  # (iii): neurons carrying at least this share of ||W||_F^2 at the horizon
SAFETY = 10.0  # error of a normalised measure: SAFETY * state tolerance (see each check)
TEST_POINTS = 256  # Corollary 1: seeded unit vectors besides the training points

TREND = ("H-OS (precondition: audit)", "H-SPAN (precondition: audit.span_holds)", "balanced init (by construction)",
         "T^ <= 1e4 (Lemma 1 reached: H-SMALL, precondition)")
PROXY = ("Clarke GF with relu'(0) = 0", "finite-time proxy of a limit: envelope trend over [1e4, 1e12] split at 1e8")
T1_USES = ("OS", "SPAN", "BAL", "L1", "L3", "P8", "P9")


def pulled_span(d: int, extra: int, *, seed: int) -> Dataset:
    """OS data meeting H-SPAN with the class centres far from w+- (sheet PL-T1 check 1): per class d support points
    e_k + 0.3 |noise| / d (as :func:`datasets.span`) and ``extra`` far points of norm 2.5-5 near one axis e_k (like
    the fixture's x4 = (3, .5, .2)), which pull m away from w; both classes rotated by one random orthogonal Q."""
    rng = np.random.default_rng(seed)
    parts, labels = [], []
    for label in (1.0, -1.0):
        S = np.eye(d) + 0.3 * np.abs(rng.standard_normal((d, d))) / d
        k = rng.integers(d)
        far = []
        for _ in range(extra):
            u = 0.15 * np.abs(rng.standard_normal(d))
            u[k] = 1.0
            far.append(rng.uniform(2.5, 5.0) * u / np.linalg.norm(u))
        parts.append(label * np.vstack([S, far]))
        labels += [label] * (d + extra)
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    return Dataset(np.vstack(parts) @ Q.T, labels, name=f"pl_pulled_span(d={d}, extra={extra}, seed={seed})")


def gaussian_scenario(ds: Dataset, p: int, lam: float, seed: int, signs: str = "random", loss: str = SC.CE) -> Scenario:
    """The paper's init (H-RAND, H-BAL): v_j ~ N(0, I_d), a_j(0) = +-lam with fair signs or all positive (PC5)."""
    rng = np.random.default_rng(seed)
    V = rng.standard_normal((p, ds.d))
    s = np.where(rng.random(p) < 0.5, -1.0, 1.0) if signs == "random" else np.ones(p)
    return SC.pl_scenario(ds, V, s, lam, loss=loss, init_seed=seed, sign_choice=signs)


@st.composite
def asymptotic_scenarios(draw: st.DrawFn, p: tuple[int, int] = (1, 6), lambdas: tuple[float, ...] = SC.LAMBDAS,
                         signs: str = "random", loss: str = SC.CE, d: tuple[int, int] = (2, 3)) -> Scenario:
    """The fixture with its sheet init (random signs only) or a Gaussian init, or pulled_span data."""
    family = draw(st.sampled_from(("fixture-init", "fixture", "pulled") if signs == "random" else ("fixture", "pulled")))
    if family == "fixture-init":
        return SC.fixture_scenario(loss=loss)
    ds = D.fixture() if family == "fixture" else pulled_span(draw(st.integers(*d)), draw(st.integers(1, 2)),
                                                              seed=draw(SEEDS))
    return gaussian_scenario(ds, draw(st.integers(*p)), draw(st.sampled_from(lambdas)), draw(SEEDS), signs, loss)


@dataclass(frozen=True)
class LatePhase:
    """A run read after T^: its samples, the entry index, the groups (+1, -1, DEAD) at T^, the window's sample
    indices with the early-half mask, and the state tolerance."""

    smp: M.Samples
    entry: int
    groups: np.ndarray
    window: np.ndarray
    early: np.ndarray
    tol: float

    @property
    def times(self) -> np.ndarray:
        return self.smp.t[self.window]


def theorem_hypotheses(run: Any) -> bool | str:
    """H-OS and H-SPAN from the audit (True, or the reason they fail)."""
    a = run.audit
    if not (a.os_min_same is not None and a.os_min_same > 0 and a.os_max_cross is not None and a.os_max_cross <= 0):
        return f"H-OS false (min same-label product {a.os_min_same}, max cross-label {a.os_max_cross})"
    if a.span_holds is not True:
        return f"H-SPAN false (support ranks {a.span_rank_plus} / {a.span_rank_minus}, d = {run.X.shape[1]})"
    return True


@lru_cache(maxsize=16)
def late_phase(run: Any) -> LatePhase | str:
    """The run's late phase, or why there is none: T^ not reached, reached after the window starts, or every neuron
    dead (the 2^-p event of PL-P6, where Theorem 1 is not claimed)."""
    smp = M.samples(run)
    entry = M.entry_index(run.X, run.y, smp)
    if entry is None:
        return f"T^ not reached by t = {smp.t[-1]:.3g}: a neuron is neither dead nor in its extremal sector (H-SMALL)"
    if smp.t[entry] > WINDOW[0] or smp.t[-1] < 10.0 * WINDOW[1]:
        return f"T^ = {smp.t[entry]:.3g} after the window start {WINDOW[0]:g} (or horizon {smp.t[-1]:.3g} too short)"
    sp, sm = M.extremal_sectors(run.X, run.y)
    groups = M.groups(run.X, smp.W[entry], smp.a[entry], sp, sm)
    if np.all(groups == M.DEAD):
        return "every neuron dead at T^ (probability <= 2^-p, PL-P6): Theorem 1 not claimed"
    window = np.flatnonzero(smp.t >= WINDOW[0] * (1 - 1e-9))
    return LatePhase(smp, entry, groups, window, smp.t[window] <= WINDOW[1] * (1 + 1e-9), M.state_tolerance(run))


def late_phase_reached(run: Any) -> bool | str:
    """Precondition of the trend claims: H-OS, H-SPAN, and a late phase (T^ <= 1e4, a live group)."""
    hyp = theorem_hypotheses(run)
    if hyp is not True:
        return hyp
    lp = late_phase(run)
    return lp if isinstance(lp, str) else True


def both_groups_live(run: Any) -> bool | str:
    """Precondition of the two-group limits (U = Z, the norm split): J+ and J- both non-empty."""
    ok = late_phase_reached(run)
    if ok is not True:
        return ok
    g = late_phase(run).groups
    return True if np.any(g == 1) and np.any(g == -1) else f"one group empty (groups {g.tolist()})"


def envelope_trend(values: np.ndarray, early: np.ndarray, error: float, what: str, *,
                   halves: tuple[str, str] = ("[1e4, 1e8]", "(1e8, 1e12]"), literal: bool = False) -> Margin:
    """E shrinks in envelope over the window (``early`` marks its early half): verify's
    :func:`~verify.claims.trends.envelope_trend`, where a rise of a limit's error is inconclusive, not a violation
    (``literal``: the statement is the finite-time trend itself)."""
    return trends.envelope_trend(values, early, ~early, error, what, halves=halves, literal=literal)


def distances(run: Any, lp: LatePhase) -> np.ndarray:
    """(D_W, D_a) of eqs. (8)-(9) at the window's samples, with the groups of T^ (measures.theorem1_distances)."""
    a = run.audit
    return np.array([M.theorem1_distances(lp.smp.W[k], lp.smp.a[k], lp.groups, a.w_plus, a.w_minus) for k in lp.window])


@measures("min over D_W, D_a of max on [1e4, 1e8] - max on (1e8, 1e12] (envelope drop, dimensionless)")
def distance_trend(run: Any) -> Margin:
    """(i): D_W = ||W/||W||_F - u w+^T - z w-^T||_F and D_a = ||a/||a|| - (||w+|| u - ||w-|| z)|| shrink in
    envelope. Error SAFETY * tol: a relative state error tol moves each normalised term by at most 2 tol."""
    lp = late_phase(run)
    if isinstance(lp, str):
        return Margin(0.0, 0.0, lp, vacuous=True)
    Dd = distances(run, lp)
    parts = [envelope_trend(Dd[:, 0], lp.early, SAFETY * lp.tol, "D_W"),
             envelope_trend(Dd[:, 1], lp.early, SAFETY * lp.tol, "D_a")]
    out = worst(parts)
    return Margin(out.value, out.error, f"{parts[0].note}; {parts[1].note}; groups {lp.groups.tolist()}, "
                                        f"T^ <= {lp.smp.t[lp.entry]:.4g}", ratio=out.ratio)


T1_I = paper_claim(
    id="PL-T1-i",
    node="T1", uses=T1_USES,
    source="Theorem 1, eqs. (8)-(9) (PL-T1 numeric check 5 (i))",
    statement="After T^, D_W(t) = ||W/||W||_F - u w+^T - z w-^T||_F and D_a(t) = ||a/||a|| - (||w+|| u - ||w-|| z)|| "
              "(best u, z >= 0 on the groups of T^) shrink: their max over (1e8, 1e12] is at most their max over "
              "[1e4, 1e8]",
    check=distance_trend,
    over=asymptotic_scenarios(),
    horizon=HORIZON, rtol=RTOL, samples=SAMPLES, spacing="log",
    precondition=late_phase_reached,
    assumptions=TREND, assumed=PROXY,
)


@measures("envelope drop of q = D_W log t / log log t, error infinite (inconclusive) unless D_W stops shrinking")
def rate_undecided(run: Any) -> Margin:
    """(ii): q(t) = D_W log t / log log t bounded. A finite run cannot bound a rate: the margin is inconclusive
    (q's envelopes in the note) unless D_W itself stops shrinking, which refutes any rate (then (i)'s margin)."""
    lp = late_phase(run)
    if isinstance(lp, str):
        return Margin(0.0, 0.0, lp, vacuous=True)
    DW = distances(run, lp)[:, 0]
    shrink = envelope_trend(DW, lp.early, SAFETY * lp.tol, "D_W", literal=True)
    if shrink.value < -shrink.error:
        return shrink
    L = np.log(lp.times)
    q = envelope_trend(DW * L / np.log(L), lp.early, math.inf, "q = D_W log t / log log t")
    return Margin(q.value, math.inf, f"{q.note}; a rate is undecidable at finite time ({shrink.note})", ratio=q.ratio)


T1_II = paper_claim(
    id="PL-T1-ii",
    node="T1", uses=T1_USES,
    source="Theorem 1 rate (PL-T1 numeric check 5 (ii), sheet observation 0.26-0.22 on the fixture)",
    statement="D_W(t) log t / log log t stays bounded. Expected UNKNOWN: its envelopes are reported, and only a D_W "
              "that stops shrinking (late max above early max) refutes it (four fixed runs: the fixture, pulled_span)",
    check=rate_undecided,
    over=st.sampled_from([SC.fixture_scenario()] + [gaussian_scenario(pulled_span(d, 1, seed=seed), 4, 1e-3, seed)
                                                    for d, seed in ((2, 1), (3, 2), (3, 5))]),
    horizon=HORIZON, rtol=RTOL, samples=SAMPLES, spacing="log",
    precondition=late_phase_reached,
    expected=Verdict.UNKNOWN,
    assumptions=TREND, assumed=PROXY,
)


@measures("min over carrying neurons of the envelope drop of 1 - cos(w_j, w_{sign a_j}) (early max - late max)")
def cosine_trend(run: Any) -> Margin:
    """(iii): for every neuron carrying >= SHARE_MIN of ||W||_F^2 at the horizon, 1 - cos(w_j, w_{sign a_j})
    shrinks in envelope (error SAFETY * tol). The note gives both cosines at the horizon, with w+- and with m+-."""
    lp = late_phase(run)
    if isinstance(lp, str):
        return Margin(0.0, 0.0, lp, vacuous=True)
    a = run.audit
    W_end = lp.smp.W[-1]
    share = np.sum(W_end**2, axis=1) / np.sum(W_end**2)
    carrying = np.flatnonzero((lp.groups != M.DEAD) & (share >= SHARE_MIN))
    if carrying.size == 0:
        return Margin(0.0, 0.0, "no live neuron carries weight", vacuous=True)
    gap = np.array([1.0 - M.cosines(lp.smp.W[k][carrying], lp.smp.s[carrying], a.w_plus, a.w_minus) for k in lp.window])
    out = envelope_trend(gap, lp.early, SAFETY * lp.tol, f"1 - cos(w_j, w+-), neurons {carrying.tolist()}")
    cw = M.cosines(W_end, lp.smp.s, a.w_plus, a.w_minus)
    cm = M.cosines(W_end, lp.smp.s, a.m_plus, a.m_minus)
    return Margin(out.value, out.error, f"{out.note}; at t = {lp.smp.t[-1]:.3g} cos with w+- "
                                        f"{np.round(cw, 6).tolist()}, with m+- {np.round(cm, 6).tolist()}",
                  ratio=out.ratio)


T1_III = paper_claim(
    id="PL-T1-iii",
    node="T1", uses=T1_USES,
    source="Theorem 1 reading: each neuron tends to w_{sign a_j} (PL-T1 numeric check 5 (iii); sheet 3.1: report both "
           "cosines)",
    statement="For every live neuron carrying >= 1e-3 of ||W||_F^2, 1 - cos(w_j, w_{sign a_j}) shrinks: its max over "
              "(1e8, 1e12] is at most its max over [1e4, 1e8] (cosines with w+- and m+- reported)",
    check=cosine_trend,
    over=asymptotic_scenarios(),
    horizon=HORIZON, rtol=RTOL, samples=SAMPLES, spacing="log",
    precondition=late_phase_reached,
    assumptions=TREND, assumed=PROXY,
)


@measures("worst of the sector cosine margin, sign a_j / ||a|| and -dead activity / drift after T^ (dimensionless)")
def group_structure(run: Any) -> Margin:
    """From T^ on: J+ neurons keep sign(X w_j) = sigma+ and a_j > 0, J- neurons sigma- and a_j < 0, dead neurons
    stay inactive and constant. Sector margin min sigma_i cos(x_i, w_j); error SAFETY * tol per part."""
    lp = late_phase(run)
    if isinstance(lp, str):
        return Margin(0.0, 0.0, lp, vacuous=True)
    X = run.X
    sp, sm = M.extremal_sectors(X, run.y)
    Wl, al = lp.smp.W[lp.entry:], lp.smp.a[lp.entry:]
    cos = np.einsum("kjd,id->kji", Wl, X) / (np.linalg.norm(Wl, axis=2)[:, :, None] * np.linalg.norm(X, axis=1))
    parts = []
    for g, sigma, name in ((1, sp, "J+"), (-1, sm, "J-")):
        js = np.flatnonzero(lp.groups == g)
        if js.size:
            sector = float(np.min(sigma[None, None, :] * cos[:, js, :]))
            sign = float(np.min(g * al[:, js] / np.linalg.norm(al, axis=1)[:, None]))
            parts += [Margin(sector, SAFETY * lp.tol, f"{name} sector margin min sigma_i cos(x_i, w_j) = {sector:.3g}"),
                      Margin(sign, SAFETY * lp.tol, f"{name} min sign(group) a_j / ||a|| = {sign:.3g}")]
    dead = np.flatnonzero(lp.groups == M.DEAD)
    if dead.size:
        active = float(np.max(cos[:, dead, :]))
        drift = float(np.max(np.linalg.norm(Wl[:, dead] - Wl[0, dead], axis=2) / np.linalg.norm(Wl[0, dead], axis=1)))
        parts += [Margin(-active, SAFETY * lp.tol, f"dead neurons: max cos(x_i, w_j) = {active:.3g}"),
                  Margin(-drift, SAFETY * lp.tol, f"dead neurons: relative drift {drift:.3g}")]
    DW = M.theorem1_distances(lp.smp.W[-1], lp.smp.a[-1], lp.groups, run.audit.w_plus, run.audit.w_minus)[0]
    out = worst(parts)
    return Margin(out.value, out.error, f"{out.note}; groups {lp.groups.tolist()} at T^ <= {lp.smp.t[lp.entry]:.4g}; "
                                        f"||u||^2||w+||^2 + ||z||^2||w-||^2 = 1 - D_W^2 = {1 - DW**2:.6f} at the horizon")


T1_STRUCTURE = paper_claim(
    id="PL-T1-structure",
    node="T1", uses=("L3", "LA4", "LB1", "X8"),
    source="Theorem 1 structure from the proof (PL-T1: u_j > 0 only on J+, z_j > 0 only on J-, dead u = z = 0)",
    statement="From T^ to t = 1e12 no neuron changes group: J+ neurons stay in S_sigma+ with a_j > 0, J- in S_sigma- "
              "with a_j < 0, dead neurons stay inactive and constant (so u_j = z_j = 0 there); the note reports the "
              "unit-norm identity ||u||^2||w+||^2 + ||z||^2||w-||^2 = 1 - D_W^2",
    check=group_structure,
    over=asymptotic_scenarios(),
    horizon=HORIZON, rtol=RTOL, samples=SAMPLES, spacing="log",
    precondition=late_phase_reached,
    assumptions=TREND,
    assumed=("Clarke GF with relu'(0) = 0",),
)


def test_points(X: np.ndarray, count: int = TEST_POINTS) -> np.ndarray:
    """Corollary 1's fixed test set: the training points and ``count`` unit vectors of a fixed seed (0)."""
    U = np.random.default_rng(0).standard_normal((count, X.shape[1]))
    return np.vstack([X, U / np.linalg.norm(U, axis=1, keepdims=True)])


def corollary1_trend(run: Any, U: float, Z: float) -> Margin:
    """sup_x |F_t(x) - (U rho(w+^T x) - Z rho(w-^T x))| / sup_x |limit| over :func:`test_points` shrinks in envelope
    (measures.corollary1_gap). Error SAFETY * tol * (1 + gap): F = a^T rho(W x) / ||theta||^2 moves by <= 4 tol."""
    lp = late_phase(run)
    if isinstance(lp, str):
        return Margin(0.0, 0.0, lp, vacuous=True)
    a, pts = run.audit, test_points(run.X)
    gap = np.array([M.corollary1_gap(lp.smp.W[k], lp.smp.a[k], pts, a.w_plus, a.w_minus, U, Z) for k in lp.window])
    return envelope_trend(gap, lp.early, SAFETY * lp.tol * (1.0 + float(np.max(gap))),
                          f"Cor. 1 relative sup error (U = {U:.6g}, Z = {Z:.6g}, {len(pts)} points)")


@measures("worst envelope drop (early max - late max) of D_W, D_a and Corollary 1's relative sup error")
def one_group_control(run: Any) -> Margin:
    """PC5: all a_j(0) > 0, so J- is empty: (i) holds with z = 0, and Corollary 1 with U = 1/(2||w+||), Z = 0."""
    U = 1.0 / (2.0 * run.audit.w_plus_norm)
    parts = [distance_trend(run), corollary1_trend(run, U, 0.0)]
    out = worst(parts)
    return Margin(out.value, out.error, "; ".join(m.note for m in parts), vacuous=out.vacuous, ratio=out.ratio)


PC5_T1 = paper_claim(
    id="PC5-T1",
    node="T1", uses=T1_USES + ("C1",),
    source="sheet 5.6 PC5 (all a_j(0) of one sign, allowed by the paper's init; must not be flagged)",
    statement="With all a_j(0) > 0 (J- empty): D_W, D_a with z = 0 shrink, and f/||theta||^2 -> rho(w+^T x)/(2||w+||) "
              "(Corollary 1 with Z = 0): the relative sup error shrinks, as in PL-T1-i",
    check=one_group_control,
    over=asymptotic_scenarios(signs="positive"),
    horizon=HORIZON, rtol=RTOL, samples=SAMPLES, spacing="log",
    precondition=late_phase_reached,
    assumptions=TREND + ("all a_j(0) > 0 (by construction)",), assumed=PROXY,
    tags=("control",),
)

PC8_T1 = paper_claim(
    id="PC8-T1",
    node="T1", uses=T1_USES,
    source="sheet 5.6 PC8 (exponential loss, l' unbounded; same trend as logistic, must not be flagged)",
    statement="With the exponential loss l = exp(-y f): D_W and D_a shrink after T^ as in PL-T1-i",
    check=distance_trend,
    over=asymptotic_scenarios(loss="exp"),
    horizon=HORIZON, rtol=RTOL, samples=SAMPLES, spacing="log",
    precondition=late_phase_reached,
    assumptions=TREND + ("exponential loss (drops H-CE)",), assumed=PROXY,
    tags=("control",),
)


@measures("-(share of neurons outside sigma+ u sigma- u dead), error infinite (inconclusive); else (i)'s drop")
def large_init_undecided(run: Any) -> Margin:
    """PC3: with lambda >= 1, neurons stay outside sigma+ u sigma- u dead (Lemma 1 not reached): Theorem 1 at
    t -> inf is undecidable (stuck neurons may stay bounded), an inconclusive margin; else (i)'s trend."""
    lp = late_phase(run)
    if not isinstance(lp, str):
        return distance_trend(run)
    smp = M.samples(run)
    sp, sm = M.extremal_sectors(run.X, run.y)
    g = M.groups(run.X, smp.W[-1], smp.a[-1], sp, sm)
    stuck = int(np.sum(g == M.NONE))
    share = float(np.sum(smp.W[-1][g == M.NONE] ** 2) / np.sum(smp.W[-1] ** 2))
    return Margin(-stuck / g.size, math.inf, f"{lp}; {stuck}/{g.size} neurons outside sigma+ u sigma- u dead at "
                                              f"t = {smp.t[-1]:.3g} with {share:.3g} of ||W||_F^2: Theorem 1 at "
                                              f"t -> inf is undecidable here (UNKNOWN, not INVALID)")


def large_init_scenarios() -> st.SearchStrategy[Scenario]:
    """Sheet PC3: lambda in {1, 5}, p = 30, 3-d OS data (the fixture, pulled_span(3, 1, seed=4)). A small finite
    space: every example is inconclusive, and Hypothesis would otherwise keep drawing replacements."""
    return st.sampled_from([gaussian_scenario(ds, 30, lam, seed=7) for ds in (D.fixture(), pulled_span(3, 1, seed=4))
                            for lam in (1.0, 5.0)])


PC3_T1 = paper_claim(
    id="PC3-T1",
    node="T1", uses=T1_USES,
    source="sheet 5.6 PC3 (large init on OS data: T1 at t -> inf UNKNOWN, not INVALID)",
    statement="PLANTED: with lambda in {1, 5} and p = 30, neurons stay outside sigma+ u sigma- u dead through t = 1e12, so "
              "Theorem 1's limit can be neither confirmed nor refuted: expected UNKNOWN (inconclusive margins)",
    check=large_init_undecided,
    over=large_init_scenarios(),
    horizon=HORIZON, rtol=RTOL, samples=SAMPLES, spacing="log",
    precondition=theorem_hypotheses,
    expected=Verdict.UNKNOWN,
    assumptions=("H-OS (precondition: audit)", "H-SPAN (precondition: audit.span_holds)",
                 "balanced init (by construction)", "drops H-SMALL (lambda >= 1)"),
    assumed=PROXY,
    tags=("planted",),
)
