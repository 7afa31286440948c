"""Vectorised location of sign changes of all n*h preactivations on one step's dense output.

On a step, every e_ij(x) (x in [0, 1] the step fraction) is a polynomial of degree 7, obtained
exactly from the dense-output matrix (e is linear in the state). For each pair we test the
*event function* phi = side * e (+ tau for pairs that start on their hyperplane), which must
stay > 0; the pair switches at the first x where phi turns negative.

1. Chebyshev coefficients c_k of phi on [0, 1] (fixed 8x8 map from the monomial ones).
2. Exclusion: |c_0| > sum_{k>=1} |c_k| means no root on [0, 1] (most pairs, no root-finding).
3. Candidates: roots of the colleague matrices (batched ``eigvals``), real ones in [0, 1],
   two Newton polishes; the first root after which phi is negative is the crossing. This
   finds interior double crossings whose end-point signs agree.
4. A root after which phi stays >= 0 is a tangential touch ("grazing"), reported separately.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

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


def _no_root(c: np.ndarray) -> np.ndarray:
    """Cheap exclusion along axis 0: |c_0| > sum_{k>=1} |c_k| means no root on [-1, 1]."""
    return np.abs(c[0]) > np.sum(np.abs(c[1:]), axis=0)


def _newton_bracketed(c: np.ndarray, iters: int = 40) -> np.ndarray:
    """Root in [-1, 1] of monotone polynomials (columns of c) with phi(-1) >= 0 > phi(1)."""
    dc = _DER @ c
    lo, hi = -np.ones(c.shape[1]), np.ones(c.shape[1])
    left, right = _ENDS0 @ c
    x = np.clip(-1.0 + 2.0 * left / (left - right), -1.0, 1.0)
    for _ in range(iters):
        val = cheb_eval(c, x)
        lo = np.where(val >= 0.0, x, lo)
        hi = np.where(val < 0.0, x, hi)
        der = cheb_eval(dc, x)
        with np.errstate(divide="ignore", invalid="ignore"):
            xn = x - val / der
        bad = ~np.isfinite(xn) | (xn < lo) | (xn > hi)
        xn = np.where(bad, 0.5 * (lo + hi), xn)
        done = np.all((np.abs(xn - x) <= 2e-15) | (hi - lo <= 4e-16))
        x = xn
        if done:
            break
    return x


def first_crossing(phi_cheb: np.ndarray, watch: np.ndarray, touch_tol: np.ndarray) -> Crossings:
    """Earliest x in [0, 1] where some watched phi_ij turns negative.

    phi_cheb (8, n, h): Chebyshev coefficients of the event functions; watch (n, h) bool:
    pairs to test; touch_tol (n, h): |phi| below which a non-crossing root counts as grazing.
    Pairs passing the exclusion bound, or monotone (bound on phi') with phi >= 0 at both ends,
    have no crossing. Other candidates are re-expanded on 8 equal pieces; a piece
    that passes the bound has no root, a piece whose derivative passes it is monotone (one root
    iff its end values change sign: bracketed Newton), and only the remaining pieces go to
    the colleague-matrix eigenvalues.
    """
    flat = phi_cheb.reshape(DEG + 1, -1)
    ends = _ENDS0 @ flat
    mono = _no_root(_DER @ flat)
    cand = ~_no_root(flat) & ~(mono & (ends[0] >= 0.0) & (ends[1] >= 0.0))
    ii, jj = np.nonzero(watch & cand.reshape(watch.shape))
    if ii.size == 0:
        return Crossings(np.inf, [], [])
    c = phi_cheb[:, ii, jj]  # (8, m)
    x_pair = np.full(ii.size, np.inf)
    touches: list[tuple[float, int, int]] = []
    for p in range(PIECES):
        sub = _SUB[p] @ c
        ab = np.abs(sub)
        maybe = ab[0] <= ab[1:].sum(axis=0)
        if not maybe.any():
            continue
        d = np.abs(_DER @ sub)
        mono = d[0] > d[1:].sum(axis=0)
        left, right = _ENDS0 @ sub
        simple = maybe & mono & (left >= 0.0) & (right < 0.0)
        if simple.any():
            x_pair[simple] = (p + 0.5 * (_newton_bracketed(sub[:, simple]) + 1.0)) / PIECES
        hard = maybe & ~mono
        if hard.any():
            k_hard = np.nonzero(hard)[0]
            xs, tch = _hard_piece(sub[:, k_hard], touch_tol[ii[k_hard], jj[k_hard]])
            for q, k in enumerate(k_hard):
                x_pair[k] = (p + 0.5 * (xs[q] + 1.0)) / PIECES if np.isfinite(xs[q]) else np.inf
                for sx in tch[q]:
                    touches.append(((p + 0.5 * (sx + 1.0)) / PIECES, int(ii[k]), int(jj[k])))
        neg_start = maybe & ~np.isfinite(x_pair) & (left < 0.0)
        x_pair[neg_start] = p / PIECES
        if np.isfinite(x_pair).any():
            break
    x_star = float(np.min(x_pair))
    pairs: list[tuple[int, int]] = []
    if np.isfinite(x_star):
        sel = np.nonzero(x_pair <= x_star + 1e-12)[0]
        pairs = [(int(ii[k]), int(jj[k])) for k in sel]
    touches = sorted(t for t in touches if t[0] < x_star)
    seen: set[tuple[int, int]] = set()
    uniq = []
    for t in touches:
        if t[1:] not in seen:
            seen.add(t[1:])
            uniq.append(t)
    return Crossings(x_star, pairs, uniq)


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
