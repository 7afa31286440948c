"""Seed 004 as a plug-in: ``PAPER``, registered under the entry point ``verify.papers`` "004".

Errata are claim sheet 004 section 7, each with the claims that decide its readings.
"""

from verify.paper import Erratum, Paper

from properties.min2024_early_alignment import CLAIMS
from properties.min2024_early_alignment.audit import theorem1_quantities
from properties.min2024_early_alignment.datasets import DATASETS
from properties.min2024_early_alignment.experiments import EXPERIMENTS
from properties.min2024_early_alignment.blueprint import BLUEPRINT

ERRATA = (
    Erratum("1", "zeta := max{zeta1, zeta2} (App. C.2, after (26)) must be min (R8).",
            claims=("EA-E2-printed", "R8-t1-max-printed", "R8-t1-min-corrected")),
    Erratum("2", "Eq. (28), first term: denominator 4 sqrt(h) n X_max^2 W_max^2 is too weak for (29); 8 is needed (R9).",
            claims=("EA-E2", "EA-E2-eps1", "R9-E2-printed", "EA-E2-printed", "S8-eq28-c8-gives-29", "S8-eq28-c4-gives-29")),
    Erratum("3", "t1 = 16 ln n/(...) is 0 for n = 1; the dead-path bound 4 H_n <= 16 ln n fails at n = 1 (P9).",
            claims=("P9-n1-t1-printed", "EA-E6-n1-dead-path", "S9-Hn-4ln-n1", "S9-t1-n1")),
    Erratum("4", "The main-text logistic log(1 + exp(-y yhat)) violates Lemma 2; the appendix uses 2 log(1 + exp(-y yhat)) (P8).",
            claims=("P8-lemma2-plain-logistic", "P8-B2-plain-logistic", "S2-lemma2-logistic-main")),
    Erratum("5", "The main-text rate O(log n/sqrt(mu)) hides min{zeta, xi}; xi = mu^2 is essentially tight."),
    Erratum("6", "Path condition 2 read literally (either k+ up or k- down) admits paths with T(P) > T(P_max) (R12).",
            claims=("S9-maxpath-literal",)),
    Erratum("7", "Lemma 11 with n_a under the root (sqrt(mu n_a)) makes the path sums O(sqrt n) and breaks the log n claim (R6).",
            claims=("S9-sqrt-na-path-sum",)),
    Erratum("8", "t2 = O((1/n) log(1/eps)) needs balanced classes (P11).", claims=("P11-t2-over-n",)),
    Erratum("9", "Typos: Lemma 12 third bullet (S-), D.2/D.3 'positive data in I-', stable-rank '= 2', Lemma 8 proof x+ = -x-."),
    Erratum("10", "Eq. (46) writes grad_{w_j} L for the negative gradient (R21)."),
    Erratum("11", "(7)/(8) and monotone patterns hold for all t and any eps via (46) (stronger than the paper's statement)."),
    Erratum("12", "Lemmas 13 and 14 hold per neuron (stronger than the stated sums)."),
)

PAPER = Paper(
    "004",
    "Early Neuron Alignment in Two-layer ReLU Networks with Small Initialization",
    CLAIMS,
    source="Min, Mallada & Vidal, ICLR 2024 (seeds/004_3d2e519e1927f769.txt; claim sheet 004-early-alignment.md)",
    audit=theorem1_quantities,
    horizons={"t1": lambda audit: audit.t1},
    datasets=DATASETS,
    blueprint=BLUEPRINT,
    errata=ERRATA,
    experiments=EXPERIMENTS,
)
