"""``pytest properties/``: every catalogue claim as a property-based test.

A claim expected to hold fails the test when it is REFUTED (or undecided) or had a numerical failure; a
planted claim fails the test when it is NOT refuted with a confirmed counterexample; a claim expected UNKNOWN must
count no example as evidence. This is the one place catalogue claims are searched at the ci budget and seed 0
(per-paper test files test their quantities and planted runs, not these verdicts again). The search budget
follows HYPOTHESIS_PROFILE (``ci`` by default, ``thorough`` for long audits).
"""

import os

import pytest

from verify.claims import catalogue
from verify.claims.registry import papers
from verify.cli.profiles import budget_for
from verify.search import search
from verify.verdicts import Verdict

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
CLAIMS = catalogue()


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_claim_meets_its_expected_verdict(claim):
    result = search(claim, budget=budget_for(PROFILE, claim.meta.get("budget")), seed=0)
    detail = f"{claim.id} [{claim.source}]: {result.verdict} ({result.reason}); min margin {result.min_margin}"
    if claim.expected == Verdict.REFUTED:
        assert result.verdict == Verdict.REFUTED, detail
        cx = result.counterexample
        assert cx is not None, detail
        if "symbolic" in claim.tags:
            assert cx["witness"], detail
        else:
            assert cx["confirmed_margin"] < -(cx["confirmed_margin_error"] or 0.0), detail
    else:
        assert result.as_expected, detail
    if claim.expected in (Verdict.HOLDS, Verdict.PROVED):
        assert result.numerical_failures == 0, detail
        assert claim.runner is not None or result.examples >= 1, detail
    if "documented-only" in claim.tags:  # listed with its reason, never counted as evidence
        assert result.verdict == Verdict.UNKNOWN and "do not test" in result.reason, detail
    elif claim.expected == Verdict.UNKNOWN and claim.runner is None:  # undecided: no example counted as evidence
        assert result.examples == 0 and result.vacuous + result.inconclusive > 0, detail


def test_every_claim_cites_its_papers_seed_and_ids_are_unique():
    ids = [c.id for c in CLAIMS]
    assert len(ids) == len(set(ids))
    for paper in papers().values():
        assert [c.id for c in paper.claims if not c.source.startswith(paper.id)] == [], paper.id
