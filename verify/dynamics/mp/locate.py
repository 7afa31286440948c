"""Exact event search on one step of the mp backend.

On a step of length h the kept pairs' event functions are polynomials in x = tau / h on [0, 1]
with mpfr coefficients phi_k = side <x_i, A_k,j> h^k (:meth:`step.Step.pair_coeffs`), and the
sliding pairs' slope-exit functions (:func:`step.slide_polys`); :func:`events.first_root` finds
the first x where each turns negative, to full precision. The step's event is the least such
x*; every pair whose root lies within 10^-dps of x* triggers at it, and tangential zeros before
it (within tau_ij = 10^-dps ||x_i|| ||w_j||) are touches, logged as grazing.

:class:`Locating` is one part of :class:`engine.Engine`: it reads the engine's mode, field and
surface tolerance.
"""

from __future__ import annotations

import numpy as np

from verify.dynamics.mp import events as mpev
from verify.dynamics.mp.num import mpfr
from verify.dynamics.mp.step import Pairs, Step, slide_polys


class Locating:
    """The event-search part of :class:`engine.Engine` (module docstring)."""

    def find_events(self, st: Step, h, pre: Pairs, keep: np.ndarray) -> tuple:
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
        for i, j, poly in slide_polys(st, hp, True, mf.alpha, self.surf):
            x, _ = mpev.first_root(poly, False, None)
            if x is not None:
                found.append((x, i, j))
        if not found:
            return None, [], touches
        x_star = min(f[0] for f in found)
        pairs = [(i, j) for x, i, j in found if x <= x_star + self.surf]
        return x_star, pairs, [tc for tc in touches if tc[0] < x_star]
