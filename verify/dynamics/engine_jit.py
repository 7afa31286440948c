"""Compiled (numba) bookkeeping kernels of the event engine, one small loop each.

Each replaces a handful of whole-array numpy calls that the engine makes at every step or
event on (n, h) arrays, where numpy's per-call overhead dominated. Surface band of pair
(i, j): tau_ij = tol ||x_i|| ||v_j||, v_j the neuron's w_j (Cartesian) or u_j (polar).
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def near_surface(P: np.ndarray, xnorm: np.ndarray, vnorm: np.ndarray, side: np.ndarray, dead: np.ndarray, tol: float) -> np.ndarray:
    """(near, anycol): near_ij = (|P_ij| <= tau_ij or P_ij is on the wrong side of a
    non-sliding pair) and neuron j not dead; anycol_j = any_i near_ij."""
    n, h = P.shape
    near = np.zeros((n, h), np.bool_)
    anycol = np.zeros(h, np.bool_)
    for i in range(n):
        for j in range(h):
            if dead[j]:
                continue
            p, sd = P[i, j], side[i, j]
            if abs(p) <= tol * xnorm[i] * vnorm[j] or (sd != 0 and sd * p <= 0.0):
                near[i, j] = anycol[j] = True
    return near, anycol


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
                vn = np.sqrt(np.dot(V[j], V[j]))
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
def dense_point(z: np.ndarray, F: np.ndarray, x: float) -> np.ndarray:
    """The step interpolant at one x (same nesting as :func:`stepper.dense_eval`)."""
    y = np.zeros(z.size)
    m = F.shape[0]
    for k in range(m):
        y += F[m - 1 - k]
        y *= x if k % 2 == 0 else 1.0 - x
    return y + z


@numba.njit(cache=True)
def neuron_size_per_component(z: np.ndarray, h: int, d: int, floor: float) -> np.ndarray:
    """Cartesian z = [W, v]: per component, max(||(w_j, v_j)||, floor) of its neuron."""
    out = np.empty(h * d + h)
    for j in range(h):
        acc = z[h * d + j] * z[h * d + j]
        for q in range(d):
            acc += z[j * d + q] * z[j * d + q]
        size = max(np.sqrt(acc), floor)
        out[j * d : (j + 1) * d] = size
        out[h * d + j] = size
    return out
