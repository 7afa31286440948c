"""Tests of the event-driven gradient-flow engine (verify.dynamics.events and its pieces)."""

from __future__ import annotations

import re

import mpmath
import numpy as np
import pytest
from scipy.integrate import solve_ivp

from verify import Dataset, simulate
from verify.dynamics import crossings, engine, stepper
from verify.dynamics.events import solve_cartesian, solve_polar
from verify.dynamics.field import NetworkField
from verify.dynamics.forms import CartesianForm
from verify.trajectory import Event, sliding_mask


def unit(deg: float) -> np.ndarray:
    return np.array([np.cos(np.radians(deg)), np.sin(np.radians(deg))])


def assumption1_data(n: int, d: int, rng: np.random.Generator, spread: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """y_i x_i = e_1 + small noise, so all <y_i x_i, y_k x_k> > 0 (seed 004 Assumption 1)."""
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    base = np.zeros(d)
    base[0] = 1.0
    Z = base + spread * rng.normal(size=(n, d)) / np.sqrt(d)
    assert np.min(Z @ Z.T) > 0.0
    return y[:, None] * Z, y


def balanced_init(h: int, d: int, eps: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    W0 = eps * rng.normal(size=(h, d)) / np.sqrt(d)
    s = rng.choice([-1.0, 1.0], size=h)
    return W0, s * np.linalg.norm(W0, axis=1), s


def polar_of(W0: np.ndarray, v0: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    norms = np.linalg.norm(W0, axis=1)
    return np.log(norms), W0 / norms[:, None], np.sign(v0)


# (a) one-point problem with a closed form ---------------------------------------------------


def test_one_point_closed_form():
    """n = 1, ||x|| = 1, neuron aligned with x, balanced: q = v^2 solves Ei(q(t)) - Ei(q0) = 2t.

    f = v <w, x> = v ||w|| = q, v' = <w, x> e^{-q} = ||w|| e^{-q}, so q' = 2 v v' = 2 q e^{-q}
    and int e^q / q dq = Ei(q) gives Ei(q(t)) - Ei(q0) = 2t.
    """
    x = np.array([[0.6, 0.0, 0.8]])
    field = NetworkField(x, np.array([1.0]), "exp")
    q0 = 0.01
    W0 = np.sqrt(q0) * x
    v0 = np.array([np.sqrt(q0)])
    times = np.array([0.5, 1.0, 2.0, 3.0, 5.0, 10.0])
    tr = solve_cartesian(field, W0, v0, times, rtol=1e-12)
    q = tr.v[:, 0] ** 2
    for t, qt in zip(times, q):
        with mpmath.workdps(30):
            target = mpmath.ei(q0) + 2 * mpmath.mpf(t)
            exact = mpmath.findroot(lambda u: mpmath.ei(u) - target, qt)
        assert abs(qt - float(exact)) <= 1e-9 * float(exact)
    assert tr.events == []
    np.testing.assert_allclose(np.linalg.norm(tr.W, axis=2)[:, 0], tr.v[:, 0], rtol=1e-11)


# (b) balancedness -----------------------------------------------------------------------------


@pytest.mark.parametrize("balanced", [True, False])
def test_balancedness_conserved(balanced):
    rng = np.random.default_rng(3)
    X, y = assumption1_data(12, 4, rng)
    field = NetworkField(X, y, "logistic2")
    W0, v0, _ = balanced_init(10, 4, 0.1, rng)
    if not balanced:
        v0 = 0.1 * rng.normal(size=10)
    tr = solve_cartesian(field, W0, v0, np.linspace(0.5, 20.0, 40), rtol=1e-11)
    assert tr.balancedness_drift <= 1e-9
    c = tr.v**2 - np.sum(tr.W**2, axis=2)
    c0 = v0**2 - np.sum(W0**2, axis=1)
    if not balanced:
        assert np.min(np.abs(c0)) > 1e-4  # conserved but not zero
    np.testing.assert_allclose(c, np.broadcast_to(c0, c.shape), atol=1e-9 * np.max(np.abs(tr.v)) ** 2)
    assert tr.stats["n_events"] > 0


# (c) monotone activation patterns under Assumption 1 ------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_crossings_monotone_under_assumption1(seed):
    rng = np.random.default_rng(seed)
    n, d, h = 10, 5, 12
    X, y = assumption1_data(n, d, rng)
    field = NetworkField(X, y, "exp")
    W0, v0, s = balanced_init(h, d, 1e-4, rng)
    tr = solve_cartesian(field, W0, v0, np.array([5.0, 30.0]))
    cross = tr.crossings()
    assert 0 < len(cross) <= n * h
    assert all(e.kind in ("activate", "deactivate", "dead") for e in tr.events)
    pairs = [(e.i, e.j) for e in cross]
    assert len(pairs) == len(set(pairs))
    for e in cross:
        assert e.direction == int(y[e.i] * s[e.j])
    assert tr.balancedness_drift <= 1e-9
    # the final pattern agrees with the initial pattern plus the logged crossings
    P0 = X @ W0.T > 0
    P1 = X @ tr.W[-1].T > 0
    for e in cross:
        P0[e.i, e.j] = e.direction > 0
    dead = {e.j for e in tr.events if e.kind == "dead"}
    keep = [j for j in range(h) if j not in dead]
    np.testing.assert_array_equal(P0[:, keep], P1[:, keep])


# (d) two crossings inside one step --------------------------------------------------------------


def _excursion_problem():
    """w = (1, 0.9), v = -0.5 (unbalanced), x1 = (1, 0) (y = +1, active), x2 = (-1, 1) (inactive).

    Only w_1 moves (w' = v g_1 x1); it dips from 1 to ~0.866 and comes back, so
    e_2 = <x2, w> = 0.9 - w_1 goes from -0.1 up to ~+0.034 and back below 0.
    """
    X = np.array([[1.0, 0.0], [-1.0, 1.0]])
    field = NetworkField(X, np.array([1.0, -1.0]), "exp")
    return field, np.array([[1.0, 0.9]]), np.array([-0.5])


def _excursion_reference() -> tuple[float, float]:
    """Up- and down-crossing times of e_2 with the pattern frozen (fine solve_ivp)."""

    def rhs(t, z):
        w1, v = z
        g = np.exp(-v * w1)
        return [v * g, w1 * g]

    up = lambda t, z: 0.9 - z[0]  # noqa: E731
    sol = solve_ivp(rhs, (0, 2), [1.0, -0.5], rtol=1e-13, atol=1e-15, events=up)
    return float(sol.t_events[0][0]), float(sol.t_events[0][1])


def test_double_crossing_inside_one_step_is_found():
    field, W0, v0 = _excursion_problem()
    t_up, t_down = _excursion_reference()
    form = CartesianForm(field, 1, 2)
    S = np.array([[1.0], [0.0]])
    fun = lambda s, z: form.rhs(z, S)  # noqa: E731
    z0 = form.pack(W0, v0)
    f0 = fun(0.0, z0)
    h = 0.9  # one step over the whole excursion
    res = stepper.step(fun, 0.0, z0, f0, h, 1e-3, np.full(z0.size, 1e-6))
    F = stepper.dense_matrix(fun, 0.0, z0, f0, res, h)
    E = form.preact(np.vstack([z0[None], F]))
    e_start, e_end = E[0][1, 0], form.preact(res.z_new)[1, 0]
    assert e_start < 0 and e_end < 0  # an end-point sign test sees nothing
    side = np.array([[1], [-1]])
    zeros = np.zeros((2, 1))
    cr = crossings.first_crossing(crossings.cheb_coefficients(E), E[0], side, zeros, np.ones((2, 1), bool), zeros)
    assert cr.pairs == [(1, 0)]
    xs = np.linspace(0.0, 1.0, 20001)
    e_dense = form.preact(stepper.dense_eval(z0, F, xs))[:, 1, 0]
    x_fine = xs[np.argmax(e_dense > 0)]
    assert abs(cr.x - x_fine) <= 1e-4
    assert abs(cr.x * h - t_up) < 1e-3  # the interpolant of this crude step is still close
    # the engine, with a forced huge first step at a loose tolerance, finds the same event
    tr = solve_cartesian(field, W0, v0, np.array([2.0]), rtol=1e-10, first_step=0.9)
    first = tr.events[0]
    assert (first.i, first.j, first.kind) == (1, 0, "activate")
    assert abs(first.t - t_up) <= 1e-8


# (e) PC2: sliding ---------------------------------------------------------------------------------


def _pc2():
    X = np.array([unit(0), unit(80), unit(120), unit(135)])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    s = np.array([1.0, 1.0, 1.0, -1.0, -1.0])
    W0 = 1e-3 * np.array([unit(a) for a in (45.0, 60.0, 20.0, 200.0, 160.0)])
    return NetworkField(X, y, "logistic"), W0, s * 1e-3, s


def test_pc2_sliding_is_reported_and_stays_on_surface():
    field, W0, v0, s = _pc2()
    times = np.geomspace(1e-2, 1e4, 80)
    tr = solve_cartesian(field, W0, v0, times, rtol=1e-11)
    slides = [e for e in tr.events if e.kind == "sliding"]
    assert {(e.i, e.j) for e in slides} >= {(2, 0), (2, 1), (2, 2)}
    for e in slides:
        after = times > e.t
        exits = [x.t for x in tr.events if x.kind == "sliding_exit" and (x.i, x.j) == (e.i, e.j) and x.t > e.t]
        if exits:
            after &= times < exits[0]
        w = tr.W[after, e.j]
        rel = np.abs(w @ field.X[e.i]) / np.linalg.norm(w, axis=1)
        assert after.sum() > 10 and np.max(rel) <= 1e-12
    ang = np.degrees(np.arctan2(tr.W[-1, :3, 1], tr.W[-1, :3, 0]))
    np.testing.assert_allclose(ang, 30.0, atol=1e-9)
    assert tr.balancedness_drift <= 1e-9
    assert tr.stats["steps"] < 5000  # no chattering


def test_sliding_mask_marks_exactly_the_pairs_held_on_their_kink():
    """verify.trajectory.sliding_mask reads the event log: on at the "sliding" event, off at its exit; the marked
    pairs are the ones the state holds at <x_i, w_j> = 0 to rounding, the unmarked ones are off their kink."""
    field, W0, v0, s = _pc2()
    times = np.geomspace(1e-2, 1e4, 80)
    tr = solve_cartesian(field, W0, v0, times, rtol=1e-11)
    mask = sliding_mask(tr.events, tr.times, field.X.shape[0], W0.shape[0])
    assert mask.shape == (times.size, 4, 5) and mask[-1, 2, :3].all() and not mask[0].any()
    rel = np.abs(np.einsum("sjd,id->sij", tr.W, field.X)) / np.linalg.norm(tr.W, axis=2)[:, None, :]
    assert np.max(rel[mask]) <= 1e-12
    late = times > 10.0
    assert np.min(rel[late][~mask[late]]) > 1e-6


def test_sliding_mask_follows_entries_exits_and_crossings():
    events = [Event(1.0, 0, 1, "sliding"), Event(2.0, 1, 1, "sliding"), Event(3.0, 0, 1, "sliding_exit"),
              Event(4.0, 1, 1, "activate", 1)]
    mask = sliding_mask(events, np.array([0.5, 1.0, 2.5, 3.5, 5.0]), 2, 2)
    assert [sorted(map(tuple, np.argwhere(m).tolist())) for m in mask] == [[], [(0, 1)], [(0, 1), (1, 1)], [(1, 1)], []]


# (f) polar vs Cartesian ---------------------------------------------------------------------------


def test_polar_matches_cartesian_and_runs_at_tiny_eps():
    rng = np.random.default_rng(5)
    X, y = assumption1_data(8, 3, rng)
    field = NetworkField(X, y, "exp")
    W0, v0, s = balanced_init(6, 3, 1e-6, rng)
    times = np.linspace(1.0, 25.0, 25)
    cart = solve_cartesian(field, W0, v0, times, rtol=1e-11)
    r0, U0, sg = polar_of(W0, v0)
    pol = solve_polar(field, r0, U0, sg, times, rtol=1e-11)
    scale = np.linalg.norm(cart.W, axis=2)[:, :, None]
    assert np.max(np.abs(pol.W - cart.W) / scale) <= 1e-8
    assert [(e.i, e.j, e.kind) for e in pol.events] == [(e.i, e.j, e.kind) for e in cart.events]
    assert max(abs(a.t - b.t) / max(1.0, a.t) for a, b in zip(pol.events, cart.events)) <= 1e-8
    assert pol.stats["u_norm_drift"] < 1e-8
    tiny = solve_polar(field, r0 - 1000 * np.log(10.0) + np.log(1e6), U0, sg, times)
    assert np.all(np.isfinite(tiny.r)) and np.all(tiny.r < -2000)
    np.testing.assert_allclose(np.linalg.norm(tiny.U, axis=2), 1.0, atol=1e-12)
    assert tiny.stats["outputs_underflow_float64"]


# (g) closed-form eps -> 0 limit inside one mode ---------------------------------------------------


def test_polar_tiny_eps_follows_closed_form_in_fixed_pattern():
    rng = np.random.default_rng(11)
    X, y = assumption1_data(6, 3, rng)
    field = NetworkField(X, y, "exp")
    W0, v0, s = balanced_init(8, 3, 1.0, rng)
    r0, U0, sg = polar_of(W0, v0)
    r0 = r0 + np.log(1e-30)
    times = np.linspace(0.01, 3.0, 300)
    tr = solve_polar(field, r0, U0, sg, times, rtol=1e-12)
    checked = 0
    for j in range(8):
        first = min([e.t for e in tr.events if e.j == j] + [np.inf])
        active = X @ U0[j] > 0
        if not active.any():
            continue
        xa = (y[active, None] * X[active]).sum(axis=0)
        k = np.linalg.norm(xa)
        a_hat = xa / k
        phi0 = np.arccos(np.clip(U0[j] @ a_hat, -1, 1))
        ok = times < first
        phi = np.arccos(np.clip(tr.U[ok, j] @ a_hat, -1, 1))
        pred = 2 * np.arctan(np.tan(phi0 / 2) * np.exp(-sg[j] * k * times[ok]))
        assert np.max(np.abs(phi - pred)) <= 1e-9
        r_pred = r0[j] - np.log(np.sin(pred) / np.sin(phi0))
        assert np.max(np.abs(tr.r[ok, j] - r_pred)) <= 1e-9
        checked += ok.sum()
    assert checked > 100


# (h) log time ----------------------------------------------------------------------------------------


def test_log_time_long_horizon_matches_linear_time():
    rng = np.random.default_rng(7)
    X, y = assumption1_data(6, 3, rng)
    field = NetworkField(X, y, "logistic2")
    W0, v0, _ = balanced_init(5, 3, 1e-2, rng)
    times = np.array([1.0, 10.0, 100.0, 1000.0])
    lin = solve_cartesian(field, W0, v0, times, log_time=False, rtol=1e-11)
    log = solve_cartesian(field, W0, v0, times, log_time=True, rtol=1e-11)
    scale = np.linalg.norm(lin.W, axis=2)[:, :, None]
    assert np.max(np.abs(lin.W - log.W) / scale) <= 1e-8
    long = solve_cartesian(field, W0, v0, np.geomspace(1.0, 1e8, 9))
    assert long.params["log_time"] and np.all(np.isfinite(long.W))
    assert long.stats["steps"] < 20000
    assert long.balancedness_drift <= 1e-8


# (i) leaky ReLU and dead neurons -------------------------------------------------------------------


def test_leaky_runs_and_conserves_balancedness():
    rng = np.random.default_rng(2)
    X, y = assumption1_data(8, 3, rng)
    field = NetworkField(X, y, "exp", alpha=0.2)
    W0, v0, _ = balanced_init(6, 3, 1e-3, rng)
    tr = solve_cartesian(field, W0, v0, np.linspace(1.0, 20.0, 20), rtol=1e-11)
    assert tr.balancedness_drift <= 1e-9
    assert not any(e.kind == "dead" for e in tr.events)


def test_dead_neuron_is_logged_once_and_frozen():
    """x1 = (1, 0) positive, x2 = (0, 1) negative; a positive neuron at (-1, 0.1) is active on
    x2 only, moves along -x2 (w' = v g_2 x2, g_2 < 0), loses x2 and is then dead."""
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    field = NetworkField(X, np.array([1.0, -1.0]), "exp")
    w_dead = 1e-2 * np.array([-1.0, 0.1])
    W0 = np.vstack([w_dead, [1e-2, 1e-3]])
    v0 = np.linalg.norm(W0, axis=1)
    times = np.linspace(0.5, 30.0, 60)
    tr = solve_cartesian(field, W0, v0, times)
    dead = [e for e in tr.events if e.kind == "dead"]
    assert [(e.i, e.j) for e in dead] == [(-1, 0)]
    deact = [e for e in tr.events if e.j == 0 and e.kind == "deactivate"]
    assert len(deact) == 1 and deact[0].t == dead[0].t
    after = times > dead[0].t
    assert after.sum() > 10
    np.testing.assert_array_equal(tr.W[after, 0], np.broadcast_to(tr.W[after][0, 0], tr.W[after, 0].shape))
    assert abs(tr.W[-1, 0] @ X[1]) <= 1e-15  # parked exactly on the hyperplane (sigma'(0) = 0)
    assert not any(e.j == 0 and e.t > dead[0].t for e in tr.events)


# initial states on a hyperplane (seed 004 App. E.4, seed 000 PC11) ----------------------------------


def test_initial_state_on_hyperplanes():
    """E.4: x = (1, 0), y = +1, w(0) = (0, 1), v = 1 is in S_dead's boundary: the regular solution
    is stationary. PC11: a neuron with w^T x2 = 0 whose active x1 pushes it over leaves at once."""
    f = NetworkField(np.array([[1.0, 0.0]]), np.array([1.0]), "exp")
    tr = solve_cartesian(f, np.array([[0.0, 1.0]]), np.array([1.0]), np.array([1.0, 5.0]))
    assert [(e.kind, e.j, e.t) for e in tr.events] == [("dead", 0, 0.0)]
    np.testing.assert_array_equal(tr.W[-1], [[0.0, 1.0]])
    X = np.array([[1.0, 0.2], [0.2, 1.0]])
    f = NetworkField(X, np.array([1.0, 1.0]), "exp")
    w0 = np.array([[1.0, -0.2]]) / np.sqrt(1.04)
    tr = solve_cartesian(f, w0, np.array([1.0]), np.array([1.0]))
    assert [(e.i, e.j, e.kind, e.t) for e in tr.events] == [(1, 0, "activate", 0.0)]
    assert tr.W[-1, 0] @ X[1] > 0.1


def test_outputs_at_many_samples_are_the_outputs_at_each():
    """NetworkField.outputs / polar_outputs take a leading sample axis (the trajectories' loss statistics use it); each
    row is the one-state value (with the mode of that state), at alpha 0 and leaky."""
    rng = np.random.default_rng(11)
    X = rng.standard_normal((7, 3))
    y = np.where(rng.standard_normal(7) > 0, 1.0, -1.0)
    W, v = rng.standard_normal((5, 4, 3)), rng.standard_normal((5, 4))
    r, s = rng.standard_normal((5, 4)), np.array([1.0, -1.0, 1.0, -1.0])
    U = W / np.linalg.norm(W, axis=2, keepdims=True)
    for alpha in (0.0, 0.3):
        field = NetworkField(X, y, "exp", alpha)
        many, polar = field.outputs(W, v), field.polar_outputs(r, U, s)
        assert many.shape == polar.shape == (5, 7)
        for k in range(5):
            np.testing.assert_allclose(many[k], field.outputs(W[k], v[k]), rtol=1e-13, atol=1e-15)
            np.testing.assert_allclose(polar[k], field.polar_outputs(r[k], U[k], s), rtol=1e-13, atol=1e-15)
            P = X @ W[k].T
            np.testing.assert_allclose(many[k], (P * np.where(P > 0, 1.0, alpha)) @ v[k], rtol=1e-13, atol=1e-15)


def test_a_neuron_collapsing_to_its_origin_is_named_or_its_passage_recorded() -> None:
    """The second thorough audit's LT-T61 run (seed 1): with a_j = -1 and ||w_j|| ~ 2e-3 the field drives w_5 straight
    into 0, where every kink of that neuron meets, at t ~ 0.0013916. Whether the engine gets out depends on its step
    sizes (here: on the horizon): a step-size underflow names the neuron instead of guessing at a flow beyond the
    data's scale, and a run that passes through records the passage in ``stats["apex"]``."""
    from verify import simulate
    from verify.data.generators import linear_teacher
    from verify.errors import NumericalError

    ds = linear_teacher(12, 2, 0.2, seed=9912)
    W0 = 1e-3 * np.random.default_rng(12345).standard_normal((10, 2))
    v0 = np.r_[np.ones(5), -np.ones(5)]
    kw = dict(loss="logistic", alpha=0.2, rtol=1e-10)
    for horizon in (0.002, 0.01):  # which of the two happens is rounding's choice at the origin (here: one of each)
        try:
            through = simulate(ds, W0, v0, horizon, **kw)
        except NumericalError as exc:
            assert re.search(r"t = 0\.00139155 .*neuron 5 has \|\|w_j\|\| = .* collapsing to w_j = 0", str(exc)), exc
        else:
            assert {(j, round(t, 8)) for j, t in through.stats["apex"]} == {(5, 0.00139155)}
    before = simulate(ds, W0, v0, 0.0013, times=[0.0, 0.0013], **kw)
    assert not before.stats["apex"]
    assert np.linalg.norm(before.W[-1, 5]) < 0.1 * np.linalg.norm(before.W[0, 5])  # linearly down towards 0 before


def test_apex_passages_need_surfaces_spanning_the_space_at_one_time() -> None:
    from verify.dynamics.settle import apex_passages

    X = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 0.0], [1.0, 1e-12]])
    ev = [Event(0.5, 0, 3, "activate", 1), Event(0.5, 1, 3, "deactivate", -1), Event(0.7, 0, 1, "activate", 1),
          Event(0.8, 1, 1, "activate", 1), Event(0.9, 0, 2, "activate", 1), Event(0.9, 2, 2, "deactivate", -1),
          Event(0.9, 3, 2, "activate", 1)]
    assert apex_passages(ev, X) == [(3, 0.5)]  # neuron 1 crosses two lines at different times; neuron 2 one line
    assert apex_passages(ev, X[:, :1]) == []  # d = 1: every x_i on one line, settled jointly
    t = 0.00020487280649208786  # LT-C62's passage (thorough audit, seed 2): its event times apart in the last digits
    late = [Event(t, 0, 3, "activate", 1), Event(np.nextafter(t, 1.0), 1, 3, "deactivate", -1)]
    assert apex_passages(late, X) == [(3, t)]
    assert apex_passages([Event(0.4, 0, 1, "deactivate", -1), Event(0.4, -1, 1, "dead", 0)], X[:2]) == []  # no surface


def test_a_crossing_in_one_dimension_does_not_flip_back() -> None:
    """d = 1: every row's surface is w_j = 0, where each crossing's projection lands exactly, so tau = 0 there. The scan
    read the pairs' start value from the Chebyshev series' alternating sum, whose rounding (~1e-20) put a resting pair
    "on the wrong side" half the time: the crossing flipped back and forth at one time and, with a 3(2) step, the step
    size underflowed (thorough audit, seed 4, LT-X6-gf: linear_teacher(n=4, d=1, seed=210), k = 3, leaky 0.5, fixed
    outer layer). Now each crossing is one event per row, and the run ends."""
    X = np.array([[-0.2], [0.21244354564898504], [-0.6529399026639615], [0.5292324688296897]])
    ds = Dataset(X, np.array([1.0, -1.0, 1.0, -1.0]))
    W = np.array([[-0.7674633379682666], [-0.4068190496679377], [0.42054241540540305], [1.0], [-0.2168673164929213],
                  [0.5026851026711722]])
    v = np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])
    for compiled in (True, False):
        engine.COMPILED_LOOP = compiled
        try:
            tr = simulate(ds, W, v, 2.0, loss="logistic", alpha=0.5, train_v=False, rtol=1e-10)
        finally:
            engine.COMPILED_LOOP = True
        assert tr.W[-1, 4, 0] > 0.0  # neuron 4 crossed w = 0 upwards (w' > 0 on both sides)
        crossings4 = [(e.i, e.kind) for e in tr.events if e.j == 4]
        assert sorted(crossings4) == [(0, "deactivate"), (1, "activate"), (2, "deactivate"), (3, "activate")]
        times = [e.t for e in tr.events]
        assert len(times) == len(set((e.t, e.i, e.j) for e in tr.events))  # no pair logged twice at one time
