"""Teeth of the seed-003 catalogue: which planted engine bugs (verify/evidence/mutants.py) each claim catches.

``CAUGHT_BY`` maps a mutant id to the claims whose verdict was not the expected one under it, measured with
``scripts/mutant_teeth.py --paper 003`` (ci profile, seed 0, the search of ``verify check`` with the mp cross-checks
of HOLDS), the baseline and every mutant in a fresh process: this package caches sweeps and runs by content
(``time_scale._SWEEPS``, ``theorem43._SIGMA_SWEEPS``, ``theorem62.sibling`` / ``reference``, the lru caches of
``phase1.phase_one`` and ``late_phase.read``), so in one process a run made under one mutant would be read under the
next. The baseline (no mutant) has no unexpected claim. A claim still running after 600 s under a mutant was stopped
and is listed in ``TIMED_OUT`` (a mutated flow may grow slowly without failing): not counted as a catch.

MEASURED lists every mutant measured on the whole catalogue; a measured mutant absent from ``CAUGHT_BY`` changed no
verdict. Why some catch nothing: polar-outputs-exp-r (the polar outputs are not what these runs read),
events-skip-crossing (the flow is unchanged to 1e-15, only the event log repeats a record, which no seed-003 claim
reads), sigma-prime-zero-one (these runs cross kinks transversally, never sitting on one: Phase I under A4.5,
``phase1`` docstring; at LY-A46-proxy's kink starts the engine's GD reads |P| ~ 1e-18, not 0, and S-14's planted kink
is refuted by the event flow against phi'(0) = 1 whatever the GD's rule), and the mutants of code no seed-003 run
reaches (the exp, square and logistic2 losses, the logistic2 kernel, SGD).

:func:`attach` adds the planted-claim teeth (a planted claim expected REFUTED that shares a check) and the tests of
``SHOWN_BY_TESTS`` and stores the merged list in every claim's ``meta["teeth"]``.
"""

from __future__ import annotations

from typing import Sequence

from verify.claims.model import Claim
from verify.evidence import teeth

MEASURED: tuple[str, ...] = ()

CAUGHT_BY: dict[str, tuple[str, ...]] = {}

TIMED_OUT: dict[str, tuple[str, ...]] = {}

# tests of make test that make a claim's check return a violation (verify.evidence.teeth.declaration_problems checks them)
SHOWN_BY_TESTS: dict[str, tuple[str, ...]] = {
    "tests/test_paper_003_branching.py::test_the_repelling_kink_separates_beyond_tolerance": ("LY-A46-proxy",),
}


def attach(claims: Sequence[Claim]) -> None:
    """Store every claim's teeth (planted claims sharing its check, mutants of ``CAUGHT_BY``, tests of
    ``SHOWN_BY_TESTS``) in ``meta``."""
    teeth.attach(claims, CAUGHT_BY, SHOWN_BY_TESTS)
