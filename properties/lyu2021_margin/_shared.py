"""What every module of seed 003's catalogue shares: the seed number, :func:`paper_claim` (prefixes it to each
claim's source), the paper's leaky slope, the time rescaling between the paper's mean loss and the engine's summed
loss; the worst-part margin is verify's (re-exported).

Time. The paper trains on the *mean* logistic loss L = (1/n) sum_i l(q_i) (sheet 1.3); the engine integrates the
*summed* loss. GF on the mean is GF on the sum slowed down by n: theta_paper(t) = theta_engine(t / n). Every
horizon of this package is written in paper time and converted here, once (:func:`engine_time`).
"""

from __future__ import annotations

from typing import Any

from verify.claims.model import Claim, Margin, exact_margin, worst
from verify.model.losses import summed_time

# worst and exact_margin are verify's (verify.claims.model), re-exported for the paper's modules
__all__ = ["ALPHA", "LOSS", "SEED", "U_ROUND", "engine_time", "exact_margin", "largest_ratio", "paper_claim",
           "paper_time", "worst"]

SEED = "003"
ALPHA = 0.5  # the sheet's reference runs (sheet 3.3); the paper's Figure 1 uses 1/2 as well
U_ROUND = 2.0**-53
LOSS = "logistic"  # l(q) = log(1 + exp(-q)), l'(0) = -1/2 (sheet 1.3)


def paper_claim(source: str, **fields: Any) -> Claim:
    """A :class:`Claim` of seed 003 citing ``source`` (paper item and sheet id): its source is ``f"003 {source}"``."""
    return Claim(source=f"{SEED} {source}", **fields)


def engine_time(t_paper: float, n: int) -> float:
    """Engine (summed-loss) time of paper (mean-loss) time ``t_paper`` on n examples: t_paper / n."""
    return summed_time(t_paper, n)


def paper_time(t_engine: float, n: int) -> float:
    """Paper (mean-loss) time of engine time ``t_engine``: n t_engine."""
    return float(t_engine) * int(n)


def largest_ratio(parts: list[Margin]) -> float | None:
    """A check of several bounds: the largest measured / bound among ``parts`` (the tightest bound; None where no
    part has a ratio)."""
    ratios = [p.ratio for p in parts if p.ratio is not None]
    return max(ratios) if ratios else None
