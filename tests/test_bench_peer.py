"""Smoke tests of benchmarks/bench_peer.py (the project side by side with heyoka.py).

heyoka is an optional dependency (the ``bench`` extra): the tests that need it skip with that
reason when it is not installed; the others check the benchmark without it.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "bench_peer.py"
NO_HEYOKA = "heyoka not installed (optional: pip install -e '.[bench]')"


def _load_module():
    if "bench_peer" in sys.modules:
        return sys.modules["bench_peer"]
    spec = importlib.util.spec_from_file_location("bench_peer", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules["bench_peer"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _records(stdout: str) -> list[dict]:
    records = [json.loads(line) for line in stdout.splitlines() if line.strip()]
    assert records and all(r["bench"] == "bench_peer" for r in records)
    return records


def _run(*args: str, hide_heyoka: bool = False) -> list[dict]:
    if hide_heyoka:  # a None entry in sys.modules makes `import heyoka` raise ImportError
        code = f"import runpy, sys; sys.modules['heyoka'] = None; sys.argv = [{str(SCRIPT)!r}, *{list(args)!r}]; runpy.run_path({str(SCRIPT)!r}, run_name='__main__')"
        cmd = [sys.executable, "-c", code]
    else:
        cmd = [sys.executable, str(SCRIPT), *args]
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    return _records(res.stdout)


def test_quick_prints_json_lines() -> None:
    records = _run("--quick", "--only", "small,scaling,loop,targets", "--repeat", "2")
    by_name: dict[str, list[dict]] = {}
    for r in records:
        by_name.setdefault(r["name"], []).append(r)
    assert {"setup", "peer", "scaling", "targets"} <= set(by_name)
    peer = by_name["peer"][0]
    assert peer["case"] == "small" and peer["project_wall_s"] > 0
    assert 0 < peer["project_engine_wall_s"] and peer["project_outside_engine_s"] > 0  # the call is more than its engine
    if by_name["setup"][0]["heyoka"] is None:
        assert peer["skipped"] == "heyoka not installed"
    else:
        assert peer["events_identical"] and peer["project_crossings"] == peer["heyoka_crossings"] > 0
        assert peer["heyoka_over_project"] > 0 and peer["heyoka_compile_s"] > 0
        assert peer["engine_over_heyoka"] == pytest.approx(peer["project_engine_wall_s"] / peer["heyoka_wall_s"])
    assert [r["variant"] for r in by_name["scaling"]] == ["base", "n x2", "h x2", "d x2"]
    assert all(r["wall_min_over_base"] > 0 for r in by_name["scaling"]) and by_name["scaling"][0]["wall_min_over_base"] == 1.0
    loops = by_name["loop"]
    assert [r["case"] for r in loops] == ["small", "tiny"]
    assert all(r["same_events"] and r["python_over_compiled"] > 0 and r["steps"][0] == r["steps"][1] for r in loops)
    targets = by_name["targets"][0]
    assert all(row["met"] is None for row in targets["rows"])  # --quick judges no target


def test_without_heyoka_the_peer_side_is_skipped_with_a_reason() -> None:
    records = _run("--quick", "--only", "small,hp_small,accuracy", "--repeat", "1", hide_heyoka=True)
    assert any(r["name"] == "heyoka" and r["skipped"] == "heyoka not installed" for r in records)
    accuracy = next(r for r in records if r["name"] == "accuracy")
    assert accuracy["skipped"] == "heyoka not installed" and len(accuracy["project_error"]) == 5
    peers = [r for r in records if r["name"] == "peer"]
    assert [r["case"] for r in peers] == ["small", "hp_small"]
    for r in peers:
        assert r["skipped"] == "heyoka not installed" and r["project_wall_s"] > 0 and r["project_crossings"] > 0
    assert peers[0]["project_engine_wall_s"] > 0 and "project_outside_engine_s" in peers[0]


def test_engine_share_splits_each_call_into_the_engine_and_the_rest() -> None:
    bp = _load_module()
    share = bp.engine_share([1.0, 3.0, 2.0], [0.5, 2.0, 1.75])
    assert share == {"project_engine_wall_s": 1.75, "project_outside_engine_s": 0.5}


def test_equal_accuracy_picks_the_loosest_peer_at_least_as_accurate_everywhere() -> None:
    bp = _load_module()
    peers = [{"heyoka_tol": 1e-10, "heyoka_error": [1e-15, 3e-8], "project_over_heyoka": 1.15},
             {"heyoka_tol": 1e-12, "heyoka_error": [1e-15, 5e-10], "project_over_heyoka": 0.93},
             {"heyoka_tol": 1e-14, "heyoka_error": [1e-16, 5e-12], "project_over_heyoka": 0.70}]
    assert bp.equal_accuracy([1e-9, 1e-9], peers) == {"heyoka_tol": 1e-12, "project_over_heyoka": 0.93}
    assert bp.equal_accuracy([1e-9, 1e-11], peers) == {"heyoka_tol": 1e-14, "project_over_heyoka": 0.70}
    assert bp.equal_accuracy([1e-9, 1e-13], peers) is None  # no peer as accurate at every sample


def test_compare_events_reports_the_agreeing_prefix() -> None:
    bp = _load_module()
    ev = lambda t, i, j, s: SimpleNamespace(t=t, i=i, j=j, direction=s)  # noqa: E731
    project = [ev(0.1, 0, 1, -1), ev(0.2, 2, 0, 1), ev(0.3, 1, 1, -1)]
    same = bp.compare_events(project, [(0.1 + 1e-12, 0, 1, -1), (0.2, 2, 0, 1), (0.3, 1, 1, -1)])
    assert same["events_identical"] and same["events_agree_prefix"] == 3
    assert same["max_event_time_diff"] == pytest.approx(1e-12, rel=1e-3)
    differ = bp.compare_events(project, [(0.1, 0, 1, -1), (0.25, 2, 1, 1)])
    assert not differ["events_identical"] and differ["events_agree_prefix"] == 1
    assert differ["project_crossings"] == 3 and differ["heyoka_crossings"] == 2


def test_heyoka_flow_finds_the_projects_crossings() -> None:
    pytest.importorskip("heyoka", reason=NO_HEYOKA)
    from verify import simulate

    bp = _load_module()
    hy = bp.heyoka_module()  # with its on-disk JIT cache off
    cfg = bp.Config()
    ds = bp.make_data(8, 3, cfg)
    W, v = bp.make_init(5, 3, cfg)
    flow = bp.HeyokaFlow(hy, ds.X, ds.y, 5, tol=1e-10, compact=True)
    flow.run(flow.prepare(W, v), 2.0)
    tr = simulate(ds, W, v, 2.0, rtol=1e-10)
    events = bp.compare_events(tr.crossings(), flow.log)
    assert events["events_identical"] and events["project_crossings"] > 10
    assert events["max_event_time_diff"] < 1e-7
    Wh, vh = flow.final()
    assert bp.compare_states(tr.W[-1], tr.v[-1], Wh, vh)["max_state_diff_rel"] < 1e-7


def test_accuracy_reports_each_sides_error_against_the_mp_reference() -> None:
    """``accuracy``: the project's error (and heyoka's at each tol, when installed) at every sample time, relative to
    each neuron's size, against the mp backend; loose sanity bounds only (rtol 1e-10 over a horizon of 4)."""
    records = _run("--quick", "--only", "accuracy,targets", "--repeat", "1")
    acc = next(r for r in records if r["name"] == "accuracy")
    assert acc["times"] == [0.5, 1.0, 2.0, 3.0, 4.0]
    assert len(acc["project_error"]) == 5 and all(0.0 <= e < 1e-7 for e in acc["project_error"])
    if next(r for r in records if r["name"] == "setup")["heyoka"] is None:
        assert acc["skipped"] == "heyoka not installed"
        return
    assert [p["heyoka_tol"] for p in acc["peers"]] == [1e-10, 1e-12]
    for p in acc["peers"]:
        assert len(p["heyoka_error"]) == 5 and all(0.0 <= e < 1e-5 for e in p["heyoka_error"])
        assert p["project_over_heyoka"] > 0
    small = next(r for r in records if r["name"] == "targets")["rows"][0]  # its note: the ratio at equal accuracy
    fair = _load_module().equal_accuracy(acc["project_error"], acc["peers"])
    assert ("at equal accuracy" in small.get("note", "")) == (fair is not None)


def test_neuron_errors_are_relative_to_each_neurons_size() -> None:
    bp = _load_module()
    Wr, vr = np.array([[[3.0, 0.0], [0.0, 1e-6]]]), np.array([[4.0, 0.0]])  # neuron sizes 5 and 1e-6
    W, v = Wr.copy(), vr.copy()
    W[0, 0, 0] += 5e-3  # 1e-3 of the first neuron's size
    W[0, 1, 1] += 1e-8  # 1e-2 of the second's
    assert bp.neuron_errors(W, v, Wr, vr) == pytest.approx([1e-2], rel=1e-9)
