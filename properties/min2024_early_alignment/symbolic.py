"""Seed 004, claim sheet section 6 (S1-S15) and section 7 errata: the symbolic encodings as claims.

Each entry is decided by its own procedure in :mod:`verify.symbolic` (PROVED with a certificate,
REFUTED with an exactly re-checked witness, HOLDS on a stated finite range, or UNKNOWN). ``NODE`` says
which blueprint node (:mod:`.blueprint`) each encoding checks; the entries it lacks stand outside the
graph (the closed forms of sheet 1.11 and the polar equations, which no lemma of the paper states).
"""

from verify.claims.direct import symbolic_claim
from verify.claims.model import Claim
from properties.min2024_early_alignment.scalar_lemmas import SYMBOLIC_CLAIMS

from properties.min2024_early_alignment.blueprint import BLUEPRINT

NODE = {
    "S1-balancedness-relu": "INIT",
    "S1-balancedness-leaky": "INIT",
    "S2-lemma2-exp": "L2",
    "S2-lemma2-exp-widened": "L2",
    "S2-lemma2-logistic2": "L2",
    "S2-lemma2-logistic-main": "L2",
    "S2-lemma2-l2": "L2",
    "S2-logistic-factor": "L2",
    "S2-eq40-exp": "E40",
    "S2-eq40-logistic2": "E40",
    "S2-eq40-logistic-main": "E40",
    "S3-lemma15": "L15",
    "S3-lemma15-widened": "L15",
    "S3-e5-bound": "EXIST",
    "S4-lemma11-identity": "L11",
    "S4-lemma11-root": "L11",
    "S5-lemma10-identity": "L10",
    "S5-lemma5-factorisation": "L5",
    "S6-direction-derivative": "L4",
    "S7-lemma3-contradiction": "L3",
    "S8-eps2-equivalence": "E28",
    "S8-eq28-implies-epsL3": "E28",
    "S8-eq28-c8-gives-29": "E28",
    "S8-eq28-c4-gives-29": "E28",
    "S9-tpmax-formula": "PATHS",
    "S9-path-sum-4ln": "PATHS",
    "S9-Hn-4ln-n2": "PATHS",
    "S9-Hn-4ln-n1": "PATHS",
    "S9-maxpath-monotone": "PATHS",
    "S9-maxpath-literal": "PATHS",
    "S9-t1-n1": "PATHS",
    "S9-sqrt-na-path-sum": "L11",
    "S10-termwise": "F5",
    "S10-ratio": "F5",
    "S10-arithmetic": "F5",
    "S11-t2-gronwall": "F6",
    "S11-t2-contradiction": "F6",
    "S12-quadratic-mean": "F4",
    "S12-alpha-constant": "F4",
    "S12-loss-bound": "F4",
    "S13-stable-rank": "LR",
    "S14-E3-nonexistence": "EXIST",
    "S14-E4-nonuniqueness": "EXIST",
    "S15-cap-criterion": "L8",
    "S15-cap-geometry": "L8",
    "S15-xi-bound": "L9",
}


def _uses(node: str | None) -> tuple[str, ...]:
    """The nodes a claim at ``node`` relies on: the node's parents in the blueprint."""
    return tuple(a for a, b in BLUEPRINT.edges if b == node)


CLAIMS_SYMBOLIC: list[Claim] = [symbolic_claim(spec, NODE.get(spec.id), _uses(NODE.get(spec.id))) for spec in SYMBOLIC_CLAIMS]
