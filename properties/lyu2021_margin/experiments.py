"""Seed 003's experiments. The paper reports none besides Figure 1 (three 2-D illustrations whose data are in Appendix
I.1, not in the seed: not reproduced, every summary says so); these are the claim sheet's substitute suite
(section 3.4) on the exact gradient flow, checked against the sheet's stated outcomes:

- ``003-e3-plateaus`` (E3, Theorem 4.3 / Corollary 4.4), ``003-e4-two-neurons`` (E4, Theorem 5.5 and the planted
  D-S), ``003-e8-large-init`` (E8, exploratory): :mod:`.margin_runs`;
- ``003-e5-fragility`` (E5, Theorem 6.2 on hinted data): :mod:`.fragility_runs`.

The paper gives no optimiser or step size, so there is no "paper's GD" to compare with: every run is the exact
event-driven flow of the mean logistic loss (engine time = paper time / n).
"""

from verify.reproduce import Experiment

from properties.lyu2021_margin.fragility_runs import e5_fragility
from properties.lyu2021_margin.margin_runs import e3_plateaus, e4_two_neurons, e8_large_init

EXPERIMENTS = (
    Experiment("003-e3-plateaus", "E3: good and bad margin plateaus, good fraction vs 1 - 2^(1-m) (Thm 4.3, Cor. 4.4)",
               e3_plateaus, "003 Theorem 4.3, Corollary 4.4; sheet 3.4 E3"),
    Experiment("003-e4-two-neurons", "E4: two-neuron flow to (1/2)(w*, -w*, 1, -1); the non-symmetric D-S (Thm 5.5, S-10)",
               e4_two_neurons, "003 Theorem 5.5; sheet 3.4 E4"),
    Experiment("003-e5-fragility", "E5: hinted data, the limit (1/2) phi(<w*, x>) and its sigma dependence (Thm 6.2)",
               e5_fragility, "003 Theorem 6.2; sheet 3.4 E5"),
    Experiment("003-e8-large-init", "E8: large initialisation on D-SYM (exploratory, outside the theory)",
               e8_large_init, "003 sheet 3.4 E8, S-18"),
)
