"""Seed 000, the decoupling step (PL-P1, PL-P2) and the probability claims (PL-P6, PC6, PC4): each check
failing on a planted case and holding on the fixture, and regression values of the
fixture run (sheet section 7) and of the Monte Carlo counts."""

from __future__ import annotations

import math

import numpy as np
import pytest

from verify.claims.model import held, violated
from verify.claims.run import execute
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import decoupling as DC
from properties.phuong_lampert2021 import probability as PR
from properties.phuong_lampert2021 import scenarios as SC

CLAIMS = [DC.P1, DC.PC2_P1, DC.P2, DC.P2_FROM_ZERO, DC.PC2_P2, DC.P2_MOVED,
          PR.P6, PR.PC6_P6, PR.PC6_ALIVE, PR.P6_SUFFICIENT, PR.PC4_P6]


def test_catalogue_conventions():
    for claim in CLAIMS:
        assert claim.source.startswith("000 ") and claim.node and claim.uses, claim.id
        assert ("planted" in claim.tags) == claim.statement.startswith("PLANTED:"), claim.id


@pytest.fixture(scope="module")
def fixture_run():
    """Sheet section 7: the fixture, p = 4, lambda = 1e-3, to the decoupling claims' horizon."""
    return execute(SC.fixture_scenario(), DC.HORIZON, rtol=1e-10, samples=DC.SAMPLES, spacing="log")


# --- decoupling: holds on the fixture, fails on planted inputs ------------------------------------------------------

def test_fixture_entry_and_groups(fixture_run):
    smp, k, grp = DC._groups_at_entry(fixture_run)
    assert grp.tolist() == [1, 1, -1, -1]
    assert 0.6393 <= smp.t[k] < 0.84  # T^ = 0.6393 (sheet 7); the first log sample after it
    assert DC.entered(fixture_run) is True


def test_entry_precondition_gives_a_reason_before_t_hat():
    short = execute(SC.fixture_scenario(), 0.5, rtol=1e-10, samples=DC.SAMPLES, spacing="log")
    assert "T^ not reached" in DC.entered(short)


def test_outputs_split_exactly_on_the_fixture(fixture_run):
    m = DC.outputs_split(fixture_run)
    assert held(m) and m.value == 0.0 and m.error < 1e-14


def test_linear_blocks_agree_to_integrator_tolerance(fixture_run):
    m = DC.linear_blocks(fixture_run)
    assert held(m) and -m.value < 1e-8 and m.error < 1e-7
    assert -m.value < 0.2 * m.error  # the error is a bound, not a fit: measured distance well inside it


def test_linear_from_start_fails_on_the_rescued_neuron(fixture_run):
    """Neuron 1 (a > 0, initially active on negatives only) is not a linear unit before T^."""
    m = DC.linear_from_start(fixture_run)
    assert violated(m) and "neuron 1" in m.note
    assert -m.value == pytest.approx(0.328, abs=0.01)


def test_moved_other_class_holds_and_has_teeth(fixture_run):
    assert held(DC.moved_other_class()(fixture_run))
    into_the_other_cone = lambda own, other, rng: other + 1.5 * own.sum(axis=0)  # noqa: E731  (breaks OS)
    bad = DC.moved_other_class(into_the_other_cone)(fixture_run)
    assert violated(bad) and -bad.value > 0.5


def test_mix_keeps_orthogonal_separability():
    ds = D.fixture()
    own, other = ds.X[ds.y > 0], ds.X[ds.y < 0]
    moved = DC.mix_other_class(own, other, np.random.default_rng(0))
    assert np.all(own @ moved.T <= 0.0) and np.all(moved @ moved.T > 0.0)
    assert not np.allclose(moved, other)


# --- probability ---------------------------------------------------------------------------------------------------

def test_sufficient_neurons_end_in_their_group_on_the_fixture(fixture_run):
    m = PR.sufficient_ends_in_group(fixture_run)
    assert held(m) and m.value == pytest.approx(0.0990, abs=1e-3)  # neuron 0 on x_1 at t = 0: cos(e1, x1)
    assert held(PR.some_neuron_alive(fixture_run))


def test_frequency_bound_and_binomial_tail():
    assert PR.frequency_bound(1, 200) == pytest.approx(0.5 + 3 * math.sqrt(0.25 / 200))
    assert PR.frequency_bound(2, 200) == pytest.approx(0.3418559, rel=1e-6)
    assert PR.binomial_tail(0, 200, 0.5) == 1.0
    assert PR.binomial_tail(200, 200, 0.5) == pytest.approx(2.0**-200)


def test_monte_carlo_counts_on_the_fixture():
    """Sheet PL-P6 [NUM]: no deaths on OS data with p = 1; every run not saved by the condition is rescued."""
    c = PR.count_deaths(D.fixture(), 1)
    assert (c.runs, c.by_condition, c.simulated, c.dead, c.undecided, c.rescued) == (200, 153, 47, 0, 0, 47)
    q_plus, q_minus = PR.survival_probability(D.fixture(), np.random.default_rng(0))
    assert 0.81 < q_plus < 0.85 and 0.75 < q_minus < 0.79


def test_pc6_dies_exactly_when_the_condition_fails():
    """x+ = e1, x- = -e2: no rescue, so dead runs = runs without a sufficient neuron (P = 2^-p)."""
    for p, dead in ((1, 109), (2, 67)):
        c = PR.count_deaths(PR.pc6(), p)
        assert c.dead == c.simulated == dead and c.rescued == 0 and c.undecided == 0
    q_plus, q_minus = PR.survival_probability(PR.pc6(), np.random.default_rng(0))
    assert abs(q_plus - 0.5) < 0.015 and abs(q_minus - 0.5) < 0.015


def test_frequency_runner_refutes_a_biased_init():
    """Teeth: directions drawn away from the own class (H-RAND dropped) kill every run on PC6."""

    def away(rng, p, d):
        s = np.where(rng.random(p) < 0.5, -1.0, 1.0)
        g = rng.standard_normal((p, 2))
        return np.c_[np.where(s > 0, -np.abs(g[:, 0]), g[:, 0]), np.where(s < 0, np.abs(g[:, 1]), g[:, 1])], s

    out = PR.frequency_runner(((PR.pc6, 1),), n=50, draw=away)(PR.P6)
    assert out.verdict == Verdict.REFUTED and out.counterexample is not None and "50 dead" in out.reason


def test_some_neuron_alive_fails_on_a_dead_pc6_run():
    dead = SC.pl_scenario(PR.pc6(), [[-1.0, 0.5]], [1.0], 1e-3)  # a > 0, inactive on e1, active on -e2: dies
    run = execute(dead, 20.0, rtol=1e-10, samples=16, spacing="log")
    m = PR.some_neuron_alive(run)
    assert violated(m) and m.value == pytest.approx(-1 / math.sqrt(1.25), rel=1e-9)


def test_outputs_split_counts_the_rounding_of_a_product_on_a_kink():
    """The second thorough audit's PL-P1 finding (seed 1; FAILED as an engine inconsistency): on orthant data both
    neurons are dead at T^ and one rests on the kink of x_2, so its float64 w^T x_2 is +1e-17-ish (the 30-digit run's
    is not > 0): f(x_2) is that one rounded term, the split 0, and the relative mismatch 1 against an error of
    4 p u. Each product's absolute rounding |a_j| 2 (d + 2) u ||w_j|| ||x_i|| is now in the error: no violation."""
    from properties.phuong_lampert2021 import datasets as d000

    ds = d000.orthant(n_pos=2, n_neg=2, d=2, seed=3)
    run = execute(SC.gaussian_init(ds, 2, 1e-3, 2, "random"), DC.HORIZON, rtol=1e-10, samples=DC.SAMPLES,
                  spacing="log")
    m = DC.outputs_split(run)
    assert held(m)  # here the largest mismatch is 1 (m.note), by rounding's sign of that one product
