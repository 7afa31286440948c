"""Tests of verify.audit and verify.exact (claim sheet 004 sections 1.8-1.10, 3.2, 7)."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy

from verify import geometry
from verify.audit import Audit, audit
from properties.min2024_early_alignment.audit import harmonic
from verify.data.dataset import Dataset
from verify.errors import InputError
from verify.exact import exact_sign_structure, near_zero_pairs
from verify.model.init import balanced_init

A = 0.3


def toy4() -> Dataset:
    """Sheet 3.2: (cos a, +-sin a) labelled +1, (-cos a, +-sin a) labelled -1, a = 0.3."""
    c, s = math.cos(A), math.sin(A)
    return Dataset(np.array([[c, s], [c, -s], [-c, s], [-c, -s]]), np.array([1.0, 1.0, -1.0, -1.0]))


def toy4_init() -> tuple[np.ndarray, np.ndarray]:
    """Sheet 3.2 row 1: h = 8, directions 0.2 + k pi/4, signs +,-,+,-, W_max = 1, balanced."""
    ang = 0.2 + np.arange(8) * np.pi / 4
    W0 = np.c_[np.cos(ang), np.sin(ang)]
    return W0, np.where(np.arange(8) % 2 == 0, 1.0, -1.0)


def random_assumption1(n_pos: int, n_neg: int, d: int, seed: int, theta: float = 0.5) -> Dataset:
    """y_i x_i within angle theta < pi/4 of a core direction (sheet 1.8), norms in [0.5, 2]."""
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    rows = []
    for _ in range(n_pos + n_neg):
        e = rng.standard_normal(d)
        e -= (e @ u) * u
        e /= np.linalg.norm(e)
        phi = rng.uniform(0.0, theta)
        rows.append(rng.uniform(0.5, 2.0) * (math.cos(phi) * u + math.sin(phi) * e))
    y = np.r_[np.ones(n_pos), -np.ones(n_neg)]
    return Dataset(y[:, None] * np.array(rows), y)


def circle_points(x: np.ndarray, c: float, k: int, rng: np.random.Generator) -> np.ndarray:
    """k unit vectors z with cos(z, x) = c exactly, directions uniform around x."""
    xh = x / np.linalg.norm(x)
    E = rng.standard_normal((k, x.size))
    E -= np.outer(E @ xh, xh)
    E /= np.linalg.norm(E, axis=1, keepdims=True)
    return c * xh + math.sqrt(1.0 - c * c) * E


def cap_points(x: np.ndarray, c: float, k: int, rng: np.random.Generator) -> np.ndarray:
    """Unit vectors uniform in the cap cos(z, x) >= c (rejection from the sphere)."""
    xh = x / np.linalg.norm(x)
    out: list[np.ndarray] = []
    while sum(len(o) for o in out) < k:
        Z = rng.standard_normal((4 * k, x.size))
        Z /= np.linalg.norm(Z, axis=1, keepdims=True)
        out.append(Z[Z @ xh >= c])
    return np.concatenate(out)[:k]


# --- exact arithmetic -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("X", "y", "expected"),
    [
        ([[1, 0], [1, 1]], [1, 1], sympy.sqrt(2) / 2),
        ([[3, 4], [4, 3]], [1, 1], sympy.Rational(24, 25)),
        ([[1, 0], [-1, 1]], [1, -1], sympy.sqrt(2) / 2),
        ([[1, 0], [-1.5, 3]], [1, 1], -sympy.sqrt(5) / 5),
        ([[1, 0], [0, 1]], [1, -1], sympy.Integer(0)),
        ([[2, 1, 0], [1, 2, 0], [-1, 0, -3]], [1, 1, -1], sympy.sqrt(2) / 10),
    ],
)
def test_exact_mu_hand_built(X, y, expected):
    ss = exact_sign_structure(X, y)
    assert sympy.simplify(ss.mu.sympy() - expected) == 0
    assert ss.mu.value == pytest.approx(float(expected), abs=1e-15)
    assert ss.all_signed_positive == (float(expected) > 0)
    assert audit(Dataset(np.array(X, float), np.array(y, float))).mu == pytest.approx(float(expected), abs=1e-15)


def test_exact_accepts_rational_strings_and_xi_is_rational():
    ss = exact_sign_structure([["1/3", "1"], ["1", "1/2"]], [1, 1])
    # <a,b> = 1/3 + 1/2 = 5/6, |a|^2 = 10/9, |b|^2 = 5/4: mu^2 = (25/36)/(50/36) = 1/2
    assert ss.mu.q == Fraction(1, 2) and ss.mu.sign == 1
    assert str(ss.mu) == "sqrt(1/2)"
    a = audit(Dataset(np.array([[3.0, 4.0], [4.0, 3.0]]), np.array([1.0, 1.0])))
    assert a.mu_exact == "24/25" and a.xi_exact == "576/625"


def test_exactly_orthogonal_cross_pair_integer_data():
    """Opposite labels with <x1, x2> = 0 exactly: 000 separable, 004 Assumption 1 fails (mu = 0)."""
    ds = Dataset(np.array([[1.0, 0.0], [2.0, 1.0], [0.0, -3.0]]), np.array([1.0, 1.0, -1.0]))
    a = audit(ds)
    assert a.sign_structure_exact
    assert a.mu == 0.0 and a.mu_exact == "0"
    assert a.orthogonally_separable and not a.assumption1
    assert (0, 2) in a.near_zero_pairs
    assert a.sign_disagreements == []
    assert a.t1 is None and "mu <= 0" in a.na["t1"]


def test_float_rounding_sign_flip_detected():
    """fl(<a, b>) = 0 but the exact product of the stored floats is 1e-17 > 0."""
    X = np.array([[1e-17, 1.0, 1.0], [1.0, -1.0, 1.0]])
    ds = Dataset(X, np.array([1.0, 1.0]))
    a = audit(ds)
    assert (0, 1) in a.near_zero_pairs
    ss = exact_sign_structure(X, [1, 1])
    assert ss.signs[0, 1] == 1 and ss.all_signed_positive
    assert a.assumption1 and a.mu > 0.0
    float_sign = int(np.sign((ds.unit @ ds.unit.T)[0, 1]))  # the audit's float64 path: unit rows (scale-free)
    assert ((0, 1) in a.sign_disagreements) == (float_sign != 1)


def test_near_zero_pairs_float_only():
    X = np.array([[1.0, 1e-300], [1e-300, -1.0], [1.0, 1.0]])
    assert (0, 1) in near_zero_pairs(X)
    assert (0, 2) not in near_zero_pairs(X)


def test_exact_pass_skipped_when_large():
    ds = random_assumption1(60, 40, 30, seed=1)
    a = audit(ds)
    assert not a.sign_structure_exact
    assert "skipped" in a.exact_note and a.mu_exact is None
    assert a.mu == pytest.approx(geometry.mu(ds), abs=0)


# --- toy4 anchors (sheet 3.2) ----------------------------------------------------------------


def test_toy4_data_anchors():
    a = audit(toy4())
    assert round(a.mu, 6) == 0.825336 and a.mu == pytest.approx(math.cos(0.6), abs=1e-15)
    assert round(a.zeta1_sup, 6) == 0.912668
    assert round(a.xi, 6) == 0.681179
    assert a.rho_plus == pytest.approx(math.cos(A), abs=1e-15)
    assert 0 < a.zeta1 < a.zeta1_sup
    assert a.orthogonally_separable and a.assumption1
    # no init: m = min(zeta1, xi) = xi, which is the sheet's "zeta2 not binding" row
    assert a.m == a.xi and round(a.t1, 2) == 35.84
    assert "no init" in a.t1_reading


def test_toy4_init_anchors():
    W0, v0 = toy4_init()
    a = audit(toy4(), W0, v0, log_eps=-20.0)
    assert round(a.zeta2, 4) == 0.0395
    assert round(a.t1, 1) == 618.6
    assert round(a.log_eps2 / math.log(10), 1) == -4298.8
    assert round(a.log_eps1 / math.log(10), 2) == -3.40
    assert a.log_eps1_printed - a.log_eps1 == pytest.approx(math.log(2.0), abs=1e-12)
    assert round(a.log10_eps_required, 1) == -4298.8
    assert a.eps_required == 0.0 and math.isfinite(a.log_eps_required)
    # eq. (28)'s eps2 is exactly T(eps) >= t1 (sheet 6 S8)
    assert a.T_at_eps_required == pytest.approx(a.t1, rel=1e-12)
    # the printed reading (max) reproduces the sheet's second row
    assert round(a.t1_max, 2) == 35.84 and round(a.log_eps_required_printed / math.log(10), 1) == -249.5
    assert a.m_min == a.zeta2 and a.m_max == pytest.approx(a.xi)
    assert a.h == 8 and a.W_max == pytest.approx(1.0) and a.balanced and a.assumption2
    assert a.T_Pmax <= a.t1 and a.t1_dead_path <= a.t1
    assert a.T_Pmax == pytest.approx(a.delta_t_coef * (harmonic(2) + 0.5 + harmonic(1)))
    assert a.alpha_rate == pytest.approx(math.cos(0.6) ** 2 / 32)
    assert a.eps_satisfies is False and a.eps_satisfies_printed is False
    ok = audit(toy4(), W0, v0, log_eps=-10000.0)
    assert ok.eps_satisfies and ok.eps_satisfies_printed and all(ok.eps_conditions.values())


def test_toy4_errata_R8_R9_visible():
    W0, v0 = toy4_init()
    a = audit(toy4(), W0, v0, log_eps=-600.0)
    errata = {e.id: e for e in a.errata}
    r8 = errata["R8"]
    assert r8.applies and r8.values["differ"]
    assert round(r8.values["t1_min"], 1) == 618.6 and round(r8.values["t1_max"], 2) == 35.84
    assert "618.584" in r8.detail and "35.8426" in r8.detail
    # eps = e^-600 passes the printed reading (max, c = 4) but fails the corrected one
    assert a.eps_satisfies_printed and not a.eps_satisfies
    assert a.eps_conditions == {"min,c=4": False, "min,c=8": False, "max,c=4": True, "max,c=8": True}
    r9 = errata["R9"]
    assert r9.values["log10_eps1_c4"] - r9.values["log10_eps1_c8"] == pytest.approx(math.log10(2.0))
    assert not r9.values["eps1_binds"]
    d = a.to_dict()
    assert {e["id"] for e in d["errata"]} >= {"R8", "R9", "N1"}


def test_R9_gap_when_eps1_binds():
    """n = 1 makes eps2 = 1/sqrt(h) (ln n = 0), so eps1 binds and the factor 2 matters."""
    ds = Dataset(np.array([[1.0, 0.0]]), np.array([-1.0]))
    W0 = np.array([[math.cos(1.0), math.sin(1.0)]])
    probe = audit(ds, W0, np.array([1.0]), log_eps=-30.0)
    le = 0.5 * (probe.log_eps1 + probe.log_eps1_printed)
    a = audit(ds, W0, np.array([1.0]), log_eps=le)
    r9 = {e.id: e for e in a.errata}["R9"]
    assert r9.applies and r9.values["eps1_binds"] and r9.values["eps_in_gap"]
    assert a.readings["min"]["eps_satisfies_c4"] and not a.eps_satisfies


# --- zeta1 and xi against sampling (EA-D5, EA-D6) -------------------------------------------


@pytest.mark.parametrize("ds", [toy4(), random_assumption1(3, 4, 3, seed=7), random_assumption1(4, 2, 5, seed=3)])
def test_zeta1_cap_inside_cones_and_tight(ds):
    a = audit(ds)
    rng = np.random.default_rng(0)
    for x, member in ((ds.x_plus, geometry.in_S_plus), (ds.x_minus, geometry.in_S_minus)):
        c_in = math.sqrt(1.0 - 0.999 * a.zeta1_sup)
        inside = np.concatenate([cap_points(x, c_in, 2000, rng), circle_points(x, c_in, 2000, rng)])
        assert all(member(ds, z) for z in inside)
    c_out = math.sqrt(1.0 - 1.001 * a.zeta1_sup)
    found = False
    for x, sgn, member in ((ds.x_plus, 1.0, geometry.in_S_plus), (ds.x_minus, -1.0, geometry.in_S_minus)):
        xh = x / np.linalg.norm(x)
        directed = []
        for g in sgn * ds.signed:  # rotate away from each data point's half-space boundary
            e = g - (g @ xh) * xh
            directed.append(c_out * xh - math.sqrt(1.0 - c_out**2) * e / np.linalg.norm(e))
        candidates = np.concatenate([circle_points(x, c_out, 2000, rng), np.array(directed)])
        found = found or any(not member(ds, z) for z in candidates)
    assert found


def _sampled_lemma9_sup(ds: Dataset, rng: np.random.Generator, k: int = 4000) -> float:
    """Sampled sup |cos(z1, z2)|, z1 in K on the sphere, z2 outside S+ and S- (random + near-hyperplane candidates)."""
    G = ds.signed / ds.norms[:, None]
    coef = rng.exponential(size=(k, ds.n)) * (rng.random((k, ds.n)) < 0.5)
    coef[np.arange(ds.n), np.arange(ds.n)] += 1.0
    Z1 = np.concatenate([G, coef[coef.sum(axis=1) > 0] @ G])
    Z1 /= np.linalg.norm(Z1, axis=1, keepdims=True)
    cands = [rng.standard_normal((k, ds.d))]
    for z1 in G:
        for x in ds.X:
            xh = x / np.linalg.norm(x)
            p = z1 - (z1 @ xh) * xh
            if np.linalg.norm(p) > 1e-12:
                p /= np.linalg.norm(p)
                cands.append(np.array([p - t * np.sign(z1 @ xh) * xh for t in (1e-7, 1e-5, 1e-3)]))
    Z2 = np.concatenate(cands)
    Z2 /= np.linalg.norm(Z2, axis=1, keepdims=True)
    keep = [z for z in Z2 if not geometry.in_S_plus(ds, z) and not geometry.in_S_minus(ds, z)]
    return float(np.max(np.abs(Z1 @ np.array(keep).T)))


@pytest.mark.parametrize("ds", [toy4(), random_assumption1(3, 3, 3, seed=11), random_assumption1(2, 3, 2, seed=5)])
def test_xi_equals_mu_squared_against_sampling(ds):
    a = audit(ds)
    assert a.xi == pytest.approx(a.mu**2)
    bound = math.sqrt(1.0 - a.mu**2)
    sup = _sampled_lemma9_sup(ds, np.random.default_rng(1))
    assert sup <= bound + 1e-9
    assert sup >= bound - 1e-3


# --- edge cases -----------------------------------------------------------------------------


def test_n_equals_one_flags_t1_zero():
    ds = Dataset(np.array([[1.0, 0.0]]), np.array([-1.0]))
    a = audit(ds, np.array([[math.cos(1.0), math.sin(1.0)]]), np.array([1.0]), eps=1e-6)
    assert a.t1 == 0.0 and a.mu == 1.0
    n1 = {e.id: e for e in a.errata}["N1"]
    assert n1.applies and n1.values["t1_dead_path"] == pytest.approx(a.delta_t_coef)
    assert any(f.name.startswith("n >= 2") and f.holds is False for f in a.assumptions)


def test_single_class_reported_not_error():
    ds = Dataset(np.array([[1.0, 0.0], [1.0, 1.0]]), np.array([1.0, 1.0]))
    init = balanced_init(3, 2, eps=1e-3, seed=0, signs="positive")
    a = audit(ds, init)
    assert not a.both_classes and a.n_neg == 0
    assert a.t2 is None and "both classes" in a.na["t2"]
    assert a.c_star == -math.inf and a.zeta2 == 1.0 and a.assumption2
    assert a.t1 is not None and a.t1 > 0 and a.zeta1_sup == pytest.approx(a.rho_plus**2)
    assert "single class" in a.na["zeta1"]
    failed = {f.name for f in a.failed}
    assert "both classes present" in failed
    d = json.loads(json.dumps(a.to_dict(), allow_nan=False))
    assert d["c_star"] == "-inf" and d["t2"] is None and d["x_minus"] == [0.0, 0.0]


def test_mu_negative_bounds_are_na():
    ds = Dataset(np.array([[1.0, 0.0], [-1.5, 3.0]]), np.array([1.0, 1.0]))
    a = audit(ds, np.array([[0.05, 1.0]]), np.array([math.hypot(0.05, 1.0)]), log_eps=-50)
    assert not a.assumption1 and a.mu < 0
    assert a.t1 is None and a.eps_required is None and a.t2 is None
    f = next(f for f in a.assumptions if f.name.startswith("Assumption 1"))
    assert f.holds is False and f.margin == pytest.approx(a.mu)
    eq28 = next(f for f in a.assumptions if f.name.startswith("eps condition (28)"))
    assert eq28.holds is None
    json.dumps(a.to_dict(), allow_nan=False)


def test_assumption2_violation_gives_zeta2_zero():
    """P7: a V+ neuron exactly along x- (n- = 1) violates Assumption 2."""
    ds = Dataset(np.array([[1.0, 0.2], [-1.0, 0.2]]), np.array([1.0, -1.0]))
    w = ds.X[1] / np.linalg.norm(ds.X[1])
    a = audit(ds, w[None, :], np.array([1.0]), eps=1e-3)
    assert not a.assumption2 and a.zeta2 == 0.0 and a.t1 is None
    f = next(f for f in a.assumptions if f.name.startswith("Assumption 2"))
    assert f.holds is False and f.margin == pytest.approx(0.0, abs=1e-15)


def test_weights_without_eps_split_as_eps_times_unit_base():
    W0, v0 = toy4_init()
    a = audit(toy4(), 1e-3 * W0, 1e-3 * v0)
    b = audit(toy4(), W0, v0, eps=1e-3)
    assert a.eps_from_weights and not b.eps_from_weights
    assert a.W_max == pytest.approx(1.0) and a.log_eps == pytest.approx(math.log(1e-3))
    assert a.T_eps == pytest.approx(b.T_eps) and a.t2 == pytest.approx(b.t2)


def test_initialization_object_and_zero_neuron_dropped():
    init = balanced_init(5, 2, log_eps=-40.0, seed=2, signs="alternating")
    a = audit(toy4(), init)
    assert a.h == 5 and a.log_eps == -40.0
    W = np.vstack([init.W0, np.zeros((1, 2))])
    v = np.r_[init.v0, 0.0]
    b = audit(toy4(), W, v, log_eps=-40.0)
    assert b.h == 5 and b.h_dropped == 1 and b.zeta2 == a.zeta2


def test_unbalanced_init_flagged():
    W0, v0 = toy4_init()
    a = audit(toy4(), W0, 0.5 * v0, eps=1e-3)
    f = next(f for f in a.assumptions if f.name.startswith("balanced"))
    assert not a.balanced and f.holds is False and a.imbalance == pytest.approx(0.75)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"W0": np.ones((2, 3)), "v0": np.ones(2)}, "dimension"),
        ({"W0": np.ones((2, 2)), "v0": np.ones(3)}, "shapes"),
        ({"W0": np.ones((2, 2))}, "both"),
        ({"W0": np.ones((2, 2)), "v0": np.ones(2), "eps": 0.0}, "eps"),
        ({"W0": np.ones((2, 2)), "v0": np.ones(2), "eps": -1.0}, "eps"),
        ({"W0": np.ones((2, 2)), "v0": np.ones(2), "eps": 1e-3, "log_eps": -3.0}, "exactly one"),
        ({"W0": np.array([[np.nan, 1.0]]), "v0": np.ones(1)}, "non-finite"),
        ({"W0": np.zeros((2, 2)), "v0": np.zeros(2)}, "zero"),
        ({"W0": np.array([["a", "b"]]), "v0": np.ones(1)}, "real numbers"),
        ({"eps": 1e-3}, "need initial weights"),
        ({"alpha": 2.0}, "alpha"),
    ],
)
def test_bad_inputs_raise_input_error(kwargs, match):
    with pytest.raises(InputError, match=match):
        audit(toy4(), **kwargs)


def test_leaky_alpha_is_reported():
    a = audit(toy4(), alpha=0.1)
    assert a.alpha == 0.1
    assert any(f.name.startswith("ReLU") and f.holds is False for f in a.assumptions)


def test_to_dict_round_trips_json_with_contract_keys():
    W0, v0 = toy4_init()
    a = audit(toy4(), W0, v0, log_eps=-5000.0)
    assert isinstance(a, Audit)
    d = json.loads(json.dumps(a.to_dict(), allow_nan=False))
    for key in ("n", "d", "mu", "orthogonally_separable", "X_min", "X_max", "zeta1", "xi", "t1", "zeta2", "eps_required"):
        assert key in d
    assert d["eps_required"] == 0.0 and d["log10_eps_required"] == pytest.approx(-4298.81, abs=0.01)
    assert d["delta_t"]["1"] == pytest.approx(a.delta_t_coef)
    assert all({"name", "holds", "value", "threshold", "margin", "source"} <= set(f) for f in d["assumptions"])


# Homogeneity degree of each audited number in the data scale s (X -> s X): value(s X) = s^k value(X).
DEGREE = {
    "X_min": 1, "X_max": 1, "x_plus": 1, "x_minus": 1, "alpha_rate": 1,
    "t1": -1, "t1_dead_path": -1, "T_Pmax": -1, "T_Pmax_plus": -1, "T_Pmax_minus": -1, "delta_t_coef": -1,
    "t1_min": -1, "t1_max": -1, "T_eps": -1,
    "mu": 0, "zeta1_sup": 0, "zeta1": 0, "xi": 0, "rho_plus": 0, "rho_minus": 0, "min_same_label_cos": 0,
    "max_opposite_label_cos": 0, "m": 0, "mm": 0, "c_star": 0, "zeta2": 0, "W_max": 0, "imbalance": 0, "log_eps2": 0,
}
LOG_SHIFT = ("log_eps_L3", "log_eps1", "log_eps1_printed")  # ln(...) - ln s
SIGNS = ("orthogonally_separable", "assumption1", "mu_exact", "mu_pair", "near_zero_pairs", "sign_disagreements")


def _audits(power: int, with_init: bool) -> tuple[Audit, Audit]:
    """The audit of X and of X * 2^power (exact scaling), with warnings as errors."""
    import warnings

    ds = random_assumption1(4, 3, 3, seed=2)
    W0, v0 = (toy4_init()[0] @ np.eye(2, 3), toy4_init()[1]) if with_init else (None, None)
    kw = {"eps": 1e-6} if with_init else {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return audit(ds, W0, v0, **kw), audit(Dataset(np.ldexp(ds.X, power), ds.y), W0, v0, **kw)


@pytest.mark.parametrize("power", [-1015, -700, -200, 200, 700, 1015])
@pytest.mark.parametrize("with_init", [False, True])
def test_every_number_scales_with_its_degree_or_is_null_beyond_float64(power, with_init):
    """Data are scale-free (DESIGN.md, Clarifications): each quantity is s^k times the unscaled one,
    computed without under- or overflow; it is null (reason under na) only where s^k value lies
    beyond float64. Signs, mu and cones are unchanged."""
    base, scaled = _audits(power, with_init)
    b, s = base.to_dict(), scaled.to_dict()
    for key in SIGNS:
        assert s[key] == b[key], key
    for key, k in DEGREE.items():
        if b[key] is None:
            assert s[key] is None, key
            continue
        want = np.asarray(b[key], dtype=float)
        if s[key] is None:
            assert np.max(np.log2(np.abs(want[want != 0]))) + k * power > 1023, key
            assert "beyond the float64 range" in s["na"][key], key
            continue
        np.testing.assert_allclose(np.ldexp(np.asarray(s[key], dtype=float), -k * power), want, rtol=1e-12, atol=0,
                                   err_msg=key)
    for key in LOG_SHIFT:
        if b[key] is not None:
            assert s[key] == pytest.approx(b[key] - power * math.log(2.0), rel=1e-12), key


def test_mu_and_signs_do_not_depend_on_each_rows_own_scale():
    """mu, orthogonal separability and every exact sign are invariant under x_i -> 2^k_i x_i for any
    k_i, tiny and huge rows mixed (cosines are formed from rows divided by their max-abs first)."""
    import warnings

    ds = random_assumption1(4, 4, 3, seed=4)
    powers = np.array([-1000, 1000, -3, 0, 990, -990, 500, -500])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a, b = audit(ds).to_dict(), audit(Dataset(np.ldexp(ds.X, powers[:, None]), ds.y)).to_dict()
        assert near_zero_pairs(np.ldexp(ds.X, powers[:, None])) == near_zero_pairs(ds.X)
    for key in SIGNS:
        assert a[key] == b[key], key
    assert b["mu"] == a["mu"] and b["min_same_label_cos"] == pytest.approx(a["min_same_label_cos"], rel=1e-14)


def test_quotient_has_no_intermediate_under_or_overflow():
    from verify.audit import quotient

    assert quotient(1.0, 1e-300, 1e-300, 1e300) == pytest.approx(1e300, rel=1e-15)
    assert quotient(1e300, 1e-100, 1e200) == pytest.approx(1e200, rel=1e-15)  # 1e300 / 1e-100 alone overflows
    assert quotient(1.0, 5e-324) == math.inf and quotient(-1.0, 5e-324) == -math.inf
    assert quotient(1e-300, 1e300) == 0.0


@pytest.mark.parametrize("scale", [1e308, 1e-310, 1e-323])
def test_extreme_scales_with_an_init_give_no_error_and_no_contradiction(scale):
    """Near the float64 limits the audit neither raises (ZeroDivisionError was exit 4) nor warns, and
    T(eps) = ln(1/(sqrt(h) eps)) / (4 n X_max) stays positive for eps < 1/sqrt(h) (it overflowed to 0)."""
    import warnings

    ds = random_assumption1(3, 3, 2, seed=1)
    W0, v0 = toy4_init()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = audit(Dataset(ds.X / ds.X_max * scale, ds.y), W0, v0, eps=1e-6)
    json.dumps(a.to_dict(), allow_nan=False)
    assert a.orthogonally_separable and a.mu > 0.0
    assert a.T_eps is None or a.T_eps > 0.0
    assert next(f for f in a.assumptions if f.name.startswith("T(eps)")).holds is not False
    for key in ("t1", "t2", "delta_t_coef", "alpha_rate"):
        value = getattr(a, key)
        assert (value is None and "float64 range" in a.na[key]) or (math.isfinite(value) and value > 0.0), key
