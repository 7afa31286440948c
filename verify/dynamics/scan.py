"""Compiled (numba) inner loop of the crossing search on one step.

:func:`scan_step` makes, pair by pair, the decisions that :func:`crossings.first_crossing`
makes with whole-array numpy operations (that module stays the reference; a test compares
the two), but without building the n*h coefficient array: most steps are short and have a
handful of candidate pairs, where numpy's per-call overhead dominated. The compiled loop calls
:func:`scan_step_into`, the same scan into a workspace it reuses from step to step (no allocation, no
reference counting: :data:`field_jit.UNCOUNTED`); :func:`scan_step` wraps it with new arrays for the Python
iteration.

On the step, v_j(x) = v_j + x (F0 + (1-x)(F1 + x (F2 + ...))) (v_j = w_j or u_j, F_k its rows
of the dense matrix), so |e_ij(x) - e_ij(0)| <= ||x_i|| sum_k ||F_kj|| for x in [0, 1]. Per
watched pair:

1. screen: |e_ij(0)| > ||x_i|| (1 + 1e-9) sum_k ||F_kj|| (armed pairs only) -> no root;
   otherwise the Chebyshev coefficients of e_ij on the step, from <x_i, v_j>, <x_i, F_kj>;
2. exclusion on e: |e_0| > sum_{k>=1} |e_k| (armed pairs) -> no root;
3. phi = side e (+ tau for a disarmed pair, which starts on its surface); exclusion on phi, or
   phi == 0 (resting on the surface) -> nothing;
4. phi(0) < 0: already on the wrong side ("start"); else phi' passes the exclusion bound
   (monotone): one root iff phi(1) < 0 ("quick"); else "hard" (left to numpy). phi(0) is the start value itself,
   side <x_i, v_j> + shift, not the series' alternating sum: a pair resting exactly on its surface with tau = 0 (a
   neuron at w_j = 0, where every projection lands when d = 1) would otherwise be "on the wrong side" by the sum's
   rounding (~1e-20) half the time, an event at x = 0 after every step: the run chattered at such a crossing until
   the step size underflowed (thorough audit, seed 4, LT-X6-gf).

The screen (1) runs first over every pair, row by row over contiguous memory and without branches; the pairs it
keeps (usually none) go through 2-4 neuron by neuron, rows in order, as before. Among the quick pairs only the
earliest root is computed: bracketed Newton on the pair with
the earliest secant estimate, then every other quick pair is evaluated there; if one is
already negative there beyond rounding (EARLIER_RTOL sum |phi_k|) its root is earlier and it becomes the new
guess. Without that band two pairs with one root (x_i and its mirror -x_i on one neuron) looked earlier than each
other by rounding, the loop alternated between them and never reached a genuinely earlier pair of another neuron,
whose crossing was then found late (a state jump at the next event, on symmetric data). A pair within the band of
the root is on its surface there, and the event point settles it with the others.
"""

from __future__ import annotations

import numba
import numpy as np

from verify.dynamics.engine_jit import block_norm
from verify.dynamics.field_jit import UNCOUNTED

DEG = 7
EARLIER_RTOL = 64.0 * 2.0**-53  # a quick pair is earlier only if negative at the current root beyond rounding
DER = np.polynomial.chebyshev.chebder(np.eye(DEG + 1), axis=0)  # (7, 8): coefficients of p'


@numba.njit(cache=True)
def _clenshaw(c: np.ndarray, x: float) -> float:
    b1, b2 = 0.0, 0.0
    for k in range(c.size - 1, 0, -1):
        b1, b2 = c[k] + 2.0 * x * b1 - b2, b1
    return c[0] + x * b1 - b2


@numba.njit(cache=True)
def _newton(c: np.ndarray, dc: np.ndarray) -> float:
    """Root on [-1, 1] of a monotone polynomial with phi(-1) >= 0 > phi(1) (bracketed Newton)."""
    lo, hi = -1.0, 1.0
    left, right = _clenshaw(c, -1.0), _clenshaw(c, 1.0)
    x = min(1.0, max(-1.0, -1.0 + 2.0 * left / (left - right)))
    for _ in range(60):
        val = _clenshaw(c, x)
        if val >= 0.0:
            lo = x
        else:
            hi = x
        der = _clenshaw(dc, x)
        xn = x - val / der if der != 0.0 else 0.5 * (lo + hi)
        if not (lo <= xn <= hi) or xn != xn:
            xn = 0.5 * (lo + hi)
        if abs(xn - x) <= 2e-15 or hi - lo <= 4e-16:
            return xn
        x = xn
    return x


@numba.njit(cache=True, inline="always")
def _monotone_root_into(c: np.ndarray, der: np.ndarray, dc: np.ndarray) -> float:
    """:func:`monotone_root` with the derivative's coefficients in the scratch dc (DEG,)."""
    for r in range(DEG):
        acc = 0.0
        for q in range(DEG + 1):
            acc += der[r, q] * c[q]
        dc[r] = acc
    return _newton(c, dc)


@numba.njit(cache=True)
def monotone_root(c: np.ndarray, der: np.ndarray) -> float:
    """Root on [-1, 1] of the monotone Chebyshev series c with c(-1) >= 0 > c(1); der maps
    c to the coefficients of its derivative."""
    return _monotone_root_into(c, der, np.empty(DEG))


@numba.njit(cache=True)
def scan_workspace(n: int, h: int) -> tuple:
    """Scratch and results of :func:`scan_step_into`, reused from step to step: (a, e, phi (DEG + 1,), dc (DEG,),
    bound (h,), near (n, h), count (h,), start, hard, quick pairs (n h, 2), quick estimates (n h,), quick series
    (n h, DEG + 1))."""
    m = n * h
    return (np.empty(DEG + 1), np.empty(DEG + 1), np.empty(DEG + 1), np.empty(DEG), np.empty(h),
            np.empty((n, h), np.bool_), np.empty(h, np.int64), np.empty((m, 2), np.int64), np.empty((m, 2), np.int64),
            np.empty((m, 2), np.int64), np.empty(m), np.empty((m, DEG + 1)))


@numba.njit(cache=True, **UNCOUNTED)
def scan_step_into(work: tuple, z: np.ndarray, F: np.ndarray, lo: int, h: int, E0: np.ndarray, X: np.ndarray,
                   xnorm: np.ndarray, side: np.ndarray, armed: np.ndarray, dead: np.ndarray, surface_tol: float,
                   cheb: np.ndarray, der: np.ndarray):
    """Classify the watched pairs of one step and locate the earliest quick root.

    z (N,) the state at the step start and F (7, N) its dense matrix; the neuron block v_j
    (w_j or u_j) is z[lo + j d : lo + (j + 1) d]; E0 = X V^T its preactivations (BLAS);
    X (n, d); xnorm (n,); side, armed (n, h); dead (h,); cheb (8, 8) maps (z, F0..F6) to
    Chebyshev coefficients on the step. Watched: side != 0 and not dead;
    tau_ij = surface_tol ||x_i|| ||v_j||. Returns (x_quick in [0, 1] or inf, i, j of that pair,
    number of start pairs, number of hard pairs), the start and hard pairs in the first rows of work[7] and work[8]
    (:func:`scan_workspace`); quick roots are not searched when a start pair exists. No allocation.
    """
    a, e, phi, dc, bound, near, count, start, hard, quick_idx, quick_est, quick_phi = work
    n, d = X.shape
    m_f = F.shape[0]
    n_start, n_hard, n_quick = 0, 0, 0
    for j in range(h):
        base = lo + j * d
        acc_b = 0.0
        for k in range(m_f):
            acc = 0.0
            for q in range(d):
                acc += F[k, base + q] * F[k, base + q]
            acc_b += np.sqrt(acc)
        bound[j] = acc_b * (1.0 + 1e-9)
    for j in range(h):  # the screen, row by row over contiguous memory and without branches
        count[j] = 0
    for i in range(n):
        xi = xnorm[i]
        for j in range(h):
            kept = (side[i, j] != 0) & ~(armed[i, j] & (abs(E0[i, j]) > xi * bound[j])) & ~dead[j]
            near[i, j] = kept
            count[j] += kept
    for j in range(h):
        if count[j] == 0:
            continue
        base = lo + j * d
        scale = block_norm(z, base, d)
        for i in range(n):
            if not near[i, j]:
                continue
            acc = 0.0
            for q in range(d):
                acc += X[i, q] * z[base + q]
            a[0] = acc
            for k in range(m_f):
                acc = 0.0
                for q in range(d):
                    acc += X[i, q] * F[k, base + q]
                a[k + 1] = acc
            for k in range(DEG + 1):
                acc = 0.0
                for q in range(m_f + 1):
                    acc += cheb[k, q] * a[q]
                e[k] = acc
            shift = 0.0 if armed[i, j] else surface_tol * xnorm[i] * scale
            rest = 0.0
            for k in range(1, DEG + 1):
                rest += abs(e[k])
            if shift <= 0.0 and abs(e[0]) > rest:
                continue
            sg = float(side[i, j])
            nonzero = False
            for k in range(DEG + 1):
                phi[k] = sg * e[k]
                nonzero = nonzero or phi[k] != 0.0
            phi[0] += shift
            rest = 0.0
            for k in range(1, DEG + 1):
                rest += abs(phi[k])
            if abs(phi[0]) > rest or not nonzero:
                continue
            left, right = sg * a[0] + shift, 0.0  # phi at the step start exactly: e_ij(0) = <x_i, v_j>
            for k in range(DEG + 1):
                right += phi[k]
            if left < 0.0:
                start[n_start, 0], start[n_start, 1] = i, j
                n_start += 1
                continue
            d0, drest = 0.0, 0.0
            for k in range(DEG):
                acc = 0.0
                for q in range(DEG + 1):
                    acc += der[k, q] * phi[q]
                if k == 0:
                    d0 = abs(acc)
                else:
                    drest += abs(acc)
            if d0 > drest:
                if right < 0.0:
                    quick_idx[n_quick, 0], quick_idx[n_quick, 1] = i, j
                    quick_est[n_quick] = -1.0 + 2.0 * left / (left - right)
                    for q in range(DEG + 1):
                        quick_phi[n_quick, q] = phi[q]
                    n_quick += 1
            else:
                hard[n_hard, 0], hard[n_hard, 1] = i, j
                n_hard += 1
    x_quick, qi, qj = np.inf, -1, -1
    if n_quick and not n_start:
        k = 0
        for p in range(1, n_quick):
            if quick_est[p] < quick_est[k]:
                k = p
        root = _monotone_root_into(quick_phi[k], der, dc)
        for _ in range(n_quick):
            nxt, best = -1, np.inf
            for p in range(n_quick):
                band = 0.0
                for q in range(DEG + 1):
                    band += abs(quick_phi[p, q])
                if p != k and _clenshaw(quick_phi[p], root) < -EARLIER_RTOL * band and quick_est[p] < best:
                    nxt, best = p, quick_est[p]
            if nxt < 0:
                break
            k = nxt
            root = _monotone_root_into(quick_phi[k], der, dc)
        x_quick, qi, qj = 0.5 * (root + 1.0), quick_idx[k, 0], quick_idx[k, 1]
    return x_quick, qi, qj, n_start, n_hard


@numba.njit(cache=True)
def scan_step(z: np.ndarray, F: np.ndarray, lo: int, h: int, E0: np.ndarray, X: np.ndarray, xnorm: np.ndarray,
              side: np.ndarray, armed: np.ndarray, dead: np.ndarray, surface_tol: float, cheb: np.ndarray,
              der: np.ndarray):
    """:func:`scan_step_into` with a new workspace: (x_quick, i, j, start pairs (m, 2), hard pairs (m, 2))."""
    work = scan_workspace(X.shape[0], h)
    xq, qi, qj, n_start, n_hard = scan_step_into(work, z, F, lo, h, E0, X, xnorm, side, armed, dead, surface_tol,
                                                 cheb, der)
    return xq, qi, qj, work[7][:n_start].copy(), work[8][:n_hard].copy()
