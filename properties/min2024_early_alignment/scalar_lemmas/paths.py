"""Encodings of the integer-indexed sheet-004 statements (S9, erratum 3 / P9, erratum 7)."""

from __future__ import annotations

import mpmath
import sympy as sp
from mpmath import iv

from verify.symbolic.integers import harmonic, harmonic_upper_bound_certificate, scan_integer_inequality
from verify.symbolic.enclose import decide_sign
from verify.symbolic.identities import normal_form_zero
from verify.symbolic.result import Claim, SymbolicResult, holds, proved, refuted, unknown
from verify.symbolic.witness import substitution_witness

from properties.min2024_early_alignment.scalar_lemmas.path_sums import (
    longest_literal_path, max_monotone_path, max_path_time, max_pmax_path, path_time, path_violations,
)

N = sp.Symbol("n", integer=True, positive=True)


def check_tpmax_formula(claim: Claim, n_max: int = 12) -> SymbolicResult:
    """S9 / R13: T(P_max) = H_{n-} + 1/2 + H_{n+ - 1} (units 4/(m sqrt(mu) X_min)), n+, n- >= 1."""
    npl, nmi = sp.symbols("n_plus n_minus", integer=True, positive=True)
    k = sp.Symbol("k", integer=True, positive=True)
    seg1 = sp.summation(1 / k, (k, 1, nmi))  # vertices (0, n-), ..., (0, 1)
    seg3 = sp.summation(1 / k, (k, 1, npl - 1))  # vertices (1, 0), ..., (n+ - 1, 0)
    total = seg1 + sp.Rational(1, 2) + seg3  # (1, 1) contributes 1/2; the terminal (n+, 0) nothing
    method = normal_form_zero(total - (sp.harmonic(nmi) + sp.Rational(1, 2) + sp.harmonic(npl - 1)))
    if method is None:
        return unknown(claim, f"sympy summation gave {total}, not the harmonic form")
    explicit = []
    for a in range(1, n_max + 1):
        for b in range(1, n_max + 1):
            path = max_pmax_path(a, b)
            bad = path_violations(path, a, b, "monotone")
            if bad or len(path) - 1 != a + b or path_time(path) != max_path_time(a, b):
                return unknown(claim, f"explicit P_max for (n+, n-) = {(a, b)} disagrees: {bad}")
            explicit.append((a, b))
    return proved(claim, {"method": "sympy summation over the three segments of P_max",
                          "segments": ["sum_{k=1}^{n-} 1/k", "1/(1+1)", "sum_{k=1}^{n+ - 1} 1/k"],
                          "summation": str(total), "normal_form": method,
                          "explicit_check": f"vertex list, conditions and length n checked exactly for n+, n- <= {n_max}"},
                  "the path is the concatenation of the three segments for every n+, n- >= 1")


def check_path_sum_bound(claim: Claim, sanity_n: int = 60) -> SymbolicResult:
    """S9: H_{n-} + 1/2 + H_{n+ - 1} <= 4 ln n for all n = n+ + n- >= 2 (n+, n- >= 1)."""
    hcert = harmonic_upper_bound_certificate()
    if hcert is None:
        return unknown(claim, "could not certify H_k <= 1 + ln k")
    sign, detail = decide_sign(sp.log(4) - sp.Rational(5, 4))
    if sign != 1:
        return unknown(claim, f"could not certify ln 4 > 5/4: {detail}")
    small = []
    for n in range(2, max(4, sanity_n + 1)):
        worst = max(harmonic(n - a) + sp.Rational(1, 2) + harmonic(a - 1) for a in range(1, n))
        s, d = decide_sign(4 * sp.log(n) - sp.Rational(worst.numerator, worst.denominator))
        if s != 1:
            return unknown(claim, f"exact check failed or undecided at n = {n}: {d}")
        if n <= 3:
            small.append({"n": n, "max over splits": str(worst), "4 ln n - max": d})
    return proved(claim, {
        "method": "harmonic bound + analytic tail + exact small cases",
        "harmonic_bound": hcert,
        "tail_n>=4": ("n-, n+ - 1 <= n - 1 and H increasing give LHS <= 2 H_{n-1} + 1/2 <= 2(1 + ln(n-1)) + 1/2 "
                      f"<= 5/2 + 2 ln n <= 4 ln n because ln n >= ln 4 > 5/4 ({detail})"),
        "cases_n=2,3": small,
        "sanity": f"all splits checked exactly with rigorous logs for 2 <= n <= {sanity_n}"},
        "proof for all n >= 2")


def check_hn_bound(claim: Claim) -> SymbolicResult:
    """S9: H_n <= 4 ln n for all n >= 2 (dead-path bound 4 H_{n_a} <= 16 ln n)."""
    hcert = harmonic_upper_bound_certificate()
    sign, detail = decide_sign(sp.log(2) - sp.Rational(1, 3))
    if hcert is None or sign != 1:
        return unknown(claim, "could not certify H_k <= 1 + ln k or ln 2 > 1/3")
    return proved(claim, {"method": "H_n <= 1 + ln n <= 4 ln n since ln n >= ln 2 > 1/3",
                          "harmonic_bound": hcert, "ln 2 > 1/3": detail}, "proof for all n >= 2")


def check_integer_claim(claim: Claim, expr: sp.Expr, lo: int, hi: int, expected_le: bool = True) -> SymbolicResult:
    """Scan ``expr(n) >= 0`` for lo <= n <= hi: REFUTED at the first violation, else HOLDS on the range."""
    first, notes = scan_integer_inequality(expr, N, lo, hi)
    if first is not None:
        return refuted(claim, substitution_witness(expr, {N: first}, ">="),
                       f"first violation at n = {first}: {notes[0]}")
    return holds(claim, {"checked": f"{lo} <= n <= {hi}", "notes": notes}, f"HOLDS on {lo} <= n <= {hi}")


def check_maxpath_monotone(claim: Claim, n_max: int = 12) -> SymbolicResult:
    """S9 / EA-E5: T(P) <= T(P_max) for every monotone path (R12), exhaustive DP for n+, n- <= n_max."""
    rows = []
    for a in range(1, n_max + 1):
        for b in range(1, n_max + 1):
            best, path = max_monotone_path(a, b)
            if best > max_path_time(a, b):
                return refuted(claim, {"kind": "path", "path": path, "n_plus": a, "n_minus": b,
                                       "reading": "monotone"}, f"DP path beats P_max at {(a, b)}")
            if best != max_path_time(a, b):
                return unknown(claim, f"DP max {best} < T(P_max) at {(a, b)}: P_max not attained?")
            rows.append(f"({a},{b}): {best}")
    return holds(claim, {"method": "exact DP (Fractions) over all monotone paths from every start",
                         "range": f"1 <= n+, n- <= {n_max}", "max equals T(P_max) for": rows},
                 f"HOLDS on n+, n- <= {n_max}: the max over all paths equals T(P_max) exactly")


def check_maxpath_literal(claim: Claim, n_max: int = 2) -> SymbolicResult:
    """S9 / erratum 6: under the literal either/or condition 2 some path beats T(P_max)."""
    for n in range(2, 2 * n_max + 1):
        for a in range(1, n):
            b = n - a
            if a > n_max or b > n_max:
                continue
            best, path = longest_literal_path(a, b)
            if best > max_path_time(a, b):
                wit = {"kind": "path", "path": [list(v) for v in path], "n_plus": a, "n_minus": b,
                       "reading": "literal", "T_path": str(best), "T_Pmax": str(max_path_time(a, b))}
                return refuted(claim, wit, f"(n+, n-) = {(a, b)}: literal path with T = {best} > {max_path_time(a, b)}")
    return unknown(claim, f"no literal path beats T(P_max) for n+, n- <= {n_max}")


def check_t1_n1(claim: Claim) -> SymbolicResult:
    """Erratum 3 / P9: for n = 1, t1 = 16 ln n/(m sqrt(mu) X_min) = 0 but a dead path takes positive time.

    Data x1 = (1, 0), y1 = -1, one V+ neuron w0 = (w1, w2) = (1, 1). In the eps -> 0 limit the
    direction obeys tan(phi/2) = tan(phi0/2) e^{-t} (k = ||x_a|| = 1, a_hat = (-1, 0)) and reaches
    S_dead when phi = pi/2, at t* = ln tan(phi0/2) = ln(w2/(||w0|| - w1)) = ln(1 + sqrt 2) > 0.
    """
    n, m, mu, xmin = sp.symbols("n m mu X_min", positive=True)
    w1, w2 = sp.symbols("w1 w2", real=True)
    t1 = 16 * sp.log(n) / (m * sp.sqrt(mu) * xmin)
    t_dead = sp.log(w2 / (sp.sqrt(w1 ** 2 + w2 ** 2) - w1))
    point = {n: 1, m: 1, mu: 1, xmin: 1, w1: 1, w2: 1}
    wit = substitution_witness(t1 - t_dead, point, ">=",
                               data="x1 = (1, 0), y1 = -1, n = 1, mu = 1; V+ neuron w(0) = eps (1, 1)",
                               at_t1="t1 = 0 and <x1, w(t1)> = <x1, w(0)> = eps > 0, so w(t1) is not in "
                                     "S_dead, nor in S+ (which equals S_dead when n+ = 0)",
                               limit_time_to_S_dead="ln(1 + sqrt(2)) ~ 0.8814",
                               dead_path_bound="4 H_1/(m sqrt(mu) X_min) = 4/m > 0 = t1")
    return refuted(claim, wit, "t1 = 0 at n = 1, but the dead path needs t* = ln(1 + sqrt 2) > 0")


def check_sqrt_sum(claim: Claim, n_max: int = 200) -> SymbolicResult:
    """Erratum 7: sum_{k<=n} k^{-1/2} <= 4 ln n for all n >= 2 is false; the smallest n is found exactly."""
    k = sp.Symbol("k", integer=True, positive=True)
    expr = 4 * sp.log(N) - sp.Sum(1 / sp.sqrt(k), (k, 1, N))
    first, notes = _scan_sqrt_sum(n_max)
    if first is None:
        return unknown(claim, f"no violation found for n <= {n_max}")
    wit = substitution_witness(expr, {N: first}, ">=", smallest_violation=first,
                               checked=f"sum <= 4 ln n certified for 2 <= n <= {first - 1}", notes=notes)
    return refuted(claim, wit, f"smallest n >= 2 with sum_(k<=n) 1/sqrt(k) > 4 ln n is n = {first}")


def _scan_sqrt_sum(n_max: int) -> tuple[int | None, list[str]]:
    """Rigorous cumulative scan (mpmath.iv at 120 bits) for the first n >= 2 with sum > 4 ln n."""
    saved = iv.prec
    iv.prec = 120
    try:
        total = iv.mpf(1)
        notes = []
        for n in range(2, n_max + 1):
            total = total + 1 / iv.sqrt(iv.mpf(n))
            bound = 4 * iv.log(iv.mpf(n))
            if total.a > bound.b:
                notes.append(f"n = {n}: sum >= {mpmath.nstr(mpmath.mpf(total.a), 15)} > "
                             f"{mpmath.nstr(mpmath.mpf(bound.b), 15)} >= 4 ln n (mpmath.iv, 120 bits)")
                return n, notes
            if not total.b < bound.a:
                raise ArithmeticError(f"undecided at n = {n}")
            if n == 100 or n == 2:
                notes.append(f"n = {n}: sum < 4 ln n certified")
        return None, notes
    finally:
        iv.prec = saved
