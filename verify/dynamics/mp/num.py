"""The number kernel of the mp backend: gmpy2 ``mpfr`` inside, mpmath ``mpf`` outside.

The solver's inner loops (series recurrences, polynomial root search) run on gmpy2 mpfr
numbers, which are 5-20x cheaper per operation from Python than mpmath mpf (no context
dispatch), at the same binary precision; mpmath's own backend here is gmpy. Arrays of them are
numpy object arrays, whose elementwise loops and reductions run in C (``vec``, ``vexp``, ...). Conversions in
both directions are exact (mantissa/exponent copies). Precision is a gmpy2 *local* context
(:func:`context`), entered by the driver together with ``mpmath.workdps``: neither global
context is changed. Exponent range: +-2^30 bits (eps down to about 10^-(3 10^8)).
"""

from __future__ import annotations

import contextlib
from operator import mul

import gmpy2
import mpmath
import numpy as np
from mpmath.libmp import from_man_exp

mpfr = gmpy2.mpfr
exp = gmpy2.exp
log = gmpy2.log
sqrt = gmpy2.sqrt
INF = gmpy2.inf()
ONE = mpfr(1)  # ONE * x: the float (or mpfr) x as an mpfr at the context precision, as mpfr(x), at a tenth of its cost

# elementwise on numpy object arrays (the gmpy2 context precision applies)
_vfr = np.frompyfunc(mpfr, 1, 1)
vexp = np.frompyfunc(gmpy2.exp, 1, 1)
vsqrt = np.frompyfunc(gmpy2.sqrt, 1, 1)
vldexp = np.frompyfunc(gmpy2.mul_2exp, 2, 1)
vexponent = np.frompyfunc(gmpy2.get_exp, 1, 1)


def prec_of_dps(dps: int) -> int:
    return int(mpmath.libmp.dps_to_prec(dps))


@contextlib.contextmanager
def context(prec: int):
    """gmpy2 local context with ``prec`` bits (round to nearest, wide exponent range)."""
    ctx = gmpy2.context(gmpy2.get_context(), precision=prec, emax=gmpy2.get_emax_max(), emin=gmpy2.get_emin_min())
    with ctx:
        yield


def prec() -> int:
    return gmpy2.get_context().precision


def fr(x) -> "gmpy2.mpfr":
    """mpf (or int/float) -> mpfr, exact when the context precision holds the mantissa."""
    if isinstance(x, mpmath.mpf):
        sign, man, e, _bc = x._mpf_
        if not man:
            return mpfr(0)
        v = gmpy2.mul_2exp(mpfr(man), e)
        return -v if sign else v
    return mpfr(x)


def mp(x) -> mpmath.mpf:
    """mpfr -> mpf, exact."""
    if not gmpy2.is_finite(x):
        return mpmath.mpf(float(x))
    if x == 0:
        return mpmath.mpf(0)
    man, e = x.as_mantissa_exp()
    return mpmath.mp.make_mpf(from_man_exp(int(man), int(e)))


def vec(a) -> np.ndarray:
    """Object array of mpfr from an array-like of numbers (floats convert exactly)."""
    out = np.empty(np.shape(a), dtype=object)
    out[...] = _vfr(np.asarray(a, dtype=object))
    return out


def pow2(e: np.ndarray) -> np.ndarray:
    """2^e elementwise (mpfr, exact): x * pow2(e) is vldexp(x, e), exact, with one call of gmpy2's ldexp per power
    instead of per entry."""
    return vldexp(np.full(e.shape, ONE, dtype=object), e)


def dot(a, b):
    """sum_i a_i b_i, correctly rounded (gmpy2.fsum; all entries mpfr or int)."""
    return gmpy2.fsum(map(mul, a, b))


def ldexp(x, n: int):
    return gmpy2.mul_2exp(mpfr(x), n)


def solve(A: list, b: list) -> list:
    """Solve the small dense system A x = b (Gaussian elimination, partial pivoting).

    Raises ZeroDivisionError when A is numerically singular."""
    n = len(b)
    M = [list(row) + [b[i]] for i, row in enumerate(A)]
    scale = max((abs(v) for row in A for v in row), default=mpfr(0))
    tiny = ldexp(scale, -(prec() - 8)) if scale > 0 else mpfr(0)
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        if abs(M[p][c]) <= tiny:
            raise ZeroDivisionError("matrix is numerically singular")
        M[c], M[p] = M[p], M[c]
        piv = M[c][c]
        for r in range(c + 1, n):
            f = M[r][c] / piv
            if f:
                M[r] = [x - f * y for x, y in zip(M[r], M[c])]
    x = [mpfr(0)] * n
    for r in range(n - 1, -1, -1):
        x[r] = (M[r][n] - sum(M[r][k] * x[k] for k in range(r + 1, n))) / M[r][r]
    return x
