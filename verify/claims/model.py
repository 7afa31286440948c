"""Claims: executable statements of a paper, each returning a signed margin (>= 0: holds).

A :class:`Claim` quantifies over a scenario strategy (``over``) and a horizon; its ``check``
receives a :class:`Run` and returns a float margin or a :class:`Margin` carrying its own
error estimate. ``precondition`` filters scenarios where the claim's hypotheses fail (such
examples are *vacuous*, never counted as evidence). ``expected`` says which verdict the
catalogue expects: a planted counterexample expects REFUTED.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

import numpy as np
from hypothesis import strategies as st

from verify.errors import InputError, VerifyError
from verify.verdicts import Verdict

Horizon = float | str | Callable[[Any], float] | None


@dataclass(frozen=True)
class Margin:
    """A signed margin (>= 0: the claim holds) with the error bound of the computation behind it.

    ``value < -error`` is a violation beyond the error estimate (a candidate counterexample);
    ``-error <= value < 0`` is inconclusive and never refutes. ``vacuous`` marks a run whose
    hypotheses turned out false (e.g. the claim's premise never triggered). ``ratio``: for a bound claim,
    measured / bound (a finite number >= 0; <= 1 where the bound holds): the search targets it and reports
    the largest found as the claim's ``slack``, so the report says how tight the bound is where it was checked.
    ``site``: where the margin is attained, any of ``t`` (time), ``j`` (neuron), ``i`` (data point); a counterexample
    records it and its plot marks that neuron / pair and time.
    """

    value: float
    error: float = 0.0
    note: str = ""
    vacuous: bool = False
    ratio: float | None = None  # bound claims: measured / bound (<= 1 holds); the search reports its largest as slack
    site: dict[str, float | int] | None = None  # where the margin is attained: t, j (neuron), i (data point)


@dataclass(frozen=True, eq=False)
class Claim:
    """One executable claim with its provenance."""

    id: str
    source: str  # seed file number and item, e.g. "<seed> Lemma <k>"
    statement: str
    check: Callable[[Any], float | Margin]
    over: st.SearchStrategy[Any] | None = None
    horizon: Horizon = None  # None: pointwise (no simulation); float; "t1"; or callable(run-less scenario)
    assumptions: tuple[str, ...] = ()  # hypotheses the tool checks on every example
    assumed: tuple[str, ...] = ()  # hypotheses taken on trust (not checked)
    precondition: Callable[[Any], bool | str] | None = None
    expected: Verdict = Verdict.HOLDS
    rtol: float = 1e-10
    samples: int = 64  # sampled times along the trajectory
    spacing: str = "mixed"  # sample times: "mixed" (half uniform, half geometric) or "log" (geometric from 1e-3)
    backend: str = "events"
    form: str | None = None  # "cartesian" | "polar" | None (automatic)
    tags: tuple[str, ...] = ()
    min_examples: int = 1  # fewer valid (non-vacuous) examples gives UNKNOWN
    runner: Callable[[Any], Any] | None = None  # a direct decision procedure (e.g. symbolic), bypasses search
    depends_on: tuple[str, ...] = ()
    node: str | None = None  # the blueprint node (lemma, theorem, equation) this claim checks, e.g. "L12"
    uses: tuple[str, ...] = ()  # the blueprint nodes its statement relies on, e.g. ("L10", "L11")
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def margin_unit(self) -> str | None:
        """What the claim's margin measures: ``meta["margin_unit"]``, else what its check (or runner) declares
        with :func:`measures`; None when neither says."""
        declared = self.meta.get("margin_unit")
        if declared:
            return str(declared)
        for fn in (self.runner, self.check):
            unit = getattr(fn, "margin_unit", None)
            if unit:
                return str(unit)
        return None

    def to_dict(self) -> dict[str, Any]:
        """The catalogue entry as the report shows it (a claim loaded from a user's file adds ``file``)."""
        entry = {
            "id": self.id,
            "source": self.source,
            "statement": self.statement,
            "assumptions": {"checked": list(self.assumptions), "assumed": list(self.assumed)},
            "expected": str(self.expected),
            "horizon": self.horizon if isinstance(self.horizon, (int, float, str)) or self.horizon is None else "computed",
            "backend": self.backend,
            "rtol": self.rtol,
            "spacing": self.spacing,
            "tags": list(self.tags),
            "depends_on": list(self.depends_on),
            "node": self.node,
            "uses": list(self.uses),
        }
        if "file" in self.meta:
            from verify.claims.registry import display_path  # local: the registry imports this module

            entry["file"] = display_path(self.meta["file"])
        return entry


class ClaimResultError(VerifyError, TypeError):
    """A claim's check returned something that is not a margin: that example is FAILED."""


def as_margin(value: Any, claim_id: str = "?") -> Margin:
    """A check's result as a :class:`Margin` (DESIGN.md section 6, "User claims are first-class").

    ``True`` holds (margin +1), ``False`` is a violation (margin -1, error 0), a real number is the
    margin itself (+-inf allowed), a :class:`Margin` is taken as is. Anything else -- None, a
    string, NaN, a Margin with a NaN or negative error -- raises :class:`ClaimResultError` naming
    the claim. A Margin with an infinite error is valid and inconclusive (see :func:`inconclusive`).
    """
    if isinstance(value, (bool, np.bool_)):
        return Margin(1.0 if value else -1.0, note="the check returned a bool")
    if isinstance(value, Margin):
        margin = value
    elif isinstance(value, numbers.Real):
        margin = Margin(float(value))
    else:
        raise ClaimResultError(f"claim {claim_id}: the check returned {type(value).__name__} {value!r:.60}, "
                               f"not a bool, a number or a verify.Margin")
    if not isinstance(margin.value, numbers.Real) or not isinstance(margin.error, numbers.Real):
        raise ClaimResultError(f"claim {claim_id}: Margin value and error must be numbers, got {margin.value!r:.40} "
                               f"and {margin.error!r:.40}")
    if math.isnan(margin.value):
        raise ClaimResultError(f"claim {claim_id}: the check returned a NaN margin")
    if math.isnan(margin.error) or margin.error < 0.0:
        raise ClaimResultError(f"claim {claim_id}: the margin's error must be >= 0, got {margin.error}")
    if margin.site is not None and not _valid_site(margin.site):
        raise ClaimResultError(f"claim {claim_id}: the margin's site must be a dict of t (a finite time), j, i "
                               f"(indices >= 0), got {margin.site!r:.60}")
    if margin.ratio is not None and not (isinstance(margin.ratio, numbers.Real) and margin.ratio >= 0.0):
        raise ClaimResultError(f"claim {claim_id}: the margin's ratio (measured / bound) must be a number >= 0, "
                               f"got {margin.ratio!r:.40}")
    return margin


def _valid_site(site: Any) -> bool:
    if not isinstance(site, dict) or not set(site) <= {"t", "i", "j"}:
        return False
    t = site.get("t", 0.0)
    indices = [site[k] for k in ("i", "j") if k in site]
    return (isinstance(t, numbers.Real) and not isinstance(t, bool) and math.isfinite(t)
            and all(isinstance(k, numbers.Integral) and not isinstance(k, bool) and k >= 0 for k in indices))


F = TypeVar("F", bound=Callable[..., Any])


def measures(unit: str) -> Callable[[F], F]:
    """Declare what a check's (or runner's) margin measures, e.g. ``@measures("relative drift of v_j^2 - ||w_j||^2
    (dimensionless)")``: every claim built on the function shows it as its margin unit in the report (a claim's own
    ``meta["margin_unit"]`` takes precedence)."""
    if not isinstance(unit, str) or not unit.strip():
        raise InputError(f"measures() needs a non-empty description of the margin, got {unit!r:.60}")

    def mark(fn: F) -> F:
        if isinstance(fn, Claim):  # written above @verify.claim: the claim's own metadata
            fn.meta["margin_unit"] = unit.strip()
        else:
            fn.margin_unit = unit.strip()  # type: ignore[attr-defined]
        return fn

    return mark


def worst(parts: list[Margin], empty: str = "nothing to check") -> Margin:
    """The part that decides a check testing several things: a violation (value < -error; the one with the least
    value + error) before an inconclusive part (infinite error: a check cannot pass while one of its parts says
    nothing) before the part closest to a violation (min of value + error); a vacuous margin when there is none."""
    if not parts:
        return Margin(0.0, 0.0, empty, vacuous=True)
    unsure = [m for m in parts if inconclusive(m)]
    decided = [m for m in parts if not inconclusive(m)]
    if unsure and not any(m.value < -m.error for m in decided):
        return min(unsure, key=lambda m: m.value)
    return min(decided, key=lambda m: m.value + m.error)


def exact_margin(ok: bool, note: str) -> Margin:
    """A margin decided in exact arithmetic: +1 (holds) or -1 (violated), error 0."""
    return Margin(1.0 if ok else -1.0, 0.0, note)


def inconclusive(margin: Margin) -> bool:
    """An infinite error bound: the margin says nothing either way (never HOLDS, never REFUTED)."""
    return math.isinf(margin.error)


def violated(margin: Margin) -> bool:
    """A violation beyond the error estimate, value < -error, of a margin that is not vacuous: a candidate
    counterexample (an infinite error never is one)."""
    return not margin.vacuous and margin.value < -margin.error


def held(margin: Margin) -> bool:
    """Holds as a verdict reads it: not vacuous, not inconclusive, and value >= -error (a shortfall within the error
    estimate never refutes)."""
    return not margin.vacuous and not inconclusive(margin) and margin.value >= -margin.error
