"""The mutation suite (issue 13, item 4): every planted engine bug of verify/evidence/mutants.py turns at
least one catalogue claim unexpected, run in-process at the ci budget with seed 0 (as `verify check`).

CATCHERS lists, per mutant, the few claims found to catch it (scripts/mutant_teeth.py measures all of
them); the claims run in order under the mutant (the "every 10th" counters start at the first).
"""

from __future__ import annotations

import numpy as np
import pytest

from verify import Dataset, simulate
from verify.claims.model import Claim
from verify.claims.registry import catalogue
from verify.evidence.mutants import MUTANTS, unexpected_under

CATCHERS: dict[str, tuple[str, ...]] = {
    "events-skip-crossing": ("EA-A4", "P5-A4-leaky-still-monotone"),
    "logistic2-weight-halved": ("EA-C3", "EA-B3"),
    "polar-outputs-exp-r": ("EC-polar-outputs",),
    "sigma-prime-zero-one": ("EA-H3", "EA-H4-irregular-caratheodory"),
    "v-sign-flipped": ("EC-polar-field", "EA-A1"),
    "limit-skip-crossing": ("EA-E4-barrier",),
    "limit-alignment-slow": ("EA-E4-barrier",),
    "sgd-with-replacement": ("LT-D4-epochs",),
    "loss-exp-derivative": ("EC-loss-derivative",),
    "loss-logistic-derivative": ("EC-loss-derivative",),
    "loss-logistic2-derivative": ("EC-loss-derivative",),
    "loss-square-derivative": ("EC-loss-derivative",),
}


def _claims(ids: tuple[str, ...]) -> list[Claim]:
    """The catalogue claims with these ids."""
    pool = {c.id: c for c in catalogue()}
    return [pool[i] for i in ids]


def test_every_mutant_has_catchers() -> None:
    assert set(CATCHERS) == set(MUTANTS)


@pytest.mark.parametrize("mutant_id", sorted(MUTANTS))
def test_mutant_is_caught(mutant_id: str) -> None:
    found = unexpected_under(mutant_id, _claims(CATCHERS[mutant_id]), profile="ci", seed=0)
    assert found, f"no claim of {CATCHERS[mutant_id]} noticed mutant {mutant_id} ({MUTANTS[mutant_id].description})"


def test_mutants_restore_the_engine() -> None:
    rng = np.random.default_rng(3)
    X = rng.normal(size=(5, 2))
    ds = Dataset(X, np.where(X[:, 0] > 0, 1.0, -1.0))
    W0 = rng.normal(size=(3, 2))
    v0 = np.linalg.norm(W0, axis=1)

    def run() -> np.ndarray:
        return np.concatenate([simulate(ds, 1e-2 * W0, 1e-2 * v0, 5.0, loss=loss).W.ravel() for loss in ("exp", "logistic2")])

    before = run()
    for mutant in MUTANTS.values():
        with mutant.active():
            pass
    assert np.array_equal(run(), before)
