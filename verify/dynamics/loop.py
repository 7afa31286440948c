"""The compiled loop bound to one run (:class:`CompiledLoop`), and what a run hands back (:class:`Run`).

:func:`loop_jit.run` takes its constants, scratch and state as arrays; :class:`CompiledLoop` holds them for one run
and turns each call's results back into Python: the cursor (:class:`control.Cursor`), the counters, the events. A run
with a built-in loss starts with :meth:`CompiledLoop.first` before any :class:`engine.Engine` exists
(:func:`engine.integrate`); when that call ends the run, :meth:`CompiledLoop.finished` is its result, and otherwise
the engine takes over (:meth:`CompiledLoop.resume`) and calls :meth:`CompiledLoop.advance` after each of its own
iterations.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numba
import numpy as np

from verify.dynamics import crossings, loop_jit, rk_jit, scan
from verify.dynamics.control import LOW_ORDERS, Cursor
from verify.dynamics.detect import NODES
from verify.dynamics.forms import CartesianForm, PolarForm
from verify.dynamics.settle import SURFACE_TOL, Mode, apex_passages
from verify.errors import NumericalError
from verify.trajectory import Event

if TYPE_CHECKING:
    from verify.dynamics.engine import Engine

MAX_NULL_RESTARTS = 200
CHECKPOINT_STEPS = 256  # the compiled loop reports back after this many steps (progress, Ctrl-C, event buffer)
_NO_PAIRS, _NO_TOL = np.empty(0, dtype=np.int64), np.empty(0)  # no sliding pairs (the compiled loop only reads them)
STAT_NAMES = ("steps", "steps_rk23", "steps_rk45", "rejected", "rhs_evals", "n_events", "n_restarts", "touches",
              "nonunique", "unsettled", "sliding_evals", "sticky_pairs")
LOOP_STATS = ("steps", "steps_rk23", "steps_rk45", "rejected", "rhs_evals", "n_restarts", "nonunique",
              "sliding_evals")  # the counters of :func:`loop_jit.run` (``settle_jit.STAT_*``), in order


class CompiledLoop:
    """:func:`loop_jit.run` bound to one run: the constant arguments, the event buffer, and the hand-back (statuses
    in :mod:`loop_jit`) to the Python iteration of an :class:`Engine`. :meth:`first` starts a run compiled, before any
    engine exists (:func:`integrate`); :meth:`resume` hands what it did to an engine; :meth:`advance` goes on from an
    engine's cursor."""

    def __init__(self, form: CartesianForm | PolarForm, K: np.ndarray, shared: np.ndarray, rtol: float,
                 step_rtol: np.ndarray, atol: np.ndarray | None, log_time: bool, s_grid: np.ndarray, out: np.ndarray,
                 max_step: float) -> None:
        """``shared``: the rows whose line through 0 holds other rows; ``atol`` None: rtol times each neuron's size."""
        X, y, sgn, r_ref, h, d, loss, train_v, polar = form.compiled_args()
        self.form, self.s_grid, self.out = form, s_grid, out
        n, N = X.shape[0], out.shape[1]
        per_neuron = atol is None
        self.args = (float(s_grid[-1]), float(max_step), float(rtol), step_rtol,
                     np.zeros(N) if per_neuron else np.ascontiguousarray(atol, dtype=float), per_neuron)
        self.consts = (X, form.field.norms, K, y, sgn, r_ref, float(form.field.alpha), int(loss), bool(train_v),
                       bool(polar), bool(log_time), lands_on_samples(log_time), shared, form.block.start, h, d,
                       SURFACE_TOL, MAX_NULL_RESTARTS, CHECKPOINT_STEPS)
        cap = max(4096, 4 * (n * h + h))
        self.ev_t, self.ev_ij, self.ev_kd = np.empty(cap), np.empty((cap, 2), dtype=np.int64), np.empty((cap, 2), dtype=np.int64)
        self.pairs = np.empty((n * h, 2), dtype=np.int64)
        self.stats = np.zeros(len(LOOP_STATS), dtype=np.int64)
        self.mode: Mode | None = None
        self.handed: tuple = ()

    @classmethod
    def of_engine(cls, eng: Engine, s_grid: np.ndarray, out: np.ndarray, max_step: float) -> CompiledLoop:
        return cls(eng.form, eng.K, shared_rows(eng.rep), eng.rtol, eng.step_rtol_vec, eng.atol,
                   eng.log_time, s_grid, out, max_step)

    def _call(self, fs: np.ndarray, ks: np.ndarray, z: np.ndarray, f: np.ndarray, m: Mode, ii: np.ndarray,
              jj: np.ndarray, tol: np.ndarray, start: bool) -> tuple[int, int]:
        self.stats[:] = 0
        return loop_jit.run(fs, ks, self.stats, z, f, self.out, self.s_grid, *self.args, m.S, m.side, m.armed, m.dead,
                            ii, jj, tol, *self.consts, self.ev_t, self.ev_ij, self.ev_kd, self.pairs, rk_jit.TABLEAUS,
                            LOW_ORDERS, rk_jit.TABLEAU_853, rk_jit.DENSE_853, crossings.CHEB, scan.DER, NODES, start)

    def _collect(self, ks: np.ndarray, stats: dict, events: list[Event]) -> None:
        """Add the last call's counters to ``stats`` and its logged events to ``events``."""
        for key, v in zip(LOOP_STATS, self.stats.tolist()):
            stats[key] += v
        logged = int(ks[4])
        if logged:
            events += Event.from_log(self.ev_t[:logged].tolist(), self.ev_ij[:logged].tolist(),
                                     self.ev_kd[:logged].tolist())

    def first(self, z0: np.ndarray, first_step: float | None) -> int:
        """The run's first call, with its compiled start (:func:`loop_jit.run`): fresh mode arrays and cursor, the
        samples at t = 0 written. Returns the status (``PY_START``: Python must start, :meth:`Engine.start`)."""
        self.mode = Mode.fresh(self.consts[0].shape[0], self.form.h)
        fs, ks = FRESH_CURSOR[0].copy(), FRESH_CURSOR[1].copy()
        fs[1] = math.nan if first_step is None else first_step
        k = 0
        while k < self.s_grid.size and self.s_grid[k] <= 0.0:  # the samples at t = 0
            self.out[k] = z0
            k += 1
        ks[0] = k
        z, f = z0.copy(), np.empty(z0.size)
        status, n_pairs = self._call(fs, ks, z, f, self.mode, _NO_PAIRS, _NO_PAIRS, _NO_TOL, True)
        self.handed = (status, n_pairs, fs, ks, z, f)
        return status

    def finished(self) -> Run:
        """The :class:`Run` of a first call that ended the run (status ``DONE``), with no engine."""
        _, _, fs, ks, z, _ = self.handed
        stats: dict = dict.fromkeys(STAT_NAMES, 0)
        events: list[Event] = []
        self._collect(ks, stats, events)
        self.out[int(ks[0]):] = z
        logged = int(ks[4])
        finish_stats(stats, events, self.form.field.X, (self.ev_t[:logged], self.ev_ij[:logged, 0]))
        return Run(self.out, events, stats, float(fs[2]), float(fs[3]))

    def resume(self, eng: Engine, cur: Cursor) -> bool:
        """Hand the first call's work to ``eng`` (its mode arrays are :attr:`mode`): the cursor, statistics, events,
        and the status's follow-up (:meth:`_handled`). False when the next iteration is Python's."""
        status, n_pairs, fs, ks, z, f = self.handed
        return self._handled(eng, cur, status, n_pairs, fs, ks, z, f)

    def advance(self, eng: Engine, cur: Cursor) -> bool:
        """Run compiled from the cursor; False when the next iteration is Python's (:meth:`Engine.iterate`)."""
        m = eng.mode
        fs, ks = pack_cursor(cur, eng.err_sum, eng.unorm_drift)
        z, f = np.array(cur.z, dtype=float), np.array(cur.f, dtype=float)
        ii, jj, tol = _NO_PAIRS, _NO_PAIRS, _NO_TOL
        if m.sliding:  # the sliding pairs, each alone on its neuron and line (Engine.slides_compiled)
            ii, jj = eng.slide_args()[:2]
            tol = eng.slide_tol[ii, jj]
        status, n_pairs = self._call(fs, ks, z, f, m, ii, jj, tol, False)
        return self._handled(eng, cur, status, n_pairs, fs, ks, z, f)

    def _handled(self, eng: Engine, cur: Cursor, status: int, n_pairs: int, fs: np.ndarray, ks: np.ndarray,
                 z: np.ndarray, f: np.ndarray) -> bool:
        """After a call: the cursor and the engine's error sums from fs / ks, the counters and events, then the
        status's follow-up (chattering raised, an event point settled in Python, progress)."""
        cur.s, cur.step, eng.err_sum, eng.unorm_drift, *own, cur.lim, cur.gap, cur.s_event = fs.tolist()
        cur.own[:] = own
        cur.k, cur.rejected, cur.null_restarts, cur.calm, cur.pair = int(ks[0]), bool(ks[1]), int(ks[2]), int(ks[3]), int(ks[5])
        cur.z, cur.f = z, f
        self._collect(ks, eng.stats, eng.events)
        if status == loop_jit.CHATTER:
            raise NumericalError(f"no progress past an event at t = {eng.t_of(cur.s):.6g} (chattering)")
        if status == loop_jit.SETTLE:
            eng.restart(cur, [(int(i), int(j)) for i, j in self.pairs[:n_pairs].tolist()])
        if eng.progress is not None and status != loop_jit.PY_STEP:
            eng.progress(eng.t_of(cur.s))
        return status != loop_jit.PY_STEP


@numba.njit(cache=True)
def shared_rows(rep: np.ndarray) -> np.ndarray:
    """Per row, whether its line through 0 (``rep`` of :func:`switching.lines`: each row's first row on its line)
    holds other rows (bool (n,))."""
    count = np.zeros(rep.size, np.int64)
    for i in range(rep.size):
        count[rep[i]] += 1
    shared = np.empty(rep.size, np.bool_)
    for i in range(rep.size):
        shared[i] = count[rep[i]] > 1
    return shared


def pack_cursor(cur: Cursor, err_sum: float, drift: float) -> tuple[np.ndarray, np.ndarray]:
    """(fs, ks) of :func:`loop_jit.run` from a cursor and the run's error sum and ||u|| drift."""
    fs = np.array([cur.s, cur.step, err_sum, drift, *cur.own, cur.lim, cur.gap, cur.s_event])
    ks = np.array([cur.k, int(cur.rejected), cur.null_restarts, cur.calm, 0, cur.pair], dtype=np.int64)
    return fs, ks


FRESH_CURSOR = pack_cursor(Cursor(0.0, _NO_TOL, _NO_TOL, 0.0), 0.0, 0.0)  # a run's start (copied by each first call)


@dataclass
class Run:
    """What a run hands back: the samples (k, N), the event log, the statistics, the sum of the steps' error
    estimates, and the largest | ||u_j|| - 1 | seen (polar form)."""

    out: np.ndarray
    events: list[Event]
    stats: dict
    err_sum: float
    unorm_drift: float


def finish_stats(stats: dict, events: list[Event], X: np.ndarray,
                 log: tuple[np.ndarray, np.ndarray] | None = None) -> None:
    """The statistics read from the whole event log: n_events, apex (:func:`settle.apex_passages`; ``log``: the
    events' times and rows as arrays, when at hand)."""
    stats["n_events"] = len(events)
    stats["apex"] = apex_passages(events, X, log)


def lands_on_samples(log_time: bool) -> bool:
    """Whether a run's steps end on its sample times instead of reading them off the dense output (which is not
    error-controlled): in log time, where such samples were off by up to 4e-6 at rtol 1e-10 (:mod:`engine`,
    "Samples"). The one rule for the Python iteration and the compiled loop."""
    return bool(log_time)


def run_variable(t: np.ndarray, log_time: bool) -> np.ndarray:
    """The integration variable at times t: tau = ln(1 + t) in log time, else t."""
    return np.log1p(t) if log_time else np.asarray(t, float)


def time_of(s: float, log_time: bool) -> float:
    """The time at the integration variable s (the inverse of :func:`run_variable`): e^s - 1 in log time, else s."""
    return math.expm1(s) if log_time else s


def step_rtol_vector(form: CartesianForm | PolarForm, rtol: float, size: int) -> np.ndarray:
    """The relative part of the steps' error scale, per component (:meth:`CartesianForm.step_rtol`)."""
    rtol_k = form.step_rtol(rtol)
    if isinstance(rtol_k, np.ndarray):
        return np.array(rtol_k, dtype=float)
    out = np.empty(size)
    out.fill(float(rtol_k))
    return out
