"""Seed 003's blueprint: the paper's assumptions, lemmas and theorems (claim sheet 003 sections 1-2) and what each is
used to prove. Claims attach by their own declarations (``node=``, ``uses=``); ``keywords`` match assumption texts."""

from verify.paper import Blueprint, Node

NODES = (
    Node("A32", "Assumption 3.2", "linear separability through 0", kind="assumption", keywords=(r"\bA3\.2\b",)),
    Node("A41", "Assumption 4.1", "symmetric data", kind="assumption", keywords=(r"\bA4\.1\b",)),
    Node("A45", "Assumption 4.5", "<mu, x_i> != 0", kind="assumption", keywords=(r"\bA4\.5\b",)),
    Node("A46", "Assumption 4.6", "non-branching near two groups", kind="assumption", keywords=(r"\bA4\.6\b",)),
    Node("LEAKY", "Sec. 3", "leaky ReLU, alpha in (0, 1)", kind="assumption", keywords=(r"\bleaky\b",)),
    Node("WIDTH", "Thm 4.2 hyp.", "width m >= 2", kind="assumption", keywords=(r"\bm >= 2\b",)),
    Node("DINIT", "D_init(sigma)", "small Gaussian init", kind="assumption", keywords=(r"\bD_init\b",)),
    Node("BINIT", "D~_init(sigma)", "small balanced init", kind="assumption", keywords=(r"\bD~_init\b",)),
    Node("D33", "Definition 3.3", "max-margin separator w*, gamma_lin"),
    Node("I1", "Sec. 4 (I1)-(I3)", "phi(z) - phi(-z) = (1 + alpha) z"),
    Node("EQ23", "Eqs. (2)-(3)", "linearisation near 0, G linear"),
    Node("EIG", "Sec. 5.1", "spectrum of M_mu~, lambda0"),
    Node("BAL", "Cor. B.18 (Sec. 6)", "a_k^2 - ||w_k||^2 conserved"),
    Node("T31", "Theorem 3.1", "KKT-margin direction (Lyu-Li)"),
    Node("T42", "Theorem 4.2", "global max margin is linear"),
    Node("KKTSUB", "Sec. 2, Fig. 1", "suboptimal KKT directions exist"),
    Node("L52", "Lemma 5.2", "Phase I alignment"),
    Node("L53", "Lemma 5.3", "exact embedding pi_b"),
    Node("L54", "Lemma 5.4", "Phase II coupling"),
    Node("T55", "Theorem 5.5", "two-neuron convergence"),
    Node("T56", "Theorem 5.6", "local convergence near a max-margin direction"),
    Node("T43", "Theorem 4.3", "convergence to the linear max margin", kind="aggregate"),
    Node("C44", "Corollary 4.4", "global max margin with probability 1 - 2^(1-m)", kind="aggregate"),
    Node("D61", "Definition 6.1", "hinted dataset"),
    Node("T62", "Theorem 6.2", "fragility: a single leaky unit", kind="aggregate"),
    Node("S6I", "Sec. 6 intro", "3 points make linear suboptimal"),
    Node("INTRO", "Secs. 1, 2, 7", "simplicity bias (prose)"),
)

EDGES = (
    ("A32", "D33"), ("D33", "T42"), ("A41", "T42"), ("WIDTH", "T42"), ("LEAKY", "T42"), ("I1", "T42"),
    ("I1", "EQ23"), ("A41", "EQ23"), ("EQ23", "EIG"), ("EIG", "L52"), ("DINIT", "L52"), ("A45", "L52"),
    ("I1", "L53"), ("L52", "L54"), ("L53", "L54"), ("L54", "T43"), ("T55", "T43"), ("T56", "T43"), ("T31", "T56"),
    ("A46", "T43"), ("T42", "T55"), ("T42", "C44"), ("T43", "C44"), ("T31", "KKTSUB"), ("D33", "KKTSUB"),
    ("D33", "D61"), ("D61", "T62"), ("BINIT", "T62"), ("BAL", "T62"), ("T31", "T62"), ("T62", "S6I"),
    ("T42", "INTRO"), ("T43", "INTRO"), ("L52", "INTRO"),
)

BLUEPRINT = Blueprint(NODES, EDGES)
