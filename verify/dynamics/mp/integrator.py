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
"""

from __future__ import annotations

import math

from verify.dynamics.mp.num import INF, mpfr


def default_order(digits: int) -> int:
    """N = ceil(1.15 D) + 1 (Jorba-Zou), at least 8."""
    return max(8, int(math.ceil(1.151 * digits)) + 1)


def coefficient_sizes(comps: list, scales: list, k: int):
    """a_k = max_c |z_{c,k}| / scale_c."""
    return max((abs(z[k]) / s for z, s in zip(comps, scales)), default=mpfr(0))


def step_size(comps: list, scales: list, tol):
    """Largest h with both of the last two terms below tol (inf if the series is a polynomial of lower degree)."""
    N = len(comps[0]) - 1
    h = INF
    for k in (N - 1, N):
        if k < 1:
            continue
        a = coefficient_sizes(comps, scales, k)
        if a > 0:
            h = min(h, (tol / a) ** (mpfr(1) / k))
    return h


def tail_error(comps: list, scales: list, h):
    """Local truncation-error estimate (relative) of a step of length h: max of the last two terms."""
    N = len(comps[0]) - 1
    out = mpfr(0)
    for k in (N - 1, N):
        if k >= 1:
            out = max(out, coefficient_sizes(comps, scales, k) * abs(h) ** k)
    return out


def evaluate(comps: list, tau) -> list:
    """State at t0 + tau: Horner on every component."""
    out = []
    for c in comps:
        acc = 0 * tau
        for ck in reversed(c):
            acc = acc * tau + ck
        out.append(acc)
    return out
