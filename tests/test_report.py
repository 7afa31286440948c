"""Reports (issue 7): schema, renderings, dependency graph, obsolete marking, replay, screenshots.

The slow parts run once per module: a real ``verify check`` on three planted claims (one
scenario counterexample, one pointwise, one symbolic) and one ``render_all`` with plots.
Everything else uses synthetic report dicts.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

from properties.min2024_early_alignment.paper import PAPER as PAPER_004  # noqa: E402
from verify.report import content, graph  # noqa: E402
from verify.report.document import REPORT_VERSION, build_report, summary_line  # noqa: E402
from verify.report.obsolete import definition_hash, mark_obsolete  # noqa: E402
from verify.report.render import render_all  # noqa: E402
from verify.report.schema import SCHEMA, errors, validate  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
VERIFY = Path(sys.executable).parent / "verify"
CHECKED = ("P8-lemma2-plain-logistic", "P2-balanced-zero", "S9-t1-n1")


def _verify_cmd() -> list[str]:
    return [str(VERIFY)] if VERIFY.exists() else [sys.executable, "-c", "import sys; from verify.cli.main import main; sys.exit(main())"]


# ------------------------------------------------------------------------------------ fixtures


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A real `verify check` of three planted claims, run from a scratch directory (relative --report)."""
    work = tmp_path_factory.mktemp("check")
    out = subprocess.run(_verify_cmd() + ["check", *CHECKED, "--report", "tmp"], cwd=work, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return work, json.loads((work / "tmp" / "report.json").read_text())


@pytest.fixture(scope="module")
def rendered(checked: tuple[Path, dict], tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict[str, Path]]:
    _, report = checked
    out = tmp_path_factory.mktemp("rendered")
    return report, render_all(report, out)


def _entry(cid: str, verdict: str, expected: str | None = None, *, source: str = "004 Lemma 5", tags=(),
           checked=(), assumed=(), cx: dict | None = None, node: str | None = None) -> dict:
    expected = expected or verdict
    e = {
        "id": cid, "source": source, "paper": "004", "node": node, "statement": f"statement of {cid}",
        "assumptions": {"checked": list(checked), "assumed": list(assumed)}, "expected": expected, "horizon": None,
        "tags": list(tags), "depends_on": [], "definition_hash": "a" * 64, "verdict": verdict,
        "as_expected": verdict == expected or (expected == "HOLDS" and verdict == "PROVED"),
        "examples": 3, "vacuous": 0, "numerical_failures": 0, "min_margin": 0.5, "min_margin_error": 1e-12,
        "time_s": 0.1, "example_time_s": {"min": 0.01, "median": 0.02, "max": 0.05}, "reason": "synthetic",
    }
    if verdict == "REFUTED":
        e["counterexample"] = cx or {"X": [], "y": [], "W0": [], "v0": [], "value": [1.0, 0.0],
                                     "params": {"t_end": 0.0, "horizon": None}, "margin": -0.5, "note": "synthetic",
                                     "replay": f"verify search {cid} --replay r.json"}
    return e


def _synthetic() -> dict:
    entries = [
        _entry("EA-D2", "HOLDS", checked=["Assumption 1 (by construction)", "exp or 2x logistic loss (Lemma 2)"],
               assumed=["Caratheodory solution with sigma'(0) = 0"], node="L5"),
        _entry("S2-lemma2-exp", "PROVED", source="004 Lemma 2 (R1); EA-B1; §6 S2", tags=["symbolic"], node="L2"),
        _entry("S2-lemma2-logistic-main", "REFUTED", "REFUTED", source="004 Lemma 2 (plain logistic); R2, P8, §7 erratum 4",
               tags=["symbolic"], node="L2"),
        _entry("S8-eq28-c4-gives-29", "REFUTED", "REFUTED", source="004 eq. (28) as printed (c = 4); R9", tags=["symbolic"],
               node="E28"),
        _entry("EA-E6", "UNKNOWN", "HOLDS", source="004 Theorem 1 part 1", node="T1A"),
        _entry("P1a-A4-loses-positive", "REFUTED", "REFUTED", source="004 sheet P1(a)", tags=["planted"], node="E46"),
        _entry("XYZ-unplaced", "HOLDS", source="somewhere else"),
    ]
    return build_report(entries, {"profile": "ci", "seed": 0, "precision": "float64", "tolerances": {"rtol": 1e-10},
                                  "sigma_prime_at_zero": 0.0}, papers=[PAPER_004])


# --------------------------------------------------------------------------------- the schema


def test_real_report_validates_against_schema(checked: tuple[Path, dict]) -> None:
    _, report = checked
    validate(report)
    assert report["report_version"] == REPORT_VERSION
    assert [e["id"] for e in report["claims"]] == list(CHECKED)


def test_synthetic_report_validates_and_schema_rejects_defects() -> None:
    report = _synthetic()
    validate(report)
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    bad = copy.deepcopy(report)
    del bad["claims"][2]["counterexample"]  # REFUTED without a counterexample
    assert any("counterexample" in m for m in errors(bad))
    bad = copy.deepcopy(report)
    bad["claims"][0]["verdict"] = "PASS"
    assert errors(bad)
    bad = copy.deepcopy(report)
    del bad["report_version"]
    with pytest.raises(jsonschema.ValidationError):
        validate(bad)


def test_entries_carry_current_definition_hashes(checked: tuple[Path, dict]) -> None:
    from verify.claims import get_claim

    _, report = checked
    for e in report["claims"]:
        assert e["definition_hash"] == definition_hash(get_claim(e["id"]))


# ------------------------------------------------------------------------------ replay


@pytest.mark.parametrize("claim_id", ["P8-lemma2-plain-logistic", "P2-balanced-zero"])
def test_stored_replay_command_reproduces_the_violation(checked: tuple[Path, dict], claim_id: str) -> None:
    work, report = checked
    entry = next(e for e in report["claims"] if e["id"] == claim_id)
    argv = shlex.split(entry["counterexample"]["replay"])
    assert argv[0] == "verify"
    out = subprocess.run(_verify_cmd() + argv[1:], cwd=work, capture_output=True, text=True, timeout=120)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "VIOLATED" in out.stdout


# ------------------------------------------------------------------------------ renderings


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text())
    page.close()
    return page


def test_html_is_self_contained_and_complete(rendered: tuple[dict, dict[str, Path]]) -> None:
    report, paths = rendered
    page = _parse(paths["html"])
    text = " ".join(page.text)
    for tag, attrs in page.tags:
        for key in ("src", "href", "xlink:href", "srcset", "action", "data"):
            value = (attrs.get(key) or "").strip().lower()
            assert not re.match(r"^(https?:)?//", value), f"external reference <{tag} {key}={value[:60]}>"
            if key in ("href", "xlink:href") and value:
                assert value.startswith("#"), f"non-local link <{tag} {key}={value[:60]}>"
        assert tag not in ("iframe", "object", "embed", "link"), f"<{tag}> in a self-contained page"
        assert tag != "script" or "src" not in attrs, "only inline scripts (the table filter)"
    images = [a for t, a in page.tags if t == "img"]
    assert images and all((a.get("src") or "").startswith("data:image/png;base64,") for a in images)
    # summary, table, graph, plots
    assert summary_line(report) in text
    ids = {a.get("id") for _, a in page.tags}
    assert {"summary-line", "claims-table", "graph", "plots", "trusted", "errata", "counterexamples"} <= ids
    rows = [a for t, a in page.tags if t == "tr"]
    assert len(rows) >= len(report["claims"]) + 1
    assert any(t == "svg" and "depgraph" in (a.get("class") or "") for t, a in page.tags)
    assert sum(1 for t, a in page.tags if t == "g" and a.get("data-node")) == sum(len(g.nodes) for g in graph.graphs(report))
    for name in ("toy4-cones", "toy4-dynamics", "toy4-events", "orthsep-cones", "orthsep-dynamics", "orthsep-events",
                 "balancedness"):
        assert f"fig-{name}" in ids
    # the scenario counterexample has its trajectory plot, the others their witness
    assert any("violating trajectory of P2-balanced-zero" in (a.get("alt") or "") for a in images)
    assert "Witness" in text
    for cid in CHECKED:
        assert cid in text


def test_markdown_and_files(rendered: tuple[dict, dict[str, Path]]) -> None:
    report, paths = rendered
    digest_md = paths["md"].read_text()
    md = digest_md + paths["appendix"].read_text()
    assert summary_line(report) in digest_md and "## Trusted base" in digest_md and "(claims.md)" in digest_md
    for heading in ("## Claims", "## Counterexamples", "## 004 lemma dependency graph", "## Representative runs",
                    "## Paper errata (declared by the paper plug-ins)"):
        assert heading in md
    for target in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md):
        assert (paths["md"].parent / target).is_file(), target
    assert "plots/cx-P2-balanced-zero.png" in md
    assert paths["svg:004"].read_text().startswith("<svg") and paths["svg:004"].name == "graph-004.svg"
    assert json.loads(paths["json"].read_text()) == report
    for e in report["claims"]:
        assert e["counterexample"]["replay"] in md


def test_render_without_plots_is_fast_and_valid(tmp_path: Path) -> None:
    report = _synthetic()
    paths = render_all(report, tmp_path, plots=False)
    page = _parse(paths["html"])
    assert not [a for t, a in page.tags if t == "img"]
    assert "Plots not generated" in paths["html"].read_text()
    validate(json.loads(paths["json"].read_text()))


# ------------------------------------------------------------------------------ content


def test_header_summary_and_trusted_base() -> None:
    report = _synthetic()
    facts = dict(content.header_facts(report))
    assert facts["tool"].startswith("relu-verify")
    assert "numpy" in facts["libraries"] and "epsilon" in facts["float environment"]
    assert summary_line(report) == ("7 claims: 1 PROVED, 2 HOLDS, 3 REFUTED (3 as expected), 1 UNKNOWN, 0 FAILED; "
                                    "1 unexpected")
    tb = content.trusted_base(report)
    assert tb["assumed"] == {"Caratheodory solution with sigma'(0) = 0": ["EA-D2"]}
    assert any("sigma'(0) = 0" in line for line in tb["conventions"])


def test_errata_are_the_papers_declared_ones_with_their_claims() -> None:
    er = content.errata(_synthetic())
    paper, errata = er["papers"][0]
    by_id = {erratum["id"]: [e["id"] for e in entries] for erratum, entries in errata}
    assert paper["id"] == "004" and len(errata) == 12
    assert by_id["4"] == ["S2-lemma2-logistic-main"]
    assert by_id["2"] == ["S8-eq28-c4-gives-29"]  # R9 = erratum 2
    assert by_id["1"] == []  # declared, decided by no claim of this report
    assert {e["id"] for e in er["refuted"]} == {"S2-lemma2-logistic-main", "S8-eq28-c4-gives-29", "P1a-A4-loses-positive"}
    assert er["missed"] == []


# ------------------------------------------------------------------------------ graph


def test_graph_attaches_claims_and_tolerates_missing_ids() -> None:
    report = _synthetic()
    g = graph.graph_of(report, "004")
    st = graph.states(report, g)
    assert st["L5"].status == "HOLDS" and [e["id"] for e in st["L5"].claims] == ["EA-D2"]
    assert st["L2"].status == "PROVED" and [e["id"] for e in st["L2"].planted] == ["S2-lemma2-logistic-main"]
    assert st["E46"].status == "not encoded" and [e["id"] for e in st["E46"].planted] == ["P1a-A4-loses-positive"]
    assert st["T1A"].status == "UNKNOWN"  # EA-E6
    assert st["A2"].status == "assumption"
    assert st["THM1"].status == "not encoded"  # parents not all encoded
    assert [e["id"] for e in graph.outside(report, g)] == ["XYZ-unplaced"]
    svg = graph.svg(report, g)
    assert svg.startswith("<svg") and svg.count("class='node'") == len(g.nodes) == len(PAPER_004.blueprint.nodes)
    assert "stroke-dasharray" in svg  # grey "not encoded" nodes
    assert all(g.node(a).row < g.node(b).row for a, b in g.edges)  # drawn top to bottom


def test_graph_attaches_claims_by_their_declared_node_only() -> None:
    g = graph.graph_of(_synthetic(), "004")
    assert graph.node_of({"id": "EA-B1-exp", "paper": "004", "node": "L2"}, g) == "L2"
    assert graph.node_of({"id": "EA-B1-exp", "paper": "004", "node": None}, g) is None  # no inference from the id
    assert graph.node_of({"id": "x", "paper": "T01", "node": "L2"}, g) is None  # another paper's node
    assert graph.node_of({"id": "x", "paper": "004", "node": "NOPE"}, g) is None
    claims = PAPER_004.claims
    assert sum(c.node is not None for c in claims) >= 130 and all(c.node is None or g.node(c.node) for c in claims)


def test_assumption_split_checked_proved_assumed() -> None:
    report = _synthetic()
    e = report["claims"][0]
    split = graph.assumption_split(e, report)
    assert split["checked"] == ["Assumption 1 (by construction)"]
    assert len(split["proved"]) == 1 and "S2-lemma2-exp" in split["proved"][0]
    assert split["assumed"] == ["Caratheodory solution with sigma'(0) = 0"]
    report["claims"][1]["verdict"] = "HOLDS"  # the symbolic support no longer PROVED
    split = graph.assumption_split(e, report)
    assert split["proved"] == [] and len(split["checked"]) == 2


# ------------------------------------------------------------------------------ obsolete


def test_definition_hash_tracks_definition_and_code() -> None:
    from verify.claims import get_claim

    claim = get_claim("EA-A1")
    h = definition_hash(claim)
    assert re.fullmatch(r"[0-9a-f]{64}", h) and definition_hash(claim) == h
    assert definition_hash(dataclasses.replace(claim, statement=claim.statement + " ")) != h
    assert definition_hash(dataclasses.replace(claim, check=lambda run: 0.0)) != h
    sym = get_claim("S2-lemma2-exp")
    assert any("def check_lemma2" in s for s in __import__("verify.report.obsolete", fromlist=["x"])._code_sources(sym))


def test_mark_obsolete(checked: tuple[Path, dict]) -> None:
    from verify import __version__

    _, report = checked
    fresh = mark_obsolete(report)
    assert fresh["summary"]["obsolete"] == 0 and not any("obsolete" in e for e in fresh["claims"])
    changed = copy.deepcopy(report)
    changed["claims"][0]["definition_hash"] = "0" * 64
    del changed["claims"][1]["definition_hash"]
    marked = mark_obsolete(changed)
    assert [bool(e.get("obsolete")) for e in marked["claims"]] == [True, True, False]
    assert "definition changed" in marked["claims"][0]["obsolete"]["reason"]
    assert summary_line(marked).endswith("; 2 obsolete")
    validate(marked)
    old = copy.deepcopy(report)
    old["tool"]["version"] = "0.0.0-old"
    assert mark_obsolete(old, tool_version=__version__)["summary"]["obsolete"] == len(report["claims"])
    assert mark_obsolete(report, claims=[])["claims"][0]["obsolete"]["reason"] == "claim no longer in the catalogue"


def test_report_command_rerenders_and_flags_obsolete(checked: tuple[Path, dict], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    main = importlib.import_module("verify.cli.main")
    if "report" not in main.SUBCOMMANDS:
        monkeypatch.setattr(main, "SUBCOMMANDS", main.SUBCOMMANDS + ("report",))
    _, report = checked
    stored = copy.deepcopy(report)
    stored["claims"][2]["definition_hash"] = "f" * 64
    src = tmp_path / "stored.json"
    src.write_text(json.dumps(stored))
    assert main.main(["report", "--from", str(src), "--out", str(tmp_path / "out"), "--no-plots"]) == 0
    printed = capsys.readouterr().out
    assert "1 obsolete" in printed and "S9-t1-n1" in printed
    html_text = (tmp_path / "out" / "index.html").read_text()
    assert "OBSOLETE" in html_text and "1 obsolete" in html_text
    assert "**OBSOLETE**" in (tmp_path / "out" / "claims.md").read_text()
    assert json.loads((tmp_path / "out" / "report.json").read_text())["claims"][2]["obsolete"]
    bad = tmp_path / "bad.json"
    bad.write_text('{"claims": [{"id": 1}]}')
    assert main.main(["report", "--from", str(bad)]) == 2
    assert "schema" in capsys.readouterr().err
    assert main.main(["report", "--from", str(tmp_path / "missing.json")]) == 2


# ------------------------------------------------------------------------------ screenshot


def test_screenshot_script_is_documented() -> None:
    script = ROOT / "scripts" / "screenshot.sh"
    text = script.read_text()
    assert os.access(script, os.X_OK)
    assert "--headless" in text and "--screenshot" in text and "Usage:" in text


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("chromium") or os.environ.get("CHROMIUM")), reason="chromium not installed")
def test_page_loads_in_headless_chromium_without_console_errors(rendered: tuple[dict, dict[str, Path]],
                                                                  tmp_path: Path) -> None:
    _, paths = rendered
    shot = tmp_path / "shot.png"
    out = subprocess.run([str(ROOT / "scripts" / "screenshot.sh"), str(paths["html"]), str(shot), "1200x3000"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert shot.stat().st_size > 10_000


def test_committed_reference_report_is_valid_and_current():
    """reports/ci/report.json (written by `make check`) validates and covers the whole current catalogue."""
    import json

    from verify.claims import catalogue
    from verify.report import schema

    path = Path(__file__).resolve().parent.parent / "reports" / "ci" / "report.json"
    report = json.loads(path.read_text())
    schema.validate(report)
    assert report["settings"]["profile"] == "ci" and report["settings"]["seed"] == 0
    assert report["summary"]["unexpected"] == []
    assert [c["id"] for c in report["claims"]] == [c.id for c in catalogue()]


def test_each_paper_has_its_section_with_verdict_counts(tmp_path: Path) -> None:
    report = _synthetic()
    assert content.paper_counts(report, "004") == ("7 claims: 1 PROVED, 2 HOLDS, 3 REFUTED, 1 UNKNOWN, 0 FAILED; "
                                                   "1 unexpected")
    paths = render_all(report, tmp_path, plots=False)
    md, page = paths["md"].read_text(), paths["html"].read_text()
    assert "## 004: Early Neuron Alignment" in md and "- 7 claims: 1 PROVED, 2 HOLDS, 3 REFUTED, 1 UNKNOWN; 1 unexpected" in md
    assert "<h3>004: Early Neuron Alignment" in page
