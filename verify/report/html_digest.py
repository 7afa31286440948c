"""The first screen of index.html: the top bar (summary, regenerate command, warnings) and one digest
card per paper / user claim file (theorem-level verdicts, the other lemma nodes, the errata found,
the planted-counterexample score), drawn from :func:`verify.report.digest.digest`."""

from __future__ import annotations

import html
from typing import Any

from verify.report.digest import Digest, NodeLine, Section

VERDICT_CLASSES = ("PROVED", "HOLDS", "REFUTED", "UNKNOWN", "FAILED")


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def pill(verdict: str, text: str | None = None) -> str:
    """A coloured verdict badge (unknown statuses are drawn grey)."""
    base = verdict.split(" ")[0]
    cls = base if base in VERDICT_CLASSES else ("confirmed" if base == "confirmed" else "nc")
    return f"<span class='pill {cls}'>{esc(text or verdict)}</span>"


def anchor(claim_id: str) -> str:
    return "claim-" + "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in claim_id)


def top_bar(d: Digest) -> str:
    """Title, summary line, the regenerate command and the warnings."""
    warn = ("<p class='warn' id='warnings'><b>Warning:</b> " + " ".join(esc(w) for w in d.warnings) + "</p>") if d.warnings else ""
    return (f"<header class='top'><h1>relu-verify report</h1><span class='sum' id='summary-line'>{esc(d.summary)}</span>"
            f"<div class='regen' id='regenerate'>Regenerate with <code>{esc(d.regenerate)}</code> "
            f"<span>({esc(d.provenance)})</span></div></header>{warn}")


def _theorem(n: NodeLine) -> str:
    counts = ", ".join(f"{k} {v}" for v, k in n.counts.items())
    tip = f"{n.label}: {n.detail}. Claims: {', '.join(n.claims) or 'none'}" + (f" ({counts})" if counts else "")
    return f"<span class='thm' title='{esc(tip)}'><b>{esc(n.label)}</b> {pill(n.status)}</span>"


def _lemma(n: NodeLine) -> str:
    base = n.status.split(" ")[0]
    cls = base if base in VERDICT_CLASSES else "nc"
    tip = f"{n.label}: {n.detail} - {n.status}; claims: {', '.join(n.claims) or 'none'}"
    return f"<span class='lem {cls}' title='{esc(tip)}'>{esc(n.label)}</span>"


def card(sec: Section) -> str:
    """One paper's (or user file's) digest card."""
    title = sec.title if sec.user else f"{sec.key}: {sec.title}"
    score = (f" &middot; planted refuted <b>{sec.planted_refuted}/{sec.planted_total}</b>" if sec.planted_total else "")
    score += (f" &middot; checks shown to fail <b>{sec.teeth_shown}/{sec.teeth_total}</b>" if sec.teeth_total else "")
    missed = (f"<p><b>Expected refutations not found (defects):</b> {esc(', '.join(sec.missed))}</p>" if sec.missed else "")
    parts = [f"<div class='card' id='digest-{esc(sec.key)}' data-paper='{esc(sec.key)}'><h3 title='{esc(title)}'>{esc(title)}</h3>"
             f"<p class='counts'>{esc(sec.counts)}{score}</p>{missed}"]
    if sec.theorems:
        parts.append("<div class='lbl'>Theorem-level verdicts</div><div>" + "".join(_theorem(n) for n in sec.theorems) + "</div>")
    if sec.lemmas:
        parts.append("<div class='lbl'>Lemmas and steps</div><div>" + "".join(_lemma(n) for n in sec.lemmas) + "</div>")
    if sec.user:
        items = "".join(f"<span class='thm'><a href='#{anchor(e['id'])}'>{esc(e['id'])}</a> {pill(e['verdict'])}</span>"
                        for e in sec.claims[:30])
        more = f" <span class='muted'>and {len(sec.claims) - 30} more</span>" if len(sec.claims) > 30 else ""
        parts.append(f"<div class='lbl'>Claims</div><div>{items}{more}</div>")
    decided = [(k, er) for k, er in enumerate(sec.errata, 1) if er.claims]
    undecided = [str(k) for k, er in enumerate(sec.errata, 1) if not er.claims]
    rest = (f"; declared, undecided here: {', '.join(undecided)} (<a href='#errata'>list</a>)" if undecided else "")
    if decided:
        lis = "".join(f"<li value='{k}' title='{esc(er.title)} ({er.status}: "
                      f"{esc(', '.join(e['id'] + ' ' + e['verdict'] for e in er.claims))})'>"
                      f"{pill(er.status)} {esc(er.title)}</li>" for k, er in decided)
        parts.append(f"<div class='lbl'>Errata found ({sum(er.status == 'confirmed' for _, er in decided)} confirmed "
                     f"by this run{rest})</div><ol class='errata'>{lis}</ol>")
    elif undecided:
        parts.append(f"<div class='lbl'>Errata: none decided by this report{rest}</div>")
    parts.append("</div>")
    return "".join(parts)


def digest_section(d: Digest) -> str:
    """The digest cards, one per section, in a responsive grid."""
    legend = ("HOLDS is numerical evidence on the generated cases (the ranges tested are in each claim's evidence), not "
              "a proof; UNKNOWN is never a pass. A theorem's verdict is the worst of the claims that check it; hover an "
              "item for its claims.")
    cards = "".join(card(s) for s in d.sections) or "<p class='muted'>No claims in this report.</p>"
    return (f"<section id='digest'><div class='digest'>{cards}</div><p class='muted legend'>{esc(legend)}</p></section>")
