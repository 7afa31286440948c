"""``solve_mp``: the high-precision reference backend (Taylor series per mode, exact events).

Loop (the same structure as the float64 event engine, :mod:`verify.dynamics.engine`; the
driver is :mod:`engine`): in the current mode, build the Taylor series of the solution
(:mod:`series`, vectorised over neurons and data), pick the step from the series' tail
(:mod:`integrator`), locate the first event of every pair on the step's polynomial to full
precision (:mod:`screen` rules out in float64 the pairs that cannot cross, :mod:`events`
locates the others), write the requested samples from the series, and at an event move
there, put every pair within tau_ij = 10^-dps ||x_i|| ||w_j|| of its surface onto it
(projection), settle those pairs jointly per neuron by the switching law both backends share
(:mod:`verify.dynamics.switching`), log the events,
and restart. Filippov sliding is continued (slopes as series, exits as events), as in the
float64 backend. With alpha = 0 a neuron whose slope column is all inactive and not sliding
is dead: logged once (kind "dead", i = -1) and frozen.

Precision: inputs are parsed inside ``mpmath.workdps(dps + GUARD)`` (GUARD = 10 digits) and
the integration runs on gmpy2 mpfr at the same binary precision inside a gmpy2 local context
(:mod:`num`), in numpy object arrays; results are converted back to mpf exactly. Neither
library's global precision is changed. Step tolerance tol = 10^-D, D = ``tol_digits``, by default
dps + 2 (relative per neuron in Cartesian form, absolute in ln||w_j|| and u_j in polar form; a
smaller D gives a less accurate run at the same precision, as the cross-check's reference at a
few digits beyond the float64 run's rtol); default order 1.15 D + 1 (Jorba-Zou). The series'
orders whose terms on the step are below tol / rho (rho >= 1e-13,
the measured relative error of float64 coefficients times 100) come from a float64 run of the
same recurrence, and of the others those below tol / rho_dd (rho_dd >= 1e-28) from a
double-double run: at 30 digits about 4 orders per step are computed in mpfr. The returned
mpf carry dps + 10 digits, but mpmath arithmetic on them happens at the *global* precision
(53 bits by default): wrap post-processing in ``mpmath.workdps(...)`` (``v**2`` outside it
is rounded to double precision).

Error estimate (``Trajectory.error_estimate``, relative, a float):
- ``estimate="tail"`` (default): the sum over steps of the local tail estimates (the larger of
  the last two series terms at the step taken), the bounds rho sum_{k >= K} a_k h^k on the
  float64 orders and rho_dd sum_{K_mp <= k < K} a_k h^k on the double-double orders, and the
  rounding level of each step; an a-posteriori indicator that
  ignores error propagation.
- ``estimate="rerun"``: the run is repeated at dps + 10 digits (order and tolerance to match)
  and the estimate is the largest difference between the two runs over the samples
  (relative per neuron; absolute in r and u for polar) and over the event times
  (relative to max(1, t)); the event sequences must agree (else the estimate is inf and
  ``stats["rerun_events_match"]`` is False). This is a measurement of the primary run's
  actual error (the finer run being 10 digits better), at about 2.5x the cost.
In polar form either estimate is at least the unit-length defect: the largest | ||u_j|| - 1 | at a
step's end before renormalisation (``stats["u_norm_drift"]``) and at the samples, which the exact
flow keeps at 0 -- a check independent of the series' tail (a step past the series' reach shows there).
"""

from __future__ import annotations

import math
import time as _time
from typing import Any, Callable

import mpmath
import numpy as np

from verify.dynamics.field import NetworkField
from verify.dynamics.mp import num
from verify.dynamics.mp.engine import GUARD, TOL_MARGIN, Engine
from verify.dynamics.mp.field import MpField
from verify.dynamics.times import check_order
from verify.dynamics.mp.inputs import to_mp_array, to_mpf
from verify.dynamics.mp.integrator import default_order
from verify.errors import InputError
from verify.trajectory import Event, Trajectory

BALANCE_RTOL = 1e-12
FORMS = ("cartesian", "polar")
MIN_TOL_DIGITS = 8  # a looser mp run is no reference for the float64 engine (rtol 1e-10 by default)
ESTIMATES = ("tail", "rerun")


# inputs ---------------------------------------------------------------------------------------------
def _check_times(times: Any) -> list:
    try:
        arr = np.array(times, dtype=object).reshape(-1)
    except (ValueError, TypeError):
        raise InputError("times must be a 1-D sequence of numbers") from None
    if arr.size == 0:
        raise InputError("times must be non-empty")
    ts = [to_mpf(x, "times") for x in arr]
    check_order(ts)
    return ts


def _check_dps(dps: Any) -> int:
    if isinstance(dps, bool) or not isinstance(dps, (int, np.integer)) or not 15 <= int(dps) <= 2000:
        raise InputError(f"dps must be an integer in [15, 2000], got {dps!r}")
    return int(dps)


def check_tol_digits(tol_digits: Any, dps: int) -> int:
    """D of the step tolerance 10^-D: an integer in [MIN_TOL_DIGITS, dps + TOL_MARGIN] (None: the upper end)."""
    if tol_digits is None:
        return dps + TOL_MARGIN
    if (isinstance(tol_digits, bool) or not isinstance(tol_digits, (int, np.integer))
            or not MIN_TOL_DIGITS <= int(tol_digits) <= dps + TOL_MARGIN):
        raise InputError(f"tol_digits must be an integer in [{MIN_TOL_DIGITS}, dps + {TOL_MARGIN} = "
                         f"{dps + TOL_MARGIN}], got {tol_digits!r}")
    return int(tol_digits)


def _initial_state(field: NetworkField, form: str, W0: Any, v0: Any, log_eps: Any) -> tuple[list, list | None, Any]:
    """(flat state z0, signs s or None, log_eps or None) as mpf at the working precision."""
    d = int(field.X.shape[1])
    W, shW = to_mp_array(W0, 2, "W0")
    v, shv = to_mp_array(v0, 1, "v0")
    h = shW[0]
    if shW[1] != d or shv != (h,):
        raise InputError(f"W0 must be (h, {d}) and v0 (h,), got {shW} and {shv}")
    le = None if log_eps is None else to_mpf(log_eps, "log_eps")
    if form == "cartesian":
        if le is not None:
            sc = mpmath.exp(le)
            W = [[sc * c for c in row] for row in W]
            v = [sc * c for c in v]
        return [c for row in W for c in row] + v, None, le
    if not field.train_v:
        raise InputError("the polar form needs the second layer trained (train_v=True)")
    r, U, s = [], [], []
    for j in range(h):
        nrm = mpmath.sqrt(mpmath.fdot(zip(W[j], W[j])))
        if nrm == 0 or v[j] == 0:
            raise InputError(f"polar form: neuron {j} has a zero row or zero v0 (drop it: it stays 0 forever)")
        if abs(abs(v[j]) - nrm) > BALANCE_RTOL * nrm:
            raise InputError(f"polar form needs a balanced init: |v0_{j}| = {mpmath.nstr(abs(v[j]), 8)} but ||W0_{j}|| = {mpmath.nstr(nrm, 8)}")
        r.append(mpmath.log(nrm) + (le if le is not None else 0))
        U.append([c / nrm for c in W[j]])
        s.append(mpmath.mpf(1) if v[j] > 0 else mpmath.mpf(-1))
    return r + [c for row in U for c in row], s, le


def _run_once(field, W0, v0, times, dps, tol_digits, form, log_eps, order, progress):
    """Parse inputs in mpmath, integrate on gmpy2 mpfr (same binary precision), return mpf."""
    with mpmath.workdps(dps + GUARD):
        z0, s, le = _initial_state(field, form, W0, v0, log_eps)
        ts = _check_times(times)
    prec = num.prec_of_dps(dps + GUARD)
    with num.context(prec):
        mf = MpField(field)
        d = mf.d
        h = len(z0) // (d + 1)
        N = default_order(tol_digits) if order is None else int(order)
        z = num.vec([num.fr(x) for x in z0])
        rows, lead = (z[: h * d], z[h * d :]) if form == "cartesian" else (z[h:], z[:h])
        sv = None if s is None else num.vec([num.fr(x) for x in s])
        run = Engine(mf, form, rows.reshape(h, d), lead, sv, N, dps, tol_digits, progress)
        Z = run.run([num.fr(t) for t in ts])
        Z = [[num.mp(x) for x in zz] for zz in Z]
        run.events = [Event(num.mp(e.t), e.i, e.j, e.kind, e.direction) for e in run.events]
    return run, Z, z0, s, le, ts, h, N


def _to_arrays(Z: list, form: str, h: int, d: int, s: list | None) -> dict:
    k = len(Z)
    out: dict = {}
    if form == "cartesian":
        W = np.empty((k, h, d), dtype=object)
        v = np.empty((k, h), dtype=object)
        for a, z in enumerate(Z):
            for j in range(h):
                for c in range(d):
                    W[a, j, c] = z[j * d + c]
                v[a, j] = z[h * d + j]
        out.update(W=W, v=v)
        return out
    r = np.empty((k, h), dtype=object)
    U = np.empty((k, h, d), dtype=object)
    W = np.empty((k, h, d), dtype=object)
    v = np.empty((k, h), dtype=object)
    for a, z in enumerate(Z):
        for j in range(h):
            r[a, j] = z[j]
            e = mpmath.exp(z[j])
            v[a, j] = s[j] * e
            for c in range(d):
                U[a, j, c] = z[h + j * d + c]
                W[a, j, c] = e * U[a, j, c]
    out.update(W=W, v=v, r=r, U=U)
    return out


def _unit_length_defect(U: np.ndarray) -> float:
    """max over samples and neurons of | ||u_j|| - 1 | (U (k, h, d) of mpf; at the caller's precision)."""
    worst = mpmath.mpf(0)
    for u in U.reshape(-1, U.shape[-1]):
        worst = max(worst, abs(mpmath.sqrt(mpmath.fsum(x * x for x in u)) - 1))
    return float(worst)


def _difference(A: dict, B: dict, form: str) -> float:
    """Largest difference between two runs' samples (relative per neuron / absolute polar)."""
    worst = mpmath.mpf(0)
    if form == "cartesian":
        W1, v1, W2, v2 = A["W"], A["v"], B["W"], B["v"]
        for a in range(W1.shape[0]):
            for j in range(W1.shape[1]):
                sc = mpmath.sqrt(mpmath.fsum(x * x for x in W1[a, j]) + v1[a, j] ** 2)
                sc = sc if sc > 0 else mpmath.mpf(1)
                diff = max([abs(x - y) for x, y in zip(W1[a, j], W2[a, j])] + [abs(v1[a, j] - v2[a, j])])
                worst = max(worst, diff / sc)
    else:
        for key in ("r", "U"):
            for x, y in zip(A[key].reshape(-1), B[key].reshape(-1)):
                worst = max(worst, abs(x - y))
    return float(worst)


def solve_mp(
    field: NetworkField,
    W0: Any,
    v0: Any,
    times: Any,
    *,
    dps: int = 30,
    form: str = "cartesian",
    log_eps: Any = None,
    order: int | None = None,
    progress: Callable[[float], None] | None = None,
    estimate: str = "tail",
    tol_digits: int | None = None,
) -> Trajectory:
    """High-precision event-driven gradient flow (Taylor series per mode, mpmath).

    ``W0`` (h, d), ``v0`` (h,): float64 arrays, mpmath numbers or decimal strings (nested lists
    fine). ``form="cartesian"``: the state is (W, v); with ``log_eps`` the initial weights are
    exp(log_eps) W0, exp(log_eps) v0 (any eps: mpmath exponents are unbounded).
    ``form="polar"``: balanced init (|v0_j| = ||W0_j|| to 1e-12 relative; only ||W0_j|| and
    sign(v0_j) are used), state r_j = ln||W0_j|| (+ log_eps when given: then W0, v0 are the
    eps-free base), u_j = W0_j/||W0_j||, s_j = sign(v0_j). Float64 inputs are balanced to
    ~1e-16 only, so a Cartesian run from the same floats differs from the polar one at that
    level: pass v0 = s ||W0|| computed in mpmath (or decimal strings) to compare the two.
    ``times``: strictly increasing, >= 0 (floats, mpf or decimal strings); the last is t_end.
    ``dps``: digits (working precision dps + 10); ``tol_digits``: D of the step tolerance 10^-D, in
    [8, dps + 2] (default dps + 2); ``order``: Taylor order (default 1.15 D + 1); ``estimate``:
    "tail" or "rerun" (module docstring; the rerun is 10 digits finer in precision and tolerance).

    Returns a Trajectory with backend "mp": ``times`` as floats; ``W`` (k, h, d), ``v`` (k, h)
    (and ``r``, ``U`` for polar) as numpy object arrays of mpf; events with ``t`` as mpf (full
    precision); ``balancedness_drift`` and ``error_estimate`` as floats; ``stats`` (steps,
    order, dps, events, wall_s, ...) and ``params`` (dps, form, order, ...). Do arithmetic on
    the mpf results inside ``mpmath.workdps(dps)``: outside it mpmath rounds to 53 bits.
    """
    if form not in FORMS:
        raise InputError(f"unknown form {form!r}; choose one of {', '.join(FORMS)}")
    if estimate not in ESTIMATES:
        raise InputError(f"unknown estimate {estimate!r}; choose one of {', '.join(ESTIMATES)}")
    dps = _check_dps(dps)
    tol_digits = check_tol_digits(tol_digits, dps)
    if order is not None and (isinstance(order, bool) or not isinstance(order, (int, np.integer)) or not 4 <= int(order) <= 1000):
        raise InputError(f"order must be an integer in [4, 1000], got {order!r}")
    if not isinstance(field, NetworkField):
        raise InputError("field must be a verify.dynamics.field.NetworkField")
    start = _time.perf_counter()
    run, Z, z0, s, le, ts, h, N = _run_once(field, W0, v0, times, dps, tol_digits, form, log_eps, order, progress)
    d = run.d
    with mpmath.workdps(dps + GUARD):
        arrays = _to_arrays(Z, form, h, d, s)
        drift = 0.0
        if form == "cartesian":
            W, v = arrays["W"], arrays["v"]
            c0 = [z0[h * d + j] ** 2 - mpmath.fsum(x * x for x in z0[j * d : (j + 1) * d]) for j in range(h)]
            worst = mpmath.mpf(0)
            for a in range(W.shape[0]):
                for j in range(h):
                    ww = mpmath.fsum(x * x for x in W[a, j])
                    den = max(v[a, j] ** 2, ww)
                    if den > 0:
                        worst = max(worst, abs(v[a, j] ** 2 - ww - c0[j]) / den)
            drift = float(worst)
        err = float(run.err_sum)
        defect = max(float(run.unorm_drift), _unit_length_defect(arrays["U"])) if form == "polar" else 0.0
    stats: dict[str, Any] = dict(run.stats, order=N, dps=dps, work_dps=dps + GUARD, events=len(run.events), n_events=len(run.events), tail_error=err, error_method=estimate)
    if form == "polar":
        stats["u_norm_drift"] = float(run.unorm_drift)
    if estimate == "rerun":
        dps2 = dps + 10
        order2 = None if order is None else int(order) + int(math.ceil(1.151 * 10))
        run2, Z2, *_ = _run_once(field, W0, v0, times, dps2, tol_digits + 10, form, log_eps, order2, None)
        with mpmath.workdps(dps2 + GUARD):
            B = _to_arrays(Z2, form, h, d, s)
            diff = _difference(arrays, B, form)
            ev1 = [(e.i, e.j, e.kind) for e in run.events]
            ev2 = [(e.i, e.j, e.kind) for e in run2.events]
            match = ev1 == ev2
            if match:
                for e1, e2 in zip(run.events, run2.events):
                    diff = max(diff, float(abs(e1.t - e2.t) / max(1, abs(e2.t))))
        err = diff if match else math.inf
        stats.update(rerun_dps=dps2, rerun_events_match=match, rerun_steps=run2.stats["steps"])
    err = max(err, defect)
    stats["wall_s"] = _time.perf_counter() - start
    params = {
        "dps": dps,
        "form": form,
        "order": N,
        "loss": field.loss.name,
        "alpha": float(field.alpha),
        "t_end": float(ts[-1]),
        "tol": f"1e-{tol_digits}",
        "estimate": estimate,
    }
    if le is not None:
        params["log_eps"] = mpmath.nstr(le, dps + GUARD)
    times_f = np.array([float(t) for t in ts])
    return Trajectory(
        times=times_f,
        W=arrays["W"],
        v=arrays["v"],
        events=run.events,
        backend="mp",
        r=arrays.get("r"),
        U=arrays.get("U"),
        log_eps=None if le is None else float(le),
        balancedness_drift=drift,
        error_estimate=err,
        stats=stats,
        params=params,
    )
