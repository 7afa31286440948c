"""Seed 003, Section 6 and the probabilities (properties/lyu2021_margin/section6.py, theorem62.py, probability.py):
the checks on hand-built states with known answers (the limit unit (1/2) phi(<w*, x>), a tilted pair, exact balanced
paths, a sign flip), the strategies' constructions, the preconditions of S-11 and the event, and the binomial decision.
Reference values from claim sheet 003 (C-T6.2: gamma_f_inf = 0.025 on hinted (5, 1, 0.05), (1/2) eps in general; sheet
4.3: LP 0.0676). Catalogue verdicts are not re-run here."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from verify.data.dataset import Dataset
from verify.margins import max_margin
from verify.strategies import GeometryCase
from verify.verdicts import Verdict

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import probability as P
from properties.lyu2021_margin import quantities as Q
from properties.lyu2021_margin import section6 as S6
from properties.lyu2021_margin import theorem62 as T62

TOL = 1e-9  # the no-bias SVM's KKT residual is ~1e-10 on these data (verify.margins); margins inherit it


def fake_run(ds, Ws, vs, times=None, v0=None, seed=0, est=1e-12):
    """A stand-in for verify.claims.run.Run: the states Ws (k, m, d), vs (k, m) at ``times``, the audit's w*."""
    Ws, vs = np.asarray(Ws, float), np.asarray(vs, float)
    traj = SimpleNamespace(error_estimate=est, params={"rtol": 1e-10})
    audit = SimpleNamespace(max_margin=max_margin(ds))
    return SimpleNamespace(dataset=ds, W=Ws, v=vs, times=np.arange(len(vs), dtype=float) if times is None else times,
                           trajectory=traj, audit=audit, init=SimpleNamespace(v0=vs[0] if v0 is None else v0),
                           scenario=SimpleNamespace(params={"init_seed": seed}))


def test_gamma_f_inf_is_half_eps_on_the_sheets_hinted_sets():
    assert T62.gamma_f_inf(S6.hinted_ds(S6.HINTED)) == pytest.approx(0.025, abs=TOL)
    assert T62.gamma_f_inf(S6.hinted_ds(S6.HINTED_B)) == pytest.approx(0.01, abs=TOL)


def test_hinted_properties_hold_on_d_s_and_fail_for_eps_above_gamma_lin():
    gamma = max_margin(D.d_s()).gamma_lin
    for eps, holds in ((0.05, True), (gamma, True), (2.0 * gamma, False)):
        case = GeometryCase(D.hinted(5.0, 1.0, eps), 0, {"H": 5.0, "K": 1.0, "eps": eps})
        m = S6.hinted_properties(case)
        assert (m.value >= -m.error) == holds, (eps, m)
    case = GeometryCase(D.hinted(5.0, 1.0, 0.05), 0, {"H": 5.0, "K": 1.0, "eps": 0.05})
    assert max_margin(case.dataset).svm.support == [13, 14]  # x2', x3' (D-S has 12 rows, x1' is row 12)


@settings(max_examples=15, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(S6.hinted_cases())
def test_hinted_cases_meet_definition_6_1s_hypotheses(case):
    p, ds = case.params, case.dataset
    assert p["eps"] <= p["gamma_S"] * (1 + 1e-12) and p["H"] >= p["eps"]
    n0 = ds.n - 3
    w = max_margin(Dataset(ds.X[:n0], ds.y[:n0])).svm.direction
    assert np.allclose(ds.X[n0], p["H"] * w) and np.allclose(ds.X[n0 + 1] + ds.X[n0 + 2], 2 * p["eps"] * w)
    assert abs((ds.X[n0 + 1] - ds.X[n0 + 2]) @ w) < 1e-12 * p["K"] and np.all(ds.y[n0:] == 1)


def balanced_path(s):
    """An exact balanced path: w_k(t) = r_k(t) u_k, a_k = s_k r_k(t), with rotating u_k."""
    t = np.linspace(0.0, 1.0, 5)
    U = np.stack([np.c_[np.cos(t + k), np.sin(t + k), 0 * t] for k in range(len(s))], axis=1)
    r = np.exp(np.outer(t, 1.0 + np.arange(len(s))))
    return U * r[..., None], r * np.asarray(s, float)


def test_signs_and_balance_on_exact_paths():
    ds = D.d_s()
    W, a = balanced_path([1.0, -1.0, 1.0])
    m = S6.signs_and_balance(fake_run(ds, W, a))
    assert m.value == pytest.approx(-0.0, abs=1e-15) and m.value >= -m.error
    assert S6.balance_drift(fake_run(ds, W, a)).value == pytest.approx(0.0, abs=1e-15)
    flip = a.copy()
    flip[:, 0] = np.linspace(0.3, -0.5, 5) * np.linalg.norm(W[:, 0], axis=1)  # a_0 crosses 0: unbalanced, sign lost
    m = S6.signs_and_balance(fake_run(ds, W, flip))
    assert m.value < -0.1 and m.value < -m.error
    drift = a.copy()
    drift[-1, 1] *= 1.01  # c = a^2 - ||w||^2 moves by (1.01^2 - 1) r^2, relative to a^2 = 1.01^2 r^2
    assert S6.balance_drift(fake_run(ds, W, drift)).value == pytest.approx(-(1.01**2 - 1.0) / 1.01**2, rel=1e-9)


def test_flip_scenario_is_unbalanced_with_a_bad_b_bar():
    sc = S6.flip_scenario("d_sym", 3, 4, 1e-2)
    W, a = sc.init.W0, sc.init.v0
    assert a[0] > 0.0 and np.linalg.norm(W[0]) > abs(a[0])
    mu = Q.mean_signed(D.d_sym().X, D.d_sym().y)
    b = Q.embedding_vector(Q.Draw(W, a, "D_init", 4), mu / np.linalg.norm(mu))
    assert b[0] < 0.0


def test_groups_spread_and_describe():
    W = np.array([[3.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1e-3]])
    a = np.array([3.0, -1.0, 1e-3])
    odds, U = T62.groups(W, a, np.sign(a))
    assert odds == pytest.approx(2.0 / (18.0 + 2e-6), rel=1e-12)
    assert U.shape == (1, 3)  # the third neuron carries < SHARE_MIN of ||theta||^2
    assert T62.spread(np.eye(3)[:2]) == 1.0 and T62.spread(np.eye(3)[:1]) == 0.0
    assert T62.groups(W, -np.abs(a), -np.ones(3))[0] == math.inf


def limit_state(ds, scale):
    """(1/2) phi(<w*, x>) at norm^2 = scale^2 as one neuron."""
    w = max_margin(ds).svm.direction
    return scale * w[None] / math.sqrt(2.0), np.array([scale / math.sqrt(2.0)])


def test_linear_boundary_accepts_the_limit_unit_and_rejects_a_tilted_pair():
    ds = S6.hinted_ds(S6.HINTED)
    W, a = limit_state(ds, 20.0)
    W2, a2 = np.vstack([W, 1e-3 * W]), np.r_[a, 1e-3 * a]  # two co-aligned positive neurons
    assert T62.linear_boundary(fake_run(ds, [W2], [a2])).value > 0.0
    w_star = max_margin(ds).svm.direction
    u = np.array(D.D_S_W_PERP) - (np.array(D.D_S_W_PERP) @ w_star) * w_star
    u /= np.linalg.norm(u)
    beta = 0.332  # the sheet's best tilted pair on (5, 1, 0.05): margin 0.0585
    Wt = 10.0 * np.vstack([math.cos(beta) * w_star + math.sin(beta) * u, math.cos(beta) * w_star - math.sin(beta) * u])
    m = T62.linear_boundary(fake_run(ds, [Wt], [np.array([10.0, 10.0])]))
    assert m.value < -m.error


def test_unit_limit_on_a_unit_rotating_onto_w_star():
    ds = S6.hinted_ds(S6.HINTED)
    w_star = max_margin(ds).svm.direction
    u = np.array(D.D_S_W_PERP) - (np.array(D.D_S_W_PERP) @ w_star) * w_star
    u /= np.linalg.norm(u)
    t = np.geomspace(1e-3, T62.UNIT_T, 28)
    angle = 0.2 / (1.0 + np.log1p(t))  # shrinking misalignment
    scale = np.sqrt(10.0 * np.log1p(t) + 1.0)
    W = (scale * np.cos(angle))[:, None] * w_star + (scale * np.sin(angle))[:, None] * u
    run = fake_run(ds, W[:, None, :] / math.sqrt(2.0), (scale / math.sqrt(2.0))[:, None], times=t)
    m = T62.unit_limit(run)
    assert m.value > 0.0
    neg = fake_run(ds, -W[:, None, :] / math.sqrt(2.0), (-scale / math.sqrt(2.0))[:, None], times=t)
    assert T62.unit_limit(neg).value < 0.0  # -(1/2) phi(-<w, x>): margin alpha eps / 2, not gamma_f_inf


def test_preconditions_and_event_horizon():
    def run_on(config, v0):
        ds = S6.hinted_ds(config)
        lp, up, lm, _ = Q.sphere_extremes(ds.X, ds.y, samples=4000)
        mm = max_margin(ds)
        audit = SimpleNamespace(max_margin=mm, lambda_plus=lp, lambda_minus=lm,
                                cos_argmax_G_w_star=float(up @ mm.svm.direction))
        return SimpleNamespace(audit=audit, init=SimpleNamespace(v0=np.asarray(v0, float)))

    assert T62.t62_hypotheses(run_on(S6.HINTED, [1.0, -1.0])) is True
    assert "outside the event" in T62.t62_hypotheses(run_on(S6.HINTED, [-1.0, -1.0]))
    assert "S-11" in T62.t62_regime(run_on(S6.H_SMALL, [1.0]))
    assert T62.inside_event(run_on(S6.H_SMALL, [1.0])) is True
    horizon = T62.event_horizon(7.0)
    assert horizon(SimpleNamespace(init=SimpleNamespace(v0=np.array([-1.0, 2.0]))), None) == 7.0
    assert horizon(SimpleNamespace(init=SimpleNamespace(v0=np.array([-1.0, -2.0]))), None) == 0.0


def test_binomial_runner_decides_exact_and_wrong_probabilities():
    half = lambda m, seed, c: seed % 2 == 0  # noqa: E731 -- frequency exactly 1/2
    ok = P.binomial_runner(half, lambda m: 0.5, ((2, 1.0),), draws=400)(None)
    assert ok.verdict == Verdict.HOLDS and ok.min_margin > 0.0 and ok.counterexample is None
    bad = P.binomial_runner(half, lambda m: 0.75, ((2, 1.0),), draws=400)(None)
    assert bad.verdict == Verdict.REFUTED
    assert bad.counterexample["confirmed_margin"] < -bad.counterexample["confirmed_margin_error"]


def test_event_indicators_match_their_definitions():
    for seed in range(20):
        assert P.some_positive(3, seed, 1.0) == bool(np.any(Q.balanced_draw(3, 3, seed).a > 0))
        b = Q.embedding_vector(Q.d_init(4, 3, seed), P.mu_hat_d_sym())
        assert P.good_b(4, seed, 1.0) == bool(np.any(b > 0) and np.any(b < 0))
    assert P.printed_bound(None).verdict == Verdict.UNKNOWN


def test_the_perpendicular_direction_survives_a_draw_along_w_star():
    """The third thorough audit's LY-D61 finding (seed 2): on random_symmetric(2, 2, seed=376) the strategy's draw
    repeats the data generator's own, so it lies along w*(S); its component off w* was 0 and w_perp NaN, which
    interrupted the search. The fallback is the least-aligned axis's component off w*."""
    full = D.random_symmetric(2, 2, seed=376)
    rng = np.random.default_rng(376)
    rng.random(full.n)  # the strategy's subset draw comes first
    w = max_margin(full).svm.direction
    v = rng.standard_normal(2)
    assert np.linalg.norm(v - (v @ w) * w) <= 1e-8 * np.linalg.norm(v)  # the draw is along w* (to the QP's accuracy)
    for draw in (v, np.array([1.0, 2.0])):
        u = S6.perpendicular_unit(draw, w)
        assert abs(float(np.linalg.norm(u)) - 1.0) <= 1e-12 and abs(float(u @ w)) <= 1e-12
    u3 = S6.perpendicular_unit(np.array([0.0, 0.0, 2.0]), np.array([0.0, 0.0, 1.0]))
    assert np.allclose(u3, [1.0, 0.0, 0.0])
