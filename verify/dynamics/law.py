"""The switching law on the on-surface rows of one neuron, as every engine applies it (float64, mp, limit).

:func:`settle_column` takes the rows of neuron j that are on their surfaces at an event, their sides before and
which of them arrived by a detected crossing, and returns their new states, sides, slopes, repelling flags and
events: rows on one line through 0 with other rows settle as lines (:func:`switching.resolve_lines`), one row by
the compiled :func:`switching.resolve_pair` (float64), several jointly by :func:`switching.resolve_neuron`; the
events by :func:`switching.event_kind`. The number type comes in ``nums`` (:class:`switching.Numbers`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from verify.dynamics.switching import (ACTIVE, FLOAT64, INACTIVE, SLIDING, Numbers, event_kind, member_slopes,
                                       resolve_lines, resolve_neuron, resolve_pair)


@dataclass(frozen=True)
class Settlement:
    """The on-surface rows of one neuron, settled (:func:`settle_column`): per row of ``rows`` its new ``state``,
    ``side`` (+1 active, -1 inactive, 0 sliding), ``slope``, ``repelling`` flag and event ((kind name or None,
    direction), :func:`event_kind`); ``sliding``: the sliding rows (their lines' first rows for coupled rows);
    ``settled``: the iteration reached its fixed point."""

    rows: np.ndarray
    state: np.ndarray
    side: np.ndarray
    slope: np.ndarray
    repelling: np.ndarray
    events: list
    sliding: np.ndarray
    settled: bool


def settle_column(S: np.ndarray, g: np.ndarray, K: np.ndarray, gain: np.ndarray, j: int, rows: np.ndarray,
                  side: np.ndarray, trig: set, alpha: Any, rep: np.ndarray, sgn: np.ndarray, line_rows: dict,
                  nums: Numbers = FLOAT64) -> Settlement:
    """Settle the on-surface ``rows`` of neuron j, on sides ``side`` (column j before: +1 / -1 / 0), the rows in
    ``trig`` having arrived by a detected crossing (from their side). Rows of a line with several rows (``rep``,
    ``sgn``: :func:`lines`; ``line_rows``: first row -> its line's rows, empty when every line has one) settle as
    lines (:func:`resolve_lines`; a line arrives as its first hit row, oriented); otherwise one row by
    :func:`resolve_pair` (float64) or several by :func:`resolve_neuron`. The one settling of every engine."""
    reps = np.unique(rep[rows]) if line_rows else rows
    if line_rows and any(line_rows[int(r)].size > 1 for r in reps):
        members = [line_rows[int(r)] for r in reps]
        signs = [sgn[m] for m in members]
        arrival = np.zeros(len(members), dtype=int)
        for q, m in enumerate(members):
            hit = [int(i) for i in m if int(i) in trig]
            if hit:
                arrival[q] = int(side[hit[0]]) * int(sgn[hit[0]])
        st, sl, flags, settled = resolve_lines(S, g, K, gain, j, members, signs, alpha, arrival, nums=nums)
        rows = np.concatenate(members)
        state = np.concatenate([np.full(m.size, SLIDING) if st[q] == SLIDING else
                                np.where((st[q] == ACTIVE) == (signs[q] > 0), ACTIVE, INACTIVE) for q, m in enumerate(members)])
        slope = np.concatenate([member_slopes(sl[q], signs[q], alpha) for q in range(len(members))])
        reps_flag = np.concatenate([np.full(m.size, bool(flags[q])) for q, m in enumerate(members)])
        sliding = np.array([int(m[0]) for q, m in enumerate(members) if st[q] == SLIDING], dtype=np.int64)
    else:
        arrival = np.array([int(side[i]) if int(i) in trig else 0 for i in rows], dtype=int)
        if rows.size == 1 and nums is FLOAT64:
            st1, sl1, r1 = resolve_pair(S, g, K, gain, int(rows[0]), j, alpha, int(arrival[0]))
            state, slope, reps_flag, settled = np.array([st1]), np.array([sl1]), np.array([r1]), True
        else:
            state, slope, reps_flag, settled = resolve_neuron(S, g, K, gain, j, rows, alpha, arrival, nums=nums)
        sliding = rows[state == SLIDING]
    events = [event_kind(side[i], s, int(i) in trig, r) for i, s, r in zip(rows.tolist(), state.tolist(), reps_flag.tolist())]
    new_side = np.where(state == ACTIVE, 1, np.where(state == SLIDING, 0, -1))
    return Settlement(rows, state, new_side, slope, reps_flag, events, sliding, bool(settled))
