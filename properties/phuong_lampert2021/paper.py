"""Seed 000 as a plug-in: ``PAPER``, registered under the entry point ``verify.papers`` "000".

Errata are claim sheet 000 section 8 (and the gaps its section 2 records) where our claims decide them.
"""

from verify.paper import Erratum, Paper

from properties.phuong_lampert2021 import CLAIMS
from properties.phuong_lampert2021.audit import quantities
from properties.phuong_lampert2021.blueprint import BLUEPRINT
from properties.phuong_lampert2021.datasets import DATASETS
from properties.phuong_lampert2021.experiments import EXPERIMENTS

ERRATA = (
    Erratum("1", "Lemma A.4: |d a_j^2/dt| <= n B V a_j^2 is missing a factor 2 (2 n B V); harmless for sign preservation.",
            claims=("PL-LA4-growth-printed",)),
    Erratum("2", "Lemma 2's proof: the ascent step along v = y_j x_j needs G(w) >= 0; the lemma itself holds on OS data "
                 "(the maximiser is m^+, PL-X3).", claims=("PL-L2-ascent-step", "PL-L2", "PL-L2-d2", "PL-X3")),
    Erratum("3", "Lemma A.2 / eq. (40): eq. (37) fails at the closed endpoint eps = eps_max when an active example reaches "
                 "0 there; it holds on [0, eps_max). Harmless for Lemma 2 (small eps).",
            claims=("PL-LA2-closed", "PL-LA2")),
    Erratum("4", "Eqs. (13)-(14) (OCR of sigma-) repaired as in the sheet: sigma+- = sign(X m+-) with zero entries.",
            claims=("PL-L2-sigma",)),
    Erratum("5", "Lemma C.1, eq. (79): w_-^T x_i <= 0 for y_i = +1 (OCR repaired); checked with eq. (80).",
            claims=("PL-LC1",)),
    Erratum("6", "Sec. 1 prose 'opposite orthants' is intuition only: false in the standard basis.",
            claims=("PL-D1c-orthants",)),
    Erratum("7", "Claim sheet (not the paper), PL-LA4 / PC10: GD's per-step change eta^2((v^T w)^2 - a^2 ||v||^2) of "
                 "a^2 - ||w||^2 is <= 0 only while the neuron is balanced; once c < 0 a step along w raises it. The "
                 "accumulated drift from a balanced start is one-signed (c_k <= 0).",
            claims=("PC10-GD-balance-steps", "PC10-GD-balance-sign")),
)

PAPER = Paper(
    "000",
    "The Inductive Bias of ReLU Networks on Orthogonally Separable Data",
    CLAIMS,
    source="Phuong & Lampert, ICLR 2021 (seeds/000_ffa797ae65add78f.txt; claim sheet 000-phuong-lampert.md)",
    audit=quantities,
    datasets=DATASETS,
    blueprint=BLUEPRINT,
    errata=ERRATA,
    experiments=EXPERIMENTS,
)
