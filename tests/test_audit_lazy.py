"""The audit computes the paper hooks and the exact sign structure on first use (a search example whose check
reads neither pays for neither), and what it computes is the same whichever attribute is read first."""

from __future__ import annotations

import json

import numpy as np
import pytest

import verify
from verify import Dataset, audit
from verify.search import evaluate
from verify.scenarios import Scenario, scenario

X = np.array([[1.0, 0.2], [0.3, 1.0], [-1.0, 0.1], [-0.2, -1.0]])
Y = np.array([1.0, 1.0, -1.0, -1.0])
W0, V0 = np.array([[0.6, 0.8], [-0.8, 0.6]]), np.array([1.0, -1.0])


def _fresh():
    return audit(Dataset(X, Y), W0, V0, log_eps=-20.0)


def test_nothing_lazy_is_computed_until_read():
    a = _fresh()
    assert not {"papers", "sign_structure", "max_margin"} & set(a.__dict__)
    assert a.n == 4 and a.balanced  # eager fields
    assert "papers" not in a.__dict__


@pytest.mark.parametrize("first", ["na", "mu", "t1", "assumptions", "papers", "max_margin", "to_dict"])
def test_the_audit_is_the_same_whichever_attribute_is_read_first(first):
    ref = json.dumps(_fresh().to_dict(), default=str)
    a = _fresh()
    getattr(a, first)() if first == "to_dict" else getattr(a, first)
    assert json.dumps(a.to_dict(), default=str) == ref
    assert set(a.na) >= {k for part in a.papers.values() for k in part.na}


def test_the_hooks_and_the_audit_share_one_solution_of_the_data_only_problems():
    a = _fresh()
    mm, signs = a.max_margin, a.sign_structure
    _ = a.papers  # the hooks read mu and the max-margin problems: they get these, not new solutions
    assert a.max_margin is mm and a.sign_structure is signs
    b = _fresh()
    _ = b.papers
    assert "max_margin" in b.__dict__ and "sign_structure" in b.__dict__  # solved by a hook, carried over


def test_an_unknown_paper_id_is_an_input_error_at_once():
    with pytest.raises(verify.InputError, match="unknown paper"):
        audit(Dataset(X, Y), papers=["nope"])


def test_a_search_example_that_reads_no_audit_runs_no_hook():
    @verify.claim(id="reads-nothing", over=scenario(n=(2, 3), d=(2, 2), h=(1, 2), eps=(1e-3, 1e-2)), horizon=1.0)
    def check(run):
        return True

    @verify.claim(id="reads-mu", over=scenario(n=(2, 3), d=(2, 2), h=(1, 2), eps=(1e-3, 1e-2)), horizon=1.0)
    def reads(run):
        return run.audit.mu <= 1.0

    sc = Scenario.from_dict({"X": X.tolist(), "y": Y.tolist(), "W0": W0.tolist(), "v0": V0.tolist(), "log_eps": -5.0})
    lazy = evaluate(check, sc).run.audit
    assert not {"papers", "sign_structure", "max_margin"} & set(lazy.__dict__)
    read = evaluate(reads, sc).run.audit
    assert "sign_structure" in read.__dict__ and "papers" not in read.__dict__


def test_a_failing_hook_is_reported_as_itself_not_as_a_missing_attribute(monkeypatch):
    """An AttributeError raised inside a property would reach the caller as "no attribute 'papers'" (Python retries
    ``__getattr__``); the audit reports the hook's own error instead."""
    import verify.claims.registry as registry
    from verify.paper import Paper

    def hook(base):
        raise AttributeError("planted: the hook read a quantity that is not there")

    monkeypatch.setattr(registry, "papers", lambda: {"T7": Paper("T7", "planted paper", [], audit=hook)})
    a = audit(Dataset(X, Y), papers=["T7"])
    with pytest.raises(RuntimeError, match="planted: the hook read"):
        _ = a.papers
