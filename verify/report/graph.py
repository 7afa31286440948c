"""Each paper's blueprint (its lemma dependency graph) as the report stores it, coloured by verdict.

The graph is the paper's own declaration (``verify.Paper.blueprint``, stored in ``report["papers"]``):
nodes are the paper's assumptions, lemmas and proof steps, edges say "is used to prove". A claim
attaches to the node it declares (``Claim.node``); nothing is inferred from ids. A node with no claim
in the report is drawn grey as "not encoded".

A node's colour is the worst verdict among its *asserting* claims (expected verdict not REFUTED),
in the order FAILED > REFUTED > UNKNOWN > HOLDS > PROVED; planted claims and errata (expected
REFUTED) are counted in a badge instead. Aggregate nodes without claims of their own take the worst
colour of their parents. Rows are the longest path from a source. :func:`svg` draws the graph as
inline SVG (no graphviz needed); :func:`assumption_split` uses the nodes' keywords to say which
hypotheses of a claim are backed by a PROVED symbolic claim.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any, Iterable


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

@dataclass(frozen=True)
class Node:
    key: str
    label: str
    detail: str
    row: int
    kind: str = "lemma"
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class Graph:
    """One paper's blueprint as drawn: nodes in drawing order (with their rows) and edges."""

    paper: str
    title: str
    nodes: tuple[Node, ...]
    edges: tuple[tuple[str, str], ...]

    def node(self, key: str) -> Node:
        return next(n for n in self.nodes if n.key == key)


def _rows(keys: list[str], edges: list[tuple[str, str]]) -> dict[str, int]:
    """Longest-path depth of every node from a source (edges point from a lemma to what it proves)."""
    parents: dict[str, list[str]] = {}
    for a, b in edges:
        parents.setdefault(b, []).append(a)
    depth: dict[str, int] = {}

    def visit(k: str, seen: frozenset) -> int:
        if k not in depth:
            ps = [p for p in parents.get(k, []) if p not in seen]
            depth[k] = 1 + max((visit(p, seen | {k}) for p in ps), default=-1)
        return depth[k]

    for k in keys:
        visit(k, frozenset())
    return depth


def graphs(report: dict[str, Any]) -> list[Graph]:
    """The blueprint of every paper in the report that declares one."""
    out = []
    for paper in report.get("papers") or []:
        bp = paper.get("blueprint")
        if not bp or not bp.get("nodes"):
            continue
        edges = [(str(a), str(b)) for a, b in bp.get("edges", [])]
        keys = [n["key"] for n in bp["nodes"]]
        rows = _rows(keys, edges)
        nodes = tuple(Node(n["key"], n.get("label", n["key"]), n.get("detail", ""), rows[n["key"]], n.get("kind", "lemma"),
                           tuple(n.get("keywords", ()))) for n in bp["nodes"])
        out.append(Graph(str(paper["id"]), str(paper.get("title", "")), nodes, tuple(edges)))
    return out


def graph_of(report: dict[str, Any], paper: str) -> Graph | None:
    return next((g for g in graphs(report) if g.paper == paper), None)


def node_of(entry: dict[str, Any], g: Graph) -> str | None:
    """The node a claim entry declares, if it belongs to this graph's paper and the node exists."""
    key = entry.get("node")
    if entry.get("paper") != g.paper or key is None:
        return None
    return key if any(n.key == key for n in g.nodes) else None


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


def states(report: dict[str, Any], g: Graph) -> dict[str, NodeState]:
    """Every node's state (status, attached claims) for this report."""
    out = {n.key: NodeState(n, "not encoded") for n in g.nodes}
    for e in report.get("claims", []):
        key = node_of(e, g)
        if key is None:
            continue
        (out[key].planted if e.get("expected") == "REFUTED" else out[key].claims).append(e)
    parents: dict[str, list[str]] = {}
    for a, b in g.edges:
        parents.setdefault(b, []).append(a)
    for node in sorted(g.nodes, key=lambda n: n.row):  # parents before children
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


def outside(report: dict[str, Any], g: Graph) -> list[dict[str, Any]]:
    """This paper's claim entries that attach to no node."""
    return [e for e in report.get("claims", []) if e.get("paper") == g.paper and node_of(e, g) is None]


# ------------------------------------------------------------------------------------- assumptions


def assumption_split(entry: dict[str, Any], report: dict[str, Any],
                     node_states: dict[str, dict[str, NodeState]] | None = None) -> dict[str, list[str]]:
    """Split a claim's hypotheses into checked / proved / assumed.

    checked = the claim's checked assumptions, assumed = those taken on trust; an assumption
    moves to *proved* when it names a graph node (its keywords, e.g. a lemma name or "balanced init",
    "(28)") whose symbolic claims (tag "symbolic") in this report are all PROVED (at least one).
    Claims listed in ``depends_on`` that are PROVED in this report are also listed as proved.
    Each proved item says which claims back it.
    """
    g = graph_of(report, entry.get("paper"))
    if node_states is None:
        node_states = {g.paper: states(report, g)} if g is not None else {}
    mine = node_states.get(g.paper, {}) if g is not None else {}
    nodes = g.nodes if g is not None else ()
    by_id = {e["id"]: e for e in report.get("claims", [])}
    assumptions = entry.get("assumptions") or {}
    out: dict[str, list[str]] = {"checked": [], "proved": [], "assumed": []}

    def support(text: str) -> tuple[str, list[str]] | None:
        for node in nodes:
            if not any(re.search(k, text, flags=re.IGNORECASE) for k in node.keywords):
                continue
            sym = [e for e in mine[node.key].claims if "symbolic" in (e.get("tags") or [])]
            if sym and all(e["verdict"] == "PROVED" for e in sym):
                return node.label, [e["id"] for e in sym]
        return None

    for bucket in ("checked", "assumed"):
        for text in assumptions.get(bucket, []) or []:
            found = support(text)
            if found:
                out["proved"].append(f"{text} (via {found[0]}: {', '.join(found[1])} PROVED)")
            else:
                out[bucket].append(text)
    for dep in entry.get("depends_on") or []:
        dep_entry = by_id.get(dep)
        if dep_entry is not None and dep_entry.get("verdict") == "PROVED":
            out["proved"].append(f"{dep}: {dep_entry.get('statement', '')} [PROVED]")
    return out


# ---------------------------------------------------------------------------------------- drawing

NODE_W, NODE_H, COL_W, ROW_H, MARGIN = 150, 50, 164, 78, 16


def layout(g: Graph) -> dict[str, tuple[float, float]]:
    """Node centres: rows top to bottom, order within rows by a few barycentre sweeps."""
    rows: dict[int, list[str]] = {}
    for n in g.nodes:
        rows.setdefault(n.row, []).append(n.key)
    by_key = {n.key: n for n in g.nodes}
    parents: dict[str, list[str]] = {}
    children: dict[str, list[str]] = {}
    for a, b in g.edges:
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
            ch = lambda k: [c for c in children.get(k, []) if by_key[c].row == r + 1] or [k]  # noqa: E731
            rows[r].sort(key=lambda k: sum(pos[c] for c in ch(k)) / len(ch(k)))
            pos = xs()
    pos = xs()
    return {k: (MARGIN + x * COL_W + NODE_W / 2, MARGIN + by_key[k].row * ROW_H + NODE_H / 2) for k, x in pos.items()}


def _short(counts: dict[str, int]) -> str:
    return " ".join(f"{n}{v[0]}" for v in ORDER[::-1] if (n := counts.get(v)))


def svg(report: dict[str, Any], g: Graph) -> str:
    """The coloured dependency graph as an inline ``<svg>`` element (with a legend)."""
    esc = html.escape
    st = states(report, g)
    pos = layout(g)
    width = max(x for x, _ in pos.values()) + NODE_W / 2 + MARGIN
    legend_y = max(y for _, y in pos.values()) + NODE_H / 2 + 24
    height = legend_y + 24
    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' class='depgraph' role='img' aria-label='paper {esc(g.paper)} lemma dependency graph' "
        f"viewBox='0 0 {width:.0f} {height:.0f}' width='{width:.0f}' height='{height:.0f}' font-family='sans-serif'>",
        "<defs><marker id='arrow' viewBox='0 0 10 10' refX='9' refY='5' markerWidth='7' markerHeight='7' "
        "orient='auto-start-reverse'><path d='M0,0 L10,5 L0,10 z' fill='#777'/></marker></defs>",
        f"<title>Paper {esc(g.paper)} lemma dependency graph, coloured by verdict</title>",
    ]
    for a, b in g.edges:
        (x1, y1), (x2, y2) = pos[a], pos[b]
        y1 += NODE_H / 2
        y2 -= NODE_H / 2
        dy = (y2 - y1) / 2
        span = g.node(b).row - g.node(a).row
        opacity, w = (0.75, 1.3) if span <= 2 else (0.4, 1.0)  # long edges lighter
        parts.append(f"<path d='M{x1:.1f},{y1:.1f} C{x1:.1f},{y1 + dy:.1f} {x2:.1f},{y2 - dy:.1f} {x2:.1f},{y2:.1f}' "
                     f"fill='none' stroke='#888' stroke-opacity='{opacity}' stroke-width='{w}' marker-end='url(#arrow)'/>")
    for node in g.nodes:
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


def text_lines(report: dict[str, Any], g: Graph) -> list[str]:
    """The graph as Markdown list lines (for report.md)."""
    st = states(report, g)
    parents: dict[str, list[str]] = {}
    for a, b in g.edges:
        parents.setdefault(b, []).append(g.node(a).label)
    lines = []
    for node in g.nodes:
        s = st[node.key]
        ids = ", ".join(f"{e['id']} {e['verdict']}" for e in s.claims) or "-"
        planted = f"; planted/errata: {', '.join(e['id'] for e in s.planted)}" if s.planted else ""
        uses = f" <- {', '.join(parents[node.key])}" if node.key in parents else ""
        lines.append(f"- **{node.label}** ({node.detail}): **{s.status}**{uses}. Claims: {ids}{planted}")
    return lines
