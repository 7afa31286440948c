"""Seed 004: Min, Mallada & Vidal, "Early Neuron Alignment in Two-layer ReLU Networks with Small
Initialization" (ICLR 2024), encoded from claim sheet 004, one module per part of the sheet, in its order:

- 2.A invariants and sign structure: :mod:`.invariants` (EA-A1..A3), :mod:`.activation_patterns` (EA-A4..A6);
- 2.B loss lemmas: :mod:`.loss_lemmas` (EA-B1..B4);
- 2.C small-init approximation: :mod:`.small_init` (EA-C1..C4, also at the paper's own eps);
- 2.D conic geometry: :mod:`.conic_geometry` (EA-D1..D7);
- 2.E alignment phase: :mod:`.alignment_phase` (EA-E1..E5, erratum R9), :mod:`.theorem1_part1` (EA-E6, E7,
  errata R8 and n = 1);
- 2.F final convergence: :mod:`.final_convergence` (EA-F1..F6);
- 2.G low-rank bias: :mod:`.low_rank` (EA-G1..G4);
- 2.H existence / no Zeno: :mod:`.existence` (EA-H1..H5), :mod:`.irregular_solutions` (E.4's solution (47), EA-H6);
- 2.I prose claims: :mod:`.prose` (EA-I1, I2);
- section 6 (S1-S15): :mod:`.symbolic`, symbolic proofs and exact refutations.

Planted counterexamples (sheet section 5, P1-P14) sit beside the claim they break and are expected
REFUTED; negative controls are expected to HOLD; errata (section 7) are paired claims (as printed vs
corrected). :mod:`._shared`, :mod:`.preconditions` and :mod:`.theorem_scale` hold what several parts
share; :mod:`.blueprint` the paper's lemma graph, :mod:`.paper` the plug-in. ``CLAIMS`` is collected
from the modules (:func:`collect`), never listed by hand.
"""

from types import ModuleType

from verify.claims.model import Claim

from properties.min2024_early_alignment import (
    activation_patterns,
    alignment_phase,
    conic_geometry,
    existence,
    final_convergence,
    invariants,
    irregular_solutions,
    loss_lemmas,
    low_rank,
    prose,
    small_init,
    symbolic,
    theorem1_part1,
)

SECTIONS: tuple[ModuleType, ...] = (
    invariants, activation_patterns, loss_lemmas, small_init, conic_geometry, alignment_phase, theorem1_part1,
    final_convergence, low_rank, existence, irregular_solutions, prose, symbolic,
)


def collect(module: ModuleType) -> list[Claim]:
    """The claims ``module`` defines, in definition order: every module-level :class:`Claim` and every
    claim in a module-level list or tuple (claims built in a loop), each once."""
    found: dict[int, Claim] = {}
    for value in vars(module).values():
        for item in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(item, Claim):
                found.setdefault(id(item), item)
    return list(found.values())


def assemble(modules: tuple[ModuleType, ...]) -> list[Claim]:
    """The claims of ``modules`` in their order, each module's by :func:`collect`; a claim found in two
    modules (one imports it from the other) is an error, so every claim is listed once, where it is defined."""
    owner: dict[int, str] = {}
    claims: list[Claim] = []
    for module in modules:
        for claim in collect(module):
            if id(claim) in owner:
                raise ValueError(f"claim {claim.id} is found in {owner[id(claim)]} and in {module.__name__}: "
                                 "import modules, not claims")
            owner[id(claim)] = module.__name__
            claims.append(claim)
    return claims


CLAIMS: list[Claim] = assemble(SECTIONS)
