"""``@verify.claim``: turn a function ``run -> margin`` into a :class:`Claim` (DESIGN.md section 6)."""

from __future__ import annotations

import math
import numbers
from typing import Any, Callable

from hypothesis import strategies as st

from verify.claims.model import Claim, Horizon, Margin
from verify.claims.run import NAMED_HORIZONS
from verify.errors import InputError
from verify.scenarios import is_scenario_strategy
from verify.verdicts import Verdict


def claim(
    *,
    id: str,
    over: st.SearchStrategy[Any],
    horizon: Horizon,
    source: str | None = None,
    statement: str | None = None,
    expected: str | Verdict = Verdict.HOLDS,
    **options: Any,
) -> Callable[[Callable[[Any], float | Margin]], Claim]:
    """Decorator for user claims: ``@verify.claim(id=..., over=scenario(...), horizon=...)``.

    ``over``: a strategy made by :func:`verify.scenarios.scenario`. ``horizon``: a positive number
    (the run's t_end), a named horizon ("t1": the audit's alignment time) or a callable
    ``(scenario, audit) -> float``. The function receives the run -- ``run.X``, ``run.y``,
    ``run.W0``, ``run.v0``, ``run.times``, ``run.W`` (k, h, d), ``run.v`` (k, h), ``run.events``,
    ``run.params``, ``run.audit`` -- and returns True / False, a number (>= 0: holds) or a
    :class:`verify.Margin` with its error bound (an infinite error is inconclusive). Anything else
    makes that example FAILED. Other keyword options are :class:`verify.Claim` fields
    (``precondition``, ``rtol``, ``samples``, ``assumptions``, ``node``, ``uses``, ...).
    """
    if not isinstance(id, str) or not id:
        raise InputError("a claim needs a non-empty string id")
    if not is_scenario_strategy(over):
        raise InputError(f"claim {id!r}: 'over' must be a scenario strategy made by verify.scenarios.scenario(...) "
                         f"(got {type(over).__name__}); restrict it with precondition=")
    check_horizon(id, horizon)
    try:
        wanted = Verdict(str(expected))
    except ValueError:
        raise InputError(f"claim {id!r}: unknown expected verdict {expected!r}") from None

    def wrap(fn: Callable[[Any], float | Margin]) -> Claim:
        if not callable(fn):
            raise InputError(f"claim {id!r}: @verify.claim decorates a function run -> margin, got {type(fn).__name__}")
        text = statement or (fn.__doc__ or "").strip() or id
        return Claim(id=id, source=source or "user", statement=text, check=fn, over=over, horizon=horizon,
                     expected=wanted, **options)

    return wrap


def check_horizon(claim_id: str, horizon: Any) -> None:
    """A positive finite number, a named horizon (:data:`verify.claims.run.NAMED_HORIZONS`) or a
    callable ``(scenario, audit) -> float``; anything else is an InputError when the claim is made."""
    if callable(horizon) or (isinstance(horizon, str) and horizon in NAMED_HORIZONS):
        return
    if isinstance(horizon, numbers.Real) and not isinstance(horizon, bool) and math.isfinite(horizon) and horizon > 0:
        return
    raise InputError(f"claim {claim_id!r}: horizon must be a positive number or one of {', '.join(NAMED_HORIZONS)}, "
                     f"got {horizon!r}")
