"""Claim sheet 002 section 2.2: Theorem 5.1 (LT-T51), the sharp constant LT-X51 (its core PROVED by sympy),
Corollary 6.1 (LT-C61) and the planted P1-P3 of sheet 5.2, in exact rational arithmetic (:mod:`.exact_network`).
Appendix C's lemmas are in :mod:`.appendix_c`, LT-X52 (the share of directions outside the linear regime) in
:mod:`.linearity`.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from hypothesis import strategies as st

from verify.claims.direct import symbolic_claim
from verify.claims.model import Margin, measures
from verify.symbolic import ClaimSpec, prove_identity, prove_nonneg_symbolic
from verify.symbolic.result import Claim as Texts, SymbolicResult, proved
from verify.verdicts import Verdict

from properties.sarussi2021_linear_teachers._shared import SEED
from properties.sarussi2021_linear_teachers.exact_network import (LEAKY, ONE, P1_CASE, P2_CASE, RELU, TWO, ZERO, Case,
                                                               ExactNet, alphas, axis_cases, cluster_cases, gap_kappas,
                                                               geometry, planted_claim, sharp, sheet_case, sign_margin,
                                                               static_claim)

# ---------------------------------------------------------------------------------------------- Theorem 5.1, LT-X51


@measures("min(1, sign(g) N / (k |g|)) if sign N = sign g, else -1 (exact; g = <w-bar - u-bar, x>)")
def linear_regime_margin(case: Case) -> Margin:
    """Theorem 5.1 with constant c: g^2 > c^2 r^2 ||x||^2 => sign N_W(x) = sign g (N != 0); vacuous outside the premise.
    ratio = c r ||x|| / |g| (the premise's tightness)."""
    geo = geometry(case.net, case.x)
    if not geo.beyond(geo.g, case.c):
        return Margin(0.0, 0.0, f"premise fails: g^2 = {geo.g * geo.g} <= c^2 r^2 ||x||^2 (c = {case.c})", vacuous=True)
    ratio = geo.ratio(geo.g, case.c)
    note = f"c = {case.c}, c r ||x|| / |g| = {ratio:.4g}"
    return sign_margin(case.net.output(case.x), geo.g, case.net.k, note, ratio)


T51 = static_claim(
    "Theorem 5.1 (LT-T51)",
    id="LT-T51", node="T51", uses=("CC1", "LC1", "PC1", "PC2", "LC2", "LEAKY"),
    statement="For every W, alpha in (0, 1) and x with <w-bar - u-bar, x>^2 > 4 r^2 ||x||^2: sign N_W(x) = "
              "sign <w-bar - u-bar, x> (N != 0), exact rationals; ratio = 2 r ||x|| / |<w-bar - u-bar, x>|",
    check=linear_regime_margin,
    over=st.one_of(cluster_cases(), axis_cases(gap_kappas(lambda _: TWO))),
    assumptions=(LEAKY,),
)

P1_T51 = planted_claim(
    "sheet P1 (Theorem 5.1 with alpha = 0)",
    id="P1-T51-relu", node="T51", uses=("LEAKY",),
    statement="PLANTED: Theorem 5.1 holds for ReLU (alpha = 0); sheet P1: w-bar = (1, 0), u-bar = (0, 1), x = (-1, -2) "
              "has g = 1 > 0 = 2 r ||x|| but N = 0 exactly; also drawn with both clusters negative on x",
    check=linear_regime_margin,
    over=st.one_of(st.just(P1_CASE), cluster_cases(alpha=alphas(zero=True), regions=((-1, -1),))),
    assumptions=(RELU,),
)

X51 = static_claim(
    "LT-X51 (derived: Theorem 5.1's sharp constant)",
    id="LT-X51", node="X51", uses=("T51", "LEAKY"),
    statement="Theorem 5.1 with (1 - alpha) / (1 + alpha) r in place of 2 r: <w-bar - u-bar, x>^2 > ((1 - alpha) / "
              "(1 + alpha))^2 r^2 ||x||^2 => sign N_W(x) = sign <w-bar - u-bar, x>, exact; tight draws of the "
              "construction x = s e1, w = (kappa_a +- 1) r e1, u = kappa_b r e1 +- r e_j just beyond the threshold",
    check=linear_regime_margin,
    over=st.one_of(cluster_cases(c=sharp), axis_cases(gap_kappas(sharp))),
    assumptions=(LEAKY,),
)

P2_X51 = planted_claim(
    "sheet P2 (Theorem 5.1 with a threshold c r, c < (1 - alpha) / (1 + alpha))",
    id="P2-X51-threshold", node="X51", uses=("T51", "LEAKY"),
    statement="PLANTED: Theorem 5.1 with threshold c r, c = f (1 - alpha) / (1 + alpha), f < 1; LT-X51's construction "
              "(x = e1, w = (-Delta +- r, 0), u = (0, +-r), c r < Delta < (1 - alpha) r / (1 + alpha)) has N = (1 - alpha) r "
              "- (1 + alpha) Delta > 0 while g = -Delta (sheet: alpha = 0.2, Delta = 0.99 (2/3) r, N = +0.008 r)",
    check=linear_regime_margin,
    over=st.one_of(st.just(P2_CASE), *(axis_cases(gap_kappas(lambda al, f=f: sharp(al) * Fraction(f, 100),
                                                           below_sharp=True, sides=(-1,)), u_axes=(1,))
                                       for f in (50, 90, 99))),
    assumptions=(LEAKY, "threshold below the sharp constant"),
)


def x51_core(claim: Texts) -> SymbolicResult:
    """h(a) = (sigma(a + r) + sigma(a - r)) / 2 - sigma(a + Delta) < 0 for all a when Delta > c r, c = (1 - alpha) /
    (1 + alpha), alpha = 1 / (1 + t) (t > 0), sigma in abs form. h is continuous and piecewise linear with kinks
    {-r, r, -Delta}, so sup h = max over the kinks once both tails are shown constant. Case Delta <= r: r = Delta + p,
    Delta = (c p + s) / (1 - c) (p >= 0, s = Delta - c r > 0); case Delta > r: Delta = rho + q (rho = r >= 0, q > 0).
    Also h(-Delta) = (1 - alpha)(r + Delta) / 2 - Delta = -(1 + alpha)(Delta - c r) / 2 for Delta <= r (tightness)."""
    t, s, q = sp.symbols("t s q", positive=True)
    p, rho, u = sp.symbols("p rho u", nonnegative=True)
    al = 1 / (1 + t)
    c = (1 - al) / (1 + al)

    def sig(z: sp.Expr) -> sp.Expr:
        return ((1 + al) * z + (1 - al) * sp.Abs(z)) / 2

    def h(a: sp.Expr, r: sp.Expr, D: sp.Expr) -> sp.Expr:
        return (sig(a + r) + sig(a - r)) / 2 - sig(a + D)

    D1 = sp.simplify((c * p + s) / (1 - c))
    parts = []
    for r, D, lo, hi in ((D1 + p, D1, -(D1 + p), D1 + p), (rho, rho + q, -(rho + q), rho)):
        parts += [prove_nonneg_symbolic(claim, -h(a, r, D), strict=True) for a in (-r, r, -D)]
        parts.append(prove_identity(claim, [h(hi + u, r, D), h(lo - u, r, D)], [h(hi, r, D), h(lo, r, D)]))
    r1 = D1 + p
    parts.append(prove_identity(claim, [h(-D1, r1, D1), h(-D1, r1, D1)],
                                [(1 - al) * (r1 + D1) / 2 - D1, -(1 + al) * (D1 - c * r1) / 2]))
    for res in parts:
        if res.verdict is not Verdict.PROVED:
            return res
    return proved(claim, {"parts": [res.certificate for res in parts]},
                  f"all {len(parts)} parts proved: h < 0 at the three kinks in both cases, constant tails, the value at -Delta")


X51_CORE = symbolic_claim(ClaimSpec(
    id="LT-X51-core", source=f"{SEED} LT-X51 (derived: the chord / Jensen bound behind the sharp constant)",
    statement="h(a) = (sigma(a + r) + sigma(a - r)) / 2 - sigma(a + Delta) < 0 for every real a whenever Delta > "
              "(1 - alpha) r / (1 + alpha); at a = -Delta (Delta <= r) it equals (1 - alpha)(r + Delta) / 2 - Delta",
    domain="alpha in (0, 1), r >= 0, Delta > (1 - alpha) r / (1 + alpha), a real", expected=Verdict.PROVED,
    check=x51_core), node="X51", uses=("LEAKY",))


# ---------------------------------------------------------------------------------------------- Corollary 6.1


def distinct_nonzero_rows(net: ExactNet) -> int:
    return len({row for row in net.plus + net.minus if any(row)})


@measures("min(1, sign(g) N / (k |g|)) if sign N = sign g, else -1 (exact; g = <w-bar - u-bar, x>)")
def clustered_sign_margin(case: Case) -> Margin:
    """Corollary 6.1: under the case's hypothesis ("perfectly clustered": all + rows equal and all - rows equal; the
    planted P14 reading "two clusters": the nonzero rows take at most two values), sign N(x) = sign g for the drawn x,
    every x (g = 0 included)."""
    net = case.net
    held = net.r2 == 0 if case.reading == "perfectly clustered" else distinct_nonzero_rows(net) <= 2
    if not held:
        return Margin(0.0, 0.0, f"hypothesis '{case.reading}' fails", vacuous=True)
    return sign_margin(net.output(case.x), geometry(net, case.x).g, net.k, case.reading)


C61 = static_claim(
    "Corollary 6.1 (LT-C61)",
    id="LT-C61", node="C61", uses=("T51", "PC1", "LEAKY"),
    statement="W perfectly clustered (w^(i) = w-bar, u^(i) = u-bar) => sign N_W(x) = sign <w-bar - u-bar, x> for all x, "
              "exact (N = k (sigma(a) - sigma(b)), sigma strictly increasing)",
    check=clustered_sign_margin,
    over=cluster_cases(clustered=True, reading="perfectly clustered"),
    assumptions=(LEAKY,),
)

P3_C61 = planted_claim(
    "sheet P3 (Corollary 6.1 with alpha = 0)",
    id="P3-C61-relu", node="C61", uses=("LEAKY",),
    statement="PLANTED: Corollary 6.1 for ReLU; sheet P1/P3: w-bar = (1, 0), u-bar = (0, 1), x = (-1, -2): N = 0, g = 1",
    check=clustered_sign_margin,
    over=st.one_of(st.just(sheet_case((ONE, ZERO), (ZERO, ONE), ZERO, (-ONE, -TWO), TWO, "perfectly clustered")),
                   cluster_cases(alpha=alphas(zero=True), regions=((-1, -1),), clustered=True,
                                 reading="perfectly clustered")),
    assumptions=(RELU,),
)
