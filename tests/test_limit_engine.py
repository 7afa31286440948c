"""The closed-form eps -> 0 limit engine (verify.dynamics.limit) against independent ODE solves."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from verify.dynamics.field import NetworkField
from verify.dynamics.limit import (
    limit_alignment_time,
    limit_crossing_times,
    limit_mode_state,
    solve_limit,
)
from verify.errors import InputError

RTOL = dict(method="DOP853", rtol=1e-12, atol=1e-14)


def toy4(a: float = 0.3) -> tuple[np.ndarray, np.ndarray]:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, s], [c, -s], [-c, s], [-c, -s]]), np.array([1.0, 1.0, -1.0, -1.0])


def toy4_init() -> tuple[np.ndarray, np.ndarray]:
    ang = 0.2 + np.arange(8) * np.pi / 4
    return np.c_[np.cos(ang), np.sin(ang)], np.where(np.arange(8) % 2 == 0, 1.0, -1.0)


def assumption1_data(rng: np.random.Generator, n: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    """y_i x_i within 30 degrees of a core direction, so mu >= cos(60 deg) > 0."""
    core = rng.normal(size=d)
    core /= np.linalg.norm(core)
    pts = []
    while len(pts) < n:
        z = core + 0.5 * rng.normal(size=d) / np.sqrt(d)
        if z @ core / np.linalg.norm(z) > np.cos(np.pi / 6):
            pts.append(z / np.linalg.norm(z) * rng.uniform(0.5, 2.0))
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return y[:, None] * np.array(pts), y


def reference_run(X, y, alpha, u0, s, t_end, g=None):
    """Independent reference: DOP853 on u' = s P_u x_a, r' = s <u, x_a> mode by mode, with a
    terminal event per hyperplane; the new side of each pair met is sign(s <x_i, x_a>) with
    the pairs on their hyperplanes inactive."""
    g = y if g is None else g
    d = X.shape[1]
    u, r, t = u0 / np.linalg.norm(u0), 0.0, 0.0
    active = X @ u > 0
    skip: set[int] = set()
    events, pieces = [], []
    while True:
        if alpha == 0.0 and not active.any():
            pieces.append((t, np.inf, None, np.r_[u, r]))
            return events, pieces
        xa = (np.where(active, 1.0, alpha) * g) @ X

        def rhs(_t, z, xa=xa):
            uu = z[:d]
            return np.r_[s * (xa - (uu @ xa) * uu), s * (uu @ xa)]

        evs = []
        for i in range(X.shape[0]):
            if i in skip:
                continue
            ev = (lambda _t, z, i=i: X[i] @ z[:d])
            ev.terminal = True
            evs.append(ev)
        sol = solve_ivp(rhs, (t, t_end), np.r_[u, r], events=evs, dense_output=True, **RTOL)
        pieces.append((t, sol.t[-1], sol.sol, None))
        if sol.status != 1:
            return events, pieces
        t, z = sol.t[-1], sol.y[:, -1]
        u, r = z[:d] / np.linalg.norm(z[:d]), z[d]
        plane = [i for i in range(X.shape[0]) if abs(X[i] @ u) < 1e-8 * np.linalg.norm(X[i])]
        base = active.copy()
        base[plane] = False
        xa0 = (np.where(base, 1.0, alpha) * g) @ X
        new = base.copy()
        for i in plane:
            new[i] = s * (X[i] @ xa0) > 0
            if new[i] != active[i]:
                events.append((t, i, "activate" if new[i] else "deactivate"))
        active, skip = new, set(plane)


def reference_state(pieces, t):
    for t0, t1, sol, const in pieces:
        if t0 <= t <= t1:
            z = const if sol is None else sol(t)
            return z[:-1] / np.linalg.norm(z[:-1]), z[-1]
    raise AssertionError("time outside the reference run")


# --- one mode ---------------------------------------------------------------------------------


@pytest.mark.parametrize("s", [1.0, -1.0])
def test_single_mode_phi_and_u_against_ode(s):
    rng = np.random.default_rng(1)
    x_a = rng.normal(size=3) * 1.7
    u0 = rng.normal(size=3)
    u0 /= np.linalg.norm(u0)
    k = np.linalg.norm(x_a)
    a_hat = x_a / k
    ts = np.linspace(0.0, 3.0, 31)
    U, r = limit_mode_state(x_a, u0, s, ts, r0=-5.0)
    phi = np.arccos(np.clip(U @ a_hat, -1.0, 1.0))
    phi0 = np.arccos(u0 @ a_hat)
    ref_phi = solve_ivp(lambda _t, p: -s * k * np.sin(p), (0, 3), [phi0], t_eval=ts, **RTOL).y[0]
    np.testing.assert_allclose(phi, ref_phi, rtol=0, atol=1e-10)
    ref = solve_ivp(lambda _t, z: np.r_[s * (x_a - (z[:3] @ x_a) * z[:3]), s * (z[:3] @ x_a)], (0, 3), np.r_[u0, -5.0], t_eval=ts, **RTOL)
    np.testing.assert_allclose(U, ref.y[:3].T, rtol=0, atol=1e-10)
    np.testing.assert_allclose(r, ref.y[3], rtol=0, atol=1e-10)
    # r(t) = r0 - ln(sin phi(t)/sin phi0) (sheet 1.11)
    np.testing.assert_allclose(r, -5.0 - np.log(np.sin(ref_phi) / np.sin(phi0)), rtol=0, atol=1e-9)


def test_single_mode_crossing_times_solve_the_hyperplane_equation():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(12, 3))
    x_a = rng.normal(size=3)
    u0 = rng.normal(size=3)
    for s in (1.0, -1.0):
        tc = limit_crossing_times(X, x_a, u0, s)
        finite = np.isfinite(tc)
        assert finite.any() and (~finite).any()
        for i in np.flatnonzero(finite):
            U, _ = limit_mode_state(x_a, u0, s, np.array([tc[i] - 1e-6, tc[i], tc[i] + 1e-6]))
            p = U @ X[i]
            assert abs(p[1]) < 1e-12 and p[0] * p[2] < 0
        # pairs without a crossing keep their sign up to t = 50
        U, _ = limit_mode_state(x_a, u0, s, np.linspace(0, 50, 2001))
        P = U @ X[~finite].T
        assert np.all(np.sign(P) == np.sign(P[0]))


def test_asymptotic_states_stay_finite():
    U, r = limit_mode_state(np.array([2.0, 0.0]), np.array([0.0, 1.0]), 1.0, np.array([0.0, 1e3, 1e6]))
    assert np.all(np.isfinite(U)) and np.all(np.isfinite(r))
    np.testing.assert_allclose(U[-1], [1.0, 0.0], rtol=0, atol=1e-300)
    np.testing.assert_allclose(r[-1], 2e6 - np.log(2.0), rtol=1e-15)  # r0 + lncosh(tau) - lncosh(0)


# --- multi-mode runs ---------------------------------------------------------------------------


def _check_against_reference(X, y, alpha, U0, s, t_end, loss="exp"):
    field = NetworkField(X, y, loss, alpha)
    ts = np.linspace(0.0, t_end, 23)
    traj = solve_limit(field, U0, s, ts)
    g = field.loss.g(y, np.zeros_like(y))
    n_checked = 0
    for j in range(U0.shape[0]):
        ref_events, pieces = reference_run(X, y, alpha, U0[j], s[j], t_end, g)
        mine = [(e.t, e.i, e.kind) for e in traj.events if e.j == j and e.kind in ("activate", "deactivate")]
        assert sorted((round(t, 6), i, k) for t, i, k in mine) == sorted((round(t, 6), i, k) for t, i, k in ref_events)
        for (t_mine, i, _), (t_ref, _, _) in zip(sorted(mine, key=lambda e: (e[0], e[1])), sorted(ref_events, key=lambda e: (e[0], e[1]))):
            assert abs(t_mine - t_ref) < 1e-9
            n_checked += 1
        for q, t in enumerate(ts):
            u_ref, r_ref = reference_state(pieces, t)
            np.testing.assert_allclose(traj.U[q, j], u_ref, rtol=0, atol=1e-9)
            np.testing.assert_allclose(traj.r[q, j], r_ref, rtol=0, atol=1e-9)
    return traj, n_checked


def test_toy4_crossings_against_ode_events():
    X, y = toy4()
    U0, s = toy4_init()
    traj, n_checked = _check_against_reference(X, y, 0.0, U0, s, 3.0)
    assert n_checked == traj.stats["n_events"] == 16


@pytest.mark.parametrize("alpha", [0.0, 0.15])
@pytest.mark.parametrize("seed", [3, 4])
def test_random_assumption1_data_against_ode_events(alpha, seed):
    rng = np.random.default_rng(seed)
    X, y = assumption1_data(rng, 6, 3)
    U0 = rng.normal(size=(6, 3))
    s = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
    traj, n_checked = _check_against_reference(X, y, alpha, U0, s, 2.5)
    assert n_checked == traj.stats["n_events"] > 0


def test_patterns_monotone_and_each_hyperplane_crossed_once():
    rng = np.random.default_rng(5)
    X, y = assumption1_data(rng, 8, 3)
    U0 = rng.normal(size=(10, 3))
    s = np.where(rng.random(10) < 0.5, 1.0, -1.0)
    ts = np.linspace(0.0, 6.0, 601)
    traj = solve_limit(NetworkField(X, y, "exp"), U0, s, ts)
    crossings = traj.crossings()
    assert len(crossings) == traj.stats["n_events"] > 0
    for e in crossings:
        assert e.direction == y[e.i] * s[e.j]  # gains only y_i s_j = +1, losses only -1
        assert e.kind == ("activate" if e.direction > 0 else "deactivate")
    pairs = [(e.i, e.j) for e in crossings]
    assert len(pairs) == len(set(pairs))
    # y_i s_j <x_i, w_j(t)> is non-decreasing (EA-A4; w = exp(r) u, not the direction u)
    Q = np.einsum("khd,id->kih", traj.W, X) * y[None, :, None] * s[None, None, :]
    assert np.all(np.diff(Q, axis=0) >= -1e-12 * np.abs(Q[1:]))
    for j, hist in enumerate(traj.stats["history"]):
        kp = [h[2] for h in hist]
        km = [h[3] for h in hist]
        assert all(hist[q][1] == hist[q + 1][0] for q in range(len(hist) - 1))
        if s[j] > 0:
            assert kp == sorted(kp) and km == sorted(km, reverse=True)
        else:
            assert kp == sorted(kp, reverse=True) and km == sorted(km)


def test_dead_neurons_are_frozen():
    ang_pos = np.array([0.35, 0.45, 0.55])
    ang_neg = np.pi - np.array([0.4, 0.5, 0.6])
    ang = np.r_[ang_pos, ang_neg]
    X = np.c_[np.cos(ang), np.sin(ang)]
    y = np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])
    dirs = np.array([np.pi + 0.3, -np.pi / 2])  # repelled by the negatives into S_dead; already dead
    U0 = np.c_[np.cos(dirs), np.sin(dirs)]
    ts = np.linspace(0.0, 4.0, 81)
    traj = solve_limit(NetworkField(X, y, "exp"), U0, np.array([1.0, 1.0]), ts)
    dead = [e for e in traj.events if e.kind == "dead"]
    assert {e.j for e in dead} == {0, 1} and all(e.i == -1 for e in dead)
    assert traj.stats["dead"][1] == 0.0
    t_dead = traj.stats["dead"][0]
    assert 0.0 < t_dead < 4.0
    lost = [e for e in traj.crossings() if e.j == 0]
    assert [e.kind for e in lost] == ["deactivate"] * 3 and lost[-1].t == t_dead
    after = ts >= t_dead
    np.testing.assert_array_equal(traj.U[after, 0], np.broadcast_to(traj.U[after, 0][0], traj.U[after, 0].shape))
    np.testing.assert_array_equal(traj.r[after, 0], traj.r[after, 0][0])
    assert np.all(traj.U[:, 1] == U0[1]) and np.all(traj.r[:, 1] == 0.0)
    assert np.all(X @ traj.U[-1, 0] <= 1e-12)  # S_dead: it stops on the last hyperplane it met


# --- degenerate cases --------------------------------------------------------------------------


def test_fixed_points_phi0_zero_and_pi():
    X, y = toy4()
    k = 2 * np.cos(0.3)
    ts = np.array([0.0, 0.5, 2.0])
    field = NetworkField(X, y, "exp")
    # u0 = a_hat with s = +1 (stable), s = -1 (unstable); u0 = -a_hat with s = +1 (P7)
    U0 = np.array([[1.0, 0.0], [1.0, 0.0], [-1.0, 0.0]])
    traj = solve_limit(field, U0, np.array([1.0, -1.0, 1.0]), ts)
    assert traj.crossings() == []
    np.testing.assert_array_equal(traj.U, np.broadcast_to(U0, traj.U.shape))
    np.testing.assert_allclose(traj.r, np.c_[k * ts, -k * ts, -k * ts], rtol=1e-15)


def test_zero_aligning_vector_means_no_motion():
    X = np.array([[1.0, 0.0], [1.0, 0.0]])
    y = np.array([1.0, -1.0])
    traj = solve_limit(NetworkField(X, y, "exp"), np.array([[1.0, 0.5]]), np.array([1.0]), np.array([0.0, 1.0, 10.0]))
    assert traj.events == []
    np.testing.assert_allclose(traj.U[:, 0], np.broadcast_to([1.0, 0.5] / np.sqrt(1.25), (3, 2)))
    np.testing.assert_array_equal(traj.r, 0.0)


def test_plain_logistic_runs_twice_as_slow():
    X, y = toy4()
    U0, s = toy4_init()
    ts = np.linspace(0.0, 2.0, 9)
    fast = solve_limit(NetworkField(X, y, "exp"), U0, s, ts)
    slow = solve_limit(NetworkField(X, y, "logistic"), U0, s, 2 * ts)
    np.testing.assert_allclose(slow.U, fast.U, atol=1e-12)
    np.testing.assert_allclose(slow.r, fast.r, atol=1e-12)
    np.testing.assert_allclose([e.t for e in slow.events], [2 * e.t for e in fast.events], rtol=1e-12)


def test_sliding_in_2d_fixes_the_direction_and_the_norm_keeps_growing():
    X = np.array([[1.0, 0.0], [0.5, 1.0]])  # opposite labels, positive product: Assumption 1 fails
    y = np.array([-1.0, 1.0])
    u0 = np.array([-0.3, 1.0])
    ts = np.linspace(0.0, 3.0, 7)
    traj = solve_limit(NetworkField(X, y, "exp"), u0[None], np.array([1.0]), ts)
    (ev,) = traj.events
    assert ev.kind == "sliding" and ev.i == 0 and ev.j == 0
    ref_events, _ = reference_run(X, y, 0.0, u0, 1.0, 3.0)
    assert abs(ev.t - ref_events[0][0]) < 1e-9  # the reference meets the hyperplane at the same time
    assert traj.stats["exact"] and traj.stats["n_sliding"] == 1
    assert traj.stats["sliding_sets"][0] == [(), (0,)]
    after = ts > ev.t
    np.testing.assert_allclose(traj.U[after, 0], np.broadcast_to([0.0, 1.0], (after.sum(), 2)), atol=1e-15)
    # x_eff = projection of x_a = x_2 on x_1^perp = (0, 1): r' = <u, x_eff> = 1
    r_s = traj.r[after, 0][0] - (ts[after][0] - ev.t)
    np.testing.assert_allclose(traj.r[after, 0], r_s + ts[after] - ev.t, atol=1e-13)


def _smoothed_run(X, g, u0, s, t_end, delta):
    """Regularised reference: sigma'(p) -> logistic(p/delta); Filippov sliding is its delta -> 0 limit."""
    d = X.shape[1]

    def rhs(_t, z):
        u = z[:d] / np.linalg.norm(z[:d])
        sp = 0.5 * (1.0 + np.tanh((X @ u) / (2.0 * delta)))
        xa = (sp * g) @ X
        return np.r_[s * (xa - (u @ xa) * u), s * (u @ xa)]

    return solve_ivp(rhs, (0.0, t_end), np.r_[u0 / np.linalg.norm(u0), 0.0], method="Radau", rtol=1e-10, atol=1e-12, dense_output=True)


def test_sliding_in_3d_matches_the_regularised_flow():
    X = np.array([[1.0, 0.0, 0.0], [0.5, 1.0, 0.2], [0.3, -0.4, 1.0]])
    y = np.array([-1.0, 1.0, 1.0])
    u0 = np.array([-0.4, 1.0, -0.2])
    ts = np.linspace(0.0, 2.0, 11)
    traj = solve_limit(NetworkField(X, y, "exp"), u0[None], np.array([1.0]), ts)
    kinds = [e.kind for e in traj.events]
    assert "sliding" in kinds and traj.stats["exact"]
    t_s = next(e.t for e in traj.events if e.kind == "sliding")
    sld = ts > t_s
    assert np.all(np.abs(traj.U[sld, 0] @ X[0]) < 1e-13)  # stays on the hyperplane of x_1
    assert np.ptp(traj.U[sld, 0], axis=0).max() > 0.1  # and moves along it (d = 3)
    Z = _smoothed_run(X, y, u0, 1.0, 2.0, 1e-5).sol(ts)
    np.testing.assert_allclose(traj.U[:, 0], (Z[:3] / np.linalg.norm(Z[:3], axis=0)).T, rtol=0, atol=1e-9)
    np.testing.assert_allclose(traj.r[:, 0], Z[3], rtol=0, atol=1e-9)


@pytest.mark.parametrize("seed", [104, 105])
def test_general_data_with_sliding_exits_match_the_regularised_flow(seed):
    """Without Assumption 1: multi-surface sliding (seed 104) and sliding exits (seed 105)."""
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(4, 9)), int(rng.integers(2, 4))
    X = rng.normal(size=(n, d))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    U0 = rng.normal(size=(3, d))
    s = np.array([1.0, -1.0, 1.0])
    ts = np.linspace(0.0, 3.0, 31)
    traj = solve_limit(NetworkField(X, y, "exp"), U0, s, ts)
    kinds = {e.kind for e in traj.events}
    assert "sliding" in kinds and traj.stats["exact"]
    if seed == 104:
        assert max(len(sl) for sets in traj.stats["sliding_sets"] for sl in sets) == 2
    else:
        assert "sliding_exit" in kinds
    for j in range(3):
        Z = _smoothed_run(X, y, U0[j], s[j], 3.0, 1e-6).sol(ts)
        np.testing.assert_allclose(traj.U[:, j], (Z[:d] / np.linalg.norm(Z[:d], axis=0)).T, rtol=0, atol=1e-4)
        np.testing.assert_allclose(traj.r[:, j], Z[d], rtol=0, atol=1e-4)


# --- the worked example of the sheet (section 3.2) ---------------------------------------------


def test_toy4_alignment_time():
    """Sheet 3.2 reports "observed t1 = 1.380". The exact limit value is 1.362791: the last
    neuron (j = 4, s = +1, u0 at angle pi + 0.2, x_a = (2 cos a, 0) throughout) reaches S+ when
    it crosses the hyperplane of x1 at angle a - pi/2, i.e. at
    t1 = ln(tan((pi - 0.2)/2) / tan((pi/2 - a)/2)) / (2 cos a). 1.380 is the first point of a
    0.02 sampling grid after it."""
    X, y = toy4()
    U0, s = toy4_init()
    traj = solve_limit(NetworkField(X, y, "exp"), U0, s, np.linspace(0.0, 5.0, 251))
    t1 = limit_alignment_time(traj, y, s)
    a = 0.3
    exact = np.log(np.tan((np.pi - 0.2) / 2) / np.tan((np.pi / 2 - a) / 2)) / (2 * np.cos(a))
    assert t1 == pytest.approx(exact, abs=1e-12)
    assert t1 == pytest.approx(1.362791, abs=1e-6)
    grid = np.round(np.arange(0.0, 5.0, 0.02), 10)
    assert grid[grid >= t1][0] == pytest.approx(1.38)
    last = traj.U[-1]
    P = X @ last.T
    for j in range(8):
        want = (y > 0) if s[j] > 0 else (y < 0)
        np.testing.assert_array_equal(P[:, j] > 0, want)
    # every neuron's final pattern is its trapping set, and the last switch is at t1
    assert max(e.t for e in traj.crossings()) == t1


def test_input_validation():
    X, y = toy4()
    field = NetworkField(X, y, "exp")
    with pytest.raises(InputError):
        solve_limit(field, np.zeros((1, 2)), np.array([1.0]), np.array([1.0]))
    with pytest.raises(InputError):
        solve_limit(field, np.ones((1, 2)), np.array([0.5]), np.array([1.0]))
    with pytest.raises(InputError):
        solve_limit(field, np.ones((1, 2)), np.array([1.0]), np.array([1.0, 0.5]))
    with pytest.raises(InputError):
        solve_limit(NetworkField(X, y, "exp", train_v=False), np.ones((1, 2)), np.array([1.0]), np.array([1.0]))


# The limit engine settles crossings with the switching law of the float64 engine (law.settle_column): on data with
# mirrored rows (x_1 = -x_0, one surface for two rows) and for a neuron sliding in d = 2 (its direction fixed), the
# closed form follows the float64 polar flow started at ||w|| = e^-300 (|f| ~ 1e-260: the limit field exactly).
# Before the shared law, the limit engine settled mirrored rows by its own rule and left these flows by up to 1.9,
# and the d = 2 sliding neuron turned through 0 to -u at t = 11.
AGREEMENT_CASES = {
    "mirrored rows, alpha 0.2, square": (
        [[1.0, -1.0, 0.0], [-1.0, 1.0, -0.0], [-2.0, 1.0, 1.0], [0.0, 1.0, 0.0]], [-1.0, 1.0, -1.0, -1.0],
        [[1.0, -1.0, -0.0], [-1.321789744519025, 1.1419961168760482, 0.7115892861383741]], [1.0, 1.0], 0.2, "square"),
    "mirrored rows, alpha 0, exp": (
        [[-1.4717675090881714, 1.0162674929083935], [1.4717675090881714, -1.0162674929083935],
         [-1.89141209206216, -0.5342238407490858], [-1.1818436200084754, -0.3639146373504742],
         [0.6202767049951368, 1.4690849181260075]], [-1.0, 1.0, -1.0, -1.0, 1.0],
        [[0.8535907181430092, 0.610407333067874], [2.3549212757476528, 1.4317753105174584],
         [0.7843567297973222, 1.6907226407742137]], [-1.0, -1.0, -1.0], 0.0, "exp"),
    "sliding in d = 2, alpha 0.2, square": (
        [[-0.32676175000660074, 1.1792330047847563], [0.8093041827871861, -0.5139931841118317],
         [-1.6307717398697126, -0.5559564248052246], [0.6178254502263926, -0.24478853915009852],
         [1.7744908942391904, 0.2583366178615912], [0.1915307130179363, 0.40203745530172014]],
        [1.0, 1.0, -1.0, 1.0, 1.0, 1.0],
        [[-0.4529583570692866, -0.12855648930973063], [-1.4955916807753902, -0.598751986305089],
         [0.7842103172360536, 0.09205116932940653], [-0.5287432196452484, 1.5371147676956476]],
        [1.0, 1.0, -1.0, -1.0], 0.2, "square"),
}


@pytest.mark.parametrize("name", sorted(AGREEMENT_CASES))
def test_limit_engine_follows_the_float64_flow_at_tiny_scale(name):
    from verify.dynamics.events import solve_polar

    X, y, U0, s, alpha, loss = (np.asarray(a, dtype=float) if isinstance(a, list) else a for a in AGREEMENT_CASES[name])
    field = NetworkField(X, y, loss, alpha)
    times = np.linspace(0.0, 30.0, 31)
    lim = solve_limit(field, U0, s, times)
    flow = solve_polar(field, np.full(U0.shape[0], -300.0), U0, s, times)
    assert lim.stats["exact"]
    assert np.max(np.abs(np.asarray(lim.U) - np.asarray(flow.U))) < 1e-6
    assert [(e.i, e.j, e.kind) for e in lim.events] == [(e.i, e.j, e.kind) for e in flow.events]


def test_a_row_resting_on_its_plane_is_settled_at_the_next_event():
    """A row that activates with zero normal speed (x_eff orthogonal to it) rests on its plane; when the neuron then
    reaches a corner where three planes meet on one axis (x_0, x_2 = x_4, x_3 all orthogonal to u = e_2 at t = 4.70),
    that row is settled with the others, as it is in the mp engine (which labels it sliding). Before, the limit engine
    settled it only when rounding made its crossing time fall on the event, and left the 50-digit mp flow by 0.44."""
    from verify.simulate import simulate

    X = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [-1.0, 0.0, 0.0], [0.0, 3.0, 1.0]])
    y = np.array([-1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
    U0 = np.array([[0.014670688134517688, 0.755098724792031, -0.6554469366219574],
                   [0.8531056364235013, -0.08852147789738328, 0.5141738237729687],
                   [-0.24776502099466757, 0.14835440142578918, 0.9573941016891151],
                   [0.0816600589504038, 0.9940825947900362, -0.07163399687107556]])
    s, times = np.array([-1.0, 1.0, -1.0, -1.0]), np.array([3.0, 6.0, 15.0])
    kw = dict(loss="logistic", log_eps=-300.0, times=times)
    limit = simulate((X, y), U0, s, 15.0, backend="limit", **kw)
    reference = simulate((X, y), U0, s, 15.0, backend="mp", dps=50, **kw)
    assert np.max(np.abs(limit.U - np.asarray(reference.U, dtype=float))) <= 1e-9
    assert limit.uncertified is None and reference.uncertified is None
