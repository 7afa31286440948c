"""Teeth of the seed-003 catalogue: which planted engine bugs (verify/evidence/mutants.py) each claim catches.

``CAUGHT_BY`` maps a mutant id to the claims whose verdict was not the expected one under it (FAILED: a float64 / mp
disagreement, the mp backend not being patched; UNKNOWN or a planted claim no longer refuted count too), measured
with ``scripts/mutant_teeth.py --paper 003 --claim-timeout 150 --mutant-timeout 700`` (ci profile, seed 0, the search
of ``verify check`` with the mp cross-checks of HOLDS), the baseline and every mutant in a fresh process: this
package caches sweeps and runs by content (``time_scale._SWEEPS``, ``theorem43._SIGMA_SWEEPS``,
``theorem62.sibling`` / ``reference``, the lru caches of ``phase1.phase_one`` and ``late_phase.read``), so in one
process a run made under one mutant would be read under the next. The baseline (no mutant) has no unexpected claim
(95 s). A claim still running 150 s after the previous one under a mutant was stopped and is listed in ``TIMED_OUT``
(a mutated flow may grow slowly without failing): not counted as a catch; the claims after it that the mutant's
700 s did not reach are in ``NOT_MEASURED``. Only v-sign-flipped and loss-logistic-derivative slowed the runs so.

MEASURED lists every mutant measured on the whole catalogue; a measured mutant absent from ``CAUGHT_BY`` changed no
verdict. Why some catch nothing: the limit-engine mutants (no seed-003 claim runs the limit engine: its flows are
the event engine's and the gd backend's), polar-outputs-exp-r (the polar outputs are not what these runs read),
events-skip-crossing (the flow is unchanged to 1e-15, only the event log repeats a record, which no seed-003 claim
reads), sigma-prime-zero-one (these runs cross kinks transversally, never sitting on one: Phase I under A4.5,
``phase1`` docstring; at LY-A46-proxy's kink starts the engine's GD reads |P| ~ 1e-18, not 0, and S-14's planted kink
is refuted by the event flow against phi'(0) = 1 whatever the GD's rule), and the mutants of code no seed-003 run
reaches (the exp, square and logistic2 losses, the logistic2 kernel, SGD).

:func:`attach` adds the planted-claim teeth (a planted claim expected REFUTED that shares a check) and the tests of
``SHOWN_BY_TESTS`` and stores the merged list in every claim's ``meta["teeth"]``.
"""

from __future__ import annotations

from typing import Sequence

from verify.claims.model import Claim
from verify.evidence import teeth

MEASURED: tuple[str, ...] = (
    "events-skip-crossing", "limit-alignment-slow", "limit-skip-crossing", "logistic2-weight-halved",
    "loss-exp-derivative", "loss-logistic-derivative", "loss-logistic2-derivative", "loss-square-derivative",
    "polar-outputs-exp-r", "sgd-with-replacement", "sigma-prime-zero-one", "v-sign-flipped",
)

CAUGHT_BY: dict[str, tuple[str, ...]] = {
    "v-sign-flipped": (
        "LY-EQ23-grad", "LY-Intro-c-feature", "LY-L52-E", "LY-L52-signs", "LY-L53-flow", "LY-L54-iii",
        "LY-L54-iii-printed", "LY-L54-iv", "LY-L54-iv-printed", "LY-S1-time-scale", "LY-S1-time-scale-printed",
    ),
    "loss-logistic-derivative": (
        "LY-C44-margin", "LY-Intro-c-feature", "LY-L52-E", "LY-L52-signs", "LY-L53-flow", "LY-T43-linear",
        "LY-T43-sigma", "LY-T43-sigma-improves", "S19-T31-KKT-transit", "S7-C44-m1", "S8-C44-bad", "S8-T43-bad",
        "S8-T43-sigma", "S8-control", "S8-control-good",
    ),
}

# claims stopped after 150 s under the mutant (a mutated flow growing slowly): not counted as catches
TIMED_OUT: dict[str, tuple[str, ...]] = {
    "v-sign-flipped": (
        "LY-C44-margin", "LY-T31-KKT", "LY-T31-invariants", "S19-T31-KKT-transit",
    ),
    "loss-logistic-derivative": (
        "LY-T31-KKT", "LY-T31-invariants",
    ),
}

# claims the mutant's 700 s did not reach (after the timeouts above): their verdict under it is not known
NOT_MEASURED: dict[str, tuple[str, ...]] = {
    "v-sign-flipped": (
        "LY-A46-proxy", "LY-D61", "LY-D61-eps-large", "LY-KKTsub", "LY-L54-ii", "LY-L54-ii-wrong", "LY-S6-bal",
        "LY-S6-bal-Dinit", "LY-S6-bal-Dinit-signs", "LY-S6I-limit", "LY-T43-linear", "LY-T43-sigma",
        "LY-T43-sigma-improves", "LY-T55-direction", "LY-T55-signs", "LY-T55-signs-unbalanced", "LY-T56-local",
        "LY-T56-not-local-max", "LY-T62-probability", "LY-T62-probability-wrong", "LY-T62-sigma",
        "LY-T62-sigma-10-2", "LY-T62-unit", "LY-T62-unit-outside-event", "S10-KKTsub-DS", "S10-T55-DS",
        "S11-T62-sigma-H-small", "S14-A46-repelling-kink", "S17-T62-Dinit", "S19-T56-gap",
        "S4-T62-probability-printed", "S7-C44-m1", "S8-C44-bad", "S8-T43-bad", "S8-T43-sigma", "S8-control",
        "S8-control-good", "S9-S6I-escape",
    ),
    "loss-logistic-derivative": (
        "LY-A46-proxy", "LY-D61", "LY-D61-eps-large", "LY-L54-ii", "LY-L54-ii-wrong", "LY-S6-bal",
        "LY-S6-bal-Dinit", "LY-S6-bal-Dinit-signs", "LY-S6I-limit", "LY-T55-direction", "LY-T55-signs",
        "LY-T55-signs-unbalanced", "LY-T56-local", "LY-T56-not-local-max", "LY-T62-probability",
        "LY-T62-probability-wrong", "LY-T62-sigma", "LY-T62-sigma-10-2", "LY-T62-unit", "LY-T62-unit-outside-event",
        "S10-T55-DS", "S11-T62-sigma-H-small", "S14-A46-repelling-kink", "S17-T62-Dinit", "S19-T56-gap",
        "S4-T62-probability-printed", "S9-S6I-escape",
    ),
}

# Not shown to fail by anything, and no verdict to break: S17-T62-Dinit (exploratory: its read-outs are reported,
# expected UNKNOWN) and S4-T62-probability-printed (the printed delta is undefined: not decidable, expected UNKNOWN).
# tests of make test that make a claim's check return a violation (verify.evidence.teeth.declaration_problems checks them)
SHOWN_BY_TESTS: dict[str, tuple[str, ...]] = {
    "tests/test_paper_003_branching.py::test_the_repelling_kink_separates_beyond_tolerance": ("LY-A46-proxy",),
    "tests/test_teeth_003.py::test_lyu_li_invariants_fails_when_the_loss_rises": ("LY-T31-invariants",),
    "tests/test_teeth_003.py::test_balance_drift_fails_on_a_drifting_second_layer": ("LY-S6-bal-Dinit",),
    "tests/test_teeth_003.py::test_kkt_trend_stops_passing_where_the_flow_transits_a_kkt_direction": ("LY-T31-KKT",),
}


def attach(claims: Sequence[Claim]) -> None:
    """Store every claim's teeth (planted claims sharing its check, mutants of ``CAUGHT_BY``, tests of
    ``SHOWN_BY_TESTS``) in ``meta``."""
    teeth.attach(claims, CAUGHT_BY, SHOWN_BY_TESTS)
