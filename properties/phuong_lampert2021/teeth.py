"""Teeth of the seed-000 catalogue: which planted engine bugs (verify/evidence/mutants.py) each claim catches.

``CAUGHT_BY`` maps a mutant id to the claims whose verdict was not the expected one under it, measured with
``scripts/mutant_teeth.py --paper 000`` (ci profile, seed 0, with the mp cross-checks of HOLDS; a planted claim that is no
longer refuted counts). Measured so far: events-skip-crossing and v-sign-flipped (the others relevant to this paper --
loss-logistic-derivative, polar-outputs-exp-r, sigma-prime-zero-one, the exp and square loss derivatives -- are not
yet measured: a full catalogue run per mutant takes 6-15 min here). :func:`attach` adds the planted-claim teeth
(verify.evidence.teeth.planted_teeth: a planted claim expected REFUTED that shares a check) and stores the merged
list in every claim's ``meta["teeth"]``, which the report shows as ``teeth``.
"""

from __future__ import annotations

from typing import Sequence

from verify.claims.model import Claim
from verify.evidence import teeth

CAUGHT_BY: dict[str, tuple[str, ...]] = {
    "events-skip-crossing": (
        "PL-X2-log",
    ),
    "v-sign-flipped": (
        "PC1-LA4-GF", "PC10-GD-balance", "PC10-GD-balance-sign", "PC10-GD-signs", "PC10-GD-signs-small",
        "PC15-LA4-GF", "PC2-LA4-GF", "PC2-LA4-signs", "PC4-LA4-invariant", "PC4-P6-sufficient", "PC7-LA4-GF",
        "PC7-LA4-growth", "PC7-LA4-signs", "PL-LA3-field", "PL-LA4-GF", "PL-LA4-growth", "PL-LA4-signs", "PL-P2",
        "PL-P2-moved", "PL-X8",
    ),
}


def attach(claims: Sequence[Claim]) -> None:
    """Store every claim's teeth (planted claims sharing its check, mutants of ``CAUGHT_BY``) in ``meta``."""
    teeth.attach(claims, CAUGHT_BY)
