"""Claim sheet 000, PL-L2 (Lemma 2: exactly one positive and one negative extremal direction, in sectors
sigma+ and sigma- of eqs. (13)-(14)) and PL-X3 (they are the class centres m+- with G(m+-) = +-||m+-||),
the gap in Lemma 2's proof, and the planted counterexamples PC1 (not OS: three positive extremal
directions) and PC2 (not OS: G(m+) < ||m+||), with the negative control PC12 (exact zero entries).
All static: pointwise claims over drawn datasets (horizon None).
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.strategies import GeometryCase, as_case
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import sectors as S
from properties.phuong_lampert2021._shared import exact_margin, paper_claim, worst

ENUM_ERROR = 1e-6  # error of a strictness measure (relative drop / delta^2) from float64 G values
L2_USES = ("OS", "LA1", "LA2", "X3")

static_claim = partial(paper_claim, horizon=None, tags=("pointwise", "static"))


def _weights(case: GeometryCase, general: bool) -> list[Fraction]:
    """c_i = 1/2 (cross-entropy), or random rationals in [1/4, 2] (the 'more general loss', -y_i l_i'(0) > 0)."""
    n = case.dataset.n
    if not general:
        return [S.CE_WEIGHT] * n
    return [Fraction(int(k), 8) for k in case.rng.integers(2, 17, size=n)]


@measures("+1 holds / -1 violated (exact rational comparison of sigma+- with sign(X m+-))")
def sector_identity(case: GeometryCase) -> Margin:
    """sigma+ of eq. (13) equals sign(X m+) and sigma- of eq. (14) equals sign(X m-), zero entries included
    (exact rational arithmetic on the stored floats)."""
    ds = as_case(case).dataset
    gram, cp, cm = S.exact_signs(ds.X, ds.y)
    try:
        sp, sm = S.sigma_pm(ds.y, gram)
    except ValueError as exc:
        return Margin(0.0, 0.0, str(exc), vacuous=True)
    ok = bool(np.array_equal(sp, cp) and np.array_equal(sm, cm))
    return exact_margin(ok, f"sigma+ = {sp.tolist()}, sign(X m+) = {cp.tolist()}; sigma- = {sm.tolist()}, sign(X m-) = {cm.tolist()}")


@measures("+1 holds / -1 violated (exact rational arc enumeration of G's strict extrema, d = 2)")
def extremal_exact_2d(case: GeometryCase, general: bool = False) -> Margin:
    """d = 2, exact: the strict local maxima of G on the circle are exactly the ray of m+ and the strict
    local minima exactly the ray of m- (c_i-weighted centres), found by arc enumeration in rationals."""
    case = as_case(case)
    ds = case.dataset
    if ds.d != 2:
        return Margin(0.0, 0.0, "exact arcs need d = 2", vacuous=True)
    c = _weights(case, general)
    found = S.extremal_2d(ds.X, ds.y, c)
    rows = [(Fraction(float(a)), Fraction(float(b))) for a, b in ds.X]
    parts = []
    for kind, label in (("max", 1), ("min", -1)):
        m = [sum((c[i] * rows[i][k] for i in range(ds.n) if ds.y[i] == label), Fraction(0)) for k in (0, 1)]
        got = [e for e in found if e.kind == kind]  # G(m^-) = -||m-||: the minimum sits on the ray of m- itself
        ok = len(got) == 1 and S.same_ray(got[0].direction, m)
        dirs = [round(float(np.degrees(np.arctan2(float(e.direction[1]), float(e.direction[0])))), 4) for e in got]
        parts.append(exact_margin(ok, f"strict local {kind}ima of G at {dirs} deg (expected one, on the ray of m{'+' if label > 0 else '-'})"))
    return worst(parts)


@measures("+1 unique strict extremum at m^+-; else -(strictness of an extra one) or -(1 - cos to m^)")
def extremal_enumerated(case: GeometryCase) -> Margin:
    """Any d: the strict local maxima (minima) of G among the Lemma A.1 candidates are exactly m^+ (m^-);
    an extra extremum gives the margin -(its strictness), a missing one -(1 - cos). Also eq. (13) = sign(X m+)."""
    case = as_case(case)
    ds = case.dataset
    c = np.full(ds.n, 0.5)
    maxima, minima = S.enumerate_extremal(ds.X, ds.y, c, case.rng)
    m_plus, m_minus = S.centres(ds.X, ds.y)
    parts = [sector_identity(case)] if ds.both_classes else []
    for found, target, sign, name in ((maxima, m_plus, 1, "max"), (minima, m_minus, -1, "min")):
        if not np.any(target):
            continue
        t = target / np.linalg.norm(target)
        near = [w for w in found if float(w @ t) > 1 - 1e-9]
        extra = [w for w in found if float(w @ t) <= 1 - 1e-9]
        for w in extra:
            drop = S.strict_drop(ds.X, ds.y, c, w, sign, case.rng)
            parts.append(Margin(-drop, ENUM_ERROR, f"extra strict local {name} of G at {np.round(w, 6).tolist()} "
                                                   f"(strictness {drop:.3g}); m^ = {np.round(t, 6).tolist()}"))
        if not near:
            best = max((float(w @ t) for w in found), default=-1.0)
            parts.append(Margin(-(1.0 - best), 1e-9, f"m^ = {np.round(t, 6).tolist()} is not a strict local {name}"))
        else:
            parts.append(Margin(1.0, 0.0, f"unique strict local {name} at m^ (cos {float(near[0] @ t):.12f})"))
    return worst(parts, "no class present")


L2 = static_claim(
    id="PL-L2",
    node="L2", uses=L2_USES,
    source="Lemma 2; PL-L2 (check (a) and (b) by Lemma A.1 candidate enumeration, sheet 4.4(b))",
    statement="On OS data G has exactly one strict local max (m^+, in sector sigma+ of eq. (13)) and one strict local "
              "min (m^-, in sigma- of eq. (14)) on the sphere; sigma+- = sign(X m+-) with zero entries",
    check=extremal_enumerated,
    over=D.os_cases(d=(2, 3), n_side=(1, 3)),
    assumptions=("H-OS (by construction)", "cross-entropy c_i = 1/2"),
)

L2_D2 = static_claim(
    id="PL-L2-d2",
    node="L2", uses=L2_USES,
    source="Lemma 2; PL-L2 check (d) / sheet 6 (exact arcs in d = 2)",
    statement="d = 2, exact rational arc enumeration: the strict local maxima of G on the circle are the ray of m+ "
              "only and the strict local minima the ray of m- only",
    check=extremal_exact_2d,
    over=D.os_cases(d=(2, 2)),
    assumptions=("H-OS (by construction)", "d = 2", "cross-entropy c_i = 1/2"),
)

L2_LGEN = static_claim(
    id="PL-L2-lgen",
    node="L2", uses=L2_USES,
    source="Lemma 2 under the 'more general loss' clause (-y_i l_i'(0) > 0); PL-L2, PC7 (c_i = 1 still holds)",
    statement="d = 2, exact: with arbitrary weights c_i > 0 (random rationals), G = sum c_i y_i relu(w^T x_i) has "
              "one strict local max, on the ray of sum_{+} c_i x_i, and one strict local min, on the ray of sum_{-} c_i x_i",
    check=partial(extremal_exact_2d, general=True),
    over=D.os_cases(d=(2, 2)),
    assumptions=("H-OS (by construction)", "d = 2", "c_i > 0 arbitrary (H-LGEN)"),
    meta={"margin_unit": extremal_exact_2d.margin_unit},
)

SIGMA = static_claim(
    id="PL-L2-sigma",
    node="L2", uses=("OS", "X3"),
    source="Lemma 2, eqs. (13)-(14); PL-L2 check (a), PL-X3 (sigma+- = sign(X^T m+-))",
    statement="sigma+ of eq. (13) = sign(X m+) and sigma- of eq. (14) = sign(X m-) componentwise, zero entries included "
              "(exact rationals; data with exactly orthogonal cross pairs drawn on purpose)",
    check=sector_identity,
    over=D.os_cases(d=(2, 4), n_side=(1, 5)),
    assumptions=("H-OS (by construction)",),
)

PC1_L2 = static_claim(
    id="PC1-L2",
    node="L2", uses=L2_USES,
    source="sheet 5.6 PC1 (within-class obtuse pair, not OS; breaks Lemma 2)",
    statement="PLANTED: on PC1 (+ at 0 and 120 deg, - at 225 and 240 deg) G has three strict local maxima (0, 60, 120 deg), "
              "so Lemma 2's uniqueness fails without OS (exact arcs)",
    check=extremal_exact_2d,
    over=D.fixed_cases(D.pc1),
    expected=Verdict.REFUTED,
    assumptions=("drops H-OS (within-class obtuse pair)",),
    tags=("pointwise", "static", "planted"),
)

PC12_L2 = static_claim(
    id="PC12-L2",
    node="L2", uses=L2_USES,
    source="sheet 5.6 PC12 (exactly orthogonal cross pairs; Lemma 2 with zero entries modulo tau must hold)",
    statement="On PC12 (the negative (0, 0, -1) orthogonal to both positives, H-SPAN false) the unique strict local max "
              "is m^+ in sigma+ = (1, 1, 0, -1) (zero entry handled modulo tau) and the unique strict local min is m^-",
    check=extremal_enumerated,
    over=D.fixed_cases(D.pc12),
    assumptions=("H-OS with exact zero cross products", "drops H-SPAN"),
    tags=("pointwise", "static", "negative-control"),
)


@measures("min of -|G(m^+-) -+ ||m+-|||, ||m+-|| - sampled sup of +-G, over sum_i c_i ||x_i|| (relative)")
def centre_values(case: GeometryCase) -> Margin:
    """PL-X3: G(m^+) = ||m+||, G(m^-) = -||m-||, and ||m-|| <= -G(w), G(w) <= ||m+|| on random unit w and on
    every normalised partial class sum; margin relative to sum_i c_i ||x_i||, error 16 n u."""
    case = as_case(case)
    ds = case.dataset
    c = np.full(ds.n, 0.5)
    scale = float(np.sum(c * ds.norms))
    m_plus, m_minus = S.centres(ds.X, ds.y)
    parts = []
    err = 16.0 * ds.n * 2.0**-53
    W = case.rng.standard_normal((256, ds.d))
    masks = case.rng.random((64, ds.n)) < 0.5
    W = np.vstack([W, (masks * c) @ ds.X, -(masks * c) @ ds.X])
    W = W[np.linalg.norm(W, axis=1) > 0]
    W /= np.linalg.norm(W, axis=1, keepdims=True)
    Gs = S.G_values(ds.X, ds.y, c, W)
    for m, sign, name in ((m_plus, 1, "+"), (m_minus, -1, "-")):
        nm = float(np.linalg.norm(m))
        if nm == 0.0:
            continue
        g = float(S.G_values(ds.X, ds.y, c, m / nm)[0])
        parts.append(Margin(-abs(g - sign * nm) / scale, err, f"G(m^{name}) = {g:.12g} vs {sign * nm:.12g}"))
        ext = float(np.max(sign * Gs))
        parts.append(Margin((nm - ext) / scale, err, f"sup of {'' if sign > 0 else '-'}G on samples {ext:.12g} <= ||m{name}|| = {nm:.12g}"))
    return worst(parts, "no class present")


X3 = static_claim(
    id="PL-X3",
    node="X3", uses=("OS",),
    source="PL-X3 (derived: explicit extremal directions m^+-)",
    statement="On OS data G(m^+) = ||m+|| = max G on the sphere and G(m^-) = -||m-|| = min G (c_i = 1/2)",
    check=centre_values,
    over=D.os_cases(),
    assumptions=("H-OS (by construction)",),
)

PC2_X3 = static_claim(
    id="PC2-X3",
    node="X3", uses=("OS",),
    source="sheet 5.6 PC2 (cross-class acute pair, not OS; breaks PL-X3)",
    statement="PLANTED: on PC2 m^+ (40 deg) is active on the negative at 120 deg, so G(m^+) < ||m+||",
    check=centre_values,
    over=D.fixed_cases(D.pc2),
    expected=Verdict.REFUTED,
    assumptions=("drops H-OS (cross-class acute pair)",),
    tags=("pointwise", "static", "planted"),
)


@measures("+1 holds / -1 violated (exact rational sign of the ascent derivative's numerator N)")
def ascent_step(case: GeometryCase) -> Margin:
    """Lemma 2's proof step, exactly: for w in a sector sigma != sigma+ with a wrong-sign entry j, the direction
    v = y_j x_j strictly increases G(w/||w||): N = a ||w||^2 - G(w) (w . v) > 0, a = sum_i c_i y_i 1{(w + 0 v)^T x_i > 0}
    v^T x_i (the right-hand derivative's numerator). Candidate w: the axes, +-x_i and random directions."""
    case = as_case(case)
    ds = case.dataset
    rows = [[Fraction(float(v)) for v in r] for r in ds.X]
    cands = np.vstack([np.eye(ds.d), -np.eye(ds.d), ds.X, -ds.X, case.rng.standard_normal((16, ds.d))])
    dot = lambda a, b: sum((p * q for p, q in zip(a, b)), Fraction(0))  # noqa: E731
    half = Fraction(1, 2)
    for wf in cands:
        w = [Fraction(float(v)) for v in wf]
        p = [dot(w, r) for r in rows]
        G = sum((half * int(ds.y[i]) * p[i] for i in range(ds.n) if p[i] > 0), Fraction(0))
        for j in range(ds.n):
            if not ((ds.y[j] > 0 and p[j] < 0) or (ds.y[j] < 0 and p[j] > 0)):
                continue
            v = [int(ds.y[j]) * x for x in rows[j]]
            q = [dot(v, r) for r in rows]
            a = sum((half * int(ds.y[i]) * q[i] for i in range(ds.n) if p[i] > 0 or (p[i] == 0 and q[i] > 0)), Fraction(0))
            N = a * dot(w, w) - G * dot(w, v)
            if N <= 0:
                return Margin(-1.0, 0.0, f"w = {[float(t) for t in w]}, wrong-sign j = {j}: G(w) = {float(G):.6g}, "
                                         f"derivative numerator {float(N):.6g} <= 0 (v = y_j x_j does not ascend)", site={"i": j})
    return exact_margin(True, "v = y_j x_j ascends at every candidate w with a wrong-sign entry")


ASCENT = static_claim(
    id="PL-L2-ascent-step",
    node="L2", uses=("OS", "LA2"),
    source="Lemma 2 proof (ascent direction v = y_j x_j for a wrong-sign entry); PL-L2 'Gap'",
    statement="AS WRITTEN IN THE PROOF: in every sector sigma != sigma+, for every wrong-sign example j, v = y_j x_j/||x_j|| "
              "strictly increases G on the sphere. Refuted where G(w) < 0 (the step needs G(w) >= 0); Lemma 2 itself holds",
    check=ascent_step,
    over=st.one_of(D.fixed_cases(D.ascent_gap), D.os_cases(d=(2, 3))),
    expected=Verdict.REFUTED,
    assumptions=("H-OS (by construction)",),
    tags=("pointwise", "static", "proof-step"),
)
