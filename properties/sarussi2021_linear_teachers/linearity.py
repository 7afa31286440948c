"""Claim sheet 002 section 2.2's prose items, exact (Fractions): LT-I51 (Section 5, Fig. 3: a linear boundary, not a
linear output), LT-I52 (App. D.1, Fig. 5: the result is false for ReLU), LT-I53 and the planted P14 (the clusters must
be the + and - sets), with Figures 3 and 5 as data; and LT-X52, the share of directions outside the linear regime
(eq. 7's cone, Section 5.1 / App. D.2: only directions nearly orthogonal to w-bar - u-bar can be nonlinear).

- LT-I51 [DER]: a perfectly clustered net has N(x) = k (sigma(<w-bar, x>) - sigma(<u-bar, x>)), piecewise linear; it is
  a linear function iff u-bar = w-bar (N = 0) or u-bar = -w-bar (N = k (1 + alpha) <w-bar, x>). The even part
  N(x) + N(-x) = k (1 - alpha) (|<w-bar, x>| - |<u-bar, x>|) gives the witness pair (x, -x) with x = w-bar or u-bar.
- LT-I52: for alpha = 0 and means that are not antiparallel, x in the cone {<w-bar, x> <= 0, <u-bar, x> <= 0} with
  <w-bar - u-bar, x> != 0 has N = 0 (Theorem 5.1 and Corollary 6.1 fail there); the sheet's net k = 1, w = (1, 0),
  u = (0, 1) on the third quadrant.
- LT-I53: + neurons at c1, c2 (m copies each), - neurons 0: N = 0 on the rays <c1, x> = -alpha <c2, x> (<c2, x> < 0)
  and <c2, x> = -alpha <c1, x> (<c1, x> < 0), not antipodal for alpha < 1, so the boundary is kinked; Theorem 5.1's
  premise fails on both rays, and everywhere (4 r^2 >= ||w-bar - u-bar||^2) when <c1, c2> <= 0.
- LT-X52: P(|cos(x, e)| <= tau) = I_(tau^2)(1/2, (d-1)/2) for x uniform on S^(d-1) (quantities.nonlinear_share)
  against seeded Monte Carlo (exact Clopper-Pearson interval, level 1e-6 per example) and d = 2's (2/pi) arcsin tau;
  every sampled direction where sign N != sign <w-bar - u-bar, x> lies in the cone |cos| <= c r / ||w-bar - u-bar||
  (float64 network.output: an independent path from the exact evaluator).
The Fig. 3 / Fig. 5 parameters beyond the sheet's were lost in the OCR: both figures are the sheet's k = 1 net.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st
from scipy.stats import binomtest

from verify.claims.model import Margin, measures
from verify.scenarios import SEEDS

from properties.sarussi2021_linear_teachers._shared import exact_margin, worst
from properties.sarussi2021_linear_teachers.network import output
from properties.sarussi2021_linear_teachers.quantities import nonlinear_share
from properties.sarussi2021_linear_teachers.exact_network import (LEAKY, ONE, TWO, ZERO, Case, ExactNet, Vec, add,
                                                               alphas, axis_cases, cluster_cases, dot, gap_kappas,
                                                               geometry, int_vec, planted_claim, sharp, sign,
                                                               static_claim)
from properties.sarussi2021_linear_teachers.theorem51 import clustered_sign_margin

FIGURE5 = {"a": ExactNet(((ONE, ZERO),), ((ZERO, ONE),), Fraction(1, 5)),  # leaky: sign N = sign(x1 - x2)
           "b": ExactNet(((ONE, ZERO),), ((ZERO, ONE),), ZERO)}  # ReLU: N = 0 on the third quadrant
FIGURE3 = FIGURE5["a"]  # N = sigma(x1) - sigma(x2): four linear pieces, a linear boundary x1 = x2


def neg(v: Vec) -> Vec:
    return tuple(-p for p in v)


def clustered(w: Vec, u: Vec, alpha: Fraction, k: int) -> ExactNet:
    return ExactNet((w,) * k, (u,) * k, alpha)


# ---------------------------------------------------------------------------------------------- LT-I51


@dataclass(frozen=True)
class LinearityCase:
    """A perfectly clustered net, test pairs (x1, x2), and the reading: "iff" (linear iff u-bar = +-w-bar) or
    "always" (planted: every perfectly clustered net has a linear output)."""

    net: ExactNet
    pairs: tuple[tuple[Vec, Vec], ...]
    reading: str = "iff"


@measures("+1 holds / -1 violated (exact decision, rational arithmetic)")
def output_linearity_margin(case: LinearityCase) -> Margin:
    """Where the reading predicts a linear output: N(x1 + x2) = N(x1) + N(x2) on every pair, and N = k (1 + alpha)
    <w-bar, x> (u-bar = -w-bar) or 0 (u-bar = w-bar); elsewhere some pair is not additive. Pairs: the drawn ones and
    (w-bar, -w-bar), (u-bar, -u-bar)."""
    net = case.net
    if net.r2 != 0:
        return Margin(0.0, 0.0, "not perfectly clustered", vacuous=True)
    w, u, N = net.w_bar, net.u_bar, net.output
    pairs = case.pairs + ((w, neg(w)), (u, neg(u)))
    defects = [(x1, x2, N(add(x1, x2)) - N(x1) - N(x2)) for x1, x2 in pairs]
    bad = [(x1, x2, dd) for x1, x2, dd in defects if dd != 0]
    antipodal, equal = u == neg(w), u == w
    if case.reading == "always" or antipodal or equal:
        slope = net.k * (1 + net.alpha) if antipodal else ZERO
        points = [x for pair in pairs for x in pair]
        off = [x for x in points if (antipodal or equal) and N(x) != slope * dot(w, x)]
        note = (f"additive on {len(pairs)} pairs" if not bad else f"N(x1 + x2) - N(x1) - N(x2) = {bad[0][2]} at "
                f"{[str(v) for v in bad[0][0]]}, {[str(v) for v in bad[0][1]]}")
        return exact_margin(not bad and not off, f"{case.reading}: {note}; {len(off)} points off N = {slope} <w-bar, x>")
    return exact_margin(bool(bad), f"u-bar != +-w-bar: {len(bad)} of {len(pairs)} pairs not additive"
                        + (f" (defect {bad[0][2]})" if bad else ""))


@st.composite
def linearity_cases(draw: st.DrawFn, reading: str = "iff") -> LinearityCase:
    """k in [1, 8], d in [1, 5], w-bar integer; u-bar = -w-bar, w-bar or an integer vector; two integer pairs."""
    d, k, al = draw(st.integers(1, 5)), draw(st.integers(1, 8)), draw(alphas())
    w = draw(int_vec(d, 3))
    u = draw(st.one_of(st.just(neg(w)), st.just(w), int_vec(d, 3))) if reading == "iff" else draw(int_vec(d, 3))
    pairs = tuple((draw(int_vec(d, 3)), draw(int_vec(d, 3))) for _ in range(2))
    return LinearityCase(clustered(w, u, al, k), pairs, reading)


I51 = static_claim(
    "Section 5, Fig. 3 (LT-I51)",
    id="LT-I51", node="I5", uses=("T51", "C61", "LEAKY"),
    statement="A perfectly clustered net's output N = k (sigma(<w-bar, x>) - sigma(<u-bar, x>)) is piecewise linear and "
              "a linear function iff u-bar = w-bar (N = 0) or u-bar = -w-bar (N = k (1 + alpha) <w-bar, x>): exact "
              "additivity there, an exact pair with N(x1 + x2) != N(x1) + N(x2) otherwise",
    check=output_linearity_margin, over=linearity_cases(), assumptions=(LEAKY,),
)

P_I51 = planted_claim(
    "LT-I51 misread (Fig. 3: Theorem 5.1 does not imply a linear output)",
    id="P-I51-always-linear", node="I5", uses=("T51", "C61", "LEAKY"),
    statement="PLANTED: every perfectly clustered net has a linear output (additive); Fig. 3's net N = sigma(x1) - "
              "sigma(x2) has N(e1) + N(-e1) = 1 - alpha != 0 = N(0)",
    check=output_linearity_margin,
    over=st.one_of(st.just(LinearityCase(FIGURE3, (), "always")), linearity_cases("always")),
    assumptions=(LEAKY,),
)

# ---------------------------------------------------------------------------------------------- LT-I52


def dead_zone_point(net: ExactNet, extra: Vec) -> Vec | None:
    """An x with <w-bar, x> <= 0, <u-bar, x> <= 0 and <w-bar - u-bar, x> != 0 among ``extra``, -w-bar, -u-bar,
    -(w-bar + u-bar) and -(|u-bar| w-bar + |w-bar| u-bar) (norms rounded to rationals); None if none is."""
    w, u = net.w_bar, net.u_bar
    nw, nu = (Fraction(float(dot(v, v)) ** 0.5).limit_denominator(10 ** 6) for v in (w, u))
    for x in (extra, neg(w), neg(u), neg(add(w, u)), neg(add(tuple(nu * p for p in w), u, nw))):
        a, b = dot(w, x), dot(u, x)
        if a <= 0 and b <= 0 and a != b:
            return x
    return None


@measures("+1 holds / -1 violated (exact decision, rational arithmetic)")
def dead_zone_margin(case: Case) -> Margin:
    """At a dead-zone point x of a perfectly clustered net (both means <= 0 on x, g != 0, so Theorem 5.1's premise
    holds with r = 0): sign N(x) != sign g, i.e. the theorem fails there (alpha = 0: N = 0). Vacuous where no such point
    is found (u-bar = -lambda w-bar, lambda > 0, has none)."""
    net = case.net
    if net.r2 != 0:
        return Margin(0.0, 0.0, "not perfectly clustered", vacuous=True)
    x = dead_zone_point(net, case.x)
    if x is None:
        return Margin(0.0, 0.0, "no point with both means <= 0 on it and g != 0", vacuous=True)
    N, g = net.output(x), geometry(net, x).g
    return exact_margin(sign(N) != sign(g), f"alpha = {net.alpha}, x = {[str(v) for v in x]}: N = {N}, g = {g}")


@st.composite
def dead_zone_cases(draw: st.DrawFn, alpha=alphas(zero=True)) -> Case:
    d, k = draw(st.integers(1, 5)), draw(st.integers(1, 8))
    w, u, x = draw(int_vec(d, 3)), draw(int_vec(d, 3)), draw(int_vec(d, 3))
    return Case(clustered(w, u, draw(alpha), k), x, TWO, "perfectly clustered", "clusters")


def figure5(part: str) -> Case:
    return Case(FIGURE5[part], (-ONE, -TWO), TWO, "perfectly clustered", "Fig. 5")


I52 = static_claim(
    "App. D.1, Fig. 5 (LT-I52)",
    id="LT-I52", node="I5", uses=("T51", "C61"),
    statement="Theorem 5.1 is not true for ReLU: for alpha = 0 every perfectly clustered net whose means are not "
              "antiparallel has x with <w-bar, x>, <u-bar, x> <= 0 and <w-bar - u-bar, x> != 0 (the premise holds, r = 0) "
              "where N(x) = 0; Fig. 5 (b): k = 1, w = (1, 0), u = (0, 1), x = (-1, -2)",
    check=dead_zone_margin, over=st.one_of(st.just(figure5("b")), dead_zone_cases()),
    assumptions=("alpha = 0 (ReLU): the activation the theorem excludes",),
)

P_I52 = planted_claim(
    "LT-I52 carried over to leaky ReLU (Fig. 5 (a))",
    id="P-I52-leaky", node="I5", uses=("T51", "C61", "LEAKY"),
    statement="PLANTED: the ReLU failure carries over to alpha > 0: at the dead-zone point sign N != sign g; Fig. 5 (a): "
              "N = alpha (x1 - x2) has the sign of g there",
    check=dead_zone_margin, over=st.one_of(st.just(figure5("a")), dead_zone_cases(alphas())), assumptions=(LEAKY,),
)

# ---------------------------------------------------------------------------------------------- LT-I53, P14


@dataclass(frozen=True)
class SplitCase:
    """+ neurons: m copies of c1 and m of c2; - neurons 0 (k = 2m). ``reading`` "non-acute" (<c1, c2> <= 0, the
    sheet's example) or "any" (planted: the hypothesis dropped)."""

    c1: Vec
    c2: Vec
    m: int
    alpha: Fraction
    reading: str = "non-acute"

    @property
    def net(self) -> ExactNet:
        zero = tuple(ZERO for _ in self.c1)
        return ExactNet((self.c1,) * self.m + (self.c2,) * self.m, (zero,) * (2 * self.m), self.alpha)

    def point(self, p: Fraction, q: Fraction) -> Vec:
        """The x in span(c1, c2) with <c1, x> = p, <c2, x> = q (Gram system, exact)."""
        g11, g12, g22 = dot(self.c1, self.c1), dot(self.c1, self.c2), dot(self.c2, self.c2)
        det = g11 * g22 - g12 * g12
        lam, mu = (g22 * p - g12 * q) / det, (g11 * q - g12 * p) / det
        return add(tuple(lam * v for v in self.c1), self.c2, mu)


@measures("+1 holds / -1 violated (exact decision, rational arithmetic); worst of the four parts")
def split_cluster_margin(case: SplitCase) -> Margin:
    """(i) N = 0 on both rays x1 (<c1, x> = alpha, <c2, x> = -1) and x2 (-1, alpha); (ii) x1, x2 not antipodal (a
    kinked boundary); (iii) Theorem 5.1's premise fails at x1 and x2; (iv) when the reading's hypothesis allows it
    ("any", or <c1, c2> <= 0): 4 r^2 >= ||w-bar - u-bar||^2, the premise fails for every x."""
    c1, c2, al = case.c1, case.c2, case.alpha
    if dot(c1, c1) * dot(c2, c2) == dot(c1, c2) ** 2:
        return Margin(0.0, 0.0, "c1, c2 linearly dependent", vacuous=True)
    if case.reading == "non-acute" and dot(c1, c2) > 0:
        return Margin(0.0, 0.0, "hypothesis <c1, c2> <= 0 fails", vacuous=True)
    net = case.net
    x1, x2 = case.point(al, -ONE), case.point(-ONE, al)
    geos = [geometry(net, x) for x in (x1, x2)]
    diff = add(net.w_bar, net.u_bar, -ONE)
    return worst([
        exact_margin(net.output(x1) == 0 and net.output(x2) == 0, f"N on the rays: {net.output(x1)}, {net.output(x2)}"),
        exact_margin(dot(x1, x2) > 0 or dot(x1, x2) ** 2 != dot(x1, x1) * dot(x2, x2), "rays x1, x2 not antipodal"),
        exact_margin(not any(geo.beyond(geo.g, TWO) for geo in geos), "Theorem 5.1's premise fails on the boundary rays"),
        exact_margin(4 * net.r2 >= dot(diff, diff), f"4 r^2 = {4 * net.r2} vs ||w-bar - u-bar||^2 = {dot(diff, diff)}"),
    ])


@st.composite
def split_cases(draw: st.DrawFn, reading: str = "non-acute") -> SplitCase:
    """d in [2, 5], integer c1, c2; c2 reflected across c1's orthogonal complement to make <c1, c2> <= 0
    ("non-acute") or >= 0 ("any": the planted draws)."""
    d = draw(st.integers(2, 5))
    c1, c2 = draw(int_vec(d, 3)), draw(int_vec(d, 3))
    want = -1 if reading == "non-acute" else 1
    if any(c1) and sign(dot(c1, c2)) == -want:
        c2 = add(c2, c1, -2 * dot(c1, c2) / dot(c1, c1))
    return SplitCase(c1, c2, draw(st.integers(1, 4)), draw(alphas()), reading)


SHEET_SPLIT = SplitCase((ONE, ZERO), (ZERO, ONE), 1, Fraction(1, 5))  # sheet P14: 2 r = 1.41 > ||w-bar - u-bar|| = 0.71

I53 = static_claim(
    "Section 5 prose, sheet LT-I53 / P14",
    id="LT-I53", node="I5", uses=("T51",),
    statement="Two tight clusters that are both + neurons (m copies of c1, of c2, - neurons 0, <c1, c2> <= 0; sheet: "
              "(1, 0), (0, 1)): N = 0 on the non-antipodal rays <c1, x> = -alpha <c2, x> and <c2, x> = -alpha <c1, x> "
              "(a kinked boundary), and Theorem 5.1 is vacuous: 4 r^2 >= ||w-bar - u-bar||^2",
    check=split_cluster_margin, over=st.one_of(st.just(SHEET_SPLIT), split_cases()), assumptions=(LEAKY,),
)

P14_I53 = planted_claim(
    "sheet P14 (LT-I53 without <c1, c2> <= 0)",
    id="P14-I53-acute", node="I5", uses=("T51",),
    statement="PLANTED: Theorem 5.1 is vacuous on every net with two + clusters; c1 = (1, 0), c2 = (1, 1): 4 r^2 = 1 < "
              "||w-bar||^2 = 5/2",
    check=split_cluster_margin,
    over=st.one_of(st.just(SplitCase((ONE, ZERO), (ONE, ONE), 1, Fraction(1, 5), "any")), split_cases("any")),
    assumptions=(LEAKY,),
)


@st.composite
def kinked_cases(draw: st.DrawFn) -> Case:
    """P14's nets (:func:`split_cases`) with x = lam c1 + mu c2, lam, mu integers."""
    split = draw(split_cases())
    lam, mu = draw(st.integers(-4, 4)), draw(st.integers(-4, 4))
    return Case(split.net, add(tuple(lam * v for v in split.c1), split.c2, Fraction(mu)), TWO, "two clusters", "P14")


P14_C61 = planted_claim(
    "sheet P14 (Corollary 6.1 with any two tight clusters)",
    id="P14-C61-two-clusters", node="C61", uses=("T51", "LEAKY"),
    statement="PLANTED: any two tight clusters imply the linear boundary sign N = sign <w-bar - u-bar, x>; sheet P14: "
              "w = (1, 0), (0, 1), u = 0, x = (1, -3): N = 1 - 3 alpha > 0 while g = -1",
    check=clustered_sign_margin,
    over=st.one_of(st.just(Case(SHEET_SPLIT.net, (ONE, -3 * ONE), TWO, "two clusters", "P14")), kinked_cases()),
    assumptions=(LEAKY,),
)


# ---------------------------------------------------------------------------------------------- LT-X52

LEVEL = 1e-6  # two-sided Clopper-Pearson level per example (false alarm <= 1e-6 each)
DIRECTIONS = 20000  # Monte Carlo directions per share example
CONE_DIRECTIONS = 4000  # sampled directions per W in LT-X52-cone


@dataclass(frozen=True)
class ShareCase:
    """tau, d, the seed of the Monte Carlo directions; ``reading`` "tau^2" (the sheet) or "tau" (planted)."""

    tau: float
    d: int
    seed: int
    reading: str = "tau^2"


def sphere(n: int, d: int, seed: int) -> np.ndarray:
    """n uniform directions on S^{d-1}."""
    Z = np.random.default_rng(seed).standard_normal((n, d))
    return Z / np.linalg.norm(Z, axis=1, keepdims=True)


@measures("claimed share's distance inside its exact Clopper-Pearson interval (probability; d = 2: also 1e-12 - gap)")
def share_margin(case: ShareCase) -> Margin:
    """P(|cos(x, e1)| <= tau) over DIRECTIONS seeded directions: the claimed value must lie in the exact two-sided
    interval of level LEVEL; d = 2: I_{tau^2}(1/2, 1/2) = (2/pi) arcsin tau within 1e-12."""
    claimed = nonlinear_share(case.tau if case.reading == "tau^2" else math.sqrt(case.tau), case.d)
    hits = int(np.sum(np.abs(sphere(DIRECTIONS, case.d, case.seed)[:, 0]) <= case.tau))
    ci = binomtest(hits, DIRECTIONS, claimed).proportion_ci(confidence_level=1.0 - LEVEL, method="exact")
    parts = [Margin(min(claimed - ci.low, ci.high - claimed), 0.0,
                    f"{hits}/{DIRECTIONS} in the cone vs {claimed:.5f}, interval [{ci.low:.5f}, {ci.high:.5f}]")]
    if case.d == 2:
        gap = abs(nonlinear_share(case.tau, 2) - 2.0 / math.pi * math.asin(case.tau))
        parts.append(Margin(1e-12 - gap, 0.0, f"d = 2: |I - (2/pi) arcsin tau| = {gap:.2g}"))
    return worst(parts)


def share_cases(reading: str = "tau^2") -> st.SearchStrategy[ShareCase]:
    return st.builds(ShareCase, st.floats(0.01, 0.99), st.integers(2, 8), SEEDS, st.just(reading))


X52 = static_claim(
    "LT-X52 (derived: the share of directions outside the linear regime)",
    id="LT-X52", node="X52", uses=("T51",),
    statement=f"For x uniform on S^(d-1), P(|cos(x, e)| <= tau) = I_(tau^2)(1/2, (d-1)/2) (quantities.nonlinear_share); "
              f"Monte Carlo with {DIRECTIONS} seeded directions inside its exact {1 - LEVEL:.6f} interval; d = 2: "
              "(2/pi) arcsin tau",
    check=share_margin, over=share_cases(), tags=("pointwise", "statistical"),
    meta={"budget": {"ci": 6}},
)

P_X52 = planted_claim(
    "LT-X52 with I_tau in place of I_(tau^2) (a mis-transcribed share)",
    id="P-X52-tau", node="X52", uses=("T51",),
    statement="PLANTED: P(|cos(x, e)| <= tau) = I_tau(1/2, (d-1)/2): the Monte Carlo frequency falls outside its interval",
    check=share_margin, over=share_cases("tau"), tags=("pointwise", "statistical", "planted"),
    meta={"budget": {"ci": 6}},
)


@dataclass(frozen=True)
class ConeCase:
    """A drawn W (``case.net``, constant ``case.c``) and the seed of the sampled directions."""

    case: Case
    seed: int


@measures("tau - the largest |cos(x, w-bar - u-bar)| over sampled directions with sign N != sign g")
def cone_margin(cone: ConeCase) -> Margin:
    """Sampled directions x (float64, network.output): every x with sign N != sign <w-bar - u-bar, x> (both beyond
    1e-12 of their scale) lies in the cone |cos(x, w-bar - u-bar)| <= tau = c r / ||w-bar - u-bar|| (slack 1e-9).
    ratio = the largest such |cos| / tau."""
    net, c = cone.case.net, cone.case.c
    diff = np.array([float(v) for v in add(net.w_bar, net.u_bar, -ONE)])
    gap = float(np.linalg.norm(diff))
    if gap == 0.0 or net.r2 == 0:
        return Margin(0.0, 0.0, "w-bar = u-bar or r = 0", vacuous=True)
    tau = float(c) * math.sqrt(float(net.r2)) / gap
    W = net.floats()
    X = sphere(CONE_DIRECTIONS, W.shape[1], cone.seed)
    N, g = output(W, X, float(net.alpha)), X @ diff
    scale = np.abs(X @ W.T).sum(axis=1) + 1.0
    wrong = (np.sign(N) != np.sign(g)) & (np.abs(N) > 1e-12 * scale) & (np.abs(g) > 1e-12 * gap)
    cos = np.abs(g[wrong]) / gap
    worst_cos = float(cos.max()) if cos.size else 0.0
    note = (f"{int(wrong.sum())}/{CONE_DIRECTIONS} directions disagree, max |cos| {worst_cos:.4g} vs tau = {tau:.4g} "
            f"(share bound {nonlinear_share(tau, W.shape[1]):.4g})")
    return Margin(tau * (1 + 1e-9) + 1e-12 - worst_cos, 0.0, note, ratio=worst_cos / tau if tau > 0 else None)


def near_sharp_nets(f: int) -> st.SearchStrategy[Case]:
    """LT-X51's construction in d = 2 with Delta = q (1 - alpha) r / (1 + alpha), f / 10 < q < 1 (it disagrees with
    f_lin around x = e1), drawn for the premise constant c = f / 10 times the sharp one."""
    return axis_cases(gap_kappas(lambda al: sharp(al) * Fraction(f, 10), below_sharp=True, sides=(-1,)), d=(2, 2),
                      u_axes=(1,))


X52_CONE = static_claim(
    "LT-X52 (derived: the cone bounds the directions where sign N != f_lin)",
    id="LT-X52-cone", node="X52", uses=("T51", "LEAKY"),
    statement="Every direction x with sign N_W(x) != sign <w-bar - u-bar, x> has |cos(x, w-bar - u-bar)| <= tau = "
              "2 r / ||w-bar - u-bar|| (eq. 7), so the share of such directions is at most I_(tau^2)(1/2, (d-1)/2); "
              f"{CONE_DIRECTIONS} seeded directions, float64; ratio = max |cos| / tau shows the slack of the constant 2 "
              "(<= (1 - alpha) / (2 (1 + alpha)) by LT-X51)",
    check=cone_margin,
    over=st.builds(ConeCase, st.one_of(cluster_cases(), near_sharp_nets(5).map(lambda case: replace(case, c=TWO))),
                   SEEDS),
    assumptions=(LEAKY,), tags=("pointwise", "static", "float64"),
)

P2_X52_CONE = planted_claim(
    "sheet P2 applied to LT-X52's cone",
    id="P2-X52-cone", node="X52", uses=("T51", "LEAKY"),
    statement="PLANTED: the disagreements lie in the cone with tau = c r / ||w-bar - u-bar||, c = f (1 - alpha) / "
              "(1 + alpha), f in {0.5, 0.9}; LT-X51's construction in d = 2 disagrees around x = e1 (|cos| = 1)",
    check=cone_margin,
    over=st.builds(ConeCase, st.one_of(near_sharp_nets(5), near_sharp_nets(9)), SEEDS),
    assumptions=(LEAKY, "threshold below the sharp constant"),
    tags=("pointwise", "static", "float64", "planted"),
)
