"""What every module of seed 004's catalogue shares: the seed number and the :func:`paper_claim` helper
that prefixes it to each claim's source, the tags of theorem-scale polar runs, the float64 constants of
strict inequalities, the worst-part margin and the neuron groups of Theorem 1 part 2.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from properties.min2024_early_alignment import patterns as pat
from properties.min2024_early_alignment import measures as tm
from verify.claims.model import Claim, Margin, worst


SEED = "004"


def paper_claim(source: str, **fields: Any) -> Claim:
    """A :class:`Claim` of seed 004 citing ``source`` (an item of the paper or the claim sheet): its source is
    ``f"{SEED} {source}"``; every other field is passed through unchanged."""
    return Claim(source=f"{SEED} {source}", **fields)


THEOREM_POLAR = ("theorem-scale", "polar")  # tags of runs at eps = eps_required in the exact polar form

U_ROUND = pat.UNIT_ROUNDOFF

STRICT_TINY = -1e-300  # margin of a strict inequality whose exact value is 0


def _worst(parts: list[tuple[float, float, str]], empty: str) -> Margin:
    """verify's :func:`~verify.claims.model.worst` over (value, error, note) components."""
    return worst([Margin(float(v), float(e), n) for v, e, n in parts], empty)


def bracketed_ratio(lo: float, hi: float) -> float | None:
    """A bound's slack when the sampled run only brackets it, measured / bound in [lo, hi]: hi where that resolves the
    bound (hi <= 1), lo where it resolves a violation (lo > 1), None where the bracket straddles 1 (unresolved, as
    the margin then is: its error is the bracket width)."""
    return hi if hi <= 1.0 else (lo if lo > 1.0 else None)


def _groups(run) -> tuple[np.ndarray, np.ndarray, float]:
    """(V~+ mask, V~- mask, t1_emp): neurons in S+ / S- from t1_emp on (pattern history)."""
    pieces = tm.pattern_history(run)
    t1e = tm.alignment_time(run)
    pos = frozenset(np.flatnonzero(run.y > 0).tolist())
    neg = frozenset(np.flatnonzero(run.y < 0).tolist())
    last = [h[-1].active for h in pieces]
    vp = np.array([p == pos and len(pos) > 0 for p in last])
    vm = np.array([p == neg and len(neg) > 0 for p in last])
    return vp, vm, t1e


def _t2_data(run):
    t, R, U, s = tm.polar_samples(run)
    F = tm.outputs(run.X, R, U, s)
    vp, vm, t1e = _groups(run)
    br = tm.empirical_t2(run, t, F, {"plus": np.flatnonzero(run.y > 0), "minus": np.flatnonzero(run.y < 0)}, t1e)
    return t, R, U, s, F, vp, vm, t1e, br
