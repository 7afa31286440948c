"""Compiled Dormand-Prince 5(4) and 8(5,3) steps for the built-in fields in a fixed mode.

The same steps as :func:`stepper.step_rk45` followed by :func:`stepper.dense_matrix_rk45`, and
:func:`stepper.step` followed by :func:`stepper.dense_matrix` (the references, compared in the
tests), with the stages evaluated by :func:`field_jit.form_rhs` inside one compiled call: no
Python between stages. Used by the event engine whenever no pair is sliding (the Filippov
slopes of sliding pairs change within the step) and the loss is a built-in one.
Independent variable s = t or ln(1 + t) (``log_time``: dz/ds = e^s F(z)).
"""

from __future__ import annotations

import numba
import numpy as np

from verify.dynamics import stepper
from verify.dynamics.field_jit import form_rhs

# dense matrix F (7, N) = step * DENSE @ K: quartic interpolant's monomials -> nested basis
DENSE = np.ascontiguousarray(stepper._FROM_MONOMIAL[:, 1 : stepper._P5.shape[1] + 1] @ stepper._P5.T)
TABLEAU = (stepper._A5, stepper._B5, stepper._C5, stepper._E5_45, DENSE)
TABLEAU_853 = (np.ascontiguousarray(stepper._A), np.ascontiguousarray(stepper._B), np.ascontiguousarray(stepper._C),
               np.ascontiguousarray(stepper._E3), np.ascontiguousarray(stepper._E5))
DENSE_853 = (np.ascontiguousarray(stepper._A_EXTRA), np.ascontiguousarray(stepper._C_EXTRA),
             np.ascontiguousarray(stepper._D))


@numba.njit(cache=True)
def _field(s: float, z: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool) -> np.ndarray:
    out = form_rhs(z, S, X, y, sgn, r_ref, h, d, loss, train_v, polar)
    if log_time:
        out *= np.exp(s)
    return out


@numba.njit(cache=True)
def rk45_step(s: float, z: np.ndarray, f: np.ndarray, step: float, rtol: float, atol: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool, A: np.ndarray, B: np.ndarray, C: np.ndarray, E: np.ndarray, dense: np.ndarray):
    """One step of size ``step``: (z_new, f_new, err, F) with err = RMS(step K^T E / scale),
    scale = atol + rtol max(|z|, |z_new|), and F (7, N) the nested-basis dense matrix."""
    N = z.size
    n_st = B.size
    K = np.empty((n_st + 1, N))
    K[0] = f
    for i in range(1, n_st):
        zi = z.copy()
        for q in range(i):
            zi += (step * A[i, q]) * K[q]
        K[i] = _field(s + C[i] * step, zi, S, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time)
    z_new = z.copy()
    for q in range(n_st):
        z_new += (step * B[q]) * K[q]
    f_new = _field(s + step, z_new, S, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time)
    K[n_st] = f_new
    e = np.zeros(N)
    for q in range(n_st + 1):
        e += (step * E[q]) * K[q]
    e /= atol + rtol * np.maximum(np.abs(z), np.abs(z_new))
    err = np.sqrt(np.dot(e, e) / N) if N else 0.0
    F = np.dot(dense, K)
    F *= step
    return z_new, f_new, err, F


@numba.njit(cache=True)
def dop853_step(s: float, z: np.ndarray, f: np.ndarray, step: float, rtol: float, atol: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool, A: np.ndarray, B: np.ndarray, C: np.ndarray, E3: np.ndarray, E5: np.ndarray):
    """One DOP853 step of size ``step`` (12 new evaluations): (z_new, f_new, err, K) with K (16, N) the stages
    (rows 13..15 left for :func:`dop853_dense`) and err = |step| ||e5||^2 / sqrt((||e5||^2 + 0.01 ||e3||^2) N),
    e_k = K^T E_k / (atol + rtol max(|z|, |z_new|))."""
    N = z.size
    n_st = B.size
    K = np.zeros((n_st + 4, N))
    K[0] = f
    for i in range(1, n_st):
        zi = np.zeros(N)
        for q in range(i):
            zi += A[i, q] * K[q]
        zi *= step
        zi += z
        K[i] = _field(s + C[i] * step, zi, S, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time)
    z_new = np.zeros(N)
    for q in range(n_st):
        z_new += B[q] * K[q]
    z_new *= step
    z_new += z
    f_new = _field(s + step, z_new, S, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time)
    K[n_st] = f_new
    scale = atol + rtol * np.maximum(np.abs(z), np.abs(z_new))
    e3 = np.zeros(N)
    e5 = np.zeros(N)
    for q in range(n_st + 1):
        e3 += E3[q] * K[q]
        e5 += E5[q] * K[q]
    e3 /= scale
    e5 /= scale
    n5, n3 = np.dot(e5, e5), np.dot(e3, e3)
    err = 0.0 if n5 == 0.0 and n3 == 0.0 else abs(step) * n5 / np.sqrt((n5 + 0.01 * n3) * N)
    return z_new, f_new, err, K


@numba.njit(cache=True)
def dop853_dense(s: float, z: np.ndarray, f: np.ndarray, z_new: np.ndarray, f_new: np.ndarray, K: np.ndarray, step: float, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool, A_extra: np.ndarray, C_extra: np.ndarray, D: np.ndarray) -> np.ndarray:
    """The (7, N) dense matrix F of an accepted :func:`dop853_step` (3 more evaluations, filling K's last rows)."""
    N = z.size
    first = K.shape[0] - A_extra.shape[0]
    for m in range(A_extra.shape[0]):
        k = first + m
        zi = np.zeros(N)
        for q in range(k):
            zi += A_extra[m, q] * K[q]
        zi *= step
        zi += z
        K[k] = _field(s + C_extra[m] * step, zi, S, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time)
    F = np.empty((7, N))
    dz = z_new - z
    F[0] = dz
    F[1] = step * f - dz
    F[2] = 2.0 * dz - step * (f_new + f)
    F[3:] = step * np.dot(D, K)
    return F
