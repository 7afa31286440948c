"""Seed 002, Section 6 on trajectories (properties/sarussi2021_linear_teachers/theorem61.py): the KKT residual of (P),
the NAR window, P15's one-flip start and its exact first step, the exact sign test of LT-C62, Simpson's rule, the
derived growth of ||w-bar - u-bar|| in an NAR, P12 / its control on one run each, and the sheet-7 reference run
(symmetric Gaussians, n = 100, k = 20, GD eta = 0.5, init 1e-4) read qualitatively (its data draw is not ours)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from verify.claims.model import violated
from verify.claims.run import execute
from verify.margins import max_margin
from verify.simulate import simulate
from verify.trajectory import Event

from properties.sarussi2021_linear_teachers import datasets as D
from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers import quantities as Q
from properties.sarussi2021_linear_teachers import flow_runs as FR
from properties.sarussi2021_linear_teachers import lyu_li as LL
from properties.sarussi2021_linear_teachers import theorem61 as T
from properties.sarussi2021_linear_teachers._shared import ALPHA, engine_lr
from properties.sarussi2021_linear_teachers.scenarios import model_scenario


def holds(margin) -> bool:
    return not margin.vacuous and margin.value >= -margin.error


def gf_run(ds, k, scale, seed, **params):
    sc = model_scenario(ds, FR.gaussian_init(k, ds.d, scale, seed), "gf", **params)
    return execute(sc, FR.HORIZON, samples=FR.SAMPLES, spacing="log")


def gd_run(ds, W0, eta, steps, **params):
    sc = model_scenario(ds, W0, "gd", eta=eta, steps=steps, **params)
    return execute(sc, FR.steps_horizon, backend="gd", spacing="steps")


# --- helpers ---------------------------------------------------------------------------------------------------------

def test_kkt_residual_vanishes_at_the_par_limit():
    """The predicted limit of Theorem 6.2 (QP (8), perfectly clustered, in PAR) is a KKT direction of (P)."""
    ds = D.symmetric_gaussians(4, seed=0)
    limit = Q.par_svm(ds.X, ds.y, ALPHA).limit(3)
    eps, delta = FR.kkt_residual(limit, ds.X, ds.y, ALPHA)
    assert eps < 1e-6 and abs(delta) < 1e-5
    rotated = limit @ np.array([[math.cos(0.3), -math.sin(0.3)], [math.sin(0.3), math.cos(0.3)]])
    assert FR.kkt_residual(rotated, ds.X, ds.y, ALPHA)[0] > 1e-3
    assert FR.kkt_residual(-limit, ds.X, ds.y, ALPHA) == (math.inf, math.inf)


def test_differences_are_zero_when_clustered():
    W = np.vstack([np.tile([1.0, 2.0], (3, 1)), np.tile([-1.0, 0.5], (3, 1))])
    assert np.all(FR.differences(W) == 0.0)
    W[4] += [0.5, 0.0]
    assert np.array_equal(FR.differences(W)[4], [0.5, 0.0]) and FR.differences(W[None]).shape == (1, 6, 2)


def test_nar_window_starts_after_the_last_event():
    """Samples 0-1 disagree, 2-4 are in one PAR; an event in (t_2, t_3] moves t2 to sample 3; gamma = min / 2."""
    X, y = np.array([[1.0, 0.2], [-1.0, -0.1]]), np.array([1.0, -1.0])
    par = np.array([[1.0, 0.0], [1.0, 0.1], [-1.0, 0.0], [-1.0, -0.1]])
    split = par.copy()
    split[1] = [-1.0, 0.0]
    W = np.array([split, split, par, 2.0 * par, 3.0 * par])
    times = np.array([0.1, 0.2, 0.3, 0.4, 0.5])
    win = FR.nar_window(FR.Trace(times, W, X, y, ALPHA))
    assert win.start == 2 and win.t2 == pytest.approx(2 * 0.3) and np.array_equal(win.s_plus, y)
    assert win.gamma == pytest.approx(0.5 * min(N.agreement(Wi, X).gamma for Wi in W[2:]))
    assert FR.nar_window(FR.Trace(times, W, X, y, ALPHA, events=(Event(0.35, 0, 1, "activate", 1),))).start == 3
    assert FR.nar_window(FR.Trace(times, W[:2], X, y, ALPHA)) is None


def test_trace_uses_paper_time_and_sum_loss():
    ds = D.teacher(6, 2, 0.2, seed=1)
    W = FR.gaussian_init(2, 2, 0.1, 0)[None]
    tr = FR.Trace(np.array([0.5]), W, ds.X, ds.y, ALPHA)
    assert tr.t[0] == 3.0 and tr.nL[0] == pytest.approx(ds.n * N.mean_loss(W[0], ds.X, ds.y), rel=1e-14)


def test_one_flip_init_disagrees_on_exactly_one_point():
    """P15: the + neurons disagree on exactly one point, the - neurons agree everywhere."""
    for seed in range(5):
        ds = D.teacher(8, 2, 0.1, seed=seed)
        W = FR.one_flip_init(ds, 3, 1e-2, seed)
        Wp, _ = N.halves(W)
        reading = N.agreement(W, ds.X)
        assert reading.s_plus is None and reading.s_minus is not None and reading.d_max == 1
        assert int(np.sum(np.sign(ds.X @ Wp[0]) != np.sign(ds.X @ Wp[1]))) == 1


def test_p15_first_step_is_the_slope_difference():
    """One GD step from P15's start changes w_0 - w_1 by exactly lr c_j y_j (sigma'(<w_0, x_j>) - sigma'(<w_1, x_j>))
    x_j (the disagreeing point j); LT-X1's check holds with its gate and fails without it."""
    ds = D.teacher(8, 2, 0.1, seed=2)
    W0 = FR.one_flip_init(ds, 2, 1e-2, 0)
    run = gd_run(ds, W0, 0.5, 20)
    lr = engine_lr(0.5, ds.n)
    j = int(np.flatnonzero(np.sign(ds.X @ W0[0]) != np.sign(ds.X @ W0[1]))[0])
    c = N.point_weight(N.margins(W0, ds.X, ds.y))[j]
    s0, s1 = N.slope(ds.X[j] @ W0[0]), N.slope(ds.X[j] @ W0[1])
    predicted = lr * c * ds.y[j] * (s0 - s1) * ds.X[j]
    change = (run.W[1][0] - run.W[1][1]) - (W0[0] - W0[1])
    assert np.allclose(change, predicted, rtol=1e-10, atol=1e-12 * np.linalg.norm(W0))
    assert holds(T.differences_conserved(run))
    ungated = gd_run(ds, W0, 0.5, 20, mutation=FR.UNGATED)
    assert violated(T.differences_conserved(ungated))


def test_exact_output_sign():
    rng = np.random.default_rng(0)
    for _ in range(50):
        W, x = rng.standard_normal((4, 3)), rng.standard_normal(3)
        s_out, s_lin = T.exact_output_sign(W, x, ALPHA)
        assert s_out == int(np.sign(N.output(W, x[None])[0]))
        assert s_lin == int(np.sign((W[0] + W[1] - W[2] - W[3]) @ x))
    W = np.array([[1.0, -2.0], [1.0, -2.0]])
    assert T.exact_output_sign(W, np.array([0.5, 0.25]), ALPHA) == (0, 0)


def test_unit_directions():
    for d in (2, 3):
        U = Q.unit_directions(d, 64)
        assert U.shape == (64, d) and np.allclose(np.linalg.norm(U, axis=1), 1.0)


def test_simpson_is_exact_on_quadratics():
    f = lambda t: 3.0 * t * t - 2.0 * t + 1.0  # noqa: E731
    F = lambda t: t ** 3 - t * t + t  # noqa: E731
    t0, h1, h2 = 0.3, 0.2, 0.7
    assert LL._simpson(h1, h2, f(t0), f(t0 + h1), f(t0 + h1 + h2)) == pytest.approx(F(t0 + h1 + h2) - F(t0), rel=1e-13)


def test_wide_angle_data():
    for seed in range(5):
        ds = FR.wide_angle(seed)
        assert ds.n == 3 and np.max(np.linalg.norm(ds.X, axis=1)) <= 1.0 + 1e-15
        assert max_margin(ds).svm.w is not None


# --- runs ------------------------------------------------------------------------------------------------------------

def test_gf_run_in_an_nar():
    """A small-init GF run ends in an NAR: LT-X1, LT-T61, LT-C62, LT-A61, LT-IMP-A7 hold, and [DER]: y_j <w-bar - u-bar,
    x_j> > 0 on [max(t0, t2), T] (so ||w-bar - u-bar|| grows and rho falls)."""
    ds = D.symmetric_gaussians(4, seed=1)
    run = gf_run(ds, 3, 1e-4, 1)
    tr = FR.trace(run)
    start, _ = FR.window_start(tr)
    assert start is not None
    for check in (T.differences_conserved, T.theorem61_consistent, T.linear_boundary, LL.separable_after_t0,
                  LL.smoothed_margin_monotone, LL.teacher_correlation_grows, LL.norm_growth):
        assert holds(check(run)), check.__name__
    assert violated(T.nar_absent(run))
    for W in tr.W[start:]:
        c = N.clusters(W)
        assert np.all(ds.y * (ds.X @ (c.w_bar - c.u_bar)) > 0.0)


def test_p9_run_has_no_nar_and_breaks_the_ungated_statements():
    """One P9 draw: no NAR at T; Theorem 6.1's finite test is vacuous there, and with t2 := t0 it fails."""
    n_half, k, scale, seed = FR.P9_DRAWS[0]
    ds = D.asymmetric_gaussians(n_half, seed=seed)
    assert holds(T.nar_absent(gf_run(ds, k, scale, seed)))
    assert T.theorem61_consistent(gf_run(ds, k, scale, seed)).vacuous
    assert violated(T.theorem61_consistent(gf_run(ds, k, scale, seed, mutation=FR.NO_NAR)))


def test_p12_and_its_control():
    """P12: GD with eta = 50 on wide-angle data lowers gamma~ by ~1e-2 in one step; eta = 0.05 on teacher data keeps
    every step above -1e-8 (sheet 6)."""
    big = gd_run(FR.wide_angle(2), FR.gaussian_init(1, 2, 1e-3, 0), 50.0, 300)
    margin = LL.smoothed_margin_monotone(big)
    assert violated(margin) and margin.value < -1e-3
    ds = D.teacher(8, 2, 0.2, seed=3)
    small = gd_run(ds, FR.gaussian_init(3, 2, 1e-3, 0), 0.05, 2000)
    assert holds(LL.smoothed_margin_monotone(small))


def test_sheet7_reference_run():
    """Sheet 7 (t6_nar_par.py's setting on our draw of the data): PAR from step 1e3, r constant once the NAR is entered
    (the sheet: drift <= 1e-15; here 1e-12 relative), gamma~ rising between steps 1e2 and 1e3, n L_S < log 2 by 1e3."""
    ds = D.symmetric_gaussians(50, seed=0)
    k = 20
    lr = engine_lr(0.5, ds.n)
    steps = np.array([10, 100, 1000])
    traj = simulate(ds, FR.gaussian_init(k, 2, 1e-4, 0), N.second_layer(k), 1000 * lr, loss="logistic", alpha=ALPHA,
                    backend="gd", lr=lr, times=steps * lr, train_v=False)
    assert all(N.agreement(W, ds.X).par(ds.y) for W in traj.W)
    r = [N.clusters(W).r for W in traj.W]
    assert max(abs(ri - r[0]) for ri in r) <= 1e-12 * np.linalg.norm(traj.W[-1])
    assert N.mean_loss(traj.W[-1], ds.X, ds.y) * ds.n < math.log(2.0)
    assert N.smoothed_margin(traj.W[2], ds.X, ds.y) > N.smoothed_margin(traj.W[1], ds.X, ds.y) > 0.0


def test_x1_gate_reads_a_sliding_pair_as_sign_zero():
    """The thorough profile's counterexample to LT-X1 (GF on teacher data n = 7, d = 2, k = 2, W0 = 1e-4 G, seed 445):
    neuron 3 slides on the kink of x_2 from t = 2.3e-4; its float64 sign there is rounding, which read as agreement
    gated in intervals where its Filippov slope sets it apart (a drift of 0.6% of ||W||; FAILED as an engine
    inconsistency, the mp run's rounding reading 0). Read as sign 0 (``Trace.on_kink``), those intervals are not
    agreeing and the drift on the others is rounding."""
    from verify.search import evaluate

    ds = D.teacher(7, 2, 0.2, seed=1094)
    ev = evaluate(T.X1_GF, model_scenario(ds, FR.gaussian_init(2, ds.d, 1e-4, 445), "gf", init_scale=1e-4,
                                          init_seed=445))
    assert ev.status == "ok" and "95 agreeing intervals" in ev.margin.note and ev.margin.value > 0.0
