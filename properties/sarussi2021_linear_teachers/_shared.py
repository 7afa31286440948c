"""What every module of seed 002's catalogue shares: the seed number, :func:`paper_claim` (prefixes it to each claim's
source), the reference leaky slope and loss, the sigma'(0) convention; worst / exact_margin are verify's (re-exported).

Loss and time. The paper trains on the *mean* logistic loss L_S = (1/n) sum_j l(q_j) (sheet 1.3); the engine's loss
is summed. A mean-loss SGD / GD step eta is the engine's step ``lr = eta / n`` and mean-loss time is n times engine
time (:mod:`verify.model.losses`, the one place this is said); every step and horizon here is written in the paper's
terms and converted with :func:`engine_lr` / :func:`engine_time`.

Kinks. The paper leaves sigma'(0) open (sheet 1.4: every proof holds for any value in [alpha, 1]); the engine and
every formula here use sigma'(0) = alpha (PyTorch's leaky_relu convention), recorded as ``SIGMA_PRIME_ZERO``.
"""

from __future__ import annotations

from typing import Any

from verify.claims.model import Claim, exact_margin, worst
from verify.model.losses import summed_lr, summed_time

__all__ = ["ALPHA", "LOSS", "SEED", "SIGMA_PRIME_ZERO", "engine_lr", "engine_time", "exact_margin", "paper_claim",
           "worst"]

SEED = "002"
ALPHA = 0.2  # the sheet's reference runs (sheet 3, section 7; tf.nn.leaky_relu's default)
LOSS = "logistic"  # l(z) = log(1 + exp(-z)), c(z) = -l'(z) = 1 / (1 + e^z) (sheet 1.3)
SIGMA_PRIME_ZERO = "alpha"  # sigma'(0) = alpha at a kink (sheet 1.4: any value in [alpha, 1] is valid)


def paper_claim(source: str, **fields: Any) -> Claim:
    """A :class:`Claim` of seed 002 citing ``source`` (paper item and sheet id): its source is ``f"002 {source}"``."""
    return Claim(source=f"{SEED} {source}", **fields)


def engine_lr(eta: float, n: int) -> float:
    """The gd backend's step for the paper's mean-loss step ``eta`` on n examples (eta / n)."""
    return summed_lr(eta, n)


def engine_time(t_mean: float, n: int) -> float:
    """Engine (summed-loss) time of the paper's mean-loss time ``t_mean`` (t_mean / n)."""
    return summed_time(t_mean, n)
