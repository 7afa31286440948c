"""Compiled (numba) step-to-next-event loop of the float64 event engine.

:func:`run` makes the iterations of :meth:`engine.Engine.iterate` -- a trial step (3(2), 5(4) or DOP853, with
its dense output), the error test and the step-size controller (:mod:`control`: the same choice of pair), the crossing scan, the samples on the
dense output, the move to an event point, re-arming, the settling of the crossing pairs and the slope
refresh -- inside one compiled call, for as long as the run stays on the common path:

- a built-in loss, and sliding pairs (if any) each alone on its neuron and its line through 0: their Filippov
  slopes are recomputed at every stage (``slide``, as :mod:`rk_jit` takes it), they are projected back onto their
  surfaces after every step and the slope refreshed with them (:meth:`engine.Engine.post_step`);
- every step's candidates are monotone on the step (no "hard" pair for :func:`crossings.hard_candidates`), and no
  sliding slope leaves [alpha - tol, 1 + tol] at the exit search's nodes (:func:`_slides_out`; Python locates
  the exit);
- at an event point every pair near its surface is the only one of its neuron and of its line through 0,
  and crosses or grazes (:func:`switching.resolve_pair` says ACTIVE or INACTIVE, not SLIDING; a sliding pair is
  near its surface, so an event point while one slides is settled in Python).

It stops and hands back to Python (the reference, :meth:`engine.Engine.iterate`) with a status:
``DONE`` (s reached s_end), ``PY_STEP`` (nothing done in this iteration: Python takes the step: a hard
candidate, a sliding exit, or a step size below the floor, which Python reports), ``SETTLE`` (at an event point,
after re-arming: Python settles ``pairs``), ``CHATTER`` (no progress past event points), ``FLUSH`` (the event
buffer needs emptying) or ``CHECKPOINT`` (a progress report is due). The state vectors and the mode
arrays are updated in place; scalars travel in ``fs`` = [s, step, err_sum, u_norm_drift, own (3), lim, gap, s_event]
(the last six: :class:`control.Cursor`'s memory for the choice of pair) and ``ks`` =
[k (next sample), rejected, null_restarts, calm, n_events, pair of the last trial], counters in ``stats``
(``STAT_*``).
It calls the kernels the Python iteration calls (steps, controller, scan, dense output, re-arming, the switching
law, the projection), so both take the same steps to rounding (Python's products at an event point go through BLAS).
In log time (``land``) every step ends on the next sample time, as in Python (:mod:`engine`, "Samples").
:func:`run` allocates the run's scratch and :func:`_iterate` makes the iterations in it, without numba's runtime
(``field_jit.UNCOUNTED``: no reference counts, nothing allocated per step or per event point).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from verify.dynamics import engine_jit, filippov_jit, rk_jit, scan, switching
from verify.dynamics.control import DOP853, accepted_sizes, mean_gap, propose
from verify.dynamics.field_jit import COUNTED, UNCOUNTED, data_weights_into, output_factors_into, preact_any_into
from verify.dynamics.forms import UNIT_NORM_TOL
from verify.dynamics.stepper import MIN_STEP_REL, ORDER, next_size

DONE, PY_STEP, SETTLE, CHATTER, FLUSH, CHECKPOINT = 0, 1, 2, 3, 4, 5
STAT_STEPS, STAT_RK23, STAT_RK45, STAT_REJECTED, STAT_RHS, STAT_RESTARTS, STAT_NONUNIQUE, STAT_SLIDING = range(8)


@numba.njit(cache=True, inline="always")
def _block(z: np.ndarray, lo: int, h: int, d: int) -> np.ndarray:
    """The neuron vectors v_j (w_j or u_j) as an (h, d) view of z."""
    return z[lo : lo + h * d].reshape(h, d)


@numba.njit(cache=True)
def _log(ev_t, ev_ij, ev_kd, ks, t: float, i: int, j: int, kind: int, direction: int) -> None:
    n = ks[4]
    ev_t[n] = t
    ev_ij[n, 0], ev_ij[n, 1] = i, j
    ev_kd[n, 0], ev_kd[n, 1] = kind, direction
    ks[4] = n + 1


@numba.njit(cache=True, inline="always")
def _onto_surface(z: np.ndarray, base: int, d: int, x: np.ndarray, polar: bool) -> None:
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
def _any_slope(S: np.ndarray, j: int) -> bool:
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
    V = _block(z, lo, h, d)
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
        _onto_surface(z, lo + j * d, d, X[i], polar)
        kind, direction = switching.event_code(side[i, j], state[j], trig[i, j], rep[j])
        if kind != switching.NO_EVENT:
            _log(ev_t, ev_ij, ev_kd, ks, t, i, j, kind, direction)
        if rep[j]:
            stats[STAT_NONUNIQUE] += 1
        S[i, j] = slope[j]
        side[i, j] = 1 if state[j] == switching.ACTIVE else -1
        armed[i, j] = False
    if alpha == 0.0:
        for j in range(h):
            if row[j] < 0 or dead[j]:
                continue
            if not _any_slope(S, j):
                dead[j] = True
                _log(ev_t, ev_ij, ev_kd, ks, t, -1, j, switching.EV_DEAD, 0)
    return True


@numba.njit(cache=True, **COUNTED)
def _slides_out(z, F, nodes, S, slide, slide_tol, X, y, sgn, r_ref, h: int, d: int, loss: int, polar: bool) -> bool:
    """Whether a sliding pair's slope leaves [alpha - tol, 1 + tol] at one of the step's ``nodes`` (the exit search's
    screen, :meth:`detect.Detection.sliding_exit`: the Python step locates the exit)."""
    alpha = slide[3]
    C = filippov_jit.node_slopes(z, F, nodes, S, slide, X, y, sgn, r_ref, h, d, loss, polar)
    for k in range(C.shape[0]):
        for p in range(C.shape[1]):
            if C[k, p] < alpha - slide_tol[p] or C[k, p] > 1.0 + slide_tol[p]:
                return True
    return False


@numba.njit(cache=True)
def run(fs, ks, stats, z, f, out, s_grid, s_end: float, max_step: float, rtol: float, step_rtol, atol, per_neuron: bool,
        S, side, armed, dead, slide_ii, slide_jj, slide_tol, X, xnorm, K, y, sgn, r_ref, alpha: float, loss: int,
        train_v: bool, polar: bool, log_time: bool, land: bool, shared_line, lo: int, h: int, d: int,
        surface_tol: float, max_null: int, checkpoint: int, ev_t, ev_ij, ev_kd, pairs_out, tabs_low, low_order, tab853,
        dense853, cheb, der, nodes):
    """Iterate until a status (module docstring); returns (status, number of rows of ``pairs_out`` set). Allocates the
    run's scratch (nothing is allocated per step) and hands it to :func:`_iterate`."""
    n, N = X.shape[0], z.size
    work = rk_jit.step_workspace(n, d, h, N)  # scratch and results of the steps
    z_new, f_new, F, tol_abs = np.empty(N), np.empty(N), np.empty((7, N)), atol.copy()  # F: the dense matrix
    E0, VT = np.empty((n, h)), np.empty((d, h))
    scan_work, settle_work = scan.scan_workspace(n, h), settle_workspace(n, h, d)
    return _iterate(fs, ks, stats, z, f, out, s_grid, s_end, max_step, rtol, step_rtol, tol_abs, per_neuron, S, side,
                    armed, dead, slide_ii, slide_jj, slide_tol, X, xnorm, K, y, sgn, r_ref, alpha, loss, train_v, polar,
                    log_time, land, shared_line, lo, h, d, surface_tol, max_null, checkpoint, ev_t, ev_ij, ev_kd,
                    pairs_out, tabs_low, low_order, tab853, dense853, cheb, der, nodes, work, z_new, f_new, F, E0, VT,
                    scan_work, settle_work)


@numba.njit(cache=True, **UNCOUNTED)
def _iterate(fs, ks, stats, z, f, out, s_grid, s_end: float, max_step: float, rtol: float, step_rtol, tol_abs,
             per_neuron: bool, S, side, armed, dead, slide_ii, slide_jj, slide_tol, X, xnorm, K, y, sgn, r_ref,
             alpha: float, loss: int, train_v: bool, polar: bool, log_time: bool, land: bool, shared_line, lo: int,
             h: int, d: int, surface_tol: float, max_null: int, checkpoint: int, ev_t, ev_ij, ev_kd, pairs_out, tabs_low,
             low_order, tab853, dense853, cheb, der, nodes, work, z_new, f_new, F, E0, VT, scan_work, settle_work):
    """The loop of :func:`run` in its scratch (``tol_abs``: atol, overwritten per step when ``per_neuron``), without
    numba's runtime (``UNCOUNTED``: no reference counts on the views it makes at every step; its callees compile so
    too, except those that say ``COUNTED``: the BLAS products, the sliding pairs' Filippov slopes and the sliding
    screen, which allocate). ``own``, the controller's memory, is kept in ``fs`` itself."""
    n, N = X.shape[0], z.size
    slide = (slide_ii, slide_jj, K, alpha)  # the sliding pairs, each alone on its neuron and line (may be none)
    sliding = slide_ii.size > 0
    A8, B8, C8, E3, E8 = tab853
    AX, CX, DX = dense853
    s, step, err_sum, drift = fs[0], fs[1], fs[2], fs[3]
    own = fs[4:7]
    lim, gap, s_event = fs[7], fs[8], fs[9]
    k, rejected, null_restarts, calm, last_pair = ks[0], ks[1] != 0, ks[2], ks[3], ks[5]
    n_times = s_grid.size
    accepted = 0
    status, n_pairs = DONE, 0
    while s < s_end:
        if accepted >= checkpoint > 0:
            status = CHECKPOINT
            break
        if ks[4] + n * h + h > ev_t.size:
            status = FLUSH
            break
        pair, proposed = propose(gap, s, s_event, own, calm, step, last_pair, lim)
        target = s_grid[k] if land and k < n_times else s_end
        last = proposed >= target - s
        if not last and not proposed >= MIN_STEP_REL * max(1.0, abs(s)):
            status = PY_STEP
            break
        hs = target - s if last else proposed
        order = low_order[pair] if pair < DOP853 else ORDER
        if per_neuron:
            engine_jit.neuron_size_into(tol_abs, z, h, d, 1e-300)
            for p in range(N):
                tol_abs[p] = rtol * tol_abs[p]
        if pair < DOP853:
            AL, BL, CL, EL, DL = tabs_low[pair]
            err = rk_jit.low_step_into(z_new, f_new, F, work, s, z, f, hs, step_rtol, tol_abs, S, X, y, sgn, r_ref, h,
                                       d, loss, train_v, polar, log_time, slide, AL, BL, CL, EL, DL)
            evals = BL.size
        else:
            err = rk_jit.dop853_step_into(z_new, f_new, work, s, z, f, hs, step_rtol, tol_abs, S, X, y, sgn, r_ref, h,
                                          d, loss, train_v, polar, log_time, slide, A8, B8, C8, E3, E8)
            evals = B8.size
        if not np.isfinite(err) or err >= 1.0:
            step = next_size(hs, err if np.isfinite(err) else 1e10, rejected, order)
            own[pair], last_pair = step, pair
            rejected = True
            stats[STAT_REJECTED] += 1
            stats[STAT_RHS] += evals
            stats[STAT_SLIDING] += evals if sliding else 0
            continue
        if pair == DOP853:
            rk_jit.dop853_dense_into(F, work, s, z, f, z_new, f_new, hs, S, X, y, sgn, r_ref, h, d, loss, train_v,
                                     polar, log_time, slide, AX, CX, DX)
            evals += CX.size
        preact_any_into(E0, VT, X, z, lo, h)
        xq, qi, qj, n_start, n_hard = scan.scan_step_into(scan_work, z, F, lo, h, E0, X, xnorm, side, armed, dead,
                                                          surface_tol, cheb, der)
        if (n_hard and not n_start) or (
                sliding and _slides_out(z, F, nodes, S, slide, slide_tol, X, y, sgn, r_ref, h, d, loss, polar)):
            status = PY_STEP
            break
        stats[STAT_RHS] += evals
        stats[STAT_SLIDING] += evals if sliding else 0
        if pair < DOP853:
            stats[STAT_RK23 + pair] += 1
        x_ev = np.inf
        if n_start:
            x_ev = 0.0
            n_pairs = n_start
            starts = scan_work[7]
            for p in range(n_start):
                pairs_out[p, 0], pairs_out[p, 1] = starts[p, 0], starts[p, 1]
        elif qi >= 0:
            x_ev = xq
            n_pairs = 1
            pairs_out[0, 0], pairs_out[0, 1] = qi, qj
        s_cut = target if (last and x_ev > 1.0) else s + min(x_ev, 1.0) * hs
        while k < n_times and s_grid[k] <= s_cut:
            engine_jit.dense_point_into(out[k], z, F, min(max((s_grid[k] - s) / hs, 0.0), 1.0))
            k += 1
        stats[STAT_STEPS] += 1
        accepted += 1
        err_sum += err * rtol
        h_next, own[pair], lim = accepted_sizes(hs, err, rejected, order, proposed, last and hs < proposed, max_step,
                                                x_ev)
        last_pair, rejected = pair, False
        calm = 0 if x_ev <= 1.0 else calm + 1
        if x_ev <= 1.0:
            engine_jit.dense_point_into(z_new, z, F, x_ev)
            for p in range(N):
                z[p] = z_new[p]
            s = s + x_ev * hs
            gap, s_event = mean_gap(gap, s - s_event), s
            null_restarts = null_restarts + 1 if x_ev * hs <= 1e-14 * max(1.0, abs(s)) else 0
            step = h_next
            if null_restarts > max_null:
                status = CHATTER
                break
            engine_jit.rearm(armed, side, X, _block(z, lo, h, d), xnorm, surface_tol)
            t = math.expm1(s) if log_time else s
            if not settle_simple_into(settle_work, t, z, pairs_out[:n_pairs], S, side, armed, dead, X, xnorm, K, y,
                                      sgn, r_ref, alpha, loss, polar, shared_line, lo, h, d, surface_tol, ev_t, ev_ij,
                                      ev_kd, ks, stats):
                status = SETTLE
                break
            n_pairs = 0
            stats[STAT_RESTARTS] += 1
            refresh = True
        else:
            for p in range(N):
                z[p] = z_new[p]
            s = target if last else s + hs
            step = h_next
            engine_jit.rearm(armed, side, X, _block(z, lo, h, d), xnorm, surface_tol)
            refresh = sliding
            for p in range(slide_ii.size):  # sliding pairs back onto their surfaces (Engine.post_step)
                _onto_surface(z, lo + slide_jj[p] * d, d, X[slide_ii[p]], polar)
            if polar:
                worst = 0.0
                for j in range(h):
                    worst = max(worst, abs(engine_jit.block_norm(z, h + j * d, d) - 1.0))
                drift = max(drift, worst)
                if worst > UNIT_NORM_TOL:
                    for j in range(h):
                        engine_jit.normalise_block(z, h + j * d, d)
                    refresh = True
            if not refresh:
                for p in range(N):
                    f[p] = f_new[p]
        if refresh:  # the slope at the new point: z moved off the step's end (event point, projection, renormalised)
            rk_jit.stage_rhs(f, s, z, S, slide, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time, work)
            stats[STAT_RHS] += 1
            stats[STAT_SLIDING] += 1 if sliding else 0
    fs[0], fs[1], fs[2], fs[3] = s, step, err_sum, drift
    fs[7], fs[8], fs[9] = lim, gap, s_event
    ks[0], ks[1], ks[2], ks[3], ks[5] = k, int(rejected), null_restarts, calm, last_pair
    return status, n_pairs
