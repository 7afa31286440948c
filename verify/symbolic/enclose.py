"""Rigorous interval enclosures of sympy expressions (mpmath.iv, outward rounding).

``enclose(expr, box)`` returns an interval guaranteed to contain every value of ``expr`` for
the symbols ranging over ``box`` (closed intervals with exact rational endpoints). Rational
constants are enclosed exactly (p/q computed with outward rounding), never via floats.
``decide_sign(value)`` decides the sign of a closed-form constant: exactly for rationals,
otherwise by enclosures at increasing precision.
"""

from __future__ import annotations

from typing import Mapping

import mpmath
import sympy as sp
from mpmath import iv

Box = Mapping[sp.Symbol, tuple[sp.Rational, sp.Rational]]


class EnclosureError(ArithmeticError):
    """The expression cannot be enclosed on this box (unsupported function, log of <= 0, ...)."""


def _const(value: sp.Rational) -> "iv.mpf":
    value = sp.Rational(value)
    return iv.mpf(int(value.p)) / iv.mpf(int(value.q))


def interval_of(lo: sp.Rational, hi: sp.Rational) -> "iv.mpf":
    """The tightest representable interval containing the exact rational range [lo, hi]."""
    a, b = _const(lo), _const(hi)
    return iv.mpf([a.a, b.b])


def _hull(*xs: "iv.mpf") -> "iv.mpf":
    return iv.mpf([min(x.a for x in xs), max(x.b for x in xs)])


def _abs(x: "iv.mpf") -> "iv.mpf":
    if x.a >= 0:
        return x
    if x.b <= 0:
        return -x
    return iv.mpf([0, max(-x.a, x.b)])


def _sign(x: "iv.mpf") -> "iv.mpf":
    if x.a > 0:
        return iv.mpf(1)
    if x.b < 0:
        return iv.mpf(-1)
    return iv.mpf([-1 if x.a < 0 else 0, 1 if x.b > 0 else 0])


def _log(x: "iv.mpf") -> "iv.mpf":
    if not x.a > 0:
        raise EnclosureError("log of an interval that reaches <= 0")
    return iv.log(x)


def _sqrt(x: "iv.mpf") -> "iv.mpf":
    if x.a < 0:
        raise EnclosureError("sqrt of an interval that reaches < 0")
    return iv.sqrt(x)


def _tanh(x: "iv.mpf") -> "iv.mpf":
    # tanh is increasing: enclose its values at the two endpoints (point intervals).
    lo = 1 - 2 / (iv.exp(2 * iv.mpf(x.a)) + 1)
    hi = 1 - 2 / (iv.exp(2 * iv.mpf(x.b)) + 1)
    return iv.mpf([lo.a, hi.b])


def _atan(x: "iv.mpf") -> "iv.mpf":
    # atan is increasing: evaluate at the endpoints with 32 guard bits, then widen by
    # 2^-(prec-2) relative to the value (far beyond mpmath's few-ulp error at the higher precision).
    prec = iv.prec
    with mpmath.workprec(prec + 32):
        lo, hi = mpmath.atan(mpmath.mpf(x.a)), mpmath.atan(mpmath.mpf(x.b))
        pad = mpmath.ldexp(1, -(prec - 2))
        lo = lo - pad * (abs(lo) + mpmath.ldexp(1, -prec))
        hi = hi + pad * (abs(hi) + mpmath.ldexp(1, -prec))
    return iv.mpf([lo, hi])


def _pow(base: "iv.mpf", expo: sp.Expr, ev) -> "iv.mpf":
    if expo.is_Integer:
        k = int(expo)
        if k >= 0:
            return base ** k
        if base.a <= 0 <= base.b:
            raise EnclosureError("negative power of an interval containing 0")
        return 1 / (base ** (-k))
    if expo.is_Rational and expo.q == 2 and expo > 0:
        return _sqrt(base) ** int(expo.p)
    if expo == -sp.Rational(1, 2):
        root = _sqrt(base)
        if not root.a > 0:
            raise EnclosureError("division by an interval containing 0")
        return 1 / root
    return iv.exp(ev(expo) * _log(base))


_FUNCS = {
    sp.exp: iv.exp,
    sp.log: _log,
    sp.sin: iv.sin,
    sp.cos: iv.cos,
    sp.tan: iv.tan,
    sp.cot: iv.cot,
    sp.Abs: _abs,
    sp.sign: _sign,
    sp.tanh: _tanh,
    sp.atan: _atan,
}


def enclose(expr: sp.Expr, box: Box | None = None, prec: int = 80) -> "iv.mpf":
    """Interval containing ``expr`` over ``box`` (rigorous; raises EnclosureError if unsupported)."""
    box = box or {}
    saved = iv.prec
    iv.prec = prec
    try:
        cache: dict[sp.Basic, iv.mpf] = {}

        def ev(e: sp.Basic) -> "iv.mpf":
            if e in cache:
                return cache[e]
            if e.is_Symbol:
                if e not in box:
                    raise EnclosureError(f"no range given for symbol {e}")
                lo, hi = box[e]
                out = interval_of(lo, hi)
            elif e.is_Rational:
                out = _const(e)
            elif e is sp.pi:
                out = iv.pi
            elif e is sp.E:
                out = iv.e
            elif e.is_Float:
                raise EnclosureError("floating-point constant in an exact claim")
            elif e.is_Add:
                out = iv.mpf(0)
                for arg in e.args:
                    out = out + ev(arg)
            elif e.is_Mul:
                out = iv.mpf(1)
                for arg in e.args:
                    out = out * ev(arg)
            elif e.is_Pow:
                out = _pow(ev(e.base), e.exp, ev)
            elif isinstance(e, (sp.Min, sp.Max)):
                parts = [ev(arg) for arg in e.args]
                pick = min if isinstance(e, sp.Min) else max
                out = iv.mpf([pick(x.a for x in parts), pick(x.b for x in parts)])
            elif e.func in _FUNCS:
                if len(e.args) != 1:
                    raise EnclosureError(f"unsupported call {e}")
                out = _FUNCS[e.func](ev(e.args[0]))
            elif isinstance(e, (sp.Sum, sp.harmonic)):
                done = e.doit()
                if done == e:
                    raise EnclosureError(f"cannot expand {e}")
                out = ev(done)
            else:
                raise EnclosureError(f"unsupported expression {e.func.__name__}")
            cache[e] = out
            return out

        try:
            return ev(sp.sympify(expr))
        except (ValueError, ZeroDivisionError) as exc:  # mpmath domain errors
            raise EnclosureError(str(exc)) from exc
    finally:
        iv.prec = saved


def lower(x: "iv.mpf") -> mpmath.mpf:
    """Lower endpoint as an mpmath number."""
    return mpmath.mpf(x.a)


def upper(x: "iv.mpf") -> mpmath.mpf:
    """Upper endpoint as an mpmath number."""
    return mpmath.mpf(x.b)


def decide_sign(value: sp.Expr, precisions: tuple[int, ...] = (64, 160, 400)) -> tuple[int | None, str]:
    """Sign of a closed-form real constant: exact for rationals, else certified by enclosures.

    Returns ``(sign, detail)`` with sign in {-1, 0, 1}, or ``(None, reason)`` when undecided.
    A sign 0 is only returned when sympy reduces the value to exactly 0.
    """
    value = sp.sympify(value)
    if value.has(sp.Sum, sp.harmonic):
        value = value.doit()
    if value.free_symbols:
        return None, f"not a constant: free symbols {sorted(map(str, value.free_symbols))}"
    if value.is_Rational:
        return (1 if value > 0 else -1 if value < 0 else 0), f"exact rational value {value}"
    last = "no enclosure"
    for prec in precisions:
        try:
            enc = enclose(value, {}, prec)
        except EnclosureError as exc:
            return (0, "exactly 0") if value == 0 else (None, f"no enclosure: {exc}")
        if enc.a > 0:
            return 1, f"enclosure [{mpmath.nstr(lower(enc), 12)}, {mpmath.nstr(upper(enc), 12)}] at {prec} bits"
        if enc.b < 0:
            return -1, f"enclosure [{mpmath.nstr(lower(enc), 12)}, {mpmath.nstr(upper(enc), 12)}] at {prec} bits"
        last = f"enclosure contains 0 at {prec} bits"
    if sp.simplify(value) == 0:
        return 0, "sympy simplifies the value to exactly 0"
    return None, last
