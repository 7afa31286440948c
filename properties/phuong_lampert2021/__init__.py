"""Seed 000: Phuong & Lampert, "The Inductive Bias of ReLU Networks on Orthogonally Separable Data" (ICLR 2021),
encoded from claim sheet 000 (``shared/claims/000-phuong-lampert.md``), one module per part of the paper:

- :mod:`.definitions`: eq. (1) and its consequences (PL-D1 (b), (c)), the span assumption (PL-A-SPAN);
- :mod:`.lemma2`: Lemma 2 (PL-L2, exact arcs in d = 2, the general-loss reading), PL-X3, the proof-step gap,
  planted PC1, PC2 and the control PC12;
- :mod:`.lemma_a12`: Lemmas A.1 and A.2 (exact rationals), the closed-endpoint reading of (37) (erratum);
- :mod:`.lemma_c1`: Lemma C.1 on the audit's max-margin solutions, planted PC2;
- :mod:`.symbolic`: the sympy encodings of sheet section 6 (LA4, X4, LC1, eq. (21)) and the A.4 growth erratum.

Data quantities are in :mod:`.audit` (the paper's audit hook), the paper's objects (G, g, m+-, sigma+-,
extremal directions) in :mod:`.sectors`, datasets and case strategies in :mod:`.datasets`. ``CLAIMS`` is
collected from the modules, never listed by hand. Trajectory claims (Theorem 1, Lemmas 1, 3, B.1, A.3, A.4
along GF, PL-X1/X2/X5-X8, PL-P*) are the next step of issue 14.
"""

from types import ModuleType

from verify.claims.collect import assemble
from verify.claims.model import Claim

from properties.phuong_lampert2021 import definitions, lemma2, lemma_a12, lemma_c1, symbolic

SECTIONS: tuple[ModuleType, ...] = (definitions, lemma2, lemma_a12, lemma_c1, symbolic)

CLAIMS: list[Claim] = assemble(SECTIONS)
