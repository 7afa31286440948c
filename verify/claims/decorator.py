"""``@verify.claim``: turn a function ``run -> margin`` into a :class:`Claim` (a user claim)."""

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
    """Make a function ``run -> margin`` a :class:`verify.Claim` that ``verify search``, ``verify check FILE.py``
    and the pytest plugin run.

    Arguments:
        id -- a non-empty string, unique among the claims you run (it names the report row and the pytest item).
        over -- the scenarios to search: a strategy made by :func:`verify.scenarios.scenario` (see its
            docstring for every family and range). Restrict it with ``precondition=``, not ``.filter``.
        horizon -- how long to simulate each scenario: a positive number (the run's t_end), the name of a
            horizon an installed paper defines (the built-in papers define "t1", the alignment-time bound of the
            drawn data and init), or a callable ``(scenario, audit) -> float``. A horizon that comes out undefined or <= 0
            for a scenario makes that example vacuous; horizons above 1e12 are cut to 1e12.
        source -- where the claim comes from: the paper's seed number and its item (default "user").
        statement -- the claim in words (default: the function's docstring, else the id).
        expected -- the verdict you expect: "HOLDS" (default; PROVED also counts), or "REFUTED" for a planted
            false claim (the search must then find a confirmed counterexample).
        **options -- other :class:`verify.Claim` fields: ``precondition`` (``run -> True`` to keep an example,
            or False / a reason string to make it vacuous: never evidence), ``rtol`` (the integrator's relative
            tolerance, default 1e-10), ``samples`` (sample times, default 64), ``spacing`` ("mixed": half
            uniform, half geometric; "log": geometric from 1e-3, for long horizons), ``backend`` ("events"
            float64 exact GF, "mp" high precision, "gd" with a scenario step), ``min_examples`` (fewer valid
            examples is UNKNOWN), ``assumptions`` / ``assumed`` (hypotheses checked / taken on trust, shown in
            the report), ``node`` / ``uses`` (blueprint lemma ids), ``tags``, ``meta``.

    The function receives a :class:`verify.Run`: ``run.X`` (n, d), ``run.y`` (n,), ``run.W0`` (h, d),
    ``run.v0`` (h,), ``run.times`` (k,), ``run.W`` (k, h, d), ``run.v`` (k, h), ``run.events``, ``run.params``,
    ``run.audit`` (see ``help(verify.Run)``). It returns:
        True / False -- holds / violated (margin +1 / -1, error 0);
        a number -- the signed margin: >= 0 holds, < 0 violated (e.g. bound - measured);
        ``verify.Margin(value, error, note=..., ratio=..., site=...)`` -- a margin with the error bound of its own
            computation (value < -error is a violation; -error <= value < 0 never refutes; an infinite error is
            inconclusive); for a bound, ``ratio`` = measured / bound, which the search pushes toward 1
            and the report shows as the bound's slack; ``site`` = {"t": time, "j": neuron, "i": data point}
            (any of them), where the violation sits, which the counterexample's plot marks.
    Say what the margin measures with ``@verify.measures("...")`` above the function (under ``@verify.claim``) or
    ``meta={"margin_unit": "..."}``: the report prints it beside the smallest margin.
    Anything else (None, NaN, a string, a negative error) makes the example FAILED. A violation counts only
    after a rerun at 1000x tighter tolerance and at 30 digits (mp backend) confirms it.

    Example::

        import numpy as np
        import verify
        from verify.scenarios import scenario

        @verify.claim(id="balanced-stays-balanced", over=scenario(n=(2, 6), h=(1, 4)), horizon=20.0,
                      source="user: balancedness")
        def balancedness(run):
            \"\"\"v_j^2 - ||w_j||^2 is constant along the flow.\"\"\"
            drift = np.abs(run.v**2 - np.sum(run.W**2, axis=2) - (run.v0**2 - np.sum(run.W0**2, axis=1)))
            return verify.Margin(-float(drift.max()), error=1e-9 * float(np.max(run.v**2)))
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
