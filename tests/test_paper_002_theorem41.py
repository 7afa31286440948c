"""Seed 002, Theorem 4.1 and Appendix B (properties/sarussi2021_linear_teachers/theorem41.py, appendix_b.py, sgd_update.py): the
rebuilt bound's structure (sheet 2.1), one small SGD run on which every Appendix-B check holds and its planted
readings fail, P4's exact log 2, the loss floors of P6 / P13, the epoch check and the Eq. (17) threshold."""

from __future__ import annotations

import math

import numpy as np
import pytest

from verify.claims.model import violated
from verify.claims.run import execute
from verify.data.dataset import Dataset

from properties.sarussi2021_linear_teachers import appendix_b as B
from properties.sarussi2021_linear_teachers import sgd_update as U
from properties.sarussi2021_linear_teachers import datasets as D
from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers import quantities as Q
from properties.sarussi2021_linear_teachers import scenarios as SC
from properties.sarussi2021_linear_teachers import theorem41 as T

SECTION7 = [((30, 3, 0.1, 0.5, 1.0, 0.1), 1.04e13), ((20, 10, 0.5, 2.0, 0.01, 0.05), 8.0e13),
            ((20, 2, 0.01, 10.0, 5.0, 0.1), 5.0e16)]  # (n, k, alpha, eta, R, eps) -> M(eps), sheet section 7


def holds(margin) -> bool:
    return not margin.vacuous and margin.value >= -margin.error


# --- the rebuilt bound (sheet 2.1) -------------------------------------------------------------------------------

@pytest.mark.parametrize("row", SECTION7)
def test_sgd_bound_structure(row):
    """eps', c_eps, M = n (floor T_max + 1) and T_max = (2 a b + D) / a^2 (the constants of LT-P41g)."""
    (n, k, alpha, eta, R, eps), _ = row
    w, B_ = 7.0, 0.9
    b = Q.sgd_bound(eps, n, k, alpha, eta, R, B_, w)
    assert b.eps_prime == pytest.approx(eps / (1.0 + 2.0 * k * eta * n * B_ ** 2), rel=1e-15)
    assert b.c_eps == pytest.approx(1.0 - math.exp(-b.eps_prime), rel=1e-12)
    assert b.M == n * (math.floor(b.T_max) + 1) and b.epochs == math.floor(b.T_max) + 1
    a, bb = alpha * eta * b.c_eps, R * w
    D_ = n * w ** 2 * (eta + k * eta ** 2 * B_ ** 2) / k
    assert b.T_max == pytest.approx((2.0 * a * bb + D_) / a ** 2, rel=1e-12)
    assert Q.sgd_bound(eps, n, k, alpha, eta, R, B_, w, s=Q.S_STAR).T_max < b.T_max


@pytest.mark.parametrize("row", SECTION7)
def test_sgd_bound_section7_rows(row):
    """The sheet's M values used a valid but not min-norm teacher (||w*|| <= 1 / 0.05) and the effective n <= the
    nominal one, B <= 1: M grows with each, so every value lies below M at n, B = 1, ||w*|| = 20; the teacher norm
    that reproduces it at B = 1 lies in [1, 20]."""
    (n, k, alpha, eta, R, eps), sheet_m = row
    assert Q.sgd_bound(eps, n, k, alpha, eta, R, 1.0, 20.0).M >= sheet_m
    assert Q.sgd_bound(eps, n, k, alpha, eta, R, 1.0, 1.0).M <= sheet_m
    assert Q.sgd_bound(eps, n - 1, k, alpha, eta, R, 1.0, 5.0).M < Q.sgd_bound(eps, n, k, alpha, eta, R, 1.0, 5.0).M
    assert Q.sgd_bound(eps, n, k, alpha, eta, R, 0.5, 5.0).M < Q.sgd_bound(eps, n, k, alpha, eta, R, 1.0, 5.0).M


def test_sgd_bound_asymptotics():
    """M(eps) eps^2 -> n^2 ||w*||^2 (s + k eta B^2) (1 + 2 k eta n B^2)^2 / (k alpha^2 eta) as eps -> 0."""
    n, k, alpha, eta, R, B_, w = 5, 2, 0.2, 1.5, 1.0, 0.8, 3.0
    limit = n ** 2 * w ** 2 * (1.0 + k * eta * B_ ** 2) * (1.0 + 2.0 * k * eta * n * B_ ** 2) ** 2 / (k * alpha ** 2 * eta)
    assert Q.sgd_bound(1e-6, n, k, alpha, eta, R, B_, w).M * 1e-12 == pytest.approx(limit, rel=1e-4)


# --- one small SGD run: every Appendix-B check holds, the planted readings fail -----------------------------------

def small_run(variant: str = "paper", **kw):
    ds = D.teacher(5, 2, 0.2, seed=3)
    params = {"eta": 1.0, "alpha": 0.2, "k": 2, "R": 0.1, "epochs": 8} | kw
    sc = SC.model_scenario(ds, SC.ball_init(params["k"], 2, params["R"], 1), "sgd", eta=params["eta"],
                           alpha=params["alpha"], order_seed=4, R=params["R"], eps=0.3, variant=variant)
    return execute(sc, SC.epochs_horizon(params["epochs"]), backend="gd", spacing="steps", papers=("002",))


CHECKS = (U.explicit_update, U.teacher_correlation_increases, B.correlation_step, B.norm_step, B.norm_growth,
          B.mistake_epochs, B.cauchy_schwarz, B.all_mistake_epochs, B.step_lipschitz, T.epoch_permutations)


def test_every_appendix_b_check_holds_on_a_small_run():
    run = small_run()
    S = U.read_steps(run)
    assert S.order.size == 8 * 5 and S.W.shape == (41, 4, 2)
    assert np.min(run.y * (run.X @ S.w_star)) >= 1.0
    assert np.linalg.norm(S.w_star) == pytest.approx(1.0 / run.audit.gamma_lin, rel=1e-6)
    for check in CHECKS:
        assert holds(check(run)), check.__name__


@pytest.mark.parametrize("variant, check", [("mean", U.explicit_update), ("no-alpha", B.correlation_step),
                                            ("no-sqrt2k", B.cauchy_schwarz), ("unit-lipschitz", B.step_lipschitz)])
def test_planted_readings_fail_on_a_run(variant, check):
    assert violated(check(small_run(variant, epochs=8, k=1)))


def test_unscaled_eq15_fails_on_large_norm_data():
    """P5: on ||x|| = 10 data the B-scaled Eq. (15) holds and the unscaled one (B = 1) fails."""
    ds = D.large_norm(D.teacher(4, 2, 0.2, seed=1))
    runs = {v: execute(SC.model_scenario(ds, SC.ball_init(1, 2, 0.1, 2), "sgd", eta=1.0, alpha=0.2, variant=v),
                       SC.epochs_horizon(2), backend="gd", spacing="steps", papers=("002",)) for v in ("paper", "unit-B")}
    assert holds(B.norm_step(runs["paper"])) and violated(B.norm_step(runs["unit-B"]))


def test_eq16_without_eta2_fails_for_a_large_step():
    run = small_run("no-eta2", eta=10.0, alpha=0.5, epochs=1)
    assert violated(B.norm_growth(run)) and holds(B.norm_growth(small_run(eta=10.0, alpha=0.5, epochs=1)))


def test_explicit_update_matches_the_engine_to_rounding():
    run = small_run()
    S = U.read_steps(run)
    np.testing.assert_allclose(S.W[:-1] + S.update(), S.W[1:], rtol=0.0, atol=1e-14)


# --- P4: exactly log 2 for ever -------------------------------------------------------------------------------

def p4_run(eps: float = 0.3, horizon=None):
    sc = SC.model_scenario(D.relu_stuck(), np.tile([0.0, -1.0], (2, 1)), "sgd", eta=1.0, alpha=0.0, R=1.0, eps=eps,
                           alpha_rate=0.01)
    return execute(sc, horizon, backend="gd", spacing="steps", papers=("002",))


def test_p4_loss_is_exactly_log2():
    run = p4_run(horizon=SC.epochs_horizon(3))
    assert all(N.mean_loss(W, run.X, run.y, 0.0) == math.log(2.0) for W in run.W)
    assert np.all(run.W == run.W[0])
    assert violated(U.teacher_correlation_increases(run)) and violated(B.mistake_epochs(run))


def test_p4_refutes_theorem41_for_relu_exactly():
    run = p4_run(eps=0.3)
    assert T.stationary(run)
    m = T.theorem41(run)
    assert m.value == (0.3 - math.log(2.0)) / 0.3 and m.error == 0.0


# --- Theorem 4.1 on a small run, and its chunked search ------------------------------------------------------

def test_theorem41_finds_a_clean_epoch():
    ds = D.teacher(3, 2, 0.6, seed=2)
    sc = SC.model_scenario(ds, SC.ball_init(1, 2, 0.1, 0), "sgd", eta=1.0, alpha=0.5, order_seed=1, eps=0.3,
                           epochs=400)
    run = execute(sc, None, papers=("002",))
    bound = Q.sgd_bound(0.3, 3, 1, 0.5, 1.0, U.row_radius(sc.init.W0), Q.data_radius(ds.X),
                        float(np.linalg.norm(U.teacher_of(run))))
    found = T.sgd_until_clean(run, bound.eps_prime, 400)
    assert found.found and np.all(found.steps.loss[found.rows] < bound.eps_prime)
    assert np.all(np.sort(found.steps.order[found.rows]) == np.arange(3))
    again = T.sgd_until_clean(run, bound.eps_prime, 400)
    assert again.epoch == found.epoch and np.array_equal(again.W_end, found.W_end)
    m = T.theorem41(run)
    assert holds(m) and 0.0 < m.ratio < 1.0 and holds(T.clean_epoch_end(run))


def test_theorem41_budget_below_m_is_inconclusive():
    ds = D.teacher(4, 2, 0.05, seed=0)
    sc = SC.model_scenario(ds, SC.ball_init(1, 2, 0.1, 0), "sgd", eta=1.0, alpha=0.2, eps=0.01, epochs=2)
    m = T.theorem41(execute(sc, None, papers=("002",)))
    assert m.error == math.inf and "inconclusive" in m.note


# --- P6 / P13, P16, Eq. (17) ------------------------------------------------------------------------------------

def test_loss_floors():
    floor, _ = T.loss_floor(D.affine_only().X, D.affine_only().y)
    a = np.linspace(-3.0, 3.0, 60001)
    assert floor == pytest.approx(float(np.min(N.point_loss(-a) + N.point_loss(2.0 * a))) / 2.0, abs=1e-8)
    X = np.array([[0.3, 0.4], [0.3, 0.4], [0.0, 1.0]])
    floor, why = T.loss_floor(X, np.array([1.0, -1.0, 1.0]))
    assert floor == 2.0 * math.log(2.0) / 3.0 and "1 conflicting" in why


def test_no_teacher_is_flagged_and_bounded():
    sc = SC.model_scenario(D.affine_only(), SC.ball_init(1, 1, 0.5, 0), "sgd", eta=1.0)
    run = execute(sc, SC.epochs_horizon(20), backend="gd", spacing="steps", papers=("002",))
    assert not run.audit.max_margin.linearly_separable and holds(T.no_teacher(run))


def test_epoch_permutations():
    assert violated(T.epoch_permutations(T.SampledOrder(np.array([0, 0, 1, 0]), 2, "with replacement")))
    assert holds(T.epoch_permutations(T.SampledOrder(np.array([1, 0, 0, 1, 0]), 2, "without replacement")))


def test_eq17_threshold_is_tight():
    """At l(z) = eps' exactly c(z) = 1 - e^-eps' (so c >= eps' fails there)."""
    draw = B.MistakeDraw(-math.log(math.expm1(0.5)) - 1e-12, 0.5, 1e-12, "paper")
    m = B.mistake_weight(draw)
    assert holds(m) and m.value < 1e-9
    assert violated(B.mistake_weight(B.MistakeDraw(draw.z, 0.5, 1e-12, "linear")))


def test_obtuse_pair():
    ds = T.obtuse_pair(160.0)
    assert isinstance(ds, Dataset) and np.allclose(np.linalg.norm(ds.X, axis=1), 1.0)
    assert ds.X[0] @ ds.X[1] == pytest.approx(math.cos(math.radians(160.0)))


def test_all_mistake_epochs_fails_with_an_inflated_progress_constant(monkeypatch):
    """Teeth of LT-P41g: Eq. (20) with c_eps taken 10^4 x too large (each mistake epoch credited 10^4 x the progress
    the proof allows) is violated on the small run on which the real bound holds. The bound is loose there: with the
    real c_eps, a m_T - b stays below 0, and 1000x still leaves it at 0.62 of sqrt(b^2 + D T)."""
    run = small_run()
    assert holds(B.all_mistake_epochs(run))
    real = Q.sgd_bound

    def inflated(*args, **kw):
        bound = real(*args, **kw)
        return Q.SgdBound(bound.eps, bound.eps_prime, 1e4 * bound.c_eps, bound.T_max, bound.M)

    monkeypatch.setattr(Q, "sgd_bound", inflated)
    assert violated(B.all_mistake_epochs(run))
