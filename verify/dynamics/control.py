"""Step control of the float64 event engine: which Runge-Kutta pair takes the next trial step, and its size.

Three pairs (:data:`PAIRS`): Bogacki-Shampine 3(2) (3 new evaluations, free cubic interpolant), Dormand-Prince 5(4)
(6, free quartic interpolant) and DOP853 (12, and 3 more for its 7th-order dense output on an accepted step). Every
step, of any pair, is accepted only if its own embedded error estimate passes (:func:`stepper.next_size` sets the
next size from it).

Away from events (CHEAP_STEPS accepted steps after the last event point) DOP853 steps at the size its controller
sets. After an event, the next step is at most EVENT_CAP times the part of the last step used (the next crossing is
probably about as far: in the alignment phase crossings come every ~1e-3 time units while the controller would take
steps of ~1), and the pair is chosen by cost (:func:`choose_pair`): each pair keeps its own step size (its
controller's proposal from its last trial, ``own``), and the pair that covers the expected distance to the next
event in the fewest evaluations is taken. That distance is the larger of the running mean of the gaps between event
points (:func:`mean_gap`) and the distance already gone since the last one. Where crossings are dense (a step ends
at the event long before its error limit), the 3(2) pair's 3 evaluations do the work of the 5(4) pair's 6; where
events are sparse, or the low-order pairs' own sizes are far below DOP853's, DOP853 is cheaper per unit time. A pair
not yet tried counts as covering the distance (it is tried once, at the size proposed for the last pair). The same
pair as the last trial continues at its controller's proposal (``step``, which keeps the no-growth-after-rejection
rule); a pair taken over from another starts at its own size, capped by the event cap.

:class:`Cursor` is this memory in the Python iteration (:meth:`engine.Engine.iterate`, the reference);
:func:`loop_jit.run` keeps its copies of it and makes the same decisions with the same kernels (:func:`propose`,
:func:`accepted_sizes`, :func:`mean_gap`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numba
import numpy as np

from verify.dynamics import stepper

PAIRS = (stepper.RK23, stepper.RK45, None)  # None: DOP853
DOP853 = 2
LOW_ORDERS = np.array([p.order for p in PAIRS[:DOP853]], dtype=np.int64)  # the low-order pairs' error orders
# new evaluations of an accepted step: 3(2), 5(4) (their stages, the FSAL slope included), DOP853 with its dense output
PAIR_EVALS = np.array([p.stages for p in PAIRS[:DOP853]] + [stepper.N_STAGES + stepper.N_DENSE_EXTRA], dtype=float)
CHEAP_STEPS = 4  # accepted steps after an event point in which the pair is chosen by cost
EVENT_CAP = 5.0  # after a step cut at an event, the next step is at most this times the used part


@numba.njit(cache=True)
def choose_pair(gap: float, own: np.ndarray) -> int:
    """The pair (index into :data:`PAIRS`) that covers the expected distance to the next event, ``gap``, in the
    fewest evaluations, PAIR_EVALS[p] max(1, gap / own[p]) (own[p]: the pair's own step size; 0, not yet known,
    counts as covering it). Ties go to the lower order; no gap yet (0): the 5(4) pair."""
    if not gap > 0.0:
        return 1
    best, cost = 0, np.inf
    for p in range(PAIR_EVALS.size):
        c = PAIR_EVALS[p] * (max(1.0, gap / own[p]) if own[p] > 0.0 else 1.0)
        if c < cost:
            best, cost = p, c
    return best


@numba.njit(cache=True)
def mean_gap(gap: float, interval: float) -> float:
    """The running mean of the distance between event points, (3 gap + interval) / 4 (the first interval as is): a
    cluster of near-simultaneous events does not make the next gap look tiny."""
    return interval if not gap > 0.0 else 0.75 * gap + 0.25 * interval


@numba.njit(cache=True)
def propose(gap: float, s: float, s_event: float, own: np.ndarray, calm: int, step: float, last_pair: int, lim: float) -> tuple[int, float]:
    """The pair of the next trial step and its size before it is shortened to land on a target: by cost
    (:func:`choose_pair`, the distance being the larger of the mean gap and the distance gone since the last event)
    for CHEAP_STEPS steps after an event, else DOP853; the last pair continues at its controller's proposal ``step``,
    a pair taken over starts at its own size capped by ``lim`` (an untried one at ``step``)."""
    pair = choose_pair(max(gap, s - s_event), own) if calm < CHEAP_STEPS else DOP853
    return pair, (step if pair == last_pair or not own[pair] > 0.0 else min(own[pair], lim))


@numba.njit(cache=True)
def accepted_sizes(h: float, err: float, rejected: bool, order: int, proposed: float, landed: bool, max_step: float, x_ev: float) -> tuple[float, float, float]:
    """After an accepted trial at size h with error err: (the next proposal, the pair's own size, the event cap lim).
    The proposal keeps the no-growth-after-rejection rule, the own size does not; ``landed`` (shortened from
    ``proposed`` to land on a target): the controller's proposal stands; both at most ``max_step``. Cut at x_ev <= 1
    (an event): lim = max(EVENT_CAP x_ev h, h / 2) (the next event is probably about as far), and the proposal at most
    lim; else lim = inf."""
    h_next = stepper.next_size(h, err, rejected, order)
    h_free = stepper.next_size(h, err, False, order)
    if landed:
        h_next, h_free = max(h_next, proposed), max(h_free, proposed)
    h_next, lim = min(h_next, max_step), np.inf
    if x_ev <= 1.0:
        lim = max(EVENT_CAP * x_ev * h, 0.5 * h)
        h_next = min(h_next, lim)
    return h_next, min(h_free, max_step), lim


def pair_order(pair: int) -> int:
    """The order of the pair's error estimate (the controller's exponent -1/(order + 1))."""
    return stepper.ORDER if PAIRS[pair] is None else PAIRS[pair].order


@dataclass
class Cursor:
    """Where a run stands between iterations: s, state z, slope f, next sample k, null restarts in a row; and the step
    controller's memory: the proposal for the last pair (step, rejected: its last trial failed), steps since the
    last event point (calm), each pair's own size (own, as :data:`PAIRS`; 0 until tried), the pair of the last trial,
    the event cap on the next step (lim), the mean distance between event points (gap) and the last one
    (s_event)."""

    s: float
    z: np.ndarray
    f: np.ndarray
    step: float
    rejected: bool = False
    calm: int = CHEAP_STEPS
    null_restarts: int = 0
    k: int = 0
    own: np.ndarray = field(default_factory=lambda: np.zeros(len(PAIRS)))
    pair: int = DOP853
    lim: float = math.inf
    gap: float = 0.0
    s_event: float = 0.0

    def propose(self) -> tuple[int, float]:
        """The pair of the next trial step and its size (:func:`propose`)."""
        return propose(self.gap, self.s, self.s_event, self.own, self.calm, self.step, self.pair, self.lim)

    def reject(self, pair: int, h: float, err: float) -> None:
        """After a failed trial of ``pair`` at size h (err >= 1 or not finite)."""
        self.step = stepper.next_size(h, err if np.isfinite(err) else 1e10, self.rejected, pair_order(pair))
        self.own[pair], self.pair, self.rejected = self.step, pair, True

    def accept(self, pair: int, h: float, err: float, proposed: float, landed: bool, max_step: float, x_ev: float) -> None:
        """After an accepted trial of ``pair`` at size h (``landed``: shortened from ``proposed`` to land on a
        target, whose proposal then stands), cut at x_ev of the step when x_ev <= 1 (an event)."""
        self.step, self.own[pair], self.lim = accepted_sizes(h, err, self.rejected, pair_order(pair), proposed, landed,
                                                             max_step, x_ev)
        self.pair, self.rejected = pair, False
        self.calm = 0 if x_ev <= 1.0 else self.calm + 1

    def at_event(self, s: float) -> None:
        """The cursor moved to an event point at s."""
        self.gap, self.s_event = mean_gap(self.gap, s - self.s_event), s
