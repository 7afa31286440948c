"""How a limit is read at finite time (verify.claims.trends) and how a check's parts combine (verify.claims.model.worst).

The first thorough audit (200 examples per claim) refuted four claims that `ci` reports HOLDS, each confirmed at 30
digits: PL-T1-iii and PL-X5 (seed 000, Theorem 1 and its companion limit), LY-T43-linear (seed 003, Theorem 4.3) and
LY-T62-sigma (seed 003, Theorem 6.2 in sigma). None is a counterexample to its theorem: each is a limit whose error
rose between the window's halves (or shrank in sigma, but by less than the 2x asked), which a finite run can neither
prove nor refute (sheet 003 section 2.0; sheet 000 PL-T1 check 5 keeps pass criteria apart from its counterexample
signatures). They are inconclusive now; the planted readings that state the trend itself are still violated.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from verify.claims import load_target
from verify.claims.model import Margin, violated, worst
from verify.claims.trends import envelope_trend
from verify.search import evaluate


def inconclusive_rise(m: Margin) -> bool:
    return not m.vacuous and math.isinf(m.error) and m.value < 0


EARLY = np.array([True] * 4 + [False] * 4)


def test_a_rise_is_inconclusive_for_a_limit_and_a_violation_for_a_literal_reading() -> None:
    rising = np.array([2.0, 1.5, 1.0, 1.0, 1.0, 2.5, 1.2, 1.0]) * 1e-6
    limit = envelope_trend(rising, EARLY, ~EARLY, 1e-9, "E")
    assert inconclusive_rise(limit) and limit.value == pytest.approx(-0.5e-6) and "a rise" in limit.note
    assert limit.ratio == pytest.approx(1.25)
    literal = envelope_trend(rising, EARLY, ~EARLY, 1e-9, "E", literal=True)
    assert violated(literal) and literal.value == limit.value and literal.error == 1e-9


def test_a_shrink_passes_and_a_rise_within_the_error_stays_decided() -> None:
    m = envelope_trend(np.array([3.0, 2.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.7]), EARLY, ~EARLY, 1e-9, "E")
    assert m.value == 2.0 and m.error == 1e-9 and m.ratio == pytest.approx(1.0 / 3.0)
    flat = envelope_trend(np.full(8, 1e-20), EARLY, ~EARLY, 1e-9, "tiny")
    assert flat.value == 0.0 and flat.error == 1e-9 and flat.ratio is None  # early max within the error: no ratio
    within = envelope_trend(np.array([1.0] * 4 + [1.0 + 1e-12] * 4), EARLY, ~EARLY, 1e-9, "E")
    assert -within.error <= within.value < 0 and math.isfinite(within.error)


def test_the_worst_column_decides_and_is_named() -> None:
    E = np.column_stack([np.linspace(2.0, 1.0, 8), np.array([1.0] * 4 + [0.5, 0.4, 0.3, 0.2])])
    m = envelope_trend(E, EARLY, ~EARLY, 1e-9, "E", halves=("[a, b]", "(b, c]"))
    assert m.value == pytest.approx(1.0 - 0.5) and "(column 1)" in m.note and "[a, b]" in m.note


def test_worst_reports_a_violation_before_an_inconclusive_part_before_the_closest_pass() -> None:
    ok, close = Margin(1.0, 0.1, "ok"), Margin(0.01, 0.0, "close")
    unsure = Margin(-5.0, math.inf, "unsure")
    bad = Margin(-1.0, 0.1, "bad")
    assert worst([ok, close]).note == "close"
    assert worst([ok, unsure, close]).note == "unsure"  # a check cannot pass while one of its parts says nothing
    assert worst([ok, unsure, bad]).note == "bad"
    powerless = Margin(-0.05, 0.1, "within")  # -error <= value < 0: no violation, but closest to one
    assert worst([unsure, powerless]).note == "unsure"
    assert worst([]).vacuous


# --- the thorough audit's four findings: inconclusive, and the planted readings still violated ---------------------

def _pl_scenario(d: int, extra: int, data_seed: int, p: int, lam: float, seed: int):
    from properties.phuong_lampert2021.theorem1 import gaussian_scenario, pulled_span

    return gaussian_scenario(pulled_span(d, extra, seed=data_seed), p, lam, seed)


def _t43_scenario():
    from properties.lyu2021_margin import datasets as D
    from properties.lyu2021_margin import quantities as Q
    from properties.lyu2021_margin.scenarios import draw_scenario

    ds = D.random_symmetric(n_half=3, d=2, seed=255)
    return draw_scenario(ds, Q.d_init(2, ds.d, 0), 1e-4, n_half=3, d=2, seed=255)


def _t62_scenario():
    from properties.lyu2021_margin import quantities as Q
    from properties.lyu2021_margin.scenarios import draw_scenario
    from properties.lyu2021_margin.section6 import HINTED, hinted_ds

    ds = hinted_ds(HINTED)
    return draw_scenario(ds, Q.balanced_draw(4, ds.d, 8590), 1e-8, hinted=list(HINTED))


FINDINGS = {
    # claim: (scenario builder, the confirmed margin of the thorough audit, the part that rose)
    "PL-T1-iii": (lambda: _pl_scenario(2, 1, 165, 3, 1e-2, 0), -1.8937e-6, "1 - cos(w_j, w+-)"),
    "PL-X5": (lambda: _pl_scenario(2, 2, 1439, 2, 1e-2, 123), -6.5999e-7, "|ratio / limit - 1|"),
    "LY-T43-linear": (_t43_scenario, -4.3828e-4, "||odd part - w*/2||"),
    "LY-T62-sigma": (_t62_scenario, -1.0188, "odds shrinks by only 1.82x"),
}


@pytest.mark.parametrize("claim_id", sorted(FINDINGS))
def test_the_thorough_audits_limit_findings_are_inconclusive(claim_id: str) -> None:
    """The same example (its margin as the audit confirmed it) is now inconclusive: never a pass, never a violation."""
    build, confirmed, part = FINDINGS[claim_id]
    ev = evaluate(load_target(claim_id), build())
    assert ev.status == "inconclusive", ev.reason
    m = ev.margin
    assert inconclusive_rise(m) and m.value == pytest.approx(confirmed, rel=1e-3) and part in m.note


def _s19_scenario():
    from properties.lyu2021_margin import datasets as D
    from properties.lyu2021_margin.theorem56 import perturbed_scenario

    return perturbed_scenario(D.random_symmetric(3, 3, seed=5), 2, 0.01, 10.0, 0)


def _s11_scenario():
    from properties.lyu2021_margin import quantities as Q
    from properties.lyu2021_margin.scenarios import draw_scenario
    from properties.lyu2021_margin.section6 import H_SMALL, hinted_ds

    ds = hinted_ds(H_SMALL)
    return draw_scenario(ds, Q.balanced_draw(3, ds.d, 0), 1e-8, hinted=list(H_SMALL))


@pytest.mark.parametrize("claim_id, build", [("S19-T56-gap", _s19_scenario), ("S11-T62-sigma-H-small", _s11_scenario)])
def test_planted_readings_that_state_the_trend_are_still_violated(claim_id: str, build) -> None:
    """S19-T56-gap states the finite-time trend itself (literal: its rise 0.0076 -> 0.0087 is a violation); on
    S11's data the negative odds grow as sigma shrinks (a violation that persists, sheet 2.0)."""
    ev = evaluate(load_target(claim_id), build())
    assert ev.status == "ok" and violated(ev.margin), ev.margin
