"""Teeth of the seed-003 catalogue: which planted engine bugs (verify/evidence/mutants.py) each claim catches.

``CAUGHT_BY`` maps a mutant id to the claims whose verdict was not the expected one under it, measured with
``scripts/mutant_teeth.py --paper 003``'s search (ci profile, seed 0, in-process ``verify.evidence.mutants.
unexpected_under``), one fresh process per mutant: this package caches sweeps and sibling runs by content
(``time_scale._SWEEPS``, ``theorem43._SIGMA_SWEEPS``, ``theorem62.sibling`` / ``reference``), so runs from one mutant
must not be reused under another. The baseline (no mutant) has no unexpected claim.

Measured (MEASURED): the mutants that reach this paper's runs: the logistic loss, the event-driven float64 engine in
Cartesian and polar (log-eps) form, the hybrid limit phase. Mutants of other losses, of GD/SGD and of the logistic2
kernel cannot reach them. A mutant measured with no catch is listed in ``MEASURED`` and absent from ``CAUGHT_BY``:
polar-outputs-exp-r (the polar outputs are not what these runs read), events-skip-crossing (the flow is unchanged to
1e-15, only the event log repeats a record, which no seed-003 claim reads) and sigma-prime-zero-one (these runs cross
kinks transversally, never sitting on one: Phase I under A4.5, ``phase1`` docstring).

:func:`attach` adds the planted-claim teeth (a planted claim expected REFUTED that shares a check) and stores the
merged list in every claim's ``meta["teeth"]``.
"""

from __future__ import annotations

from typing import Sequence

from verify.claims.model import Claim
from verify.evidence import teeth

MEASURED: tuple[str, ...] = ("polar-outputs-exp-r", "events-skip-crossing", "sigma-prime-zero-one")

CAUGHT_BY: dict[str, tuple[str, ...]] = {}


def attach(claims: Sequence[Claim]) -> None:
    """Store every claim's teeth (planted claims sharing its check, mutants of ``CAUGHT_BY``) in ``meta``."""
    teeth.attach(claims, CAUGHT_BY)
