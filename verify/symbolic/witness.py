"""Exact re-checking of counterexample witnesses (called before any REFUTED is returned).

Witness kinds:

* ``"substitution"``: the claim is ``expr REL 0`` (REL in ``>=, >, ==, <=``); the witness gives
  ``srepr`` (exact sympy form of ``expr``) and ``point`` (symbol name -> exact value string,
  each rational or algebraic). The expression is rebuilt from ``srepr``, the point substituted
  exactly, and the sign of the resulting constant decided by :func:`decide_sign`.
* any kind a paper registers with :func:`register_witness_kind` (its own exact check).
"""

from __future__ import annotations

from typing import Callable

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


WitnessChecker = Callable[[dict], tuple[bool, str]]
_CHECKERS: dict[str, WitnessChecker] = {}


def register_witness_kind(kind: str, check: WitnessChecker) -> None:
    """Let a paper add a witness kind (e.g. an activation path): ``check(witness) -> (violates, detail)``,
    exact like the substitution check. A kind registered twice with different checks is an error."""
    if kind == "substitution" or _CHECKERS.get(kind, check) is not check:
        raise ValueError(f"witness kind {kind!r} is already registered")
    _CHECKERS[kind] = check


def recheck_witness(witness: dict) -> tuple[bool, str]:
    """Re-check a witness by exact substitution; ``(True, detail)`` iff it violates the claim."""
    kind = witness.get("kind")
    if kind == "substitution":
        try:
            expr = sp.sympify(witness["srepr"])
        except (sp.SympifyError, SyntaxError, TypeError) as exc:
            return False, f"cannot rebuild expression: {exc}"
        subs = {}
        for sym in sorted(expr.free_symbols, key=str):  # by name: the same first missing symbol every run
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
    if kind in _CHECKERS:
        return _CHECKERS[kind](witness)
    return False, f"unknown witness kind {kind!r}"
