"""Seed 002's blueprint: the paper's assumptions, lemmas and theorems (claim sheet 002 sections 1-2) and what each is
used to prove. Claims attach by their own declarations (``node=``, ``uses=``); ``keywords`` match assumption texts."""

from verify.paper import Blueprint, Node

NODES = (
    Node("D1", "Section 3 (LT-D1)", "linear teacher through 0, ||x|| <= 1", kind="assumption", keywords=(r"\bLT-D1\b",)),
    Node("LEAKY", "Section 3", "leaky ReLU, alpha in (0, 1)", kind="assumption", keywords=(r"\bleaky\b",)),
    Node("INIT", "Section 4 (LT-A-INIT)", "rows of norm <= R", kind="assumption", keywords=(r"\bLT-A-INIT\b",)),
    Node("EPOCHS", "Section 3 (LT-D4)", "SGD batch 1, epochs without replacement", kind="assumption",
         keywords=(r"\bwithout replacement\b",)),
    Node("A61", "Assumption 6.1", "L_S < log(2)/n at some t0", kind="assumption", keywords=(r"\bA6\.1\b",)),
    Node("NARH", "Thm 6.1 hyp. (ii)", "stays in an NAR for t >= t2", kind="assumption", keywords=(r"\bNAR\b",)),
    Node("H3", "Thm 6.2 hyp. 3", "smoothed margin > alpha sqrt(k) B", kind="assumption", keywords=(r"\bhyp\. 3\b",)),
    Node("H4", "Thm 6.2 hyp. 4", "A_gamma = B_gamma = empty", kind="assumption", keywords=(r"\bhyp\. 4\b",)),
    Node("SYM", "Lemma 6.1 hyp.", "x in S => -x in S", kind="assumption", keywords=(r"\bantipodal\b",)),
    Node("LOSS", "Sec. 1.3 facts l1-l7", "logistic-loss inequalities"),
    Node("D4", "Eq. (4)", "the SGD update"),
    Node("P41", "App. B, Eqs. (14)-(27)", "per-step inequalities of Thm 4.1"),
    Node("T41", "Theorem 4.1", "SGD reaches L_S < eps by M(eps)"),
    Node("I41", "Section 4 prose", "any width, init scale, step"),
    Node("CC1", "Corollary C.1", "2r condition => one cluster agrees"),
    Node("LC1", "Lemma C.1", "agreement of a cluster"),
    Node("PC1", "Proposition C.1", "both clusters agree: four regions"),
    Node("PC2", "Proposition C.2", "one cluster agrees"),
    Node("LC2", "Lemma C.2", "N < 0 when every + neuron is negative"),
    Node("T51", "Theorem 5.1", "sign N = sign <w-bar - u-bar, x> outside the 2r cone"),
    Node("X51", "LT-X51 (derived)", "sharp constant (1 - alpha) / (1 + alpha)"),
    Node("X52", "LT-X52 (derived)", "share of the sphere outside the linear regime"),
    Node("I5", "Sec. 5, App. D.1", "output not linear; false for ReLU; +- clusters needed"),
    Node("C61", "Corollary 6.1", "perfectly clustered => linear boundary"),
    Node("X1", "LT-X1 (derived)", "NAR conserves w_i - w_j (GF, GD, SGD)"),
    Node("IMP", "Lyu-Li / Ji-Telgarsky (App. E)", "gamma~ monotone, KKT limit, directional convergence"),
    Node("EA", "Appendix E", "(A1), (A2), (B3), (B4) hold"),
    Node("T61", "Theorem 6.1", "NAR forever => clustered KKT limit", kind="aggregate"),
    Node("C62", "Corollary 6.2", "the boundary becomes linear", kind="aggregate"),
    Node("X3", "LT-X3 / App. G.1", "gamma-bar > alpha sqrt(k) B => each point activates its class"),
    Node("L61", "Lemma 6.1", "antipodal data => A_gamma = B_gamma = empty"),
    Node("QP8", "Eq. (8), App. G.2", "the PAR-SVM QP"),
    Node("T62", "Theorem 6.2", "NAR is PAR; limit is the QP (8) solution", kind="aggregate"),
    Node("K", "Appendix K", "first-layer bias by augmentation"),
    Node("DER", "Sheet 2.8", "derived exact facts (F, Euler, gamma~ <= gamma-bar, L -> 0)"),
)

EDGES = (
    ("LOSS", "P41"), ("D4", "P41"), ("P41", "T41"), ("D1", "T41"), ("INIT", "T41"), ("EPOCHS", "T41"),
    ("LEAKY", "T41"), ("T41", "I41"), ("CC1", "T51"), ("LC1", "T51"), ("PC1", "T51"), ("PC2", "T51"), ("LC2", "T51"),
    ("LEAKY", "T51"), ("T51", "X51"), ("T51", "X52"), ("T51", "C61"), ("T51", "I5"), ("LEAKY", "C61"),
    ("DER", "X1"), ("X1", "T61"), ("A61", "T61"), ("NARH", "T61"), ("IMP", "T61"), ("EA", "IMP"), ("C61", "C62"),
    ("T61", "C62"), ("T51", "C62"), ("X3", "T62"), ("H3", "T62"), ("H4", "T62"), ("SYM", "L61"), ("L61", "H4"),
    ("QP8", "T62"), ("T61", "T62"), ("T41", "K"), ("T51", "K"), ("LOSS", "DER"), ("D1", "DER"),
)

BLUEPRINT = Blueprint(NODES, EDGES)
