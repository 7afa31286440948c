"""Double-double orders of the mp series (series_dd): the arithmetic, the recurrence against mpfr at 200 bits, and
the planning's measured error bound catching a planted error."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import verify
from verify.dynamics.mp import num, series_dd
from verify.dynamics.mp.integrator import DD_PER_F64, F64_SAFETY
from verify.dynamics.mp.series import F64, Dense, Grouped, Recurrence, mp_arith
from verify.model.losses import LOSSES
from tests.test_mp_series_jit import problem

U = 2.0**-106  # double-double unit roundoff
CAP = 20  # as test_mp_series_jit's problems


def exact(h: float, l: float) -> Fraction:
    return Fraction(h) + Fraction(l)


@pytest.mark.parametrize("seed", range(5))
def test_error_free_transformations_are_exact(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for a, b in rng.normal(size=(200, 2)) * np.exp(rng.uniform(-30, 30, size=(200, 2))):
        s, e = series_dd.two_sum(a, b)
        assert exact(s, e) == Fraction(a) + Fraction(b) and s == a + b
        p, e = series_dd.two_prod(a, b)
        assert exact(p, e) == Fraction(a) * Fraction(b) and p == a * b


@pytest.mark.parametrize("seed", range(5))
def test_double_double_operations_round_to_106_bits(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for ah, bh, c in rng.normal(size=(200, 3)):
        al, bl = ah * 2.0**-60 * rng.uniform(-1, 1), bh * 2.0**-60 * rng.uniform(-1, 1)
        x, y = exact(ah, al), exact(bh, bl)
        for got, want in ((series_dd.add(ah, al, bh, bl), x + y), (series_dd.mul(ah, al, bh, bl), x * y),
                          (series_dd.scale(ah, al, c), x * Fraction(c)), (series_dd.div(ah, al, 7.0), x / 7)):
            assert abs(exact(*got) - want) <= 4 * U * (abs(x) + abs(y)) * max(1, abs(c)) + 4 * U * abs(want), (got, want)
            assert abs(got[1]) <= math.ulp(got[0]) / 2 or got[1] == 0.0


def recurrences(p: dict, form: str, loss: str, train_v: bool) -> tuple[Recurrence, Recurrence]:
    """(mpfr recurrence at the context precision, float64 twin)."""
    V = num.vec
    side = p["side"]
    M = np.where(side == 1, 1.0, np.where(side == -1, p["alpha"], 0.0))
    rec_m = Recurrence(mp_arith(), form, loss, V(p["X"]), V(p["y"]), V(p["A0"]), V(p["b0"]), V(p["weight"]),
                       Grouped(side == 1, side == -1, num.mpfr(p["alpha"]), num.mpfr(0)),
                       None if p["s"] is None else V(p["s"]), {}, train_v, CAP)
    rec_f = Recurrence(F64, form, loss, p["X"], p["y"], p["A0"], p["b0"], p["weight"], Dense(M), p["s"], {}, train_v, CAP)
    return rec_m, rec_f


def per_order_error(got: np.ndarray, truth: np.ndarray) -> float:
    axes = tuple(range(1, truth.ndim))
    scale = np.maximum(np.abs(truth.astype(float)).max(axis=axes, keepdims=True), 1e-300)
    return float(np.max(np.abs((got - truth).astype(float)) / scale))


@pytest.mark.parametrize("loss", sorted(LOSSES))
@pytest.mark.parametrize("form", ["cartesian", "polar"])
@pytest.mark.parametrize("alpha, train_v", [(0.0, True), (0.3, False)])
def test_double_double_orders_match_mpfr_to_32_digits(loss: str, form: str, alpha: float, train_v: bool) -> None:
    """Against the mpfr recurrence at 200 bits, the double-double orders (seeded with order 0 only) are off by at most
    max(1e-29, DD_PER_F64 x F64_SAFETY x the float64 recurrence's error), relative to each order's size: the relation
    the planning's rho_dd floor assumes (the same operations, so the same amplification of a 2^-53 smaller rounding;
    on this problem float64 loses up to 1e-12 to cancellation in the high orders, and double-double 1e-27)."""
    p = problem(4, form, alpha)
    with num.context(200):
        truth, rec_f = recurrences(p, form, loss, train_v)
        truth.extend(CAP)
        rec_f.extend(CAP)
        seed, _ = recurrences(p, form, loss, train_v)
        seed.extend(1)
        dd = series_dd.double_double(seed, rec_f)
        assert dd is not None
        dd.extend(CAP)
        for name in series_dd.STATE:
            got = np.stack([dd.state(name, k) for k in range(CAP + 1)])
            err_dd = per_order_error(got, getattr(truth, name))
            err_f64 = per_order_error(num.vec(getattr(rec_f, name)), getattr(truth, name))
            assert err_dd <= max(1e-29, DD_PER_F64 * F64_SAFETY * err_f64), (name, err_dd, err_f64)
        dd.fill(CAP)
        assert seed.k == seed.cap == CAP
        assert per_order_error(seed.A, truth.A) == per_order_error(np.stack([dd.state("A", k) for k in range(CAP + 1)]), truth.A)


def test_no_double_double_for_sliding_neurons() -> None:
    p = problem(5, "cartesian", 0.0)
    rec_m, rec_f = recurrences(p, "cartesian", "exp", True)
    rec_m.slide = {0: (np.array([0]), None, None, None)}
    assert series_dd.double_double(rec_m, rec_f) is None


def small_run(**kw: object) -> verify.Trajectory:
    rng = np.random.default_rng(11)
    X = rng.normal(size=(8, 3))
    y = np.where(X[:, 0] + 0.3 * X[:, 1] > 0, 1.0, -1.0)
    W = 1e-2 * rng.normal(size=(5, 3))
    v = 1e-2 * np.where(rng.normal(size=5) > 0, 1.0, -1.0)
    return verify.simulate(verify.Dataset(X, y), W, v, 8.0, backend="mp", dps=30, times=[2.0, 8.0], **kw)


def test_a_planted_double_double_error_is_measured_and_priced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Double-double coefficients off by 1e-24 of their size on every order the kernel computes (a planted kernel
    bug; far above the 1e-28 floor): the planning measures the difference against mpfr on order 2 and up, raises
    rho_dd, keeps more orders in mpfr and prices the rest: the result is within the runs' error estimates of the
    clean run."""
    clean = small_run()
    original = series_dd.DoubleDouble.extend

    def planted(self: series_dd.DoubleDouble, order: int) -> None:
        start = self.k
        original(self, order)
        for name in series_dd.STATE:
            arr = self.arrays[name]
            lo = max(start + 1, 2)
            arr[lo : self.k + 1, ..., 1] += 1e-24 * arr[lo : self.k + 1, ..., 0]

    monkeypatch.setattr(series_dd.DoubleDouble, "extend", planted)
    bad = small_run()
    assert clean.stats["dd_orders"] > 0
    assert bad.stats["mp_orders"] > clean.stats["mp_orders"]
    assert bad.stats["dd_orders"] < clean.stats["dd_orders"]
    gap = max(abs(a - b) for a, b in zip(np.asarray(bad.W).ravel(), np.asarray(clean.W).ravel()))  # mpf: exact
    assert float(gap) <= 10 * (float(clean.error_estimate) + float(bad.error_estimate)), (gap, bad.error_estimate)


def test_logistic_orders_at_margins_beyond_float64s_exp_range() -> None:
    """Margins y_i f_i up to ~2700: exp(y f) leaves float64's range from 709 on, where the unshifted recurrence's
    float64 and double-double orders were nan (and the mp backend took every order of such a step in mpfr). With the
    shifted exp(a - max(a_0, 0)) every order is finite and as accurate as at small margins."""
    p = problem(4, "cartesian", 0.3)
    p["A0"], p["b0"] = 30.0 * p["A0"], 30.0 * p["b0"]
    with num.context(200):
        truth, rec_f = recurrences(p, "cartesian", "logistic", True)
        truth.extend(CAP)
        margins = (truth.aux[0]).astype(float)
        assert margins.max() > 1000.0 and margins.min() < -709.0
        rec_f.extend(CAP)
        assert rec_f.compiled and np.all(np.isfinite(rec_f.A)) and np.all(np.isfinite(rec_f.b))
        seed, _ = recurrences(p, "cartesian", "logistic", True)
        seed.extend(1)
        dd = series_dd.double_double(seed, rec_f)
        assert dd is not None
        dd.extend(CAP)
        assert dd.usable(1, CAP)
        for name in series_dd.STATE:
            assert per_order_error(num.vec(getattr(rec_f, name)), getattr(truth, name)) <= 1e-12, name
            got = np.stack([dd.state(name, k) for k in range(CAP + 1)])
            assert per_order_error(got, getattr(truth, name)) <= 1e-27, name
