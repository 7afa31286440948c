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
   (:func:`_settle`): each neuron with a pair near its surface has one such pair, which the switching law
   (:func:`switching.resolve_pair`) sends active, inactive or sliding; it is projected onto its surface (polar: u_j
   renormalised) and logged; with alpha = 0 a neuron whose slopes are all 0 and that does not slide is dead.
   After every step sliding neurons are projected back onto their surfaces.

Anything else ends the run with a status other than DONE (:data:`REASONS`): two near pairs on one neuron (rows
on one line through 0, two sliding rows, a neuron at w_j = 0), a non-finite coefficient, a step that stops
advancing, a full event buffer. The caller then uses the mp backend, which continues through all of them.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from verify.dynamics import switching
from verify.dynamics.engine_jit import row_norm
from verify.dynamics.mp.series_jit import extend
from verify.dynamics.taylor64_roots import first_root

DONE, CROWDED, NONFINITE, STALLED, FULL = range(5)
REASONS = ("", "several pairs of one neuron meet their surfaces at one point",
           "a series coefficient is not finite", "the steps stop advancing", "the event buffer is full")
ROOT_BAND = 1e-14  # the pairs whose roots lie within this of the first one (in units of the step) trigger with it
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
def _preact(X: np.ndarray, W: np.ndarray, i: int, j: int) -> float:
    acc = 0.0
    for c in range(X.shape[1]):
        acc += X[i, c] * W[j, c]
    return acc


@numba.njit(cache=True)
def _log(ev_t, ev_ij, ev_kd, count: np.ndarray, t: float, i: int, j: int, kind: int, direction: int) -> bool:
    """Append one event; False when the buffer is full."""
    p = count[0]
    if p >= ev_t.size:
        return False
    ev_t[p] = t
    ev_ij[p, 0], ev_ij[p, 1] = i, j
    ev_kd[p, 0], ev_kd[p, 1] = kind, direction
    count[0] = p + 1
    return True


@numba.njit(cache=True)
def _dead_columns(S: np.ndarray, dead: np.ndarray, slide_row: np.ndarray, t: float, events: tuple) -> bool:
    """alpha = 0: mark and log each live neuron whose slopes are all 0 and that does not slide; False when the
    buffer is full."""
    n, h = S.shape
    for j in range(h):
        if dead[j] or slide_row[j] >= 0:
            continue
        live = False
        for i in range(n):
            live = live or S[i, j] != 0.0
        if not live:
            dead[j] = True
            if not _log(*events, t, -1, j, switching.EV_DEAD, 0):
                return False
    return True


@numba.njit(cache=True)
def _series(k1: int, W: np.ndarray, v: np.ndarray, data: tuple, mode: tuple, ser: tuple) -> None:
    """The state's Taylor coefficients to order k1 from (W, v) in the current mode (:func:`series_jit.extend`)."""
    X, y, K, xnorm, sgn, weight, alpha, polar, family, scale, train_v = data
    S, M, side, dead, onsurf, slide_row = mode
    A, b, G, g, f, aux, ex, q, cc, inv0, ka, E, kb, rho, ys = ser
    A[0], b[0] = W, v
    extend(0, k1, polar, family, scale, train_v, X, y, M, weight, sgn, A, b, G, g, f, aux, ex, q, cc, inv0, ka, E, kb,
           rho, slide_row, ys)


@numba.njit(cache=True)
def _project(W: np.ndarray, X: np.ndarray, K: np.ndarray, i: int, j: int, polar: bool) -> None:
    """In place: w_j onto the surface <x_i, w> = 0 (d > 1; one row spans a 1-d space), polar: renormalised."""
    d = X.shape[1]
    if d > 1:
        c0 = _preact(X, W, i, j) / K[i, i]
        for c in range(d):
            W[j, c] -= c0 * X[i, c]
    if polar:
        nrm = row_norm(W, j)
        for c in range(d):
            W[j, c] /= nrm


@numba.njit(cache=True)
def _settle(t: float, W: np.ndarray, v: np.ndarray, data: tuple, mode: tuple, ser: tuple, roots: np.ndarray,
            x_star: float, surf: float, events: tuple) -> int:
    """At an event point (or t = 0): the pairs within tau_ij of their surfaces (a sliding pair among them), on the
    wrong side, or whose root is the step's first (``roots`` within ROOT_BAND of ``x_star``: they arrived by a
    crossing or a sliding exit) are settled, one per neuron (else CROWDED), by the switching law with the data
    weights of the series' own loss code (order 0 at the point): active, inactive, or sliding along its surface
    (M_ij = 0 and the neuron's ``slide_row``, its Filippov slope then carried by the series), projected onto the
    surface and logged; with alpha = 0 a neuron whose slopes are all 0 and that does not slide is dead."""
    X, y, K, xnorm, sgn, weight, alpha, polar, family, scale, train_v = data
    S, M, side, dead, onsurf, slide_row = mode
    g = ser[3]
    n, h = X.shape[0], W.shape[0]
    _series(1, W, v, data, mode, ser)
    gain = sgn.copy() if polar else v.copy()
    row = np.full(h, -1)
    for j in range(h):
        if dead[j]:
            continue
        wn = row_norm(W, j)
        for i in range(n):
            p = _preact(X, W, i, j)
            near = (abs(p) <= surf * xnorm[i] * wn or (side[i, j] != 0 and side[i, j] * p <= 0.0)
                    or roots[i, j] <= x_star + ROOT_BAND)
            if near:
                if row[j] >= 0:
                    return CROWDED
                row[j] = i
    for j in range(h):
        i = row[j]
        if i < 0:
            continue
        trig = roots[i, j] <= x_star + ROOT_BAND
        state, slope, rep = switching.resolve_pair(S, g[0], K, gain, i, j, alpha, side[i, j] if trig else 0)
        _project(W, X, K, i, j, polar)
        kind, direction = switching.event_code(side[i, j], state, trig, rep)
        if kind != switching.NO_EVENT and not _log(*events, t, i, j, kind, direction):
            return FULL
        S[i, j] = slope
        side[i, j] = 0 if state == switching.SLIDING else (1 if state == switching.ACTIVE else -1)
        M[i, j] = 0.0 if state == switching.SLIDING else slope
        slide_row[j] = i if state == switching.SLIDING else -1
        onsurf[i, j] = True
    if alpha == 0.0 and not _dead_columns(S, dead, slide_row, t, events):
        return FULL
    return DONE


@numba.njit(cache=True)
def _first_event(step: float, N: int, data: tuple, mode: tuple, ser: tuple, roots: np.ndarray,
                 coef: np.ndarray) -> float:
    """The first root x in [0, 1] over the step of every watched pair's event polynomial (``roots`` per pair, inf
    for none) and of each sliding pair's exit functions sg (g_i - y) and sg (y - alpha g_i) (sg = sign g_i(0), each
    raised by SLIDE_SLACK |g_i(0)|, as the mp backend's), or inf."""
    X, y, K, xnorm, sgn, weight, alpha, polar, family, scale, train_v = data
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
            if side[i, j] == 0:
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
    X, y, K, xnorm, sgn, weight, alpha, polar, family, scale, train_v = data
    S, M, side, dead, onsurf, slide_row = mode
    A, b, g = ser[0], ser[1], ser[3]
    h, d = W.shape
    n = X.shape[0]
    for k in range(N + 1):
        big = 0.0
        for j in range(h):
            sj = 1.0
            if not polar:
                sj = math.sqrt(row_norm(W, j) ** 2 + v[j] * v[j])
                sj = sj if sj > 0.0 else 1.0
            for c in range(d):
                big = max(big, abs(A[k, j, c]) / sj)
            big = max(big, abs(b[k, j]) / sj)
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
        order: int, tol: float, surf: float, out_W: np.ndarray, out_v: np.ndarray, ev_t: np.ndarray,
        ev_ij: np.ndarray, ev_kd: np.ndarray, info: np.ndarray) -> int:
    """Integrate from (W0, v0) (polar: (U0, r0)) in mode (S, side) to times[-1]; the states at ``times`` into
    out_W, out_v. ``info`` receives [error estimate (relative, the tail terms and rounding per step), steps,
    events logged, the time reached, | ||u|| - 1 | seen before renormalisation]. Returns a status (module
    docstring)."""
    n, d = X.shape
    h = W0.shape[0]
    N = order
    W, v = W0.copy(), v0.copy()
    K = X @ X.T
    xnorm = np.empty(n)
    for i in range(n):
        xnorm[i] = math.sqrt(K[i, i])
    data = (X, y, K, xnorm, sgn, sgn.copy() if polar else np.ones(h), alpha, polar, family, scale, train_v)
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
            status = _settle(t, W, v, data, mode, ser, roots, x_star, surf, events)
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
                _project(W, X, K, slide_row[j], j, False)
            if polar:
                nrm = row_norm(W, j)
                drift = max(drift, abs(nrm - 1.0))
                for c in range(d):
                    W[j, c] /= nrm
        onsurf = mode[4]
        for j in range(h):  # release the surfaces the pairs have left
            wn = row_norm(W, j)
            for i in range(n):
                if onsurf[i, j] and side[i, j] * _preact(X, W, i, j) > surf * xnorm[i] * wn:
                    onsurf[i, j] = False
        settle_now = has_event
    info[0], info[1], info[2], info[3], info[4] = err, steps, events[3][0], t, drift
    return status
