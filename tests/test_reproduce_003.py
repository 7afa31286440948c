"""Seed 003's reproductions (``properties/lyu2021_margin/experiments.py``): each quick run passes its checks through
``verify reproduce`` and writes its figures; the helpers give the sheet's closed forms."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from verify.cli.main import main
from verify.margins import max_margin

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import network as N
from properties.lyu2021_margin.experiments import EXPERIMENTS
from properties.lyu2021_margin.flows import direction_distance, flow, two_group_direction
from properties.lyu2021_margin.fragility_runs import single_unit

FIGURES = {"003-e1-global-margin": ["e1_global_margin.png"], "003-e2-time-scale": ["e2_time_scale.png"],
           "003-e3-plateaus": ["e3_plateaus.png"], "003-e4-two-neurons": ["e4_two_neurons.png"],
           "003-e5-fragility": ["e5_fragility.png", "e5_phase_diagram.png"],
           "003-e6-local-convergence": ["e6_local_convergence.png"], "003-e7-planted": ["e7_planted.png"],
           "003-e8-large-init": []}


def test_registry_and_the_figure_1_note():
    assert {e.name for e in EXPERIMENTS} == set(FIGURES)
    from properties.lyu2021_margin import experiments

    assert "Figure 1" in experiments.__doc__ and "not reproduced" in experiments.__doc__


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_quick_run_passes_its_checks_and_draws_its_figures(name, tmp_path, capsys):
    assert main(["reproduce", name, "--quick", "--out", str(tmp_path)]) == 0, capsys.readouterr().out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["paper"] == "003" and summary["quick"] is True and summary["notes"]
    assert summary["checks"] and all(c["passed"] for c in summary["checks"]), summary["checks"]
    assert summary["figures"] == FIGURES[name]
    for figure in summary["figures"]:
        assert (tmp_path / figure).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_limit_directions_and_paper_time():
    w_star = max_margin(D.d_sym()).svm.direction
    W, a = two_group_direction(w_star)
    assert N.norm_sq(W, a) == pytest.approx(1.0, rel=1e-15)
    assert direction_distance(3.0 * W, 3.0 * a, (W, a)) == pytest.approx(0.0, abs=1e-15)
    assert N.norm_sq(*single_unit(w_star)) == pytest.approx(1.0, rel=1e-15)
    ds = D.d_sym()
    f = flow(ds, np.array([[1.0, 0.0, 0.0]]), np.array([0.5]), 1e-3, t_engine=10.0, samples=5)
    assert f.t[-1] == pytest.approx(10.0 * ds.n) and np.all(np.diff(f.t) > 0)
    assert f.norm[0] == pytest.approx(1e-3 * math.sqrt(1.25), rel=1e-2)  # first sample at t = 1e-3 n
