"""Seed 000's blueprint: the paper's assumptions, lemmas and derived facts (claim sheet 000 sections 1-2) and what each
is used to prove. Claims attach by their own declarations (``node=``, ``uses=``); ``keywords`` match assumption texts."""

from verify.paper import Blueprint, Node

NODES = (
    Node("OS", "Eq. (1)", "orthogonal separability (PL-D1)", kind="assumption", keywords=(r"\bH-OS\b",)),
    Node("SPAN", "Thm 1 hyp.", "support span (PL-A-SPAN)", kind="assumption", keywords=(r"\bH-SPAN\b",)),
    Node("GEN", "Footnotes 2, 4", "general position (H-GEN)", kind="assumption", keywords=(r"\bH-GEN\b",)),
    Node("BAL", "Init, Sec. 3", "balanced, small (H-BAL)", kind="assumption", keywords=(r"\bbalanced\b",)),
    Node("LA2", "Lemma A.2", "local expansion of G (PL-LA2)", keywords=(r"\bLemma A\.2\b",)),
    Node("LA1", "Lemma A.1", "first-order condition (PL-LA1)", keywords=(r"\bLemma A\.1\b",)),
    Node("X3", "PL-X3 (derived)", "extremal directions m^+-"),
    Node("L2", "Lemma 2", "two extremal directions (PL-L2)", keywords=(r"\bLemma 2\b",)),
    Node("LA3", "Lemma A.3", "GF vector field (PL-LA3)", keywords=(r"\bLemma A\.3\b",)),
    Node("LA4", "Lemma A.4", "balance, signs kept (PL-LA4)", keywords=(r"\bLemma A\.4\b",)),
    Node("X4", "PL-X4 (derived)", "early-phase closed form"),
    Node("L1", "Lemma 1", "early phase (Maennel et al.)", keywords=(r"\bLemma 1\b",)),
    Node("L3", "Lemma 3", "absorbing sectors (PL-L3)", keywords=(r"\bLemma 3\b",)),
    Node("LB1", "Lemma B.1", "positive activations persist", keywords=(r"\bLemma B\.1\b",)),
    Node("LC1", "Lemma C.1", "KKT point (PL-LC1)", keywords=(r"\bLemma C\.1\b",)),
    Node("P4", "Eqs. (19)-(21)", "Lyu-Li rates (PL-P4)"),
    Node("X1", "PL-X1 (derived)", "cone property, monotone margins"),
    Node("X2", "PL-X2 (derived)", "no Zeno: one crossing per pair"),
    Node("X7", "PL-X7 (derived)", "loss non-increasing under GF"),
    Node("X8", "PL-X8 (derived)", "groups fixed by sign"),
    Node("P1", "Eq. (15)", "outputs split by group (PL-P1)"),
    Node("P2", "Eq. (16)", "decoupling into two linear nets (PL-P2)"),
    Node("P3", "Eqs. (17)-(18)", "subnetworks align with w+- (Ji-Telgarsky)"),
    Node("P5", "Eq. (22)", "||W||^2 / log t limit"),
    Node("P6", "Thm 1 proof", "probability 1 - 2^-p of a live group"),
    Node("P7", "Eq. (23)", "dead neurons vanish in the limit"),
    Node("P8", "Eqs. (24)-(25)", "group weights in the limit"),
    Node("P9", "Eqs. (26)-(29)", "second layer in the limit"),
    Node("X5", "PL-X5 (derived)", "asymptotic split ||W+||^2/||W-||^2 -> ||w+||/||w-||"),
    Node("X6", "PL-X6 (Lyu-Li)", "monotone normalised margin"),
    Node("T1", "Theorem 1", "convergence to w+-", kind="aggregate", keywords=(r"\bTheorem 1\b",)),
    Node("C1", "Corollary 1", "limit function", keywords=(r"\bCorollary 1\b",)),
)

EDGES = (
    ("OS", "X3"), ("OS", "L2"), ("LA1", "L2"), ("LA2", "L2"), ("X3", "L2"), ("GEN", "LA3"), ("LA3", "LA4"),
    ("BAL", "LA4"), ("X3", "X4"), ("LA4", "X4"), ("BAL", "L1"), ("OS", "L3"), ("LA3", "L3"), ("LA4", "L3"),
    ("OS", "LB1"), ("LA4", "LB1"), ("OS", "LC1"), ("L1", "T1"), ("L2", "T1"), ("L3", "T1"), ("LB1", "T1"),
    ("LC1", "T1"), ("P4", "T1"), ("SPAN", "T1"), ("T1", "C1"),
    ("OS", "X1"), ("LA4", "X1"), ("X1", "LB1"), ("X1", "L3"), ("X1", "X2"), ("LA3", "X7"), ("LA4", "X8"),
    ("L1", "P1"), ("L3", "P1"), ("P1", "P2"), ("X1", "P2"), ("P2", "P3"), ("SPAN", "P3"), ("P3", "P4"), ("P4", "P5"),
    ("X8", "P6"), ("LB1", "P6"), ("P5", "P7"), ("P5", "P8"), ("P3", "P8"), ("P8", "P9"), ("LA4", "P9"),
    ("LC1", "X5"), ("P4", "X5"), ("P4", "X6"), ("P6", "T1"), ("P7", "T1"), ("P8", "T1"), ("P9", "T1"), ("X5", "T1"),
)

BLUEPRINT = Blueprint(NODES, EDGES)
