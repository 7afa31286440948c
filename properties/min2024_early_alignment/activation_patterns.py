"""Claim sheet 004, section 2.A (second part): EA-A4 monotone activation patterns, EA-A5 Lemma 12
(trapping) and EA-A6 Lemma 14 (norms grow in the cone), with the planted counterexamples P1(a),
P1(b), P5 and P10 and the negative controls P3 (large eps) and P5 (leaky ReLU).
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from properties.min2024_early_alignment import patterns as pat
from verify.claims.model import Margin, measures
from verify.data import generators as gen
from properties.min2024_early_alignment import datasets as d004
from verify.data.dataset import Dataset
from verify.model.init import balanced_init
from verify.scenarios import Scenario, scenario
from verify.verdicts import Verdict

from properties.min2024_early_alignment._shared import paper_claim
from properties.min2024_early_alignment.theorem_scale import tiny_eps_scenarios


def fixedscenario(ds: Dataset, angles: list[float], signs: list[float], log_eps: float, loss: str = "exp",
                   alpha: float = 0.0, params: dict | None = None) -> Scenario:
    """A balanced 2-D scenario with unit base rows at the given angles and the given signs."""
    W0 = np.array([[math.cos(a), math.sin(a)] for a in angles])
    init = balanced_init(len(angles), 2, log_eps=log_eps, W0=W0, signs=np.array(signs, float))
    return Scenario(ds, init, loss, alpha, {"data": ds.name, "angles": list(angles), "signs": list(signs), "log_eps": log_eps,
                                           "loss": loss, "alpha": alpha, **(params or {})})


def log_inconsistency(run) -> Margin | None:
    """A violation (error 0) when the event log disagrees with the sampled states
    (:func:`patterns.log_state_mismatches`), else None."""
    mismatches, where = pat.log_state_mismatches(run)
    if not mismatches:
        return None
    return Margin(-float(mismatches), 0.0, f"engine inconsistency: {mismatches} sampled activities disagree with the "
                                           f"event log; first {where}")


@measures("-count of bad crossings (exact), else min increment of y_i s_j <x_i, w_j> / (||x_i|| max||w_j||)")
def monotone_patterns(run) -> Margin:
    """EA-A4: every crossing of <x_i, w_j> = 0 goes in direction y_i s_j, at most once per (i, j), no sliding;
    and a_ij(t) = y_i s_j <x_i, w_j(t)> is non-decreasing between samples.

    Event part (exact bookkeeping, error 0): margin -(number of wrong / repeated / sliding records), and
    the log is checked against the states (:func:`patterns.log_state_mismatches`: activity read from the
    sampled directions beyond their error): margin -(number of mismatches).
    Sample part: min over consecutive samples of (a_ij(t_k+1) - a_ij(t_k)) / (||x_i|| max ||w_j||),
    with error 10 (rtol + engine error estimate) (the relative state error of the two samples).
    """
    audit = pat.crossing_audit(run)
    if audit.violations:
        e = (audit.wrong or audit.sliding or [None])[0]
        site = {"t": float(e.t), "i": int(e.i), "j": int(e.j)} if e is not None else dict(zip("ij", audit.repeated[0]))
        return Margin(-float(audit.violations), 0.0, audit.describe(), site=site)
    inconsistent = log_inconsistency(run)
    if inconsistent is not None:
        return inconsistent
    a, r = pat.signed_preactivations(run)
    inc = pat.monotone_increments(a, r)
    value = float(inc.min()) if inc.size else 0.0
    return Margin(value, pat.state_error(run), f"{audit.describe()}; min normalised increment {value:.3g}")


A_SCENARIOS = st.one_of(
    scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-6, 1e-1), loss="exp"),
    scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-6, 1e-1), loss="logistic2"),
    tiny_eps_scenarios(),  # theorem-scale eps: polar form, the statements hold for any eps
)

A4 = paper_claim(
    id="EA-A4",
    node="E46", uses=("A1", "INIT"),
    source="Sec. 3.3 eqs. (7)/(8), App. E.2 (monotone patterns; DER for all t via (46))",
    statement="Each crossing of <x_i, w_j> = 0 has direction y_i s_j (V+ only gains positives / loses negatives, V- the reverse), "
              "each (i, j) is crossed at most once, no sliding, and y_i s_j <x_i, w_j(t)> is non-decreasing",
    check=monotone_patterns,
    over=A_SCENARIOS,
    horizon=10.0,
    assumptions=("Assumption 1 (by construction)", "balanced init (3)", "exp or 2x logistic loss"),
    assumed=("regular Caratheodory solution (the engine freezes dead neurons)",),
)


@st.composite
def p1a_runs(draw: st.DrawFn) -> Scenario:
    """Sheet P1(a): one V+ neuron near (0.05, 1) on x1 = (1, 0), x2 = (-1.5, 3) (both +1); it loses x1."""
    theta = math.atan2(1.0, 0.05) + 0.01 * draw(st.integers(min_value=-3, max_value=3))
    k = draw(st.integers(min_value=-6, max_value=-2))
    return fixedscenario(d004.planted_p1a(), [theta], [1.0], k * math.log(10.0), params={"eps_decade": k})


P1A_A4 = paper_claim(
    id="P1a-A4-loses-positive",
    node="E46", uses=("A1", "INIT"),
    source="sheet P1(a) (Assumption 1 false; breaks EA-A4)",
    statement="PLANTED: monotone patterns on x1 = (1,0), x2 = (-1.5,3) (both +1): the V+ neuron deactivates the positive x1",
    check=monotone_patterns,
    over=p1a_runs(),
    horizon=2.0,
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1",),
    tags=("planted",),
)


@st.composite
def p1b_runs(draw: st.DrawFn) -> Scenario:
    """Sheet P1(b): x1 = (1, 0) (+1), x3 = (1, 1) (-1); a V+ neuron just above u = (1, -1)/sqrt 2 (slides on <x3, w> = 0)."""
    theta = -math.pi / 4 + 0.005 * draw(st.integers(min_value=1, max_value=6))
    k = draw(st.integers(min_value=-6, max_value=-2))
    return fixedscenario(d004.planted_p1b(), [theta], [1.0], k * math.log(10.0), params={"eps_decade": k})


P1B_A4 = paper_claim(
    id="P1b-A4-sliding",
    node="E46", uses=("A1", "INIT"),
    source="sheet P1(b) (cross-class acute pair; sliding / Zeno)",
    statement="PLANTED: monotone patterns on x1 = (1,0) (+1), x3 = (1,1) (-1): the V+ neuron slides on <x3, w> = 0",
    check=monotone_patterns,
    over=p1b_runs(),
    horizon=2.0,
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1",),
    tags=("planted",),
)


@st.composite
def p3_runs(draw: st.DrawFn) -> Scenario:
    """Sheet P3: x1 = (1, 0.2) (+1), x2 = (-1, 0.2) (-1); V+ neuron at (0, 1), V- at (-1, 0); eps = e^1.5..e^2.5."""
    ds = Dataset([[1.0, 0.2], [-1.0, 0.2]], [1.0, -1.0], name="planted_p3")
    off = 0.01 * draw(st.integers(min_value=-3, max_value=3))
    le = draw(st.sampled_from([2.0, 1.5, 2.5]))
    return fixedscenario(ds, [math.pi / 2 + off, math.pi + off], [1.0, -1.0], le, params={"offset": off})


P3_A4 = paper_claim(
    id="P3-A4-large-eps-still-monotone",
    node="E46", uses=("A1", "INIT"),
    source="sheet P3 (negative control: eps = e^2 >> eps_L3)",
    statement="With eps far above (28) and eps_L3 (lazy regime), crossings still go in direction y_i s_j and <x2, w+> decreases",
    check=monotone_patterns,
    over=p3_runs(),
    horizon=1e5,  # sheet P3: at eps = e^2 the V+ neuron still activates x2 at t = 1e5 (cos 0.120)
    form="cartesian",
    assumptions=("Assumption 1", "balanced init (3)", "eps = e^1.5..e^2.5 (drops (28))"),
    tags=("control",),
)

P5_A4 = paper_claim(
    id="P5-A4-leaky-still-monotone",
    node="E46", uses=("A1", "INIT"),
    source="sheet P5 (negative control: pattern monotonicity under leaky ReLU)",
    statement="Leaky ReLU (alpha in (0, 1]): crossings in direction y_i s_j, at most once per pair, y_i s_j <x_i, w_j> non-decreasing",
    check=monotone_patterns,
    over=scenario(n=(2, 5), d=(2, 3), h=(2, 4), eps=(1e-4, 1e-2), alpha=0.3),
    horizon=10.0,
    assumptions=("Assumption 1", "balanced init (3)", "leaky slope alpha = 0.3"),
    tags=("control",),
)


@measures("-count of crossings after trap entry (exact), else min depth c_i <x_i, u_j> / ||x_i|| after entry (cosine)")
def trapping(run) -> Margin:
    """EA-A5 (Lemma 12 (a)-(c)): once w_j is in its trapping set (S_dead; S+ if s_j = +1; S- if s_j = -1)
    it stays there.

    Event part: a crossing or sliding record of neuron j after its entry time (from the event log)
    is a violation (error 0), and so is a log that disagrees with the sampled states
    (:func:`patterns.log_state_mismatches`). Sample part: after the first sample in the trap, the depth
    min_i c_i <x_i, u_j>/||x_i|| (c_i = y_i in S+, -y_i in S-, -1 in S_dead; >= 0 inside) must stay
    >= 0, error 10 (rtol + engine error estimate) (absolute error of u_j). Vacuous if no neuron is
    ever trapped.
    """
    codes = pat.regions(run)
    entry = pat.trap_entry_index(run, codes=codes)
    if np.all(entry < 0):
        return Margin(0.0, 0.0, "no neuron entered its trapping set", vacuous=True)
    inconsistent = log_inconsistency(run)
    if inconsistent is not None:
        return inconsistent
    t_in = pat.trap_entry_time(run)
    late = [e for e in run.events if e.kind in ("activate", "deactivate", "sliding", "sliding_exit") and e.t > t_in[e.j]]
    if late:
        e = late[0]
        return Margin(-float(len(late)), 0.0, f"neuron {e.j} left its trapping set: {e.kind} of x_{e.i} at t={e.t:.6g} "
                                               f"(entered at t={t_in[e.j]:.6g})",
                      site={"t": float(e.t), "i": int(e.i), "j": int(e.j)})
    U = pat.directions(run)
    X = np.asarray(run.X)
    cos = np.matmul(X, np.swapaxes(U, -1, -2)) / np.linalg.norm(X, axis=1)[:, None]  # (k, n, h)
    depth = np.inf
    for j in np.flatnonzero(entry >= 0):
        code = codes[entry[j], j]
        c = run.y if code == pat.S_PLUS else (-run.y if code == pat.S_MINUS else -np.ones_like(run.y))
        depth = min(depth, float(np.min(c[None, :] * cos[entry[j]:, :, j])))
    trapped = int(np.sum(entry >= 0))
    return Margin(depth, pat.state_error(run), f"{trapped} neuron(s) trapped; min depth after entry {depth:.3g}")


A5 = paper_claim(
    id="EA-A5",
    node="L12", uses=("E46", "L7"),
    source="Lemma 12 (a)-(c) (R27: third bullet S-)",
    statement="(a) w_j in S_dead stays in S_dead; (b) j in V+, w_j in S+ stays in S+; (c) j in V-, w_j in S- stays in S- "
              "(from any entry time, any eps)",
    check=trapping,
    over=A_SCENARIOS,
    horizon=10.0,
    assumptions=("Assumption 1 (by construction)", "balanced init (3)", "exp or 2x logistic loss"),
    assumed=("regular solution (Definition 1): the engine freezes neurons reaching S_dead",),
)


@st.composite
def p5_dead_runs(draw: st.DrawFn) -> Scenario:
    """Sheet P5: x1 = (1, 0.5) (+1), x2 = (-1, 0.5) (-1); a V+ neuron near (0, -1), in S_dead; leaky slope alpha."""
    ds = Dataset([[1.0, 0.5], [-1.0, 0.5]], [1.0, -1.0], name="planted_p5")
    off = 0.05 * draw(st.integers(min_value=-4, max_value=4))
    alpha = draw(st.sampled_from([0.5, 0.2, 1.0]))
    k = draw(st.integers(min_value=-4, max_value=-2))
    return fixedscenario(ds, [-math.pi / 2 + off], [1.0], k * math.log(10.0), alpha=alpha, params={"offset": off, "eps_decade": k})


P5_A5A = paper_claim(
    id="P5-A5a-leaky-dead-revives",
    node="L12", uses=("E46", "L7"),
    source="sheet P5 (leaky ReLU; breaks Lemma 12 (a))",
    statement="PLANTED: under leaky ReLU the V+ neuron at (0,-1) in S_dead moves with alpha (x1 - x2) and leaves S_dead for S+",
    check=trapping,
    over=p5_dead_runs(),
    horizon=40.0,
    expected=Verdict.REFUTED,
    assumptions=("leaky slope alpha > 0 (drops ReLU)",),
    tags=("planted",),
)

P1A_A5B = paper_claim(
    id="P1a-A5b-S+-not-trapping",
    node="L12", uses=("E46", "L7"),
    source="sheet P1(a) (Assumption 1 false; breaks Lemma 12 (b))",
    statement="PLANTED: on x1 = (1,0), x2 = (-1.5,3) (both +1) the V+ neuron starts in S+ (active on both) and leaves it",
    check=trapping,
    over=p1a_runs(),
    horizon=2.0,
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1",),
    tags=("planted",),
)

P3_A5 = paper_claim(
    id="P3-A5-large-eps-still-trapping",
    node="L12", uses=("E46", "L7"),
    source="sheet P3 (negative control: Lemma 12 trapping at eps = e^2)",
    statement="With eps far above (28) and eps_L3, a neuron that reaches its trapping set still never leaves it",
    check=trapping,
    over=p3_runs(),
    horizon=1e5,
    form="cartesian",
    assumptions=("Assumption 1", "balanced init (3)", "eps = e^1.5..e^2.5 (drops (28))"),
    tags=("control",),
)


@measures("min increment of ln ||w_j|| between consecutive samples inside the cone of its sign (log-norm units)")
def norms_grow_in_cone(run) -> Margin:
    """EA-A6 (Lemma 14, per-neuron form of its proof): r_j = ln ||w_j|| is non-decreasing once w_j is in
    S+ (s_j = +1) or S- (s_j = -1).

    Margin: min over such neurons and consecutive samples after entry of r_j(t_k+1) - r_j(t_k),
    error 10 (rtol + engine error estimate) (absolute in r for polar runs, relative in ||w|| for
    Cartesian ones). Vacuous if no neuron enters the cone of its sign.
    """
    s = pat.signs(run)
    codes = pat.regions(run)
    r = pat.log_norms(run)
    inside = codes == pat.trap_code(s)[None, :]
    if not inside.any():
        return Margin(0.0, 0.0, "no neuron entered the cone of its sign", vacuous=True)
    worst, where, site, t = np.inf, "", None, pat.sample_times(run)
    for j in np.flatnonzero(inside.any(axis=0)):
        k0 = int(np.argmax(inside[:, j]))
        dr = np.diff(r[k0:, j])
        if dr.size and dr.min() < worst:
            worst, where = float(dr.min()), f"neuron {j} (in its cone from sample {k0})"
            site = {"t": float(t[k0 + 1 + int(np.argmin(dr))]), "j": int(j)}
    worst = 0.0 if worst == np.inf else worst
    return Margin(worst, pat.state_error(run), f"min increment of ln||w_j|| in the cone {worst:.3g} at {where}", site=site)


A6 = paper_claim(
    id="EA-A6",
    node="L14", uses=("T1A", "L12"),
    source="Lemma 14 (per-neuron form of its proof, App. D; sheet 7.12)",
    statement="For j in V+ with w_j in S+ (V- with S-), d/dt ||w_j||^2 = 2 sum_{I+} g_i <x_i, w_j> ||w_j|| >= 0: the norm never decreases",
    check=norms_grow_in_cone,
    over=A_SCENARIOS,
    horizon=10.0,
    assumptions=("Assumption 1 (by construction)", "balanced init (3)", "exp or 2x logistic loss"),
)


@st.composite
def p10_runs(draw: st.DrawFn) -> Scenario:
    """Sheet P10: toy4(a), one V+ neuron in S+ near x+ with f(x_i) > 1 at t = 0 (l2 loss, overshoot)."""
    a = draw(st.sampled_from([0.3, 0.2, 0.4]))
    c = draw(st.sampled_from([2.0, 1.5, 3.0]))
    phi = 0.02 * draw(st.integers(min_value=-3, max_value=3))
    return fixedscenario(d004.toy4(a), [phi], [1.0], math.log(c), loss="square", params={"a": a, "c": c})


P10_A6 = paper_claim(
    id="P10-A6-square-overshoot",
    node="L14", uses=("T1A", "L12"),
    source="sheet P10 (l2 loss after overshoot; Lemma 14 not claimed)",
    statement="PLANTED: under l2 loss a V+ neuron in S+ with y f(x_i) > 1 shrinks (g_i < 0 on its points)",
    check=norms_grow_in_cone,
    over=p10_runs(),
    horizon=1.0,
    form="cartesian",
    expected=Verdict.REFUTED,
    assumptions=("l2 loss with y f > 1 (drops g_i y_i > 0)",),
    tags=("planted",),
)
