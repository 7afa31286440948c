"""Seed 002's network quantities, data quantities and audit hook (claim sheet 002 sections 1.7-1.11, 4)."""

from __future__ import annotations

import math
import warnings

import mpmath
import numpy as np
import pytest

from verify import audit
from verify.data.dataset import Dataset

from properties.sarussi2021_linear_teachers import datasets as D
from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers import quantities as Q


def test_leaky_network_output_and_margins_by_hand():
    W = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])  # k = 2
    x = np.array([[2.0, -1.0]])
    # + neurons: sigma(2) + sigma(-1) = 2 - 0.2; - neurons: sigma(-2) + sigma(1) = -0.4 + 1
    assert N.output(W, x, 0.2)[0] == pytest.approx(1.8 - 0.6)
    assert N.margins(W, x, np.array([-1.0]), 0.2)[0] == pytest.approx(-1.2)
    np.testing.assert_array_equal(N.second_layer(2), [1.0, 1.0, -1.0, -1.0])


def mp_smoothed(q: np.ndarray, norm: float) -> mpmath.mpf:
    with mpmath.workdps(60):
        s = mpmath.fsum(mpmath.log1p(mpmath.exp(-mpmath.mpf(float(v)))) for v in q)
        return -mpmath.log(mpmath.expm1(s)) / norm


@pytest.mark.parametrize("scale", [30.0, 1e3, 1e5])  # n L_S < log 2 (gamma~ defined) from about 20 on
def test_smoothed_margin_matches_mpmath_and_stays_below_the_normalised_margin(scale):
    ds = D.symmetric_teacher(4, 2, 0.2, seed=1)
    w = ds.X[0] / np.linalg.norm(ds.X[0])
    W = scale * N.teacher_stack(w, 2)
    q = N.margins(W, ds.X, ds.y)
    value = N.smoothed_margin(W, ds.X, ds.y)
    assert value == pytest.approx(float(mp_smoothed(q, float(np.linalg.norm(W)))), rel=1e-12)
    assert value <= N.normalised_margin(W, ds.X, ds.y)


def test_smoothed_margin_is_undefined_above_log2():
    ds = D.symmetric_teacher(4, 2, 0.2, seed=1)
    assert math.isnan(N.smoothed_margin(1e-3 * N.teacher_stack(ds.X[0], 2), ds.X, ds.y))


def test_clusters_and_agreement_of_a_hand_built_network():
    W = np.array([[1.0, 0.1], [1.0, -0.1], [-1.0, 0.0], [-1.0, 0.0]])
    c = N.clusters(W)
    np.testing.assert_allclose(c.w_bar, [1.0, 0.0])
    assert c.r == pytest.approx(0.1)
    assert c.rho == pytest.approx(0.05)
    assert c.theta_max == pytest.approx(2 * math.atan(0.1))
    X = np.array([[1.0, 0.0], [-0.5, 0.2], [0.05, 1.0]])
    a = N.agreement(W, X)
    assert not a.nar and a.d_max == 1  # the + neurons disagree on the third point
    a = N.agreement(W, X[:2])
    assert a.nar and a.par(np.array([1.0, -1.0]))
    assert a.gamma == pytest.approx(0.48 / np.linalg.norm(W))


def test_teacher_correlation_is_the_inner_product_with_the_stacked_teacher():
    rng = np.random.default_rng(0)
    W, w = rng.standard_normal((6, 3)), rng.standard_normal(3)
    assert N.teacher_correlation(W, w) == pytest.approx(float(np.sum(W * N.teacher_stack(w, 3))))
    assert np.linalg.norm(N.teacher_stack(w, 3)) == pytest.approx(math.sqrt(6) * np.linalg.norm(w))


def test_sgd_bound_structure():
    """Sheet 2.1: M = n (floor T_max + 1), the sharp s gives a smaller bound, M ~ 1/eps^2 as eps -> 0."""
    args = dict(n=20, k=3, alpha=0.1, eta=0.5, R=1.0, B=1.0, teacher_norm=5.0)
    b = Q.sgd_bound(0.1, **args)
    assert b.eps_prime == pytest.approx(0.1 / (1 + 2 * 3 * 0.5 * 20))
    assert b.M == 20 * (math.floor(b.T_max) + 1) and b.epochs == math.floor(b.T_max) + 1
    assert Q.sgd_bound(0.1, **args, s=Q.S_STAR).T_max < b.T_max
    ratio = Q.sgd_bound(1e-4, **args).M / Q.sgd_bound(1e-5, **args).M
    assert ratio == pytest.approx(0.01, rel=1e-3)
    assert Q.S_STAR == pytest.approx(0.2784645427610738, abs=1e-15)


def test_cone_margin_and_misclassifying_margins_by_hand():
    assert Q.cone_margin(np.array([[1.0, 0.0], [0.0, 1.0]])) == pytest.approx(1 / math.sqrt(2), rel=1e-9)
    assert Q.cone_margin(np.array([[1.0, 0.0], [-1.0, 0.0]])) == 0.0
    sym = D.symmetric_teacher(5, 3, 0.1, seed=2)
    assert Q.misclassifying_margins(sym.X, sym.y) == (0.0, 0.0)
    assert Q.antipodal_mismatch(sym.X) == 0.0
    assert Q.antipodal_mismatch(D.outlier().X) > 0.1


@pytest.mark.parametrize("tau", [0.0, 0.1, 0.5, 0.9])
def test_nonlinear_share_closed_forms(tau):
    assert Q.nonlinear_share(tau, 2) == pytest.approx(2 / math.pi * math.asin(tau), abs=1e-12)
    assert Q.nonlinear_share(tau, 3) == pytest.approx(tau, abs=1e-12)  # cos is uniform on [-1, 1] on S^2
    assert Q.nonlinear_share(tau, 1) == 0.0 and Q.nonlinear_share(1.5, 4) == 1.0


def test_datasets_are_in_the_unit_ball_and_as_described():
    for ds in (D.symmetric_gaussians(20), D.asymmetric_gaussians(20), D.outlier(20), D.teacher(), D.symmetric_teacher()):
        assert Q.data_radius(ds.X) <= 1.0 + 1e-15
    assert Q.antipodal_mismatch(D.symmetric_gaussians(20).X) == 0.0
    assert D.outlier(20).n == 41 and D.outlier(20).y[-1] == 1.0
    np.testing.assert_allclose(np.linalg.norm(D.bias_augmented(D.teacher()).X, axis=1) <= 1.0, True)


@pytest.mark.parametrize("scale", [1e-200, 1.0, 1e200])
def test_audit_hook_is_scale_free_and_warning_free(scale):
    ds = D.asymmetric_gaussians(8)
    W0 = 0.1 * np.random.default_rng(0).standard_normal((4, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ref = audit(ds, W0, N.second_layer(2), papers=["002"]).papers["002"].quantities
        got = audit(Dataset(scale * ds.X, ds.y), W0, N.second_layer(2), papers=["002"]).papers["002"].quantities
    assert got["data_radius"] == pytest.approx(scale * ref["data_radius"], rel=1e-12)
    assert got["gamma_A"] == pytest.approx(scale * ref["gamma_A"], rel=1e-9)
    assert got["antipodal_mismatch"] == pytest.approx(ref["antipodal_mismatch"], rel=1e-12)
    assert got["par_consistency"] == pytest.approx(scale * ref["par_consistency"], rel=1e-9)
    if scale == 1.0:
        np.testing.assert_allclose(got["par_svm_w"], ref["par_svm_w"])


def test_an_exact_flows_sliding_pair_is_read_on_its_kink_not_by_its_rounding() -> None:
    """A GF Trace reads the pairs the engine logged as sliding as <w, x> = 0: the NAR reading (Definition 6.2 needs a
    nonzero common sign) and the PAR share both see the kink, where the rounded product (1e-17 here) would give a
    sign. GD / SGD traces have no sliding and read the products as they are."""
    from properties.sarussi2021_linear_teachers.flow_runs import Trace
    from properties.sarussi2021_linear_teachers.training import par_share
    from verify.trajectory import Event

    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    y = np.array([1.0, -1.0])
    W = np.array([[[1.0, -1.0], [-1.0, 1e-17]], [[1.0, -1.0], [-1.0, 1e-17]]])  # u's product with x_2 rounds to +1e-17
    events = (Event(0.5, 1, 1, "sliding"),)
    gf = Trace(np.array([0.0, 1.0]), W, X, y, 0.1, "gf", events)
    gd = Trace(np.array([0.0, 1.0]), W, X, y, 0.1, "gd", events)
    assert gf.on_kink[0].sum() == 0 and gf.on_kink[1][1, 1]
    assert gd.agreements[1].nar and not gf.agreements[1].nar
    assert par_share(W[1], X, y) == (1.0, 1.0) and par_share(W[1], X, y, gf.on_kink[1]) == (1.0, 0.0)
    W_out = W.copy()
    W_out[:, 1, 1] = -1e-17  # rounding to the other side: the reading no longer depends on it
    assert par_share(W_out[1], X, y) == (1.0, 0.0) and par_share(W_out[1], X, y, gf.on_kink[1]) == (1.0, 0.0)
