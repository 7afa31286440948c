"""Reports a reviewer can attach (issue 20): digest first, evidence per verdict, reproducibility, plots.

Fast: synthetic report dicts, the committed reference rendered without plots, one tiny search.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

from verify.report import evidence_text as E  # noqa: E402
from verify.report.digest import digest, markdown_lines, sections  # noqa: E402
from verify.report.obsolete import engine_hash, engine_modules, mark_obsolete  # noqa: E402
from verify.report.render import render_all  # noqa: E402
from verify.report.render_html import render as render_html  # noqa: E402
from verify.report.render_md import render as render_md  # noqa: E402
from verify.report.render_md import render_appendix  # noqa: E402
from verify.report.schema import validate  # noqa: E402

from tests.test_report import _entry, _synthetic  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CLEAN = ("c" * 40, False)  # a working tree at the report's commit (tests pass it explicitly)


@pytest.fixture(scope="module")
def reference() -> dict:
    return json.loads((ROOT / "reports" / "ci" / "report.json").read_text())


def _clean(report: dict) -> dict:
    report = copy.deepcopy(report)
    report["tool"]["git_commit"] = CLEAN[0]
    return report


# ------------------------------------------------------------------------------------ digest


def test_reference_digest_fits_the_first_80_lines(reference: dict) -> None:
    md = render_md(reference, tree=CLEAN).splitlines()
    head = "\n".join(md[:80])
    assert md[0] == "# relu-verify report: digest"
    assert "Regenerate with: `verify check --profile ci --seed 0 --report reports/ci`" in head
    for paper in reference["papers"]:
        assert f"## {paper['id']}: " in head
    assert head.count("- Errata found (") == 4
    assert "**Theorem 1** (convergence to w+-)" in head and "**Theorem 5.5**" in head
    ids_004 = set(next(p for p in reference["papers"] if p["id"] == "004")["claims"])
    planted = [c for c in reference["claims"] if c["id"] in ids_004 and c["expected"] == "REFUTED"]
    assert len(planted) >= 37
    assert f"planted counterexamples refuted: {len(planted)}/{len(planted)}" in head
    assert "zeta := max{zeta1, zeta2}" in head  # 004 erratum 1 (R8)
    assert "claims.md" in "\n".join(md[:90])


def test_theorem_level_verdicts_are_the_worst_of_their_claims() -> None:
    report = _synthetic()
    sec = next(s for s in sections(report) if s.key == "004")
    theorems = {n.label: n for n in sec.theorems}
    assert theorems["Thm 1, part 1"].status == "UNKNOWN" and theorems["Thm 1, part 1"].claims == ["EA-E6"]
    assert theorems["Theorem 1"].status == "not checked"
    lemmas = {n.label: n for n in sec.lemmas}
    assert lemmas["Lemma 5"].status == "HOLDS" and lemmas["Lemma 2"].status == "PROVED"
    assert (sec.planted_refuted, sec.planted_total) == (3, 3)
    errata = {e.id: e for e in sec.errata}
    assert errata["4"].status == "confirmed" and [c["id"] for c in errata["4"].claims] == ["S2-lemma2-logistic-main"]
    assert errata["1"].status == "not decided by this report"


def test_an_erratum_whose_claim_misbehaves_is_not_confirmed() -> None:
    report = _synthetic()
    e = next(e for e in report["claims"] if e["id"] == "S8-eq28-c4-gives-29")
    e["verdict"], e["as_expected"] = "UNKNOWN", False
    e.pop("counterexample")
    sec = next(s for s in sections(report) if s.key == "004")
    assert next(er for er in sec.errata if er.id == "2").status == "NOT confirmed"
    assert sec.missed == ["S8-eq28-c4-gives-29"] and (sec.planted_refuted, sec.planted_total) == (2, 3)


def test_user_claims_get_their_own_section(tmp_path: Path) -> None:
    report = _synthetic()
    user = _entry("my-claim", "HOLDS", source="my notes")
    user.update({"paper": None, "file": "claims/mine.py"})
    report["claims"].append(user)
    validate(report)
    secs = sections(report)
    assert secs[-1].user and secs[-1].title == "User claims (claims/mine.py)" and secs[-1].claims == [user]
    paths = render_all(report, tmp_path, plots=False)
    md, page = paths["md"].read_text(), paths["html"].read_text()
    assert "## User claims (claims/mine.py)" in md and "- my-claim: **HOLDS** (my notes; 3 example(s), smallest margin 0.5 (err 1e-12))" in md
    assert "User claims (claims/mine.py)" in page and "data-paper='claims/mine.py'" in page
    assert "user claim, claims/mine.py" in paths["appendix"].read_text()


# ------------------------------------------------------------------------------------ evidence


def test_holds_shows_ranges_worst_case_and_margin_meaning() -> None:
    report = _synthetic()
    e = report["claims"][0]
    assert E.explored_text(e) == E.NOT_RECORDED and E.worst_case_text(e) == E.NOT_RECORDED  # stored before 1.2
    e["explored"] = {"n": [2, 8], "eps": [1e-6, 1e-2], "loss": ["exp", "logistic"], "log_eps": [-13.8, -4.6]}
    e["worst_case"] = {"margin": 0.0123, "error": 1e-12, "note": "neuron 3 closest", "params": {"n": 4, "loss": "exp"}}
    e["margin_unit"] = "radians between w_j and the cone boundary"
    assert E.explored_text(e) == "n in [2, 8]; eps in [1e-06, 0.01]; ln eps in [-13.8, -4.6]; loss: exp, logistic"
    assert E.worst_case_text(e) == "margin 0.0123 (error 1e-12) at n = 4, loss = exp: neuron 3 closest"
    assert "radians" in E.margin_text_explained(e)
    assert "unit not declared" in E.margin_text_explained(report["claims"][1])
    appendix = render_appendix(report)
    assert "- tested on: n in [2, 8]" in appendix and "- worst case: margin 0.0123" in appendix
    page = render_html(report, tree=CLEAN)
    assert "n in [2, 8]" in page and "radians between" in page
    proved = report["claims"][1]
    assert E.explored_text(proved) is None and E.worst_case_text(proved) is None  # symbolic: no generated cases


def test_search_records_explored_ranges_and_worst_case() -> None:
    from verify.claims import get_claim
    from verify.report.document import claim_entry
    from verify.search import search

    claim = get_claim("EA-A1")
    first, second = search(claim, budget=4, seed=0), search(claim, budget=4, seed=0)
    assert first.verdict.value == "HOLDS" and first.examples >= 1
    assert first.explored == second.explored and first.min_margin == second.min_margin
    ex = first.explored
    for key in ("n", "d", "h", "log_eps", "loss", "alpha", "init"):
        assert key in ex, key
    assert ex["n"][0] <= ex["n"][1] and isinstance(ex["n"][0], int)
    assert first.worst_case["margin"] == first.min_margin and "n" in first.worst_case["params"]
    entry = claim_entry(first)
    assert entry["explored"] == jsonable_ranges(ex) and entry["worst_case"]["params"]["n"] in range(ex["n"][0], ex["n"][1] + 1)
    assert entry["engine_hash"] == engine_hash(claim)


def jsonable_ranges(ex: dict) -> dict:
    from verify.jsonable import jsonable

    return jsonable(ex)


# ------------------------------------------------------------------------------------ text bugs


def test_text_bugs_are_gone(reference: dict, tmp_path: Path) -> None:
    paths = render_all(mark_obsolete(_clean(reference)), tmp_path, plots=False)
    md, appendix, page = (paths[k].read_text() for k in ("md", "appendix", "html"))
    for text in (md, appendix, page):
        assert "None-digit" not in text
        assert "rtol = -" not in text
    assert "rtol = 1e-10" in md
    assert "high-precision rerun: not applicable" in appendix
    import re

    witness = "".join(re.findall(r"<table class='witness'>.*?</table>", page))
    assert witness and "[&#x27;" not in witness and "{&#x27;" not in witness  # no raw Python lists / dicts
    assert "value.params</td><td><code>data = pl_orthants" in witness
    assert len(md.encode()) < 20_000 and len(paths["appendix"].read_bytes()) > 10 * len(md.encode())


def test_tidy_witness_values() -> None:
    assert E.tidy(["logistic", -1.0, -0.25]) == "(logistic, -1, -0.25)"
    assert E.tidy({"data": "planted_p1a", "angles": [0.5, 1.25]}) == "data = planted_p1a; angles = (0.5, 1.25)"
    assert E.tidy([[1.0, 0.0], [0.0, 1.0]]) == "[(1, 0); (0, 1)]"


# ------------------------------------------------------------------------------------ reproducibility


def test_commit_mismatch_and_dirty_tree_warnings() -> None:
    report = _synthetic()
    report["tool"]["git_commit"] = "a" * 40
    assert digest(report, ("a" * 40, False)).warnings == ["Unexpected outcomes: EA-E6"]
    mismatch = digest(report, ("b" * 40, False)).warnings
    assert len(mismatch) == 2 and "computed at commit aaaaaaaaaa" in mismatch[0] and "bbbbbbbbbb" in mismatch[0]
    assert "uncommitted changes" in digest(report, ("a" * 40, True)).warnings[0]
    page = render_html(report, tree=("b" * 40, False))
    assert "id='warnings'" in page and page.index("id='warnings'") < page.index("id='digest'")
    assert "> **Warning**: This report was computed at commit" in render_md(report, tree=("b" * 40, False))


def test_regenerate_line_uses_the_stored_command() -> None:
    report = _synthetic()
    report["tool"]["command"] = "verify check --profile ci --seed 0 --report out"
    lines = markdown_lines(digest(report, CLEAN))
    assert "Regenerate with: `verify check --profile ci --seed 0 --report out`" in lines[2]
    report["tool"]["command"] = None
    assert "(rebuilt: no command stored)" in digest(report, CLEAN).regenerate


def test_engine_change_marks_results_obsolete() -> None:
    from verify.claims import get_claim

    claim = get_claim("EA-A1")
    modules = engine_modules(claim)
    assert {"verify.search", "verify.claims.run", "verify.dynamics.events"} <= set(modules)
    assert not any(m.startswith(("verify.report", "verify.cli")) for m in modules)
    entry = _entry("EA-A1", "HOLDS")
    entry["definition_hash"] = __import__("verify.report.obsolete", fromlist=["x"]).definition_hash(claim)
    entry["engine_hash"] = engine_hash(claim)
    report = _synthetic()
    report["claims"] = [entry]
    assert mark_obsolete(report, claims=[claim])["summary"]["obsolete"] == 0
    stale = copy.deepcopy(report)
    stale["claims"][0]["engine_hash"] = "0" * 64
    stale["tool"]["engine"] = dict(report["tool"]["engine"], **{"verify.dynamics.events": "0" * 16})
    marked = mark_obsolete(stale, claims=[claim])
    reason = marked["claims"][0]["obsolete"]["reason"]
    assert reason.startswith("engine changed since this result was computed") and "verify.dynamics.events" in reason
    old = copy.deepcopy(report)
    del old["claims"][0]["engine_hash"]
    marked = mark_obsolete(old, claims=[claim])
    assert marked["summary"]["obsolete"] == 0 and marked["summary"]["no_engine_hash"] == 1
    assert any("no engine hash" in w for w in digest(marked, CLEAN).warnings)
    validate(marked)


# ------------------------------------------------------------------------------------ plots


def test_violation_site_is_read_from_the_note() -> None:
    r8 = {"note": "t = 11.9678: neuron 0 (s = +1, initially active on own class: False) is in S-, margin -0.23",
          "params": {"t_end": 11.97}}
    assert E.violation_site(r8) == {"t": 11.9678, "j": 0, "t_end": 11.97}
    p1b = {"note": "1 sliding/grazing record(s), first sliding of (i=1, j=0) at t=0.00705297", "params": {"t_end": 2.0}}
    assert E.violation_site(p1b) == {"t": 0.00705297, "i": 1, "j": 0, "t_end": 2.0}
    assert E.violation_site({"note": "", "params": {"t_end": 0.0}}) == {}


def test_counterexample_plot_marks_the_violation(reference: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    from verify.report import plots

    figures: list = []
    real = plots._png
    monkeypatch.setattr(plots, "_png", lambda fig, dpi=plots.DPI: (figures.append(fig), real(fig, dpi))[1])
    monkeypatch.setattr(plt, "close", lambda fig=None: None)  # keep the figure to inspect it
    entry = next(e for e in reference["claims"] if e["id"] == "R8-t1-max-printed")
    png = plots.counterexample_png(entry)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    fig = figures[-1]
    labels = [t.get_text() for ax in fig.axes for t in (ax.get_legend().get_texts() if ax.get_legend() else [])]
    assert any(x.startswith("violation at t = 11.97") for x in labels)
    assert any(x.startswith("claim's horizon t_end") for x in labels)
    assert any(x.startswith("violating neuron j=0") for x in labels)
    thick = [ln for ax in fig.axes for ln in ax.get_lines() if ln.get_linewidth() >= 2.5]
    assert thick and all(ln.get_color() == plots.NEG for ln in thick)
    assert fig.dpi >= 0 and max(t.get_fontsize() for t in labels and fig.axes[0].get_legend().get_texts()) >= 10
    plt.close("all")


def test_generated_reports_do_not_count_as_code_changes() -> None:
    """A report computed at commit A and rendered at B warns only when A and B differ outside reports/ (committing
    the regenerated reference itself changes nothing that computes results); unknown commits always warn."""
    from verify.report.digest import same_code, warnings, working_tree

    head, _ = working_tree()
    if head is None:
        pytest.skip("not a git checkout")
    assert same_code(head, head) and not same_code("0" * 40, head)
    report = {"tool": {"git_commit": head}, "summary": {}}
    assert not any("computed at commit" in w for w in warnings(report, (head, False)))
    report["tool"]["git_commit"] = "0" * 40
    assert any("computed at commit 0000000000" in w for w in warnings(report, (head, False)))
