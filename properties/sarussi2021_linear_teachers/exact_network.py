"""Seed 002's exact network (claim sheet 002 section 6: Fractions, squared norms, no tolerance) and the Hypothesis
draws of the static claims of Section 5 and Appendix C (:mod:`.theorem51`, :mod:`.appendix_c`, :mod:`.linearity`).

N_W(x) = sum_i sigma(<w^(i), x>) - sum_i sigma(<u^(i), x>), sigma(z) = max(z, alpha z); w-bar, u-bar the means of the +
and - neurons, r^2 = max ||neuron - its mean||^2 (sheet 1.8); a = <w-bar, x>, b = <u-bar, x>, g = a - b. A premise
|t| > c r ||x|| is tested squared, t^2 > c^2 r^2 ||x||^2. Each check reads its constant c (and alpha) from the drawn
case, so the planted claims (alpha = 0, c below the sharp constant) run the SAME check as the claim they break.
Draws: ``cluster_cases`` (cluster centres with chosen projections on x, in units of r ||x||, plus centred rational
offsets, half of the time + offsets along x and - offsets orthogonal to it, LT-X51's worst case) and ``axis_cases``
(the tightness construction of LT-X51: x = s e1, + neurons (kappa_a +- 1) r e1, - neurons kappa_b r e1 +- r e_j).
The float64 network is :mod:`.network`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, partial
from typing import Callable, Sequence

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin
from verify.verdicts import Verdict

from properties.sarussi2021_linear_teachers._shared import paper_claim

Vec = tuple[Fraction, ...]
ZERO, ONE, TWO = Fraction(0), Fraction(1), Fraction(2)
static_claim = partial(paper_claim, horizon=None, tags=("pointwise", "static", "exact"))
planted_claim = partial(paper_claim, horizon=None, expected=Verdict.REFUTED, tags=("pointwise", "static", "planted"))
LEAKY = "leaky ReLU, alpha in (0, 1)"
RELU = "drops alpha > 0: alpha = 0 (ReLU)"


def dot(u: Sequence[Fraction], v: Sequence[Fraction]) -> Fraction:
    return sum((p * q for p, q in zip(u, v)), ZERO)


def add(u: Vec, v: Vec, c: Fraction = ONE) -> Vec:
    """u + c v."""
    return tuple(p + c * q for p, q in zip(u, v))


def mean(rows: Sequence[Vec]) -> Vec:
    return tuple(sum(col, ZERO) / len(rows) for col in zip(*rows))


def unit(d: int, j: int, c: Fraction = ONE) -> Vec:
    """c e_j in R^d."""
    return tuple(c if i == j else ZERO for i in range(d))


def sign(q: Fraction) -> int:
    return (q > 0) - (q < 0)


def sigma(z: Fraction, alpha: Fraction) -> Fraction:
    """max(z, alpha z) for alpha in [0, 1]."""
    return z if z >= 0 else alpha * z


def sharp(alpha: Fraction) -> Fraction:
    """LT-X51's constant (1 - alpha) / (1 + alpha)."""
    return (1 - alpha) / (1 + alpha)


@dataclass(frozen=True)
class ExactNet:
    """W with rational rows: ``plus`` = w^(1..k), ``minus`` = u^(1..k); sigma's slope ``alpha``."""

    plus: tuple[Vec, ...]
    minus: tuple[Vec, ...]
    alpha: Fraction

    @property
    def k(self) -> int:
        return len(self.plus)

    def output(self, x: Vec) -> Fraction:
        """N_W(x), exact."""
        return (sum((sigma(dot(w, x), self.alpha) for w in self.plus), ZERO)
                - sum((sigma(dot(u, x), self.alpha) for u in self.minus), ZERO))

    @cached_property
    def w_bar(self) -> Vec:
        return mean(self.plus)

    @cached_property
    def u_bar(self) -> Vec:
        return mean(self.minus)

    @cached_property
    def r2(self) -> Fraction:
        """r^2 = max over neurons of ||neuron - its cluster mean||^2."""
        return max(dot(d, d) for m, rows in ((self.w_bar, self.plus), (self.u_bar, self.minus))
                   for d in (add(row, m, -ONE) for row in rows))

    def floats(self) -> np.ndarray:
        """W (2k, d) in float64, for :func:`network.output`."""
        return np.array([[float(v) for v in row] for row in self.plus + self.minus])


@dataclass(frozen=True)
class Case:
    """One drawn (W, x): ``c`` the constant of the premise, ``reading`` which statement (where a check has several),
    ``family`` how it was drawn."""

    net: ExactNet
    x: Vec
    c: Fraction
    reading: str = ""
    family: str = ""


@dataclass(frozen=True)
class Geometry:
    """a = <w-bar, x>, b = <u-bar, x>, g = a - b, r^2, ||x||^2."""

    a: Fraction
    b: Fraction
    g: Fraction
    r2: Fraction
    x2: Fraction

    def beyond(self, t: Fraction, c: Fraction) -> bool:
        """|t| > c r ||x||."""
        return t * t > c * c * self.r2 * self.x2

    def ratio(self, t: Fraction, c: Fraction) -> float:
        """c r ||x|| / |t|: how close t is to the premise's threshold (< 1 inside the premise)."""
        return math.sqrt(float(c * c * self.r2 * self.x2 / (t * t))) if t else math.inf


def geometry(net: ExactNet, x: Vec) -> Geometry:
    a, b = dot(net.w_bar, x), dot(net.u_bar, x)
    return Geometry(a, b, a - b, net.r2, dot(x, x))


def sign_margin(N: Fraction, g: Fraction, k: int, note: str, ratio: float | None = None) -> Margin:
    """sign N == sign g, exact: +min(1, sign(g) N / (k |g|)) where it holds (0 where both are 0), -1 where not."""
    if sign(N) != sign(g):
        return Margin(-1.0, 0.0, f"sign N = {sign(N)} != sign g = {sign(g)}: N = {N}, g = {g}; {note}", ratio=ratio)
    value = min(1.0, float(sign(g) * N / (k * abs(g)))) if g else 0.0
    return Margin(value, 0.0, f"N = {N}, g = {g}; {note}", ratio=ratio)


# ---------------------------------------------------------------------------------------------- strategies

@st.composite
def fractions_in(draw: st.DrawFn, lo: int, hi: int, den: int = 4) -> Fraction:
    return Fraction(draw(st.integers(lo, hi)), den)


def alphas(zero: bool = False) -> st.SearchStrategy[Fraction]:
    """alpha = p / q in (0, 1), q <= 40; or exactly 0 (the ReLU plants)."""
    if zero:
        return st.just(ZERO)
    return st.integers(2, 40).flatmap(lambda q: st.integers(1, q - 1).map(lambda p: Fraction(p, q)))


def int_vec(d: int, bound: int) -> st.SearchStrategy[Vec]:
    return st.lists(st.integers(-bound, bound), min_size=d, max_size=d).map(lambda v: tuple(map(Fraction, v)))


AGREE = ((1, 1), (1, -1), (-1, 1), (-1, -1))  # (sign of a, sign of b) in units of r ||x||: both clusters agree
ONE_AGREES = ((1, 0), (-1, 0), (0, 1), (0, -1))  # 0: |projection| <= r ||x|| (that cluster need not agree)
ANY = AGREE + ONE_AGREES + ((0, 0),)


@st.composite
def cluster_cases(draw: st.DrawFn, c: Callable[[Fraction], Fraction] = lambda _: TWO, alpha=alphas(),
                  regions: tuple[tuple[int, int], ...] = ANY, clustered: bool = False, reading: str = "") -> Case:
    """k in [1, 8], d in [1, 5], x integer; offsets: centred integer vectors times 2^-j (0 if ``clustered``); the
    means have <m, x> = kappa r ||x|| (kappa in (1, 4] times the sign from ``regions``, or within [-1, 1] for 0; the -
    cluster's kappa is shifted by 1/8 so a != b) plus a random integer component."""
    al, d, k = draw(alpha), draw(st.integers(1, 5)), draw(st.integers(1, 8))
    x = draw(int_vec(d, 3))
    x = x if any(x) else unit(d, 0)
    eps = ZERO if clustered else Fraction(1, 2 ** draw(st.integers(0, 6)))
    aligned, offsets = draw(st.booleans()), []
    for side in (0, 1):
        raw = [draw(int_vec(d, 2)) for _ in range(k)]
        if aligned:  # the worst case of LT-X51: + offsets along x, - offsets orthogonal to x
            raw = [tuple(dot(o, x) / dot(x, x) * v for v in x) if side == 0 else add(o, x, -dot(o, x) / dot(x, x))
                   for o in raw]
        centre = mean(raw)
        offsets.append([tuple(eps * (p - q) for p, q in zip(o, centre)) for o in raw])
    r2 = max(dot(o, o) for o in offsets[0] + offsets[1])
    scale = (Fraction(math.sqrt(r2)).limit_denominator(1000) if r2 else ONE) * \
        Fraction(math.sqrt(dot(x, x))).limit_denominator(1000)  # ~ r ||x||
    means = []
    for shift, s in zip((ZERO, Fraction(1, 8)), draw(st.sampled_from(regions))):  # shift: a != b
        kappa = (1 + draw(fractions_in(1, 12)) + shift) * s if s else draw(fractions_in(-4, 3)) + shift
        base = draw(int_vec(d, 4))
        means.append(add(base, x, (kappa * scale - dot(base, x)) / dot(x, x)))
    net = ExactNet(tuple(add(means[0], o) for o in offsets[0]), tuple(add(means[1], o) for o in offsets[1]), al)
    return Case(net, x, c(al), reading, "clusters")


def axis_net(alpha: Fraction, m: int, d: int, r: Fraction, kappa_a: Fraction, kappa_b: Fraction,
             u_axis: int) -> ExactNet:
    """LT-X51's construction (k = 2m): + neurons (kappa_a +- 1) r e1, - neurons kappa_b r e1 +- r e_{u_axis}."""
    plus = tuple(unit(d, 0, (kappa_a + s) * r) for s in (1, -1)) * m
    minus = tuple(add(unit(d, 0, kappa_b * r), unit(d, u_axis, s * r)) for s in (1, -1)) * m
    return ExactNet(plus, minus, alpha)


@st.composite
def axis_cases(draw: st.DrawFn, kappas: Callable[[Fraction], st.SearchStrategy], alpha=alphas(), d=(2, 5),
               u_axes=(0, 1), reading: str = "") -> Case:
    """x = s e1 on :func:`axis_net`; ``kappas(alpha)`` draws (kappa_a, kappa_b, c)."""
    al, m, dim = draw(alpha), draw(st.integers(1, 4)), draw(st.integers(*d))
    r = Fraction(draw(st.integers(1, 8)), draw(st.integers(1, 4)))
    s = Fraction(draw(st.integers(1, 4)), draw(st.integers(1, 3)))
    ka, kb, c = draw(kappas(al))
    return Case(axis_net(al, m, dim, r, ka, kb, draw(st.sampled_from(u_axes))), unit(dim, 0, s), c, reading, "axis")


def gap_kappas(c: Callable[[Fraction], Fraction], below_sharp: bool = False, sides=(1, -1)):
    """(kappa_a, kappa_b, c): |kappa_a - kappa_b| = c + delta just beyond the premise; ``below_sharp``: kappa_b = 0,
    the - side and c + delta < (1 - alpha) / (1 + alpha) (P2: N > 0 while g < 0)."""

    @st.composite
    def draw_kappas(draw: st.DrawFn, al: Fraction) -> tuple[Fraction, Fraction, Fraction]:
        cc = c(al)
        room = sharp(al) - cc if below_sharp else ONE
        delta = room * Fraction(draw(st.integers(1, 63)), 64)
        kb = ZERO if below_sharp else draw(fractions_in(-8, 8))
        return kb + draw(st.sampled_from(sides)) * (cc + delta), kb, cc

    return draw_kappas


def fixed(ka: Fraction, kb: Fraction, c: Callable[[Fraction], st.SearchStrategy]):
    """(kappa_a, kappa_b, c) with the kappas fixed and c drawn."""
    return lambda al: c(al).map(lambda cc: (ka, kb, cc))


@st.composite
def below_one(draw: st.DrawFn, _: Fraction) -> tuple[Fraction, Fraction, Fraction]:
    """(kappa_a, 0, c) with c in [0, 1) and c < kappa_a < 1 (a neuron of the + cluster is negative on x)."""
    c, f = draw(fractions_in(0, 15, 16)), draw(fractions_in(1, 15, 16))
    return c + (1 - c) * f, ZERO, c


def sheet_case(w: Vec, u: Vec, alpha: Fraction, x: Vec, c: Fraction, reading: str = "", k: int = 1) -> Case:
    """A perfectly clustered sheet example (k copies of w and of u)."""
    return Case(ExactNet((w,) * k, (u,) * k, alpha), x, c, reading, "sheet")


P1_CASE = sheet_case((ONE, ZERO), (ZERO, ONE), ZERO, (-ONE, -TWO), TWO)  # sheet P1: N = 0, g = 1
P2_ALPHA, P2_R = Fraction(1, 5), ONE
P2_NET = axis_net(P2_ALPHA, 1, 2, P2_R, -Fraction(99, 100) * sharp(P2_ALPHA), ZERO, 1)  # Delta = 0.66 r: N = 1/125
P2_CASE = Case(P2_NET, (ONE, ZERO), Fraction(98, 100) * sharp(P2_ALPHA), "", "sheet")
