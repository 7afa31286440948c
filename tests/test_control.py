"""The step control's choice of pair (verify/dynamics/control.py): by cost, each pair at its own step size."""

from __future__ import annotations

import numpy as np

from verify.dynamics.control import DOP853, Cursor, choose_pair, mean_gap

RK23, RK45 = 0, 1


def test_dense_crossings_take_the_cheapest_pair_that_reaches_them():
    """Crossings far closer than every pair's own step: the 3(2) pair (3 evaluations) does it."""
    assert choose_pair(1e-4, np.array([1e-3, 1e-2, 1e-1])) == RK23


def test_a_low_order_pair_far_below_its_limit_loses_to_dop853():
    """The small case's alignment phase: gaps ~0.03, the 5(4) pair's own step 0.009, DOP853's 0.07: DOP853 covers the
    gap in one step of 15 evaluations, the 5(4) pair needs ~3.3 steps of 6, the 3(2) pair ~15 of 3."""
    own = np.array([0.002, 0.009, 0.07])
    assert choose_pair(0.03, own) == DOP853
    assert choose_pair(0.01, own) == RK45  # one 5(4) step and a bit: 6.7 against 15


def test_unknown_pairs_are_tried_and_no_gap_keeps_the_54_pair():
    assert choose_pair(0.03, np.array([0.0, 0.009, 0.07])) == RK23  # not yet tried: counts as covering the gap
    assert choose_pair(0.0, np.array([1.0, 1.0, 1.0])) == RK45  # before the first event


def test_the_mean_gap_is_not_fooled_by_a_cluster():
    gap = mean_gap(0.0, 0.01)
    assert gap == 0.01
    gap = mean_gap(gap, 1e-9)  # two near-simultaneous crossings
    assert gap > 0.007


def test_cursor_keeps_each_pairs_own_size_and_the_event_cap():
    cur = Cursor(0.0, np.zeros(2), np.zeros(2), 0.1, calm=0, gap=0.03, s_event=0.0)
    cur.own[:] = [0.002, 0.009, 0.07]
    pair, size = cur.propose()
    assert pair == DOP853 and size == cur.step  # the last pair (DOP853 by default) continues at its proposal
    cur.accept(pair, size, 0.5, size, False, np.inf, 0.2)  # cut at an event after 0.2 of the step
    assert cur.lim == max(5.0 * 0.2 * size, 0.5 * size) and cur.calm == 0 and cur.step <= cur.lim
    cur.s = 0.02
    cur.at_event(cur.s)
    assert cur.gap == mean_gap(0.03, 0.02)
    cur.own[RK23] = 0.05  # a 3(2) pair whose own size covers the gap: taken over, at its own size capped by lim
    pair, size = cur.propose()
    assert pair == RK23 and size == min(0.05, cur.lim)
    cur.reject(RK23, size, 30.0)
    assert cur.own[RK23] == cur.step < size and cur.rejected and cur.pair == RK23
