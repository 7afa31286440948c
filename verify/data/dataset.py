"""The labelled dataset container, validated on construction.

Conventions (DESIGN.md section 6): ``X`` has shape (n, d), one data point per row;
``y`` has shape (n,) with entries in {-1, +1}.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from verify.errors import InputError


SAFE_RANGE = (1e-150, 1e150)  # rows whose entries lie within: squares neither under- nor overflow


def _prescaled(A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(B, s) with A = s B row by row: s = 1 where max_k |a_ik| is within SAFE_RANGE (the plain
    formulas, bit for bit), else s = max_k |a_ik| (so that squares neither under- nor overflow)."""
    A = np.atleast_2d(np.asarray(A, dtype=float))
    top = np.max(np.abs(A), axis=1)
    s = np.where((top >= SAFE_RANGE[0]) & (top <= SAFE_RANGE[1]) | (top == 0.0), 1.0, top)
    return A / s[:, None], s


def safe_row_norms(A: np.ndarray) -> np.ndarray:
    """||a_i|| without under- or overflow in between (0 for a zero row; inf only where the norm itself
    exceeds float64)."""
    B, s = _prescaled(A)
    with np.errstate(over="ignore"):
        return s * np.linalg.norm(B, axis=1)


def unit_rows(A: np.ndarray) -> np.ndarray:
    """a_i / ||a_i|| at any scale (zero rows stay zero)."""
    B, _ = _prescaled(A)
    n = np.linalg.norm(B, axis=1)
    return B / np.where(n > 0.0, n, 1.0)[:, None]


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
        zero = ~np.any(X != 0.0, axis=1)
        if np.any(zero):
            raise InputError(f"X row {int(np.flatnonzero(zero)[0])} is the zero vector (every entry is exactly 0)")
        norms = safe_row_norms(X)
        if not np.all(np.isfinite(norms)):
            i = int(np.flatnonzero(~np.isfinite(norms))[0])
            raise InputError(f"X row {i} has a Euclidean norm beyond the float64 range (> 1.8e308); rescale the data "
                             f"(every verdict is scale-free)")
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
        """||x_i|| for every row, without under- or overflow (finite and > 0 for a valid dataset)."""
        return safe_row_norms(self.X)

    @cached_property
    def unit(self) -> np.ndarray:
        """x_i / ||x_i||: every sign and cosine of the data is computed from these (scale-free)."""
        return unit_rows(self.X)

    @cached_property
    def scale(self) -> float:
        """max_ik |x_ik|: class sums are formed from X / scale, so they never overflow in between."""
        return float(np.max(np.abs(self.X)))

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
        """x+ = sum_{i in I+} x_i (zero when there is no positive point; inf where it exceeds float64)."""
        with np.errstate(over="ignore"):
            return self.scale * (self.X[self.I_pos] / self.scale).sum(axis=0)

    @cached_property
    def x_minus(self) -> np.ndarray:
        """x- = sum_{i in I-} x_i (zero when there is no negative point; inf where it exceeds float64)."""
        with np.errstate(over="ignore"):
            return self.scale * (self.X[self.I_neg] / self.scale).sum(axis=0)

    def class_direction(self, label: int) -> np.ndarray:
        """x+ / ||x+|| (label +1) or x- / ||x-|| (label -1), always finite; the zero vector when the
        class is empty or its sum is exactly zero."""
        rows = self.X[self.I_pos if label > 0 else self.I_neg]
        total = (rows / self.scale).sum(axis=0)
        if not np.any(total != 0.0):
            return np.zeros(self.d)
        return unit_rows(total[None, :])[0]

    @cached_property
    def signed(self) -> np.ndarray:
        """The signed data y_i x_i, shape (n, d)."""
        return self.y[:, None] * self.X

    def __repr__(self) -> str:
        return f"Dataset({self.name!r}, n={self.n} (+{self.n_pos}/-{self.n_neg}), d={self.d})"
