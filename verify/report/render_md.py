"""``report.md``: the full Markdown rendering of ``report.json``.

Sections: header (tool, commit, settings, seeds, libraries, float environment), summary line,
claims table, per-claim details (statement, checked / proved / assumed hypotheses, verdict vs
expected, examples, smallest margin, example times), counterexamples (shrunk data, replay
command, plot), each paper's dependency graph, representative runs, trusted base, errata.
Figures are referenced as files written next to it by :func:`verify.report.render.render_all`
(``graph.svg``, ``plots/*.png``); ``figures`` maps a figure name to its relative path.
"""

from __future__ import annotations

from typing import Any

from verify.report import content as C
from verify.report import graph
from verify.report.document import summary_line


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render(report: dict[str, Any], figures: dict[str, str] | None = None,
           captions: dict[str, tuple[str, str]] | None = None) -> str:
    """The Markdown document. ``figures``: name -> relative path (``graph``, ``cx-<id>``, family plots);
    ``captions``: name -> (title, caption) for the representative-run figures."""
    figures = figures or {}
    captions = captions or {}
    claims = report.get("claims", [])
    states = {g.paper: graph.states(report, g) for g in graph.graphs(report)}
    L: list[str] = ["# relu-verify report", ""]
    for label, value in C.header_facts(report):
        L.append(f"- **{label}**: {value}")
    L += ["", f"**{summary_line(report)}**", ""]
    unexpected = report.get("summary", {}).get("unexpected") or []
    if unexpected:
        L += [f"Unexpected outcomes: {', '.join(unexpected)}", ""]
    obsolete = [e for e in claims if e.get("obsolete")]
    if obsolete:
        L += [f"**{len(obsolete)} obsolete result(s)** (the claim or the tool changed since the run; rerun "
              "`verify check` to refresh): " + ", ".join(e["id"] for e in obsolete), ""]
    L += ["## Claims", "",
          "| id | seed | source | expected | verdict | examples | smallest margin | time (s) | per example min / median / max (s) |",
          "|---|---|---|---|---|---|---|---|---|"]
    for e in claims:
        flag = " **OBSOLETE**" if e.get("obsolete") else ""
        L.append(f"| [{e['id']}](#{_anchor(e['id'])}){flag} | {C.paper_text(e)} | {_cell(e['source'])} | {e['expected']} | "
                 f"{_cell(C.verdict_text(e))} | {e['examples']} | {_cell(C.margin_text(e))} | {C.fmt(e['time_s'])} | "
                 f"{C.timing(e)} |")
    L += ["", "## Claim details", ""]
    for e in claims:
        split = graph.assumption_split(e, report, states)
        L += [f"### {e['id']}", "", f"*{e['source']}* (paper {C.paper_text(e)})", "", "```", e["statement"], "```", ""]
        if e.get("obsolete"):
            L += [f"**OBSOLETE**: {e['obsolete']['reason']}", ""]
        L.append(f"- verdict: **{C.verdict_text(e)}** (expected {e['expected']}); {e.get('reason', '')}")
        L.append(f"- examples: {e['examples']} valid, {e.get('vacuous', 0)} vacuous, "
                 f"{e.get('numerical_failures', 0)} numerical failures; smallest margin {C.margin_text(e)}; "
                 f"time {C.fmt(e['time_s'])} s (per example {C.timing(e)})")
        for bucket in ("checked", "proved", "assumed"):
            items = split[bucket]
            L.append(f"- {bucket}: " + ("; ".join(items) if items else "none"))
        if e.get("depends_on"):
            L.append(f"- depends on: {', '.join(e['depends_on'])}")
        if e.get("cross_check"):
            L.append(f"- cross-check: {C.cross_check_text(e['cross_check'])}")
        if e.get("slack"):
            L.append(f"- slack: {C.slack_text(e['slack'])}")
        if "teeth" in e:
            L.append("- teeth: " + (", ".join(e["teeth"]) or "none (nothing shown to break this check)"))
        if "counterexample" in e:
            L.append(f"- counterexample: see [Counterexamples](#cx-{_anchor(e['id'])})")
        L.append("")
    refuted = [e for e in claims if "counterexample" in e]
    L += ["## Counterexamples", ""]
    if not refuted:
        L += ["None.", ""]
    for e in refuted:
        cx = e["counterexample"]
        L += [f"### cx-{e['id']}", "", f"{e['source']}: {C.witness_summary(cx)}", ""]
        if cx.get("replay"):
            L += ["Replay:", "", "```", cx["replay"], "```", ""]
        L += ["Shrunk counterexample:", "", "```json", C.shrunk_data(cx), "```", ""]
        if f"cx-{e['id']}" in figures:
            L += [f"![violating trajectory of {e['id']}]({figures['cx-' + e['id']]})", ""]
    for paper in report.get("papers") or []:
        L += [f"## Paper {paper['id']}: {paper['title']}", "", C.paper_counts(report, paper["id"]), ""]
        g = graph.graph_of(report, paper["id"])
        if g is None:
            continue
        L += [f"## {g.paper} lemma dependency graph: {g.title}", ""]
        if f"graph-{g.paper}" in figures:
            L += [f"![dependency graph of {g.paper}]({figures['graph-' + g.paper]})", ""]
        L += graph.text_lines(report, g)
        rest = graph.outside(report, g)
        if rest:
            L += ["", "Claims outside the graph: " + ", ".join(f"{e['id']} {e['verdict']}" for e in rest)]
        L.append("")
    L += ["", "## Representative runs", ""]
    shown = [n for n in captions if n in figures]
    if not shown:
        L += ["(plots not generated)", ""]
    for name in shown:
        title, caption = captions[name]
        L += [f"### {title}", "", f"![{title}]({figures[name]})", "", caption, ""]
    tb = C.trusted_base(report)
    L += ["## Trusted base", ""]
    L += [f"- {line}" for line in tb["backends"] + tb["conventions"]]
    L += ["", "Taken on trust (assumed, not checked):", ""]
    L += [f"- {text} ({', '.join(ids)})" for text, ids in tb["assumed"].items()] or ["- nothing"]
    er = C.errata(report)
    L += ["", "## Paper errata found by this run", ""]
    for paper, errata in er["papers"]:
        for erratum, entries in errata:
            L.append(f"- **{paper['id']} erratum {erratum['id']}** ({erratum['title']})"
                     + (": " + ", ".join(f"{e['id']} {e['verdict']}" for e in entries) if entries else ""))
    L += ["", f"Planted counterexamples and errata refuted as expected ({len(er['refuted'])}):", ""]
    L += [f"- {e['id']} ({e['source']}): {C.witness_summary(e.get('counterexample') or {})}" for e in er["refuted"]]
    if er["missed"]:
        L += ["", "Expected refutations NOT found (defects): " + ", ".join(f"{e['id']} {e['verdict']}" for e in er["missed"])]
    return "\n".join(L) + "\n"


def _anchor(claim_id: str) -> str:
    return "".join(ch if ch.isalnum() or ch == "-" else "" for ch in claim_id.lower().replace(" ", "-"))
