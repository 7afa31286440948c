"""Classification of a pair (i, j) on its switching surface e_ij = <x_i, w_j> = 0.

On the surface, e_ij = 0 removes S_ij from every output f(x_k), so g is the same on both
sides and the normal rate is affine in the slope c given to the pair:
    d(c) = gamma_j ( sum_{k != i} S_kj g_k <x_k, x_i> + c g_i ||x_i||^2 ),
gamma_j = v_j (Cartesian) or s_j (polar). With d0 = d(alpha) (inactive side, sigma'(0) =
alpha) and d1 = d(1) (active side), and |d| <= tol read as 0:

    d0 > 0, d1 >= 0        -> active   (from the inactive side: "activate")
    d0 > 0, d1 < 0         -> sliding  (Filippov; both sides push into the surface)
    d0 <= 0                -> inactive (from the active side: "deactivate"); d0 < 0 < d1
                              (both sides push away, non-unique, seed 004 App. E.4) takes
                              the sigma'(0) = 0 side and is reported as "grazing".

Several sliding pairs of one neuron share one linear system for their slopes c (keeping all
their d = 0); a slope outside [alpha, 1] sends that pair to the side it points at.
"""

from __future__ import annotations

import numpy as np

ACTIVE, INACTIVE, SLIDING = 1, 0, 2
D_TOL = 1e-12


def normal_rates(S: np.ndarray, g: np.ndarray, K: np.ndarray, gain: np.ndarray, i: np.ndarray, j: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(d0, d1, tol) for pairs (i[k], j[k]); tol = D_TOL * gamma_j sum_k |S_kj g_k K_ki|."""
    terms = S[:, j] * g[:, None] * K[:, i]  # (n, m): S_kj g_k <x_k, x_i>
    base = terms.sum(axis=0) - terms[i, np.arange(i.size)]
    own = g[i] * K[i, i]
    gam = gain[j]
    d0 = gam * (base + alpha * own)
    d1 = gam * (base + own)
    tol = D_TOL * np.abs(gam) * (np.abs(terms).sum(axis=0) + np.abs(own))
    return d0, d1, tol


def classify(d0: np.ndarray, d1: np.ndarray, tol: np.ndarray) -> np.ndarray:
    """ACTIVE / SLIDING / INACTIVE per pair (rules in the module docstring)."""
    out = np.full(d0.shape, INACTIVE)
    up = d0 > tol
    out[up & (d1 >= -tol)] = ACTIVE
    out[up & (d1 < -tol)] = SLIDING
    return out


def repelling(d0: np.ndarray, d1: np.ndarray, tol: np.ndarray) -> np.ndarray:
    """d0 < 0 < d1: both sides flow away from the surface (non-unique continuation)."""
    return (d0 < -tol) & (d1 > tol)


def sliding_slopes(S: np.ndarray, g: np.ndarray, K: np.ndarray, j: int, rows: np.ndarray) -> np.ndarray:
    """Slopes c (len(rows),) keeping <x_i, w_j'> = 0 for all i in rows:
    sum_{k in rows} c_k g_k K_ki = -sum_{k not in rows} S_kj g_k K_ki."""
    col = S[:, j].copy()
    col[rows] = 0.0
    rhs = -(col * g) @ K[:, rows]
    M = K[np.ix_(rows, rows)] * g[rows][None, :]
    return np.linalg.solve(M, rhs)


def resolve_neuron(S: np.ndarray, g: np.ndarray, K: np.ndarray, gain: np.ndarray, j: int, rows: np.ndarray, alpha: float, max_iter: int = 50) -> tuple[np.ndarray, np.ndarray]:
    """Jointly settle all on-surface pairs ``rows`` of neuron j.

    Returns (state per row: ACTIVE/INACTIVE/SLIDING, slope per row). Iterates: classify each
    pair with the others at their current slopes, solve the sliding system, send slopes outside
    [alpha, 1] to their side, until no pair changes.
    """
    col = S[:, j].copy()
    state = np.full(rows.size, -1)
    for _ in range(max_iter):
        Sj = S.copy()
        Sj[:, j] = col
        d0, d1, tol = normal_rates(Sj, g, K, gain, rows, np.full(rows.size, j), alpha)
        new = classify(d0, d1, tol)
        slide = rows[new == SLIDING]
        col[rows[new == ACTIVE]] = 1.0
        col[rows[new == INACTIVE]] = alpha
        if slide.size:
            c = sliding_slopes(Sj, g, K, j, slide) if alpha < 1.0 else np.ones(slide.size)
            hi, lo = c > 1.0, c < alpha
            col[slide] = np.clip(c, alpha, 1.0)
            new[np.isin(rows, slide[hi])] = ACTIVE
            new[np.isin(rows, slide[lo])] = INACTIVE
        if np.array_equal(new, state):
            break
        state = new
    return state, col[rows]
