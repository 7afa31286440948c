"""Vectorised location of sign changes of all n*h preactivations on one step's dense output.

On a step, every e_ij(x) (x in [0, 1] the step fraction) is a polynomial of degree 7, obtained
exactly from the dense-output matrix (e is linear in the state, so the map is a fixed 8x8
matrix applied before the preactivation). For each pair the *event function* is
phi = side * e (+ tau for pairs that start on their hyperplane), which must stay > 0; the pair
switches at the first x where phi turns negative.

1. Chebyshev coefficients c_k of e on [0, 1].
2. Exclusion: |c_0| > sum_{k>=1} |c_k| means no root on [0, 1] (most pairs, no root-finding).
3. Pairs whose derivative passes the same bound are monotone: no crossing if phi >= 0 at both
   ends, else exactly one root; only the earliest such root is computed (bracketed Newton).
4. Non-monotone candidates are re-expanded on 8 equal pieces and the test repeated per piece;
   pieces that are neither excluded nor monotone go to the roots of the colleague matrix
   (batched ``eigvals``, two Newton polishes); the first root after which phi < 0 is the
   crossing. This finds interior double crossings whose end-point signs agree.
5. A root after which phi stays >= 0 and |phi| <= tol is a tangential touch ("grazing").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from verify.dynamics import scan
from verify.dynamics.stepper import MONOMIAL

DEG = 7
IMAG_TOL = 1e-7  # near-double roots split into complex pairs with |Im| ~ sqrt(machine eps)


def _mono_to_cheb() -> np.ndarray:
    """T (8, 8): Chebyshev coefficients in s = 2x - 1 of the monomials x^k (columns)."""
    C = np.polynomial.chebyshev
    T = np.zeros((DEG + 1, DEG + 1))
    for k in range(DEG + 1):
        poly = np.polynomial.polynomial.polypow([0.5, 0.5], k)
        T[: k + 1, k] = C.poly2cheb(poly)
    return T


CHEB = _mono_to_cheb() @ MONOMIAL  # (z, F0..F6) -> Chebyshev coefficients on the step
_SCL = np.array([1.0] + [np.sqrt(0.5)] * (DEG - 1))


def _colleague_base() -> np.ndarray:
    mat = np.zeros((DEG, DEG))
    top = mat.reshape(-1)[1 :: DEG + 1]
    bot = mat.reshape(-1)[DEG :: DEG + 1]
    top[0] = np.sqrt(0.5)
    top[1:] = 0.5
    bot[...] = top
    return mat


_BASE = _colleague_base()


def cheb_coefficients(E: np.ndarray) -> np.ndarray:
    """E (8, ...) = preactivations of (z, F0..F6) -> Chebyshev coefficients (8, ...) on [0, 1]."""
    return np.tensordot(CHEB, E, axes=1)


def cheb_eval(c: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Clenshaw: c (8, m), s (m, k) or (m,) -> values of polynomial p at s[p]."""
    s = np.asarray(s, float)
    ex = (slice(None),) + (None,) * (s.ndim - 1)
    b1 = c[-1][ex] + 0.0 * s
    b2 = 0.0
    for ck in c[-2:0:-1]:
        b1, b2 = ck[ex] + 2.0 * s * b1 - b2, b1
    return c[0][ex] + s * b1 - b2


def _real_roots(c: np.ndarray) -> np.ndarray:
    """Sorted real roots in [-1, 1] of the columns of c (8, m); NaN-padded (m, 7)."""
    lead = c[-1].copy()
    scale = np.max(np.abs(c), axis=0)
    small = np.abs(lead) < 1e-13 * scale
    lead[small] = np.where(lead[small] < 0.0, -1.0, 1.0) * 1e-13 * scale[small]
    mats = np.repeat(_BASE[None], c.shape[1], axis=0)
    mats[:, :, -1] -= (c[:-1] / lead).T * (_SCL / _SCL[-1]) * 0.5
    lam = np.linalg.eigvals(mats)
    ok = (np.abs(lam.imag) <= IMAG_TOL) & (np.abs(lam.real) <= 1.0 + 1e-9)
    roots = np.where(ok, np.clip(lam.real, -1.0, 1.0), np.nan)
    dc = np.polynomial.chebyshev.chebder(c, axis=0)
    for _ in range(2):
        val, der = cheb_eval(c, roots), cheb_eval(dc, roots)
        upd = np.where(np.abs(der) > 0.0, val / np.where(der == 0.0, 1.0, der), 0.0)
        roots = np.where(np.abs(upd) < 1e-6, np.clip(roots - upd, -1.0, 1.0), roots)
    return np.sort(roots, axis=1)


@dataclass
class Crossings:
    """First switching point on the step (x = step fraction) and tangential touches before it."""

    x: float  # inf if none
    pairs: list[tuple[int, int]]  # pairs switching at x
    touches: list[tuple[float, int, int]]  # (x, i, j) grazing points with x < self.x


def _subdivision(pieces: int) -> np.ndarray:
    """R (pieces, 8, 8): Chebyshev coefficients on [-1, 1] -> on each of ``pieces`` equal parts."""
    C = np.polynomial.chebyshev
    nodes = np.cos(np.pi * (np.arange(DEG + 1) + 0.5) / (DEG + 1))
    V = C.chebvander(nodes, DEG)  # values at nodes from coefficients
    Vinv = np.linalg.inv(V)
    R = np.empty((pieces, DEG + 1, DEG + 1))
    for k in range(pieces):
        a, b = -1.0 + 2.0 * k / pieces, -1.0 + 2.0 * (k + 1) / pieces
        R[k] = Vinv @ C.chebvander(0.5 * (a + b) + 0.5 * (b - a) * nodes, DEG)
    return R


PIECES = 8
_SUB = _subdivision(PIECES)
_DER = np.polynomial.chebyshev.chebder(np.eye(DEG + 1), axis=0)  # (7, 8): coefficients of p'
_ENDS0 = np.vstack([(-1.0) ** np.arange(DEG + 1), np.ones(DEG + 1)])  # values at x = 0, 1
_AUX = np.vstack([_DER, _ENDS0[1]])  # (8, 8): the coefficients of p', then p(1)


def _no_root(c: np.ndarray) -> np.ndarray:
    """Cheap exclusion along axis 0: |c_0| > sum_{k>=1} |c_k| means no root on [-1, 1]."""
    return np.abs(c[0]) > np.sum(np.abs(c[1:]), axis=0)


def _newton_scalar(c: np.ndarray) -> float:
    """Bracketed Newton for one monotone polynomial with phi(-1) >= 0 > phi(1) (the compiled
    :func:`scan.monotone_root`)."""
    return scan.monotone_root(np.ascontiguousarray(c, dtype=float), scan.DER)


def _earliest_root(c: np.ndarray) -> tuple[int, float]:
    """Among monotone decreasing polynomials with a root in [-1, 1], the one whose root is
    first, and that root: Newton on the best secant guess, then check no other is already
    negative there beyond rounding (if one is, its root is earlier: repeat with it; :mod:`scan`)."""
    left, right = _ENDS0 @ c
    est = -1.0 + 2.0 * left / (left - right)
    k = int(np.argmin(est))
    root = _newton_scalar(c[:, k])
    for _ in range(c.shape[1]):
        vals = cheb_eval(c, np.full(c.shape[1], root))
        vals[k] = 0.0
        earlier = np.nonzero(vals < -scan.EARLIER_RTOL * np.sum(np.abs(c), axis=0))[0]
        if earlier.size == 0:
            break
        k = int(earlier[np.argmin(est[earlier])])
        root = _newton_scalar(c[:, k])
    return k, root


def first_crossing(coef: np.ndarray, start: np.ndarray, side: np.ndarray, shift: np.ndarray, watch: np.ndarray, touch_tol: np.ndarray) -> Crossings:
    """Earliest x in [0, 1] where some watched event function phi_ij = side_ij e_ij + shift_ij
    turns negative.

    coef (8, n, h): Chebyshev coefficients of e_ij on the step; start (n, h): e_ij at the step start, the value phi(0)
    is read from (not the series' alternating sum, whose rounding misreads a pair resting on its surface: :mod:`scan`);
    side (n, h): +1 active, -1
    inactive; shift (n, h) >= 0: the band tau of pairs that start on their surface (tested on
    phi itself, not by the sign-blind bound on e); watch (n, h) bool: pairs to test;
    touch_tol (n, h): |phi| below which a non-crossing root counts as grazing.
    Pairs passing the exclusion bound, or monotone (bound on phi') with phi >= 0 at both ends,
    have no crossing. Monotone pairs with a sign change have one root each: only the earliest
    is computed (bracketed Newton on the best secant guess, then checked against all others).
    Non-monotone candidates are re-expanded on 8 equal pieces (up to that earliest root): a
    piece that passes the bound has no root, a piece whose derivative passes it is monotone,
    and only the remaining pieces go to the colleague-matrix eigenvalues.
    """
    raw = coef.reshape(DEG + 1, -1)
    ab = np.abs(raw)
    banded = shift.reshape(-1) > 0.0  # start on the surface: their own test below
    sel = np.nonzero(watch.reshape(-1) & ((ab[0] <= ab[1:].sum(axis=0)) | banded))[0]
    flat = raw[:, sel] * side.reshape(-1)[sel]
    flat[0] += shift.reshape(-1)[sel]
    aux = _AUX @ flat  # rows: phi' coefficients (7), phi(1)
    mono = _no_root(aux[:DEG])
    left, right = start.reshape(-1)[sel] * side.reshape(-1)[sel] + shift.reshape(-1)[sel], aux[DEG]
    live = ~_no_root(flat) & np.any(flat != 0.0, axis=0)  # phi == 0: resting on the surface
    cand_x: list[np.ndarray] = []
    cand_k: list[np.ndarray] = []
    neg0 = np.nonzero(live & (left < 0.0))[0]  # already on the wrong side at the step start
    if neg0.size:
        cand_k.append(neg0)
        cand_x.append(np.zeros(neg0.size))
    x_best = 0.0 if neg0.size else np.inf
    quick = np.nonzero(live & mono & (left >= 0.0) & (right < 0.0))[0]  # one simple root
    if quick.size and x_best > 0.0:
        q, root = _earliest_root(flat[:, quick])
        x_best = 0.5 * (root + 1.0)
        cand_k.append(quick[q : q + 1])
        cand_x.append(np.array([x_best]))
    touches: list[tuple[float, int, int]] = []
    rest = np.nonzero(live & ~mono & (left >= 0.0))[0]
    if rest.size and x_best > 0.0:
        ii, jj = np.unravel_index(sel[rest], watch.shape)
        x_rest, touches = hard_candidates(flat[:, rest], touch_tol[ii, jj], ii, jj, x_best)
        cand_k.append(rest)
        cand_x.append(x_rest)
    if not cand_k:
        return Crossings(np.inf, [], [])
    ii, jj = np.unravel_index(sel[np.concatenate(cand_k)], watch.shape)
    return earliest(np.concatenate(cand_x), ii, jj, touches)


def earliest(xs: np.ndarray, ii: np.ndarray, jj: np.ndarray, touches: list[tuple[float, int, int]]) -> Crossings:
    """From candidate switching points xs of pairs (ii, jj): the first x, every pair switching
    there (within 1e-12), and the grazing touches before it (first touch per pair)."""
    if xs.size == 1 and not touches:
        return Crossings(float(xs[0]), [(int(ii[0]), int(jj[0]))], [])
    x_star = float(np.min(xs)) if xs.size else np.inf
    pairs: list[tuple[int, int]] = []
    if np.isfinite(x_star):
        at = xs <= x_star + 1e-12
        pairs = sorted({(int(i), int(j)) for i, j in zip(ii[at], jj[at])})
    seen: set[tuple[int, int]] = set()
    uniq = []
    for t in sorted(t for t in touches if t[0] < x_star):
        if t[1:] not in seen:
            seen.add(t[1:])
            uniq.append(t)
    return Crossings(x_star, pairs, uniq)


def hard_candidates(c: np.ndarray, tol: np.ndarray, ii: np.ndarray, jj: np.ndarray, x_limit: float) -> tuple[np.ndarray, list[tuple[float, int, int]]]:
    """Non-monotone candidates: first crossing per column of c on 8 sub-pieces before x_limit."""
    x_pair = np.full(c.shape[1], np.inf)
    touches: list[tuple[float, int, int]] = []
    for p in range(PIECES):
        if p / PIECES >= x_limit:
            break
        sub = _SUB[p] @ c
        ab = np.abs(sub)
        maybe = (ab[0] <= ab[1:].sum(axis=0)) & ~np.isfinite(x_pair)
        if not maybe.any():
            continue
        d = np.abs(_DER @ sub)
        mono = d[0] > d[1:].sum(axis=0)
        left, right = _ENDS0 @ sub
        simple = maybe & mono & (left >= 0.0) & (right < 0.0)
        if simple.any():
            k_s = np.nonzero(simple)[0]
            q, root = _earliest_root(sub[:, k_s])
            x_pair[k_s[q]] = (p + 0.5 * (root + 1.0)) / PIECES
        hard = maybe & ~mono
        if hard.any():
            k_hard = np.nonzero(hard)[0]
            xs, tch = _hard_piece(sub[:, k_hard], tol[k_hard])
            for q, k in enumerate(k_hard):
                x_pair[k] = (p + 0.5 * (xs[q] + 1.0)) / PIECES if np.isfinite(xs[q]) else np.inf
                for sx in tch[q]:
                    touches.append(((p + 0.5 * (sx + 1.0)) / PIECES, int(ii[k]), int(jj[k])))
        neg_start = maybe & ~np.isfinite(x_pair) & (left < 0.0)
        x_pair[neg_start] = p / PIECES
        if np.isfinite(x_pair).any():
            break
    return x_pair, touches


def _hard_piece(c: np.ndarray, tol: np.ndarray) -> tuple[np.ndarray, list[list[float]]]:
    """Non-monotone pieces: first root after which phi < 0 (s in [-1, 1], inf if none) and touches."""
    roots = _real_roots(c)
    nxt = np.concatenate([roots[:, 1:], np.full((roots.shape[0], 1), np.nan)], axis=1)
    nxt = np.where(np.isnan(nxt), 1.0, nxt)
    after = np.minimum(roots + 0.5 * (nxt - roots), 1.0)
    after = np.where(after <= roots, np.minimum(roots + 1e-9, 1.0), after)
    val_after = cheb_eval(c, np.where(np.isnan(roots), 0.0, after))
    crossing = ~np.isnan(roots) & (val_after < 0.0)
    s_cross = np.where(crossing, roots, np.inf).min(axis=1)
    end_neg = cheb_eval(c, np.ones(c.shape[1])) < 0.0
    missed = end_neg & ~np.isfinite(s_cross)
    if np.any(missed):
        s_cross[missed] = _bisect(c[:, missed])
    val_root = cheb_eval(c, np.where(np.isnan(roots), 0.0, roots))
    touch = ~np.isnan(roots) & ~crossing & (roots < s_cross[:, None]) & (np.abs(val_root) <= tol[:, None])
    return s_cross, [sorted(set(roots[q][touch[q]].tolist())) for q in range(c.shape[1])]


def _bisect(c: np.ndarray, iters: int = 60) -> np.ndarray:
    """Fallback: first sign change by bisection of phi from s = -1 (phi >= 0) to 1 (phi < 0)."""
    lo = np.full(c.shape[1], -1.0)
    hi = np.ones(c.shape[1])
    grid = np.linspace(-1.0, 1.0, 65)
    vals = cheb_eval(c, np.broadcast_to(grid, (c.shape[1], grid.size)))
    first = np.argmax(vals < 0.0, axis=1)
    hi = grid[first]
    lo = grid[np.maximum(first - 1, 0)]
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        neg = cheb_eval(c, mid) < 0.0
        hi = np.where(neg, mid, hi)
        lo = np.where(neg, lo, mid)
    return hi
