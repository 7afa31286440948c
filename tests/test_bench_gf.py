"""Smoke test of benchmarks/bench_gf.py: ``--quick`` runs and prints only JSON lines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_gf_quick_prints_json_lines() -> None:
    res = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_gf.py"), "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    lines = [line for line in res.stdout.splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]
    names = {r["name"] for r in records}
    assert {"setup", "gf_events", "gd", "dop853_naive", "accuracy", "ratios", "pieces", "polar_eps", "scaling", "large"} <= names
    assert all(r["bench"] == "bench_gf" for r in records)
