"""Seed 003, the max-margin optimisers (properties/lyu2021_margin/max_margin.py, single_direction.py) and the checks
of theorem42.py: the reference values of claim sheet 003 section 3.3 (D-SYM, D-S, hinted (5, 1, 0.05), alpha = 1/2),
every certified bracket containing the SLSQP value, the exact per-direction LP against scipy's linprog, the critical
points of the dual function against dense sampling and branch and bound, and the float64 error bound against mpmath.

Tolerances: a value the sheet prints to k digits is compared to half a unit of the k-th digit, plus, for the
10-digit values, REF = 1e-10: the sheet's coordinates are rounded to 1e-10, which moves gamma_lin (1-Lipschitz in each
x_i) by at most 0.5e-10 sqrt(3) < 1e-10 and the closed forms by less. Branch and bound brackets are within their
tolerance (1e-6 max||x||); the LP's within 1e-8 (HiGHS feasibility 1e-10, column generation to 1e-9 max||x||)."""

from __future__ import annotations

import math
from functools import lru_cache

import mpmath
import numpy as np
import pytest
from scipy.optimize import linprog

from verify.margins import max_margin
from verify.strategies import GeometryCase

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import max_margin as MM
from properties.lyu2021_margin import single_direction as SD
from properties.lyu2021_margin import theorem42 as T
from properties.lyu2021_margin.network import norm_sq, normalised_margin, outputs, phi

ALPHA = 0.5
C_GLOBAL = 0.0672083746  # sheet 3.3: ((1+alpha)/4) gamma_lin on D-SYM, 10 digits
C_SINGLE = 0.0448055831  # sheet 3.3: (alpha/2) gamma_lin on D-SYM
REF = 0.5e-10 + 1e-10  # half a unit of the 10th digit plus the data's rounding


@lru_cache(maxsize=None)
def hinted() -> D.Dataset:
    return D.hinted(5.0, 1.0, 0.05)


# --- gamma_lin ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("builder, gamma", [(D.d_sym, 0.1792223322), (D.d_s, 0.2474237980)])
def test_linear_bracket_reference(builder, gamma) -> None:
    lo, hi, p = MM.linear_bracket(builder())
    assert lo <= hi and hi - lo < 1e-12
    assert abs(lo - gamma) <= REF and abs(np.linalg.norm(p) - gamma) <= REF


def test_linear_bracket_hinted_is_eps() -> None:
    lo, hi, _ = MM.linear_bracket(hinted())  # C-D6.1: gamma_lin(S') = eps
    assert lo <= 0.05 <= hi and hi - lo < 1e-12


# --- the infinite-width LP ------------------------------------------------------------------------------------------

def test_global_d_sym_equals_closed_form() -> None:
    g = MM.global_margin(D.d_sym(), ALPHA)
    assert g.lower <= C_GLOBAL + REF and g.upper >= C_GLOBAL - REF
    assert g.upper - g.lower < 1e-8 and g.lower >= 0.067206  # the sheet's grid LP gave 0.067206
    assert g.upper_grid >= g.upper
    assert normalised_margin(D.d_sym().X, D.d_sym().y, g.W, g.a, ALPHA) == g.lower
    assert norm_sq(g.W, g.a) <= 1.0 + 1e-12  # sum |c_j| <= 1/2


@pytest.mark.parametrize("builder, m, slsqp, digits, lp", [(D.d_s, 2, 0.108106, 6, 0.10808),
                                                           (hinted, 3, 0.0677, 4, 0.0676)])
def test_global_bracket_contains_slsqp(builder, m, slsqp, digits, lp) -> None:
    """Sheet 3.3 / C-T6.2: SLSQP (m >= 2) 0.108106 on D-S and 0.0677 on hinted; the grid LPs gave 0.10808, 0.0676."""
    ds = builder()
    g, opt = MM.global_margin(ds, ALPHA), MM.fixed_width(ds, ALPHA, m)
    assert g.lower - 1e-12 <= opt.gamma <= g.upper
    assert g.lower >= lp and abs(opt.gamma - slsqp) <= 0.5 * 10.0**-digits
    assert g.upper - g.lower < 1e-8


def test_global_hinted_beats_tilted_pair() -> None:
    """Sheet C-T6.2: the tilted pair u+- = cos b w* +- sin b w_perp (norm^2 1/4 each, b = 0.332) has margin 0.0585."""
    ds = hinted()
    w_star = max_margin(ds).svm.direction
    w_perp = np.array(D.D_S_W_PERP)
    w_perp = w_perp - (w_perp @ w_star) * w_star
    w_perp /= np.linalg.norm(w_perp)
    b = 0.332
    U = np.vstack([math.cos(b) * w_star + math.sin(b) * w_perp, math.cos(b) * w_star - math.sin(b) * w_perp])
    gamma = normalised_margin(ds.X, ds.y, 0.5 * U, np.array([0.5, 0.5]), ALPHA)
    assert abs(gamma - 0.0585) <= 5e-5
    assert gamma < MM.global_margin(ds, ALPHA).lower


# --- width m --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("m, value", [(1, C_SINGLE), (2, C_GLOBAL), (3, C_GLOBAL), (5, C_GLOBAL)])
def test_fixed_width_d_sym(m, value) -> None:
    opt = MM.fixed_width(D.d_sym(), ALPHA, m)
    assert abs(opt.gamma - value) <= REF
    assert opt.kkt[0] < 1e-6 and opt.feasible_starts >= 1


@pytest.mark.parametrize("m, value, digits", [(1, 0.083647, 6), (2, 0.108106, 6), (3, 0.108106, 6)])
def test_fixed_width_d_s(m, value, digits) -> None:
    assert abs(MM.fixed_width(D.d_s(), ALPHA, m).gamma - value) <= 0.5 * 10.0**-digits


@pytest.mark.parametrize("m, value", [(1, 0.025), (2, 0.0593), (3, 0.0677)])
def test_fixed_width_hinted(m, value) -> None:
    assert abs(MM.fixed_width(hinted(), ALPHA, m).gamma - value) <= 5e-5


def test_fixed_width_is_seeded() -> None:
    run = lambda: MM._fixed_width.__wrapped__(MM._key(D.d_s()), ALPHA, 2, 3)  # past the cache: a fresh SLSQP
    a, b = run(), run()
    assert a.gamma == b.gamma and np.array_equal(a.W, b.W)


# --- one neuron, one direction --------------------------------------------------------------------------------------

def test_single_neuron_brackets() -> None:
    b = SD.single_neuron(D.d_sym(), ALPHA)
    assert b.lower <= C_SINGLE + REF and b.upper >= C_SINGLE - REF and b.upper - b.lower <= 1e-14
    for ds in (D.d_s(), hinted()):
        s = SD.single_neuron(ds, ALPHA)
        assert s.lower - 1e-13 <= MM.fixed_width(ds, ALPHA, 1).gamma <= s.upper


@pytest.mark.parametrize("alpha", [0.1, 0.5])
def test_single_neuron_against_branch_and_bound(alpha) -> None:
    """The one-neuron SVM bound against branch and bound over u of (1/2) max(min_i y_i phi(<u, x_i>), min_i -y_i
    phi(-<u, x_i>)) (a > 0 along u, a < 0 along -u), each term moving by at most ||x_i|| rho on a chord ball."""
    ds = D.d_s()
    norms = np.linalg.norm(ds.X, axis=1)
    f = lambda U, rho=0.0: 0.5 * np.maximum(np.min(ds.y * phi(U @ ds.X.T, alpha) + norms * rho, axis=1),
                                            np.min(-ds.y * phi(-U @ ds.X.T, alpha) + norms * rho, axis=1))
    best, _, upper = SD.sphere_sup(f, f, 3, 1e-7)
    b = SD.single_neuron(ds, alpha)
    assert best <= b.upper + 1e-14 and b.lower <= upper + 1e-14 and abs(best - b.lower) <= 2e-7


def test_single_direction_brackets() -> None:
    """One direction reaches the global max on D-SYM (A = B = 1/4 along w*) and only gamma_f_inf on hinted data."""
    b = SD.single_direction(D.d_sym(), ALPHA)
    assert b.lower <= C_GLOBAL + REF <= b.upper + 1e-10
    h, unit = SD.single_direction(hinted(), ALPHA), SD.leaky_unit(hinted(), ALPHA)
    w_star, S = max_margin(D.d_s()).svm.direction, D.d_s()
    gamma_neg = float(np.min(np.abs(S.X[S.y < 0] @ w_star)))
    assert abs(unit.lower - 0.5 * min(0.05, ALPHA * gamma_neg, 5.0)) <= 1e-12  # C-T6.2: gamma_f_inf, = eps/2 here
    assert abs(unit.lower - 0.025) <= 1e-12
    assert h.lower - 1e-12 <= 0.025 <= h.upper and h.upper - 0.025 <= 1e-5


def test_direction_values_match_linprog() -> None:
    ds = D.d_s()
    U = np.random.default_rng(5).standard_normal((25, 3))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    V, s = SD.direction_values(U, ds.X, ds.y, ALPHA)
    for u, v, si in zip(U, V, s):
        p, r = ds.y * phi(ds.X @ u, ALPHA), ds.y * phi(-ds.X @ u, ALPHA)
        A_ub = np.column_stack([-p, r, np.ones(ds.n)])  # t <= A p_i - B r_i
        res = linprog([0, 0, -1], A_ub=A_ub, b_ub=np.zeros(ds.n), A_eq=[[1, 1, 0]], b_eq=[0.5],
                      bounds=[(0, None), (0, None), (None, None)], method="highs")
        assert abs(v + res.fun) <= 1e-9
        W, a = SD.direction_net(u, float(si))
        assert abs(normalised_margin(ds.X, ds.y, W, a, ALPHA) - v) <= 1e-12


def test_direction_slack_bounds_the_ball() -> None:
    ds, rng = hinted(), np.random.default_rng(2)
    norms = np.linalg.norm(ds.X, axis=1)
    for _ in range(5):
        u = rng.standard_normal(3)
        u /= np.linalg.norm(u)
        rho = 0.05
        bound = SD.direction_values(u[None], ds.X, ds.y, ALPHA, norms * rho)[0][0]
        V = rng.standard_normal((400, 3))
        V = u + rho * rng.uniform(0, 1, (400, 1)) * V / np.linalg.norm(V, axis=1, keepdims=True)
        V /= np.linalg.norm(V, axis=1, keepdims=True)
        V = V[np.linalg.norm(V - u, axis=1) <= rho]
        assert np.all(SD.direction_values(V, ds.X, ds.y, ALPHA)[0] <= bound + 1e-15)


# --- the sphere: grid, branch and bound, critical points ------------------------------------------------------------

@pytest.mark.parametrize("d", [2, 3])
def test_sphere_grid_covering_radius(d) -> None:
    grid, h = MM.sphere_grid(d, 5)
    P = np.random.default_rng(d).standard_normal((20000, d))
    P /= np.linalg.norm(P, axis=1, keepdims=True)
    nearest = np.min(np.linalg.norm(P[:, None, :] - grid[None, :, :], axis=2), axis=1)
    assert np.max(nearest) <= h


def test_sphere_sup_linear() -> None:
    """sup <v, u> = ||v||; at a smooth peak a Lipschitz bound needs ~1/tol boxes: past max_boxes the upper end stays
    certified, only looser."""
    v = np.array([0.3, -1.2, 0.5])
    f, bound = lambda U: U @ v, lambda U, rho: U @ v + np.linalg.norm(v) * rho
    best, u, upper = SD.sphere_sup(f, bound, 3, 1e-4)
    assert best <= np.linalg.norm(v) <= upper and upper - best <= 1e-4
    assert np.linalg.norm(u - v / np.linalg.norm(v)) < 1e-2
    best, u, upper = SD.sphere_sup(f, bound, 3, 1e-12, max_boxes=5000)
    assert best <= np.linalg.norm(v) <= upper


def _datasets_for_critical_points():
    rng = np.random.default_rng(11)
    yield rng.standard_normal((7, 3)), rng.standard_normal(7)
    yield rng.standard_normal((6, 2)), rng.standard_normal(6)
    P = rng.standard_normal((4, 3))
    yield np.vstack([P, -P, 2.0 * P[:1]]), rng.standard_normal(9)  # mirrored and parallel points
    yield np.outer(rng.standard_normal(3), [1.0, 2.0, -1.0]), rng.standard_normal(3)  # one plane only
    Q = np.c_[rng.standard_normal((5, 2)), np.zeros(5)]
    yield Q, rng.standard_normal(5)  # all planes through e_3: a degenerate vertex


@pytest.mark.parametrize("case", range(5))
def test_critical_points_contain_the_max(case) -> None:
    X, w = list(_datasets_for_critical_points())[case]
    d = X.shape[1]
    g = lambda U: phi(U @ X.T, ALPHA) @ w
    cands = MM.critical_points(X, w, ALPHA)
    top = float(np.max(g(cands)))
    P = np.random.default_rng(case).standard_normal((100000, d))
    P /= np.linalg.norm(P, axis=1, keepdims=True)
    assert np.max(g(P)) <= top + 1e-12
    lip = float(np.abs(w) @ np.linalg.norm(X, axis=1))
    best, _, upper = SD.sphere_sup(g, lambda U, rho: g(U) + lip * rho, d, 1e-7)
    assert best <= top + 1e-12 and top <= upper + 1e-12


# --- nets and the float64 error bound -------------------------------------------------------------------------------

def test_net_from_measure() -> None:
    rng = np.random.default_rng(4)
    U = rng.standard_normal((5, 3))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    c = np.array([0.1, -0.05, 0.0, 0.2, -0.15])
    W, a = MM.net_from_measure(U, c)
    X = rng.standard_normal((8, 3))
    assert np.allclose(outputs(X, W, a, ALPHA), phi(X @ U.T, ALPHA) @ c, atol=1e-15)
    assert abs(norm_sq(W, a) - 2.0 * np.sum(np.abs(c))) <= 1e-15


def test_margin_error_bounds_the_rounding() -> None:
    ds, rng = D.d_s(), np.random.default_rng(9)
    mpmath.mp.dps = 40
    for m in (1, 3, 6):
        W, a = rng.standard_normal((m, 3)), rng.standard_normal(m)
        exact = min(mpmath.mpf(float(y)) * sum(mpmath.mpf(float(a[k])) * (lambda z: z if z > 0 else ALPHA * z)(
            mpmath.fsum(mpmath.mpf(float(W[k, j])) * mpmath.mpf(float(x[j])) for j in range(3))) for k in range(m))
            for x, y in zip(ds.X, ds.y)) / mpmath.fsum(mpmath.mpf(float(v)) ** 2 for v in np.r_[W.ravel(), a])
        assert abs(normalised_margin(ds.X, ds.y, W, a, ALPHA) - float(exact)) <= MM.margin_error(ds.n, 3, m, ds.X_max)


# --- theorem42's checks ---------------------------------------------------------------------------------------------

def test_structure_at_the_maximiser_and_bounds_elsewhere() -> None:
    ds = D.d_sym()
    lo, hi, p = MM.linear_bracket(ds)
    w_star = p / np.linalg.norm(p)
    parts = T.structure(ds, 0.5 * np.vstack([w_star, -w_star]), np.array([0.5, -0.5]), ALPHA, p, hi)
    assert all(q.value >= -q.error for q in parts) and all(q.value < 1e-6 for q in parts)
    rng = np.random.default_rng(1)
    for noise in (0.05, 1e-2, 1e-4):  # the bounds are theorems on symmetric data: they hold near the maximiser too
        for _ in range(10):
            W = np.vstack([0.5 * w_star, -0.5 * w_star, np.zeros((2, 3))]) + noise * rng.standard_normal((4, 3))
            a = np.r_[0.5, -0.5, 0.0, 0.0] + noise * rng.standard_normal(4)
            parts = T.structure(ds, W, a, ALPHA, p, hi)
            assert parts and all(q.value >= -q.error for q in parts)
    assert T.structure(ds, 0.5 * np.vstack([w_star, -w_star]), np.array([-0.5, 0.5]), ALPHA, p, hi) == []


def test_premise_a41() -> None:
    assert T.premise_a41(GeometryCase(D.d_sym(), 0, {})) is None
    vac = T.premise_a41(GeometryCase(D.d_sym_perturbed(), 0, {}))
    assert vac is not None and vac.vacuous
    assert T.premise_a41(GeometryCase(D.d_s(), 0, {"drops": "A4.1"})) is None


@pytest.mark.parametrize("left, right, rel, verdict", [
    ((0.1, 0.1), (0.2, 0.2), "<", "holds"), ((0.2, 0.2), (0.1, 0.1), "<", "refuted"),
    ((0.1, 0.2), (0.15, 0.25), "<", "open"), ((0.1, 0.1), (0.1, 0.1 + 1e-6), "=", "holds"),
    ((0.1, 0.1), (0.2, 0.2), "=", "refuted"), ((0.1, 0.2), (0.15, 0.25), "=", "open")])
def test_relation(left, right, rel, verdict) -> None:
    brackets = {"L": MM.Bracket(*left, None, None), "R": MM.Bracket(*right, None, None)}
    out = T.relation("L", rel, "R", brackets, 1e-15)
    state = "open" if math.isinf(out.error) else ("refuted" if out.value < -out.error else "holds")
    assert state == verdict
