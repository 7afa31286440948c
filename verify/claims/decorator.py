"""``@verify.claim``: turn a function ``run -> margin`` into a :class:`Claim` (DESIGN.md section 6)."""

from __future__ import annotations

import math
import numbers
from typing import Any, Callable

from hypothesis import strategies as st

from verify.claims.model import Claim, Horizon, Margin
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
    (the run's t_end), a horizon an installed paper names (e.g. "t1") or a callable
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
    """A positive finite number, a name an installed paper defines (``Paper.horizons``) or a callable
    ``(scenario, audit) -> float``; anything else is an InputError when the claim is made. (While the
    plug-ins themselves load, a name is checked by its :class:`verify.Paper` instead.)"""
    from verify.claims.registry import named_horizons  # local: the registry imports the plug-ins

    if callable(horizon):
        return
    if isinstance(horizon, numbers.Real) and not isinstance(horizon, bool) and math.isfinite(horizon) and horizon > 0:
        return
    names = named_horizons() if isinstance(horizon, str) and horizon else {}
    if names is None or horizon in names:
        return
    raise InputError(f"claim {claim_id!r}: horizon must be a positive number or a name an installed paper defines "
                     f"({', '.join(sorted(names or named_horizons() or {})) or 'none'}), got {horizon!r}")
