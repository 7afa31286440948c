"""``@verify.claim``: turn a function ``run -> margin`` into a :class:`Claim` (DESIGN.md section 6)."""

from __future__ import annotations

from typing import Any, Callable

from hypothesis import strategies as st

from verify.claims.model import Claim, Horizon, Margin
from verify.errors import InputError
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
    """Decorator for user claims; the function receives the run and returns a signed margin (>= 0 holds)."""
    if not isinstance(id, str) or not id:
        raise InputError("a claim needs a non-empty string id")
    if not isinstance(over, st.SearchStrategy):
        raise InputError(f"claim {id!r}: 'over' must be a Hypothesis strategy such as verify.scenarios.scenario(...)")
    try:
        wanted = Verdict(str(expected))
    except ValueError:
        raise InputError(f"claim {id!r}: unknown expected verdict {expected!r}") from None

    def wrap(fn: Callable[[Any], float | Margin]) -> Claim:
        text = statement or (fn.__doc__ or "").strip() or id
        return Claim(id=id, source=source or "user", statement=text, check=fn, over=over, horizon=horizon,
                     expected=wanted, **options)

    return wrap
