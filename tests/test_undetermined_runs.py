"""A run whose switching settling finds no fixed point is undetermined, and never counts as evidence.

The planted scenario is a real one, not a patched engine: four coplanar inputs (x_3 = 0) and one neuron started
at w = eps e_3, orthogonal to all of them, so at t = 0 every row lies on the neuron's surface at once. With
alpha = 0.1 and the logistic loss the joint settling of the four rows has no fixed point in any number type: the
law cannot say which rows start active, and each engine picks one outcome of several. A neuron tilted off e_3
meets no row at t = 0 and gives a determined run of the same data.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import verify
from verify.data.dataset import Dataset
from verify.evidence.cross_check import cross_check
from verify.model.init import Initialization
from verify.scenarios import Scenario, scenario
from verify.search import evaluate, search
from verify.simulate import simulate, uncertified_runs
from verify.verdicts import Verdict

X = np.array([[1.0, -0.5, 0.0], [1.0, 1.0, 0.0], [-0.5, 2.5, 0.0], [0.5, -1.5, 0.0]])
Y = np.array([-1.0, -1.0, 1.0, 1.0])
ON_ALL_SURFACES = np.array([[0.0, 0.0, 1.0]])
TILTED = np.array([[0.3, 0.2, 1.0]])
LOG_EPS = math.log(1e-3)
KW = dict(alpha=0.1, loss="logistic")


def _scenario(W: np.ndarray) -> Scenario:
    v = np.linalg.norm(W, axis=1)
    return Scenario(Dataset(X, Y), Initialization(W, v, LOG_EPS, "given"), loss="logistic", alpha=0.1)


def _run(W: np.ndarray, backend: str, polar: bool = False):
    v = np.linalg.norm(W, axis=1)
    if polar:
        return simulate((X, Y), W, v, 30.0, backend=backend, log_eps=-30.0, **KW)
    return simulate((X, Y), W * 1e-3, v * 1e-3, 30.0, backend=backend, **KW)


@pytest.mark.parametrize("backend, polar", [("events", False), ("events", True), ("limit", True), ("mp", False)])
def test_every_engine_says_its_run_is_undetermined(backend, polar):
    traj = _run(ON_ALL_SURFACES, backend, polar)
    assert traj.uncertified is not None and "no fixed point" in traj.uncertified
    assert _run(TILTED, backend, polar).uncertified is None


def test_the_ledger_collects_undetermined_runs_and_nests():
    assert _run(ON_ALL_SURFACES, "events").uncertified  # outside a block nothing is collected, nothing raised
    with uncertified_runs() as outer:
        _run(TILTED, "events")
        assert outer == []
        with uncertified_runs() as inner:
            _run(ON_ALL_SURFACES, "events")
        assert len(inner) == 1 and "no fixed point" in inner[0]
        assert outer == inner


def _always_true(companion: np.ndarray | None = None):
    @verify.claim(id="always-true", over=scenario(n=(2, 3), d=(2, 2), h=(1, 2), eps=(1e-3, 1e-2)), horizon=30.0)
    def check(run):
        if companion is not None:  # a check that simulates a run of its own
            _run(companion, "events")
        return True

    return check


def test_an_undetermined_run_makes_an_example_inconclusive_never_ok():
    claim = _always_true()
    undetermined = evaluate(claim, _scenario(ON_ALL_SURFACES))
    assert undetermined.status == "inconclusive" and "undetermined" in undetermined.reason
    assert math.isinf(undetermined.margin.error)  # what a sweep row records: never a finite-error margin
    assert evaluate(claim, _scenario(TILTED)).status == "ok"


def test_an_undetermined_companion_run_makes_the_search_unknown_not_holds():
    """Every example's check simulates the undetermined run itself: without the ledger the search would say
    HOLDS on margins of +1; with it each example is inconclusive and the verdict UNKNOWN."""
    assert search(_always_true(TILTED), budget=3, seed=0).verdict is Verdict.HOLDS
    result = search(_always_true(ON_ALL_SURFACES), budget=3, seed=0)
    assert result.verdict is Verdict.UNKNOWN
    assert result.inconclusive >= 1 and "no fixed point" in result.reason


def test_the_cross_check_skips_an_undetermined_run_instead_of_comparing_it():
    claim = _always_true()
    result = cross_check(claim, [(1.0, _scenario(ON_ALL_SURFACES))], seed=0)
    assert result.runs == 0 and any("undetermined" in s for s in result.skipped)
    assert cross_check(claim, [(1.0, _scenario(TILTED))], seed=0).runs == 1


def test_a_reproduction_with_an_undetermined_run_never_passes(monkeypatch, tmp_path):
    import verify.claims.registry as registry
    from verify.paper import Paper
    from verify.reproduce import Check, Experiment, Outcome, passed, reproduce

    def experiment(W: np.ndarray):
        def run(quick: bool, progress) -> Outcome:
            _run(W, "events")
            return Outcome("planted data", [Check("the loss decreases", True, "it does")])

        return run

    paper = Paper("T8", "planted paper", [], experiments=[Experiment("T8-on", "on", experiment(ON_ALL_SURFACES)),
                                                            Experiment("T8-off", "off", experiment(TILTED))])
    monkeypatch.setattr(registry, "papers", lambda: {"T8": paper})
    assert passed(reproduce("T8-off", tmp_path / "off"))
    summary = reproduce("T8-on", tmp_path / "on")
    assert not passed(summary)
    assert summary["checks"][-1]["name"] == "every run is determined" and "no fixed point" in summary["checks"][-1]["detail"]
