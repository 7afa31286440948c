"""``verify.simulate``: one entry point in front of the gradient-flow and GD backends.

Backends:

- ``"events"``: float64 exact event-driven gradient flow (Caratheodory solution with
  sigma'(0) = alpha, Filippov sliding recorded and continued), in Cartesian ``(W, v)`` or
  polar ``(r, U, s)`` form (:mod:`verify.dynamics.events`); the polar form runs the exact
  closed-form limit engine while float64 outputs are provably negligible (|f| <= 2^-60) and
  the polar ODE from there on (:mod:`verify.dynamics.hybrid`);
- ``"gd"``: discrete (stochastic when ``batch_size`` is set) gradient descent with step ``lr``
  (:mod:`verify.dynamics.gd`); Cartesian only;
- ``"limit"``: the closed-form eps -> 0 alignment dynamics;
  balanced init only, second layer trained; always polar;
- ``"mp"``: the mpmath reference backend (:mod:`verify.dynamics.mp`): Taylor series per mode,
  events located to full precision, ``dps`` digits (default 30), step tolerance 10^-``tol_digits``
  (default dps + 2; fewer digits give a cheaper, less accurate run at the same precision); W0/v0 may
  be float64, mpmath numbers or decimal strings, and are passed on unrounded. Form: "polar" when ``log_eps`` is
  given (balanced base), else "cartesian"; W/v come back as object arrays of mpf.

Scale conventions. By default ``W0`` (h, d) and ``v0`` (h,) are the initial weights *already
scaled by eps*. For eps too small for float64 pass ``log_eps = ln(eps)``: ``W0``, ``v0`` are
then the eps-free base with ``W(0) = exp(log_eps) W0`` and ``v(0) = exp(log_eps) v0``, which
must be balanced (|v0_j| = ||W0_j|| to 1e-12 relative) unless the Cartesian form is asked for
explicitly and ``exp(log_eps) W0`` is representable.

Form selection (``form=None``), as follows: ``"polar"`` when
``log_eps`` is given, or when the init is balanced with nonzero rows and its scale
``max_j ||w_j(0)||`` is below 1e-150 (where f ~ eps^2 underflows float64); ``"cartesian"``
otherwise. Backend "gd" is always Cartesian and "limit" always polar. The polar form needs a
balanced init with nonzero rows and ``train_v=True``.

Choices made here: ``dataset`` may be a :class:`verify.Dataset` or a tuple ``(X, y)``;
options that do not apply to the chosen backend (``lr`` or ``batch_size`` without "gd",
``dps`` or ``tol_digits`` without "mp") raise :class:`verify.InputError` rather than being ignored; ``times``
must be strictly increasing in ``[0, t_end]`` and ``t_end`` is appended when missing.

What float64 cannot integrate (issue #11): weights above 1e150 or initial outputs above 1e300
(also via ``log_eps``) and, in Cartesian form, a nonzero neuron ||(w_j, v_j)|| below 1e-300 are
InputErrors; eps > 1 (``log_eps > 0``) is accepted: a valid flow outside every theorem. A run
whose step size underflows (a flow too fast for float64, e.g. the loss growing like exp(eps^2))
ends with :class:`verify.NumericalError`, never a loop, and so does a result that is not finite.
One exception: the "limit" backend's result is its exact (r, U); its ``W = exp(r) U`` and ``v``
overflow to inf once r > 709.78 (the eps -> 0 dynamics grows ln||w|| linearly in t), which the
catalogue's long-horizon pattern claims rely on; ``verify simulate`` refuses to write such a
trajectory (exit 3).

Determined runs: a crossing whose switching settling finds no fixed point (several outcomes, none the law picks)
leaves the run undetermined after it; the trajectory says so (:attr:`Trajectory.uncertified`) and
:func:`uncertified_runs` collects such runs for a block, so that a claim's evaluation can never read one as
evidence (``verify.search.evaluate`` makes it inconclusive).
"""

from __future__ import annotations

import math
import sys
import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Iterator, NamedTuple

import mpmath
import numba
import numpy as np

from verify.data.dataset import Dataset
from verify.dynamics.field import NetworkField
from verify.dynamics.times import sample_times
from verify.errors import InputError, NumericalError
from verify.model.activation import check_alpha
from verify.model.losses import Loss, get_loss
from verify.trajectory import Trajectory

BACKENDS = ("events", "gd", "limit", "mp")
FORMS = ("cartesian", "polar")
BALANCE_RTOL = 1e-12
POLAR_SCALE = 1e-150  # auto-polar below this init scale
LOG_CARTESIAN_MIN = math.log(1e-300)  # smallest log-scale a Cartesian float64 state may start at
LOG_FLOAT_MAX = math.log(np.finfo(float).max)  # exp(r) overflows above this
AUTO_PROGRESS_DELAY_S = 2.0


_UNCERTIFIED: ContextVar[list[str] | None] = ContextVar("verify_uncertified_runs", default=None)


@contextmanager
def uncertified_runs() -> Iterator[list[str]]:
    """Collect, for the block, the reason (:attr:`Trajectory.uncertified`) of every run :func:`simulate` returns that
    is not a determined solution, the runs a claim's check simulates itself included. Blocks nest: what an inner block
    collects reaches the outer one too."""
    outer = _UNCERTIFIED.get()
    ledger: list[str] = []
    token = _UNCERTIFIED.set(ledger)
    try:
        yield ledger
    finally:
        _UNCERTIFIED.reset(token)
        if outer is not None:
            outer.extend(ledger)


def _noted(traj: Trajectory) -> Trajectory:
    ledger = _UNCERTIFIED.get()
    if ledger is not None and traj.uncertified is not None:
        ledger.append(traj.uncertified)
    return traj


def simulate(
    dataset: Dataset | tuple[Any, Any],
    W0: Any,
    v0: Any,
    t_end: float,
    *,
    loss: str | Loss = "exp",
    backend: str = "events",
    times: Any = None,
    rtol: float = 1e-10,
    dps: int | None = None,
    alpha: float = 0.0,
    lr: float | None = None,
    log_eps: float | None = None,
    form: str | None = None,
    train_v: bool = True,
    batch_size: int | None = None,
    seed: int = 0,
    log_time: bool | None = None,
    progress: bool | None | Callable[..., None] = False,
    tol_digits: int | None = None,
) -> Trajectory:
    """Simulate training of f(x) = sum_j v_j sigma(<w_j, x>) from (W0, v0) up to ``t_end``.

    Returns a :class:`Trajectory` sampled at ``times`` (plus ``t_end``; ``[t_end]`` when
    ``times`` is None). ``progress``: True shows a rich progress bar on stderr, None shows
    one only when stderr is a terminal and the run lasts more than a couple of seconds,
    False never; a callable is called as ``progress(t)`` while the run advances (an
    exception it raises aborts the run and propagates). ``log_time`` (None: automatic) is
    passed to the event-driven backend unchanged. All input problems raise
    :class:`verify.InputError`. See the module docstring for the scale and form conventions.
    """
    ds = _as_dataset(dataset)
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if form is not None and form not in FORMS:
        raise InputError(f"unknown form {form!r}; choose one of {', '.join(FORMS)} (or None for automatic)")
    loss_obj = get_loss(loss)
    alpha = check_alpha(alpha)
    t_end = _check_t_end(t_end)
    grid = _time_grid(times, t_end)
    rtol = _check_rtol(rtol)
    if backend == "mp":
        return _simulate_mp(ds, W0, v0, grid, loss_obj, alpha, dps, tol_digits, log_eps, form, bool(train_v), lr,
                            batch_size)
    W, v, facts = _check_weights(W0, v0, ds)
    lr = _check_backend_options(backend, lr, batch_size, dps, tol_digits, ds.n)
    if log_eps is not None:
        log_eps = _check_log_eps(log_eps)
    _check_float64_scale(facts, ds.d, log_eps)
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise InputError(f"seed must be an integer, got {seed!r}")

    chosen = _choose_form(backend, form, W, v, log_eps, bool(train_v), facts)
    field = NetworkField.from_dataset(ds, loss_obj, alpha, bool(train_v))
    reporter = _Progress(t_end, False if callable(progress) else progress)
    callback = _user_callback(progress) if callable(progress) else (reporter if reporter.enabled else None)
    start = time.perf_counter()
    try:
        traj = _dispatch(backend, chosen, field, W, v, log_eps, grid, rtol, lr, batch_size, int(seed), log_time, callback)
        reporter.finish()
    finally:
        reporter.close()
    wall = time.perf_counter() - start
    _check_result(traj)

    if chosen == "polar" and log_eps is not None and traj.log_eps is None:
        traj.log_eps = float(log_eps)
    traj.stats.setdefault("wall_time_s", wall)
    traj.params.update(
        {
            "loss": loss_obj.name,
            "alpha": alpha,
            "backend": backend,
            "form": chosen,
            "rtol": rtol,
            "lr": lr,
            "log_eps": None if log_eps is None else float(log_eps),
            "t_end": t_end,
            "seed": int(seed),
            "train_v": bool(train_v),
            "batch_size": batch_size,
            "dps": dps,
        }
    )
    return _noted(traj)


def _simulate_mp(ds: Dataset, W0: Any, v0: Any, grid: np.ndarray, loss: Loss, alpha: float, dps: Any, tol_digits: Any,
                 log_eps: Any, form: str | None, train_v: bool, lr: Any, batch_size: Any) -> Trajectory:
    """Backend "mp": validate the mp-specific options and hand the unrounded weights to solve_mp."""
    from verify.dynamics.mp import solve_mp

    if lr is not None or batch_size is not None:
        raise InputError("lr and batch_size apply to backend 'gd' only (got backend 'mp')")
    digits = 30 if dps is None else dps
    if isinstance(digits, bool) or not isinstance(digits, (int, np.integer)) or not 15 <= digits <= 2000:
        raise InputError(f"dps must be an integer in [15, 2000], got {dps!r}")
    chosen = form or ("polar" if log_eps is not None else "cartesian")
    field = NetworkField.from_dataset(ds, loss, alpha, train_v)
    start = time.perf_counter()
    traj = solve_mp(field, W0, v0, grid, dps=int(digits), form=chosen, tol_digits=tol_digits,
                    log_eps=None if log_eps is None else _check_log_eps(log_eps))
    traj.stats.setdefault("wall_time_s", time.perf_counter() - start)
    traj.params.update({"loss": loss.name, "alpha": alpha, "backend": "mp", "form": chosen, "dps": int(digits),
                        "t_end": float(grid[-1]), "log_eps": None if log_eps is None else float(log_eps)})
    return _noted(traj)


# validation ---------------------------------------------------------------------------------


def _as_dataset(dataset: Any) -> Dataset:
    if isinstance(dataset, Dataset):
        return dataset
    if isinstance(dataset, tuple) and len(dataset) == 2:
        return Dataset(dataset[0], dataset[1])
    raise InputError(f"dataset must be a verify.Dataset or a tuple (X, y), got {type(dataset).__name__}")


def _real_array(value: Any, name: str) -> np.ndarray:
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{name} is not an array: {exc}") from None
    if arr.dtype.kind not in "biuf":
        raise InputError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    return arr.astype(float)


def _check_weights(W0: Any, v0: Any, ds: Dataset) -> tuple[np.ndarray, np.ndarray, WeightFacts]:
    """(W, v) as float arrays of shapes (h, d), (h,), and their :class:`WeightFacts`; InputError for a wrong shape or a
    non-finite entry."""
    d = ds.d
    W = _real_array(W0, "W0")
    v = _real_array(v0, "v0")
    if W.ndim != 2:
        raise InputError(f"W0 must be a 2-D array (h, d), got shape {W.shape}")
    h = W.shape[0]
    if h == 0:
        raise InputError("W0 has no rows (h = 0)")
    if W.shape[1] != d:
        raise InputError(f"W0 has {W.shape[1]} columns but the data have dimension d = {d}")
    if v.shape != (h,):
        raise InputError(f"v0 must have shape ({h},) to match W0 {W.shape}, got {v.shape}")
    facts = weight_facts(W, v, ds.norms)
    if not facts.finite_W:
        raise InputError("W0 contains non-finite values")
    if not facts.finite_v:
        raise InputError("v0 contains non-finite values")
    return W, v, facts


class WeightFacts(NamedTuple):
    """What the validation and the form's choice read from the initial weights, in one compiled pass
    (:func:`weight_facts`); the rest only for finite W and v."""

    finite_W: bool
    finite_v: bool
    biggest: float  # the largest |weight|
    output_bound: float  # sum_j X_max |v_j| max_q |W_jq| (X_max: the largest data norm given, else 0)
    log_norms: np.ndarray  # ln ||w_j|| (:func:`row_log_norms`)
    balanced: bool  # |v_j| = ||w_j|| to BALANCE_RTOL relative (:func:`is_balanced`)
    nonzero: bool  # no zero row w_j
    v_max: float  # max_j |v_j|
    log_norm_max: float
    log_norm_min: float


def weight_facts(W: np.ndarray, v: np.ndarray, x_norms: np.ndarray | None = None) -> WeightFacts:
    """:class:`WeightFacts` of W (h, d), v (h,) (h >= 1) and the data norms ``x_norms`` (for the output bound)."""
    norms = np.empty(0) if x_norms is None else x_norms
    return WeightFacts(*_weight_facts(np.ascontiguousarray(W, dtype=float), np.ascontiguousarray(v, dtype=float),
                                      norms, BALANCE_RTOL))


@numba.njit(cache=True)
def _weight_facts(W: np.ndarray, v: np.ndarray, x_norms: np.ndarray, rtol: float) -> tuple:
    """The fields of :class:`WeightFacts`, each by the function that defines it (:func:`_all_finite`,
    :func:`_scale_bounds`, :func:`_row_log_norms`, :func:`_balanced_logs`), in one call."""
    finite_W, finite_v = _all_finite(W.reshape(-1)), _all_finite(v)
    if not (finite_W and finite_v):
        return finite_W, finite_v, math.nan, math.nan, np.empty(0), False, False, math.nan, math.nan, math.nan
    x_max, v_max = 0.0, 0.0
    for x in x_norms:
        x_max = max(x_max, x)
    for x in v:
        v_max = max(v_max, abs(x))
    biggest, output_bound = _scale_bounds(W, v, x_max)
    lw = _row_log_norms(W)
    return (True, True, biggest, output_bound, lw, _balanced_logs(lw, v, rtol), _all_finite(lw), v_max, lw.max(),
            lw.min())


@numba.njit(cache=True)
def _all_finite(a: np.ndarray) -> bool:
    """Every entry of the 1-d ``a`` is finite (``np.isfinite(a).all()`` without its temporary)."""
    for x in a:
        if not math.isfinite(x):
            return False
    return True


def _check_t_end(t_end: Any) -> float:
    try:
        value = float(t_end)
    except (TypeError, ValueError):
        raise InputError(f"t_end must be a number, got {t_end!r}") from None
    if not math.isfinite(value) or value <= 0.0:
        raise InputError(f"t_end must be a positive finite number, got {t_end!r}")
    return value


def _time_grid(times: Any, t_end: float) -> np.ndarray:
    """Strictly increasing sample times in [0, t_end], ending at t_end."""
    if times is None:
        return np.array([t_end])
    grid = _real_array(times, "times")
    if grid.ndim == 1 and grid.size == 0:
        return np.array([t_end])
    grid = sample_times(grid)
    if grid[-1] > t_end:
        raise InputError(f"times must not exceed t_end = {t_end!r}, got {float(grid[-1])!r}")
    if grid[-1] < t_end:
        grid = np.append(grid, t_end)
    return grid


def _check_rtol(rtol: Any) -> float:
    try:
        value = float(rtol)
    except (TypeError, ValueError):
        raise InputError(f"rtol must be a number, got {rtol!r}") from None
    if not (0.0 < value < 1.0):
        raise InputError(f"rtol must lie in (0, 1), got {rtol!r}")
    return value


LOG_WEIGHT_LIMIT = math.log(1e150)  # |weights| above this: their squares (balancedness, norms) overflow
LOG_OUTPUT_LIMIT = math.log(1e300)  # |f| above this: losses and gradients overflow


def _check_float64_scale(facts: WeightFacts, d: int, log_eps: float | None) -> None:
    """Refuse an initial state float64 cannot integrate: weights whose squares overflow, or outputs
    |f(x_i)| <= X_max sum_j |v_j| ||w_j|| beyond 1e300 (computed in log space; eps^2 = exp(2 log_eps); the bounds
    from :class:`WeightFacts`, d the data's dimension)."""
    shift = 0.0 if log_eps is None else log_eps
    biggest, output_bound = facts.biggest, facts.output_bound
    if biggest > 0.0 and math.log(biggest) + shift > LOG_WEIGHT_LIMIT:
        raise InputError(f"initial weights up to 10^{(math.log(biggest) + shift) / math.log(10):.0f}: beyond what float64 "
                         "can integrate (their squares overflow); the theorems are about small initialisations")
    if output_bound > 0.0:
        log_f = math.log(output_bound) + 0.5 * math.log(d) + 2.0 * shift
        if log_f > LOG_OUTPUT_LIMIT:
            raise InputError(f"initial outputs up to 10^{log_f / math.log(10):.0f}: beyond what float64 can integrate "
                             "(the loss and its gradient overflow); scale the initialisation down")


@numba.njit(cache=True)
def _scale_bounds(W: np.ndarray, v: np.ndarray, x_max: float) -> tuple[float, float]:
    """(the largest |weight|, sum_j X_max |v_j| max_q |W_jq|) of finite W (h, d), v (h,)."""
    biggest, total = 0.0, 0.0
    for j in range(W.shape[0]):
        row_max = 0.0
        for q in range(W.shape[1]):
            row_max = max(row_max, abs(W[j, q]))
        biggest = max(biggest, row_max, abs(v[j]))
        total += x_max * abs(v[j]) * row_max
    return biggest, total


def _check_log_eps(log_eps: Any) -> float:
    try:
        value = float(log_eps)
    except (TypeError, ValueError):
        raise InputError(f"log_eps must be a number, got {log_eps!r}") from None
    if not math.isfinite(value):
        raise InputError(f"log_eps must be finite, got {log_eps!r}")
    return value


def _check_backend_options(backend: str, lr: Any, batch_size: Any, dps: Any, tol_digits: Any, n: int) -> float | None:
    """Validate lr / batch_size (gd only) and dps / tol_digits (mp only); return lr as a float or None."""
    for name, value in (("dps", dps), ("tol_digits", tol_digits)):
        if value is not None:
            raise InputError(f"{name} applies to backend 'mp' only (got backend {backend!r})")
    if backend != "gd":
        if lr is not None:
            raise InputError(f"lr applies to backend 'gd' only (got backend {backend!r})")
        if batch_size is not None:
            raise InputError(f"batch_size applies to backend 'gd' only (got backend {backend!r})")
        return None
    if lr is None:
        raise InputError("backend 'gd' needs a step size lr > 0")
    try:
        step = float(lr)
    except (TypeError, ValueError):
        raise InputError(f"lr must be a number, got {lr!r}") from None
    if not math.isfinite(step) or step <= 0.0:
        raise InputError(f"lr must be a positive finite number, got {lr!r}")
    if batch_size is not None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or not 1 <= batch_size <= n:
            raise InputError(f"batch_size must be an integer in [1, n = {n}], got {batch_size!r}")
    return step


# scales and forms ---------------------------------------------------------------------------


def row_log_norms(W: np.ndarray) -> np.ndarray:
    """ln ||W_j|| per row without underflow (-inf for zero rows): ln m_j + ln sqrt(sum_q (W_jq / m_j)^2), m_j the
    largest |W_jq| (NaN for a row holding NaN)."""
    return _row_log_norms(np.ascontiguousarray(W, dtype=float))


@numba.njit(cache=True)
def _row_log_norms(W: np.ndarray) -> np.ndarray:
    out = np.empty(W.shape[0])
    for j in range(W.shape[0]):
        m, nan = 0.0, False
        for q in range(W.shape[1]):
            nan |= math.isnan(W[j, q])
            m = max(m, abs(W[j, q]))
        if nan or m == 0.0:
            out[j] = math.nan if nan else -math.inf
            continue
        acc = 0.0
        for q in range(W.shape[1]):
            acc += (W[j, q] / m) * (W[j, q] / m)
        out[j] = math.log(m) + math.log(math.sqrt(acc))
    return out


def is_balanced(W: np.ndarray, v: np.ndarray, rtol: float = BALANCE_RTOL) -> bool:
    """|v_j| = ||W_j|| for all j to ``rtol`` relative (computed without underflow)."""
    return _balanced(row_log_norms(W), v, rtol)


def _balanced(lw: np.ndarray, v: np.ndarray, rtol: float = BALANCE_RTOL) -> bool:
    """:func:`is_balanced` given lw = :func:`row_log_norms` (W): |ln|v_j| - lw_j| <= rtol, or both -inf."""
    return _balanced_logs(lw, np.ascontiguousarray(v, dtype=float).reshape(-1), float(rtol))


@numba.njit(cache=True)
def _balanced_logs(lw: np.ndarray, v: np.ndarray, rtol: float) -> bool:
    for j in range(lw.size):
        lv = math.log(abs(v[j])) if v[j] != 0.0 else -math.inf
        if lw[j] == -math.inf and lv == -math.inf:
            continue
        if not (math.isfinite(lw[j]) and math.isfinite(lv) and abs(lw[j] - lv) <= rtol):
            return False
    return True


def _choose_form(backend: str, form: str | None, W: np.ndarray, v: np.ndarray, log_eps: float | None, train_v: bool,
                 facts: WeightFacts | None = None) -> str:
    """The form ("cartesian" or "polar") of a run from finite (W, v) (``facts``: their :class:`WeightFacts`, made
    here when None); InputError when the form asked for does not apply."""
    facts = weight_facts(W, v) if facts is None else facts
    log_norms, balanced, nonzero = facts.log_norms, facts.balanced, facts.nonzero
    if backend == "limit":
        if form == "cartesian":
            raise InputError("backend 'limit' is the polar eps -> 0 dynamics; form 'cartesian' does not apply")
        chosen = "polar"
    elif backend == "gd":
        if form == "polar":
            raise InputError("backend 'gd' runs in Cartesian form only; form 'polar' does not apply")
        chosen = "cartesian"
    elif form is not None:
        chosen = form
    elif log_eps is not None:
        chosen = "polar"
    else:
        scale = max(facts.v_max, math.exp(min(facts.log_norm_max, 0.0)))
        chosen = "polar" if balanced and nonzero and train_v and scale < POLAR_SCALE else "cartesian"

    if chosen == "polar":
        if not balanced:
            where = "the eps-free base (W0, v0)" if log_eps is not None else "(W0, v0)"
            raise InputError(f"the polar form needs a balanced init (|v0_j| = ||W0_j|| to 1e-12 relative); {where} is not balanced")
        if not nonzero:
            j = int(np.flatnonzero(~np.isfinite(log_norms))[0])
            raise InputError(f"the polar form needs nonzero rows W0_j; row {j} is zero (drop it: a zero neuron never moves)")
        if not train_v:
            raise InputError("the polar form is valid only with the second layer trained (train_v=True)")
    else:
        _check_cartesian_scale(W, v, log_eps, facts.log_norm_min)
    return chosen


def _check_cartesian_scale(W: np.ndarray, v: np.ndarray, log_eps: float | None, log_norm_min: float) -> None:
    """Refuse a Cartesian float64 state with a nonzero neuron smaller than 1e-300: ln ||(w_j, v_j)|| (+ log_eps)
    below LOG_CARTESIAN_MIN leaves no error control (the engine's atol floor) and subnormal weights keep few bits.
    ``log_norm_min``: the least ln ||w_j|| (:class:`WeightFacts`); when it is at least LOG_CARTESIAN_MIN + 1 (and no
    log_eps) every neuron passes at once, since ||(w_j, v_j)|| >= ||w_j||."""
    if log_eps is None and log_norm_min >= LOG_CARTESIAN_MIN + 1.0:
        return
    sizes = row_log_norms(np.column_stack([W, v])) + (0.0 if log_eps is None else log_eps)
    nonzero = sizes[np.isfinite(sizes)]
    if nonzero.size and float(nonzero.min()) < LOG_CARTESIAN_MIN:
        smallest = float(nonzero.min()) / math.log(10)
        what = f"eps = exp({log_eps:.6g})" if log_eps is not None else f"an init with a neuron of size 10^{smallest:.0f}"
        raise InputError(f"{what} is too small for the Cartesian float64 form (weights below 1e-300); use a balanced "
                         "init (polar form, backend 'events' or 'limit') or backend 'mp'")


_mp_finite = np.frompyfunc(lambda x: bool(mpmath.isfinite(x)), 1, 1)


def nonfinite_state(traj: Trajectory) -> str | None:
    """None when W, v and the balancedness drift are finite (mpmath numbers: finite at any magnitude); else the
    reason, naming the first sample time and, where exp(r) outgrew float64 (r > ln 1.8e308), the log-norm."""
    if traj.W.dtype == object:
        finite = _mp_finite(traj.W).astype(bool).all(axis=(1, 2)) & _mp_finite(traj.v).astype(bool).all(axis=1)
        if finite.all():
            return None
        k = int(np.flatnonzero(~finite)[0])
        return f"the state at t = {float(traj.times[k]):.6g} (backend {traj.backend!r}) is not finite"
    if _all_finite(traj.W.reshape(-1)) and _all_finite(traj.v.reshape(-1)) and math.isfinite(traj.balancedness_drift):
        return None
    finite = np.isfinite(traj.W).all(axis=(1, 2)) & np.isfinite(traj.v).all(axis=1)
    k = int(np.flatnonzero(~finite)[0]) if not finite.all() else len(traj.times) - 1
    where = f"at t = {float(traj.times[k]):.6g} (backend {traj.backend!r})"
    if traj.r is not None and np.any(traj.r[k] > LOG_FLOAT_MAX):
        return f"||w_j|| = exp({float(np.max(traj.r[k])):.6g}) {where} is beyond float64's range; shorten the horizon"
    return f"the state {where} is not finite"


def _check_result(traj: Trajectory) -> None:
    """NaN or inf is never a result: NumericalError (:func:`nonfinite_state`), except that the limit
    backend's result is its exact (r, U), whose W = exp(r) U may overflow on long horizons (documented)."""
    reason = nonfinite_state(traj)
    polar_exact = traj.backend == "limit" and np.all(np.isfinite(traj.r)) and np.all(np.isfinite(traj.U))
    if reason is not None and not polar_exact:
        raise NumericalError(reason)


def polar_state(W: np.ndarray, v: np.ndarray, log_eps: float | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(r0, U0, s) with r0_j = ln ||w_j(0)|| (plus log_eps), U0_j = W_j / ||W_j||, s_j = sign(v_j)."""
    log_norms = row_log_norms(W)
    m = np.max(np.abs(W), axis=1)
    scaled = W / m[:, None]
    U0 = scaled / np.linalg.norm(scaled, axis=1)[:, None]
    r0 = log_norms + (0.0 if log_eps is None else log_eps)
    return r0, U0, np.sign(v)


def _dispatch(
    backend: str,
    form: str,
    field: NetworkField,
    W: np.ndarray,
    v: np.ndarray,
    log_eps: float | None,
    grid: np.ndarray,
    rtol: float,
    lr: float | None,
    batch_size: int | None,
    seed: int,
    log_time: bool | None,
    progress: Callable[..., None] | None,
) -> Trajectory:
    if form == "cartesian" and log_eps is not None:
        scale = math.exp(log_eps)
        W, v = scale * W, scale * v
    if backend == "gd":
        from verify.dynamics.gd import solve_gd

        return solve_gd(field, W, v, grid, lr=lr, batch_size=batch_size, seed=seed, progress=progress)
    r0, U0, s = polar_state(W, v, log_eps) if form == "polar" else (None, None, None)
    if backend == "limit":
        from verify.dynamics.limit import solve_limit

        return solve_limit(field, U0, s, grid, r0=r0)
    from verify.dynamics.events import solve_cartesian

    options: dict[str, Any] = {"rtol": rtol, "progress": progress}
    if log_time is not None:
        options["log_time"] = log_time
    if form == "polar":
        from verify.dynamics.hybrid import solve_polar_hybrid

        return solve_polar_hybrid(field, r0, U0, s, grid, **options)
    return solve_cartesian(field, W, v, grid, **options)


# progress -----------------------------------------------------------------------------------


class _Progress:
    """Callable progress(t) for the backends: a rich bar on stderr, started lazily and throttled."""

    def __init__(self, t_end: float, mode: bool | None) -> None:
        self.t_end = t_end
        self.forced = mode is True
        self.enabled = self.forced or (mode is None and _stderr_is_tty())
        self.created = time.monotonic()
        self.last = 0.0
        self._bar: Any = None
        self._task: Any = None

    def __call__(self, t: float, *_: Any) -> None:
        """Report time ``t`` (extra arguments, such as t_end, are ignored)."""
        now = time.monotonic()
        if self._bar is None:
            if not self.forced and now - self.created < AUTO_PROGRESS_DELAY_S:
                return
            self._start()
        if now - self.last >= 0.1:
            self.last = now
            self._bar.update(self._task, completed=min(float(t), self.t_end))

    def _start(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self._bar = Progress(
            TextColumn("simulate t"),
            BarColumn(),
            TextColumn("{task.completed:.4g} / {task.total:.4g}"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=not self.forced,
        )
        self._bar.start()
        self._task = self._bar.add_task("simulate", total=self.t_end)

    def finish(self) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=self.t_end)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def _user_callback(fn: Callable[[float], None]) -> Callable[..., None]:
    """Adapt a user's progress(t) to the backends' calls (gd passes t_end too)."""

    def call(t: float, *_: Any) -> None:
        fn(t)

    return call


def _stderr_is_tty() -> bool:
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError):
        return False
