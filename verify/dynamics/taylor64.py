"""The float64 Taylor engine: the cross-check's first reference, on a path independent of the event engine.

The mp backend's method in float64, compiled as one loop (:mod:`taylor64_jit`): per mode the state's Taylor series
from the mp backend's float64 recurrence (:mod:`verify.dynamics.mp.series_jit`: the field and the loss as series),
the step from the series' tail at tolerance 10^-D, every pair's event polynomial searched for its first root to
float64 precision, samples from the series, and at each event point the switching law on the one pair (or the one
line through 0) of each neuron that meets its surface. It shares nothing with the event engine but the law (which
every engine shares): no Runge-Kutta step, no field kernel, no Chebyshev scan, no settling code. It costs a few
microseconds per step where the mp backend's Python step costs about 0.6 ms (PL-T1-i's cross-check runs: 180 steps
in 2 ms against 110 ms, 195 steps in 3 ms against 140 ms).

It runs crossings, rows on one line through 0 (one surface per line, settled as one), and Filippov sliding along
one row's surface per neuron. A run that meets anything else -- pairs of several lines of one neuron on their
surfaces at one point (also at t = 0), a line of several rows that slides, a Cartesian scale beyond float64's
range, a coefficient that is not finite, a step that stops advancing -- raises :class:`Declined` naming it, and
the caller runs the mp backend instead (:mod:`verify.evidence.cross_check`).

Error estimate (``Trajectory.error_estimate``): the sum over steps of the larger of the series' last two terms at
the step taken (relative per neuron in Cartesian form, absolute in r and u in polar form) plus (N + 1) 2^-52
rounding per step, as the mp backend sums them; in polar form at least the unit-length drift (the largest
| ||u_j|| - 1 | before renormalisation, ``stats["u_norm_drift"]``), as on the other two engines.
"""

from __future__ import annotations

import math
import time as _time

import numpy as np

from verify.data import Dataset
from verify.dynamics import switching, taylor64_jit
from verify.dynamics.field import NetworkField
from verify.dynamics.mp.integrator import default_order
from verify.dynamics.mp.series import mp_loss
from verify.dynamics.mp.series_jit import FAMILY_CODES
from verify.dynamics.times import sample_times
from verify.errors import NumericalError
from verify.model.losses import Loss
from verify.trajectory import EVENT_KINDS, Event, Trajectory, balancedness_change

SURFACE_TOL = 1e-13  # |<x_i, w_j>| <= SURFACE_TOL ||x_i|| ||w_j||: on the surface (float64's projections land ~1e-16)
MAX_LOG_SCALE = 600.0  # a Cartesian run needs |ln eps| below this (else float64 products of weights leave its range)
EVENTS_PER_PAIR = 64  # the event buffer: this many events per pair (and at least 4096) before the run declines


class Declined(NumericalError):
    """The run leaves the Taylor engine's path (module docstring); the mp backend continues through it."""


def simulate_taylor(ds: Dataset, W0: np.ndarray, v0: np.ndarray, times: np.ndarray, *, loss: str | Loss,
                    alpha: float, tol_digits: int, log_eps: float | None = None, form: str | None = None,
                    train_v: bool = True) -> Trajectory:
    """The run of ``verify.simulate(..., backend="mp")`` on the float64 Taylor engine, step tolerance 10^-tol_digits,
    order :func:`default_order` (Jorba-Zou). ``form``: as the mp backend chooses it (polar when ``log_eps`` is given);
    polar needs a balanced init with v trained. Raises :class:`Declined` off the engine's path."""
    field = NetworkField.from_dataset(ds, loss, alpha, train_v)
    spec = mp_loss(field.loss)
    t = sample_times(times)
    chosen = form or ("polar" if log_eps is not None else "cartesian")
    W = np.array(W0, dtype=float)
    v = np.array(v0, dtype=float).reshape(-1)
    h, d = W.shape
    polar = chosen == "polar"
    if polar:
        from verify.simulate import is_balanced, polar_state  # the float64 engine's start: the same r0, U0

        if not field.train_v or not np.all(np.any(W != 0.0, axis=1)) or not is_balanced(W, v):
            raise Declined("the polar form needs a balanced init (|v_j| = ||w_j|| > 0) with v trained")
        second, state, sgn = polar_state(W, v, log_eps)
    else:
        if log_eps is not None:
            if abs(log_eps) > MAX_LOG_SCALE:
                raise Declined(f"a Cartesian run at ln eps = {log_eps:g} is beyond float64's range")
            W, v = math.exp(log_eps) * W, math.exp(log_eps) * v
        state, second, sgn = W, v, np.ones(h)
    X = np.ascontiguousarray(field.X, dtype=float)
    line_rep, line_sgn = switching.lines(X)
    P = X @ state.T
    tau = SURFACE_TOL * np.linalg.norm(X, axis=1)[:, None] * np.linalg.norm(state, axis=1)[None, :]
    active = (P > 0.0) & (np.abs(P) > tau)  # a pair on its surface starts inactive; the loop settles it at t = 0
    S = np.where(active, 1.0, float(field.alpha))
    side = np.where(active, 1, -1).astype(np.int64)
    order = default_order(int(tol_digits))
    out_W, out_v = np.empty((t.size, h, d)), np.empty((t.size, h))
    cap = max(4096, EVENTS_PER_PAIR * X.shape[0] * h)
    ev_t, ev_ij, ev_kd = np.empty(cap), np.empty((cap, 2), dtype=np.int64), np.empty((cap, 2), dtype=np.int64)
    info = np.zeros(5)
    start = _time.perf_counter()
    with np.errstate(all="ignore"):
        status = taylor64_jit.run(t, np.ascontiguousarray(state), np.ascontiguousarray(second), X,
                                  np.ascontiguousarray(field.y, dtype=float), S, side, sgn.astype(float),
                                  float(field.alpha), polar, FAMILY_CODES[spec.family], float(spec.scale),
                                  bool(field.train_v), line_rep.astype(np.int64), line_sgn.astype(float), order,
                                  10.0 ** -int(tol_digits), SURFACE_TOL, out_W, out_v,
                                  ev_t, ev_ij, ev_kd, info)
    if status != taylor64_jit.DONE:
        raise Declined(f"{taylor64_jit.REASONS[status]} at t = {info[3]:.9g}")
    count = int(info[2])
    events = [Event(tt, i, j, EVENT_KINDS[kind], direction) for tt, (i, j), (kind, direction)
              in zip(ev_t[:count].tolist(), ev_ij[:count].tolist(), ev_kd[:count].tolist())]
    stats = {"steps": int(info[1]), "order": order, "tol_digits": int(tol_digits), "n_events": count,
             "wall_s": _time.perf_counter() - start}
    params = {"loss": field.loss.name, "alpha": field.alpha, "backend": "taylor", "form": chosen,
              "tol_digits": int(tol_digits), "t_end": float(t[-1]), "log_eps": log_eps}
    if polar:
        stats["u_norm_drift"] = float(info[4])
        return Trajectory.from_polar(t, out_v, out_W, sgn, events=events, backend="taylor", balancedness_drift=0.0,
                                     error_estimate=max(float(info[0]), float(info[4])), stats=stats, params=params)
    dc, size2 = balancedness_change(W, v, out_W, out_v)
    drift = float(np.max(np.abs(dc) / size2))
    return Trajectory(times=t, W=out_W, v=out_v, events=events, backend="taylor", balancedness_drift=drift,
                      error_estimate=float(info[0]), stats=stats, params=params)
