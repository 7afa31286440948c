"""The engine's modules each do one job (issue 18): every module of verify/dynamics (and of its mp backend) stays
within the project's module size and says what it is; the float64 and mp engines are composed of their parts."""

from __future__ import annotations

import ast
from pathlib import Path

from verify.dynamics import detect, engine, filippov, settle
from verify.dynamics.mp import engine as mp_engine, locate, planning, settling, step

DYNAMICS = Path(engine.__file__).resolve().parent
MAX_LINES = 400


def test_dynamics_modules_are_small_and_documented():
    paths = sorted(DYNAMICS.rglob("*.py"))
    assert len(paths) > 30
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= MAX_LINES, path.name
        assert ast.get_docstring(ast.parse(text)), path.name


def test_float64_engine_is_composed_of_its_parts():
    assert issubclass(engine.Engine, settle.Settling) and issubclass(engine.Engine, detect.Detection)
    assert engine.Engine.find_events is detect.Detection.find_events
    assert engine.Engine.settle is settle.Settling.settle
    assert issubclass(engine.Engine, filippov.Filippov) and engine.Engine.effective_S is filippov.Filippov.effective_S


def test_mp_engine_is_composed_of_its_parts():
    parts = (planning.Planning, locate.Locating, settling.Settling)
    assert all(issubclass(mp_engine.Engine, p) for p in parts)
    assert mp_engine.Engine.find_events is locate.Locating.find_events
    assert mp_engine.Engine.choose_orders is planning.Planning.choose_orders
    assert mp_engine.Engine.settle is settling.Settling.settle
    assert step.Step.evaluate and step.Pairs.screen
