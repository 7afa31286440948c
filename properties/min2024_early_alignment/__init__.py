"""Seed 004: Min, Mallada & Vidal, "Early Neuron Alignment in Two-layer ReLU Networks with Small
Initialization" (ICLR 2024), encoded from claim sheet 004, section by section:

- :mod:`.sections_a_d` -- 2.A invariants and sign structure, 2.B loss lemmas, 2.C small-init
  approximation (Lemmas 1, 3, 4, also at the paper's own eps), 2.D conic geometry;
- :mod:`.theorem1` -- 2.E alignment phase, 2.F final convergence, 2.G low-rank bias,
  2.H existence / no Zeno, with the errata R8, R9 and n = 1 as paired claims;
- :mod:`.symbolic` -- section 6 (S1-S15): symbolic proofs and exact refutations.

Planted counterexamples (sheet section 5, P1-P14) sit beside the claim they break and are
expected REFUTED; negative controls are expected to HOLD.
"""

from verify.claims.model import Claim

from properties.min2024_early_alignment.sections_a_d import SECTIONS_A_D
from properties.min2024_early_alignment.symbolic import CLAIMS_SYMBOLIC
from properties.min2024_early_alignment.theorem1 import CLAIMS_THEOREM1

CLAIMS: list[Claim] = [*SECTIONS_A_D, *CLAIMS_THEOREM1, *CLAIMS_SYMBOLIC]
