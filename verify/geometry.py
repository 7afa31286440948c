"""Static geometry of a dataset: cosines, sign structure, activation regions and cones.

Data are rows of ``X``; cones are tested with the strict-sign convention of sigma'(0) = 0:
a point with <x_i, z> = 0 is *inactive*.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import nnls

from verify.data.dataset import Dataset, from_scaled, prescale_rows, scaled_row_sum, unit_rows

_unit_rows = unit_rows  # every direction in this module is computed scale-free (rows over their max-abs first)


def cosine_gram(ds: Dataset) -> np.ndarray:
    """C_ij = cos(y_i x_i, y_j x_j) (from unit rows: any data scale)."""
    U = ds.y[:, None] * ds.unit
    return np.clip(U @ U.T, -1.0, 1.0)


def mu(ds: Dataset) -> float:
    """mu = min_{i,j} cos(y_i x_i, y_j x_j) (i = j included, so mu <= 1)."""
    return float(cosine_gram(ds).min())


def orthogonally_separable(ds: Dataset) -> bool:
    """Orthogonal separability: y_i y_j <x_i, x_j> > 0 for same labels and <= 0 for opposite labels."""
    U = ds.y[:, None] * ds.unit  # signs of <x_i, x_j> do not depend on the rows' scales
    G = U @ U.T
    same = np.equal.outer(ds.y, ds.y)
    return bool(np.all(G[same] > 0.0) and np.all(G[~same] >= 0.0))


def preactivations(ds: Dataset, W: np.ndarray) -> np.ndarray:
    """P_ij = <x_i, w_j> = 2^(k_i + l_j) <b_i, c_j> for W of shape (h, d) (or a single vector of shape
    (d,)), with x_i = 2^k_i b_i, w_j = 2^l_j c_j prescaled: nothing under- or overflows in between
    (+-inf only where <x_i, w_j> itself exceeds float64)."""
    B, k = prescale_rows(ds.X)
    C, l = prescale_rows(np.atleast_2d(np.asarray(W, dtype=float)))
    with np.errstate(over="ignore", under="ignore"):
        return np.ldexp(B @ C.T, k[:, None] + l[None, :])


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
    """x_a(w) = sum_i sigma'(<x_i, w>) y_i x_i (leaky slope alpha where <x_i, w> <= 0)."""
    slope = np.where(ds.unit @ _unit_rows(np.asarray(w, dtype=float))[0] > 0.0, 1.0, alpha)
    return from_scaled(*scaled_row_sum(slope, ds.signed))  # inf only where x_a itself exceeds float64


