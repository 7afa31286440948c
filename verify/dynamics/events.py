"""Event-driven exact gradient flow: integrate mode by mode, switch at every crossing.

The driver (this module) glues the pieces: a state form (:mod:`forms`), Runge-Kutta steps
with dense output (:mod:`stepper`), crossing location on the dense output (:mod:`crossings`,
its compiled fast path :mod:`scan`) and the switching rules (:mod:`switching`). It knows
nothing about claims. Hot loops are compiled with numba (:mod:`field_jit`, :mod:`rk_jit`,
:mod:`scan`, :mod:`engine_jit`); each has a numpy reference it is tested against.

One iteration (:meth:`_Engine.iterate`) is one trial step. For a built-in loss the iterations run
inside :func:`loop_jit.run` (the whole step-to-next-event loop compiled: steps, scan, samples, event
points, single-pair settling) whenever no pair slides; it hands back to :meth:`_Engine.iterate` for
the rare steps it does not handle (a non-monotone candidate, several near pairs on one neuron or a
shared line, a pair that starts sliding) and resumes after them. ``COMPILED_LOOP = False`` runs every
iteration in Python (the oracle of the tests).

Loop: take an accepted step in the current mode S (slope matrix, sliding pairs with their
Filippov slopes recomputed at every rhs evaluation); find the earliest x in (0, 1] of the step
where some pair leaves its side (or a sliding slope leaves [alpha, 1]); write the requested
samples up to there from the dense output; if there is an event, move to the event point,
put every pair within tau_ij = 1e-12 ||x_i|| ||w_j|| of its surface exactly onto it
(projection of w_j / u_j), settle those pairs (:func:`switching.resolve_neuron`), log the
events, and restart there (no new solver object, one rhs evaluation for the new slope).

Step strategy: DOP853 (8th order, 7th-order dense output) while the step size is set by the
error controller. After a step cut short by an event, the next step is at most EVENT_CAP
times the part used (the next crossing is probably about as far: in the alignment phase
crossings come every ~1e-3 time units while the controller would take steps of ~1), and
steps within CHEAP_STEPS of such a cut use the Dormand-Prince 5(4) pair (6 evaluations, free
quartic dense output; compiled when no pair slides) instead of DOP853's 15: on such short
steps its error estimate is far below the tolerance anyway. Every step, of either pair, is
accepted only if its own embedded error estimate passes.

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

Stats: steps (accepted), steps_rk45 (of them, 5(4) steps), rejected, rhs_evals, n_events,
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

import math
import time as _time
from dataclasses import dataclass, field as dc_field
from typing import Callable

import numpy as np
from scipy.optimize import brentq

from verify.dynamics import crossings, engine_jit, loop_jit, rk_jit, scan, stepper, switching
from verify.dynamics.field import NetworkField, single_thread_blas
from verify.dynamics.forms import CartesianForm, PolarForm, row_norms
from verify.dynamics.times import sample_times
from verify.errors import InputError, NumericalError
from verify.trajectory import Event, Trajectory

LOG_TIME_THRESHOLD = 1e3
SURFACE_TOL = 1e-12  # |e_ij| <= SURFACE_TOL ||x_i|| ||w_j||: on the hyperplane
SLIDE_TOL = 1e-9  # sliding slope may overshoot [alpha, 1] by this before an exit is logged (hysteresis)
SLIDE_TOL_MAX = 1e-6  # hysteresis cap for pairs that keep re-entering sliding (tangential limit points)
STICKY_AFTER = 4  # re-entries before the hysteresis of a pair starts to grow (x4 per re-entry)
_NODES = 0.5 * (1.0 - np.cos(np.pi * (np.arange(8) + 0.5) / 8))  # Chebyshev nodes on [0, 1]
_NODES = np.append(_NODES, 1.0)
MAX_NULL_RESTARTS = 200
CHEAP_STEPS = 4  # steps after an event-capped step that use the 5(4) pair
EVENT_CAP = 5.0  # after a step cut at an event, the next step is at most this times the used part
LOG_FLOAT_UNDERFLOW = -745.0  # exp(x) == 0 in float64 below this
COMPILED_LOOP = True  # run the common path in :func:`loop_jit.run` (False: every iteration in Python)
CHECKPOINT_STEPS = 256  # the compiled loop reports back after this many steps (progress, Ctrl-C, event buffer)


@dataclass
class _Mode:
    """Frozen switching state: slopes S, sides, sliding rows per neuron, armed pairs, dead neurons."""

    S: np.ndarray  # (n, h) slope; fractional for sliding pairs
    side: np.ndarray  # (n, h) +1 active, -1 inactive, 0 sliding
    armed: np.ndarray  # (n, h) bool
    dead: np.ndarray  # (h,) bool
    sliding: dict[int, np.ndarray] = dc_field(default_factory=dict)


class _Engine:
    """One integration run (mutable working state; created per call)."""

    def __init__(self, form: CartesianForm | PolarForm, z0: np.ndarray, log_time: bool, rtol: float, atol: np.ndarray | None, progress: Callable[[float], None] | None) -> None:
        self.form, self.fieldobj = form, form.field
        self.X, self.alpha = np.ascontiguousarray(form.field.X, dtype=float), form.field.alpha
        self.K = self.X @ self.X.T
        self.xnorm = form.field.norms
        self.rep, self.sgn = switching.lines(self.X)  # rows on one line through 0 share a surface (coupled slopes)
        self.coupled = bool(np.any(self.rep != np.arange(self.X.shape[0])))
        self.line_rows = {int(r): np.flatnonzero(self.rep == r) for r in np.unique(self.rep)}
        self.log_time, self.rtol, self.atol = log_time, rtol, atol
        self.step_rtol = form.step_rtol(rtol)  # the relative part of the step error's scale (0 for polar log-norms)
        self.step_rtol_vec = np.broadcast_to(self.step_rtol, z0.shape).astype(float)  # per component (compiled steps)
        self.land_on_samples = log_time  # steps end on the sample times (module docstring, "Samples")
        self.progress = progress
        self.z = z0.copy()
        self.events: list[Event] = []
        self.stats = {"steps": 0, "steps_rk45": 0, "rejected": 0, "rhs_evals": 0, "n_events": 0, "n_restarts": 0, "touches": 0, "nonunique": 0, "sliding_evals": 0, "sticky_pairs": 0}
        self.err_sum = 0.0
        self.unorm_drift = 0.0
        n, h = self.X.shape[0], form.h
        self.mode = _Mode(np.zeros((n, h)), -np.ones((n, h), dtype=int), np.ones((n, h), dtype=bool), np.zeros(h, dtype=bool))
        self.slide_entries = np.zeros((n, h), dtype=int)
        self.slide_tol = np.full((n, h), SLIDE_TOL)
        self.handover: Callable[["_Engine"], None] | None = None  # sets the mode at t = 0 instead of initial_mode

    def atol_of(self, z: np.ndarray) -> np.ndarray:
        """Fixed atol, or (Cartesian default) rtol times the size of each component's neuron."""
        return self.atol if self.atol is not None else self.rtol * self.form.component_scale(z)

    # time maps ------------------------------------------------------------------------------
    def t_of(self, s: float) -> float:
        return math.expm1(s) if self.log_time else s

    def s_of(self, t: np.ndarray) -> np.ndarray:
        return np.log1p(t) if self.log_time else np.asarray(t, float)

    # vector field in the current mode -------------------------------------------------------
    def effective_S(self, z: np.ndarray) -> np.ndarray:
        """S with the Filippov slopes of the sliding pairs at z (clipped to [alpha, 1])."""
        m = self.mode
        if not m.sliding:
            return m.S
        S = m.S.copy()
        ii, jj, c = self.raw_slopes(z)
        c = np.clip(c, self.alpha, 1.0) if self.alpha < 1.0 else np.ones_like(c)
        if self.coupled:
            for i, j, slope in zip(ii.tolist(), jj.tolist(), c.tolist()):
                rows = self.line_rows[i]
                S[rows, j] = switching.member_slopes(slope, self.sgn[rows], self.alpha)
        else:
            S[ii, jj] = c
        self.stats["sliding_evals"] += 1
        return S

    def rhs(self, s: float, z: np.ndarray) -> np.ndarray:
        self.stats["rhs_evals"] += 1
        F = self.form.rhs(z, self.effective_S(z))
        return math.exp(s) * F if self.log_time else F

    def raw_slopes(self, z: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Unclipped sliding slopes at z: (i, j, c) arrays over all sliding pairs (with coupled rows: over the sliding
        lines, i their representative rows and c their slopes)."""
        m = self.mode
        g = self.form.g(z, m.S)
        if not self.coupled:
            return switching.all_sliding_slopes(m.S, g, self.K, m.sliding)
        I, J, C = [np.zeros(0, dtype=int)], [np.zeros(0, dtype=int)], [np.zeros(0)]
        for j, reps in m.sliding.items():
            members = [self.line_rows[int(r)] for r in reps]
            C.append(switching.line_slopes(m.S[:, j], g, self.K, members, [self.sgn[r] for r in members], self.alpha))
            I.append(np.asarray(reps, dtype=int))
            J.append(np.full(len(reps), j))
        return np.concatenate(I), np.concatenate(J), np.concatenate(C)

    # surface handling -----------------------------------------------------------------------
    def tau(self, z: np.ndarray) -> np.ndarray:
        return SURFACE_TOL * self.xnorm[:, None] * self.form.neuron_scale(z)[None, :]

    def settle(self, t: float, z: np.ndarray, triggers: list[tuple[int, int]]) -> None:
        """Put near-surface pairs on their surface, classify them jointly per neuron, log events."""
        m = self.mode
        P = self.form.preact(z)
        near, anycol = engine_jit.near_surface(P, self.xnorm, self.form.neuron_scale(z), m.side, m.dead, SURFACE_TOL)
        trig = set(triggers)
        for i, j in triggers:
            near[i, j] = anycol[j] = True
        cols = np.flatnonzero(anycol)
        g = self.form.g(z, m.S, P)
        gain = self.form.gain(z)
        for j in cols.tolist():
            rows = np.flatnonzero(near[:, j])
            if j in m.sliding:
                rows = np.union1d(rows, m.sliding[j])
            self.form.project(z, j, rows)
            if self.coupled:
                reps = np.unique(self.rep[rows])
                if any(self.line_rows[int(r)].size > 1 for r in reps):
                    self._settle_lines(t, reps, j, g, gain, trig)
                    continue
            if rows.size == 1:
                self._settle_pair(t, int(rows[0]), j, g, gain, (int(rows[0]), j) in trig)
            else:
                self._settle_neuron(t, rows, j, g, gain, np.array([(int(i), j) in trig for i in rows]))
        self.check_dead(t, cols)

    def _settle_pair(self, t: float, i: int, j: int, g: np.ndarray, gain: np.ndarray, trig: bool) -> None:
        """One on-surface pair of neuron j (:func:`switching.resolve_pair`)."""
        m = self.mode
        prev = int(m.side[i, j])
        state, slope, rep = switching.resolve_pair(m.S, g, self.K, gain, i, j, self.alpha, prev if trig else 0)
        self._log(t, i, j, prev, state, trig, rep)
        m.S[i, j] = slope
        m.side[i, j] = 1 if state == switching.ACTIVE else (0 if state == switching.SLIDING else -1)
        m.armed[i, j] = False
        if state == switching.SLIDING:
            m.sliding[j] = np.array([i])
        else:
            m.sliding.pop(j, None)

    def _settle_neuron(self, t: float, rows: np.ndarray, j: int, g: np.ndarray, gain: np.ndarray, trig: np.ndarray) -> None:
        """Several on-surface pairs of neuron j, settled jointly (:func:`switching.resolve_neuron`)."""
        m = self.mode
        arrival = np.where(trig, m.side[rows, j], 0)
        state, slopes, reps = switching.resolve_neuron(m.S, g, self.K, gain, j, rows, self.alpha, arrival)
        for k, i in enumerate(rows.tolist()):
            self._log(t, i, j, int(m.side[i, j]), int(state[k]), bool(trig[k]), bool(reps[k]))
        m.S[rows, j] = slopes
        m.side[rows, j] = np.where(state == switching.ACTIVE, 1, np.where(state == switching.SLIDING, 0, -1))
        m.armed[rows, j] = False
        slide = rows[state == switching.SLIDING]
        if slide.size:
            m.sliding[j] = slide
        else:
            m.sliding.pop(j, None)

    def _settle_lines(self, t: float, reps: np.ndarray, j: int, g: np.ndarray, gain: np.ndarray,
                      trig: set[tuple[int, int]]) -> None:
        """On-surface lines of neuron j (rows on one line through 0 share the surface, their slopes coupled:
        :func:`switching.resolve_lines`); every member pair is logged, sided and disarmed."""
        m = self.mode
        members = [self.line_rows[int(r)] for r in reps]
        signs = [self.sgn[rows] for rows in members]
        arrival = np.zeros(len(members), dtype=int)
        for q, rows in enumerate(members):
            hit = [int(i) for i in rows if (int(i), j) in trig]
            if hit:  # the representative's side before the event: the hit row's side, oriented
                arrival[q] = int(m.side[hit[0], j]) * int(self.sgn[hit[0]])
        state, slopes, reps_flag = switching.resolve_lines(m.S, g, self.K, gain, j, members, signs, self.alpha, arrival)
        sliding = []
        for q, rows in enumerate(members):
            for i in rows.tolist():
                if state[q] == switching.SLIDING:
                    new, side = switching.SLIDING, 0
                else:
                    up = (state[q] == switching.ACTIVE) == (self.sgn[i] > 0)
                    new, side = (switching.ACTIVE, 1) if up else (switching.INACTIVE, -1)
                self._log(t, i, j, int(m.side[i, j]), new, (i, j) in trig, bool(reps_flag[q]))
                m.side[i, j] = side
            m.S[rows, j] = switching.member_slopes(slopes[q], signs[q], self.alpha)
            m.armed[rows, j] = False
            if state[q] == switching.SLIDING:
                sliding.append(int(rows[0]))
        if sliding:
            m.sliding[j] = np.array(sliding)
        else:
            m.sliding.pop(j, None)

    def _log(self, t: float, i: int, j: int, prev: int, new: int, trig: bool, rep: bool) -> None:
        kind, direction = None, 0
        if new == switching.SLIDING:
            kind = None if prev == 0 else "sliding"
            if kind:
                self.slide_entries[i, j] += 1
                extra = self.slide_entries[i, j] - STICKY_AFTER
                if extra > 0:
                    self.slide_tol[i, j] = min(SLIDE_TOL_MAX, SLIDE_TOL * 4.0 ** min(extra, 20))
                    self.stats["sticky_pairs"] = int(np.sum(self.slide_tol > SLIDE_TOL))
        elif prev == 0:
            kind, direction = "sliding_exit", (1 if new == switching.ACTIVE else -1)
        elif prev == -1 and new == switching.ACTIVE:
            kind, direction = "activate", 1
        elif prev == 1 and new == switching.INACTIVE:
            kind, direction = "deactivate", -1
        elif rep or trig:
            kind = "grazing"
        if rep:
            self.stats["nonunique"] += 1
        if kind is not None:
            self.events.append(Event(float(t), i, j, kind, direction))

    def check_dead(self, t: float, cols: np.ndarray | None = None) -> None:
        """alpha = 0: log and freeze neurons with an all-inactive, non-sliding column of S
        (among ``cols``, the columns that just changed, when given)."""
        if self.alpha != 0.0:
            return
        m = self.mode
        for j in (range(m.dead.size) if cols is None else cols.tolist()):
            if not m.dead[j] and j not in m.sliding and not m.S[:, j].any():
                m.dead[j] = True
                self.events.append(Event(float(t), -1, j, "dead", 0))

    def initial_mode(self, t0: float) -> None:
        m = self.mode
        P = self.form.preact(self.z)
        m.S[:] = self.fieldobj.mode(P)
        m.side[:] = np.where(P > 0.0, 1, -1)
        on = np.abs(P) <= self.tau(self.z)
        if np.any(on):
            m.S[on] = self.alpha
            m.side[on] = -1
            self.settle(t0, self.z, [])
        self.check_dead(t0)

    # event search on one step ---------------------------------------------------------------
    def find_events(self, z: np.ndarray, F: np.ndarray) -> tuple[float, list[tuple[int, int]], list]:
        """Earliest switching point on the step: :func:`scan.scan_step` screens and settles
        the monotone pairs; the rare non-monotone candidates go to
        :func:`crossings.hard_candidates` (e_ij is linear in z, so its coefficients on the step
        are <x_i, .> of those of w_j (u_j))."""
        m = self.mode
        blk, h, d = self.form.block, self.form.h, self.form.d
        V = z[blk].reshape(h, d)
        xq, qi, qj, start, hard = scan.scan_step(z, F, blk.start, h, self.X @ V.T, self.X, self.xnorm, m.side, m.armed, m.dead, SURFACE_TOL, crossings.CHEB, scan.DER)
        if start.size:
            xs, ii, jj = np.zeros(start.shape[0]), start[:, 0], start[:, 1]
        elif qi >= 0:
            xs, ii, jj = np.array([xq]), np.array([qi]), np.array([qj])
        else:
            xs = ii = jj = np.empty(0, dtype=int)
        touches: list[tuple[float, int, int]] = []
        if hard.size and not start.size:
            hi, hj = hard[:, 0], hard[:, 1]
            tau = SURFACE_TOL * self.xnorm[hi] * row_norms(V)[hj]
            armed = m.armed[hi, hj]
            Fb = F[:, blk].reshape(-1, h, d)[:, hj]  # (7, m, d)
            raw = np.vstack([np.einsum("pd,pd->p", V[hj], self.X[hi])[None, :], np.einsum("kpd,pd->kp", Fb, self.X[hi])])
            phi = (crossings.CHEB @ raw) * m.side[hi, hj]
            phi[0] += np.where(armed, 0.0, tau)
            x_hard, touches = crossings.hard_candidates(phi, np.where(armed, tau, 0.0), hi, hj, float(xs[0]) if xs.size else np.inf)
            xs, ii, jj = np.concatenate([xs, x_hard]), np.concatenate([ii, hi]), np.concatenate([jj, hj])
        cr = crossings.earliest(xs, ii, jj, touches)
        x, pairs = cr.x, cr.pairs
        if m.sliding:
            xs_, spairs = self.sliding_exit(z, F)
            if xs_ < x:
                x, pairs = xs_, spairs
        return x, pairs, [tc for tc in cr.touches if tc[0] < x]

    def _find_events_full(self, z: np.ndarray, F: np.ndarray) -> tuple[float, list[tuple[int, int]], list]:
        """Unscreened version of :meth:`find_events` (all n h pairs; kept for cross-checks)."""
        m = self.mode
        c = self.form.preact(crossings.CHEB @ np.vstack([z[None, :], F]))  # e_ij is linear in z
        tau = self.tau(z)
        watch = (m.side != 0) & ~m.dead[None, :]
        cr = crossings.first_crossing(c, m.side, np.where(m.armed, 0.0, tau), watch, np.where(m.armed, tau, 0.0))
        x, pairs = cr.x, cr.pairs
        if m.sliding:
            xs, spairs = self.sliding_exit(z, F)
            if xs < x:
                x, pairs = xs, spairs
        return x, pairs, [tc for tc in cr.touches if tc[0] < x]

    def sliding_exit(self, z: np.ndarray, F: np.ndarray) -> tuple[float, list[tuple[int, int]]]:
        """First x where a sliding slope leaves [alpha - tol, 1 + tol] (9 nodes, then brentq)."""
        Z = stepper.dense_eval(z, F, _NODES)
        for k, zk in enumerate(Z):
            ii, jj, c = self.raw_slopes(zk)
            tol = self.slide_tol[ii, jj]
            bad = (c < self.alpha - tol) | (c > 1.0 + tol)
            if not bad.any():
                continue
            r = int(np.argmax(bad))
            i, j = int(ii[r]), int(jj[r])
            bound = 1.0 + tol[r] if c[r] > 1.0 else self.alpha - tol[r]

            def fn(x: float) -> float:
                si, sj, sc = self.raw_slopes(stepper.dense_eval(z, F, x))
                return float(sc[(si == i) & (sj == j)][0] - bound)

            x0 = 0.0 if k == 0 else float(_NODES[k - 1])
            a, b = fn(x0), fn(float(_NODES[k]))
            x = float(_NODES[k]) if a * b > 0 else brentq(fn, x0, float(_NODES[k]), xtol=1e-15, rtol=1e-15)
            return x, [(i, j)]
        return np.inf, []

    # one step ---------------------------------------------------------------------------------
    def attempt(self, s: float, z: np.ndarray, f: np.ndarray, h: float, cheap: bool) -> tuple[stepper.StepResult, np.ndarray | None]:
        """A trial step and, for the 5(4) pair, its dense matrix (None: DOP853's needs 3 more
        rhs evaluations, made by :meth:`dense` only if the step is accepted). Both steps are compiled
        (:mod:`rk_jit`) when no pair slides and the loss is a built-in one."""
        atol = self.atol_of(z)
        if not self.compiled_steps():
            if not cheap:
                return stepper.step(self.rhs, s, z, f, h, self.step_rtol, atol), None
            res = stepper.step_rk45(self.rhs, s, z, f, h, self.step_rtol, atol)
            return res, stepper.dense_matrix_rk45(res, h)
        if not cheap:
            self.stats["rhs_evals"] += stepper.N_STAGES
            z_new, f_new, err, K = rk_jit.dop853_step(s, z, f, h, self.step_rtol_vec, atol, self.mode.S, *self.form.compiled_args(), self.log_time, *rk_jit.TABLEAU_853)
            return stepper.StepResult(z_new, f_new, K, float(err)), None
        self.stats["rhs_evals"] += stepper.N_STAGES_RK45
        z_new, f_new, err, F = rk_jit.rk45_step(s, z, f, h, self.step_rtol_vec, atol, self.mode.S, *self.form.compiled_args(), self.log_time, *rk_jit.TABLEAU)
        return stepper.StepResult(z_new, f_new, None, float(err)), F

    def compiled_steps(self) -> bool:
        """Whether the steps run compiled: a built-in loss and no sliding pair (whose Filippov slopes change
        within a step)."""
        return self.form._loss is not None and not self.mode.sliding

    def dense(self, s: float, z: np.ndarray, f: np.ndarray, res: stepper.StepResult, h: float) -> np.ndarray:
        """The dense matrix of an accepted DOP853 step (3 more rhs evaluations)."""
        if not self.compiled_steps():
            return stepper.dense_matrix(self.rhs, s, z, f, res, h)
        self.stats["rhs_evals"] += len(rk_jit.DENSE_853[1])
        return rk_jit.dop853_dense(s, z, f, res.z_new, res.f_new, res.K, h, self.mode.S, *self.form.compiled_args(), self.log_time, *rk_jit.DENSE_853)

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
    def run(self, times: np.ndarray, first_step: float | None, max_step: float) -> np.ndarray:
        """Integrate from t = 0 to times[-1]; return the states at ``times`` (k, N).

        A too-long trial step may overflow: its error norm is then not finite and it is
        rejected, so floating-point overflow warnings are silenced for the whole run."""
        with np.errstate(over="ignore", invalid="ignore"):
            return self._run(times, first_step, max_step)

    def _run(self, times: np.ndarray, first_step: float | None, max_step: float) -> np.ndarray:
        s_grid = self.s_of(times)
        s_end = float(s_grid[-1])
        out = np.empty((times.size, self.z.size))
        cur = _Cursor(0.0, self.z, self.z, 0.0)
        while cur.k < times.size and s_grid[cur.k] <= cur.s:
            out[cur.k] = self.z
            cur.k += 1
        if self.handover is None:
            self.initial_mode(self.t_of(cur.s))
        else:
            self.handover(self)
        cur.f = self.rhs(cur.s, cur.z)
        if not np.all(np.isfinite(cur.f)):
            raise NumericalError("the vector field is not finite at the initial state (weights or outputs beyond "
                                 "float64's range)")
        h = first_step if first_step is not None else stepper.initial_step(self.rhs, cur.s, cur.z, cur.f, s_end - cur.s, self.step_rtol, self.atol_of(cur.z))
        cur.step = min(h, max_step)
        loop = _CompiledLoop(self, s_grid, out, max_step) if COMPILED_LOOP and self.form._loss is not None else None
        while cur.s < s_end:
            if loop is not None and not self.mode.sliding and loop.advance(cur):
                continue
            self.iterate(cur, s_grid, out, max_step)
        while cur.k < times.size:
            out[cur.k] = cur.z
            cur.k += 1
        self.z = cur.z
        self.stats["n_events"] = len(self.events)
        return out

    def iterate(self, cur: "_Cursor", s_grid: np.ndarray, out: np.ndarray, max_step: float) -> None:
        """One trial step from the cursor (the reference of :func:`loop_jit.run`): rejected, or accepted, its
        samples written, and the cursor moved to its end or to its first event point (settled there)."""
        s, z, f, proposed = cur.s, cur.z, cur.f, cur.step
        target = float(s_grid[cur.k] if self.land_on_samples and cur.k < s_grid.size else s_grid[-1])
        last = proposed >= target - s  # the step ends on ``target`` (the end, or with land_on_samples the next sample)
        if not last:
            stepper.check_step(proposed, s, self.t_of(s))
        h = target - s if last else proposed
        cheap = cur.calm < CHEAP_STEPS
        order = stepper.ORDER_RK45 if cheap else stepper.ORDER
        res, F = self.attempt(s, z, f, h, cheap)
        if not np.isfinite(res.err) or res.err >= 1.0:
            cur.step = stepper.next_size(h, res.err if np.isfinite(res.err) else 1e10, cur.rejected, order)
            cur.rejected = True
            self.stats["rejected"] += 1
            return
        if F is None:
            F = self.dense(s, z, f, res, h)
        self.stats["steps_rk45"] += int(cheap)
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
        h_next = stepper.next_size(h, res.err, cur.rejected, order)
        if last and h < proposed:  # shortened to land on a sample: the controller's own proposal stands
            h_next = max(h_next, proposed)
        h_next = min(h_next, max_step)
        cur.rejected = False
        cur.calm += 1
        if x_ev <= 1.0:
            cap = max(EVENT_CAP * x_ev * h, 0.5 * h)  # the next event is probably about as far
            if cap < h_next:
                cur.calm, h_next = 0, cap
        cur.step = h_next
        if x_ev <= 1.0:
            cur.z = engine_jit.dense_point(z, F, x_ev)
            cur.s = s + x_ev * h
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

    def restart(self, cur: "_Cursor", pairs: list[tuple[int, int]]) -> None:
        """At an event point (re-armed): settle ``pairs`` and the other near-surface pairs, refresh the slope."""
        self.settle(self.t_of(cur.s), cur.z, pairs)
        self.stats["n_restarts"] += 1
        cur.f = self.rhs(cur.s, cur.z)


@dataclass
class _Cursor:
    """Where a run stands between iterations: s, state z, slope f, next step size, and the step controller's
    memory (last trial rejected, steps since the last event-capped step, null restarts in a row), next sample k."""

    s: float
    z: np.ndarray
    f: np.ndarray
    step: float
    rejected: bool = False
    calm: int = CHEAP_STEPS
    null_restarts: int = 0
    k: int = 0


class _CompiledLoop:
    """:func:`loop_jit.run` bound to one engine: the constant arguments, the event buffer, and the hand-back
    (statuses in :mod:`loop_jit`) to the Python iteration."""

    def __init__(self, eng: _Engine, s_grid: np.ndarray, out: np.ndarray, max_step: float) -> None:
        form = eng.form
        n, h, d = eng.X.shape[0], form.h, form.d
        self.eng, self.s_grid, self.out = eng, s_grid, out
        X, y, sgn, r_ref, _h, _d, loss, train_v, polar = form.compiled_args()
        shared = np.zeros(n, dtype=bool)
        for rows in eng.line_rows.values():
            if rows.size > 1:
                shared[rows] = True
        N = eng.z.size
        per_neuron = eng.atol is None
        self.args = (float(s_grid[-1]), float(max_step), float(eng.rtol), eng.step_rtol_vec,
                     np.zeros(N) if per_neuron else np.ascontiguousarray(eng.atol, dtype=float), per_neuron)
        self.consts = (X, eng.xnorm, np.ascontiguousarray(eng.K), y, sgn, r_ref, float(eng.alpha), int(loss), bool(train_v),
                       bool(polar), bool(eng.log_time), bool(eng.land_on_samples), shared, form.block.start, h, d, SURFACE_TOL, CHEAP_STEPS,
                       EVENT_CAP, MAX_NULL_RESTARTS, CHECKPOINT_STEPS)
        cap = max(4096, 4 * (n * h + h))
        self.ev_t, self.ev_ij, self.ev_kd = np.empty(cap), np.empty((cap, 2), dtype=np.int64), np.empty((cap, 2), dtype=np.int64)
        self.pairs = np.empty((n * h, 2), dtype=np.int64)
        self.stats = np.zeros(6, dtype=np.int64)

    def advance(self, cur: _Cursor) -> bool:
        """Run compiled from the cursor; False when the next iteration is Python's (:meth:`_Engine.iterate`)."""
        eng, m = self.eng, self.eng.mode
        fs = np.array([cur.s, cur.step, eng.err_sum, eng.unorm_drift])
        ks = np.array([cur.k, int(cur.rejected), cur.null_restarts, cur.calm, 0], dtype=np.int64)
        z, f = np.array(cur.z, dtype=float), np.array(cur.f, dtype=float)
        self.stats[:] = 0
        status, n_pairs = loop_jit.run(fs, ks, self.stats, z, f, self.out, self.s_grid, *self.args, m.S, m.side, m.armed,
                                       m.dead, *self.consts, self.ev_t, self.ev_ij, self.ev_kd, self.pairs,
                                       rk_jit.TABLEAU, rk_jit.TABLEAU_853, rk_jit.DENSE_853, crossings.CHEB, scan.DER)
        cur.s, cur.step, eng.err_sum, eng.unorm_drift = (float(v) for v in fs)
        cur.k, cur.rejected, cur.null_restarts, cur.calm = int(ks[0]), bool(ks[1]), int(ks[2]), int(ks[3])
        cur.z, cur.f = z, f
        for key, v in zip(("steps", "steps_rk45", "rejected", "rhs_evals", "n_restarts", "nonunique"), self.stats.tolist()):
            eng.stats[key] += v
        for t, (i, j), (kind, direction) in zip(self.ev_t[: ks[4]].tolist(), self.ev_ij[: ks[4]].tolist(), self.ev_kd[: ks[4]].tolist()):
            eng.events.append(Event(t, i, j, loop_jit.EVENT_KINDS[kind], direction))
        if status == loop_jit.CHATTER:
            raise NumericalError(f"no progress past an event at t = {eng.t_of(cur.s):.6g} (chattering)")
        if status == loop_jit.SETTLE:
            eng.restart(cur, [(int(i), int(j)) for i, j in self.pairs[:n_pairs].tolist()])
        if eng.progress is not None and status != loop_jit.PY_STEP:
            eng.progress(eng.t_of(cur.s))
        return status != loop_jit.PY_STEP


def _pick_log_time(log_time: bool | None, t_end: float) -> bool:
    return t_end > LOG_TIME_THRESHOLD if log_time is None else bool(log_time)


def _loss_stats(field: NetworkField, outputs: np.ndarray) -> dict:
    """log L at the samples and whether float64 exp(-y f) would underflow (per-sample log-loss < -745)."""
    with np.errstate(divide="ignore"):  # square loss at an exact fit: log 0 = -inf
        logs = np.array([field.loss.log_total(field.y, f) for f in outputs])
        per = np.array([field.loss.log_value(field.y, f) for f in outputs])
    return {"log_loss": logs.tolist(), "loss_underflow_float64": bool(np.any(per < LOG_FLOAT_UNDERFLOW))}


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
    lt = _pick_log_time(log_time, float(t[-1]))
    form = CartesianForm(field, W0.shape[0], W0.shape[1])
    z0 = form.pack(W0, v0)
    eng = _Engine(form, z0, lt, rtol, None if atol is None else np.full(z0.size, float(atol)), progress)
    start = _time.perf_counter()
    with single_thread_blas():
        Z = eng.run(t, first_step, max_step)
    W = Z[:, : form.h * form.d].reshape(t.size, form.h, form.d)
    v = Z[:, form.h * form.d :]
    c0 = v0**2 - np.sum(W0**2, axis=1)
    ww = np.sum(W**2, axis=2)
    c = v**2 - ww
    size2 = np.maximum(np.maximum(v**2, ww), np.finfo(float).tiny)
    drift = float(np.max(np.abs(c - c0) / size2))
    peak = np.maximum(np.max(size2, axis=0), v0**2 + np.sum(W0**2, axis=1))
    outputs = np.array([field.outputs(W[k], v[k]) for k in range(t.size)])
    stats = dict(
        eng.stats,
        wall_s=_time.perf_counter() - start,
        log_time=lt,
        balancedness_drift_peak=float(np.max(np.abs(c - c0) / np.maximum(peak, np.finfo(float).tiny))),
        shrunk_neurons=[int(j) for j in np.nonzero(np.min(size2, axis=0) < 1e-8 * peak)[0]],
        **_loss_stats(field, outputs),
    )
    params = {"rtol": rtol, "atol": "per-neuron" if atol is None else float(atol), "loss": field.loss.name, "alpha": field.alpha, "form": "cartesian", "t_end": float(t[-1]), "log_time": lt}
    return Trajectory(times=t, W=W, v=v, events=eng.events, backend="events", balancedness_drift=drift, error_estimate=eng.err_sum, stats=stats, params=params)


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
    handover: Callable[[_Engine], None] | None = None,
) -> Trajectory:
    """Exact gradient flow in polar form (balanced init, v trained): r_j = ln||w_j||, unit u_j, signs s.

    W = exp(r) U and v = s exp(r) in the result may underflow to 0 (r < -745); r, U are exact.
    ``balancedness_drift`` is 0 by construction; ``stats["u_norm_drift"]`` is the largest
    | ||u_j|| - 1 | seen before renormalisation. ``handover(engine)`` (used by
    :mod:`verify.dynamics.hybrid`) sets the switching mode at t = 0 instead of recomputing it.
    """
    r0, U0, sg = check_polar_inputs(field, r0, U0, s)
    t = sample_times(times)
    lt = _pick_log_time(log_time, float(t[-1]))
    form = PolarForm(field, sg, r0, U0.shape[1])
    z0 = form.pack(r0, U0)
    atol = rtol if atol is None else float(atol)
    eng = _Engine(form, z0, lt, rtol, np.full(z0.size, atol), progress)
    eng.handover = handover
    start = _time.perf_counter()
    with single_thread_blas():
        Z = eng.run(t, first_step, max_step)
    r = Z[:, : form.h] + r0
    U = Z[:, form.h :].reshape(t.size, form.h, form.d)
    U = U / np.linalg.norm(U, axis=2)[:, :, None]
    with np.errstate(under="ignore"):
        outputs = np.array([field.polar_outputs(r[k], U[k], sg) for k in range(t.size)])
    stats = dict(
        eng.stats,
        wall_s=_time.perf_counter() - start,
        log_time=lt,
        u_norm_drift=eng.unorm_drift,
        weights_underflow_float64=bool(np.any(r < LOG_FLOAT_UNDERFLOW)),
        outputs_underflow_float64=bool(np.any(2.0 * r < LOG_FLOAT_UNDERFLOW)),
        **_loss_stats(field, outputs),
    )
    params = {"rtol": rtol, "atol": atol, "loss": field.loss.name, "alpha": field.alpha, "form": "polar", "t_end": float(t[-1]), "log_time": lt}
    return Trajectory.from_polar(t, r, U, sg, events=eng.events, backend="events", balancedness_drift=0.0,
                                 error_estimate=eng.err_sum, stats=stats, params=params)
