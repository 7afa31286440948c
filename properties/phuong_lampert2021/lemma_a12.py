"""Claim sheet 000, PL-LA1 (Lemma A.1: at an extremal direction g(w) = G(w) w) and PL-LA2 (Lemma A.2: the
local expansion (37) of G on [0, eps_max]), both for general data, decided in exact rational arithmetic
where the sheet asks for it (d = 2 arcs; Fractions for (37)), with the paired reading of (37) at the closed
endpoint eps = eps_max (false: our erratum), the negative control eps > eps_max and the teeth case
"g without P_w" at PC2's kink maximum.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.scenarios import SEEDS
from verify.strategies import GeometryCase, as_case
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import sectors as S
from properties.phuong_lampert2021._shared import U_ROUND, exact_margin, paper_claim, worst

static_claim = partial(paper_claim, horizon=None, tags=("pointwise", "static"))
F = Fraction


@st.composite
def any_cases(draw: st.DrawFn, d: tuple[int, int] = (2, 4), n: tuple[int, int] = (1, 6)) -> GeometryCase:
    """General data (no OS): Gaussian entries on a 1/8 grid (short rationals), labels at random."""
    dim, count, seed = draw(st.integers(*d)), draw(st.integers(*n)), draw(SEEDS)
    rng = np.random.default_rng(seed)
    X = np.round(8 * rng.standard_normal((count, dim))) / 8
    X[~X.any(axis=1), 0] = 1.0
    y = np.where(rng.random(count) < 0.5, -1.0, 1.0)
    return GeometryCase(Dataset(X, y, name=f"pl_grid(n={count}, d={dim}, seed={seed})"), draw(SEEDS),
                        {"data": "grid", "n": count, "d": dim, "seed": seed})


def _rows(ds: Dataset) -> list[list[Fraction]]:
    return [[F(float(v)) for v in r] for r in ds.X]


def _dot(a: list[Fraction], b: list[Fraction]) -> Fraction:
    return sum((p * q for p, q in zip(a, b)), F(0))


@measures("+1 holds / -1 violated (exact rational check of g(b) = G(b) b at every strict extremum, d = 2)")
def first_order_2d(case: GeometryCase, project: bool = True) -> Margin:
    """Lemma A.1 in d = 2, exactly: at every strict local extremum b of G (exact arcs, :func:`sectors.extremal_2d`)
    ||b||^2 g(b) = G(b) b, i.e. g(b^) = G(b^) b^, with g of eq. (31) (P_b: projector onto span{x_k : b.x_k = 0}^perp;
    ``project=False`` drops it)."""
    ds = as_case(case).dataset
    if ds.d != 2:
        return Margin(0.0, 0.0, "exact arcs need d = 2", vacuous=True)
    rows = _rows(ds)
    coef = [S.CE_WEIGHT * int(t) for t in ds.y]
    found = S.extremal_2d(ds.X, ds.y)
    if not found:
        return Margin(0.0, 0.0, "G has no strict local extremum (all dead or constant)", vacuous=True)
    for e in found:
        b = list(e.direction)
        p = [_dot(b, r) for r in rows]
        g = [sum((coef[i] * rows[i][k] for i in range(ds.n) if p[i] > 0), F(0)) for k in (0, 1)]
        if project and any(v == 0 for v in p):
            g = [_dot(g, b) * bk / _dot(b, b) for bk in b]  # d = 2: span{x_k : b.x_k = 0}^perp is the line of b
        G = sum((coef[i] * p[i] for i in range(ds.n) if p[i] > 0), F(0))
        r = [_dot(b, b) * g[k] - G * b[k] for k in (0, 1)]
        if any(r):
            return exact_margin(False, f"{e.kind} at {[float(t) for t in b]} ({'kink' if e.kink else 'interior'}): "
                                       f"||b||^2 g(b) - G(b) b = {[float(t) for t in r]} != 0")
    return exact_margin(True, f"g(w) = G(w) w exactly at all {len(found)} strict local extrema")


@measures("-||g(m^) - G(m^) m^|| / sum_i c_i ||x_i|| at m^+- (relative residual; 0 holds)")
def first_order_centres(case: GeometryCase) -> Margin:
    """Lemma A.1 on OS data in any d at m^+- (the extremal directions, PL-X3): ||g(m^) - G(m^) m^|| relative to
    sum_i c_i ||x_i||, zero set modulo 1e-12; error 64 n d u."""
    ds = as_case(case).dataset
    c = np.full(ds.n, 0.5)
    scale = float(np.sum(c * ds.norms))
    parts = []
    for m in S.centres(ds.X, ds.y):
        if not np.any(m):
            continue
        w = m / np.linalg.norm(m)
        res = float(np.linalg.norm(S.g_sector(ds.X, ds.y, c, w, tau=1e-12) - S.G_values(ds.X, ds.y, c, w)[0] * w))
        parts.append(Margin(-res / scale, 64.0 * ds.n * ds.d * U_ROUND, f"residual {res:.3g} at m^ = {np.round(w, 6).tolist()}"))
    return worst(parts, "no class present")


LA1 = static_claim(
    id="PL-LA1",
    node="LA1", uses=("OS", "X3"),
    source="Lemma A.1; PL-LA1 (at m^+- on OS data)",
    statement="At the extremal directions m^+- of OS data (zero entries included) g(w) = G(w) w, with g of eq. (31)",
    check=first_order_centres,
    over=D.os_cases(),
    assumptions=("H-OS (by construction)",),
)

LA1_D2 = static_claim(
    id="PL-LA1-d2",
    node="LA1",
    source="Lemma A.1; PL-LA1 (symbolic check: exact rational data, d = 2, every extremal direction)",
    statement="d = 2, any data (OS or not, incl. PC1/PC2): at every strict local extremum w of G on the circle, interior "
              "or kink, g(w) = G(w) w exactly (rational arithmetic)",
    check=first_order_2d,
    over=st.one_of(any_cases(d=(2, 2)), D.os_cases(d=(2, 2)), D.fixed_cases(D.pc1, D.pc2)),
)

PC2_LA1 = static_claim(
    id="PC2-LA1-no-projection",
    node="LA1",
    source="Lemma A.1, eq. (31) (the projector P_w); sheet 5.6 PC2 / PC11 (P_w matters only at zero entries)",
    statement="TEETH: with g computed WITHOUT P_w, the first-order condition fails at PC2's kink maximum (30 deg, orthogonal "
              "to the negative at 120 deg): P_w in eq. (31) is needed",
    check=partial(first_order_2d, project=False),
    over=D.fixed_cases(D.pc2),
    meta={"margin_unit": "+1 holds / -1 violated (exact rational check of g(b) = G(b) b with g WITHOUT P_w, d = 2)"},
    expected=Verdict.REFUTED,
    tags=("pointwise", "static", "planted"),
)


@measures("+1 holds / -1 violated (exact rational identity (37) at the drawn w, v, eps)")
def expansion(case: GeometryCase, mode: str = "open") -> Margin:
    """Eq. (37) times ||w + eps v|| (G is 1-homogeneous), exactly in rationals:
    G(w + eps v) = G(w) + eps sum_i c_i y_i 1{(w + eps v)^T x_i > 0} v^T x_i, for rational w (half the draws put
    exactly on a boundary w^T x_k = 0), v, and eps = r eps_max with r in (0, 1) (``mode`` "open"), eps = eps_max
    ("closed", the printed [0, eps_max]; v is then steered so that an active example reaches 0), or eps between eps_max and the next sign change ("beyond")."""
    case = as_case(case)
    ds, rng = case.dataset, case.rng
    rows = _rows(ds)
    coef = [S.CE_WEIGHT * int(t) for t in ds.y]
    w = [F(int(k), 8) for k in rng.integers(-16, 17, size=ds.d)]
    v = [F(int(k), 8) for k in rng.integers(-16, 17, size=ds.d)]
    if rng.random() < 0.5:
        xk = rows[int(rng.integers(ds.n))]
        t = _dot(w, xk) / _dot(xk, xk)
        w = [a - t * b for a, b in zip(w, xk)]
    active = [i for i in range(ds.n) if _dot(w, rows[i]) > 0]
    if mode == "closed" and active:  # steer v so that an active example is driven to 0 (the case the reading affects)
        k = active[int(rng.integers(len(active)))]
        t = (_dot(v, rows[k]) + 1) / _dot(rows[k], rows[k])
        v = [a - t * b for a, b in zip(v, rows[k])]
    if not any(w) or not any(v):
        return Margin(0.0, 0.0, "w or v is zero", vacuous=True)
    p = [_dot(w, r) for r in rows]
    q = [_dot(v, r) for r in rows]
    flips = sorted({-p[i] / q[i] for i in range(ds.n) if p[i] * q[i] < 0})
    if mode == "open":
        r = F(int(rng.integers(1, 16)), 16)
        eps = r * flips[0] if flips else r
    elif not flips:
        return Margin(0.0, 0.0, "no sign change along w + eps v: eps_max = infinity", vacuous=True)
    elif mode == "closed":
        eps = flips[0]
    else:
        crossings = sorted({-p[i] / q[i] for i in range(ds.n) if q[i] != 0 and -p[i] / q[i] > flips[0]})
        eps = (flips[0] + crossings[0]) / 2 if crossings else 2 * flips[0]
    G = lambda z: sum((coef[i] * _dot(z, rows[i]) for i in range(ds.n) if _dot(z, rows[i]) > 0), F(0))  # noqa: E731
    u = [a + eps * b for a, b in zip(w, v)]
    pu = [_dot(u, r) for r in rows]
    rhs = G(w) + eps * sum((coef[i] * q[i] for i in range(ds.n) if pu[i] > 0), F(0))
    diff = G(u) - rhs
    where = f"w = {[str(a) for a in w]}, v = {[str(b) for b in v]}, eps = {eps} (eps_max = {flips[0] if flips else 'inf'})"
    return exact_margin(diff == 0, f"LHS - RHS = {diff} at {where}")


LA2 = static_claim(
    id="PL-LA2",
    node="LA2",
    source="Lemma A.2, eq. (37); PL-LA2 (exact rational identity test, eps in (0, eps_max))",
    statement="For w in S^{d-1}, v in R^d and eps in [0, eps_max) (eq. (40)): G((w+eps v)/||w+eps v||) = (G(w) - eps sum_i "
              "l_i'(0) 1{(w+eps v)^T x_i > 0} v^T x_i)/||w+eps v||, exactly, any data, w also on boundaries",
    check=expansion,
    over=st.one_of(any_cases(), D.os_cases()),
)

LA2_CLOSED = static_claim(
    id="PL-LA2-closed",
    node="LA2",
    source="Lemma A.2, eqs. (37) and (40) as printed (eps in the CLOSED interval [0, eps_max]); erratum",
    statement="AS PRINTED: (37) also holds at eps = eps_max. False when eps_max is set by an active example reaching "
              "(w + eps v)^T x_i = 0 (its relu is 0 but 1{... > 0} drops its G(w) share); harmless for Lemma 2 (small eps)",
    check=partial(expansion, mode="closed"),
    over=st.one_of(any_cases(), D.os_cases()),
    meta={"margin_unit": "+1 holds / -1 violated (exact rational identity (37) at eps = eps_max)"},
    expected=Verdict.REFUTED,
    tags=("pointwise", "static", "erratum"),
)

LA2_BEYOND = static_claim(
    id="PL-LA2-beyond",
    node="LA2",
    source="Lemma A.2; PL-LA2 negative control (eps > eps_max)",
    statement="NEGATIVE CONTROL: (37) fails for eps just beyond eps_max (one strict sign flip)",
    check=partial(expansion, mode="beyond"),
    over=st.one_of(any_cases(), D.os_cases()),
    meta={"margin_unit": "+1 holds / -1 violated (exact rational identity (37) at eps beyond eps_max)"},
    expected=Verdict.REFUTED,
    tags=("pointwise", "static", "planted"),
)
