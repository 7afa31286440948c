"""Decision procedure for algebraic / transcendental identities ``lhs == rhs``.

PROVED when a sympy normal form of ``lhs - rhs`` (expand, cancel, simplify, trigsimp, ...)
is exactly 0; the certificate records the difference and the method. Otherwise, when the
difference is a function of plain symbols only, deterministic rational points are tried and a
point where the difference is certifiably nonzero becomes a REFUTED witness (re-checked
exactly). Anything else is UNKNOWN.
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

import sympy as sp
from sympy.core.function import AppliedUndef

from verify.symbolic.enclose import decide_sign
from verify.symbolic.result import Claim, SymbolicResult, proved, refuted, unknown
from verify.symbolic.witness import substitution_witness

_METHODS: list[tuple[str, Callable[[sp.Expr], sp.Expr]]] = [
    ("expand", sp.expand),
    ("cancel", lambda e: sp.cancel(sp.together(e))),
    ("expand_log+powsimp", lambda e: sp.simplify(sp.powsimp(sp.expand_log(sp.expand(e), force=True), force=True))),
    ("simplify", sp.simplify),
    ("trigsimp(expand_trig)", lambda e: sp.trigsimp(sp.simplify(sp.expand_trig(e)))),
]


def normal_form_zero(difference: sp.Expr) -> str | None:
    """Name of the first sympy method that reduces ``difference`` to exactly 0, else None."""
    for name, method in _METHODS:
        if method(difference) == 0:
            return name
    return None


def _sample_value(sym: sp.Symbol, rng: random.Random) -> sp.Rational:
    num, den = rng.randint(1, 9), rng.randint(1, 4)
    value = sp.Rational(num, den)
    if sym.is_positive or sym.is_nonnegative:
        return value
    return value if rng.random() < 0.5 else -value


def find_nonzero_point(difference: sp.Expr, tries: int = 40, seed: int = 0,
                       condition: Callable[[dict], bool] | None = None) -> tuple[dict, str] | None:
    """A rational point where ``difference`` is certifiably nonzero (plain symbols only)."""
    if difference.atoms(AppliedUndef, sp.Derivative):
        return None
    syms = sorted(difference.free_symbols, key=str)
    rng = random.Random(seed)
    for _ in range(tries):
        point = {s: _sample_value(s, rng) for s in syms}
        if condition is not None and not condition(point):
            continue
        try:
            value = difference.subs(point)
        except (ZeroDivisionError, TypeError):
            continue
        if value.has(sp.zoo, sp.nan, sp.oo):
            continue
        sign, detail = decide_sign(value)
        if sign not in (None, 0):
            return point, detail
    return None


def prove_identity(claim: Claim, lhs: sp.Expr | Sequence[sp.Expr], rhs: sp.Expr | Sequence[sp.Expr],
                   condition: Callable[[dict], bool] | None = None,
                   note: str = "") -> SymbolicResult:
    """Decide ``lhs == rhs`` (componentwise for sequences) by simplification to 0.

    ``condition`` restricts refutation points to the claim's domain (symbol assumptions are
    always respected). ``note`` is added to the certificate (e.g. why the encoding covers the
    whole domain).
    """
    lhs_l = list(lhs) if isinstance(lhs, (list, tuple)) else [lhs]
    rhs_l = list(rhs) if isinstance(rhs, (list, tuple)) else [rhs]
    if len(lhs_l) != len(rhs_l):
        raise ValueError("lhs and rhs have different lengths")
    parts = []
    for k, (a, b) in enumerate(zip(lhs_l, rhs_l)):
        diff = sp.sympify(a) - sp.sympify(b)
        method = normal_form_zero(diff)
        if method is None:
            found = find_nonzero_point(diff, condition=condition)
            if found is not None:
                point, detail = found
                wit = substitution_witness(diff, point, "==", component=k)
                return refuted(claim, wit, f"component {k}: lhs - rhs is nonzero at {point} ({detail})")
            return unknown(claim, f"component {k}: lhs - rhs = {sp.sstr(diff)[:300]} did not simplify to 0 "
                                  "and no rational point with a certified nonzero value was found")
        parts.append({"component": k, "difference": sp.sstr(diff)[:2000], "simplified": "0", "method": method})
    cert = {"method": "sympy normal form of lhs - rhs is 0", "components": parts}
    if note:
        cert["note"] = note
    return proved(claim, cert, f"{len(parts)} component(s) simplify to 0")
