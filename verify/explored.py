"""What a search tested: the ranges of the generated examples' parameters and its worst case.

:class:`Explored` collects, for every non-vacuous example of a search, the scenario's parameters
(n, d, h, ln eps, eps, loss, alpha, init, the simulated horizon, and the scalar entries of the
scenario's ``params`` such as mu) and keeps the example with the smallest margin. ``ranges()`` is the
report's ``explored`` field (DESIGN.md section 6): each parameter -> ``[min, max]`` for numbers, the
sorted distinct values for text; ``worst_case()`` the smallest-margin example's parameters. Pure
bookkeeping: it never touches the search's random choices, so verdicts and examples are unchanged.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

MAX_TEXT_VALUES = 6  # text parameters with more distinct values are summarised by their count
_SKIP = {"seed", "log_eps", "loss", "alpha", "t_end", "horizon"}  # params entries covered elsewhere (or noise)


def parameters(drawn: Any, horizon: float | None = None) -> dict[str, Any]:
    """The scalar parameters of one generated example (a Scenario, a dict of values, or a number)."""
    from verify.scenarios import Scenario

    out: dict[str, Any] = {}
    if isinstance(drawn, Scenario):
        init = drawn.init
        out.update({"n": drawn.dataset.n, "d": drawn.dataset.d, "h": init.h, "log_eps": float(init.log_eps),
                    "loss": drawn.loss, "alpha": float(drawn.alpha), "init": init.kind})
        if init.eps > 0.0 and math.isfinite(init.eps):
            out["eps"] = init.eps
        if horizon is not None and math.isfinite(horizon):
            out["horizon"] = float(horizon)
        extra = drawn.params
    elif isinstance(drawn, dict):
        X = drawn.get("X")
        if isinstance(X, (list, tuple)) and X and isinstance(X[0], (list, tuple)):
            out.update({"n": len(X), "d": len(X[0])})
        extra = {**(drawn.get("params") if isinstance(drawn.get("params"), dict) else {}),
                 **{k: v for k, v in drawn.items() if k not in ("X", "y", "params")}}
    elif _number(drawn):
        return {"value": float(drawn)}
    else:
        extra = {}
    for key, value in (extra or {}).items():
        if key in _SKIP or key in out:
            continue
        if _number(value) or isinstance(value, str):
            out[str(key)] = float(value) if _number(value) and not isinstance(value, numbers.Integral) else value
    return out


def _number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(float(value))


class Explored:
    """Accumulates the parameters of a search's non-vacuous examples and its smallest-margin example."""

    def __init__(self) -> None:
        self._numbers: dict[str, list[float]] = {}
        self._texts: dict[str, set[str]] = {}
        self._worst: tuple[float, dict[str, Any]] | None = None

    def add(self, drawn: Any, margin: Any, horizon: float | None = None) -> None:
        """Record one valid example (``margin``: its :class:`verify.Margin`)."""
        params = parameters(drawn, horizon)
        for key, value in params.items():
            if isinstance(value, str):
                self._texts.setdefault(key, set()).add(value)
            else:
                lo_hi = self._numbers.setdefault(key, [value, value])
                lo_hi[0], lo_hi[1] = min(lo_hi[0], value), max(lo_hi[1], value)
        value = float(margin.value)
        if self._worst is None or value < self._worst[0]:
            self._worst = (value, {"margin": value, "error": float(margin.error), "note": margin.note or "",
                                   "params": params})

    def ranges(self) -> dict[str, list[Any]] | None:
        """Parameter -> [min, max] (numbers; ints stay ints) or sorted distinct values (text); None if empty."""
        if not self._numbers and not self._texts:
            return None
        out: dict[str, list[Any]] = {k: list(v) for k, v in self._numbers.items()}
        for key, values in self._texts.items():
            ordered = sorted(values)
            out[key] = ordered if len(ordered) <= MAX_TEXT_VALUES else ordered[:MAX_TEXT_VALUES - 1] + [
                f"... {len(ordered)} distinct values"]
        return out

    def worst_case(self) -> dict[str, Any] | None:
        """The smallest-margin example: margin, error, the check's note and the parameters (None if empty)."""
        return None if self._worst is None else self._worst[1]
