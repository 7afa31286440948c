"""Smoke test of benchmarks/bench_search_power.py: ``--quick`` runs and prints only JSON lines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_search_power_quick_prints_json_lines() -> None:
    res = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_search_power.py"), "--quick"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    records = [json.loads(line) for line in res.stdout.splitlines() if line.strip()]
    assert records[-1]["name"] == "summary" and records[-1]["searches"] == 6
    for r in records[:-1]:
        assert r["bench"] == "search_power" and len(r["verdicts"]) == 2
        assert r["refuted_fraction"] == 0.0 or r["median_examples_to_violation"] >= 1
