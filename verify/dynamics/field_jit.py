"""Compiled (numba) right-hand sides of the two state forms, for the built-in losses.

The same formulas as :meth:`forms.CartesianForm.rhs_numpy` / :meth:`forms.PolarForm.rhs_numpy`
(the reference, compared in the tests) in one call, which halves the cost of an evaluation
on the small matrices of this problem (numpy's per-call overhead dominated). Data weights
g_i = y_i w(y_i f_i) with w(m) = e^-m (exp), expit(-m) (logistic), 2 expit(-m) (logistic2),
1 - m (square), 1 - m / sqrt(1 + m^2) (poly); expit evaluated without overflow on either side,
the poly weight without cancellation or overflow (the formulas of :mod:`verify.model.losses`).
"""

from __future__ import annotations

import math

import numba
import numpy as np

LOSS_CODES = {"exp": 0, "logistic": 1, "logistic2": 2, "square": 3, "poly": 4}


@numba.njit(cache=True)
def _expit_neg(m: float) -> float:
    """expit(-m) = 1 / (1 + e^m), without overflow."""
    if m >= 0.0:
        e = np.exp(-m)
        return e / (1.0 + e)
    return 1.0 / (1.0 + np.exp(m))


@numba.njit(cache=True)
def _poly_weight(m: float) -> float:
    """1 - m / sqrt(1 + m^2): (1/s)^2 / (1 + |m|/s) for m >= 0 (= 1 / (s (s + m))), 1 + |m|/s for m < 0."""
    a = abs(m)
    s = math.hypot(1.0, a)
    r = 1.0 if math.isinf(a) else a / s
    if m >= 0.0:
        inv = 1.0 / s
        return inv * inv / (1.0 + r)
    return 1.0 + r


@numba.njit(cache=True)
def loss_weights(y: np.ndarray, f: np.ndarray, loss: int) -> np.ndarray:
    """g_i = y_i w(y_i f_i) for the loss with code ``loss``."""
    g = np.empty(y.size)
    for i in range(y.size):
        m = y[i] * f[i]
        if loss == 0:
            w = np.exp(-m)
        elif loss == 1:
            w = _expit_neg(m)
        elif loss == 2:
            w = 2.0 * _expit_neg(m)
        elif loss == 4:
            w = _poly_weight(m)
        else:
            w = 1.0 - m
        g[i] = y[i] * w
    return g


@numba.njit(cache=True)
def cartesian_rhs(z: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, h: int, d: int, loss: int, train_v: bool) -> np.ndarray:
    """[W', v'] with w_j' = v_j sum_i S_ij g_i x_i, v_j' = sum_i S_ij <x_i, w_j> g_i."""
    W = z[: h * d].reshape(h, d)
    v = z[h * d :]
    PS = np.dot(X, W.T) * S
    g = loss_weights(y, np.dot(PS, v), loss)
    G = np.dot(S.T * g, X)
    out = np.empty(h * d + h)
    for j in range(h):
        for k in range(d):
            out[j * d + k] = v[j] * G[j, k]
    if train_v:
        out[h * d :] = np.dot(g, PS)
    else:
        out[h * d :] = 0.0
    return out


@numba.njit(cache=True)
def polar_rhs(z: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, s: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int) -> np.ndarray:
    """[r', U'] with G_j = sum_i S_ij g_i x_i, r_j' = s_j <u_j, G_j>, u_j' = s_j (G_j - <u_j, G_j> u_j)."""
    U = z[h:].reshape(h, d)
    a = np.empty(h)
    for j in range(h):
        a[j] = s[j] * np.exp(2.0 * (z[j] + r_ref[j]))
    g = loss_weights(y, np.dot(np.dot(X, U.T) * S, a), loss)
    G = np.dot(S.T * g, X)
    out = np.empty(h + h * d)
    for j in range(h):
        radial = 0.0
        for k in range(d):
            radial += U[j, k] * G[j, k]
        out[j] = s[j] * radial
        for k in range(d):
            out[h + j * d + k] = s[j] * (G[j, k] - radial * U[j, k])
    return out


@numba.njit(cache=True)
def form_rhs(z: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool) -> np.ndarray:
    """:func:`polar_rhs` or :func:`cartesian_rhs` (one signature for the compiled steppers)."""
    if polar:
        return polar_rhs(z, S, X, y, sgn, r_ref, h, d, loss)
    return cartesian_rhs(z, S, X, y, h, d, loss, train_v)
