"""Planning one step of the mp backend: series, step length, screened pairs, the orders' arithmetic.

1. Scale each Cartesian neuron by a power of two sigma_j (exact) and run the series recurrence
   (:mod:`series`) in float64 to order N (compiled). If its last terms underflow at N, its orders up
   to the highest order n >= N1 = max(8, (N + 1) / 2) that does not underflow serve the step
   (:func:`step.representable_order`); if it overflows at N, its orders up to N1 serve a step that
   an event cuts or that reaches the end; otherwise (or for dps > 238, tol beyond float64's range)
   the series is computed in mpfr to order N and the rest of the step uses its float64 copy.
2. Step length h_max from the tail of the series (:mod:`integrator`).
3. Screen every pair's preactivation polynomial in float64 (:mod:`screen`): pairs that cannot
   cross on [0, h_max] drop out; the first float64 root of the others sets the step length.
4. Orders 0..K-1 in mpfr, K the least order with rho sum_{k>=K} a_k h^k <= tol (rho: the float64
   coefficients' relative error, measured on orders 1..K-1, times 100, at least 1e-13); of these,
   orders K_mp..K-1 from double-double (:mod:`series_dd`), K_mp >= 3 the least order with
   rho_dd sum_{k>=K_mp} a_k h^k <= tol (rho_dd likewise, measured against mpfr on orders 2..K_mp-1).
   K > N (rho t_N > tol with t_N <= tol: the float64 coefficients off by more than their size) leaves the float64
   sizes, step and screen without ground: the engine plans that step again with ``mixed=False``.

:class:`Planning` is one part of :class:`engine.Engine`: it reads the engine's state, mode,
field, tolerances, ``rho`` and ``rho_dd`` (which it updates).
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from verify.dynamics.mp import num, screen
from verify.dynamics.mp.integrator import DD_FIRST_MEASURED, DD_PER_F64, DD_REL_FLOOR, F64_REL_FLOOR, F64_SAFETY, coefficient_sizes, mp_orders, step_size
from verify.dynamics.mp.num import INF, mpfr
from verify.dynamics.mp.series import Recurrence
from verify.dynamics.mp.series_dd import DoubleDouble, double_double
from verify.dynamics.mp.step import Pairs, Step, finite, normalised, representable_order, slide_polys


def worst_gap(seen: dict[int, float], orders: range, a: list, scale: np.ndarray,
              diff: Callable[[list], tuple[np.ndarray, np.ndarray]]) -> float:
    """max over ``orders`` of max(|dA_k| / scale_j, |db_k| / scale_j) / a_k, the differences ``diff(ks)`` of two
    computations of the orders ks (float64, stacked along a first axis); orders with a_k = 0 are skipped, values
    are cached in ``seen``."""
    new = [k for k in orders if k not in seen and float(a[k]) > 0]
    if new:
        dA, db = diff(new)
        gap_A = (np.abs(dA) / scale[None, :, None]).max(axis=(1, 2), initial=0.0).tolist()
        gap_b = (np.abs(db) / scale[None, :]).max(axis=1, initial=0.0).tolist()
        for k, gA, gb in zip(new, gap_A, gap_b):
            seen[k] = max(gA, gb) / float(a[k])
    worst = 0.0
    for k in orders:
        if k in seen:
            worst = max(worst, seen[k])
    return worst


class Planning:
    """The step-planning part of :class:`engine.Engine` (module docstring)."""

    def series(self, cols: np.ndarray) -> tuple[Recurrence, Recurrence, np.ndarray]:
        """mpfr recurrence (not yet extended), float64 recurrence (orders 0..N, compiled) of the scaled state, exponents."""
        As, bs, e, weight = self.scaled(cols)
        slide_m, slide_f = self.mf.slide_setup(self.mode, cols)
        s = None if self.s is None else self.s[cols]
        N = self.order
        rec_m = self.mf.recurrence(self.form, self.mode, cols, As, bs, weight, s, N, slide_m, mp=True)
        rec_f = self.mf.recurrence(self.form, self.mode, cols, As, bs, weight, s, N, slide_f, mp=False)
        with np.errstate(all="ignore"):
            rec_f.extend(N)
        return rec_m, rec_f, e

    def prepare(self, cols: np.ndarray, remaining, mixed: bool = True) -> tuple:
        """The plan of one step (:meth:`plan`): float64 orders for the high part where they are finite and do
        not underflow, at the full order N; where they underflow at N, at the highest order n >= N1 =
        max(8, (N + 1) // 2) where they do not; where they overflow at N, at order N1 if an event cuts the step or it
        reaches the end; else (or without ``mixed``) every order in mpfr."""
        N = self.order
        low = min(N, max(8, (N + 1) // 2))
        rec_m, rec_f, e = self.series(cols)
        if self.mixed and mixed:
            for order in dict.fromkeys((N, low)):
                part = rec_f if order == rec_f.k else rec_f.truncated(order)
                if not finite(part):
                    continue
                plan = self.plan(cols, e, rec_m, part, True, remaining)
                a, h_max, x_est = plan[1], plan[2], plan[5]
                top = representable_order(a)
                if top < order:
                    if top >= low:
                        return self.plan(cols, e, rec_m, rec_f.truncated(top), True, remaining)
                    continue
                if order == N or x_est < 1 or h_max >= remaining:
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
        st0 = Step(cols, e, rec_m, rec_f, mixed, scale)
        pre = self.pairs_f(st0, a)
        keep = pre.screen(float(h_max), np.arange(len(pre.I)))
        xs = [pre.first_root(float(h_max), keep)]
        if rec_f.slide:
            for _i, _j, poly in slide_polys(st0, [mpfr(h_max) ** q for q in range(n + 1)], False, self.mf.alpha, self.surf):
                xs.append(screen.first_negative(normalised(poly)[:, None]))
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

    def pairs_f(self, st: Step, a: list) -> Pairs:
        """Float64 preactivation polynomials of every pair off its surface of the moving neurons.

        The coefficient bound ||A_k,j|| of the screen is raised by sqrt(d) rho a_k scale_j / DELTA,
        so that the margin also covers the float64 coefficients' error rho a_k (relative to the
        largest component) when a neuron's own coefficients are small."""
        m, mf = self.mode, self.mf
        Af = st.rec_f.A[: st.N + 1]
        rho = max(F64_REL_FLOOR, self.rho) if st.mixed else F64_REL_FLOOR
        spread = np.sqrt(mf.d) * rho / screen.DELTA * np.array([float(x) for x in a])[:, None] * st.scale[None, :]
        I, J = np.nonzero(m.side[:, st.cols] != 0)
        sd = m.side[I, st.cols[J]].astype(float)
        ons = m.onsurf[I, st.cols[J]]
        with np.errstate(all="ignore"):
            Pf = np.matmul(mf.Xf[None], Af.transpose(0, 2, 1))
            norms = np.sqrt((Af * Af).sum(axis=2)) + spread
            Q = screen.deflate(sd[None, :] * Pf[:, I, J], ons)
            C = screen.deflate(mf.xnorm_f[I][None, :] * norms[:, J], ons)
        return Pairs(Pf, I, J, sd, Q, C)

    def choose_orders(self, st0: Step, a: list, t: list) -> Step:
        """Extend the mpfr recurrence to the least order K that the float64 tail allows on the step, whose
        :func:`integrator.terms` are ``t``; the orders from K_mp on come from double-double where it applies
        (:meth:`double_double_orders`)."""
        rec_m, rec_f, scale = st0.rec_m, st0.rec_f, st0.scale
        if not st0.mixed:
            return Step(st0.cols, st0.e, rec_m, rec_f, False, scale)
        rho = self.rho
        K = mp_orders(t, rho, self.tol)
        rec_m.extend(1)
        dd = double_double(rec_m, rec_f) if K > DD_FIRST_MEASURED + 1 else None  # else no order is left for it
        seen: dict[int, float] = {}  # order k -> max relative difference of the reference and float64 coefficients / a_k
        while True:
            if dd is not None:
                dd.extend(K - 1)
                if not dd.usable(1, K - 1):  # beyond double-double's range: this step's reference is mpfr
                    dd, seen = None, {}
            if dd is None:
                rec_m.extend(K - 1)
                worst = worst_gap(seen, range(1, K), a, scale, lambda ks: (rec_m.A[ks].astype(float) - rec_f.A[ks],
                                                                          rec_m.b[ks].astype(float) - rec_f.b[ks]))
            else:
                worst = worst_gap(seen, range(1, K), a, scale, lambda ks: (dd.arrays["A"][ks, ..., 0] - rec_f.A[ks],
                                                                          dd.arrays["b"][ks, ..., 0] - rec_f.b[ks]))
            rho = max(F64_REL_FLOOR, F64_SAFETY * worst)
            K2 = mp_orders(t, rho, self.tol)
            if K2 <= K or K >= len(a):
                break
            K = K2
        self.rho = rho
        K_mp = K if dd is None else self.double_double_orders(dd, a, t, K, scale)
        return Step(st0.cols, st0.e, rec_m, rec_f, True, scale, K_mp)

    def double_double_orders(self, dd: DoubleDouble, a: list, t: list, K: int, scale: np.ndarray) -> int:
        """The least K_mp <= K with rho_dd sum_{k >= K_mp} a_k h^k <= tol: mpfr orders 0..K_mp-1, double-double
        orders K_mp..K-1 (written into the mpfr recurrence). rho_dd = max(DD_REL_FLOOR, DD_PER_F64 rho,
        F64_SAFETY x the largest relative difference of the double-double and mpfr coefficients on orders
        2..K_mp-1, relative to a_k and the neurons' ``scale``). Order 2, the first that the double-double
        recurrence computes (order 1 is the common seed's), is always measured (K_mp > DD_FIRST_MEASURED)."""
        rec_m = dd.rec
        floor = max(DD_REL_FLOOR, DD_PER_F64 * self.rho)
        rho_dd = floor
        K_mp = min(K, max(DD_FIRST_MEASURED + 1, mp_orders(t, rho_dd, self.tol)))
        seen: dict[int, float] = {}
        while True:
            rec_m.extend(K_mp - 1)
            worst = worst_gap(seen, range(DD_FIRST_MEASURED, K_mp), a, scale,
                              lambda ks: ((rec_m.A[ks] - dd.state("A", ks)).astype(float),
                                          (rec_m.b[ks] - dd.state("b", ks)).astype(float)))
            rho_dd = max(floor, F64_SAFETY * worst)
            K2 = min(K, max(DD_FIRST_MEASURED + 1, mp_orders(t, rho_dd, self.tol)))
            if K2 <= K_mp:
                break
            K_mp = K2
        if K_mp < K and dd.usable(K_mp, K - 1):
            dd.fill(K - 1)
        else:
            rec_m.extend(K - 1)
            K_mp = K
        self.rho_dd = rho_dd
        return K_mp
