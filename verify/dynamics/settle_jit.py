"""Compiled (numba) settling of the simple event points of the float64 engine's compiled loop (:mod:`loop_jit`).

:func:`settle_simple_into` is :meth:`settle.Settling.settle` for an event point where every pair near its surface is
alone on its neuron and its line through 0 and crosses or grazes (no sliding): it projects each onto its surface,
sets its side and slope by the switching law (:func:`switching.resolve_pair`), logs the event into the run's event
buffer (:func:`log_event`) and freezes dead neurons (alpha = 0); otherwise it declines and Python settles. The
counters of a compiled run (``STAT_*``, the layout of its ``stats`` array) are defined here.
"""

from __future__ import annotations

import numba
import numpy as np

from verify.dynamics import engine_jit, switching
from verify.dynamics.field_jit import UNCOUNTED, data_weights_into, output_factors_into, preact_any_into

STAT_STEPS, STAT_RK23, STAT_RK45, STAT_REJECTED, STAT_RHS, STAT_RESTARTS, STAT_NONUNIQUE, STAT_SLIDING = range(8)


@numba.njit(cache=True, inline="always")
def neuron_block(z: np.ndarray, lo: int, h: int, d: int) -> np.ndarray:
    """The neuron vectors v_j (w_j or u_j) as an (h, d) view of z."""
    return z[lo : lo + h * d].reshape(h, d)


@numba.njit(cache=True)
def log_event(ev_t, ev_ij, ev_kd, ks, t: float, i: int, j: int, kind: int, direction: int) -> None:
    n = ks[4]
    ev_t[n] = t
    ev_ij[n, 0], ev_ij[n, 1] = i, j
    ev_kd[n, 0], ev_kd[n, 1] = kind, direction
    ks[4] = n + 1


@numba.njit(cache=True, inline="always")
def onto_surface(z: np.ndarray, base: int, d: int, x: np.ndarray, polar: bool) -> None:
    """In place: the neuron vector z[base : base + d] onto the surface <x, v> = 0 (:func:`engine_jit.project_off`;
    with d = 1 one row spans the space: no projection, as forms._remove_span), renormalised in polar form."""
    if d > 1:
        engine_jit.project_off(z[base : base + d], x)
    if polar:
        engine_jit.normalise_block(z, base, d)


@numba.njit(cache=True)
def settle_workspace(n: int, h: int, d: int) -> tuple:
    """Scratch of :func:`settle_simple_into`: (P (n, h), V^T (d, h), near (n, h), near columns (h,), triggered
    (n, h), row (h,), ||v_j|| (h,), g (n,), output factors a (h,), gains (h,), state (h,), slope (h,), repelling
    (h,))."""
    return (np.empty((n, h)), np.empty((d, h)), np.empty((n, h), np.bool_), np.empty(h, np.bool_),
            np.empty((n, h), np.bool_), np.empty(h, np.int64), np.empty(h), np.empty(n), np.empty(h), np.empty(h),
            np.empty(h, np.int64), np.empty(h), np.empty(h, np.bool_))


@numba.njit(cache=True)
def settle_simple(t: float, z: np.ndarray, pairs: np.ndarray, S: np.ndarray, side: np.ndarray, armed: np.ndarray,
                  dead: np.ndarray, X: np.ndarray, xnorm: np.ndarray, K: np.ndarray, y: np.ndarray, sgn: np.ndarray,
                  r_ref: np.ndarray, alpha: float, loss: int, polar: bool, shared_line: np.ndarray, lo: int, h: int,
                  d: int, surface_tol: float, ev_t, ev_ij, ev_kd, ks, stats) -> bool:
    """:func:`settle_simple_into` in new scratch."""
    return settle_simple_into(settle_workspace(X.shape[0], h, d), t, z, pairs, S, side, armed, dead, X, xnorm, K, y,
                              sgn, r_ref, alpha, loss, polar, shared_line, lo, h, d, surface_tol, ev_t, ev_ij, ev_kd,
                              ks, stats)


@numba.njit(cache=True, inline="always")
def any_slope(S: np.ndarray, j: int) -> bool:
    """Some S_ij != 0 in column j (numpy's ``np.any(S[:, j] != 0.0)``, without the temporary)."""
    for i in range(S.shape[0]):
        if S[i, j] != 0.0:
            return True
    return False


@numba.njit(cache=True, **UNCOUNTED)
def settle_simple_into(work: tuple, t: float, z: np.ndarray, pairs: np.ndarray, S: np.ndarray, side: np.ndarray,
                       armed: np.ndarray, dead: np.ndarray, X: np.ndarray, xnorm: np.ndarray, K: np.ndarray,
                       y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, alpha: float, loss: int, polar: bool,
                       shared_line: np.ndarray, lo: int, h: int, d: int, surface_tol: float, ev_t, ev_ij, ev_kd, ks,
                       stats) -> bool:
    """:meth:`settle.Settling.settle` when every near-surface pair is alone on its neuron and line and does not
    slide: project each onto its surface, set its side and slope (:func:`switching.resolve_pair`), log, then
    freeze dead neurons (alpha = 0). False, with nothing changed, when the case is not that simple. ``work``:
    :func:`settle_workspace` (nothing allocated: ``UNCOUNTED``)."""
    n = X.shape[0]
    P, VT, near, anycol, trig, row, vnorm, g, a, gain, state, slope, rep = work
    V = neuron_block(z, lo, h, d)
    preact_any_into(P, VT, X, z, lo, h)
    for j in range(h):
        vnorm[j] = engine_jit.row_norm(V, j)
    engine_jit.near_surface_into(near, anycol, P, xnorm, vnorm, side, dead, surface_tol)
    for i in range(n):
        for j in range(h):
            trig[i, j] = False
    for p in range(pairs.shape[0]):
        i, j = pairs[p, 0], pairs[p, 1]
        near[i, j] = anycol[j] = trig[i, j] = True
    for j in range(h):
        row[j] = -1
    for j in range(h):
        if not anycol[j]:
            continue
        for i in range(n):
            if near[i, j]:
                if row[j] >= 0 or shared_line[i]:
                    return False
                row[j] = i
    output_factors_into(a, z, sgn, r_ref, h, d, polar)
    data_weights_into(g, P, S, a, y, loss)  # P, done with, becomes S * P
    for j in range(h):
        gain[j] = sgn[j] if polar else z[h * d + j]
        rep[j] = False
    for j in range(h):
        if row[j] < 0:
            continue
        i = row[j]
        arrival = side[i, j] if trig[i, j] else 0
        state[j], slope[j], rep[j] = switching.resolve_pair(S, g, K, gain, i, j, alpha, arrival)
        if state[j] == switching.SLIDING:
            return False
    for j in range(h):
        if row[j] < 0:
            continue
        i = row[j]
        onto_surface(z, lo + j * d, d, X[i], polar)
        kind, direction = switching.event_code(side[i, j], state[j], trig[i, j], rep[j])
        if kind != switching.NO_EVENT:
            log_event(ev_t, ev_ij, ev_kd, ks, t, i, j, kind, direction)
        if rep[j]:
            stats[STAT_NONUNIQUE] += 1
        S[i, j] = slope[j]
        side[i, j] = 1 if state[j] == switching.ACTIVE else -1
        armed[i, j] = False
    if alpha == 0.0:
        for j in range(h):
            if row[j] < 0 or dead[j]:
                continue
            if not any_slope(S, j):
                dead[j] = True
                log_event(ev_t, ev_ij, ev_kd, ks, t, -1, j, switching.EV_DEAD, 0)
    return True
