"""How seed 003's experiments read a claim's check (E1, E2, E6, E7 call the catalogue's own check functions, so no
formula is written twice): a margin *holds* when it is a conclusive non-negative value (value >= 0, finite error, not
vacuous) and *refutes* when it is a violation beyond its error (value < -error, finite error, not vacuous); an
inconclusive margin (error inf, or -error <= value < 0) or a vacuous one does neither, so a check built on it fails.
"""

from __future__ import annotations

from verify.claims.model import Margin, inconclusive


def holds(margin: Margin | None) -> bool:
    """A conclusive non-negative margin: value >= 0 with a finite error, not vacuous."""
    return margin is not None and not margin.vacuous and not inconclusive(margin) and margin.value >= 0.0


def refutes(margin: Margin | None) -> bool:
    """A violation beyond the error: value < -error with a finite error, not vacuous."""
    return margin is not None and not margin.vacuous and not inconclusive(margin) and margin.value < -margin.error


def short(margin: Margin | None, width: int = 160) -> str:
    """The margin's value / error and the head of its note, for a check's detail."""
    if margin is None:
        return "no margin"
    note = margin.note if len(margin.note) <= width else margin.note[:width] + "..."
    return f"value {margin.value:.3g} (error {margin.error:.2g}{', vacuous' if margin.vacuous else ''}): {note}"
