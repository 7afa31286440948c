"""Seed 000's own objects on data alone (claim sheet 000 sections 1.7, 1.8 and 4.4): the function G of
eq. (12), its sector gradient g of eq. (31), the class centres m+- (sheet 1.8), the sign vectors sigma+-
of eqs. (13)-(14), and the extremal directions (strict local extrema of G on the sphere), found exactly on
circular arcs in d = 2 (rational arithmetic on the float64 values as stored) and by candidate enumeration
(Lemma A.1 form) with a perturbation test of strictness in any d.

Conventions: rows of X are examples; c_i = |l_i'(0)| > 0 (cross-entropy: c_i = 1/2); relu'(0) = 0.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from verify.data.dataset import from_scaled, scaled_row_sum
from verify.exact import exact_affordable, to_integer_rows

CE_WEIGHT = Fraction(1, 2)  # |l_i'(0)| for the logistic loss log(1 + exp(-y u))
DELTAS = (1e-3, 1e-4)  # perturbation sizes of the strictness test
STRICT_RTOL = 1e-12  # a perturbed value must drop below G(w) by more than this (relative to the data scale)


def range_basis(A: np.ndarray, rtol: float = 1e-12) -> np.ndarray:
    """An orthonormal basis (columns) of the span of the rows of A (rank-revealing SVD)."""
    U, sv, _ = np.linalg.svd(A.T, full_matrices=False)
    return U[:, sv > rtol * sv[0]] if len(sv) and sv[0] > 0 else U[:, :0]


def G_values(X: np.ndarray, y: np.ndarray, c: np.ndarray, W: np.ndarray) -> np.ndarray:
    """G(w) = sum_i c_i y_i relu(w^T x_i) (eq. (12)) for each row w of W (not normalised: G is 1-homogeneous)."""
    return np.maximum(np.atleast_2d(W) @ X.T, 0.0) @ (c * y)


def g_sector(X: np.ndarray, y: np.ndarray, c: np.ndarray, w: np.ndarray, tau: float = 0.0,
             project: bool = True) -> np.ndarray:
    """g(w) = sum_i c_i y_i 1{w^T x_i > 0} P_w x_i (eq. (31)), P_w the projector onto span{x_k : w^T x_k = 0}^perp,
    the zero set taken modulo ``tau`` (relative: |w^T x_k| <= tau ||w|| ||x_k||); ``project=False`` drops P_w."""
    p = X @ w
    scale = np.linalg.norm(w) * np.linalg.norm(X, axis=1)
    zero = np.abs(p) <= tau * scale
    active = (p > 0) & ~zero
    v = (c * y * active) @ X
    if project and zero.any():
        Q = range_basis(X[zero])
        v = v - Q @ (Q.T @ v)
    return v


def centres(X: np.ndarray, y: np.ndarray, c: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(m+, m-) = (sum_{y_i = +1} c_i x_i, sum_{y_i = -1} c_i x_i) (sheet 1.8; c_i = 1/2 for cross-entropy)."""
    c = np.full(len(y), float(CE_WEIGHT)) if c is None else c
    return from_scaled(*scaled_row_sum(c * (y > 0), X)), from_scaled(*scaled_row_sum(c * (y < 0), X))


def _sgn(v: int | Fraction) -> int:
    return (v > 0) - (v < 0)


def exact_signs(X: np.ndarray, y: np.ndarray, c: Sequence[Fraction] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact signs of the Gram matrix X X^T and of X m+, X m- (rational arithmetic on the stored floats;
    ``c`` rational weights, default 1/2). Returns (gram (n, n), centre_plus (n,), centre_minus (n,)) as int8."""
    N = to_integer_rows(X)
    n = len(N)
    K = [[sum(a * b for a, b in zip(N[i], N[j])) for j in range(n)] for i in range(n)]
    w = [CE_WEIGHT] * n if c is None else [Fraction(v) for v in c]
    gram = np.array([[_sgn(K[i][j]) for j in range(n)] for i in range(n)], dtype=np.int8)
    plus = np.array([_sgn(sum(w[i] * K[j][i] for i in range(n) if y[i] > 0)) for j in range(n)], dtype=np.int8)
    minus = np.array([_sgn(sum(w[i] * K[j][i] for i in range(n) if y[i] < 0)) for j in range(n)], dtype=np.int8)
    return gram, plus, minus


def float_signs(X: np.ndarray, y: np.ndarray, tau: float = 1e-12) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The same signs in float64, entries with |value| <= tau * scale set to 0 (large data: no exact pass)."""
    Xs = X / np.max(np.abs(X))
    K = Xs @ Xs.T
    scale = float(np.max(np.diag(K)))
    mp, mm = centres(Xs, y)
    zero = lambda v, s: np.where(np.abs(v) <= tau * s, 0, np.sign(v)).astype(np.int8)  # noqa: E731
    return zero(K, scale), zero(Xs @ mp, scale * len(y)), zero(Xs @ mm, scale * len(y))


def signs(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """:func:`exact_signs` when affordable (n^2 d within the exact budget), else :func:`float_signs`; last: exact?
    Kept per data set (the audit, T^ and the late phase of one run ask for the same signs; read-only arrays)."""
    X, y = np.ascontiguousarray(X, dtype=float), np.ascontiguousarray(y, dtype=float)
    return _signs(X.tobytes(), X.shape, y.tobytes())


@functools.lru_cache(maxsize=16)
def _signs(X_bytes: bytes, shape: tuple[int, int], y_bytes: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    X, y = np.frombuffer(X_bytes).reshape(shape), np.frombuffer(y_bytes)
    out = (*exact_signs(X, y), True) if exact_affordable(len(X), X.shape[1]) else (*float_signs(X, y), False)
    for a in out[:3]:
        a.flags.writeable = False
    return out


def sigma_pm(y: np.ndarray, gram: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sigma+ and sigma- of eqs. (13)-(14) from the sign matrix of X X^T (defined for OS data).

    sigma+_j = 1 for y_j = +1; for y_j = -1: -1 if x_j^T x_i < 0 for some positive i, 0 if all are 0.
    sigma-_j likewise with the classes swapped. Raises ValueError where the data are not OS (undefined)."""
    pos, neg = y > 0, y < 0
    out = []
    for own, other in ((pos, neg), (neg, pos)):
        s = np.ones(len(y), dtype=np.int8)
        for j in np.flatnonzero(other):
            row = gram[j, own]
            if np.any(row > 0):
                raise ValueError(f"eqs. (13)-(14) are undefined: x_{j} has a positive product with the other class (not OS)")
            s[j] = -1 if np.any(row < 0) else 0
        out.append(s)
    return out[0], out[1]


# --- exact extremal directions in d = 2 (sheet 4.4(a)) -------------------------------------------------------

Vec = tuple[Fraction, Fraction]


def _cross(a: Vec, b: Vec) -> Fraction:
    return a[0] * b[1] - a[1] * b[0]


def _dot(a: Vec, b: Vec) -> Fraction:
    return a[0] * b[0] + a[1] * b[1]


def _half(v: Vec) -> int:
    return 0 if (v[1] > 0 or (v[1] == 0 and v[0] > 0)) else 1


def _angle_cmp(a: Vec, b: Vec) -> int:
    if _half(a) != _half(b):
        return _half(a) - _half(b)
    cr = _cross(a, b)
    return -1 if cr > 0 else (1 if cr < 0 else 0)


@dataclass(frozen=True)
class Extremum2D:
    """A strict local extremum of G on the circle: ``direction`` (exact, unnormalised), ``kind`` "max" / "min",
    ``kink`` True at an arc endpoint (a zero sector entry)."""

    direction: Vec
    kind: str
    kink: bool


def _arc_sum(rows: list[Vec], coef: list[Fraction], u: Vec) -> Vec:
    act = [(k, r) for k, r in zip(coef, rows) if _dot(u, r) > 0]
    return (sum((k * r[0] for k, r in act), Fraction(0)), sum((k * r[1] for k, r in act), Fraction(0)))


def extremal_2d(X: np.ndarray, y: np.ndarray, c: Sequence[Fraction] | None = None) -> list[Extremum2D]:
    """Every strict local max and min of G on the unit circle, exactly (d = 2, rational arithmetic).

    Breakpoints are the directions orthogonal to some x_i; on each open arc G(u) = c_arc^T u with
    c_arc = sum_{active i} c_i y_i x_i. Interior max iff c_arc != 0 points into the open arc (min: -c_arc);
    at a breakpoint b, G decreases strictly on a side iff its one-sided derivative cross(b, c) has the
    right sign, or is 0 with c^T b > 0 (the arc's own maximum sits at b)."""
    rows = [(Fraction(float(a)), Fraction(float(b))) for a, b in X]
    coef = [(CE_WEIGHT if c is None else Fraction(c[i])) * int(y[i]) for i in range(len(rows))]
    bps: list[Vec] = []
    for r in rows:
        for b in ((-r[1], r[0]), (r[1], -r[0])):
            if not any(_cross(b, o) == 0 and _dot(b, o) > 0 for o in bps):
                bps.append(b)
    bps.sort(key=functools.cmp_to_key(_angle_cmp))
    m = len(bps)
    mids = []
    for k in range(m):
        a, b = bps[k], bps[(k + 1) % m]
        mids.append((a[0] + b[0], a[1] + b[1]) if _cross(a, b) > 0 else (-a[1], a[0]))
    sums = [_arc_sum(rows, coef, u) for u in mids]
    found: list[Extremum2D] = []
    for k in range(m):
        a, b, s = bps[k], bps[(k + 1) % m], sums[k]
        for sgn, kind in ((1, "max"), (-1, "min")):
            v = (sgn * s[0], sgn * s[1])
            if v != (0, 0) and _cross(a, v) > 0 and _cross(v, b) > 0:
                found.append(Extremum2D(v, kind, False))
    for k in range(m):
        b, left, right = bps[k], sums[k - 1], sums[k]
        for sgn, kind in ((1, "max"), (-1, "min")):
            L, R = (sgn * left[0], sgn * left[1]), (sgn * right[0], sgn * right[1])
            dl, dr = _cross(b, L), _cross(b, R)
            left_ok = dl > 0 or (dl == 0 and _dot(L, b) > 0)
            right_ok = dr < 0 or (dr == 0 and _dot(R, b) > 0)
            if left_ok and right_ok:
                found.append(Extremum2D(b, kind, True))
    return found


def same_ray(a: Vec, b: Sequence[Fraction]) -> bool:
    """a and b point the same way (exact)."""
    bb = (Fraction(b[0]), Fraction(b[1]))
    return _cross(a, bb) == 0 and _dot(a, bb) > 0


# --- candidate enumeration in any d (sheet 4.4(b)) -----------------------------------------------------------

def strict_drop(X: np.ndarray, y: np.ndarray, c: np.ndarray, w: np.ndarray, sign: int, rng: np.random.Generator,
                count: int = 48) -> float:
    """min over perturbations of sign * (G(w) - G(normalize(w + delta v))) / delta^2, relative to the data
    scale sum_i c_i ||x_i|| and less STRICT_RTOL: > 0 for a strict local max (sign 1) or min (sign -1)."""
    w = w / np.linalg.norm(w)
    V = rng.standard_normal((count, len(w)))
    basis = np.linalg.svd(np.eye(len(w)) - np.outer(w, w))[0][:, : len(w) - 1].T
    V = np.vstack([V, basis, -basis])
    V -= np.outer(V @ w, w)
    V /= np.linalg.norm(V, axis=1, keepdims=True)
    scale = float(np.sum(c * np.linalg.norm(X, axis=1)))
    g0 = float(G_values(X, y, c, w)[0])
    worst = np.inf
    for delta in DELTAS:
        P = w[None, :] + delta * V
        P /= np.linalg.norm(P, axis=1, keepdims=True)
        drop = sign * (g0 - G_values(X, y, c, P)) / scale
        worst = min(worst, float(np.min((drop - STRICT_RTOL) / delta**2)))
    return worst


def enumerate_extremal(X: np.ndarray, y: np.ndarray, c: np.ndarray, rng: np.random.Generator,
                       tau: float = 1e-10) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """(maxima, minima): unit strict local extrema of G among the Lemma A.1 candidates
    +-normalize(P_Z sum_{i in A} c_i y_i x_i) (zero sets Z of rank < d, active sets A), each kept when its
    sign pattern is (A active, Z zero modulo tau, the rest inactive) and it passes :func:`strict_drop`.
    3^n candidates: meant for n <= 10."""
    n, d = X.shape
    Xu = X / np.linalg.norm(X, axis=1, keepdims=True)
    cy = c * y
    found: tuple[list[np.ndarray], list[np.ndarray]] = ([], [])
    for size in range(0, n + 1):
        for Z in itertools.combinations(range(n), size):
            Q = range_basis(X[list(Z)]) if Z else np.zeros((d, 0))
            if Q.shape[1] >= d:
                continue  # w orthogonal to d independent points is 0
            rest = [i for i in range(n) if i not in Z]
            masks = np.array(list(itertools.product((0.0, 1.0), repeat=len(rest))))
            full = np.zeros((len(masks), n))
            full[:, rest] = masks
            V = (full * cy) @ X
            V = V - (V @ Q) @ Q.T
            nrm = np.linalg.norm(V, axis=1)
            ok = nrm > 1e-12 * max(1.0, float(np.max(nrm)))
            want_zero = np.zeros(n, bool)
            want_zero[list(Z)] = True
            for sign in (1, -1):  # g(w) = G(w) w, and G(w) may have either sign at a max or at a min
                W = sign * V[ok] / nrm[ok, None]
                P = W @ Xu.T
                zero = np.abs(P) <= tau
                match = np.all(zero == want_zero, axis=1) & np.all((P > tau) == (full[ok] > 0), axis=1)
                for w in W[match]:
                    for kind, bucket in ((1, found[0]), (-1, found[1])):
                        if strict_drop(X, y, c, w, kind, rng) > 0 and not any(float(u @ w) > 1 - 1e-9 for u in bucket):
                            bucket.append(w)
    return found
