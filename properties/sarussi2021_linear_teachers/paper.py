"""Seed 002 as a plug-in: ``PAPER``, registered under the entry point ``verify.papers`` "002".

Errata are claim sheet 002's OCR repairs and derived corrections (sheet sections 2 and 8) where a claim decides
between readings: each printed or mis-transcribed reading is a claim paired with the repaired one.
"""

from verify.paper import Erratum, Paper

from properties.sarussi2021_linear_teachers import CLAIMS
from properties.sarussi2021_linear_teachers.blueprint import BLUEPRINT
from properties.sarussi2021_linear_teachers.datasets import DATASETS
from properties.sarussi2021_linear_teachers.experiments import EXPERIMENTS
from properties.sarussi2021_linear_teachers.quantities import quantities

ERRATA = (
    Erratum("E-T51", "Theorem 5.1's constant 2 holds but is not sharp: the sharp constant is (1 - alpha) / (1 + alpha) "
                     "(sheet LT-X51); a threshold below it fails (P2)"),
    Erratum("E-S62", "Section 6.2 cites 'smoothed margin (Eq. (5))': the smoothed margin is Eq. (6)"),
    Erratum("E-EB3", "Sheet 2.4's [NUM] 'd/dq[q f'(q)] >= 0.75 on (0, 50]' is false near 0: the infimum is f'(0) = "
                     "1 / (2 log 2) = 0.7213 (the sheet's own value, not the paper's)",
            claims=("LT-EB3-slope", "LT-EB3-slope-sheet")),
    Erratum("E-NORM", "NAR normalisation (global W / ||W|| vs per neuron) lost in the OCR: global adopted (sheet 1.9); "
                      "signs agree under both readings, gamma does not"),
)

PAPER = Paper(
    "002",
    "Towards Understanding Learning in Neural Networks with Linear Teachers",
    CLAIMS,
    source="Sarussi, Brutzkus, Globerson, ICML 2021 (seeds/002_64b589f846833fc0.txt; claim sheet 002-linear-teachers.md)",
    audit=quantities,
    datasets=DATASETS,
    blueprint=BLUEPRINT,
    errata=ERRATA,
    experiments=EXPERIMENTS,
)
