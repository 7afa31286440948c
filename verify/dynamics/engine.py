"""Event-driven exact gradient flow: integrate mode by mode, switch at every crossing.

:class:`Engine` (this module: the run, one trial step, step control, samples) glues the pieces: a
state form (:mod:`forms`), Runge-Kutta steps with dense output (:mod:`stepper`), event detection
on the dense output (:mod:`detect`: :mod:`crossings`, its compiled fast path :mod:`scan`), and
settling at event points (:mod:`settle`: the switching law, :mod:`switching`). The entry points
are :func:`events.solve_cartesian` and :func:`events.solve_polar`. It knows nothing about claims. Hot loops are compiled with numba (:mod:`field_jit`, :mod:`rk_jit`,
:mod:`scan`, :mod:`engine_jit`); each has a numpy reference it is tested against.

One iteration (:meth:`Engine.iterate`) is one trial step. For a built-in loss the iterations run
inside :func:`loop_jit.run` (the whole step-to-next-event loop compiled: steps, scan, samples, event
points, single-pair settling, sliding pairs alone on their neurons and lines); it hands back to
:meth:`Engine.iterate` for the rare steps it does not handle (a non-monotone candidate, a sliding exit, several
near pairs on one neuron or a shared line, a pair that starts sliding, any event point while a pair slides) and
resumes after them. A run starts in :func:`integrate`: for a built-in loss the first compiled call
(:meth:`loop.CompiledLoop.first`) makes the start too (the mode, the slope, the first step size, as
:meth:`Engine.start` makes them), and an :class:`Engine` is made only when that call hands back (it takes over
where the call stopped) or declines the start (a pair on its surface at t = 0: :meth:`Settling.initial_mode`).
``COMPILED_LOOP = False`` runs every iteration in Python (the oracle of the tests).

Loop: take an accepted step in the current mode S (slope matrix, sliding pairs with their
Filippov slopes recomputed at every rhs evaluation); find the earliest x in (0, 1] of the step
where some pair leaves its side (or a sliding slope leaves [alpha, 1]); write the requested
samples up to there from the dense output; if there is an event, move to the event point,
put every pair within tau_ij = 1e-12 ||x_i|| ||w_j|| of its surface exactly onto it
(projection of w_j / u_j), settle those pairs (:func:`switching.resolve_neuron`), log the
events, and restart there (no new solver object, one rhs evaluation for the new slope).

Step strategy (:mod:`control`): DOP853 (8th order, 7th-order dense output) away from events; after an event the
next step is capped at EVENT_CAP times the part of the last step used, and for CHEAP_STEPS steps the pair -- the
Bogacki-Shampine 3(2), the Dormand-Prince 5(4) (both with a free interpolant) or DOP853 -- is the one that reaches
the next event in the fewest evaluations by its own step size. Every step, of any pair, is accepted only if its own
embedded error estimate passes.

Pairs put on their surface are *disarmed* (their event function is side*e + tau) until they
have left it by tau, so a crossing is never re-detected (no chattering); a pair that goes back
by more than tau is a new event whose arrival side is known, so it crosses or slides
(:func:`switching.resolve_neuron`), it never bounces.

Sliding pairs are kept exactly on their surface (projection after every accepted step, FSAL
slope refreshed) and leave it ("sliding_exit") when their slope leaves [alpha - tol, 1 + tol],
sampled at 9 nodes per step and located by brentq; tol = 1e-9, growing x4 per re-entry after
4 re-entries of the same pair (up to 1e-6; ``stats["sticky_pairs"]``), which stops endless
exit/re-entry cycles at points where a one-sided field is tangent to the surface.
With alpha = 0 a neuron whose column of S is all inactive and not sliding is dead: logged once
(kind "dead", i = -1) and frozen (its field is exactly zero; it is no longer watched).

Samples: read from the dense output of the step that contains them; in log time the steps end on the sample
times instead (a step that would pass the next sample is shortened to it, and the controller's proposal is
kept for the step after): the dense output is not error-controlled, and in log time, on stiff converged
directions (eps = e^-3000, t ~ 200), samples read from it were off by up to 4e-6 at rtol 1e-10 while the
step ends were accurate.

Independent variable: t, or tau = ln(1 + t) with dz/dtau = e^tau F(z) (``log_time``; chosen
automatically when t_end > 1e3). Tolerances: the pair's error norm with scale atol + rtol |z|;
Cartesian default atol: for each component, rtol * ||(w_j, v_j)|| of its neuron at the step
start (accuracy relative to each neuron, also for neurons that shrink by many orders of
magnitude: balancedness is then kept relative to each neuron); polar z = [r - r(0), U] with
default atol = rtol (absolute accuracy rtol in ln||w_j|| and in u_j, whatever eps).

Stats: steps (accepted), steps_rk23 and steps_rk45 (of them, 3(2) and 5(4) steps), rejected, rhs_evals, n_events,
n_restarts (event points), touches (grazing points), nonunique (both sides repel: sigma'(0) = 0 side taken), sliding_evals,
sticky_pairs, wall_s, log_time, log_loss (log L at the samples), loss_underflow_float64 (a
per-sample loss exp(-y f) below float64 range), and for the polar form u_norm_drift,
weights_underflow_float64 and outputs_underflow_float64 (exp(r), exp(2r) flush to 0: the
eps -> 0 limit, exact to float64 resolution).

``Trajectory.error_estimate`` is the sum over accepted steps of the embedded local error
estimates, in relative units (err_norm * rtol): an a-posteriori indicator, not a bound (it
ignores error propagation); a rerun at a tighter rtol is the caller's check.
"""

from __future__ import annotations

import functools
import math
from typing import Callable

import numpy as np

from verify.dynamics import engine_jit, filippov_jit, loop_jit, rk_jit, stepper, switching
from verify.dynamics.control import PAIRS, Cursor
from verify.dynamics.detect import Detection
from verify.dynamics.filippov import Filippov
from verify.dynamics.forms import CartesianForm, PolarForm, row_norms
from verify.dynamics.loop import (MAX_NULL_RESTARTS, STAT_NAMES, CompiledLoop, Run, finish_stats, lands_on_samples,
                                  run_variable, shared_rows, step_rtol_vector, time_of)
from verify.dynamics.settle import SLIDE_TOL, SURFACE_TOL, Handover, Mode, Settling
from verify.errors import NumericalError
from verify.trajectory import Event

COLLAPSED = 1e-6  # a neuron vector this far below every other one is named in a step-size underflow
COMPILED_LOOP = True  # run the common path in :func:`loop_jit.run` (False: every iteration in Python)


class Engine(Settling, Detection, Filippov):
    """One integration run (mutable working state; created per call)."""

    def __init__(self, form: CartesianForm | PolarForm, z0: np.ndarray, log_time: bool, rtol: float, atol: np.ndarray | None, progress: Callable[[float], None] | None) -> None:
        self.form, self.fieldobj = form, form.field
        self.X, self.alpha = np.ascontiguousarray(form.field.X, dtype=float), form.field.alpha
        self.K = self.X @ self.X.T
        self.xnorm = form.field.norms
        self.rep, self.sgn = switching.lines(self.X)  # rows on one line through 0 share a surface (coupled slopes)
        self.log_time, self.rtol, self.atol = log_time, rtol, atol
        self.step_rtol = form.step_rtol(rtol)  # the relative part of the step error's scale (0 for polar log-norms)
        self.step_rtol_vec = step_rtol_vector(form, rtol, z0.size)  # per component for the compiled steps
        self.land_on_samples = lands_on_samples(log_time)  # steps end on the sample times
        self.progress = progress
        self.z = z0.copy()
        self.events: list[Event] = []
        self.stats = dict.fromkeys(STAT_NAMES, 0)
        self.err_sum = 0.0
        self.unorm_drift = 0.0
        self.mode = Mode.fresh(self.X.shape[0], form.h)
        self.handover: Handover | None = None  # the switching state at t = 0 instead of initial_mode

    # made when first needed (the Python settling and sliding paths; a run the compiled loop makes alone needs none) --
    @functools.cached_property
    def line_rows(self) -> dict[int, np.ndarray]:
        """The rows of each line through 0 that holds several rows (:func:`switching.line_rows`)."""
        return switching.line_rows(self.rep)

    @functools.cached_property
    def coupled(self) -> bool:
        """Some line through 0 holds several rows (their surfaces and sliding slopes are coupled)."""
        return bool(self.line_rows)

    @functools.cached_property
    def _no_slide(self) -> tuple:
        return filippov_jit.no_slide(self.K, self.alpha)

    @functools.cached_property
    def slide_entries(self) -> np.ndarray:
        """How many times each pair entered sliding (its hysteresis grows after STICKY_AFTER)."""
        return np.zeros(self.mode.S.shape, dtype=int)

    @functools.cached_property
    def slide_tol(self) -> np.ndarray:
        """Each pair's sliding hysteresis (:func:`settle.slide_tolerance`)."""
        return np.full(self.mode.S.shape, SLIDE_TOL)

    def atol_of(self, z: np.ndarray) -> np.ndarray:
        """Fixed atol, or (Cartesian default) rtol times the size of each component's neuron."""
        return self.atol if self.atol is not None else self.rtol * self.form.component_scale(z)

    # time maps ------------------------------------------------------------------------------
    def t_of(self, s: float) -> float:
        return time_of(s, self.log_time)

    def s_of(self, t: np.ndarray) -> np.ndarray:
        return run_variable(t, self.log_time)

    # vector field in the current mode (the sliding pairs' slopes: :class:`filippov.Filippov`) -----------
    def rhs(self, s: float, z: np.ndarray) -> np.ndarray:
        self.stats["rhs_evals"] += 1
        F = self.form.rhs(z, self.effective_S(z))
        return math.exp(s) * F if self.log_time else F

    # surface handling -----------------------------------------------------------------------
    def tau(self, z: np.ndarray) -> np.ndarray:
        return SURFACE_TOL * self.xnorm[:, None] * self.form.neuron_scale(z)[None, :]

    # one step ---------------------------------------------------------------------------------
    def attempt(self, s: float, z: np.ndarray, f: np.ndarray, h: float, pair: int) -> tuple[stepper.StepResult, np.ndarray | None]:
        """A trial step of ``pair`` (:data:`PAIRS`) and, for a low-order pair, its dense matrix (None: DOP853's needs
        3 more rhs evaluations, made by :meth:`dense` only if the step is accepted). The steps are compiled
        (:mod:`rk_jit`) under :meth:`compiled_steps`."""
        atol = self.atol_of(z)
        low = PAIRS[pair]
        if not self.compiled_steps():
            if low is None:
                return stepper.step(self.rhs, s, z, f, h, self.step_rtol, atol), None
            res = stepper.step_low(self.rhs, s, z, f, h, self.step_rtol, atol, low)
            return res, stepper.dense_matrix_low(res, h, low)
        if low is None:
            self._count_evals(stepper.N_STAGES)
            z_new, f_new, err, K = rk_jit.dop853_step(s, z, f, h, self.step_rtol_vec, atol, self.mode.S, *self.form.compiled_args(), self.log_time, self.slide_args(), *rk_jit.TABLEAU_853)
            return stepper.StepResult(z_new, f_new, K, float(err)), None
        self._count_evals(low.stages)
        z_new, f_new, err, F = rk_jit.low_step(s, z, f, h, self.step_rtol_vec, atol, self.mode.S, *self.form.compiled_args(), self.log_time, self.slide_args(), *rk_jit.TABLEAUS[pair])
        return stepper.StepResult(z_new, f_new, None, float(err)), F

    def compiled_steps(self) -> bool:
        """Whether the steps run compiled: a built-in loss, and sliding pairs that :meth:`Filippov.slide_args` hands to
        :mod:`rk_jit` (else the Python rhs)."""
        return self.form._loss is not None and self.slides_compiled()

    def _count_evals(self, k: int) -> None:
        self.stats["rhs_evals"] += k
        if self.mode.sliding:
            self.stats["sliding_evals"] += k

    def dense(self, s: float, z: np.ndarray, f: np.ndarray, res: stepper.StepResult, h: float) -> np.ndarray:
        """The dense matrix of an accepted DOP853 step (3 more rhs evaluations)."""
        if not self.compiled_steps():
            return stepper.dense_matrix(self.rhs, s, z, f, res, h)
        self._count_evals(len(rk_jit.DENSE_853[1]))
        return rk_jit.dop853_dense(s, z, f, res.z_new, res.f_new, res.K, h, self.mode.S, *self.form.compiled_args(), self.log_time, self.slide_args(), *rk_jit.DENSE_853)

    # after an accepted step -----------------------------------------------------------------
    def rearm(self, z: np.ndarray) -> None:
        """Re-arm the disarmed pairs that have left their surface by tau (side * e > tau)."""
        m = self.mode
        if not m.armed.all():
            engine_jit.rearm(m.armed, m.side, self.X, np.ascontiguousarray(self.form.neuron_block(z[None, :])[0]), self.xnorm, SURFACE_TOL)

    def post_step(self, z: np.ndarray) -> bool:
        """Re-arm pairs that left their surface; project sliding pairs; renormalise u. True if z changed."""
        m = self.mode
        changed = False
        self.rearm(z)
        for j, rows in m.sliding.items():
            self.form.project(z, j, rows)
            changed = True
        if isinstance(self.form, PolarForm):
            norms = row_norms(self.form.directions(z))
            self.unorm_drift = max(self.unorm_drift, float(np.max(np.abs(norms - 1.0))))
            changed |= self.form.normalise(z)
        return changed

    # main loop ------------------------------------------------------------------------------
    def run(self, times: np.ndarray, first_step: float | None, max_step: float, resume: CompiledLoop | None = None) -> np.ndarray:
        """Integrate from t = 0 to times[-1]; return the states at ``times`` (k, N). ``resume``: a compiled loop whose
        first call (:meth:`CompiledLoop.first`) handed back; the run goes on from where it stopped.

        A too-long trial step may overflow: its error norm is then not finite and it is
        rejected, so floating-point overflow warnings are silenced for the whole run."""
        with np.errstate(over="ignore", invalid="ignore"):
            return self._run(times, first_step, max_step, resume)

    def _run(self, times: np.ndarray, first_step: float | None, max_step: float, resume: CompiledLoop | None) -> np.ndarray:
        s_grid = self.s_of(times)
        s_end = float(s_grid[-1])
        cur = Cursor(0.0, self.z, self.z, 0.0)
        if resume is None:
            out = np.empty((times.size, self.z.size))
            while cur.k < times.size and s_grid[cur.k] <= cur.s:
                out[cur.k] = self.z
                cur.k += 1
            self.start(cur, first_step, max_step, s_end)
            loop = CompiledLoop.of_engine(self, s_grid, out, max_step) if COMPILED_LOOP and self.form._loss is not None else None
        else:
            loop, out = resume, resume.out
            self.mode = loop.mode
            if not loop.resume(self, cur) and cur.s < s_end:
                self.iterate(cur, s_grid, out, max_step)
        while cur.s < s_end:
            if loop is not None and self.slides_compiled() and loop.advance(self, cur):
                continue
            self.iterate(cur, s_grid, out, max_step)
        while cur.k < times.size:
            out[cur.k] = cur.z
            cur.k += 1
        self.z = cur.z
        finish_stats(self.stats, self.events, self.X)
        return out

    def result(self, out: np.ndarray) -> Run:
        """The run's :class:`Run`, from the samples :meth:`run` returned."""
        return Run(out, self.events, self.stats, self.err_sum, self.unorm_drift)

    def start(self, cur: Cursor, first_step: float | None, max_step: float, s_end: float) -> None:
        """The mode at the cursor (:meth:`Settling.initial_mode`, or the hand-over's), its slope and the first step size
        (``first_step``, or :func:`stepper.initial_step`), at most ``max_step``."""
        if self.handover is None:
            self.initial_mode(self.t_of(cur.s))
        else:
            self.adopt(self.handover)
        cur.f = self.rhs(cur.s, cur.z)
        if not np.isfinite(cur.f).all():
            raise NumericalError("the vector field is not finite at the initial state (weights or outputs beyond "
                                 "float64's range)")
        h = first_step if first_step is not None else stepper.initial_step(self.rhs, cur.s, cur.z, cur.f, s_end - cur.s, self.step_rtol_vec, self.atol_of(cur.z))
        cur.step = min(h, max_step)

    def _collapse_hint(self, z: np.ndarray) -> str:
        """Names a neuron whose vector is far smaller than every other one's: collapsing to 0, where all of its kinks
        meet, is the usual cause of a step-size underflow at a small scale (the switching law does not continue the
        flow through that point). Empty when no neuron stands out (or the form keeps unit vectors)."""
        norms = self.form.neuron_scale(z)
        if norms.size < 2:
            return ""
        j = int(np.argmin(norms))
        others = float(np.min(np.delete(norms, j)))
        if not norms[j] < COLLAPSED * others:
            return ""
        return (f"neuron {j} has ||w_j|| = {norms[j]:.3g}, {norms[j] / others:.2g} of the next smallest: it is collapsing "
                f"to w_j = 0, where all of its kinks meet and the switching law does not continue the flow")

    def iterate(self, cur: Cursor, s_grid: np.ndarray, out: np.ndarray, max_step: float) -> None:
        """One trial step from the cursor (the reference of :func:`loop_jit.run`): rejected, or accepted, its
        samples written, and the cursor moved to its end or to its first event point (settled there)."""
        s, z, f = cur.s, cur.z, cur.f
        pair, proposed = cur.propose()
        target = float(s_grid[cur.k] if self.land_on_samples and cur.k < s_grid.size else s_grid[-1])
        last = proposed >= target - s  # the step ends on ``target`` (the end, or with land_on_samples the next sample)
        if not last:
            try:
                stepper.check_step(proposed, s, self.t_of(s))
            except NumericalError:
                hint = self._collapse_hint(z)
                if not hint:
                    raise
                raise NumericalError(f"step size underflow at t = {self.t_of(s):.6g} (step {proposed:.3g}): {hint}") from None
        h = target - s if last else proposed
        res, F = self.attempt(s, z, f, h, pair)
        if not np.isfinite(res.err) or res.err >= 1.0:
            cur.reject(pair, h, res.err)
            self.stats["rejected"] += 1
            return
        if F is None:
            F = self.dense(s, z, f, res, h)
        if PAIRS[pair] is not None:
            self.stats[f"steps_{PAIRS[pair].name}"] += 1
        x_ev, pairs, touches = self.find_events(z, F)
        x_cut = min(x_ev, 1.0)
        s_cut = target if (last and x_ev > 1.0) else s + x_cut * h
        ks = k = cur.k
        while k < s_grid.size and s_grid[k] <= s_cut:
            k += 1
        if k > ks:
            out[ks:k] = stepper.dense_eval(z, F, np.clip((s_grid[ks:k] - s) / h, 0.0, 1.0))
        cur.k = k
        for xt, i, j in touches:
            self.events.append(Event(self.t_of(s + xt * h), i, j, "grazing", 0))
            self.stats["touches"] += 1
        self.stats["steps"] += 1
        self.err_sum += res.err * self.rtol
        cur.accept(pair, h, res.err, proposed, last and h < proposed, max_step, x_ev)
        if x_ev <= 1.0:
            cur.z = engine_jit.dense_point(z, F, x_ev)
            cur.s = s + x_ev * h
            cur.at_event(cur.s)
            cur.null_restarts = cur.null_restarts + 1 if x_ev * h <= 1e-14 * max(1.0, abs(cur.s)) else 0
            if cur.null_restarts > MAX_NULL_RESTARTS:
                raise NumericalError(f"no progress past an event at t = {self.t_of(cur.s):.6g} (chattering)")
            self.rearm(cur.z)  # pairs settled at earlier event points that have moved off by tau
            self.restart(cur, pairs)
        else:
            cur.z = res.z_new
            cur.s = target if last else s + h
            cur.f = self.rhs(cur.s, cur.z) if self.post_step(cur.z) else res.f_new
        if self.progress is not None:
            self.progress(self.t_of(cur.s))

    def restart(self, cur: Cursor, pairs: list[tuple[int, int]]) -> None:
        """At an event point (re-armed): settle ``pairs`` and the other near-surface pairs, refresh the slope."""
        self.settle(self.t_of(cur.s), cur.z, pairs)
        self.stats["n_restarts"] += 1
        cur.f = self.rhs(cur.s, cur.z)


def integrate(form: CartesianForm | PolarForm, z0: np.ndarray, times: np.ndarray, log_time: bool, rtol: float,
              atol: np.ndarray | None, progress: Callable[[float], None] | None, first_step: float | None = None,
              max_step: float = math.inf, handover: Handover | None = None) -> Run:
    """The run from z0 over ``times`` (the module docstring). For a built-in loss the first compiled call starts it
    (:meth:`CompiledLoop.first`), and when it ends the run no :class:`Engine` is made; an engine takes over where it
    hands back, and starts the run itself for a custom loss, a ``handover``, or a start the compiled code declines
    (a pair on its surface at t = 0)."""
    if COMPILED_LOOP and form._loss is not None and handover is None:
        X = form.compiled_args()[0]
        s_grid = run_variable(times, log_time)
        loop = CompiledLoop(form, X @ X.T, shared_rows(switching.lines(X)[0]), rtol,
                            step_rtol_vector(form, rtol, z0.size), atol, log_time, s_grid,
                            np.empty((times.size, z0.size)), max_step)
        status = loop.first(z0, first_step)
        if status == loop_jit.DONE:
            run = loop.finished()
            if progress is not None:
                progress(time_of(float(s_grid[-1]), log_time))
            return run
        if status != loop_jit.PY_START:
            eng = Engine(form, z0, log_time, rtol, atol, progress)
            return eng.result(eng.run(times, first_step, max_step, resume=loop))
    eng = Engine(form, z0, log_time, rtol, atol, progress)
    eng.handover = handover
    return eng.result(eng.run(times, first_step, max_step))
