"""Initialisations of the two-layer network f(x) = sum_j v_j sigma(<w_j, x>).

Every initialisation stores an eps-free base ``(W0, v0)`` and the scale as ``log_eps``, so
theorem-scale eps (1e-4000) is representable; ``W`` and ``v`` give the scaled float64 arrays
``eps * W0`` and ``eps * v0`` when eps is inside float64 range.

- balanced: v0_j = s_j ||W0_j||, so v_j^2 = ||w_j||^2;
- unbalanced: W0 and v0 independent Gaussians (balancedness c_j = v_j^2 - ||w_j||^2 != 0);
- dominated: |v0_j| = c ||W0_j|| with c > 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from verify.errors import InputError

LOG_FLOAT64_TINY = math.log(np.finfo(float).tiny)  # about -708.4
LOG_FLOAT64_MAX = math.log(np.finfo(float).max)  # about 709.8


def resolve_log_eps(eps: float | None, log_eps: float | None) -> float:
    """Return ln(eps) from exactly one of ``eps`` (> 0) and ``log_eps`` (finite)."""
    if (eps is None) == (log_eps is None):
        raise InputError("give exactly one of eps and log_eps")
    if log_eps is not None:
        value = float(log_eps)
        if not math.isfinite(value):
            raise InputError(f"log_eps must be finite, got {log_eps!r}")
        return value
    value = float(eps)
    if not math.isfinite(value) or value <= 0.0:
        raise InputError(f"eps must be a positive finite number, got {eps!r}")
    return math.log(value)


def _signs(h: int, signs: str | np.ndarray, rng: np.random.Generator) -> np.ndarray:
    if isinstance(signs, str):
        if signs == "random":
            return rng.choice([-1.0, 1.0], size=h)
        if signs == "alternating":
            return np.where(np.arange(h) % 2 == 0, 1.0, -1.0)
        if signs == "positive":
            return np.ones(h)
        if signs == "negative":
            return -np.ones(h)
        raise InputError(f"unknown sign pattern {signs!r}; use random, alternating, positive, negative or an array")
    s = np.asarray(signs, dtype=float).reshape(-1)
    if s.shape != (h,) or not np.all(np.isin(s, (-1.0, 1.0))):
        raise InputError(f"signs must be {h} entries in {{-1, +1}}")
    return s


def _check_shape(h: int, d: int) -> None:
    if int(h) < 1 or int(d) < 1:
        raise InputError(f"need h >= 1 and d >= 1, got h={h}, d={d}")


@dataclass(frozen=True, eq=False)
class Initialization:
    """Initial weights eps * (W0, v0), with eps kept as ``log_eps``."""

    W0: np.ndarray  # (h, d), eps-free
    v0: np.ndarray  # (h,), eps-free
    log_eps: float
    kind: str  # "balanced" | "unbalanced" | "dominated" | "given"

    def __post_init__(self) -> None:
        W0 = np.asarray(self.W0, dtype=float)
        v0 = np.asarray(self.v0, dtype=float).reshape(-1)
        if W0.ndim != 2 or v0.shape != (W0.shape[0],):
            raise InputError(f"init shapes must be W0 (h, d) and v0 (h,), got {W0.shape} and {v0.shape}")
        if not (np.all(np.isfinite(W0)) and np.all(np.isfinite(v0))):
            raise InputError("init contains non-finite values")
        object.__setattr__(self, "W0", W0)
        object.__setattr__(self, "v0", v0)

    @property
    def h(self) -> int:
        return int(self.W0.shape[0])

    @property
    def d(self) -> int:
        return int(self.W0.shape[1])

    @property
    def eps(self) -> float:
        """eps as a float (0.0 where it underflows float64, inf where it overflows)."""
        if self.log_eps > LOG_FLOAT64_MAX:
            return math.inf
        return math.exp(self.log_eps) if self.log_eps > LOG_FLOAT64_TINY else 0.0

    @property
    def representable(self) -> bool:
        """True when eps is safely inside float64's normal range: e^-658 < eps < e^659."""
        return LOG_FLOAT64_TINY + 50.0 < self.log_eps < LOG_FLOAT64_MAX - 50.0

    def _check_representable(self) -> None:
        if not self.representable:
            way = "underflows" if self.log_eps < 0.0 else "overflows"
            raise InputError(f"eps = exp({self.log_eps:.6g}) {way} float64; use the polar (log_eps) form")

    @property
    def W(self) -> np.ndarray:
        """eps * W0; InputError where eps leaves float64 (use the polar form with log_eps instead)."""
        self._check_representable()
        return self.eps * self.W0

    @property
    def v(self) -> np.ndarray:
        """eps * v0 (see ``W``)."""
        self._check_representable()
        return self.eps * self.v0

    @property
    def signs(self) -> np.ndarray:
        """s_j = sign(v_j(0)) (0 where v0_j = 0)."""
        return np.sign(self.v0)

    @property
    def balanced(self) -> bool:
        """v0_j^2 = ||W0_j||^2 for every j, to 1e-12 relative."""
        return bool(np.allclose(self.v0**2, np.sum(self.W0**2, axis=1), rtol=1e-12, atol=0.0))

    @property
    def W_max(self) -> float:
        """max_j ||W0_j|| (eps-free)."""
        return float(np.linalg.norm(self.W0, axis=1).max())

    @property
    def W_min(self) -> float:
        """min_j ||W0_j||."""
        return float(np.linalg.norm(self.W0, axis=1).min())


def _gaussian_rows(h: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """Rows W0_j ~ N(0, I/d), redrawn if a row is exactly zero."""
    W0 = rng.standard_normal((h, d)) / math.sqrt(d)
    while np.any(np.linalg.norm(W0, axis=1) == 0.0):  # pragma: no cover - probability zero
        W0 = rng.standard_normal((h, d)) / math.sqrt(d)
    return W0


def balanced_init(
    h: int,
    d: int,
    *,
    eps: float | None = None,
    log_eps: float | None = None,
    seed: int = 0,
    signs: str | np.ndarray = "random",
    W0: np.ndarray | None = None,
) -> Initialization:
    """Balanced init W(0) = eps W0, v_j(0) = s_j ||w_j(0)||.

    ``W0`` defaults to i.i.d. N(0, 1/d) rows (no row faces a class sum exactly, with probability 1).
    """
    _check_shape(h, d)
    rng = np.random.default_rng(seed)
    base = _gaussian_rows(h, d, rng) if W0 is None else np.asarray(W0, dtype=float)
    if base.shape != (h, d):
        raise InputError(f"W0 must have shape ({h}, {d}), got {base.shape}")
    norms = np.linalg.norm(base, axis=1)
    if np.any(norms == 0.0):
        raise InputError("balanced init needs nonzero rows W0_j (a zero neuron never moves: drop it)")
    s = _signs(h, signs, rng)
    return Initialization(base, s * norms, resolve_log_eps(eps, log_eps), "balanced")


def unbalanced_init(
    h: int,
    d: int,
    *,
    eps: float | None = None,
    log_eps: float | None = None,
    seed: int = 0,
) -> Initialization:
    """Independent Gaussians W0_j ~ N(0, I/d), v0_j ~ N(0, 1/h): generically |v_j| != ||w_j||."""
    _check_shape(h, d)
    rng = np.random.default_rng(seed)
    W0 = _gaussian_rows(h, d, rng)
    v0 = rng.standard_normal(h) / math.sqrt(h)
    return Initialization(W0, v0, resolve_log_eps(eps, log_eps), "unbalanced")


def dominated_init(
    h: int,
    d: int,
    *,
    eps: float | None = None,
    log_eps: float | None = None,
    seed: int = 0,
    signs: str | np.ndarray = "random",
    ratio: float = 2.0,
) -> Initialization:
    """Second layer dominating: |v0_j| = ratio * ||W0_j|| with ratio > 1."""
    if not (math.isfinite(ratio) and ratio > 1.0):
        raise InputError(f"dominated init needs ratio > 1, got {ratio!r}")
    base = balanced_init(h, d, eps=eps, log_eps=log_eps, seed=seed, signs=signs)
    return Initialization(base.W0, ratio * base.v0, base.log_eps, "dominated")


def given_init(W: np.ndarray, v: np.ndarray) -> Initialization:
    """Wrap already-scaled weights (eps = 1)."""
    return Initialization(np.asarray(W, dtype=float), np.asarray(v, dtype=float), 0.0, "given")
