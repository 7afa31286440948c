"""Seed 000's exact finite-time claims along gradient flow (properties/phuong_lampert2021/lemma_a4.py and cone.py):
each check failing on a planted case (a planted scenario, a
deliberately wrong run, or a planted engine bug) and holding on a good one, and the sheet's fixture values (section 7)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from verify.claims.model import Claim, held, violated
from verify.claims.run import Run, execute
from verify.evidence.mutants import MUTANTS
from verify.model.losses import get_loss
from verify.simulate import simulate
from verify.trajectory import Event
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import cone, lemma_a4
from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import measures as M
from properties.phuong_lampert2021 import scenarios as SC

CLAIMS = [c for mod in (lemma_a4, cone) for c in vars(mod).values() if isinstance(c, Claim)]


def with_states(run: Run, **changes) -> Run:
    """The run with its trajectory's fields replaced (W, v, events): a deliberately wrong run."""
    return dataclasses.replace(run, trajectory=dataclasses.replace(run.trajectory, **changes))


@pytest.fixture(scope="module")
def fixture_run() -> Run:
    return execute(SC.fixture_scenario(), 20.0, rtol=1e-11, samples=200)


@pytest.fixture(scope="module")
def fixture_cartesian() -> Run:
    return execute(SC.fixture_scenario(), 20.0, rtol=1e-11, samples=200, form="cartesian")


def orthant_scenario(seed: int, p: int = 6):
    """Balanced Gaussian directions on 3-d orthant data (the paper's init), built without os_scenarios."""
    rng = np.random.default_rng(seed)
    return SC.pl_scenario(D.orthant(4, 4, 3, seed=seed), rng.standard_normal((p, 3)), np.where(rng.random(p) < 0.5, -1.0, 1.0), 1e-3)


# --- verdicts ----------------------------------------------------------------------------------------------------

def test_catalogue_conventions():
    ids = [c.id for c in CLAIMS]
    assert len(ids) == len(set(ids))
    for c in CLAIMS:
        assert c.source.startswith("000 ") and c.node and c.assumptions
        if c.expected == Verdict.REFUTED:
            assert c.statement.startswith("PLANTED") and "planted" in c.tags
            assert any("drops" in a for a in c.assumptions)


# --- Lemma A.4 and PL-X8 -------------------------------------------------------------------------------------------

def test_balance_drift_holds_and_fails_on_a_perturbed_second_layer(fixture_cartesian):
    assert held(lemma_a4.balance_drift(fixture_cartesian))
    v = fixture_cartesian.v.copy()
    v[100:, 2] *= 1.0 + 1e-6
    assert violated(lemma_a4.balance_drift(with_states(fixture_cartesian, v=v)))


def test_sign_and_group_checks_fail_on_pc4():
    run = execute(lemma_a4.pc4_scenario(D.fixture(), 4, 1e-3), 20.0, rtol=1e-11, samples=64)
    assert violated(lemma_a4.signs_kept(run)) and violated(lemma_a4.groups_follow_signs(run))
    assert violated(cone.cone_residual(run))
    assert held(lemma_a4.balance_drift(run))  # the invariant a^2 - ||w||^2 (< 0 here) is kept for any init
    assert run.v[-1, 0] < 0 < run.v0[0]


def test_sign_and_group_checks_hold_on_the_fixture(fixture_cartesian):
    assert held(lemma_a4.signs_kept(fixture_cartesian))
    groups = lemma_a4.groups_follow_signs(fixture_cartesian)
    assert held(groups) and math.isclose(groups.value, 1 / math.sqrt(2), rel_tol=1e-6)


def test_growth_bound_reports_its_slack_and_fails_on_a_too_fast_second_layer(fixture_cartesian):
    margin = lemma_a4.growth_bound(fixture_cartesian)
    assert held(margin) and 0.0 < margin.ratio < 1.0 and math.isclose(margin.value, 1.0 - margin.ratio)
    short = execute(SC.fixture_scenario(), 1.0, rtol=1e-11, samples=32, form="cartesian")
    S = float(np.sum(np.linalg.norm(short.X, axis=1)))
    fast = short.v * np.exp(2.0 * S * short.times)[:, None]
    bad = lemma_a4.growth_bound(with_states(short, v=fast))
    assert violated(bad) and bad.ratio > 1.0
    exp_run = execute(SC.fixture_scenario(loss="exp"), 1.0, samples=8)
    assert lemma_a4.growth_bound(exp_run).vacuous  # l' unbounded: Lemma A.4's bound does not apply


# --- PL-X1 ----------------------------------------------------------------------------------------------------------

def test_cone_checks_hold_on_the_fixture(fixture_run):
    for check in (cone.monotone_increments, cone.cone_residual, cone.active_cone_residual):
        assert held(check(fixture_run)), check.__name__


def test_monotone_increments_fail_on_pc1_and_pc9():
    pc1 = execute(SC.pl_scenario(D.pc1(), [[1.0, 1.0], [-1.0, 0.2], [-1.0, -1.0]], [1.0, 1.0, -1.0], 1e-2), 10.0, samples=200)
    assert violated(cone.monotone_increments(pc1))
    assert held(cone.cone_residual(pc1))  # the cone property itself needs no OS
    square = execute(SC.fixture_scenario(1e-2, loss="square"), 10.0, samples=200)
    assert violated(cone.monotone_increments(square))


def test_active_cone_fails_on_a_step_along_an_inactive_example(fixture_run):
    """Neuron 2 (a < 0, in sigma- from t = 0, never active on the positive x_3) jumps once, mid-run, by half its size
    along s_2 y_3 x_3 = -x_3: still in the global cone and still monotone (OS), but that step leaves the cone of its
    active examples (the negatives). A small drift spread over every step would not do: the flow's own steps, deep
    inside that cone, absorb it."""
    W = fixture_run.W.copy()
    k0 = len(W) // 2
    x3 = fixture_run.X[2] / np.linalg.norm(fixture_run.X[2])
    W[k0:, 2] -= 0.5 * np.linalg.norm(W[k0, 2]) * x3
    bad = with_states(fixture_run, W=W)
    assert held(cone.monotone_increments(bad)) and held(cone.cone_residual(bad))
    assert violated(cone.active_cone_residual(bad)) and violated(cone.cone_property(bad))


def test_fixture_margins_increase_to_t_1e8():
    """Sheet section 7: every increment of s_j y_k w_j^T x_k is positive on 801 log-spaced samples to t = 1e8
    (the sheet reports a minimum of +2.0e-5 on its grid; the minimum depends on where the grid starts)."""
    run = execute(SC.fixture_scenario(), 1e8, rtol=1e-11, samples=801, spacing="log")
    assert held(cone.monotone_increments(run)) and cone.monotone_increments(run).value > 0.0
    assert held(cone.cone_residual(run))


# --- PL-X2, B.1, Lemma 3 ----------------------------------------------------------------------------------------

def test_sheet_event_log_of_the_fixture(fixture_run):
    """Sheet section 7: neuron 1's nine crossings and neuron 3's three, each pair once, in the PL-X1 direction."""
    sheet = {(1, 2): 0.041937, (1, 0): 0.069626, (1, 3): 0.102699, (1, 4): 0.108376, (1, 6): 0.123991,
             (1, 8): 0.171546, (1, 5): 0.385198, (1, 7): 0.388953, (1, 1): 0.639282,
             (3, 4): 0.155965, (3, 3): 0.166952, (3, 0): 0.191426}
    logged = {(e.j, e.i): e.t for e in fixture_run.events if e.kind in ("activate", "deactivate")}
    assert logged.keys() == sheet.keys()
    assert all(abs(logged[k] - sheet[k]) < 2e-6 for k in sheet)
    assert held(cone.event_log_agreement(fixture_run)) and held(cone.sign_reversals(fixture_run))
    k = M.entry_index(fixture_run.X, fixture_run.y, M.samples(fixture_run))
    assert 0.639282 <= M.samples(fixture_run).t[k] <= 0.75  # T^ = 0.6393


def test_event_log_check_catches_missed_and_invented_crossings(fixture_run):
    events = fixture_run.events
    missed = [e for e in events if not (e.j == 1 and e.i == 2)]  # neuron 1 activating on x3 at t = 0.0419
    assert violated(cone.event_log_agreement(with_states(fixture_run, events=missed)))
    invented = sorted(events + [Event(0.5, 0, 0, "deactivate", -1)], key=lambda e: e.t)  # neuron 0 stays on x1
    assert violated(cone.event_log_agreement(with_states(fixture_run, events=invented)))
    assert violated(cone.event_log_agreement(with_states(fixture_run, events=invented), os_data=False))


def test_event_log_check_catches_the_skipped_crossing_engine_bug():
    """Mutant 'events-skip-crossing' (every 10th crossing logged but not applied): the engine re-detects the pair
    once it leaves the surface by 1e-12, so the states barely move, but the log then holds a second crossing."""
    sc = orthant_scenario(0)
    assert held(cone.event_log_agreement(execute(sc, 20.0, samples=200)))
    with MUTANTS["events-skip-crossing"].active():
        run = execute(sc, 20.0, samples=200)
    margin = cone.event_log_agreement(run)
    assert violated(margin) and "second crossing" in margin.note


def test_sign_reversal_checks_fail_on_pc2_and_pc1():
    pc2 = execute(SC.pl_scenario(D.pc2(), [cone._unit(162), cone._unit(30), cone._unit(150)], [1.0, 1.0, -1.0], 1e-2),
                  10.0, samples=200)
    b1 = cone.positive_activations_kept(pc2)
    assert violated(b1) and "example 1" in b1.note and violated(cone.sign_reversals(pc2))
    pc1 = execute(cone.pc1_rescue_scenario(1e-2, 0, 70), 20.0, samples=200)
    assert violated(cone.positive_activations_kept(pc1))


def test_lemma3_check_fails_on_a_pattern_change_and_on_a_boundary_slide(fixture_run):
    assert held(cone.extremal_sector_kept(fixture_run))
    W = fixture_run.W.copy()
    W[150:, 0] *= -1.0  # neuron 0 (in sigma+ from t = 0) jumps to the opposite sector
    assert violated(cone.extremal_sector_kept(with_states(fixture_run, W=W)))
    slides = [execute(SC.pl_scenario(D.pc2(), [cone._unit(40), cone._unit(127)], [1.0, -1.0], 1e-2), 10.0, samples=200)]
    margin = cone.extremal_sector_kept(slides[0])
    assert violated(margin) and "slides on w^T x = 0" in margin.note


def test_lemma3_zero_entries_hold_on_pc12():
    run = execute(SC.pl_scenario(D.pc12(), [[1.0, 0.3, 0.0], [0.2, -1.0, -0.5]], [1.0, -1.0], 1e-3), 20.0, samples=200)
    margin = cone.extremal_sector_kept(run)
    assert held(margin) and "[1, 1, 0, -1]" in margin.note


# --- PL-X7 ----------------------------------------------------------------------------------------------------------

def test_loss_values_of_the_fixture_match_the_sheet():
    sc = SC.fixture_scenario()
    tr = simulate(sc.dataset, sc.init.W0, sc.init.v0, 5.0, loss="logistic", times=[1.0, 2.0, 3.0, 5.0],
                  log_eps=sc.init.log_eps, rtol=1e-11)
    loss = [math.exp(M.log_loss(sc.dataset.X, sc.dataset.y, W, a, get_loss("logistic"))) for W, a in zip(tr.W, tr.v)]
    assert np.allclose(loss, [6.232766, 4.494608, 2.056464, 0.322074], atol=2e-6)


def test_loss_check_holds_along_gf_and_fails_backwards(fixture_run):
    assert held(cone.loss_decreasing(fixture_run))
    backwards = with_states(fixture_run, W=fixture_run.W[::-1].copy(), v=fixture_run.v[::-1].copy())
    assert violated(cone.loss_decreasing(backwards))
