"""Seed 004 Theorem 1 claims (properties/min2024_early_alignment/theorem1.py): every claim reaches its expected verdict
in the ci budget, and the measurement helpers (verify/claims/theorem_measures.py) give known answers."""

import math

import numpy as np
import pytest

from properties.min2024_early_alignment.theorem1 import (
    CLAIMS_THEOREM1,
    p3_scenario,
    p9_scenario,
    toy4_scenario,
)
from verify.audit import audit
from verify.claims import theorem_measures as tm
from verify.claims.run import execute
from verify.data import generators as gen
from verify.dynamics.field import NetworkField
from verify.model.init import balanced_init
from verify.scenarios import EPS_MODES, required_log_eps, scenario
from verify.search import search
from verify.verdicts import Verdict

TOY4_T1_EXACT = 1.362790997720063  # limit engine; the sheet's 1.380 is a sampling artefact


@pytest.mark.parametrize("claim", CLAIMS_THEOREM1, ids=[c.id for c in CLAIMS_THEOREM1])
def test_claim_reaches_expected_verdict(claim):
    result = search(claim, budget=12, seed=0)
    assert result.verdict == claim.expected, (result.verdict, result.reason, result.counterexample)
    if claim.expected == Verdict.REFUTED:
        assert result.counterexample is not None
        assert result.counterexample["confirmed_margin"] < -result.counterexample["confirmed_margin_error"]
    if claim.expected == Verdict.UNKNOWN:  # P12: precondition failures are vacuous, never passes
        assert result.examples == 0 and result.vacuous > 0


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
    ds = gen.toy4()
    X, y = ds.X, ds.y
    assert tm.region_of(X, y, np.array([1.0, 0.0])) == "S+"
    assert tm.region_of(X, y, np.array([-1.0, 0.0])) == "S-"
    assert tm.region_of(X, y, np.array([0.0, 1.0])) == "other"
    m = tm.region_margins(X, y, np.array([1.0, 0.0]))
    assert m["S+"] == pytest.approx(math.cos(0.3)) and m["S-"] < 0 and m["S_dead"] < 0
    # "moreover": a V+ neuron in S_dead passes only when it never activated a positive point
    d = gen.toy_2d()
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
        sc = scenario(eps=mode, n=(2, 3), d=(2, 2), h=(2, 3), mu=(0.5, 0.9)).example()
        a = audit(sc.dataset, sc.init)
        if "eps_mode_undefined" in sc.params:
            continue
        assert sc.params["eps_mode"] == mode
        if mode == "required":
            assert sc.init.log_eps == a.log_eps_required and a.eps_satisfies


def test_scenario_eps_offset_and_bad_mode():
    from verify.errors import InputError

    sc = scenario(eps="required", eps_offset=1.0, n=(2, 2), d=(2, 2), h=(2, 2)).example()
    a = audit(sc.dataset, sc.init)
    if "eps_mode_undefined" not in sc.params:
        assert sc.init.log_eps == pytest.approx(a.log_eps_required - 1.0)
    with pytest.raises(InputError):
        scenario(eps="tiny")
    with pytest.raises(InputError):
        scenario(eps="required", eps_offset=-1.0)
