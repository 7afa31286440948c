"""Seed 002: Sarussi, Brutzkus, Globerson, "Towards Understanding Learning in Neural Networks with Linear Teachers"
(ICML 2021), encoded from claim sheet 002 (``shared/claims/002-linear-teachers.md``), one module per part of the paper:

- :mod:`.symbolic`: the logistic-loss facts l1-l7, the Lyu-Li assumptions (B3) for the logistic loss, the kernel of
  QP (8), the leaky-ReLU identities (sympy);
- :mod:`.sgd_update`: the SGD update (eq. (4), LT-D4) read step by step, LT-X6; :mod:`.theorem41`: Theorem 4.1 (SGD
  reaches L_S < eps within M(eps)); :mod:`.appendix_b`: its per-step inequalities (App. B, Eqs. 14-24);
- :mod:`.theorem51`: Theorem 5.1, the sharp constant LT-X51, Corollary 6.1; :mod:`.appendix_c`: its lemmas; both in
  exact rational arithmetic (:mod:`.exact_network`);
- :mod:`.linearity`: Section 5's prose and Appendix D.1 (the output is not linear, ReLU fails, +- clusters needed);
- :mod:`.theorem61`: the NAR conservation law LT-X1, Theorem 6.1 and Corollary 6.2 on GF / GD runs; :mod:`.lyu_li`:
  Assumption 6.1 / (B4), the monotone smoothed margin (P12) and LT-X6 / LT-X7 along GF (runs read by
  :mod:`.flow_runs`);
- :mod:`.lemma61`: Lemma 6.1 and the static LT-X3..X5 with the QP (8); :mod:`.theorem62`: Theorem 6.2 on runs;
- :mod:`.appendix_e`: Appendix E (Lyu-Li / Ji-Telgarsky assumptions); :mod:`.derived`: the derived facts of sheet
  2.8; :mod:`.appendix_k`: the bias extension.

The network and its per-W quantities are in :mod:`.network`, the data quantities (the paper's audit hook) in
:mod:`.quantities`, datasets in :mod:`.datasets`, scenarios (SGD / GD / GF of the fixed-layer model) in
:mod:`.scenarios`, the experiments (Figures 1-9) in :mod:`.experiments` with :mod:`.training`, :mod:`.figure_runs` and
:mod:`.mnist_runs`. ``CLAIMS`` is collected from the modules, never listed by hand.
"""

from types import ModuleType

from verify.claims.collect import assemble
from verify.claims.model import Claim

from properties.sarussi2021_linear_teachers import (appendix_b, appendix_c, appendix_e, appendix_k, derived, lemma61,
                                                    linearity, lyu_li, sgd_update, symbolic, teeth, theorem41,
                                                    theorem51, theorem61, theorem62)

SECTIONS: tuple[ModuleType, ...] = (symbolic, sgd_update, theorem41, appendix_b, theorem51, appendix_c, linearity, theorem61,
                                    lyu_li, lemma61, theorem62, appendix_e, derived, appendix_k)

CLAIMS: list[Claim] = assemble(SECTIONS)
teeth.attach(CLAIMS)
