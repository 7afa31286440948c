"""Teeth: which planted scenarios and engine mutants make each claim's check fail (report field ``teeth``).

Three sources, merged per claim into ``claim.meta["teeth"]`` (a sorted list of ids):

- planted claims: a claim expected REFUTED whose ``check`` is the same function as another claim's
  breaks that check on its planted scenario (and its own id is its own teeth). Symbolic claims share one
  procedure (the certificate search): a planted symbolic claim of the same paper that it refutes is the
  teeth of every symbolic claim there;
- mutants: measured, ``{mutant id: [claim ids whose verdict differed from expected under it]}``
  (``tests/test_mutants.py`` and ``scripts/mutant_teeth.py`` measure it; the paper stores the result);
- tests: ``{"tests/FILE.py::test_name": [claim ids]}``, a test of ``make test`` that makes the claim's check
  return a violation on a planted input (or under a monkeypatched engine). The ids appear as
  ``test:FILE.py::test_name``; :func:`declaration_problems` checks each names a real test that calls the
  claim's check function.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from verify.claims.model import Claim
from verify.verdicts import Verdict


def planted_teeth(claims: Iterable[Claim]) -> dict[str, list[str]]:
    """claim id -> ids of the planted claims (expected REFUTED) that share its check function."""
    claims = list(claims)
    planted: dict[object, list[str]] = {}
    for c in claims:
        if c.expected == Verdict.REFUTED:
            planted.setdefault(_procedure(c), []).append(c.id)
    return {c.id: sorted(planted.get(_procedure(c), [])) for c in claims}


def _procedure(c: Claim) -> object:
    """What decides the claim: its check function, or the symbolic certificate search for symbolic claims."""
    return "symbolic" if "symbolic" in c.tags else id(c.check)


def attach(claims: Sequence[Claim], caught_by: Mapping[str, Sequence[str]],
           shown_by_tests: Mapping[str, Sequence[str]] | None = None) -> None:
    """Set ``meta["teeth"]`` on every claim: its planted teeth, the mutants (``caught_by``: mutant id -> claim ids
    it turned unexpected) and the tests (``shown_by_tests``: test node id -> claim ids) that break it."""
    teeth = planted_teeth(claims)
    for mutant, ids in caught_by.items():
        for cid in ids:
            teeth.setdefault(cid, []).append(mutant)
    for node, ids in (shown_by_tests or {}).items():
        for cid in ids:
            teeth.setdefault(cid, []).append("test:" + node.removeprefix("tests/"))
    for c in claims:
        c.meta["teeth"] = sorted(set(teeth.get(c.id, [])))


def declaration_problems(root: str | Path, claims: Sequence[Claim], shown_by_tests: Mapping[str, Sequence[str]]) -> list[str]:
    """Problems with ``shown_by_tests`` (empty: every declaration is sound): each node id must name a test function
    of a file under ``root``, each claim id must exist, and the test's body must call the claim's check function
    by name (or name the claim id), so that a declaration cannot point at an unrelated test."""
    by_id = {c.id: c for c in claims}
    problems: list[str] = []
    for node, ids in shown_by_tests.items():
        file, _, name = node.partition("::")
        path = Path(root) / file
        if not path.is_file():
            problems.append(f"{node}: no file {file}")
            continue
        tree = ast.parse(path.read_text())
        funcs = [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == name]
        if not funcs:
            problems.append(f"{node}: no test function {name}")
            continue
        source = ast.get_source_segment(path.read_text(), funcs[0]) or ""
        for cid in ids:
            c = by_id.get(cid)
            if c is None:
                problems.append(f"{node}: unknown claim {cid}")
            elif getattr(c.check, "__name__", "<lambda>") not in source and cid not in source:
                problems.append(f"{node}: does not call {cid}'s check {getattr(c.check, '__name__', '?')}")
    return problems
