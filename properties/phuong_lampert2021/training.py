"""Seed 000's training runs shared by its reproductions (:mod:`.figure1`, :mod:`.appendix_d`): the paper's
PyTorch-like init, its SGD on the mean BCE (time conversion in :mod:`.experiments`), and small helpers for the
summaries (unit rows, singular values, accuracy, number formatting)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from verify import simulate
from verify.data.dataset import Dataset

INIT_SCALE = 0.05  # "all weights multiplied by 0.05 at init" (Sec. 5.1; App. D for the fc layers)
ORANGE, BLUE, GREEN = "#ff7f0e", "#1f77b4", "#2ca02c"  # the paper's colours: a_j > 0 orange, a_j < 0 blue


def torch_init(p: int, d: int, seed: int, scale: float = INIT_SCALE) -> tuple[np.ndarray, np.ndarray]:
    """PyTorch ``nn.Linear`` default weights U(-1/sqrt(fan_in), 1/sqrt(fan_in)) on both layers (no biases),
    times ``scale``: W (p, d) with fan_in d, a (p,) with fan_in p. Not balanced (|a_j| != ||w_j||)."""
    rng = np.random.default_rng(seed)
    W = scale * rng.uniform(-1.0, 1.0, (p, d)) / math.sqrt(d)
    a = scale * rng.uniform(-1.0, 1.0, p) / math.sqrt(p)
    return W, a


def sgd(ds: Dataset, W0: np.ndarray, a0: np.ndarray, *, eta: float, batch: int, epochs: list[int], seed: int) -> Any:
    """The paper's SGD on the mean BCE (module docstring: lr = eta / n on the engine's summed logistic loss),
    sampled at the ends of the given epochs."""
    per_epoch = ds.n // batch
    lr = eta / ds.n
    times = np.array([e * per_epoch * lr for e in epochs])
    return simulate(ds, W0, a0, float(times[-1]), loss="logistic", backend="gd", lr=lr, batch_size=batch, seed=seed,
                    times=times)


def unit_rows(M: np.ndarray) -> np.ndarray:
    """Rows of M divided by their norms (a zero row stays zero)."""
    n = np.linalg.norm(M, axis=-1, keepdims=True)
    return M / np.where(n > 0.0, n, 1.0)


def singular_values(W: np.ndarray, k: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Singular values of W (p, d), descending, and its top-``k`` right singular vectors (k, d), from the
    p x p Gram matrix W W^T (cheap for p << d; the small singular values lose relative accuracy, which the
    reports, rounded to 3 digits of sigma_1's scale, do not see)."""
    evals, U = np.linalg.eigh(W @ W.T)
    order = np.argsort(evals)[::-1]
    S = np.sqrt(np.maximum(evals[order], 0.0))
    V = (U[:, order[:k]].T @ W) / np.where(S[:k] > 0.0, S[:k], 1.0)[:, None]
    return S, V


def accuracy(ds: Dataset, W: np.ndarray, a: np.ndarray) -> float:
    """Training accuracy of f(x) = a^T relu(W x)."""
    return float(np.mean(np.sign(np.maximum(ds.X @ W.T, 0.0) @ a) == ds.y))


def fmt(values: Any, digits: int = 3) -> str:
    """Numbers joined with commas, ``digits`` significant digits each."""
    return ", ".join(f"{float(x):.{digits}g}" for x in values)
