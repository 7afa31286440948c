"""Compiled (numba) bookkeeping kernels of the event engine, one small loop each.

Each replaces a handful of whole-array numpy calls that the engine makes at every step or
event on (n, h) arrays, where numpy's per-call overhead dominated. Surface band of pair
(i, j): tau_ij = tol ||x_i|| ||v_j||, v_j the neuron's w_j (Cartesian) or u_j (polar).
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, inline="always")
def block_norm(z: np.ndarray, base: int, d: int) -> float:
    """||z[base : base + d]||, its squares summed in index order: no call to BLAS, whose per-call cost (~60 ns, as
    numba calls it for ``np.dot``) is many times these few products."""
    acc = 0.0
    for q in range(base, base + d):
        acc += z[q] * z[q]
    return np.sqrt(acc)


@numba.njit(cache=True, inline="always")
def normalise_block(z: np.ndarray, base: int, d: int) -> None:
    """In place: z[base : base + d] divided by its :func:`block_norm` (a polar direction u_j back onto the sphere)."""
    nrm = block_norm(z, base, d)
    for q in range(base, base + d):
        z[q] /= nrm


@numba.njit(cache=True, inline="always")
def row_norm(V: np.ndarray, j: int) -> float:
    """||V[j]|| of a 2-d V, as :func:`block_norm` sums it (by position: no row view)."""
    acc = 0.0
    for q in range(V.shape[1]):
        acc += V[j, q] * V[j, q]
    return np.sqrt(acc)


@numba.njit(cache=True)
def row_norms(V: np.ndarray) -> np.ndarray:
    """||V[j]|| for each row (:func:`row_norm`)."""
    out = np.empty(V.shape[0])
    for j in range(V.shape[0]):
        out[j] = row_norm(V, j)
    return out


@numba.njit(cache=True)
def near_surface(P: np.ndarray, xnorm: np.ndarray, vnorm: np.ndarray, side: np.ndarray, dead: np.ndarray, tol: float) -> np.ndarray:
    """(near, anycol) of :func:`near_surface_into` as new arrays."""
    n, h = P.shape
    near, anycol = np.empty((n, h), np.bool_), np.empty(h, np.bool_)
    near_surface_into(near, anycol, P, xnorm, vnorm, side, dead, tol)
    return near, anycol


@numba.njit(cache=True)
def near_surface_into(near: np.ndarray, anycol: np.ndarray, P: np.ndarray, xnorm: np.ndarray, vnorm: np.ndarray,
                      side: np.ndarray, dead: np.ndarray, tol: float) -> None:
    """In place: near_ij = (|P_ij| <= tau_ij or P_ij is on the wrong side of a non-sliding pair) and neuron j not dead;
    anycol_j = any_i near_ij."""
    n, h = P.shape
    for i in range(n):
        for j in range(h):
            near[i, j] = False
    for j in range(h):
        anycol[j] = False
    for i in range(n):
        for j in range(h):
            if dead[j]:
                continue
            p, sd = P[i, j], side[i, j]
            if abs(p) <= tol * xnorm[i] * vnorm[j] or (sd != 0 and sd * p <= 0.0):
                near[i, j] = anycol[j] = True


@numba.njit(cache=True)
def rearm(armed: np.ndarray, side: np.ndarray, X: np.ndarray, V: np.ndarray, xnorm: np.ndarray, tol: float) -> None:
    """In place: a disarmed, non-sliding pair is re-armed once side_ij <x_i, v_j> > tau_ij."""
    n, h = armed.shape
    d = X.shape[1]
    for j in range(h):
        vn = -1.0
        for i in range(n):
            if armed[i, j] or side[i, j] == 0:
                continue
            if vn < 0.0:
                vn = row_norm(V, j)
            e = 0.0
            for q in range(d):
                e += X[i, q] * V[j, q]
            armed[i, j] = side[i, j] * e > tol * xnorm[i] * vn


@numba.njit(cache=True)
def project_off(v: np.ndarray, x: np.ndarray) -> None:
    """In place: v <- v - (<x, v> / <x, x>) x, onto the surface <x, v> = 0 of one data row x."""
    xx, xv = 0.0, 0.0
    for q in range(x.size):
        xx += x[q] * x[q]
        xv += x[q] * v[q]
    c = xv / xx
    for q in range(x.size):
        v[q] -= c * x[q]


@numba.njit(cache=True)
def dense_point_into(out: np.ndarray, z: np.ndarray, F: np.ndarray, x: float) -> None:
    """In place (out must not be z): out = the step interpolant at one x (same nesting as :func:`stepper.dense_eval`),
    z + x (F0 + (1-x)(F1 + x (F2 + ...)))."""
    m, N = F.shape
    for p in range(N):
        out[p] = 0.0
    for k in range(m):
        c = x if k % 2 == 0 else 1.0 - x
        for p in range(N):
            out[p] = (out[p] + F[m - 1 - k, p]) * c
    for p in range(N):
        out[p] += z[p]


@numba.njit(cache=True)
def dense_point(z: np.ndarray, F: np.ndarray, x: float) -> np.ndarray:
    """:func:`dense_point_into` into a new array."""
    y = np.empty(z.size)
    dense_point_into(y, z, F, x)
    return y


@numba.njit(cache=True)
def neuron_size_into(out: np.ndarray, z: np.ndarray, h: int, d: int, floor: float) -> None:
    """In place, Cartesian z = [W, v]: per component, max(||(w_j, v_j)||, floor) of its neuron."""
    for j in range(h):
        acc = z[h * d + j] * z[h * d + j]
        for q in range(d):
            acc += z[j * d + q] * z[j * d + q]
        size = max(np.sqrt(acc), floor)
        for q in range(d):
            out[j * d + q] = size
        out[h * d + j] = size


@numba.njit(cache=True)
def neuron_size_per_component(z: np.ndarray, h: int, d: int, floor: float) -> np.ndarray:
    """:func:`neuron_size_into` into a new array."""
    out = np.empty(h * d + h)
    neuron_size_into(out, z, h, d, floor)
    return out
