"""Seed 000, sheet 5.6 PC7 (properties/phuong_lampert2021/polynomial_loss.py): the polynomial-tailed loss
l(m) = sqrt(1 + m^2) - m keeps the finite-time lemmas (X1, L3, B.1, A.4: the reused checks hold on a poly run and
fail on a deliberately wrong one) and moves Theorem 1's limit from w^+- to u*+- = argmin sum 1/<u, x_i>: the
solver's certified error, the refutation's soundness (a run converging to w^ never corroborates it), and the sheet's
plateau 0.99895 / 0.9843 (section 7) as regression anchors."""

from __future__ import annotations

import dataclasses
import math
from functools import lru_cache
from typing import Any

import numpy as np
import pytest
from scipy.optimize import minimize

from verify.claims.model import Claim, held, violated
from verify.claims.run import Run, execute
from verify.data.dataset import Dataset
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import CLAIMS as CATALOGUE
from properties.phuong_lampert2021 import cone, lemma_a4
from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import measures as M
from properties.phuong_lampert2021 import polynomial_loss as P
from properties.phuong_lampert2021 import scenarios as SC
from properties.phuong_lampert2021 import theorem1 as T
from properties.phuong_lampert2021.blueprint import NODES

CLAIMS = [c for c in vars(P).values() if isinstance(c, Claim)]
COS_PLUS, COS_MINUS = 0.998951, 0.984310  # cos(u*+-, w^+-) on the fixture (the sheet's plateau .99895, .9843)


def with_states(run: Run, **changes: Any) -> Run:
    """The run with its trajectory's fields replaced (W, v): a deliberately wrong run."""
    return dataclasses.replace(run, trajectory=dataclasses.replace(run.trajectory, **changes))


def reversed_late(run: Run) -> Run:
    """The states of t >= 1e2 in reverse order: the directions seem to move away from their limit."""
    k = np.flatnonzero(run.times >= P.WINDOW[0] * (1 - 1e-9))
    W, v = run.W.copy(), run.v.copy()
    W[k], v[k] = run.W[k[::-1]], run.v[k[::-1]]
    return with_states(run, W=W, v=v)


@lru_cache(maxsize=None)
def limit_run(loss: str = P.POLY) -> Run:
    return execute(SC.fixture_scenario(loss=loss), P.HORIZON, rtol=P.RTOL, samples=P.SAMPLES, spacing="log",
                   papers=("000",))


@lru_cache(maxsize=None)
def finite_run() -> Run:
    return execute(SC.fixture_scenario(loss=P.POLY), 20.0, rtol=1e-11, samples=200, form="cartesian")


# --- verdicts and conventions -----------------------------------------------------------------------------------

def test_claims_are_catalogued_with_sources_nodes_and_the_poly_loss():
    nodes = {n.key for n in NODES}
    ids = [c.id for c in CATALOGUE]
    for c in CLAIMS:
        assert ids.count(c.id) == 1 and c.source.startswith("000 ") and "PC7" in c.source
        assert c.node in nodes and set(c.uses) <= nodes and c.assumptions
        assert ("planted" in c.tags) == c.statement.startswith("PLANTED:") == (c.expected is Verdict.REFUTED)
    assert P.PC7_T1.source == "000 Theorem 1 under the 'more general loss' clause (PL-T1, PC7)"
    assert any("drops" in a for a in P.PC7_T1.assumptions)
    assert all(sc.loss == "poly" for sc in P.LIMIT_CASES)


# --- u* and its certified error ---------------------------------------------------------------------------------

def sphere_minimum(Pts: np.ndarray) -> np.ndarray:
    """An independent solve: SLSQP on min sum 1/<v, p_i> over ||v|| <= 1 (the convex form of the sheet's problem)."""
    v0 = Pts.mean(axis=0) / np.linalg.norm(Pts.mean(axis=0))
    res = minimize(lambda v: np.sum(1.0 / (Pts @ v)), v0, method="SLSQP",
                   constraints=[{"type": "ineq", "fun": lambda v: 1.0 - v @ v}], options={"ftol": 1e-15, "maxiter": 500})
    return res.x / np.linalg.norm(res.x)


def test_tail_direction_on_the_fixture_matches_an_independent_solve_and_the_sheet():
    ds = D.fixture()
    au = limit_run().audit
    for label, w, cos in ((1, au.w_plus, COS_PLUS), (-1, au.w_minus, COS_MINUS)):
        Pts = ds.X[ds.y == label]
        u, err = P.tail_direction(Pts)
        assert 0.0 < err < 1e-12 and abs(np.linalg.norm(u) - 1.0) < 1e-15
        assert np.linalg.norm(u - sphere_minimum(Pts)) < 1e-6
        grad = -Pts.T @ (1.0 / (Pts @ u) ** 2)  # critical point on the sphere: grad Phi(u) = -Phi(u) u
        assert np.linalg.norm(grad + np.sum(1.0 / (Pts @ u)) * u) < 1e-12 * np.linalg.norm(grad)
        assert abs(float(u @ w) / np.linalg.norm(w) - cos) < 5e-7


def test_tail_direction_known_answers_and_error_bound():
    u, err = P.tail_direction(np.eye(3))  # Phi = sum 1/u_k: by symmetry u* = (1, 1, 1)/sqrt 3
    assert np.allclose(u, np.ones(3) / math.sqrt(3.0), atol=err + 1e-15)
    Pts = np.array([[1.0, 0.0], [0.6, 0.8]])  # two points: u* bisects them (symmetric problem)
    u, err = P.tail_direction(Pts)
    assert np.allclose(u, np.array([0.8, 0.4]) / math.sqrt(0.8), atol=err + 1e-15)


# --- Theorem 1 under PC7: the limit is u*, and the refutation is sound -------------------------------------------

def test_poly_run_goes_to_u_star_and_refutes_the_max_margin_limit():
    run = limit_run()
    assert held(P.direction_to_tail_limit(run))
    m = P.max_margin_limit_refuted(run)
    assert violated(m) and math.isclose(m.value, COS_MINUS - 1.0, abs_tol=5e-7) and m.error < 1e-12
    assert "cos(u*, w^) = 0.998951" in m.note and "cos(u*, w^) = 0.984310" in m.note


def test_logistic_run_never_corroborates_the_refutation():
    """CE (and PC8's exp loss) converge towards w^: the u* claim fails and the refutation is inconclusive."""
    for loss in ("logistic", "exp"):
        run = limit_run(loss)
        assert violated(P.direction_to_tail_limit(run))
        m = P.max_margin_limit_refuted(run)
        assert math.isinf(m.error) and "does not corroborate" in m.note


def test_limit_checks_stop_passing_when_the_window_runs_backwards():
    """A rise of 1 - cos(w_j, u*) is inconclusive (a limit is not refuted in finite time): neither check passes."""
    bad = reversed_late(limit_run())
    m = P.direction_to_tail_limit(bad)
    assert m.value < 0 and math.isinf(m.error)
    assert math.isinf(P.max_margin_limit_refuted(bad).error)


def test_refutation_needs_u_star_away_from_w_hat():
    """With w^ replaced by u* (a wrong audit: the prediction Theorem 1 would make if u* were the max-margin
    direction) the same run is no counterexample."""
    run = limit_run()
    ds = D.fixture()
    u_plus, u_minus = (P.tail_direction(ds.X[ds.y == s])[0] for s in (1, -1))

    class Audit:
        def __getattr__(self, name: str) -> Any:
            return {"w_plus": u_plus, "w_minus": u_minus}.get(name, getattr(run.audit, name))

    assert held(P.max_margin_limit_refuted(dataclasses.replace(run, audit=Audit())))


def symmetric_data() -> Dataset:
    """OS data symmetric under coordinate permutations (x_k = e_k + 0.1 off the diagonal, negatives -(e_k + 0.2 ...)):
    by symmetry u*+- = w^+- (both along (1, 1, 1)), so Theorem 1's conclusion holds under the poly loss too."""
    off = np.ones((3, 3)) - np.eye(3)
    return Dataset(np.vstack([np.eye(3) + 0.1 * off, -(np.eye(3) + 0.2 * off)]), [1, 1, 1, -1, -1, -1], name="symmetric")


@pytest.mark.parametrize("seed", [0, 1])
def test_limit_checks_hold_where_u_star_is_the_max_margin_direction(seed):
    run = execute(T.gaussian_scenario(symmetric_data(), 4, 1e-3, seed, loss=P.POLY), P.HORIZON, rtol=P.RTOL,
                  samples=P.SAMPLES, spacing="log", papers=("000",))
    assert P.poly_phase_reached(run) is True
    assert held(P.direction_to_tail_limit(run))
    m = P.max_margin_limit_refuted(run)
    assert held(m) and abs(m.value) < 1e-12


def test_precondition_names_what_is_missing():
    short = execute(SC.fixture_scenario(loss=P.POLY), 1e3, rtol=P.RTOL, samples=61, spacing="log", papers=("000",))
    assert "horizon" in P.poly_phase_reached(short)
    assert P.poly_phase_reached(limit_run()) is True
    assert P.max_margin_limit_refuted(short).vacuous


def test_sheet_plateau_at_1e8_and_the_horizon_near_u_star():
    """Sheet section 7: with the PC7 loss the fixture's cosines with w^+- at t = 1e8 are .99895 .99895 .98430 .98430;
    by t = 1e12 (theorem1's run) they equal cos(u*, w^) to 1e-5."""
    run = execute(SC.fixture_scenario(loss=P.POLY), T.HORIZON, rtol=T.RTOL, samples=T.SAMPLES, spacing="log",
                  papers=("000",))
    smp = M.samples(run)
    at = {int(round(math.log10(smp.t[k]))): k for k in M.decade_indices(smp.t, 1e4)}
    cos = {e: M.cosines(smp.W[k], smp.s, run.audit.w_plus, run.audit.w_minus) for e, k in at.items()}
    assert np.allclose(cos[8], [.99895, .99895, .98430, .98430], atol=5e-6, rtol=0)
    assert np.allclose(cos[12], [COS_PLUS] * 2 + [COS_MINUS] * 2, atol=1e-5, rtol=0)
    assert np.all(np.diff(np.array([cos[e] for e in sorted(cos)]), axis=0) >= -1e-9)  # rising to the plateau


# --- the reused finite-time checks under the poly loss ------------------------------------------------------------

def test_finite_time_checks_hold_on_a_poly_run_and_fail_on_reversed_states():
    run = finite_run()
    checks = (cone.cone_property, cone.extremal_sector_kept, cone.positive_activations_kept, lemma_a4.balance_drift,
              lemma_a4.signs_kept)
    for check in checks:
        assert held(check(run)), check.__name__
    backwards = with_states(run, W=run.W[::-1].copy(), v=run.v[::-1].copy())
    for check in (cone.monotone_increments, cone.extremal_sector_kept, cone.positive_activations_kept):
        assert violated(check(backwards)), check.__name__


def test_balance_and_sign_checks_fail_on_a_perturbed_second_layer():
    run = finite_run()
    v = run.v.copy()
    v[100:, 2] *= 1.0 + 1e-6
    assert violated(lemma_a4.balance_drift(with_states(run, v=v)))
    v = run.v.copy()
    v[150:, 0] *= -1.0
    assert violated(lemma_a4.signs_kept(with_states(run, v=v)))


def test_growth_bound_holds_for_the_poly_loss_with_b_2():
    """sup|l'| = 2 for l(m) = sqrt(1 + m^2) - m (l'(m) = m / sqrt(1 + m^2) - 1): Lemma A.4's growth bound is checked
    under PC7 (PC7-LA4-growth) and reports its slack."""
    assert lemma_a4.SUP_LOSS_DERIVATIVE["poly"] == 2.0
    m = lemma_a4.growth_bound(finite_run())
    assert not m.vacuous and m.value >= -m.error and 0.0 < m.ratio <= 1.0
