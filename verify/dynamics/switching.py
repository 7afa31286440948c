"""Classification of a pair (i, j) on its switching surface e_ij = <x_i, w_j> = 0.

On the surface, e_ij = 0 removes S_ij from every output f(x_k), so g is the same on both
sides and the normal rate is affine in the slope c given to the pair:
    d(c) = gamma_j ( sum_{k != i} S_kj g_k <x_k, x_i> + c g_i ||x_i||^2 ),
gamma_j = v_j (Cartesian) or s_j (polar). With d0 = d(alpha) (inactive side, sigma'(0) =
alpha) and d1 = d(1) (active side), and |d| <= tol read as 0:

    d0 > 0, d1 >= 0        -> active   (from the inactive side: "activate")
    d0 > 0, d1 < 0         -> sliding  (Filippov; both sides push into the surface)
    d0 <= 0                -> inactive (from the active side: "deactivate"); d0 < 0 < d1
                              (both sides push away, non-unique) takes
                              the sigma'(0) = 0 side and is reported as "grazing".

A pair that *arrived* at its surface (a detected crossing) has, physically, its own side
pushing in: from the inactive side d0 := max(d0, 2 tol), from the active side
d1 := min(d1, -2 tol), so it crosses or slides but never bounces back (a bounce on a rounding
-level d would creep back by tau and repeat forever).

Several sliding pairs of one neuron share one linear system for their slopes c (keeping all
their d = 0; least squares if the surfaces are dependent); a slope outside [alpha, 1] sends
that pair to the side it points at (an arrived pair keeps sliding at its arrival bound).

The law is written once, over numpy arrays, for every number type: float64 arrays, or object arrays of
mpfr (the mp backend). What depends on the type comes in a :class:`Numbers` (the 1 of the type, the
relative tolerance, the push floor, the linear solve); :data:`FLOAT64` is the default.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any, Callable

import numba
import numpy as np

from verify.trajectory import EVENT_KINDS

ACTIVE, INACTIVE, SLIDING = 1, 0, 2
D_TOL = 1e-12
TINY = float(np.finfo(float).tiny)


@dataclass(frozen=True)
class Numbers:
    """The number-type-specific parts of the law: ``one`` (1 in the type), ``tol_rel`` (tol = tol_rel gamma_j
    sum |terms|), ``tiny`` (push = 2 tol + tiny for arrived pairs, > 0 even where tol = 0) and ``solve(M, b)``
    (x with M x = b, least squares or exact; the sliding systems)."""

    one: Any
    tol_rel: Any
    tiny: Any
    solve: Callable[[np.ndarray, np.ndarray], np.ndarray]


def _lstsq(M: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Least squares; NaN where M or b is not finite (a Runge-Kutta stage of a step that overflowed: the step's
    error is then NaN and the step is rejected, as on the compiled paths, instead of LAPACK failing)."""
    if not (np.all(np.isfinite(M)) and np.all(np.isfinite(b))):
        return np.full(M.shape[1], np.nan)
    return np.linalg.lstsq(M, b, rcond=None)[0]


FLOAT64 = Numbers(1.0, D_TOL, TINY, _lstsq)


def normal_rates(S: np.ndarray, g: np.ndarray, K: np.ndarray, gain: np.ndarray, i: np.ndarray, j: np.ndarray, alpha: Any,
                 nums: Numbers = FLOAT64) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(d0, d1, tol) for pairs (i[k], j[k]); tol = tol_rel gamma_j (sum_k |S_kj g_k K_ki| + |g_i K_ii|)."""
    terms = S[:, j] * g[:, None] * K[:, i]  # (n, m): S_kj g_k <x_k, x_i>
    base = terms.sum(axis=0) - terms[i, np.arange(i.size)]
    own = g[i] * K[i, i]
    gam = gain[j]
    d0 = gam * (base + alpha * own)
    d1 = gam * (base + own)
    tol = nums.tol_rel * np.abs(gam) * (np.abs(terms).sum(axis=0) + np.abs(own))
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


NO_EVENT = -1
EV_ACTIVATE, EV_DEACTIVATE, EV_SLIDING, EV_SLIDING_EXIT, EV_GRAZING, EV_DEAD = (
    EVENT_KINDS.index(k) for k in ("activate", "deactivate", "sliding", "sliding_exit", "grazing", "dead"))


@numba.njit(cache=True)
def event_code(prev: int, new: int, trig: bool, rep: bool) -> tuple[int, int]:
    """(kind, direction) of a settled pair that was on side ``prev`` (+1 active, -1 inactive, 0 sliding) and is now
    in state ``new``; ``trig``: it was a detected crossing, ``rep``: both sides repel. The kind is an index into
    ``trajectory.EVENT_KINDS`` or NO_EVENT. The one event rule: the compiled loop calls it, every other backend
    through :func:`event_kind`."""
    if new == SLIDING:
        return (NO_EVENT if prev == 0 else EV_SLIDING), 0
    if prev == 0:
        return EV_SLIDING_EXIT, (1 if new == ACTIVE else -1)
    if prev == -1 and new == ACTIVE:
        return EV_ACTIVATE, 1
    if prev == 1 and new == INACTIVE:
        return EV_DEACTIVATE, -1
    if rep or trig:
        return EV_GRAZING, 0
    return NO_EVENT, 0


def event_kind(prev: int, new: int, trig: bool, rep: bool) -> tuple[str | None, int]:
    """:func:`event_code` with the kind's name (None for no event)."""
    code, direction = event_code(int(prev), int(new), bool(trig), bool(rep))
    return (None if code == NO_EVENT else EVENT_KINDS[code]), direction


def sliding_slopes(S: np.ndarray, g: np.ndarray, K: np.ndarray, j: int, rows: np.ndarray, nums: Numbers = FLOAT64) -> np.ndarray:
    """Slopes c (len(rows),) keeping <x_i, w_j'> = 0 for all i in rows:
    sum_{k in rows} c_k g_k K_ki = -sum_{k not in rows} S_kj g_k K_ki."""
    col = S[:, j].copy()
    col[rows] = 0.0
    rhs = -(col * g) @ K[:, rows]
    M = K[np.ix_(rows, rows)] * g[rows][None, :]
    return nums.solve(M, rhs)


@numba.njit(cache=True, inline="always")
def one_row_slope(S: np.ndarray, g: np.ndarray, K: np.ndarray, i: int, j: int) -> float:
    """Slope of a sliding pair (i, j) alone on its neuron: c = -sum_{k != i} S_kj g_k K_ki / (g_i K_ii)
    (:func:`sliding_slopes` with one row). Where g_i K_ii = 0 the slope is undetermined and the current S_ij is
    kept."""
    own = g[i] * K[i, i]
    if own == 0.0:
        return S[i, j]
    b = 0.0
    for k in range(S.shape[0]):
        if k != i:
            b += S[k, j] * g[k] * K[k, i]
    return -b / own


@numba.njit(cache=True)
def one_row_slopes(S: np.ndarray, g: np.ndarray, K: np.ndarray, ii: np.ndarray, jj: np.ndarray) -> np.ndarray:
    """:func:`one_row_slope` of the pairs (ii[p], jj[p]) (compiled, read by the float64 steps as well)."""
    c = np.empty(ii.size)
    for p in range(ii.size):
        c[p] = one_row_slope(S, g, K, ii[p], jj[p])
    return c


def all_sliding_slopes(S: np.ndarray, g: np.ndarray, K: np.ndarray, sliding: dict[int, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Slopes of every sliding pair, as (i, j, c) arrays: :func:`one_row_slopes` for the neurons with one sliding
    pair, :func:`sliding_slopes` for those with several."""
    one = [(int(r[0]), j) for j, r in sliding.items() if r.size == 1]
    ii = np.array([p[0] for p in one], dtype=np.int64)
    jj = np.array([p[1] for p in one], dtype=np.int64)
    c = one_row_slopes(np.ascontiguousarray(S, dtype=float), np.ascontiguousarray(g, dtype=float),
                       np.ascontiguousarray(K, dtype=float), ii, jj)
    I, J, C = [ii], [jj], [c]
    for j, rows in sliding.items():
        if rows.size > 1:
            I.append(rows)
            J.append(np.full(rows.size, j))
            C.append(sliding_slopes(S, g, K, j, rows))
    return np.concatenate(I), np.concatenate(J), np.concatenate(C)


def resolve_neuron(S: np.ndarray, g: np.ndarray, K: np.ndarray, gain: np.ndarray, j: int, rows: np.ndarray, alpha: Any,
                   arrival: np.ndarray | None = None, max_iter: int = 50,
                   nums: Numbers = FLOAT64) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """Jointly settle all on-surface pairs ``rows`` of neuron j.

    ``arrival`` (per row): -1 for a pair that reached its surface from the inactive side, +1
    from the active side, 0 unknown. Having arrived, the pair's own side pushes into the surface
    whatever rounding says (d0 >= 0, resp. d1 <= 0), so it crosses or slides, never bounces
    back (a bounce would creep back by tau and loop). Returns (state per row: ACTIVE / INACTIVE /
    SLIDING, slope per row, repelling per row, settled: the iteration reached its fixed point). Iterates:
    classify each pair with the others at their current slopes, solve the sliding system, send slopes outside
    [alpha, 1] to their side (a pair keeps sliding at the bound it arrived from), until no pair changes (one row:
    one pass, its own slope is not in d0, d1). Where these joint updates cycle (a state comes back: two pairs
    that each keep the other active, say, swap sides forever), only the first pair that changes moves from
    then on (:func:`_one_move`), which settles on one of the fixed points. The repelling flags are those of
    the last pass.
    """
    arrival = np.zeros(rows.size, dtype=int) if arrival is None else np.asarray(arrival)
    col = S[:, j].copy()
    state = np.full(rows.size, -1)
    Sj = S.copy()
    settled, seen = False, set()
    for _ in range(max_iter):
        Sj[:, j] = col
        raw0, raw1, tol = normal_rates(Sj, g, K, gain, rows, np.full(rows.size, j), alpha, nums)
        push = 2.0 * tol + nums.tiny
        d0, d1 = raw0, raw1
        d0 = np.where(arrival == -1, np.maximum(d0, push), d0)
        d1 = np.where(arrival == 1, np.minimum(d1, -push), d1)
        new = _one_move(classify(d0, d1, tol), state, seen)
        slide = rows[new == SLIDING]
        col[rows[new == ACTIVE]] = nums.one
        col[rows[new == INACTIVE]] = alpha
        if slide.size:
            c = sliding_slopes(Sj, g, K, j, slide, nums) if alpha < 1.0 else np.full(slide.size, nums.one)
            arr = arrival[np.isin(rows, slide)]
            hi, lo = (c > 1.0) & (arr != 1), (c < alpha) & (arr != -1)
            col[slide] = np.clip(c, alpha, nums.one)
            new[np.isin(rows, slide[hi])] = ACTIVE
            new[np.isin(rows, slide[lo])] = INACTIVE
        if np.array_equal(new, state) or rows.size == 1:  # one row: its own slope is not in d0, d1
            state, settled = new, True
            break
        seen.add(state.tobytes())
        state = new
    return state, col[rows], repelling(raw0, raw1, tol), settled


def _one_move(new: np.ndarray, state: np.ndarray, seen: set) -> np.ndarray:
    """The next states of a joint settling: ``new`` while the iteration has not cycled (``state`` not in ``seen``),
    else ``state`` with only its first differing entry moved to ``new``."""
    moved = np.flatnonzero(new != state)
    if state.tobytes() not in seen or moved.size < 2:
        return new
    out = state.copy()
    out[moved[0]] = new[moved[0]]
    return out


@numba.njit(cache=True)
def resolve_pair(S: np.ndarray, g: np.ndarray, K: np.ndarray, gain: np.ndarray, i: int, j: int, alpha: float, arrival: int = 0) -> tuple[int, float, bool]:
    """:func:`resolve_neuron` for one pair (i, j) (the common case), compiled, in scalars:
    (state, slope, repelling)."""
    total, size = 0.0, 0.0
    for k in range(g.size):
        term = S[k, j] * g[k] * K[k, i]
        total += term
        size += abs(term)
    own = g[i] * K[i, i]
    base = total - S[i, j] * own
    gam = gain[j]
    raw0, raw1 = gam * (base + alpha * own), gam * (base + own)
    tol = D_TOL * abs(gam) * (size + abs(own))
    push = 2.0 * tol + TINY
    d0 = max(raw0, push) if arrival == -1 else raw0
    d1 = min(raw1, -push) if arrival == 1 else raw1
    state, slope = INACTIVE, alpha
    if d0 > tol:
        state, slope = (ACTIVE, 1.0) if d1 >= -tol else (SLIDING, 1.0)
    if state == SLIDING and alpha < 1.0:
        c = -base / own if own != 0.0 else 0.0
        slope = min(max(c, alpha), 1.0)
        if c > 1.0 and arrival != 1:
            state = ACTIVE
        elif c < alpha and arrival != -1:
            state = INACTIVE
    return state, slope, raw0 < -tol and raw1 > tol


# --- rows on one line through 0: one switching surface per neuron ---------------------------------------------------
#
# Data rows x_k = c x_i (c > 0: "parallel") or x_k = -c x_i ("mirrors", as in symmetric data) share the hyperplane
# <x_i, w_j> = 0, so their pairs cross it together and their slopes are coupled: with s the slope of the line's first
# row r (its representative), a parallel row has slope s and a mirror 1 + alpha - s (one of x_r, -x_r is active, the
# other inactive, on either side). Settling them one at a time with the partner's slope frozen tests (alpha, alpha)
# and (1, 1), which never occur, and misreads a clean crossing as sliding. The functions below settle *lines*: each
# line's normal rate is affine in its s, d(s) = gamma_j (base + s own), and the rules above apply to it unchanged.

COLLINEAR_TOL = 1e-12  # unit rows within this distance (up to sign) lie on one line


_LINES: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # id of a read-only X owning its data -> lines(X), while X lives


def lines(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rep, sgn): for each row, the first row of its line through 0 and its orientation there (x_i = c sgn_i x_rep,
    c > 0); zero rows are their own line. Kept for a read-only X that owns its data (a :class:`verify.Dataset`'s, like
    its cached norms) until X is freed: a run on data already seen finds them at once (new arrays each call)."""
    if X.flags.writeable or not X.flags.owndata:
        return _lines(X)
    key = id(X)
    if key not in _LINES:
        _LINES[key] = _lines(X)
        weakref.finalize(X, _LINES.pop, key, None)
    rep, sgn = _LINES[key]
    return rep.copy(), sgn.copy()


def _lines(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`lines`, computed."""
    n = X.shape[0]
    norms = np.linalg.norm(X, axis=1)
    U = np.divide(X, norms[:, None], out=np.zeros_like(X, dtype=float), where=norms[:, None] > 0.0)
    rep, sgn = np.arange(n), np.ones(n, dtype=int)
    G = U @ U.T
    # candidates: unit rows within COLLINEAR_TOL (up to sign) have |<u_i, u_k>| >= 1 - COLLINEAR_TOL^2 / 2
    close = np.abs(G) > 1.0 - 1e-9
    if np.count_nonzero(close) == np.count_nonzero(np.diagonal(close)):  # nothing off the diagonal: no candidate
        return rep, sgn
    close = np.triu(close, 1)
    for i in np.flatnonzero(close.any(axis=1)).tolist():
        if rep[i] != i or norms[i] == 0.0:
            continue
        for k in np.flatnonzero(close[i]).tolist():
            if rep[k] != k or norms[k] == 0.0:
                continue
            s = 1 if G[i, k] > 0.0 else -1
            if np.linalg.norm(U[k] - s * U[i]) <= COLLINEAR_TOL:
                rep[k], sgn[k] = i, s
    return rep, sgn


def line_rows(rep: np.ndarray) -> dict[int, np.ndarray]:
    """The rows of each line through 0 (``rep`` of :func:`lines`): first row -> its rows; empty when every line has
    one row (no coupled surfaces)."""
    if (rep == np.arange(rep.size)).all():
        return {}
    return {int(r): np.flatnonzero(rep == r) for r in np.unique(rep)}


def _line_system(col: np.ndarray, g: np.ndarray, K: np.ndarray, members: list[np.ndarray], signs: list[np.ndarray],
                 alpha: Any, free: np.ndarray, nums: Numbers = FLOAT64) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For the lines ``members`` (rows, signs), with the slopes s of the lines flagged ``free`` unknown and every other
    row at ``col``: (A, b, size) with d_q = gamma_j (b_q + sum_{q' free} A[q, q'] s_q') the normal rate of line q, and
    size_q = sum |terms| (the tolerance scale)."""
    reps = np.array([rows[0] for rows in members])
    fixed = col.copy()
    for rows, sg, f in zip(members, signs, free):
        if f:
            fixed[rows] = np.where(sg < 0, nums.one + alpha, 0 * nums.one)
    terms = fixed[:, None] * g[:, None] * K[:, reps]
    A = np.zeros((reps.size, reps.size), dtype=fixed.dtype)
    for q, (rows, sg, f) in enumerate(zip(members, signs, free)):
        if f:
            A[:, q] = (sg * g[rows]) @ K[np.ix_(rows, reps)]
    return A, terms.sum(axis=0), np.abs(terms).sum(axis=0) + np.abs(A).sum(axis=1)


def line_slopes(col: np.ndarray, g: np.ndarray, K: np.ndarray, members: list[np.ndarray], signs: list[np.ndarray],
                alpha: Any, nums: Numbers = FLOAT64) -> np.ndarray:
    """Slopes s of the sliding lines ``members`` (their representatives' slopes) keeping every one on its surface:
    A s = -b over those lines (least squares if dependent); others at ``col``."""
    A, b, _ = _line_system(col, g, K, members, signs, alpha, np.ones(len(members), dtype=bool), nums)
    return nums.solve(A, -b)


def member_slopes(s: Any, signs: np.ndarray, alpha: Any) -> np.ndarray:
    """The slopes of a line's rows given its representative's slope s: s (parallel) or 1 + alpha - s (mirrors)."""
    return np.where(signs > 0, s, 1 + alpha - s)


def resolve_lines(S: np.ndarray, g: np.ndarray, K: np.ndarray, gain: np.ndarray, j: int, members: list[np.ndarray],
                  signs: list[np.ndarray], alpha: Any, arrival: np.ndarray, max_iter: int = 50,
                  nums: Numbers = FLOAT64) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """:func:`resolve_neuron` over lines: (state per line (of its representative), slope per line, repelling,
    settled)."""
    col = S[:, j].copy()
    p = len(members)
    state = np.full(p, -1)
    settled, seen = False, set()
    raw0, raw1, tol = (np.zeros(p, dtype=col.dtype) for _ in range(3))
    for _ in range(max_iter):
        new = np.empty(p, dtype=int)
        for q in range(p):
            one = np.zeros(p, dtype=bool)
            one[q] = True
            A, b, size = _line_system(col, g, K, members, signs, alpha, one, nums)
            gam = gain[j]
            raw0[q], raw1[q] = gam * (b[q] + alpha * A[q, q]), gam * (b[q] + A[q, q])
            tol[q] = nums.tol_rel * abs(gam) * size[q]
            push = 2.0 * tol[q] + nums.tiny
            d0 = max(raw0[q], push) if arrival[q] == -1 else raw0[q]
            d1 = min(raw1[q], -push) if arrival[q] == 1 else raw1[q]
            new[q] = classify(np.array([d0]), np.array([d1]), np.array([tol[q]]))[0]
        new = _one_move(new, state, seen)
        slopes = np.where(new == ACTIVE, nums.one, alpha)
        slide = np.flatnonzero(new == SLIDING)
        if slide.size:
            c = line_slopes(col, g, K, [members[q] for q in slide], [signs[q] for q in slide], alpha, nums) \
                if alpha < 1.0 else np.full(slide.size, nums.one)
            arr = arrival[slide]
            new[slide[(c > 1.0) & (arr != 1)]] = ACTIVE
            new[slide[(c < alpha) & (arr != -1)]] = INACTIVE
            slopes[slide] = np.clip(c, alpha, nums.one)
        for q in range(p):
            col[members[q]] = member_slopes(slopes[q], signs[q], alpha)
        if np.array_equal(new, state):
            settled = True
            break
        seen.add(state.tobytes())
        state = new
    return state, slopes, repelling(raw0, raw1, tol), settled


