"""Symbolic and interval decision procedures for the lemmas of the claims sheets.

Public API:

* :class:`SymbolicResult`, :class:`Claim` and the verdict rules (``result``);
* :func:`recheck_witness` (exact re-check of a counterexample, ``witness``);
* :func:`prove_identity` (``identities``), :func:`prove_nonneg_symbolic` (``signs``),
  :func:`prove_nonneg` (interval branch-and-bound, ``intervals``),
  :func:`decide_inequality` / :class:`Piece` (``inequalities``),
  :func:`scan_integer_inequality` and the path sums (``integers``);
* the registry :data:`SYMBOLIC_CLAIMS`, :func:`get_claim`, :func:`run_all` (``catalogue``).
"""

from verify.symbolic.catalogue import SYMBOLIC_CLAIMS, ClaimSpec, get_claim, run_all
from verify.symbolic.enclose import decide_sign, enclose
from verify.symbolic.identities import prove_identity
from verify.symbolic.inequalities import Piece, decide_inequality
from verify.symbolic.integers import scan_integer_inequality
from verify.symbolic.intervals import prove_nonneg
from verify.symbolic.result import Claim, SymbolicResult
from verify.symbolic.signs import prove_nonneg_symbolic
from verify.symbolic.witness import recheck_witness

__all__ = [
    "SYMBOLIC_CLAIMS", "ClaimSpec", "get_claim", "run_all", "decide_sign", "enclose", "prove_identity",
    "Piece", "decide_inequality", "scan_integer_inequality", "prove_nonneg", "Claim", "SymbolicResult",
    "prove_nonneg_symbolic", "recheck_witness",
]
