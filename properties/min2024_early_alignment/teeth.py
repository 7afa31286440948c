"""Teeth of the seed-004 catalogue: which planted engine bugs (verify/evidence/mutants.py) each claim catches.

``CAUGHT_BY`` maps a mutant id to the claims whose verdict was not the expected one under it, measured with
``scripts/mutant_teeth.py`` (ci profile, seed 0, with the mp cross-checks of HOLDS; claims expected REFUTED
count when the refutation is lost). Rows marked "targeted" were measured on the listed claims only (the
full-catalogue run of those mutants is slow: their explosive weights make many runs fail numerically).
:func:`attach` adds the planted-claim teeth (verify.evidence.teeth.planted_teeth) and stores the merged
list in every claim's ``meta["teeth"]``, which the report shows as ``teeth``.
"""

from __future__ import annotations

from typing import Sequence

from verify.claims.model import Claim
from verify.evidence import teeth

CAUGHT_BY: dict[str, tuple[str, ...]] = {
    "events-skip-crossing": ("EA-A4", "P5-A4-leaky-still-monotone"),
    "logistic2-weight-halved": ("EA-A6", "EA-B3", "EA-C3", "EA-H5-unbalanced"),
    "polar-outputs-exp-r": ("EC-polar-outputs", "EC-polar-field"),
    "sigma-prime-zero-one": ("EA-H3", "EA-H4-irregular-caratheodory"),
    "v-sign-flipped": ("EA-A1", "EA-A1-unbalanced", "P5-A1-leaky-balancedness", "EA-A2", "P4-A1-surface-slope-balancedness",
                       "P3-A4-large-eps-still-monotone", "P3-A5-large-eps-still-trapping", "EA-B3", "EA-G1", "EA-G2",
                       "EA-H5-unbalanced", "EA-H4-irregular-caratheodory", "P13-irregular-leaves-dead", "EC-polar-field"),
    "limit-skip-crossing": ("EA-A4", "EA-A5", "EA-C3-theorem-scale", "EA-C4", "EA-E2", "EA-E4", "EA-E4-barrier", "EA-E5",
                            "EA-E6", "EA-E6-t1emp", "EA-E6-toy4", "P14-single-class-part1", "EA-F2"),
    # the limit-backend claims (EA-E4*, EA-E5, EA-I*) catch these through their mp cross-check (FAILED)
    "limit-alignment-slow": ("EA-A4", "EA-A5", "EA-C1", "EA-C3-theorem-scale", "EA-E2", "EA-E2-printed", "EA-E4",
                             "EA-E4-barrier", "EA-E5", "EA-E6", "EA-E6-t1emp", "EA-E6-toy4", "EA-I1", "EA-I2",
                             "P14-single-class-part1", "EA-F1"),
    # targeted: EA-B3, EA-B4, EA-C2, EA-B1-exp, EA-B1-logistic2, EA-B2, EA-A6 and the engine checks
    "loss-exp-derivative": ("EA-A6", "EA-B3", "EA-B4", "EC-loss-derivative"),
    "loss-logistic-derivative": ("EC-loss-derivative",),
    "loss-logistic2-derivative": ("EA-A6", "EA-B3", "EC-loss-derivative"),
    "loss-square-derivative": ("EC-loss-derivative",),
}


def attach(claims: Sequence[Claim]) -> None:
    """Store every claim's teeth (planted claims sharing its check, mutants of ``CAUGHT_BY``) in ``meta``."""
    teeth.attach(claims, CAUGHT_BY)
