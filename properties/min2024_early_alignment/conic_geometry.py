"""Claim sheet 004, section 2.D (conic geometry; static, pure property tests): EA-D1 the cones and data
placement, EA-D2 Lemma 5, EA-D3 Lemma 6, EA-D4 Lemma 7, EA-D5 Lemma 8 (with its tightness), EA-D6
Lemma 9 and EA-D7 Lemma 11, with the planted counterexamples P1 (Assumption 1 false) and P6 (mu = 0).
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np
from hypothesis import strategies as st

from verify import geometry
from verify.audit import class_rhos
from properties.min2024_early_alignment import patterns as pat
from verify.claims.model import Margin, measures
from verify.data import generators as gen
from properties.min2024_early_alignment import datasets as d004
from verify.data.dataset import Dataset
from verify.scenarios import SEEDS
from verify.strategies import GeometryCase, as_case, geometry_cases
from verify.verdicts import Verdict

from properties.min2024_early_alignment.audit import zeta1_sup
from properties.min2024_early_alignment._shared import STRICT_TINY, U_ROUND, paper_claim


N_VECTORS = 256  # random vectors per geometry case


def k_coefficients(rng: np.random.Generator, n: int, m: int = N_VECTORS) -> np.ndarray:
    """m nonnegative coefficient vectors: one-hot rows, sparse pairs and dense exponential rows, shape (m, n)."""
    A = rng.exponential(size=(m, n))
    sparse = rng.random((m, n)) < 0.5
    A[m // 4: m // 2] *= sparse[m // 4: m // 2]
    A[: min(n, m)] = np.eye(n)[: min(n, m)]
    A[np.all(A == 0.0, axis=1), 0] = 1.0
    return A


def cone_depth(ds: Dataset, Z: np.ndarray, cone: str) -> np.ndarray:
    """Signed depth of rows of Z in a cone: min_i c_i cos(x_i, z), c_i = y_i (S+), -y_i (S-), -1 (S_dead).

    Membership: S+ needs depth > 0 on positives and >= 0 on negatives; the depth alone is > 0
    strictly inside the cap-like interior and >= 0 on the closed cone. Returns shape (m,)."""
    c = ds.y if cone == "S+" else (-ds.y if cone == "S-" else -np.ones(ds.n))
    cos = (Z @ ds.X.T) / (np.linalg.norm(Z, axis=1)[:, None] * ds.norms[None, :])
    return np.min(c[None, :] * cos, axis=1)


def cone_members(ds: Dataset, cone: str, rng: np.random.Generator, m: int = N_VECTORS) -> np.ndarray:
    """Members of S+, S- or S_dead found among random unit vectors, the signed data and their negations."""
    cand = np.vstack([rng.standard_normal((8 * m, ds.d)), ds.signed, -ds.signed])
    cand /= np.linalg.norm(cand, axis=1, keepdims=True)
    test = {"S+": lambda z: geometry.in_S_plus(ds, z), "S-": lambda z: geometry.in_S_minus(ds, z), "S_dead": lambda z: geometry.in_S_dead(ds, z)}[cone]
    keep = [z for z in cand if test(z)]
    return np.array(keep[:m]) if keep else np.zeros((0, ds.d))


@measures("min over i, k of cos(y_k x_k, y_i x_i), the data's cone-membership cosine (exact sign near 0)")
def data_in_cones(case: GeometryCase) -> Margin:
    """EA-D1: x_i in S+ for i in I+ and x_i in S- for i in I- (so S+ and S- are non-empty).

    x_i is in the cone of its label iff cos(y_k x_k, y_i x_i) > 0 for same-label k (strict: x_k
    must be active) and >= 0 for opposite-label k. Margin: the smallest such cosine; a value
    within the float error (8 d u) of 0 is decided by the exact rational sign, and an exact
    violation is returned with error 0."""
    case = as_case(case)
    ds = case.dataset
    err = 8.0 * ds.d * U_ROUND
    G = (ds.signed @ ds.signed.T) / np.outer(ds.norms, ds.norms)  # cos(y_i x_i, y_k x_k)
    worst, where = np.inf, ""
    for i in range(ds.n):
        val = float(G[i].min())
        if val <= err:
            exact = pat.exact_signed_gram_signs(ds.X, ds.y, (np.arange(ds.n) == i).astype(float))  # sign of <y_k x_k, y_i x_i>
            same = ds.y == ds.y[i]
            bad = ((exact <= 0) & same) | ((exact < 0) & ~same)
            if bad.any():
                k = int(np.flatnonzero(bad)[0])
                return Margin(min(val, STRICT_TINY), 0.0 if val > -err else err,
                              f"x_{i} (label {ds.y[i]:+.0f}) is not in S{'+' if ds.y[i] > 0 else '-'}: "
                              f"cos(y_{k} x_{k}, y_{i} x_{i}) = {G[i, k]:.3g} has the wrong sign", site={"i": i})
            val = max(val, 0.0)
        if val < worst:
            worst, where = val, f"data point {i}"
    return Margin(float(worst), err, f"min membership cosine {worst:.3g} at {where}")


@measures("min membership depth min_i c_i cos(x_i, z) over positive combinations z of cone members (cosine)")
def cones_convex(case: GeometryCase) -> Margin:
    """EA-D3 (Lemma 6) and the cone part of EA-D1: positive combinations of members of S+ (S-, S_dead)
    stay in S+ (S-, S_dead); members are random unit vectors found in each cone.

    Margin: the smallest membership depth (:func:`cone_depth`, >= 0 inside the closed cone) of the
    combinations, with the points that must be active required strictly active; error 8 d u."""
    case = as_case(case)
    ds, rng = case.dataset, case.rng
    err = 8.0 * ds.d * U_ROUND
    worst, where, tested = np.inf, "", 0
    for cone in ("S+", "S-", "S_dead"):
        Z = cone_members(ds, cone, rng, 64)
        if len(Z) < 2:
            continue
        tested += 1
        A = rng.exponential(size=(N_VECTORS, len(Z))) * (rng.random((N_VECTORS, len(Z))) < 0.5)
        A[np.all(A == 0.0, axis=1), 0] = 1.0
        combos = A @ Z
        depth = cone_depth(ds, combos, cone)
        if cone != "S_dead" and np.any(ds.y > 0 if cone == "S+" else ds.y < 0):  # a missing class: nothing must be active
            act = (ds.y > 0) if cone == "S+" else (ds.y < 0)
            cosa = (combos @ ds.X[act].T) / (np.linalg.norm(combos, axis=1)[:, None] * ds.norms[act][None, :])
            depth = np.minimum(depth, np.where(cosa.min(axis=1) > 0.0, np.inf, STRICT_TINY))
        if depth.min() < worst:
            worst, where = float(depth.min()), f"a positive combination of {cone} members"
    if tested == 0:
        return Margin(0.0, 0.0, "fewer than two members found in every cone", vacuous=True)
    return Margin(float(worst), err, f"min membership depth {worst:.3g} at {where}")


@measures("min of the data's cone-membership cosine and the depth of cone combinations (cosine, dimensionless)")
def cones_margin(case: GeometryCase) -> Margin:
    """EA-D1: data membership (:func:`data_in_cones`) and convexity of the three cones (:func:`cones_convex`)."""
    case = as_case(case)
    first = data_in_cones(case)
    if first.value < -first.error:
        return first
    second = cones_convex(case)
    return second if second.value < first.value and not second.vacuous else first


# Static geometry of the drawn data set (Assumption 1 by construction), one pointwise case per example.
geometry_claim = partial(paper_claim, over=geometry_cases(), tags=("pointwise", "geometry"))

D1 = geometry_claim(
    id="EA-D1",
    node="A1",
    source="Sec. 3 (cones S+, S-, S_dead) and Lemma 6",
    statement="Given Assumption 1: x_i in S+ for i in I+, x_i in S- for i in I- (so S+-, S- are non-empty); "
              "S+, S- and S_dead are convex cones (closed under positive combinations)",
    check=cones_margin,
    assumptions=("Assumption 1 (by construction)",),
)


@st.composite
def non_assumption1_cases(draw: st.DrawFn) -> GeometryCase:
    """Sheet P1: planted P1(a), P1(b), seed 000's PC2, or near_miss data (one cross-class acute pair)."""
    kind = draw(st.sampled_from(["near_miss", "planted_p1a", "planted_p1b", "pc2_cross_class_acute"]))
    if kind == "near_miss":
        params = {"n_pos": draw(st.integers(1, 3)), "n_neg": draw(st.integers(1, 3)), "d": draw(st.integers(2, 3)),
                  "violation": draw(st.integers(1, 50)) / 100.0, "seed": draw(SEEDS)}
        ds = gen.near_miss(**params)
    else:
        params = {}
        ds = gen.make_dataset(kind)
    return GeometryCase(ds, draw(SEEDS), {"data": kind, **params})


P1_D1 = paper_claim(
    id="P1-D1-data-outside-cones",
    node="A1",
    source="sheet P1 (Assumption 1 false; breaks EA-D1)",
    statement="PLANTED: without Assumption 1 some x_i is not in the cone of its label (e.g. P1(a): <x2, x1> < 0 with both +1, "
              "so x1 is not in S+; near-miss data: a cross-class acute pair)",
    check=data_in_cones,
    over=non_assumption1_cases(),
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1",),
    tags=("pointwise", "geometry", "planted"),
)


@measures("min over sampled pairs z1, z2 in K of cos(z1, z2) - mu (cosine units)")
def lemma5_margin(case: GeometryCase) -> Margin:
    """EA-D2 (Lemma 5): cos(z1, z2) >= mu for nonzero z1, z2 in K (random nonnegative, incl. one-hot, coefficients).

    Margin min (cos - mu), error 8 n u (the extremes attain equality)."""
    case = as_case(case)
    ds, rng = case.dataset, case.rng
    mu = geometry.mu(ds)
    A, B = k_coefficients(rng, ds.n), k_coefficients(rng, ds.n)[::-1]
    Z1, Z2 = A @ ds.signed, B @ ds.signed
    cos = np.sum(Z1 * Z2, axis=1) / (np.linalg.norm(Z1, axis=1) * np.linalg.norm(Z2, axis=1))
    one = np.eye(ds.n) @ ds.signed
    cos_pairs = (one @ one.T) / np.outer(np.linalg.norm(one, axis=1), np.linalg.norm(one, axis=1))
    value = float(min(cos.min(), cos_pairs.min()) - mu)
    return Margin(value, 8.0 * ds.n * U_ROUND, f"min cos over K pairs minus mu = {value:.3g} (mu = {mu:.4g})")


D2 = geometry_claim(
    id="EA-D2",
    node="L5", uses=("A1",),
    source="Lemma 5",
    statement="cos(z1, z2) >= mu for all nonzero z1, z2 in K = {sum_i a_i y_i x_i : a_i >= 0}",
    check=lemma5_margin,
    assumptions=("Assumption 1 (by construction)",),
)

D3 = geometry_claim(
    id="EA-D3",
    node="L7", uses=("A1", "L5"),
    source="Lemma 6",
    statement="S+ and S- (and S_dead) are convex cones: positive combinations of members are members (origin excluded)",
    check=cones_convex,
    assumptions=("Assumption 1 (by construction)",),
)


@measures("min over unit x_c in K of min_i y_i <x_c, x_i> - mu X_min (input-norm units; exact sign on S+ boundary)")
def lemma7_margin(case: GeometryCase) -> Margin:
    """EA-D4 (Lemma 7, quantitative form of its proof): for unit x_c in K, y_i <x_c, x_i> >= mu X_min for all i,
    and x_c is interior to S+ (every y_i <x_c, x_i> > 0, strict).

    Margin min( min_i y_i <x_c, x_i> - mu X_min, strict interior ) over random x_c (one-hot
    included); error 8 n u X_max. The strict part is decided exactly (rational arithmetic) when
    the float value is within rounding of 0: an exact 0 is a violation with error 0."""
    case = as_case(case)
    ds, rng = case.dataset, case.rng
    mu = geometry.mu(ds)
    A = k_coefficients(rng, ds.n)
    Z = A @ ds.signed
    Zu = Z / np.linalg.norm(Z, axis=1, keepdims=True)
    M = (Zu @ ds.X.T) * ds.y[None, :]  # y_i <x_c, x_i>
    err = 8.0 * ds.n * U_ROUND * ds.X_max
    quant = float(M.min() - mu * ds.X_min)
    interior = M.min(axis=1)
    for row in np.flatnonzero(interior <= err):
        exact = pat.exact_signed_gram_signs(ds.X, ds.y, A[row])
        if np.any(exact <= 0):
            i = int(np.flatnonzero(exact <= 0)[0])
            return Margin(min(float(interior[row]), STRICT_TINY), 0.0 if interior[row] > -err else err,
                          f"x_c = K-combination {A[row].round(3).tolist()} lies on or outside the boundary of S+ at x_{i} "
                          f"(y_i <x_c, x_i> = {interior[row]:.3g}; mu X_min = {mu * ds.X_min:.3g})")
    return Margin(quant, err, f"min_i y_i <x_c, x_i> - mu X_min = {quant:.3g}")


D4 = geometry_claim(
    id="EA-D4",
    node="L7", uses=("A1", "L5"),
    source="Lemma 7 (quantitative form from its proof)",
    statement="K cap S^{D-1} lies in Int(S+): for unit x_c in K, y_i <x_c, x_i> >= mu X_min > 0 for all i",
    check=lemma7_margin,
    assumptions=("Assumption 1 (by construction)",),
)

P6_D4 = paper_claim(
    id="P6-D4-mu0-boundary",
    node="L7", uses=("A1", "L5"),
    source="sheet P6 / App. A.3 (orthogonal data, mu = 0)",
    statement="PLANTED: on x1 = (1,0), x2 = (0,1) (both +1, mu = 0) the K-generator x1 lies on the boundary of S+ (<x1, x2> = 0)",
    check=lemma7_margin,
    over=st.builds(lambda seed: GeometryCase(d004.orthogonal_pair(), seed, {"data": "orthogonal_pair"}), SEEDS),
    expected=Verdict.REFUTED,
    assumptions=("mu = 0 (drops Assumption 1's strict margin)",),
    tags=("pointwise", "geometry", "planted"),
)

P1_D4 = paper_claim(
    id="P1-D4-K-not-in-S+",
    node="L7", uses=("A1", "L5"),
    source="sheet P1 (Assumption 1 false; breaks Lemma 7: K is not inside S+)",
    statement="PLANTED: without Assumption 1 some unit x_c in K is not interior to S+ (P1(a): x1 in K but <x1, x2> < 0)",
    check=lemma7_margin,
    over=non_assumption1_cases(),
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1",),
    tags=("pointwise", "geometry", "planted"),
)


def cap_samples(ds: Dataset, center: np.ndarray, zeta: float, rng: np.random.Generator, m: int = N_VECTORS) -> np.ndarray:
    """Unit vectors in the cap cos(z, center) >= sqrt(1 - zeta): random ones, plus the rim points pushed toward
    every data hyperplane (the worst directions), shape (m + n, d)."""
    c = center / np.linalg.norm(center)
    beta_max = math.asin(math.sqrt(min(zeta, 1.0)))
    E = rng.standard_normal((m, ds.d))
    E -= (E @ c)[:, None] * c
    toward = -(ds.signed - (ds.signed @ c)[:, None] * c)  # away from y_i x_i, orthogonal to c
    beta = np.where(rng.random(m) < 0.25, beta_max, rng.uniform(0.0, beta_max, size=m))
    E = np.vstack([E, toward, -toward])
    beta = np.concatenate([beta, np.full(2 * ds.n, beta_max)])
    nrm = np.linalg.norm(E, axis=1)
    keep = nrm > 1e-12
    E, beta = E[keep] / nrm[keep, None], beta[keep]
    return np.cos(beta)[:, None] * c + np.sin(beta)[:, None] * E


def lemma8_margin(factor: float):
    """EA-D5 (Lemma 8) with the exact zeta1_sup (sheet 1.9): z in the cap S^zeta_{x+} (zeta = factor zeta1_sup)
    is in S+, and the same for x- and S-.

    Margin: the smallest strict depth min_i y_i cos(z, x_i) (min_i -y_i cos for S-), which the cap
    criterion makes > 0 for factor < 1; error 16 d u. factor > 1 (tightness) must fail."""

    @measures("min over sampled cap points z of the depth min_i y_i cos(z, x_i) (-y_i for S-) (cosine; > 0 holds)")
    def check(case: GeometryCase) -> Margin:
        case = as_case(case)
        ds, rng = case.dataset, case.rng
        z1 = zeta1_sup(*class_rhos(ds)) if ds.both_classes else 0.0
        if z1 <= 0.0:
            return Margin(0.0, 0.0, "zeta1_sup = 0 (a class missing or Assumption 1 false)", vacuous=True)
        zeta = factor * z1
        worst = np.inf
        for center, cone in ((ds.x_plus, "S+"), (ds.x_minus, "S-")):
            Z = cap_samples(ds, center, zeta, rng)
            worst = min(worst, float(cone_depth(ds, Z, cone).min()))
        return Margin(worst, 16.0 * ds.d * U_ROUND, f"min depth {worst:.3g} in the caps of zeta = {factor:g} zeta1_sup = {zeta:.4g}")

    return check


D5 = geometry_claim(
    id="EA-D5",
    node="L8", uses=("L7",),
    source="Lemma 8 (exact zeta1_sup, sheet 1.9)",
    statement="With zeta1 = 0.999 zeta1_sup (zeta1_sup = min(min_i y_i cos(x+, x_i), min_i -y_i cos(x-, x_i))^2): "
              "S^{zeta1}_{x+} in S+ and S^{zeta1}_{x-} in S-",
    check=lemma8_margin(0.999),
    assumptions=("Assumption 1 (by construction)", "both classes present"),
)

D5_TIGHT = paper_claim(
    id="EA-D5-tight",
    node="L8", uses=("L7",),
    source="Lemma 8, sheet 2.D EA-D5 (tightness of zeta1_sup)",
    statement="PLANTED: the caps of zeta = 1.001 zeta1_sup are NOT inside S+ / S- (zeta1_sup is the exact sup)",
    check=lemma8_margin(1.001),
    over=geometry_cases(),
    expected=Verdict.REFUTED,
    assumptions=("zeta above the exact sup",),
    tags=("pointwise", "geometry", "planted"),
)


@measures("sqrt(1 - mu^2) - max |cos(z1, z2)|, unit z1 in K, z2 outside S+ and S- (cosine units)")
def lemma9_margin(case: GeometryCase) -> Margin:
    """EA-D6 (Lemma 9 with xi = mu^2, sheet 1.9): |cos(z1, z2)| <= sqrt(1 - mu^2) for unit z1 in K and
    z2 outside S+ and S-.

    z2: random unit vectors and, for each z1 and data point i, the projection of z1 onto
    x_i^perp (on the boundary) and slightly past it (the sup-attaining construction), keeping
    only those outside S+ and S-. Margin sqrt(1 - mu^2) - max |cos|; error 16 d u; slack max |cos| / sqrt(1 - mu^2)
    (None when mu = 1)."""
    case = as_case(case)
    ds, rng = case.dataset, case.rng
    mu = geometry.mu(ds)
    bound = math.sqrt(max(0.0, 1.0 - mu * mu))
    A = k_coefficients(rng, ds.n, 64)
    Z1 = A @ ds.signed
    Z1 /= np.linalg.norm(Z1, axis=1, keepdims=True)
    Xu = ds.X / ds.norms[:, None]
    cands = [rng.standard_normal((N_VECTORS, ds.d))]
    for z in Z1:
        proj = z[None, :] - (Xu @ z)[:, None] * Xu
        cands += [proj, proj - 1e-3 * ds.y[:, None] * Xu, proj + 1e-3 * ds.y[:, None] * Xu]
    Z2 = np.vstack(cands)
    nrm = np.linalg.norm(Z2, axis=1)
    Z2 = Z2[nrm > 1e-9] / nrm[nrm > 1e-9, None]
    act = (Z2 @ ds.X.T) > 0.0
    outside = ~np.all(act == (ds.y > 0)[None, :], axis=1) & ~np.all(act == (ds.y < 0)[None, :], axis=1)
    Z2 = Z2[outside]
    if len(Z2) == 0:
        return Margin(0.0, 0.0, "no sampled z2 outside S+ and S-", vacuous=True)
    cmax = float(np.max(np.abs(Z1 @ Z2.T)))
    ratio = cmax / bound if bound > 0.0 else None
    note = f"max |cos(z1, z2)| = {cmax:.6g} vs sqrt(1 - mu^2) = {bound:.6g}" + (f" (ratio {ratio:.3g})" if ratio is not None else "")
    return Margin(bound - cmax, 16.0 * ds.d * U_ROUND, note, ratio=ratio)


D6 = geometry_claim(
    id="EA-D6",
    node="L9", uses=("L5",),
    source="Lemma 9, eqs. (20), (27) (xi = mu^2, sheet 1.9)",
    statement="sup |cos(z1, z2)| over unit z1 in K and unit z2 outside S+ and S- is <= sqrt(1 - xi) with xi = mu^2",
    check=lemma9_margin,
    assumptions=("Assumption 1 (by construction)",),
)


@measures("smaller slack of the two lower bounds on ||x_a(w)||, over n_a X_max (resp. n_a^2 X_max^2) (dimensionless)")
def lemma11_margin(case: GeometryCase) -> Margin:
    """EA-D7 (Lemma 11, reading R6): ||x_a(w)|| >= sqrt(mu) n_a(w) X_min, and the sharper
    ||x_a(w)||^2 >= n_a X_min^2 + mu n_a (n_a - 1) X_min^2, for random w (and w = data points).

    Margin: the smaller of the two slacks normalised by n_a X_max (resp. n_a^2 X_max^2);
    error 16 n u. Directions with n_a = 0 are skipped (both sides 0). Slack: max of bound / measured over both
    forms and the directions with x_a != 0.
    """
    case = as_case(case)
    ds, rng = case.dataset, case.rng
    mu = geometry.mu(ds)
    Wr = np.vstack([rng.standard_normal((N_VECTORS, ds.d)), ds.X, ds.signed, k_coefficients(rng, ds.n, 32) @ ds.signed])
    P = Wr @ ds.X.T > 0.0
    na = P.sum(axis=1)
    keep = na > 0
    XA = P[keep].astype(float) @ ds.signed
    na = na[keep].astype(float)
    norm2 = np.sum(XA * XA, axis=1)
    lb_sharp = na * ds.X_min**2 + mu * na * (na - 1.0) * ds.X_min**2
    lb_plain = math.sqrt(mu) * na * ds.X_min
    sharp = (norm2 - lb_sharp) / (na * na * ds.X_max**2)
    plain = (np.sqrt(norm2) - lb_plain) / (na * ds.X_max)
    value = float(min(sharp.min(), plain.min()))
    nz = norm2 > 0.0
    ratio = float(max(np.max(lb_sharp[nz] / norm2[nz]), np.max(lb_plain[nz] / np.sqrt(norm2[nz])))) if nz.any() else None
    note = f"min slack {value:.3g} (sharp {sharp.min():.3g}, plain {plain.min():.3g}) over {int(keep.sum())} directions"
    return Margin(value, 16.0 * ds.n * U_ROUND, note + (f"; bound / measured = {ratio:.3g}" if ratio is not None else ""), ratio=ratio)


D7 = geometry_claim(
    id="EA-D7",
    node="L11", uses=("A1",),
    source="Lemma 11 (reading R6: n_a outside the root)",
    statement="||x_a(w)|| >= sqrt(mu) n_a(w) X_min, and ||x_a(w)||^2 >= n_a X_min^2 + mu n_a (n_a - 1) X_min^2",
    check=lemma11_margin,
    assumptions=("Assumption 1 (by construction)",),
)
