"""Teeth of the seed-000 catalogue: which planted engine bugs (verify/evidence/mutants.py) each claim catches, and which
tests of make test make a claim's check fail.

``CAUGHT_BY`` maps a mutant id to the claims whose verdict was not the expected one under it, measured with
``scripts/mutant_teeth.py --paper 000`` (ci profile, seed 0, with the mp cross-checks of HOLDS; a planted claim that is no
longer refuted counts; FAILED is a float64 / mp disagreement, the mp backend not being patched).

- events-skip-crossing, v-sign-flipped: measured earlier, whole catalogue.
- loss-logistic-derivative, loss-exp-derivative, loss-square-derivative, polar-outputs-exp-r, sigma-prime-zero-one:
  ``nice .venv/bin/python scripts/mutant_teeth.py MUTANT --paper 000 --no-baseline --mutant-timeout 850
  --claim-timeout S [--claim ID ...]`` (S = 150 unless said), one mutant per run; the baseline is
  reports/ci/report.json (ci, seed 0: all 104 claims of paper 000 as expected). loss-exp-derivative,
  loss-square-derivative, polar-outputs-exp-r and sigma-prime-zero-one ran over the whole catalogue (140-190 s each);
  the last two turned no claim unexpected. loss-logistic-derivative slows the runs (the mirrored weight 1/(1 + e^-z)
  does not decay as margins grow) and was measured in parts, in catalogue order: the whole catalogue with
  S = 300 (850 s: the first 65 claims), then ``--claim`` lists of the rest (S = 300: 6 more; S = 150: the probability
  and PC7 finite-time claims; S = 100: the 19 claims of Theorem 1 and its limits, 364 s; S = 400: PC2-P1 and PC2-P2
  timed out again). Not measured: ``CLAIMS_NOT_MEASURED`` below.

:func:`attach` adds the planted-claim teeth (verify.evidence.teeth.planted_teeth: a planted claim expected REFUTED that
shares a check) and the tests of ``SHOWN_BY_TESTS``, and stores the merged list in every claim's ``meta["teeth"]``,
which the report shows as ``teeth``.
"""

from __future__ import annotations

from typing import Sequence

from verify.claims.model import Claim
from verify.evidence import teeth

CAUGHT_BY: dict[str, tuple[str, ...]] = {
    "events-skip-crossing": (
        "PL-X2-log",
    ),
    "v-sign-flipped": (
        "PC1-LA4-GF", "PC10-GD-balance", "PC10-GD-balance-sign", "PC10-GD-signs", "PC10-GD-signs-small",
        "PC15-LA4-GF", "PC2-LA4-GF", "PC2-LA4-signs", "PC4-LA4-invariant", "PC4-P6-sufficient", "PC7-LA4-GF",
        "PC7-LA4-growth", "PC7-LA4-signs", "PL-LA3-field", "PL-LA4-GF", "PL-LA4-growth", "PL-LA4-signs", "PL-P2",
        "PL-P2-moved", "PL-X8",
    ),
    "loss-logistic-derivative": (
        "PC1-LA4-GF", "PC1-LB1", "PC11-leaves-boundary", "PC12-L3", "PC13-L1", "PC15-LA4-GF", "PC15-X1",
        "PC2-LA4-GF", "PC2-LA4-signs", "PC2-X2-log", "PC2-X7", "PC3-L1", "PC4-LA4-invariant", "PC4-P6-sufficient",
        "PC5-T1", "PL-C1", "PL-I5-L1", "PL-L1", "PL-L1-scale-free", "PL-L3", "PL-LA3-field", "PL-LA3-sliding",
        "PL-LA4-GF", "PL-LA4-growth", "PL-LA4-signs", "PL-LB1", "PL-P1", "PL-P2", "PL-P2-from-0", "PL-P2-moved",
        "PL-P3", "PL-P3-rank1", "PL-P4", "PL-P5", "PL-P6-sufficient", "PL-P7", "PL-P8", "PL-P9", "PL-T1-i",
        "PL-T1-iii", "PL-T1-structure", "PL-X1", "PL-X2", "PL-X2-log", "PL-X5", "PL-X6", "PL-X7", "PL-X8",
    ),
    "loss-exp-derivative": (
        "PC8-T1", "PC8-X1",
    ),
    "loss-square-derivative": (
        "PC9-X1",
    ),
}  # polar-outputs-exp-r and sigma-prime-zero-one: no seed-000 claim noticed them (whole catalogue, ci, seed 0)

# claims whose verdict under a mutant is not known (each of their runs under it hit the claim timeout, up to 400 s)
CLAIMS_NOT_MEASURED: dict[str, tuple[str, ...]] = {
    "loss-logistic-derivative": ("PC2-P1", "PC2-P2"),
}


# Tests of make test that make the claim's own check return a violation (value < -error) on a planted input -- a
# scenario dropping one of its hypotheses, or a deliberately wrong run / engine quantity -- and hold on the honest case
# (verify.evidence.teeth.declaration_problems checks that each names a real test calling the check or the claim id).
# Not shown to fail by anything: PL-P6. Its runner's cases are fixed (the fixture at p = 1, 2 and orthant(3, 3, 3) at
# p = 1, 200 seeded Gaussian inits each), and Lemma B.1's sufficient condition, read off the init directions without
# any simulation, decides all but 47, 11 and 80 of the 200 runs alive: even an engine that killed (or left undecided)
# every simulated run would give all-dead frequencies 0.235, 0.055 and 0.40, below the bounds 2^-p + 3 sd = 0.61,
# 0.34 and 0.61. Inits drawn away from their own class (along -m_s plus noise) are rescued on these data (all 37
# simulated of 40 on the fixture at p = 1). The same procedure refutes on PC6 with such inits (PC6-P6's teeth below).
SHOWN_BY_TESTS: dict[str, tuple[str, ...]] = {
    # static checks, planted data (tests/test_paper_000.py, "teeth: every check fails on a planted case")
    "tests/test_paper_000.py::test_lemma_c1_and_definitions_fail_on_planted_cases": ("PL-D1b", "PL-A-SPAN"),
    "tests/test_paper_000.py::test_lemma2_checks_fail_without_os": ("PL-L2", "PC12-L2"),
    "tests/test_paper_000.py::test_sector_identity_catches_a_wrong_centre_sign": ("PL-L2-sigma",),
    "tests/test_paper_000.py::test_lemma_a_checks_fail_on_planted_cases": ("PL-LA1", "PL-LA2"),
    "tests/test_teeth_000.py::test_general_loss_lemma2_fails_without_os": ("PL-L2-lgen",),
    "tests/test_teeth_000.py::test_first_order_condition_fails_at_a_wrong_extremum": ("PL-LA1-d2",),
    # Lemma A.3, PC11, PC10: a drifting slide, the sticky-boundary integrator, GD off OS data
    "tests/test_paper_000_lemma_a3.py::test_sliding_check_fails_when_the_slide_drifts_off_the_surface": ("PL-LA3-sliding",),
    "tests/test_paper_000_lemma_a3.py::test_sticky_boundary_simulator_fails_the_pc11_check": ("PC11-leaves-boundary",),
    "tests/test_paper_000_lemma_a3.py::test_gd_x1_holds_per_step_on_os_data_and_fails_off_it": ("PC10-GD-X1",),
    # finite-time flow facts: planted data (PC2, PC1), altered runs
    "tests/test_paper_000_finite.py::test_active_cone_fails_on_a_step_along_an_inactive_example": ("PL-X1",),
    "tests/test_paper_000_finite.py::test_sign_reversal_checks_fail_on_pc2_and_pc1": ("PL-X2",),
    "tests/test_paper_000_finite.py::test_loss_check_holds_along_gf_and_fails_backwards": ("PL-X7",),
    "tests/test_teeth_000.py::test_cone_property_fails_off_os_under_each_loss_and_slope": (
        "PL-X1", "PC8-X1", "PC15-X1", "PC7-X1"),
    "tests/test_teeth_000.py::test_pc2_event_log_check_catches_a_missed_and_an_invented_crossing": ("PC2-X2-log",),
    "tests/test_teeth_000.py::test_pc2_loss_check_fails_backwards": ("PC2-X7",),
    # Lemma 1 under H-SMALL (T_0 before the escape time): an altered run's violation is not excused
    "tests/test_paper_000_lemma1.py::test_lemma1_violation_stands_where_t0_comes_before_the_escape": (
        "PL-L1", "PC13-L1", "PL-I5-L1"),
    # Lemma 1's scale-free limit: altered sibling runs
    "tests/test_paper_000_lemma1.py::test_scale_free_fails_when_the_smallest_lambda_never_enters": ("PL-L1-scale-free",),
    "tests/test_paper_000_lemma1.py::test_scale_free_fails_when_t_hat_drifts_away_as_lambda_shrinks": ("PL-L1-scale-free",),
    # PL-P6's procedure on PC6 with H-RAND dropped
    "tests/test_teeth_000.py::test_pc6_frequency_runner_refutes_inits_drawn_away_from_the_own_class": ("PC6-P6",),
    # Theorem 1 and the limits of its proof: reversed windows (a trend stops passing, a certificate is violated), moved
    # neurons, wrong predicted limits
    "tests/test_teeth_000.py::test_limit_claims_fail_when_the_window_runs_backwards": (
        "PL-T1-i", "PL-T1-iii", "PL-C1", "PL-P3", "PL-P4", "PL-P8", "PL-P9", "PL-X5", "PL-X6", "PC8-T1", "PC5-T1"),
    "tests/test_teeth_000.py::test_large_init_claim_is_inconclusive_where_stuck_and_would_turn_unexpected_where_the_limit_is_reached": (
        "PC3-T1",),
    "tests/test_paper_000_asymptotic.py::test_rate_claim_is_inconclusive_on_the_fixture_and_refuted_when_d_w_grows": (
        "PL-T1-ii",),
    "tests/test_paper_000_asymptotic.py::test_group_structure_fails_when_a_neuron_leaves_its_sector_or_flips_sign": (
        "PL-T1-structure",),
    "tests/test_paper_000_asymptotic.py::test_dead_share_fails_backwards_and_dead_neurons_must_stay_put": (
        "PL-P7", "PL-T1-structure"),
    "tests/test_paper_000_asymptotic.py::test_rank_one_invariant_fails_when_a_late_neuron_turns": ("PL-P3-rank1",),
    "tests/test_paper_000_asymptotic.py::test_norm_growth_stops_passing_when_the_late_norms_grow_too_fast": ("PL-P5",),
    "tests/test_paper_000_asymptotic.py::test_margin_certificates_fail_above_a_wrong_limit": ("PL-P4", "PL-X6"),
    # PC7: a logistic run (its limit is w^, not u*) and a reversed window
    "tests/test_paper_000_polynomial_loss.py::test_logistic_run_never_corroborates_the_refutation": ("PC7-T1-ustar",),
    "tests/test_paper_000_polynomial_loss.py::test_limit_checks_stop_passing_when_the_window_runs_backwards": ("PC7-T1-ustar",),
}


def attach(claims: Sequence[Claim]) -> None:
    """Store every claim's teeth (planted claims sharing its check, mutants of ``CAUGHT_BY``, tests of
    ``SHOWN_BY_TESTS``) in ``meta``."""
    teeth.attach(claims, CAUGHT_BY, SHOWN_BY_TESTS)
