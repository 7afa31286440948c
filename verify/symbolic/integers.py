"""Integer-indexed statements: harmonic-sum bounds, scans over n, and activation-path sums.

* ``scan_integer_inequality``: exact/rigorous check of ``f(n) >= 0`` for n in a finite range;
  returns the first violation (a REFUTED witness) or the checked range (HOLDS only).
* ``harmonic_upper_bound_certificate``: H_k <= 1 + ln k for all k >= 1 (telescoping, using the
  proved inequality u/(1+u) <= log(1+u) at u = 1/k).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from verify.symbolic.enclose import decide_sign
from verify.symbolic.identities import normal_form_zero
from verify.symbolic.inequalities import sympy_monotone


def harmonic(k: int) -> Fraction:
    """H_k = sum_{i <= k} 1/i (H_0 = 0), exactly."""
    return sum((Fraction(1, i) for i in range(1, k + 1)), Fraction(0))


def scan_integer_inequality(expr: sp.Expr, n: sp.Symbol, lo: int, hi: int,
                            strict: bool = False) -> tuple[int | None, list[str]]:
    """First integer n in [lo, hi] with ``expr(n) < 0`` (``<= 0`` if strict), decided rigorously.

    Returns ``(first_violation_or_None, notes)``; raises if some sign cannot be decided.
    """
    notes = []
    for k in range(lo, hi + 1):
        sign, detail = decide_sign(sp.sympify(expr).subs(n, k))
        if sign is None:
            raise ArithmeticError(f"sign undecided at n = {k}: {detail}")
        if sign < 0 or (strict and sign == 0):
            return k, [f"n = {k}: {detail}"]
        if k in (lo, hi):
            notes.append(f"n = {k}: {detail}")
    return None, notes


def harmonic_upper_bound_certificate() -> dict | None:
    """Certificate for H_k <= 1 + ln k (k >= 1), or None if a step fails.

    Step 1 (sympy): f(u) = log(1+u) - u/(1+u) >= 0 on [0, oo) (derivative u/(1+u)^2, f(0) = 0).
    Step 2 (identity): at u = 1/k, u/(1+u) = 1/(k+1) and log(1+u) = ln(k+1) - ln k, so
    (H_{k+1} - ln(k+1)) - (H_k - ln k) = u/(1+u) - log(1+u) <= 0: H_k - ln k is nonincreasing,
    hence <= H_1 - ln 1 = 1.
    """
    u = sp.Symbol("u", real=True)
    step1 = sympy_monotone(sp.log(1 + u) - u / (1 + u), u, sp.Integer(0), sp.oo)
    k = sp.Symbol("k", positive=True)
    m1 = normal_form_zero((1 / k) / (1 + 1 / k) - 1 / (k + 1))
    m2 = normal_form_zero(sp.log(1 + 1 / k) - (sp.log(k + 1) - sp.log(k)))
    if step1 is None or m1 is None or m2 is None:
        return None
    return {"claim": "H_k <= 1 + ln k for every integer k >= 1",
            "step1": step1,
            "step2": {"identities": ["(1/k)/(1 + 1/k) = 1/(k+1)", "log(1 + 1/k) = ln(k+1) - ln k"],
                      "methods": [m1, m2]},
            "conclusion": "H_k - ln k is nonincreasing in k, so H_k - ln k <= H_1 - ln 1 = 1"}


__all__ = ["harmonic", "scan_integer_inequality", "harmonic_upper_bound_certificate"]
