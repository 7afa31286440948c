"""Hybrid polar gradient flow: the exact eps -> 0 limit engine while it *is* the float64 flow,
then the event-driven polar ODE.

Why the two phases are the same dynamics. The polar field of :mod:`verify.dynamics.field`
depends on the outputs only through the data weights g_i = -l'(y_i, f(x_i)), computed in
float64 as ``loss.g(y, f)``. The closed-form engine (:mod:`verify.dynamics.limit`) uses
g_i = -l'(y_i, 0). Whenever float64 evaluates ``loss.g(y_i, f_i)`` to *exactly* the same double
as ``loss.g(y_i, 0)`` for every i, the float64 polar field and the limit field coincide bit for
bit in every mode (G_j = sum_i S_ij g_i x_i, r_j' = s_j <u_j, G_j>, u_j' = s_j P_u G_j), so the
limit engine's closed form is the exact solution of the ODE that :func:`events.solve_polar`
integrates (which only adds its own truncation error).

Threshold derivation (y_i in {-1, +1}, margin z_i = y_i f_i, |z_i| = |f_i|):

- exp:        g = y exp(-z). exp(-z) rounds to 1.0 when |z| < 2^-54 under correct rounding
              (1 - 2^-54 and 1 + 2^-53 are the midpoints to the neighbours 1 - 2^-53 and
              1 + 2^-52). With |z| <= 2^-60 the true value is within 2^-60 of 1, i.e. within
              2^-7 ulp (ulp below 1 is 2^-53) while the neighbours are 1 ulp away: any
              implementation with error < 0.99 ulp (glibc, numpy SIMD: < 1 ulp, in practice
              correctly rounded here since they return 1 + x for tiny x) returns 1.0 exactly.
- logistic2:  g = 2 y expit(-z); scipy's expit is 1/(1 + exp(-x)) (x >= 0) or
              exp(x)/(1 + exp(x)) (x < 0): with exp(+-z) == 1.0 (above) both give 1/2 == 0.5
              exactly, so g = 2 y 0.5 = y exactly.
- logistic:   g = y expit(-z) = y 0.5 = y/2 exactly (the same double as at z = 0).
- square:     g = y (1 - z); 1 - z == 1.0 for |z| < 2^-54 (round to nearest), so g = y.
- poly:       g = y (1 - z/s), s = hypot(1, |z|), evaluated as (1/s)^2 / (1 + |z|/s) for z >= 0
              and 1 + |z|/s for z < 0. The true s is within 2^-121 of 1 for |z| <= 2^-60 while
              its upper neighbour 1 + 2^-52 is 1 ulp away, so any hypot with error < 0.99 ulp
              returns 1.0; then |z|/s = |z|, 1 + |z| == 1.0 (round to nearest), and the weight is
              1.0 / 1.0 or 1.0: g = y exactly.

So |f_i| <= F_SAFE = 2^-60 for all i suffices for every loss, with a 2^6 margin over the
2^-54 rounding boundary. The computed float64 outputs obey
|f_i| <= X_max sum_j exp(2 r_j) (1 + (h + d + 4) 2^-53 + 1e-13) (|u_j| <= 1 + 1e-13 after the
engine's renormalisation; summation and product rounding), so the limit phase runs while
    B(t) = X_max * sum_j exp(2 r_j(t)) * (1 + 1e-6) <= F_SAFE
with r_j(t) the limit engine's exact log-norms. The accuracy of exp / expit is not something
IEEE 754 or numpy guarantees (numpy's SIMD paths document errors of a few ulp), so the property
is measured at run time on this machine (:func:`limit_field_is_exact`: ``loss.g(y, f)`` against
``loss.g(y, 0)`` for both labels at every power of two below F_SAFE and ~4400 other probe
outputs); where it fails (an unusual libm, or a custom loss) no limit phase is used and the
run is the polar ODE from t = 0.

Switch time T_s (rigorous). In every mode the limit velocity of r_j is
s_j <u_j, x_eff> <= ||x_eff|| <= ||x_a|| <= K = sum_i |g_i| ||x_i|| (slopes in [alpha, 1] and
the Filippov x_eff is a projection of x_a), so from any time t_k,
ln B(t) <= ln B(t_k) + 2 K (t - t_k): every t <= t_k + (ln F_SAFE - ln B(t_k)) / (2K) is safe.
Iterating t_{k+1} = that bound, with B(t_{k+1}) evaluated *exactly* from the limit engine's
closed form, climbs monotonically to the first time the threshold is reached, never past it;
it stops when the remaining log-gap is below ``GAP_STOP`` (or after ``MAX_ITER`` steps) and
T_s is the last (safe) iterate. If the bound already covers t_end, the whole run is the limit
engine (T_s = t_end: exact, no ODE error).

Handover at T_s. The polar event engine starts from the limit state (r(T_s), U(T_s)) with the
limit engine's switching state instead of recomputing it: sides from the limit activation
pattern (+1 active, -1 inactive, 0 sliding with the Filippov slope), dead neurons frozen
(alpha = 0), the sliding re-entry counts of each pair carried over, and every pair within
tau_ij = 1e-12 ||x_i|| of its surface *disarmed* (exactly as the engine leaves a pair it has
just settled: it is re-armed once it has left the surface by tau), so a crossing the limit
engine resolved at (or within rounding of) T_s is neither lost nor logged twice. No event is
logged at the handover.

The result is one :class:`Trajectory` (backend "events", polar): samples at t <= T_s from the
closed form, later ones from the ODE; events of the limit phase (t < T_s, plus those at
T_s) followed by the ODE's (shifted by T_s); ``stats["limit_phase_until"] = T_s``,
``stats["limit_phase_events"]``, ``stats["limit_exact"]``, ``stats["hybrid"] = True`` and
the ODE's own stats (zeros when the run is all limit); ``error_estimate`` is the ODE's plus
the limit engine's rounding level.
"""

from __future__ import annotations

import bisect
import functools
import math
import time as _time
from typing import Callable

import numpy as np

from verify.dynamics import events
from verify.dynamics.field import NetworkField
from verify.dynamics.limit import PLANE_RTOL, NeuronRun, Surfaces, limit_weights
from verify.dynamics.settle import Handover
from verify.dynamics.times import sample_times
from verify.errors import NumericalError
from verify.model.losses import Loss
from verify.trajectory import Event, Trajectory

F_SAFE = 2.0**-60  # |f| below this: float64 g == -l'(y, 0) exactly for every loss (module docstring)
OUTPUT_MARGIN = 1e-6  # relative slack on the computed |f| bound (rounding of f, ||u|| drift)
GAP_STOP = 1e-3  # stop refining T_s when ln F_SAFE - ln B(T_s) is below this
MAX_ITER = 400


def _flatness_probe(f_bound: float) -> np.ndarray:
    """Outputs in [-f_bound, f_bound] at which the guard evaluates the loss: every power of two from
    f_bound down to the smallest subnormal, 256 evenly spaced values and 4096 seeded random ones, both signs."""
    powers = f_bound * 2.0 ** -np.arange(0, 1100)
    grid = f_bound * np.arange(1, 257) / 256.0
    rand = f_bound * np.random.default_rng(0).random(4096)
    half = np.concatenate([powers[powers > 0.0], grid, rand])
    return np.concatenate([half, -half, [0.0]])


def limit_field_is_exact(field: NetworkField, f_bound: float = F_SAFE) -> bool:
    """True if float64 ``loss.g(y, f)`` equals ``loss.g(y, 0)`` bit for bit for both labels at every
    probe output |f| <= f_bound (:func:`_flatness_probe`): the run-time measurement of the threshold
    derivation on this machine's exp / expit, so a libm that rounds differently only loses the
    limit phase (the run falls back to the ODE), never exactness."""
    y = np.asarray(field.y, dtype=float)
    if not np.all(np.abs(y) == 1.0):
        return False
    try:
        return _flat_below(field.loss, float(f_bound))
    except TypeError:  # a loss that cannot be a cache key (unhashable fields): measured every time
        return _flat_below.__wrapped__(field.loss, float(f_bound))


@functools.lru_cache(maxsize=64)
def _flat_below(loss: Loss, f_bound: float) -> bool:
    """``loss.g(y, f) == loss.g(y, 0)`` bit for bit at every probe output, both labels: depends on the loss and this
    machine's libm only, so it is measured once per process and loss (equal losses share the answer)."""
    f = _flatness_probe(f_bound)
    for label in (1.0, -1.0):
        labels = np.full_like(f, label)
        g0 = np.asarray(loss.g(labels, np.zeros_like(f)), dtype=float)
        if not np.array_equal(np.asarray(loss.g(labels, f), dtype=float), g0):
            return False
    return True


def _log_output_bound(field: NetworkField, r: np.ndarray) -> float:
    """ln( X_max * sum_j exp(2 r_j) * (1 + OUTPUT_MARGIN) ), overflow-free."""
    two_r = 2.0 * np.asarray(r, dtype=float)
    m = float(np.max(two_r))
    lse = m + math.log(float(np.sum(np.exp(two_r - m))))
    return math.log(float(np.max(field.norms))) + lse + math.log1p(OUTPUT_MARGIN)


def _sample(runs: list[NeuronRun], times: np.ndarray, d: int) -> tuple[np.ndarray, np.ndarray]:
    U = np.empty((times.size, len(runs), d))
    R = np.empty((times.size, len(runs)))
    for run in runs:
        run.sample(times, U, R)
    return U, R


def _r_at(runs: list[NeuronRun], starts: list[list[float]], t: float) -> np.ndarray:
    """Exact limit log-norms r_j(t) (segment found by bisection)."""
    r = np.empty(len(runs))
    for j, (run, st) in enumerate(zip(runs, starts)):
        seg = run.segments[max(0, bisect.bisect_right(st, t) - 1)]
        r[j] = float(seg.mode.state(t - seg.t0)[1])
    return r


def switch_time(field: NetworkField, runs: list[NeuronRun], r0: np.ndarray, d: int, t_end: float) -> tuple[float, int]:
    """Safe switch time T_s in [0, t_end] (module docstring) and the number of refinements."""
    log_thr = math.log(F_SAFE)
    g = limit_weights(field)
    K = float(np.sum(np.abs(g) * field.norms))
    gap = log_thr - _log_output_bound(field, r0)
    if gap <= 0.0:
        return 0.0, 0
    if K == 0.0:
        return t_end, 0
    t = 0.0
    starts = [[seg.t0 for seg in run.segments] for run in runs]
    for it in range(1, MAX_ITER + 1):
        t_next = t + gap / (2.0 * K)
        if t_next >= t_end:
            return t_end, it
        t = t_next
        gap = log_thr - _log_output_bound(field, _r_at(runs, starts, t))
        if gap <= GAP_STOP:
            return t, it
    return t, MAX_ITER


def _handover(field: NetworkField, runs: list[NeuronRun], U: np.ndarray, T_s: float) -> Handover:
    """The limit engine's switching state at T_s (module docstring): each neuron's pattern, dead neurons, sliding
    entries, and the pairs within PLANE_RTOL ||x_i|| of their surface at the limit state U, disarmed."""
    n, h = field.n, len(runs)
    side = np.empty((n, h), dtype=int)
    dead = np.zeros(h, dtype=bool)
    entries = np.zeros((n, h), dtype=int)
    for j, run in enumerate(runs):
        act, sld, dead[j], entries[:, j] = run.pattern_at(T_s)
        side[:, j] = np.where(sld, 0, np.where(act, 1, -1))
    disarmed = np.abs(field.X @ U.T) <= PLANE_RTOL * field.norms[:, None]
    return Handover(side, dead, entries, disarmed)


def solve_polar_hybrid(
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
) -> Trajectory:
    """Polar gradient flow: exact limit engine while the float64 field equals the limit field
    (|f| <= 2^-60 for every sample, proved by a growth bound), then :func:`events.solve_polar`
    from the limit state and mode at the switch time. Same arguments and result as
    :func:`events.solve_polar`, plus ``stats["limit_phase_until"]`` (module docstring)."""
    r0, U0, sg = events.check_polar_inputs(field, r0, U0, s)
    t = sample_times(times)
    t_end = float(t[-1])
    h, d = U0.shape
    start = _time.perf_counter()

    runs: list[NeuronRun] | None = None
    T_s, refinements, reason = 0.0, 0, ""
    if not limit_field_is_exact(field):
        reason = "float64 g(y, f) differs from g(y, 0) at some |f| <= 2^-60 on this machine: no limit phase"
    elif _log_output_bound(field, r0) >= math.log(F_SAFE):
        reason = "initial outputs above 2^-60: no limit phase"
    else:
        g = limit_weights(field)
        cap = 10 * field.n + 10
        K = float(np.sum(np.abs(g) * field.norms))
        horizon = t_end
        surf = Surfaces.of(field.X)
        for attempt in range(2):
            try:
                runs = [NeuronRun(field, g, j, U0[j], float(r0[j]), float(sg[j]), horizon, cap, surf) for j in range(h)]
                break
            except (NumericalError, np.linalg.LinAlgError) as exc:  # Zeno guard etc.: retry up to the bound alone
                runs = None
                reason = f"limit engine: {exc}"
                if attempt == 0 and K > 0.0:
                    horizon = min(t_end, (math.log(F_SAFE) - _log_output_bound(field, r0)) / (2.0 * K))
        if runs is not None:
            T_s, refinements = switch_time(field, runs, r0, d, horizon)
            reason = ""

    lt = events.pick_log_time(log_time, t_end)
    n_lim = int(np.sum(t <= T_s)) if runs is not None else 0
    U = np.empty((t.size, h, d))
    r = np.empty((t.size, h))
    logged: list[Event] = []
    lim_events: list[Event] = []
    if runs is not None:
        Ul, Rl = _sample(runs, np.append(t[:n_lim], T_s), d)
        U[:n_lim], r[:n_lim] = Ul[:n_lim], Rl[:n_lim]
        U_s, r_s = Ul[-1], Rl[-1]
        lim_events = sorted((e for run in runs for e in run.events if e.t <= T_s), key=lambda e: (e.t, e.j, e.i))
        logged.extend(lim_events)
    else:
        U_s, r_s = U0, r0

    stats: dict = {k: 0 for k in ("steps", "rejected", "rhs_evals", "n_events", "n_restarts", "touches", "nonunique", "unsettled", "sliding_evals", "sticky_pairs")}
    stats["u_norm_drift"] = 0.0
    err = float(np.finfo(float).eps * 10) if runs is not None else 0.0
    if n_lim < t.size:  # the ODE phase from T_s
        t_ode = np.concatenate([[0.0], t[n_lim:] - T_s]) if T_s > 0.0 else t
        if T_s > 0.0 and t_ode.size > 1 and t_ode[1] <= 0.0:
            t_ode = t_ode[1:]
        prog = None if progress is None else (lambda tt, _p=progress: _p(tt + T_s))
        ho = _handover(field, runs, U_s, T_s) if runs is not None else None
        ode = events.solve_polar(field, r_s, U_s, sg, t_ode, rtol=rtol, atol=atol, log_time=lt, progress=prog, handover=ho)
        k = t.size - n_lim
        U[n_lim:], r[n_lim:] = ode.U[-k:], ode.r[-k:]
        if T_s > 0.0:
            logged.extend(Event(e.t + T_s, e.i, e.j, e.kind, e.direction) for e in ode.events)
        else:
            logged.extend(ode.events)
        for key in stats:
            if key in ode.stats:
                stats[key] = ode.stats[key]
        err += ode.error_estimate
    stats["n_events"] = len(logged)
    with np.errstate(under="ignore"):
        outputs = field.polar_outputs(r, U, sg)
    stats.update(
        wall_s=_time.perf_counter() - start,
        log_time=lt,
        weights_underflow_float64=bool(np.any(r < events.LOG_FLOAT_UNDERFLOW)),
        outputs_underflow_float64=bool(np.any(2.0 * r < events.LOG_FLOAT_UNDERFLOW)),
        **events.loss_stats(field, outputs),
        hybrid=True,
        limit_phase_until=float(T_s),
        limit_phase_events=len(lim_events),
        limit_phase_refinements=refinements,
        limit_exact=None if runs is None else all(run.exact for run in runs),
        limit_phase_note=reason,
    )
    if progress is not None and n_lim == t.size:
        progress(t_end)
    atol_p = rtol if atol is None else float(atol)
    params = {"rtol": rtol, "atol": atol_p, "loss": field.loss.name, "alpha": field.alpha, "form": "polar", "t_end": t_end, "log_time": lt, "hybrid": True}
    return Trajectory.from_polar(t, r, U, sg, events=logged, backend="events", balancedness_drift=0.0, error_estimate=err,
                                 stats=stats, params=params)
