"""The digest a reviewer reads first: per paper, the theorem-level verdicts, the errata found and the
planted-counterexample score; user claims in their own section; how to regenerate the report.

:func:`digest` computes it once from ``report.json`` (no simulation); :func:`markdown_lines` is the
opening of ``report.md`` (DESIGN.md section 6: within its first 80 lines), and the HTML page draws
the same data as its first screen (:mod:`verify.report.html_digest`).

A blueprint node's verdict is the worst verdict of the claims that check it (FAILED > REFUTED >
UNKNOWN > HOLDS > PROVED, :mod:`verify.report.graph`); planted and errata claims (expected REFUTED)
are counted apart. Theorem-level nodes are the aggregates and the nodes labelled Theorem, Corollary or
Proposition; the other lemma nodes are listed on one line. An erratum is *confirmed* when the claims
that decide it are in the report and all came out as the catalogue expects.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verify.report import graph
from verify.report.content import margin_text
from verify.report.document import git_commit, summary_line

_THEOREM = re.compile(r"^(Theorem|Thm|Corollary|Cor\.|Proposition)\b(?!.*\b(proof|hyp)\b)")
VERDICTS = ("PROVED", "HOLDS", "REFUTED", "UNKNOWN", "FAILED")


@dataclass
class NodeLine:
    """One blueprint node: its label, what it says, its verdict and the claims behind it."""

    label: str
    detail: str
    status: str  # a verdict, "not checked", or "<verdict> (via its parts)"
    counts: dict[str, int]
    claims: list[str]


@dataclass
class Erratum:
    id: str
    title: str
    claims: list[dict[str, Any]]
    status: str  # "confirmed" | "NOT confirmed" | "not decided by this report"


@dataclass
class Section:
    """One paper's (or one user file's) digest."""

    key: str  # paper id, or the user claim file
    title: str
    counts: str
    theorems: list[NodeLine] = field(default_factory=list)
    lemmas: list[NodeLine] = field(default_factory=list)
    errata: list[Erratum] = field(default_factory=list)
    planted_refuted: int = 0
    planted_total: int = 0
    missed: list[str] = field(default_factory=list)  # planted claims not refuted (defects)
    teeth_shown: int = 0  # claims whose check a planted claim or an engine mutant was shown to break
    teeth_total: int = 0  # claims whose entry records teeth at all
    unexpected: list[str] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)
    user: bool = False


@dataclass
class Digest:
    regenerate: str
    provenance: str
    summary: str
    warnings: list[str]
    sections: list[Section]


def counts_text(entries: list[dict[str, Any]]) -> str:
    """'N claims: a PROVED, b HOLDS, ...; u unexpected' (zero counts left out)."""
    parts = [f"{n} {v}" for v in VERDICTS if (n := sum(e["verdict"] == v for e in entries))]
    unexpected = sum(not e.get("as_expected", True) for e in entries)
    return f"{len(entries)} claim{'' if len(entries) == 1 else 's'}: " + (", ".join(parts) or "none") + f"; {unexpected} unexpected"


def _node_line(st: graph.NodeState) -> NodeLine:
    counts: dict[str, int] = {}
    for e in st.claims:
        counts[e["verdict"]] = counts.get(e["verdict"], 0) + 1
    status = st.status
    if status == "not encoded":
        status = "not checked"
    elif not st.claims:
        status += " (via its parts)"
    return NodeLine(st.node.label, st.node.detail, status, counts, [e["id"] for e in st.claims])


def _erratum(er: dict[str, Any], by_id: dict[str, dict[str, Any]]) -> Erratum:
    entries = [by_id[c] for c in er.get("claims") or [] if c in by_id]
    if not entries:
        status = "not decided by this report"
    elif all(e.get("as_expected", True) for e in entries):
        status = "confirmed"
    else:
        status = "NOT confirmed"
    return Erratum(str(er["id"]), str(er.get("title", "")), entries, status)


def _paper_section(report: dict[str, Any], paper: dict[str, Any], entries: list[dict[str, Any]]) -> Section:
    title = str(paper.get("title") or "")
    if paper.get("source"):
        title += f" ({str(paper['source']).split(' (')[0]})"
    sec = Section(str(paper["id"]), title, counts_text(entries), claims=entries)
    g = graph.graph_of(report, sec.key)
    if g is not None:
        for key, st in graph.states(report, g).items():
            if st.node.kind == "assumption":
                continue
            theorem = st.node.kind == "aggregate" or bool(_THEOREM.search(st.node.label))
            (sec.theorems if theorem else sec.lemmas).append(_node_line(st))
    by_id = {e["id"]: e for e in entries}
    sec.errata = [_erratum(er, by_id) for er in paper.get("errata") or []]
    _score(sec, entries)
    return sec


def _score(sec: Section, entries: list[dict[str, Any]]) -> None:
    pl = [e for e in entries if e.get("expected") == "REFUTED"]  # planted counterexamples and errata
    sec.planted_total = len(pl)
    sec.planted_refuted = sum(e["verdict"] == "REFUTED" for e in pl)
    sec.missed = [e["id"] for e in pl if e["verdict"] != "REFUTED"]
    sec.unexpected = [e["id"] for e in entries if not e.get("as_expected", True)]
    recorded = [e for e in entries if "teeth" in e]
    sec.teeth_total = len(recorded)
    sec.teeth_shown = sum(bool(e["teeth"]) for e in recorded)


def teeth_text(sec: Section) -> str:
    """'; checks shown to fail by a planted claim, mutant or test: a/b' ('' when no entry records teeth)."""
    if not sec.teeth_total:
        return ""
    return f"; checks shown to fail by a planted claim, mutant or test: {sec.teeth_shown}/{sec.teeth_total}"


def sections(report: dict[str, Any]) -> list[Section]:
    """One section per paper (stored papers first, in report order), then one per user claim file."""
    claims = report.get("claims", [])
    out: list[Section] = []
    seen: set[str] = set()
    for paper in report.get("papers") or []:
        pid = str(paper["id"])
        seen.add(pid)
        out.append(_paper_section(report, paper, [e for e in claims if e.get("paper") == pid]))
    for pid in dict.fromkeys(str(e["paper"]) for e in claims if e.get("paper") is not None and str(e["paper"]) not in seen):
        entries = [e for e in claims if str(e.get("paper")) == pid]
        sec = Section(pid, "(paper not stored in this report)", counts_text(entries), claims=entries)
        _score(sec, entries)
        out.append(sec)
    for file in dict.fromkeys(str(e.get("file") or "unnamed file") for e in claims if e.get("paper") is None):
        entries = [e for e in claims if e.get("paper") is None and str(e.get("file") or "unnamed file") == file]
        sec = Section(file, f"User claims ({file})", counts_text(entries), claims=entries, user=True)
        _score(sec, entries)
        out.append(sec)
    return out


CODE = (":(top)", ":(top,exclude)reports")  # what computes results: the checkout without its generated reports/


def _git(*args: str) -> subprocess.CompletedProcess[str] | None:
    try:
        return subprocess.run(["git", *args], capture_output=True, text=True, timeout=10,
                              cwd=Path(__file__).resolve().parent)
    except (OSError, subprocess.SubprocessError):
        return None


def working_tree() -> tuple[str | None, bool]:
    """(HEAD commit, whether tracked files outside reports/ have uncommitted changes) of the checkout (None outside
    git). The generated reports are no code: a report being written does not make the tree dirty."""
    head = git_commit()
    if head is None:
        return None, False
    out = _git("status", "--porcelain", "--untracked-files=no", "--", *CODE)
    return head, out is not None and out.returncode == 0 and bool(out.stdout.strip())


def same_code(a: str, b: str) -> bool:
    """Whether commits ``a`` and ``b`` differ only in reports/ (False when git cannot tell)."""
    out = _git("diff", "--quiet", a, b, "--", *CODE)
    return out is not None and out.returncode == 0


def warnings(report: dict[str, Any], tree: tuple[str | None, bool] | None = None) -> list[str]:
    """What the reader must know before trusting the digest: commit mismatch, obsolete or partial results."""
    tool, summary = report.get("tool") or {}, report.get("summary") or {}
    head, dirty = working_tree() if tree is None else tree
    stored = tool.get("git_commit")
    out = []
    if head and stored and head != stored and not same_code(stored, head):
        out.append(f"This report was computed at commit {stored[:10]}; it was rendered in a working tree at commit "
                   f"{head[:10]}{' with uncommitted changes' if dirty else ''}: rerun the command above to check the "
                   "current code.")
    elif head and stored and dirty:
        out.append(f"Rendered in a working tree with uncommitted changes on top of commit {stored[:10]}, where the "
                   "results were computed: rerun the command above to check the current code.")
    elif head and not stored:
        out.append("The report records no git commit: which code computed it is unknown.")
    if summary.get("obsolete"):
        out.append(f"{summary['obsolete']} result(s) are OBSOLETE (their claim, the engine or the tool changed since "
                   "the run); they are flagged in the table.")
    if summary.get("no_engine_hash"):
        out.append(f"{summary['no_engine_hash']} result(s) carry no engine hash (computed before report version 1.2): "
                   "whether the engine changed since they were computed cannot be told.")
    if summary.get("partial"):
        out.append("PARTIAL: the run was interrupted; unfinished claims are UNKNOWN.")
    if summary.get("unexpected"):
        out.append("Unexpected outcomes: " + ", ".join(summary["unexpected"]))
    return out


def regenerate_command(report: dict[str, Any]) -> str:
    """The stored ``tool.command``, or one rebuilt from the settings (marked as such)."""
    cmd = (report.get("tool") or {}).get("command")
    if cmd:
        return str(cmd)
    st = report.get("settings") or {}
    ids = " ".join(e["id"] for e in report.get("claims", [])) if len(report.get("claims", [])) <= 5 else ""
    return f"verify check {ids + ' ' if ids else ''}--profile {st.get('profile')} --seed {st.get('seed')} (rebuilt: no command stored)"


def digest(report: dict[str, Any], tree: tuple[str | None, bool] | None = None) -> Digest:
    """The whole digest; ``tree`` overrides the working tree's (HEAD, dirty) for tests."""
    tool, st = report.get("tool") or {}, report.get("settings") or {}
    provenance = (f"relu-verify {tool.get('version')}, commit {str(tool.get('git_commit') or 'unknown')[:10]}, profile "
                  f"{st.get('profile')}, seed {st.get('seed')}")
    return Digest(regenerate_command(report), provenance, summary_line(report), warnings(report, tree), sections(report))


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {v}" for v in VERDICTS if (n := counts.get(v)))


def _claims_short(entries: list[dict[str, Any]], limit: int = 4) -> str:
    text = ", ".join(f"{e['id']} {e['verdict']}" for e in entries[:limit])
    return text + (f", and {len(entries) - limit} more" if len(entries) > limit else "")


def markdown_lines(d: Digest, appendix: str | None = "claims.md") -> list[str]:
    """The digest as Markdown (the opening of report.md)."""
    L = ["# relu-verify report: digest", "", f"Regenerate with: `{d.regenerate}` ({d.provenance}).", ""]
    L += [f"> **Warning**: {w}" for w in d.warnings] + ([""] if d.warnings else [])
    L += [f"**{d.summary}**.",
          "PROVED: a certificate covers the stated domain. HOLDS: no violation beyond the error bound on the generated "
          "cases (numerical evidence, not a proof; ranges tested per claim in the appendix). REFUTED: a confirmed, "
          "shrunk, replayable counterexample. UNKNOWN: not decided, never a pass.", ""]
    for sec in d.sections:
        L += [f"## {sec.title}" if sec.user else f"## {sec.key}: {sec.title}", ""]
        score = (f"; planted counterexamples refuted: {sec.planted_refuted}/{sec.planted_total}" if sec.planted_total else "")
        L.append(f"- {sec.counts}{score}{teeth_text(sec)}" + (f"; NOT refuted (defects): {', '.join(sec.missed)}" if sec.missed else ""))
        for n in sec.theorems:
            L.append(f"- **{n.label}** ({n.detail}): **{n.status}**" + (f" [{_counts(n.counts)}]" if n.counts else ""))
        if sec.lemmas:
            L.append("- Lemmas and steps: " + "; ".join(f"{n.label} {n.status}" for n in sec.lemmas))
        if sec.user:
            L += [f"- {e['id']}: **{e['verdict']}** ({e.get('source', '')}; {e.get('examples', 0)} example(s), smallest "
                  f"margin {margin_text(e)})" for e in sec.claims[:12]]
            if len(sec.claims) > 12:
                L.append(f"- ... {len(sec.claims) - 12} more in the appendix")
        decided = [(k, er) for k, er in enumerate(sec.errata, 1) if er.claims]
        if decided:
            L.append(f"- Errata found ({sum(er.status == 'confirmed' for _, er in decided)} confirmed by this run):")
            L += [f"  {k}. {er.title} ({er.status} [{_claims_short(er.claims)}])" for k, er in decided]
        undecided = [str(k) for k, er in enumerate(sec.errata, 1) if not er.claims]
        if undecided:
            L.append(f"- Errata the paper plug-in declares that no claim of this report decides: {', '.join(undecided)} "
                     "(listed in the appendix)")
        L.append("")
    if appendix:
        L += [f"Per-claim evidence (statements, ranges tested, worst cases, cross-checks, counterexamples with replay "
              f"commands): [{appendix}]({appendix}).", ""]
    return L
