"""Seed 002's reproductions (``properties/sarussi2021_linear_teachers/experiments.py``): each quick run passes its
checks through ``verify reproduce`` and writes its figures; the training readings agree with the sheet's definitions."""

from __future__ import annotations

import json

import numpy as np
import pytest

from verify.cli.main import main

from properties.sarussi2021_linear_teachers import datasets as D
from properties.sarussi2021_linear_teachers.experiments import EXPERIMENTS
from properties.sarussi2021_linear_teachers.mnist_runs import split
from properties.sarussi2021_linear_teachers.scenarios import gaussian_init
from properties.sarussi2021_linear_teachers.training import first_step, par_share, read, train

FIGURES = {"002-fig1-init-scale": ["fig1_init_scale.png"], "002-fig2-mnist": ["fig2_mnist.png"],
           "002-fig3-5-clustered": ["fig3_5_clustered.png"], "002-fig4-symmetric-par": ["fig4_symmetric_par.png"],
           "002-fig8-high-dim-par": [], "002-fig9-outlier": ["fig9_outlier.png"]}


def test_registry():
    assert {e.name for e in EXPERIMENTS} == set(FIGURES)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_quick_run_passes_its_checks_and_draws_its_figures(name, tmp_path, capsys):
    assert main(["reproduce", name, "--quick", "--out", str(tmp_path)]) == 0, capsys.readouterr().out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["paper"] == "002" and summary["quick"] is True
    assert summary["checks"] and all(c["passed"] for c in summary["checks"]), summary["checks"]
    assert summary["figures"] == FIGURES[name]
    for figure in summary["figures"]:
        assert (tmp_path / figure).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_gd_readings_on_antipodal_data():
    """GD from a small init on antipodal Gaussians: PAR from early on, both neuron types all in PAR, r conserved."""
    ds = D.symmetric_gaussians(10)
    traj = train(ds, gaussian_init(3, 2, 1e-4, 0), 0.5, 2000, samples=8)
    rows = read(traj, ds)
    assert first_step(rows, "par") is not None
    assert par_share(traj.W[-1], ds.X, ds.y) == (1.0, 1.0)
    assert abs(rows[-1].r - rows[2].r) <= 1e-12 * rows[2].r
    assert np.all(np.diff([r.loss for r in rows]) <= 0.0)


def test_mnist_split_is_a_seeded_partition():
    ds = D.teacher(40, 3, 0.1, seed=0)
    tr, te = split(ds, seed=5)
    assert (tr.n, te.n) == (30, 10)
    rows = {tuple(x) for x in np.vstack([tr.X, te.X])}
    assert rows == {tuple(x) for x in ds.X}
    again, _ = split(ds, seed=5)
    np.testing.assert_array_equal(again.X, tr.X)
