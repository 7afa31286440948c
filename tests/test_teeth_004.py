"""Teeth of seed 004's checks (issue 13, item 4): for each claim that no planted claim or engine mutant breaks, a test
that makes the claim's own check return a violation (value < -error) on a planted input -- data without Assumption 1,
an eps far above the theorem's, a deliberately wrong trajectory, a constant moved beyond the measured slack, or a
monkeypatched engine -- and that the same check holds on the honest case. The tests are declared in
``properties/min2024_early_alignment/teeth.py`` (SHOWN_BY_TESTS) and shown in the report as the claims' teeth.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import math

import numpy as np
import pytest

import properties.min2024_early_alignment as seed004
from properties.min2024_early_alignment import datasets as d004
from properties.min2024_early_alignment import existence, low_rank, theorem1_part1
from properties.min2024_early_alignment import conic_geometry
from properties.min2024_early_alignment._shared import _t2_data
from properties.min2024_early_alignment.audit import required_log_eps
from properties.min2024_early_alignment.irregular_solutions import e4_irregular
from properties.min2024_early_alignment.theorem_scale import _rot, _scenario
from verify import geometry
from verify.claims.model import held, violated
from verify.claims.run import execute
from verify.data import generators as gen
from verify.data.dataset import Dataset
from verify.dynamics.field import NetworkField
from verify.evidence.mutants import MUTANTS
from verify.model.init import balanced_init
from verify.model.losses import LOSSES
from verify.scenarios import Scenario
from verify.search import evaluate
from verify.strategies import GeometryCase, State, polar_state

C = {c.id: c for c in seed004.CLAIMS}


@contextlib.contextmanager
def _frozen_attr(obj, name, value):
    """obj.name = value on a frozen dataclass instance (a Loss), restored on exit."""
    old = getattr(obj, name)
    object.__setattr__(obj, name, value)
    try:
        yield
    finally:
        object.__setattr__(obj, name, old)


def _with_audit(run, **changes):
    """A copy of the run whose audit has the given fields changed (the paper's constants), all else shared."""
    a = copy.copy(run.audit)
    for key, value in changes.items():
        object.__setattr__(a, key, value)
    return dataclasses.replace(run, audit=a)


# ----------------------------------------------------------------------------- 2.A eq. (46) controls


def test_eq46_leaky_control_fails_without_assumption1():
    """P5-A3-leaky-strictly-positive: on P1(a)'s same-label obtuse pair a leaky network's neuron active on both points is
    pushed away from x1 (the leaky slope does not rescue (46)); on toy4 every q_ij > 0."""
    check = C["P5-A3-leaky-strictly-positive"].check
    u = np.array([0.05, 1.0]) / math.hypot(0.05, 1.0)
    for alpha in (0.1, 0.5, 1.0):
        bad = polar_state(d004.planted_p1a(), np.array([math.log(1e-3)]), u[None], np.array([1.0]), "exp", alpha, {})
        assert violated(check(bad))
        good = polar_state(d004.toy4(0.3), np.array([math.log(1e-3), -1.0]), np.array([[0.6, 0.8], [-0.8, 0.6]]),
                           np.array([1.0, -1.0]), "exp", alpha, {})
        assert held(check(good)) and check(good).value > 0.5


def test_surface_slope_control_fails_without_assumption1():
    """P4-A3-surface-slope-weak: a neuron exactly on x2's hyperplane of P1(a)'s data, active on x1, with sigma'(0) = a:
    y_1 <x1, F_w> = |v| (g1 - 1.5 a g2) < 0 for every a in {0.1, 0.5, 1}; on Assumption-1 data it stays >= 0."""
    check = C["P4-A3-surface-slope-weak"].check
    p1a = d004.planted_p1a()
    W = np.array([[p1a.X[1, 1], -p1a.X[1, 0]]])  # (3, 1.5): <x2, w> = 0 exactly, <x1, w> = 3
    bad = State(p1a, W, np.array([np.linalg.norm(W)]), "exp", 0.0)
    ok_data = Dataset([[1.0, 0.0], [0.6, 0.8]], [1.0, 1.0])
    Wg = np.array([[0.0, 1.0]])  # on x1's hyperplane, active on x2
    good = State(ok_data, Wg, np.array([1.0]), "exp", 0.0)
    for a in (0.1, 0.5, 1.0):
        assert violated(check((bad, a)))
        m = check((good, a))
        assert held(m) and "1 pair(s) on the surface" in m.note


# ----------------------------------------------------------------------------- 2.B Lemma 2


def test_lemma2_fails_with_a_wrong_loss_derivative():
    """EA-B1-exp, EA-B1-logistic2 read the engine's loss (g - y). A factor 2 in the exp loss's exponent (g = y e^{-2 y yhat})
    gives |g - y| = e^2 - 1 > 2 at yhat = -1; the logistic2 weight without its factor 2 (the main-text logistic's g) gives
    |g - y| = 1/2 > 0 at yhat = 0. With the right losses both hold there (exp: 1.718 <= 2, the tightest point)."""
    b1_exp, b1_l2 = C["EA-B1-exp"].check, C["EA-B1-logistic2"].check
    assert held(b1_exp((1.0, -1.0))) and held(b1_l2((1.0, 0.0))) and held(b1_l2((-1.0, 0.7)))
    with _frozen_attr(LOSSES["exp"], "_weight_minus_one", lambda z: np.expm1(-2.0 * np.asarray(z, float))):
        assert violated(b1_exp((1.0, -1.0)))
    from scipy.special import expit

    with _frozen_attr(LOSSES["logistic2"], "_weight_minus_one", lambda z: expit(-np.asarray(z, float)) - 1.0):
        assert violated(b1_l2((1.0, 0.0)))
    assert held(b1_exp((1.0, -1.0))) and held(b1_l2((1.0, 0.0)))  # restored


# ----------------------------------------------------------------------------- 2.D conic geometry

TOY4 = GeometryCase(d004.toy4(0.3), 3)


def test_cones_fail_without_assumption1():
    """EA-D1: on P1(a) (x1, x2 both +1 at an obtuse angle) and on near-miss data (a cross-class acute pair) a data point
    lies outside its label's cone; on toy4 the data and the cone combinations are inside."""
    check = C["EA-D1"].check
    assert held(check(TOY4))
    assert violated(check(GeometryCase(d004.planted_p1a(), 3)))
    assert violated(check(GeometryCase(gen.near_miss(2, 2, 3, 0.3, seed=1), 3)))


def test_lemma5_fails_on_an_obtuse_triple():
    """EA-D2 (Lemma 5, tight: one-hot pairs attain cos = mu): three +1 points at pairwise cos -0.4 (mu < 0, Assumption 1
    false) give cos(x1 + x2, x3) = -0.73 < mu; on toy4 the minimum is mu itself (margin 0 within rounding)."""
    check = C["EA-D2"].check
    c = -0.4
    X = np.linalg.cholesky((1.0 - c) * np.eye(3) + c * np.ones((3, 3)))
    m = check(GeometryCase(Dataset(X, [1.0, 1.0, 1.0], name="obtuse_triple"), 0))
    assert violated(m) and m.value < -0.2
    assert held(check(TOY4))


def test_cone_convexity_notices_a_flipped_membership_test(monkeypatch):
    """EA-D3 (Lemma 6) samples cone members with verify.geometry's membership tests and checks their combinations
    against the cone's own definition: a membership test with the label sign flipped (S+ answered by S-) is caught."""
    check = C["EA-D3"].check
    assert held(check(TOY4))
    monkeypatch.setattr(geometry, "in_S_plus", geometry.in_S_minus)
    assert violated(check(TOY4))


def test_lemma8_fails_above_the_exact_sup(monkeypatch):
    """EA-D5 checks caps of 0.999 zeta1_sup (tight: EA-D5-tight refutes 1.001): with zeta1_sup overstated by 0.3% the
    caps leave S+ / S-."""
    check = C["EA-D5"].check
    assert held(check(TOY4))
    real = conic_geometry.zeta1_sup
    monkeypatch.setattr(conic_geometry, "zeta1_sup", lambda *a: 1.003 * real(*a))
    assert violated(check(TOY4))


def test_lemma9_fails_without_assumption1():
    """EA-D6 (Lemma 9, xi = mu^2; tight on toy4): on P1(a) (mu = -1/sqrt(5)) some z2 outside S+ and S- is parallel to a
    K direction, |cos| = 1 > sqrt(1 - mu^2)."""
    check = C["EA-D6"].check
    assert held(check(TOY4))
    m = check(GeometryCase(d004.planted_p1a(), 3))
    assert violated(m) and m.ratio > 1.1


def test_lemma11_fails_with_mu_overstated(monkeypatch):
    """EA-D7 (Lemma 11's sharp form is attained on toy4: margin 0): with mu read 1e-3 too large the sharp bound
    n_a X_min^2 + mu n_a (n_a - 1) X_min^2 exceeds ||x_a||^2."""
    check = C["EA-D7"].check
    assert held(check(TOY4))
    real = geometry.mu
    monkeypatch.setattr(geometry, "mu", lambda ds: real(ds) + 1e-3)
    assert violated(check(TOY4))


# ----------------------------------------------------------------------------- 2.E alignment phase

DATA = gen.orthogonally_separable(2, 2, 2, 0.8, seed=1)


def test_lemma10_fails_for_the_main_text_logistic():
    """EA-E1 (Lemma 10): with l = log(1 + e^{-y yhat}) (sheet P8: Lemma 2 fails, g -> y/2 at f = 0) the difference is
    ~ (1/2)||P x_a||, 3.4x the bound 2 n X_max max|f|; with the exp loss it is 0.22x."""
    for loss, bad in (("exp", False), ("logistic", True)):
        sc = Scenario(DATA, balanced_init(3, 2, log_eps=math.log(0.1), seed=2), loss, 0.0, {"init_seed": 2})
        ev = evaluate(C["EA-E1"], sc)
        assert ev.status == "ok" and (violated(ev.margin) if bad else held(ev.margin))


def test_eq29_fails_above_eps1():
    """EA-E2-eps1, R9-E2-printed and EA-E2 share the eq. (29) check (min reading): at eps = eps1 max|f| <= F* up to T(eps)
    (0.003 F*); at eps = 0.5 (above (28), T(eps) still > 0) max|f| = 23 F* already at t = 0."""
    check = C["EA-E2-eps1"].check
    assert check is C["R9-E2-printed"].check is C["EA-E2"].check
    init = balanced_init(3, 2, log_eps=0.0, seed=2)
    le, _ = required_log_eps(DATA, init, "eps1")
    for log_eps, bad in ((le, False), (math.log(0.5), True)):
        sc = Scenario(DATA, balanced_init(3, 2, log_eps=log_eps, seed=2), "exp", 0.0, {"init_seed": 2})
        ev = evaluate(C["EA-E2-eps1"], sc)
        assert ev.status == "ok" and (violated(ev.margin) if bad else held(ev.margin))
        assert violated(check(ev.run)) == bad


def test_boundary_push_sign_fails_without_assumption1():
    """EA-E3 (sign part of (7)/(8)): on P1(a) a V+ neuron put on x1's hyperplane is active on x2 only, and the push
    y_1 <x1_hat, G> = g2 <x1_hat, x2> < 0 moves it back; on Assumption-1 data every push has the right sign."""
    check = C["EA-E3"].check
    good = Scenario(DATA, balanced_init(4, 2, log_eps=math.log(0.01), seed=3), "exp", 0.0, {"init_seed": 3})
    assert held(check(execute(good, None)))
    bad = _scenario(d004.planted_p1a(), [[0.3, 1.0]], [1.0], math.log(0.01))
    assert violated(check(execute(bad, None)))


def test_boundary_push_margin_fails_at_large_eps():
    """EA-E3-margin (quantitative (7)/(8), stated at eps as in (28)): on toy4 at eps_required the push is 2.2x
    mu^1.5 X_min/2; at eps = e^2 the outputs are large, g ~ e^{-y f} is tiny and the push falls far below the level."""
    check = C["EA-E3-margin"].check
    ds = d004.toy4(0.3)
    W0 = np.array([_rot(np.array([1.0, 0.0]), 0.3), _rot(np.array([-1.0, 0.0]), -0.2)])
    le, _ = required_log_eps(ds, _scenario(ds, W0, [1.0, -1.0], 0.0).init, "required")
    assert held(check(execute(_scenario(ds, W0, [1.0, -1.0], le), None)))
    assert violated(check(execute(_scenario(ds, W0, [1.0, -1.0], 2.0), None)))


def test_random_init_bound_fails_for_an_asymmetric_law(monkeypatch):
    """EA-E7: P(some V+ neuron activates a positive point) >= 1 - 2^-m holds for the symmetric N(0, I/d) law (tight
    here: one positive point, frequency ~ 1 - 2^-m); a law reflected into {<w, x1> <= 0} (not symmetric) never
    activates x1."""
    check = C["EA-E7"].check
    ds = Dataset([[1.0, 0.2], [-1.0, 0.3]], [1.0, -1.0])
    run = execute(_scenario(ds, [[0.6, 0.8], [0.8, -0.6], [-0.6, 0.8]], [1.0, 1.0, -1.0], 0.0), None)
    assert held(check(run))
    c = ds.X[0] / np.linalg.norm(ds.X[0])
    real = theorem1_part1.init_law

    def reflected(rng, N, m, d):
        W = real(rng, N, m, d)
        return W - 2.0 * np.maximum(W @ c, 0.0)[..., None] * c

    monkeypatch.setattr(theorem1_part1, "init_law", reflected)
    assert violated(check(run))


def test_n1_dead_path_check_fails_before_the_neuron_dies():
    """EA-E6-n1-dead-path (erratum 3 corrected): P9's V+ neuron reaches S_dead at t* = 0.604; at the corrected time
    4 H_1/(m sqrt(mu) X_min) = 5.65 the check holds, at t = 0.3 (the bound shrunk 19x, below t*) the neuron is still in
    S- and the same check fails."""
    claim = C["EA-E6-n1-dead-path"]
    sc = theorem1_part1.p9_scenario()
    honest = execute(sc, claim.horizon, samples=claim.samples)
    assert honest.horizon > 5.0 and held(claim.check(honest))
    assert violated(claim.check(execute(sc, 0.3, samples=claim.samples)))


# ----------------------------------------------------------------------------- 2.F / 2.G Theorem 1 part 2


@pytest.fixture(scope="module")
def part2_run():
    """A theorem-scale part-2 run (eps = eps_required, ln eps = -2008): 2 + 2 points with mu = 0.5 (x+ and x- 138
    degrees apart, so the two groups give a stable rank ~1.14), two V+ neurons near x+ and two V- near x-."""
    ds = gen.orthogonally_separable(2, 2, 2, 0.5, seed=1)
    xp, xm = (v / np.linalg.norm(v) for v in (ds.x_plus, ds.x_minus))
    W0 = np.array([_rot(xp, 0.6), _rot(xp, -0.5), _rot(xm, 0.55), _rot(xm, -0.45)])
    signs = [1.0, 1.0, -1.0, -1.0]
    le, _ = required_log_eps(ds, _scenario(ds, W0, signs, 0.0).init, "required")
    ev = evaluate(C["EA-F5"], _scenario(ds, W0, signs, le))
    assert ev.status == "ok"  # Theorem 1's and part 2's preconditions hold
    return ev.run


def test_norms_after_t2_fail_with_the_level_raised(part2_run):
    """EA-F3 ((34)-(35), loose: sum ||w_j||^2 is ~35x 1/(4 X_max) after t2): with the level raised 1000x (X_max read
    1000x smaller) the same check fails."""
    check = C["EA-F3"].check
    honest = check(part2_run)
    assert held(honest) and honest.ratio < 0.1
    assert violated(check(_with_audit(part2_run, X_max=part2_run.audit.X_max / 1000.0)))


def test_loss_rate_fails_with_alpha_beyond_its_slack(part2_run):
    """EA-F4 (and the P12 control, same check): the O(1/t) rate holds with alpha / slowest rate of 1/L ~ 1e-3 (loose
    ~1000x); with alpha multiplied by 1e4 the restarted bound L(t_b) <= L(t_a)/(L(t_a) alpha (t_b - t_a) + 1) fails."""
    check = C["EA-F4"].check
    assert check is C["P12-part2-precondition"].check
    honest = check(part2_run)
    assert held(honest) and honest.ratio < 1e-2 and honest.ratio * 1e4 > 1.0
    assert violated(check(_with_audit(part2_run, alpha_rate=part2_run.audit.alpha_rate * 1e4)))


def test_t2_bound_fails_when_shrunk_beyond_its_slack(part2_run):
    """EA-F6 and EA-F6-imbalanced (same check): the empirical t2 is ~0.07 of the bound (39); with (39) divided by 100
    the bracketed t2 exceeds it."""
    check = C["EA-F6"].check
    assert check is C["EA-F6-imbalanced"].check
    honest = check(part2_run)
    assert held(honest) and honest.ratio < 0.1
    a = part2_run.audit
    assert violated(check(_with_audit(part2_run, t2_plus=a.t2_plus / 100.0, t2_minus=a.t2_minus / 100.0)))


def test_refined_alignment_fails_on_a_neuron_that_leaves_the_cos_quarter_set(part2_run):
    """EA-F5 (ii): {cos(x+, w_j) >= 1/4} is trapping. The same run with one V~+ neuron's direction turned to
    cos(x+, w_j) = 0.1 at the later samples before t2+ (a deliberately wrong trajectory; the event log is unchanged)
    fails the check."""
    check = C["EA-F5"].check
    assert held(check(part2_run))
    t, R, U, s, F, vp, vm, t1e, br = _t2_data(part2_run)
    traj = part2_run.trajectory
    times = np.asarray(traj.times)
    late = (times > 0.5 * br["plus"][0]) & (times <= br["plus"][0])
    assert late.sum() >= 2
    xp = part2_run.audit.x_plus / np.linalg.norm(part2_run.audit.x_plus)
    U2 = np.array(traj.U, copy=True)
    U2[late, int(np.flatnonzero(vp)[0])] = _rot(xp, math.acos(0.1))
    m = check(dataclasses.replace(part2_run, trajectory=dataclasses.replace(traj, U=U2)))
    assert violated(m) and "after first reaching 1/4" in m.note


def test_stable_rank_fails_with_factor_one(part2_run, monkeypatch):
    """EA-G3 and EA-G4 (stable-rank margins, factor 2): the two groups along x+ and x- (138 degrees apart) give a stable
    rank ~1.14, so ||W||_F^2 / (2 ||W||_2^2 + ...) ~ 0.57; with the factor 2 lowered to 1 both checks fail."""
    g3, g4 = C["EA-G3"].check, C["EA-G4"].check
    assert held(g3(part2_run)) and held(g4(part2_run)) and g3(part2_run).ratio > 0.55
    monkeypatch.setattr(low_rank, "STABLE_RANK_FACTOR", 1.0)
    assert violated(g3(part2_run)) and violated(g4(part2_run))


def test_printed_low_rank_constants_fail_at_large_eps(part2_run):
    """EA-G2-constants ((41)-(43) at eps_required: loose by ~1e200, LHS ~ eps^2 against bounds ~ eps): at eps = e^4
    (far above (28)) two V+ neurons 0.6 rad apart already have sigma_2(W+)^2 > 4 eps W_max^2 |V~+|/sqrt(h) at t = 0,
    and the same check fails; at eps = e^-2 it holds."""
    check = C["EA-G2-constants"].check
    assert held(check(part2_run))
    ds = gen.orthogonally_separable(2, 2, 2, 0.5, seed=1)
    xp, xm = (v / np.linalg.norm(v) for v in (ds.x_plus, ds.x_minus))
    W0 = np.array([_rot(xp, 0.3), _rot(xp, -0.3), _rot(xm, 0.3), _rot(xm, -0.3)])
    signs = [1.0, 1.0, -1.0, -1.0]
    assert held(check(execute(_scenario(ds, W0, signs, -2.0), 50.0, samples=96)))
    m = check(execute(_scenario(ds, W0, signs, 4.0), 50.0, samples=96))
    assert violated(m) and "(41)" in m.note


# ----------------------------------------------------------------------------- 2.H existence


def test_loss_descent_fails_under_a_flipped_v_update():
    """EA-H5's check (shared with EA-H5-unbalanced): on a Cartesian run of the v-sign-flipped engine mutant (v_j' with the
    wrong sign: not gradient flow) ln L increases between samples; the honest run holds."""
    check = C["EA-H5"].check
    assert check is C["EA-H5-unbalanced"].check
    sc = Scenario(DATA, balanced_init(3, 2, log_eps=math.log(0.1), seed=2), "exp", 0.0, {"init_seed": 2})
    assert held(check(execute(sc, 30.0, form="cartesian")))
    with MUTANTS["v-sign-flipped"].active():
        run = execute(sc, 30.0, form="cartesian")
    m = check(run)
    assert violated(m) and "ln L(" in m.note


def test_regular_solution_check_rejects_the_irregular_solution():
    """EA-H4: on Example E.4 the engine's run is stationary; a run carrying E.4's irregular Caratheodory solution (47)
    instead (still until t0 = 0.5, then leaving S_dead) fails the check."""
    check = C["EA-H4"].check
    run = execute(existence.e4_scenario(), 5.0)
    assert held(check(run))
    traj = run.trajectory
    times = np.asarray(traj.times)
    state, _ = e4_irregular(0.5, np.maximum(times - 0.5, 0.0))
    W = np.array([state(t)[0] for t in times])
    v = np.array([state(t)[1] for t in times])
    norms = np.linalg.norm(W, axis=2)
    planted = dataclasses.replace(traj, W=W, v=v, r=np.log(norms) if traj.r is not None else None,
                                  U=W / norms[:, :, None] if traj.U is not None else None)
    m = check(dataclasses.replace(run, trajectory=planted))
    assert violated(m) and m.value < -0.1


def test_continuity_check_notices_an_activation_tolerance(monkeypatch):
    """EA-H1: F is continuous off A. An engine deciding activity with a tolerance (S_ij = 1 only where <x_i, w_j> > 1e-3)
    has a jump at <x_i, w_j> = 1e-3, off A: at a state with one pre-activation just above the tolerance, decreasing along
    the check's segment, the discrepancy does not shrink with the step and the check fails; with the real mode it holds."""
    check = C["EA-H1"].check
    tol = 1e-3
    seed = 5
    W = 0.5 * np.array([[1.0, 0.3], [-0.2, 1.0], [-1.0, -0.1]])
    v = np.array([0.6, -0.5, 0.4])
    D = np.random.default_rng(seed + 777).standard_normal(W.shape)  # the check's segment direction (existence._segment_state)
    D *= np.linalg.norm(W) / np.linalg.norm(D)
    Q, P = DATA.X @ D.T, DATA.X @ W.T
    i, j = map(int, np.argwhere((Q < 0.0) & (P > 0.0))[0])
    W[j] += (tol * (1.0 + 1e-9) - P[i, j]) / (DATA.X[i] @ DATA.X[i]) * DATA.X[i]
    state = State(DATA, W, v, "exp", 0.0, params={"state_seed": seed})
    assert held(check(state))
    monkeypatch.setattr(NetworkField, "mode", lambda self, P: np.where(P > tol, 1.0, self.alpha))
    m = check(state)
    assert violated(m) and m.value < -100.0


# ----------------------------------------------------------------------------- bookkeeping


def test_every_seed004_claim_has_teeth_but_the_documented_one():
    """After teeth.attach: every claim of seed 004 has teeth (a planted claim sharing its check, a mutant or one of
    these tests) except EA-H6, which is documented only (no check, UNKNOWN by construction)."""
    assert [c.id for c in seed004.CLAIMS if not c.meta.get("teeth")] == ["EA-H6"]
