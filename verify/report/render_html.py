"""``index.html``: a self-contained page rendering of ``report.json``.

Self-contained means: inline CSS, no scripts, no network. Images are PNG data URIs
(``data:image/png;base64,...``) and the dependency graph is inline SVG. The page shows the
header (tool, commit, settings, seeds, libraries, float environment), the summary line, the
claims table (with links to per-claim details in ``<details>`` elements), the counterexamples
(shrunk data, replay command, violating-trajectory plot), each paper's dependency graph, the
representative-run plots, the trusted base and the errata. Obsolete results (see
:mod:`verify.report.obsolete`) are flagged in the table, the details and the summary.
"""

from __future__ import annotations

import base64
import html
from typing import Any

from verify.report import content as C
from verify.report import graph
from verify.report.document import summary_line

CSS = """
:root{--ok:#2e7d32;--bad:#c62828;--warn:#f9a825;--muted:#666}
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;color:#222;background:#fafafa;line-height:1.4}
header{background:#263238;color:#eceff1;padding:18px 28px}
header h1{margin:0 0 6px 0;font-size:24px}
header dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:8px 0 0 0;font-size:13px}
header dt{color:#b0bec5}header dd{margin:0;font-family:ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
nav{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;padding:8px 28px;z-index:2;font-size:14px}
nav a{margin-right:16px;color:#1565c0;text-decoration:none}
main{padding:10px 28px 40px 28px;max-width:1500px}
section{margin-top:26px}
h2{border-bottom:2px solid #cfd8dc;padding-bottom:4px}
.summary{font-size:19px;font-weight:600;padding:12px 16px;border-radius:8px;background:#e8f5e9;border:1px solid #a5d6a7}
.summary.bad{background:#ffebee;border-color:#ef9a9a}
.chips span{display:inline-block;margin:8px 8px 0 0;padding:3px 10px;border-radius:12px;font-size:13px;font-weight:600}
table{border-collapse:collapse;width:100%;background:#fff;font-size:13px}
th,td{border:1px solid #ddd;padding:4px 7px;text-align:left;vertical-align:top}
th{background:#eceff1;position:sticky;top:37px;z-index:1}
td.num{text-align:right;font-family:ui-monospace,Menlo,Consolas,monospace;white-space:nowrap}
.pill{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600;font-size:12px}
.PROVED{background:#c8e6c9;color:#1b5e20}.HOLDS{background:#f1f8e9;color:#33691e;border:1px solid #c5e1a5}
.REFUTED{background:#ffcdd2;color:#b71c1c}.UNKNOWN{background:#fff8e1;color:#8d6e00;border:1px solid #ffe082}
.FAILED{background:#f3e5f5;color:#4a148c}
tr.unexpected td{background:#ffebee}
.obsolete{background:#616161;color:#fff;padding:1px 6px;border-radius:4px;font-size:11px;font-weight:700}
tr.is-obsolete td{opacity:.65}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
pre{background:#f5f5f5;border:1px solid #e0e0e0;padding:8px;overflow:auto;max-height:320px}
.stmt{background:#f5f7fa;border-left:3px solid #90a4ae;padding:6px 10px;white-space:pre-wrap;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
details{background:#fff;border:1px solid #e0e0e0;border-radius:6px;margin:6px 0;padding:4px 10px}
details summary{cursor:pointer;font-weight:600}
.cx{background:#fff;border:1px solid #ffcdd2;border-left:5px solid #e53935;border-radius:6px;padding:4px 14px 8px 14px;margin:10px 0}
.cx h3{margin:6px 0 2px 0}.cx p{margin:4px 0}
.cx.planted{border-left-color:#ef6c00;border-color:#ffe0b2}
figure{margin:14px 0;background:#fff;border:1px solid #e0e0e0;border-radius:6px;padding:10px}
figure img{max-width:100%;height:auto}
figcaption{font-size:13px;color:var(--muted);margin-top:4px}
.graph{overflow-x:auto;background:#fff;border:1px solid #e0e0e0;border-radius:6px;padding:8px}
.muted{color:var(--muted)}
ul.tight li{margin:2px 0}
.split b{display:inline-block;min-width:70px}
"""


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def anchor(claim_id: str) -> str:
    return "claim-" + "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in claim_id)


def _pill(verdict: str) -> str:
    return f"<span class='pill {esc(verdict)}'>{esc(verdict)}</span>"


def _header(report: dict[str, Any]) -> str:
    facts = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in C.header_facts(report))
    return f"<header><h1>relu-verify report</h1><dl>{facts}</dl></header>"


def _summary(report: dict[str, Any]) -> str:
    s = report.get("summary", {})
    bad = bool(s.get("unexpected")) or s.get("counts", {}).get("FAILED", 0) > 0
    chips = "".join(f"<span class='{v}'>{n} {v}</span>" for v, n in (s.get("counts") or {}).items())
    extra = ""
    if s.get("unexpected"):
        extra += f"<p><b>Unexpected:</b> {', '.join(esc(i) for i in s['unexpected'])}</p>"
    if s.get("obsolete"):
        extra += (f"<p><span class='obsolete'>OBSOLETE</span> {s['obsolete']} result(s) were computed with a different "
                  "claim definition or tool version; rerun <code>verify check</code> to refresh them.</p>")
    return (f"<section id='summary'><h2>Summary</h2><div class='summary{' bad' if bad else ''}' id='summary-line'>"
            f"{esc(summary_line(report))}</div><div class='chips'>{chips}</div>{extra}</section>")


def _table(report: dict[str, Any]) -> str:
    rows = []
    for e in report.get("claims", []):
        cls = []
        if not e.get("as_expected", True):
            cls.append("unexpected")
        if e.get("obsolete"):
            cls.append("is-obsolete")
        flag = f" <span class='obsolete' title='{esc(e['obsolete']['reason'])}'>OBSOLETE</span>" if e.get("obsolete") else ""
        verdict = _pill(e["verdict"]) + ("" if e.get("as_expected", True) else " <b>unexpected</b>")
        rows.append(
            f"<tr class='{' '.join(cls)}'><td><a href='#{anchor(e['id'])}'>{esc(e['id'])}</a>{flag}</td>"
            f"<td>{esc(C.paper_text(e))}</td><td>{esc(e['source'])}</td><td>{_pill(e['expected'])}</td>"
            f"<td>{verdict}</td><td class='num'>{e['examples']}</td><td class='num'>{esc(C.margin_text(e))}</td>"
            f"<td class='num'>{C.fmt(e['time_s'])}</td><td class='num'>{esc(C.timing(e))}</td></tr>")
    return ("<section id='claims'><h2>Claims</h2><table id='claims-table'><thead><tr><th>id</th><th>seed</th><th>source</th>"
            "<th>expected</th><th>verdict</th><th>examples</th><th>smallest margin</th><th>time (s)</th>"
            "<th>per example min / median / max (s)</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table></section>")


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
            f"failure(s); smallest margin {esc(C.margin_text(e))}; time {C.fmt(e['time_s'])} s (per example min / median / "
            f"max {esc(C.timing(e))} s).</p>"
            f"<div class='split'><p><b>checked</b> {items('checked')}</p><p><b>proved</b> {items('proved')}</p>"
            f"<p><b>assumed</b> {items('assumed')}</p></div>{deps}{cx}{cert}</details>")
    out.append("</section>")
    return "".join(out)


def _evidence(e: dict[str, Any]) -> str:
    """The evidence behind a verdict: the cross-check, the bound's slack, the checks' teeth."""
    lines = []
    if e.get("cross_check"):
        lines.append(f"<b>cross-check</b> {esc(C.cross_check_text(e['cross_check']))}")
    if e.get("slack"):
        lines.append(f"<b>slack</b> {esc(C.slack_text(e['slack']))}")
    if "teeth" in e:
        lines.append("<b>teeth</b> " + esc(", ".join(e["teeth"]) or "none (nothing shown to break this check)"))
    return "".join(f"<p>{line}</p>" for line in lines)


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
                    "<figcaption>The counterexample scenario re-simulated from the stored record.</figcaption></figure>")
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


WITNESS_KEYS = ("value", "point", "expr", "relation", "path", "n_plus", "n_minus", "reading", "T_path", "T_Pmax",
                "smallest_violation", "data", "at_t1", "found_by", "domain")


def _witness(cx: dict[str, Any]) -> str:
    """The witness of a symbolic or pointwise counterexample (no trajectory to plot)."""
    w = cx.get("witness") if isinstance(cx.get("witness"), dict) else {}
    rows = []
    for key in WITNESS_KEYS:
        value = cx.get(key) if key == "value" else (w.get(key) if key in w else (cx.get("params") or {}).get(key))
        if value is None or key == "value" and key not in cx:
            continue
        if isinstance(value, dict):
            value = ", ".join(f"{k} = {v}" for k, v in value.items())
        rows.append(f"<tr><td>{esc(key)}</td><td><code>{esc(value)}</code></td></tr>")
    if not rows:
        return "<p class='muted'>No trajectory: see the shrunk record.</p>"
    return ("<p class='muted'>Witness (symbolic or pointwise counterexample, no trajectory):</p>"
            f"<table class='witness' style='width:auto'><tbody>{''.join(rows)}</tbody></table>")


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
           plot_error: str | None = None) -> str:
    """The page. ``figures``: :class:`verify.report.plots.Figure` list; ``cx_pngs``: claim id -> PNG bytes
    (or a string saying why there is no plot)."""
    nav = "".join(f"<a href='#{k}'>{v}</a>" for k, v in (
        ("summary", "Summary"), ("claims", "Claims"), ("graph", "Dependency graph"), ("counterexamples", "Counterexamples"),
        ("plots", "Plots"), ("trusted", "Trusted base"), ("errata", "Errata"), ("details", "Details")))
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>relu-verify report: {esc(summary_line(report))}</title><style>{CSS}</style></head><body>"
        + _header(report) + f"<nav>{nav}</nav><main>"
        + _summary(report) + _table(report) + _graph(report) + _counterexamples(report, cx_pngs or {})
        + _plots(figures, plot_error) + _trusted(report) + _errata(report) + _details(report)
        + "</main></body></html>\n"
    )
