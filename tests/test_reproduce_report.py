"""Reproductions attached to a report (issue 17 item 3, ``verify check --with-reproductions``): the engine side
(:func:`verify.reproduce.run_for_report`) with planted experiments, and the report side (schema key
``reproductions``, index.html section after the digest, report.md / claims.md table)."""

from __future__ import annotations

import json

import pytest

from verify.errors import InputError
from verify.paper import Paper
from verify.reproduce import Check, Experiment, Figure, Outcome, png_bytes, run_for_report

from tests.test_report import _synthetic

PNG = b"\x89PNG\r\n\x1a\n"


def _figure() -> Figure:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot([0, 1], [1, 0])
    return Figure("T9-fig", "T9 Figure 1: planted", png_bytes(fig))


def _good(quick: bool, progress) -> Outcome:
    progress("planted")
    return Outcome("planted data", [Check("ordering as stated (T9 Sec. 1)", True, "a < b"),
                                    Check(f"quick flag seen ({quick})", True, "ok")], [_figure()], ["GD and GF agree"])


def _bad(quick: bool, progress) -> Outcome:
    return Outcome("planted data", [Check("rank as stated", False, "stable rank 3.2 >= 2")])


def _empty(quick: bool, progress) -> Outcome:
    return Outcome("planted data")


def _raises(quick: bool, progress) -> Outcome:
    raise RuntimeError("planted crash")


@pytest.fixture()
def planted(monkeypatch):
    """An installed paper T9 with four experiments: passing (with a figure), failing, no checks, raising."""
    import verify.claims.registry as registry

    paper = Paper("T9", "planted paper", [], experiments=[
        Experiment("T9-good", "good", _good, "T9 Sec. 1"), Experiment("T9-bad", "bad", _bad, "T9 Sec. 2"),
        Experiment("T9-empty", "empty", _empty), Experiment("T9-raises", "raises", _raises)])
    monkeypatch.setattr(registry, "papers", lambda: {"T9": paper})
    return paper


def test_run_for_report_writes_under_the_report_and_never_passes_an_inconclusive_run(planted, tmp_path) -> None:
    seen: list[str] = []
    reps = run_for_report([planted], True, tmp_path, progress=seen.append)
    assert [r["name"] for r in reps] == ["T9-good", "T9-bad", "T9-empty", "T9-raises"]
    assert len(seen) == 4 and all(r["quick"] is True for r in reps)
    good, bad, empty, raises = reps
    assert good["passed"] is True and good["figures"] == ["reproductions/T9-good/T9-fig.png"]
    assert (tmp_path / good["figures"][0]).read_bytes()[:8] == PNG
    assert json.loads((tmp_path / "reproductions" / "T9-good" / "summary.json").read_text())["checks"][1]["passed"]
    assert bad["passed"] is False
    assert empty["passed"] is False and empty["checks"] == []  # no checks: inconclusive, not a pass
    assert raises["passed"] is False and raises["error"] == "RuntimeError: planted crash"
    assert run_for_report(["T9"], False, tmp_path / "full", progress=seen.append)[0]["quick"] is False


def test_run_for_report_refuses_an_unknown_paper(planted, tmp_path) -> None:
    with pytest.raises(InputError, match="unknown paper 'nope'"):
        run_for_report(["nope"], True, tmp_path)


def test_report_side_schema_html_and_markdown(planted, tmp_path) -> None:
    from verify.report import schema
    from verify.report.render import render_all

    report = _synthetic()
    report["reproductions"] = run_for_report(["T9"], True, tmp_path, progress=lambda m: None)
    assert schema.errors(report) == []
    broken = json.loads(json.dumps(report))
    del broken["reproductions"][0]["passed"]
    assert schema.errors(broken)  # the key's entries are checked
    paths = render_all(report, tmp_path)
    html = paths["html"].read_text()
    assert "id='reproductions'" in html and "href='#reproductions'" in html
    assert html.index("id='digest'") < html.index("id='reproductions'") < html.index("id='claims'")  # right after the digest
    assert "paper T9: 1/4 experiments reproduced" in html
    assert "2/2 checks passed" in html and "0/1 checks passed" in html
    assert "no checks (inconclusive)" in html and "ERROR: RuntimeError: planted crash" in html
    assert "stable rank 3.2 &gt;= 2" in html and "GD and GF agree" in html
    assert html.count("data:image/png;base64,") >= 1 and "reproductions/T9-good/T9-fig.png" in html
    md = paths["md"].read_text()
    assert "## Reproductions of the papers' experiments" in md and "1/4 experiments reproduced" in md
    assert "| T9-good | T9 | T9 Sec. 1 | 2/2 checks passed | quick |" in md
    assert "- T9-bad: rank as stated (stable rank 3.2 >= 2)" in md
    appendix = paths["appendix"].read_text()
    assert "[T9-fig.png](reproductions/T9-good/T9-fig.png)" in appendix


def test_a_report_without_reproductions_renders_as_before(tmp_path) -> None:
    from verify.report.render import render_all

    report = _synthetic()
    paths = render_all(report, tmp_path, plots=False)
    assert "id='reproductions'" not in paths["html"].read_text()
    assert "Reproductions" not in paths["md"].read_text()
    assert "reproductions" not in json.loads(paths["json"].read_text())


def test_a_missing_figure_file_is_named_not_lost(planted, tmp_path) -> None:
    from verify.report.reproductions import html_section

    report = {"reproductions": run_for_report(["T9"], True, tmp_path, progress=lambda m: None)}
    (tmp_path / report["reproductions"][0]["figures"][0]).unlink()
    assert "(file not found next to this report)" in html_section(report, tmp_path)
    assert "(file not found next to this report)" in html_section(report, None)


@pytest.mark.parametrize("passed, code", [(True, 0), (False, 1)])
def test_check_with_reproductions_attaches_them_and_a_failed_one_fails_the_run(tmp_path, monkeypatch, passed, code):
    """``verify check ID --with-reproductions``: the summaries land in report.json (quick by default), and a
    reproduction whose checks fail makes the exit code 1 even when every claim is as expected."""
    import verify.reproduce as reproduce
    from verify.cli.main import main

    seen: list[bool] = []

    def fake(papers, quick, out_dir, progress=None):
        seen.append(quick)
        return [{"name": "004-planted", "paper": "004", "data": "planted", "checks": [
            {"name": "as stated", "passed": passed, "detail": "planted"}], "figures": [], "passed": passed}]

    monkeypatch.setattr(reproduce, "run_for_report", fake)
    assert main(["check", "EA-D1", "--budget", "2", "--report", str(tmp_path), "--with-reproductions"]) == code
    doc = json.loads((tmp_path / "report.json").read_text())
    assert seen == [True] and doc["reproductions"][0]["name"] == "004-planted"
    assert doc["settings"]["reproductions"] == "quick"
