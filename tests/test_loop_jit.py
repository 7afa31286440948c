"""The compiled step-to-next-event loop (:mod:`verify.dynamics.loop_jit`) against its oracle, the Python iteration
(:meth:`engine.Engine.iterate`, ``engine.COMPILED_LOOP = False``): same steps, same events, same states to rounding,
on every path the loop handles itself and every path it hands back (shared lines, sliding, hard candidates)."""

from __future__ import annotations

import numpy as np
import pytest

from verify import simulate
from verify.data import Dataset
from verify.data.generators import orthogonally_separable, pc2_cross_class_acute, symmetric_separable
from verify.dynamics import engine, field_jit, loop, loop_jit, settle_jit, switching
from verify.dynamics.settle import SURFACE_TOL
from verify.dynamics.events import solve_cartesian
from verify.dynamics.field import NetworkField
from verify.model.init import balanced_init
from verify.trajectory import EVENT_KINDS


def _both(monkeypatch, run):
    monkeypatch.setattr(engine, "COMPILED_LOOP", False)
    oracle = run()
    monkeypatch.setattr(engine, "COMPILED_LOOP", True)
    return oracle, run()


def _agree(a, b, state_tol=1e-9):
    """Same events, steps and counts; event times and states to ``state_tol`` (the two paths sum some products in
    another order: rounding, amplified along the run by about the run's own tolerance)."""
    assert [(e.i, e.j, e.kind, e.direction) for e in a.events] == [(e.i, e.j, e.kind, e.direction) for e in b.events]
    assert max((abs(x.t - y.t) for x, y in zip(a.events, b.events)), default=0.0) <= max(state_tol, 1e-12)
    for key in ("steps", "rejected", "rhs_evals", "n_restarts", "steps_rk23", "steps_rk45", "nonunique"):
        assert a.stats.get(key) == b.stats.get(key), key
    scale = max(1.0, float(np.max(np.abs(a.W))))
    np.testing.assert_allclose(b.W, a.W, rtol=0, atol=state_tol * scale)
    np.testing.assert_allclose(b.v, a.v, rtol=0, atol=state_tol * scale)
    if a.r is not None:
        np.testing.assert_allclose(b.r, a.r, rtol=0, atol=state_tol)


def _ortho(seed=0, n=8, d=3, h=5, eps=1e-6):
    ds = orthogonally_separable(n // 2, n - n // 2, d, 0.3, seed=seed, norm_range=(0.5, 2.0))
    init = balanced_init(h, d, log_eps=0.0, seed=seed)
    return ds, eps * init.W0, eps * init.v0


@pytest.mark.parametrize("loss", ["exp", "logistic", "square", "poly"])
def test_cartesian_runs_agree(monkeypatch, loss):
    ds, W, v = _ortho(seed=1, n=10, d=4, h=8)
    a, b = _both(monkeypatch, lambda: simulate(ds, W, v, 30.0, loss=loss, form="cartesian", times=np.linspace(0, 30, 41)))
    assert len(a.crossings()) > 5
    _agree(a, b)


@pytest.mark.parametrize("alpha", [0.0, 0.2])
def test_polar_runs_agree(monkeypatch, alpha):
    ds, W, v = _ortho(seed=2, n=12, d=3, h=10, eps=1e-8)
    a, b = _both(monkeypatch, lambda: simulate(ds, W, v, 40.0, loss="logistic", alpha=alpha, form="polar",
                                               times=np.linspace(0, 40, 21)))
    assert a.stats["u_norm_drift"] == pytest.approx(b.stats["u_norm_drift"], abs=1e-13)  # | ||u|| - 1 |, to rounding
    _agree(a, b)


@pytest.mark.parametrize("form", ["cartesian", "polar"])
def test_runs_in_the_blas_form_agree(monkeypatch, form):
    """From n h d = BLAS_MIN_WORK on the loop's preactivations go through field_jit.preact_blas (a call with numba's
    runtime from the kernels without it) and the field through form_rhs_blas: the run is still the Python
    iteration's."""
    n, d, h = 16, 4, 32
    assert field_jit.uses_blas(n, h, d)
    ds, W, v = _ortho(seed=4, n=n, d=d, h=h, eps=1e-6)
    a, b = _both(monkeypatch, lambda: simulate(ds, W, v, 20.0, form=form, times=np.linspace(0, 20, 5)))
    assert len(a.crossings()) > 20
    _agree(a, b)


def test_log_time_and_dead_neurons_agree(monkeypatch):
    ds, W, v = _ortho(seed=3, n=10, d=3, h=12, eps=1e-3)
    a, b = _both(monkeypatch, lambda: simulate(ds, W, v, 5e3, alpha=0.0, form="cartesian"))
    assert a.stats["log_time"] and len(a.crossings()) > 5
    _agree(a, b)
    # x1 = (1, 0) positive, x2 = (0, 1) negative: neuron 0 at (-1, 0.1) loses x2 and is then dead
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    field = NetworkField(X, np.array([1.0, -1.0]), "exp")
    W0 = np.vstack([1e-2 * np.array([-1.0, 0.1]), [1e-2, 1e-3]])
    a, b = _both(monkeypatch, lambda: solve_cartesian(field, W0, np.linalg.norm(W0, axis=1), np.linspace(0.5, 30.0, 60)))
    assert [(e.i, e.j) for e in a.events if e.kind == "dead"] == [(-1, 0)]
    _agree(a, b)


def test_hand_backs_agree(monkeypatch):
    """Mirror rows (one surface per line: settled in Python) and Filippov sliding (the Python iteration runs while a
    pair slides) hand back and resume without changing the run."""
    sym = symmetric_separable(5, 3, 0.2, seed=0)
    init = balanced_init(6, 3, log_eps=0.0, seed=5)
    a, b = _both(monkeypatch, lambda: simulate(sym, 1e-4 * init.W0, 1e-4 * init.v0, 20.0, form="cartesian"))
    assert len(a.crossings()) > 3
    _agree(a, b)
    pc2 = pc2_cross_class_acute()
    init = balanced_init(10, pc2.d, log_eps=0.0, seed=4)
    a, b = _both(monkeypatch, lambda: simulate(pc2, 1e-3 * init.W0, 1e-3 * init.v0, 40.0, loss="logistic2",
                                               form="cartesian"))
    assert any(e.kind == "sliding" for e in a.events)
    _agree(a, b)


@pytest.mark.parametrize("alpha", [0.0, 0.1])
def test_sliding_runs_compiled_and_agree(monkeypatch, alpha):
    """Filippov sliding of pairs alone on their neurons runs inside the compiled loop (slopes at every stage,
    projection after every step); Python takes only the steps with an exit and the event points while a pair
    slides. The run is the Python iteration's."""
    ds, W, v = _ortho(seed=0, n=10, d=4, h=8)
    iterations = [0]
    iterate = engine.Engine.iterate

    def counted(self, *args):
        iterations[0] += 1
        return iterate(self, *args)

    monkeypatch.setattr(engine.Engine, "iterate", counted)
    a, b = _both(monkeypatch, lambda: simulate(ds, W, v, 40.0, loss="square", alpha=alpha, form="cartesian"))
    slides = sum(e.kind == "sliding" for e in a.events)
    assert slides >= 3 and a.stats["sliding_evals"] > 300
    assert a.stats["sliding_evals"] == b.stats["sliding_evals"]
    python_in_compiled = iterations[0] - a.stats["steps"] - a.stats["rejected"]  # the oracle iterated every step
    assert python_in_compiled < a.stats["steps"] / 4
    _agree(a, b)


def test_python_steps_agree(monkeypatch):
    """A step with a non-monotone candidate (left to :func:`crossings.hard_candidates`) is taken by Python."""
    rng = np.random.default_rng(2)
    ds = Dataset(rng.normal(size=(12, 3)), np.where(rng.random(12) < 0.5, 1.0, -1.0))
    init = balanced_init(10, 3, log_eps=0.0, seed=2)
    statuses: list[int] = []
    run = loop_jit.run

    def counted(*args):
        out = run(*args)
        statuses.append(out[0])
        return out

    monkeypatch.setattr(loop_jit, "run", counted)
    a, b = _both(monkeypatch, lambda: simulate(ds, 1e-2 * init.W0, 1e-2 * init.v0, 30.0, loss="logistic",
                                               form="cartesian", rtol=1e-6))
    assert loop_jit.PY_STEP in statuses and len(a.crossings()) > 20
    _agree(a, b, state_tol=1e-8)  # rtol 1e-6


def test_progress_checkpoints(monkeypatch):
    """The loop reports back every CHECKPOINT_STEPS steps (progress, signals); the run is unchanged by it."""
    ds, W, v = _ortho(seed=0, n=20, d=5, h=30)
    monkeypatch.setattr(loop, "CHECKPOINT_STEPS", 16)
    seen: list[float] = []
    plain = simulate(ds, W, v, 40.0)
    tracked = simulate(ds, W, v, 40.0, progress=seen.append)
    assert len(seen) >= plain.stats["steps"] // 16 and seen == sorted(seen) and seen[-1] == pytest.approx(40.0)
    _agree(plain, tracked, state_tol=0.0)


def test_settle_simple_declines_without_touching_the_state():
    """Two near pairs on one neuron, or a row on a shared line, are not the simple case: nothing changes; one
    pair alone is settled as :func:`switching.resolve_pair` says and logged."""
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 2.0]])
    y = np.array([1.0, 1.0, -1.0])
    h, d = 2, 2
    K, xnorm = X @ X.T, np.linalg.norm(X, axis=1)

    def settle(w0, shared):
        z = np.concatenate([w0, [0.5, 0.1, 0.1, 0.2]])  # w_1 = (0.5, 0.1): off every surface
        P = X @ z[: h * d].reshape(h, d).T
        S = (P > 0).astype(float)
        side = np.where(P > 0, 1, -1).astype(np.int64)
        armed, dead = np.ones((3, h), dtype=bool), np.zeros(h, dtype=bool)
        ev_t, ev_ij, ev_kd = np.empty(16), np.empty((16, 2), np.int64), np.empty((16, 2), np.int64)
        ks, stats = np.zeros(5, np.int64), np.zeros(6, np.int64)
        before = (z.copy(), S.copy(), side.copy(), armed.copy())
        ok = settle_jit.settle_simple(0.0, z, np.array([[0, 0]]), S, side, armed, dead, X, xnorm, K, y, np.ones(h),
                                    np.zeros(h), 0.0, 0, False, shared, 0, h, d, SURFACE_TOL,
                                    ev_t, ev_ij, ev_kd, ks, stats)
        return ok, before, (z, S, side, armed), ks[4], ev_ij[0], ev_kd[0]

    ok, before, after, n_ev, _ij, _kd = settle(np.array([0.0, 0.0]), np.zeros(3, bool))  # w_0 = 0: on all three
    assert not ok and n_ev == 0
    for new, old in zip(after, before):
        np.testing.assert_array_equal(new, old)
    ok, before, after, n_ev, _ij, _kd = settle(np.array([0.0, 1.0]), np.ones(3, bool))  # alone, but a shared line
    assert not ok and n_ev == 0
    ok, before, (z, S, side, armed), n_ev, ij, kd = settle(np.array([0.0, 1.0]), np.zeros(3, bool))
    z0, S0, side0, _armed0 = before
    g = y * np.exp(-y * ((X @ z0[:4].reshape(2, 2).T) * S0 @ z0[4:]))
    state, slope, _rep = switching.resolve_pair(S0, g, K, z0[4:], 0, 0, 0.0, -1)
    assert ok and n_ev == 1 and tuple(ij) == (0, 0) and not armed[0, 0]
    assert side[0, 0] == (1 if state == switching.ACTIVE else -1) and S[0, 0] == slope
    assert EVENT_KINDS[kd[0]] == ("activate" if state == switching.ACTIVE else "grazing")


@pytest.mark.parametrize("compiled", [False, True])
def test_log_time_runs_land_on_their_samples(monkeypatch, compiled):
    """In log time the steps end on the sample times: the dense output of a log-time step is not error-controlled,
    and on this EA-F6-imbalanced example (eps = e^-3000, stiff converged directions) samples read from it were off
    by up to 4e-6 at rtol 1e-10 (4.6e-5 at rtol 1e-12) while the run itself was accurate. Every sample now equals
    the end of a run stopped there."""
    monkeypatch.setattr(engine, "COMPILED_LOOP", compiled)
    ds = orthogonally_separable(23, 1, 2, 0.9, seed=3600, norm_range=(1.0, 1.0))
    W0 = np.array([[-0.759622504389088, 0.6503642447318655], [-0.3548302351518664, 0.9349307483563],
                   [0.8292387928776755, -0.5588944662338103], [0.5461357502674158, -0.8376966887124759]])
    v0 = np.array([1.0, 1.0, -1.0, -1.0])
    t_end = 4566.172106209197
    half = np.linspace(t_end / 100, t_end, 100), t_end * np.geomspace(1e-4, 1.0, 100)
    times = np.unique(np.concatenate(half))
    full = simulate(ds, W0, v0, t_end, times=times, log_eps=-3000.0, form="polar")
    assert full.stats["log_time"]
    for T in (175.958748, 255.286015, 1000.0):
        k = int(np.argmin(np.abs(times - T)))
        alone = simulate(ds, W0, v0, times[k], times=np.array([times[k] / 2, times[k]]), log_eps=-3000.0,
                         form="polar", log_time=True)
        np.testing.assert_allclose(full.r[k], alone.r[-1], rtol=0, atol=1e-7)
        np.testing.assert_allclose(full.U[k], alone.U[-1], rtol=0, atol=1e-7)
