"""``index.html``: a self-contained page rendering of ``report.json``.

Self-contained means: inline CSS, one inline script (the claims-table filter), no network. Images are
PNG data URIs (``data:image/png;base64,...``) and the dependency graphs inline SVG. The first screen
answers first: the top bar (summary, regenerate command, warnings such as a commit that is not the
working tree's) and the digest (:mod:`verify.report.html_digest`); then the papers' reproduced experiments
when the report has them (:mod:`verify.report.reproductions`); then the claims table with each
statement, filterable by paper, verdict and text; the counterexamples (plot marking the violation,
witness table, replay command); the dependency graphs; the representative runs; the trusted base; the
errata; the per-claim evidence (ranges explored, worst case, margin meaning, cross-check, slack); the
environment. Obsolete results (see :mod:`verify.report.obsolete`) are flagged in the table and details.
"""

from __future__ import annotations

import base64
from typing import Any

from verify.report import content as C
from verify.report import evidence_text as E
from verify.report import graph, reproductions
from verify.report.digest import digest
from verify.report.document import summary_line
from verify.report.html_digest import anchor, digest_section, esc, top_bar
from verify.report.html_style import CSS, SCRIPT



def data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _pill(verdict: str) -> str:
    return f"<span class='pill {esc(verdict)}'>{esc(verdict)}</span>"


def _environment(report: dict[str, Any]) -> str:
    facts = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in C.header_facts(report))
    return f"<section id='environment'><h2>Environment and settings</h2><dl class='env'>{facts}</dl></section>"


def _paper_key(e: dict[str, Any]) -> str:
    return str(e["paper"]) if e.get("paper") is not None else str(e.get("file") or "unnamed file")


def _filters(report: dict[str, Any]) -> str:
    keys = list(dict.fromkeys(_paper_key(e) for e in report.get("claims", [])))
    papers = "".join(f"<option value='{esc(k)}'>{esc(k if any(e.get('paper') == k for e in report.get('claims', [])) else 'user: ' + k)}"
                     "</option>" for k in keys)
    verdicts = "".join(f"<option value='{v}'>{v}</option>" for v in ("PROVED", "HOLDS", "REFUTED", "UNKNOWN", "FAILED"))
    return ("<div class='filters'><label>paper <select id='f-paper'><option value=''>all</option>" + papers + "</select></label>"
            "<label>verdict <select id='f-verdict'><option value=''>all</option>" + verdicts
            + "<option value='unexpected'>unexpected</option></select></label>"
            "<input id='f-text' type='search' placeholder='filter by text (id, source, statement)' aria-label='filter by text'>"
            "<span id='f-count' class='muted'></span></div>")


def _table(report: dict[str, Any]) -> str:
    rows = []
    for e in report.get("claims", []):
        cls = []
        if not e.get("as_expected", True):
            cls.append("unexpected")
        if e.get("obsolete"):
            cls.append("is-obsolete")
        flag = f" <span class='obsolete' title='{esc(e['obsolete']['reason'])}'>OBSOLETE</span>" if e.get("obsolete") else ""
        verdict = _pill(e["verdict"]) + ("" if e["verdict"] == e["expected"] else f"<br><span class='muted'>expected "
                                                                                  f"{esc(e['expected'])}</span>")
        verdict += "" if e.get("as_expected", True) else " <b>unexpected</b>"
        where = f"paper {e['paper']}" if e.get("paper") is not None else f"user claim, {e.get('file') or 'unnamed file'}"
        rows.append(
            f"<tr class='{' '.join(cls)}' data-paper='{esc(_paper_key(e))}' data-verdict='{esc(e['verdict'])}'>"
            f"<td><a href='#{anchor(e['id'])}'>{esc(e['id'])}</a>{flag}<span class='src'>{esc(where)}: {esc(e['source'])}</span></td>"
            f"<td class='st'>{esc(e['statement'])}</td><td>{verdict}</td><td>{esc(_evidence_short(e))}</td>"
            f"<td class='num'>{esc(C.margin_text(e))}</td></tr>")
    return ("<section id='claims'><h2>Claims</h2>" + _filters(report) + "<table id='claims-table'><colgroup><col class='c-id'>"
            "<col class='c-st'><col class='c-v'><col class='c-ev'><col class='c-m'></colgroup><thead><tr><th>id and source</th>"
            "<th>statement</th><th>verdict</th><th>evidence</th><th>smallest margin</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table></section>")


def _evidence_short(e: dict[str, Any]) -> str:
    """The table's evidence cell: examples and what they covered (or the decision procedure)."""
    if e["verdict"] == "PROVED" or E._direct(e):
        return "symbolic / exact decision procedure" + (f"; {e['examples']} case(s)" if e.get("examples") else "")
    text = f"{e['examples']} valid example(s)"
    if e.get("vacuous"):
        text += f", {e['vacuous']} vacuous"
    explored = E.explored_text(e)
    return text + (f"; {explored}" if explored else "")


def _details(report: dict[str, Any]) -> str:
    states = {g.paper: graph.states(report, g) for g in graph.graphs(report)}
    out = ["<section id='details'><h2>Claim details</h2>"]
    for e in report.get("claims", []):
        split = graph.assumption_split(e, report, states)

        def items(bucket: str) -> str:
            xs = split[bucket]
            return "; ".join(esc(x) for x in xs) if xs else "<span class='muted'>none</span>"

        obs = (f"<p><span class='obsolete'>OBSOLETE</span> {esc(e['obsolete']['reason'])}</p>" if e.get("obsolete") else "")
        cx = (f"<p>Counterexample: <a href='#cx-{anchor(e['id'])}'>below</a></p>" if "counterexample" in e else "")
        deps = f"<p>Depends on: {esc(', '.join(e['depends_on']))}</p>" if e.get("depends_on") else ""
        deps += _evidence(e)
        cert = ""
        if e.get("certificate") is not None:
            import json

            text = json.dumps(e["certificate"], indent=1, default=str)
            cert = f"<details><summary>certificate</summary><pre>{esc(text[:3000])}</pre></details>"
        out.append(
            f"<details id='{anchor(e['id'])}'><summary>{esc(e['id'])} {_pill(e['verdict'])} "
            f"<span class='muted'>{esc(e['source'])}</span></summary>{obs}"
            f"<div class='stmt'>{esc(e['statement'])}</div>"
            f"<p>Verdict {_pill(e['verdict'])} vs expected {_pill(e['expected'])}: {esc(e.get('reason', ''))}</p>"
            f"<p>{e['examples']} valid example(s), {e.get('vacuous', 0)} vacuous, {e.get('numerical_failures', 0)} numerical "
            f"failure(s); time {C.fmt(e['time_s'])} s (per example min / median / max {esc(C.timing(e))} s).</p>"
            f"<div class='split'><p><b>checked</b> {items('checked')}</p><p><b>proved</b> {items('proved')}</p>"
            f"<p><b>assumed</b> {items('assumed')}</p></div>{deps}{cx}{cert}</details>")
    out.append("</section>")
    return "".join(out)


def _evidence(e: dict[str, Any]) -> str:
    """The evidence behind a verdict: margin and its meaning, ranges tested, worst case, cross-check, slack, teeth."""
    rows = [("smallest margin", C.margin_text(e)), ("margin", E.margin_text_explained(e))]
    for label, text in (("tested on", E.explored_text(e)), ("worst case", E.worst_case_text(e))):
        if text:
            rows.append((label, text))
    if e.get("cross_check"):
        rows.append(("cross-check", C.cross_check_text(e["cross_check"])))
    if e.get("slack"):
        rows.append(("slack", C.slack_text(e["slack"])))
    if "teeth" in e:
        rows.append(("teeth", ", ".join(e["teeth"]) or "none (nothing shown to break this check)"))
    return "<div class='ev'>" + "".join(f"<p><b>{esc(k)}</b> {esc(v)}</p>" for k, v in rows) + "</div>"


def _counterexamples(report: dict[str, Any], cx_pngs: dict[str, bytes | str | None]) -> str:
    refuted = [e for e in report.get("claims", []) if "counterexample" in e]
    out = [f"<section id='counterexamples'><h2>Counterexamples ({len(refuted)})</h2>"]
    if not refuted:
        out.append("<p>None.</p>")
    for e in refuted:
        cx = e["counterexample"]
        kind = " planted" if C.planted(e) else ""
        replay = f"<p>Replay: <code>{esc(cx['replay'])}</code></p>" if cx.get("replay") else ""
        png = cx_pngs.get(e["id"])
        if isinstance(png, bytes):
            plot = (f"<figure><img alt='violating trajectory of {esc(e['id'])}' src='{data_uri(png)}'>"
                    "<figcaption>The counterexample scenario re-simulated from the stored record: the violating neuron (or pair) in red, the others grey, the violation time and the claim's horizon marked where the check's note states them.</figcaption></figure>")
        elif isinstance(png, str):
            plot = f"<p class='muted'>Trajectory plot unavailable: {esc(png)}</p>"
        else:
            plot = _witness(cx)
        out.append(
            f"<div class='cx{kind}' id='cx-{anchor(e['id'])}'><h3>{esc(e['id'])} {_pill(e['verdict'])} "
            f"<span class='muted'>expected {esc(e['expected'])}</span></h3><p class='muted'>{esc(e['source'])}</p>"
            f"<p>{esc(C.witness_summary(cx))}</p>{replay}"
            f"<details><summary>shrunk counterexample</summary><pre>{esc(C.shrunk_data(cx))}</pre></details>{plot}</div>")
    out.append("</section>")
    return "".join(out)


def _witness(cx: dict[str, Any]) -> str:
    """The witness of a symbolic or pointwise counterexample (no trajectory to plot), as a tidy table."""
    rows = "".join(f"<tr><td>{esc(k)}</td><td><code>{esc(v)}</code></td></tr>" for k, v in E.witness_rows(cx))
    if not rows:
        return "<p class='muted'>No trajectory: see the shrunk record.</p>"
    return ("<p class='muted'>Witness (symbolic or pointwise counterexample, no trajectory):</p>"
            f"<table class='witness'><tbody>{rows}</tbody></table>")


def _graph(report: dict[str, Any]) -> str:
    parts = ["<section id='graph'><h2>Papers and their lemma dependency graphs</h2>"
             "<p>Each paper's blueprint as it declares it. Each node is coloured by the worst verdict of the claims that "
             "declare it; grey dashed nodes have no claim in this report yet; the orange badge counts planted or errata "
             "claims (expected REFUTED) attached to the node. Hover a node for its claims.</p>"]
    for paper in report.get("papers") or []:
        parts.append(f"<h3>{esc(paper['id'])}: {esc(paper['title'])}</h3><p>{esc(C.paper_counts(report, paper['id']))}"
                     + (f" <span class='muted'>({esc(paper['source'])})</span>" if paper.get("source") else "") + "</p>")
        g = graph.graph_of(report, paper["id"])
        if g is None:
            parts.append("<p class='muted'>This paper declares no blueprint.</p>")
            continue
        rest = graph.outside(report, g)
        rows = "".join(f"<li>{esc(line[2:])}</li>" for line in graph.text_lines(report, g)).replace("**", "")
        outside = (f"<p class='muted'>Claims outside the graph: {esc(', '.join(e['id'] for e in rest))}</p>" if rest else "")
        parts.append(f"<div class='graph'>{graph.svg(report, g)}</div>"
                     f"<details><summary>nodes and claims</summary><ul class='tight'>{rows}</ul></details>{outside}")
    if len(parts) == 1:
        parts.append("<p class='muted'>No installed paper's claims are in this report.</p>")
    return "".join(parts) + "</section>"


def _plots(figures: list[Any] | None, error: str | None) -> str:
    out = ["<section id='plots'><h2>Representative runs</h2>"]
    if error:
        out.append(f"<p class='muted'>Plots unavailable: {esc(error)}</p>")
    elif not figures:
        out.append("<p class='muted'>Plots not generated.</p>")
    for f in figures or []:
        out.append(f"<figure id='fig-{esc(f.name)}'><img alt='{esc(f.title)}' src='{data_uri(f.png)}'>"
                   f"<figcaption><b>{esc(f.title)}.</b> {esc(f.caption)}</figcaption></figure>")
    out.append("</section>")
    return "".join(out)


def _trusted(report: dict[str, Any]) -> str:
    tb = C.trusted_base(report)
    lis = "".join(f"<li>{esc(x)}</li>" for x in tb["backends"] + tb["conventions"])
    tol = "".join(f"<tr><td>{esc(k)}</td><td class='num'>{esc(C.fmt(v))}</td></tr>" for k, v in tb["tolerances"].items())
    assumed = "".join(f"<li>{esc(t)} <span class='muted'>({esc(', '.join(ids))})</span></li>" for t, ids in tb["assumed"].items())
    return ("<section id='trusted'><h2>Trusted base</h2><ul class='tight'>" + lis + "</ul>"
            f"<table style='width:auto'><thead><tr><th>tolerance</th><th>value</th></tr></thead><tbody>{tol}</tbody></table>"
            "<h3>Assumed, not checked</h3><ul class='tight'>" + (assumed or "<li>nothing</li>") + "</ul></section>")


def _errata(report: dict[str, Any]) -> str:
    er = C.errata(report)
    items = []
    for paper, errata in er["papers"]:
        for erratum, entries in errata:
            claims = ", ".join(f"<a href='#{anchor(e['id'])}'>{esc(e['id'])}</a> {_pill(e['verdict'])}" for e in entries)
            items.append(f"<li><b>{esc(paper['id'])} erratum {esc(erratum['id'])}</b>: {esc(erratum['title'])}"
                         + (f"<br>{claims}" if claims else "") + "</li>")
    refuted = "".join(f"<li><a href='#cx-{anchor(e['id'])}'>{esc(e['id'])}</a> <span class='muted'>{esc(e['source'])}</span>: "
                      f"{esc(C.witness_summary(e.get('counterexample') or {}))}</li>" for e in er["refuted"])
    missed = ""
    if er["missed"]:
        missed = ("<p><b>Expected refutations not found (defects):</b> "
                  + ", ".join(f"{esc(e['id'])} {_pill(e['verdict'])}" for e in er["missed"]) + "</p>")
    return ("<section id='errata'><h2>Paper errata found by this run</h2><ul class='tight'>" + "".join(items) + "</ul>"
            f"<h3>Planted counterexamples and errata refuted as expected ({len(er['refuted'])})</h3>"
            f"<ul class='tight'>{refuted}</ul>{missed}</section>")


def render(report: dict[str, Any], figures: list[Any] | None = None, cx_pngs: dict[str, bytes | str | None] | None = None,
           plot_error: str | None = None, tree: tuple[str | None, bool] | None = None, base: Any = None) -> str:
    """The page. ``figures``: :class:`verify.report.plots.Figure` list; ``cx_pngs``: claim id -> PNG bytes
    (or a string saying why there is no plot); ``tree``: the working tree's (HEAD, dirty) for tests; ``base``: the
    report directory (the reproductions' figure paths are relative to it)."""
    d = digest(report, tree)
    reps = reproductions.html_section(report, base)
    nav = "".join(f"<a href='#{k}'>{v}</a>" for k, v in (
        ("digest", "Digest"), *((("reproductions", "Reproductions"),) if reps else ()), ("claims", "Claims"),
        ("counterexamples", "Counterexamples"), ("graph", "Dependency graphs"),
        ("plots", "Plots"), ("trusted", "Trusted base"), ("errata", "Errata"), ("details", "Evidence per claim"),
        ("environment", "Environment")))
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>relu-verify report: {esc(summary_line(report))}</title><style>{CSS}</style></head><body>"
        + top_bar(d) + f"<nav>{nav}</nav><main>"
        + digest_section(d) + reps + _table(report) + _counterexamples(report, cx_pngs or {}) + _graph(report)
        + _plots(figures, plot_error) + _trusted(report) + _errata(report) + _details(report) + _environment(report)
        + f"</main><script>{SCRIPT}</script></body></html>\n"
    )
