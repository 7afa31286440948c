"""Papers as plug-ins (DESIGN.md section 6): the engine knows no paper.

A :class:`Paper` bundles one paper's claims with what the report needs to present them: its title
and source, its audit quantities (a callable ``audit(base: verify.Audit) -> verify.PaperAudit``, run by
:func:`verify.audit` on top of the generic data geometry), its named horizons (``{"t1": lambda audit:
audit.t1}``: a claim may say ``horizon="t1"``), its datasets (``gen:NAME`` on the command line), its blueprint (the lemma graph its claims hang on), its
errata and its experiments. Papers are found
through the entry-point group ``verify.papers``; each entry point names a ``Paper`` object::

    [project.entry-points."verify.papers"]
    "MY" = "my_package.paper:PAPER"

The built-in papers are registered the same way, so a third-party package is listed, checked and
reported exactly like them (:mod:`verify.claims.registry`).
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Callable, Mapping, Sequence

from verify.claims.model import Claim
from verify.errors import InputError

ENTRY_POINT_GROUP = "verify.papers"


@dataclass(frozen=True)
class Node:
    """One blueprint node: a lemma, theorem, equation or assumption of the paper."""

    key: str
    label: str  # the paper's own name for it
    detail: str = ""  # one line of content, e.g. "trapping"
    kind: str = "lemma"  # "lemma" | "assumption" | "aggregate" (coloured by its parents)
    keywords: tuple[str, ...] = ()  # regexes matched against a claim's assumption texts (report: proved hypotheses)

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or not self.key:
            raise InputError("a blueprint node needs a non-empty string key")
        if self.kind not in ("lemma", "assumption", "aggregate"):
            raise InputError(f"blueprint node {self.key!r}: kind must be lemma, assumption or aggregate, got {self.kind!r}")


@dataclass(frozen=True)
class Blueprint:
    """The paper's dependency graph: nodes and edges (a, b) meaning "a is used to prove b".

    Claims attach to nodes by their own declarations (``Claim.node``, ``Claim.uses``), never by
    their ids. Node order is the drawing order (sources first).
    """

    nodes: tuple[Node, ...]
    edges: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        keys = [n.key for n in self.nodes]
        if len(set(keys)) != len(keys):
            raise InputError(f"blueprint: duplicate node keys {sorted({k for k in keys if keys.count(k) > 1})}")
        known = set(keys)
        for a, b in self.edges:
            if a not in known or b not in known:
                raise InputError(f"blueprint: edge ({a!r}, {b!r}) names a node that does not exist")

    def node(self, key: str) -> Node | None:
        return next((n for n in self.nodes if n.key == key), None)

    def to_dict(self) -> dict[str, Any]:
        return {"nodes": [{"key": n.key, "label": n.label, "detail": n.detail, "kind": n.kind,
                           "keywords": list(n.keywords)} for n in self.nodes],
                "edges": [list(e) for e in self.edges]}


@dataclass(frozen=True)
class Erratum:
    """An error or ambiguity found in the paper, and the claims that decide it (paired readings)."""

    id: str
    title: str  # what is wrong, e.g. "zeta := max{zeta1, zeta2} must be min"
    detail: str = ""
    claims: tuple[str, ...] = ()  # the claim ids that encode the readings


@dataclass(frozen=True, eq=False)
class Paper:
    """One paper as a plug-in: ``Paper(id, title, claims, *, source=None, audit=None, horizons={},
    datasets={}, blueprint=None, errata=(), experiments=())``. ``id`` is the seed number for the built-in papers."""

    id: str
    title: str
    claims: Sequence[Claim]
    _: KW_ONLY
    source: str | None = None
    audit: Callable[[Any], Any] | None = None
    horizons: Mapping[str, Callable[[Any], float | None]] = field(default_factory=dict)
    datasets: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    blueprint: Blueprint | None = None
    errata: Sequence[Erratum] = ()
    experiments: Sequence[Any] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise InputError("a paper needs a non-empty string id")
        if not isinstance(self.title, str) or not self.title:
            raise InputError(f"paper {self.id}: needs a title")
        claims = tuple(self.claims)
        bad = [type(c).__name__ for c in claims if not isinstance(c, Claim)]
        if bad:
            raise InputError(f"paper {self.id}: claims must be verify.Claim objects, got {', '.join(sorted(set(bad)))}")
        ids = [c.id for c in claims]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise InputError(f"paper {self.id}: duplicate claim ids {', '.join(dup)}")
        if self.blueprint is not None and not isinstance(self.blueprint, Blueprint):
            raise InputError(f"paper {self.id}: blueprint must be a verify.Blueprint")
        if self.blueprint is not None:
            unknown = [f"{c.id} -> {k}" for c in claims for k in (c.node, *c.uses) if k is not None
                       and self.blueprint.node(k) is None]
            if unknown:
                raise InputError(f"paper {self.id}: claims name blueprint nodes that do not exist: {', '.join(unknown[:5])}")
        strays = [f"{e.id} -> {cid}" for e in self.errata for cid in e.claims if cid not in ids]
        if strays:
            raise InputError(f"paper {self.id}: errata name claims it does not hold: {', '.join(strays[:5])}")
        if self.audit is not None and not callable(self.audit):
            raise InputError(f"paper {self.id}: audit must be a callable audit(base) -> verify.PaperAudit")
        bad_h = [k for k, fn in dict(self.horizons).items() if not (isinstance(k, str) and k and callable(fn))]
        if bad_h:
            raise InputError(f"paper {self.id}: horizons must map names to callables audit -> time, got {bad_h[0]!r}")
        unnamed = sorted({c.horizon for c in claims if isinstance(c.horizon, str)} - set(self.horizons))
        if unnamed:
            raise InputError(f"paper {self.id}: claims use horizon names it does not define: {', '.join(unnamed)}")
        bad_d = [k for k, fn in dict(self.datasets).items() if not (isinstance(k, str) and k and callable(fn))]
        if bad_d:
            raise InputError(f"paper {self.id}: datasets must map names to callables (...) -> verify.Dataset, got {bad_d[0]!r}")
        from verify.reproduce import Experiment

        bad_e = [repr(e) for e in self.experiments if not (isinstance(e, Experiment) and e.name.startswith(f"{self.id}-"))]
        if bad_e:
            raise InputError(f"paper {self.id}: experiments must be verify.reproduce.Experiment values named "
                             f"'{self.id}-...', got {bad_e[0][:60]}")
        object.__setattr__(self, "horizons", dict(self.horizons))
        object.__setattr__(self, "datasets", dict(self.datasets))
        object.__setattr__(self, "claims", claims)
        object.__setattr__(self, "errata", tuple(self.errata))
        object.__setattr__(self, "experiments", tuple(self.experiments))

    def to_dict(self) -> dict[str, Any]:
        """What a report stores about the paper (enough to re-render it without the plug-in)."""
        return {"id": self.id, "title": self.title, "source": self.source,
                "claims": [c.id for c in self.claims],
                "blueprint": None if self.blueprint is None else self.blueprint.to_dict(),
                "errata": [{"id": e.id, "title": e.title, "detail": e.detail, "claims": list(e.claims)} for e in self.errata]}
