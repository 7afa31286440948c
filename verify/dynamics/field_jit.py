"""Compiled (numba) right-hand sides of the two state forms, for the built-in losses.

The formulas of :meth:`forms.CartesianForm.rhs_numpy` / :meth:`forms.PolarForm.rhs_numpy` (the reference, compared in
the tests) in one call. Data weights g_i = y_i w(y_i f_i), w by the loss's ``Loss.jit_code`` (:func:`margin_weight`;
``LOSS_CODES`` maps name -> code; the stable formulas of :mod:`verify.model.losses`). The steppers call
:func:`form_rhs`, which writes into arrays it is given (scratch: :func:`field_workspace`) and allocates nothing; the
allocating functions (``preact``, ``data_weights``, ``cartesian_rhs``, ...) are thin wrappers around the same
``*_into`` kernels; :func:`state_outputs` gives the outputs f at sampled states as the field computes them.

Two forms of the same arithmetic, chosen by the size n h d of the products P = X V^T and G^T = X^T (S g)
(:func:`uses_blas`): below BLAS_MIN_WORK, compiled loops (:func:`form_rhs`, :func:`preact_into`) that index arrays by
position and inline their helpers; from BLAS_MIN_WORK on, the two products by BLAS (:func:`form_rhs_blas`,
:func:`preact_blas_into`; dgemm through numba's ``np.dot``), which pays for itself there (measured 2026-11-28, one
thread: 0.21 against 0.40 us at n h d = 120, 10.5 against 6.6 us at 40,000; README, "Performance"). BLAS sums in its
own order, equal to the loops' to rounding (the tests compare both with the numpy reference). The choice is made in
one place for the steps and the compiled loop's slope refresh, :func:`rk_jit.stage_rhs`, inlined at numba's IR level.

Reference counting: numba keeps an atomic count on every array argument and view (23 per small evaluation, ~20% of
a small run before 2026-11-28). The kernels that allocate nothing -- :func:`form_rhs`, the steps of :mod:`rk_jit`,
:func:`scan.scan_step_into`, :func:`loop_jit._iterate`, :func:`settle_jit.settle_simple_into` -- are compiled with
numba's ``_nrt=False`` (``UNCOUNTED``: no counts, no allocation; their callers hold the arrays). A callee that needs
the runtime says so (``COUNTED``): :func:`form_rhs_blas` and :func:`preact_blas` (``np.dot``),
:func:`filippov_jit.filippov_S_into`, the compiled loop's sliding screen. The arithmetic is the same, bit for bit.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from verify.model.losses import LOSSES

BLAS_MIN_WORK = 2048  # n h d from which the field's two matrix products go to BLAS (module docstring)
UNCOUNTED = {"_nrt": False}  # numba's option: compiled without its runtime (no reference counts, no allocation)
COUNTED = {"_nrt": True}  # a callee of an UNCOUNTED kernel that needs the runtime (else it inherits UNCOUNTED)
LOSS_CODES: dict[str, int] = {loss.name: loss.jit_code for loss in LOSSES.values() if loss.jit_code is not None}


@numba.njit(cache=True, inline="always")
def _expit_neg(m: float) -> float:
    """expit(-m) = 1 / (1 + e^m), without overflow."""
    if m >= 0.0:
        e = np.exp(-m)
        return e / (1.0 + e)
    return 1.0 / (1.0 + np.exp(m))


@numba.njit(cache=True, inline="always")
def _poly_weight(m: float) -> float:
    """1 - m / sqrt(1 + m^2): (1/s)^2 / (1 + |m|/s) for m >= 0 (= 1 / (s (s + m))), 1 + |m|/s for m < 0."""
    a = abs(m)
    s = math.hypot(1.0, a)
    r = 1.0 if math.isinf(a) else a / s
    if m >= 0.0:
        inv = 1.0 / s
        return inv * inv / (1.0 + r)
    return 1.0 + r


@numba.njit(cache=True, inline="always")
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
def field_workspace(n: int, d: int, h: int) -> tuple:
    """Scratch arrays of one field evaluation, reused across evaluations: (V^T (max(d, 4), h), P (n, h), g (n,),
    G^T (d, h), a (h,)), passed to the kernels one by one (V^T's rows are the gradients' scratch rows after use)."""
    return np.empty((max(d, 4), h)), np.empty((n, h)), np.empty(n), np.empty((d, h)), np.empty(h)


@numba.njit(cache=True, inline="always")
def preact_into(P: np.ndarray, VT: np.ndarray, X: np.ndarray, z: np.ndarray, lo: int, h: int) -> None:
    """In place: P = X V^T (n, h), P_ij = <x_i, v_j> with v_j = z[lo + j d : lo + (j + 1) d], each sum in index order
    from 0; the innermost loop over the neurons j (contiguous in VT, which receives V^T: vectorisable), the rows i
    inside the terms q (consecutive updates of one P_ij would wait on each other). The first pass writes the first
    min(d, 4) terms' sum from 0 (no pass of zeros: with d <= 4 the only pass); later passes add four terms, then
    one (a quarter of the loads and stores of P)."""
    n, d = X.shape
    for q in range(d):
        for j in range(h):
            VT[q, j] = z[lo + j * d + q]
    _first_terms(P, VT, X, min(d, 4), h)
    q = min(d, 4)
    while q + 4 <= d:  # four terms per pass over P, added in the same order
        for i in range(n):
            x0, x1, x2, x3 = X[i, q], X[i, q + 1], X[i, q + 2], X[i, q + 3]
            for j in range(h):
                P[i, j] = (((P[i, j] + x0 * VT[q, j]) + x1 * VT[q + 1, j]) + x2 * VT[q + 2, j]) + x3 * VT[q + 3, j]
        q += 4
    for q in range(q, d):
        for i in range(n):
            xq = X[i, q]
            for j in range(h):
                P[i, j] += xq * VT[q, j]


@numba.njit(cache=True, inline="always")
def _first_terms(P: np.ndarray, VT: np.ndarray, X: np.ndarray, r: int, h: int) -> None:
    """In place: P_ij = the sum of the first r terms X_iq VT_qj (1 <= r <= 4), added in order from 0 (as a pass of
    zeros and r additions would add them), in one pass over P."""
    n = X.shape[0]
    if r == 1:
        for i in range(n):
            x0 = X[i, 0]
            for j in range(h):
                P[i, j] = 0.0 + x0 * VT[0, j]
    elif r == 2:
        for i in range(n):
            x0, x1 = X[i, 0], X[i, 1]
            for j in range(h):
                P[i, j] = (0.0 + x0 * VT[0, j]) + x1 * VT[1, j]
    elif r == 3:
        for i in range(n):
            x0, x1, x2 = X[i, 0], X[i, 1], X[i, 2]
            for j in range(h):
                P[i, j] = ((0.0 + x0 * VT[0, j]) + x1 * VT[1, j]) + x2 * VT[2, j]
    else:
        for i in range(n):
            x0, x1, x2, x3 = X[i, 0], X[i, 1], X[i, 2], X[i, 3]
            for j in range(h):
                P[i, j] = (((0.0 + x0 * VT[0, j]) + x1 * VT[1, j]) + x2 * VT[2, j]) + x3 * VT[3, j]


@numba.njit(cache=True, inline="always")
def preact_blas_into(P: np.ndarray, VT: np.ndarray, X: np.ndarray, z: np.ndarray, lo: int, h: int) -> None:
    """:func:`preact_into` by one BLAS product (``np.dot``, dgemm) on V^T gathered into VT[:d]: the form for
    problems of at least BLAS_MIN_WORK = n h d (module docstring); its sums are in BLAS's order."""
    d = X.shape[1]
    for q in range(d):
        for j in range(h):
            VT[q, j] = z[lo + j * d + q]
    np.dot(X, VT[:d], P)


@numba.njit(cache=True, inline="always")
def uses_blas(n: int, h: int, d: int) -> bool:
    """Whether a problem of n rows, h neurons and dimension d takes the BLAS form (n h d >= BLAS_MIN_WORK)."""
    return n * h * d >= BLAS_MIN_WORK


@numba.njit(cache=True, inline="always")
def preact_any_into(P: np.ndarray, VT: np.ndarray, X: np.ndarray, z: np.ndarray, lo: int, h: int) -> None:
    """:func:`preact_into` or, from BLAS_MIN_WORK on, :func:`preact_blas` (for callers that make calls anyway)."""
    if uses_blas(X.shape[0], h, X.shape[1]):
        preact_blas(P, VT, X, z, lo, h)
    else:
        preact_into(P, VT, X, z, lo, h)


@numba.njit(cache=True, **COUNTED)
def preact_blas(P: np.ndarray, VT: np.ndarray, X: np.ndarray, z: np.ndarray, lo: int, h: int) -> None:
    """:func:`preact_blas_into` as a call of its own, with numba's runtime, which its ``np.dot`` needs: callable from
    kernels compiled without it (``UNCOUNTED``)."""
    preact_blas_into(P, VT, X, z, lo, h)


@numba.njit(cache=True)
def preact(X: np.ndarray, z: np.ndarray, lo: int, h: int) -> np.ndarray:
    """P = X V^T (n, h) of :func:`preact_any_into` as a new array."""
    P = np.empty((X.shape[0], h))
    preact_any_into(P, np.empty((X.shape[1], h)), X, z, lo, h)
    return P


@numba.njit(cache=True, inline="always")
def output_factors_into(a: np.ndarray, z: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, polar: bool) -> None:
    """In place: a_j with f(x_i) = sum_j S_ij <x_i, v_j> a_j: v_j (Cartesian z = [W, v]), s_j e^(2 r_j) (polar
    z = [r - r_ref, U])."""
    for j in range(h):
        a[j] = sgn[j] * np.exp(2.0 * (z[j] + r_ref[j])) if polar else z[h * d + j]


@numba.njit(cache=True)
def output_factors(z: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, polar: bool) -> np.ndarray:
    """a (h,) of :func:`output_factors_into` as a new array."""
    a = np.empty(h)
    output_factors_into(a, z, sgn, r_ref, h, d, polar)
    return a


@numba.njit(cache=True, inline="always")
def data_weights_into(g: np.ndarray, PS: np.ndarray, S: np.ndarray, a: np.ndarray, y: np.ndarray, loss: int) -> None:
    """In place: g_i = y_i w(y_i f_i) (:func:`margin_weight`), f_i = sum_j S_ij P_ij a_j, given P in ``PS``, which
    becomes S * P (in place)."""
    n, h = PS.shape
    i = 0
    while i + 4 <= n:  # four rows' sums side by side (each over j in order): four independent chains of additions
        f0, f1, f2, f3 = 0.0, 0.0, 0.0, 0.0
        for j in range(h):
            aj = a[j]
            p0 = PS[i, j] * S[i, j]
            p1 = PS[i + 1, j] * S[i + 1, j]
            p2 = PS[i + 2, j] * S[i + 2, j]
            p3 = PS[i + 3, j] * S[i + 3, j]
            PS[i, j], PS[i + 1, j], PS[i + 2, j], PS[i + 3, j] = p0, p1, p2, p3
            f0 += p0 * aj
            f1 += p1 * aj
            f2 += p2 * aj
            f3 += p3 * aj
        g[i] = y[i] * margin_weight(y[i] * f0, loss)
        g[i + 1] = y[i + 1] * margin_weight(y[i + 1] * f1, loss)
        g[i + 2] = y[i + 2] * margin_weight(y[i + 2] * f2, loss)
        g[i + 3] = y[i + 3] * margin_weight(y[i + 3] * f3, loss)
        i += 4
    for i in range(i, n):
        fi = 0.0
        for j in range(h):
            PS[i, j] *= S[i, j]
            fi += PS[i, j] * a[j]
        g[i] = y[i] * margin_weight(y[i] * fi, loss)


@numba.njit(cache=True)
def data_weights(PS: np.ndarray, S: np.ndarray, a: np.ndarray, y: np.ndarray, loss: int) -> np.ndarray:
    """g (n,) of :func:`data_weights_into` as a new array (``PS`` becomes S * P)."""
    g = np.empty(PS.shape[0])
    data_weights_into(g, PS, S, a, y, loss)
    return g


@numba.njit(cache=True, inline="always")
def outputs_into(f: np.ndarray, P: np.ndarray, S: np.ndarray, a: np.ndarray) -> None:
    """In place: f_i = sum_j (S_ij P_ij) a_j over j in order from 0 (bit for bit :func:`data_weights_into`'s f_i)."""
    n, h = P.shape
    for i in range(n):
        fi = 0.0
        for j in range(h):
            fi += (P[i, j] * S[i, j]) * a[j]
        f[i] = fi


@numba.njit(cache=True)
def state_outputs(Z: np.ndarray, X: np.ndarray, alpha: float, h: int, d: int) -> np.ndarray:
    """f(x_i) at each Cartesian state Z[s] = [W, v] (k, N) -> (k, n), as the field computes it at that state: P = X W^T
    (:func:`preact_any_into`), S its mode (1 where P > 0, alpha elsewhere), f by :func:`outputs_into`."""
    n = X.shape[0]
    out = np.empty((Z.shape[0], n))
    P, S, VT = np.empty((n, h)), np.empty((n, h)), np.empty((max(d, 4), h))
    for s in range(Z.shape[0]):
        preact_any_into(P, VT, X, Z[s], 0, h)
        for i in range(n):
            for j in range(h):
                S[i, j] = 1.0 if P[i, j] > 0.0 else alpha
        outputs_into(out[s], P, S, Z[s, h * d:])
    return out


@numba.njit(cache=True, inline="always")
def _gradients_into(GT: np.ndarray, S: np.ndarray, g: np.ndarray, X: np.ndarray, T: np.ndarray) -> None:
    """In place: G^T (d, h), G_j = sum_i (S_ij g_i) x_i (sums over i in order from 0, four rows per pass over G^T;
    the products S_ij g_i once per row i, in the scratch rows T[0:4] (h,))."""
    n, d = X.shape
    h = GT.shape[1]
    for q in range(d):
        for j in range(h):
            GT[q, j] = 0.0
    i = 0
    while i + 4 <= n:
        for r in range(4):
            gi = g[i + r]
            for j in range(h):
                T[r, j] = S[i + r, j] * gi
        for q in range(d):
            x0, x1, x2, x3 = X[i, q], X[i + 1, q], X[i + 2, q], X[i + 3, q]
            for j in range(h):
                GT[q, j] = (((GT[q, j] + T[0, j] * x0) + T[1, j] * x1) + T[2, j] * x2) + T[3, j] * x3
        i += 4
    for i in range(i, n):
        gi = g[i]
        for j in range(h):
            T[0, j] = S[i, j] * gi
        for q in range(d):
            xq = X[i, q]
            for j in range(h):
                GT[q, j] += T[0, j] * xq


@numba.njit(cache=True, inline="always")
def _gradients_blas_into(GT: np.ndarray, PS: np.ndarray, S: np.ndarray, g: np.ndarray, X: np.ndarray) -> None:
    """:func:`_gradients_into` by one BLAS product, G^T = X^T (S * g), with PS (done with) overwritten by S_ij g_i."""
    n, h = PS.shape
    for i in range(n):
        gi = g[i]
        for j in range(h):
            PS[i, j] = S[i, j] * gi
    np.dot(X.T, PS, GT)


@numba.njit(cache=True, inline="always")
def _output_slopes_into(out: np.ndarray, PS: np.ndarray, g: np.ndarray, hd: int, h: int, train_v: bool) -> None:
    """In place, Cartesian: v_j' = sum_i S_ij <x_i, w_j> g_i in out[hd:] (PS = S * P; 0 unless ``train_v``), four
    rows per pass, added in order."""
    n = PS.shape[0]
    for j in range(h):
        out[hd + j] = 0.0
    if not train_v:
        return
    i = 0
    while i + 4 <= n:
        g0, g1, g2, g3 = g[i], g[i + 1], g[i + 2], g[i + 3]
        for j in range(h):
            acc = ((out[hd + j] + g0 * PS[i, j]) + g1 * PS[i + 1, j]) + g2 * PS[i + 2, j]
            out[hd + j] = acc + g3 * PS[i + 3, j]
        i += 4
    for i in range(i, n):
        for j in range(h):
            out[hd + j] += g[i] * PS[i, j]


@numba.njit(cache=True, inline="always")
def _neuron_slopes_into(out: np.ndarray, s: float, z: np.ndarray, GT: np.ndarray, a: np.ndarray, sgn: np.ndarray, h: int, d: int, polar: bool, log_time: bool) -> None:
    """In place: the neuron vectors' slopes from G^T: w_j' = a_j G_j (Cartesian, a_j = v_j) or r_j' = s_j <u_j, G_j>,
    u_j' = s_j (G_j - <u_j, G_j> u_j) (polar); then, in log time, the whole out times e^s."""
    hd = h * d
    if polar:
        for j in range(h):
            radial = 0.0
            for k in range(d):
                radial += z[h + j * d + k] * GT[k, j]
            out[j] = sgn[j] * radial
            for k in range(d):
                out[h + j * d + k] = sgn[j] * (GT[k, j] - radial * z[h + j * d + k])
    else:
        for j in range(h):
            for k in range(d):
                out[j * d + k] = a[j] * GT[k, j]
    if log_time:
        e = np.exp(s)
        for p in range(hd + h):
            out[p] *= e


@numba.njit(cache=True, error_model="numpy", **UNCOUNTED)
def form_rhs(out: np.ndarray, s: float, z: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool, VT: np.ndarray, PS: np.ndarray, g: np.ndarray, GT: np.ndarray, a: np.ndarray) -> None:
    """In place: out = dz/ds = F(z), or e^s F(z) when s = ln(1 + t) (``log_time``), F the field in mode S with
    G_j = sum_i S_ij g_i x_i (g: :func:`data_weights_into`, PS = S * P, a: :func:`output_factors_into`):
    Cartesian z = [W, v]: w_j' = v_j G_j, v_j' = sum_i S_ij <x_i, w_j> g_i (0 unless ``train_v``);
    polar z = [r - r_ref, U]: r_j' = s_j <u_j, G_j>, u_j' = s_j (G_j - <u_j, G_j> u_j).
    VT, PS, g, GT, a: :func:`field_workspace`. Compiled loops only (helpers inlined; numpy's error model: no division
    here can be by zero), without numba's runtime (``UNCOUNTED``, module docstring). From BLAS_MIN_WORK on
    (:func:`uses_blas`) callers take :func:`form_rhs_blas` instead."""
    output_factors_into(a, z, sgn, r_ref, h, d, polar)
    preact_into(PS, VT, X, z, h if polar else 0, h)
    data_weights_into(g, PS, S, a, y, loss)
    if not polar:
        _output_slopes_into(out, PS, g, h * d, h, train_v)
    _gradients_into(GT, S, g, X, VT)  # VT, done with, as scratch
    _neuron_slopes_into(out, s, z, GT, a, sgn, h, d, polar, log_time)


@numba.njit(cache=True, error_model="numpy", **COUNTED)
def form_rhs_blas(out: np.ndarray, s: float, z: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, train_v: bool, polar: bool, log_time: bool, VT: np.ndarray, PS: np.ndarray, g: np.ndarray, GT: np.ndarray, a: np.ndarray) -> None:
    """:func:`form_rhs` with its two matrix products by BLAS (:func:`preact_blas_into`, :func:`_gradients_blas_into`):
    the same arithmetic otherwise (the shared helpers), the products' sums in BLAS's order."""
    output_factors_into(a, z, sgn, r_ref, h, d, polar)
    preact_blas_into(PS, VT, X, z, h if polar else 0, h)
    data_weights_into(g, PS, S, a, y, loss)
    if not polar:
        _output_slopes_into(out, PS, g, h * d, h, train_v)
    _gradients_blas_into(GT, PS, S, g, X)  # PS, done with, becomes S * g
    _neuron_slopes_into(out, s, z, GT, a, sgn, h, d, polar, log_time)


@numba.njit(cache=True)
def cartesian_rhs(z: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, h: int, d: int, loss: int, train_v: bool) -> np.ndarray:
    """[W', v'] of :func:`form_rhs` or :func:`form_rhs_blas` (Cartesian) as a new array."""
    out = np.empty(h * d + h)
    VT, PS, g, GT, a = field_workspace(X.shape[0], d, h)
    args = (out, 0.0, z, S, X, y, np.ones(h), np.zeros(h), h, d, loss, train_v, False, False, VT, PS, g, GT, a)
    if uses_blas(X.shape[0], h, d):
        form_rhs_blas(*args)
    else:
        form_rhs(*args)
    return out


@numba.njit(cache=True)
def polar_rhs(z: np.ndarray, S: np.ndarray, X: np.ndarray, y: np.ndarray, s: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int) -> np.ndarray:
    """[r', U'] of :func:`form_rhs` or :func:`form_rhs_blas` (polar) as a new array."""
    out = np.empty(h + h * d)
    VT, PS, g, GT, a = field_workspace(X.shape[0], d, h)
    args = (out, 0.0, z, S, X, y, s, r_ref, h, d, loss, True, True, False, VT, PS, g, GT, a)
    if uses_blas(X.shape[0], h, d):
        form_rhs_blas(*args)
    else:
        form_rhs(*args)
    return out
