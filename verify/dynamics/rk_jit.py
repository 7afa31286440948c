"""Compiled Dormand-Prince 5(4) step for the built-in fields in a fixed mode.

The same step as :func:`stepper.step_rk45` followed by :func:`stepper.dense_matrix_rk45`
(the reference, compared in the tests), with the six stages evaluated by
:func:`field_jit.form_rhs` inside one compiled call: no Python between stages. Used by the
event engine for its short, event-limited steps whenever no pair is sliding (the Filippov
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
