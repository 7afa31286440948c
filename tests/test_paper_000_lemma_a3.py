"""Seed 000's Lemma A.3, PC11 and PC10 claims (properties/phuong_lampert2021/lemma_a3.py): each check
holding on a good run and failing on a planted one (an engine mutant, a
deliberately altered run, the sticky-boundary integrator of eq. (46) with P_w, or a planted scenario)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from verify.claims.model import Claim, held, violated
from verify.claims.run import Run, execute
from verify.evidence.mutants import MUTANTS
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import lemma_a3 as A
from properties.phuong_lampert2021 import scenarios as SC
from properties.phuong_lampert2021.lemma_a4 import pc4_scenario

CLAIMS = [c for c in vars(A).values() if isinstance(c, Claim)]


def with_states(run: Run, **changes) -> Run:
    """The run with its trajectory's fields replaced (W, v, events): a deliberately wrong run."""
    return dataclasses.replace(run, trajectory=dataclasses.replace(run.trajectory, **changes))


def _u(deg: float) -> list[float]:
    return [math.cos(math.radians(deg)), math.sin(math.radians(deg))]


@pytest.fixture(scope="module")
def fixture_run() -> Run:
    return execute(SC.fixture_scenario(), 10.0, samples=24)


@pytest.fixture(scope="module")
def sliding_run() -> Run:
    sc = SC.pl_scenario(D.pc2(), [_u(40), _u(160), _u(200)], [1.0, -1.0, 1.0], 1e-3)
    return execute(sc, 4.0, samples=48)


@pytest.fixture(scope="module")
def pc11_run() -> Run:
    return execute(A.pc11_scenario((1.0, 0.2), (0.2, 1.0), (1.0, -0.2), 1e-2), 2.0, samples=32)


def pointwise(sc) -> Run:
    """The pointwise run a GD claim's check receives (no trajectory: the check runs GD itself)."""
    return execute(sc, None)


# --- verdicts ----------------------------------------------------------------------------------------------------

def test_catalogue_conventions():
    ids = [c.id for c in CLAIMS]
    assert len(ids) == len(set(ids)) and len(ids) == 9
    for c in CLAIMS:
        assert c.source.startswith("000 ") and c.node and c.assumptions
        if c.expected == Verdict.REFUTED:
            assert ("planted" in c.tags and c.statement.startswith("PLANTED")) or \
                   ("erratum" in c.tags and c.statement.startswith("AS WRITTEN"))
        if c.backend == "gd":
            assert c.horizon is None  # the check runs GD itself with the scenario's lr


# --- PL-LA3 (a): the field is -grad l away from kinks --------------------------------------------------------------

def test_field_matches_finite_differences_on_real_runs(fixture_run, sliding_run):
    for run in (fixture_run, sliding_run):
        margin = A.field_matches_gradient(run)
        assert held(margin) and margin.error < 1e-8, margin


@pytest.mark.parametrize("mutant", ["v-sign-flipped", "loss-logistic-derivative"])
def test_field_check_fails_on_a_wrong_field(fixture_run, mutant):
    with MUTANTS[mutant].active():
        margin = A.field_matches_gradient(fixture_run)
    assert violated(margin) and margin.value < -1e-3, margin


def test_field_check_is_vacuous_off_its_loss():
    run = execute(SC.fixture_scenario(loss="exp"), 1.0, samples=4)
    assert A.field_matches_gradient(run).vacuous


# --- PL-LA3 (b): sliding ------------------------------------------------------------------------------------------

def test_sliding_check_holds_on_pc2(sliding_run):
    assert any(e.kind == "sliding" for e in sliding_run.events)
    assert held(A.sliding_projection(sliding_run))


def test_sliding_check_fails_when_the_slide_drifts_off_the_surface(sliding_run):
    e = next(e for e in sliding_run.events if e.kind == "sliding")
    x = sliding_run.X[e.i] / np.linalg.norm(sliding_run.X[e.i])
    W = sliding_run.W.copy()
    late = sliding_run.times > e.t
    size = np.linalg.norm(W[late, e.j], axis=1)
    W[late, e.j] += (1e-4 * size * (sliding_run.times[late] - e.t))[:, None] * x[None]
    margin = A.sliding_projection(with_states(sliding_run, W=W))
    assert violated(margin), margin


def test_sliding_check_is_vacuous_without_sliding(fixture_run):
    assert A.sliding_projection(fixture_run).vacuous


# --- PC11: the true GF leaves the boundary; eq. (46) with P_w does not ------------------------------------------

def sticky_integrator(run: Run) -> tuple[np.ndarray, np.ndarray]:
    """PLANTED simulator: eq. (46) with P_w (projector onto span{x_i : w^T x_i = 0}^perp) as the ODE right-hand side,
    da/dt of eq. (45), one neuron, logistic loss; states at the run's sample times."""
    X, y = run.X, run.y

    def rhs(_t: float, z: np.ndarray) -> np.ndarray:
        w, a = z[:-1], z[-1]
        P = X @ w
        on = np.abs(P) <= 1e-12 * np.linalg.norm(w) * np.linalg.norm(X, axis=1)
        c = 1.0 / (1.0 + np.exp(y * a * np.maximum(P, 0.0)))
        u = (c * y * (P > 0) * ~on) @ X
        if on.any():
            Q, _ = np.linalg.qr(X[on].T)
            u = u - Q @ (Q.T @ u)
        return np.r_[a * u, np.sum(c * y * np.maximum(P, 0.0))]

    z0 = np.r_[run.W0[0], run.v0[0]]
    sol = solve_ivp(rhs, (0.0, float(run.times[-1])), z0, t_eval=run.times, rtol=1e-12, atol=1e-16)
    return sol.y[:-1].T[:, None, :], sol.y[-1][:, None]


def test_engine_leaves_the_boundary(pc11_run):
    assert held(A.leaves_boundary(pc11_run))
    assert pc11_run.W[-1, 0] @ pc11_run.X[1] > 0.0


def test_sticky_boundary_simulator_fails_the_pc11_check(pc11_run):
    W, v = sticky_integrator(pc11_run)
    assert np.max(np.abs(W[:, 0] @ pc11_run.X[1])) < 1e-14  # stuck on w^T x2 = 0
    margin = A.leaves_boundary(with_states(pc11_run, W=W, v=v))
    assert violated(margin) and margin.value < -0.01, margin


# --- PC10: gradient descent -----------------------------------------------------------------------------------------

def test_large_step_flips_a_sign_and_a_small_step_does_not():
    big = pointwise(A._flip_scenario(D.fixture(), 2.0, 1e-3))
    assert big.scenario.params["eta_BS"] >= 3.0 and violated(A.gd_signs_kept(big))
    small = pointwise(A.with_step(SC.fixture_scenario(), 0.25))
    assert held(A.gd_signs_kept(small))


def test_gd_x1_holds_per_step_on_os_data_and_fails_off_it():
    assert held(A.gd_monotone(pointwise(A.with_step(SC.fixture_scenario(), 0.25))))
    pc2 = SC.pl_scenario(D.pc2(), [_u(160), _u(30), _u(150)], [1.0, 1.0, -1.0], 1e-2)
    assert violated(A.gd_monotone(pointwise(A.with_step(pc2, 0.25))))
    assert A.gd_monotone(pointwise(A._flip_scenario(D.fixture(), 2.0, 1e-3))).vacuous  # the pre-step sign changed


def test_gd_balance_bound_reports_its_slack_and_fails_on_a_wrong_gd_step():
    run = pointwise(A.with_step(SC.fixture_scenario(), 0.25))
    margin = A.gd_balance_bound(run)
    assert held(margin) and 0.0 < margin.ratio < 1.0
    with MUTANTS["v-sign-flipped"].active():  # the v-update sign flipped: the drift becomes O(eta), not O(eta^2)
        bad = A.gd_balance_bound(run)
    assert violated(bad) and bad.ratio > 1.0


def test_gd_drift_is_one_signed_only_when_accumulated():
    run = pointwise(A.with_step(SC.fixture_scenario(), 0.5, t_end=10.0))
    assert held(A.gd_balance_one_signed(run))
    assert violated(A.gd_balance_one_signed(run, per_step=True))  # the sheet's per-step reading is false
    unbalanced = pointwise(A.with_step(pc4_scenario(D.fixture(), 4, 1e-3), 0.25))  # |a(0)| < ||w(0)||
    assert violated(A.gd_balance_one_signed(unbalanced))


def test_field_check_counts_the_rounding_of_a_preactivation_on_a_kink():
    """The thorough profile's counterexample to PL-LA3-field: on PC2 (p = 5, lambda = 0.01, seed 223) neuron 1 rests
    on the kink of x_3 (w_1^T x_3 ~ 1e-19, rounding), so its a_1' is rounding; the mismatch with the finite
    difference (~2e-19 absolute) was beyond the old error (2e-27 relative) and a confirmed violation."""
    from verify.search import evaluate

    ev = evaluate(A.LA3_FIELD, SC.gaussian_init(D.pc2(), 5, 0.01, 223, "random"))
    assert ev.status == "ok" and "neuron 1" in ev.margin.note
    assert -ev.margin.error <= ev.margin.value <= 0.0  # a mismatch within the rounding, or none (rounding's choice)
    assert ev.margin.error < 1e-9  # still relative rounding: a wrong field's mismatch is O(1)
