"""Taylor-mode arithmetic on truncated power series, one scalar series at a time.

A series is a Python list ``a`` of mpf with ``a[k]`` the coefficient of (t - t0)^k. The
solvers build series *order by order* (coefficient k of every intermediate quantity from the
coefficients 0..k of the state), so every primitive here is the "append coefficient k" step
of a classical recurrence (Moore; Jorba and Zou, Exp. Math. 14 (2005)):

    product     c = a b          c_k = sum_{m=0}^k a_m b_{k-m}
    exponential e = exp(a)       e_0 = exp(a_0),   e_k = (1/k) sum_{m=1}^k m a_m e_{k-m}
    reciprocal  q = 1/b          q_0 = 1/b_0,      q_k = -q_0 sum_{m=1}^k b_m q_{k-m}

:mod:`series` runs the same recurrences on whole arrays (all neurons and data points at once).
Polynomial helpers: Horner evaluation (value and derivative), Taylor shift/rescale of a
polynomial to a sub-interval, and the coefficient bound used for root exclusion.
The functions are generic in the number type: the solver calls them on gmpy2 mpfr (at the
gmpy2 context precision, :mod:`num`), and they work on mpmath mpf too (at mpmath's).
"""

from __future__ import annotations

from operator import mul
from typing import Sequence

import gmpy2
import mpmath


_MPFR = type(gmpy2.mpfr(0))
_fsum = gmpy2.fsum  # correctly rounded, and faster than sum() from Python


def _exp(x):
    return gmpy2.exp(x) if isinstance(x, _MPFR) else mpmath.exp(x)


def cauchy(a: Sequence, b: Sequence, k: int):
    """Coefficient k of the product a b (needs a[0..k], b[0..k])."""
    if k == 0:
        return a[0] * b[0]
    if isinstance(a[0], _MPFR) and isinstance(b[0], _MPFR):
        return _fsum(map(mul, a[: k + 1], b[k::-1]))
    return sum(map(mul, a[: k + 1], b[k::-1]))


def exp_coeff(a: Sequence, e: list, k: int):
    """Coefficient k of exp(a); ``e`` holds e[0..k-1] (needs a[0..k])."""
    if k == 0:
        return _exp(a[0])
    terms = (m * a[m] * e[k - m] for m in range(1, k + 1))
    s = _fsum(terms) if isinstance(e[0], _MPFR) else sum(terms)
    return s / k


def recip_coeff(b: Sequence, q: list, k: int):
    """Coefficient k of 1/b; ``q`` holds q[0..k-1] (needs b[0..k], b[0] != 0)."""
    if k == 0:
        return 1 / b[0]
    terms = map(mul, b[1 : k + 1], q[k - 1 :: -1])
    return -q[0] * (_fsum(terms) if isinstance(q[0], _MPFR) else sum(terms))


def horner(c: Sequence, x):
    """p(x) = sum_k c_k x^k."""
    acc = 0 * x
    for ck in reversed(c):
        acc = acc * x + ck
    return acc


def horner_d(c: Sequence, x) -> tuple:
    """(p(x), p'(x))."""
    p = 0 * x
    dp = 0 * x
    for ck in reversed(c):
        dp = dp * x + p
        p = p * x + ck
    return p, dp


def shift(c: Sequence, a, w) -> list:
    """Coefficients of q(s) = p(a + w s) (Taylor shift to a, then rescale by w); O(N^2)."""
    q = list(c)
    n = len(q)
    if a != 0:
        for i in range(n - 1):
            for k in range(n - 2, i - 1, -1):
                q[k] = q[k] + a * q[k + 1]
    if w != 1:
        p = 1
        for k in range(n):
            q[k] = q[k] * p
            p = p * w
    return q


def tail_sum(c: Sequence, start: int = 1):
    """sum_{k >= start} |c_k| (bound on |p(x) - sum_{k<start} c_k x^k| for |x| <= 1)."""
    return sum(map(abs, c[start:])) + 0 * c[0]


def deriv_tail(c: Sequence):
    """sum_{k >= 2} k |c_k|: bound on |p'(x) - c_1| for |x| <= 1."""
    return sum(k * abs(c[k]) for k in range(2, len(c))) + 0 * c[0]
