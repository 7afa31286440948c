"""Teeth of the seed-003 catalogue: which planted engine bugs (verify/evidence/mutants.py) each claim catches.

``CAUGHT_BY`` maps a mutant id to the claims whose verdict was not the expected one under it, measured with
``scripts/mutant_teeth.py --paper 003``. :func:`attach` adds the planted-claim teeth (a planted claim expected REFUTED
that shares a check) and stores the merged list in every claim's ``meta["teeth"]``.
"""

from __future__ import annotations

from typing import Sequence

from verify.claims.model import Claim
from verify.evidence import teeth

CAUGHT_BY: dict[str, tuple[str, ...]] = {}


def attach(claims: Sequence[Claim]) -> None:
    """Store every claim's teeth (planted claims sharing its check, mutants of ``CAUGHT_BY``) in ``meta``."""
    teeth.attach(claims, CAUGHT_BY)
