"""The lemma dependency graph of seed 004 (Min, Mallada & Vidal 2024), as data, coloured by verdict.

Nodes are the paper's assumptions, lemmas and proof steps (claims sheet 004, sections 2 and 6);
edges say "is used to prove". Claims of a report attach to nodes by their ids: explicit id
patterns first (symbolic ``S<k>-...`` claims), then the sheet code ``EA-<X><k>`` taken from a
claim id (``EA-D5``, ``EA-B1-exp``), from a planted id (``P8-C2-...`` -> ``EA-C2``) or from the
claim's source text (``...; EA-B1; §6 S2``). Ids that do not exist yet are fine: a node with no
claim in the report is drawn grey as "not encoded".

A node's colour is the worst verdict among its *asserting* claims (expected verdict not
REFUTED), in the order FAILED > REFUTED > UNKNOWN > HOLDS > PROVED; planted claims and errata
(expected REFUTED) are counted in a badge instead. Aggregate nodes (Theorem 1) without claims of
their own take the worst colour of their parents. :func:`svg` draws the graph as inline SVG
(no graphviz needed); :func:`assumption_split` uses the same data to say which hypotheses of a
claim are backed by a PROVED symbolic claim.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any, Iterable


@dataclass(frozen=True)
class Node:
    key: str
    label: str  # the paper's name
    detail: str  # sheet code / one-line content
    row: int
    codes: tuple[str, ...] = ()  # sheet codes "D2" meaning EA-D2 (and EA-D2-..., P?-D2-...)
    ids: tuple[str, ...] = ()  # regexes matched against claim ids (checked before codes)
    kind: str = "lemma"  # "lemma" | "assumption" | "aggregate"
    keywords: tuple[str, ...] = ()  # regexes matched against assumption texts (assumption_split)


NODES: tuple[Node, ...] = (
    Node("A1", "Assumption 1", "mu > 0 (EA-D1)", 0, ("D1",), kind="assumption", keywords=(r"\bAssumption 1\b",)),
    Node("INIT", "Init (3), Sec. 2.1", "balanced, signs (EA-A1/A2)", 0, ("A1", "A2"), (r"^S1-",),
         keywords=(r"\bbalanced\b", r"\bbalancedness\b")),
    Node("L2", "Lemma 2", "loss bound (EA-B1)", 0, ("B1",), (r"^S2-lemma2", r"^S2-logistic", r"^P8-lemma2"),
         keywords=(r"\bLemma 2\b", r"\b2x logistic\b", r"\bexp or 2x logistic\b")),
    Node("A2", "Assumption 2", "init outside S^zeta", 0, kind="assumption", keywords=(r"\bAssumption 2\b",)),
    Node("L5", "Lemma 5", "cos >= mu on K (EA-D2)", 1, ("D2",), (r"^S5-lemma5",), keywords=(r"\bLemma 5\b",)),
    Node("L11", "Lemma 11", "||x_a|| bound (EA-D7)", 1, ("D7",), (r"^S4-", r"^S9-sqrt-na"), keywords=(r"\bLemma 11\b",)),
    Node("E46", "Eq. (46)", "monotone patterns (EA-A3/A4)", 1, ("A3", "A4"), keywords=(r"\(46\)", r"\bmonoton")),
    Node("EXIST", "App. E", "existence, no Zeno (EA-H, B4)", 1, ("H1", "H2", "H3", "H4", "H5", "H6", "B4"),
         (r"^S14-", r"^S3-e5")),
    Node("L3", "Lemma 3", "norm bounds (EA-C1)", 1, ("C1",), (r"^S7-",), keywords=(r"\bLemma 3\b", r"\beps_L3\b")),
    Node("L4", "Lemma 4", "direction error (EA-C2)", 1, ("C2",), (r"^S6-direction",), keywords=(r"\bLemma 4\b",)),
    Node("E40", "Eq. (40)", "g in [1/2, 3/2] (EA-B2)", 1, ("B2",), (r"^S2-eq40",), keywords=(r"\(40\)",)),
    Node("L15", "Lemma 15", "linear-net rate (EA-B3)", 1, ("B3",), (r"^S3-lemma15",), keywords=(r"\bLemma 15\b",)),
    Node("L7", "Lemmas 6-7", "K in Int S+ (EA-D3/D4)", 2, ("D3", "D4"), keywords=(r"\bLemma [67]\b",)),
    Node("L12", "Lemma 12", "trapping (EA-A5)", 3, ("A5",), keywords=(r"\bLemma 12\b",)),
    Node("L1", "Lemma 1", "small-init approx. (EA-C3)", 2, ("C3", "C4"), keywords=(r"\bLemma 1\b",)),
    Node("L10", "Lemma 10", "psi dynamics (EA-E1)", 2, ("E1",), (r"^S5-lemma10",), keywords=(r"\bLemma 10\b",)),
    Node("E28", "Eqs. (28)/(29)", "eps condition (EA-E2)", 2, ("E2",), (r"^S8-",), keywords=(r"\(28\)", r"\(29\)")),
    Node("L8", "Lemma 8", "zeta1 cap (EA-D5)", 3, ("D5",), (r"^S15-cap",), keywords=(r"\bLemma 8\b", r"\bzeta1?\b")),
    Node("L9", "Lemma 9", "xi = mu^2 (EA-D6)", 3, ("D6",), (r"^S15-xi",), keywords=(r"\bLemma 9\b", r"\bxi\b")),
    Node("E78", "Eqs. (7)/(8)", "boundary push (EA-E3)", 3, ("E3",), keywords=(r"\(7\)", r"\(8\)")),
    Node("DT", "Delta t", "dwell time (EA-E4)", 4, ("E4",), keywords=(r"\bDelta t\b", r"\bdwell\b")),
    Node("PATHS", "Paths, t1", "max path (EA-E5)", 5, ("E5",), (r"^S9-",), keywords=(r"\bt1\b",)),
    Node("T1A", "Thm 1, part 1", "alignment by t1 (EA-E6)", 6, ("E6", "E7"), (r"^P9-",), keywords=(r"\bTheorem 1\b",)),
    Node("L13", "Lemma 13", "norms at t1 (EA-F1)", 7, ("F1",), keywords=(r"\bLemma 13\b",)),
    Node("DEC", "Eqs. (32)-(35)", "split after t1 (EA-F2/F3)", 7, ("F2", "F3"), keywords=(r"\(32\)",)),
    Node("L14", "Lemma 14", "norms grow (EA-A6)", 7, ("A6",), keywords=(r"\bLemma 14\b",)),
    Node("F5", "Eqs. (37)/(38)", "refined alignment (EA-F5)", 8, ("F5",), (r"^S10-",)),
    Node("F4", "Thm 1, part 2", "loss rate alpha (EA-F4)", 8, ("F4",), (r"^S12-",)),
    Node("LR", "Eqs. (41)-(43)", "low rank (EA-G1..G4)", 8, ("G1", "G2", "G3", "G4"), (r"^S13-",)),
    Node("F6", "Eq. (39)", "t2 bound (EA-F6)", 9, ("F6",), (r"^S11-",)),
    Node("THM1", "Theorem 1", "parts 1 and 2, low rank", 10, kind="aggregate"),
)

EDGES: tuple[tuple[str, str], ...] = (
    ("A1", "L5"), ("A1", "L11"), ("A1", "E46"), ("A1", "EXIST"), ("A1", "L7"),
    ("INIT", "E46"), ("INIT", "L3"), ("INIT", "LR"),
    ("L2", "L3"), ("L2", "L4"), ("L2", "E40"), ("L2", "L15"),
    ("L5", "L7"), ("L5", "L9"), ("L5", "E78"),
    ("E46", "L12"), ("L7", "L12"), ("L7", "L8"),
    ("L3", "L1"), ("L4", "L1"), ("L4", "L10"), ("L3", "E28"),
    ("L10", "E78"), ("L11", "E78"), ("E28", "E78"),
    ("L8", "DT"), ("L9", "DT"), ("L11", "DT"), ("E28", "DT"), ("A2", "DT"), ("L10", "DT"),
    ("DT", "PATHS"), ("PATHS", "T1A"), ("E78", "T1A"), ("L12", "T1A"), ("EXIST", "T1A"), ("L1", "T1A"),
    ("T1A", "L13"), ("T1A", "L14"), ("T1A", "DEC"), ("L12", "L14"), ("L3", "L13"),
    ("E40", "F5"), ("DEC", "F5"), ("F5", "F6"), ("L13", "F6"), ("L14", "F6"),
    ("L15", "F4"), ("DEC", "F4"), ("L7", "F4"), ("T1A", "LR"), ("L3", "LR"),
    ("T1A", "THM1"), ("F4", "THM1"), ("F6", "THM1"), ("LR", "THM1"),
)

ORDER = ("FAILED", "REFUTED", "UNKNOWN", "HOLDS", "PROVED")  # worst first
COLOURS = {
    "PROVED": ("#2e7d32", "#c8e6c9"),
    "HOLDS": ("#558b2f", "#f1f8e9"),
    "REFUTED": ("#c62828", "#ffcdd2"),
    "UNKNOWN": ("#f9a825", "#fff8e1"),
    "FAILED": ("#6a1b9a", "#f3e5f5"),
    "assumption": ("#1565c0", "#e3f2fd"),
    "not encoded": ("#9e9e9e", "#f5f5f5"),
}
LEGEND = ("PROVED", "HOLDS", "UNKNOWN", "REFUTED", "FAILED", "assumption", "not encoded")

_BY_KEY = {n.key: n for n in NODES}
_CODE = re.compile(r"\bEA-([A-H]\d+)")


def _code_of(entry: dict[str, Any]) -> list[str]:
    cid = entry.get("id", "")
    m = re.match(r"^EA-([A-H]\d+)(?:-|$)", cid)
    if m:
        return [m.group(1)]
    m = re.match(r"^P\d+[a-z]?-([A-H]\d+)[a-z]?(?:-|$)", cid)
    if m:
        return [m.group(1)]
    return _CODE.findall(entry.get("source", ""))


def node_of(entry: dict[str, Any]) -> str | None:
    """The key of the node a claim entry attaches to (None: outside the graph)."""
    cid = entry.get("id", "")
    for node in NODES:
        if any(re.search(p, cid) for p in node.ids):
            return node.key
    for code in _code_of(entry):
        for node in NODES:
            if code in node.codes:
                return node.key
    return None


@dataclass
class NodeState:
    node: Node
    status: str
    claims: list[dict[str, Any]] = field(default_factory=list)  # asserting claims
    planted: list[dict[str, Any]] = field(default_factory=list)  # expected REFUTED (planted / errata)

    @property
    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for e in self.claims:
            out[e["verdict"]] = out.get(e["verdict"], 0) + 1
        return out


def _worst(verdicts: Iterable[str]) -> str | None:
    vs = list(verdicts)
    for v in ORDER:
        if v in vs:
            return v
    return None


def states(report: dict[str, Any]) -> dict[str, NodeState]:
    """Every node's state (status, attached claims) for this report."""
    out = {n.key: NodeState(n, "not encoded") for n in NODES}
    for e in report.get("claims", []):
        key = node_of(e)
        if key is None:
            continue
        (out[key].planted if e.get("expected") == "REFUTED" else out[key].claims).append(e)
    parents: dict[str, list[str]] = {}
    for a, b in EDGES:
        parents.setdefault(b, []).append(a)
    for node in NODES:  # rows are topologically ordered
        st = out[node.key]
        own = _worst(e["verdict"] for e in st.claims)
        if own is not None:
            st.status = own
        elif node.kind == "assumption":
            st.status = "assumption"
        elif node.kind == "aggregate":
            ps = [out[p].status for p in parents.get(node.key, [])]
            st.status = "not encoded" if not ps or "not encoded" in ps else (_worst(ps) or "not encoded")
    return out


def outside(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Claim entries that attach to no node."""
    return [e for e in report.get("claims", []) if node_of(e) is None]


# ------------------------------------------------------------------------------------- assumptions


def assumption_split(entry: dict[str, Any], report: dict[str, Any],
                     node_states: dict[str, NodeState] | None = None) -> dict[str, list[str]]:
    """Split a claim's hypotheses into checked / proved / assumed.

    checked = the claim's checked assumptions, assumed = those taken on trust; an assumption
    moves to *proved* when it names a graph node (keywords such as "Lemma 2", "balanced init",
    "(28)") whose symbolic claims (tag "symbolic") in this report are all PROVED (at least one).
    Claims listed in ``depends_on`` that are PROVED in this report are also listed as proved.
    Each proved item says which claims back it.
    """
    node_states = node_states if node_states is not None else states(report)
    by_id = {e["id"]: e for e in report.get("claims", [])}
    assumptions = entry.get("assumptions") or {}
    out: dict[str, list[str]] = {"checked": [], "proved": [], "assumed": []}

    def support(text: str) -> list[str] | None:
        for node in NODES:
            if not any(re.search(k, text, flags=re.IGNORECASE) for k in node.keywords):
                continue
            sym = [e for e in node_states[node.key].claims if "symbolic" in (e.get("tags") or [])]
            if sym and all(e["verdict"] == "PROVED" for e in sym):
                return [e["id"] for e in sym]
        return None

    for bucket in ("checked", "assumed"):
        for text in assumptions.get(bucket, []) or []:
            ids = support(text)
            if ids:
                out["proved"].append(f"{text} (via {node_label(text)}: {', '.join(ids)} PROVED)")
            else:
                out[bucket].append(text)
    for dep in entry.get("depends_on") or []:
        dep_entry = by_id.get(dep)
        if dep_entry is not None and dep_entry.get("verdict") == "PROVED":
            out["proved"].append(f"{dep}: {dep_entry.get('statement', '')} [PROVED]")
    return out


def node_label(text: str) -> str:
    for node in NODES:
        if any(re.search(k, text, flags=re.IGNORECASE) for k in node.keywords):
            return node.label
    return "?"


# ---------------------------------------------------------------------------------------- drawing

NODE_W, NODE_H, COL_W, ROW_H, MARGIN = 150, 50, 164, 78, 16


def layout() -> dict[str, tuple[float, float]]:
    """Node centres: rows top to bottom, order within rows by a few barycentre sweeps."""
    rows: dict[int, list[str]] = {}
    for n in NODES:
        rows.setdefault(n.row, []).append(n.key)
    parents: dict[str, list[str]] = {}
    children: dict[str, list[str]] = {}
    for a, b in EDGES:
        parents.setdefault(b, []).append(a)
        children.setdefault(a, []).append(b)
    width = max(len(v) for v in rows.values())

    def xs() -> dict[str, float]:
        pos = {}
        for keys in rows.values():
            offset = (width - len(keys)) / 2.0
            for i, k in enumerate(keys):
                pos[k] = offset + i
        return pos

    for _ in range(4):
        pos = xs()
        for r in sorted(rows)[1:]:
            rows[r].sort(key=lambda k: sum(pos[p] for p in parents.get(k, [k])) / max(1, len(parents.get(k, [k]))))
            pos = xs()
        for r in sorted(rows, reverse=True)[1:]:
            ch = lambda k: [c for c in children.get(k, []) if _BY_KEY[c].row == r + 1] or [k]  # noqa: E731
            rows[r].sort(key=lambda k: sum(pos[c] for c in ch(k)) / len(ch(k)))
            pos = xs()
    pos = xs()
    return {k: (MARGIN + x * COL_W + NODE_W / 2, MARGIN + _BY_KEY[k].row * ROW_H + NODE_H / 2) for k, x in pos.items()}


def _short(counts: dict[str, int]) -> str:
    return " ".join(f"{n}{v[0]}" for v in ORDER[::-1] if (n := counts.get(v)))


def svg(report: dict[str, Any]) -> str:
    """The coloured dependency graph as an inline ``<svg>`` element (with a legend)."""
    esc = html.escape
    st = states(report)
    pos = layout()
    width = max(x for x, _ in pos.values()) + NODE_W / 2 + MARGIN
    legend_y = max(y for _, y in pos.values()) + NODE_H / 2 + 24
    height = legend_y + 24
    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' class='depgraph' role='img' aria-label='seed 004 lemma dependency graph' "
        f"viewBox='0 0 {width:.0f} {height:.0f}' width='{width:.0f}' height='{height:.0f}' font-family='sans-serif'>",
        "<defs><marker id='arrow' viewBox='0 0 10 10' refX='9' refY='5' markerWidth='7' markerHeight='7' "
        "orient='auto-start-reverse'><path d='M0,0 L10,5 L0,10 z' fill='#777'/></marker></defs>",
        "<title>Seed 004 lemma dependency graph, coloured by verdict</title>",
    ]
    for a, b in EDGES:
        (x1, y1), (x2, y2) = pos[a], pos[b]
        y1 += NODE_H / 2
        y2 -= NODE_H / 2
        dy = (y2 - y1) / 2
        span = _BY_KEY[b].row - _BY_KEY[a].row
        opacity, w = (0.75, 1.3) if span <= 2 else (0.4, 1.0)  # long edges lighter
        parts.append(f"<path d='M{x1:.1f},{y1:.1f} C{x1:.1f},{y1 + dy:.1f} {x2:.1f},{y2 - dy:.1f} {x2:.1f},{y2:.1f}' "
                     f"fill='none' stroke='#888' stroke-opacity='{opacity}' stroke-width='{w}' marker-end='url(#arrow)'/>")
    for node in NODES:
        s = st[node.key]
        x, y = pos[node.key]
        stroke, fill = COLOURS[s.status]
        dash = " stroke-dasharray='4 3'" if s.status == "not encoded" else ""
        tip = [f"{node.label}: {node.detail} - {s.status}"]
        tip += [f"{e['id']}: {e['verdict']} (expected {e['expected']})" for e in s.claims]
        tip += [f"{e['id']}: {e['verdict']} (planted / erratum, expected {e['expected']})" for e in s.planted]
        counts = _short(s.counts) if s.claims else s.status
        parts.append(f"<g class='node' data-node='{node.key}' data-status='{esc(s.status)}'><title>{esc(chr(10).join(tip))}</title>"
                     f"<rect x='{x - NODE_W / 2:.1f}' y='{y - NODE_H / 2:.1f}' width='{NODE_W}' height='{NODE_H}' rx='7' "
                     f"fill='{fill}' stroke='{stroke}' stroke-width='2'{dash}/>"
                     f"<text x='{x:.1f}' y='{y - 9:.1f}' text-anchor='middle' font-size='12' font-weight='bold' fill='#222'>{esc(node.label)}</text>"
                     f"<text x='{x:.1f}' y='{y + 5:.1f}' text-anchor='middle' font-size='9.5' fill='#444'>{esc(node.detail)}</text>"
                     f"<text x='{x:.1f}' y='{y + 18:.1f}' text-anchor='middle' font-size='9.5' fill='{stroke}'>{esc(counts)}</text>")
        if s.planted:
            bx, by = x + NODE_W / 2 - 4, y - NODE_H / 2 + 4
            parts.append(f"<circle cx='{bx:.1f}' cy='{by:.1f}' r='9' fill='#ef6c00'/>"
                         f"<text x='{bx:.1f}' y='{by + 3.5:.1f}' text-anchor='middle' font-size='10' fill='#fff' "
                         f"font-weight='bold'>{len(s.planted)}</text>")
        parts.append("</g>")
    x = MARGIN
    for name in LEGEND:
        stroke, fill = COLOURS[name]
        dash = " stroke-dasharray='4 3'" if name == "not encoded" else ""
        parts.append(f"<rect x='{x}' y='{legend_y - 10:.0f}' width='14' height='14' rx='3' fill='{fill}' stroke='{stroke}' "
                     f"stroke-width='2'{dash}/><text x='{x + 19}' y='{legend_y + 1:.0f}' font-size='11'>{esc(name)}</text>")
        x += 36 + 8 * len(name)
    parts.append(f"<circle cx='{x + 7}' cy='{legend_y - 3:.0f}' r='8' fill='#ef6c00'/>"
                 f"<text x='{x + 19}' y='{legend_y + 1:.0f}' font-size='11'>planted / errata claims (refuted as expected)</text>")
    parts.append("</svg>")
    return "".join(parts)


def text_lines(report: dict[str, Any]) -> list[str]:
    """The graph as Markdown list lines (for report.md)."""
    st = states(report)
    parents: dict[str, list[str]] = {}
    for a, b in EDGES:
        parents.setdefault(b, []).append(_BY_KEY[a].label)
    lines = []
    for node in NODES:
        s = st[node.key]
        ids = ", ".join(f"{e['id']} {e['verdict']}" for e in s.claims) or "-"
        planted = f"; planted/errata: {', '.join(e['id'] for e in s.planted)}" if s.planted else ""
        uses = f" <- {', '.join(parents[node.key])}" if node.key in parents else ""
        lines.append(f"- **{node.label}** ({node.detail}): **{s.status}**{uses}. Claims: {ids}{planted}")
    return lines
