"""Sample-time grids: the one check every backend runs on the times it is asked to sample.

A grid is non-empty, 1-D, finite, >= 0 and strictly increasing. :func:`sample_times` checks a float64 grid,
:func:`check_order` the ordering of any grid of comparable numbers (the mp backend's mpf times), with one message
per kind of mistake (:class:`verify.errors.InputError`).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numba
import numpy as np

from verify.errors import InputError


def check_order(ts: Sequence[Any]) -> None:
    """Raise InputError unless ``ts`` is non-empty, starts >= 0 and is strictly increasing (names the first entry
    out of order)."""
    if len(ts) == 0:
        raise InputError("times must be non-empty")
    if ts[0] < 0:
        raise InputError(f"times must be >= 0, got {float(ts[0])!r}")
    if isinstance(ts, np.ndarray) and ts.dtype != object:
        if ts.size == 1 or (ts[1:] > ts[:-1]).all():
            return
        first = int(np.flatnonzero(~(ts[1:] > ts[:-1]))[0])
    else:
        first = next((k for k in range(len(ts) - 1) if not ts[k + 1] > ts[k]), None)
    if first is not None:
        raise InputError(f"times must be strictly increasing (entry {first + 1} = {float(ts[first + 1])!r} after "
                         f"{float(ts[first])!r})")


def sample_times(times: Any) -> np.ndarray:
    """``times`` as a float64 grid (a scalar is a grid of one), checked: 1-D, finite, >= 0, strictly increasing. A
    float64 1-D array that passes (:func:`_valid_grid`, one compiled pass) is returned as it is."""
    if type(times) is np.ndarray and times.dtype == np.float64 and times.ndim == 1 and _valid_grid(times):
        return times
    try:
        t = np.atleast_1d(np.asarray(times, dtype=float))
    except (TypeError, ValueError):
        raise InputError("times must be a 1-D sequence of numbers") from None
    if t.ndim != 1:
        raise InputError(f"times must be a 1-D array, got shape {t.shape}")
    if not np.isfinite(t).all():
        raise InputError("times contains non-finite values")
    check_order(t)
    return t


@numba.njit(cache=True)
def _valid_grid(t: np.ndarray) -> bool:
    """Whether the 1-D ``t`` is a grid :func:`sample_times` accepts: non-empty, finite, t[0] >= 0, strictly
    increasing."""
    if t.size == 0 or not t[0] >= 0.0:
        return False
    for k in range(t.size):
        if not math.isfinite(t[k]) or (k > 0 and not t[k] > t[k - 1]):
            return False
    return True
