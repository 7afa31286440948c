"""Output paths are checked before any work starts; results with non-finite numbers are written as
valid JSON and read back; a replay of another claim's counterexample is a usage error."""

from __future__ import annotations

import json
import math

import pytest

from verify.claims.registry import get_claim
from verify.cli.main import main
from verify.report.document import build_report, claim_entry
from verify.report.render import render_all
from verify.report.schema import validate
from verify.search import SearchResult
from verify.verdicts import Verdict


def _one_line_exit_2(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    return err


def test_report_dir_that_is_a_file(tmp_path, capsys):
    target = tmp_path / "file"
    target.write_text("x")
    assert "is a file" in _one_line_exit_2(capsys, ["check", "S1-balancedness-relu", "--report", str(target)])
    assert target.read_text() == "x"


def test_report_dir_below_a_file(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    _one_line_exit_2(capsys, ["check", "S1-balancedness-relu", "--report", str(tmp_path / "file" / "sub")])


def test_report_dir_is_created_with_its_parents(tmp_path, capsys):
    out = tmp_path / "a" / "b"
    assert main(["check", "S1-balancedness-relu", "--report", str(out)]) == 0
    doc = json.loads((out / "report.json").read_text())
    assert doc["tool"]["command"] == f"verify check S1-balancedness-relu --report {out}"
    assert doc["summary"]["partial"] is False


@pytest.mark.parametrize("budget", ["-3", "0"])
def test_check_budget_must_be_positive(capsys, tmp_path, budget):
    _one_line_exit_2(capsys, ["check", "EA-A1", "--budget", budget, "--report", str(tmp_path / "r")])


def test_search_json_into_a_missing_directory_is_refused_before_the_search(tmp_path, capsys):
    err = _one_line_exit_2(capsys, ["search", "EA-A1", "--db", "none", "--json", str(tmp_path / "missing" / "r.json")])
    assert "does not exist" in err


def test_search_json_that_is_a_directory(tmp_path, capsys):
    _one_line_exit_2(capsys, ["search", "EA-A1", "--db", "none", "--json", str(tmp_path)])


def test_audit_and_simulate_outputs_are_checked_first(tmp_path, capsys):
    _one_line_exit_2(capsys, ["audit", "gen:toy4", "--json", str(tmp_path / "no" / "a.json")])
    _one_line_exit_2(capsys, ["simulate", "gen:toy4", "--init", str(tmp_path / "i.npz"), "--t-end", "1",
                              "--out", str(tmp_path / "no" / "t.npz")])


def test_replay_of_another_claims_result_is_exit_2_naming_both(tmp_path, capsys):
    path = tmp_path / "p2.json"
    assert main(["search", "P2-balanced-zero", "--db", "none", "--json", str(path)]) == 1
    capsys.readouterr()
    err = _one_line_exit_2(capsys, ["search", "EA-A1", "--replay", str(path)])
    assert "P2-balanced-zero" in err and "EA-A1" in err


def test_non_finite_margins_survive_the_report_round_trip(tmp_path, capsys):
    cx = {"X": [[1.0, 0.0], [0.0, 1.0]], "y": [1.0, -1.0], "W0": [[1.0, 0.0]], "v0": [1.0],
          "params": {"t_end": 1.0}, "margin": -math.inf, "margin_error": 0.0,
          "confirmed_margin": -math.inf, "confirmed_margin_error": math.nan, "note": ""}
    results = [SearchResult(get_claim("R8-t1-max-printed"), Verdict.REFUTED, examples=2, min_margin=-math.inf,
                            min_margin_error=math.nan, counterexample=cx),
               SearchResult(get_claim("EA-A1"), Verdict.HOLDS, examples=2, min_margin=math.inf),
               SearchResult(get_claim("EA-A2"), Verdict.UNKNOWN, min_margin=math.nan)]
    report = build_report([claim_entry(r, "verify search X --replay r.json") for r in results], {"profile": "ci", "seed": 0})
    render_all(report, tmp_path, plots=False)
    stored = json.loads((tmp_path / "report.json").read_text())
    validate(stored)
    assert stored["claims"][0]["min_margin"] == "-inf" and stored["claims"][0]["counterexample"]["margin"] == "-inf"
    assert stored["claims"][1]["min_margin"] == "inf"
    assert "-inf" in (tmp_path / "report.md").read_text()
    assert main(["report", "--from", str(tmp_path / "report.json"), "--out", str(tmp_path / "again"), "--no-plots"]) == 0
    assert "-inf" in (tmp_path / "again" / "index.html").read_text()


def test_a_report_that_cannot_be_written_is_kept_elsewhere(tmp_path, monkeypatch) -> None:
    """The directory passed the early check but report.json cannot be written (disk full, say): exit 2 with
    one line naming the file, and the finished report is saved to a temporary file that the line names."""
    import json
    import re
    from pathlib import Path

    from verify.errors import InputError
    from verify.report import render

    real = Path.write_text

    def full(self, data, *args, **kwargs):
        if self.name == "report.json":
            raise OSError(28, "No space left on device")
        return real(self, data, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full)
    with pytest.raises(InputError) as info:
        render.render_all({"claims": [], "summary": {}}, tmp_path / "r", plots=False)
    message = str(info.value)
    assert "report.json" in message and "No space left on device" in message and "\n" not in message
    rescue = Path(re.search(r"saved to (\S+) instead", message).group(1))
    assert json.loads(rescue.read_text()) == {"claims": [], "summary": {}}
    rescue.unlink()
