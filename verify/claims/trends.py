"""Finite-time readings of a limit: the envelope trend by which plug-ins read an asymptotic claim."""

from __future__ import annotations

import math

import numpy as np

from verify.claims.model import Margin


def envelope_trend(values: np.ndarray, early: np.ndarray, late: np.ndarray, error: float, what: str, *,
                   halves: tuple[str, str] = ("[1e4, 1e8]", "(1e8, 1e12]"), literal: bool = False) -> Margin:
    """E -> its limit, read as: max of E over the late half <= max over the early half (per column of a 2-d E; the
    worst column counts). Value max_early - max_late, error ``error``, ratio max_late / max_early (None where
    max_early is within the error).

    A rise beyond the error refutes the literal statement (``literal=True``: a finite-time reading stated as such), not
    a limit, which a finite run can neither prove nor refute: valid runs overshoot and come back. Read as a limit, a
    rise is inconclusive (infinite error): the example never passes and never refutes, and the plug-in's
    certificates (monotone quantities, exact invariants) decide violations."""
    E = np.asarray(values, float).reshape(len(early), -1)
    hi_early, hi_late = np.max(E[early], axis=0), np.max(E[late], axis=0)
    col = int(np.argmin(hi_early - hi_late))
    e, l = float(hi_early[col]), float(hi_late[col])
    which = f" (column {col})" if E.shape[1] > 1 else ""
    note = f"{what}{which}: max {e:.4g} on {halves[0]}, {l:.4g} on {halves[1]}"
    ratio = l / e if e > error else None
    if e - l < -error and not literal:
        return Margin(e - l, math.inf, f"{note}: a rise, inconclusive (a limit is not refuted in finite time)",
                      ratio=ratio)
    return Margin(e - l, error, note, ratio=ratio)
