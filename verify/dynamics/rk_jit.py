"""Compiled low-order (Bogacki-Shampine 3(2), Dormand-Prince 5(4)) and DOP853 steps for the built-in fields in a fixed
mode.

The same steps as :func:`stepper.step_low` followed by :func:`stepper.dense_matrix_low`, and
:func:`stepper.step` followed by :func:`stepper.dense_matrix` (the references, compared in the
tests), with the stages evaluated by :func:`field_jit.form_rhs` (or its BLAS form) inside one compiled call: no
Python between stages. Used by the event engine whenever the loss is a built-in one and every
sliding pair is alone on its neuron and its line through 0: ``slide`` = (ii, jj, K, alpha) lists
those pairs, whose Filippov slopes change within the step and are recomputed at every stage
(:func:`filippov_jit.filippov_S_into`, as :meth:`filippov.Filippov.effective_S`); empty ii, jj: no sliding pair.
Independent variable s = t or ln(1 + t) (``log_time``: dz/ds = e^s F(z)). The ``*_into`` steps write into arrays
they are given and keep their stages in a reused workspace (:func:`step_workspace`): the compiled loop allocates
nothing per step; the allocating forms are thin wrappers for the Python iteration and the tests.
"""

from __future__ import annotations

import numba
import numpy as np

from verify.dynamics import stepper
from verify.dynamics.field_jit import UNCOUNTED, field_workspace, form_rhs, form_rhs_blas, uses_blas
from verify.dynamics.filippov_jit import filippov_S_into

# (A, B, C, E, dense) of control.PAIRS' low-order pairs; dense: the stages -> the nested-basis dense matrix over step
TABLEAUS = tuple(tuple(np.ascontiguousarray(a, dtype=float) for a in (p.A, p.B, p.C, p.E, p.dense))
                 for p in (stepper.RK23, stepper.RK45))
TABLEAU_853 = (np.ascontiguousarray(stepper._A), np.ascontiguousarray(stepper._B), np.ascontiguousarray(stepper._C),
               np.ascontiguousarray(stepper._E3), np.ascontiguousarray(stepper._E5))
DENSE_853 = (np.ascontiguousarray(stepper._A_EXTRA), np.ascontiguousarray(stepper._C_EXTRA),
             np.ascontiguousarray(stepper._D))
STAGES = stepper._dop.N_STAGES_EXTENDED  # rows of the stage matrix: DOP853's 13 and its dense output's 3


@numba.njit(cache=True)
def step_workspace(n: int, d: int, h: int, N: int) -> tuple:
    """Scratch arrays of the steps, reused from step to step: (K (STAGES, N) the stages, the stage state (N,), the
    error scale (N,), a stage's mode with its Filippov slopes (n, h)) and those of :func:`field_jit.field_workspace`."""
    return (np.empty((STAGES, N)), np.empty(N), np.empty(N), np.empty((n, h))) + field_workspace(n, d, h)


@numba.njit(cache=True, inline="always")
def stage_mode(S_stage: np.ndarray, z: np.ndarray, S: np.ndarray, slide: tuple, X: np.ndarray, y: np.ndarray,
                sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, polar: bool, VT: np.ndarray,
                PS: np.ndarray, g: np.ndarray, a: np.ndarray) -> np.ndarray:
    """The mode of a stage at z: S, or, with sliding pairs, S_stage = S with their Filippov slopes at z."""
    if slide[0].size == 0:
        return S
    filippov_S_into(S_stage, z, S, slide, X, y, sgn, r_ref, h, d, loss, polar, VT, PS, g, a)
    return S_stage


@numba.njit(cache=True, inline="always")
def stage_rhs(out: np.ndarray, s: float, z: np.ndarray, S: np.ndarray, slide: tuple, X: np.ndarray, y: np.ndarray,
              sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool,
              log_time: bool, work: tuple) -> None:
    """In place: out = the field at z (at s) in the stage's mode (:func:`stage_mode`), by :func:`field_jit.form_rhs`
    or, from BLAS_MIN_WORK on (:func:`field_jit.uses_blas`), its BLAS form. work: :func:`step_workspace`."""
    S_stage, VT, PS, g, GT, a = work[3:]
    Sz = stage_mode(S_stage, z, S, slide, X, y, sgn, r_ref, h, d, loss, polar, VT, PS, g, a)
    if uses_blas(X.shape[0], h, d):
        form_rhs_blas(out, s, z, Sz, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time, VT, PS, g, GT, a)
    else:
        form_rhs(out, s, z, Sz, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time, VT, PS, g, GT, a)


@numba.njit(cache=True, inline="always")
def _next_term(scale: float, coefs: np.ndarray, c: int, q: int, count: int) -> int:
    """The first q' >= q (q' < count) with a nonzero coefficient scale coefs[c, q'], else count."""
    while q < count and scale * coefs[c, q] == 0.0:
        q += 1
    return q


@numba.njit(cache=True, inline="always")
def _accumulate(out: np.ndarray, start: np.ndarray, from_zero: bool, scale: float, coefs: np.ndarray, c: int,
                K: np.ndarray, count: int) -> None:
    """In place: out = b + sum_q (scale coefs[c, q]) K[q] for q < count, b = 0 (``from_zero``) or ``start``, each
    term added in turn in order of q (zero coefficients, many in these tableaux, skipped), two terms per pass over
    out (half its loads and stores; the sums as one term per pass adds them). Coefficients and stages by row index,
    not row views; inlined, so that :func:`_stage_state` makes no call and numba drops its reference counting
    (:mod:`field_jit`)."""
    N = out.size
    q = _next_term(scale, coefs, c, 0, count)
    first = True
    while q < count:
        c1, q2 = scale * coefs[c, q], _next_term(scale, coefs, c, q + 1, count)
        c2 = scale * coefs[c, q2] if q2 < count else 0.0
        if q2 < count and not first:
            for p in range(N):
                out[p] = (out[p] + c1 * K[q, p]) + c2 * K[q2, p]
        elif q2 < count and from_zero:
            for p in range(N):
                out[p] = (0.0 + c1 * K[q, p]) + c2 * K[q2, p]
        elif q2 < count:
            for p in range(N):
                out[p] = (start[p] + c1 * K[q, p]) + c2 * K[q2, p]
        elif not first:
            for p in range(N):
                out[p] += c1 * K[q, p]
        elif from_zero:
            for p in range(N):
                out[p] = 0.0 + c1 * K[q, p]
        else:
            for p in range(N):
                out[p] = start[p] + c1 * K[q, p]
        first = False
        q = count if q2 >= count else _next_term(scale, coefs, c, q2 + 1, count)
    if first:
        for p in range(N):
            out[p] = 0.0 if from_zero else start[p]


@numba.njit(cache=True)
def _stage_state(out: np.ndarray, z: np.ndarray, step: float, coefs: np.ndarray, c: int, K: np.ndarray, count: int) -> None:
    """In place: out = (sum_q coefs[c, q] K[q]) step + z, q < count in order (DOP853's stage arithmetic)."""
    _accumulate(out, z, True, 1.0, coefs, c, K, count)
    for p in range(z.size):
        out[p] = out[p] * step + z[p]


@numba.njit(cache=True, inline="always")
def _stage_point(out: np.ndarray, z: np.ndarray, step: float, coefs: np.ndarray, c: int, K: np.ndarray, count: int,
                 low: bool) -> None:
    """In place: out = z + step sum_q coefs[c, q] K[q] (q < count) in the pair's arithmetic: ``low`` (3(2), 5(4)) the
    terms (step coefs[c, q]) K[q] added to z in turn, DOP853 :func:`_stage_state` (the sum first, times step, plus z)."""
    if low:
        _accumulate(out, z, False, step, coefs, c, K, count)
    else:
        _stage_state(out, z, step, coefs, c, K, count)


@numba.njit(cache=True, inline="always")
def _stages(z_new: np.ndarray, f_new: np.ndarray, work: tuple, s: float, z: np.ndarray, f: np.ndarray, step: float,
            S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int,
            train_v: bool, polar: bool, log_time: bool, slide: tuple, A: np.ndarray, B: np.ndarray, C: np.ndarray,
            low: bool) -> None:
    """The stages of a step into K = work[0]: K[0] = f, K[i] = F(z + step sum_q A[i, q] K[q]) at s + C[i] step
    (0 < i < B.size), the end point z_new = z + step sum_q B[q] K[q] and its slope f_new = K[B.size]
    (:func:`_stage_point`, :func:`stage_rhs`)."""
    K, zi = work[:2]
    n_st = B.size
    for p in range(z.size):
        K[0, p] = f[p]
    for i in range(1, n_st):
        _stage_point(zi, z, step, A, i, K, i, low)
        stage_rhs(K[i], s + C[i] * step, zi, S, slide, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time, work)
    _stage_point(z_new, z, step, B.reshape(1, n_st), 0, K, n_st, low)
    stage_rhs(K[n_st], s + step, z_new, S, slide, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time, work)
    for p in range(z.size):
        f_new[p] = K[n_st, p]


@numba.njit(cache=True)
def _scaled_norm2(K: np.ndarray, E: np.ndarray, count: int, step: float, scale: np.ndarray, acc: np.ndarray) -> float:
    """||(sum_q (step E[q]) K[q]) / scale||^2 (q in order from 0, zero coefficients included), the sums built two
    stage rows per pass in the scratch ``acc`` (N,) (contiguous rows: 1.2-2.2x faster than a sum over q per
    component, the same bits)."""
    N = scale.size
    q = 0
    while q + 2 <= count:
        c0, c1 = step * E[q], step * E[q + 1]
        for p in range(N):
            acc[p] = ((acc[p] if q else 0.0) + c0 * K[q, p]) + c1 * K[q + 1, p]
        q += 2
    if q < count:
        cq = step * E[q]
        for p in range(N):
            acc[p] = (acc[p] if q else 0.0) + cq * K[q, p]
    total = 0.0
    for p in range(N):
        e = (acc[p] if count else 0.0) / scale[p]
        total += e * e
    return total


@numba.njit(cache=True)
def _error_scale(out: np.ndarray, z: np.ndarray, z_new: np.ndarray, rtol: np.ndarray, atol: np.ndarray) -> None:
    """In place: out = atol + rtol max(|z|, |z_new|)."""
    for p in range(z.size):
        out[p] = atol[p] + rtol[p] * max(abs(z[p]), abs(z_new[p]))


@numba.njit(cache=True, **UNCOUNTED)
def low_step_into(z_new: np.ndarray, f_new: np.ndarray, F: np.ndarray, work: tuple, s: float, z: np.ndarray, f: np.ndarray, step: float, rtol: np.ndarray, atol: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool, slide: tuple, A: np.ndarray, B: np.ndarray, C: np.ndarray, E: np.ndarray, dense: np.ndarray) -> float:
    """One step of size ``step`` into z_new, f_new and F (7, N) the nested-basis dense matrix; returns
    err = RMS(step K^T E / scale), scale = atol + rtol max(|z|, |z_new|) (rtol, atol per component).
    work: :func:`step_workspace`."""
    K, zi, scale = work[:3]
    N = z.size
    n_st = B.size
    _stages(z_new, f_new, work, s, z, f, step, S, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time, slide, A, B, C,
            True)
    _error_scale(scale, z, z_new, rtol, atol)
    e2 = _scaled_norm2(K, E, n_st + 1, step, scale, zi)  # zi, the stage state, done with
    err = np.sqrt(e2 / N) if N else 0.0
    for r in range(dense.shape[0]):
        _accumulate(F[r], z, True, step, dense, r, K, n_st + 1)
    return err


@numba.njit(cache=True)
def low_step(s: float, z: np.ndarray, f: np.ndarray, step: float, rtol: np.ndarray, atol: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool, slide: tuple, A: np.ndarray, B: np.ndarray, C: np.ndarray, E: np.ndarray, dense: np.ndarray):
    """:func:`low_step_into` into new arrays: (z_new, f_new, err, F)."""
    N = z.size
    z_new, f_new, F = np.empty(N), np.empty(N), np.empty((dense.shape[0], N))
    err = low_step_into(z_new, f_new, F, step_workspace(X.shape[0], d, h, N), s, z, f, step, rtol, atol, S, X, y,
                        sgn, r_ref, h, d, loss, train_v, polar, log_time, slide, A, B, C, E, dense)
    return z_new, f_new, err, F


@numba.njit(cache=True, **UNCOUNTED)
def dop853_step_into(z_new: np.ndarray, f_new: np.ndarray, work: tuple, s: float, z: np.ndarray, f: np.ndarray, step: float, rtol: np.ndarray, atol: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool, slide: tuple, A: np.ndarray, B: np.ndarray, C: np.ndarray, E3: np.ndarray, E5: np.ndarray) -> float:
    """One DOP853 step of size ``step`` (12 new evaluations) into z_new, f_new and the stages K = work[0] (rows
    13..15 left for :func:`dop853_dense_into`); returns err = |step| ||e5||^2 / sqrt((||e5||^2 + 0.01 ||e3||^2) N),
    e_k = K^T E_k / (atol + rtol max(|z|, |z_new|)). work: :func:`step_workspace`."""
    K, zi, scale = work[:3]
    n_st = B.size
    _stages(z_new, f_new, work, s, z, f, step, S, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time, slide, A, B, C,
            False)
    _error_scale(scale, z, z_new, rtol, atol)
    n5 = _scaled_norm2(K, E5, n_st + 1, 1.0, scale, zi)  # zi, the stage state, done with
    n3 = _scaled_norm2(K, E3, n_st + 1, 1.0, scale, zi)
    return 0.0 if n5 == 0.0 and n3 == 0.0 else abs(step) * n5 / np.sqrt((n5 + 0.01 * n3) * z.size)


@numba.njit(cache=True)
def dop853_step(s: float, z: np.ndarray, f: np.ndarray, step: float, rtol: np.ndarray, atol: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool, slide: tuple, A: np.ndarray, B: np.ndarray, C: np.ndarray, E3: np.ndarray, E5: np.ndarray):
    """:func:`dop853_step_into` into new arrays: (z_new, f_new, err, K), K (16, N) with rows 13..15 zero."""
    N = z.size
    z_new, f_new, K = np.empty(N), np.empty(N), np.zeros((B.size + 4, N))
    work = (K,) + step_workspace(X.shape[0], d, h, N)[1:]
    err = dop853_step_into(z_new, f_new, work, s, z, f, step, rtol, atol, S, X, y, sgn, r_ref, h, d, loss, train_v,
                           polar, log_time, slide, A, B, C, E3, E5)
    return z_new, f_new, err, K


@numba.njit(cache=True, **UNCOUNTED)
def dop853_dense_into(F: np.ndarray, work: tuple, s: float, z: np.ndarray, f: np.ndarray, z_new: np.ndarray, f_new: np.ndarray, step: float, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool, slide: tuple, A_extra: np.ndarray, C_extra: np.ndarray, D: np.ndarray) -> None:
    """Into F: the (7, N) dense matrix of an accepted :func:`dop853_step_into` (3 more evaluations, filling the last
    rows of its stages K = work[0])."""
    K, zi = work[:2]
    N = z.size
    first = K.shape[0] - A_extra.shape[0]
    for m in range(A_extra.shape[0]):
        k = first + m
        _stage_state(zi, z, step, A_extra, m, K, k)
        stage_rhs(K[k], s + C_extra[m] * step, zi, S, slide, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time, work)
    for p in range(N):
        dz = z_new[p] - z[p]
        F[0, p] = dz
        F[1, p] = step * f[p] - dz
        F[2, p] = 2.0 * dz - step * (f_new[p] + f[p])
    for r in range(D.shape[0]):
        _accumulate(F[3 + r], z, True, step, D, r, K, K.shape[0])


@numba.njit(cache=True)
def dop853_dense(s: float, z: np.ndarray, f: np.ndarray, z_new: np.ndarray, f_new: np.ndarray, K: np.ndarray, step: float, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool, slide: tuple, A_extra: np.ndarray, C_extra: np.ndarray, D: np.ndarray) -> np.ndarray:
    """:func:`dop853_dense_into` into a new (7, N) array, with the stages K of :func:`dop853_step`."""
    N = z.size
    F = np.empty((7, N))
    work = (K,) + step_workspace(X.shape[0], d, h, N)[1:]
    dop853_dense_into(F, work, s, z, f, z_new, f_new, step, S, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time,
                      slide, A_extra, C_extra, D)
    return F
