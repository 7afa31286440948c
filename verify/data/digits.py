"""Offline stand-in for MNIST digit pairs (centred, optionally restricted to a mu > 0 subset).

scikit-learn ships the 8x8 digits (1797 images, D = 64, pixel values 0..16) inside its wheel,
so ``sklearn.datasets.load_digits`` needs no network.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from verify.data.dataset import Dataset
from verify.errors import InputError

NORMALISATIONS = (None, "unit", "ball")


@lru_cache(maxsize=1)
def _load() -> tuple[np.ndarray, np.ndarray]:
    from sklearn.datasets import load_digits

    bunch = load_digits()
    images = np.asarray(bunch.data, dtype=np.float64) / 16.0
    images.setflags(write=False)
    return images, np.asarray(bunch.target)


def _digit(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value <= 9:
        raise InputError(f"digit {name} must be an integer in 0..9, got {value!r}")
    return int(value)


def _normalise(X: np.ndarray, how: str | None) -> np.ndarray:
    if how is None:
        return X
    if how == "unit":
        return X / np.linalg.norm(X, axis=1, keepdims=True)
    return X / np.linalg.norm(X, axis=1).max()


def pair_rows(images: np.ndarray, target: np.ndarray, a: int, b: int, centred: bool) -> tuple[np.ndarray, np.ndarray]:
    """(X, y): the images of digit ``a`` (label +1, rows first) and ``b`` (label -1); ``centred`` subtracts
    the pair mean x_bar = (1/n) sum_j x_j."""
    X = np.vstack([images[target == a], images[target == b]])
    y = np.concatenate([np.ones(int(np.sum(target == a))), -np.ones(int(np.sum(target == b)))])
    return (X - X.mean(axis=0) if centred else X), y


def digits_pair(a: int = 0, b: int = 1, *, centred: bool = True, normalise: str | None = None) -> Dataset:
    """Images of digits ``a`` (label +1, rows first) and ``b`` (label -1), pixels scaled to [0, 1].

    - ``centred``: subtract the pair mean, ``x_i <- x_i - (1/n) sum_j x_j``; rows that
      become exactly zero are then dropped (none do for any pair of the bundled data).
    - ``normalise``: None (keep), "unit" (every ``||x_i|| = 1``) or "ball" (divide by ``max_i ||x_i||``,
      so ``||x|| <= 1`` as seeds 002/003 assume).

    Digits 0/1 centred: n = 360 (178 / 182), mu ~ -0.718, X_max ~ 2.78, X_min ~ 1.51.
    """
    a, b = _digit("a", a), _digit("b", b)
    if a == b:
        raise InputError(f"the two digits must differ, got a = b = {a}")
    if normalise not in NORMALISATIONS:
        raise InputError(f"normalise must be one of {NORMALISATIONS}, got {normalise!r}")
    X, y = pair_rows(*_load(), a, b, centred)
    keep = np.any(X != 0.0, axis=1)
    X, y = _normalise(X[keep], normalise), y[keep]
    tag = f"digits_pair(a={a}, b={b}, centred={bool(centred)}, normalise={normalise!r})"
    return Dataset(X, y, name=tag)


def greedy_assumption1_subset(ds: Dataset) -> Dataset:
    """Largest-violator-first subset with mu > 0, without re-centring.

    Repeatedly drops the point with the most pairs ``cos(y_i x_i, y_j x_j) <= 0`` (lowest index on
    ties) until none remain; the result has ``mu > 0``. Order of the kept rows is preserved.
    """
    U = ds.signed / ds.norms[:, None]
    bad = (U @ U.T) <= 0.0
    alive = np.ones(ds.n, dtype=bool)
    counts = bad.sum(axis=1)
    while counts.max() > 0:
        k = int(np.argmax(counts))
        alive[k] = False
        counts = np.where(alive, counts - bad[:, k], 0)
    return Dataset(ds.X[alive], ds.y[alive], name=f"greedy_assumption1_subset({ds.name})")
