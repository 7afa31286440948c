"""Teeth: which planted scenarios and engine mutants make each claim's check fail (report field ``teeth``).

Two sources, merged per claim into ``claim.meta["teeth"]`` (a sorted list of ids):

- planted claims: a claim expected REFUTED whose ``check`` is the same function as another claim's
  breaks that check on its planted scenario (and its own id is its own teeth);
- mutants: measured, ``{mutant id: [claim ids whose verdict differed from expected under it]}``
  (``tests/test_mutants.py`` and ``scripts/mutant_teeth.py`` measure it; the paper stores the result).
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from verify.claims.model import Claim
from verify.verdicts import Verdict


def planted_teeth(claims: Iterable[Claim]) -> dict[str, list[str]]:
    """claim id -> ids of the planted claims (expected REFUTED) that share its check function."""
    claims = list(claims)
    planted: dict[int, list[str]] = {}
    for c in claims:
        if c.expected == Verdict.REFUTED:
            planted.setdefault(id(c.check), []).append(c.id)
    return {c.id: sorted(planted.get(id(c.check), [])) for c in claims}


def attach(claims: Sequence[Claim], caught_by: Mapping[str, Sequence[str]]) -> None:
    """Set ``meta["teeth"]`` on every claim: its planted teeth plus the mutants (``caught_by``:
    mutant id -> claim ids it turned unexpected) that break it."""
    teeth = planted_teeth(claims)
    for mutant, ids in caught_by.items():
        for cid in ids:
            teeth.setdefault(cid, []).append(mutant)
    for c in claims:
        c.meta["teeth"] = sorted(set(teeth.get(c.id, [])))
