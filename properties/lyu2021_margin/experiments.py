"""Seed 003's experiments. The paper reports none besides Figure 1 (three 2-D illustrations whose data are in Appendix
I.1, not in the seed: not reproduced, every summary says so); these are the claim sheet's substitute suite
(section 3.4) on the exact gradient flow, checked against the sheet's stated outcomes:

- ``003-e1-global-margin`` (E1, Theorem 4.2: the bound, the optimum per width, m = 1): :mod:`.e1_global_margin`;
- ``003-e2-time-scale`` (E2, Lemmas 5.2 / 5.4: t_hit against ln(1/sigma), E(r), O(sigma) coupling):
  :mod:`.e2_time_scale`;
- ``003-e3-plateaus`` (E3, Theorem 4.3 / Corollary 4.4), ``003-e4-two-neurons`` (E4, Theorem 5.5 and the planted
  D-S), ``003-e8-large-init`` (E8, exploratory): :mod:`.margin_runs`;
- ``003-e5-fragility`` (E5, Theorem 6.2 on hinted data, with its phase diagram): :mod:`.fragility_runs`;
- ``003-e6-local-convergence`` (E6, Theorem 5.6 from the perturbed optimum): :mod:`.e6_local_convergence`;
- ``003-e7-planted`` (E7, the planted fixtures of sheet section 5: flagged, never a theorem violation):
  :mod:`.e7_planted`.

E1, E2, E6 and E7 decide their outcomes with the catalogue claims' own check functions (:mod:`.reading`).

The paper gives no optimiser or step size, so there is no "paper's GD" to compare with: every run is the exact
event-driven flow of the mean logistic loss (engine time = paper time / n).
"""

from verify.reproduce import Experiment

from properties.lyu2021_margin.e1_global_margin import e1_global_margin
from properties.lyu2021_margin.e2_time_scale import e2_time_scale
from properties.lyu2021_margin.e6_local_convergence import e6_local_convergence
from properties.lyu2021_margin.e7_planted import e7_planted
from properties.lyu2021_margin.fragility_runs import e5_fragility
from properties.lyu2021_margin.margin_runs import e3_plateaus, e4_two_neurons, e8_large_init

EXPERIMENTS = (
    Experiment("003-e1-global-margin", "E1: gamma <= ((1+alpha)/4) gamma_lin, the optimum per width, m = 1 (Thm 4.2)",
               e1_global_margin, "003 Theorem 4.2; sheet 3.4 E1"),
    Experiment("003-e2-time-scale", "E2: escape time slope 1/lambda0 (corrected), Lemma 5.2's E(r), O(sigma) coupling",
               e2_time_scale, "003 Lemmas 5.2, 5.4, erratum S-1; sheet 3.4 E2"),
    Experiment("003-e3-plateaus", "E3: good and bad margin plateaus, good fraction vs 1 - 2^(1-m) (Thm 4.3, Cor. 4.4)",
               e3_plateaus, "003 Theorem 4.3, Corollary 4.4; sheet 3.4 E3"),
    Experiment("003-e4-two-neurons", "E4: two-neuron flow to (1/2)(w*, -w*, 1, -1); the non-symmetric D-S (Thm 5.5, S-10)",
               e4_two_neurons, "003 Theorem 5.5; sheet 3.4 E4"),
    Experiment("003-e5-fragility", "E5: hinted data, the limit (1/2) phi(<w*, x>) and its sigma dependence (Thm 6.2)",
               e5_fragility, "003 Theorem 6.2; sheet 3.4 E5"),
    Experiment("003-e6-local-convergence", "E6: from the perturbed optimum the limit margin is the optimum's (Thm 5.6)",
               e6_local_convergence, "003 Theorem 5.6; sheet 3.4 E6"),
    Experiment("003-e7-planted", "E7: the planted fixtures of sheet 5 are flagged as hypothesis violations (S-7..S-13)",
               e7_planted, "003 sheet 3.4 E7, section 5"),
    Experiment("003-e8-large-init", "E8: large initialisation on D-SYM (exploratory, outside the theory)",
               e8_large_init, "003 sheet 3.4 E8, S-18"),
)
