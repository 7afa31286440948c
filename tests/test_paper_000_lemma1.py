"""Seed 000, Lemma 1 (properties/phuong_lampert2021/lemma1.py): each check
holding on a good run and failing (value < -error) on a planted scenario or a deliberately altered run, agreement of
the cosine membership with measures.groups / entry_index, and the sheet's fixture value T^ = 0.6393 (section 7)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import pytest

from verify.claims.model import Claim, held, violated
from verify.claims.run import execute
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import lemma1 as L
from properties.phuong_lampert2021 import limits as LIM
from properties.phuong_lampert2021 import measures as M
from properties.phuong_lampert2021 import scenarios as SC

CLAIMS = [c for c in vars(L).values() if isinstance(c, Claim)]


class AlteredRun:
    """A run whose sampled states are replaced, everything else delegated to the real run."""

    def __init__(self, run: Any, W: np.ndarray | None = None, v: np.ndarray | None = None) -> None:
        self._run = run
        self.W = run.W.copy() if W is None else W
        self.v = run.v.copy() if v is None else v

    def __getattr__(self, name: str) -> Any:
        return getattr(self._run, name)


def moved_out_of_sector(run: Any) -> AlteredRun:
    """``run`` with neuron 0 (a > 0, in sigma+) turned to the negatives' side at every sample: active on negatives
    only, outside every sector and not dead."""
    W = run.W.copy()
    W[:, 0] = -W[:, 0]
    W[:, 0] += 0.5 * np.linalg.norm(W[:, 0], axis=1)[:, None] * run.X[0] / np.linalg.norm(run.X[0])
    return AlteredRun(run, W=W)


def long_run(scenario) -> Any:
    return execute(scenario, L.HORIZON, rtol=L.RTOL, samples=L.SAMPLES, spacing="log", papers=("000",))


@lru_cache(maxsize=None)
def fixture_run(lam: float = 1e-3) -> Any:
    return long_run(SC.fixture_scenario(lam))


@lru_cache(maxsize=None)
def large_init_run() -> Any:
    return long_run(L.T.gaussian_scenario(D.fixture(), 30, 1.0, seed=7))


@lru_cache(maxsize=None)
def dead_neuron_run() -> Any:
    """limits.wedge data with neuron 0 at its dead direction (inactive on every example), as in the asymptotic tests."""
    ds, dead = LIM.wedge(0)
    V = np.array([LIM._unit(dead), [1.0, 0.3], [-1.0, 0.4]])
    return long_run(SC.pl_scenario(ds, V, [1.0, 1.0, -1.0], 1e-3))


# --- verdicts ----------------------------------------------------------------------------------------------------

def test_catalogue_conventions():
    ids = {c.id for c in CLAIMS}
    assert ids == {"PL-L1", "PL-L1-scale-free", "PL-I5-L1", "PC13-L1", "PC3-L1"}
    for c in CLAIMS:
        assert c.source.startswith("000 ") and c.node == "L1" and c.assumptions
        if c.expected == Verdict.REFUTED:
            assert c.statement.startswith("PLANTED") and "planted" in c.tags
            assert any("drops" in a for a in c.assumptions)


# --- PL-L1: holds on good runs, fails on PC3 and on altered runs ---------------------------------------------------

def test_lemma1_holds_on_the_fixture_with_the_sheet_value_of_t_hat():
    run = fixture_run()
    m = L.reached_within_horizon(run)
    assert held(m) and m.value > 0.5
    t_hat, err = L.entry_time(run)
    assert t_hat == pytest.approx(0.639282, abs=2e-6)  # sheet section 7: neuron 1 crosses x2 at 0.639282
    assert 0.0 < err < 1e-6


def test_lemma1_fails_at_large_init_beyond_the_error():
    run = large_init_run()
    m = L.reached_within_horizon(run)
    assert violated(m), m
    assert "outside" in m.note and M.entry_index(run.X, run.y, M.samples(run)) is None


def test_lemma1_fails_when_a_grouped_neuron_is_moved_out_of_its_sector_at_every_sample():
    assert violated(L.reached_within_horizon(moved_out_of_sector(fixture_run())))


def test_lemma1_part_i_dead_neurons_must_stay_constant():
    run = dead_neuron_run()
    m = L.reached_within_horizon(run)
    assert held(m) and "dead neurons [0]" in m.note
    W = run.W.copy()
    W[-1, 0] *= 1.5  # the dead neuron moves at the end
    assert violated(L.reached_within_horizon(AlteredRun(run, W=W)))


def test_membership_agrees_with_measures_groups():
    """mem_j > error implies measures.groups assigns j; mem_j < -error implies it does not (NONE)."""
    for run in (fixture_run(), large_init_run(), dead_neuron_run()):
        smp = M.samples(run)
        sp, sm = M.extremal_sectors(run.X, run.y)
        err = L.SAFETY * M.state_tolerance(run)
        for k in range(0, smp.t.size, 10):
            mem = L.membership(run.X, smp.W[k], smp.a[k], sp, sm)
            g = M.groups(run.X, smp.W[k], smp.a[k], sp, sm)
            assert np.all(g[mem > err] != M.NONE) and np.all(g[mem < -err] == M.NONE)


# --- PL-L1-scale-free ------------------------------------------------------------------------------------------------

def test_scale_free_holds_on_the_fixture_with_gaps_shrinking_like_lambda_squared():
    m = L.scale_free(fixture_run(1e-2))
    assert held(m) and m.value > 0
    assert m.ratio is not None and m.ratio < 0.05  # O(lambda^2): observed 0.00999


def test_scale_free_fails_when_the_smallest_lambda_never_enters():
    """Altered siblings: the 1e-4 run replaced by the large-init run (never enters) gives Lemma 1's violation."""
    original = L.execute
    try:
        L.execute = lambda scenario, *a, **k: large_init_run() if scenario.params["lambda"] == 1e-4 else original(scenario, *a, **k)
        assert violated(L.scale_free(fixture_run(1e-2)))
    finally:
        L.execute = original


def test_scale_free_fails_when_t_hat_drifts_away_as_lambda_shrinks():
    """Altered siblings: the 1e-4 run replaced by a run whose crossings come later (a time-stretched copy of the 1e-3
    run): the second gap exceeds the first beyond the error."""
    original = L.execute

    class Stretched:
        def __init__(self, run: Any) -> None:
            self._run = run
            self.events = [type(e)(e.t * 1.5, e.i, e.j, e.kind, e.direction) for e in run.events]

        @property
        def times(self):
            return self._run.times * 1.5

        def __getattr__(self, name: str) -> Any:
            return getattr(self._run, name)

    try:
        L.execute = lambda scenario, *a, **k: (Stretched(original(L.at_scale(scenario, 1e-3), *a, **k))
                                               if scenario.params["lambda"] == 1e-4 else original(scenario, *a, **k))
        m = L.scale_free(fixture_run(1e-2))
        assert violated(m), m
    finally:
        L.execute = original


def test_scale_free_is_vacuous_where_1e_2_is_not_small_enough():
    """Module docstring: on orthant(2, 4, d=2, seed=56608), p = 8, init seed 19262, T^ is never reached at 1e-2."""
    run = long_run(SC.gaussian_init(D.orthant(2, 4, 2, seed=56608), 8, 1e-2, 19262))
    assert violated(L.reached_within_horizon(run))
    m = L.scale_free(run)
    assert m.vacuous and "not small enough" in m.note


# --- H-SMALL read as the sheet's [DER]: T_0 before the norm escape time ---------------------------------------------

def test_lemma1_is_vacuous_where_lambda_is_not_small_enough_for_the_draw():
    """The seed-6 thorough audit's draw (module docstring): T^ never reached at lambda = 1e-3 (a violation of the
    bare check), while T_0 = 3.2282 comes after the escape time 2.07: H-SMALL fails for this draw, vacuous."""
    run = long_run(SC.gaussian_init(D.orthant(4, 2, 2, seed=2), 4, 1e-3, 2))
    assert violated(L.reached_within_horizon(run))
    m = L.reached_if_small_enough(run)
    assert m.vacuous and "H-SMALL not met" in m.note and "T_0 = 3.228" in m.note


def test_lemma1_violation_stands_where_t0_comes_before_the_escape():
    """The altered fixture run (a grouped neuron out of its sector at every sample): the fixture's T_0 = 0.639 comes
    long before the escape time at 1e-3, so the violation is not excused."""
    m = L.reached_if_small_enough(moved_out_of_sector(fixture_run()))
    assert violated(m) and "before the norm escape time" in m.note
    assert held(L.reached_if_small_enough(fixture_run()))


def test_scale_free_is_vacuous_where_t_hat_comes_after_the_escape_time():
    """The seed-6 draw: T^ = 6.626, 6.498, 6.267 at 1e-2, 1e-3, 1e-4 (gaps growing) against escape times 3.27, 4.9,
    6.54: outside the scale-free regime, vacuous rather than a refutation of T^ -> T_0 (= 6.2426)."""
    run = long_run(SC.gaussian_init(D.orthant(2, 2, 2, seed=0), 3, 1e-2, 537))
    m = L.scale_free(run)
    assert m.vacuous and "H-SMALL not met" in m.note and "0.01 (T^ = 6.62583" in m.note


def test_width_claim_draws_both_widths():
    from hypothesis import find

    assert find(L.width_scenarios(), lambda sc: sc.init.W0.shape[0] == 30).init.W0.shape[0] == 30
    assert find(L.width_scenarios(), lambda sc: sc.init.W0.shape[0] == 1).init.W0.shape[0] == 1
