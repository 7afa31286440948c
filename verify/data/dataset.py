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


def prescale_rows(A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(B, k) with A = 2^k B row by row: k = 0 where max_k |a_ik| is within SAFE_RANGE (the plain
    formulas, bit for bit), else the binary exponent of max_k |a_ik| (so that B's largest entry lies
    in [1/2, 1) and squares neither under- nor overflow). Scaling by a power of two is exact, so
    rows that differ by a factor 2^j give the same B bit for bit."""
    A = np.atleast_2d(np.asarray(A, dtype=float))
    top = np.max(np.abs(A), axis=1)
    k = np.where((top >= SAFE_RANGE[0]) & (top <= SAFE_RANGE[1]) | (top == 0.0), 0, np.frexp(top)[1])
    return np.ldexp(A, -k[:, None]), k


def safe_row_norms(A: np.ndarray) -> np.ndarray:
    """||a_i|| = 2^k ||b_i|| without under- or overflow in between (0 for a zero row; inf only where
    the norm itself exceeds float64)."""
    B, k = prescale_rows(A)
    with np.errstate(over="ignore", under="ignore"):
        return np.ldexp(np.linalg.norm(B, axis=1), k)


def unit_rows(A: np.ndarray) -> np.ndarray:
    """a_i / ||a_i|| = b_i / ||b_i|| at any scale (zero rows stay zero)."""
    B, _ = prescale_rows(A)
    n = np.linalg.norm(B, axis=1)
    return B / np.where(n > 0.0, n, 1.0)[:, None]


def scaled_row_sum(a: np.ndarray, A: np.ndarray) -> tuple[np.ndarray, int]:
    """sum_i a_i A_i as (S, e) with the sum = 2^e S: e is the binary exponent of max |A_ik| over the rows
    with a_i != 0 (0 when there are none), so S is formed from entries below 1 in size (|a_i| <= 1
    assumed) and neither under- nor overflows in between, whatever the rows' scale; dividing by 2^e
    is exact."""
    a = np.asarray(a, dtype=float)
    used = a != 0.0
    if not used.any():
        return np.zeros(A.shape[1]), 0
    rows = A[used]
    e = int(np.frexp(np.max(np.abs(rows)))[1])
    return a[used] @ np.ldexp(rows, -e), e


def from_scaled(S: np.ndarray, e: int) -> np.ndarray:
    """2^e S, +-inf only where the value itself exceeds float64 (no warning)."""
    with np.errstate(over="ignore", under="ignore"):
        return np.ldexp(S, e)


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
    return arr.astype(np.float64)


def first_invalid_row(X: np.ndarray, y: np.ndarray) -> tuple[str, int, str] | None:
    """The first row rule broken by finite data ``X`` (n, d) with labels ``y`` (n,), as
    (kind, row, reason) with kind "label" or "row", else None. Rules: y_i in {-1, +1}; a row is
    zero only when every entry is exactly 0 (any nonzero magnitude, subnormal included, is valid);
    ||x_i|| must be a float64 (computed without under- or overflow: data are scale-free)."""
    bad = ~np.isin(y, (-1.0, 1.0))
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        return "label", k, f"label {float(y[k])!r} is not -1 or +1"
    zero = ~np.any(X != 0.0, axis=1)
    if zero.any():
        return "row", int(np.flatnonzero(zero)[0]), "the zero vector (every entry is exactly 0)"
    huge = ~np.isfinite(safe_row_norms(X))
    if huge.any():
        return "row", int(np.flatnonzero(huge)[0]), ("Euclidean norm beyond the float64 range (> 1.8e308): rescale the "
                                                     "data (every verdict is scale-free)")
    return None


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
            raise InputError(f"X row {i}, column {k}: non-finite value {float(X[i, k])!r}")
        y = _as_labels(self.y, n)
        problem = first_invalid_row(X, y)
        if problem is not None:
            kind, i, reason = problem
            raise InputError(f"{f'y[{i}]' if kind == 'label' else f'X row {i}'}: {reason}")
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

    def _class_sum(self, label: int) -> tuple[np.ndarray, int]:
        """sum_{i: y_i = label} x_i as (S, c) of ``scaled_row_sum`` (any scale of either class)."""
        return scaled_row_sum((self.y == label).astype(float), self.X)

    @cached_property
    def x_plus(self) -> np.ndarray:
        """x+ = sum_{i in I+} x_i (zero when there is no positive point; inf where it exceeds float64)."""
        return from_scaled(*self._class_sum(+1))

    @cached_property
    def x_minus(self) -> np.ndarray:
        """x- = sum_{i in I-} x_i (zero when there is no negative point; inf where it exceeds float64)."""
        return from_scaled(*self._class_sum(-1))

    def class_direction(self, label: int) -> np.ndarray:
        """x+ / ||x+|| (label +1) or x- / ||x-|| (label -1), always finite; the zero vector when the
        class is empty or its sum is exactly zero."""
        S, _ = self._class_sum(label)
        if not np.any(S != 0.0):
            return np.zeros(self.d)
        return unit_rows(S[None, :])[0]

    @cached_property
    def signed(self) -> np.ndarray:
        """The signed data y_i x_i, shape (n, d)."""
        return self.y[:, None] * self.X

    def __repr__(self) -> str:
        return f"Dataset({self.name!r}, n={self.n} (+{self.n_pos}/-{self.n_neg}), d={self.d})"
