"""Claims: executable statements of a paper, each returning a signed margin (>= 0: holds).

A :class:`Claim` quantifies over a scenario strategy (``over``) and a horizon; its ``check``
receives a :class:`Run` and returns a float margin or a :class:`Margin` carrying its own
error estimate. ``precondition`` filters scenarios where the claim's hypotheses fail (such
examples are *vacuous*, never counted as evidence). ``expected`` says which verdict the
catalogue expects: a planted counterexample expects REFUTED.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from hypothesis import strategies as st

from verify.verdicts import Verdict

Horizon = float | str | Callable[[Any], float] | None


@dataclass(frozen=True)
class Margin:
    """A signed margin (>= 0: the claim holds) with the error bound of the computation behind it.

    ``value < -error`` is a violation beyond the error estimate (a candidate counterexample);
    ``-error <= value < 0`` is inconclusive and never refutes. ``vacuous`` marks a run whose
    hypotheses turned out false (e.g. the claim's premise never triggered).
    """

    value: float
    error: float = 0.0
    note: str = ""
    vacuous: bool = False


@dataclass(frozen=True, eq=False)
class Claim:
    """One executable claim with its provenance."""

    id: str
    source: str  # seed file number and item, e.g. "004 Lemma 12"
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
    backend: str = "events"
    form: str | None = None  # "cartesian" | "polar" | None (automatic)
    tags: tuple[str, ...] = ()
    min_examples: int = 1  # fewer valid (non-vacuous) examples gives UNKNOWN
    runner: Callable[[Any], Any] | None = None  # a direct decision procedure (e.g. symbolic), bypasses search
    depends_on: tuple[str, ...] = ()
    node: str | None = None  # the blueprint node (lemma, theorem, equation) this claim checks, e.g. "L12"
    uses: tuple[str, ...] = ()  # the blueprint nodes its statement relies on, e.g. ("L10", "L11")
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The catalogue entry as the report shows it."""
        return {
            "id": self.id,
            "source": self.source,
            "statement": self.statement,
            "assumptions": {"checked": list(self.assumptions), "assumed": list(self.assumed)},
            "expected": str(self.expected),
            "horizon": self.horizon if isinstance(self.horizon, (int, float, str)) or self.horizon is None else "computed",
            "backend": self.backend,
            "rtol": self.rtol,
            "tags": list(self.tags),
            "depends_on": list(self.depends_on),
            "node": self.node,
            "uses": list(self.uses),
        }


def as_margin(value: float | Margin) -> Margin:
    """Normalise a check's return value; NaN or non-numbers become a failing engine error."""
    if isinstance(value, Margin):
        margin = value
    else:
        margin = Margin(float(value))
    if np.isnan(margin.value) or np.isnan(margin.error):
        raise ValueError("the claim's check returned NaN")
    return margin
