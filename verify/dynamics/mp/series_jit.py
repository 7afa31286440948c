"""Compiled (numba) float64 orders of the mp backend's series recurrence.

The recurrence of :class:`series.Recurrence` (its docstring has the formulas) for the float64
copy that sets the mp backend's step length, screens its pairs and supplies its high orders:
on the small arrays of this problem numpy's per-call overhead was most of the float64 cost
(about 35 us per order for n = 8, h = 5, against about 1 us here). The same operations in the
same order as the numpy recurrence, except that matrix products and sums over several axes
add their terms left to right (numpy hands products to BLAS): the two agree to rounding, and
the numpy recurrence on float64 arrays is this kernel's oracle in the tests. The mp backend's sliding neurons
(Filippov rows) stay on the numpy recurrence; the float64 Taylor engine (:mod:`verify.dynamics.taylor64`) passes
neurons sliding along one row each (``slide_row``), the numpy recurrence's one-row case.

Codes: ``family`` is :data:`FAMILY_CODES` of the loss's ``Loss.family``, ``scale`` its
``Loss.scale``.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from verify.model.losses import Family

FAMILY_CODES: dict[Family, int] = {Family.EXP: 0, Family.LOGISTIC: 1, Family.SQUARE: 2, Family.POLY: 3}


@numba.njit(cache=True)
def _poly_start(z0: float) -> tuple[float, float]:
    """(1/s0, q_0) at margin z0: s0 = hypot(1, |z0|); q_0 = (1/s0)^2 / (1 + |z0|/s0) (z0 >= 0), 1 + |z0|/s0 (z0 < 0)."""
    a = abs(z0)
    inv = 1.0 / math.hypot(1.0, a)
    r = 1.0 if math.isinf(a) else a * inv
    if z0 >= 0.0:
        return inv, inv * inv / (1.0 + r)
    return inv, 1.0 + r


@numba.njit(cache=True)
def _loss_order(k: int, family: int, scale: float, y: np.ndarray, f: np.ndarray, g: np.ndarray, aux: np.ndarray,
                ex: np.ndarray, q: np.ndarray, cc: np.ndarray, inv0: np.ndarray, ka: np.ndarray) -> None:
    """g_k = -l'(y, f)_k from f_0..f_k (``series.Recurrence._loss_order``)."""
    n = y.shape[0]
    for i in range(n):
        if family == 2:
            g[k, i] = (y[i] - f[0, i]) if k == 0 else -f[k, i]
        elif family == 3:
            if k == 0:
                z0 = y[i] * f[0, i]
                inv0[i], q[0, i] = _poly_start(z0)
                aux[0, i] = z0 * inv0[i]
                cc[0, i] = 1.0
                ex[0, i] = 1.0
            else:
                aux[k, i] = y[i] * f[k, i] * inv0[i]
                ka[k, i] = k * aux[k, i]
                acc = aux[0, i] * aux[k, i]
                for l in range(1, k + 1):
                    acc += aux[l, i] * aux[k - l, i]
                cc[k, i] = acc
                acc = (1 + 2 * k) * cc[1, i] * ex[k - 1, i]
                for l in range(2, k + 1):
                    acc += (l + 2 * k) * cc[l, i] * ex[k - l, i]
                ex[k, i] = -acc / (2 * k)
                acc = ka[1, i] * ex[k - 1, i]
                for l in range(2, k + 1):
                    acc += ka[l, i] * ex[k - l, i]
                q[k, i] = -(inv0[i] * inv0[i]) * acc / k
            g[k, i] = y[i] * q[k, i]
        else:
            aux[k, i] = (-y[i]) * f[k, i] if family == 0 else y[i] * f[k, i]
            shift = aux[0, i] if family == 1 and aux[0, i] > 0.0 else 0.0  # logistic: e = exp(a - c0) (series)
            if k == 0:
                ex[0, i] = math.exp(aux[0, i]) if family == 0 else math.exp(aux[0, i] - shift)
            else:
                ka[k, i] = k * aux[k, i]
                acc = ka[1, i] * ex[k - 1, i]
                for l in range(2, k + 1):
                    acc += ka[l, i] * ex[k - l, i]
                ex[k, i] = acc / k
            if family == 0:
                g[k, i] = y[i] * ex[k, i]
            else:
                if k == 0:
                    lam = math.exp(-shift)
                    inv0[i] = 1.0 / (lam + ex[0, i])
                    q[0, i] = lam * inv0[i]
                else:
                    acc = ex[1, i] * q[k - 1, i]
                    for l in range(2, k + 1):
                        acc += ex[l, i] * q[k - l, i]
                    q[k, i] = -inv0[i] * acc
                g[k, i] = (y[i] if scale == 1.0 else scale * y[i]) * q[k, i]


@numba.njit(cache=True)
def extend(k0: int, k1: int, polar: bool, family: int, scale: float, train_v: bool, X: np.ndarray, y: np.ndarray,
           M: np.ndarray, weight: np.ndarray, s: np.ndarray, A: np.ndarray, b: np.ndarray, G: np.ndarray, g: np.ndarray,
           f: np.ndarray, aux: np.ndarray, ex: np.ndarray, q: np.ndarray, cc: np.ndarray, inv0: np.ndarray,
           ka: np.ndarray, E: np.ndarray, kb: np.ndarray, rho: np.ndarray, slide_row: np.ndarray,
           ys: np.ndarray) -> None:
    """Field orders k0..k1-1, i.e. state orders k0+1..k1, in place (arrays as in ``series.Recurrence``; E, kb, rho
    and s are read in polar form only, cc for the poly family only, inv0 for the poly and logistic families).
    ``slide_row[j]`` >= 0: neuron j slides along that one row's surface (M 0 there), and G_j gains y_k x_i with
    y_k = -sum_l M_lj g_l,k <x_l, x_i> / ||x_i||^2 (``series.Recurrence``'s Filippov rows, one row), kept in ys[k, j];
    -1 everywhere (the mp backend's calls): no sliding neuron, ys not read."""
    n, d = X.shape
    m = A.shape[1]
    P = np.empty((m, d))
    Y = np.empty((n, d))
    for k in range(k0, k1):
        for j in range(m):
            if polar:
                if k == 0:
                    E[0, j] = math.exp(2 * b[0, j])
                else:
                    kb[k, j] = k * b[k, j]
                    acc = kb[1, j] * E[k - 1, j]
                    for l in range(2, k + 1):
                        acc += kb[l, j] * E[k - l, j]
                    E[k, j] = acc * 2 / k
            for c in range(d):
                if polar:
                    acc = E[0, j] * A[k, j, c]
                    for l in range(1, k + 1):
                        acc += E[l, j] * A[k - l, j, c]
                else:
                    acc = A[0, j, c] * b[k, j]
                    for l in range(1, k + 1):
                        acc += A[l, j, c] * b[k - l, j]
                P[j, c] = acc * weight[j]
        for i in range(n):
            fi = 0.0
            for c in range(d):
                acc = 0.0
                for j in range(m):
                    acc += M[i, j] * P[j, c]
                fi += X[i, c] * acc
            f[k, i] = fi
        _loss_order(k, family, scale, y, f, g, aux, ex, q, cc, inv0, ka)
        for i in range(n):
            for c in range(d):
                Y[i, c] = g[k, i] * X[i, c]
        for j in range(m):
            for c in range(d):
                acc = 0.0
                for i in range(n):
                    acc += M[i, j] * Y[i, c]
                G[k, j, c] = acc
            r = slide_row[j]
            if r >= 0:
                acc, own = 0.0, 0.0
                for i in range(n):
                    kir = 0.0
                    for c in range(d):
                        kir += X[i, c] * X[r, c]
                    acc += M[i, j] * g[k, i] * kir
                for c in range(d):
                    own += X[r, c] * X[r, c]
                ys[k, j] = -acc / own
                for c in range(d):
                    G[k, j, c] += ys[k, j] * X[r, c]
        for j in range(m):
            if polar:
                acc = 0.0
                for l in range(k + 1):
                    for c in range(d):
                        acc += A[l, j, c] * G[k - l, j, c]
                rho[k, j] = acc
                for c in range(d):
                    part = rho[0, j] * A[k, j, c]
                    for l in range(1, k + 1):
                        part += rho[l, j] * A[k - l, j, c]
                    A[k + 1, j, c] = s[j] * (G[k, j, c] - part) / (k + 1)
                b[k + 1, j] = s[j] * rho[k, j] / (k + 1)
            else:
                for c in range(d):
                    acc = b[0, j] * G[k, j, c]
                    for l in range(1, k + 1):
                        acc += b[l, j] * G[k - l, j, c]
                    A[k + 1, j, c] = acc / (k + 1)
                if train_v:
                    acc = 0.0
                    for l in range(k + 1):
                        for c in range(d):
                            acc += A[l, j, c] * G[k - l, j, c]
                    b[k + 1, j] = acc / (k + 1)
                else:
                    b[k + 1, j] = b[0, j] * 0 / (k + 1)
