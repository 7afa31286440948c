"""The three commented claim files in examples/ run as documented: through ``verify check`` (every verdict as
expected), through the pytest plugin, and the bound example has teeth (a bound half as large is refuted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from verify.claims.registry import load_file
from verify.cli.main import main
from verify.search import search
from verify.verdicts import Verdict

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FILES = sorted(str(p) for p in EXAMPLES.glob("*.py"))


def test_examples_check_as_expected(tmp_path):
    assert [Path(f).name for f in FILES] == ["bound_with_slack.py", "invariant_balancedness.py", "planted_false.py"]
    assert main(["check", *FILES, "--report", str(tmp_path / "report")]) == 0
    entries = {e["id"]: e for e in json.loads((tmp_path / "report/report.json").read_text())["claims"]}
    assert {k: e["verdict"] for k, e in entries.items()} == {
        "norm-growth-gronwall": "HOLDS", "balancedness-conserved": "HOLDS", "planted-no-crossing": "REFUTED"}
    slack = entries["norm-growth-gronwall"]["slack"]["worst_ratio"]
    assert 0.0 < slack <= 1.0


def test_examples_through_the_pytest_plugin(tmp_path):
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-o", f"cache_dir={tmp_path}", "--verify-db", "none",
                          "--verify-budget", "6", *FILES], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 0 and "2 passed, 1 xfailed" in out.stdout, out.stdout + out.stderr


def test_the_bound_example_has_teeth(tmp_path):
    """The Gronwall bound is about 1.3x loose where it is tightest: halving its rate must be refuted."""
    source = (EXAMPLES / "bound_with_slack.py").read_text()
    assert "    rate = x_max * loss0\n" in source
    mutant = tmp_path / "half_bound.py"
    mutant.write_text(source.replace("    rate = x_max * loss0\n", "    rate = 0.5 * x_max * loss0\n"))
    (claim,) = load_file(mutant)
    assert search(claim, budget=12, seed=0).verdict == Verdict.REFUTED
