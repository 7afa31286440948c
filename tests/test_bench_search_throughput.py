"""Smoke test of benchmarks/bench_search_throughput.py: ``--quick`` prints one JSON line per claim."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_quick_prints_examples_per_second() -> None:
    res = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_search_throughput.py"), "--quick"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert res.returncode == 0, res.stderr
    records = [json.loads(line) for line in res.stdout.splitlines() if line.strip()]
    assert all(r["bench"] == "bench_search_throughput" for r in records)
    assert [r["name"] for r in records] == ["setup", "claim", "claim", "summary"]
    claims = records[1:3]
    assert {r["kind"] for r in claims} == {"pointwise", "trajectory invariant"}
    for r in claims:
        assert r["budget"] == 2 and 1 <= r["examples"] <= 2
        assert r["wall_s"] > 0 and r["examples_per_s"] > 0 and r["as_expected"]
        assert 0 <= r["eval_s"] <= r["wall_s"]
    summary = records[-1]
    assert summary["examples"] == sum(r["examples"] for r in claims) and summary["passes"] == 1
    assert summary["examples_per_s_passes"] == [summary["examples_per_s"]]
    assert summary["ratio_to_baseline"] == summary["examples_per_s"] / summary["baseline_per_s"]
    assert summary["target_met"] is None  # judged side by side only (--against)


def test_against_measures_a_baseline_checkout_side_by_side(tmp_path: Path) -> None:
    """--against DIR runs DIR's own benchmark on the same claims (here: this checkout against itself) and the target
    reads the side-by-side ratio; a DIR without the benchmark is a usage error."""
    script = str(ROOT / "benchmarks" / "bench_search_throughput.py")
    res = subprocess.run([sys.executable, script, "--quick", "--against", str(ROOT)], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout.splitlines()[-1])
    assert summary["against"] == str(ROOT) and len(summary["against_per_s_passes"]) == 1
    assert summary["ratio_to_against"] == summary["examples_per_s"] / summary["against_per_s"]
    assert summary["target_met"] == (summary["ratio_to_against"] >= summary["target_ratio"])
    bad = subprocess.run([sys.executable, script, "--quick", "--against", str(tmp_path)], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert bad.returncode == 2 and "no benchmarks/bench_search_throughput.py there" in bad.stderr
