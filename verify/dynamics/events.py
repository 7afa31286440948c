"""The float64 event-driven gradient flow's entry points: :func:`solve_cartesian` and :func:`solve_polar`.

Each checks its inputs, runs the flow over the sample times (:func:`engine.integrate`; the algorithm is described in
:mod:`engine`), and assembles the :class:`~verify.trajectory.Trajectory` with its diagnostics.
"""

from __future__ import annotations

import math
import time as _time
from typing import Callable

import numba
import numpy as np

from verify.dynamics.engine import integrate
from verify.dynamics.field import NetworkField, single_thread_blas
from verify.dynamics.field_jit import state_outputs
from verify.dynamics.forms import CartesianForm, PolarForm
from verify.dynamics.settle import Handover
from verify.dynamics.times import sample_times
from verify.errors import InputError
from verify.model.losses import log_loss_rows, log_sum_exp
from verify.trajectory import TINY, Trajectory, balancedness_change_kernel

LOG_TIME_THRESHOLD = 1e3
LOG_FLOAT_UNDERFLOW = -745.0  # exp(x) == 0 in float64 below this


def pick_log_time(log_time: bool | None, t_end: float) -> bool:
    return t_end > LOG_TIME_THRESHOLD if log_time is None else bool(log_time)


def loss_stats(field: NetworkField, outputs: np.ndarray) -> dict:
    """log L at the samples and whether float64 exp(-y f) would underflow (per-sample log-loss < -745); for a built-in
    loss in one compiled call (:func:`log_loss_rows`), for a user's loss by its numpy formulas."""
    code = field.loss.jit_code
    if code is not None:
        rows = np.ascontiguousarray(np.atleast_2d(outputs), dtype=float)
        log_loss, below = log_loss_rows(np.ascontiguousarray(field.y, dtype=float), rows, code, LOG_FLOAT_UNDERFLOW)
        return {"log_loss": log_loss.tolist(), "loss_underflow_float64": bool(below)}
    with np.errstate(divide="ignore"):  # square loss at an exact fit: log 0 = -inf
        per = field.loss.log_value(field.y, np.atleast_2d(outputs))
    return {"log_loss": log_sum_exp(per).tolist(), "loss_underflow_float64": bool((per < LOG_FLOAT_UNDERFLOW).any())}


def solve_cartesian(
    field: NetworkField,
    W0: np.ndarray,
    v0: np.ndarray,
    times: np.ndarray,
    *,
    rtol: float = 1e-10,
    atol: float | None = None,
    log_time: bool | None = None,
    progress: Callable[[float], None] | None = None,
    first_step: float | None = None,
    max_step: float = np.inf,
) -> Trajectory:
    """Exact (event-driven) gradient flow of (W, v) from (W0, v0), sampled at ``times``.

    ``balancedness_drift`` = max over samples and j of |c_j(t) - c_j(0)| / max(v_j^2, ||w_j||^2),
    c_j = v_j^2 - ||w_j||^2 (conserved exactly by GF for any init). The error in c_j is
    absolute (about rtol times the neuron's largest size), so for a neuron that shrinks by many
    orders this relative drift grows and float64 can even flip sign(v_j);
    ``stats["balancedness_drift_peak"]`` divides by the neuron's peak size instead, and
    ``stats["shrunk_neurons"]`` lists neurons whose size^2 fell below 1e-8 of their peak (use
    the polar form for those).
    """
    W0 = np.asarray(W0, dtype=float)
    v0 = np.asarray(v0, dtype=float).reshape(-1)
    if W0.ndim != 2 or W0.shape[1] != field.X.shape[1] or v0.shape != (W0.shape[0],):
        raise InputError(f"W0 must be (h, {field.X.shape[1]}) and v0 (h,), got {W0.shape} and {v0.shape}")
    t = sample_times(times)
    lt = pick_log_time(log_time, float(t[-1]))
    form = CartesianForm(field, W0.shape[0], W0.shape[1])
    z0 = form.pack(W0, v0)
    start = _time.perf_counter()
    with single_thread_blas(field.n, form.h, form.d):
        run = integrate(form, z0, t, lt, rtol, None if atol is None else np.full(z0.size, float(atol)), progress,
                        first_step, max_step)
    Z = run.out
    W = Z[:, : form.h * form.d].reshape(t.size, form.h, form.d)
    v = Z[:, form.h * form.d :]
    drift, drift_peak, shrunk = _drift_stats(W0, v0, W, v)
    outputs = state_outputs(Z, form.compiled_args()[0], field.alpha, form.h, form.d)
    stats = dict(
        run.stats,
        wall_s=_time.perf_counter() - start,
        log_time=lt,
        balancedness_drift_peak=drift_peak,
        shrunk_neurons=np.flatnonzero(shrunk).tolist(),
        **loss_stats(field, outputs),
    )
    params = {"rtol": rtol, "atol": "per-neuron" if atol is None else float(atol), "loss": field.loss.name, "alpha": field.alpha, "form": "cartesian", "t_end": float(t[-1]), "log_time": lt}
    return Trajectory(times=t, W=W, v=v, events=run.events, backend="events", balancedness_drift=drift, error_estimate=run.err_sum, stats=stats, params=params)


@numba.njit(cache=True)
def _drift_stats(W0: np.ndarray, v0: np.ndarray, W: np.ndarray, v: np.ndarray) -> tuple[float, float, np.ndarray]:
    """From the samples W (k, h, d), v (k, h) of a run from (W0, v0) and :func:`balancedness_change`'s (k, h) arrays
    (change, size2): (max |change| / size2, max |change| / max(peak_j, tiny), the neurons whose smallest size^2 is
    below 1e-8 peak_j), peak_j = max(max_k size2, v0_j^2 + ||W0_j||^2) (the peak size, or the initial one); NaN when a
    ratio is NaN."""
    change, size2 = balancedness_change_kernel(W0, v0, W, v)
    k, h = change.shape
    drift, drift_peak, nan = 0.0, 0.0, False
    shrunk = np.zeros(h, np.bool_)
    for j in range(h):
        initial = 0.0
        for q in range(W0.shape[1]):
            initial += W0[j, q] * W0[j, q]
        peak, low = v0[j] * v0[j] + initial, math.inf
        for s in range(k):
            peak, low = max(peak, size2[s, j]), min(low, size2[s, j])
            drift = max(drift, abs(change[s, j]) / size2[s, j])
            nan |= math.isnan(change[s, j]) or math.isnan(size2[s, j])
        for s in range(k):
            drift_peak = max(drift_peak, abs(change[s, j]) / max(peak, TINY))
        shrunk[j] = low < 1e-8 * peak
    return (math.nan, math.nan, shrunk) if nan else (drift, drift_peak, shrunk)


def check_polar_inputs(field: NetworkField, r0: np.ndarray, U0: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validated (r0 (h,), unit-row U0 (h, d), s (h,) in {-1, +1}); InputError otherwise."""
    if not field.train_v:
        raise InputError("the polar form needs the second layer trained (train_v=True)")
    r0 = np.asarray(r0, dtype=float).reshape(-1)
    U0 = np.asarray(U0, dtype=float)
    sg = np.asarray(s, dtype=float).reshape(-1)
    if U0.ndim != 2 or U0.shape != (r0.size, field.X.shape[1]) or sg.shape != r0.shape or not np.all(np.isin(sg, (-1.0, 1.0))):
        raise InputError(f"need r0 (h,), U0 (h, {field.X.shape[1]}), s (h,) in {{-1, +1}}")
    if not np.all(np.isfinite(r0)) or not np.all(np.isfinite(U0)):
        raise InputError("r0 and U0 must be finite")
    norms = np.linalg.norm(U0, axis=1)
    if np.any(norms == 0.0):
        raise InputError("U0 rows must be nonzero")
    return r0, U0 / norms[:, None], sg


def solve_polar(
    field: NetworkField,
    r0: np.ndarray,
    U0: np.ndarray,
    s: np.ndarray,
    times: np.ndarray,
    *,
    rtol: float = 1e-10,
    atol: float | None = None,
    log_time: bool | None = None,
    progress: Callable[[float], None] | None = None,
    first_step: float | None = None,
    max_step: float = np.inf,
    handover: Handover | None = None,
) -> Trajectory:
    """Exact gradient flow in polar form (balanced init, v trained): r_j = ln||w_j||, unit u_j, signs s.

    W = exp(r) U and v = s exp(r) in the result may underflow to 0 (r < -745); r, U are exact.
    ``balancedness_drift`` is 0 by construction; ``stats["u_norm_drift"]`` is the largest
    | ||u_j|| - 1 | seen before renormalisation, and ``error_estimate`` (the sum of the accepted local
    error estimates) is at least that: the exact flow keeps ||u_j|| = 1, so the drift is a local
    error that the step control's estimate missed (at eps = e^-3000 on converged directions, up to 100x). ``handover`` (used by
    :mod:`verify.dynamics.hybrid`): the switching state at t = 0 instead of the one computed from the state.
    """
    r0, U0, sg = check_polar_inputs(field, r0, U0, s)
    t = sample_times(times)
    lt = pick_log_time(log_time, float(t[-1]))
    form = PolarForm(field, sg, r0, U0.shape[1])
    z0 = form.pack(r0, U0)
    atol = rtol if atol is None else float(atol)
    start = _time.perf_counter()
    with single_thread_blas(field.n, form.h, form.d):
        run = integrate(form, z0, t, lt, rtol, np.full(z0.size, atol), progress, first_step, max_step, handover)
    Z = run.out
    r = Z[:, : form.h] + r0
    U = Z[:, form.h :].reshape(t.size, form.h, form.d)
    U = U / np.linalg.norm(U, axis=2)[:, :, None]
    with np.errstate(under="ignore"):
        outputs = field.polar_outputs(r, U, sg)
    stats = dict(
        run.stats,
        wall_s=_time.perf_counter() - start,
        log_time=lt,
        u_norm_drift=run.unorm_drift,
        weights_underflow_float64=bool(np.any(r < LOG_FLOAT_UNDERFLOW)),
        outputs_underflow_float64=bool(np.any(2.0 * r < LOG_FLOAT_UNDERFLOW)),
        **loss_stats(field, outputs),
    )
    params = {"rtol": rtol, "atol": atol, "loss": field.loss.name, "alpha": field.alpha, "form": "polar", "t_end": float(t[-1]), "log_time": lt}
    return Trajectory.from_polar(t, r, U, sg, events=run.events, backend="events", balancedness_drift=0.0,
                                 error_estimate=max(run.err_sum, run.unorm_drift), stats=stats, params=params)
