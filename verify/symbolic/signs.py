"""Sign certificates for polynomial / algebraic expressions in nonnegative parameters.

``prove_nonneg_symbolic`` reparametrises the domain by nonnegative symbols (e.g.
``h = a + d + s`` with ``s >= 0``), expands, and asks sympy's assumption system whether the
result is nonnegative (sums and products of nonnegative terms). If sympy says the expression
can be negative, rational points with nonnegative parameters are searched for a witness.
"""

from __future__ import annotations

import random

import sympy as sp

from verify.symbolic.enclose import decide_sign
from verify.symbolic.result import Claim, SymbolicResult, proved, refuted, unknown
from verify.symbolic.witness import substitution_witness


def prove_nonneg_symbolic(claim: Claim, expr: sp.Expr, substitution: dict | None = None,
                          strict: bool = False, note: str = "",
                          candidates: list[dict] = ()) -> SymbolicResult:
    """Decide ``expr >= 0`` (``> 0``) over the symbols' sympy assumptions (after ``substitution``).

    ``candidates``: exact points inside the claim's domain tried first as witnesses.
    """
    substitution = substitution or {}
    relation = ">" if strict else ">="
    for point in candidates:
        sign, detail = decide_sign(sp.sympify(expr).subs(point))
        if sign is not None and (sign < 0 or (strict and sign == 0)):
            return refuted(claim, substitution_witness(expr, point, relation), f"violated at {point}: {detail}")
    reparam = sp.sympify(expr).subs(substitution)
    free = reparam.free_symbols
    bad = [s for s in free if not s.is_real]
    if bad:
        return unknown(claim, f"symbols not declared real: {sorted(map(str, bad))}")
    forms = (("expand", lambda e: sp.expand(e)), ("factor", sp.factor),
             ("expand_log", lambda e: sp.expand(sp.expand_log(e, force=True))),
             ("together", lambda e: sp.together(sp.expand(e))), ("simplify", sp.simplify))
    for name, method in forms:
        form = method(reparam)
        ok = form.is_positive if strict else form.is_nonnegative
        if ok:
            cert = {"method": f"sympy assumptions on the {name}ed form (declared symbol signs)",
                    "expression": str(expr), "substitution": {str(k): str(v) for k, v in substitution.items()},
                    "normal_form": sp.sstr(form)[:2000]}
            if note:
                cert["note"] = note
            return proved(claim, cert, f"{name}ed form is a sum/product of nonnegative terms")
    rng = random.Random(0)
    syms = sorted(free, key=str)
    for _ in range(60):
        point = {s: sp.Rational(rng.randint(0, 9), rng.randint(1, 4)) for s in syms}
        point = {s: (v if s.is_nonnegative or rng.random() < 0.5 else -v) for s, v in point.items()}
        if any(s.is_positive and v == 0 for s, v in point.items()):
            continue
        sign, detail = decide_sign(reparam.subs(point))
        if sign is not None and (sign < 0 or (strict and sign == 0)):
            wit = substitution_witness(reparam, point, ">" if strict else ">=",
                                       substitution={str(k): str(v) for k, v in substitution.items()})
            return refuted(claim, wit, f"negative at {point}: {detail}")
    return unknown(claim, "sympy could not certify the sign and no negative rational point was found")
