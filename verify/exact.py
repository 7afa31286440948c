"""Exact rational arithmetic for the sign structure, mu and orthogonal separability.

Every float64 is a dyadic rational, so the data as stored are exact rationals. Entries are
converted with ``fractions.Fraction`` (exact), brought to one common power-of-two
denominator, and the signed Gram matrix ``G_ij = y_i y_j <x_i, x_j>`` is then formed in Python
integers (exact; the common positive scale does not change any sign or cosine).

mu = min_{i,j} G_ij / sqrt(G_ii G_jj) is exact as ``sign * sqrt(q)`` with ``q`` a Fraction:
candidates are compared exactly by squaring with sign. Then xi = mu^2 = q is rational.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import mpmath
import numpy as np

from verify.data.dataset import unit_rows

EXACT_BUDGET = 200_000  # n * n * d elementary products allowed for the exact pass
NEAR_ZERO_ULPS = 64  # rounding-error multiplier of the float64 sign-flip test
UNIT_ROUNDOFF = 2.0**-53


def _as_fraction(value: Any) -> Fraction:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, (float, np.floating)):
        f = float(value)
        if not math.isfinite(f):
            raise ValueError(f"non-finite value {value!r} has no exact rational form")
        return Fraction(f)
    return Fraction(value)


def to_integer_rows(X: Sequence[Sequence[Any]] | np.ndarray) -> list[list[int]]:
    """Exact integer rows ``D * X`` with ``D`` the least common denominator of all entries (``D > 0``)."""
    rows = [[_as_fraction(v) for v in row] for row in X]
    den = 1
    for row in rows:
        for f in row:
            den = den * f.denominator // math.gcd(den, f.denominator)
    return [[int(f * den) for f in row] for row in rows]


def _sgn(v: int) -> int:
    return (v > 0) - (v < 0)


@dataclass(frozen=True)
class ExactMu:
    """mu = sign * sqrt(q) exactly, attained at the pair (i, j); ``value`` is its correctly rounded float."""

    sign: int
    q: Fraction  # mu^2 = G_ij^2 / (G_ii G_jj)
    pair: tuple[int, int]
    value: float

    def sympy(self) -> Any:
        """mu as a sympy expression (e.g. ``sqrt(2)/2``)."""
        import sympy

        return sympy.Integer(self.sign) * sympy.sqrt(sympy.Rational(self.q.numerator, self.q.denominator))

    def __str__(self) -> str:
        if self.sign == 0:
            return "0"
        a, b = math.isqrt(self.q.numerator), math.isqrt(self.q.denominator)
        exact_root = a * a == self.q.numerator and b * b == self.q.denominator
        root = str(Fraction(a, b)) if exact_root else f"sqrt({self.q})"
        return root if self.sign > 0 else f"-{root}"


@dataclass(frozen=True)
class SignStructure:
    """Exact signs of y_i y_j <x_i, x_j> and the exact mu of the data as given."""

    signs: np.ndarray  # (n, n) int8 in {-1, 0, 1}
    mu: ExactMu
    orthogonally_separable: bool  # seed 000: same-label signed products > 0, opposite >= 0
    all_signed_positive: bool  # every y_i y_j <x_i, x_j> > 0 (mu > 0)


def _cos_sq_key(g: int, gii: int, gjj: int) -> tuple[int, Fraction]:
    return _sgn(g), Fraction(g * g, gii * gjj)


def _less(a: tuple[int, Fraction], b: tuple[int, Fraction]) -> bool:
    """Exact a < b for signed cosines given as (sign, cos^2)."""
    if a[0] != b[0]:
        return a[0] < b[0]
    if a[0] > 0:
        return a[1] < b[1]
    if a[0] < 0:
        return a[1] > b[1]
    return False


def exact_sign_structure(X: Sequence[Sequence[Any]] | np.ndarray, y: Sequence[Any] | np.ndarray) -> SignStructure:
    """Exact signs of ``y_i y_j <x_i, x_j>`` and exact mu for rational data.

    Entries may be floats (taken at their exact binary value), ints, Fractions or decimal
    strings. Rows must be nonzero and labels +-1. Cost: about n^2 d / 2 big-integer products.
    """
    labels = [int(_as_fraction(v)) for v in y]
    N = to_integer_rows(X)
    n = len(N)
    if n == 0 or len(labels) != n:
        raise ValueError("need n >= 1 rows and one label per row")
    S = [[labels[i] * v for v in N[i]] for i in range(n)]
    G = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            G[i][j] = G[j][i] = sum(a * b for a, b in zip(S[i], S[j]))
    if any(G[i][i] == 0 for i in range(n)):
        raise ValueError("a data row is the zero vector")
    signs = np.array([[_sgn(G[i][j]) for j in range(n)] for i in range(n)], dtype=np.int8)
    best = (1, Fraction(1))
    best_pair = (0, 0)
    for i in range(n):
        for j in range(i + 1, n):
            key = _cos_sq_key(G[i][j], G[i][i], G[j][j])
            if _less(key, best):
                best, best_pair = key, (i, j)
    with mpmath.workdps(40):
        value = float(best[0] * mpmath.sqrt(mpmath.mpf(best[1].numerator) / best[1].denominator))
    same = np.equal.outer(labels, labels)
    orth = bool(np.all(signs[same] > 0) and np.all(signs[~same] >= 0))
    return SignStructure(
        signs=signs,
        mu=ExactMu(best[0], best[1], best_pair, value),
        orthogonally_separable=orth,
        all_signed_positive=bool(np.all(signs > 0)),
    )


def exact_affordable(n: int, d: int, budget: int = EXACT_BUDGET) -> bool:
    """True when the exact pass costs at most ``budget`` products (n * n * d)."""
    return n * n * d <= budget


def near_zero_pairs(X: np.ndarray, ulps: int = NEAR_ZERO_ULPS) -> list[tuple[int, int]]:
    """Pairs i < j whose float64 ``<x_i, x_j>`` could have the wrong sign.

    Flags |fl<x_i, x_j>| <= max(ulps, 2 d) * u * sum_k |x_ik x_jk| (u = 2^-53): the standard
    forward error bound of a length-d dot product, widened to ``ulps`` units of roundoff. Rows are
    first divided by their size (``unit_rows``; signs do not change), so no product under- or overflows.
    """
    X = unit_rows(np.asarray(X, dtype=float))
    G = X @ X.T
    A = np.abs(X) @ np.abs(X).T
    tol = max(ulps, 2 * X.shape[1]) * UNIT_ROUNDOFF * A
    i, j = np.nonzero(np.triu(np.abs(G) <= tol, k=1))
    return [(int(a), int(b)) for a, b in zip(i, j)]
