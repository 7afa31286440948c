"""Compiled (numba) loop of the float64 Taylor engine (:mod:`taylor64`): series, step, roots, samples, settling.

:func:`run` integrates from the start mode to the last sample time. Per step, in the current mode (S the switching
law's slopes; M the series' slopes: S off the surfaces, 0 for a sliding pair; a dead neuron's column is 0, so its
coefficients vanish):

1. the state's Taylor coefficients to order N by the mp backend's float64 recurrence (:func:`series_jit.extend`:
   the field and the loss as series, not the event engine's field code; a neuron sliding along one row's surface
   gets that row's Filippov term y_k x_i, y = c g_i with c its sliding slope);
2. the step h from the series' tail (the rule of :mod:`verify.dynamics.mp.integrator`): a_k = max over
   components |z_k| / scale_j, h = min over k in {N - 1, N} of (tol / a_k)^(1/k), polar steps capped as
   :meth:`verify.dynamics.mp.planning.Planning.polar_cap` caps them;
3. every watched pair's event polynomial phi(x) = side <x_i, w_j(t + x h)> on [0, 1] (coefficients
   side <x_i, A_k,j> h^k; a pair settled onto its surface at the last event searched as phi(x) / x), and each
   sliding pair's exit functions (its slope leaving [alpha, 1]), their first turn negative
   (:func:`taylor64_roots.first_root`);
4. samples from the series (Horner), the move to the step end or to the first root, and there the settling
   (:mod:`taylor64_settle`): one line through 0 per neuron near its surfaces (a line of one row is a pair), which
   the switching law sends active, inactive or (a pair) sliding, projected onto its surface and logged; with
   alpha = 0 a neuron whose slopes are all 0 and that does not slide is dead. After every step sliding neurons are
   projected back onto their surfaces.

Rows on one line through 0 (x_k = +-c x_i) share one surface per neuron: its representative's polynomial is
searched, and the line is settled as one. Anything else ends the run with a status other than DONE
(:data:`REASONS`): near pairs of two lines on one neuron (two sliding rows, a neuron at w_j = 0), a line of several
rows that slides, a non-finite coefficient, a step that stops advancing, a full event buffer. The caller then uses
the mp backend, which continues through the first ones.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from verify.dynamics.engine_jit import row_norm
from verify.dynamics.mp.series_jit import extend
from verify.dynamics.taylor64_roots import first_root
from verify.dynamics.taylor64_settle import (CROWDED, DONE, FULL, LINE_SLIDES, NONFINITE, ROOT_BAND, STALLED, preact,
                                             project, settle)

REASONS = ("", "several pairs of one neuron meet their surfaces at one point",
           "a series coefficient is not finite", "the steps stop advancing", "the event buffer is full",
           "rows on one line through 0 slide together (coupled sliding)")
SLIDE_SLACK = 1e-12  # a sliding slope exits [alpha, 1] beyond this times |g_i| (the mp backend's: 10^-dps)


@numba.njit(cache=True)
def _state_at(A: np.ndarray, b: np.ndarray, order: int, tau: float, W: np.ndarray, v: np.ndarray) -> None:
    """In place: W, v = the series at t0 + tau (Horner over orders 0..order)."""
    h, d = W.shape
    for j in range(h):
        for c in range(d):
            acc = 0.0
            for k in range(order, -1, -1):
                acc = acc * tau + A[k, j, c]
            W[j, c] = acc
        acc = 0.0
        for k in range(order, -1, -1):
            acc = acc * tau + b[k, j]
        v[j] = acc


@numba.njit(cache=True)
def _series(k1: int, W: np.ndarray, v: np.ndarray, data: tuple, mode: tuple, ser: tuple) -> None:
    """The state's Taylor coefficients to order k1 from (W, v) in the current mode (:func:`series_jit.extend`)."""
    X, y, K, xnorm, sgn, weight, alpha, polar, family, scale, train_v, line_rep, line_sgn = data
    S, M, side, dead, onsurf, slide_row = mode
    A, b, G, g, f, aux, ex, q, cc, inv0, ka, E, kb, rho, ys = ser
    A[0], b[0] = W, v
    extend(0, k1, polar, family, scale, train_v, X, y, M, weight, sgn, A, b, G, g, f, aux, ex, q, cc, inv0, ka, E, kb,
           rho, slide_row, ys)


@numba.njit(cache=True)
def _first_event(step: float, N: int, data: tuple, mode: tuple, ser: tuple, roots: np.ndarray,
                 coef: np.ndarray) -> float:
    """The first root x in [0, 1] over the step of every watched pair's event polynomial (``roots`` per pair, inf
    for none) and of each sliding pair's exit functions sg (g_i - y) and sg (y - alpha g_i) (sg = sign g_i(0), each
    raised by SLIDE_SLACK |g_i(0)|, as the mp backend's), or inf."""
    X, y, K, xnorm, sgn, weight, alpha, polar, family, scale, train_v, line_rep, line_sgn = data
    S, M, side, dead, onsurf, slide_row = mode
    A, g, ys = ser[0], ser[3], ser[14]
    n, d = X.shape
    h = A.shape[1]
    x_star = np.inf
    roots[:] = np.inf
    for j in range(h):
        if dead[j]:
            continue
        for i in range(n):
            if side[i, j] == 0 or line_rep[i] != i:  # a line's other rows share its representative's surface
                continue
            power = 1.0
            for k in range(N + 1):
                acc = 0.0
                for c in range(d):
                    acc += X[i, c] * A[k, j, c]
                coef[k] = side[i, j] * acc * power
                power *= step
            if onsurf[i, j]:
                for k in range(N):
                    coef[k] = coef[k + 1]
                roots[i, j] = first_root(coef, N)
            else:
                roots[i, j] = first_root(coef, N + 1)
            x_star = min(x_star, roots[i, j])
        for i in range(n):
            if line_rep[i] != i:
                roots[i, j] = roots[line_rep[i], j]
        i = slide_row[j]
        if i < 0:
            continue
        sg = 1.0 if g[0, i] > 0.0 else -1.0
        for upper in (True, False):
            power = 1.0
            for k in range(N):
                coef[k] = sg * ((g[k, i] - ys[k, j]) if upper else (ys[k, j] - alpha * g[k, i])) * power
                power *= step
            coef[0] += SLIDE_SLACK * abs(g[0, i])
            roots[i, j] = min(roots[i, j], first_root(coef, N))
        x_star = min(x_star, roots[i, j])
    return x_star


@numba.njit(cache=True)
def _step_size(N: int, tol: float, W: np.ndarray, v: np.ndarray, data: tuple, mode: tuple, ser: tuple,
               sizes: np.ndarray) -> float:
    """The step from the series' tail (module docstring), polar steps capped as the mp backend caps them; nan when
    a coefficient is not finite. ``sizes`` receives a_k."""
    X, y, K, xnorm, sgn, weight, alpha, polar, family, scale, train_v, line_rep, line_sgn = data
    S, M, side, dead, onsurf, slide_row = mode
    A, b, g = ser[0], ser[1], ser[3]
    h, d = W.shape
    n = X.shape[0]
    neuron = np.ones(h)  # the per-neuron scale: ||(w_j, v_j)|| (Cartesian), 1 (polar)
    if not polar:
        for j in range(h):
            sj = math.sqrt(row_norm(W, j) ** 2 + v[j] * v[j])
            neuron[j] = sj if sj > 0.0 else 1.0
    for k in range(N + 1):
        big = 0.0
        for j in range(h):
            for c in range(d):
                big = max(big, abs(A[k, j, c]) / neuron[j])
            big = max(big, abs(b[k, j]) / neuron[j])
        if not np.isfinite(big):
            return np.nan
        sizes[k] = big
    step = np.inf
    for k in (N - 1, N):
        if k >= 1 and sizes[k] > 0.0:
            step = min(step, (tol / sizes[k]) ** (1.0 / k))
    if polar:  # verify.dynamics.mp.planning.Planning.polar_cap
        cap = np.inf
        for j in range(h):
            bound = 0.0
            for i in range(n):
                bound += abs(g[0, i]) * xnorm[i] * (1.0 if slide_row[j] == i else abs(M[i, j]))
            rate = max(abs(b[1, j]), bound)
            if rate > 0.0:
                free = max((0.5 * math.log(tol) - b[0, j]) / rate, 0.0)
                cap = min(cap, max(free, (N + 1) / (2.0 * math.e * rate)))
        step = min(step, cap)
    return step


@numba.njit(cache=True)
def run(times: np.ndarray, W0: np.ndarray, v0: np.ndarray, X: np.ndarray, y: np.ndarray, S: np.ndarray,
        side: np.ndarray, sgn: np.ndarray, alpha: float, polar: bool, family: int, scale: float, train_v: bool,
        line_rep: np.ndarray, line_sgn: np.ndarray, order: int, tol: float, surf: float, out_W: np.ndarray,
        out_v: np.ndarray, ev_t: np.ndarray, ev_ij: np.ndarray, ev_kd: np.ndarray, info: np.ndarray) -> int:
    """Integrate from (W0, v0) (polar: (U0, r0)) in mode (S, side) to times[-1], the states at ``times`` into out_W,
    out_v; rows on one line through 0 share their representative's surface (``line_rep``, orientation ``line_sgn``:
    :func:`switching.lines`). ``info`` receives [error estimate (relative, the tail terms and rounding per step),
    steps, events logged, the time reached, | ||u|| - 1 | seen before renormalisation]. Returns a status (module
    docstring)."""
    n, d = X.shape
    h = W0.shape[0]
    N = order
    W, v = W0.copy(), v0.copy()
    K = X @ X.T
    xnorm = np.empty(n)
    for i in range(n):
        xnorm[i] = math.sqrt(K[i, i])
    data = (X, y, K, xnorm, sgn, sgn.copy() if polar else np.ones(h), alpha, polar, family, scale, train_v, line_rep,
            line_sgn)
    mode = (S, S.copy(), side, np.zeros(h, np.bool_), np.zeros((n, h), np.bool_), np.full(h, -1))
    slide_row = mode[5]
    ser = (np.zeros((N + 1, h, d)), np.zeros((N + 1, h)), np.zeros((N, h, d)), np.zeros((N, n)), np.zeros((N, n)),
           np.zeros((N, n)), np.zeros((N, n)), np.zeros((N, n)), np.zeros((N, n)) if family == 3 else np.zeros((0, h)),
           np.zeros(n), np.zeros((N, n)), np.zeros((N, h)) if polar else np.zeros((0, h)),
           np.zeros((N, h)) if polar else np.zeros((0, h)), np.zeros((N, h)) if polar else np.zeros((0, h)),
           np.zeros((N, h)))
    A, b = ser[0], ser[1]
    events = (ev_t, ev_ij, ev_kd, np.zeros(1, np.int64))
    roots = np.full((n, h), np.inf)
    coef = np.empty(N + 1)
    sizes = np.empty(N + 1)
    err, drift = 0.0, 0.0
    rounding = (N + 1) * 2.0**-52
    t, t_end = 0.0, times[-1]
    k_out = 0
    steps, null_steps = 0, 0
    status = DONE
    while k_out < times.size and times[k_out] <= t:
        out_W[k_out], out_v[k_out] = W, v
        k_out += 1
    x_star = -1.0  # no root at t = 0: nothing arrived by a crossing
    settle_now = True  # at t = 0 the pairs on their surfaces, then at every event point
    while status == DONE:
        if settle_now:
            _series(1, W, v, data, mode, ser)  # g_0: the data weights at the point, from the series' own loss code
            status = settle(t, W, v, ser[3][0], data, mode, roots, x_star, surf, events)
            settle_now = False
            if status != DONE:
                break
        if t >= t_end:
            break
        _series(N, W, v, data, mode, ser)
        step = _step_size(N, tol, W, v, data, mode, ser, sizes)
        if np.isnan(step):
            status = NONFINITE
            break
        remaining = t_end - t
        last = step >= remaining
        if last:
            step = remaining
        if not step > 1e-15 * max(1.0, abs(t)):
            status = STALLED
            break
        x_star = _first_event(step, N, data, mode, ser, roots, coef)
        has_event = x_star <= 1.0
        tau = x_star * step if has_event else step
        t_cut = t + tau if has_event or not last else t_end
        while k_out < times.size and times[k_out] <= t_cut:
            _state_at(A, b, N, min(times[k_out] - t, tau), out_W[k_out], out_v[k_out])
            k_out += 1
        err += max(sizes[N - 1] * tau ** (N - 1), sizes[N] * tau**N) + rounding
        _state_at(A, b, N, tau, W, v)
        steps += 1
        t = t_cut
        null_steps = null_steps + 1 if tau <= 1e-14 * max(1.0, abs(t)) else 0
        if null_steps > 200:
            status = STALLED
            break
        for j in range(h):  # sliding neurons back onto their surfaces; polar: unit directions
            if slide_row[j] >= 0:
                project(W, X, slide_row[j], j, False)
            if polar:
                nrm = row_norm(W, j)
                drift = max(drift, abs(nrm - 1.0))
                for c in range(d):
                    W[j, c] /= nrm
        onsurf = mode[4]
        for j in range(h):  # release the surfaces the pairs have left
            wn = row_norm(W, j)
            for i in range(n):
                if onsurf[i, j] and side[i, j] * preact(X, W, i, j) > surf * xnorm[i] * wn:
                    onsurf[i, j] = False
        settle_now = has_event
    info[0], info[1], info[2], info[3], info[4] = err, steps, events[3][0], t, drift
    return status
