"""A run's compiled start and its hand-over (issue 18): the first compiled call sets the mode, the slope and the first
step size itself (:func:`loop_jit._start`), ends the run without an :class:`engine.Engine` when it can
(:meth:`loop.CompiledLoop.finished`), hands back to one otherwise (:meth:`loop.CompiledLoop.resume`), and declines a
start it cannot make (a pair on its surface at t = 0). The compiled helpers that replaced numpy code on a run's path
are checked against their numpy formulas (the oracles)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import logsumexp

from verify import Dataset, simulate
from verify.data.generators import orthogonally_separable
from verify.dynamics import engine, loop, loop_jit, stepper
from verify.dynamics.events import _drift_stats
from verify.model.init import balanced_init
from verify.model.losses import log_sum_exp
from verify.simulate import _balanced, row_log_norms
from verify.trajectory import EVENT_KINDS, Event, balancedness_change


def _both(monkeypatch, run):
    monkeypatch.setattr(engine, "COMPILED_LOOP", False)
    oracle = run()
    monkeypatch.setattr(engine, "COMPILED_LOOP", True)
    return oracle, run()


def _same_run(a, b, state_tol):
    assert [(e.i, e.j, e.kind, e.direction) for e in a.events] == [(e.i, e.j, e.kind, e.direction) for e in b.events]
    assert max((abs(x.t - y.t) for x, y in zip(a.events, b.events)), default=0.0) <= max(state_tol, 1e-12)
    for key in ("steps", "rejected", "rhs_evals", "n_restarts", "steps_rk23", "steps_rk45", "n_events"):
        assert a.stats[key] == b.stats[key], key
    scale = max(1.0, float(np.max(np.abs(a.W))))
    np.testing.assert_allclose(b.W, a.W, rtol=0, atol=state_tol * scale)
    np.testing.assert_allclose(b.v, a.v, rtol=0, atol=state_tol * scale)


def _data(seed=0, n=8, d=3, h=5, eps=1e-6):
    ds = orthogonally_separable(n // 2, n - n // 2, d, 0.3, seed=seed, norm_range=(0.5, 2.0))
    init = balanced_init(h, d, log_eps=0.0, seed=seed)
    return ds, eps * init.W0, eps * init.v0


class _Spy:
    """Counts the engines made and records the status of each first compiled call."""

    def __init__(self, monkeypatch):
        self.engines, self.first = 0, []
        make, first = engine.Engine.__init__, loop.CompiledLoop.first

        def counted(eng, *args, **kwargs):
            self.engines += 1
            make(eng, *args, **kwargs)

        def recorded(lp, *args):
            status = first(lp, *args)
            self.first.append(status)
            return status

        monkeypatch.setattr(engine.Engine, "__init__", counted)
        monkeypatch.setattr(loop.CompiledLoop, "first", recorded)


# the Hairer starting step: one formula, compiled, used by the Python start and the compiled one ------------------


def _hairer_oracle(z0, f0, f1_at, rtol, atol, span):
    """scipy's ``select_initial_step`` (order 7) in numpy, with f1 from ``f1_at(h0)``."""
    scale = atol + np.abs(z0) * rtol
    d0, d1 = np.sqrt(np.mean((z0 / scale) ** 2)), np.sqrt(np.mean((f0 / scale) ** 2))
    h0 = 1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1
    h0 = min(h0, span)
    d2 = np.sqrt(np.mean(((f1_at(h0) - f0) / scale) ** 2)) / h0
    h1 = max(1e-6, h0 * 1e-3) if d1 <= 1e-15 and d2 <= 1e-15 else (0.01 / max(d1, d2)) ** (1.0 / 8)
    return min(100 * h0, h1, span)


@pytest.mark.parametrize("seed", range(6))
def test_starting_step_is_hairers(seed):
    rng = np.random.default_rng(seed)
    N = int(rng.integers(1, 40))
    z0 = rng.normal(size=N) * 10.0 ** rng.uniform(-8, 2)
    A = rng.normal(size=(N, N))
    slope = lambda z: A @ z  # noqa: E731
    f0 = slope(z0)
    rtol, atol = np.full(N, 10.0 ** rng.uniform(-12, -4)), np.full(N, 10.0 ** rng.uniform(-14, -6))
    span = float(rng.uniform(0.1, 100.0))
    got = stepper.initial_step(lambda s, z: slope(z), 0.0, z0, f0, span, rtol, atol)
    assert got == pytest.approx(_hairer_oracle(z0, f0, lambda h0: slope(z0 + h0 * f0), rtol, atol, span), rel=1e-12)
    zero = np.zeros(N)  # a state at rest: d0 and d1 below 1e-5 -> h0 = 1e-6, and d2 = 0 -> max(1e-6, 1e-9)
    assert stepper.initial_step(lambda s, z: zero, 0.0, zero, zero, span, rtol, atol) == min(1e-6, span)


# the compiled start against the Python start -----------------------------------------------------------------------


@pytest.mark.parametrize("loss", ["exp", "logistic"])
def test_compiled_start_is_the_python_start(monkeypatch, loss):
    ds, W, v = _data(seed=1, n=10, d=4, h=8)
    spy = _Spy(monkeypatch)
    a, b = _both(monkeypatch, lambda: simulate(ds, W, v, 20.0, loss=loss, form="cartesian"))
    assert spy.first == [loop_jit.DONE]  # the compiled run ended in its first call ...
    assert spy.engines == 1  # ... and made no engine (the one counted is the oracle's)
    _same_run(a, b, state_tol=1e-9)


def test_dead_neurons_at_the_start_are_logged_by_the_compiled_start(monkeypatch):
    """alpha = 0 and a neuron with every <x_i, w_j> < 0: dead at t = 0, logged once (i = -1), as Python logs it."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(8, 3))
    X[:, 0] = np.abs(X[:, 0]) + 0.2  # every row has x_i0 > 0 ...
    ds = Dataset(X, np.where(rng.random(8) < 0.5, 1.0, -1.0))
    init = balanced_init(4, 3, log_eps=0.0, seed=2)
    W, v = 1e-6 * init.W0, 1e-6 * init.v0
    W[0] = [-1e-6, 0.0, 0.0]  # ... so neuron 0 is inactive on all of them
    spy = _Spy(monkeypatch)
    a, b = _both(monkeypatch, lambda: simulate(ds, W, v, 10.0, alpha=0.0, form="cartesian"))
    assert len(spy.first) == 1 and spy.first[0] != loop_jit.PY_START  # the compiled start was made
    dead = [e for e in b.events if e.kind == "dead"]
    assert [(e.t, e.i, e.j) for e in dead][:1] == [(0.0, -1, 0)]
    _same_run(a, b, state_tol=1e-9)


def test_a_pair_on_its_surface_at_the_start_is_started_in_python(monkeypatch):
    """<x_0, w_0> = 0 exactly at t = 0: the compiled start declines (PY_START) and the engine settles it."""
    X = np.array([[1.0, 0.0, 0.0], [0.3, 1.0, 0.0], [-0.2, 0.1, 1.0], [-1.0, -0.5, 0.2]])
    ds = Dataset(X, np.array([1.0, 1.0, -1.0, -1.0]))
    W = 1e-3 * np.array([[0.0, 1.0, -0.5], [0.7, -0.2, 0.4]])
    v = 1e-3 * np.array([0.9, -0.8])
    spy = _Spy(monkeypatch)
    a, b = _both(monkeypatch, lambda: simulate(ds, W, v, 10.0, form="cartesian"))
    assert spy.first == [loop_jit.PY_START] and spy.engines == 2  # the oracle's engine and the one that started
    _same_run(a, b, state_tol=1e-9)


def test_a_run_handed_back_goes_on_as_it_would_have(monkeypatch):
    """The first call hands back at a checkpoint; the engine it hands to ends the run in the same bits as a run that
    ended in its first call."""
    ds, W, v = _data(seed=3)
    spy = _Spy(monkeypatch)
    whole = simulate(ds, W, v, 20.0, form="cartesian")
    assert spy.first == [loop_jit.DONE] and spy.engines == 0
    monkeypatch.setattr(loop, "CHECKPOINT_STEPS", 8)
    handed = simulate(ds, W, v, 20.0, form="cartesian")
    assert spy.first[-1] == loop_jit.CHECKPOINT and spy.engines == 1
    _same_run(whole, handed, state_tol=0.0)
    assert whole.error_estimate == handed.error_estimate and whole.stats["log_loss"] == handed.stats["log_loss"]


def test_progress_hears_the_end_of_a_run_made_in_one_call(monkeypatch):
    ds, W, v = _data(seed=0)
    spy = _Spy(monkeypatch)
    seen: list[float] = []
    simulate(ds, W, v, 7.5, progress=seen.append)
    assert spy.first == [loop_jit.DONE] and seen == [pytest.approx(7.5)]


# compiled helpers against their numpy formulas ---------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(1,), (7,), (3, 9), (2, 4, 40), (1, 300)])
def test_log_sum_exp_is_scipys(shape):
    a = np.random.default_rng(len(shape)).normal(size=shape) * 40.0
    np.testing.assert_allclose(log_sum_exp(a), logsumexp(a, axis=-1), rtol=1e-14, atol=1e-14)
    assert np.shape(log_sum_exp(a)) == shape[:-1]


def test_log_sum_exp_special_rows():
    inf, nan = math.inf, math.nan
    rows = np.array([[-inf, -inf], [1.0, inf], [1.0, nan], [3.0, 3.0], [-inf, 2.0]])
    got = log_sum_exp(rows)
    assert got[0] == -inf and got[1] == inf and math.isnan(got[2])
    assert got[3] == pytest.approx(3.0 + math.log(2.0), rel=1e-15) and got[4] == 2.0
    np.testing.assert_array_equal(log_sum_exp(np.zeros((2, 0))), [-inf, -inf])  # an empty sum
    assert float(log_sum_exp([0.5, 0.5])) == pytest.approx(0.5 + math.log(2.0), rel=1e-15)  # a list, as before


def _balancedness_oracle(W0, v0, W, v):
    c0 = v0 * v0 - np.sum(W0 * W0, axis=1)
    vv, ww = v * v, np.sum(W * W, axis=2)
    return vv - ww - c0, np.maximum(np.maximum(vv, ww), np.finfo(float).tiny)


def test_balancedness_change_and_drift_stats_are_the_numpy_formulas():
    rng = np.random.default_rng(5)
    k, h, d = 6, 4, 3
    W0, v0 = rng.normal(size=(h, d)), rng.normal(size=h)
    W, v = rng.normal(size=(k, h, d)), rng.normal(size=(k, h))
    W[:, 2] *= 1e-6  # a neuron that shrinks
    v[:, 2] *= 1e-6
    change, size2 = balancedness_change(W0, v0, W, v)
    want_change, want_size2 = _balancedness_oracle(W0, v0, W, v)
    np.testing.assert_allclose(change, want_change, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(size2, want_size2, rtol=1e-14)
    drift, drift_peak, shrunk = _drift_stats(W0, v0, W, v)
    peak = np.maximum(size2.max(axis=0), v0 * v0 + np.sum(W0 * W0, axis=1))
    assert drift == pytest.approx(float((np.abs(change) / size2).max()), rel=1e-14)
    assert drift_peak == pytest.approx(float((np.abs(change) / peak).max()), rel=1e-14)
    np.testing.assert_array_equal(shrunk, size2.min(axis=0) < 1e-8 * peak)
    assert shrunk[2] and shrunk.sum() == 1
    W[3, 1, 0] = np.nan  # a state that is not finite: NaN, never a finite drift
    assert all(math.isnan(x) for x in _drift_stats(W0, v0, W, v)[:2])


def test_row_log_norms_and_balance_are_the_numpy_formulas():
    W = np.array([[3.0, 4.0, 0.0], [0.0, 0.0, 0.0], [1e-200, -1e-200, 0.0], [1e300, 1e300, 0.0]])
    with np.errstate(divide="ignore"):
        want = np.log(np.linalg.norm(W / np.abs(W).max(axis=1, initial=1e-320)[:, None], axis=1)) + np.log(
            np.abs(W).max(axis=1))
    got = row_log_norms(W)
    assert got[1] == -math.inf
    np.testing.assert_allclose(got[[0, 2, 3]], want[[0, 2, 3]], rtol=1e-15)
    assert math.isnan(row_log_norms(np.array([[1.0, np.nan]]))[0])
    norms = np.exp(got[[0, 2]])  # 5, sqrt(2) 1e-200
    assert _balanced(got[[0, 2]], norms) and not _balanced(got[[0, 2]], norms * (1 + 1e-9))
    assert _balanced(got[[1]], np.zeros(1)) and not _balanced(got[[1]], np.ones(1))
    assert not _balanced(got[[0]], np.zeros(1))


def test_events_from_the_log_are_the_events():
    made = Event.from_log([0.5, 1.5], [[1, 2], [-1, 0]], [[0, 1], [EVENT_KINDS.index("dead"), 0]])
    want = [Event(0.5, 1, 2, "activate", 1), Event(1.5, -1, 0, "dead", 0)]
    assert made == want and [hash(e) for e in made] == [hash(e) for e in want]
    assert [e.to_dict() for e in made] == [e.to_dict() for e in want]
    with pytest.raises(AttributeError):  # still frozen
        made[0].t = 2.0  # type: ignore[misc]
