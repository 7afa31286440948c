"""Integer-indexed statements: harmonic-sum bounds, scans over n, and activation-path sums.

* ``scan_integer_inequality``: exact/rigorous check of ``f(n) >= 0`` for n in a finite range;
  returns the first violation (a REFUTED witness) or the checked range (HOLDS only).
* ``harmonic_upper_bound_certificate``: H_k <= 1 + ln k for all k >= 1 (telescoping, using the
  proved inequality u/(1+u) <= log(1+u) at u = 1/k).
* Path sums (004 App. C, EA-E5, R12, R13): exhaustive DP over monotone paths, and a search
  over simple paths under the literal either/or reading.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import sympy as sp

from verify.symbolic.enclose import decide_sign
from verify.symbolic.identities import normal_form_zero
from verify.symbolic.inequalities import sympy_monotone
from verify.symbolic.witness import max_path_time, path_time, path_violations


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


def monotone_successors(v: tuple[int, int], n_plus: int, n_minus: int) -> list[tuple[int, int]]:
    """Next vertices under R12: k+ non-decreasing, k- non-increasing, distinct, never (0, 0)."""
    a, b = v
    return [(c, d) for c in range(a, n_plus + 1) for d in range(0, b + 1)
            if (c, d) != (a, b) and (c, d) != (0, 0)]


def max_monotone_path(n_plus: int, n_minus: int) -> tuple[Fraction, list[tuple[int, int]]]:
    """Exact max of T(P) over all monotone paths (any start) and a maximising path (DP)."""
    goal = (n_plus, 0)

    @lru_cache(maxsize=None)
    def best(v: tuple[int, int]) -> tuple[Fraction, tuple]:
        if v == goal:
            return Fraction(0), (v,)
        options = [best(w) for w in monotone_successors(v, n_plus, n_minus)]
        if not options:
            return Fraction(-1), ()
        t, path = max(options, key=lambda o: o[0])
        return Fraction(1, v[0] + v[1]) + t, (v,) + path

    starts = [(a, b) for a in range(n_plus + 1) for b in range(n_minus + 1) if (a, b) != (0, 0)]
    t, path = max((best(s) for s in starts), key=lambda o: o[0])
    best.cache_clear()
    return t, list(path)


def max_pmax_path(n_plus: int, n_minus: int) -> list[tuple[int, int]]:
    """P_max of EA-E5: (0,n-), ..., (0,1), (1,1), (1,0), (2,0), ..., (n+, 0) (n+, n- >= 1)."""
    return ([(0, b) for b in range(n_minus, 0, -1)] + [(1, 1)] + [(a, 0) for a in range(1, n_plus + 1)])


def longest_literal_path(n_plus: int, n_minus: int, node_limit: int = 200000) -> tuple[Fraction, list]:
    """Max T(P) over simple paths whose steps have k+ increasing or k- decreasing (literal reading)."""
    verts = [(a, b) for a in range(n_plus + 1) for b in range(n_minus + 1) if (a, b) != (0, 0)]
    goal = (n_plus, 0)
    best: list = [Fraction(-1), []]
    visited = 0

    def dfs(path: list, seen: set, total: Fraction) -> None:
        nonlocal visited
        visited += 1
        if visited > node_limit:
            raise RuntimeError("node budget exhausted")
        v = path[-1]
        if v == goal:
            if total > best[0]:
                best[0], best[1] = total, list(path)
            return
        for w in verts:
            if w not in seen and (w[0] > v[0] or w[1] < v[1]):
                seen.add(w)
                path.append(w)
                dfs(path, seen, total + Fraction(1, v[0] + v[1]))
                path.pop()
                seen.discard(w)

    for s in verts:
        dfs([s], {s}, Fraction(0))
    return best[0], best[1]


def check_path(path: list[tuple[int, int]], n_plus: int, n_minus: int, reading: str) -> list[str]:
    """Violated path conditions (delegates to the witness checker)."""
    return path_violations(path, n_plus, n_minus, reading)


__all__ = ["harmonic", "scan_integer_inequality", "harmonic_upper_bound_certificate",
           "monotone_successors", "max_monotone_path", "max_pmax_path", "longest_literal_path",
           "check_path", "path_time", "max_path_time"]
