"""Teeth of the seed-002 catalogue: which planted engine bugs (verify/evidence/mutants.py) each claim catches.

``CAUGHT_BY`` maps a mutant id to the claims whose verdict was not the expected one under it, measured with
``scripts/mutant_teeth.py --paper 002``. :func:`attach` adds the planted-claim teeth (a planted claim expected REFUTED
that shares a check) and stores the merged list in every claim's ``meta["teeth"]``.
"""

from __future__ import annotations

from typing import Sequence

from verify.claims.model import Claim
from verify.evidence import teeth

CAUGHT_BY: dict[str, tuple[str, ...]] = {
    "sgd-with-replacement": ("LT-D4-epochs", "LT-I41a", "LT-P41i", "LT-T41"),
    "sigma-prime-zero-one": ("LT-D4",),
    "loss-logistic-derivative": ("LT-A61", "LT-C62", "LT-D4", "LT-EB4", "LT-IMP-A7", "LT-P41a", "LT-P41b", "LT-P41c",
                                 "LT-P41h", "LT-P41i-eps", "LT-T61", "LT-T61-P9", "LT-X1", "LT-X6-gf",
                                 "LT-X6-gf-integral", "LT-X6-gf-slope-one", "LT-X7", "LT-X7-gf", "P12-IMP-A7-gd50"),
}  # measured at ci, seed 0; events-skip-crossing: no seed-002 claim noticed it

# tests of make test that make a claim's check return a violation (verify.evidence.teeth.declaration_problems checks them)
SHOWN_BY_TESTS: dict[str, tuple[str, ...]] = {
    "tests/test_paper_002_theorem41.py::test_all_mistake_epochs_fails_with_an_inflated_progress_constant": ("LT-P41g",),
}


def attach(claims: Sequence[Claim]) -> None:
    """Store every claim's teeth (planted claims sharing its check, mutants of ``CAUGHT_BY``, tests of
    ``SHOWN_BY_TESTS``) in ``meta``."""
    teeth.attach(claims, CAUGHT_BY, SHOWN_BY_TESTS)
