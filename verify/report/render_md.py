"""``report.md`` (the digest a reviewer pastes) and ``claims.md`` (the per-claim appendix).

``report.md``: the digest of :mod:`verify.report.digest` (within its first 80 lines: per paper the
theorem-level verdicts, the errata found and the planted-counterexample score; regenerate command;
warnings), then the reproductions table when the report has one (:mod:`verify.report.reproductions`),
the dependency-graph figures, the trusted base and the environment.
``claims.md``: the claims table, every claim's details and evidence (statement, hypotheses, examples,
ranges explored, worst case, what the margin measures, cross-check, slack, teeth), the
counterexamples (shrunk data, replay command, plot), each paper's graph as text, the representative
runs, and every declared erratum with the planted claims refuted. Figures are referenced as files
written next to them by :func:`verify.report.render.render_all`; ``figures`` maps a figure name to
its relative path.
"""

from __future__ import annotations

from typing import Any

from verify.report import content as C
from verify.report import evidence_text as E
from verify.report import graph, reproductions
from verify.report.digest import digest, markdown_lines

APPENDIX = "claims.md"


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render(report: dict[str, Any], figures: dict[str, str] | None = None,
           captions: dict[str, tuple[str, str]] | None = None, tree: tuple[str | None, bool] | None = None) -> str:
    """report.md: the digest, the graph figures, the trusted base and the environment."""
    figures = figures or {}
    L = markdown_lines(digest(report, tree), APPENDIX)
    L += reproductions.md_lines(report)
    graphs = [g for g in graph.graphs(report) if f"graph-{g.paper}" in figures]
    if graphs:
        L += ["## Dependency graphs", ""]
        L += [f"![dependency graph of {g.paper}]({figures['graph-' + g.paper]})" for g in graphs] + [""]
    tb = C.trusted_base(report)
    L += ["## Trusted base", ""]
    L += [f"- {line}" for line in tb["backends"] + tb["conventions"]]
    assumed = tb["assumed"]
    L += ["", f"Taken on trust (assumed, not checked): {len(assumed)} hypothesis/es, listed per claim in the appendix"
          + (": " + "; ".join(list(assumed)[:8]) + ("; ..." if len(assumed) > 8 else "") if assumed else "") + ".", ""]
    L += ["## Environment", ""]
    L += [f"- **{label}**: {value}" for label, value in C.header_facts(report)]
    return "\n".join(L) + "\n"


def _evidence_lines(e: dict[str, Any]) -> list[str]:
    L = [f"- examples: {e['examples']} valid, {e.get('vacuous', 0)} vacuous, {e.get('numerical_failures', 0)} numerical "
         f"failures; smallest margin {C.margin_text(e)}; time {C.fmt(e['time_s'])} s (per example {C.timing(e)})",
         f"- margin: {E.margin_text_explained(e)}"]
    explored = E.explored_text(e)
    if explored:
        L.append(f"- tested on: {explored}")
    worst = E.worst_case_text(e)
    if worst:
        L.append(f"- worst case: {worst}")
    if e.get("cross_check"):
        L.append(f"- cross-check: {C.cross_check_text(e['cross_check'])}")
    if e.get("slack"):
        L.append(f"- slack: {C.slack_text(e['slack'])}")
    if "teeth" in e:
        L.append("- teeth: " + (", ".join(e["teeth"]) or "none (nothing shown to break this check)"))
    return L


def render_appendix(report: dict[str, Any], figures: dict[str, str] | None = None,
                    captions: dict[str, tuple[str, str]] | None = None) -> str:
    """claims.md: the table, per-claim details and evidence, counterexamples, graphs, runs, errata."""
    figures = figures or {}
    captions = captions or {}
    claims = report.get("claims", [])
    states = {g.paper: graph.states(report, g) for g in graph.graphs(report)}
    L: list[str] = ["# relu-verify report: per-claim appendix", "", "The digest is in [report.md](report.md).", "",
                    "## Claims", "", "| id | paper | source | expected | verdict | examples | smallest margin | time (s) |",
                    "|---|---|---|---|---|---|---|---|"]
    for e in claims:
        flag = " **OBSOLETE**" if e.get("obsolete") else ""
        L.append(f"| [{e['id']}](#{_anchor(e['id'])}){flag} | {_cell(_where(e))} | {_cell(e['source'])} | {e['expected']} | "
                 f"{_cell(C.verdict_text(e))} | {e['examples']} | {_cell(C.margin_text(e))} | {C.fmt(e['time_s'])} |")
    L += ["", "## Claim details", ""]
    for e in claims:
        split = graph.assumption_split(e, report, states)
        L += [f"### {e['id']}", "", f"*{e['source']}* ({_where(e)})", "", "```", e["statement"], "```", ""]
        if e.get("obsolete"):
            L += [f"**OBSOLETE**: {e['obsolete']['reason']}", ""]
        L.append(f"- verdict: **{C.verdict_text(e)}** (expected {e['expected']}); {e.get('reason', '')}")
        L += _evidence_lines(e)
        for bucket in ("checked", "proved", "assumed"):
            L.append(f"- {bucket}: " + ("; ".join(split[bucket]) if split[bucket] else "none"))
        if e.get("depends_on"):
            L.append(f"- depends on: {', '.join(e['depends_on'])}")
        if "counterexample" in e:
            L.append(f"- counterexample: see [Counterexamples](#cx-{_anchor(e['id'])})")
        L.append("")
    L += _toothless(claims)
    L += _counterexamples(claims, figures)
    for g in graph.graphs(report):
        L += [f"## {g.paper} lemma dependency graph: {g.title}", ""] + graph.text_lines(report, g)
        rest = graph.outside(report, g)
        if rest:
            L += ["", "Claims outside the graph: " + ", ".join(f"{e['id']} {e['verdict']}" for e in rest)]
        L.append("")
    L += ["## Representative runs", ""]
    shown = [n for n in captions if n in figures]
    if not shown:
        L += ["(plots not generated)", ""]
    for name in shown:
        title, caption = captions[name]
        L += [f"### {title}", "", f"![{title}]({figures[name]})", "", caption, ""]
    L += reproductions.md_lines(report, details=True)
    L += _errata(report)
    return "\n".join(L) + "\n"


def _toothless(claims: list[dict[str, Any]]) -> list[str]:
    """The claims whose check no planted claim or engine mutant has been shown to break, per paper."""
    none = [e for e in claims if "teeth" in e and not e["teeth"]]
    if not none:
        return []
    L = ["## Checks nothing has been shown to break", "",
         "No planted claim shares these checks and no engine mutant measured turns them unexpected: their HOLDS or "
         "PROVED has not been shown able to fail.", ""]
    groups: dict[str, list[str]] = {}
    for e in none:
        groups.setdefault(_where(e), []).append(e["id"])
    L += [f"- {where} ({len(ids)}): {', '.join(ids)}" for where, ids in groups.items()]
    return L + [""]


def _where(e: dict[str, Any]) -> str:
    return f"paper {e['paper']}" if e.get("paper") else f"user claim, {e.get('file') or 'unnamed file'}"


def _counterexamples(claims: list[dict[str, Any]], figures: dict[str, str]) -> list[str]:
    refuted = [e for e in claims if "counterexample" in e]
    L = ["## Counterexamples", ""] + (["None.", ""] if not refuted else [])
    for e in refuted:
        cx = e["counterexample"]
        L += [f"### cx-{e['id']}", "", f"{e['source']}: {C.witness_summary(cx)}", ""]
        if cx.get("replay"):
            L += ["Replay:", "", "```", cx["replay"], "```", ""]
        if isinstance(cx.get("witness"), dict) or cx.get("value") is not None:
            rows = E.witness_rows(cx)
            if rows:
                L += ["| witness | value |", "|---|---|"] + [f"| {_cell(k)} | {_cell(v)} |" for k, v in rows] + [""]
        L += ["Shrunk counterexample:", "", "```json", C.shrunk_data(cx), "```", ""]
        if f"cx-{e['id']}" in figures:
            L += [f"![violating trajectory of {e['id']}]({figures['cx-' + e['id']]})", ""]
    return L


def _errata(report: dict[str, Any]) -> list[str]:
    er = C.errata(report)
    L = ["## Paper errata (declared by the paper plug-ins) and the claims that decide them", ""]
    for paper, errata in er["papers"]:
        for erratum, entries in errata:
            L.append(f"- **{paper['id']} erratum {erratum['id']}** ({erratum['title']})"
                     + (": " + ", ".join(f"{e['id']} {e['verdict']}" for e in entries) if entries
                        else ": no claim of this report decides it"))
    L += ["", f"Planted counterexamples and errata refuted as expected ({len(er['refuted'])}):", ""]
    L += [f"- {e['id']} ({e['source']}): {C.witness_summary(e.get('counterexample') or {})}" for e in er["refuted"]]
    if er["missed"]:
        L += ["", "Expected refutations NOT found (defects): " + ", ".join(f"{e['id']} {e['verdict']}" for e in er["missed"])]
    return L


def _anchor(claim_id: str) -> str:
    return "".join(ch if ch.isalnum() or ch == "-" else "" for ch in claim_id.lower().replace(" ", "-"))
