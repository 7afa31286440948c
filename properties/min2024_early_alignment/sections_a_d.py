"""Seed 004, claim sheet sections 2.A (invariants, sign structure), 2.B (loss lemmas), 2.C
(small-init approximation: Lemmas 1, 3, 4) and 2.D (conic geometry), with the planted
counterexamples that break them (P1, P2, P3, P4, P5, P6, P8, P10) and negative controls.

Every claim returns a signed margin (>= 0 holds) with its error estimate; planted claims drop
one hypothesis and are expected to be REFUTED.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from verify import geometry
from verify.claims import patterns as pat
from verify.claims.model import Claim, Margin
from verify.data import generators as gen
from verify.data.dataset import Dataset
from verify.model.init import Initialization, balanced_init
from verify.model.losses import get_loss
from verify.scenarios import SEEDS, Scenario, datasets, scenario
from verify.strategies import GeometryCase, State, as_case, as_state, geometry_cases, polar_state, states, theorem_scale_states
from verify.verdicts import Verdict

SEED = "004"
BALANCE_TOL = 1e-9  # sheet 3.5: relative drift of exact identities under GF at rtol <= 1e-10


def _balancedness(run) -> np.ndarray:
    """c_j(t) = v_j(t)^2 - ||w_j(t)||^2 and the per-neuron scale max(v^2, ||w||^2), shape (k, h)."""
    v2 = run.v**2
    w2 = np.sum(run.W**2, axis=2)
    return v2 - w2, np.maximum(v2, w2)


def balancedness_conserved(run) -> Margin:
    """EA-A1: max_t max_j |c_j(t) - c_j(0)| / scale <= tolerance (exactly 0 under GF)."""
    c, scale = _balancedness(run)
    c0 = run.v0**2 - np.sum(run.W0**2, axis=1)
    drift = np.max(np.abs(c - c0[None]) / np.maximum(scale, np.maximum(np.abs(c0), 1e-300)[None]))
    return Margin(-float(drift), BALANCE_TOL, f"relative drift {drift:.3g}")


def balanced_stays_zero(run) -> Margin:
    """P2 negative control: c_j(t) = 0 (fails for unbalanced init, where c_j is conserved but != 0)."""
    c, scale = _balancedness(run)
    worst = float(np.max(np.abs(c) / np.maximum(scale, 1e-300)))
    return Margin(-worst, BALANCE_TOL, f"max relative |v^2 - ||w||^2| = {worst:.3g}")


def signs_preserved(run) -> Margin:
    """EA-A2: min_t s_j v_j(t) / |v_j(0)| > 0."""
    s = np.sign(run.v0)
    ratio = float(np.min(s[None] * run.v / np.abs(run.v0)[None]))
    return Margin(ratio if ratio > 0 else min(ratio, -1e-300), 0.0, f"min s_j v_j(t)/|v_j(0)| = {ratio:.3g}")


def lemma2_margin(loss_name: str):
    """EA-B1 (Lemma 2, R1): 2|yhat| - |g(y, yhat) - y| >= 0 for y in {-1, +1}, |yhat| <= 1."""
    loss = get_loss(loss_name)

    def check(point: tuple[float, float]) -> Margin:
        y, yhat = point
        lhs = abs(float(loss.g_minus_y(y, yhat)))
        return Margin(2.0 * abs(yhat) - lhs, 4e-16 * max(1.0, lhs), f"|g - y| = {lhs:.6g} at y = {y}, yhat = {yhat}")

    return check


LABELS = st.sampled_from([1.0, -1.0])
UNIT_OUTPUTS = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)

A1 = Claim(
    id="EA-A1",
    node="INIT",
    source=f"{SEED} Sec. 2.1 (balancedness, citing Du et al. 2018)",
    statement="v_j(t)^2 - ||w_j(t)||^2 = v_j(0)^2 - ||w_j(0)||^2 for all t, j (= 0 under balanced init (3))",
    check=balancedness_conserved,
    over=scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-4, 1e-1)),
    horizon=20.0,
    form="cartesian",
    rtol=1e-11,
    assumptions=("Assumption 1 (by construction)", "balanced init (3)"),
    assumed=("Caratheodory solution with sigma'(0) = 0",),
)

A1_UNBALANCED = Claim(
    id="EA-A1-unbalanced",
    node="INIT",
    source=f"{SEED} Sec. 2.1 [DER: any init]",
    statement="d/dt (v_j^2 - ||w_j||^2) = 0 for any init (conserved but nonzero when unbalanced)",
    check=balancedness_conserved,
    over=scenario(init="unbalanced", n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-3, 1e-1)),
    horizon=20.0,
    form="cartesian",
    rtol=1e-11,
    assumptions=("unbalanced Gaussian init",),
)

P2_BALANCED = Claim(
    id="P2-balanced-zero",
    node="INIT",
    source=f"{SEED} sheet P2 (unbalanced init; negative control of EA-A1)",
    statement="PLANTED: v_j(t)^2 - ||w_j(t)||^2 = 0 without the balanced init -- must be refuted",
    check=balanced_stays_zero,
    over=scenario(init="unbalanced", n=(2, 4), d=(2, 3), h=(1, 3), eps=(1e-2, 1e-1)),
    horizon=1.0,
    form="cartesian",
    expected=Verdict.REFUTED,
    assumptions=("unbalanced init (drops eq. (3))",),
)

A2 = Claim(
    id="EA-A2",
    node="INIT",
    source=f"{SEED} Sec. 2.1 (sign preservation, citing Boursier et al. 2022)",
    statement="sign(v_j(t)) = sign(v_j(0)) for all t, j under balanced init",
    check=signs_preserved,
    over=scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-4, 1e-1)),
    horizon=20.0,
    form="cartesian",
    assumptions=("balanced init (3)",),
)

B1_EXP = Claim(
    id="EA-B1-exp",
    node="L2",
    source=f"{SEED} Lemma 2 (exp loss)",
    statement="|-l'(y, yhat) - y| <= 2|yhat| for y in {-1, +1}, |yhat| <= 1, l = exp(-y yhat)",
    check=lemma2_margin("exp"),
    over=st.tuples(LABELS, UNIT_OUTPUTS),
)

B1_LOGISTIC2 = Claim(
    id="EA-B1-logistic2",
    node="L2",
    source=f"{SEED} Lemma 2 (2 x logistic loss, App. B)",
    statement="|-l'(y, yhat) - y| <= 2|yhat| for |yhat| <= 1, l = 2 log(1 + exp(-y yhat))",
    check=lemma2_margin("logistic2"),
    over=st.tuples(LABELS, UNIT_OUTPUTS),
)

P8_LEMMA2 = Claim(
    id="P8-lemma2-plain-logistic",
    node="L2",
    source=f"{SEED} Lemma 2 with the main-text logistic (sheet P8, erratum 4)",
    statement="PLANTED: |-l'(y, yhat) - y| <= 2|yhat| for l = log(1 + exp(-y yhat)) -- fails at yhat = 0",
    check=lemma2_margin("logistic"),
    over=st.tuples(LABELS, UNIT_OUTPUTS),
    expected=Verdict.REFUTED,
)


# =============================================================================================
# Sections 2.A-2.D of sheet 004: invariants and sign structure (A3-A6), loss lemmas (B2-B4),
# small-initialisation lemmas (C1-C3), static conic geometry (D1-D7), with the planted cases of
# sheet section 5 that belong to them and the negative controls the sheet says must still hold.
# Shared measurements live in verify.claims.patterns.
# =============================================================================================


U_ROUND = pat.UNIT_ROUNDOFF
STRICT_TINY = -1e-300  # margin of a strict inequality whose exact value is 0


# ---------------------------------------------------------------------------------- EA-A3


def eq46_margin(strict_everywhere: bool = False):
    """EA-A3, eq. (46): q_ij = y_i s_j <x_i, F_{w_j}> > 0 if n_a(w_j) >= 1, and = 0 if n_a(w_j) = 0.

    Margin: min_ij q_ij / Q_ij with Q_ij = |v_j| sum_k S_kj |g_k| ||x_i|| ||x_k|| (so it lies in
    [-1, 1]); float error 4 n u (u the unit roundoff). Strict: a float value within the error
    of 0 is decided by the exact rational sign of y_i sum_k S_kj g_k <x_i, x_k> (the formula on
    the computed g), and an exact value <= 0 gives a negative margin with error 0. Dead neurons
    (no active point, alpha = 0) must have q = 0 exactly. ``strict_everywhere``: leaky control
    (P5), every neuron counts as live.
    """

    def check(state: State) -> Margin:
        state = as_state(state)
        fo = state.field
        W, v = state.W, state.v
        P = fo.X @ W.T
        S = fo.mode(P)
        q = pat.flow_inner_products(fo, W, v, S)
        Q = pat.flow_inner_product_scale(fo, W, v, S)
        live = np.ones(W.shape[0], bool) if strict_everywhere else np.any(P > 0.0, axis=0)
        if np.any(q[:, ~live] != 0.0):
            return Margin(-float(np.max(np.abs(q[:, ~live]))), 0.0, "a dead neuron has a nonzero flow component")
        if not live.any():
            return Margin(0.0, 0.0, "every neuron dead: q = 0 exactly", vacuous=True)
        ratio = q[:, live] / Q[:, live]
        err = 4.0 * fo.n * U_ROUND
        value = float(ratio.min())
        note = f"min q_ij/Q_ij = {value:.3g} over {int(live.sum())} live neuron(s)"
        if value <= err:
            g = fo.loss.g(fo.y, (P * S) @ v)
            for jj, j in enumerate(np.flatnonzero(live)):
                if ratio[:, jj].min() > err:
                    continue
                signs_exact = pat.exact_signed_gram_signs(fo.X, fo.y, S[:, j] * g * fo.y)
                if np.any(signs_exact <= 0):
                    i = int(np.flatnonzero(signs_exact <= 0)[0])
                    return Margin(min(float(ratio[i, jj]), STRICT_TINY), 0.0 if ratio[i, jj] > -err else err,
                                  f"exact sign of q_{i}{j} is {int(signs_exact[i])} (neuron active on some point); {note}")
            value = max(value, 0.0)
        return Margin(value, err, note)

    return check


@st.composite
def p1a_states(draw: st.DrawFn) -> State:
    """Sheet P1(a): x1 = (1, 0), x2 = (-1.5, 3) (both +1); a V+ neuron near (0.05, 1) activating both."""
    ds = gen.planted_p1a()
    theta = math.atan2(1.0, 0.05) + 0.01 * draw(st.integers(min_value=-3, max_value=3))
    k = draw(st.integers(min_value=-3, max_value=0))
    r = np.array([k * math.log(10.0)])
    U = np.array([[math.cos(theta), math.sin(theta)]])
    return polar_state(ds, r, U, np.array([1.0]), "exp", 0.0, {"data": "planted_p1a", "theta": theta, "scale_decade": k})


@st.composite
def p10_states(draw: st.DrawFn) -> State:
    """Sheet P10: toy4(a) and one V+ neuron near x+ = (2 cos a, 0), norm c with c^2 cos(a) > 1 (overshoot), l2 loss."""
    a = draw(st.sampled_from([0.2, 0.3, 0.4]))
    c = draw(st.sampled_from([1.5, 2.0, 3.0]))
    phi = 0.02 * draw(st.integers(min_value=-3, max_value=3))
    U = np.array([[math.cos(phi), math.sin(phi)]])
    return polar_state(gen.toy4(a), np.array([math.log(c)]), U, np.array([1.0]), "square", 0.0, {"data": "toy4", "a": a, "c": c, "phi": phi})


A3 = Claim(
    id="EA-A3",
    node="E46", uses=("A1", "INIT"),
    source=f"{SEED} eq. (46), App. E.2/E.5 (reading R21)",
    statement="y_i sign(v_j) <x_i, F_{w_j}(W, v)> > 0 whenever w_j is not in S_dead, = 0 when it is (F = -grad, any (W, v))",
    check=eq46_margin(),
    over=states(),
    assumptions=("Assumption 1 (by construction)", "exp or 2x logistic loss (g_k y_k > 0)"),
    assumed=("sigma'(0) = 0",),
    tags=("pointwise",),
)

P1A_A3 = Claim(
    id="P1a-A3-same-label-obtuse",
    node="E46", uses=("A1", "INIT"),
    source=f"{SEED} sheet P1(a) (Assumption 1 false; breaks eq. (46))",
    statement="PLANTED: eq. (46) on x1 = (1,0), x2 = (-1.5,3) (both +1, mu < 0): y_1 <x1, w_dot> < 0 for a neuron active on both",
    check=eq46_margin(),
    over=p1a_states(),
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1 (same-label obtuse pair)",),
    tags=("pointwise", "planted"),
)

P10_A3 = Claim(
    id="P10-A3-square-overshoot",
    node="E46", uses=("A1", "INIT"),
    source=f"{SEED} sheet P10 (l2 loss after overshoot; Remark 4 scope)",
    statement="PLANTED: eq. (46) under l2 loss once y_i f(x_i) > 1 (g_i y_i < 0): the S+ neuron is repelled by its points",
    check=eq46_margin(),
    over=p10_states(),
    expected=Verdict.REFUTED,
    assumptions=("l2 loss with y f > 1 (drops g_k y_k > 0)",),
    tags=("pointwise", "planted"),
)

P5_A3 = Claim(
    id="P5-A3-leaky-strictly-positive",
    node="E46", uses=("A1", "INIT"),
    source=f"{SEED} sheet P5 (negative control: (46) under leaky ReLU)",
    statement="Leaky ReLU, alpha in (0, 1]: y_i sign(v_j) <x_i, F_{w_j}> > 0 for EVERY neuron, dead-pattern ones included",
    check=eq46_margin(strict_everywhere=True),
    over=states(alphas=(0.1, 0.5, 1.0)),
    assumptions=("Assumption 1", "leaky slope alpha > 0"),
    tags=("pointwise", "control"),
)


# ---------------------------------------------------------------------------------- EA-A4..A6


def fixedscenario(ds: Dataset, angles: list[float], signs: list[float], log_eps: float, loss: str = "exp",
                   alpha: float = 0.0, params: dict | None = None) -> Scenario:
    """A balanced 2-D scenario with unit base rows at the given angles and the given signs."""
    W0 = np.array([[math.cos(a), math.sin(a)] for a in angles])
    init = balanced_init(len(angles), 2, log_eps=log_eps, W0=W0, signs=np.array(signs, float))
    return Scenario(ds, init, loss, alpha, {"data": ds.name, "angles": list(angles), "signs": list(signs), "log_eps": log_eps,
                                           "loss": loss, "alpha": alpha, **(params or {})})


def monotone_patterns(run) -> Margin:
    """EA-A4: every crossing of <x_i, w_j> = 0 goes in direction y_i s_j, at most once per (i, j), no sliding;
    and a_ij(t) = y_i s_j <x_i, w_j(t)> is non-decreasing between samples.

    Event part (exact bookkeeping, error 0): margin -(number of wrong / repeated / sliding records).
    Sample part: min over consecutive samples of (a_ij(t_k+1) - a_ij(t_k)) / (||x_i|| max ||w_j||),
    with error 10 (rtol + engine error estimate) (the relative state error of the two samples).
    """
    audit = pat.crossing_audit(run)
    if audit.violations:
        return Margin(-float(audit.violations), 0.0, audit.describe())
    a, r = pat.signed_preactivations(run)
    inc = pat.monotone_increments(a, r)
    value = float(inc.min()) if inc.size else 0.0
    return Margin(value, pat.state_error(run), f"{audit.describe()}; min normalised increment {value:.3g}")


def trapping(run) -> Margin:
    """EA-A5 (Lemma 12 (a)-(c)): once w_j is in its trapping set (S_dead; S+ if s_j = +1; S- if s_j = -1)
    it stays there.

    Event part: a crossing or sliding record of neuron j after its entry time (from the event log)
    is a violation (error 0). Sample part: after the first sample in the trap, the depth
    min_i c_i <x_i, u_j>/||x_i|| (c_i = y_i in S+, -y_i in S-, -1 in S_dead; >= 0 inside) must stay
    >= 0, error 10 (rtol + engine error estimate) (absolute error of u_j). Vacuous if no neuron is
    ever trapped.
    """
    codes = pat.regions(run)
    entry = pat.trap_entry_index(run, codes=codes)
    if np.all(entry < 0):
        return Margin(0.0, 0.0, "no neuron entered its trapping set", vacuous=True)
    t_in = pat.trap_entry_time(run)
    late = [e for e in run.events if e.kind in ("activate", "deactivate", "sliding", "sliding_exit") and e.t > t_in[e.j]]
    if late:
        e = late[0]
        return Margin(-float(len(late)), 0.0, f"neuron {e.j} left its trapping set: {e.kind} of x_{e.i} at t={e.t:.6g} "
                                               f"(entered at t={t_in[e.j]:.6g})")
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
    worst, where = np.inf, ""
    for j in np.flatnonzero(inside.any(axis=0)):
        k0 = int(np.argmax(inside[:, j]))
        dr = np.diff(r[k0:, j])
        if dr.size and dr.min() < worst:
            worst, where = float(dr.min()), f"neuron {j} (in its cone from sample {k0})"
    worst = 0.0 if worst == np.inf else worst
    return Margin(worst, pat.state_error(run), f"min increment of ln||w_j|| in the cone {worst:.3g} at {where}")


@st.composite
def tiny_eps_scenarios(draw: st.DrawFn) -> Scenario:
    """Balanced scenarios at theorem-scale eps 10^-k, k in {100, 300, 1000} (polar form; f underflows float64)."""
    base = draw(scenario(n=(2, 5), d=(2, 3), h=(2, 4), eps=(1e-4, 1e-2)))
    k = draw(st.sampled_from([300, 100, 1000]))
    init = base.init
    le = -k * math.log(10.0)
    return Scenario(base.dataset, Initialization(init.W0, init.v0, le, init.kind), base.loss, base.alpha, {**base.params, "log_eps": le})


A_SCENARIOS = st.one_of(
    scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-6, 1e-1), loss="exp"),
    scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-6, 1e-1), loss="logistic2"),
    tiny_eps_scenarios(),  # theorem-scale eps: polar form, the statements hold for any eps
)


@st.composite
def p1a_runs(draw: st.DrawFn) -> Scenario:
    """Sheet P1(a): one V+ neuron near (0.05, 1) on x1 = (1, 0), x2 = (-1.5, 3) (both +1); it loses x1."""
    theta = math.atan2(1.0, 0.05) + 0.01 * draw(st.integers(min_value=-3, max_value=3))
    k = draw(st.integers(min_value=-6, max_value=-2))
    return fixedscenario(gen.planted_p1a(), [theta], [1.0], k * math.log(10.0), params={"eps_decade": k})


@st.composite
def p1b_runs(draw: st.DrawFn) -> Scenario:
    """Sheet P1(b): x1 = (1, 0) (+1), x3 = (1, 1) (-1); a V+ neuron just above u = (1, -1)/sqrt 2 (slides on <x3, w> = 0)."""
    theta = -math.pi / 4 + 0.005 * draw(st.integers(min_value=1, max_value=6))
    k = draw(st.integers(min_value=-6, max_value=-2))
    return fixedscenario(gen.planted_p1b(), [theta], [1.0], k * math.log(10.0), params={"eps_decade": k})


@st.composite
def p3_runs(draw: st.DrawFn) -> Scenario:
    """Sheet P3: x1 = (1, 0.2) (+1), x2 = (-1, 0.2) (-1); V+ neuron at (0, 1), V- at (-1, 0); eps = e^1.5..e^2.5."""
    ds = Dataset([[1.0, 0.2], [-1.0, 0.2]], [1.0, -1.0], name="planted_p3")
    off = 0.01 * draw(st.integers(min_value=-3, max_value=3))
    le = draw(st.sampled_from([2.0, 1.5, 2.5]))
    return fixedscenario(ds, [math.pi / 2 + off, math.pi + off], [1.0, -1.0], le, params={"offset": off})


@st.composite
def p5_dead_runs(draw: st.DrawFn) -> Scenario:
    """Sheet P5: x1 = (1, 0.5) (+1), x2 = (-1, 0.5) (-1); a V+ neuron near (0, -1), in S_dead; leaky slope alpha."""
    ds = Dataset([[1.0, 0.5], [-1.0, 0.5]], [1.0, -1.0], name="planted_p5")
    off = 0.05 * draw(st.integers(min_value=-4, max_value=4))
    alpha = draw(st.sampled_from([0.5, 0.2, 1.0]))
    k = draw(st.integers(min_value=-4, max_value=-2))
    return fixedscenario(ds, [-math.pi / 2 + off], [1.0], k * math.log(10.0), alpha=alpha, params={"offset": off, "eps_decade": k})


@st.composite
def p10_runs(draw: st.DrawFn) -> Scenario:
    """Sheet P10: toy4(a), one V+ neuron in S+ near x+ with f(x_i) > 1 at t = 0 (l2 loss, overshoot)."""
    a = draw(st.sampled_from([0.3, 0.2, 0.4]))
    c = draw(st.sampled_from([2.0, 1.5, 3.0]))
    phi = 0.02 * draw(st.integers(min_value=-3, max_value=3))
    return fixedscenario(gen.toy4(a), [phi], [1.0], math.log(c), loss="square", params={"a": a, "c": c})


A4 = Claim(
    id="EA-A4",
    node="E46", uses=("A1", "INIT"),
    source=f"{SEED} Sec. 3.3 eqs. (7)/(8), App. E.2 (monotone patterns; DER for all t via (46))",
    statement="Each crossing of <x_i, w_j> = 0 has direction y_i s_j (V+ only gains positives / loses negatives, V- the reverse), "
              "each (i, j) is crossed at most once, no sliding, and y_i s_j <x_i, w_j(t)> is non-decreasing",
    check=monotone_patterns,
    over=A_SCENARIOS,
    horizon=10.0,
    assumptions=("Assumption 1 (by construction)", "balanced init (3)", "exp or 2x logistic loss"),
    assumed=("regular Caratheodory solution (the engine freezes dead neurons)",),
)

P1A_A4 = Claim(
    id="P1a-A4-loses-positive",
    node="E46", uses=("A1", "INIT"),
    source=f"{SEED} sheet P1(a) (Assumption 1 false; breaks EA-A4)",
    statement="PLANTED: monotone patterns on x1 = (1,0), x2 = (-1.5,3) (both +1): the V+ neuron deactivates the positive x1",
    check=monotone_patterns,
    over=p1a_runs(),
    horizon=2.0,
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1",),
    tags=("planted",),
)

P1B_A4 = Claim(
    id="P1b-A4-sliding",
    node="E46", uses=("A1", "INIT"),
    source=f"{SEED} sheet P1(b) (cross-class acute pair; sliding / Zeno)",
    statement="PLANTED: monotone patterns on x1 = (1,0) (+1), x3 = (1,1) (-1): the V+ neuron slides on <x3, w> = 0",
    check=monotone_patterns,
    over=p1b_runs(),
    horizon=2.0,
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1",),
    tags=("planted",),
)

P3_A4 = Claim(
    id="P3-A4-large-eps-still-monotone",
    node="E46", uses=("A1", "INIT"),
    source=f"{SEED} sheet P3 (negative control: eps = e^2 >> eps_L3)",
    statement="With eps far above (28) and eps_L3 (lazy regime), crossings still go in direction y_i s_j and <x2, w+> decreases",
    check=monotone_patterns,
    over=p3_runs(),
    horizon=1e5,  # sheet P3: at eps = e^2 the V+ neuron still activates x2 at t = 1e5 (cos 0.120)
    form="cartesian",
    assumptions=("Assumption 1", "balanced init (3)", "eps = e^1.5..e^2.5 (drops (28))"),
    tags=("control",),
)

P3_A5 = Claim(
    id="P3-A5-large-eps-still-trapping",
    node="L12", uses=("E46", "L7"),
    source=f"{SEED} sheet P3 (negative control: Lemma 12 trapping at eps = e^2)",
    statement="With eps far above (28) and eps_L3, a neuron that reaches its trapping set still never leaves it",
    check=trapping,
    over=p3_runs(),
    horizon=1e5,
    form="cartesian",
    assumptions=("Assumption 1", "balanced init (3)", "eps = e^1.5..e^2.5 (drops (28))"),
    tags=("control",),
)

P5_A4 = Claim(
    id="P5-A4-leaky-still-monotone",
    node="E46", uses=("A1", "INIT"),
    source=f"{SEED} sheet P5 (negative control: pattern monotonicity under leaky ReLU)",
    statement="Leaky ReLU (alpha in (0, 1]): crossings in direction y_i s_j, at most once per pair, y_i s_j <x_i, w_j> non-decreasing",
    check=monotone_patterns,
    over=scenario(n=(2, 5), d=(2, 3), h=(2, 4), eps=(1e-4, 1e-2), alpha=0.3),
    horizon=10.0,
    assumptions=("Assumption 1", "balanced init (3)", "leaky slope alpha = 0.3"),
    tags=("control",),
)

A5 = Claim(
    id="EA-A5",
    node="L12", uses=("E46", "L7"),
    source=f"{SEED} Lemma 12 (a)-(c) (R27: third bullet S-)",
    statement="(a) w_j in S_dead stays in S_dead; (b) j in V+, w_j in S+ stays in S+; (c) j in V-, w_j in S- stays in S- "
              "(from any entry time, any eps)",
    check=trapping,
    over=A_SCENARIOS,
    horizon=10.0,
    assumptions=("Assumption 1 (by construction)", "balanced init (3)", "exp or 2x logistic loss"),
    assumed=("regular solution (Definition 1): the engine freezes neurons reaching S_dead",),
)

P5_A5A = Claim(
    id="P5-A5a-leaky-dead-revives",
    node="L12", uses=("E46", "L7"),
    source=f"{SEED} sheet P5 (leaky ReLU; breaks Lemma 12 (a))",
    statement="PLANTED: under leaky ReLU the V+ neuron at (0,-1) in S_dead moves with alpha (x1 - x2) and leaves S_dead for S+",
    check=trapping,
    over=p5_dead_runs(),
    horizon=40.0,
    expected=Verdict.REFUTED,
    assumptions=("leaky slope alpha > 0 (drops ReLU)",),
    tags=("planted",),
)

P1A_A5B = Claim(
    id="P1a-A5b-S+-not-trapping",
    node="L12", uses=("E46", "L7"),
    source=f"{SEED} sheet P1(a) (Assumption 1 false; breaks Lemma 12 (b))",
    statement="PLANTED: on x1 = (1,0), x2 = (-1.5,3) (both +1) the V+ neuron starts in S+ (active on both) and leaves it",
    check=trapping,
    over=p1a_runs(),
    horizon=2.0,
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1",),
    tags=("planted",),
)

A6 = Claim(
    id="EA-A6",
    node="L14", uses=("T1A", "L12"),
    source=f"{SEED} Lemma 14 (per-neuron form of its proof, App. D; sheet 7.12)",
    statement="For j in V+ with w_j in S+ (V- with S-), d/dt ||w_j||^2 = 2 sum_{I+} g_i <x_i, w_j> ||w_j|| >= 0: the norm never decreases",
    check=norms_grow_in_cone,
    over=A_SCENARIOS,
    horizon=10.0,
    assumptions=("Assumption 1 (by construction)", "balanced init (3)", "exp or 2x logistic loss"),
)

P10_A6 = Claim(
    id="P10-A6-square-overshoot",
    node="L14", uses=("T1A", "L12"),
    source=f"{SEED} sheet P10 (l2 loss after overshoot; Lemma 14 not claimed)",
    statement="PLANTED: under l2 loss a V+ neuron in S+ with y f(x_i) > 1 shrinks (g_i < 0 on its points)",
    check=norms_grow_in_cone,
    over=p10_runs(),
    horizon=1.0,
    form="cartesian",
    expected=Verdict.REFUTED,
    assumptions=("l2 loss with y f > 1 (drops g_i y_i > 0)",),
    tags=("planted",),
)


# ---------------------------------------------------------------------------------- EA-B2..B4


def eq40_margin(point: tuple[str, float, float]) -> Margin:
    """EA-B2 (eq. (40)): |yhat| <= 1/4 implies 1/2 <= y g(y, yhat) <= 3/2 (g = -l'); margin min(yg - 1/2, 3/2 - yg), error 4u."""
    loss_name, y, yhat = point
    yg = float(y * get_loss(loss_name).g(y, yhat))
    return Margin(min(yg - 0.5, 1.5 - yg), 4.0 * U_ROUND * max(1.0, abs(yg)), f"y g = {yg:.6g} at y = {y}, yhat = {yhat} ({loss_name})")


QUARTER_OUTPUTS = st.floats(min_value=-0.25, max_value=0.25, allow_nan=False)

B2 = Claim(
    id="EA-B2",
    node="E40", uses=("L2",),
    source=f"{SEED} eq. (40), App. D.2 (from Lemma 2)",
    statement="If |f(x_i)| <= 1/4 then 1/2 <= y_i g_i <= 3/2 (g_i = -l'(y_i, f(x_i))), for exp and 2x logistic",
    check=eq40_margin,
    over=st.tuples(st.sampled_from(["exp", "logistic2"]), LABELS, QUARTER_OUTPUTS),
    tags=("pointwise",),
)

P8_B2 = Claim(
    id="P8-B2-plain-logistic",
    node="E40", uses=("L2",),
    source=f"{SEED} eq. (40) with the main-text logistic (sheet P8, erratum 4)",
    statement="PLANTED: 1/2 <= y g <= 3/2 on |yhat| <= 1/4 for l = log(1 + exp(-y yhat)) -- y g = 1/(1 + e^{y yhat}) < 1/2 for y yhat > 0",
    check=eq40_margin,
    over=st.tuples(st.just("logistic"), LABELS, QUARTER_OUTPUTS),
    expected=Verdict.REFUTED,
    tags=("pointwise", "planted"),
)


def lemma15_margin(run) -> Margin:
    """EA-B3 (Lemma 15, (31)): along GF of a linear two-layer network (alpha = 1), at every sample with
    y_i f(x_i) > 0 for all i: -L_dot = ||F||^2 >= (1/4) ||v||^2 L^2 gamma^2.

    gamma = min_i y_i <z, x_i> for the witness z = x_0/||x_0|| (the generator's support vector
    along the teacher). Margin min_t (||F||^2 - (1/4)||v||^2 L^2 gamma^2)/||F||^2: the
    inequality is pointwise in the state, so only float error counts (16 n u). Vacuous when no
    sample has all margins positive.
    """
    fo = run.field
    X, y = fo.X, fo.y
    z = y[0] * X[0] / np.linalg.norm(X[0])
    gamma = float(np.min(y * (X @ z)))
    if gamma <= 0.0:
        return Margin(0.0, 0.0, "witness has no positive margin", vacuous=True)
    worst, count = np.inf, 0
    for W, v in zip(run.W, run.v):
        S = np.ones((fo.n, W.shape[0]))
        f = (X @ W.T) @ v
        if np.any(y * f <= 0.0):
            continue
        count += 1
        Wdot, vdot = fo.cartesian(W, v, S)
        F2 = float(np.sum(Wdot**2) + np.sum(vdot**2))
        L = fo.loss.total(y, f)
        rhs = 0.25 * float(v @ v) * L * L * gamma * gamma
        worst = min(worst, (F2 - rhs) / F2 if F2 > 0.0 else (0.0 if rhs == 0.0 else -1.0))
    if count == 0:
        return Margin(0.0, 0.0, "no sample with all margins y_i f(x_i) > 0", vacuous=True)
    return Margin(float(worst), 16.0 * fo.n * U_ROUND, f"{count} sample(s) with positive margins; min relative slack {worst:.3g}; gamma {gamma:.3g}")


B3 = Claim(
    id="EA-B3",
    node="L15", uses=("L2",),
    source=f"{SEED} Lemma 15 (eq. (31)), App. D.2",
    statement="GF on a linear two-layer network, data separable with margin gamma: while all y_i f(x_i) > 0, "
              "L_dot <= -(1/4) ||v||^2 L^2 gamma^2",
    check=lemma15_margin,
    over=st.one_of(
        scenario(data="linearly_separable", n=(2, 6), d=(2, 3), h=(1, 4), eps=(1e-2, 1e-1), loss="exp", alpha=1.0),
        scenario(data="linearly_separable", n=(2, 6), d=(2, 3), h=(1, 4), eps=(1e-2, 1e-1), loss="logistic2", alpha=1.0),
    ),
    horizon=30.0,
    form="cartesian",
    assumptions=("linear network (leaky slope alpha = 1)", "data linearly separable through 0 (generator witness)", "exp or 2x logistic loss"),
)


def e5_growth_margin(state: State) -> Margin:
    """EA-B4 (App. E.5, (50)): ||grad L(theta)||_F <= X_max L(theta) ||theta||_F at any theta = (W, v).

    Margin (X_max L ||theta|| - ||F||) / (X_max L ||theta||), F the field in the current mode;
    float error 16 n u.
    """
    state = as_state(state)
    fo = state.field
    W, v = state.W, state.v
    S = fo.mode(fo.X @ W.T)
    Wdot, vdot = fo.cartesian(W, v, S)
    grad = math.sqrt(float(np.sum(Wdot**2) + np.sum(vdot**2)))
    L = fo.loss.total(fo.y, fo.outputs(W, v, S))
    theta = math.sqrt(float(np.sum(W**2) + np.sum(v**2)))
    bound = float(np.max(fo.norms)) * L * theta
    return Margin((bound - grad) / bound, 16.0 * fo.n * U_ROUND, f"||grad|| = {grad:.6g} vs X_max L ||theta|| = {bound:.6g}")


B4 = Claim(
    id="EA-B4",
    node="EXIST", uses=("A1",),
    source=f"{SEED} App. E.5, eq. (50) (reading R22)",
    statement="||grad L(theta)||_F <= X_max L(theta) ||theta||_F for every theta (balanced or not), exp and 2x logistic",
    check=e5_growth_margin,
    over=states(scale_decades=(-2, 0)),
    assumptions=("exp or 2x logistic loss (|l'| <= l)",),
    tags=("pointwise",),
)


# ---------------------------------------------------------------------------------- EA-C1..C3


def lemma3_hypotheses(run) -> bool | str:
    """Lemmas 1 and 3 need T(eps) > 0 (sqrt(h) eps < 1) and eps <= eps_L3 = 1/(4 sqrt(h) X_max W_max^2)."""
    a = run.audit
    if a.T_eps is None or a.T_eps <= 0.0:
        return "T(eps) <= 0 (sqrt(h) eps >= 1): Lemmas 1/3 vacuous"
    if a.log_eps_L3 is None or run.log_eps > a.log_eps_L3:
        return f"eps = exp({run.log_eps:.4g}) > eps_L3 = exp({a.log_eps_L3:.4g})"
    return True


def lemma3_horizon(scenario: Scenario, report) -> float | None:
    """T(eps) = ln(1/(sqrt(h) eps))/(4 n X_max) (None when <= 0)."""
    return report.T_eps if report.T_eps is not None and report.T_eps > 0.0 else None


def lemma3_margin(run) -> Margin:
    """EA-C1 (Lemma 3, (10)) in log space, at every sample t <= T(eps):
    2 max_j r_j(t) <= ln(2 eps W_max^2/sqrt(h)) and max_i ln|f(x_i)| <= ln(2 eps sqrt(h) X_max W_max^2).

    Margin: the smaller log-slack (ln bound - ln lhs); f is summed by a signed log-sum-exp of
    s_j exp(2 r_j) sigma(<u_j, x_i>), finite for any eps. Error 2 x 10 (rtol + engine error
    estimate) (absolute error of r, doubled) + 1e-12 (log rounding).
    """
    a = run.audit
    fo = run.field
    le, h = run.log_eps, run.init.h
    log_w_bound = math.log(2.0) + le + 2.0 * math.log(a.W_max) - 0.5 * math.log(h)
    log_f_bound = math.log(2.0) + le + 0.5 * math.log(h) + math.log(a.X_max) + 2.0 * math.log(a.W_max)
    t = pat.sample_times(run)
    U, r = pat.directions(run), pat.log_norms(run)
    s = pat.signs(run)
    keep = t <= a.T_eps * (1.0 + 1e-12)
    slack_w = float(np.min(log_w_bound - 2.0 * r[keep].max(axis=1)))
    log_f = np.array([pat.log_abs_outputs(fo, r[k], U[k], s).max() for k in np.flatnonzero(keep)])
    slack_f = float(np.min(log_f_bound - log_f))
    value = min(slack_w, slack_f)
    err = 2.0 * pat.state_error(run) + 1e-12
    return Margin(value, err, f"log-slack ||w||^2: {slack_w:.4g}, |f|: {slack_f:.4g} (eps = exp({le:.4g}), T = {a.T_eps:.4g})")


C1 = Claim(
    id="EA-C1",
    node="L3", uses=("INIT", "L2"),
    source=f"{SEED} Lemma 3, eq. (10) (reading R5)",
    statement="If eps <= 1/(4 sqrt(h) X_max W_max^2), then for t <= T = ln(1/(sqrt(h) eps))/(4 n X_max): "
              "max_j ||w_j||^2 <= 2 eps W_max^2/sqrt(h) and max_i |f(x_i)| <= 2 eps sqrt(h) X_max W_max^2",
    check=lemma3_margin,
    over=st.one_of(
        scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-10, 1e-2), loss="exp"),
        scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-10, 1e-2), loss="logistic2"),
        tiny_eps_scenarios(),
    ),
    horizon=lemma3_horizon,
    precondition=lemma3_hypotheses,
    assumptions=("eps <= eps_L3 and T(eps) > 0 (precondition)", "balanced init (3)", "loss satisfying Lemma 2"),
)


def lemma4_margin(xa_alpha: float | None = None):
    """EA-C2 (Lemma 4, (11)) at a balanced state with max_i |f(x_i)| <= 1:
    || d/dt u_j - s_j P_{u_j} x_a(u_j) || <= 2 n X_max max_i |f(x_i)| for every j.

    d/dt u_j is the exact polar field (sheet 1.11) at the state; x_a uses the field's slope
    (``xa_alpha`` overrides it: planted P5 evaluates a leaky field with the ReLU x_a).
    Margin (B - max_j LHS_j)/B, B = 2 n X_max max|f|; error = the float bound of the LHS
    (16 n u sum_i (|g_i| + 1) ||x_i||) over B. Vacuous if max|f| > 1 or f = 0 with LHS = 0.
    """

    def check(state: State) -> Margin:
        state = as_state(state)
        fo = state.field
        f = fo.polar_outputs(state.r, state.U, state.s)
        fmax = float(np.max(np.abs(f)))
        if fmax > 1.0:
            return Margin(0.0, 0.0, "max|f| > 1: Lemma 4 does not apply", vacuous=True)
        lhs = float(np.max(pat.direction_field_error(fo, state.r, state.U, state.s, xa_alpha)))
        rounding = pat.direction_field_rounding(fo, state.r, state.U, state.s)
        bound = 2.0 * fo.n * float(np.max(fo.norms)) * fmax
        note = f"LHS {lhs:.4g} vs 2 n X_max max|f| = {bound:.4g}"
        if bound == 0.0:
            return Margin(-lhs, rounding, note) if lhs > rounding else Margin(0.0, 0.0, note + " (f = 0)", vacuous=True)
        return Margin((bound - lhs) / bound, rounding / bound, note)

    return check


C2_STATES = states(h=(1, 5), balanced=(True,), f_decades=(0, 8))

C2 = Claim(
    id="EA-C2",
    node="L4", uses=("L2",),
    source=f"{SEED} Lemma 4, eq. (11)",
    statement="At any balanced state with max_i |f(x_i)| <= 1: || d/dt(w_j/||w_j||) - sign(v_j) P_{w_j} x_a(w_j) || <= 2 n X_max max_i |f(x_i)|",
    check=lemma4_margin(),
    over=C2_STATES,
    assumptions=("balanced state", "max|f| <= 1", "exp or 2x logistic loss (Lemma 2)"),
    tags=("pointwise",),
)

P8_C2 = Claim(
    id="P8-C2-plain-logistic",
    node="L4", uses=("L2",),
    source=f"{SEED} Lemma 4 with the main-text logistic (sheet P8)",
    statement="PLANTED: Lemma 4 for l = log(1 + exp(-y yhat)): the small-f direction field is (1/2) s_j P x_a, error ~ (1/2)||P x_a||",
    check=lemma4_margin(),
    over=states(h=(1, 5), balanced=(True,), f_decades=(0, 8), losses=("logistic",)),
    expected=Verdict.REFUTED,
    assumptions=("plain logistic loss (drops Lemma 2)",),
    tags=("pointwise", "planted"),
)

P5_C2_RELU = Claim(
    id="P5-C2-leaky-with-relu-xa",
    node="L4", uses=("L2",),
    source=f"{SEED} sheet P5 (leaky field, ReLU x_a)",
    statement="PLANTED: Lemma 4 for a leaky network evaluated with the ReLU x_a: error ~ alpha ||P sum_{inactive} y_i x_i||",
    check=lemma4_margin(xa_alpha=0.0),
    over=states(h=(1, 5), balanced=(True,), f_decades=(0, 8), alphas=(0.5, 0.2, 1.0)),
    expected=Verdict.REFUTED,
    assumptions=("leaky slope alpha > 0, x_a without the alpha term (wrong x_a)",),
    tags=("pointwise", "planted"),
)

P5_C2 = Claim(
    id="P5-C2-leaky-xa-alpha",
    node="L4", uses=("L2",),
    source=f"{SEED} sheet P5 (negative control: Lemma 4 with the leaky x_a, reading R4)",
    statement="Leaky ReLU with x_a(w) = sum_i sigma'(<x_i, w>) y_i x_i: Lemma 4's bound still holds",
    check=lemma4_margin(),
    over=states(h=(1, 5), balanced=(True,), f_decades=(0, 8), alphas=(0.5, 0.2, 1.0)),
    assumptions=("balanced state", "max|f| <= 1", "leaky slope alpha with the matching x_a"),
    tags=("pointwise", "control"),
)


def lemma1_margin(run) -> Margin:
    """EA-C3 (Lemma 1, (9)) along the trajectory, at every sample t <= T(eps):
    || d/dt u_j - s_j P_{u_j} x_a(u_j) || <= B1 = 4 eps n sqrt(h) X_max^2 W_max^2.

    The LHS is the exact polar field at the sampled state (never a finite difference). Margin
    (B1 - max LHS)/B1; error (float bound of the LHS + 4 x state error x LHS)/B1 (the LHS
    scales like f ~ exp(2 r), so a state error delta in r moves it by about 2 delta relative).
    """
    a = run.audit
    fo = run.field
    le, h = run.log_eps, run.init.h
    log_b1 = math.log(4.0) + le + math.log(fo.n) + 0.5 * math.log(h) + 2.0 * math.log(a.X_max) + 2.0 * math.log(a.W_max)
    b1 = math.exp(log_b1)
    t = pat.sample_times(run)
    U, r = pat.directions(run), pat.log_norms(run)
    s = pat.signs(run)
    dstate = pat.state_error(run)
    worst, worst_err, at = -np.inf, 0.0, 0.0
    for k in np.flatnonzero(t <= a.T_eps * (1.0 + 1e-12)):
        lhs = float(np.max(pat.direction_field_error(fo, r[k], U[k], s)))
        if lhs > worst:
            worst, at = lhs, float(t[k])
            worst_err = pat.direction_field_rounding(fo, r[k], U[k], s) + 4.0 * dstate * lhs
    return Margin((b1 - worst) / b1, worst_err / b1, f"max LHS {worst:.4g} at t = {at:.4g} vs B1 = {b1:.4g}")


C3 = Claim(
    id="EA-C3",
    node="L1", uses=("L3", "L4"),
    source=f"{SEED} Lemma 1, eq. (9), App. B.1 (reading R3)",
    statement="If eps <= 1/(4 sqrt(h) X_max W_max^2), then for t <= T(eps): || d/dt(w_j/||w_j||) - sign(v_j(0)) P_{w_j} x_a(w_j) || "
              "<= 4 eps n sqrt(h) X_max^2 W_max^2",
    check=lemma1_margin,
    over=st.one_of(
        scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-8, 1e-2), loss="exp"),
        scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-8, 1e-2), loss="logistic2"),
    ),
    horizon=lemma3_horizon,
    precondition=lemma3_hypotheses,
    assumptions=("eps <= eps_L3 and T(eps) > 0 (precondition)", "balanced init (3)", "loss satisfying Lemma 2"),
)

P8_C3 = Claim(
    id="P8-C3-plain-logistic",
    node="L1", uses=("L3", "L4"),
    source=f"{SEED} Lemma 1 with the main-text logistic (sheet P8)",
    statement="PLANTED: Lemma 1 along GF with l = log(1 + exp(-y yhat)): the error is ~ (1/2)||P x_a||, far above B1",
    check=lemma1_margin,
    over=scenario(n=(2, 5), d=(2, 3), h=(2, 4), eps=(1e-8, 1e-3), loss="logistic"),
    horizon=lemma3_horizon,
    precondition=lemma3_hypotheses,
    expected=Verdict.REFUTED,
    assumptions=("plain logistic loss (drops Lemma 2)",),
    tags=("planted",),
)


# ---------------------------------------------------------------------------------- EA-D1..D7


N_VECTORS = 256  # random vectors per geometry case


def k_coefficients(rng: np.random.Generator, n: int, m: int = N_VECTORS) -> np.ndarray:
    """m nonnegative coefficient vectors: one-hot rows, sparse pairs and dense exponential rows, shape (m, n)."""
    A = rng.exponential(size=(m, n))
    sparse = rng.random((m, n)) < 0.5
    A[m // 4: m // 2] *= sparse[m // 4: m // 2]
    A[: min(n, m)] = np.eye(n)[: min(n, m)]
    A[np.all(A == 0.0, axis=1), 0] = 1.0
    return A


def cone_depth(ds: Dataset, Z: np.ndarray, cone: str) -> np.ndarray:
    """Signed depth of rows of Z in a cone: min_i c_i cos(x_i, z), c_i = y_i (S+), -y_i (S-), -1 (S_dead).

    Membership: S+ needs depth > 0 on positives and >= 0 on negatives; the depth alone is > 0
    strictly inside the cap-like interior and >= 0 on the closed cone. Returns shape (m,).
    """
    c = ds.y if cone == "S+" else (-ds.y if cone == "S-" else -np.ones(ds.n))
    cos = (Z @ ds.X.T) / (np.linalg.norm(Z, axis=1)[:, None] * ds.norms[None, :])
    return np.min(c[None, :] * cos, axis=1)


def cone_members(ds: Dataset, cone: str, rng: np.random.Generator, m: int = N_VECTORS) -> np.ndarray:
    """Members of S+, S- or S_dead found among random unit vectors, the signed data and their negations."""
    cand = np.vstack([rng.standard_normal((8 * m, ds.d)), ds.signed, -ds.signed])
    cand /= np.linalg.norm(cand, axis=1, keepdims=True)
    test = {"S+": lambda z: geometry.in_S_plus(ds, z), "S-": lambda z: geometry.in_S_minus(ds, z), "S_dead": lambda z: geometry.in_S_dead(ds, z)}[cone]
    keep = [z for z in cand if test(z)]
    return np.array(keep[:m]) if keep else np.zeros((0, ds.d))


def data_in_cones(case: GeometryCase) -> Margin:
    """EA-D1: x_i in S+ for i in I+ and x_i in S- for i in I- (so S+ and S- are non-empty).

    x_i is in the cone of its label iff cos(y_k x_k, y_i x_i) > 0 for same-label k (strict: x_k
    must be active) and >= 0 for opposite-label k. Margin: the smallest such cosine; a value
    within the float error (8 d u) of 0 is decided by the exact rational sign, and an exact
    violation is returned with error 0.
    """
    case = as_case(case)
    ds = case.dataset
    err = 8.0 * ds.d * U_ROUND
    G = (ds.signed @ ds.signed.T) / np.outer(ds.norms, ds.norms)  # cos(y_i x_i, y_k x_k)
    worst, where = np.inf, ""
    for i in range(ds.n):
        val = float(G[i].min())
        if val <= err:
            exact = pat.exact_signed_gram_signs(ds.X, ds.y, (np.arange(ds.n) == i).astype(float))  # sign of <y_k x_k, y_i x_i>
            same = ds.y == ds.y[i]
            bad = ((exact <= 0) & same) | ((exact < 0) & ~same)
            if bad.any():
                k = int(np.flatnonzero(bad)[0])
                return Margin(min(val, STRICT_TINY), 0.0 if val > -err else err,
                              f"x_{i} (label {ds.y[i]:+.0f}) is not in S{'+' if ds.y[i] > 0 else '-'}: "
                              f"cos(y_{k} x_{k}, y_{i} x_{i}) = {G[i, k]:.3g} has the wrong sign")
            val = max(val, 0.0)
        if val < worst:
            worst, where = val, f"data point {i}"
    return Margin(float(worst), err, f"min membership cosine {worst:.3g} at {where}")


def cones_convex(case: GeometryCase) -> Margin:
    """EA-D3 (Lemma 6) and the cone part of EA-D1: positive combinations of members of S+ (S-, S_dead)
    stay in S+ (S-, S_dead); members are random unit vectors found in each cone.

    Margin: the smallest membership depth (:func:`cone_depth`, >= 0 inside the closed cone) of the
    combinations, with the points that must be active required strictly active; error 8 d u.
    """
    case = as_case(case)
    ds, rng = case.dataset, case.rng
    err = 8.0 * ds.d * U_ROUND
    worst, where, tested = np.inf, "", 0
    for cone in ("S+", "S-", "S_dead"):
        Z = cone_members(ds, cone, rng, 64)
        if len(Z) < 2:
            continue
        tested += 1
        A = rng.exponential(size=(N_VECTORS, len(Z))) * (rng.random((N_VECTORS, len(Z))) < 0.5)
        A[np.all(A == 0.0, axis=1), 0] = 1.0
        combos = A @ Z
        depth = cone_depth(ds, combos, cone)
        if cone != "S_dead":
            act = (ds.y > 0) if cone == "S+" else (ds.y < 0)
            cosa = (combos @ ds.X[act].T) / (np.linalg.norm(combos, axis=1)[:, None] * ds.norms[act][None, :])
            depth = np.minimum(depth, np.where(cosa.min(axis=1) > 0.0, np.inf, STRICT_TINY))
        if depth.min() < worst:
            worst, where = float(depth.min()), f"a positive combination of {cone} members"
    if tested == 0:
        return Margin(0.0, 0.0, "fewer than two members found in every cone", vacuous=True)
    return Margin(float(worst), err, f"min membership depth {worst:.3g} at {where}")


def cones_margin(case: GeometryCase) -> Margin:
    """EA-D1: data membership (:func:`data_in_cones`) and convexity of the three cones (:func:`cones_convex`)."""
    case = as_case(case)
    first = data_in_cones(case)
    if first.value < -first.error:
        return first
    second = cones_convex(case)
    return second if second.value < first.value and not second.vacuous else first


D1 = Claim(
    id="EA-D1",
    node="A1",
    source=f"{SEED} Sec. 3 (cones S+, S-, S_dead) and Lemma 6",
    statement="Given Assumption 1: x_i in S+ for i in I+, x_i in S- for i in I- (so S+-, S- are non-empty); "
              "S+, S- and S_dead are convex cones (closed under positive combinations)",
    check=cones_margin,
    over=geometry_cases(),
    assumptions=("Assumption 1 (by construction)",),
    tags=("pointwise", "geometry"),
)


@st.composite
def non_assumption1_cases(draw: st.DrawFn) -> GeometryCase:
    """Sheet P1: planted P1(a), P1(b), seed 000's PC2, or near_miss data (one cross-class acute pair)."""
    kind = draw(st.sampled_from(["near_miss", "planted_p1a", "planted_p1b", "pc2_cross_class_acute"]))
    if kind == "near_miss":
        params = {"n_pos": draw(st.integers(1, 3)), "n_neg": draw(st.integers(1, 3)), "d": draw(st.integers(2, 3)),
                  "violation": draw(st.integers(1, 50)) / 100.0, "seed": draw(SEEDS)}
        ds = gen.near_miss(**params)
    else:
        params = {}
        ds = gen.make_dataset(kind)
    return GeometryCase(ds, draw(SEEDS), {"data": kind, **params})


P1_D1 = Claim(
    id="P1-D1-data-outside-cones",
    node="A1",
    source=f"{SEED} sheet P1 (Assumption 1 false; breaks EA-D1)",
    statement="PLANTED: without Assumption 1 some x_i is not in the cone of its label (e.g. P1(a): <x2, x1> < 0 with both +1, "
              "so x1 is not in S+; near-miss data: a cross-class acute pair)",
    check=data_in_cones,
    over=non_assumption1_cases(),
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1",),
    tags=("pointwise", "geometry", "planted"),
)


D3 = Claim(
    id="EA-D3",
    node="L7", uses=("A1", "L5"),
    source=f"{SEED} Lemma 6",
    statement="S+ and S- (and S_dead) are convex cones: positive combinations of members are members (origin excluded)",
    check=cones_convex,
    over=geometry_cases(),
    assumptions=("Assumption 1 (by construction)",),
    tags=("pointwise", "geometry"),
)

def lemma5_margin(case: GeometryCase) -> Margin:
    """EA-D2 (Lemma 5): cos(z1, z2) >= mu for nonzero z1, z2 in K (random nonnegative, incl. one-hot, coefficients).

    Margin min (cos - mu), error 8 n u (the extremes attain equality).
    """
    case = as_case(case)
    ds, rng = case.dataset, case.rng
    mu = geometry.mu(ds)
    A, B = k_coefficients(rng, ds.n), k_coefficients(rng, ds.n)[::-1]
    Z1, Z2 = A @ ds.signed, B @ ds.signed
    cos = np.sum(Z1 * Z2, axis=1) / (np.linalg.norm(Z1, axis=1) * np.linalg.norm(Z2, axis=1))
    one = np.eye(ds.n) @ ds.signed
    cos_pairs = (one @ one.T) / np.outer(np.linalg.norm(one, axis=1), np.linalg.norm(one, axis=1))
    value = float(min(cos.min(), cos_pairs.min()) - mu)
    return Margin(value, 8.0 * ds.n * U_ROUND, f"min cos over K pairs minus mu = {value:.3g} (mu = {mu:.4g})")


D2 = Claim(
    id="EA-D2",
    node="L5", uses=("A1",),
    source=f"{SEED} Lemma 5",
    statement="cos(z1, z2) >= mu for all nonzero z1, z2 in K = {sum_i a_i y_i x_i : a_i >= 0}",
    check=lemma5_margin,
    over=geometry_cases(),
    assumptions=("Assumption 1 (by construction)",),
    tags=("pointwise", "geometry"),
)


def lemma7_margin(case: GeometryCase) -> Margin:
    """EA-D4 (Lemma 7, quantitative form of its proof): for unit x_c in K, y_i <x_c, x_i> >= mu X_min for all i,
    and x_c is interior to S+ (every y_i <x_c, x_i> > 0, strict).

    Margin min( min_i y_i <x_c, x_i> - mu X_min, strict interior ) over random x_c (one-hot
    included); error 8 n u X_max. The strict part is decided exactly (rational arithmetic) when
    the float value is within rounding of 0: an exact 0 is a violation with error 0.
    """
    case = as_case(case)
    ds, rng = case.dataset, case.rng
    mu = geometry.mu(ds)
    A = k_coefficients(rng, ds.n)
    Z = A @ ds.signed
    Zu = Z / np.linalg.norm(Z, axis=1, keepdims=True)
    M = (Zu @ ds.X.T) * ds.y[None, :]  # y_i <x_c, x_i>
    err = 8.0 * ds.n * U_ROUND * ds.X_max
    quant = float(M.min() - mu * ds.X_min)
    interior = M.min(axis=1)
    for row in np.flatnonzero(interior <= err):
        exact = pat.exact_signed_gram_signs(ds.X, ds.y, A[row])
        if np.any(exact <= 0):
            i = int(np.flatnonzero(exact <= 0)[0])
            return Margin(min(float(interior[row]), STRICT_TINY), 0.0 if interior[row] > -err else err,
                          f"x_c = K-combination {A[row].round(3).tolist()} lies on or outside the boundary of S+ at x_{i} "
                          f"(y_i <x_c, x_i> = {interior[row]:.3g}; mu X_min = {mu * ds.X_min:.3g})")
    return Margin(quant, err, f"min_i y_i <x_c, x_i> - mu X_min = {quant:.3g}")


D4 = Claim(
    id="EA-D4",
    node="L7", uses=("A1", "L5"),
    source=f"{SEED} Lemma 7 (quantitative form from its proof)",
    statement="K cap S^{D-1} lies in Int(S+): for unit x_c in K, y_i <x_c, x_i> >= mu X_min > 0 for all i",
    check=lemma7_margin,
    over=geometry_cases(),
    assumptions=("Assumption 1 (by construction)",),
    tags=("pointwise", "geometry"),
)

P6_D4 = Claim(
    id="P6-D4-mu0-boundary",
    node="L7", uses=("A1", "L5"),
    source=f"{SEED} sheet P6 / App. A.3 (orthogonal data, mu = 0)",
    statement="PLANTED: on x1 = (1,0), x2 = (0,1) (both +1, mu = 0) the K-generator x1 lies on the boundary of S+ (<x1, x2> = 0)",
    check=lemma7_margin,
    over=st.builds(lambda seed: GeometryCase(gen.orthogonal_pair(), seed, {"data": "orthogonal_pair"}), SEEDS),
    expected=Verdict.REFUTED,
    assumptions=("mu = 0 (drops Assumption 1's strict margin)",),
    tags=("pointwise", "geometry", "planted"),
)


P1_D4 = Claim(
    id="P1-D4-K-not-in-S+",
    node="L7", uses=("A1", "L5"),
    source=f"{SEED} sheet P1 (Assumption 1 false; breaks Lemma 7: K is not inside S+)",
    statement="PLANTED: without Assumption 1 some unit x_c in K is not interior to S+ (P1(a): x1 in K but <x1, x2> < 0)",
    check=lemma7_margin,
    over=non_assumption1_cases(),
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1",),
    tags=("pointwise", "geometry", "planted"),
)


def cap_samples(ds: Dataset, center: np.ndarray, zeta: float, rng: np.random.Generator, m: int = N_VECTORS) -> np.ndarray:
    """Unit vectors in the cap cos(z, center) >= sqrt(1 - zeta): random ones, plus the rim points pushed toward
    every data hyperplane (the worst directions), shape (m + n, d)."""
    c = center / np.linalg.norm(center)
    beta_max = math.asin(math.sqrt(min(zeta, 1.0)))
    E = rng.standard_normal((m, ds.d))
    E -= (E @ c)[:, None] * c
    toward = -(ds.signed - (ds.signed @ c)[:, None] * c)  # away from y_i x_i, orthogonal to c
    beta = np.where(rng.random(m) < 0.25, beta_max, rng.uniform(0.0, beta_max, size=m))
    E = np.vstack([E, toward, -toward])
    beta = np.concatenate([beta, np.full(2 * ds.n, beta_max)])
    nrm = np.linalg.norm(E, axis=1)
    keep = nrm > 1e-12
    E, beta = E[keep] / nrm[keep, None], beta[keep]
    return np.cos(beta)[:, None] * c + np.sin(beta)[:, None] * E


def lemma8_margin(factor: float):
    """EA-D5 (Lemma 8) with the exact zeta1_sup (sheet 1.9): z in the cap S^zeta_{x+} (zeta = factor zeta1_sup)
    is in S+, and the same for x- and S-.

    Margin: the smallest strict depth min_i y_i cos(z, x_i) (min_i -y_i cos for S-), which the cap
    criterion makes > 0 for factor < 1; error 16 d u. factor > 1 (tightness) must fail.
    """

    def check(case: GeometryCase) -> Margin:
        case = as_case(case)
        ds, rng = case.dataset, case.rng
        z1 = geometry.zeta1_sup(ds)
        if z1 <= 0.0:
            return Margin(0.0, 0.0, "zeta1_sup = 0 (a class missing or Assumption 1 false)", vacuous=True)
        zeta = factor * z1
        worst = np.inf
        for center, cone in ((ds.x_plus, "S+"), (ds.x_minus, "S-")):
            Z = cap_samples(ds, center, zeta, rng)
            worst = min(worst, float(cone_depth(ds, Z, cone).min()))
        return Margin(worst, 16.0 * ds.d * U_ROUND, f"min depth {worst:.3g} in the caps of zeta = {factor:g} zeta1_sup = {zeta:.4g}")

    return check


D5 = Claim(
    id="EA-D5",
    node="L8", uses=("L7",),
    source=f"{SEED} Lemma 8 (exact zeta1_sup, sheet 1.9)",
    statement="With zeta1 = 0.999 zeta1_sup (zeta1_sup = min(min_i y_i cos(x+, x_i), min_i -y_i cos(x-, x_i))^2): "
              "S^{zeta1}_{x+} in S+ and S^{zeta1}_{x-} in S-",
    check=lemma8_margin(0.999),
    over=geometry_cases(),
    assumptions=("Assumption 1 (by construction)", "both classes present"),
    tags=("pointwise", "geometry"),
)

D5_TIGHT = Claim(
    id="EA-D5-tight",
    node="L8", uses=("L7",),
    source=f"{SEED} Lemma 8, sheet 2.D EA-D5 (tightness of zeta1_sup)",
    statement="PLANTED: the caps of zeta = 1.001 zeta1_sup are NOT inside S+ / S- (zeta1_sup is the exact sup)",
    check=lemma8_margin(1.001),
    over=geometry_cases(),
    expected=Verdict.REFUTED,
    assumptions=("zeta above the exact sup",),
    tags=("pointwise", "geometry", "planted"),
)


def lemma9_margin(case: GeometryCase) -> Margin:
    """EA-D6 (Lemma 9 with xi = mu^2, sheet 1.9): |cos(z1, z2)| <= sqrt(1 - mu^2) for unit z1 in K and
    z2 outside S+ and S-.

    z2: random unit vectors and, for each z1 and data point i, the projection of z1 onto
    x_i^perp (on the boundary) and slightly past it (the sup-attaining construction), keeping
    only those outside S+ and S-. Margin sqrt(1 - mu^2) - max |cos|; error 16 d u.
    """
    case = as_case(case)
    ds, rng = case.dataset, case.rng
    mu = geometry.mu(ds)
    bound = math.sqrt(max(0.0, 1.0 - mu * mu))
    A = k_coefficients(rng, ds.n, 64)
    Z1 = A @ ds.signed
    Z1 /= np.linalg.norm(Z1, axis=1, keepdims=True)
    Xu = ds.X / ds.norms[:, None]
    cands = [rng.standard_normal((N_VECTORS, ds.d))]
    for z in Z1:
        proj = z[None, :] - (Xu @ z)[:, None] * Xu
        cands += [proj, proj - 1e-3 * ds.y[:, None] * Xu, proj + 1e-3 * ds.y[:, None] * Xu]
    Z2 = np.vstack(cands)
    nrm = np.linalg.norm(Z2, axis=1)
    Z2 = Z2[nrm > 1e-9] / nrm[nrm > 1e-9, None]
    act = (Z2 @ ds.X.T) > 0.0
    outside = ~np.all(act == (ds.y > 0)[None, :], axis=1) & ~np.all(act == (ds.y < 0)[None, :], axis=1)
    Z2 = Z2[outside]
    if len(Z2) == 0:
        return Margin(0.0, 0.0, "no sampled z2 outside S+ and S-", vacuous=True)
    cmax = float(np.max(np.abs(Z1 @ Z2.T)))
    return Margin(bound - cmax, 16.0 * ds.d * U_ROUND, f"max |cos(z1, z2)| = {cmax:.6g} vs sqrt(1 - mu^2) = {bound:.6g}")


D6 = Claim(
    id="EA-D6",
    node="L9", uses=("L5",),
    source=f"{SEED} Lemma 9, eqs. (20), (27) (xi = mu^2, sheet 1.9)",
    statement="sup |cos(z1, z2)| over unit z1 in K and unit z2 outside S+ and S- is <= sqrt(1 - xi) with xi = mu^2",
    check=lemma9_margin,
    over=geometry_cases(),
    assumptions=("Assumption 1 (by construction)",),
    tags=("pointwise", "geometry"),
)


def lemma11_margin(case: GeometryCase) -> Margin:
    """EA-D7 (Lemma 11, reading R6): ||x_a(w)|| >= sqrt(mu) n_a(w) X_min, and the sharper
    ||x_a(w)||^2 >= n_a X_min^2 + mu n_a (n_a - 1) X_min^2, for random w (and w = data points).

    Margin: the smaller of the two slacks normalised by n_a X_max (resp. n_a^2 X_max^2);
    error 16 n u. Directions with n_a = 0 are skipped (both sides 0).
    """
    case = as_case(case)
    ds, rng = case.dataset, case.rng
    mu = geometry.mu(ds)
    Wr = np.vstack([rng.standard_normal((N_VECTORS, ds.d)), ds.X, ds.signed, k_coefficients(rng, ds.n, 32) @ ds.signed])
    P = Wr @ ds.X.T > 0.0
    na = P.sum(axis=1)
    keep = na > 0
    XA = P[keep].astype(float) @ ds.signed
    na = na[keep].astype(float)
    norm2 = np.sum(XA * XA, axis=1)
    sharp = (norm2 - na * ds.X_min**2 - mu * na * (na - 1.0) * ds.X_min**2) / (na * na * ds.X_max**2)
    plain = (np.sqrt(norm2) - math.sqrt(mu) * na * ds.X_min) / (na * ds.X_max)
    value = float(min(sharp.min(), plain.min()))
    return Margin(value, 16.0 * ds.n * U_ROUND, f"min slack {value:.3g} (sharp {sharp.min():.3g}, plain {plain.min():.3g}) over {int(keep.sum())} directions")


D7 = Claim(
    id="EA-D7",
    node="L11", uses=("A1",),
    source=f"{SEED} Lemma 11 (reading R6: n_a outside the root)",
    statement="||x_a(w)|| >= sqrt(mu) n_a(w) X_min, and ||x_a(w)||^2 >= n_a X_min^2 + mu n_a (n_a - 1) X_min^2",
    check=lemma11_margin,
    over=geometry_cases(),
    assumptions=("Assumption 1 (by construction)",),
    tags=("pointwise", "geometry"),
)


# ---------------------------------------------------------------------------------- P4 / P5 controls

P5_A1 = Claim(
    id="P5-A1-leaky-balancedness",
    node="INIT",
    source=f"{SEED} sheet P5 / sheet 1.2 (negative control: balancedness under leaky ReLU, homogeneity)",
    statement="Leaky ReLU (alpha = 0.3): v_j(t)^2 - ||w_j(t)||^2 stays at its initial value 0",
    check=balancedness_conserved,
    over=scenario(n=(2, 5), d=(2, 3), h=(2, 4), eps=(1e-3, 1e-1), alpha=0.3),
    horizon=10.0,
    form="cartesian",
    rtol=1e-11,  # sheet 3.5: the 1e-9 drift tolerance of exact identities assumes rtol <= 1e-11
    assumptions=("balanced init (3)", "leaky slope alpha = 0.3"),
    tags=("control",),
)


@st.composite
def surface_states(draw: st.DrawFn) -> tuple[State, float]:
    """P4 states: 2-D Assumption-1 data, each neuron placed exactly on a data hyperplane
    (w_j = +-c (-x_i2, x_i1), so <x_i, w_j> = 0 exactly in float), and a slope a = sigma'(0) > 0."""
    ds, dparams = draw(datasets(n=(2, 5), d=(2, 2)))
    width = draw(st.integers(min_value=1, max_value=4))
    seed = draw(SEEDS)
    a = draw(st.sampled_from([0.5, 0.1, 1.0]))
    loss = draw(st.sampled_from(["exp", "logistic2"]))
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, ds.n, size=width)
    W = np.array([[-ds.X[i, 1], ds.X[i, 0]] for i in idx]) * rng.choice([-1.0, 1.0], size=(width, 1)) * rng.uniform(0.5, 2.0, size=(width, 1))
    v = rng.choice([-1.0, 1.0], size=width) * np.linalg.norm(W, axis=1)
    return State(ds, W, v, loss, 0.0, None, None, {**dparams, "h": width, "state_seed": seed, "a": a, "loss": loss}), a


def eq46_surface_slope(case: tuple[State, float]) -> Margin:
    """P4 control: with sigma'(0) = a > 0 on the surface (S_ij = a where <x_i, w_j> = 0 exactly, ReLU
    elsewhere), eq. (46) still holds weakly: y_i sign(v_j) <x_i, F_{w_j}> >= 0 for all i, j.

    Margin min q_ij / Q_ij (Q as in EA-A3, 0/0 read as 0), error 4 n u.
    """
    state, a = as_state(case[0]), float(case[1])
    fo = state.field
    P = fo.X @ state.W.T
    S = np.where(P > 0.0, 1.0, np.where(P == 0.0, a, 0.0))
    q = pat.flow_inner_products(fo, state.W, state.v, S)
    Q = pat.flow_inner_product_scale(fo, state.W, state.v, S)
    ratio = np.divide(q, Q, out=np.zeros_like(q), where=Q > 0.0)
    on = int(np.sum(P == 0.0))
    return Margin(float(ratio.min()), 4.0 * fo.n * U_ROUND, f"min q_ij/Q_ij = {ratio.min():.3g} with {on} pair(s) on the surface (a = {a})")


P4_A3 = Claim(
    id="P4-A3-surface-slope-weak",
    node="E46", uses=("A1", "INIT"),
    source=f"{SEED} sheet P4 (negative control: (46) with sigma'(0) = a > 0, '>= 0 on the boundary of S_dead')",
    statement="With sigma'(0) = a > 0 at points exactly on a hyperplane, y_i sign(v_j) <x_i, F_{w_j}> >= 0 still holds",
    check=eq46_surface_slope,
    over=surface_states(),
    assumptions=("Assumption 1", "sigma'(0) = a > 0 on the surface"),
    tags=("pointwise", "control"),
)

def balancedness_rate_surface_slope(case: tuple[State, float]) -> Margin:
    """P4 control: with sigma'(0) = a > 0 on the surface, d/dt (v_j^2 - ||w_j||^2) = 2 v_j v_j' - 2 <w_j, w_j'> = 0
    (sigma(0) = 0 = 0 * a keeps the homogeneity identity sigma(z) = z sigma'(z)).

    Margin -max_j |rate_j| / (2 |v_j| |v_j'| + 2 ||w_j|| ||w_j'||) (0/0 read as 0), error 8 n u.
    """
    state, a = as_state(case[0]), float(case[1])
    fo = state.field
    W, v = state.W, state.v
    P = fo.X @ W.T
    S = np.where(P > 0.0, 1.0, np.where(P == 0.0, a, 0.0))
    Wdot, vdot = fo.cartesian(W, v, S)
    rate = 2.0 * v * vdot - 2.0 * np.sum(W * Wdot, axis=1)
    scale = 2.0 * np.abs(v * vdot) + 2.0 * np.linalg.norm(W, axis=1) * np.linalg.norm(Wdot, axis=1)
    rel = np.divide(np.abs(rate), scale, out=np.zeros_like(rate), where=scale > 0.0)
    return Margin(-float(rel.max()), 8.0 * fo.n * U_ROUND, f"max relative |d/dt (v^2 - ||w||^2)| = {rel.max():.3g} (a = {a})")


P4_A1 = Claim(
    id="P4-A1-surface-slope-balancedness",
    node="INIT",
    source=f"{SEED} sheet P4 (negative control: balancedness with sigma'(0) = a > 0)",
    statement="With sigma'(0) = a > 0 at points exactly on a hyperplane, d/dt (v_j^2 - ||w_j||^2) = 0 still holds",
    check=balancedness_rate_surface_slope,
    over=surface_states(),
    assumptions=("sigma'(0) = a > 0 on the surface",),
    tags=("pointwise", "control"),
)


# ------------------------------------------------------------- Lemmas 1 and 4 at the paper's own eps
# Float64 flushes f ~ eps^2 to 0 below eps ~ 1e-154, which would make both sides of (9)/(11)
# vanish; these versions evaluate the error term and the bound in mpmath from the polar state
# (verify.dynamics.mp.small_init_terms) and compare their logarithms.

MP_DIGITS = 30
LOG_MARGIN_ERROR = 1e-12  # log-domain rounding of a 30-digit evaluation, with a float64 state


def lemma4_theorem_scale(state: State) -> Margin:
    """EA-C2 at theorem scale: max_j log LHS_j <= log(2 n X_max max_i |f(x_i)|), both in mpmath."""
    from verify.dynamics.mp import small_init_terms

    state = as_state(state)
    terms = small_init_terms(state.field, state.r, state.U, state.s, dps=MP_DIGITS)
    if terms["log_max_abs_f"] == -math.inf:
        return Margin(0.0, 0.0, "f = 0 (every neuron dead): nothing to compare", vacuous=True)
    lhs = max(float(v) for v in terms["log_lemma4_lhs"])
    rhs = float(terms["log_lemma4_rhs"])
    return Margin(rhs - lhs, LOG_MARGIN_ERROR * max(1.0, abs(rhs)), f"log LHS {lhs:.6g} vs log bound {rhs:.6g}")


C2_THEOREM = Claim(
    id="EA-C2-theorem-scale",
    node="L4", uses=("L2",),
    source=f"{SEED} Lemma 4, eq. (11), at eps = exp(-1e3 .. -1e4)",
    statement="Lemma 4 at the paper's own eps: log || d/dt u_j - s_j P x_a || <= log(2 n X_max max|f|), with f ~ eps^2 "
              "evaluated in mpmath (float64 flushes it to 0)",
    check=lemma4_theorem_scale,
    over=theorem_scale_states(),
    assumptions=("balanced state", "exp or 2x logistic loss (Lemma 2)"),
    tags=("pointwise", "theorem-scale", "mp"),
)

P8_C2_THEOREM = Claim(
    id="P8-C2-theorem-scale",
    node="L4", uses=("L2",),
    source=f"{SEED} Lemma 4 with the main-text logistic at eps = exp(-1e3 .. -1e4) (sheet P8)",
    statement="PLANTED: Lemma 4 for l = log(1 + exp(-y yhat)) at theorem-scale eps: the error stays ~ (1/2)||P x_a||",
    check=lemma4_theorem_scale,
    over=theorem_scale_states(losses=("logistic",)),
    expected=Verdict.REFUTED,
    assumptions=("plain logistic loss (drops Lemma 2)",),
    tags=("pointwise", "theorem-scale", "mp", "planted"),
)


def lemma1_theorem_scale(run) -> Margin:
    """EA-C3 at theorem scale: at every sample t <= T(eps), log max_j LHS_j <= log B1,
    B1 = 4 eps n sqrt(h) X_max^2 W_max^2; LHS from the sampled polar state, evaluated in mpmath.
    Error: the log-domain rounding plus 4 x the state error (LHS ~ exp(2 r) moves by 2 delta r)."""
    from verify.dynamics.mp import small_init_terms

    a = run.audit
    fo = run.field
    log_b1 = math.log(4.0) + run.log_eps + math.log(fo.n) + 0.5 * math.log(run.init.h) + 2.0 * math.log(a.X_max) \
        + 2.0 * math.log(a.W_max)
    t = pat.sample_times(run)
    U, r = pat.directions(run), pat.log_norms(run)
    s = pat.signs(run)
    worst, at = -math.inf, 0.0
    for k in np.flatnonzero(t <= a.T_eps * (1.0 + 1e-12)):
        terms = small_init_terms(fo, r[k], U[k], s, dps=MP_DIGITS)
        lhs = max(float(v) for v in terms["log_lemma4_lhs"])
        if lhs > worst:
            worst, at = lhs, float(t[k])
    if worst == -math.inf:
        return Margin(0.0, 0.0, "no neuron active at any sample", vacuous=True)
    error = LOG_MARGIN_ERROR * abs(log_b1) + 4.0 * pat.state_error(run)
    return Margin(log_b1 - worst, error, f"max log LHS {worst:.6g} at t = {at:.4g} vs log B1 = {log_b1:.6g}")


@st.composite
def theorem_scale_scenarios(draw: st.DrawFn) -> Scenario:
    """Balanced scenarios at eps = exp(-L), L in {400, 800, ..., 4000} (below float64's range)."""
    ds, dparams = draw(datasets(n=(2, 5), d=(2, 3)))
    width = draw(st.integers(min_value=2, max_value=4))
    log_eps = -400.0 * draw(st.integers(min_value=1, max_value=10))
    init_seed = draw(SEEDS)
    params = {**dparams, "init": "balanced", "h": width, "log_eps": log_eps, "init_seed": init_seed, "loss": "exp", "alpha": 0.0}
    return Scenario(ds, balanced_init(width, ds.d, log_eps=log_eps, seed=init_seed), "exp", 0.0, params)


def theorem_scale_horizon(scenario: Scenario, report) -> float | None:
    """min(T(eps), 20): Lemma 1 speaks about t <= T(eps); 20 covers the alignment phase of these sizes."""
    return None if report.T_eps is None or report.T_eps <= 0 else min(report.T_eps, 20.0)


C3_THEOREM = Claim(
    id="EA-C3-theorem-scale",
    node="L1", uses=("L3", "L4"),
    source=f"{SEED} Lemma 1, eq. (9), at eps = exp(-1e3 .. -1e4)",
    statement="Lemma 1 at the paper's own eps along the polar trajectory: log || d/dt u_j - s_j P x_a || <= "
              "log(4 eps n sqrt(h) X_max^2 W_max^2) for t <= T(eps), evaluated in mpmath",
    check=lemma1_theorem_scale,
    over=theorem_scale_scenarios(),
    horizon=theorem_scale_horizon,
    samples=16,
    precondition=lemma3_hypotheses,
    assumptions=("eps <= eps_L3 and T(eps) > 0 (precondition)", "balanced init (3)", "exp loss"),
    tags=("theorem-scale", "mp"),
)


SECTIONS_A_D: list[Claim] = [
    A1, A1_UNBALANCED, P2_BALANCED, A2, B1_EXP, B1_LOGISTIC2, P8_LEMMA2,
    A3, P1A_A3, P10_A3, P5_A3, P4_A3, P4_A1,
    A4, P1A_A4, P1B_A4, P3_A4, P5_A4,
    A5, P5_A5A, P1A_A5B, P3_A5,
    A6, P10_A6,
    P5_A1,
    B2, P8_B2, B3, B4,
    C1, C2, P8_C2, P5_C2_RELU, P5_C2, C3, P8_C3, C2_THEOREM, P8_C2_THEOREM, C3_THEOREM,
    D1, P1_D1, D2, D3, D4, P6_D4, P1_D4, D5, D5_TIGHT, D6, D7,
]
