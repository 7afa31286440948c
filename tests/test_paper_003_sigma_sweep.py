"""Seed 003: Theorem 4.3 across decades of sigma (theorem43.sigma_settles / sigma_improves), the Assumption 4.5
test of the audit (tolerance, fixture 6), the E5 phase classification and the reading of a margin (reading.py)."""

from __future__ import annotations

import math

import pytest

from verify import audit
from verify.claims.model import Margin
from verify.strategies import GeometryCase

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin.fragility_runs import BORDER, OUTSIDE, REGIME, outcome_of
from properties.lyu2021_margin.reading import holds, refutes
from properties.lyu2021_margin.theorem43 import S8_SIGMA, T43_SIGMA, T43_SIGMA_IMPROVES, sigma_improves, sigma_settles


def _case(ds, m: int, seed: int, **params) -> GeometryCase:
    return GeometryCase(ds, seed, {"data": ds.name, "m": m, **params})


def test_a_good_draw_settles_in_sigma_but_does_not_improve_monotonically():
    case = _case(D.d_sym(), 3, 1)  # the reading claim's second draw: 0.009659 at 1e-2 rises to 0.009692 at 1e-4
    assert holds(sigma_settles(case))
    assert refutes(sigma_improves(case))


def test_a_bad_draw_is_vacuous_for_the_claim_and_refuted_for_its_planted_twin():
    assert sigma_settles(_case(D.d_sym(), 2, 0)).vacuous  # b-bar all one sign: outside Theorem 4.3's event
    planted = sigma_settles(_case(D.d_sym(), 3, 2, drops="good event"))
    assert refutes(planted) and "every sigma" in planted.note


def test_the_sweep_claims_are_declared_like_their_neighbours():
    for claim in (T43_SIGMA, T43_SIGMA_IMPROVES, S8_SIGMA):
        assert claim.source.startswith("003 ") and "Theorem 4.3" in claim.source + claim.statement
        assert claim.node == "T43" and claim.uses and claim.horizon is None
    assert str(T43_SIGMA_IMPROVES.expected) == "REFUTED" and str(S8_SIGMA.expected) == "REFUTED"


def test_assumption_45_has_a_tolerance_and_fixture_6_violates_it():
    assert audit(D.d_sym()).a45 and audit(D.random_symmetric(3, 2, seed=4)).a45
    a = audit(D.d_sym_orthogonal_pair())
    assert a.symmetric and a.linearly_separable and not a.a45 and a.a45_relative < 1e-14


@pytest.mark.parametrize("row, phase", [
    ({"hint": OUTSIDE, "ratio": 0.6, "min_cos": 0.9}, "outside"),
    ({"hint": BORDER, "ratio": 2.8, "min_cos": 0.8}, "escape"),
    ({"hint": REGIME[0], "ratio": 0.995, "min_cos": 0.999}, "regime"),
    ({"hint": REGIME[1], "ratio": 1.2, "min_cos": 0.999}, "between"),
])
def test_e5_phase_of_a_run(row, phase):
    assert outcome_of(row) == phase


def test_reading_a_margin():
    assert holds(Margin(0.0, 1e-9)) and not refutes(Margin(0.0, 1e-9))
    assert refutes(Margin(-1.0, 0.5)) and not holds(Margin(-1.0, 0.5))
    for undecided in (Margin(-0.1, 0.5), Margin(1.0, math.inf), Margin(1.0, 0.0, vacuous=True), None):
        assert not holds(undecided) and not refutes(undecided)
