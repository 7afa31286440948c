"""Seed 004's scalar lemmas (claim sheet section 6, S1-S15, and the section-7 errata) encoded for the
decision procedures of :mod:`verify.symbolic`: identities (:mod:`.identities`), one-variable
inequalities (:mod:`.inequalities`), path sums and integer ranges (:mod:`.paths`), and the registry of
entries with their expected verdicts (:mod:`.registry`).
"""

from properties.min2024_early_alignment.scalar_lemmas.registry import SYMBOLIC_CLAIMS, get_claim, run_all

__all__ = ["SYMBOLIC_CLAIMS", "get_claim", "run_all"]
