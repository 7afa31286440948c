"""Teeth of seed 000's catalogue (issue 13, item 4): for the claims whose check no planted catalogue claim shares, a
test that runs the claim's own check (looked up by claim id, so partial checks are the catalogue's) on a planted
input -- a scenario dropping one of the claim's hypotheses, or a deliberately wrong run or engine quantity -- and
asserts a violation beyond the error estimate, and that the same check holds on the honest case. Each test is
declared for its claims in properties/phuong_lampert2021/teeth.py (``SHOWN_BY_TESTS``), which the report shows as
the claims' ``teeth``; the other declarations there point at the teeth tests of tests/test_paper_000*.py."""

from __future__ import annotations

import dataclasses
import math
from functools import lru_cache
from typing import Any

import numpy as np

from verify.claims.model import held, violated
from verify.claims.run import Run, execute
from verify.strategies import GeometryCase
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import probability as PR
from properties.phuong_lampert2021 import scenarios as SC
from properties.phuong_lampert2021 import sectors as S
from properties.phuong_lampert2021 import theorem1 as T
from properties.phuong_lampert2021.paper import PAPER

CLAIM = {c.id: c for c in PAPER.claims}


def case(ds, seed: int = 0) -> GeometryCase:
    return GeometryCase(ds, seed, {})


def _u(deg: float) -> list[float]:
    return [math.cos(math.radians(deg)), math.sin(math.radians(deg))]


def with_states(run: Run, **changes: Any) -> Run:
    """The run with its trajectory's fields replaced (W, v, events): a deliberately wrong run."""
    return dataclasses.replace(run, trajectory=dataclasses.replace(run.trajectory, **changes))


def claim_run(cid: str, scenario) -> Run:
    """``scenario`` run as the claim's search runs it (horizon, rtol, samples, spacing)."""
    c = CLAIM[cid]
    return execute(scenario, c.horizon, rtol=c.rtol, samples=c.samples, spacing=c.spacing, papers=("000",))


# --- static checks --------------------------------------------------------------------------------------------------

def test_general_loss_lemma2_fails_without_os():
    """PL-L2-lgen (exact arcs, random weights c_i): holds on OS data, fails on PC1 (within-class obtuse pair: more than
    one strict local max), whatever the drawn weights."""
    check = CLAIM["PL-L2-lgen"].check
    for seed in range(3):
        assert held(check(case(D.orthant(3, 3, 2, seed=seed), seed)))
    for seed in range(5):
        m = check(case(D.pc1(), seed))
        assert violated(m) and "strict local maxima" in m.note, m


def test_first_order_condition_fails_at_a_wrong_extremum(monkeypatch):
    """PL-LA1-d2 (g(b) = G(b) b exactly at every strict extremum): holds on OS and non-OS data (PC1, PC2, kinks
    included); with the arc enumerator reporting each extremum rotated by atan(1/16) (a wrong engine quantity) the
    residual is non-zero."""
    check = CLAIM["PL-LA1-d2"].check
    for ds in (D.pc1(), D.pc2(), D.orthant(3, 2, 2, seed=1)):
        assert held(check(case(ds)))
    real = S.extremal_2d

    def rotated(X, y, c=None):
        return [dataclasses.replace(e, direction=(e.direction[0] - e.direction[1] / 16, e.direction[1] + e.direction[0] / 16))
                for e in real(X, y, c)]

    monkeypatch.setattr(S, "extremal_2d", rotated)
    for ds in (D.pc2(), D.orthant(3, 2, 2, seed=1)):
        m = check(case(ds))
        assert violated(m) and "!= 0" in m.note, m


# --- finite-time trajectory checks ----------------------------------------------------------------------------------

def test_cone_property_fails_off_os_under_each_loss_and_slope():
    """PL-X1 (logistic), PC8-X1 (exp loss), PC15-X1 (leaky ReLU, alpha = 0.3), PC7-X1 (poly loss): the cone check holds
    on the OS fixture and fails on PC2 (cross-class acute pair, H-OS dropped) with the claim's own loss and slope: a
    positive neuron near 162 deg, active on the negatives, moves away from u(80)."""
    for cid, loss, alpha in (("PL-X1", "logistic", 0.0), ("PC8-X1", "exp", 0.0), ("PC15-X1", "logistic", 0.3),
                             ("PC7-X1", "poly", 0.0)):
        check = CLAIM[cid].check
        good = claim_run(cid, SC.pl_scenario(D.fixture(), SC.FIXTURE_DIRECTIONS, SC.FIXTURE_SIGNS, 1e-3, loss=loss,
                                             alpha=alpha))
        assert held(check(good)), cid
        bad = claim_run(cid, SC.pl_scenario(D.pc2(), [_u(162), _u(30), _u(150)], [1.0, 1.0, -1.0], 1e-2, loss=loss,
                                            alpha=alpha))
        m = check(bad)
        assert violated(m) and m.value < -1e-2, (cid, m)


@lru_cache(maxsize=None)
def pc2_run() -> Run:
    """PC2 with a positive neuron at 40 deg (it slides on w^T u(120) = 0), a negative one at 160 deg and a positive one
    at 200 deg (it dies): crossings, a sliding mode and a death in the log."""
    return claim_run("PC2-X2-log", SC.pl_scenario(D.pc2(), [_u(40), _u(160), _u(200)], [1.0, -1.0, 1.0], 1e-3))


def test_pc2_event_log_check_catches_a_missed_and_an_invented_crossing():
    """PC2-X2-log (the log, sliding included, agrees with the states without OS): holds on the PC2 run; the same run with
    its first logged crossing removed (a missed crossing) or with an invented deactivation fails."""
    check = CLAIM["PC2-X2-log"].check
    run = pc2_run()
    assert any(e.kind == "sliding" for e in run.events) and held(check(run))
    first = next(e for e in run.events if e.kind in ("activate", "deactivate"))
    missed = check(with_states(run, events=[e for e in run.events if e is not first]))
    assert violated(missed) and missed.value < -0.1, missed
    invented = sorted(run.events + [dataclasses.replace(first, t=0.05, i=0, j=0)], key=lambda e: e.t)
    assert violated(check(with_states(run, events=invented)))


def test_pc2_loss_check_fails_backwards():
    """PC2-X7 (the loss is non-increasing without OS, also while sliding): holds on the PC2 run, fails on its states in
    reverse order."""
    check = CLAIM["PC2-X7"].check
    run = claim_run("PC2-X7", SC.pl_scenario(D.pc2(), [_u(40), _u(160), _u(200)], [1.0, -1.0, 1.0], 1e-3))
    assert held(check(run))
    assert violated(check(with_states(run, W=run.W[::-1].copy(), v=run.v[::-1].copy())))


# --- Theorem 1 and the limits of its proof (log-time runs to t = 1e12) -------------------------------------------------

class AlteredRun:
    """A run whose sampled states are replaced, everything else delegated to the real run (the checks read W, v)."""

    def __init__(self, run: Any, W: np.ndarray, v: np.ndarray) -> None:
        self._run, self.W, self.v = run, W, v

    def __getattr__(self, name: str) -> Any:
        return getattr(self._run, name)


def reversed_window(run: Any) -> AlteredRun:
    """The states of t >= 1e4 (theorem1's window) in reverse order: every limit seems to run backwards."""
    k = np.flatnonzero(run.times >= T.WINDOW[0] * (1 - 1e-9))
    W, v = run.W.copy(), run.v.copy()
    W[k], v[k] = run.W[k[::-1]], run.v[k[::-1]]
    return AlteredRun(run, W, v)


@lru_cache(maxsize=None)
def long_run(kind: str) -> Run:
    scenario = {"fixture": SC.fixture_scenario(), "exp": SC.fixture_scenario(loss="exp"),
                "one-group": T.gaussian_scenario(D.fixture(), 3, 1e-3, 1, "positive"),
                "large-init": T.gaussian_scenario(D.fixture(), 30, 1.0, 7)}[kind]
    return claim_run("PL-T1-i", scenario)


def inconclusive_rise(m) -> bool:
    """A rise read as a limit: below zero with an infinite error (never a pass, never a violation)."""
    return not m.vacuous and m.value < 0 and math.isinf(m.error)


def test_limit_claims_fail_when_the_window_runs_backwards():
    """Each trend / certificate claim of Theorem 1 on a run of its own kind (the fixture; PC8 with the exp loss; PC5 with
    every a_j(0) > 0): its precondition holds, its check holds, and with the window's states reversed it no longer
    passes: the monotone certificates (PL-P4, PL-X6) are violated, the trend readings of a limit are inconclusive (a
    rise does not refute a limit in finite time; the example cannot pass)."""
    certificates = {"PL-P4", "PL-X6"}
    for cid, kind in (("PL-T1-i", "fixture"), ("PL-T1-iii", "fixture"), ("PL-C1", "fixture"), ("PL-P3", "fixture"),
                      ("PL-P4", "fixture"), ("PL-P8", "fixture"), ("PL-P9", "fixture"), ("PL-X5", "fixture"),
                      ("PL-X6", "fixture"), ("PC8-T1", "exp"), ("PC5-T1", "one-group")):
        c = CLAIM[cid]
        run = long_run(kind)
        assert c.precondition(run) is True, cid
        assert held(c.check(run)), cid
        backwards = c.check(reversed_window(run))
        assert violated(backwards) if cid in certificates else inconclusive_rise(backwards), cid


def test_large_init_claim_is_inconclusive_where_stuck_and_would_turn_unexpected_where_the_limit_is_reached():
    """PC3-T1 (expected UNKNOWN): on its own large-init run the margin is inconclusive (infinite error, never a
    violation); where the late phase is reached its check is Theorem 1 (i), which holds on the fixture -- a verdict
    other than UNKNOWN, so the claim would turn unexpected -- and is inconclusive when the window runs backwards."""
    check = CLAIM["PC3-T1"].check
    stuck = check(long_run("large-init"))
    assert stuck.value < 0 and math.isinf(stuck.error) and not violated(stuck)
    assert held(check(long_run("fixture")))
    assert inconclusive_rise(check(reversed_window(long_run("fixture"))))


# --- PL-P6's frequency test on PC6 --------------------------------------------------------------------------------------

def test_pc6_frequency_runner_refutes_inits_drawn_away_from_the_own_class(monkeypatch):
    """PC6-P6's own runner (x+ = e1, x- = -e2, p = 1 and 2, N = 200 seeded inits): HOLDS with the paper's Gaussian init;
    with H-RAND dropped (each direction drawn in the half-plane away from its own class, as the Gaussian draw reflected)
    every run dies and the all-dead frequency exceeds 2^-p + 3 sd: REFUTED."""
    runner = CLAIM["PC6-P6"].runner
    assert runner(CLAIM["PC6-P6"]).verdict == Verdict.HOLDS

    def away(rng, p, d):
        s = np.where(rng.random(p) < 0.5, -1.0, 1.0)
        g = rng.standard_normal((p, d))
        return np.c_[np.where(s > 0, -np.abs(g[:, 0]), g[:, 0]), np.where(s < 0, np.abs(g[:, 1]), g[:, 1])], s

    real = PR.count_deaths
    monkeypatch.setattr(PR, "count_deaths", lambda ds, p, n, seed, draw: real(ds, p, n, seed, draw=away))
    out = runner(CLAIM["PC6-P6"])
    assert out.verdict == Verdict.REFUTED and out.counterexample is not None and "200 dead" in out.reason
    assert out.min_margin < -0.5  # p = 2: frequency 1 against the bound 2^-2 + 3 sd = 0.342
