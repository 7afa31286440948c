"""Teeth for seed-003 checks that no planted claim or measured mutant breaks (properties/lyu2021_margin/teeth.py,
SHOWN_BY_TESTS): each check fails on a planted run and holds on the honest one."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from verify.claims.run import execute

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import late_phase as LP
from properties.lyu2021_margin.section6 import balance_drift
from tests.test_paper_003_late_phase import FakeRun


def test_lyu_li_invariants_fails_when_the_loss_rises() -> None:
    """C-T3.1 (LY-T31-invariants) on a real separating run (D-SYM, m = 1): holds; the same samples with a late
    stretch replayed backwards (theta(t_k) := theta(t_{k-5}): the loss rises, a^2 - ||w||^2 stays conserved so the
    integrator gate still passes) violate it beyond the error."""
    ds = D.d_sym()
    run = execute(LP.separating_scenario(ds, 1, seed=5), LP.HORIZON, rtol=LP.RTOL, samples=LP.SAMPLES, spacing="log",
                  papers=("003",))
    honest = LP.lyu_li_invariants(run)
    assert honest.value >= -honest.error and math.isfinite(honest.error)
    W, a = np.array(run.W, float), np.array(run.v, float)
    k = len(run.times) // 2
    W[k], a[k] = W[k - 5], a[k - 5]
    planted = LP.lyu_li_invariants(FakeRun(np.asarray(run.times, float), W, a, ds, run.trajectory,
                                           {"rtol": LP.RTOL}))
    assert planted.value < -planted.error, planted


def test_balance_drift_fails_on_a_drifting_second_layer() -> None:
    """C-S6-bal (LY-S6-bal-Dinit): a^2 - ||w||^2 held exactly passes; one sample with a_k 1% off fails beyond
    SAFETY (rtol + the error estimate)."""
    rng = np.random.default_rng(0)
    times = np.geomspace(1e-3, 1e2, 12)
    scale = np.geomspace(1.0, 5.0, times.size)
    W = scale[:, None, None] * rng.standard_normal((1, 3, 2))
    c = np.array([0.3, -0.2, 0.1])
    v = np.sqrt(np.sum(W**2, axis=2) + c) * np.array([1.0, -1.0, 1.0])
    traj = SimpleNamespace(error_estimate=1e-12, params={"rtol": 1e-10})
    honest = balance_drift(SimpleNamespace(W=W, v=v, times=times, trajectory=traj))
    assert honest.value >= -honest.error
    v_bad = v.copy()
    v_bad[7, 1] *= 1.01
    planted = balance_drift(SimpleNamespace(W=W, v=v_bad, times=times, trajectory=traj))
    assert planted.value < -planted.error and planted.site == {"t": float(times[7]), "j": 1}


def test_kkt_trend_stops_passing_where_the_flow_transits_a_kkt_direction() -> None:
    """C-T3.1 (LY-T31-KKT): a rise of eps_KKT is inconclusive (a limit), so on S-19's planted run (a lopsided b-bar:
    the flow passes near the suboptimal KKT direction and leaves it, eps_KKT 0.228 -> 0.255) its check cannot pass,
    while S19-T31-KKT-transit's literal reading of the same trend is violated; on a separating run (D-SYM, m = 1) it
    holds."""
    ds = D.d_sym()
    honest = LP.kkt_trend(execute(LP.separating_scenario(ds, 1, seed=5), LP.HORIZON, rtol=LP.RTOL, samples=LP.SAMPLES,
                                  spacing="log", papers=("003",)))
    assert honest.value >= -honest.error and math.isfinite(honest.error), honest
    scenario = LP.fixed_draws(((4, 2, 22, 2),))[0]
    run = execute(scenario, LP.HORIZON, rtol=LP.RTOL, samples=LP.SAMPLES, spacing="log", papers=("003",))
    limit, literal = LP.kkt_trend(run), LP.kkt_trend_literal(run)
    assert limit.value < 0 and math.isinf(limit.error) and "a rise" in limit.note
    assert literal.value == limit.value and literal.value < -literal.error and math.isfinite(literal.error)
