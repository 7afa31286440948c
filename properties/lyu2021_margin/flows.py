"""Gradient-flow runs of seed 003's experiments, read in the paper's terms (shared by :mod:`.margin_runs` and
:mod:`.fragility_runs`): theta0 = sigma * (W-bar, a-bar) integrated by the exact event-driven engine on the summed
logistic loss to engine time ``t_engine`` and reported in paper (mean-loss) time t = n t_engine
(:func:`_shared.paper_time`); the engine's log-time stepping reaches t = 1e300 in about a second. Balanced draws run in the log-eps (polar) form, so sigma may be as small as the
theorem wants; D_init draws run in Cartesian form (sigma >= 1e-100 here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from verify import simulate
from verify.data.dataset import Dataset

from properties.lyu2021_margin import network as N
from properties.lyu2021_margin._shared import ALPHA, LOSS, paper_time

T_ENGINE = 1e300  # engine time of the experiments' runs: ||theta|| ~ 100 there on D-SYM (the sheet's E3 horizon)
SAMPLES = 161


@dataclass(frozen=True)
class Flow:
    """A run's samples in paper time: t (k,), W (k, m, d), a (k, m), and its error estimate."""

    t: np.ndarray
    W: np.ndarray
    a: np.ndarray
    error_estimate: float

    def ratio(self, X: np.ndarray, y: np.ndarray, reference: float, alpha: float = ALPHA) -> np.ndarray:
        """gamma(theta(t)) / reference at every sample."""
        return np.array([N.normalised_margin(X, y, W, a, alpha) for W, a in zip(self.W, self.a)]) / reference

    @property
    def norm(self) -> np.ndarray:
        """||theta(t)|| at every sample."""
        return np.sqrt(np.sum(self.W**2, axis=(1, 2)) + np.sum(self.a**2, axis=1))

    def even_part(self, alpha: float = ALPHA) -> np.ndarray:
        """N(theta(t)) at every sample."""
        return np.array([N.even_part_index(W, a, alpha) for W, a in zip(self.W, self.a)])


def flow(ds: Dataset, W_bar: np.ndarray, a_bar: np.ndarray, sigma: float, *, t_engine: float = T_ENGINE,
         samples: int = SAMPLES, alpha: float = ALPHA, rtol: float = 1e-10) -> Flow:
    """GF of the mean logistic loss from sigma (W-bar, a-bar), sampled geometrically in time up to t_engine."""
    W_bar, a_bar = np.asarray(W_bar, float), np.asarray(a_bar, float)
    times = np.geomspace(1e-3, t_engine, samples)
    balanced = bool(np.array_equal(np.abs(a_bar), np.linalg.norm(W_bar, axis=1)))
    if balanced:
        tr = simulate(ds, W_bar, a_bar, t_engine, loss=LOSS, alpha=alpha, times=times, log_eps=math.log(sigma), rtol=rtol)
    else:
        tr = simulate(ds, sigma * W_bar, sigma * a_bar, t_engine, loss=LOSS, alpha=alpha, times=times, rtol=rtol)
    est = float(tr.error_estimate) if math.isfinite(tr.error_estimate) else math.inf
    return Flow(np.array([paper_time(t, ds.n) for t in tr.times]), np.asarray(tr.W, float), np.asarray(tr.v, float), est)


def two_group_direction(w_star: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(1/2)(w*, -w*, 1, -1) as (W, a): Theorem 5.5's limit (erratum S-3: printed with 1/4), a unit vector."""
    return np.vstack([w_star, -w_star]) / 2.0, np.array([0.5, -0.5])


def direction_distance(W: np.ndarray, a: np.ndarray, target: tuple[np.ndarray, np.ndarray]) -> float:
    """|| theta/||theta|| - target || for theta = (W, a) (both in the same neuron order)."""
    scale = math.sqrt(N.norm_sq(W, a))
    return float(math.sqrt(np.sum((W / scale - target[0]) ** 2) + np.sum((a / scale - target[1]) ** 2)))
