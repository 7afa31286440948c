"""The integration loop of the mp backend: Taylor steps per mode, exact events, switching.

One step from (t, z) in the current mode (:class:`planning.Planning`): the series of the scaled
moving rows, in float64 to order N (lower where the float64 orders underflow or overflow) and in mpfr to the least
order K that the float64 tail allows; the step h_max from the series' tail; the float64 screen of
the pairs and the first estimated event, which cuts the step to h (a hair past it); where no float64
order is accurate enough on that step (K > N), the step is planned again from the mpfr series
(:meth:`Engine.planned_step`). Then the exact
search on the kept pairs (:class:`locate.Locating`), the samples from the series, and at an event
the move there, projection and joint settling per neuron (:class:`settling.Settling`); else the
move to h. Each step adds its tail estimate, the float64 bound rho sum_{k>=K} a_k h^k, the
double-double bound rho_dd sum_{K_mp<=k<K} a_k h^k and the rounding level 10^-(dps+5) to the
error sum.

Numbers: gmpy2 mpfr in numpy object arrays (vectorised loops in C), at the gmpy2 context
precision set by the caller; double-double for the middle orders, float64 for screening and the
high orders.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from verify.dynamics.mp import num
from verify.dynamics.mp.field import MpField, MpMode
from verify.dynamics.mp.integrator import DD_REL_FLOOR, F64_REL_FLOOR, tail_error, terms, tier_bound
from verify.dynamics.mp.locate import Locating
from verify.dynamics.mp.num import ONE, mpfr
from verify.dynamics.mp.planning import Planning
from verify.dynamics.mp.settling import Settling
from verify.dynamics.mp.step import Step, row_exponents
from verify.dynamics.stepper import check_step
from verify.dynamics.switching import line_rows, lines
from verify.errors import NumericalError
from verify.trajectory import Event

GUARD = 10
TOL_MARGIN = 2  # default step tolerance 10^-(dps + TOL_MARGIN): the dps digits survive error propagation
MIXED_MAX_DIGITS = 240  # above, tol and the last terms leave float64's range: all orders in mpfr
MAX_NULL_RESTARTS = 200
EST_MARGIN = 1e-6  # step = (1 + EST_MARGIN) x the float64 estimate of the first event
MPFR_PLAN_STEPS = 16  # after a step planned again from the mpfr series, this many more steps are planned that way


def float64_sizes_unusable(st: Step) -> bool:
    """No float64 order of the mixed step ``st`` is accurate enough (K > N): plan it from the mpfr series."""
    return st.mixed and st.K > st.N


class Engine(Planning, Locating, Settling):
    """One integration at the current gmpy2 precision (mutable working state).

    State: rows ``A`` (h, d) (W, or U in polar form) and ``b`` (h,) (v, or r = ln||w_j||),
    object arrays of mpfr; polar signs ``s``."""

    def __init__(self, mf: MpField, form: str, A0: np.ndarray, b0: np.ndarray, s: np.ndarray | None, order: int, dps: int,
                 tol_digits: int, progress: Callable[[float], None] | None) -> None:
        self.mf, self.form = mf, form
        self.A, self.b, self.s = A0, b0, s
        self.h, self.d = A0.shape
        self.order, self.dps = order, dps
        self.tol = mpfr(10) ** (-tol_digits)
        self.surf = mpfr(10) ** (-dps)
        self.rounding = mpfr(10) ** (-(dps + GUARD // 2))
        self.mixed = tol_digits <= MIXED_MAX_DIGITS
        self.mpfr_plans = 0  # steps left to plan from the mpfr series directly (:meth:`planned_step`)
        self.rho = F64_REL_FLOOR
        self.rho_dd = DD_REL_FLOOR
        self.progress = progress
        self.events: list[Event] = []
        self.stats = {"steps": 0, "n_restarts": 0, "touches": 0, "nonunique": 0, "unsettled": 0, "min_step": None, "max_step": None, "mp_orders": 0, "dd_orders": 0, "all_mp_steps": 0, "replanned": 0}
        self.err_sum = mpfr(0)
        self.unorm_drift = mpfr(0)
        n, h = mf.n, self.h
        self.rep, self.sgn = lines(mf.Xf)  # rows on one line through 0 share a surface (coupled slopes)
        self.line_rows = line_rows(self.rep)
        self.mode = MpMode(S=np.full((n, h), mpfr(0), dtype=object), side=np.full((n, h), -1), onsurf=np.zeros((n, h), bool), dead=np.zeros(h, bool))

    # state ----------------------------------------------------------------------------------------
    def flat(self, A: np.ndarray, b: np.ndarray) -> list:
        """The flat state layout of the trajectory: W then v (Cartesian), r then U (polar)."""
        rows = A.reshape(-1).tolist()
        return rows + b.tolist() if self.form == "cartesian" else b.tolist() + rows

    def scaled(self, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(A~, b~, e, weight) for neurons ``cols``: Cartesian rows / 2^e_j (exact) and weight 2^(2 e_j); polar as is, weight s_j."""
        A, b = self.A[cols], self.b[cols]
        if self.form == "polar":
            return A, b, np.zeros(len(cols), dtype=np.int64), self.s[cols]
        e = row_exponents(np.concatenate([A, b[:, None]], axis=1))
        down = num.pow2(-e)
        return A * down[:, None], b * down, e, num.pow2(2 * e)

    def unscale(self, A: np.ndarray, b: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Undo :meth:`scaled` (Cartesian rows times 2^e_j, exact)."""
        if self.form == "polar":
            return A, b
        up = num.pow2(e)
        return A * up[:, None], b * up

    def outputs(self) -> np.ndarray:
        """f_i = sum_j S_ij c_j <x_i, w_j> over pairs off their surface, c_j = v_j or s_j e^{2 r_j}."""
        m = self.mode
        cols = m.moving()
        if len(cols) == 0:
            return np.full(self.mf.n, mpfr(0), dtype=object)
        gain = self.b[cols] if self.form == "cartesian" else self.s[cols] * num.vexp(2 * self.b[cols])
        return (self.mf.Xm * self.mf.slopes(m, cols, mp=True).left(self.A[cols] * gain[:, None])).sum(axis=1)

    def row_norms(self, A: np.ndarray) -> np.ndarray:
        """Euclidean norms of the rows of A (mpfr)."""
        return num.vsqrt((A * A).sum(axis=1)) if A.shape[1] else np.full(A.shape[0], mpfr(0), dtype=object)

    def move(self, st: Step, tau) -> tuple[np.ndarray, np.ndarray]:
        """The full state at t0 + tau."""
        A, b = self.A.copy(), self.b.copy()
        if len(st.cols):
            As, bs = st.evaluate(tau)
            As, bs = self.unscale(As, bs, st.e)
            A[st.cols], b[st.cols] = As, bs
        return A, b

    # main loop -----------------------------------------------------------------------------------
    def run(self, times: list) -> list:
        """Integrate to times[-1]; the flat states (:meth:`flat`) at ``times`` (mpfr, increasing, >= 0)."""
        t = mpfr(0)
        t_end = times[-1]
        out: list = []
        k = 0
        while k < len(times) and times[k] <= t:
            out.append(self.flat(self.A, self.b))
            k += 1
        self.initial_mode(t)
        null_restarts = 0
        while t < t_end:
            remaining = t_end - t
            cols = self.mode.moving()
            if len(cols) == 0:  # nothing moves: constant to the end
                while k < len(times):
                    out.append(self.flat(self.A, self.b))
                    k += 1
                t = t_end
                break
            st, a, hstep, pre, keep, t_step = self.planned_step(cols, remaining, t)
            last = hstep >= remaining
            self.stats["mp_orders"] += st.K_mp - 1
            self.stats["dd_orders"] += st.K - st.K_mp
            self.stats["all_mp_steps"] += int(st.K > st.N)
            x_ev, pairs, touches = self.find_events(st, hstep, pre, keep)
            has_event = x_ev is not None and x_ev <= 1
            x_cut = x_ev if has_event else mpfr(1)
            t_cut = t_end if (last and not has_event) else t + x_cut * hstep
            while k < len(times) and times[k] <= t_cut:
                out.append(self.flat(*self.move(st, times[k] - t)))
                k += 1
            for xt, i, j in touches:
                self.events.append(Event(t + xt * hstep, i, j, "grazing", 0))
                self.stats["touches"] += 1
            self.stats["steps"] += 1
            taken = x_cut * hstep
            rho = self.rho if st.mixed else 0.0
            t_taken = terms(a, taken) if has_event else t_step  # taken = 1 * hstep: the same terms
            self.err_sum += (tail_error(t_taken) + tier_bound(t_taken, st.K, len(a), rho)
                             + tier_bound(t_taken, st.K_mp, st.K, self.rho_dd) + self.rounding)
            self._note_step(taken)
            self.A, self.b = self.move(st, taken if has_event else hstep)
            if has_event:
                t = t + taken
                null_restarts = null_restarts + 1 if taken <= self.surf * max(1, abs(t)) else 0
                if null_restarts > MAX_NULL_RESTARTS:
                    raise NumericalError(f"mp backend: no progress past an event at t = {float(t):.12g} (chattering)")
                self.settle(t, pairs)
                self.release_surfaces()
                self.stats["n_restarts"] += 1
                self.mpfr_plans = 0
            else:
                t = t_end if last else t + hstep
                self.post_step()
            if self.progress is not None:
                self.progress(float(t))
        while k < len(times):
            out.append(self.flat(self.A, self.b))
            k += 1
        return out

    def planned_step(self, cols: np.ndarray, remaining, t) -> tuple:
        """(step, coefficient sizes a_k, step length, float64 pairs, kept pairs, terms a_k h^k) of the step from t:
        the series' step h_max, cut a hair past the first estimated event, with its orders (:meth:`choose_orders`).

        Where no float64 order is accurate enough (K > N: the float64 coefficients off by more than their own size
        on some order below, as near a converged direction, where u' = s (G - <u, G> u) cancels), their sizes a_k
        can set neither h_max nor the tail estimate, nor their polynomials the screen: the step is planned again from
        the mpfr series, and so are the next ``MPFR_PLAN_STEPS`` steps (until an event) without the float64 attempt.
        (Planned from the float64 sizes, a 24-point polar flow at eps = e^-3000 took steps past the series' reach:
        samples up to 1.45 off the unit circle and 60 spurious events under a tail estimate of 3.6e-29.)"""
        if self.mpfr_plans > 0:
            self.mpfr_plans -= 1
            return self._planned(cols, remaining, t, False)
        st, a, hstep, pre, keep, t_step = self._planned(cols, remaining, t, True)
        if float64_sizes_unusable(st):
            self.stats["replanned"] += 1
            self.mpfr_plans = MPFR_PLAN_STEPS
            return self._planned(cols, remaining, t, False)
        return st, a, hstep, pre, keep, t_step

    def _planned(self, cols: np.ndarray, remaining, t, mixed: bool) -> tuple:
        st0, a, h_max, pre, keep, x_est = self.prepare(cols, remaining, mixed)
        frac = min(1.0, x_est * (1 + EST_MARGIN) + 1e-12)
        hstep = h_max * (ONE * frac) if frac < 1 else h_max
        if not h_max >= remaining:  # the series' own step (not an event's cut) must advance t: else the run has failed
            check_step(h_max, t)
        if frac < 1:
            keep = pre.screen(float(hstep), keep)
        t_step = terms(a, hstep)
        return self.choose_orders(st0, a, t_step), a, hstep, pre, keep, t_step

    def _note_step(self, taken) -> None:
        """Track the least and largest step taken."""
        f = float(taken)
        st = self.stats
        st["min_step"] = f if st["min_step"] is None else min(st["min_step"], f)
        st["max_step"] = f if st["max_step"] is None else max(st["max_step"], f)
