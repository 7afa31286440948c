"""Seed 004's catalogue layout: one module per part of claim sheet 004, ``CLAIMS`` collected from the
modules in sheet order (no hand-kept lists), each check defined in its claim's module above the claim."""

from __future__ import annotations

import ast
import inspect
from types import ModuleType

import pytest

import properties.min2024_early_alignment as seed004
from properties.min2024_early_alignment import SECTIONS, invariants, symbolic
from verify.claims.collect import assemble, collect
from verify.claims.model import Claim

ENCODED = [m for m in SECTIONS if m is not symbolic]  # symbolic claims are built in a loop from verify.symbolic


def _claim_spans(module: ModuleType) -> dict[str, tuple[int, int]]:
    """Module-level names assigned a claim, with the first and last line of the assignment."""
    tree = ast.parse(inspect.getsource(module))
    return {n.targets[0].id: (n.lineno, n.end_lineno) for n in tree.body
            if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name)
            and isinstance(vars(module).get(n.targets[0].id), Claim)}


def test_claims_are_the_sections_collected_in_order():
    assert seed004.CLAIMS == [c for m in SECTIONS for c in collect(m)]
    ids = [c.id for c in seed004.CLAIMS]
    assert len(ids) == len(set(ids))
    assert collect(symbolic) == symbolic.CLAIMS_SYMBOLIC


@pytest.mark.parametrize("module", ENCODED, ids=[m.__name__.rsplit(".", 1)[1] for m in ENCODED])
def test_module_claims_in_definition_order_with_checks_above(module):
    spans = _claim_spans(module)
    assert [vars(module)[name] for name in sorted(spans, key=spans.get)] == collect(module)
    for name, (_, last) in spans.items():
        check = vars(module)[name].check
        assert check.__module__ == module.__name__, name
        assert check.__code__.co_firstlineno <= last, name  # above the claim (a lambda: inside it)
    assert len(inspect.getsource(module).splitlines()) <= 420


def test_a_claim_found_in_two_modules_is_refused():
    first, second = ModuleType("first"), ModuleType("second")
    first.A1 = second.A1 = invariants.A1
    assert collect(first) == [invariants.A1]
    with pytest.raises(ValueError, match="EA-A1.*first.*second"):
        assemble((first, second))
