"""Claim sheet 002 section 2.2, Appendix C: Corollary C.1 (LT-CC1), Lemma C.1 (LT-LC1), Propositions C.1 and C.2
(LT-PC1, LT-PC2), Lemma C.2 (LT-LC2), each with its planted twin (alpha = 0 or a constant below the stated one), in
exact rational arithmetic (:mod:`.exact_network`).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from verify.claims.model import Margin, measures

from properties.sarussi2021_linear_teachers._shared import exact_margin, worst
from properties.sarussi2021_linear_teachers.exact_network import (AGREE, LEAKY, ONE, ONE_AGREES, P1_CASE, RELU, TWO,
                                                               ZERO, Case, Geometry, alphas, axis_cases, below_one,
                                                               cluster_cases, dot, fixed, fractions_in, gap_kappas,
                                                               geometry, planted_claim, sign, sign_margin,
                                                               static_claim)

# ---------------------------------------------------------------------------------------------- Appendix C


@measures("+1 holds / -1 violated (exact decision, rational arithmetic)")
def cc1_margin(case: Case) -> Margin:
    """Corollary C.1: g^2 > c^2 r^2 ||x||^2 (c = 2) => a^2 > r^2 ||x||^2 or b^2 > r^2 ||x||^2."""
    geo = geometry(case.net, case.x)
    if not geo.beyond(geo.g, case.c):
        return Margin(0.0, 0.0, "premise fails", vacuous=True)
    ok = geo.beyond(geo.a, ONE) or geo.beyond(geo.b, ONE)
    return exact_margin(ok, f"a = {geo.a}, b = {geo.b}, r^2 ||x||^2 = {geo.r2 * geo.x2}, c = {case.c}")


CC1 = static_claim(
    "Corollary C.1 (LT-CC1)",
    id="LT-CC1", node="CC1",
    statement="|<w-bar - u-bar, x>| > 2 r ||x|| => |<w-bar, x>| > r ||x|| or |<u-bar, x>| > r ||x|| (exact, squared)",
    check=cc1_margin,
    over=st.one_of(cluster_cases(), axis_cases(gap_kappas(lambda _: TWO))),
)

P_CC1 = planted_claim(
    "sheet P2's mutation (a constant below the sharp one) applied to Corollary C.1",
    id="P-CC1-threshold", node="CC1",
    statement="PLANTED: Corollary C.1 with c r ||x||, c < 2: a = r ||x||, b = -r ||x|| gives g = 2 r ||x|| > c r ||x|| "
              "while neither |a| nor |b| exceeds r ||x||",
    check=cc1_margin,
    over=axis_cases(fixed(ONE, -ONE, lambda _: fractions_in(16, 31, 16)), u_axes=(0,)),
)


@measures("+1 holds / -1 violated (exact decision, rational arithmetic); worst over the two clusters")
def lc1_margin(case: Case) -> Margin:
    """Lemma C.1 for each cluster (mean m, neurons n_i, p = <m, x>). reading "strict": p^2 > c^2 r^2 ||x||^2 =>
    sign <n_i, x> = sign p; "weak": p^2 >= c^2 r^2 ||x||^2 => sign(p) <n_i, x> >= 0; "weak-strict" (planted): the
    weak premise with strict signs."""
    geo, parts = geometry(case.net, case.x), []
    for name, m, rows in (("+", case.net.w_bar, case.net.plus), ("-", case.net.u_bar, case.net.minus)):
        p = dot(m, case.x)
        limit = case.c * case.c * geo.r2 * geo.x2
        if not (p * p > limit or (case.reading != "strict" and p * p == limit)):
            continue
        pre = [dot(n, case.x) for n in rows]
        ok = all(sign(v) == sign(p) for v in pre) if case.reading != "weak" else all(sign(p) * v >= 0 for v in pre)
        parts.append(exact_margin(ok, f"{name} cluster ({case.reading}): <mean, x> = {p}, neurons {[str(v) for v in pre]}"))
    return worst(parts, "no cluster meets the premise")


LC1 = static_claim(
    "Lemma C.1 (LT-LC1)",
    id="LT-LC1", node="LC1",
    statement="|<w-bar, x>| > r ||x|| => sign <w^(i), x> = sign <w-bar, x> for every i (the same for the - neurons and "
              "u-bar); the '>=' reading gives weak signs sign<w-bar, x> <w^(i), x> >= 0 (exact)",
    check=lc1_margin,
    over=st.one_of(*(cluster_cases(c=lambda _: ONE, reading=rd) for rd in ("strict", "weak")),
                   axis_cases(fixed(ONE, ZERO, lambda _: st.just(ONE)), reading="weak")),
)

P_LC1 = planted_claim(
    "sheet P2's mutation (a constant below the sharp one) applied to Lemma C.1",
    id="P-LC1-threshold", node="LC1",
    statement="PLANTED: Lemma C.1 with c r ||x||, c < 1: <w-bar, x> = kappa r ||x||, c < kappa < 1, and w = w-bar +- r x^ "
              "gives <w-bar - r x^, x> < 0 < <w-bar, x>",
    check=lc1_margin,
    over=axis_cases(below_one, reading="strict"),
)

P_LC1_WEAK = planted_claim(
    "Lemma C.1's '>=' reading with strict signs (sheet LT-LC1 notes)",
    id="P-LC1-weak-strict", node="LC1",
    statement="PLANTED: |<w-bar, x>| >= r ||x|| => strict signs; <w-bar, x> = r ||x||, w = w-bar +- r x^ has "
              "<w-bar - r x^, x> = 0",
    check=lc1_margin,
    over=axis_cases(fixed(ONE, ZERO, lambda _: st.just(ONE)), reading="weak-strict"),
)


def region_formula(geo: Geometry, k: int, alpha: Fraction) -> Fraction:
    """Proposition C.1's four regions: R1 k g, R2 alpha k g, R3 k (a - alpha b), R4 k (alpha a - b)."""
    if geo.a > 0:
        return k * geo.g if geo.b > 0 else k * (geo.a - alpha * geo.b)
    return k * (alpha * geo.a - geo.b) if geo.b > 0 else alpha * k * geo.g


@measures("worst of exact N = region formula (+1 / -1) and min(1, sign(g) N / (k |g|)), -1 on a sign mismatch")
def pc1_margin(case: Case) -> Margin:
    """Proposition C.1: a^2, b^2 > c^2 r^2 ||x||^2 (c = 1) => N = the region formula, and sign N = sign g."""
    geo, net = geometry(case.net, case.x), case.net
    if not (geo.beyond(geo.a, case.c) and geo.beyond(geo.b, case.c)):
        return Margin(0.0, 0.0, "a cluster does not agree", vacuous=True)
    N, formula = net.output(case.x), region_formula(geo, net.k, net.alpha)
    return worst([exact_margin(N == formula, f"N = {N}, region formula {formula} (a = {geo.a}, b = {geo.b})"),
                  sign_margin(N, geo.g, net.k, "both clusters agree")])


PC1 = static_claim(
    "Proposition C.1 (LT-PC1)",
    id="LT-PC1", node="PC1", uses=("LC1", "LEAKY"),
    statement="|<w-bar, x>|, |<u-bar, x>| > r ||x|| => N = k g (R1: a, b > 0), alpha k g (R2: a, b < 0), k (a - alpha b) "
              "(R3: a > 0 > b), k (alpha a - b) (R4), exactly, and sign N = sign g (no 2r condition)",
    check=pc1_margin,
    over=cluster_cases(regions=AGREE),
    assumptions=(LEAKY,),
)

P_PC1 = planted_claim(
    "sheet P1's mutation (alpha = 0) applied to Proposition C.1",
    id="P-PC1-relu", node="PC1", uses=("LEAKY",),
    statement="PLANTED: Proposition C.1 for ReLU: in R2 (both clusters negative on x) N = alpha k g = 0 while g != 0",
    check=pc1_margin,
    over=cluster_cases(alpha=alphas(zero=True), regions=((-1, -1),)),
    assumptions=(RELU,),
)


@measures("min(1, sign(g) N / (k |g|)) if sign N = sign g, else -1 (exact; g = <w-bar - u-bar, x>)")
def pc2_margin(case: Case) -> Margin:
    """Proposition C.2: exactly one of a^2, b^2 exceeds r^2 ||x||^2 and g^2 > c^2 r^2 ||x||^2 (c = 2) => sign N = sign g."""
    geo = geometry(case.net, case.x)
    if geo.beyond(geo.a, ONE) == geo.beyond(geo.b, ONE) or not geo.beyond(geo.g, case.c):
        return Margin(0.0, 0.0, "not exactly one agreeing cluster, or g within the 2r cone", vacuous=True)
    return sign_margin(case.net.output(case.x), geo.g, case.net.k, f"a = {geo.a}, b = {geo.b}")


PC2 = static_claim(
    "Proposition C.2 (LT-PC2)",
    id="LT-PC2", node="PC2", uses=("LC1", "LEAKY"),
    statement="Exactly one cluster agrees (|<w-bar, x>| > r ||x|| >= |<u-bar, x>| or the reverse) and |g| > 2 r ||x|| "
              "=> sign N = sign g (exact)",
    check=pc2_margin,
    over=st.one_of(cluster_cases(regions=ONE_AGREES),
                   axis_cases(lambda al: st.tuples(fractions_in(-4, 4), fractions_in(1, 8)).map(
                       lambda v: (v[0] - 2 - v[1], v[0], TWO)), u_axes=(1,))),
    assumptions=(LEAKY,),
)

P_PC2 = planted_claim(
    "sheet P1's mutation (alpha = 0) applied to Proposition C.2",
    id="P-PC2-relu", node="PC2", uses=("LEAKY",),
    statement="PLANTED: Proposition C.2 for ReLU: <w-bar, x> < -r ||x|| (all + neurons negative), -r ||x|| <= <u-bar, x> "
              "< 0 with every - neuron <= 0 on x, g < -2 r ||x||: N = 0",
    check=pc2_margin,
    over=axis_cases(lambda al: st.tuples(fractions_in(-4, -1), fractions_in(1, 8)).map(
        lambda v: (v[0] - 2 - v[1], v[0], TWO)), alpha=alphas(zero=True), u_axes=(1,)),
    assumptions=(RELU,),
)


@measures("worst of exact N vs alpha k g (+1 / -1) and min(1, sign(g) N / (k |g|)), -1 on a sign mismatch")
def lc2_margin(case: Case) -> Margin:
    """Lemma C.2: every <w^(i), x> < 0 and g < 0 => N <= alpha k g < 0; every <u^(i), x> < 0 and g > 0 => N >= alpha k g > 0."""
    net, geo, parts = case.net, geometry(case.net, case.x), []
    N = net.output(case.x)
    for side, rows in ((-1, net.plus), (1, net.minus)):
        if sign(geo.g) == side and all(dot(n, case.x) < 0 for n in rows):
            bound = net.alpha * net.k * geo.g
            parts += [exact_margin(side * (N - bound) >= 0, f"N = {N} vs alpha k g = {bound}"),
                      sign_margin(N, geo.g, net.k, f"every {'+' if side < 0 else '-'} neuron negative on x")]
    return worst(parts, "no cluster with every neuron negative on x on the matching side of g")


LC2 = static_claim(
    "Lemma C.2 (LT-LC2)",
    id="LT-LC2", node="LC2", uses=("LEAKY",),
    statement="Every <w^(i), x> < 0 and <w-bar - u-bar, x> < 0 => N_W(x) <= alpha k <w-bar - u-bar, x> < 0; symmetric: "
              "every <u^(i), x> < 0 and g > 0 => N >= alpha k g > 0 (exact)",
    check=lc2_margin,
    over=cluster_cases(regions=((-1, 1), (-1, 0), (-1, -1), (1, -1), (0, -1))),
    assumptions=(LEAKY,),
)

P1_LC2 = planted_claim(
    "sheet P1 (Lemma C.2 with alpha = 0)",
    id="P1-LC2-relu", node="LC2", uses=("LEAKY",),
    statement="PLANTED: Lemma C.2 for ReLU; sheet P1: every <u, x> = -2 < 0 and g = 1 > 0, but N = 0",
    check=lc2_margin,
    over=st.one_of(st.just(P1_CASE), cluster_cases(alpha=alphas(zero=True), regions=((-1, -1),))),
    assumptions=(RELU,),
)
