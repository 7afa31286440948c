"""Smoke test of benchmarks/bench_f64_vs_mp.py: ``--quick`` runs in-process, prints JSON lines
with the documented fields, and the float64 engine's correct digits grow as rtol shrinks."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_f64_vs_mp", ROOT / "benchmarks" / "bench_f64_vs_mp.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_f64_vs_mp_quick(capsys) -> None:
    bench = load_bench()
    assert bench.main(["--quick"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]
    assert all(r["bench"] == "bench_f64_vs_mp" for r in records)
    by_name: dict[str, list] = {}
    for r in records:
        by_name.setdefault(r["name"], []).append(r)
    assert set(by_name) == {"setup", "mp", "mp_check", "float64"}
    mp = by_name["mp"][0]
    assert {"dps", "wall_s", "steps", "events", "error_estimate"} <= set(mp)
    assert mp["dps"] == 30 and mp["events"] > 0 and 0 < mp["error_estimate"] < 1e-25
    check = by_name["mp_check"][0]
    assert check["dps"] == 40 and check["events_match"] and check["reference_error"] < 1e-25
    rows = by_name["float64"]
    assert [r["rtol"] for r in rows] == [1e-6, 1e-8, 1e-10, 1e-12]
    fields = {"state_rel_err", "digits", "event_time_err", "events_match", "float64_error_estimate", "float64_wall_s", "mp_wall_s", "mp_dps"}
    assert all(fields <= set(r) for r in rows)
    assert all(r["events_match"] for r in rows)
    digits = [r["digits"] for r in rows]
    assert all(b > a + 0.5 for a, b in zip(digits, digits[1:])), digits
    assert digits[-1] >= 9
