"""Compiled (numba) right-hand sides of the two state forms, for the built-in losses.

The same formulas as :meth:`forms.CartesianForm.rhs_numpy` / :meth:`forms.PolarForm.rhs_numpy`
(the reference, compared in the tests) in one call, which halves the cost of an evaluation
on the small matrices of this problem (numpy's per-call overhead dominated). Data weights
g_i = y_i w(y_i f_i) with w(m) = e^-m (exp), expit(-m) (logistic), 2 expit(-m) (logistic2),
1 - m (square), 1 - m / sqrt(1 + m^2) (poly); expit evaluated without overflow on either side,
the poly weight without cancellation or overflow (the formulas of :mod:`verify.model.losses`).
The codes are the losses' declared ``Loss.jit_code`` (``LOSS_CODES`` maps name -> code).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from verify.model.losses import LOSSES

LOSS_CODES: dict[str, int] = {loss.name: loss.jit_code for loss in LOSSES.values() if loss.jit_code is not None}


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
def margin_weight(m: float, loss: int) -> float:
    """w(m), m = y f, for the loss with code ``loss`` (``Loss.jit_code``: 0 exp, 1 logistic, 2 logistic2,
    3 square, 4 poly)."""
    if loss == 0:
        return np.exp(-m)
    if loss == 1:
        return _expit_neg(m)
    if loss == 2:
        return 2.0 * _expit_neg(m)
    if loss == 4:
        return _poly_weight(m)
    return 1.0 - m


@numba.njit(cache=True)
def preact(X: np.ndarray, V: np.ndarray) -> np.ndarray:
    """P = X V^T (n, h): P_ij = <x_i, v_j>, each sum in index order, the innermost loop over the neurons j
    (contiguous, vectorisable). Plain loops: on this problem's small matrices a BLAS call costs more than the work."""
    n, d = X.shape
    h = V.shape[0]
    VT = np.ascontiguousarray(V.T)
    P = np.zeros((n, h))
    for i in range(n):
        row = P[i]
        for q in range(d):
            xq = X[i, q]
            for j in range(h):
                row[j] += xq * VT[q, j]
    return P


@numba.njit(cache=True)
def output_factors(z: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, polar: bool) -> np.ndarray:
    """a_j with f(x_i) = sum_j S_ij <x_i, v_j> a_j: v_j (Cartesian z = [W, v]), s_j e^(2 r_j) (polar z = [r - r_ref, U])."""
    a = np.empty(h)
    for j in range(h):
        a[j] = sgn[j] * np.exp(2.0 * (z[j] + r_ref[j])) if polar else z[h * d + j]
    return a


@numba.njit(cache=True)
def data_weights(PS: np.ndarray, S: np.ndarray, a: np.ndarray, y: np.ndarray, loss: int) -> np.ndarray:
    """g_i = y_i w(y_i f_i) (:func:`margin_weight`), f_i = sum_j S_ij P_ij a_j, given P in ``PS``, which becomes
    S * P (in place)."""
    n, h = PS.shape
    g = np.empty(n)
    for i in range(n):
        row = PS[i]
        fi = 0.0
        for j in range(h):
            row[j] *= S[i, j]
            fi += row[j] * a[j]
        g[i] = y[i] * margin_weight(y[i] * fi, loss)
    return g


@numba.njit(cache=True)
def _weights_and_gradients(V: np.ndarray, a: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, loss: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For neuron vectors V (h, d) (w_j, or u_j) with output factors a: PS = S * (X V^T), g (:func:`data_weights`),
    and G^T (d, h), G_j = sum_i S_ij g_i x_i (loops as in :func:`preact`; few temporaries: on small problems
    the allocations cost as much as the arithmetic)."""
    n, d = X.shape
    h = V.shape[0]
    PS = preact(X, V)
    g = data_weights(PS, S, a, y, loss)
    GT = np.zeros((d, h))
    for i in range(n):
        gi = g[i]
        for q in range(d):
            xq = X[i, q]
            col = GT[q]
            for j in range(h):
                col[j] += (S[i, j] * gi) * xq
    return PS, g, GT


@numba.njit(cache=True)
def cartesian_rhs(z: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, h: int, d: int, loss: int, train_v: bool) -> np.ndarray:
    """[W', v'] with w_j' = v_j sum_i S_ij g_i x_i, v_j' = sum_i S_ij <x_i, w_j> g_i."""
    v = z[h * d :]
    PS, g, GT = _weights_and_gradients(z[: h * d].reshape(h, d), v, S, X, y, loss)
    out = np.zeros(h * d + h)
    for j in range(h):
        for k in range(d):
            out[j * d + k] = v[j] * GT[k, j]
    if train_v:
        vdot = out[h * d :]
        for i in range(X.shape[0]):
            row = PS[i]
            for j in range(h):
                vdot[j] += g[i] * row[j]
    return out


@numba.njit(cache=True)
def polar_rhs(z: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, s: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int) -> np.ndarray:
    """[r', U'] with G_j = sum_i S_ij g_i x_i, r_j' = s_j <u_j, G_j>, u_j' = s_j (G_j - <u_j, G_j> u_j)."""
    U = z[h:].reshape(h, d)
    _PS, _g, GT = _weights_and_gradients(U, output_factors(z, s, r_ref, h, d, True), S, X, y, loss)
    out = np.empty(h + h * d)
    for j in range(h):
        radial = 0.0
        for k in range(d):
            radial += U[j, k] * GT[k, j]
        out[j] = s[j] * radial
        for k in range(d):
            out[h + j * d + k] = s[j] * (GT[k, j] - radial * U[j, k])
    return out


@numba.njit(cache=True)
def form_rhs(z: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool) -> np.ndarray:
    """:func:`polar_rhs` or :func:`cartesian_rhs` (one signature for the compiled steppers)."""
    if polar:
        return polar_rhs(z, S, X, y, sgn, r_ref, h, d, loss)
    return cartesian_rhs(z, S, X, y, h, d, loss, train_v)
