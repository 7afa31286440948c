"""Seed 000: Phuong & Lampert, "The Inductive Bias of ReLU Networks on Orthogonally Separable Data" (ICLR 2021),
encoded from claim sheet 000 (``shared/claims/000-phuong-lampert.md``), one module per part of the paper:

- :mod:`.definitions`: eq. (1) and its consequences (PL-D1 (b), (c)), the span assumption (PL-A-SPAN);
- :mod:`.lemma2`: Lemma 2 (PL-L2, exact arcs in d = 2, the general-loss reading), PL-X3, the proof-step gap,
  planted PC1, PC2 and the control PC12;
- :mod:`.lemma_a12`: Lemmas A.1 and A.2 (exact rationals), the closed-endpoint reading of (37) (erratum);
- :mod:`.lemma_c1`: Lemma C.1 on the audit's max-margin solutions, planted PC2;
- :mod:`.symbolic`: the sympy encodings of sheet section 6 (LA4, X4, LC1, eq. (21)) and the A.4 growth erratum;
- :mod:`.lemma_a4`: Lemma A.4 along GF (balancedness, sign preservation, growth), PL-X8, planted PC4;
- :mod:`.cone`: PL-X1, PL-X2, Lemma B.1, Lemma 3, PL-X7 read from the sampled states, planted PC1, PC2, PC4, PC9;
- :mod:`.decoupling`: PL-P1, PL-P2 (the two linear blocks after T^), planted PC2;
- :mod:`.probability`: PL-P6 (1 - 2^-p) as a statistical test, its deterministic part, planted PC4, PC6;
- :mod:`.theorem1`: Theorem 1 at t -> inf as trend tests to t = 1e12 (PL-T1 (i)-(iii), groups), PC3, PC5, PC8;
- :mod:`.limits`: Corollary 1 and the limits of the proof (PL-P3-P5, P7-P9, X5, X6).

Data quantities are in :mod:`.audit` (the paper's audit hook), the paper's objects (G, g, m+-, sigma+-,
extremal directions) in :mod:`.sectors`, datasets and case strategies in :mod:`.datasets`, which engine mutants
each claim catches in :mod:`.teeth`. ``CLAIMS`` is
collected from the modules, never listed by hand.
"""

from types import ModuleType

from verify.claims.collect import assemble
from verify.claims.model import Claim

from properties.phuong_lampert2021 import (cone, decoupling, definitions, lemma1, lemma2, lemma_a3, lemma_a4, lemma_a12,
                                           lemma_c1, limits, polynomial_loss, probability, symbolic, teeth, theorem1)

SECTIONS: tuple[ModuleType, ...] = (definitions, lemma2, lemma_a12, lemma_c1, symbolic, lemma_a3, lemma_a4, cone, lemma1,
                                    decoupling, probability, theorem1, limits, polynomial_loss)

CLAIMS: list[Claim] = assemble(SECTIONS)
teeth.attach(CLAIMS)
