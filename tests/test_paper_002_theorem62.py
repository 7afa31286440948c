"""Seed 002, Lemma 6.1 / LT-X3..X5 (properties/sarussi2021_linear_teachers/lemma61.py) and Theorem 6.2 with the SVM
view of QP (8) (theorem62.py): Gamma_A / Gamma_B on hand-made 2-D data with known answers (QP and grid paths), P7's
exact witness, QP (8) on antipodal data (= w_svm / (1 + alpha)), the kernel of the SVM view, the bridge
cos(W, W^_inf) >= gamma-bar / gamma*_PAR, the vectorised trajectory readings, and one GD run each of LT-T62 and P10.
Catalogue verdicts are searched in properties/test_catalogue.py, not here."""

import math

import numpy as np
import pytest

from verify.claims.run import execute
from verify.data.dataset import Dataset
from verify.margins import max_margin

from properties.sarussi2021_linear_teachers import datasets as D
from properties.sarussi2021_linear_teachers import lemma61 as L
from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers import quantities as Q
from properties.sarussi2021_linear_teachers import theorem62 as T
from properties.sarussi2021_linear_teachers._shared import ALPHA

SQRT_HALF = math.sqrt(0.5)
GRID_ERR = math.pi / L.GRID  # the grid path's error for data in the unit ball


def data(X, y) -> Dataset:
    return Dataset(np.asarray(X, float), np.asarray(y, float), name="hand-made")


# --- Gamma_A, Gamma_B (sheet 4) --------------------------------------------------------------------------------------

@pytest.mark.parametrize("X, y, expected", [
    ([[1, 0], [-1, 0]], [1, -1], (0.0, 0.0)),  # antipodal: Lemma 6.1
    ([[1, 0], [0, -1]], [1, -1], (SQRT_HALF, SQRT_HALF)),  # dist(0, segment (1,0)-(0,-1)) = 1/sqrt 2
    # A: 0 in conv(S+ u {x'}); B: dist(0, segment x'-(1, 0)) = sin(pi / 8) (the segment's foot bisects the 45 degrees)
    ([[1, 0], [0, 1], [-SQRT_HALF, -SQRT_HALF]], [1, 1, -1], (0.0, math.sin(math.pi / 8))),
    ([[1, 0], [0, 0.5]], [1, -1], (1 / math.sqrt(5), 1 / math.sqrt(5))),  # dist(0, segment (1,0)-(0,1/2)) = 1/sqrt 5
    # A: 0 in conv{(0.6, +-0.8), (-1, 0)}; B: dist(0, segment (-1, 0)-(0.6, 0.8)) = |(-0.2, 0.4)| = 1/sqrt 5
    ([[0.6, 0.8], [0.6, -0.8], [-1, 0]], [1, 1, -1], (0.0, 1 / math.sqrt(5))),
])
def test_gamma_known_values_by_qp_and_grid(X, y, expected):
    ds = data(X, y)
    ga, gb = Q.misclassifying_margins(ds.X, ds.y)
    assert (ga, gb) == pytest.approx(expected, abs=1e-9)
    grid = L.grid_misclassifying_margins(ds.X, ds.y)
    for value, g in zip(expected, grid):
        assert value - GRID_ERR - 1e-12 <= g <= value + 1e-12


def test_gamma_grid_agrees_with_qp_on_asymmetric_gaussians():
    ds = D.asymmetric_gaussians(10, seed=0)
    qp, grid = Q.misclassifying_margins(ds.X, ds.y), L.grid_misclassifying_margins(ds.X, ds.y)
    assert min(qp) > 0.1
    for a, b in zip(qp, grid):
        assert b - 1e-9 <= a <= b + GRID_ERR + 1e-9


def test_lemma61_margin_and_p7_witness():
    ds = D.symmetric_teacher(6, 3, 0.2, seed=5)
    assert L.emptiness_margin(L.EmptinessCase(ds)).value >= -L.GAMMA_TOL
    p7 = L.emptiness_margin(L.EmptinessCase(ds, 0.0, True))
    assert p7.value == -1.0 and p7.error == 0.0 and "w = 0" in p7.note
    assert L.emptiness_margin(L.EmptinessCase(D.asymmetric_gaussians(8, seed=1))).value < -0.1  # P8


def test_flagged_margin_on_asymmetric_and_symmetric_data():
    assert L.flagged_margin(D.outlier(6, seed=2)).value >= 0.0
    assert L.flagged_margin(D.symmetric_gaussians(6, seed=2)).value < 0.0


# --- LT-X3 ------------------------------------------------------------------------------------------------------------

def test_x3_tight_family_ratio():
    ds = D.teacher(6, 2, 0.3, seed=1)
    j = int(np.flatnonzero(ds.y > 0)[0])
    x_hat = ds.X[j] / np.linalg.norm(ds.X[j])
    k, eps, c = 3, 1e-2, 2.0
    W = np.vstack([np.tile(-eps * c * x_hat, (k, 1)), np.tile(-c * x_hat, (k, 1))])
    q = N.margins(W, ds.X, ds.y)[j]
    assert q == pytest.approx(k * ALPHA * c * np.linalg.norm(ds.X[j]) * (1 - eps), rel=1e-12)
    m = L.x3_margin(L.NarCase(ds, W, "tight"))
    assert m.value >= -m.error and m.ratio == pytest.approx(1 - eps, rel=1e-9)
    assert L.x3_margin(L.NarCase(ds, W, "tight", factor=0.5)).value < -0.5
    assert L.x3_margin(L.NarCase(ds, W, "tight", sqrt_k=False)).value < -0.5


def test_cone_cluster_keeps_the_agreement_signs():
    ds = D.symmetric_teacher(8, 3, 0.1, seed=3)
    rng = np.random.default_rng(0)
    v = rng.standard_normal(3)
    rows = L.cone_cluster(ds.X, v, 5, 0.99, rng.uniform(0.1, 1.0, 5), rng)
    assert np.all(np.sign(ds.X @ rows.T) == np.sign(ds.X @ v)[:, None])


# --- QP (8): LT-X4, LT-X5, the SVM view ---------------------------------------------------------------------------------

def test_qp8_on_two_antipodal_points_is_w_svm_over_one_plus_alpha():
    par = Q.par_svm(np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, -1.0]), ALPHA)
    assert par.w == pytest.approx([1 / (1 + ALPHA), 0.0], abs=1e-9)
    assert par.u == pytest.approx([-1 / (1 + ALPHA), 0.0], abs=1e-9)


@pytest.mark.parametrize("ds", [D.symmetric_gaussians(12, seed=4), D.symmetric_teacher(7, 4, 0.05, seed=9)])
def test_qp8_symmetric_solution_and_par_margin(ds):
    par, svm = Q.par_svm(ds.X, ds.y, ALPHA), max_margin(ds).svm
    assert np.r_[par.w, par.u] == pytest.approx(np.r_[svm.w, -svm.w] / (1 + ALPHA), rel=1e-7, abs=1e-9)
    assert L.symmetric_solution_margin(L.QpCase(ds)).value >= -1e-7
    for k in (1, 3):
        assert par.par_margin(ds.X, ds.y, k) == pytest.approx(svm.inverse_norm / math.sqrt(2 * k), rel=1e-7)


def test_p11_asymmetric_qp8_is_not_the_linear_svm():
    m = L.symmetric_solution_margin(L.QpCase(D.asymmetric_gaussians(15, seed=0)))
    assert m.value < -0.05 and m.error < 1e-4


def test_kernel_is_the_feature_gram():
    ds = D.asymmetric_gaussians(4, seed=2)
    Phi = ds.y[:, None] * Q.par_rows(ds.X, ds.y, ALPHA)  # phi(x_j, y_j) = y_j a_j
    assert T.par_kernel(ds.X, ds.y, ALPHA) == pytest.approx(Phi @ Phi.T, rel=1e-12, abs=1e-15)
    same = ds.y[:, None] == ds.y[None, :]
    ratio = T.par_kernel(ds.X, ds.y, ALPHA) / (ds.X @ ds.X.T)
    assert np.allclose(ratio[same], 1 + ALPHA**2) and np.allclose(ratio[~same], 2 * ALPHA)


@pytest.mark.parametrize("ds", [D.symmetric_gaussians(10, seed=1), D.outlier(8, seed=3), D.asymmetric_gaussians(9, seed=5)])
def test_kernel_dual_matches_the_primal(ds):
    par = Q.par_svm(ds.X, ds.y, ALPHA)
    z, kkt, _ = T.kernel_dual(ds.X, ds.y, ALPHA)
    assert kkt < 1e-9
    assert z == pytest.approx(np.r_[par.w, par.u], rel=1e-7, abs=1e-9)
    assert T.dual_agreement_margin(L.QpCase(ds, 1, "label-blind")).value < -0.05


# --- the bridge and the trajectory readings -------------------------------------------------------------------------

def test_bridge_cos_at_least_margin_ratio_in_par():
    ds = D.symmetric_gaussians(10, seed=7)
    par = Q.par_svm(ds.X, ds.y, ALPHA)
    rng = np.random.default_rng(1)
    k = 3
    checked = 0
    for scale in (0.0, 0.05, 0.2, 0.5):
        W = np.vstack([np.tile(par.w, (k, 1)), np.tile(par.u, (k, 1))]) + scale * rng.standard_normal((2 * k, 2))
        if not N.agreement(W, ds.X).par(ds.y):
            continue
        cos = float(np.sum(W * par.limit(k)) / np.linalg.norm(W))
        assert cos >= N.normalised_margin(W, ds.X, ds.y) / par.limit_margin(k) - 1e-12
        checked += 1
    assert checked >= 2
    # the limit itself attains equality
    Wl = par.limit(k)
    assert N.normalised_margin(Wl, ds.X, ds.y) / par.limit_margin(k) == pytest.approx(1.0, rel=1e-7)


def test_read_trajectory_matches_network_formulas():
    ds = D.symmetric_teacher(5, 2, 0.3, seed=2)
    rng = np.random.default_rng(3)
    Ws = rng.standard_normal((4, 6, 2))
    Ws[1] = np.vstack([np.tile(ds.X[0], (3, 1)), np.tile(-ds.X[0], (3, 1))]) * 40.0  # PAR, tiny loss
    r = T.read_trajectory(Ws, ds.X, ds.y)
    for t, W in enumerate(Ws):
        agree = N.agreement(W, ds.X)
        assert r.nar[t] == agree.nar and r.par[t] == agree.par(ds.y)
        if agree.nar:
            assert r.gamma_nar[t] == pytest.approx(agree.gamma, rel=1e-12)
        assert r.gamma_bar[t] == pytest.approx(N.normalised_margin(W, ds.X, ds.y), rel=1e-12)
        gt = N.smoothed_margin(W, ds.X, ds.y)
        assert (math.isnan(gt) and math.isnan(r.gamma_tilde[t])) or r.gamma_tilde[t] == pytest.approx(gt, rel=1e-10)
    assert r.par[1] and not math.isnan(r.gamma_tilde[1])


def test_final_window():
    def reading(nar, s_plus):
        n = len(nar)
        z = np.zeros(n)
        s = np.array(s_plus, float)[:, None]
        return T.Reading(np.array(nar), np.zeros(n, bool), s, s, z, z, z, z, z + 1)
    assert T.final_window(reading([True, True, False, True, True], [1, 1, 1, 1, 1])) == 3
    assert T.final_window(reading([True, True, True], [1, -1, -1])) == 1
    assert T.final_window(reading([True, True, True], [1, 1, 1])) == 0
    assert T.final_window(reading([True, False], [1, 1])) is None


# --- one GD run each: LT-T62 (antipodal) and P10 (asymmetric) -----------------------------------------------------

def gd_run(sc):
    return execute(sc, T.gd_horizon, samples=T.SAMPLES, spacing="log", backend="gd", papers=("002",))


def test_t62_on_one_antipodal_gd_run():
    m = T.t62_margin(gd_run(T.gd_scenario(D.symmetric_teacher(4, 2, 0.4, seed=11), 3, 5, steps=2000)))
    assert not m.vacuous and m.value >= -m.error


def test_p10_run_ends_in_a_non_par_nar_with_hypothesis_4_flagged():
    run = gd_run(T.gd_scenario(D.asymmetric_gaussians(30, seed=7), 3, 7, T.P10_STEPS, ("H3", "H4")))
    r = T.read_trajectory(run.W, run.X, run.y)
    assert r.nar[-1] and not r.par[-1]
    assert T.t62_margin(run).value < -0.01
    assert T.h4_flag_margin(run).value > 0.1
