"""What every module of seed 000's catalogue shares: the seed number, :func:`paper_claim` (prefixes it to
each claim's source), the float64 unit roundoff; the worst-part margin is verify's (re-exported).
"""

from __future__ import annotations

from typing import Any

from verify.claims.model import Claim, exact_margin, worst

# worst and exact_margin are verify's (verify.claims.model), re-exported for the paper's modules
__all__ = ["SEED", "U_ROUND", "exact_margin", "paper_claim", "worst"]

SEED = "000"
U_ROUND = 2.0**-53


def paper_claim(source: str, **fields: Any) -> Claim:
    """A :class:`Claim` of seed 000 citing ``source`` (paper item and sheet id): its source is ``f"000 {source}"``."""
    return Claim(source=f"{SEED} {source}", **fields)
