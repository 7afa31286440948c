"""Symbolic and interval decision procedures for scalar lemmas (a paper's encodings live in its package).

Public API:

* :class:`SymbolicResult`, :class:`Claim`, :class:`ClaimSpec` (one encoded lemma: texts, expected verdict,
  check) and the verdict rules (``result``);
* :func:`recheck_witness` (exact re-check of a counterexample, ``witness``);
* :func:`prove_identity` (``identities``), :func:`prove_nonneg_symbolic` (``signs``),
  :func:`prove_nonneg` (interval branch-and-bound, ``intervals``),
  :func:`decide_inequality` / :class:`Piece` (``inequalities``),
  :func:`scan_integer_inequality` and the path sums (``integers``).
"""

from verify.symbolic.enclose import decide_sign, enclose
from verify.symbolic.identities import prove_identity
from verify.symbolic.inequalities import Piece, decide_inequality
from verify.symbolic.integers import scan_integer_inequality
from verify.symbolic.intervals import prove_nonneg
from verify.symbolic.result import Claim, ClaimSpec, SymbolicResult
from verify.symbolic.signs import prove_nonneg_symbolic
from verify.symbolic.witness import recheck_witness

__all__ = [
    "ClaimSpec", "decide_sign", "enclose", "prove_identity",
    "Piece", "decide_inequality", "scan_integer_inequality", "prove_nonneg", "Claim", "SymbolicResult",
    "prove_nonneg_symbolic", "recheck_witness",
]
