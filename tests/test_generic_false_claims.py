"""The generic false-claim suite of the search-power benchmark is false: each claim's witness violates it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import generic_false_claims as suite  # noqa: E402

from verify.search import evaluate  # noqa: E402
from verify.verdicts import Verdict  # noqa: E402


def test_every_claim_has_a_witness() -> None:
    assert sorted(c.id for c in suite.CLAIMS) == sorted(suite.WITNESSES)
    assert all(c.expected == Verdict.REFUTED for c in suite.CLAIMS)


@pytest.mark.parametrize("claim", suite.CLAIMS, ids=lambda c: c.id)
def test_witness_violates_the_claim(claim) -> None:
    ev = evaluate(claim, suite.WITNESSES[claim.id]())
    assert ev.margin is not None and not ev.margin.vacuous
    assert ev.margin.value < -max(ev.margin.error, 1e-6)
