"""What every module of seed 000's catalogue shares: the seed number, :func:`paper_claim` (prefixes it to
each claim's source), the float64 unit roundoff and a preactivation's rounding (:func:`product_rounding`), :func:`lower_bound_ratio` (the slack of a lower-bound claim);
the worst-part margin is verify's (re-exported).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from verify.claims.model import Claim, exact_margin, worst

# worst and exact_margin are verify's (verify.claims.model), re-exported for the paper's modules
__all__ = ["SEED", "U_ROUND", "exact_margin", "lower_bound_ratio", "paper_claim", "product_rounding", "worst"]

SEED = "000"
U_ROUND = 2.0**-53


def product_rounding(d: int) -> float:
    """2 (d + 2) u: the absolute rounding of a float64 preactivation w^T x in units of ||w|| ||x|| (d products and
    d - 1 additions in R^d, with a factor 2 to spare). A neuron resting on the kink of x has w^T x of this size,
    whose sign is rounding's."""
    return 2.0 * (d + 2) * U_ROUND


def paper_claim(source: str, **fields: Any) -> Claim:
    """A :class:`Claim` of seed 000 citing ``source`` (paper item and sheet id): its source is ``f"000 {source}"``."""
    return Claim(source=f"{SEED} {source}", **fields)


def lower_bound_ratio(bound: Any, measured: Any, label: str) -> tuple[float | None, str]:
    """Slack of ``measured >= bound > 0``: max bound / measured over the entries with measured > 0 (<= 1 where the
    bound holds; capped at 1e300 to stay finite; None when no entry is left), and the note's suffix
    ``"; {label} = ..."``, which also counts the entries left out for measured <= 0."""
    b, m = np.asarray(bound, float).ravel(), np.asarray(measured, float).ravel()
    keep = m > 0.0
    skipped = f" ({m.size - np.count_nonzero(keep)} entries with measured <= 0 left out)" if not np.all(keep) else ""
    if not np.any(keep):
        return None, f"; {label}: no entry with measured > 0"
    with np.errstate(over="ignore"):
        top = min(float(np.max(np.abs(b[keep]) / m[keep])), 1e300)
    return top, f"; {label} = {top:.4g}{skipped}"
