"""The result of one symbolic check, and the constructors that enforce the verdict rules.

Rules (DESIGN.md section 5): PROVED needs a certificate covering the whole stated domain;
REFUTED needs an exact witness (rational or algebraic point) that re-checks by exact
substitution (:func:`verify.symbolic.witness.recheck_witness`); HOLDS is for statements over
an integer index checked on a finite range only; everything else is UNKNOWN with a reason.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

import sympy as sp

from verify.verdicts import Verdict
from verify.symbolic.witness import recheck_witness


def _jsonable(value: Any) -> Any:
    """Convert sympy / Fraction / mpmath values inside certificates to JSON-friendly data."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, Verdict):
        return value.value
    if isinstance(value, (Fraction, sp.Basic)):
        return str(value)
    return str(value)


@dataclass(frozen=True)
class SymbolicResult:
    """Outcome of one symbolic claim: verdict plus the evidence that justifies it."""

    id: str
    verdict: Verdict
    statement: str
    domain: str
    certificate: dict | list | None
    witness: dict | None
    reason: str
    source: str
    seconds: float = field(default=0.0, compare=False)

    def __post_init__(self) -> None:
        if self.verdict is Verdict.PROVED and not self.certificate:
            raise ValueError(f"{self.id}: PROVED needs a certificate")
        if self.verdict is Verdict.REFUTED and not self.witness:
            raise ValueError(f"{self.id}: REFUTED needs a witness")
        if self.verdict is Verdict.HOLDS and not self.certificate:
            raise ValueError(f"{self.id}: HOLDS needs the checked range in its certificate")

    def to_dict(self) -> dict:
        """A JSON-serialisable dictionary (exact numbers as strings)."""
        return {
            "id": self.id,
            "verdict": self.verdict.value,
            "statement": self.statement,
            "domain": self.domain,
            "certificate": _jsonable(self.certificate),
            "witness": _jsonable(self.witness),
            "reason": self.reason,
            "source": self.source,
            "seconds": round(self.seconds, 4),
        }

    def with_seconds(self, seconds: float) -> "SymbolicResult":
        """A copy carrying the measured run time."""
        return SymbolicResult(
            self.id, self.verdict, self.statement, self.domain, self.certificate,
            self.witness, self.reason, self.source, seconds,
        )


@dataclass(frozen=True)
class Claim:
    """What a check is about: id, source, statement and domain (shared by all outcomes)."""

    id: str
    statement: str
    domain: str
    source: str


def proved(claim: Claim, certificate: dict | list, reason: str) -> SymbolicResult:
    """PROVED with a certificate covering ``claim.domain``."""
    return SymbolicResult(claim.id, Verdict.PROVED, claim.statement, claim.domain,
                          certificate, None, reason, claim.source)


def holds(claim: Claim, certificate: dict | list, reason: str) -> SymbolicResult:
    """HOLDS: checked exactly on a finite part of an integer-indexed domain (stated in reason)."""
    return SymbolicResult(claim.id, Verdict.HOLDS, claim.statement, claim.domain,
                          certificate, None, reason, claim.source)


def unknown(claim: Claim, reason: str, certificate: dict | list | None = None) -> SymbolicResult:
    """UNKNOWN: undecided (budget, no method applied); partial evidence may be attached."""
    return SymbolicResult(claim.id, Verdict.UNKNOWN, claim.statement, claim.domain,
                          certificate, None, reason, claim.source)


def refuted(claim: Claim, witness: dict, reason: str) -> SymbolicResult:
    """REFUTED, but only after ``recheck_witness`` confirms the violation exactly.

    If the witness does not re-check, the result is UNKNOWN with the reason, never REFUTED.
    """
    ok, detail = recheck_witness(witness)
    if not ok:
        return unknown(claim, f"candidate counterexample did not re-check exactly: {detail}")
    checked = dict(witness)
    checked["recheck"] = detail
    return SymbolicResult(claim.id, Verdict.REFUTED, claim.statement, claim.domain,
                          None, checked, reason, claim.source)


@dataclass(frozen=True)
class ClaimSpec:
    """One registry entry: texts, expected verdict, and the check that decides it."""

    id: str
    source: str
    statement: str
    domain: str
    expected: Verdict
    check: Callable[[Claim], SymbolicResult]

    @property
    def claim(self) -> Claim:
        """The claim texts handed to the check."""
        return Claim(self.id, self.statement, self.domain, self.source)

    def run(self) -> SymbolicResult:
        """Run the check; engine exceptions become FAILED results (never a bare traceback)."""
        start = time.perf_counter()
        try:
            result = self.check(self.claim)
        except Exception as exc:  # noqa: BLE001 - reported as the FAILED verdict
            result = SymbolicResult(self.id, Verdict.FAILED, self.statement, self.domain, None, None,
                                    f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}", self.source)
        return result.with_seconds(time.perf_counter() - start)
