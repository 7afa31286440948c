"""The integration loop of the mp backend: Taylor steps per mode, exact events, switching.

One step from (t, z) in the current mode:

1. Scale each Cartesian neuron by a power of two sigma_j (exact; the state is O(1) and float64
   holds it whatever eps) and run the series recurrence (:mod:`series`) in float64 to order
   N1 = N/2, and on to N when no event cuts the step at order N1 (the Taylor method of order
   N1 on event-limited steps). If the float64 series overflows or its last terms underflow
   (or for dps > 238, tol beyond float64's range), the series is computed in mpfr to order N
   and the rest of the step uses its float64 copy.
2. Step length h_max from the tail of the series (:mod:`integrator`).
3. Screen every pair's preactivation polynomial in float64 (:mod:`screen`): pairs that cannot
   cross on [0, h_max] drop out; the first float64 root of the others sets the step length h
   (a hair past the estimated event).
4. Orders 0..K-1 in mpfr, K the least order with rho sum_{k>=K} a_k h^k <= tol (rho: the float64
   coefficients' relative error, measured on orders 1..K-1, times 100, at least 1e-13); the
   orders K..N stay float64. Event-limited steps need K of 4 to 6, long steps more.
5. Exact search (:func:`events.first_root`) on the pairs kept at h, on their polynomials with
   mpfr coefficients: events to full precision. Sliding pairs: the slope-exit functions.
6. Move to the event (or to h), put every pair within tau_ij = 10^-dps ||x_i|| ||w_j|| of its
   surface onto it, settle them jointly per neuron, log events (:mod:`events`).

Numbers: gmpy2 mpfr in numpy object arrays (vectorised loops in C), at the gmpy2 context
precision set by the caller; float64 for screening and the high orders.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from verify.dynamics.mp import events as mpev
from verify.dynamics.mp import num, screen
from verify.dynamics.mp.field import MpField, MpMode
from verify.dynamics.mp.integrator import F64_REL_FLOOR, F64_SAFETY, coefficient_sizes, f64_bound, mp_orders, step_size, tail_error
from verify.dynamics.mp.num import INF, mpfr
from verify.dynamics.mp.series import Recurrence
from verify.dynamics.stepper import check_step
from verify.dynamics.switching import lines
from verify.errors import NumericalError
from verify.trajectory import Event

GUARD = 10
TOL_MARGIN = 2  # step tolerance 10^-(dps + TOL_MARGIN): the dps digits survive error propagation
MIXED_MAX_DIGITS = 240  # above, tol and the last terms leave float64's range: all orders in mpfr
MAX_NULL_RESTARTS = 200
NEAR_F64 = 1e-9  # float64 prefilter of pairs near their surface (relative to ||x_i|| ||w_j||)
EST_MARGIN = 1e-6  # step = (1 + EST_MARGIN) x the float64 estimate of the first event



def _times_powers(A: np.ndarray, h: float) -> np.ndarray:
    """A[k] h^k (rows k = 0, 1, ...) in float64. A long step at high order (h ~ 1e10, k ~ 40) makes h^k overflow
    although the products are small; then h = m 2^e (frexp) and A[k] h^k = ldexp(A[k] m^k, e k), exact scaling."""
    k = np.arange(A.shape[0], dtype=float)[:, None]
    with np.errstate(all="ignore"):
        if h <= 0.0 or A.shape[0] * math.log2(h) < 1000.0:
            return A * h**k
        m, e = math.frexp(h)
        return np.ldexp(A * m**k, (e * k).astype(int))


def _normalised(poly: list) -> np.ndarray:
    """Float64 coefficients of ``poly`` divided by the largest magnitude (same signs and roots): the terms c_k h^k
    are formed in mpfr, where h^k of a long step (h ~ 1e10, k ~ 30) is finite, and would overflow as floats."""
    top = max((abs(c) for c in poly), default=0)
    return np.array([float(c / top) if top else 0.0 for c in poly], dtype=float)

class _Step:
    """The series of one step: mpfr orders 0..K-1 and float64 orders 0..N of the scaled state."""

    def __init__(self, cols: np.ndarray, e: np.ndarray, rec_m: Recurrence, rec_f: Recurrence, mixed: bool, scale: np.ndarray) -> None:
        self.cols, self.e, self.rec_m, self.rec_f, self.mixed, self.scale = cols, e, rec_m, rec_f, mixed, scale
        self.K = rec_m.k + 1
        self.N = rec_f.k

    def evaluate(self, tau) -> tuple[np.ndarray, np.ndarray]:
        """Scaled rows A(t0 + tau) (m, d) and b (m,): mpfr orders by Horner plus the float64 tail."""
        rm, K = self.rec_m, self.K
        A, b = rm.A[K - 1], rm.b[K - 1]
        for k in range(K - 2, -1, -1):
            A = A * tau + rm.A[k]
            b = b * tau + rm.b[k]
        if K <= self.N:
            with np.errstate(under="ignore"):
                pw = float(tau) ** np.arange(K, self.N + 1, dtype=float)
            A = A + np.tensordot(pw, self.rec_f.A[K : self.N + 1], axes=1)
            b = b + pw @ self.rec_f.b[K : self.N + 1]
        return A, b

    def pair_coeffs(self, X: np.ndarray, Pf: np.ndarray, I: np.ndarray, J: np.ndarray, sd: np.ndarray, hp: list) -> list:
        """Per pair (i, local j): side * <x_i, A_k,j> h^k, k = 0..N (mpfr below K, float64 above)."""
        K = self.K
        Pm = (X[I][None, :, :] * self.rec_m.A[:K][:, J, :]).sum(axis=2)
        out = []
        for p in range(len(I)):
            s = int(sd[p])
            c = [s * Pm[k, p] * hp[k] for k in range(K)]
            c += [s * mpfr(float(Pf[k, I[p], J[p]])) * hp[k] for k in range(K, self.N + 1)]
            out.append(c)
        return out

    def slide_coeffs(self, j: int, a: int) -> tuple[list, list]:
        """(g_i, y_i) coefficients (field orders 0..N-1) of row a of sliding neuron j."""
        gm, ym = self.rec_m.slide_series(j, a)
        gf, yf = self.rec_f.slide_series(j, a)
        k0 = len(gm)
        return gm + [mpfr(float(x)) for x in gf[k0:]], ym + [mpfr(float(x)) for x in yf[k0:]]


def _finite(rec: Recurrence) -> bool:
    """No overflow in the float64 orders computed so far."""
    k = rec.k
    return bool(np.isfinite(rec.A[: k + 1]).all() and np.isfinite(rec.b[: k + 1]).all() and np.isfinite(rec.g[:k]).all())


def _underflow(a: list) -> bool:
    """The last float64 coefficients are too small for float64 (or its step-size rule)."""
    return bool(a[1] > 0 and min(a[-2:]) < 1e-280)


def _row_exponents(Z: np.ndarray) -> np.ndarray:
    """Per row, the binary exponent e (x = m 2^e, 1/2 <= |m| < 1) of the largest entry; 0 for a zero row.

    From float64 where the row maximum is a normal number (rounding may raise e by one:
    harmless, the scaling stays exact), else from the mpfr entries."""
    with np.errstate(all="ignore"):
        top = np.abs(Z.astype(float)).max(axis=1, initial=0.0)
        e = np.frexp(top)[1].astype(np.int64)
    for r in np.flatnonzero(~np.isfinite(top) | ((top < 1e-300) & (top > 0)) | ((top == 0) & (Z != 0).any(axis=1))):
        nz = list(num.vexponent(Z[r][Z[r] != 0]))
        e[r] = max(nz) if nz else 0
    return e


class _Pairs:
    """Float64 preactivation polynomials of one step: Pf (N+1, n, m); pairs I, J (local), sides sd;
    Q = sd P_IJ and the coefficient bounds C = ||x_i|| ||A_k,j||, deflated for on-surface pairs."""

    def __init__(self, Pf: np.ndarray, I: np.ndarray, J: np.ndarray, sd: np.ndarray, Q: np.ndarray, C: np.ndarray) -> None:
        self.Pf, self.I, self.J, self.sd, self.Q, self.C = Pf, I, J, sd, Q, C

    def screen(self, h: float, among: np.ndarray) -> np.ndarray:
        """The pairs of ``among`` that may cross on [0, h]."""
        return among[screen.may_cross(_times_powers(self.Q[:, among], h), _times_powers(self.C[:, among], h))]

    def first_root(self, h: float, among: np.ndarray) -> float:
        """Float64 estimate of the first root of the pairs ``among`` on [0, h] (in units of h; 1 if none seen)."""
        return screen.first_negative(_times_powers(self.Q[:, among], h))


class Engine:
    """One integration at the current gmpy2 precision (mutable working state).

    State: rows ``A`` (h, d) (W, or U in polar form) and ``b`` (h,) (v, or r = ln||w_j||),
    object arrays of mpfr; polar signs ``s``."""

    def __init__(self, mf: MpField, form: str, A0: np.ndarray, b0: np.ndarray, s: np.ndarray | None, order: int, dps: int,
                 progress: Callable[[float], None] | None) -> None:
        self.mf, self.form = mf, form
        self.A, self.b, self.s = A0, b0, s
        self.h, self.d = A0.shape
        self.order, self.dps = order, dps
        self.tol = mpfr(10) ** (-(dps + TOL_MARGIN))
        self.surf = mpfr(10) ** (-dps)
        self.rounding = mpfr(10) ** (-(dps + GUARD // 2))
        self.mixed = dps + TOL_MARGIN <= MIXED_MAX_DIGITS
        self.rho = F64_REL_FLOOR
        self.progress = progress
        self.events: list[Event] = []
        self.stats = {"steps": 0, "n_restarts": 0, "touches": 0, "nonunique": 0, "min_step": None, "max_step": None, "mp_orders": 0, "all_mp_steps": 0}
        self.err_sum = mpfr(0)
        self.unorm_drift = mpfr(0)
        n, h = mf.n, self.h
        self.rep, self.sgn = lines(mf.Xf)  # rows on one line through 0 share a surface (coupled slopes)
        self.line_rows = {int(r): [int(i) for i in np.flatnonzero(self.rep == r)] for r in np.unique(self.rep)}
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
        e = _row_exponents(np.concatenate([A, b[:, None]], axis=1))
        return num.vldexp(A, -e[:, None]), num.vldexp(b, -e), e, num.vldexp(np.full(len(cols), mpfr(1), dtype=object), 2 * e)

    def unscale(self, A: np.ndarray, b: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.form == "polar":
            return A, b
        return num.vldexp(A, e[:, None]), num.vldexp(b, e)

    def outputs(self) -> np.ndarray:
        """f_i = sum_j S_ij c_j <x_i, w_j> over pairs off their surface, c_j = v_j or s_j e^{2 r_j}."""
        m = self.mode
        cols = m.moving()
        if len(cols) == 0:
            return np.full(self.mf.n, mpfr(0), dtype=object)
        gain = self.b[cols] if self.form == "cartesian" else self.s[cols] * num.vexp(2 * self.b[cols])
        return (self.mf.Xm * self.mf.slopes(m, cols, mp=True).left(self.A[cols] * gain[:, None])).sum(axis=1)

    def row_norms(self, A: np.ndarray) -> np.ndarray:
        return num.vsqrt((A * A).sum(axis=1)) if A.shape[1] else np.full(A.shape[0], mpfr(0), dtype=object)

    def near_pairs(self, triggers: set) -> np.ndarray:
        """Bool (n, h): pairs within tau of their surface, on the wrong side, or triggering (dead neurons excluded)."""
        m, mf = self.mode, self.mf
        live = np.flatnonzero(~m.dead)
        near = np.zeros((mf.n, self.h), dtype=bool)
        if len(live) == 0:
            return near
        As = self.scaled(live)[0]
        Af = As.astype(float)
        Pf = mf.Xf @ Af.T
        bound = NEAR_F64 * mf.xnorm_f[:, None] * np.sqrt((Af * Af).sum(axis=1))[None, :]
        sd = m.side[:, live]
        maybe = (np.abs(Pf) <= bound) | ((sd != 0) & (sd * Pf <= bound))
        for i, j in triggers:
            if not m.dead[j]:
                maybe[i, np.searchsorted(live, j)] = True
        I, J = np.nonzero(maybe)
        if len(I) == 0:
            return near
        P = (mf.Xm[I] * As[J]).sum(axis=1)
        tau = self.surf * mf.xnorm_m[I] * self.row_norms(As[J])
        for i, jl, p, tu in zip(I, J, P, tau):
            j = int(live[jl])
            sdv = m.side[i, j]
            if abs(p) <= tu or (sdv != 0 and sdv * p <= 0) or (int(i), j) in triggers:
                near[i, j] = True
        return near

    # switching ----------------------------------------------------------------------------------
    def project(self, j: int, rows: list) -> None:
        w = mpev.project_out(self.A[j].tolist(), self.mf.X, self.mf.K, rows)
        if self.form == "polar":
            nrm = num.sqrt(num.dot(w, w))
            if not nrm > num.ldexp(1, -num.prec() // 2):
                raise NumericalError(f"mp backend: projecting neuron {j} onto the surfaces of rows {rows} leaves no "
                                     "direction (they span its space)")
            w = [c / nrm for c in w]
        self.A[j] = w

    def settle(self, t, triggers: list) -> None:
        m = self.mode
        trig = {(int(i), int(j)) for i, j in triggers}
        near = self.near_pairs(trig)
        cols = sorted(set(np.flatnonzero(near.any(axis=0)).tolist()) | {j for _, j in trig if not m.dead[j]})
        if not cols:
            self.check_dead(t)
            return
        g = self.mf.g_point(self.outputs()).tolist()
        gain = self.b if self.form == "cartesian" else self.s
        for j in cols:
            rows = sorted(set(np.flatnonzero(near[:, j]).tolist()) | set(m.sliding.get(j, [])))
            self.project(j, rows)
            col = m.S[:, j].tolist()
            reps = sorted({int(self.rep[i]) for i in rows})
            if any(len(self.line_rows[r]) > 1 for r in reps):
                self._settle_lines(t, j, reps, col, g, gain[j], trig)
                continue
            state, slopes, rep = mpev.resolve_neuron(col, g, self.mf.K, gain[j], rows, self.mf.alpha, self.surf)
            for q, i in enumerate(rows):
                kind, direction = mpev.event_kind(int(m.side[i, j]), state[q], (i, j) in trig, rep[q])
                if rep[q]:
                    self.stats["nonunique"] += 1
                if kind is not None:
                    self.events.append(Event(t, i, j, kind, direction))
                m.set(i, j, slopes[q], 1 if state[q] == mpev.ACTIVE else (0 if state[q] == mpev.SLIDING else -1))
                m.onsurf[i, j] = True
            slide = [i for q, i in enumerate(rows) if state[q] == mpev.SLIDING]
            if slide:
                m.sliding[j] = slide
            else:
                m.sliding.pop(j, None)
        self.check_dead(t)

    def _settle_lines(self, t, j: int, reps: list, col: list, g: list, gain, trig: set) -> None:
        """On-surface lines of neuron j with coupled member slopes (:func:`mpev.resolve_lines`)."""
        m = self.mode
        members = [self.line_rows[r] for r in reps]
        signs = [[int(self.sgn[i]) for i in rows] for rows in members]
        state, slopes, flags = mpev.resolve_lines(col, g, self.mf.K, gain, members, signs, self.mf.alpha, self.surf)
        one = mpfr(1)
        for rows, sg, st, s_rep, rep in zip(members, signs, state, slopes, flags):
            for i, s in zip(rows, sg):
                up = (st == mpev.ACTIVE) == (s > 0)
                new = mpev.ACTIVE if up else mpev.INACTIVE
                kind, direction = mpev.event_kind(int(m.side[i, j]), new, (i, j) in trig, rep)
                if rep:
                    self.stats["nonunique"] += 1
                if kind is not None:
                    self.events.append(Event(t, i, j, kind, direction))
                m.set(i, j, s_rep if s > 0 else one + self.mf.alpha - s_rep, 1 if up else -1)
                m.onsurf[i, j] = True
        m.sliding.pop(j, None)

    def check_dead(self, t) -> None:
        m = self.mode
        if self.mf.alpha != 0:
            return
        frozen = ~m.dead & ~m.nonzero.any(axis=0)
        for j in np.flatnonzero(frozen):
            if int(j) not in m.sliding:
                m.dead[j] = True
                self.events.append(Event(t, -1, int(j), "dead", 0))

    def initial_mode(self, t) -> None:
        m, mf = self.mode, self.mf
        cols = np.arange(self.h)
        As = self.scaled(cols)[0]
        P = mf.Xm @ As.T
        tau = self.surf * mf.xnorm_m[:, None] * self.row_norms(As)[None, :]
        on = abs(P) <= tau
        pos = (P > 0) & ~on
        one = mpfr(1)
        for i in range(mf.n):
            for j in range(self.h):
                m.set(i, j, one if pos[i, j] else mf.alpha, 1 if pos[i, j] else -1)
        if on.any():
            self.settle(t, [])
        self.check_dead(t)

    # one step -----------------------------------------------------------------------------------
    def series(self, cols: np.ndarray) -> tuple[Recurrence, Recurrence, np.ndarray]:
        """mpfr recurrence (not yet extended), float64 recurrence (orders 0..N1) of the scaled state, exponents.

        N1 = max(8, (N + 1) // 2) first: enough for event-limited steps (:meth:`prepare` extends
        the float64 series to N when the step is not cut by an event)."""
        As, bs, e, weight = self.scaled(cols)
        slide_m, slide_f = self.mf.slide_setup(self.mode, cols)
        s = None if self.s is None else self.s[cols]
        N = self.order
        rec_m = self.mf.recurrence(self.form, self.mode, cols, As, bs, weight, s, N, slide_m, mp=True)
        rec_f = self.mf.recurrence(self.form, self.mode, cols, As, bs, weight, s, N, slide_f, mp=False)
        with np.errstate(all="ignore"):
            rec_f.extend(min(N, max(8, (N + 1) // 2)))
        return rec_m, rec_f, e

    def prepare(self, cols: np.ndarray, remaining) -> tuple:
        """The plan of one step (:meth:`plan`): float64 orders for the high part where they are
        finite and do not underflow (else every order in mpfr), at the full order N unless an
        event cuts the step at order N1."""
        N = self.order
        rec_m, rec_f, e = self.series(cols)
        while True:
            if self.mixed and _finite(rec_f):
                plan = self.plan(cols, e, rec_m, rec_f, True, remaining)
                a, h_max, x_est = plan[1], plan[2], plan[5]
                if not _underflow(a):
                    if rec_f.k < N and x_est >= 1 and h_max < remaining:
                        with np.errstate(all="ignore"):
                            rec_f.extend(N)
                        continue
                    return plan
            rec_m.extend(N)
            return self.plan(cols, e, rec_m, rec_m.floats(), False, remaining)

    def plan(self, cols: np.ndarray, e: np.ndarray, rec_m: Recurrence, rec_f: Recurrence, mixed: bool, remaining) -> tuple:
        """(step at order rec_f.k, coefficient sizes a_k, h_max, float64 pairs, kept pairs, first-event estimate in units of h_max)."""
        scale = self.scales(rec_f)
        n = rec_f.k
        if mixed:
            a = coefficient_sizes(rec_f.A[: n + 1], rec_f.b[: n + 1], scale)
        else:
            a = coefficient_sizes(rec_m.A, rec_m.b, num.vec(scale))
        h_max = min(step_size(a, self.tol), remaining, self.polar_cap(rec_f, cols))
        st0 = _Step(cols, e, rec_m, rec_f, mixed, scale)
        pre = self.pairs_f(st0, a)
        keep = pre.screen(float(h_max), np.arange(len(pre.I)))
        xs = [pre.first_root(float(h_max), keep)]
        if rec_f.slide:
            for _i, _j, poly in self.slide_polys(st0, [mpfr(h_max) ** q for q in range(n + 1)], exact=False):
                xs.append(screen.first_negative(_normalised(poly)[:, None]))
        return st0, a, h_max, pre, keep, min(xs)

    def polar_cap(self, rec_f: Recurrence, cols: np.ndarray) -> "mpfr":
        """Polar form: the longest step on which the tail test can be trusted for E_j = exp(2 r_j).

        The tail test assumes the terms beyond order N decay; for E_j = e^{2 r_j} along r_j ~ r_j0 + R t they
        are e^{2 r_j0} (2 R h)^k / k!, which decay beyond N only if 2 R h <= (N + 1) / e. While E_j is tiny
        (theorem-scale eps) the whole remainder, at most e^{2 r_j0 + 2 R h}, stays below tol as long as
        2 (r_j0 + R h) <= ln tol, so a neuron may step freely until then. R_j = max(|r_j'|, sum_i |S_ij| |g_i| ||x_i||)
        bounds |r_j'| at the step start (||G_j|| <= sum_i |S_ij| |g_i| ||x_i|| over the slopes S of this mode, every
        row of a sliding neuron's surface counted with weight 1). Only the rows a neuron sees count: a data point
        no neuron fits keeps |g_i| = 1/2 forever, and counting it for every neuron held the step at ~1 up to t = 1e12.
        Without this cap one step could run through the end of the alignment phase, where E_j becomes O(1), with a
        tiny tail estimate. Cartesian form: no cap (inf)."""
        if self.form != "polar" or rec_f.k < 1:
            return INF
        seen = np.abs(self.mode.S[:, cols].astype(float))
        for jl, (rows, *_rest) in rec_f.slide.items():
            seen[rows, jl] = 1.0
        with np.errstate(invalid="ignore", over="ignore"):  # an exploding flow: inf g (caught just below)
            bound = (np.abs(rec_f.g[0].astype(float)) * self.mf.xnorm_f) @ seen
            rate = np.maximum(np.abs(rec_f.b[1].astype(float)), bound)
        if not np.all(np.isfinite(rate)) or float(rate.max(initial=0.0)) == 0.0:
            return INF
        free = np.maximum((0.5 * math.log(float(self.tol)) - rec_f.b[0].astype(float)) / rate, 0.0)
        ratio = (self.order + 1) / (2.0 * math.e * rate)
        return mpfr(float(np.min(np.maximum(free, ratio))))

    def scales(self, rec_f: Recurrence) -> np.ndarray:
        """Per-neuron scale of the (scaled) state: ||(w~_j, v~_j)|| (Cartesian), 1 (polar)."""
        m = rec_f.b.shape[1]
        if self.form == "polar":
            return np.ones(m)
        sc = np.sqrt((rec_f.A[0] ** 2).sum(axis=1) + rec_f.b[0] ** 2)
        return np.where(sc > 0, sc, 1.0)

    def pairs_f(self, st: _Step, a: list) -> "_Pairs":
        """Float64 preactivation polynomials of every pair off its surface of the moving neurons.

        The coefficient bound ||A_k,j|| of the screen is raised by sqrt(d) rho a_k scale_j / DELTA,
        so that the margin also covers the float64 coefficients' error rho a_k (relative to the
        largest component) when a neuron's own coefficients are small."""
        m, mf = self.mode, self.mf
        Af = st.rec_f.A[: st.N + 1]
        rho = max(F64_REL_FLOOR, self.rho) if st.mixed else F64_REL_FLOOR
        spread = np.sqrt(mf.d) * rho / screen.DELTA * np.array([float(x) for x in a])[:, None] * st.scale[None, :]
        with np.errstate(all="ignore"):
            Pf = np.matmul(mf.Xf[None], Af.transpose(0, 2, 1))
            norms = np.sqrt((Af * Af).sum(axis=2)) + spread
        I, J = np.nonzero(m.side[:, st.cols] != 0)
        sd = m.side[I, st.cols[J]].astype(float)
        ons = m.onsurf[I, st.cols[J]]
        with np.errstate(all="ignore"):
            Q = screen.deflate(sd[None, :] * Pf[:, I, J], ons)
            C = screen.deflate(mf.xnorm_f[I][None, :] * norms[:, J], ons)
        return _Pairs(Pf, I, J, sd, Q, C)

    def slide_polys(self, st: _Step, hp: list, exact: bool) -> list:
        """Slope-exit functions of the sliding pairs: [(i, j, poly)], poly = sg (g - y) h^k and sg (y - alpha g) h^k."""
        out = []
        rf = st.rec_f
        for jl, (rows, *_rest) in rf.slide.items():
            for a, i in enumerate(rows):
                gser, yser = st.slide_coeffs(jl, a) if exact else rf.slide_series(jl, a)
                sg = 1 if gser[0] > 0 else -1
                alpha = self.mf.alpha if exact else float(self.mf.alpha)
                slack = (self.surf if exact else float(self.surf)) * abs(gser[0])
                for poly in ([sg * (gk - yk) * hp[k] for k, (gk, yk) in enumerate(zip(gser, yser))],
                             [sg * (yk - alpha * gk) * hp[k] for k, (gk, yk) in enumerate(zip(gser, yser))]):
                    poly[0] += slack
                    out.append((int(i), int(st.cols[jl]), poly))
        return out

    def choose_orders(self, st0: _Step, a: list, h) -> _Step:
        """Extend the mpfr recurrence to the least order that the float64 tail allows at step h."""
        rec_m, rec_f, scale = st0.rec_m, st0.rec_f, st0.scale
        if not st0.mixed:
            return _Step(st0.cols, st0.e, rec_m, rec_f, False, scale)
        rho = self.rho
        K = mp_orders(a, h, rho, self.tol)
        while True:
            rec_m.extend(K - 1)
            worst = 0.0
            for k in range(1, K):
                ak = float(a[k])
                if ak > 0:
                    dA = np.abs(rec_m.A[k].astype(float) - rec_f.A[k]) / scale[:, None]
                    db = np.abs(rec_m.b[k].astype(float) - rec_f.b[k]) / scale
                    worst = max(worst, float(max(dA.max(initial=0.0), db.max(initial=0.0))) / ak)
            rho = max(F64_REL_FLOOR, F64_SAFETY * worst)
            K2 = mp_orders(a, h, rho, self.tol)
            if K2 <= K or K >= len(a):
                break
            K = K2
        self.rho = rho
        return _Step(st0.cols, st0.e, rec_m, rec_f, True, scale)

    def find_events(self, st: _Step, h, pre: "_Pairs", keep: np.ndarray) -> tuple:
        """(x of the first event in (0, 1] or None, triggering pairs, touches [(x, i, j)]) on [0, h]."""
        m, mf = self.mode, self.mf
        Pf, I, J, sd = pre.Pf, pre.I, pre.J, pre.sd
        hp = [mpfr(1)]
        for _ in range(st.N):
            hp.append(hp[-1] * h)
        found: list = []
        touches: list = []
        if len(keep):
            Ik, Jk = I[keep], J[keep]
            coeffs = st.pair_coeffs(mf.Xm, Pf, Ik, Jk, sd[keep], hp)
            norms = self.row_norms(st.rec_m.A[0][Jk])
            for p, c in enumerate(coeffs):
                i, j = int(Ik[p]), int(st.cols[Jk[p]])
                tau = self.surf * mf.xnorm_m[i] * norms[p]
                x, tch = mpev.first_root(c, bool(m.onsurf[i, j]), tau)
                touches += [(tx, i, j) for tx in tch]
                if x is not None:
                    found.append((x, i, j))
        for i, j, poly in self.slide_polys(st, hp, exact=True):
            x, _ = mpev.first_root(poly, False, None)
            if x is not None:
                found.append((x, i, j))
        if not found:
            return None, [], touches
        x_star = min(f[0] for f in found)
        pairs = [(i, j) for x, i, j in found if x <= x_star + self.surf]
        return x_star, pairs, [tc for tc in touches if tc[0] < x_star]

    def release_surfaces(self) -> None:
        """Clear the on-surface flag of every pair that has left its surface (side * <x_i, w_j> > tau). Run after
        every step, an event's too: a flag left standing makes the next root search divide phi by x (phi(0) = 0
        assumed) and report a crossing of a pair far from its surface (with 30 neurons in d = 3 every step ended in
        an event, the flags were never cleared, and a projection onto such a row's hyperplane zeroed a direction)."""
        m, mf = self.mode, self.mf
        I, J = np.nonzero(m.onsurf & (m.side != 0))
        if len(I):
            cols = np.unique(J)
            As = self.scaled(cols)[0]
            Jl = np.searchsorted(cols, J)
            P = (mf.Xm[I] * As[Jl]).sum(axis=1)
            tau = self.surf * mf.xnorm_m[I] * self.row_norms(As[Jl])
            for i, j, p, tu in zip(I, J, P, tau):
                if m.side[i, j] * p > tu:
                    m.onsurf[i, j] = False

    def post_step(self) -> None:
        m = self.mode
        self.release_surfaces()
        for j, rows in m.sliding.items():
            self.project(j, rows)
        if self.form == "polar":
            nrm = self.row_norms(self.A)
            self.unorm_drift = max([self.unorm_drift] + [abs(x - 1) for x in nrm])
            self.A = self.A / nrm[:, None]

    def move(self, st: _Step, tau) -> tuple[np.ndarray, np.ndarray]:
        """The full state at t0 + tau."""
        A, b = self.A.copy(), self.b.copy()
        if len(st.cols):
            As, bs = st.evaluate(tau)
            As, bs = self.unscale(As, bs, st.e)
            A[st.cols], b[st.cols] = As, bs
        return A, b

    # main loop -----------------------------------------------------------------------------------
    def run(self, times: list) -> list:
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
            st0, a, h_max, pre, keep, x_est = self.prepare(cols, remaining)
            frac = min(1.0, x_est * (1 + EST_MARGIN) + 1e-12)
            hstep = h_max * mpfr(frac) if frac < 1 else h_max
            if not h_max >= remaining:  # the series' own step (not an event's cut) must advance t: else the run has failed
                check_step(h_max, t)
            last = hstep >= remaining
            if frac < 1:
                keep = pre.screen(float(hstep), keep)
            st = self.choose_orders(st0, a, hstep)
            self.stats["mp_orders"] += st.K - 1
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
            self.err_sum += tail_error(a, taken) + f64_bound(a, taken, st.K, rho) + self.rounding
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
            else:
                t = t_end if last else t + hstep
                self.post_step()
            if self.progress is not None:
                self.progress(float(t))
        while k < len(times):
            out.append(self.flat(self.A, self.b))
            k += 1
        return out

    def _note_step(self, taken) -> None:
        f = float(taken)
        st = self.stats
        st["min_step"] = f if st["min_step"] is None else min(st["min_step"], f)
        st["max_step"] = f if st["max_step"] is None else max(st["max_step"], f)
