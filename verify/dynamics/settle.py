"""Settling an event point: the switching law applied to the pairs on their surfaces.

At an event point every pair within tau_ij = SURFACE_TOL ||x_i|| ||w_j|| of its surface is put exactly
on it (projection of w_j / u_j), the pairs of one neuron are classified jointly by the switching law of every
engine (:func:`law.settle_column`: active, inactive, or sliding with its Filippov slope in [alpha, 1]; rows on one
line through 0 share a surface and are settled together; ``stats["unsettled"]`` counts the settlings whose
iteration found no fixed point), and every change is logged as an event (activate,
deactivate, grazing, sliding, sliding_exit; with alpha = 0, dead). :class:`Settling` is one part of
:class:`engine.Engine`: it reads and writes the engine's ``mode``, ``events``, ``stats`` and sliding
hysteresis, and reads its form and data geometry (``X``, ``K``, ``xnorm``, ``alpha``, the lines).
"""

from __future__ import annotations

from dataclasses import dataclass, field as dc_field

import numba
import numpy as np

from verify.dynamics import engine_jit
from verify.dynamics.law import settle_column
from verify.trajectory import Event

SURFACE_TOL = 1e-12  # |e_ij| <= SURFACE_TOL ||x_i|| ||w_j||: on the hyperplane
SLIDE_TOL = 1e-9  # sliding slope may overshoot [alpha, 1] by this before an exit is logged (hysteresis)
SLIDE_TOL_MAX = 1e-6  # hysteresis cap for pairs that keep re-entering sliding (tangential limit points)
STICKY_AFTER = 4  # re-entries before the hysteresis of a pair starts to grow (x4 per re-entry)


APEX_RANK_TOL = 1e-8  # surfaces whose lines are closer than this (relative singular value) count as one line
APEX_TIME_RTOL = 1e-12  # event times of one neuron this close (relative, chained) are one passage


def apex_passages(events: list[Event], X: np.ndarray, log: tuple[np.ndarray, np.ndarray] | None = None
                  ) -> list[tuple[int, float]]:
    """(j, t) of every neuron that passed through w_j = 0 (``stats["apex"]``, a diagnostic), in time order: the
    surfaces of neuron j with events at one time t span R^d (d >= 2 independent hyperplanes <x_i, w> = 0 meet only at
    w = 0, where every kink of the neuron meets). "One time": event times within APEX_TIME_RTOL max(1, |t|) of the
    next, chained (the event points of one passage are settled one at a time, their times apart in the last digits).
    The switching law settles one line through 0 at a time there, so the way out the run takes is one Filippov
    solution, not necessarily the only one (staying at 0 can be another); statements that hold for every Clarke
    selection (balancedness, the sign of a_j) do not depend on it. With d = 1 every x_i is on one line, which the law
    settles jointly: no apex. Runs without d crossings near one time (almost all) return at once
    (:func:`_near_crossings`), read from ``log`` = (times, rows i) of the events when the caller has them as arrays
    (a compiled run's event log)."""
    d = X.shape[1]
    if log is None:
        log = (np.array([e.t for e in events], dtype=float), np.array([e.i for e in events], dtype=np.int64))
    if not _near_crossings(log[0], log[1], d, APEX_TIME_RTOL):
        return []
    by_neuron: dict[int, list[tuple[float, int]]] = {}
    for e in events:
        if e.i >= 0:
            by_neuron.setdefault(e.j, []).append((e.t, e.i))
    found = []
    for j, rows in by_neuron.items():
        rows.sort()
        start = 0
        for k in range(1, len(rows) + 1):
            if k < len(rows) and rows[k][0] - rows[k - 1][0] <= APEX_TIME_RTOL * max(1.0, abs(rows[k][0])):
                continue
            group = sorted({i for _, i in rows[start:k]})
            if len(group) >= d and _spans(X[group], d):
                found.append((rows[start][0], j))
            start = k
    return [(j, t) for t, j in sorted(found)]


@numba.njit(cache=True)
def _near_crossings(t: np.ndarray, i: np.ndarray, d: int, rtol: float) -> bool:
    """Whether the crossings among events at times t with rows i (a "dead" event, i = -1, names no surface) hold
    d - 1 gaps b - a <= rtol max(1, |b|) between consecutive times (sorted), d >= 2: the least that d crossings at one
    time need."""
    times = np.sort(t[i >= 0])
    if d < 2 or times.size < d:
        return False
    near = 0
    for k in range(1, times.size):
        near += times[k] - times[k - 1] <= rtol * max(1.0, abs(times[k]))
    return near >= d - 1


def _spans(rows: np.ndarray, d: int) -> bool:
    """The rows span R^d: d singular values above APEX_RANK_TOL times the largest."""
    sv = np.linalg.svd(rows, compute_uv=False)
    return int(np.sum(sv > APEX_RANK_TOL * sv[0])) == d


def slide_tolerance(entries: np.ndarray | int) -> np.ndarray:
    """The sliding hysteresis of pairs that entered sliding ``entries`` times: SLIDE_TOL, x4 per entry beyond
    STICKY_AFTER, at most SLIDE_TOL_MAX."""
    extra = np.maximum(np.asarray(entries) - STICKY_AFTER, 0)
    return np.minimum(SLIDE_TOL_MAX, SLIDE_TOL * 4.0 ** np.minimum(extra, 20))


@dataclass
class Mode:
    """Frozen switching state: slopes S, sides, sliding rows per neuron, armed pairs, dead neurons."""

    S: np.ndarray  # (n, h) slope; fractional for sliding pairs
    side: np.ndarray  # (n, h) +1 active, -1 inactive, 0 sliding
    armed: np.ndarray  # (n, h) bool
    dead: np.ndarray  # (h,) bool
    sliding: dict[int, np.ndarray] = dc_field(default_factory=dict)

    @classmethod
    def fresh(cls, n: int, h: int) -> "Mode":
        """The state before a run's start sets it: slopes 0, every side -1, every pair armed, no neuron dead."""
        return cls(np.zeros((n, h)), np.full((n, h), -1, dtype=np.int64), np.ones((n, h), dtype=bool),
                   np.zeros(h, dtype=bool))


@dataclass(frozen=True)
class Handover:
    """A switching state to start from at t = 0 instead of :meth:`Settling.initial_mode` (the hybrid engine hands over
    the limit engine's state at its switch time, :mod:`verify.dynamics.hybrid`)."""

    side: np.ndarray  # (n, h) +1 active, -1 inactive, 0 sliding
    dead: np.ndarray  # (h,) bool: frozen neurons (alpha = 0)
    slide_entries: np.ndarray  # (n, h) sliding entries so far (the hysteresis of pairs that keep re-entering)
    disarmed: np.ndarray  # (n, h) bool: pairs within rounding of their surface, re-armed once they have left it


class Settling:
    """The event-point half of :class:`engine.Engine` (module docstring)."""

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
            out = settle_column(m.S, g, self.K, gain, j, rows, m.side[:, j], {i for i, jj in trig if jj == j},
                                self.alpha, self.rep, self.sgn, self.line_rows)
            for i, (kind, direction), rep in zip(out.rows.tolist(), out.events, out.repelling.tolist()):
                self._log(t, i, j, kind, direction, rep)
            m.S[out.rows, j] = out.slope
            m.side[out.rows, j] = out.side
            m.armed[out.rows, j] = False
            if out.sliding.size:
                m.sliding[j] = out.sliding
            else:
                m.sliding.pop(j, None)
            self.stats["unsettled"] += int(not out.settled)
        self.check_dead(t, cols)

    def _log(self, t: float, i: int, j: int, kind: str | None, direction: int, rep: bool) -> None:
        if kind == "sliding":
            self.slide_entries[i, j] += 1
            if self.slide_entries[i, j] > STICKY_AFTER:
                self.slide_tol[i, j] = slide_tolerance(self.slide_entries[i, j])
                self.stats["sticky_pairs"] = int(np.sum(self.slide_tol > SLIDE_TOL))
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
        active = m.S.any(axis=0)
        for j in (range(m.dead.size) if cols is None else cols.tolist()):
            if not active[j] and not m.dead[j] and j not in m.sliding:
                m.dead[j] = True
                self.events.append(Event(float(t), -1, j, "dead", 0))

    def adopt(self, state: Handover) -> None:
        """Start from ``state``: sides, slopes (1 active, alpha inactive, 0 dead, the Filippov slope of a sliding pair at
        the state z), the sliding hysteresis, and armed pairs (all but the disarmed and the sliding ones; every pair
        of a dead neuron). No event is logged."""
        m = self.mode
        m.side[:] = state.side
        m.S[:] = np.where(state.side == 1, 1.0, self.alpha)
        m.dead[:] = state.dead
        m.S[:, m.dead] = 0.0
        m.side[:, m.dead] = -1
        m.sliding = {j: np.flatnonzero(m.side[:, j] == 0) for j in range(m.dead.size) if np.any(m.side[:, j] == 0)}
        self.slide_entries[:] = state.slide_entries
        self.slide_tol[:] = slide_tolerance(self.slide_entries)
        self.stats["sticky_pairs"] = int(np.sum(self.slide_tol > SLIDE_TOL))
        if m.sliding and self.coupled:  # rows on one line slide together: keep their representatives
            m.sliding = {j: np.unique(self.rep[rows]) for j, rows in m.sliding.items()}
        if m.sliding:
            m.S[:] = self.effective_S(self.z)
        m.armed[:] = ~state.disarmed & (m.side != 0)
        m.armed[:, m.dead] = True

    def initial_mode(self, t0: float) -> None:
        m = self.mode
        P = self.form.preact(self.z)
        m.S[:] = self.fieldobj.mode(P)
        m.side[:] = np.where(P > 0.0, 1, -1)
        on = np.abs(P) <= self.tau(self.z)
        if on.any():
            m.S[on] = self.alpha
            m.side[on] = -1
            self.settle(t0, self.z, [])
        self.check_dead(t0)
