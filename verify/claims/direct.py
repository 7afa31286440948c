"""Claims decided by a direct procedure (symbolic proofs) rather than by search."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from verify.claims.model import Claim
from verify.verdicts import Verdict


@dataclass(frozen=True)
class DirectOutcome:
    """What a direct runner returns to :func:`verify.search.search`."""

    verdict: Verdict
    reason: str
    examples: int = 1
    min_margin: float = float("nan")
    counterexample: dict[str, Any] | None = None
    certificate: Any = None


def symbolic_claim(spec: Any, node: str | None = None, uses: tuple[str, ...] = ()) -> Claim:
    """Wrap a :class:`verify.symbolic.ClaimSpec` as a catalogue claim (tag "symbolic"),
    declaring the blueprint node it checks and the nodes it uses."""

    def runner(_: Claim) -> DirectOutcome:
        result = spec.run()
        doc = result.to_dict()
        cx = None
        if result.verdict == Verdict.REFUTED:
            cx = {"X": [], "y": [], "W0": [], "v0": [], "witness": doc.get("witness"),
                  "params": {"t_end": 0.0, "horizon": None, "domain": spec.domain},
                  "margin": None, "confirmed_margin": None, "note": "exact witness, re-checked by substitution"}
        return DirectOutcome(result.verdict, result.reason, counterexample=cx, certificate=doc.get("certificate"))

    return Claim(id=spec.id, source=spec.source, statement=f"{spec.statement} on {spec.domain}", check=lambda _: 0.0,
                 runner=runner, expected=spec.expected, tags=("symbolic",), node=node, uses=tuple(uses))
