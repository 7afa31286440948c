"""The compiled float64 orders of the mp series recurrence (series_jit) against the numpy recurrence, their oracle."""

from __future__ import annotations

import gmpy2
import numpy as np
import pytest

from verify.dynamics.mp import num
from verify.dynamics.mp.series import F64, Dense, Grouped, Recurrence, mp_arith
from verify.model.losses import LOSSES

CAP = 20


def problem(seed: int, form: str, alpha: float) -> dict:
    rng = np.random.default_rng(seed)
    n, d, m = 8, 3, 5
    X, y = rng.normal(size=(n, d)), np.where(rng.normal(size=n) > 0, 1.0, -1.0)
    A0, b0 = rng.normal(size=(m, d)), rng.normal(size=m)
    if form == "polar":
        A0 /= np.linalg.norm(A0, axis=1)[:, None]
        b0 = -3.0 + 0.1 * b0
    side = rng.choice([-1, 0, 1], size=(n, m))
    return dict(X=X, y=y, A0=A0, b0=b0, side=side, alpha=alpha, weight=rng.uniform(0.5, 2.0, size=m),
                s=np.where(rng.normal(size=m) > 0, 1.0, -1.0) if form == "polar" else None)


def float_recurrence(p: dict, form: str, loss: str, train_v: bool) -> Recurrence:
    M = np.where(p["side"] == 1, 1.0, np.where(p["side"] == -1, p["alpha"], 0.0))
    return Recurrence(F64, form, loss, p["X"], p["y"], p["A0"], p["b0"], p["weight"], Dense(M), p["s"], {}, train_v, CAP)


def relative(a: np.ndarray, b: np.ndarray) -> float:
    """max |a - b| per order, relative to the order's largest |b|."""
    axes = tuple(range(1, b.ndim))
    scale = np.maximum(np.abs(b).max(axis=axes, keepdims=True), 1e-300)
    return float(np.max(np.abs(a - b) / scale))


@pytest.mark.parametrize("loss", sorted(LOSSES))
@pytest.mark.parametrize("form", ["cartesian", "polar"])
@pytest.mark.parametrize("alpha, train_v", [(0.0, True), (0.3, True), (0.3, False)])
def test_compiled_orders_match_the_numpy_recurrence(loss: str, form: str, alpha: float, train_v: bool) -> None:
    p = problem(1, form, alpha)
    compiled = float_recurrence(p, form, loss, train_v)
    assert compiled.compiled
    compiled.extend(7)  # extension in two calls continues where the first stopped
    compiled.extend(CAP)
    oracle = float_recurrence(p, form, loss, train_v)
    oracle.compiled = False
    oracle.extend(CAP)
    assert compiled.k == oracle.k == CAP
    for name in ("A", "b"):
        assert relative(getattr(compiled, name), getattr(oracle, name)) <= 1e-11, name
    if not train_v and form == "cartesian":
        assert np.all(compiled.b[1:] == 0.0)


@pytest.mark.parametrize("form", ["cartesian", "polar"])
def test_compiled_orders_are_as_accurate_as_numpy_against_mpfr(form: str) -> None:
    """Against the mpfr recurrence at 200 bits, the compiled float64 orders are no worse than the numpy ones
    (up to a factor 4 of rounding luck) and within 1e-12 per order."""
    p = problem(2, form, 0.3)
    compiled = float_recurrence(p, form, "logistic", True)
    compiled.extend(CAP)
    oracle = float_recurrence(p, form, "logistic", True)
    oracle.compiled = False
    oracle.extend(CAP)
    with num.context(200):
        V = num.vec
        exact = Recurrence(mp_arith(), form, "logistic", V(p["X"]), V(p["y"]), V(p["A0"]), V(p["b0"]), V(p["weight"]),
                           Grouped(p["side"] == 1, p["side"] == -1, gmpy2.mpfr(0.3), gmpy2.mpfr(0)),
                           None if p["s"] is None else V(p["s"]), {}, True, CAP)
        assert not exact.compiled
        exact.extend(CAP)
        for name in ("A", "b"):
            truth = getattr(exact, name).astype(float)
            err_c, err_n = relative(getattr(compiled, name), truth), relative(getattr(oracle, name), truth)
            assert err_c <= max(4 * err_n, 1e-15) and err_c <= 1e-12, (name, err_c, err_n)


def test_sliding_and_mpfr_recurrences_stay_on_numpy() -> None:
    p = problem(3, "cartesian", 0.0)
    M = np.where(p["side"] == 1, 1.0, 0.0)
    sliding = Recurrence(F64, "cartesian", "exp", p["X"], p["y"], p["A0"], p["b0"], p["weight"], Dense(M), None,
                         {0: (np.array([0]), np.eye(1), np.ones((8, 1)), M[:, 0])}, True, CAP)
    assert not sliding.compiled
