"""The generic false-claim suite of the search-power benchmark is false: each claim's witness violates it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
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


def _draws(strategy, count: int) -> list:
    """``count`` examples as a search's generate phase draws them (derandomized: the same every run)."""
    from hypothesis import HealthCheck, Phase, given, settings

    out: list = []

    @settings(max_examples=count, derandomize=True, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(sc) -> None:
        out.append(sc)

    collect()
    return out


def test_generic_data_cover_cross_class_acute_pairs() -> None:
    """The no-sliding and crossing claims need a positive and a negative point at an acute angle; the linearly
    separable family drew one in 12% of the draws (a single support vector on the teacher axis, points hugging
    it) before its band / unit_norm / tilt structures."""
    draws = _draws(suite.NON_OS, 120)
    acute = [bool(np.any((sc.dataset.X @ sc.dataset.X.T > 0) & (sc.dataset.y[:, None] != sc.dataset.y[None, :])))
             for sc in draws]
    assert np.mean(acute) >= 0.35


def test_generic_data_cover_nearly_orthogonal_classes_and_learning_inits() -> None:
    """The stable-rank claim needs class directions more than arccos(1/3) apart (mu small, classes split) and a
    neuron of each sign active on its own class; before the split classes, log-spread mu, mixed signs and
    anchored neurons a 12-example search never met the three together."""
    draws = _draws(suite.GENERIC, 120)
    apart, learns = [], []
    for sc in draws:
        S, y = sc.dataset.signed / sc.dataset.norms[:, None], sc.dataset.y
        pos, neg = S[y > 0].sum(axis=0), S[y < 0].sum(axis=0)
        apart.append(pos @ neg / (np.linalg.norm(pos) * np.linalg.norm(neg)) < 1 / 3)
        active, s = sc.dataset.X @ sc.init.W0.T > 0, np.sign(sc.init.v0)
        learns.append(all(np.any(active[y == c][:, s == c]) for c in (1.0, -1.0)))
    assert np.mean(apart) >= 0.3 and np.mean(learns) >= 0.4
    assert np.mean(np.array(apart) & np.array(learns)) >= 0.15


def test_generic_inits_have_both_signs_mostly() -> None:
    draws = [sc for sc in _draws(suite.UNBALANCED, 80) if sc.init.h >= 2]
    assert np.mean([np.any(sc.init.v0 > 0) and np.any(sc.init.v0 < 0) for sc in draws]) >= 0.75
