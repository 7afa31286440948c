"""Seed 004 Theorem 1 claims (sheet sections 2.E-2.I, properties/min2024_early_alignment/): the measurement helpers
(properties/min2024_early_alignment/measures.py) give known answers; the verdicts are properties/test_catalogue.py's."""

import math

import numpy as np
import pytest
from hypothesis import find

from verify.claims.collect import collect
from properties.min2024_early_alignment import (
    alignment_phase,
    existence,
    final_convergence,
    irregular_solutions,
    low_rank,
    prose,
    theorem1_part1,
)
from properties.min2024_early_alignment.theorem1_part1 import p3_scenario, p9_scenario, toy4_scenario
from verify.audit import audit
from properties.min2024_early_alignment import measures as tm
from verify.claims.run import execute
from verify.data import generators as gen
from properties.min2024_early_alignment import datasets as d004
from verify.dynamics.field import NetworkField
from verify.model.init import balanced_init
from verify.scenarios import scenario
from properties.min2024_early_alignment.audit import EPS_MODES, EPS_RULES, required_log_eps
from verify.verdicts import Verdict

CLAIMS_THEOREM1 = [c for module in (alignment_phase, theorem1_part1, final_convergence, low_rank, existence, irregular_solutions, prose)
                   for c in collect(module)]
TOY4_T1_EXACT = 1.362790997720063  # limit engine; the sheet's 1.380 is a sampling artefact


def test_claim_ids_unique_and_planted_marked():
    ids = [c.id for c in CLAIMS_THEOREM1]
    assert len(ids) == len(set(ids))
    for c in CLAIMS_THEOREM1:
        if c.expected == Verdict.REFUTED:
            assert "PLANTED" in c.statement or "PAIRED" in c.statement


# --------------------------------------------------------------------------- known answers


def test_toy4_limit_alignment_time():
    sc = toy4_scenario()
    run = execute(sc, 5.0, backend="limit")
    assert tm.alignment_time(run) == pytest.approx(TOY4_T1_EXACT, rel=1e-12)
    assert run.audit.t1 == pytest.approx(618.5837, rel=1e-6)
    assert run.audit.log_eps_required / math.log(10) == pytest.approx(-4298.8115, abs=1e-3)


def test_toy4_event_engine_matches_limit_at_theorem_scale():
    run = execute(toy4_scenario(), "t1")  # polar, ln eps = -9898.4
    assert tm.alignment_time(run) == pytest.approx(TOY4_T1_EXACT, abs=1e-8)


def test_p9_dead_time_closed_form_and_limit_engine():
    assert tm.p9_dead_time() == pytest.approx(math.log(math.tan((math.pi - 1.0) / 2.0)))
    assert tm.p9_dead_time() == pytest.approx(0.6045824, abs=1e-6)
    run = execute(p9_scenario(), 2.0, backend="limit")
    dead = [e.t for e in run.events if e.kind == "dead"]
    assert dead == [pytest.approx(tm.p9_dead_time(), rel=1e-12)]
    assert run.audit.t1 == 0.0  # the printed formula (erratum 3)
    assert run.audit.t1_dead_path > tm.p9_dead_time()


def test_pattern_history_replay_agrees_with_limit_history():
    sc = toy4_scenario()
    lim = tm.pattern_history(execute(sc, 5.0, backend="limit"))
    ev = tm.pattern_history(execute(sc, 5.0))
    for a, b in zip(lim, ev):
        assert [p.active for p in a] == [p.active for p in b]
        assert [p.t_start for p in a] == pytest.approx([p.t_start for p in b], abs=1e-8)


def test_log_outputs_match_float_outputs():
    ds = gen.orthogonally_separable(2, 2, 3, 0.6, seed=3)
    init = balanced_init(5, 3, log_eps=math.log(0.3), seed=4)
    fld = NetworkField.from_dataset(ds)
    r = np.log(np.linalg.norm(init.W0, axis=1)) + init.log_eps
    U = init.W0 / np.linalg.norm(init.W0, axis=1)[:, None]
    s = np.sign(init.v0)
    direct = fld.outputs(init.W, init.v)
    lf, sg, labs = tm.log_outputs(ds.X, r[None], U[None], s)
    assert np.allclose(sg[0] * np.exp(lf[0]), direct, rtol=1e-12, atol=1e-300)
    assert np.all(labs[0] >= lf[0] - 1e-12)
    # theorem scale: ln|f| is finite although f underflows float64
    lf2, _, _ = tm.log_outputs(ds.X, (r - 5000.0)[None], U[None], s)
    finite = np.isfinite(lf[0])
    assert np.allclose(lf2[0][finite], lf[0][finite] - 10000.0, rtol=0, atol=1e-9)


def test_region_margins_and_allowed_margin():
    ds = d004.toy4()
    X, y = ds.X, ds.y
    assert tm.region_of(X, y, np.array([1.0, 0.0])) == "S+"
    assert tm.region_of(X, y, np.array([-1.0, 0.0])) == "S-"
    assert tm.region_of(X, y, np.array([0.0, 1.0])) == "other"
    m = tm.region_margins(X, y, np.array([1.0, 0.0]))
    assert m["S+"] == pytest.approx(math.cos(0.3)) and m["S-"] < 0 and m["S_dead"] < 0
    # "moreover": a V+ neuron in S_dead passes only when it never activated a positive point
    d = d004.toy_2d()
    u = np.array([0.0, -1.0])
    assert tm.allowed_margin(d.X, d.y, u, 1.0, False) >= 0
    assert tm.allowed_margin(d.X, d.y, u, 1.0, True) < 0


def test_empirical_t2_brackets():
    t = np.array([0.0, 1.0, 2.0, 3.0])
    F = np.array([[0.0, 0.0], [0.1, -0.3], [0.3, -0.3], [0.5, -0.5]])
    br = tm.empirical_t2(None, t, F, {"plus": np.array([0]), "minus": np.array([1])}, 0.5)
    assert br["plus"] == (1.0, 2.0)
    assert br["minus"] == (0.5, 1.0)
    assert tm.empirical_t2(None, t, F, {"plus": np.array([0])}, 3.5)["plus"] == (math.inf, math.inf)


def test_log_norms_W():
    rng = np.random.default_rng(0)
    W = rng.standard_normal((4, 3))
    r = np.log(np.linalg.norm(W, axis=1))
    U = W / np.exp(r)[:, None]
    lf, l2 = tm.log_norms_W(r, U)
    assert lf == pytest.approx(math.log(np.sum(W**2)))
    assert l2 == pytest.approx(2 * math.log(np.linalg.norm(W, 2)))
    lf2, l22 = tm.log_norms_W(r - 1e4, U)
    assert lf2 == pytest.approx(lf - 2e4) and l22 == pytest.approx(l2 - 2e4)


def test_p3_sheet_numbers():
    """P3: t1_bound ~ 13.3 and the V+ neuron still activates x2 at t = 10 (sheet: cos(u+, x2) = 0.196)."""
    sc = p3_scenario()
    rep = audit(sc.dataset, sc.init)
    assert rep.t1 == pytest.approx(13.28, abs=0.01)
    run = execute(sc, 10.0)
    x2 = sc.dataset.X[1] / np.linalg.norm(sc.dataset.X[1])
    assert float(run.trajectory.U[-1, 0] @ x2) == pytest.approx(0.196, abs=2e-3)


# --------------------------------------------------------------------------- scenario eps modes


def test_scenario_eps_required_matches_audit():
    ds = gen.orthogonally_separable(2, 1, 2, 0.8, seed=1)
    init = balanced_init(3, 2, log_eps=0.0, seed=2)
    rep = audit(ds, init.W0, init.v0, log_eps=0.0)
    assert required_log_eps(ds, init, "required")[0] == rep.log_eps_required
    assert required_log_eps(ds, init, "required_printed")[0] == rep.log_eps_required_printed
    assert required_log_eps(ds, init, "eps1")[0] == min(rep.readings["min"]["log_eps1_c8"], rep.log_eps_L3)
    for mode in EPS_MODES:
        sc = find(scenario(eps=EPS_RULES[mode], n=(2, 3), d=(2, 2), h=(2, 3), mu=(0.5, 0.9)), lambda c: "eps_mode_undefined" not in c.params)
        a = audit(sc.dataset, sc.init)
        assert sc.params["eps_mode"] == mode
        if mode == "required":
            assert sc.init.log_eps == a.log_eps_required and a.eps_satisfies


def test_scenario_eps_offset_and_bad_mode():
    from verify.errors import InputError

    sc = find(scenario(eps=EPS_RULES["required"], eps_offset=1.0, n=(2, 2), d=(2, 2), h=(2, 2)), lambda c: "eps_mode_undefined" not in c.params)
    a = audit(sc.dataset, sc.init)
    assert sc.init.log_eps == pytest.approx(a.log_eps_required - 1.0)
    with pytest.raises(InputError):
        scenario(eps="tiny")
    with pytest.raises(InputError):
        scenario(eps=EPS_RULES["required"], eps_offset=-1.0)


# --------------------------------------------------------------------------- section-2 completions: known answers


def test_path_travel_time_arrival_and_dead_bound():
    y = np.array([1.0, 1.0, -1.0, -1.0])
    P = tm.Piece
    hist = [P(0.0, 1.0, frozenset({2, 3})), P(1.0, 1.5, frozenset({0, 2, 3})), P(1.5, 1.5, frozenset({0, 2, 3}), True),
            P(1.5, 2.0, frozenset({0, 2})), P(2.0, 9.0, frozenset({0, 1}))]
    t_arr, before = tm.arrival(hist, frozenset({0, 1}))
    assert t_arr == 2.0 and len(before) == 4
    assert [tm.path_counts(p.active, y) for p in before] == [(0, 2), (1, 2), (1, 2), (1, 1)]
    # vertices (0,2), (1,2), (1,1): 12/2 + 12/3 + 12/2 (the repeated (1,2) piece counts once)
    assert tm.path_travel_time(before, 12.0) == pytest.approx(16.0)
    assert tm.path_travel_time([P(0.0, 1.0, frozenset())], 12.0) == math.inf
    assert tm.arrival(hist, frozenset({1})) == (math.inf, hist)
    assert tm.dead_path_bound(3, 6.0) == pytest.approx(11.0)
    assert tm.dead_path_bound(0, 6.0) == 0.0
    assert tm.class_patterns(y) == (frozenset({0, 1}), frozenset({2, 3}))


def test_first_exceed_brackets():
    t = np.array([0.0, 1.0, 2.0, 4.0])
    assert tm.first_exceed(t, np.array([0.0, 0.1, 0.3, 0.9]), 0.25) == (1.0, 2.0)
    assert tm.first_exceed(t, np.array([0.0, 0.1, 0.3, 0.9]), 0.25, t_from=1.5) == (1.5, 2.0)
    assert tm.first_exceed(t, np.array([0.5, 0.1, 0.3, 0.9]), 0.25) == (0.0, 0.0)
    assert tm.first_exceed(t, np.zeros(4), 0.25) == (math.inf, math.inf)


def test_log_sv2_matches_svd_and_scales():
    rng = np.random.default_rng(1)
    W = rng.standard_normal((4, 3))
    r = np.log(np.linalg.norm(W, axis=1))
    U = W / np.exp(r)[:, None]
    sv = np.linalg.svd(W, compute_uv=False)
    top, tail = tm.log_sv2(r, U)
    assert top == pytest.approx(2 * math.log(sv[0]))
    assert tail == pytest.approx(math.log(np.sum(sv[1:] ** 2)))
    assert tm.log_sv2(r - 3000.0, U)[1] == pytest.approx(tail - 6000.0)
    # ||W||_F^2 - ||W||_2^2 = sum_{k>=2} sigma_k^2 with no cancellation for a near rank-one W
    u = np.array([1.0, 0.0, 0.0])
    U2 = np.array([u, [1.0, 1e-9, 0.0]])
    U2 /= np.linalg.norm(U2, axis=1)[:, None]
    assert tm.log_sv2(np.zeros(2), U2)[1] == pytest.approx(math.log(0.5e-18), rel=1e-6)
    assert tm.log_sv2(np.array([0.3]), u[None])[1] == -math.inf


def test_refined_aligning_vector_at_zero_outputs():
    ds = d004.toy4()
    g = ds.y.copy()  # f = 0: g_i = y_i (exp loss)
    ip, im = np.flatnonzero(ds.y > 0), np.flatnonzero(ds.y < 0)
    assert np.allclose(tm.refined_aligning_vector(ds.X, g, ip), ds.x_plus)
    assert np.allclose(tm.refined_aligning_vector(ds.X, g, im), ds.x_minus)
    assert tm.cosines(ds.x_plus, ds.x_plus[None])[0] == pytest.approx(1.0)
    # g_i in [1/2, 3/2]: cos(x+, x~_a) >= 1/3 (sheet S10)
    xa = tm.refined_aligning_vector(ds.X, np.array([0.5, 1.5, -1.0, -1.0]), ip)
    assert tm.cosines(ds.x_plus, xa[None])[0] >= 1.0 / 3.0


def test_loss_rate_terms_is_minus_grad_norm():
    ds = gen.orthogonally_separable(2, 2, 3, 0.6, seed=3)
    fld = NetworkField.from_dataset(ds)
    rng = np.random.default_rng(5)
    W, v = 0.7 * rng.standard_normal((4, 3)), 0.9 * rng.standard_normal(4)  # unbalanced
    f = fld.outputs(W, v)
    ldot, norm2, mag = tm.loss_rate_terms(fld, W, v, f)
    assert ldot == pytest.approx(-norm2, rel=1e-12) and ldot < 0 and mag >= abs(ldot)
    Wd, vd = fld.cartesian(W, v, fld.mode(ds.X @ W.T))
    hstep = 1e-6
    Lp = fld.loss.total(ds.y, fld.outputs(W + hstep * Wd, v + hstep * vd))
    Lm = fld.loss.total(ds.y, fld.outputs(W - hstep * Wd, v - hstep * vd))
    assert (Lp - Lm) / (2 * hstep) == pytest.approx(-norm2, rel=1e-6)
    # scale-free: the scaled state with the true outputs gives the c^2-scaled terms
    l2, n2, _ = tm.loss_rate_terms(fld, 0.5 * W, 0.5 * v, f)
    assert l2 == pytest.approx(0.25 * ldot) and n2 == pytest.approx(0.25 * norm2)


def test_scaled_states_polar_and_cartesian_agree():
    from verify.scenarios import Scenario

    ds = gen.orthogonally_separable(2, 1, 2, 0.7, seed=1)
    sc = Scenario(ds, balanced_init(3, 2, log_eps=math.log(1e-2), seed=2))
    a = tm.scaled_states(execute(sc, 3.0, form="polar"))
    b = tm.scaled_states(execute(sc, 3.0, form="cartesian"))
    assert np.allclose(a["t"], b["t"])
    assert np.allclose(a["f"], b["f"], rtol=1e-7, atol=1e-12)
    assert np.allclose(a["lnc"], b["lnc"], atol=1e-7)
    assert np.allclose(a["W"], b["W"], atol=1e-7) and np.allclose(a["v"], b["v"], atol=1e-7)
    assert np.all(a["f_err"] >= 0) and np.all(b["f_err"] >= 0)


def test_e4_irregular_solution_known_answers():
    from properties.min2024_early_alignment.irregular_solutions import e4_irregular, e4_residual
    from scipy.integrate import quad

    state, a = e4_irregular(0.5, np.array([1e-4, 1.0]))
    assert a[0] == pytest.approx(1e-4, rel=1e-3)  # a'(0) = 1 (sheet S14)
    # inverse function t(a) = int_0^a exp(b sqrt(1 + b^2))/sqrt(1 + b^2) db
    t_of_a = quad(lambda b: math.exp(b * math.sqrt(1 + b * b)) / math.sqrt(1 + b * b), 0.0, a[1], epsabs=1e-14)[0]
    assert t_of_a == pytest.approx(1.0, abs=1e-10)
    W, v = state(0.3)
    assert W.tolist() == [[0.0, 1.0]] and v.tolist() == [1.0]  # still until t0
    res, qerr, cos_end = e4_residual(0.5)
    assert res < 1e-10 and qerr < 1e-10
    assert cos_end == pytest.approx(a[1] / math.sqrt(1 + a[1] ** 2))


def test_field_jump_on_A_known_answer():
    from properties.min2024_early_alignment.existence import hyperplane_distance, segment_limit

    # Example E.4's state lies on A: F(theta) = 0 (sigma'(0) = 0); one step into the active side
    # gives w' = (e^{-s}, 0), v' = s e^{-s}: a jump of relative size 1 (block magnitude |v| |g| ||x|| = 1).
    fld = NetworkField(np.array([[1.0, 0.0]]), np.array([1.0]), "exp", 0.0)
    W, v = np.array([[0.0, 1.0]]), np.array([1.0])
    D, dv = np.array([[1.0, 0.0]]), np.zeros(1)
    e1, e2 = segment_limit(fld, W, v, D, dv, 1e-3)
    s = 1e-3
    assert e1[0] == pytest.approx(math.exp(-s) * math.sqrt(1 + s * s), rel=1e-12)
    assert e2[0] == pytest.approx(1.0, rel=1e-5)
    # off A (w = (1, 1)) the discrepancy is O(s)
    e1, e2 = segment_limit(fld, np.array([[1.0, 1.0]]), v, D, dv, 1e-3)
    assert e2[0] == pytest.approx(1e-3 * e1[0], rel=1e-2)
    assert hyperplane_distance(fld, np.array([[1.0, 1.0]]), np.array([[-2.0, 0.0]])) == pytest.approx(0.5)
    assert hyperplane_distance(fld, np.array([[1.0, 1.0]]), D) == math.inf


def test_toy4_has_trivial_dead_cone_and_p5_data_does_not():
    """EA-I2's premise: S_dead = {0} for toy4 (any a), not for the P5 data used by its planted twin."""
    from verify import geometry

    rng = np.random.default_rng(0)
    Z = rng.standard_normal((20000, 2))
    toy = d004.toy4(0.3)
    assert not any(geometry.in_S_dead(toy, z) for z in Z)
    p5 = tm_dead_cone_data()
    assert geometry.in_S_dead(p5, np.array([0.0, -1.0]))


def tm_dead_cone_data():
    from properties.min2024_early_alignment.prose import dead_cone_family

    return find(dead_cone_family(), lambda sc: True).dataset
