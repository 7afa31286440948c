"""First root of a float64 polynomial on [0, 1] (compiled): the float64 Taylor engine's event search.

:func:`first_root` follows :func:`verify.dynamics.mp.events.first_root` in float64: on an interval (the whole step
first, x in [0, 1]) with coefficients q_k,

1. exclusion: |q_0| > sum_{k>=1} |q_k| means no root there (or, with q_0 < 0, the polynomial is negative from its
   left end);
2. monotone: |q_1| > sum_{k>=2} k |q_k| means one root at most, present iff the end values change sign, located by
   regula falsi (Illinois);
3. otherwise the interval is split in two (Taylor shift, O(N^2)) and the left half searched first. An interval
   narrower than MIN_WIDTH that passes neither test holds a double root: a sign change there is located by
   bisection, a touch without one (grazing) is passed over.
"""

from __future__ import annotations

import numba
import numpy as np

MIN_WIDTH = 2.0**-26  # narrower intervals that pass no test hold a double root (half of float64's bits)
MAX_INTERVALS = 4096  # search budget per polynomial
ROOT_ITERATIONS = 100  # regula falsi steps at most


@numba.njit(cache=True)
def horner(c: np.ndarray, n: int, x: float) -> float:
    """sum_{k < n} c_k x^k."""
    acc = 0.0
    for k in range(n - 1, -1, -1):
        acc = acc * x + c[k]
    return acc


@numba.njit(cache=True)
def _shift_into(out: np.ndarray, c: np.ndarray, n: int, a: float, w: float) -> None:
    """out[:n] = coefficients of q(s) = p(a + w s) (Taylor shift to a, then rescale by w)."""
    for k in range(n):
        out[k] = c[k]
    if a != 0.0:
        for i in range(n - 1):
            for k in range(n - 2, i - 1, -1):
                out[k] += a * out[k + 1]
    scale = 1.0
    for k in range(n):
        out[k] *= scale
        scale *= w


@numba.njit(cache=True)
def _illinois(q: np.ndarray, n: int) -> float:
    """A point x in (0, 1] with q(x) < 0 within 4e-16 of the root of a monotone polynomial with q(0) >= 0 > q(1), or
    the root itself (regula falsi with the Illinois halving of the stale end's value)."""
    a, b = 0.0, 1.0
    fa, fb = q[0], horner(q, n, 1.0)
    kept = 0  # the end kept by the last step: -1 a, +1 b
    for _ in range(ROOT_ITERATIONS):
        x = (a * fb - b * fa) / (fb - fa)
        if not a < x < b:
            x = 0.5 * (a + b)
        fx = horner(q, n, x)
        if fx == 0.0:
            return x
        if fx > 0.0:
            a, fa = x, fx
            if kept == 1:
                fb *= 0.5
            kept = 1
        else:
            b, fb = x, fx
            if kept == -1:
                fa *= 0.5
            kept = -1
        if b - a <= 4e-16:
            break
    return b


@numba.njit(cache=True)
def first_root(c: np.ndarray, n: int) -> float:
    """First x in [0, 1] where sum_{k < n} c_k x^k turns negative, or inf (module docstring)."""
    nonzero = False
    for k in range(n):
        nonzero = nonzero or c[k] != 0.0
    if not nonzero:
        return np.inf
    stack_a = np.empty(64)
    stack_w = np.empty(64)
    stack_q = np.empty((64, n))
    stack_a[0], stack_w[0] = 0.0, 1.0
    stack_q[0, :n] = c[:n]
    top = 1
    budget = MAX_INTERVALS
    while top > 0:
        top -= 1
        a, w = stack_a[top], stack_w[top]
        qq = stack_q[top]
        budget -= 1
        if budget < 0:
            return np.inf
        rest, drest = 0.0, 0.0
        for k in range(1, n):
            rest += abs(qq[k])
            if k >= 2:
                drest += k * abs(qq[k])
        if abs(qq[0]) > rest:
            if qq[0] > 0.0:
                continue
            return a
        if n < 2 or abs(qq[1]) > drest:
            if qq[0] < 0.0:
                return a
            if horner(qq, n, 1.0) < 0.0:
                return a + w * _illinois(qq, n)
            continue
        if w < MIN_WIDTH or top + 2 > stack_a.size:
            if horner(qq, n, 1.0) < 0.0:
                if qq[0] < 0.0:
                    return a
                lo, hi = 0.0, 1.0
                for _ in range(60):
                    mid = 0.5 * (lo + hi)
                    if horner(qq, n, mid) < 0.0:
                        hi = mid
                    else:
                        lo = mid
                return a + w * hi
            continue
        _shift_into(stack_q[top + 1], qq, n, 0.0, 0.5)
        _shift_into(stack_q[top], qq, n, 0.5, 0.5)  # the right half first onto the stack, the left half above it
        stack_a[top], stack_w[top] = a + 0.5 * w, 0.5 * w
        stack_a[top + 1], stack_w[top + 1] = a, 0.5 * w
        top += 2
    return np.inf
