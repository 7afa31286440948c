"""Seed 004's blueprint: the paper's assumptions, lemmas and proof steps (claim sheet 004, sections 2
and 6) and what each is used to prove. Claims attach to these nodes by their own declarations
(``node=``, ``uses=``). ``keywords`` are regexes matched against a claim's assumption texts, so the report
can say which hypotheses a PROVED symbolic claim backs."""

from verify.paper import Blueprint, Node

NODES = (
    Node("A1", "Assumption 1", "mu > 0 (EA-D1)", kind="assumption", keywords=(r"\bAssumption 1\b",)),
    Node("INIT", "Init (3), Sec. 2.1", "balanced, signs (EA-A1/A2)", keywords=(r"\bbalanced\b", r"\bbalancedness\b")),
    Node("L2", "Lemma 2", "loss bound (EA-B1)", keywords=(r"\bLemma 2\b", r"\b2x logistic\b", r"\bexp or 2x logistic\b")),
    Node("A2", "Assumption 2", "init outside S^zeta", kind="assumption", keywords=(r"\bAssumption 2\b",)),
    Node("L5", "Lemma 5", "cos >= mu on K (EA-D2)", keywords=(r"\bLemma 5\b",)),
    Node("L11", "Lemma 11", "||x_a|| bound (EA-D7)", keywords=(r"\bLemma 11\b",)),
    Node("E46", "Eq. (46)", "monotone patterns (EA-A3/A4)", keywords=(r"\(46\)", r"\bmonoton")),
    Node("EXIST", "App. E", "existence, no Zeno (EA-H, B4)"),
    Node("L3", "Lemma 3", "norm bounds (EA-C1)", keywords=(r"\bLemma 3\b", r"\beps_L3\b")),
    Node("L4", "Lemma 4", "direction error (EA-C2)", keywords=(r"\bLemma 4\b",)),
    Node("E40", "Eq. (40)", "g in [1/2, 3/2] (EA-B2)", keywords=(r"\(40\)",)),
    Node("L15", "Lemma 15", "linear-net rate (EA-B3)", keywords=(r"\bLemma 15\b",)),
    Node("L7", "Lemmas 6-7", "K in Int S+ (EA-D3/D4)", keywords=(r"\bLemma [67]\b",)),
    Node("L12", "Lemma 12", "trapping (EA-A5)", keywords=(r"\bLemma 12\b",)),
    Node("L1", "Lemma 1", "small-init approx. (EA-C3)", keywords=(r"\bLemma 1\b",)),
    Node("L10", "Lemma 10", "psi dynamics (EA-E1)", keywords=(r"\bLemma 10\b",)),
    Node("E28", "Eqs. (28)/(29)", "eps condition (EA-E2)", keywords=(r"\(28\)", r"\(29\)")),
    Node("L8", "Lemma 8", "zeta1 cap (EA-D5)", keywords=(r"\bLemma 8\b", r"\bzeta1?\b")),
    Node("L9", "Lemma 9", "xi = mu^2 (EA-D6)", keywords=(r"\bLemma 9\b", r"\bxi\b")),
    Node("E78", "Eqs. (7)/(8)", "boundary push (EA-E3)", keywords=(r"\(7\)", r"\(8\)")),
    Node("DT", "Delta t", "dwell time (EA-E4)", keywords=(r"\bDelta t\b", r"\bdwell\b")),
    Node("PATHS", "Paths, t1", "max path (EA-E5)", keywords=(r"\bt1\b",)),
    Node("T1A", "Thm 1, part 1", "alignment by t1 (EA-E6)", keywords=(r"\bTheorem 1\b",)),
    Node("L13", "Lemma 13", "norms at t1 (EA-F1)", keywords=(r"\bLemma 13\b",)),
    Node("DEC", "Eqs. (32)-(35)", "split after t1 (EA-F2/F3)", keywords=(r"\(32\)",)),
    Node("L14", "Lemma 14", "norms grow (EA-A6)", keywords=(r"\bLemma 14\b",)),
    Node("F5", "Eqs. (37)/(38)", "refined alignment (EA-F5)"),
    Node("F4", "Thm 1, part 2", "loss rate alpha (EA-F4)"),
    Node("LR", "Eqs. (41)-(43)", "low rank (EA-G1..G4)"),
    Node("F6", "Eq. (39)", "t2 bound (EA-F6)"),
    Node("THM1", "Theorem 1", "parts 1 and 2, low rank", kind="aggregate"),
)

EDGES = (
    ("A1", "L5"), ("A1", "L11"), ("A1", "E46"), ("A1", "EXIST"), ("A1", "L7"), ("INIT", "E46"),
    ("INIT", "L3"), ("INIT", "LR"), ("L2", "L3"), ("L2", "L4"), ("L2", "E40"), ("L2", "L15"),
    ("L5", "L7"), ("L5", "L9"), ("L5", "E78"), ("E46", "L12"), ("L7", "L12"), ("L7", "L8"),
    ("L3", "L1"), ("L4", "L1"), ("L4", "L10"), ("L3", "E28"), ("L10", "E78"), ("L11", "E78"),
    ("E28", "E78"), ("L8", "DT"), ("L9", "DT"), ("L11", "DT"), ("E28", "DT"), ("A2", "DT"),
    ("L10", "DT"), ("DT", "PATHS"), ("PATHS", "T1A"), ("E78", "T1A"), ("L12", "T1A"), ("EXIST", "T1A"),
    ("L1", "T1A"), ("T1A", "L13"), ("T1A", "L14"), ("T1A", "DEC"), ("L12", "L14"), ("L3", "L13"),
    ("E40", "F5"), ("DEC", "F5"), ("F5", "F6"), ("L13", "F6"), ("L14", "F6"), ("L15", "F4"),
    ("DEC", "F4"), ("L7", "F4"), ("T1A", "LR"), ("L3", "LR"), ("T1A", "THM1"), ("F4", "THM1"),
    ("F6", "THM1"), ("LR", "THM1"),
)

BLUEPRINT = Blueprint(NODES, EDGES)
