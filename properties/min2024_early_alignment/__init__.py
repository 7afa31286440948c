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
- section 6 (S1-S15): :mod:`.symbolic`, symbolic proofs and exact refutations;
- engine cross-checks (polar outputs and field, loss derivatives): :mod:`.engine_checks`.

Planted counterexamples (sheet section 5, P1-P14) sit beside the claim they break and are expected
REFUTED; negative controls are expected to HOLD; errata (section 7) are paired claims (as printed vs
corrected). :mod:`._shared`, :mod:`.preconditions` and :mod:`.theorem_scale` hold what several parts
share; :mod:`.blueprint` the paper's lemma graph, :mod:`.paper` the plug-in, :mod:`.teeth` which planted
scenarios and engine mutants break each claim. ``CLAIMS`` is collected from the modules
(:func:`verify.claims.collect.collect`), never listed by hand.
"""

from types import ModuleType

from verify.claims.collect import assemble
from verify.claims.model import Claim

from properties.min2024_early_alignment import (
    activation_patterns,
    alignment_phase,
    conic_geometry,
    engine_checks,
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
from properties.min2024_early_alignment import teeth

SECTIONS: tuple[ModuleType, ...] = (
    invariants, activation_patterns, loss_lemmas, small_init, conic_geometry, alignment_phase, theorem1_part1,
    final_convergence, low_rank, existence, irregular_solutions, prose, symbolic, engine_checks,
)


CLAIMS: list[Claim] = assemble(SECTIONS)
teeth.attach(CLAIMS)
