"""Seed 003: Lyu, Li, Wang, Arora, "Gradient Descent on Two-layer Nets: Margin Maximization and Simplicity Bias"
(NeurIPS 2021), encoded from claim sheet 003 (``shared/claims/003-lyu-margin.md``), one module per part of the paper:

- :mod:`.symbolic`: the identities (I1)-(I3), G on symmetric data, the spectrum of M_mu~, T12, the embedding algebra,
  balancedness (sympy), with the printed readings of errata S-1, S-2, S-3 paired against the corrected ones;
- :mod:`.theorem42`: Theorem 4.2 (global max margin = ((1+alpha)/4) gamma_lin, linear maximisers), m = 1, and the
  non-symmetric D-S where the global max is nonlinear (S-10, found by optimisation);
- :mod:`.phase1`: Lemma 5.2 (Phase I alignment at T1(r)) and the early-phase function of C-Intro (c) (S-21);
- :mod:`.time_scale`: the escape time 1/lambda0 (erratum S-1, paired) and eqs. (2)-(3);
- :mod:`.embedding`: Lemmas 5.3 and 5.4 (exact embedding, coupling to the two-neuron flow);
- :mod:`.late_phase`: the late-phase readers (window, envelope trend, integrator gate, certificates) and Theorem 3.1;
- :mod:`.theorem43`: Theorem 4.3 / Corollary 4.4 as trend tests in t and across decades of sigma, the planted S-7
  (m = 1) and S-8 (bad draw);
- :mod:`.kkt_directions`: C-KKTsub (suboptimal KKT directions), S-10 on D-S, the S-8 control;
- :mod:`.theorem55`: Theorem 5.5 (two neurons; erratum S-3), the planted S-10 and the unbalanced start;
- :mod:`.theorem56`: Theorem 5.6 (local convergence near the embedded optimum);
- :mod:`.section6`: Definition 6.1 and balancedness / sign preservation (C-S6-bal);
- :mod:`.theorem62`: Theorem 6.2 (trends in sigma and t; S-9, S-11), the Section-6 intro, S-17;
- :mod:`.probability`: the good-event probabilities 1 - 2^(1-m) (Lemma 5.4 (ii)) and 1 - 2^-m (Theorem 6.2, S-4);
- :mod:`.branching`: Assumption 4.6's numerical proxy (two kink rules, event-located vs fixed-step) and S-14's
  planted branching start.

Data quantities are in :mod:`.quantities` (the paper's audit hook), the network's margins in :mod:`.network`, the
global max-margin optimisers in :mod:`.max_margin` and :mod:`.single_direction`, datasets in :mod:`.datasets`,
trajectory scenarios in :mod:`.scenarios`, experiments in :mod:`.experiments` (E1, E2, E6, E7 read the claims' own
checks through :mod:`.reading`). ``CLAIMS`` is collected from the modules, never listed by hand.
"""

from types import ModuleType

from verify.claims.collect import assemble
from verify.claims.model import Claim

from properties.lyu2021_margin import (branching, embedding, kkt_directions, late_phase, phase1, probability,
                                       section6, symbolic, teeth, theorem42, theorem43, theorem55, theorem56, theorem62,
                                       time_scale)

SECTIONS: tuple[ModuleType, ...] = (symbolic, theorem42, phase1, time_scale, embedding, late_phase, theorem43,
                                    kkt_directions, theorem55, theorem56, section6, theorem62, probability, branching)

CLAIMS: list[Claim] = assemble(SECTIONS)
teeth.attach(CLAIMS)
