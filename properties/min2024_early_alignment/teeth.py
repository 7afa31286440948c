"""Teeth of the seed-004 catalogue: which planted engine bugs (verify/evidence/mutants.py) each claim catches, and which
tests make a claim's check fail.

``CAUGHT_BY`` maps a mutant id to the claims whose verdict was not the expected one under it, measured with
``scripts/mutant_teeth.py`` (ci profile, seed 0, with the mp cross-checks of HOLDS; claims expected REFUTED
count when the refutation is lost). Rows marked "targeted" were measured on the listed claims only (the
full-catalogue run of those mutants is slow: their explosive weights make many runs fail numerically).
``SHOWN_BY_TESTS`` maps a test of ``make test`` (tests/test_teeth_004.py) to the claims whose check it makes return a
violation on a planted input -- data without Assumption 1, an eps far above (28), a deliberately wrong trajectory, a
constant moved beyond the measured slack, a monkeypatched engine -- while the honest case holds.
:func:`attach` adds the planted-claim teeth (verify.evidence.teeth.planted_teeth) and stores the merged
list in every claim's ``meta["teeth"]``, which the report shows as ``teeth``. EA-H6 has none: it is documented only
(no check; UNKNOWN by construction).
"""

from __future__ import annotations

from typing import Sequence

from verify.claims.model import Claim
from verify.evidence import teeth

CAUGHT_BY: dict[str, tuple[str, ...]] = {
    "events-skip-crossing": ("EA-A4", "P5-A4-leaky-still-monotone"),
    "logistic2-weight-halved": ("EA-A6", "EA-B3", "EA-C3", "EA-H5-unbalanced"),
    "polar-outputs-exp-r": ("EC-polar-outputs", "EC-polar-field"),
    "sigma-prime-zero-one": ("EA-H3", "EA-H4-irregular-caratheodory"),
    "v-sign-flipped": ("EA-A1", "EA-A1-unbalanced", "P5-A1-leaky-balancedness", "EA-A2", "P4-A1-surface-slope-balancedness",
                       "P3-A4-large-eps-still-monotone", "P3-A5-large-eps-still-trapping", "EA-B3", "EA-G1", "EA-G2",
                       "EA-H5-unbalanced", "EA-H4-irregular-caratheodory", "P13-irregular-leaves-dead", "EC-polar-field"),
    "limit-skip-crossing": ("EA-A4", "EA-A5", "EA-C3-theorem-scale", "EA-C4", "EA-E2", "EA-E4", "EA-E4-barrier", "EA-E5",
                            "EA-E6", "EA-E6-t1emp", "EA-E6-toy4", "P14-single-class-part1", "EA-F2"),
    # the limit-backend claims (EA-E4*, EA-E5, EA-I*) catch these through their mp cross-check (FAILED)
    "limit-alignment-slow": ("EA-A4", "EA-A5", "EA-C1", "EA-C3-theorem-scale", "EA-E2", "EA-E2-printed", "EA-E4",
                             "EA-E4-barrier", "EA-E5", "EA-E6", "EA-E6-t1emp", "EA-E6-toy4", "EA-I1", "EA-I2",
                             "P14-single-class-part1", "EA-F1"),
    # targeted: EA-B3, EA-B4, EA-C2, EA-B1-exp, EA-B1-logistic2, EA-B2, EA-A6 and the engine checks
    "loss-exp-derivative": ("EA-A6", "EA-B3", "EA-B4", "EC-loss-derivative"),
    "loss-logistic-derivative": ("EC-loss-derivative",),
    "loss-logistic2-derivative": ("EA-A6", "EA-B3", "EC-loss-derivative"),
    "loss-square-derivative": ("EC-loss-derivative",),
}

_T = "tests/test_teeth_004.py::"

# tests of make test that make a claim's check return a violation (verify.evidence.teeth.declaration_problems checks them);
# EA-A3, EA-C2, P5-C2, R8-t1-min-corrected, P7-near-control and EA-H2 get theirs from planted claims sharing their check
SHOWN_BY_TESTS: dict[str, tuple[str, ...]] = {
    _T + "test_eq46_leaky_control_fails_without_assumption1": ("P5-A3-leaky-strictly-positive",),
    _T + "test_surface_slope_control_fails_without_assumption1": ("P4-A3-surface-slope-weak",),
    _T + "test_lemma2_fails_with_a_wrong_loss_derivative": ("EA-B1-exp", "EA-B1-logistic2"),
    _T + "test_cones_fail_without_assumption1": ("EA-D1",),
    _T + "test_lemma5_fails_on_an_obtuse_triple": ("EA-D2",),
    _T + "test_cone_convexity_notices_a_flipped_membership_test": ("EA-D3",),
    _T + "test_lemma8_fails_above_the_exact_sup": ("EA-D5",),
    _T + "test_lemma9_fails_without_assumption1": ("EA-D6",),
    _T + "test_lemma11_fails_with_mu_overstated": ("EA-D7",),
    _T + "test_lemma10_fails_for_the_main_text_logistic": ("EA-E1",),
    _T + "test_eq29_fails_above_eps1": ("EA-E2-eps1", "R9-E2-printed", "EA-E2"),
    _T + "test_boundary_push_sign_fails_without_assumption1": ("EA-E3",),
    _T + "test_boundary_push_margin_fails_at_large_eps": ("EA-E3-margin",),
    _T + "test_random_init_bound_fails_for_an_asymmetric_law": ("EA-E7",),
    _T + "test_n1_dead_path_check_fails_before_the_neuron_dies": ("EA-E6-n1-dead-path",),
    _T + "test_norms_after_t2_fail_with_the_level_raised": ("EA-F3",),
    _T + "test_loss_rate_fails_with_alpha_beyond_its_slack": ("EA-F4", "P12-part2-precondition"),
    _T + "test_t2_bound_fails_when_shrunk_beyond_its_slack": ("EA-F6", "EA-F6-imbalanced"),
    _T + "test_refined_alignment_fails_on_a_neuron_that_leaves_the_cos_quarter_set": ("EA-F5",),
    _T + "test_stable_rank_fails_with_factor_one": ("EA-G3", "EA-G4"),
    _T + "test_printed_low_rank_constants_fail_at_large_eps": ("EA-G2-constants",),
    _T + "test_loss_descent_fails_under_a_flipped_v_update": ("EA-H5", "EA-H5-unbalanced"),
    _T + "test_regular_solution_check_rejects_the_irregular_solution": ("EA-H4",),
    _T + "test_continuity_check_notices_an_activation_tolerance": ("EA-H1",),
}


def attach(claims: Sequence[Claim]) -> None:
    """Store every claim's teeth (planted claims sharing its check, mutants of ``CAUGHT_BY``, tests of
    ``SHOWN_BY_TESTS``) in ``meta``."""
    teeth.attach(claims, CAUGHT_BY, SHOWN_BY_TESTS)
