"""Decision procedure for real inequalities ``target >= 0`` (or ``> 0``) over boxes.

A claim is split by the encoder into *pieces* (smooth expressions on boxes whose conjunction
is equivalent to the claim, e.g. ``|A| <= B`` as ``B - A >= 0`` and ``B + A >= 0``, and a
domain split at 0 so that ``|x|`` is ``x`` or ``-x``). Each piece is decided first by a sympy
derivative-sign argument (rational derivative, sign set computed by
``solve_univariate_inequality``), otherwise by interval branch-and-bound
(:func:`verify.symbolic.intervals.prove_nonneg`). A counterexample is mapped back to the
original variables and re-checked exactly on the ORIGINAL target before REFUTED is returned.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from verify.symbolic.enclose import EnclosureError, decide_sign, enclose
from verify.symbolic.intervals import prove_nonneg
from verify.symbolic.result import Claim, SymbolicResult, proved, refuted, unknown
from verify.symbolic.witness import substitution_witness


@dataclass
class Piece:
    """``expr >= 0`` on ``box``; ``back`` maps each original symbol to an expression in the
    piece's symbols (or a constant), so a piece counterexample becomes an original one."""

    expr: sp.Expr
    box: dict
    back: dict
    touching: list = field(default_factory=list)
    label: str = ""


def sympy_monotone(expr: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                   strict: bool = False) -> dict | None:
    """Certificate that ``expr >= 0`` (``> 0``) on [lo, hi] from the sign of a rational derivative.

    f nondecreasing (no point of [lo, hi] with f' < 0, f' continuous there) and f(lo) >= 0, or
    f nonincreasing and f(hi) >= 0. ``hi`` may be ``sp.oo``. Returns None when it does not apply.
    """
    slope = sp.cancel(sp.together(sp.diff(expr, var)))
    if not slope.is_rational_function(var):
        return None
    dom = sp.Interval(lo, hi)
    _, den = sp.fraction(slope)
    if sp.solveset(den, var, dom) != sp.S.EmptySet:
        return None
    for direction, endpoint, wrong in (("nondecreasing", lo, slope < 0), ("nonincreasing", hi, slope > 0)):
        if endpoint.is_infinite:
            continue
        sign, detail = decide_sign(expr.subs(var, endpoint))
        if sign is None or sign < 0 or (strict and sign == 0):
            continue
        bad = sp.solve_univariate_inequality(wrong, var, relational=False, domain=dom)
        if bad == sp.S.EmptySet:
            return {"method": "sympy derivative sign", "piece": str(expr), "domain": f"[{lo}, {hi}]",
                    "derivative": str(slope), "monotone": direction,
                    "wrong-sign set of f'": "EmptySet", f"f({endpoint})": detail}
    return None


def crossing_bracket(expr: sp.Expr, var: sp.Symbol, lo: sp.Rational, hi: sp.Rational,
                     steps: int = 40, prec: int = 80) -> tuple[sp.Rational, sp.Rational] | None:
    """Rational [a, b] with certified f(a) >= 0 > f(b) (or the reverse), by bisection."""
    def sgn(x):
        enc = enclose(expr, {var: (x, x)}, prec)
        return 1 if enc.a >= 0 else -1 if enc.b < 0 else 0
    try:
        s_lo, s_hi = sgn(lo), sgn(hi)
        if 0 in (s_lo, s_hi) or s_lo == s_hi:
            return None
        for _ in range(steps):
            mid = (lo + hi) / 2
            s_mid = sgn(mid)
            if s_mid == 0:
                return None
            if s_mid == s_lo:
                lo = mid
            else:
                hi = mid
        return lo, hi
    except EnclosureError:
        return None


def decide_inequality(claim: Claim, target: sp.Expr, pieces: list[Piece], *, strict: bool = False,
                      candidates: list[dict] = (), max_boxes: int = 4000, prec: int = 80,
                      extra: dict | None = None) -> SymbolicResult:
    """Decide ``target >= 0`` (``> 0`` if strict) given an equivalent split into pieces.

    PROVED: every piece certified (sympy derivative sign or interval boxes with lower bounds).
    REFUTED: a candidate point or a branch-and-bound counterexample re-checks exactly on
    ``target``. UNKNOWN: a budget ran out or a piece could not be enclosed.
    """
    relation = ">" if strict else ">="
    for point in candidates:
        sign, detail = decide_sign(target.subs(point))
        if sign is not None and (sign < 0 or (strict and sign == 0)):
            wit = substitution_witness(target, point, relation, found_by="candidate point", **(extra or {}))
            return refuted(claim, wit, f"violated at the candidate point {point}: {detail}")
    certs, reasons = [], []
    for piece in pieces:
        infinite = any(not (lo.is_finite and hi.is_finite) for lo, hi in piece.box.values())
        if len(piece.box) == 1:
            ((var, (lo, hi)),) = piece.box.items()
            cert = sympy_monotone(piece.expr, var, lo, hi, strict)
            if cert is not None:
                certs.append({"piece": piece.label, **cert})
                continue
        if infinite:
            reasons.append(f"piece {piece.label!r}: unbounded box and no sympy monotonicity argument")
            continue
        out = prove_nonneg(piece.expr, piece.box, strict=strict, touching=piece.touching,
                           max_boxes=max_boxes, prec=prec)
        if out.status == "proved":
            certs.append({"piece": piece.label, "expr": str(piece.expr),
                          "method": f"interval branch-and-bound, mpmath.iv outward rounding, {prec} bits",
                          "n_boxes": len(out.boxes), "min_lower_bound": out.min_lower, "boxes": out.boxes})
        elif out.status == "refuted":
            point = {s: sp.nsimplify(sp.sympify(e).subs(out.point)) for s, e in piece.back.items()}
            wit = substitution_witness(target, point, relation, found_by=f"branch-and-bound on piece {piece.label!r}",
                                       piece=str(piece.expr), **(extra or {}))
            return refuted(claim, wit, f"piece {piece.label!r} fails: {out.reason}")
        else:
            reasons.append(f"piece {piece.label!r}: {out.reason}")
    if reasons:
        return unknown(claim, "; ".join(reasons), certs or None)
    cert = {"claim": f"{target} {relation} 0", "pieces": certs}
    if extra:
        cert.update(extra)
    return proved(claim, cert, f"all {len(certs)} pieces certified")
