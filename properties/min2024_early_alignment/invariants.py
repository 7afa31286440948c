"""Claim sheet 004, section 2.A (first part): EA-A1 balancedness (balanced and any init), EA-A2 sign
preservation and EA-A3 eq. (46), with the planted counterexamples that break them (P1(a), P2, P10)
and the negative controls that must still hold (P4 surface slopes, P5 leaky ReLU).

Every claim returns a signed margin (>= 0 holds) with its error estimate; planted claims drop
one hypothesis and are expected to be REFUTED. Shared measurements live in properties.min2024_early_alignment.patterns.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from properties.min2024_early_alignment import patterns as pat
from verify.claims.model import Margin, measures
from verify.data import generators as gen
from properties.min2024_early_alignment import datasets as d004
from verify.scenarios import SEEDS, datasets, scenario
from verify.strategies import State, as_state, polar_state, states
from verify.verdicts import Verdict

from properties.min2024_early_alignment._shared import STRICT_TINY, U_ROUND, paper_claim


BALANCE_TOL = 1e-9  # sheet 3.5: relative drift of exact identities under GF at rtol <= 1e-10


def _balancedness(run) -> np.ndarray:
    """c_j(t) = v_j(t)^2 - ||w_j(t)||^2 and the per-neuron scale max(v^2, ||w||^2), shape (k, h)."""
    v2 = run.v**2
    w2 = np.sum(run.W**2, axis=2)
    return v2 - w2, np.maximum(v2, w2)


@measures("-max over t, j of |c_j(t) - c_j(0)| / max(v_j^2, ||w_j||^2), c_j = v_j^2 - ||w_j||^2 (relative drift)")
def balancedness_conserved(run) -> Margin:
    """EA-A1: max_t max_j |c_j(t) - c_j(0)| / scale <= tolerance (exactly 0 under GF)."""
    c, scale = _balancedness(run)
    c0 = run.v0**2 - np.sum(run.W0**2, axis=1)
    drift = np.max(np.abs(c - c0[None]) / np.maximum(scale, np.maximum(np.abs(c0), 1e-300)[None]))
    return Margin(-float(drift), BALANCE_TOL, f"relative drift {drift:.3g}")


A1 = paper_claim(
    id="EA-A1",
    node="INIT",
    source="Sec. 2.1 (balancedness, citing Du et al. 2018)",
    statement="v_j(t)^2 - ||w_j(t)||^2 = v_j(0)^2 - ||w_j(0)||^2 for all t, j (= 0 under balanced init (3))",
    check=balancedness_conserved,
    over=scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-4, 1e-1)),
    horizon=20.0,
    form="cartesian",
    rtol=1e-11,
    assumptions=("Assumption 1 (by construction)", "balanced init (3)"),
    assumed=("Caratheodory solution with sigma'(0) = 0",),
)

A1_UNBALANCED = paper_claim(
    id="EA-A1-unbalanced",
    node="INIT",
    source="Sec. 2.1 [DER: any init]",
    statement="d/dt (v_j^2 - ||w_j||^2) = 0 for any init (conserved but nonzero when unbalanced)",
    check=balancedness_conserved,
    over=scenario(init="unbalanced", n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-3, 1e-1)),
    horizon=20.0,
    form="cartesian",
    rtol=1e-11,
    assumptions=("unbalanced Gaussian init",),
)


@measures("-max over t, j of |v_j^2 - ||w_j||^2| / max(v_j^2, ||w_j||^2) (relative, dimensionless; 0 holds)")
def balanced_stays_zero(run) -> Margin:
    """P2 negative control: c_j(t) = 0 (fails for unbalanced init, where c_j is conserved but != 0)."""
    c, scale = _balancedness(run)
    rel = np.abs(c) / np.maximum(scale, 1e-300)
    worst = float(np.max(rel))
    k, j = np.unravel_index(int(np.argmax(rel)), rel.shape)
    return Margin(-worst, BALANCE_TOL, f"max relative |v^2 - ||w||^2| = {worst:.3g}",
                  site={"t": float(run.times[k]), "j": int(j)})


P2_BALANCED = paper_claim(
    id="P2-balanced-zero",
    node="INIT",
    source="sheet P2 (unbalanced init; negative control of EA-A1)",
    statement="PLANTED: v_j(t)^2 - ||w_j(t)||^2 = 0 without the balanced init -- must be refuted",
    check=balanced_stays_zero,
    over=scenario(init="unbalanced", n=(2, 4), d=(2, 3), h=(1, 3), eps=(1e-2, 1e-1)),
    horizon=1.0,
    form="cartesian",
    expected=Verdict.REFUTED,
    assumptions=("unbalanced init (drops eq. (3))",),
)

P5_A1 = paper_claim(
    id="P5-A1-leaky-balancedness",
    node="INIT",
    source="sheet P5 / sheet 1.2 (negative control: balancedness under leaky ReLU, homogeneity)",
    statement="Leaky ReLU (alpha = 0.3): v_j(t)^2 - ||w_j(t)||^2 stays at its initial value 0",
    check=balancedness_conserved,
    over=scenario(n=(2, 5), d=(2, 3), h=(2, 4), eps=(1e-3, 1e-1), alpha=0.3),
    horizon=10.0,
    form="cartesian",
    rtol=1e-11,  # sheet 3.5: the 1e-9 drift tolerance of exact identities assumes rtol <= 1e-11
    assumptions=("balanced init (3)", "leaky slope alpha = 0.3"),
    tags=("control",),
)


@measures("min over t, j of s_j v_j(t) / |v_j(0)| (dimensionless; > 0 holds)")
def signs_preserved(run) -> Margin:
    """EA-A2: min_t s_j v_j(t) / |v_j(0)| > 0."""
    s = np.sign(run.v0)
    ratio = float(np.min(s[None] * run.v / np.abs(run.v0)[None]))
    return Margin(ratio if ratio > 0 else min(ratio, -1e-300), 0.0, f"min s_j v_j(t)/|v_j(0)| = {ratio:.3g}")


A2 = paper_claim(
    id="EA-A2",
    node="INIT",
    source="Sec. 2.1 (sign preservation, citing Boursier et al. 2022)",
    statement="sign(v_j(t)) = sign(v_j(0)) for all t, j under balanced init",
    check=signs_preserved,
    over=scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-4, 1e-1)),
    horizon=20.0,
    form="cartesian",
    assumptions=("balanced init (3)",),
)


def eq46_margin(strict_everywhere: bool = False):
    """EA-A3, eq. (46): q_ij = y_i s_j <x_i, F_{w_j}> > 0 if n_a(w_j) >= 1, and = 0 if n_a(w_j) = 0.

    Margin: min_ij q_ij / Q_ij with Q_ij = |v_j| sum_k S_kj |g_k| ||x_i|| ||x_k|| (so it lies in
    [-1, 1]); float error 4 n u (u the unit roundoff). Strict: a float value within the error
    of 0 is decided by the exact rational sign of y_i sum_k S_kj g_k <x_i, x_k> (the formula on
    the computed g), and an exact value <= 0 gives a negative margin with error 0. Dead neurons
    (no active point, alpha = 0) must have q = 0 exactly. ``strict_everywhere``: leaky control
    (P5), every neuron counts as live.
    """

    @measures("min over i, live j of q_ij / Q_ij in [-1, 1], q_ij = y_i s_j <x_i, F_wj>, Q_ij its scale (> 0 holds)")
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
                                  f"exact sign of q_{i}{j} is {int(signs_exact[i])} (neuron active on some point); {note}",
                                  site={"i": i, "j": int(j)})
            value = max(value, 0.0)
        return Margin(value, err, note)

    return check


# one function for EA-A3 and the planted P1(a) and P10 claims, so that their refutations are EA-A3's teeth
EQ46 = eq46_margin()

A3 = paper_claim(
    id="EA-A3",
    node="E46", uses=("A1", "INIT"),
    source="eq. (46), App. E.2/E.5 (reading R21)",
    statement="y_i sign(v_j) <x_i, F_{w_j}(W, v)> > 0 whenever w_j is not in S_dead, = 0 when it is (F = -grad, any (W, v))",
    check=EQ46,
    over=states(),
    assumptions=("Assumption 1 (by construction)", "exp or 2x logistic loss (g_k y_k > 0)"),
    assumed=("sigma'(0) = 0",),
    tags=("pointwise",),
)


@st.composite
def p1a_states(draw: st.DrawFn) -> State:
    """Sheet P1(a): x1 = (1, 0), x2 = (-1.5, 3) (both +1); a V+ neuron near (0.05, 1) activating both."""
    ds = d004.planted_p1a()
    theta = math.atan2(1.0, 0.05) + 0.01 * draw(st.integers(min_value=-3, max_value=3))
    k = draw(st.integers(min_value=-3, max_value=0))
    r = np.array([k * math.log(10.0)])
    U = np.array([[math.cos(theta), math.sin(theta)]])
    return polar_state(ds, r, U, np.array([1.0]), "exp", 0.0, {"data": "planted_p1a", "theta": theta, "scale_decade": k})


P1A_A3 = paper_claim(
    id="P1a-A3-same-label-obtuse",
    node="E46", uses=("A1", "INIT"),
    source="sheet P1(a) (Assumption 1 false; breaks eq. (46))",
    statement="PLANTED: eq. (46) on x1 = (1,0), x2 = (-1.5,3) (both +1, mu < 0): y_1 <x1, w_dot> < 0 for a neuron active on both",
    check=EQ46,
    over=p1a_states(),
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1 (same-label obtuse pair)",),
    tags=("pointwise", "planted"),
)


@st.composite
def p10_states(draw: st.DrawFn) -> State:
    """Sheet P10: toy4(a) and one V+ neuron near x+ = (2 cos a, 0), norm c with c^2 cos(a) > 1 (overshoot), l2 loss."""
    a = draw(st.sampled_from([0.2, 0.3, 0.4]))
    c = draw(st.sampled_from([1.5, 2.0, 3.0]))
    phi = 0.02 * draw(st.integers(min_value=-3, max_value=3))
    U = np.array([[math.cos(phi), math.sin(phi)]])
    return polar_state(d004.toy4(a), np.array([math.log(c)]), U, np.array([1.0]), "square", 0.0, {"data": "toy4", "a": a, "c": c, "phi": phi})


P10_A3 = paper_claim(
    id="P10-A3-square-overshoot",
    node="E46", uses=("A1", "INIT"),
    source="sheet P10 (l2 loss after overshoot; Remark 4 scope)",
    statement="PLANTED: eq. (46) under l2 loss once y_i f(x_i) > 1 (g_i y_i < 0): the S+ neuron is repelled by its points",
    check=EQ46,
    over=p10_states(),
    expected=Verdict.REFUTED,
    assumptions=("l2 loss with y f > 1 (drops g_k y_k > 0)",),
    tags=("pointwise", "planted"),
)

P5_A3 = paper_claim(
    id="P5-A3-leaky-strictly-positive",
    node="E46", uses=("A1", "INIT"),
    source="sheet P5 (negative control: (46) under leaky ReLU)",
    statement="Leaky ReLU, alpha in (0, 1]: y_i sign(v_j) <x_i, F_{w_j}> > 0 for EVERY neuron, dead-pattern ones included",
    check=eq46_margin(strict_everywhere=True),
    over=states(alphas=(0.1, 0.5, 1.0)),
    assumptions=("Assumption 1", "leaky slope alpha > 0"),
    tags=("pointwise", "control"),
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


@measures("min over i, j of q_ij / Q_ij in [-1, 1], q_ij = y_i s_j <x_i, F_wj> (weak: >= 0 holds)")
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


P4_A3 = paper_claim(
    id="P4-A3-surface-slope-weak",
    node="E46", uses=("A1", "INIT"),
    source="sheet P4 (negative control: (46) with sigma'(0) = a > 0, '>= 0 on the boundary of S_dead')",
    statement="With sigma'(0) = a > 0 at points exactly on a hyperplane, y_i sign(v_j) <x_i, F_{w_j}> >= 0 still holds",
    check=eq46_surface_slope,
    over=surface_states(),
    assumptions=("Assumption 1", "sigma'(0) = a > 0 on the surface"),
    tags=("pointwise", "control"),
)


@measures("-max_j |d/dt (v_j^2 - ||w_j||^2)| / (2|v_j v_j'| + 2||w_j|| ||w_j'||) (relative, dimensionless)")
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


P4_A1 = paper_claim(
    id="P4-A1-surface-slope-balancedness",
    node="INIT",
    source="sheet P4 (negative control: balancedness with sigma'(0) = a > 0)",
    statement="With sigma'(0) = a > 0 at points exactly on a hyperplane, d/dt (v_j^2 - ||w_j||^2) = 0 still holds",
    check=balancedness_rate_surface_slope,
    over=surface_states(),
    assumptions=("sigma'(0) = a > 0 on the surface",),
    tags=("pointwise", "control"),
)
