"""Teeth bookkeeping (verify.evidence.teeth): planted claims, the shared symbolic procedure, mutants and tests that
make a claim's check fail; the test declarations of every paper point at real tests that call the claim's check."""

from __future__ import annotations

import importlib
from pathlib import Path

from verify.claims.model import Claim
from verify.claims.registry import catalogue
from verify.evidence import teeth
from verify.scenarios import scenario
from verify.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[1]


def _ok(run) -> float:
    return 1.0


def _claim(cid: str, check=_ok, expected=Verdict.HOLDS, tags=()) -> Claim:
    return Claim(id=cid, source="test", statement=cid, check=check, over=scenario(), horizon=1.0, expected=expected,
                 tags=tags)


def test_planted_mutant_symbolic_and_test_teeth_are_merged() -> None:
    a, planted = _claim("A"), _claim("A-planted", expected=Verdict.REFUTED)
    s1, s2 = _claim("S1", check=lambda r: 0.0, tags=("symbolic",)), _claim("S2", check=lambda r: 0.0, tags=("symbolic",))
    s_bad = _claim("S-bad", check=lambda r: 0.0, tags=("symbolic",), expected=Verdict.REFUTED)
    alone = _claim("B", check=lambda r: 1.0)
    teeth.attach([a, planted, s1, s2, s_bad, alone], {"mutant-x": ["A"]}, {"tests/test_x.py::test_y": ["B"]})
    assert a.meta["teeth"] == ["A-planted", "mutant-x"]
    assert s1.meta["teeth"] == s2.meta["teeth"] == ["S-bad"]
    assert alone.meta["teeth"] == ["test:test_x.py::test_y"]


def test_a_declaration_must_name_a_test_that_calls_the_check(tmp_path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("def test_y():\n    assert _ok(None) == 1.0\n\ndef test_z():\n    pass\n")
    claims = [_claim("A")]
    assert teeth.declaration_problems(tmp_path, claims, {"tests/test_x.py::test_y": ["A"]}) == []
    problems = teeth.declaration_problems(tmp_path, claims, {"tests/test_x.py::test_z": ["A"], "tests/test_x.py::nope": ["A"],
                                                             "tests/none.py::t": ["A"], "tests/test_x.py::test_y": ["Q"]})
    assert len(problems) == 4


def test_every_papers_test_declarations_are_sound() -> None:
    claims = catalogue()
    for module in sorted((ROOT / "properties").glob("*/teeth.py")):
        shown = getattr(importlib.import_module(f"properties.{module.parent.name}.teeth"), "SHOWN_BY_TESTS", {})
        assert teeth.declaration_problems(ROOT, claims, shown) == [], module.parent.name
