"""Settling an event point of the mp backend: projection onto the surfaces and the switching law.

At an event (or at t = 0) every pair within tau_ij = 10^-dps ||x_i|| ||w_j|| of its surface, or
on its wrong side, is put onto it: w_j is projected onto the hyperplanes of those rows (polar: u_j
renormalised). The pairs of one neuron are then settled jointly by the switching law of every engine,
run on mpfr (:func:`law.settle_column`; rows on one line through 0 share a surface; numbers from
:func:`events.numbers`; ``stats["unsettled"]`` counts settlings without a fixed point): active, inactive or Filippov
sliding, a pair that arrived by a detected crossing pushed in from its own side, and every change
is logged as an event. With alpha = 0 a neuron whose slopes are
all 0 and which does not slide is dead (logged once, frozen). After each step the on-surface flags
of pairs that have left their surfaces are cleared and sliding neurons are projected back.

:class:`Settling` is one part of :class:`engine.Engine`: it reads and writes the engine's state,
``mode``, ``events`` and ``stats``.
"""

from __future__ import annotations

import numpy as np

from verify.dynamics import law
from verify.dynamics.mp import events as mpev
from verify.dynamics.mp import num
from verify.dynamics.mp.num import mpfr
from verify.errors import NumericalError
from verify.trajectory import Event

NEAR_F64 = 1e-9  # float64 prefilter of pairs near their surface (relative to ||x_i|| ||w_j||)


class Settling:
    """The event-point part of :class:`engine.Engine` (module docstring)."""

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

    def project(self, j: int, rows: list) -> None:
        """Put row j of the state onto the hyperplanes <x_i, w> = 0 of ``rows`` (polar: and renormalise u_j)."""
        w = mpev.project_out(self.A[j].tolist(), self.mf.X, self.mf.K, rows)
        if self.form == "polar":
            nrm = num.sqrt(num.dot(w, w))
            if not nrm > num.ldexp(1, -num.prec() // 2):
                raise NumericalError(f"mp backend: projecting neuron {j} onto the surfaces of rows {rows} leaves no "
                                     "direction (they span its space)")
            w = [c / nrm for c in w]
        self.A[j] = w

    def settle(self, t, triggers: list) -> None:
        """At an event point t: project the near and triggering pairs, settle them per neuron, log the changes."""
        m = self.mode
        trig = {(int(i), int(j)) for i, j in triggers}
        near = self.near_pairs(trig)
        cols = sorted(set(np.flatnonzero(near.any(axis=0)).tolist()) | {j for _, j in trig if not m.dead[j]})
        if not cols:
            self.check_dead(t)
            return
        g = self.mf.g_point(self.outputs())
        gain = self.b if self.form == "cartesian" else self.s
        nums = mpev.numbers(self.surf)
        for j in cols:
            rows = sorted(set(np.flatnonzero(near[:, j]).tolist()) | set(m.sliding.get(j, [])))
            self.project(j, rows)
            out = law.settle_column(m.S, g, self.mf.Km, gain, j, np.array(rows, dtype=np.int64), m.side[:, j],
                                    {i for i, jj in trig if jj == j}, self.mf.alpha, self.rep, self.sgn, self.line_rows,
                                    nums=nums)
            if any(int(r) in self.line_rows and self.line_rows[int(r)].size > 1 for r in out.sliding):
                raise NumericalError("mp backend: rows on one line through 0 (x_k = +-c x_i) slide together; coupled "
                                     "sliding is integrated by the float64 engine only")
            for i, (kind, direction), rep, slope, side in zip(out.rows.tolist(), out.events, out.repelling.tolist(),
                                                              out.slope, out.side.tolist()):
                if rep:
                    self.stats["nonunique"] += 1
                if kind is not None:
                    self.events.append(Event(t, i, j, kind, direction))
                m.set(i, j, slope, side)
                m.onsurf[i, j] = True
            if out.sliding.size:
                m.sliding[j] = out.sliding.tolist()
            else:
                m.sliding.pop(j, None)
            self.stats["unsettled"] += int(not out.settled)
        self.check_dead(t)

    def check_dead(self, t) -> None:
        """alpha = 0: mark (and log) the neurons whose slopes are all 0 and which do not slide."""
        m = self.mode
        if self.mf.alpha != 0:
            return
        frozen = ~m.dead & ~m.nonzero.any(axis=0)
        for j in np.flatnonzero(frozen):
            if int(j) not in m.sliding:
                m.dead[j] = True
                self.events.append(Event(t, -1, int(j), "dead", 0))

    def initial_mode(self, t) -> None:
        """The mode at the start: sides from the signs of <x_i, w_j>, pairs on their surfaces settled."""
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
            tau = self.surf * mf.xnorm_m[I] * self.row_norms(As)[Jl]
            for i, j, p, tu in zip(I, J, P, tau):
                if m.side[i, j] * p > tu:
                    m.onsurf[i, j] = False

    def post_step(self) -> None:
        """After a step without event: release surfaces, project sliding neurons back (polar: renormalise u)."""
        m = self.mode
        self.release_surfaces()
        for j, rows in m.sliding.items():
            self.project(j, rows)
        if self.form == "polar":
            nrm = self.row_norms(self.A)
            self.unorm_drift = max([self.unorm_drift] + [abs(x - 1) for x in nrm])
            self.A = self.A / nrm[:, None]
