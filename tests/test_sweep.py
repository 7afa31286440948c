"""``verify sweep`` (issue 21): grid points fix the claim's scenario() arguments, seeded draws are
deterministic, rows go to DIR/results.parquet and are skipped on a rerun, an interrupted sweep keeps its
finished rows, the phase diagram is drawn, and bad input exits 2 with one line. (In process, serial; the
Dask modes are in tests/test_scaleout_cluster.py.)"""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

import verify.scaleout.sweep as sw
from verify.claims.registry import get_claim
from verify.cli.main import main

CLAIM = "EA-A1"  # a catalogue claim over a plain scenario(...) strategy, fast (balancedness conserved)
GRID = ["--grid", "n=2,3", "--grid", "h=1,2"]


def _rows(out: Path) -> list[dict]:
    return pq.read_table(out / "results.parquet").to_pylist()


def test_draws_are_seeded_and_fix_the_grid_point() -> None:
    strategy = sw.point_strategy(get_claim(CLAIM), {"n": 3, "h": 2, "eps": 1e-3, "mu": 0.3, "loss": "logistic"})
    first, again, other = (sw.draw_scenario(strategy, s) for s in (5, 5, 6))
    assert first.to_dict() == again.to_dict() and first.to_dict() != other.to_dict()
    for sc in (first, other):
        assert sc.dataset.n == 3 and sc.init.W0.shape[0] == 2 and sc.loss == "logistic"
        assert sc.params["mu"] == 0.3 and sc.init.log_eps == pytest.approx(-6.907755278982137)
        assert 2 <= sc.dataset.d <= 3  # not a grid key: the claim's own range


def test_sweep_writes_rows_skips_them_on_rerun_and_draws_the_phase_diagram(tmp_path: Path, capsys) -> None:
    out = tmp_path / "sweep"
    assert main(["sweep", CLAIM, *GRID, "--seeds", "2", "--out", str(out)]) == 0
    rows = _rows(out)
    assert len(rows) == 8 and {(r["n"], r["h"], r["seed"]) for r in rows} == {
        (n, h, s) for n in (2, 3) for h in (1, 2) for s in (0, 1)}
    assert set(rows[0]) >= {"n", "h", "seed", "margin", "error", "vacuous", "time_s", "violated", "status"}
    assert all(r["status"] == "ok" and not r["vacuous"] and not r["violated"] for r in rows)
    assert (out / "phase.png").stat().st_size > 0 and not (out / "results.parts").exists()
    assert "8 row(s)" in capsys.readouterr().out

    calls = []
    real = sw.sweep_task
    sw.sweep_task = lambda *a: calls.append(a) or real(*a)
    try:
        assert main(["sweep", CLAIM, *GRID, "--seeds", "2", "--out", str(out)]) == 0
        assert calls == []  # every row already written
        assert main(["sweep", CLAIM, *GRID, "--seeds", "3", "--out", str(out)]) == 0
        assert len(calls) == 4  # only seed 2 at the four grid points
    finally:
        sw.sweep_task = real
    again = _rows(out)
    assert len(again) == 12 and [r for r in again if r["seed"] < 2] == rows  # same args, same rows

    (out / "phase.png").unlink()
    capsys.readouterr()
    assert main(["sweep", "--plot", str(out)]) == 0
    assert (out / "phase.png").stat().st_size > 0 and "phase diagram" in capsys.readouterr().out


def test_an_interrupted_sweep_keeps_its_finished_rows(tmp_path: Path, monkeypatch, capsys) -> None:
    real = sw.sweep_task
    calls = []

    def interrupted_on_third(*args):
        calls.append(args)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(sw, "sweep_task", interrupted_on_third)
    out = tmp_path / "sweep"
    assert main(["sweep", CLAIM, "--grid", "h=1,2", "--seeds", "2", "--out", str(out)]) == 130
    assert len(_rows(out)) == 2 and "interrupted" in capsys.readouterr().err
    monkeypatch.setattr(sw, "sweep_task", real)
    assert main(["sweep", CLAIM, "--grid", "h=1,2", "--seeds", "2", "--out", str(out)]) == 0
    assert len(_rows(out)) == 4


def test_a_failing_row_is_recorded_and_retried_on_the_next_run(tmp_path: Path, monkeypatch, capsys) -> None:
    real = sw.sweep_task
    monkeypatch.setattr(sw, "sweep_task", lambda ref, point, seed: (_ for _ in ()).throw(RuntimeError("boom"))
                        if seed == 1 else real(ref, point, seed))
    out = tmp_path / "sweep"
    assert main(["sweep", CLAIM, "--grid", "h=1", "--seeds", "2", "--out", str(out)]) == 4
    assert "1 row(s) failed" in capsys.readouterr().err
    assert [(r["seed"], r["status"]) for r in _rows(out)] == [(0, "ok"), (1, "failed")]
    monkeypatch.setattr(sw, "sweep_task", real)
    assert main(["sweep", CLAIM, "--grid", "h=1", "--seeds", "2", "--out", str(out)]) == 0
    assert [(r["seed"], r["status"]) for r in _rows(out)] == [(0, "ok"), (1, "ok")]


@pytest.mark.parametrize("argv, message", [
    ([CLAIM, "--grid", "q=1", "--out", "{out}"], "unknown key 'q'"),
    ([CLAIM, "--grid", "n=two", "--out", "{out}"], "'two' is not an integer"),
    ([CLAIM, "--grid", "n=0", "--out", "{out}"], "n range must satisfy"),
    ([CLAIM, "--grid", "eps=-1", "--out", "{out}"], "eps range must satisfy"),
    ([CLAIM, "--grid", "mu=0.333", "--out", "{out}"], "not a multiple of 0.01"),
    ([CLAIM, "--grid", "alpha=nan", "--out", "{out}"], "not a finite number"),
    ([CLAIM, "--grid", "loss=nope", "--out", "{out}"], "unknown loss 'nope'"),
    ([CLAIM, "--grid", "n=2,2", "--out", "{out}"], "repeated"),
    ([CLAIM, "--grid", "n=2", "--grid", "n=3", "--out", "{out}"], "given twice"),
    ([CLAIM, "--grid", "n", "--out", "{out}"], "expected KEY=V1,V2"),
    ([CLAIM, "--out", "{out}"], "at least one --grid"),
    ([CLAIM, "--grid", "n=2"], "--out DIR is required"),
    ([CLAIM, "--grid", "n=2", "--seeds", "0", "--out", "{out}"], "--seeds must be >= 1"),
    ([CLAIM, "--grid", "n=2", "--out", "/proc/no/such"], "--out: cannot create"),
    (["PL-D1b", "--grid", "n=2", "--out", "{out}"], "not draw its scenarios from a plain"),
    (["no-such-claim", "--grid", "n=2", "--out", "{out}"], "unknown claim"),
    (["--grid", "n=2", "--out", "{out}"], "give a CLAIM"),
    (["--plot", "{out}"], "holds no sweep results"),
    ([CLAIM, "--grid", "n=2", "--out", "{out}", "--workers", "0"], "must be an integer >= 1"),
    ([CLAIM, "--grid", "n=2", "--out", "{out}", "--scheduler", "tcp://127.0.0.1:1"], "cannot reach a Dask scheduler"),
])
def test_bad_input_exits_2_with_one_line(tmp_path: Path, capsys, argv: list[str], message: str) -> None:
    assert main(["sweep", *(a.replace("{out}", str(tmp_path)) for a in argv)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_a_directory_holding_another_sweep_is_refused(tmp_path: Path, capsys) -> None:
    assert main(["sweep", CLAIM, "--grid", "h=1", "--out", str(tmp_path)]) == 0
    assert main(["sweep", CLAIM, "--grid", "n=2", "--out", str(tmp_path)]) == 2
    assert "holds a sweep of claim 'EA-A1' over h" in capsys.readouterr().err
