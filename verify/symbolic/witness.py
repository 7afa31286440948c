"""Exact re-checking of counterexample witnesses (called before any REFUTED is returned).

Two witness kinds:

* ``"substitution"``: the claim is ``expr REL 0`` (REL in ``>=, >, ==, <=``); the witness gives
  ``srepr`` (exact sympy form of ``expr``) and ``point`` (symbol name -> exact value string,
  each rational or algebraic). The expression is rebuilt from ``srepr``, the point substituted
  exactly, and the sign of the resulting constant decided by :func:`decide_sign`.
* ``"path"``: an explicit activation path ``[(k+, k-), ...]`` for ``(n+, n-)``; the checker
  re-validates the path conditions of the stated reading and compares ``T(P)`` with
  ``T(P_max) = H_{n-} + 1/2 + H_{n+ - 1}`` in exact rational arithmetic (units of
  ``4/(m sqrt(mu) X_min)``), source 004 App. C, EA-E5.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from verify.symbolic.enclose import decide_sign

_VIOLATED = {
    ">=": lambda s: s < 0,
    ">": lambda s: s <= 0,
    "==": lambda s: s != 0,
    "<=": lambda s: s > 0,
}


def substitution_witness(expr: sp.Expr, point: dict, relation: str = ">=", **extra) -> dict:
    """Build a substitution witness for the claim ``expr REL 0`` at the exact ``point``."""
    pt = {str(k): str(sp.sympify(v)) for k, v in point.items()}
    return {"kind": "substitution", "expr": str(expr), "srepr": sp.srepr(expr),
            "point": pt, "relation": relation, **extra}


def _harmonic(k: int) -> Fraction:
    return sum((Fraction(1, i) for i in range(1, k + 1)), Fraction(0))


def path_time(path: list[tuple[int, int]]) -> Fraction:
    """T(P) in units of 4/(m sqrt(mu) X_min): sum over non-terminal vertices of 1/(k+ + k-)."""
    return sum((Fraction(1, a + b) for a, b in path[:-1]), Fraction(0))


def max_path_time(n_plus: int, n_minus: int) -> Fraction:
    """T(P_max) = H_{n-} + 1/2 + H_{n+ - 1} (R13), in the same units; n+, n- >= 1."""
    return _harmonic(n_minus) + Fraction(1, 2) + _harmonic(n_plus - 1)


def path_violations(path: list[tuple[int, int]], n_plus: int, n_minus: int, reading: str) -> list[str]:
    """Conditions 1-4 of the path definition (EA-E5) that ``path`` violates under ``reading``.

    reading "monotone": k+ non-decreasing, k- non-increasing, consecutive entries distinct (R12).
    reading "literal": each step has k+ increasing or k- decreasing, and no vertex repeats.
    """
    bad = []
    if not path:
        return ["empty path"]
    for a, b in path:
        if not (0 <= a <= n_plus and 0 <= b <= n_minus):
            bad.append(f"condition 1 fails at {(a, b)}")
        if (a, b) == (0, 0):
            bad.append("condition 4 fails: (0, 0) visited")
    if tuple(path[-1]) != (n_plus, 0):
        bad.append("condition 3 fails: path does not end at (n+, 0)")
    for (a, b), (c, d) in zip(path, path[1:]):
        if (a, b) == (c, d):
            bad.append(f"repeated consecutive vertex {(a, b)}")
        if reading == "monotone" and not (c >= a and d <= b):
            bad.append(f"monotone condition 2 fails on step {(a, b)} -> {(c, d)}")
        if reading == "literal" and not (c > a or d < b):
            bad.append(f"either/or condition 2 fails on step {(a, b)} -> {(c, d)}")
    if reading == "literal" and len(set(map(tuple, path))) != len(path):
        bad.append("vertex repeated")
    return bad


def recheck_witness(witness: dict) -> tuple[bool, str]:
    """Re-check a witness by exact substitution; ``(True, detail)`` iff it violates the claim."""
    kind = witness.get("kind")
    if kind == "substitution":
        try:
            expr = sp.sympify(witness["srepr"])
        except (sp.SympifyError, SyntaxError, TypeError) as exc:
            return False, f"cannot rebuild expression: {exc}"
        subs = {}
        for sym in expr.free_symbols:
            if str(sym) not in witness["point"]:
                return False, f"no value for symbol {sym}"
            val = sp.sympify(witness["point"][str(sym)], rational=True)
            if not (val.is_rational or val.is_algebraic):
                return False, f"value {val} of {sym} is not rational or algebraic"
            subs[sym] = val
        value = expr.subs(subs)
        sign, detail = decide_sign(value)
        if sign is None:
            return False, f"sign undecided: {detail}"
        relation = witness.get("relation", ">=")
        if _VIOLATED[relation](sign):
            return True, f"expr = {sp.sstr(value)[:200]} has sign {sign} ({detail}); claim needs expr {relation} 0"
        return False, f"value has sign {sign}, which satisfies expr {relation} 0"
    if kind == "path":
        path = [tuple(v) for v in witness["path"]]
        n_plus, n_minus = witness["n_plus"], witness["n_minus"]
        bad = path_violations(path, n_plus, n_minus, witness["reading"])
        if bad:
            return False, "witness path is not admissible: " + "; ".join(bad)
        t_path, t_max = path_time(path), max_path_time(n_plus, n_minus)
        if t_path > t_max:
            return True, f"T(P) = {t_path} > T(P_max) = {t_max} (exact rationals, units 4/(m sqrt(mu) X_min))"
        return False, f"T(P) = {t_path} <= T(P_max) = {t_max}"
    return False, f"unknown witness kind {kind!r}"
