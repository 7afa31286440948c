"""Settling an event point of the float64 Taylor engine (:mod:`taylor64_jit`), compiled.

At an event point (or t = 0) the pairs near their surfaces are settled one line through 0 per neuron (a line of
one row is a pair) by the switching law every engine applies (:func:`switching.resolve_pair`; a line of several
rows by :func:`_resolve_line`, the rule of :func:`switching.resolve_lines` for one line), projected onto their
surface and logged; with alpha = 0 a neuron whose slopes are all 0 and that does not slide is dead. Statuses as
:mod:`taylor64_jit` returns them (the settling's among them).
"""

from __future__ import annotations

import numba
import numpy as np

from verify.dynamics import switching
from verify.dynamics.engine_jit import project_off, row_norm

DONE, CROWDED, NONFINITE, STALLED, FULL, LINE_SLIDES = range(6)  # the statuses of taylor64_jit.run
ROOT_BAND = 1e-14  # the pairs whose roots lie within this of the first one (in units of the step) trigger with it


@numba.njit(cache=True)
def preact(X: np.ndarray, W: np.ndarray, i: int, j: int) -> float:
    """<x_i, w_j>, summed in index order."""
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
def project(W: np.ndarray, X: np.ndarray, i: int, j: int, polar: bool) -> None:
    """In place: w_j onto the surface <x_i, w> = 0 (:func:`engine_jit.project_off`; d > 1: one row spans a 1-d
    space), polar: renormalised."""
    d = X.shape[1]
    if d > 1:
        project_off(W[j], X[i])
    if polar:
        nrm = row_norm(W, j)
        for c in range(d):
            W[j, c] /= nrm


@numba.njit(cache=True)
def _resolve_line(S: np.ndarray, g: np.ndarray, K: np.ndarray, gain: np.ndarray, j: int, r: int,
                  line_rep: np.ndarray, line_sgn: np.ndarray, alpha: float, arrival: int) -> tuple[int, float, bool]:
    """:func:`switching.resolve_lines` for one line of several rows (those with line_rep == r, oriented line_sgn;
    a mirror's slope 1 + alpha - s) alone on its neuron's surfaces: its normal rate d(s) = gamma_j (b + s A) with
    the other rows at their slopes, the mirrors at 1 + alpha; the rules of :func:`switching.resolve_pair` on it.
    (state, slope of the representative, repelling)."""
    b, A, size = 0.0, 0.0, 0.0
    for k in range(g.size):
        fixed = S[k, j]
        if line_rep[k] == r:
            fixed = 1.0 + alpha if line_sgn[k] < 0 else 0.0
            A += line_sgn[k] * g[k] * K[k, r]
        term = fixed * g[k] * K[k, r]
        b += term
        size += abs(term)
    gam = gain[j]
    raw0, raw1 = gam * (b + alpha * A), gam * (b + A)
    tol = switching.D_TOL * abs(gam) * (size + abs(A))
    push = 2.0 * tol + switching.TINY
    d0 = max(raw0, push) if arrival == -1 else raw0
    d1 = min(raw1, -push) if arrival == 1 else raw1
    state, slope = switching.INACTIVE, alpha
    if d0 > tol:
        state, slope = (switching.ACTIVE, 1.0) if d1 >= -tol else (switching.SLIDING, 1.0)
    if state == switching.SLIDING and alpha < 1.0:
        c = -b / A if A != 0.0 else 0.0
        slope = min(max(c, alpha), 1.0)
        if c > 1.0 and arrival != 1:
            state = switching.ACTIVE
        elif c < alpha and arrival != -1:
            state = switching.INACTIVE
    return state, slope, raw0 < -tol and raw1 > tol


@numba.njit(cache=True)
def settle(t: float, W: np.ndarray, v: np.ndarray, g0: np.ndarray, data: tuple, mode: tuple, roots: np.ndarray,
           x_star: float, surf: float, events: tuple) -> int:
    """At an event point (or t = 0): the pairs within tau_ij of their surfaces (a sliding pair among them), on the
    wrong side, or whose root is the step's first (``roots`` within ROOT_BAND of ``x_star``: they arrived by a
    crossing or a sliding exit) are settled, one line through 0 per neuron (else CROWDED; a line of one row is a
    pair), by the switching law with the data weights ``g0`` (the series' order 0 at the point, its own loss
    code): active, inactive, or (a pair) sliding along its surface (M_ij = 0 and the neuron's ``slide_row``, its
    Filippov slope then carried by the series; a line of several rows that slides is LINE_SLIDES), projected onto
    the surface and logged; with alpha = 0 a neuron whose slopes are all 0 and that does not slide is dead."""
    X, y, K, xnorm, sgn, weight, alpha, polar, family, scale, train_v, line_rep, line_sgn = data
    S, M, side, dead, onsurf, slide_row = mode
    n, h = X.shape[0], W.shape[0]
    gain = sgn.copy() if polar else v.copy()
    line = np.full(h, -1)  # per neuron: the representative row of its one line near its surface
    for j in range(h):
        if dead[j]:
            continue
        wn = row_norm(W, j)
        for i in range(n):
            p = preact(X, W, i, j)
            near = (abs(p) <= surf * xnorm[i] * wn or (side[i, j] != 0 and side[i, j] * p <= 0.0)
                    or roots[i, j] <= x_star + ROOT_BAND)
            if near:
                if line[j] >= 0 and line[j] != line_rep[i]:
                    return CROWDED
                line[j] = line_rep[i]
    for j in range(h):
        r = line[j]
        if r < 0:
            continue
        arrival, members, hit = 0, 0, False  # the line arrives as its first row that crossed, oriented
        for i in range(n):
            if line_rep[i] == r:
                members += 1
                if not hit and roots[i, j] <= x_star + ROOT_BAND:
                    arrival, hit = side[i, j] * int(line_sgn[i]), True
        if members == 1:
            state, slope, rep = switching.resolve_pair(S, g0, K, gain, r, j, alpha, arrival)
        else:
            state, slope, rep = _resolve_line(S, g0, K, gain, j, r, line_rep, line_sgn, alpha, arrival)
            if state == switching.SLIDING:
                return LINE_SLIDES
        project(W, X, r, j, polar)
        for i in range(n):
            if line_rep[i] != r:
                continue
            own, row_slope = state, slope
            if line_sgn[i] < 0:  # a mirror row: the other side of the line's surface
                own = switching.INACTIVE if state == switching.ACTIVE else switching.ACTIVE
                row_slope = 1.0 + alpha - slope
            kind, direction = switching.event_code(side[i, j], own, roots[i, j] <= x_star + ROOT_BAND, rep)
            if kind != switching.NO_EVENT and not _log(*events, t, i, j, kind, direction):
                return FULL
            S[i, j] = row_slope
            side[i, j] = 0 if own == switching.SLIDING else (1 if own == switching.ACTIVE else -1)
            M[i, j] = 0.0 if own == switching.SLIDING else row_slope
            onsurf[i, j] = True
        slide_row[j] = r if state == switching.SLIDING else -1
    if alpha == 0.0 and not _dead_columns(S, dead, slide_row, t, events):
        return FULL
    return DONE
