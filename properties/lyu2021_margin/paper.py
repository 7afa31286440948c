"""Seed 003 as a plug-in: ``PAPER``, registered under the entry point ``verify.papers`` "003".

Errata are claim sheet 003 section 5 (S-1 .. S-5) where our claims decide them: each printed reading is a claim
paired with the corrected one.
"""

from verify.paper import Erratum, Paper

from properties.lyu2021_margin import CLAIMS
from properties.lyu2021_margin.blueprint import BLUEPRINT
from properties.lyu2021_margin.datasets import DATASETS
from properties.lyu2021_margin.experiments import EXPERIMENTS
from properties.lyu2021_margin.quantities import quantities

ERRATA = (
    Erratum("S-1", "mu~ = ((1+alpha)/2) mu as printed; the paper's own definitions give ((1+alpha)/4) mu, so lambda0 and the "
                   "times T1, T2, T12 are off by 2x (the printed value is the exponential-loss one)",
            detail="sympy decides G on mirrored data; the measured slope of t_hit against ln(1/sigma) is 1/lambda0 with the "
                   "corrected lambda0, and Lemma 5.2 / 5.4 hold only with it",
            claims=("LY-EQ23-G", "S1-G-printed", "LY-S1-time-scale", "LY-S1-time-scale-printed", "LY-EQ23-grad",
                    "LY-EQ23-grad-printed", "LY-L52-E", "LY-L52-E-printed", "LY-L54-iii", "LY-L54-iii-printed",
                    "LY-L54-iv", "LY-L54-iv-printed")),
    Erratum("S-2", "The top eigenvector of M_mu~ is printed (1/sqrt 2)(mu~, 1): not a unit vector and not an eigenvector "
                   "unless ||mu~|| = 1; it is (mu^, 1)/sqrt 2", claims=("LY-EIG", "S2-eigvec-printed")),
    Erratum("S-3", "Theorem 5.5's limit is printed (1/4)(w*, -w*, 1, -1), of norm 1/2: the unit direction is (1/2)(...)",
            claims=("LY-T55-limit", "S3-T55-printed", "LY-T55-direction")),
    Erratum("S-4", "Theorem 6.2's display reads '>= 1 - delta' with delta undefined; the text's 1 - 2^-m = P(some s_k = +1) "
                   "is the statement that holds", claims=("LY-T62-probability", "S4-T62-probability-printed")),
    Erratum("S-5", "Notation slips (b-bar in R^m not R^d, the flow map in R^D not R^d, the tuple order of theta^, "
                   "<mu, w*> >= gamma_lin rather than >= 1): repaired as the sheet says, no claim depends on the printed "
                   "reading"),
)

PAPER = Paper(
    "003",
    "Gradient Descent on Two-layer Nets: Margin Maximization and Simplicity Bias",
    CLAIMS,
    source="Lyu, Li, Wang, Arora, NeurIPS 2021 (seeds/003_d952e1cb4b0df58a.txt; claim sheet 003-lyu-margin.md)",
    audit=quantities,
    datasets=DATASETS,
    blueprint=BLUEPRINT,
    errata=ERRATA,
    experiments=EXPERIMENTS,
)
