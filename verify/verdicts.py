"""The verdict vocabulary used everywhere (DESIGN.md section 5)."""

from __future__ import annotations

from enum import Enum


class Verdict(str, Enum):
    """PROVED > HOLDS > UNKNOWN; REFUTED needs a confirmed violation; FAILED is an engine error."""

    PROVED = "PROVED"  # a symbolic or interval certificate covers the whole stated domain
    HOLDS = "HOLDS"  # N cases checked, none violated beyond the numerical error bound
    REFUTED = "REFUTED"  # a confirmed counterexample beyond its error bound
    UNKNOWN = "UNKNOWN"  # not decided: budget, numerical trouble, assumptions never met
    FAILED = "FAILED"  # the engine errored

    def __str__(self) -> str:
        return self.value

    @property
    def passes(self) -> bool:
        """True only for PROVED and HOLDS: UNKNOWN is never shown as a pass."""
        return self in (Verdict.PROVED, Verdict.HOLDS)
