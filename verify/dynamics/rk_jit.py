"""Compiled Dormand-Prince 5(4) and 8(5,3) steps for the built-in fields in a fixed mode.

The same steps as :func:`stepper.step_rk45` followed by :func:`stepper.dense_matrix_rk45`, and
:func:`stepper.step` followed by :func:`stepper.dense_matrix` (the references, compared in the
tests), with the stages evaluated by :func:`field_jit.form_rhs` inside one compiled call: no
Python between stages. Used by the event engine whenever the loss is a built-in one and every
sliding pair is alone on its neuron and its line through 0: ``slide`` = (ii, jj, K, alpha) lists
those pairs, whose Filippov slopes change within the step and are recomputed at every stage
(:func:`filippov_jit.filippov_S`, as :meth:`filippov.Filippov.effective_S`); empty ii, jj: no sliding pair.
Independent variable s = t or ln(1 + t) (``log_time``: dz/ds = e^s F(z)).
"""

from __future__ import annotations

import numba
import numpy as np

from verify.dynamics import stepper
from verify.dynamics.field_jit import form_rhs
from verify.dynamics.filippov_jit import filippov_S

# dense matrix F (7, N) = step * DENSE @ K: quartic interpolant's monomials -> nested basis
DENSE = np.ascontiguousarray(stepper._FROM_MONOMIAL[:, 1 : stepper._P5.shape[1] + 1] @ stepper._P5.T)
TABLEAU = (stepper._A5, stepper._B5, stepper._C5, stepper._E5_45, DENSE)
TABLEAU_853 = (np.ascontiguousarray(stepper._A), np.ascontiguousarray(stepper._B), np.ascontiguousarray(stepper._C),
               np.ascontiguousarray(stepper._E3), np.ascontiguousarray(stepper._E5))
DENSE_853 = (np.ascontiguousarray(stepper._A_EXTRA), np.ascontiguousarray(stepper._C_EXTRA),
             np.ascontiguousarray(stepper._D))


@numba.njit(cache=True)
def scaled_rhs(s: float, z: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool, slide: tuple) -> np.ndarray:
    """dz/ds: :func:`field_jit.form_rhs` (in mode :func:`filippov_jit.filippov_S` when pairs slide), times e^s when
    s = ln(1 + t) (``log_time``)."""
    if slide[0].size:
        S = filippov_S(z, S, slide, X, y, sgn, r_ref, h, d, loss, polar)
    out = form_rhs(z, S, X, y, sgn, r_ref, h, d, loss, train_v, polar)
    if log_time:
        out *= np.exp(s)
    return out


@numba.njit(cache=True)
def _accumulate(out: np.ndarray, scale: float, coefs: np.ndarray, K: np.ndarray, count: int) -> None:
    """In place, q in order: out += (scale coefs[q]) K[q] for q < count (no temporaries; zero coefficients, many in
    these tableaux, skipped)."""
    N = out.size
    for q in range(count):
        c = scale * coefs[q]
        if c == 0.0:
            continue
        row = K[q]
        for p in range(N):
            out[p] += c * row[p]


@numba.njit(cache=True)
def _stage_state(out: np.ndarray, z: np.ndarray, step: float, coefs: np.ndarray, K: np.ndarray, count: int) -> None:
    """In place: out = (sum_q coefs[q] K[q]) step + z, q < count in order (DOP853's stage arithmetic)."""
    out[:] = 0.0
    _accumulate(out, 1.0, coefs, K, count)
    for p in range(z.size):
        out[p] = out[p] * step + z[p]


@numba.njit(cache=True)
def _scaled_norm2(K: np.ndarray, E: np.ndarray, count: int, step: float, scale: np.ndarray) -> float:
    """||(sum_q (step E[q]) K[q]) / scale||^2 (q in order)."""
    total = 0.0
    for p in range(scale.size):
        acc = 0.0
        for q in range(count):
            acc += (step * E[q]) * K[q, p]
        acc /= scale[p]
        total += acc * acc
    return total


@numba.njit(cache=True)
def _error_scale(z: np.ndarray, z_new: np.ndarray, rtol: np.ndarray, atol: np.ndarray) -> np.ndarray:
    """atol + rtol max(|z|, |z_new|)."""
    out = np.empty(z.size)
    for p in range(z.size):
        out[p] = atol[p] + rtol[p] * max(abs(z[p]), abs(z_new[p]))
    return out


@numba.njit(cache=True)
def rk45_step(s: float, z: np.ndarray, f: np.ndarray, step: float, rtol: np.ndarray, atol: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool, slide: tuple, A: np.ndarray, B: np.ndarray, C: np.ndarray, E: np.ndarray, dense: np.ndarray):
    """One step of size ``step``: (z_new, f_new, err, F) with err = RMS(step K^T E / scale),
    scale = atol + rtol max(|z|, |z_new|) (rtol, atol per component), and F (7, N) the nested-basis dense matrix."""
    N = z.size
    n_st = B.size
    K = np.empty((n_st + 1, N))
    K[0] = f
    zi = np.empty(N)
    for i in range(1, n_st):
        zi[:] = z
        _accumulate(zi, step, A[i], K, i)
        K[i] = scaled_rhs(s + C[i] * step, zi, S, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time, slide)
    z_new = z.copy()
    _accumulate(z_new, step, B, K, n_st)
    f_new = scaled_rhs(s + step, z_new, S, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time, slide)
    K[n_st] = f_new
    e2 = _scaled_norm2(K, E, n_st + 1, step, _error_scale(z, z_new, rtol, atol))
    err = np.sqrt(e2 / N) if N else 0.0
    F = np.zeros((dense.shape[0], N))
    for r in range(dense.shape[0]):
        _accumulate(F[r], step, dense[r], K, n_st + 1)
    return z_new, f_new, err, F


@numba.njit(cache=True)
def dop853_step(s: float, z: np.ndarray, f: np.ndarray, step: float, rtol: np.ndarray, atol: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool, slide: tuple, A: np.ndarray, B: np.ndarray, C: np.ndarray, E3: np.ndarray, E5: np.ndarray):
    """One DOP853 step of size ``step`` (12 new evaluations): (z_new, f_new, err, K) with K (16, N) the stages
    (rows 13..15 left for :func:`dop853_dense`) and err = |step| ||e5||^2 / sqrt((||e5||^2 + 0.01 ||e3||^2) N),
    e_k = K^T E_k / (atol + rtol max(|z|, |z_new|))."""
    N = z.size
    n_st = B.size
    K = np.zeros((n_st + 4, N))
    K[0] = f
    zi = np.empty(N)
    for i in range(1, n_st):
        _stage_state(zi, z, step, A[i], K, i)
        K[i] = scaled_rhs(s + C[i] * step, zi, S, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time, slide)
    z_new = np.empty(N)
    _stage_state(z_new, z, step, B, K, n_st)
    f_new = scaled_rhs(s + step, z_new, S, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time, slide)
    K[n_st] = f_new
    scale = _error_scale(z, z_new, rtol, atol)
    n5 = _scaled_norm2(K, E5, n_st + 1, 1.0, scale)
    n3 = _scaled_norm2(K, E3, n_st + 1, 1.0, scale)
    err = 0.0 if n5 == 0.0 and n3 == 0.0 else abs(step) * n5 / np.sqrt((n5 + 0.01 * n3) * N)
    return z_new, f_new, err, K


@numba.njit(cache=True)
def dop853_dense(s: float, z: np.ndarray, f: np.ndarray, z_new: np.ndarray, f_new: np.ndarray, K: np.ndarray, step: float, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool, slide: tuple, A_extra: np.ndarray, C_extra: np.ndarray, D: np.ndarray) -> np.ndarray:
    """The (7, N) dense matrix F of an accepted :func:`dop853_step` (3 more evaluations, filling K's last rows)."""
    N = z.size
    first = K.shape[0] - A_extra.shape[0]
    zi = np.empty(N)
    for m in range(A_extra.shape[0]):
        k = first + m
        _stage_state(zi, z, step, A_extra[m], K, k)
        K[k] = scaled_rhs(s + C_extra[m] * step, zi, S, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time, slide)
    F = np.zeros((7, N))
    for p in range(N):
        dz = z_new[p] - z[p]
        F[0, p] = dz
        F[1, p] = step * f[p] - dz
        F[2, p] = 2.0 * dz - step * (f_new[p] + f[p])
    for r in range(D.shape[0]):
        _accumulate(F[3 + r], step, D[r], K, K.shape[0])
    return F
