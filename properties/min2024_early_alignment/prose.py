"""Claim sheet 004, section 2.I (prose claims of Fig. 2 and Sec. 3): EA-I1 a neuron started in the
opposite cone escapes it, EA-I2 S_dead = {0} leaves no dead neuron, with its planted counterpart P-I2.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from properties.min2024_early_alignment import patterns as pat
from properties.min2024_early_alignment import measures as tm
from verify.claims.model import Margin, measures
from verify.data import generators as gen
from properties.min2024_early_alignment import datasets as d004
from verify.data.dataset import Dataset
from verify.model.init import balanced_init
from verify.scenarios import SEEDS, Scenario
from verify.verdicts import Verdict

from properties.min2024_early_alignment.audit import required_log_eps
from properties.min2024_early_alignment._shared import paper_claim
from properties.min2024_early_alignment.preconditions import _theorem_scale
from properties.min2024_early_alignment.theorem_scale import _scenario


@st.composite
def toy4_family(draw) -> Scenario:
    """toy4 data x = (cos a, +-sin a) (+1), (-cos a, +-sin a) (-1), a in {0.1, ..., 0.7} (S_dead = {0}),
    random balanced directions at the theorem's eps (min reading)."""
    ds = d004.toy4(draw(st.integers(min_value=1, max_value=7)) / 10.0)
    width = draw(st.integers(min_value=2, max_value=6))
    seed = draw(SEEDS)
    base = balanced_init(width, 2, log_eps=0.0, seed=seed)
    value, why = required_log_eps(ds, base, "required")
    if value is None:
        return _scenario(ds, base.W0, np.sign(base.v0), -50.0, init_seed=seed, eps_mode_undefined=why)
    return _scenario(ds, base.W0, np.sign(base.v0), value, init_seed=seed, eps_mode="required")


@measures("min over neurons started in the opposite cone of max(own-cone, S_dead margin) of u_j(t1) (cosine)")
def escapes_s_minus_margin(run) -> Margin:
    """EA-I1 (Fig. 2): a V+ neuron that starts in S- is repelled by x-, leaves S-, and at t1 is in S+ or
    S_dead (symmetrically V- from S+). Margin: min over such neurons of max(S+ margin, S_dead margin)
    at t1; vacuous if no neuron starts in the opposite cone."""
    _, U0, s = tm.initial_polar(run)
    t, R, U, _ = tm.polar_samples(run)
    worst, note, seen, site = math.inf, "", 0, None
    for j in range(U.shape[1]):
        opposite = "S-" if s[j] > 0 else "S+"
        if tm.region_of(run.X, run.y, U0[j]) != opposite:
            continue
        seen += 1
        m = tm.region_margins(run.X, run.y, U[-1, j])
        value = max(m["S+" if s[j] > 0 else "S-"], m["S_dead"])
        if value < worst:
            worst, note = value, f"neuron {j} (s = {int(s[j]):+d}) started in {opposite}; margin at t1 {value:.3g}"
            site = {"t": float(t[-1]), "j": j}
    if not seen:
        return Margin(0.0, 0.0, "no neuron starts in the opposite cone", vacuous=True)
    return Margin(worst, pat.state_error(run) + tm.SURFACE_RTOL, note, site=site)


I1 = paper_claim(
    id="EA-I1",
    source="Fig. 2 and Sec. 3 prose (sheet 2.I)",
    statement="a V+ neuron initialised in S- escapes S- and ends (by t1) in S+ or S_dead; likewise V- from S+",
    check=escapes_s_minus_margin,
    over=toy4_family(),
    horizon="t1",
    backend="limit",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "eps = eps_required (28)"),
    tags=("theorem-scale", "limit", "prose"),
)


@measures("min over neurons of the own-cone margin min_i +-<x_i, u_j(t1)> / ||x_i|| (cosine)")
def s_dead_trivial_margin(run) -> Margin:
    """EA-I2: with S_dead = {0}, every neuron ends in its own cone (V+ in S+, V- in S-) at t1:
    margin min_j (own-cone margin of u_j(t1)) on normalised pre-activations (error: state error)."""
    t, R, U, s = tm.polar_samples(run)
    worst, note, site = math.inf, "", None
    for j in range(U.shape[1]):
        m = tm.region_margins(run.X, run.y, U[-1, j])["S+" if s[j] > 0 else "S-"]
        if m < worst:
            worst, note = m, f"t = {t[-1]:.6g}: neuron {j} (s = {int(s[j]):+d}) own-cone margin {m:.3g}"
            site = {"t": float(t[-1]), "j": j}
    return Margin(worst, pat.state_error(run) + tm.SURFACE_RTOL, note, site=site)


I2 = paper_claim(
    id="EA-I2",
    source="Sec. 3 prose (sheet 2.I): 'it is possible that S_dead = {0}'",
    statement="if S_dead = {0} (toy4 data), every neuron reaches S+ or S-: at t1 every V+ neuron is in S+ and every V- neuron in S-",
    check=s_dead_trivial_margin,
    over=toy4_family(),
    horizon="t1",
    backend="limit",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "S_dead = {0} (toy4: data in all four quadrants)", "eps = eps_required (28)"),
    tags=("theorem-scale", "limit", "prose"),
)


@st.composite
def dead_cone_family(draw) -> Scenario:
    """Sheet P5's data x1 = (1, 0.5) (+), x2 = (-1, 0.5) (-) (S_dead != {0}) with one V+ neuron in
    S_dead, at angle -pi/2 + b, b in {-0.4, ..., 0.4}, and a V- neuron at angle pi - 0.3."""
    ds = Dataset(np.array([[1.0, 0.5], [-1.0, 0.5]]), np.array([1.0, -1.0]), name="P5 data")
    b = draw(st.integers(min_value=-4, max_value=4)) / 10.0
    angles = np.array([-math.pi / 2 + b, math.pi - 0.3])
    W0 = np.column_stack([np.cos(angles), np.sin(angles)])
    base = _scenario(ds, W0, np.array([1.0, -1.0]), 0.0)
    value, why = required_log_eps(ds, base.init, "required")
    return _scenario(ds, W0, np.array([1.0, -1.0]), -50.0 if value is None else value, offset=b,
                     **({"eps_mode_undefined": why} if value is None else {"eps_mode": "required"}))


P_I2 = paper_claim(
    id="P-I2-dead-cone",
    source="sheet 2.I / P5 data (negative counterpart of EA-I2: S_dead != {0})",
    statement="PLANTED: without S_dead = {0} a neuron can end in S_dead, so 'every neuron reaches S+ or S-' fails",
    check=s_dead_trivial_margin,
    over=dead_cone_family(),
    horizon="t1",
    backend="limit",
    precondition=_theorem_scale,
    expected=Verdict.REFUTED,
    assumptions=("Assumptions 1, 2", "S_dead != {0} (drops EA-I2's premise)"),
    tags=("theorem-scale", "limit", "prose", "planted"),
)
