"""Float64 screening of the event functions of one step (which pairs can cross, and roughly when).

The exact search (:func:`events.first_root`, mpfr) is run only on the pairs this screen keeps.
For a polynomial q(x) = sum_k q_k x^k on [0, 1] (x = (t - t0)/h, signed by the pair's side)
whose float64 coefficients are known to within DELTA c_k (c_k = ||x_i|| ||w_kj|| h^k, the
Cauchy-Schwarz bound of the coefficient, far above the ~1e-15 c_k of float64 rounding):

    no root on [0, 1]  if  q_0 - DELTA c_0 > sum_{k>=1} (|q_k| + DELTA c_k),

the exclusion test of :mod:`events` made safe against the float64 errors. A pair put on its
surface at the last event is tested on q(x)/x (coefficients shifted by one), as in the exact
search. :func:`first_negative` locates, for the kept pairs, the first x where q turns negative
on a grid of 128 points refined by bisection: a float64 estimate that only sets the step
length (the exact search decides; a root missed by the grid is still found there).
"""

from __future__ import annotations

import functools

import numpy as np

DELTA = 1e-9
GRID = 128
BISECT = 40


def deflate(Q: np.ndarray, onsurf: np.ndarray) -> np.ndarray:
    """Q (N+1, p): columns with ``onsurf`` replaced by the coefficients of q(x)/x."""
    if not onsurf.any():
        return Q
    out = Q.copy()
    out[:-1, onsurf] = Q[1:, onsurf]
    out[-1, onsurf] = 0.0
    return out


def may_cross(Q: np.ndarray, C: np.ndarray) -> np.ndarray:
    """Pairs (columns of Q (N+1, p)) that the exclusion test cannot rule out on [0, 1]."""
    lhs = Q[0] - DELTA * C[0]
    rhs = (np.abs(Q[1:]) + DELTA * C[1:]).sum(axis=0)
    return ~(lhs > rhs)


@functools.lru_cache(maxsize=64)
def grid_powers(terms: int) -> tuple[np.ndarray, np.ndarray]:
    """The grid x_g = g / GRID (g = 0..GRID) and its powers x_g^k (terms x GRID + 1), k = 0..terms-1 (read-only)."""
    xs = np.linspace(0.0, 1.0, GRID + 1)
    with np.errstate(all="ignore"):
        powers = xs[None, :] ** np.arange(terms)[:, None]
    xs.flags.writeable = powers.flags.writeable = False
    return xs, powers


def first_negative(Q: np.ndarray) -> float:
    """The first x in [0, 1] where one of the polynomials (columns of Q (N+1, p)) turns negative (1 if none seen).

    Only the pairs whose first negative grid point is the earliest one are refined."""
    if Q.shape[1] == 0:
        return 1.0
    xs, powers = grid_powers(Q.shape[0])
    ks = np.arange(Q.shape[0])
    with np.errstate(all="ignore"):
        neg = (Q.T @ powers) < 0
    seen = neg.any(axis=1)
    if not seen.any():
        return 1.0
    first = np.argmax(neg, axis=1)
    g = int(first[seen].min())
    if g == 0:
        return 0.0
    Qi = Q[:, seen & (first == g)]
    lo, hi = np.full(Qi.shape[1], xs[g - 1]), np.full(Qi.shape[1], xs[g])
    kcol = ks[:, None]
    with np.errstate(all="ignore"):
        for _ in range(BISECT):
            mid = (lo + hi) / 2
            below = np.add.reduce(Qi * mid ** kcol, axis=0) < 0  # q(mid) = sum_k q_k mid^k < 0
            hi = np.where(below, mid, hi)
            lo = np.where(below, lo, mid)
    return float(hi.min())
