"""Hybrid polar engine (verify.dynamics.hybrid): exact limit phase, then the polar ODE."""

import dataclasses

import numpy as np
import pytest

from verify import simulate
from verify.data.generators import orthogonally_separable, pc2_cross_class_acute
from verify.dynamics.events import solve_polar
from verify.dynamics.field import NetworkField
from verify.dynamics.hybrid import F_SAFE, limit_field_is_exact, solve_polar_hybrid
from verify.model.init import balanced_init
from verify.model.losses import LOSSES, Loss

LOSS_NAMES = sorted(LOSSES)


def _problem(n=12, d=4, h=12, seed=1):
    ds = orthogonally_separable(n // 2, n - n // 2, d, 0.3, seed=seed, norm_range=(0.5, 2.0))
    init = balanced_init(h, d, log_eps=0.0, seed=seed + 1)
    nr = np.linalg.norm(init.W0, axis=1)
    return ds, np.log(nr), init.W0 / nr[:, None], np.sign(init.v0)


def _switches(traj):
    return [e for e in traj.events if e.kind != "grazing"]


def _assert_agree(a, b, state_tol=1e-7, time_tol=1e-8):
    np.testing.assert_allclose(b.r, a.r, rtol=0, atol=state_tol)
    np.testing.assert_allclose(b.U, a.U, rtol=0, atol=state_tol)
    ea, eb = _switches(a), _switches(b)
    assert sorted((e.i, e.j, e.kind, e.direction) for e in ea) == sorted((e.i, e.j, e.kind, e.direction) for e in eb)
    key = lambda e: (e.j, e.i, e.kind, round(e.t, 6))  # noqa: E731  (simultaneous events: any order)
    for x, y in zip(sorted(ea, key=key), sorted(eb, key=key)):
        assert abs(x.t - y.t) <= time_tol * max(1.0, x.t)


# (a) mid-run switch and pure-limit runs agree with plain solve_polar ----------------------------


@pytest.mark.parametrize("loss", LOSS_NAMES)
def test_switch_mid_run_matches_plain_polar(loss):
    ds, r0, U0, s = _problem()
    field = NetworkField(ds.X, ds.y, loss)
    times = np.linspace(0.0, 30.0, 31)
    a = solve_polar(field, r0 - 40.0, U0, s, times)
    b = solve_polar_hybrid(field, r0 - 40.0, U0, s, times)
    T_s = b.stats["limit_phase_until"]
    assert 0.0 < T_s < 30.0 and b.stats["steps"] > 0  # really switched mid-run
    assert any(e.t < T_s for e in _switches(b))
    # at T_s the float64 outputs are below the threshold: the phases are the same dynamics
    k = np.searchsorted(times, T_s, side="right") - 1
    f = field.polar_outputs(b.r[k], b.U[k], s)
    assert np.max(np.abs(f)) <= F_SAFE
    _assert_agree(a, b)
    assert b.backend == "events" and b.params["form"] == "polar"


@pytest.mark.parametrize("loss", ["exp", "logistic"])
def test_pure_limit_run_matches_plain_polar(loss):
    ds, r0, U0, s = _problem(seed=3)
    field = NetworkField(ds.X, ds.y, loss)
    times = np.linspace(0.0, 20.0, 21)
    a = solve_polar(field, r0 - 1000.0, U0, s, times)
    b = solve_polar_hybrid(field, r0 - 1000.0, U0, s, times)
    assert b.stats["limit_phase_until"] == 20.0 and b.stats["steps"] == 0 and b.stats["rhs_evals"] == 0
    _assert_agree(a, b, state_tol=1e-7)
    assert b.stats["n_events"] == len(b.events)


def test_no_limit_phase_when_outputs_are_not_negligible():
    ds, r0, U0, s = _problem()
    field = NetworkField(ds.X, ds.y, "exp")
    times = np.linspace(0.0, 5.0, 6)
    a = solve_polar(field, r0 - 3.0, U0, s, times)
    b = solve_polar_hybrid(field, r0 - 3.0, U0, s, times)
    assert b.stats["limit_phase_until"] == 0.0
    np.testing.assert_array_equal(a.r, b.r)
    assert [(e.t, e.i, e.j, e.kind) for e in a.events] == [(e.t, e.i, e.j, e.kind) for e in b.events]


def test_simulate_uses_hybrid_for_polar_events():
    ds, r0, U0, s = _problem()
    W0 = np.exp(r0)[:, None] * U0
    tr = simulate(ds, W0, s * np.exp(r0), 10.0, log_eps=-1000.0)
    assert tr.stats["hybrid"] and tr.stats["limit_phase_until"] == 10.0
    lim = simulate(ds, W0, s * np.exp(r0), 10.0, log_eps=-1000.0, backend="limit")
    np.testing.assert_allclose(tr.r[-1], lim.r[-1], rtol=0, atol=1e-12)
    assert [(e.i, e.j, e.kind) for e in tr.crossings()] == [(e.i, e.j, e.kind) for e in lim.crossings()]


# (b) the threshold derivation ------------------------------------------------------------------


@pytest.mark.parametrize("loss", LOSS_NAMES)
def test_threshold_makes_float64_weights_exact(loss):
    """Only what IEEE 754 and the libraries document: g(y, 0) is exact; where the run-time guard
    says this machine's loss is flat below F_SAFE, an independent random probe agrees; far above
    F_SAFE (>= 2^8 ulp from g(y, 0)) no implementation within a few ulp returns g(y, 0), so the
    threshold is not absurdly conservative and the guard says so."""
    lo = LOSSES[loss]
    rng = np.random.default_rng(1)
    y = np.where(rng.random(4000) < 0.5, -1.0, 1.0)
    g0 = lo.g(y, np.zeros_like(y))
    assert np.array_equal(g0, y / 2.0 if loss == "logistic" else y)
    field = NetworkField(np.eye(2), np.array([1.0, -1.0]), loss)
    if limit_field_is_exact(field):
        f = np.concatenate([rng.uniform(-F_SAFE, F_SAFE, 3996), [F_SAFE, -F_SAFE, np.nextafter(F_SAFE, 0), -np.nextafter(F_SAFE, 0)]])
        assert np.array_equal(lo.g(y, f), g0)
    yy = np.array([1.0, -1.0, 1.0, -1.0])
    for big in (2.0**-45, 2.0**-40):
        assert not np.array_equal(lo.g(yy, np.array([big, big, -big, -big])), lo.g(yy, np.zeros(4)))
    assert not limit_field_is_exact(field, 2.0**-45)


def _rough_exp() -> Loss:
    """The exp loss as a libm that rounds exp(-z) away from 1 for 2^-63 < |z| < 2^-61 would give it."""
    exp = LOSSES["exp"]

    def weight(z):
        out = np.asarray(exp._weight(z), dtype=float)
        tiny = (np.abs(z) > 2.0**-63) & (np.abs(z) < 2.0**-61)
        return np.where(tiny, np.nextafter(out, 0.0), out)

    return dataclasses.replace(exp, name="rough-exp", _weight=weight)


def test_guard_falls_back_to_the_ode_where_the_loss_is_not_flat():
    ds, r0, U0, s = _problem(seed=3)
    rough = NetworkField(ds.X, ds.y, _rough_exp())
    assert not limit_field_is_exact(rough)
    times = np.array([0.5, 2.0])
    traj = solve_polar_hybrid(rough, r0 - 40.0, U0, s, times)
    assert traj.stats["limit_phase_until"] == 0.0
    assert "no limit phase" in traj.stats["limit_phase_note"]
    plain = solve_polar(NetworkField(ds.X, ds.y, "exp"), r0 - 40.0, U0, s, times)
    np.testing.assert_allclose(traj.r, plain.r, rtol=0, atol=1e-7)


# (c) leaky and sliding runs ----------------------------------------------------------------------


def test_leaky_alpha_run_matches_plain_polar():
    ds, r0, U0, s = _problem(seed=5)
    field = NetworkField(ds.X, ds.y, "exp", alpha=0.2)
    times = np.linspace(0.0, 25.0, 26)
    a = solve_polar(field, r0 - 40.0, U0, s, times)
    b = solve_polar_hybrid(field, r0 - 40.0, U0, s, times)
    assert 0.0 < b.stats["limit_phase_until"] < 25.0
    _assert_agree(a, b)


@pytest.mark.parametrize("log_eps", [-40.0, -1000.0])
def test_pc2_sliding_run_matches_plain_polar(log_eps):
    ds = pc2_cross_class_acute()
    init = balanced_init(10, ds.d, log_eps=0.0, seed=4)
    nr = np.linalg.norm(init.W0, axis=1)
    r0, U0, s = np.log(nr) + log_eps, init.W0 / nr[:, None], np.sign(init.v0)
    field = NetworkField(ds.X, ds.y, "logistic2")
    times = np.linspace(0.0, 40.0, 41)
    a = solve_polar(field, r0, U0, s, times, rtol=1e-11)
    b = solve_polar_hybrid(field, r0, U0, s, times, rtol=1e-11)
    assert any(e.kind == "sliding" for e in b.events)
    if log_eps == -40.0:
        T_s = b.stats["limit_phase_until"]
        assert 0.0 < T_s < 40.0
        # some pair is still sliding at the handover: it must carry over (no second "sliding" event)
        slid = [e for e in b.events if e.kind == "sliding" and e.t < T_s]
        assert slid
    _assert_agree(a, b, state_tol=1e-7, time_tol=1e-7)


def test_dead_neurons_carry_over():
    rng = np.random.default_rng(6)  # data in a half-space: neurons die at t = 0 and later (alpha = 0)
    X = rng.normal(size=(8, 3))
    X[:, 0] = np.abs(X[:, 0]) + 1.0
    y = np.where(X[:, 1] > 0, 1.0, -1.0)
    U0 = rng.normal(size=(12, 3))
    U0 /= np.linalg.norm(U0, axis=1)[:, None]
    s = np.where(np.arange(12) % 2 == 0, 1.0, -1.0)
    field = NetworkField(X, y, "exp")
    r0, times = np.full(12, -40.0), np.linspace(0.0, 30.0, 31)
    a = solve_polar(field, r0, U0, s, times)
    b = solve_polar_hybrid(field, r0, U0, s, times)
    T_s = b.stats["limit_phase_until"]
    dead_a = sorted(e.j for e in a.events if e.kind == "dead")
    dead_b = [e for e in b.events if e.kind == "dead"]
    assert dead_b and all(e.t < T_s for e in dead_b) and T_s < 30.0
    assert any(e.t > 0.0 for e in dead_b)
    assert sorted(e.j for e in dead_b) == dead_a  # each logged once, not again at the handover
    for e in dead_b:  # frozen through the ODE phase
        k = times > e.t
        np.testing.assert_array_equal(b.U[k, e.j], b.U[np.argmax(k), e.j][None].repeat(k.sum(), 0))
    _assert_agree(a, b)


# (d) large case at theorem-scale eps -------------------------------------------------------------


def test_large_case_theorem_scale_eps_is_all_limit():
    ds = orthogonally_separable(100, 100, 50, 0.3, seed=0, norm_range=(0.5, 2.0))
    init = balanced_init(200, 50, log_eps=0.0, seed=0)
    tr = simulate(ds, init.W0, init.v0, 2.0, times=[0.0, 1.0], log_eps=-5e6)
    assert tr.stats["limit_phase_until"] == 2.0 and tr.stats["steps"] == 0
    assert np.all(np.isfinite(tr.r)) and len(tr.crossings()) > 0
    np.testing.assert_allclose(tr.r[0], np.log(np.linalg.norm(init.W0, axis=1)) - 5e6, rtol=0, atol=1e-8)
    assert np.all(tr.r[-1] < -4.9e6)  # r grows at most ||x_a|| per unit time: outputs stay negligible


# engine optimisation: per-neuron screening in find_events is exact -------------------------------


def test_screened_event_search_matches_full_search(monkeypatch):
    from verify.dynamics import engine as ev

    calls = {"n": 0}
    screened = ev.Engine.find_events

    def both(self, z, F):
        a = screened(self, z, F)
        b = self._find_events_full(z, F)
        # same decision; the step fraction to rounding (the coefficients are summed in another
        # order, and a slow crossing's root moves by ~1e-16 |e| / |e'|)
        assert a[1] == b[1] and (a[0] == b[0] or abs(a[0] - b[0]) <= 1e-11)
        assert [t[1:] for t in a[2]] == [t[1:] for t in b[2]]
        calls["n"] += 1
        return a

    monkeypatch.setattr(ev.Engine, "find_events", both)
    monkeypatch.setattr(ev, "COMPILED_LOOP", False)  # every step through the Python iteration
    ds = orthogonally_separable(10, 10, 5, 0.3, seed=0, norm_range=(0.5, 2.0))
    init = balanced_init(30, 5, log_eps=0.0, seed=0)
    tr = simulate(ds, 1e-4 * init.W0, 1e-4 * init.v0, 20.0)
    assert calls["n"] > 50 and len(tr.crossings()) > 20
    pc2 = pc2_cross_class_acute()
    init = balanced_init(10, pc2.d, log_eps=0.0, seed=4)
    tr = simulate(pc2, 1e-3 * init.W0, 1e-3 * init.v0, 40.0, loss="logistic2", form="cartesian")
    assert any(e.kind == "sliding" for e in tr.events)


# (e) the handover as a value ---------------------------------------------------------------------


def test_settling_adopts_a_handover():
    """Settling.adopt applied alone: sides and slopes (1 active, alpha inactive, the Filippov slope of a sliding pair
    in [alpha, 1]), a dead neuron frozen and armed, the sliding hysteresis of a pair that re-entered often, and
    disarmed pairs; no event is logged."""
    from verify.dynamics.engine import Engine
    from verify.dynamics.forms import PolarForm
    from verify.dynamics.settle import SLIDE_TOL, STICKY_AFTER, Handover

    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.2], [0.3, -1.0]])
    field = NetworkField(X, np.array([1.0, -1.0, 1.0, -1.0]), "logistic", 0.1)
    U = np.array([[0.0, 1.0], [0.6, 0.8], [-0.8, 0.6]])
    s = np.array([1.0, -1.0, 1.0])
    form = PolarForm(field, s, np.full(3, -30.0), 2)
    eng = Engine(form, form.pack(np.full(3, -30.0), U), False, 1e-10, np.full(form.size, 1e-10), None)
    side = np.array([[0, 1, -1], [1, 1, -1], [-1, -1, -1], [-1, 1, -1]])  # pair (0, 0) slides: <x_0, u_0> = 0
    entries = np.zeros((4, 3), dtype=int)
    entries[0, 0] = STICKY_AFTER + 2
    dead = np.array([False, False, True])
    disarmed = np.zeros((4, 3), dtype=bool)
    disarmed[1, 1] = True
    eng.adopt(Handover(side, dead, entries, disarmed))
    m = eng.mode
    assert set(m.sliding) == {0} and m.sliding[0].tolist() == [0]
    assert m.side[0, 0] == 0 and 0.1 <= m.S[0, 0] <= 1.0
    assert m.S[1, 0] == 1.0 and m.S[2, 0] == 0.1 and m.S[1, 1] == 1.0 and m.S[2, 1] == 0.1
    assert m.dead.tolist() == [False, False, True] and np.all(m.S[:, 2] == 0.0) and np.all(m.side[:, 2] == -1)
    assert eng.slide_tol[0, 0] > SLIDE_TOL and eng.stats["sticky_pairs"] == 1
    assert not m.armed[1, 1] and not m.armed[0, 0] and m.armed[3, 1] and np.all(m.armed[:, 2])
    assert eng.events == []


def test_neuron_run_pattern_at_reads_its_segments_and_events():
    from verify.dynamics.limit import NeuronRun, limit_weights

    ds = pc2_cross_class_acute()
    field = NetworkField(ds.X, ds.y, "logistic2")
    init = balanced_init(10, ds.d, log_eps=0.0, seed=4)
    U0 = init.W0 / np.linalg.norm(init.W0, axis=1)[:, None]
    runs = [NeuronRun(field, limit_weights(field), j, U0[j], -40.0, float(np.sign(init.v0[j])), 40.0, 100) for j in range(10)]
    slid = [(run, e) for run in runs for e in run.events if e.kind == "sliding"]
    assert slid
    run, e = slid[0]
    before, after = run.pattern_at(max(0.0, e.t - 1e-9)), run.pattern_at(e.t)
    assert not before[1][e.i] and after[1][e.i] and after[3][e.i] == before[3][e.i] + 1
    last = run.pattern_at(1e9)  # beyond the end: the last segment
    assert np.array_equal(last[0], run.segments[-1].active) and np.array_equal(last[1], run.segments[-1].sliding)


@pytest.mark.parametrize("kind", ["mirrored", "parallel"])
@pytest.mark.parametrize("alpha", [0.0, 0.2])
def test_rows_on_one_line_get_a_limit_phase_that_matches_plain_polar(kind, alpha):
    """Rows on one line through 0 (x_k = -c x_i, symmetric data, or x_k = c x_i) share a surface. The limit engine
    settles them with the float64 engine's law (law.settle_column, coupled slopes), so the hybrid run uses a limit
    phase on such data too and follows the plain polar ODE."""
    rng = np.random.default_rng(7 if kind == "mirrored" else 8)
    half = rng.normal(size=(3, 2))
    X = np.vstack([half, (-1.5 if kind == "mirrored" else 2.0) * half])
    y = np.concatenate([[1.0, -1.0, 1.0], [-1.0, 1.0, -1.0] if kind == "mirrored" else [1.0, -1.0, 1.0]])
    U0 = rng.normal(size=(4, 2))
    s = np.array([1.0, -1.0, 1.0, -1.0])
    field = NetworkField(X, y, "exp", alpha)
    times = np.linspace(0.0, 40.0, 21)
    for log_eps in (-30.0, -80.0):
        r0 = np.full(4, log_eps)
        traj = solve_polar_hybrid(field, r0, U0, s, times)
        plain = solve_polar(field, r0, U0, s, times)
        assert traj.stats["limit_phase_until"] > 0.0
        np.testing.assert_allclose(traj.U, plain.U, rtol=0, atol=1e-6)
        got = sorted((e.i, e.j, e.kind) for e in traj.events)
        assert got == sorted((e.i, e.j, e.kind) for e in plain.events)


class _UnhashableWeight:
    """A weight function that cannot be a cache key (it defines equality without a hash)."""

    def __init__(self, weight):
        self.weight = weight

    def __eq__(self, other):
        return isinstance(other, _UnhashableWeight) and other.weight is self.weight

    __hash__ = None

    def __call__(self, z):
        return self.weight(z)


def test_guard_is_measured_per_loss_even_for_losses_that_cannot_be_cached():
    """The flatness measurement is kept per loss: the rough loss stays not flat after the exact one was measured (and
    the other way round), and a loss that cannot be a cache key is measured every time, with the same answers."""
    exact, rough = NetworkField(np.eye(2), np.array([1.0, -1.0]), "exp"), NetworkField(np.eye(2), np.array([1.0, -1.0]), _rough_exp())
    answers = [limit_field_is_exact(f) for f in (exact, rough, exact, rough)]
    assert answers[2:] == answers[:2] and answers[1] is False
    odd = dataclasses.replace(_rough_exp(), name="rough-exp-unhashable", _weight=_UnhashableWeight(_rough_exp()._weight))
    assert limit_field_is_exact(NetworkField(np.eye(2), np.array([1.0, -1.0]), odd)) is False
    plain = dataclasses.replace(LOSSES["exp"], name="exp-unhashable", _weight=_UnhashableWeight(LOSSES["exp"]._weight))
    assert limit_field_is_exact(NetworkField(np.eye(2), np.array([1.0, -1.0]), plain)) is answers[0]
