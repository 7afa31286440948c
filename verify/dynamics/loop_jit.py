"""Compiled (numba) step-to-next-event loop of the float64 event engine.

:func:`run` makes the iterations of :meth:`engine.Engine.iterate` -- a trial step (3(2), 5(4) or DOP853, with
its dense output), the error test and the step-size controller (:mod:`control`: the same choice of pair), the crossing scan, the samples on the
dense output, the move to an event point, re-arming, the settling of the crossing pairs (:mod:`settle_jit`) and the
slope refresh -- inside one compiled call, for as long as the run stays on the common path:

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
buffer needs emptying) or ``CHECKPOINT`` (a progress report is due). A run's first call (``start``,
:meth:`loop.CompiledLoop.first`) makes the run's start first (:func:`_start`: the mode, the slope, the first step
size), or returns ``PY_START`` when Python must start (a pair on its surface at t = 0). The state vectors and the mode
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
from verify.dynamics.field_jit import COUNTED, UNCOUNTED, preact_any_into
from verify.dynamics.forms import UNIT_NORM_TOL
from verify.dynamics.settle_jit import (STAT_REJECTED, STAT_RESTARTS, STAT_RHS, STAT_RK23, STAT_SLIDING, STAT_STEPS,
                                        any_slope, log_event, neuron_block, onto_surface, settle_simple_into,
                                        settle_workspace)
from verify.dynamics.stepper import MIN_STEP_REL, ORDER, first_guess, next_size, starting_step

DONE, PY_STEP, SETTLE, CHATTER, FLUSH, CHECKPOINT, PY_START = 0, 1, 2, 3, 4, 5, 6


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


@numba.njit(cache=True, inline="always")
def _neuron_atol(tol_abs: np.ndarray, z: np.ndarray, rtol: float, h: int, d: int) -> None:
    """In place: the Cartesian default atol, rtol times each component's neuron size (:meth:`engine.Engine.atol_of`)."""
    engine_jit.neuron_size_into(tol_abs, z, h, d, 1e-300)
    for p in range(z.size):
        tol_abs[p] = rtol * tol_abs[p]


@numba.njit(cache=True)
def _start(fs, stats, z, f, z1, f1, S, side, dead, X, xnorm, y, sgn, r_ref, alpha: float, loss: int, train_v: bool,
           polar: bool, log_time: bool, lo: int, h: int, d: int, surface_tol: float, s_end: float, max_step: float,
           step_rtol, tol_abs, E0, VT, work, ev_t, ev_ij, ev_kd, ks) -> bool:
    """A run's start at s = fs[0] (Python's: :meth:`engine.Engine.start`) when no pair is within tau_ij of its surface:
    the mode, the slope ``f``, the first step size (fs[1] unless NaN: :func:`stepper.first_guess`,
    :func:`stepper.starting_step`) at most ``max_step``, then (alpha = 0) the dead neurons, logged. False, nothing
    logged, when Python starts (a pair on its surface, a slope not finite, a first guess that underflows)."""
    s, n = fs[0], X.shape[0]
    preact_any_into(E0, VT, X, z, lo, h)
    for j in range(h):
        vn = engine_jit.row_norm(neuron_block(z, lo, h, d), j)
        for i in range(n):
            if abs(E0[i, j]) <= surface_tol * xnorm[i] * vn:
                return False
            S[i, j], side[i, j] = (1.0, 1) if E0[i, j] > 0.0 else (alpha, -1)
    slide = (np.empty(0, np.int64), np.empty(0, np.int64), E0, alpha)  # no sliding pair
    rk_jit.stage_rhs(f, s, z, S, slide, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time, work)
    if not np.isfinite(f).all():
        return False
    step, evals = fs[1], 1
    if math.isnan(step):
        h0, d1 = first_guess(z, f, step_rtol, tol_abs)
        if h0 < s_end - s and not h0 >= MIN_STEP_REL * max(1.0, abs(s)):
            return False
        h0 = min(h0, s_end - s)
        for p in range(z.size):
            z1[p] = z[p] + h0 * f[p]
        rk_jit.stage_rhs(f1, s + h0, z1, S, slide, X, y, sgn, r_ref, h, d, loss, train_v, polar, log_time, work)
        step, evals = starting_step(z, f, f1, step_rtol, tol_abs, h0, d1, s_end - s), 2
    fs[1] = min(step, max_step)
    stats[STAT_RHS] += evals
    for j in range(h):
        if alpha == 0.0 and not any_slope(S, j):
            dead[j] = True
            log_event(ev_t, ev_ij, ev_kd, ks, math.expm1(s) if log_time else s, -1, j, switching.EV_DEAD, 0)
    return True


@numba.njit(cache=True)
def run(fs, ks, stats, z, f, out, s_grid, s_end: float, max_step: float, rtol: float, step_rtol, atol, per_neuron: bool,
        S, side, armed, dead, slide_ii, slide_jj, slide_tol, X, xnorm, K, y, sgn, r_ref, alpha: float, loss: int,
        train_v: bool, polar: bool, log_time: bool, land: bool, shared_line, lo: int, h: int, d: int,
        surface_tol: float, max_null: int, checkpoint: int, ev_t, ev_ij, ev_kd, pairs_out, tabs_low, low_order, tab853,
        dense853, cheb, der, nodes, start: bool):
    """Iterate until a status (module docstring); returns (status, number of rows of ``pairs_out`` set). Allocates the
    run's scratch (nothing is allocated per step) and hands it to :func:`_iterate`; with ``start``, :func:`_start`
    first (``PY_START``, nothing changed but S and side, when it declines)."""
    n, N = X.shape[0], z.size
    work = rk_jit.step_workspace(n, d, h, N)  # scratch and results of the steps
    z_new, f_new, F, tol_abs = np.empty(N), np.empty(N), np.empty((7, N)), atol.copy()  # F: the dense matrix
    E0, VT = np.empty((n, h)), np.empty((d, h))
    if start:
        if per_neuron:
            _neuron_atol(tol_abs, z, rtol, h, d)
        if not _start(fs, stats, z, f, z_new, f_new, S, side, dead, X, xnorm, y, sgn, r_ref, alpha, loss, train_v, polar,
                      log_time, lo, h, d, surface_tol, s_end, max_step, step_rtol, tol_abs, E0, VT, work, ev_t, ev_ij,
                      ev_kd, ks):
            return PY_START, 0
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
            _neuron_atol(tol_abs, z, rtol, h, d)
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
            engine_jit.rearm(armed, side, X, neuron_block(z, lo, h, d), xnorm, surface_tol)
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
            engine_jit.rearm(armed, side, X, neuron_block(z, lo, h, d), xnorm, surface_tol)
            refresh = sliding
            for p in range(slide_ii.size):  # sliding pairs back onto their surfaces (Engine.post_step)
                onto_surface(z, lo + slide_jj[p] * d, d, X[slide_ii[p]], polar)
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
