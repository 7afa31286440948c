"""Tests of verify.data.generators and verify.data.digits."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import minimize

from verify import Dataset, InputError
from verify.data import generators as g
from properties.min2024_early_alignment import datasets as d004
from verify.data.digits import digits_pair, greedy_assumption1_subset
from verify.geometry import mu, orthogonally_separable


def assumption1(ds: Dataset) -> bool:
    """004 Assumption 1: mu > 0."""
    return mu(ds) > 0.0


seeds = st.integers(min_value=0, max_value=2**32 - 1)
norm_ranges = st.tuples(st.floats(0.1, 3.0), st.floats(0.0, 3.0)).map(lambda t: (t[0], t[0] + t[1]))


def _linear_margin(ds: Dataset) -> float:
    """gamma_lin = min-norm point of conv{y_i x_i} (sheet 003 section 4.1), by SLSQP on the simplex."""
    Z = ds.signed
    n = ds.n
    res = minimize(
        lambda lam: float(np.sum((lam @ Z) ** 2)),
        np.full(n, 1.0 / n),
        jac=lambda lam: 2.0 * Z @ (lam @ Z),
        bounds=[(0.0, 1.0)] * n,
        constraints=[{"type": "eq", "fun": lambda lam: lam.sum() - 1.0}],
        method="SLSQP",
        options={"ftol": 1e-15, "maxiter": 500},
    )
    return float(np.linalg.norm(res.x @ Z))


def _pairwise_signed_cos(ds: Dataset) -> np.ndarray:
    U = ds.signed / ds.norms[:, None]
    return U @ U.T


# ----------------------------------------------------------------- hand-built fixtures


def test_toy4_exact():
    ds = d004.toy4()
    assert (ds.n_pos, ds.n_neg, ds.d) == (2, 2, 2)
    assert mu(ds) == pytest.approx(math.cos(0.6), abs=1e-15)
    np.testing.assert_allclose(ds.norms, 1.0, atol=1e-15)
    np.testing.assert_allclose(ds.x_plus, -ds.x_minus, atol=1e-15)
    assert mu(d004.toy4(0.5)) == pytest.approx(math.cos(1.0), abs=1e-15)


def test_toy_2d_matches_sheet():
    ds = d004.toy_2d()
    assert (ds.n_pos, ds.n_neg) == (3, 3)
    assert mu(ds) == pytest.approx(math.cos(1.15), abs=1e-14)
    assert np.all(ds.X[:, 1] > 0)  # (0, -1) is in S_dead
    assert orthogonally_separable(ds) and assumption1(ds)


@pytest.mark.parametrize("m", [math.sin(0.1), math.sin(0.001), 0.5, 1.0, -0.3])
def test_two_point(m):
    ds = d004.two_point(m)
    assert ds.n_pos == 2 and ds.n_neg == 0
    np.testing.assert_array_equal(ds.X[0], [1.0, 0.0])
    np.testing.assert_allclose(ds.norms, 1.0, atol=1e-15)
    assert mu(ds) == pytest.approx(m, abs=1e-15)


def test_two_point_matches_paper_coordinates():
    np.testing.assert_allclose(d004.two_point(math.sin(0.1)).X[1], [math.sin(0.1), math.cos(0.1)], atol=1e-16)


def test_orthogonal_pair():
    ds = d004.orthogonal_pair()
    np.testing.assert_array_equal(ds.X, np.eye(2))
    np.testing.assert_array_equal(ds.y, [1.0, 1.0])
    assert mu(ds) == 0.0 and not assumption1(ds)


def test_pc2_fixture():
    ds = g.pc2_cross_class_acute()
    deg = np.degrees(np.arctan2(ds.X[:, 1], ds.X[:, 0]))
    np.testing.assert_allclose(deg, [0.0, 80.0, 120.0, 135.0], atol=1e-12)
    np.testing.assert_array_equal(ds.y, [1, 1, -1, -1])
    assert not orthogonally_separable(ds)
    w = np.array([math.cos(math.radians(10)), math.sin(math.radians(10))])
    assert np.all(ds.y * (ds.X @ w) > 0)  # separable by u(10 deg)
    assert ds.X[1] @ ds.X[2] == pytest.approx(math.cos(math.radians(40)))


def test_planted_p1():
    a, b = d004.planted_p1a(), d004.planted_p1b()
    assert mu(a) == pytest.approx(-0.4472135954999579, abs=1e-15)
    assert mu(b) == pytest.approx(-1 / math.sqrt(2), abs=1e-15)
    assert list(b.y) == [1, -1] and b.X[0] @ b.X[1] == 1.0


# ----------------------------------------------------------------- orthogonally separable


@st.composite
def os_params(draw):
    n_pos = draw(st.integers(0, 5))
    n_neg = draw(st.integers(0 if n_pos else 1, 5))
    d = draw(st.integers(1, 5))
    degenerate = n_pos + n_neg == 1 or d == 1
    m = 1.0 if degenerate else draw(st.one_of(st.just(1.0), st.floats(1e-6, 1.0)))
    return n_pos, n_neg, d, m


@given(os_params(), norm_ranges, seeds)
def test_orthogonally_separable_properties(params, nr, seed):
    n_pos, n_neg, d, m = params
    ds = g.orthogonally_separable(n_pos, n_neg, d, m, seed=seed, norm_range=nr)
    assert (ds.n_pos, ds.n_neg, ds.d) == (n_pos, n_neg, d)
    assert np.all(ds.y[:n_pos] == 1) and np.all(ds.y[n_pos:] == -1)
    assert abs(mu(ds) - m) <= g.MU_TOL
    assert assumption1(ds) and orthogonally_separable(ds)
    assert nr[0] * (1 - 1e-12) <= ds.X_min and ds.X_max <= nr[1] * (1 + 1e-12)


@given(st.floats(1e-3, 0.999), seeds)
def test_orthogonally_separable_min_attained_once(m, seed):
    """Exactly one pair realises mu (the two extremes); the rest are strictly inside."""
    ds = g.orthogonally_separable(4, 4, 3, m, seed=seed)
    C = _pairwise_signed_cos(ds)
    iu = np.triu_indices(ds.n, 1)
    assert np.sum(C[iu] <= m + 1e-9) == 1


@given(seeds)
def test_orthogonally_separable_deterministic(seed):
    a = g.orthogonally_separable(3, 2, 4, 0.4, seed=seed, norm_range=(0.5, 2.0))
    b = g.orthogonally_separable(3, 2, 4, 0.4, seed=seed, norm_range=(0.5, 2.0))
    c = g.orthogonally_separable(3, 2, 4, 0.4, seed=seed + 1, norm_range=(0.5, 2.0))
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)
    assert not np.array_equal(a.X, c.X)
    assert a.name == b.name and "seed" in a.name


def test_orthogonally_separable_norms_vary():
    ds = g.orthogonally_separable(5, 5, 3, 0.5, seed=0, norm_range=(0.5, 2.0))
    assert ds.X_max - ds.X_min > 0.1
    fixed = g.orthogonally_separable(5, 5, 3, 0.5, seed=0)
    np.testing.assert_allclose(fixed.norms, 1.0, atol=1e-15)


def test_mu_one_collinear():
    ds = g.orthogonally_separable(2, 2, 3, 1.0, seed=3)
    assert np.linalg.matrix_rank(ds.X, tol=1e-12) == 1


@given(os_params(), norm_ranges, seeds, st.floats(0.0, 1.0))
def test_orthogonally_separable_split_keeps_every_guarantee(params, nr, seed, split):
    n_pos, n_neg, d, m = params
    ds = g.orthogonally_separable(n_pos, n_neg, d, m, seed=seed, norm_range=nr, split=split)
    assert (ds.n_pos, ds.n_neg, ds.d) == (n_pos, n_neg, d)
    assert abs(mu(ds) - m) <= g.MU_TOL
    assert assumption1(ds) and orthogonally_separable(ds)
    assert nr[0] * (1 - 1e-12) <= ds.X_min and ds.X_max <= nr[1] * (1 + 1e-12)


@given(st.integers(1, 4), st.integers(1, 4), st.integers(2, 5), st.floats(1e-3, 0.999), seeds, st.sampled_from([0.5, 0.6, 0.9, 1.0]))
def test_orthogonally_separable_split_puts_the_classes_apart(n_pos, n_neg, d, m, seed, split):
    """With split s the class directions are at least 2 (2 s - 1) 0.9 theta apart (theta = arccos(mu) / 2), the
    unique mu pair is one positive and one negative, and split 0 is the plain cap (the default, bit for bit)."""
    ds = g.orthogonally_separable(n_pos, n_neg, d, m, seed=seed, split=split)
    S = ds.signed / ds.norms[:, None]
    C = S @ S.T
    i, j = np.unravel_index(np.argmin(C), C.shape)
    assert ds.y[i] != ds.y[j] and C[i, j] == pytest.approx(m, abs=1e-9)
    iu = np.triu_indices(ds.n, 1)
    assert np.sum(C[iu] <= m + 1e-9) == 1
    pos, neg = S[ds.y > 0].sum(axis=0), S[ds.y < 0].sum(axis=0)
    angle = math.acos(np.clip(pos @ neg / (np.linalg.norm(pos) * np.linalg.norm(neg)), -1.0, 1.0))
    assert angle >= 2 * (2 * split - 1) * g.INNER_FRACTION * 0.5 * math.acos(m) - 1e-9
    plain = g.orthogonally_separable(n_pos, n_neg, d, m, seed=seed)
    np.testing.assert_array_equal(plain.X, g.orthogonally_separable(n_pos, n_neg, d, m, seed=seed, split=0.0).X)
    assert "split" not in plain.name and (split == 0.0 or f"split={split!r}" in ds.name)


@pytest.mark.parametrize(
    "args, kwargs, fragment",
    [
        ((2, 2, 2, 0.0), {}, "mu must lie in"),
        ((2, 2, 2, -0.1), {}, "mu must lie in"),
        ((2, 2, 2, 1.5), {}, "mu must lie in"),
        ((2, 2, 2, float("nan")), {}, "finite"),
        ((0, 0, 2, 0.5), {}, "at least one point"),
        ((-1, 2, 2, 0.5), {}, "n_pos must be >= 0"),
        ((2, 2, 0, 0.5), {}, "d must be >= 1"),
        ((2.5, 2, 2, 0.5), {}, "integer"),
        ((1, 0, 3, 0.5), {}, "single point"),
        ((2, 2, 1, 0.5), {}, "d = 1"),
        ((2, 2, 2, 0.5), {"norm_range": (0.0, 1.0)}, "norm_range"),
        ((2, 2, 2, 0.5), {"norm_range": (2.0, 1.0)}, "norm_range"),
        ((2, 2, 2, 0.5), {"norm_range": 1.0}, "norm_range"),
        ((2, 2, 2, 0.5), {"seed": -1}, "seed"),
        ((2, 2, 2, 0.5), {"seed": 1.5}, "seed"),
        ((2, 2, 2, 0.5), {"split": -0.1}, "split"),
        ((2, 2, 2, 0.5), {"split": 1.5}, "split"),
        ((2, 2, 2, 0.5), {"split": "x"}, "split"),
    ],
)
def test_orthogonally_separable_invalid(args, kwargs, fragment):
    kwargs = {"seed": 0, **kwargs}
    with pytest.raises(InputError, match=fragment):
        g.orthogonally_separable(*args, **kwargs)


# ----------------------------------------------------------------- near miss


@given(st.integers(1, 4), st.integers(1, 4), st.integers(2, 5), st.floats(1e-6, 0.999), norm_ranges, seeds)
def test_near_miss_exact_violation(n_pos, n_neg, d, v, nr, seed):
    ds = g.near_miss(n_pos, n_neg, d, v, seed=seed, norm_range=nr)
    assert (ds.n_pos, ds.n_neg, ds.d) == (n_pos, n_neg, d)
    assert abs(mu(ds) + v) <= g.MU_TOL
    assert not assumption1(ds) and not orthogonally_separable(ds)
    C = _pairwise_signed_cos(ds)
    iu = np.triu_indices(ds.n, 1)
    assert np.sum(C[iu] <= 0.0) == 1  # the planted pair only
    assert C[0, n_pos] == pytest.approx(-v, abs=1e-12) and ds.y[0] != ds.y[n_pos]
    assert nr[0] * (1 - 1e-12) <= ds.X_min and ds.X_max <= nr[1] * (1 + 1e-12)


def test_near_miss_removing_pair_restores_assumption1():
    ds = g.near_miss(3, 3, 3, 0.2, seed=5)
    keep = [i for i in range(ds.n) if i != 0]
    assert assumption1(Dataset(ds.X[keep], ds.y[keep]))


@pytest.mark.parametrize(
    "args, fragment",
    [((0, 2, 2, 0.1), "n_pos"), ((2, 0, 2, 0.1), "n_neg"), ((2, 2, 1, 0.1), "d must be >= 2"),
     ((2, 2, 2, 0.0), "violation"), ((2, 2, 2, 1.0), "violation"), ((2, 2, 2, -0.2), "violation")],
)
def test_near_miss_invalid(args, fragment):
    with pytest.raises(InputError, match=fragment):
        g.near_miss(*args, seed=0)


# ----------------------------------------------------------------- symmetric / teacher


@given(st.integers(1, 8), st.integers(1, 5), st.floats(1e-3, 1.0), seeds)
def test_symmetric_separable(n_half, d, margin, seed):
    ds = g.symmetric_separable(n_half, d, margin, seed=seed)
    assert ds.n == 2 * n_half and ds.d == d
    np.testing.assert_array_equal(ds.X[n_half:], -ds.X[:n_half])
    np.testing.assert_array_equal(ds.y, np.r_[np.ones(n_half), -np.ones(n_half)])
    assert ds.X_max <= 1.0 + 1e-12
    w = ds.X[0] / np.linalg.norm(ds.X[0])
    assert np.linalg.norm(ds.X[0]) == pytest.approx(margin, rel=1e-12)
    assert np.min(ds.y * (ds.X @ w)) >= margin - 1e-12


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_symmetric_linear_margin_is_exact(seed):
    ds = g.symmetric_separable(6, 3, 0.15, seed=seed)
    assert _linear_margin(ds) == pytest.approx(0.15, abs=1e-6)


@given(st.integers(1, 12), st.integers(1, 5), st.floats(1e-3, 1.0), seeds)
def test_linear_teacher(n, d, margin, seed):
    ds = g.linear_teacher(n, d, margin, seed=seed)
    assert ds.n == n and ds.d == d
    assert ds.both_classes == (n >= 2)
    w = ds.X[0] / np.linalg.norm(ds.X[0])
    proj = ds.X @ w
    np.testing.assert_array_equal(np.sign(proj), ds.y)
    assert np.min(ds.y * proj) >= margin - 1e-12
    assert np.min(ds.y * proj / ds.norms) >= margin - 1e-12
    assert ds.X_max <= 1.0 + 1e-12


@given(st.integers(1, 12), st.integers(1, 5), st.floats(1e-3, 1.0), seeds, st.sampled_from([1.0, 0.5, 0.25, 0.01]),
       st.booleans(), st.sampled_from([0.0, 0.3, 1.0]))
def test_linear_teacher_structures_keep_every_guarantee(n, d, margin, seed, band, unit_norm, tilt):
    """band, unit_norm and tilt: ||x|| <= 1, y <w*, x> in [margin, margin + band (1 - margin)], w* the max-margin
    direction with margin exactly ``margin``; unit rows where asked; the support pair's inner product."""
    teacher = np.arange(1.0, d + 1.0)
    w = teacher / np.linalg.norm(teacher)
    ds = g.linear_teacher(n, d, margin, seed=seed, teacher=teacher, band=band, unit_norm=unit_norm, tilt=tilt)
    proj = ds.y * (ds.X @ w)
    assert ds.n == n and ds.X_max <= 1.0 + 1e-12
    assert np.min(proj) >= margin * (1 - 1e-12) and np.max(proj) <= margin + band * (1 - margin) + 1e-12
    paired = tilt > 0.0 and n >= 2 and d >= 2
    assert proj[0] == pytest.approx(margin, rel=1e-12) and (not paired or proj[1] == pytest.approx(margin, rel=1e-12))
    if n >= 2 and d >= 2:
        assert _linear_margin(ds) == pytest.approx(margin, abs=1e-6)
    if unit_norm and d >= 2:
        np.testing.assert_allclose(ds.norms[2 if paired else 1:], 1.0, rtol=1e-12)
    if paired:
        length = tilt * math.sqrt(1.0 - margin**2)
        assert ds.X[0] @ ds.X[1] == pytest.approx(length**2 - margin**2, abs=1e-12)
        assert (ds.X[0] @ ds.X[1] > 0) == (length > margin + 1e-9) or abs(length - margin) < 1e-9


def test_linear_teacher_defaults_are_unchanged_and_structures_named():
    plain = g.linear_teacher(6, 3, 0.1, seed=4)
    same = g.linear_teacher(6, 3, 0.1, seed=4, band=1.0, unit_norm=False, tilt=0.0)
    np.testing.assert_array_equal(plain.X, same.X)
    assert plain.name == same.name and "band" not in plain.name
    w = plain.X[0] / np.linalg.norm(plain.X[0])
    sphere = g.linear_teacher(6, 3, 0.1, seed=4, unit_norm=True)  # the same <w*, x> and orthogonal directions
    np.testing.assert_allclose(sphere.X @ w, plain.X @ w, atol=1e-12)
    parts = [(ds.X - np.outer(ds.X @ w, w))[1:] for ds in (plain, sphere)]
    np.testing.assert_allclose(*(p / np.linalg.norm(p, axis=1, keepdims=True) for p in parts), atol=1e-9)
    assert "band=0.25" in g.linear_teacher(6, 3, 0.1, seed=4, band=0.25).name
    assert "tilt=1.0" in g.linear_teacher(6, 3, 0.1, seed=4, tilt=1.0).name


def test_linear_teacher_given_teacher_and_margin():
    teacher = [3.0, 0.0, 4.0]
    ds = g.linear_teacher(10, 3, 0.2, seed=7, teacher=teacher)
    w = np.array(teacher) / 5.0
    np.testing.assert_allclose(ds.X[0], 0.2 * w, atol=1e-15)
    assert np.all(ds.y * (ds.X @ w) >= 0.2 - 1e-12)
    assert _linear_margin(ds) == pytest.approx(0.2, abs=1e-6)


@given(seeds)
def test_teacher_generators_deterministic(seed):
    for make in (lambda s: g.linear_teacher(6, 3, 0.1, seed=s), lambda s: g.symmetric_separable(3, 3, 0.1, seed=s)):
        np.testing.assert_array_equal(make(seed).X, make(seed).X)
        assert not np.array_equal(make(seed).X, make(seed + 1).X)


@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda: g.symmetric_separable(0, 2, 0.1, seed=0), "n_half"),
        (lambda: g.symmetric_separable(2, 2, 0.0, seed=0), "margin"),
        (lambda: g.symmetric_separable(2, 2, 1.1, seed=0), "margin"),
        (lambda: g.linear_teacher(0, 2, 0.1, seed=0), "n must be"),
        (lambda: g.linear_teacher(3, 2, 0.1, seed=0, teacher=[0.0, 0.0]), "teacher"),
        (lambda: g.linear_teacher(3, 2, 0.1, seed=0, teacher=[1.0, 0.0, 0.0]), "teacher"),
        (lambda: g.linear_teacher(3, 2, 0.1, seed=0, teacher=["a", "b"]), "teacher"),
        (lambda: g.linear_teacher(3, 2, 0.1, seed=0, band=0.0), "band"),
        (lambda: g.linear_teacher(3, 2, 0.1, seed=0, band=1.5), "band"),
        (lambda: g.linear_teacher(3, 2, 0.1, seed=0, tilt=-0.5), "tilt"),
        (lambda: g.linear_teacher(3, 2, 0.1, seed=0, unit_norm=1), "unit_norm"),
        (lambda: d004.toy4(0.0), "a must lie"),
        (lambda: d004.toy4(math.pi / 2), "a must lie"),
        (lambda: d004.two_point(1.5), "mu must lie"),
    ],
)
def test_other_invalid(call, fragment):
    with pytest.raises(InputError, match=fragment):
        call()


# ----------------------------------------------------------------- registry


def test_make_dataset_registry():
    assert set(g.generators()) >= {"orthogonally_separable", "toy4", "toy_2d", "two_point", "orthogonal_pair",
                                 "symmetric_separable", "linear_teacher", "near_miss", "pc2_cross_class_acute",
                                 "digits_pair"}
    ds = g.make_dataset("orthogonally_separable", n_pos="2", n_neg=3, d="3", mu="0.25", seed="4",
                        norm_range="(1, 2)")
    ref = g.orthogonally_separable(2, 3, 3, 0.25, seed=4, norm_range=(1, 2))
    np.testing.assert_array_equal(ds.X, ref.X)
    assert mu(g.make_dataset("toy4", a=0.2)) == pytest.approx(math.cos(0.4))


@pytest.mark.parametrize(
    "name, params, fragment",
    [("nope", {}, "unknown generator"), ("toy4", {"b": 1}, "unexpected keyword"),
     ("orthogonally_separable", {"n_pos": 1}, "missing"), ("toy4", {"a": "x"}, "real number")],
)
def test_make_dataset_errors(name, params, fragment):
    with pytest.raises(InputError, match=fragment):
        g.make_dataset(name, **params)


# ----------------------------------------------------------------- digits


def test_digits_pair_0_1_matches_sheet():
    ds = digits_pair(0, 1)
    assert (ds.n, ds.n_pos, ds.n_neg, ds.d) == (360, 178, 182, 64)
    assert np.all(ds.y[:178] == 1) and np.all(ds.y[178:] == -1)
    np.testing.assert_allclose(ds.X.mean(axis=0), 0.0, atol=1e-12)
    assert mu(ds) == pytest.approx(-0.718, abs=1e-3)
    assert ds.X_max == pytest.approx(2.78, abs=0.01) and ds.X_min == pytest.approx(1.51, abs=0.01)
    np.testing.assert_allclose(ds.x_plus, -ds.x_minus, atol=1e-10)


def test_digits_pair_raw_and_normalised():
    raw = digits_pair(3, 8, centred=False)
    assert raw.X.min() >= 0.0 and raw.X.max() <= 1.0 and raw.X.max() == 1.0
    assert (raw.n_pos, raw.n_neg) == (183, 174)
    np.testing.assert_allclose(digits_pair(1, 7, normalise="unit").norms, 1.0, atol=1e-12)
    assert digits_pair(1, 7, normalise="ball").X_max == pytest.approx(1.0)
    swapped = digits_pair(1, 0)
    assert (swapped.n_pos, swapped.n_neg) == (182, 178)


def test_greedy_subset_matches_sheet():
    sub = greedy_assumption1_subset(digits_pair(0, 1))
    assert assumption1(sub)
    assert sub.n == 259 and mu(sub) == pytest.approx(0.0045, abs=1e-4)


@pytest.mark.parametrize(
    "kwargs, fragment",
    [({"a": 10}, "0..9"), ({"a": -1}, "0..9"), ({"b": 1.0}, "0..9"), ({"a": 4, "b": 4}, "differ"),
     ({"normalise": "l2"}, "normalise")],
)
def test_digits_invalid(kwargs, fragment):
    with pytest.raises(InputError, match=fragment):
        digits_pair(**kwargs)


def test_mnist_pair_is_real_mnist_from_the_installed_wheel():
    """1,000 real MNIST images (500 per digit, 784 pixels in [0, 1] before centring), digit a first."""
    ds = g.make_dataset("mnist_pair", a=0, b=1)
    assert (ds.n, ds.d, ds.n_pos, ds.n_neg) == (1000, 784, 500, 500)
    assert np.all(ds.y[:500] == 1.0) and np.all(ds.y[500:] == -1.0)
    assert np.abs(ds.X.mean(axis=0)).max() < 1e-12
    raw = g.make_dataset("mnist_pair", a=3, b=5, centred=False)
    assert raw.X.min() >= 0.0 and raw.X.max() <= 1.0
