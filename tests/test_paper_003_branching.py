"""Seed 003, Assumption 4.6's numerical proxy (properties/lyu2021_margin/branching.py): the fixed-step integrator
against the engine's GD, the two kink rules at a repelling kink, the two-group starts, the check on a non-branching
start (holds) and on the planted branching start (a negative margin beyond its error), and the margin units and
violation sites of the seed-003 checks (issue 20). Catalogue verdicts are not re-run here."""

from __future__ import annotations

import math

import numpy as np
import pytest

from verify.claims.model import as_margin
from verify.claims.registry import catalogue
from verify.claims.run import execute
from verify.model.init import Initialization
from verify.scenarios import Scenario
from verify.simulate import simulate

from properties.lyu2021_margin import branching as B
from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import quantities as Q
from properties.lyu2021_margin import section6 as S6
from properties.lyu2021_margin._shared import ALPHA, LOSS
from properties.lyu2021_margin.network import phi
from properties.lyu2021_margin.scenarios import draw_scenario


def mu_hat(ds):
    mu = Q.mean_signed(ds.X, ds.y)
    return mu / np.linalg.norm(mu)


def numpy_fixed_step(X, y, W, a, h, steps, kink, alpha=ALPHA):
    """The numpy oracle of :func:`branching.fixed_step` (the paper's phi from network.py, matrix products)."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    W, a = np.array(W, float), np.array(a, float)
    xn, yX = np.linalg.norm(X, axis=1), y[:, None] * X
    Ws, As, k = [], [], 0
    for target in np.asarray(steps, int).tolist():
        while k < target:
            P = X @ W.T
            tol = B.KINK_TOL * np.outer(xn, np.linalg.norm(W, axis=1))
            S = np.where(P > tol, 1.0, np.where(P < -tol, alpha, kink))
            f = phi(P, alpha) @ a
            g = 0.5 * (1.0 - np.tanh(0.5 * y * f))  # -l'(q) = 1 / (1 + e^q), q = y f
            W, a = W + h * (a[:, None] * ((g[:, None] * S).T @ yX)), a + h * ((g * y) @ phi(P, alpha))
            k += 1
        Ws.append(W.copy())
        As.append(a.copy())
    return np.array(Ws), np.array(As)


@pytest.mark.parametrize("kink", [ALPHA, 1.0])
@pytest.mark.parametrize("start", ["two groups", "repelling kink"])
def test_compiled_fixed_step_is_the_numpy_euler(kink, start):
    """The compiled Euler against its numpy oracle over 2000 steps, at both kink rules, from a two-group start and
    from S-14's start on a kink both sides repel (where the kink rule decides the first step): equal to rounding."""
    if start == "two groups":
        ds = D.d_sym()
        W, a, _, _ = B.two_group_start(ds, 3, 0.1, 0.1, seed=2)
    else:
        sc = B.repelling_kink_scenario(0.4, 0.1)
        ds, W, a = sc.dataset, sc.init.W0, sc.init.v0
    steps = np.array([1, 10, 2000])
    W_in, a_in = W.copy(), a.copy()
    Wc, ac = B.fixed_step(ds.X, ds.y, W, a, 1e-3, steps, kink)
    assert np.array_equal(W, W_in) and np.array_equal(a, a_in)  # the start is not modified
    Wn, an = numpy_fixed_step(ds.X, ds.y, W, a, 1e-3, steps, kink)
    assert Wc.shape == Wn.shape and ac.shape == an.shape
    scale = max(np.abs(Wn).max(), np.abs(an).max())
    assert np.max(np.abs(Wc - Wn)) <= 1e-12 * scale and np.max(np.abs(ac - an)) <= 1e-12 * scale


def test_fixed_step_with_phi_prime_alpha_is_the_engines_gd():
    """Away from exact kinks the paper's Euler with phi'(0) = alpha (or 1) is the engine's GD to rounding."""
    ds = D.d_sym()
    W, a, _, _ = B.two_group_start(ds, 3, 0.1, 0.1, seed=2)
    h, steps = 1e-3, np.array([100, 400, 1000])
    gd = simulate(ds, W, a, float(steps[-1] * h), loss=LOSS, alpha=ALPHA, times=steps * h, backend="gd", lr=h)
    for kink in (ALPHA, 1.0):
        Wf, af = B.fixed_step(ds.X, ds.y, W, a, h, steps, kink)
        assert np.max(np.abs(Wf - gd.W)) < 1e-12 and np.max(np.abs(af - gd.v)) < 1e-12


def test_the_kink_rules_leave_the_repelling_kink_to_opposite_sides():
    """S-14's start: <w_0, x_0> = 0 with normal rate a g (phi'(0) - 3/4): one Euler step goes below the kink with
    phi'(0) = alpha = 1/2, above it with phi'(0) = 1; the engine's event flow takes the alpha side and logs the kink
    as non-unique."""
    sc = B.repelling_kink_scenario(0.0, 0.1)
    ds, W, a = sc.dataset, sc.init.W0, sc.init.v0
    assert ds.X[0] @ W[0] == 0.0
    below = B.fixed_step(ds.X, ds.y, W, a, 1e-3, np.array([1]), ALPHA)[0][-1]
    above = B.fixed_step(ds.X, ds.y, W, a, 1e-3, np.array([1]), 1.0)[0][-1]
    assert ds.X[0] @ below[0] < 0.0 < ds.X[0] @ above[0]
    run = execute(sc, 1.0, rtol=B.RTOL, samples=8, papers=("003",))
    assert run.trajectory.stats["nonunique"] >= 1
    assert ds.X[0] @ run.W[-1][0] < 0.0


@pytest.mark.parametrize("on_kink", [False, True])
def test_two_group_starts_are_in_assumption_4_6s_set(on_kink):
    ds = D.d_sym()
    m, r = 4, 0.01
    W, a, eps, text = B.two_group_start(ds, m, r, 0.3, seed=5, on_kink=on_kink)
    norms = np.linalg.norm(W, axis=1)
    s = np.sign(a)
    assert np.all(np.abs(np.abs(a) - norms) <= 1e-15 * norms) and np.all((norms > 0) & (norms < r))
    assert 0 < np.sum(s > 0) < m
    mh = mu_hat(ds)
    for sign in (1.0, -1.0):
        U = W[s == sign] / norms[s == sign, None]
        assert np.allclose(U, U[0], atol=1e-15)  # one common direction per group
        assert np.linalg.norm(U[0] - sign * mh) <= eps * (1 + 1e-12)
    if on_kink:  # D-SYM: x_5's kink is 0.0264 from mu^ (A4.5's margin, sheet 3.3)
        assert "kink of x_5" in text and eps == pytest.approx(0.0264, abs=1e-4)
        w_plus = W[s > 0][0]
        assert abs(ds.X[5] @ w_plus) <= B.KINK_TOL * np.linalg.norm(ds.X[5]) * np.linalg.norm(w_plus)


def check(sc, horizon):
    run = execute(sc, horizon, rtol=B.RTOL, samples=B.SAMPLES, papers=("003",))
    return run, as_margin(B.flows_agree(run), "test")


@pytest.mark.parametrize("on_kink", [False, True])
def test_non_branching_starts_agree_within_the_euler_estimate(on_kink):
    """D-SYM two-group starts (one with w+ on x_5's kink): the three flows agree; the event flow and GD differ by
    Euler's error, twice the h / (h/2) gap (Richardson), so the margin uses about a quarter of its error."""
    ds = D.d_sym()
    W, a, eps, text = B.two_group_start(ds, 3, 0.1, 0.3, seed=1, on_kink=on_kink)
    sc = Scenario(ds, Initialization(W, a, 0.0, "given"), LOSS, ALPHA, {"data": ds.name, "r": 0.1, "eps": eps,
                                                                         "start": text})
    run, margin = check(sc, B.a46_horizon)
    assert B.symmetric_a45(run) is True
    assert -margin.error <= margin.value < 0.0
    assert -margin.value < 0.5 * margin.error
    assert margin.site is not None and set(margin.site) == {"t", "j"}
    if on_kink:
        assert "kink of x_5" in margin.note


@pytest.mark.parametrize("angle,r", [(0.0, 0.01), (1.3, 0.1)])
def test_the_repelling_kink_separates_beyond_tolerance(angle, r):
    """Teeth of LY-A46-proxy: at S-14's start the flows branch (separation ~0.23) far beyond the Euler estimate."""
    run, margin = check(B.repelling_kink_scenario(angle, r), B.kink_horizon)
    assert margin.value < -10.0 * margin.error
    assert -margin.value > 0.1
    assert "A-C" in margin.note or "B-C" in margin.note


def test_seed_003_checks_say_what_their_margin_measures():
    claims = {c.id: c for c in catalogue(["003"])}
    missing = [cid for cid, c in claims.items() if "symbolic" not in c.tags and not c.margin_unit]
    assert missing == []
    assert claims["LY-A46-proxy"].expected.name == "HOLDS" and claims["S14-A46-repelling-kink"].expected.name == "REFUTED"
    assert claims["LY-A46-proxy"].source.startswith("003 Assumption 4.6")
    assert all(len(c.margin_unit) <= 120 for c in claims.values() if c.margin_unit)


def test_a_trajectory_check_locates_its_margin_where_its_note_says():
    """balance_drift's note names the neuron and the time: its site carries the same (issue 20)."""
    ds = D.hinted(5.0, 1.0, 0.05)
    theta = Q.d_init(2, ds.d, 3)
    run = execute(draw_scenario(ds, theta, 1e-2), 1e2, rtol=1e-10, samples=12, spacing="log", papers=("003",))
    margin = S6.balance_drift(run)
    assert margin.site is not None
    assert f"neuron {margin.site['j']}, t = {margin.site['t']:.4g}" in margin.note
    assert math.isfinite(margin.site["t"])
