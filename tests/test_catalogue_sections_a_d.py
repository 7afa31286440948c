"""Seed 004 catalogue, sheet sections 2.A-2.D (verdicts: properties/test_catalogue.py): the
shared measurements of :mod:`properties.min2024_early_alignment.patterns` give the right answers on hand-built
states and trajectories."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from properties.min2024_early_alignment import activation_patterns, conic_geometry, invariants, loss_lemmas, small_init
from verify.claims.collect import collect
from properties.min2024_early_alignment.activation_patterns import monotone_patterns, norms_grow_in_cone, trapping
from properties.min2024_early_alignment.conic_geometry import lemma7_margin, lemma8_margin
from properties.min2024_early_alignment.invariants import eq46_margin
from properties.min2024_early_alignment.small_init import lemma4_margin, lemma4_theorem_scale
from properties.min2024_early_alignment import patterns as pat
from verify.claims.run import execute
from properties.min2024_early_alignment import datasets as d004
from verify.data.dataset import Dataset
from verify.dynamics.field import NetworkField
from verify.search import evaluate
from verify.strategies import GeometryCase, State, polar_state, theorem_scale_states
from verify.trajectory import Event

SECTIONS_A_D = [c for module in (invariants, activation_patterns, loss_lemmas, small_init, conic_geometry) for c in collect(module)]
CLAIMS = {c.id: c for c in SECTIONS_A_D}


def test_sources_cite_seed_item():
    for claim in SECTIONS_A_D:
        assert claim.source.startswith("004 "), claim.id
        assert claim.id.startswith(("EA-", "P")), claim.id


# ----------------------------------------------------------------------------- eq. (46)


def _state(X, y, W, v, loss="exp", alpha=0.0):
    return State(Dataset(np.array(X, float), np.array(y, float)), np.array(W, float), np.array(v, float), loss, alpha)


def test_eq46_by_hand():
    # x1 = (1, 0), x2 = (0.6, 0.8), both +1; w = (1, 1), v = 1: f = (1, 1.4), g = (e^-1, e^-1.4)
    st_ = _state([[1.0, 0.0], [0.6, 0.8]], [1, 1], [[1.0, 1.0]], [1.0])
    q = pat.flow_inner_products(st_.field, st_.W, st_.v)
    g1, g2 = math.exp(-1.0), math.exp(-1.4)
    # q_i = |v| sum_k g_k y_k <y_i x_i, y_k x_k>
    assert q[0, 0] == pytest.approx(g1 * 1.0 + g2 * 0.6, rel=1e-14)
    assert q[1, 0] == pytest.approx(g1 * 0.6 + g2 * 1.0, rel=1e-14)
    margin = eq46_margin()(st_)
    assert margin.value > 0 and margin.error < 1e-14


def test_eq46_planted_p1a_is_negative():
    # sheet P1(a): x1 = (1,0), x2 = (-1.5,3); u ~ (0.05, 1) activates both; y_1 <x1, w_dot> = |v| (g1 - 1.5 g2) < 0
    u = np.array([0.05, 1.0]) / math.hypot(0.05, 1.0)
    st_ = _state([[1.0, 0.0], [-1.5, 3.0]], [1, 1], [1e-3 * u], [1e-3])
    margin = eq46_margin()(st_)
    assert margin.value < -margin.error
    q = pat.flow_inner_products(st_.field, st_.W, st_.v)
    f = st_.field.outputs(st_.W, st_.v)
    g = np.exp(-f)
    assert q[0, 0] == pytest.approx(1e-3 * (g[0] - 1.5 * g[1]), rel=1e-12)


def test_eq46_dead_neuron_is_vacuous_and_exact_zero():
    st_ = _state([[1.0, 0.0], [0.6, 0.8]], [1, 1], [[-1.0, -1.0]], [1.0])
    assert np.all(pat.flow_inner_products(st_.field, st_.W, st_.v) == 0.0)
    assert eq46_margin()(st_).vacuous


def test_exact_signed_gram_signs():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    y = np.array([1.0, 1.0])
    assert pat.exact_signed_gram_signs(X, y, np.array([1.0, 0.0])).tolist() == [1, 0]
    assert pat.exact_signed_gram_signs(X, y, np.array([1.0, 1e-300])).tolist() == [1, 1]


def test_p6_exact_boundary_margin_is_negative():
    case = GeometryCase(d004.orthogonal_pair(), 0)
    margin = lemma7_margin(case)
    assert margin.value < 0.0 and margin.error == 0.0


# ----------------------------------------------------------------------------- regions and events


def _fake_run(X, y, W0, v0, times, U=None, r=None, events=(), rtol=1e-10, log_eps=0.0):
    traj = None
    if U is not None:
        traj = SimpleNamespace(U=np.asarray(U, float), r=np.asarray(r, float), W=None, error_estimate=0.0, params={"rtol": rtol})
    return SimpleNamespace(X=np.asarray(X, float), y=np.asarray(y, float), init=SimpleNamespace(W0=np.asarray(W0, float), v0=np.asarray(v0, float), h=len(v0)),
                           log_eps=log_eps, times=np.asarray(times, float), events=list(events), trajectory=traj)


TOY = (np.array([[1.0, 0.2], [-1.0, 0.2]]), np.array([1.0, -1.0]))


def test_region_codes_on_toy():
    X, y = TOY
    U = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, -1.0], [0.0, 1.0]])
    codes = pat.region_codes(pat.active(X, U), y)
    assert codes.tolist() == [pat.S_PLUS, pat.S_MINUS, pat.S_DEAD, pat.OTHER]


def test_trap_entry_and_depth_from_samples():
    X, y = TOY
    # V+ neuron: other (both active) at t=0, S+ at t=1, leaves S+ again at t=2 (samples only, no events)
    U = [[[0.0, 1.0]], [[1.0, 0.0]], [[0.0, 1.0]]]
    run = _fake_run(X, y, [[0.0, 1.0]], [1.0], [0.0, 1.0, 2.0], U=U, r=[[0.0], [0.1], [0.2]])
    assert pat.regions(run)[:, 0].tolist() == [pat.OTHER, pat.S_PLUS, pat.OTHER]
    assert pat.trap_entry_index(run).tolist() == [1]
    margin = trapping(run)
    assert margin.value < -margin.error  # leaving S+ seen in the samples
    assert pat.trap_entry_time(run).tolist() == [math.inf]  # the (empty) event log never entered


def test_pattern_intervals_and_crossing_audit():
    X, y = TOY
    events = [Event(0.5, 1, 0, "deactivate", -1), Event(0.7, 1, 0, "activate", 1), Event(0.9, 0, 0, "sliding", 0)]
    run = _fake_run(X, y, [[0.0, 1.0]], [1.0], [0.0, 1.0], U=[[[0.0, 1.0]], [[0.0, 1.0]]], r=[[0.0], [0.0]], events=events)
    iv = pat.pattern_intervals(run)[0]
    assert [(i.t_start, i.t_end, i.active) for i in iv] == [(0.0, 0.5, (True, True)), (0.5, 0.7, (True, False)),
                                                           (0.7, 0.9, (True, True)), (0.9, 1.0, (False, True))]
    assert iv[1].region(y) == pat.S_PLUS and iv[3].sliding == (0,)
    audit = pat.crossing_audit(run)
    # V+ neuron, x2 negative: the admissible direction is y s = -1; the re-activation is wrong, and (1, 0) is crossed twice
    assert audit.expected.tolist() == [[1], [-1]]
    assert len(audit.wrong) == 1 and audit.repeated == [(1, 0)] and len(audit.sliding) == 1
    assert monotone_patterns(run).value == -3.0
    assert pat.trap_entry_time(run).tolist() == [0.5]


def test_monotone_increments_by_hand():
    a = np.array([[[0.5]], [[0.4]]])
    r = np.array([[0.0], [math.log(2.0)]])
    # ||x|| e^r a: 0.5 -> 0.8; normalised by max ||w|| = 2: 0.15
    assert pat.monotone_increments(a, r)[0, 0, 0] == pytest.approx(0.15)


def test_norms_margin_negative_on_shrinking_cone_neuron():
    X, y = TOY
    U = [[[1.0, 0.0]], [[1.0, 0.0]], [[1.0, 0.0]]]
    run = _fake_run(X, y, [[1.0, 0.0]], [1.0], [0.0, 1.0, 2.0], U=U, r=[[0.0], [0.1], [0.05]])
    margin = norms_grow_in_cone(run)
    assert margin.value == pytest.approx(-0.05) and margin.value < -margin.error


# ----------------------------------------------------------------------------- small-init measurements


def test_log_abs_outputs_matches_direct_and_tiny_scale():
    ds = d004.toy4(0.3)
    fo = NetworkField.from_dataset(ds, "exp")
    rng = np.random.default_rng(1)
    U = rng.standard_normal((3, 2))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    s = np.array([1.0, -1.0, 1.0])
    r = np.array([-1.0, -0.5, -2.0])
    f = fo.polar_outputs(r, U, s)
    with np.errstate(divide="ignore"):
        direct = np.log(np.abs(f))
    assert np.allclose(pat.log_abs_outputs(fo, r, U, s), direct, rtol=1e-12, atol=1e-12)
    # at eps = exp(-2000) f underflows; log space keeps it: ln|f| shifts by exactly 2 * (-2000 + 1)
    shifted = pat.log_abs_outputs(fo, r - 1999.0, U, s)
    assert np.allclose(shifted[np.isfinite(direct)], direct[np.isfinite(direct)] - 3998.0, rtol=1e-12)


def test_direction_field_error_limits():
    ds = d004.toy4(0.3)
    U = np.array([[0.6, 0.8], [-0.8, 0.6]])
    s = np.array([1.0, -1.0])
    r = np.array([-1000.0, -1000.0])  # f = 0 exactly: g = y for exp, so the Lemma 4 LHS is 0
    assert np.all(pat.direction_field_error(NetworkField.from_dataset(ds, "exp"), r, U, s) == 0.0)
    # main-text logistic: g = y/2 at f = 0, LHS = (1/2) ||P_u x_a||
    fo = NetworkField.from_dataset(ds, "logistic")
    xa = pat.x_a_matrix(ds.X, ds.y, U)
    proj = xa - np.sum(U * xa, axis=1)[:, None] * U
    assert np.allclose(pat.direction_field_error(fo, r, U, s), 0.5 * np.linalg.norm(proj, axis=1), rtol=1e-13)


def test_lemma4_margins_on_planted_states():
    ds = d004.toy4(0.3)
    U = np.array([[0.6, 0.8]])
    good = polar_state(ds, np.array([-3.0]), U, np.array([1.0]), "exp", 0.0, {})
    bad = polar_state(ds, np.array([-3.0]), U, np.array([1.0]), "logistic", 0.0, {})
    assert lemma4_margin()(good).value >= 0.0
    m = lemma4_margin()(bad)
    assert m.value < -m.error


def test_lemma3_margin_at_theorem_scale_eps():
    # toy4 with a balanced init at eps = 1e-1000 (polar); T(eps) > 0 and eps <= eps_L3: large positive log-slack
    from verify.model.init import balanced_init
    from verify.scenarios import Scenario

    init = balanced_init(2, 2, log_eps=-1000 * math.log(10.0), W0=np.array([[0.6, 0.8], [-0.8, 0.6]]), signs=np.array([1.0, -1.0]))
    sc = Scenario(d004.toy4(0.3), init, "exp", 0.0, {})
    ev = evaluate(small_init.C1, sc)
    assert ev.status == "ok" and ev.margin.value > 100.0
    run = execute(sc, 1.0)
    assert pat.log_norms(run)[0].tolist() == pytest.approx([-1000 * math.log(10.0)] * 2)


def test_pointwise_cases_replay_from_json():
    import json

    u = np.array([0.05, 1.0]) / math.hypot(0.05, 1.0)
    st_ = _state([[1.0, 0.0], [-1.5, 3.0]], [1, 1], [1e-3 * u], [1e-3])
    again = json.loads(json.dumps(st_.to_dict()))
    assert eq46_margin()(again).value == eq46_margin()(st_).value
    case = GeometryCase(d004.toy4(0.3), 7)
    assert lemma8_margin(0.999)(json.loads(json.dumps(case.to_dict()))).value == lemma8_margin(0.999)(case).value


def test_theorem_scale_needs_mp_float64_flushes_f_to_zero():
    """At eps = exp(-1e4) float64 gives f = 0 (both sides of Lemma 4 vanish); mpmath keeps log|f| ~ 2 log eps."""
    from hypothesis import find

    from properties.min2024_early_alignment.lemma34_terms import small_init_terms

    state = find(theorem_scale_states(), lambda st_: st_.params["log_eps"] == -10000.0 and st_.s[0] > 0)
    assert np.all(state.field.polar_outputs(state.r, state.U, state.s) == 0.0)
    terms = small_init_terms(state.field, state.r, state.U, state.s, dps=30)
    log_f = float(terms["log_max_abs_f"])
    assert -20000.0 - 20.0 < log_f < -20000.0 + 20.0
    assert lemma4_theorem_scale(state).value > 0.0


def test_event_log_is_checked_against_the_states() -> None:
    """EA-A4 reads the activity from the sampled states too: a run whose log lost its activations (a
    planted engine inconsistency) is a violation with error 0; the intact run agrees everywhere."""
    from verify.claims.run import execute
    from properties.min2024_early_alignment.activation_patterns import fixedscenario
    sc = fixedscenario(d004.toy4(), [math.pi / 2 - 0.2, math.pi / 2 + 0.2, -math.pi / 2 + 0.1], [1.0, -1.0, 1.0], -6.0)
    run = execute(sc, 10.0)
    assert sum(e.kind == "activate" for e in run.events) >= 2
    assert pat.log_state_mismatches(run)[0] == 0 and monotone_patterns(run).value > 0
    run.trajectory.events = [e for e in run.events if e.kind != "activate"]
    count, where = pat.log_state_mismatches(run)
    margin = monotone_patterns(run)
    assert count > 0 and "event log says inactive" in where
    assert margin.value < 0 and margin.error == 0.0 and "engine inconsistency" in margin.note


def test_lemma3_edge_scenarios_sit_at_eps_L3():
    """Lemmas 1/3's hard case: eps = eps_L3 with 4 X_max W_max^2 = 1 + delta, so sqrt(h) eps = 1/(1 + delta) and
    T(eps) = ln(1 + delta)/(4 n X_max); there Lemma 3's norm bound is within 2 (1 + delta) of max ||w_j(0)||^2."""
    from hypothesis import HealthCheck, find, settings

    sc = find(small_init.lemma3_edge_scenarios(), lambda s: s.params["edge_delta"] == 0.01,
              settings=settings(database=None, suppress_health_check=list(HealthCheck)))
    ev = evaluate(small_init.C1, sc)
    a = ev.run.audit
    assert sc.init.log_eps == a.log_eps_L3 and ev.status == "ok"
    assert math.sqrt(sc.init.h) * math.exp(sc.init.log_eps) == pytest.approx(1.0 / 1.01, rel=1e-12)
    assert a.T_eps == pytest.approx(math.log(1.01) / (4 * a.n * a.X_max), rel=1e-9)
    assert 0.45 < ev.margin.ratio < 0.51 and ev.margin.value > 0  # 1/(2 (1 + delta)) at t = 0, T(eps) ~ 1e-3 later
