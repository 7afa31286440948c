"""``verify reproduce`` (DESIGN.md section 6, "Reproductions"): the list, the summary contract, exit codes,
and every installed experiment's quick run passing its checks."""

from __future__ import annotations

import json

import pytest

from verify.cli.main import main
from verify.errors import InputError
from verify.paper import Paper
from verify.reproduce import Experiment, Outcome, experiments

NAMES = sorted(experiments())


def test_list_names_first_and_begins_with_the_paper_id(capsys) -> None:
    assert main(["reproduce", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in lines] == NAMES
    assert {"004-fig6-toy", "004-fig7-8-mu", "004-fig9-orthogonal"} <= set(NAMES)
    for line in lines:
        name, paper, _ = line.split("\t")
        assert name.startswith(f"{paper}-")


@pytest.mark.parametrize("name", NAMES)
def test_quick_run_passes_its_checks_and_writes_the_summary(name, tmp_path, capsys) -> None:
    assert main(["reproduce", name, "--quick", "--out", str(tmp_path)]) == 0, capsys.readouterr().out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert {"name", "paper", "data", "checks", "figures"} <= set(summary)
    assert summary["name"] == name and summary["quick"] is True and summary["checks"]
    assert all({"name", "passed", "detail"} == set(c) for c in summary["checks"])
    for figure in summary["figures"]:
        assert (tmp_path / figure).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_failed_check_exits_1(tmp_path, monkeypatch, capsys) -> None:
    from verify import reproduce as rep
    from verify.reproduce import Check

    failing = Experiment("004-failing", "planted", lambda quick, progress: Outcome("none", [Check("c", False, "planted")]))
    monkeypatch.setattr(rep, "experiments", lambda: {"004-failing": ("004", failing)})
    assert main(["reproduce", "004-failing", "--out", str(tmp_path)]) == 1
    assert "FAIL  c: planted" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["reproduce"], ["reproduce", "nope"], ["reproduce", "--list", "004-fig6-toy"]])
def test_bad_input_exits_2(argv, capsys) -> None:
    assert main(argv) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_a_paper_refuses_experiments_without_its_id() -> None:
    exp = Experiment("XYZ-thing", "wrong prefix", lambda quick, progress: Outcome("none"))
    with pytest.raises(InputError, match="experiments"):
        Paper("T9", "tiny", [], experiments=[exp])
