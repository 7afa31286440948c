"""The labelled dataset container, validated on construction.

Conventions (DESIGN.md section 6): ``X`` has shape (n, d), one data point per row;
``y`` has shape (n,) with entries in {-1, +1}.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from verify.errors import InputError


def _as_float_matrix(X: object) -> np.ndarray:
    try:
        arr = np.asarray(X)
    except Exception as exc:  # ragged lists and the like
        raise InputError(f"X is not a numeric array: {exc}") from None
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise InputError(f"X must be numeric, got dtype {arr.dtype}")
    if np.iscomplexobj(arr):
        raise InputError("X must be real, got complex values")
    if arr.ndim != 2:
        raise InputError(f"X must be a 2-D array of shape (n, d), got shape {arr.shape}")
    return arr.astype(np.float64)


def _as_labels(y: object, n: int) -> np.ndarray:
    try:
        arr = np.asarray(y)
    except Exception as exc:
        raise InputError(f"y is not a numeric array: {exc}") from None
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise InputError(f"y must be numeric labels in {{-1, +1}}, got dtype {arr.dtype}")
    if arr.ndim == 2 and 1 in arr.shape:
        arr = arr.reshape(-1)
    if arr.ndim != 1:
        raise InputError(f"y must be a 1-D array of shape (n,), got shape {arr.shape}")
    if arr.shape[0] != n:
        raise InputError(f"X has {n} rows but y has {arr.shape[0]} labels")
    arr = arr.astype(np.float64)
    bad = ~np.isin(arr, (-1.0, 1.0))
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise InputError(f"labels must be -1 or +1; y[{k}] = {arr[k]!r}")
    return arr


@dataclass(frozen=True, eq=False)
class Dataset:
    """Labelled data ``(X, y)`` with ``X`` (n, d) finite and nonzero rows, ``y`` in {-1, +1}^n.

    Raises :class:`verify.InputError` on NaN/inf, zero rows, wrong shapes or dtypes, labels
    other than +-1, or n = 0. Single-class data are accepted (the audit reports them).
    """

    X: np.ndarray
    y: np.ndarray
    name: str = field(default="data", compare=False)

    def __post_init__(self) -> None:
        X = _as_float_matrix(self.X)
        n, d = X.shape
        if n == 0:
            raise InputError("the dataset is empty (n = 0)")
        if d == 0:
            raise InputError("the data have dimension d = 0")
        if not np.all(np.isfinite(X)):
            i, k = np.argwhere(~np.isfinite(X))[0]
            raise InputError(f"X contains a non-finite value at row {i}, column {k}: {X[i, k]!r}")
        y = _as_labels(self.y, n)
        norms = np.linalg.norm(X, axis=1)
        if np.any(norms == 0.0):
            raise InputError(f"X row {int(np.flatnonzero(norms == 0.0)[0])} is the zero vector")
        X.setflags(write=False)
        y.setflags(write=False)
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "y", y)

    @property
    def n(self) -> int:
        return int(self.X.shape[0])

    @property
    def d(self) -> int:
        return int(self.X.shape[1])

    @cached_property
    def norms(self) -> np.ndarray:
        """||x_i|| for every row."""
        return np.linalg.norm(self.X, axis=1)

    @property
    def X_min(self) -> float:
        return float(self.norms.min())

    @property
    def X_max(self) -> float:
        return float(self.norms.max())

    @cached_property
    def I_pos(self) -> np.ndarray:
        """I+ = {i : y_i = +1}."""
        return np.flatnonzero(self.y > 0)

    @cached_property
    def I_neg(self) -> np.ndarray:
        """I- = {i : y_i = -1}."""
        return np.flatnonzero(self.y < 0)

    @property
    def n_pos(self) -> int:
        return int(self.I_pos.size)

    @property
    def n_neg(self) -> int:
        return int(self.I_neg.size)

    @property
    def both_classes(self) -> bool:
        return self.n_pos > 0 and self.n_neg > 0

    @cached_property
    def x_plus(self) -> np.ndarray:
        """x+ = sum_{i in I+} x_i (zero when there is no positive point)."""
        return self.X[self.I_pos].sum(axis=0)

    @cached_property
    def x_minus(self) -> np.ndarray:
        """x- = sum_{i in I-} x_i (zero when there is no negative point)."""
        return self.X[self.I_neg].sum(axis=0)

    @cached_property
    def signed(self) -> np.ndarray:
        """The signed data y_i x_i, shape (n, d)."""
        return self.y[:, None] * self.X

    def __repr__(self) -> str:
        return f"Dataset({self.name!r}, n={self.n} (+{self.n_pos}/-{self.n_neg}), d={self.d})"
