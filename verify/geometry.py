"""Static geometry of seed 004 (Min, Mallada & Vidal 2024), section 1 of the claim sheet.

Data are rows of ``X``; cones are tested with the strict-sign convention of sigma'(0) = 0:
a point with <x_i, z> = 0 is *inactive*.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import nnls

from verify.data.dataset import Dataset, unit_rows

_unit_rows = unit_rows  # every direction in this module is computed scale-free (rows over their max-abs first)


def cosine_gram(ds: Dataset) -> np.ndarray:
    """C_ij = cos(y_i x_i, y_j x_j) (from unit rows: any data scale)."""
    U = ds.y[:, None] * ds.unit
    return np.clip(U @ U.T, -1.0, 1.0)


def mu(ds: Dataset) -> float:
    """mu = min_{i,j} cos(y_i x_i, y_j x_j) (seed 004 Assumption 1; i = j included, so mu <= 1)."""
    return float(cosine_gram(ds).min())


def assumption1(ds: Dataset) -> bool:
    """Seed 004 Assumption 1: mu > 0 (same-label pairs positively, opposite negatively correlated)."""
    return mu(ds) > 0.0


def orthogonally_separable(ds: Dataset) -> bool:
    """Seed 000's definition: y_i y_j <x_i, x_j> > 0 for same labels and <= 0 for opposite labels."""
    U = ds.y[:, None] * ds.unit  # signs of <x_i, x_j> do not depend on the rows' scales
    G = U @ U.T
    same = np.equal.outer(ds.y, ds.y)
    return bool(np.all(G[same] > 0.0) and np.all(G[~same] >= 0.0))


def preactivations(ds: Dataset, W: np.ndarray) -> np.ndarray:
    """P_ij = <x_i, w_j> for W of shape (h, d) (or a single vector of shape (d,))."""
    return ds.X @ np.atleast_2d(W).T


def activation_pattern(ds: Dataset, w: np.ndarray, tol: float = 0.0) -> np.ndarray:
    """1{<x_i, w> > tol * ||x_i|| ||w||} per data point (boundary counts as inactive)."""
    return ds.unit @ _unit_rows(np.asarray(w, dtype=float))[0] > tol


def in_S_plus(ds: Dataset, z: np.ndarray, tol: float = 0.0) -> bool:
    """z in S+ : active exactly on the positive points."""
    return bool(np.array_equal(activation_pattern(ds, z, tol), ds.y > 0))


def in_S_minus(ds: Dataset, z: np.ndarray, tol: float = 0.0) -> bool:
    """z in S- : active exactly on the negative points."""
    return bool(np.array_equal(activation_pattern(ds, z, tol), ds.y < 0))


def in_S_dead(ds: Dataset, z: np.ndarray, tol: float = 0.0) -> bool:
    """z in S_dead : <z, x_i> <= 0 for all i."""
    return not bool(activation_pattern(ds, z, tol).any())


def region(ds: Dataset, z: np.ndarray, tol: float = 0.0) -> str:
    """Name of the region of z: "S+", "S-", "S_dead" or "other"."""
    if in_S_dead(ds, z, tol):
        return "S_dead"
    if in_S_plus(ds, z, tol):
        return "S+"
    if in_S_minus(ds, z, tol):
        return "S-"
    return "other"


def in_cone_K(ds: Dataset, z: np.ndarray, rtol: float = 1e-10) -> bool:
    """z in K = {sum_i a_i y_i x_i : a_i >= 0} (nonnegative least squares residual ~ 0)."""
    z = np.asarray(z, dtype=float)
    if not np.any(z != 0.0):
        return True
    _, residual = nnls((ds.y[:, None] * ds.unit).T, _unit_rows(z)[0])  # a cone: generators and z up to scale
    return bool(residual <= rtol)


def x_a(ds: Dataset, w: np.ndarray, alpha: float = 0.0) -> np.ndarray:
    """x_a(w) = sum_i sigma'(<x_i, w>) y_i x_i (seed 004 eq. (5); leaky reading R4)."""
    slope = np.where(ds.unit @ _unit_rows(np.asarray(w, dtype=float))[0] > 0.0, 1.0, alpha)
    return slope @ ds.signed


def zeta1_sup(ds: Dataset) -> float:
    """Exact sup of valid zeta1 (Lemma 8): min(min_i y_i cos(x+, x_i), min_i -y_i cos(x-, x_i))^2.

    The cap S^zeta_x (half-angle arcsin sqrt(zeta)) lies in {y_i <x_i, z> > 0} iff
    sqrt(zeta) < y_i cos(x, x_i). Returns 0.0 when a class is missing or a cosine is <= 0.
    """
    if not ds.both_classes:
        return 0.0
    rho_plus = float(np.min(ds.y * (ds.unit @ ds.class_direction(+1))))
    rho_minus = float(np.min(-ds.y * (ds.unit @ ds.class_direction(-1))))
    rho = min(rho_plus, rho_minus)
    return rho * rho if rho > 0.0 else 0.0


def c_star(ds: Dataset, W0: np.ndarray, signs: np.ndarray) -> float:
    """max( cos(w_j, x-) over s_j = +1, cos(w_j, x+) over s_j = -1 ) (Assumption 2: < 1).

    An empty class sum (x+- = 0) contributes -inf (the condition is vacuous).
    """
    W0 = np.atleast_2d(np.asarray(W0, dtype=float))
    signs = np.asarray(signs, dtype=float)
    Wn = _unit_rows(W0)
    best = -np.inf
    for s, label in ((1.0, -1), (-1.0, +1)):
        target = ds.class_direction(label)
        sel = signs == s
        if np.any(target != 0.0) and sel.any():
            best = max(best, float(np.max(Wn[sel] @ target)))
    return best


def zeta2(ds: Dataset, W0: np.ndarray, signs: np.ndarray) -> float:
    """Largest valid zeta2 (eq. (26)): 1 - max(c_star, 0)^2."""
    c = c_star(ds, W0, signs)
    return 1.0 - max(c, 0.0) ** 2


def xi(ds: Dataset) -> float:
    """A valid xi for Lemma 9: mu^2 (sheet section 1.9; essentially tight)."""
    m = mu(ds)
    return m * m if m > 0.0 else 0.0
