"""The report's reproductions: the papers' own experiments (``verify check --with-reproductions``).

``report.json`` may carry a top-level ``reproductions`` list: one summary per experiment as
:func:`verify.reproduce.run_for_report` returns it (``name``, ``paper``, ``title``, ``source``, ``data``,
``quick``, ``checks`` [{name, passed, detail}], ``figures`` (paths relative to the report directory),
``notes``, ``time_s``, ``passed``, and ``error`` when the experiment raised). Rendered here:

- :func:`html_section`: index.html, right after the digest: a block per paper with each experiment's
  name, checks passed / total, every check with its detail, the notes (where GD and the exact flow
  disagree) and its figures (PNG data URIs read from the report directory; a missing file is named);
- :func:`md_lines`: report.md and claims.md, a short table (experiment, paper, checks, mode, time) and the
  failed checks by name.

A summary passes only with at least one check, all passed, and no error (:func:`verify.reproduce.passed`).
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from verify.report.html_digest import esc


def entries(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The report's reproduction summaries (empty when the report has none)."""
    return list(report.get("reproductions") or [])


def _passed(r: dict[str, Any]) -> bool:
    from verify.reproduce import passed

    return passed(r)


def score(r: dict[str, Any]) -> str:
    """'k/m checks passed', or 'ERROR: ...' / 'no checks (inconclusive)'."""
    if r.get("error"):
        return f"ERROR: {r['error']}"
    checks = r.get("checks") or []
    if not checks:
        return "no checks (inconclusive)"
    return f"{sum(c.get('passed') is True for c in checks)}/{len(checks)} checks passed"


def _mode(r: dict[str, Any]) -> str:
    return "quick" if r.get("quick") else "full"


def _time(r: dict[str, Any]) -> str:
    t = r.get("time_s")
    return f"{t:.1f} s" if isinstance(t, (int, float)) else "-"


def _figure_html(path: str, base: Path | None) -> str:
    """An inline PNG from ``base / path``, or a line naming the file when it cannot be read."""
    if base is not None:
        try:
            png = (base / path).read_bytes()
        except OSError:
            png = b""
        if png.startswith(b"\x89PNG"):
            return (f"<figure><img alt='{esc(path)}' src='data:image/png;base64,{base64.b64encode(png).decode('ascii')}'>"
                    f"<figcaption>{esc(path)}</figcaption></figure>")
    return f"<p class='muted'>figure {esc(path)} (file not found next to this report)</p>"


def html_section(report: dict[str, Any], base: str | Path | None = None) -> str:
    """index.html's reproductions section ('' when the report has none); ``base``: the report directory the
    figure paths are relative to (None: figures are named, not shown)."""
    reps = entries(report)
    if not reps:
        return ""
    root = None if base is None else Path(base)
    papers = list(dict.fromkeys(str(r.get("paper")) for r in reps))
    parts = ["<section id='reproductions'><h2>Reproductions of the papers' experiments</h2>"
             "<p class='muted'>verify reproduce, run with this report: checks on each paper's stated qualitative outcomes "
             "(orderings, alignment, rank; never iteration counts); the paper's GD beside the exact gradient flow.</p>"]
    for paper in papers:
        mine = [r for r in reps if str(r.get("paper")) == paper]
        ok = sum(_passed(r) for r in mine)
        parts.append(f"<div class='card' id='reproductions-{esc(paper)}' data-paper='{esc(paper)}'>"
                     f"<h3>paper {esc(paper)}: {ok}/{len(mine)} experiments reproduced</h3>")
        for r in mine:
            verdict = "HOLDS" if _passed(r) else "FAILED"
            checks = "".join(f"<li>{'PASS' if c.get('passed') is True else '<b>FAIL</b>'} {esc(c.get('name'))}: "
                             f"<span class='muted'>{esc(c.get('detail'))}</span></li>" for c in r.get("checks") or [])
            notes = "".join(f"<li>{esc(n)}</li>" for n in r.get("notes") or [])
            figures = "".join(_figure_html(f, root) for f in r.get("figures") or [])
            parts.append(
                f"<details id='rep-{esc(r.get('name'))}'><summary><span class='pill {verdict}'>{esc(score(r))}</span> "
                f"<b>{esc(r.get('name'))}</b>: {esc(r.get('title', ''))} <span class='muted'>({esc(r.get('source', ''))}; "
                f"{_mode(r)} run, {_time(r)})</span></summary>"
                f"<p class='muted'>data: {esc(r.get('data', ''))}</p><ul class='tight'>{checks}</ul>"
                + (f"<p>Notes (GD vs exact flow, caveats):</p><ul class='tight'>{notes}</ul>" if notes else "")
                + figures + "</details>")
        parts.append("</div>")
    return "".join(parts) + "</section>"


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def md_lines(report: dict[str, Any], *, details: bool = False) -> list[str]:
    """report.md / claims.md lines: a short table of the reproductions (nothing when the report has none);
    ``details`` adds every failed check and each experiment's figures as links."""
    reps = entries(report)
    if not reps:
        return []
    ok = sum(_passed(r) for r in reps)
    L = ["## Reproductions of the papers' experiments", "",
         f"{ok}/{len(reps)} experiments reproduced (every stated outcome checked passed).", "",
         "| experiment | paper | source | checks | run | time |", "|---|---|---|---|---|---|"]
    for r in reps:
        L.append(f"| {_cell(r.get('name'))} | {_cell(r.get('paper'))} | {_cell(r.get('source', ''))} | {_cell(score(r))} | "
                 f"{_mode(r)} | {_time(r)} |")
    L.append("")
    failed = [(r, c) for r in reps for c in r.get("checks") or [] if c.get("passed") is not True]
    if failed:
        L += ["Failed checks:", ""] + [f"- {r.get('name')}: {c.get('name')} ({c.get('detail')})" for r, c in failed] + [""]
    if details:
        for r in reps:
            if r.get("figures"):
                L.append(f"- {r.get('name')} figures: " + ", ".join(f"[{Path(f).name}]({f})" for f in r["figures"]))
        L.append("")
    return L
