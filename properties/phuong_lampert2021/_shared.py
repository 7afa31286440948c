"""What every module of seed 000's catalogue shares: the seed number, :func:`paper_claim` (prefixes it to
each claim's source), the float64 unit roundoff and the worst-part margin.
"""

from __future__ import annotations

from typing import Any

from verify.claims.model import Claim, Margin

SEED = "000"
U_ROUND = 2.0**-53


def paper_claim(source: str, **fields: Any) -> Claim:
    """A :class:`Claim` of seed 000 citing ``source`` (paper item and sheet id): its source is ``f"000 {source}"``."""
    return Claim(source=f"{SEED} {source}", **fields)


def worst(parts: list[Margin], empty: str = "nothing to check") -> Margin:
    """The part closest to a violation (min of value + error), or a vacuous margin when there is none."""
    if not parts:
        return Margin(0.0, 0.0, empty, vacuous=True)
    return min(parts, key=lambda m: m.value + m.error)


def exact_margin(ok: bool, note: str) -> Margin:
    """A margin decided in exact rational arithmetic: +1 (holds) or -1 (violated), error 0."""
    return Margin(1.0 if ok else -1.0, 0.0, note)
