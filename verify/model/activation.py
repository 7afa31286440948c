"""The (leaky) ReLU sigma(z) = max(z, alpha z) with the fixed subgradient sigma'(0) = alpha side.

sigma'(z) = 1{z > 0} + alpha 1{z <= 0}: at alpha = 0 this is ReLU with sigma'(0) = 0, the
Caratheodory convention sigma'(0) = 0 (leaky: slope alpha at and below 0).
"""

from __future__ import annotations

import numpy as np

from verify.errors import InputError


def check_alpha(alpha: float) -> float:
    """Validate a leaky slope alpha in [0, 1]."""
    a = float(alpha)
    if not np.isfinite(a) or a < 0.0 or a > 1.0:
        raise InputError(f"leaky slope alpha must lie in [0, 1], got {alpha!r}")
    return a


def sigma(z: np.ndarray, alpha: float = 0.0) -> np.ndarray:
    """sigma(z) = max(z, alpha z)."""
    z = np.asarray(z, dtype=float)
    return np.where(z > 0.0, z, alpha * z)


def sigma_prime(z: np.ndarray, alpha: float = 0.0) -> np.ndarray:
    """sigma'(z) = 1{z > 0} + alpha 1{z <= 0} (so sigma'(0) = alpha, 0 for ReLU)."""
    z = np.asarray(z, dtype=float)
    return np.where(z > 0.0, 1.0, alpha)
