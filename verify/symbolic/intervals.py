"""Interval branch-and-bound for ``f >= 0`` (or ``f > 0``) on a box, with outward rounding.

The box is bisected (best-first, most negative lower bound first) until the mpmath.iv
enclosure of ``f`` is >= 0 (> 0 for strict) on every sub-box. A touching point ``p`` (a 1-D
box endpoint with ``f(p) = 0`` exactly, e.g. log(1 + x) >= x - x^2/2 at x = 0) is handled by monotonicity:
the derivative is enclosed on the sub-box next to ``p`` (recursively, if ``f'(p) = 0`` too)
and its sign shows ``f(x) = f(p) + int_p^x f' >= 0``. A sub-box whose enclosure is < 0
everywhere (or a bisection midpoint whose point enclosure is < 0) yields a rational
candidate counterexample, which the caller re-checks exactly.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Mapping

import mpmath
import sympy as sp

from verify.symbolic.enclose import EnclosureError, decide_sign, enclose

BoxT = dict[sp.Symbol, tuple[sp.Rational, sp.Rational]]


@dataclass
class BoxOutcome:
    """Result of one branch-and-bound run on one box."""

    status: str  # "proved" | "refuted" | "unknown"
    boxes: list[dict] = field(default_factory=list)
    point: dict | None = None
    reason: str = ""
    n_boxes: int = 0

    @property
    def min_lower(self) -> str | None:
        """Smallest certified lower bound over the sub-boxes (as printed)."""
        vals = [Decimal(b["lower"]) for b in self.boxes if "lower" in b]
        return str(min(vals)) if vals else None


def floor_decimal(x: mpmath.mpf, digits: int = 12) -> str:
    """A decimal string rounded toward -infinity (so a printed lower bound stays a lower bound)."""
    if x == 0:
        return "0"
    if not mpmath.isfinite(x):
        return str(x)
    sign, man, exp, _ = x._mpf_
    man, exp = int(man), int(exp)
    r = Fraction(man * (2 ** exp if exp >= 0 else 1), 1 if exp >= 0 else 2 ** (-exp))
    if sign:
        r = -r
    k = digits - math.floor(math.log10(abs(float(r)) or 1e-300))
    scaled = math.floor(r * Fraction(10) ** k)
    return str(Decimal(scaled).scaleb(-k).normalize())


def _fmt_box(box: Mapping[sp.Symbol, tuple]) -> dict:
    return {str(s): [str(lo), str(hi)] for s, (lo, hi) in box.items()}


def _midpoint(box: BoxT) -> dict:
    return {s: (lo + hi) / 2 for s, (lo, hi) in box.items()}


def _bisect(box: BoxT) -> tuple[BoxT, BoxT]:
    var = max(box, key=lambda s: box[s][1] - box[s][0])
    lo, hi = box[var]
    mid = (lo + hi) / 2
    left, right = dict(box), dict(box)
    left[var], right[var] = (lo, mid), (mid, hi)
    return left, right


def _split_at(box: BoxT, point: Mapping[sp.Symbol, sp.Rational]) -> list[BoxT]:
    ((var, p),) = point.items()
    lo, hi = box[var]
    if lo < p < hi:
        left, right = dict(box), dict(box)
        left[var], right[var] = (lo, p), (p, hi)
        return [left, right]
    return [box]


def _is_zero_at(expr: sp.Expr, point: Mapping[sp.Symbol, sp.Rational]) -> bool:
    sign, _ = decide_sign(expr.subs(point))
    return sign == 0


def _monotone_from_touch(expr: sp.Expr, box: BoxT, touching: list[dict], prec: int,
                         depth: int) -> dict | None:
    """Certify f >= 0 on a 1-D box that has a touching point (f = 0) as an endpoint."""
    if depth <= 0 or len(box) != 1:
        return None
    ((var, (lo, hi)),) = box.items()
    for point in touching:
        if var not in point or point[var] not in (lo, hi):
            continue
        p = point[var]
        at_p, _ = decide_sign(expr.subs(var, p))
        if at_p not in (0, 1):
            continue  # the monotonicity argument needs f(p) >= 0, certified exactly
        slope = sp.diff(expr, var)
        need = slope if p == lo else -slope
        sub_touch = [point] if _is_zero_at(need, point) else []
        sub = prove_nonneg(need, box, touching=sub_touch, max_boxes=48, prec=prec, depth=depth - 1)
        if sub.status == "proved":
            side = "f' >= 0" if p == lo else "f' <= 0"
            value = "= 0" if at_p == 0 else "> 0"
            return {"box": _fmt_box(box), "method": f"f({var}={p}) {value} exactly and {side} on the box",
                    "derivative_boxes": sub.boxes}
    return None


def prove_nonneg(expr: sp.Expr, box: BoxT, *, strict: bool = False, touching: list[dict] = (),
                 max_boxes: int = 4000, prec: int = 80, depth: int = 3,
                 time_limit: float = 20.0) -> BoxOutcome:
    """Decide ``expr >= 0`` (``> 0`` if strict) on the closed box by interval branch-and-bound.

    ``touching``: exact points (1-D boxes only) where ``expr = 0``; they are split out and
    handled by a derivative (monotonicity) argument. Returns status "proved" with the list of
    sub-boxes and their certified lower bounds, "refuted" with a rational point (not yet
    re-checked: the caller must), or "unknown" with the reason (budget, enclosure failure).
    """
    expr = sp.sympify(expr)
    touching = [dict(t) for t in touching]
    start = time.monotonic()
    pending: list[BoxT] = [box]
    for point in touching:
        pending = [piece for b in pending for piece in _split_at(b, point)]
    heap: list[tuple[float, int, BoxT]] = []
    counter = 0
    for b in pending:
        heap.append((0.0, counter, b))
        counter += 1
    certified: list[dict] = []
    seen = 0
    while heap:
        _, _, b = heapq.heappop(heap)
        seen += 1
        if seen > max_boxes:
            return BoxOutcome("unknown", certified, None,
                              f"box budget {max_boxes} exhausted with {len(heap) + 1} boxes open", seen)
        if time.monotonic() - start > time_limit:
            return BoxOutcome("unknown", certified, None, f"time budget {time_limit}s exhausted", seen)
        try:
            enc = enclose(expr, b, prec)
        except EnclosureError as exc:
            enc = None
            reason = str(exc)
        if enc is not None:
            ok = enc.a > 0 if strict else enc.a >= 0
            if ok:
                certified.append({"box": _fmt_box(b), "lower": floor_decimal(mpmath.mpf(enc.a))})
                continue
            if enc.b < 0 or (strict and enc.b <= 0):
                return BoxOutcome("refuted", certified, _midpoint(b),
                                  "enclosure of f is below 0 on the whole sub-box", seen)
        touch = _monotone_from_touch(expr, b, touching, prec, depth) if touching else None
        if touch is not None:
            certified.append(touch)
            continue
        mid = _midpoint(b)
        try:
            menc = enclose(expr, {s: (v, v) for s, v in mid.items()}, prec)
            if menc.b < 0 or (strict and menc.b <= 0):
                return BoxOutcome("refuted", certified, mid, "point enclosure below 0 at a midpoint", seen)
        except EnclosureError:
            pass
        if max(hi - lo for lo, hi in b.values()) < sp.Rational(1, 2 ** 60):
            why = reason if enc is None else "enclosure straddles 0 on a sub-box of width < 2^-60"
            return BoxOutcome("unknown", certified, None, f"undecided near {_fmt_box(b)}: {why}", seen)
        key = float(enc.a) if enc is not None else -math.inf
        for child in _bisect(b):
            heapq.heappush(heap, (key, counter, child))
            counter += 1
    return BoxOutcome("proved", certified, None, f"{len(certified)} sub-boxes certified", seen)
