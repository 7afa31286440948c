"""Seed 004, claim sheet section 6 (S1-S15) and section 7 errata: the symbolic encodings as claims.

Each entry is decided by its own procedure in :mod:`verify.symbolic` (PROVED with a certificate,
REFUTED with an exactly re-checked witness, HOLDS on a stated finite range, or UNKNOWN).
"""

from verify.claims.direct import symbolic_claim
from verify.claims.model import Claim
from verify.symbolic.catalogue import SYMBOLIC_CLAIMS

CLAIMS_SYMBOLIC: list[Claim] = [symbolic_claim(spec) for spec in SYMBOLIC_CLAIMS]
