"""Tests of the mp backend's vectorised, mixed-precision step: the float64 screen never drops a
crossing, float64 high orders change nothing at the requested digits, and the all-mpfr path
(high dps) agrees with it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import mpmath
import numpy as np

from verify.dynamics.mp import engine, num, screen, solve_mp
from verify.dynamics.mp import events as mpev
from verify.dynamics.mp.field import MpField, MpMode


def _bench_mp():
    spec = importlib.util.spec_from_file_location("bench_mp", Path(__file__).resolve().parents[1] / "benchmarks" / "bench_mp.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_PROBLEMS = _bench_mp()
toy4, multimode = _PROBLEMS.toy4, _PROBLEMS.multimode_problem


def max_rel(a, b, digits: int) -> float:
    with mpmath.workdps(digits):
        return float(max(abs(x - y) / max(abs(y), mpmath.mpf(10) ** -300) for x, y in zip(a.reshape(-1), b.reshape(-1))))


def test_screen_never_drops_a_root():
    rng = np.random.default_rng(1)
    with num.context(num.prec_of_dps(40)):
        dropped = kept = 0
        for _ in range(400):
            N = int(rng.integers(3, 12))
            q = rng.normal(size=N + 1) * rng.choice([1.0, 1e-3], size=N + 1) ** np.arange(N + 1)
            q[0] = abs(q[0]) * rng.choice([0.05, 1.0, 20.0])
            coef = [num.mpfr(float(c)) for c in q]
            x, _ = mpev.first_root(coef)
            may = bool(screen.may_cross(q[:, None], np.abs(q)[:, None])[0])
            if not may:
                dropped += 1
                assert x is None
            else:
                kept += 1
                est = screen.first_negative(q[:, None])
                if x is not None and est < 1:
                    assert abs(est - float(x)) < 1e-6
        assert dropped > 50 and kept > 50


def test_series_float64_and_mpfr_recurrences_agree():
    field, W0, v0 = multimode()
    with num.context(num.prec_of_dps(40)):
        mf = MpField(field)
        P = field.X @ W0.T
        side = np.where(P > 0, 1, -1)
        mode = MpMode(S=np.where(side > 0, 1.0, 0.0), side=side, onsurf=np.zeros_like(side, bool), dead=np.zeros(10, bool))
        cols = mode.moving()
        A0, b0 = num.vec(W0 * 1e3), num.vec(v0 * 1e3)
        w = num.vec(np.full(10, 1e-6))
        rm = mf.recurrence("cartesian", mode, cols, A0[cols], b0[cols], w[cols], None, 12, {}, mp=True)
        rf = mf.recurrence("cartesian", mode, cols, A0[cols], b0[cols], w[cols], None, 12, {}, mp=False)
        rm.extend(12)
        rf.extend(12)
        for k in range(13):
            scale = np.abs(rf.A[k]).max() + 1e-300
            assert np.max(np.abs(rm.A[k].astype(float) - rf.A[k])) <= 1e-12 * scale


def test_mixed_precision_matches_all_mpfr(monkeypatch):
    field, W0, v0 = toy4()
    times = [0.5, 3.0, 12.0]
    mixed = solve_mp(field, W0, v0, times, dps=30)
    assert mixed.stats["all_mp_steps"] == 0 and mixed.stats["mp_orders"] < mixed.stats["steps"] * mixed.stats["order"]
    monkeypatch.setattr(engine, "MIXED_MAX_DIGITS", 0)
    full = solve_mp(field, W0, v0, times, dps=30)
    assert full.stats["all_mp_steps"] == full.stats["steps"]
    assert [(e.i, e.j, e.kind) for e in mixed.events] == [(e.i, e.j, e.kind) for e in full.events]
    assert max_rel(mixed.W, full.W, 50) < 1e-29
    with mpmath.workdps(50):
        assert max(abs(a.t - b.t) for a, b in zip(mixed.events, full.events)) < mpmath.mpf(10) ** -29


def test_multimode_against_rerun_and_float64():
    field, W0, v0 = multimode()
    tr = solve_mp(field, W0, v0, [5.0, 10.0], dps=25, estimate="rerun")
    assert tr.stats["rerun_events_match"] and len(tr.events) >= 30
    assert tr.error_estimate < 1e-24
    assert tr.stats["mp_orders"] < 0.7 * tr.stats["steps"] * tr.stats["order"]


def test_high_dps_takes_the_all_mpfr_path():
    field, W0, v0 = toy4()
    hi = solve_mp(field, W0, v0, [0.5, 1.0], dps=250)
    lo = solve_mp(field, W0, v0, [0.5, 1.0], dps=60)
    assert hi.stats["all_mp_steps"] == hi.stats["steps"] and lo.stats["all_mp_steps"] == 0 and len(hi.events) == 8
    assert [(e.i, e.j, e.kind) for e in hi.events] == [(e.i, e.j, e.kind) for e in lo.events]
    assert max_rel(lo.W, hi.W, 300) < 1e-58


def test_logistic_margins_beyond_float64s_exp_range_stay_mixed(monkeypatch):
    """Two points fitted with margins of ~900 (exp(900) overflows float64): the float64 and double-double orders stay
    finite (series: the shifted exponential), so no step falls back to all-mpfr orders (all three did), and the run
    agrees with the all-mpfr path."""
    from verify.dynamics.field import NetworkField

    X = np.array([[30.0, 1.0], [0.01, 0.02], [0.01, -0.03], [-30.0, 2.0]])
    field = NetworkField(X, np.array([1.0, 1.0, -1.0, -1.0]), "logistic")
    W0, v0 = np.array([[1.0, 0.2], [-1.0, 0.3]]), np.array([30.0, -30.0])
    mixed = solve_mp(field, W0, v0, [0.5, 2.0], dps=30)
    assert mixed.stats["all_mp_steps"] == 0 and mixed.stats["steps"] >= 3 and mixed.stats["dd_orders"] > 0
    monkeypatch.setattr(engine, "MIXED_MAX_DIGITS", 0)
    full = solve_mp(field, W0, v0, [0.5, 2.0], dps=30)
    assert [(e.i, e.j, e.kind) for e in mixed.events] == [(e.i, e.j, e.kind) for e in full.events]
    assert max_rel(mixed.W, full.W, 50) < 1e-29


def test_slow_flow_whose_float64_orders_underflow_steps_at_a_lower_order(monkeypatch):
    """Margins of ~25 make the flow slow (|g| ~ 1e-11): the coefficient sizes fall by ~1e-10 per order and leave
    float64's range before order N = 38, so the step to t = 1e8 was taken with every order in mpfr; it now takes the
    highest order whose sizes stay representable (step.representable_order) and agrees with the all-mpfr path."""
    from verify.dynamics.field import NetworkField
    from verify.dynamics.mp.step import representable_order

    field = NetworkField(np.array([[1.0, 0.2], [0.8, -0.3], [-1.0, 0.1]]), np.array([1.0, 1.0, -1.0]), "exp")
    W0, v0 = np.array([[5.0, 0.0], [-5.0, 0.5]]), np.array([6.0, -6.0])
    mixed = solve_mp(field, W0, v0, [1e3, 1e8], dps=30)
    assert mixed.stats["all_mp_steps"] == 0
    monkeypatch.setattr(engine, "MIXED_MAX_DIGITS", 0)
    full = solve_mp(field, W0, v0, [1e3, 1e8], dps=30)
    assert full.stats["all_mp_steps"] == full.stats["steps"]
    assert [(e.i, e.j, e.kind) for e in mixed.events] == [(e.i, e.j, e.kind) for e in full.events]
    assert max_rel(mixed.W, full.W, 50) < 1e-29
    assert representable_order([1.0, 1e-10, 1e-270, 1e-279, 1e-290, 1e-300]) == 3
    assert representable_order([1.0, 0.5, 0.25]) == 2 and representable_order([1.0, 0.0, 0.0]) == 2
