"""``python -m verify.report.compare``: make check's verdict comparison against the committed reference."""

import json

from verify.report.compare import differences, main


def _report(path, verdicts):
    path.write_text(json.dumps({"claims": [{"id": cid, "verdict": v} for cid, v in verdicts.items()]}))
    return str(path)


def test_identical_verdicts_agree(tmp_path, capsys):
    ref = _report(tmp_path / "ref.json", {"A": "HOLDS", "B": "REFUTED"})
    new = _report(tmp_path / "new.json", {"B": "REFUTED", "A": "HOLDS"})
    assert main([new, ref]) == 0
    assert "agree" in capsys.readouterr().out


def test_changed_missing_and_new_claims_are_each_named(tmp_path, capsys):
    ref = _report(tmp_path / "ref.json", {"A": "HOLDS", "B": "REFUTED", "C": "PROVED"})
    new = _report(tmp_path / "new.json", {"A": "UNKNOWN", "B": "REFUTED", "D": "HOLDS"})
    assert main([new, ref]) == 1
    out = capsys.readouterr().out
    assert "A: HOLDS in the reference, UNKNOWN now" in out
    assert "C: in the reference (PROVED), not in the new report" in out
    assert "D: new (HOLDS), not in the reference" in out
    assert len(differences({"A": "HOLDS"}, {"A": "HOLDS"})) == 0


def test_unreadable_or_foreign_files_are_exit_2_with_one_line(tmp_path, capsys):
    ref = _report(tmp_path / "ref.json", {"A": "HOLDS"})
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "other.json").write_text(json.dumps({"verdict": "HOLDS"}))
    for bad in (str(tmp_path / "missing.json"), str(tmp_path / "bad.json"), str(tmp_path / "other.json")):
        assert main([bad, ref]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert main([ref]) == 2


def test_the_committed_reference_is_a_readable_report():
    from pathlib import Path

    ref = Path(__file__).resolve().parents[1] / "reports" / "ci" / "report.json"
    assert main([str(ref), str(ref)]) == 0
