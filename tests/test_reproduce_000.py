"""Seed 000's reproductions (``properties/phuong_lampert2021/experiments.py``): each quick run passes its checks
through ``verify reproduce`` and writes its figures; the sampler and the init follow the sheet (section 3.1)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from verify.cli.main import main

from properties.phuong_lampert2021.experiments import EXPERIMENTS
from properties.phuong_lampert2021.figure1 import fig1_data
from properties.phuong_lampert2021.training import torch_init

BY_NAME = {exp.name: exp for exp in EXPERIMENTS}
FIGURES = {"000-fig1-os": {"fig1a-singular-values.png", "fig1b-projection.png", "fig1c-cosines.png", "fig1-continuation.png"},
           "000-appD-mnist01": {"appD-fig3-products.png", "appD-fig4a-singular-values.png", "appD-fig4b-projection.png"}}


@pytest.fixture
def registered(monkeypatch):
    """The experiments as ``verify reproduce`` sees them (whether or not the Paper lists them yet)."""
    from verify import reproduce as rep

    known = dict(rep.experiments())
    known.update({name: ("000", exp) for name, exp in BY_NAME.items()})
    monkeypatch.setattr(rep, "experiments", lambda: known)


def test_names_begin_with_the_paper_id_and_section_5_2_is_declared_not_reproduced() -> None:
    assert set(BY_NAME) == set(FIGURES)
    assert all(name.startswith("000-") for name in BY_NAME)
    from properties.phuong_lampert2021 import experiments

    assert "Not reproduced: Section 5.2" in experiments.__doc__


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_quick_run_passes_its_checks_and_draws_its_figures(name, registered, tmp_path, capsys) -> None:
    assert main(["reproduce", name, "--quick", "--out", str(tmp_path)]) == 0, capsys.readouterr().out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["name"] == name and summary["paper"] == "000" and summary["quick"] is True
    assert len(summary["checks"]) >= 5 and all(c["passed"] for c in summary["checks"])
    assert set(summary["figures"]) == FIGURES[name]
    for figure in summary["figures"]:
        assert (tmp_path / figure).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert summary["notes"] and summary["values"]


def test_fig1_sampler_is_orthogonally_separable_and_z_filtered() -> None:
    ds = fig1_data(300, 20, seed=3)
    z = np.where(np.arange(20) % 2 == 0, 1.0, -1.0)
    assert ds.n == 300 and ds.d == 20 and 0 < ds.n_pos < 300
    assert np.all(ds.X @ z >= 0.0)
    assert np.all(ds.X[ds.y > 0] > 0.0) and np.all(ds.X[ds.y < 0] < 0.0)  # opposite orthants: OS by construction
    assert np.array_equal(fig1_data(300, 20, seed=3).X, ds.X)


def test_torch_init_is_kaiming_uniform_times_0_05_and_unbalanced() -> None:
    W, a = torch_init(100, 20, seed=0)
    assert W.shape == (100, 20) and a.shape == (100,)
    assert np.max(np.abs(W)) <= 0.05 / np.sqrt(20) and np.max(np.abs(a)) <= 0.05 / np.sqrt(100)
    assert np.max(np.abs(np.abs(a) - np.linalg.norm(W, axis=1))) > 1e-3  # not the paper's balanced init
