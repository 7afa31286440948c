"""Event detection on one accepted step: the earliest point of the step where a pair leaves its side.

The monotone pairs are screened and located by the compiled :func:`scan.scan_step`, the rare
non-monotone candidates by :func:`crossings.hard_candidates`; a sliding pair's exit is where its
Filippov slope leaves [alpha - tol, 1 + tol] (9 nodes on the step, compiled where the steps are, then brentq).
:class:`Detection` is one part of :class:`engine.Engine` (it reads the engine's form, mode and data).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq

from verify.dynamics import crossings, filippov_jit, scan, stepper
from verify.dynamics.forms import row_norms
from verify.dynamics.settle import SURFACE_TOL

NODES = np.append(0.5 * (1.0 - np.cos(np.pi * (np.arange(8) + 0.5) / 8)), 1.0)  # Chebyshev nodes on [0, 1], then 1


class Detection:
    """The event-search half of :class:`engine.Engine` (module docstring)."""

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
        return self._with_sliding_exits(z, F, crossings.earliest(xs, ii, jj, touches))

    def _find_events_full(self, z: np.ndarray, F: np.ndarray) -> tuple[float, list[tuple[int, int]], list]:
        """Unscreened version of :meth:`find_events` (all n h pairs; kept for cross-checks)."""
        m = self.mode
        c = self.form.preact(crossings.CHEB @ np.vstack([z[None, :], F]))  # e_ij is linear in z
        tau = self.tau(z)
        watch = (m.side != 0) & ~m.dead[None, :]
        return self._with_sliding_exits(z, F, crossings.first_crossing(c, self.form.preact(z), m.side, np.where(m.armed, 0.0, tau),
                                                                       watch, np.where(m.armed, tau, 0.0)))

    def _with_sliding_exits(self, z: np.ndarray, F: np.ndarray, cr: crossings.Crossings) -> tuple[float, list[tuple[int, int]], list]:
        """The earlier of the crossing ``cr`` and the first sliding exit on the step, with the touches before it."""
        x, pairs = cr.x, cr.pairs
        if self.mode.sliding:
            xs, spairs = self.sliding_exit(z, F)
            if xs < x:
                x, pairs = xs, spairs
        return x, pairs, [tc for tc in cr.touches if tc[0] < x]

    def node_slopes(self, z: np.ndarray, F: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """The sliding pairs' unclipped slopes (i, j, c) at the step's nodes: compiled
        (:func:`filippov_jit.node_slopes`) for pairs alone on their neurons and lines, else by
        :meth:`Filippov.raw_slopes` on the dense output."""
        if not self.compiled_steps():
            return [self.raw_slopes(zk) for zk in stepper.dense_eval(z, F, NODES)]
        slide = self.slide_args()
        X, y, sgn, r_ref, h, d, loss, _train_v, polar = self.form.compiled_args()
        C = filippov_jit.node_slopes(z, F, NODES, self.mode.S, slide, X, y, sgn, r_ref, h, d, loss, polar)
        return [(slide[0], slide[1], c) for c in C]

    def sliding_exit(self, z: np.ndarray, F: np.ndarray) -> tuple[float, list[tuple[int, int]]]:
        """First x where a sliding slope leaves [alpha - tol, 1 + tol] (9 nodes, then brentq)."""
        for k, (ii, jj, c) in enumerate(self.node_slopes(z, F)):
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

            x0 = 0.0 if k == 0 else float(NODES[k - 1])
            a, b = fn(x0), fn(float(NODES[k]))
            x = float(NODES[k]) if a * b > 0 else brentq(fn, x0, float(NODES[k]), xtol=1e-15, rtol=1e-15)
            return x, [(i, j)]
        return np.inf, []
