"""Event location to full precision and switching rules, in mpmath.

Location. On a step of length h every event function is a polynomial in x = (t - t0)/h on
[0, 1]: phi_ij(x) = side_ij <x_i, w_j(t0 + x h)> (or u_j), and, for a Filippov sliding pair,
the two slope-exit functions of :mod:`field`. :func:`first_root` returns the first x where
phi turns negative, *for every pair*, including two roots inside one step whose end values
agree:

1. exclusion: |q_0| > sum_{k>=1} |q_k| means no root on the interval;
2. monotone: |q_1| > sum_{k>=2} k |q_k| means one root at most, present iff the end values
   change sign; it is then located by safeguarded Newton on the polynomial to working
   precision;
3. otherwise split the interval in two (Taylor shift, O(N^2)) and search the left half first.
   Intervals narrower than 2^-(prec/2) that pass neither test hold a double root: a sign
   change there is located by bisection, a touch without one is reported as grazing.

A pair put on its surface at the previous event has phi(0) = 0 by projection; its root at
x = 0 is deflated (phi(x)/x) so the same crossing is never found twice, and a later return
to the surface is a new event.

Switching: the law of :mod:`verify.dynamics.switching`, run on object arrays of mpfr with the
numbers of :func:`numbers` (|d| below tol = 10^-dps |gamma_j| sum |terms| reads as 0; the
sliding systems solved by :func:`num.solve`); :func:`project_out` puts w_j on the surfaces.

Root location works on gmpy2 mpfr (the solver) and on mpmath mpf alike.
"""

from __future__ import annotations

import gmpy2
import mpmath
import numpy as np

from verify.dynamics.mp import num
from verify.dynamics.mp.taylor import deriv_tail, horner, horner_d, shift, tail_sum
from verify.dynamics.switching import Numbers
from verify.errors import NumericalError


def _is_fr(x) -> bool:
    return isinstance(x, type(gmpy2.mpfr(0)))


def _prec(x) -> int:
    return num.prec() if _is_fr(x) else mpmath.mp.prec


def _ldexp(x, n: int, like):
    return num.ldexp(x, n) if _is_fr(like) else mpmath.ldexp(x, n)


MAX_DEPTH = 200  # bisection depth of the root search: intervals down to 2^-min(prec/2, 200) of a step
MAX_INTERVALS = 4096  # search budget per polynomial (only a phi that is 0 to working precision exhausts it)


# root location ------------------------------------------------------------------------------
def _newton_bracketed(q: list):
    """Root in [0, 1] of a monotone polynomial with q(0) >= 0 > q(1)."""
    zero = 0 * q[0]
    lo, hi = zero, zero + 1
    v0, v1 = q[0], sum(q)
    x = v0 / (v0 - v1)
    prec = _prec(q[0])
    eps = _ldexp(1, -prec + 4, q[0])
    for _ in range(4 * prec):
        p, dp = horner_d(q, x)
        if p >= 0:
            lo = x
        else:
            hi = x
        xn = x - p / dp if dp != 0 else (lo + hi) / 2
        if not lo <= xn <= hi:
            xn = (lo + hi) / 2
        if abs(xn - x) <= eps or hi - lo <= eps:
            x = xn
            break
        x = xn
    # return a point on the negative side (or the root itself) so that phi has turned
    return x


def _bisect_first_negative(q: list):
    """First sign change from >= 0 to < 0 of q on [0, 1], q(1) < 0 (grid then bisection)."""
    m = 64
    zero = 0 * q[0]
    prev = zero
    lo, hi = zero, zero + 1
    for k in range(1, m + 1):
        x = (zero + k) / m
        if horner(q, x) < 0:
            lo, hi = prev, x
            break
        prev = x
    for _ in range(_prec(q[0])):
        mid = (lo + hi) / 2
        if horner(q, mid) < 0:
            hi = mid
        else:
            lo = mid
    return hi


def first_root(c: list, on_surface: bool = False, touch_tol=None) -> tuple:
    """First x in (0, 1] where the polynomial phi (coefficients c in x) turns negative.

    Returns (x or None, touches): touches are x of tangential zeros before it (grazing).
    ``on_surface``: phi(0) = 0 by construction; search phi(x)/x instead.
    """
    q = list(c[1:]) if on_surface else list(c)
    if not q or all(ck == 0 for ck in q):  # phi identically 0: never turns negative
        return None, []
    zero = 0 * q[0]
    if len(q) == 1:
        return (None if q[0] >= 0 else zero), []
    if q[0] < 0 and abs(q[0]) > tail_sum(q, 1):
        return zero, []
    touches: list = []
    min_w = _ldexp(1, -min(_prec(q[0]) // 2, MAX_DEPTH), q[0])
    tt = zero if touch_tol is None else touch_tol
    half = (zero + 1) / 2
    x = None
    stack = [(zero, zero + 1, q)]  # intervals still to search, leftmost on top
    budget = MAX_INTERVALS
    while stack:
        a, w, qq = stack.pop()
        budget -= 1
        if budget < 0:  # noise-level polynomial (phi = 0 to working precision): a touch
            touches.append(a)
            break
        rest = tail_sum(qq, 1)
        if abs(qq[0]) > rest:  # no root here
            if qq[0] > 0:
                continue
            x = a
            break
        if abs(qq[1]) > deriv_tail(qq):  # monotone: a root iff the ends differ in sign
            if qq[0] < 0:
                x = a
                break
            if sum(qq) < 0:
                x = a + w * _newton_bracketed(qq)
                break
            continue
        if w < min_w:  # a double root: sign change or tangential touch
            if sum(qq) < 0:
                x = a + w * _bisect_first_negative(qq) if qq[0] >= 0 else a
                break
            if abs(qq[0]) <= tt * 2 + rest:
                touches.append(a + w / 2)
            continue
        stack.append((a + w / 2, w / 2, shift(qq, half, half)))
        stack.append((a, w / 2, shift(qq, 0, half)))
    if x is not None:
        touches = [t for t in touches if t < x]
    # merge touches closer than min_w (one tangency reported once)
    merged: list = []
    for t in sorted(touches):
        if not merged or t - merged[-1] > 4 * min_w:
            merged.append(t)
    return x, merged


# switching ------------------------------------------------------------------------------------
def _solve(M: np.ndarray, b: np.ndarray) -> np.ndarray:
    """x with M x = b in mpfr (:func:`num.solve`; NumericalError where M is singular to working precision)."""
    out = np.empty(len(b), dtype=object)
    try:
        out[:] = num.solve(M.tolist(), b.tolist())
    except ZeroDivisionError:
        raise NumericalError("mp backend: sliding pairs of one neuron on linearly dependent hyperplanes") from None
    return out


def numbers(tol_rel) -> Numbers:
    """The switching law's numbers (:class:`switching.Numbers`) at the current gmpy2 precision: one = mpfr(1),
    tol = tol_rel gamma_j sum |terms|, the push floor the smallest positive mpfr, the solve :func:`num.solve`."""
    return Numbers(num.mpfr(1), tol_rel, gmpy2.next_above(num.mpfr(0)), _solve)


def project_out(w: list, X: list, K: list, rows: list) -> list:
    """w minus its orthogonal projection onto span{x_i : i in rows} (so <x_i, w> = 0 for i in
    rows). Modified Gram-Schmidt with re-orthogonalisation; dependent x_i (e.g. x_k = -x_i, the
    same hyperplane) are skipped, like a least-squares projection."""
    basis: list = []
    for i in rows:
        q = list(X[i])
        for _ in range(2):
            for b in basis:
                dp = num.dot(b, q)
                q = [qc - dp * bc for qc, bc in zip(q, b)]
        nrm = num.sqrt(num.dot(q, q))
        if nrm > num.ldexp(1, -num.prec() // 2) * num.sqrt(K[i][i]):
            basis.append([qc / nrm for qc in q])
    out = list(w)
    for _ in range(2):
        for b in basis:
            dp = num.dot(b, out)
            out = [oc - dp * bc for oc, bc in zip(out, b)]
    return out
