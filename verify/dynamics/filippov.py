"""The Filippov slopes of the sliding pairs of the current mode: one part of :class:`engine.Engine`.

A pair (i, j) sliding along its surface e_ij = 0 gets the slope c in [alpha, 1] that keeps it there
(:func:`switching.one_row_slopes` for a pair alone on its neuron, :func:`switching.sliding_slopes` for several,
:func:`switching.line_slopes` for rows on one line through 0), recomputed wherever the field is evaluated: by the
Python rhs (:meth:`Filippov.effective_S`), or, for pairs alone on their neurons and lines
(:meth:`Filippov.slide_args`), compiled (:mod:`filippov_jit`: inside the steps' stages and at the nodes of the exit
search, :meth:`detect.Detection.sliding_exit`).
"""

from __future__ import annotations

import numpy as np

from verify.dynamics import switching


class Filippov:
    """The sliding-slope part of :class:`engine.Engine` (module docstring)."""

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

    def slides_compiled(self) -> bool:
        """Whether the compiled steps can take the sliding pairs: none, or each alone on its neuron and on its line."""
        m = self.mode
        return not m.sliding or (not self.coupled and all(r.size == 1 for r in m.sliding.values()))

    def slide_args(self) -> tuple:
        """The ``slide`` argument of :mod:`rk_jit` (:meth:`slides_compiled` modes): the sliding pairs, K and alpha."""
        m = self.mode
        if not m.sliding:
            return self._no_slide
        return (np.array([int(r[0]) for r in m.sliding.values()], dtype=np.int64), np.array(list(m.sliding), dtype=np.int64),
                self.K, float(self.alpha))
