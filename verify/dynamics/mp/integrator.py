"""Order and step-size control of the Taylor method from the series' own tail.

Order (Jorba and Zou 2005): for a relative tolerance tol = 10^-D the cost-optimal order is
about N = -ln(tol)/2 + 1 = 1.15 D + 1; :func:`default_order` uses that (at least 8).

Step size: with a_k = max over components |z_k| / scale(component) (scale: the neuron's
||(w_j, v_j)|| at the step start in Cartesian form, relative accuracy per neuron; 1 in polar
form, absolute accuracy in ln||w_j|| and u_j, whatever eps), the step is

    h = min( (tol / a_{N-1})^(1/(N-1)), (tol / a_N)^(1/N) ),

so that the last two terms of the series are both below tol (two terms, so that an odd or
even function with a vanishing last coefficient cannot fake a converged tail). The local
error estimate of a step of length h' <= h is the larger of those two terms at h'
(:func:`tail_error`); the driver sums them over the steps ("tail" estimate). Because the
terms decay geometrically at this h (ratio about e^-2 at the optimal order), the neglected
remainder is below the last term.

Mixed precision (:func:`mp_orders`): on a step of length h the coefficients of order k >= K
are taken from a float64 run of the same recurrence when rho sum_{k >= K} a_k h^k <= tol,
rho being a bound on their relative error (float64 rounding amplified by the recurrence:
measured on the orders computed both ways, times a safety factor, never below 1e-13).
Event-limited steps are short, so K is small there (4 to 6 at 30 digits on steps of 1e-5).
Of the orders below K, those from K_mp on come from a double-double run of the recurrence
(:mod:`series_dd`) when rho_dd sum_{k >= K_mp} a_k h^k <= tol, rho_dd bounding its relative
error the same way (measured on orders 2..K_mp-1, K_mp >= 3, never below DD_REL_FLOOR nor DD_PER_F64 rho):
at 30 digits about 5 mpfr orders instead of about 19.
"""

from __future__ import annotations

import math

import numpy as np

from verify.dynamics.mp.num import INF, ONE, mpfr

F64_REL_FLOOR = 1e-13  # least relative error assumed for float64 coefficients
F64_SAFETY = 100.0  # factor on the measured float64 (and double-double) error
DD_REL_FLOOR = 1e-28  # least relative error assumed for double-double coefficients (unit roundoff 1.2e-32)
DD_PER_F64 = 2.0**-50  # double-double error >= the float64 bound rho times this (unit roundoffs 2^-106 / 2^-53, x 8)
DD_FIRST_MEASURED = 2  # the first double-double order (1 is the seed's), always also computed in mpfr and compared


def default_order(digits: int) -> int:
    """N = ceil(1.15 D) + 1 (Jorba-Zou), at least 8."""
    return max(8, int(math.ceil(1.151 * digits)) + 1)


def coefficient_sizes(A: np.ndarray, b: np.ndarray, scale: np.ndarray) -> list:
    """a_k = max over components |z_k| / scale (A (N+1, m, d), b (N+1, m), scale (m,)), as mpfr."""
    if A.shape[1] == 0:
        return [mpfr(0)] * A.shape[0]
    sa = (abs(A) / scale[None, :, None]).max(axis=(1, 2))
    sb = (abs(b) / scale[None, :]).max(axis=1)
    return [ONE * max(x, y) for x, y in zip(sa.tolist(), sb.tolist())]


def step_size(a: list, tol) -> "mpfr":
    """Largest h with both of the last two terms below tol (inf if the series is a polynomial of lower degree)."""
    N = len(a) - 1
    h = INF
    for k in (N - 1, N):
        if k >= 1 and a[k] > 0:
            h = min(h, (tol / a[k]) ** (mpfr(1) / k))
    return h


def tail_error(t: list) -> "mpfr":
    """Local truncation-error estimate (relative) of a step, from its :func:`terms` t_k = a_k h^k: the larger of
    the last two terms."""
    N = len(t) - 1
    out = mpfr(0)
    for k in (N - 1, N):
        if k >= 1:
            out = max(out, t[k])
    return out


def terms(a: list, h) -> list:
    """The series' terms a_k h^k on a step of length h >= 0 (mpfr), shared by :func:`tail_error`, :func:`tier_bound`
    and :func:`mp_orders`."""
    return [ak * h**k for k, ak in enumerate(a)]


def tier_bound(t: list, start: int, stop: int, rho: float) -> "mpfr":
    """Error bound of the orders start..stop-1 computed in a cheaper arithmetic with relative error rho, given the
    step's :func:`terms` t_k = a_k h^k: rho sum_{start <= k < stop} t_k (float64: start K, stop N + 1; double-double:
    K_mp, K)."""
    return ONE * rho * sum(t[start:stop], mpfr(0))


def mp_orders(t: list, rho: float, tol) -> int:
    """Smallest K >= 2 with rho sum_{k >= K} t_k <= tol, t_k = a_k h^k the step's :func:`terms` (len(t) when none:
    all orders in mp)."""
    N = len(t) - 1
    acc = mpfr(0)
    r = ONE * rho
    K = N + 1
    for k in range(N, 1, -1):
        acc += t[k]
        if r * acc > tol:
            break
        K = k
    return K
