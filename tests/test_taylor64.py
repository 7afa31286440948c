"""The float64 Taylor engine (verify/dynamics/taylor64.py), the cross-check's first reference: the same runs as the
mp backend to its tolerance (states, event sequences), declined where its path ends, and its root search."""

from __future__ import annotations

import numpy as np
import pytest

from verify import simulate
from verify.data import Dataset
from verify.data.generators import orthogonally_separable, symmetric_separable
from verify.dynamics import taylor64_roots
from verify.dynamics.taylor64 import Declined, simulate_taylor
from verify.model.init import balanced_init


def _ortho(seed: int, n: int, d: int, h: int, eps: float = 1e-6):
    ds = orthogonally_separable(n - n // 2, n // 2, d, 0.3, seed=seed, norm_range=(0.5, 2.0))
    init = balanced_init(h, d, log_eps=0.0, seed=seed)
    return ds, eps * init.W0, eps * init.v0


def _events(traj):
    return [(e.i, e.j, e.kind, e.direction) for e in traj.events]


def _cartesian_gap(a, b) -> float:
    za = np.concatenate([np.asarray(a.W, float), np.asarray(a.v, float)[..., None]], axis=2)
    zb = np.concatenate([np.asarray(b.W, float), np.asarray(b.v, float)[..., None]], axis=2)
    return float(np.max(np.linalg.norm(za - zb, axis=2) / np.linalg.norm(zb, axis=2)))


@pytest.mark.parametrize("loss, alpha", [("exp", 0.0), ("logistic", 0.0), ("logistic2", 0.0), ("poly", 0.0),
                                         ("exp", 0.1)])
def test_cartesian_runs_are_the_mp_backends(loss: str, alpha: float) -> None:
    ds, W, v = _ortho(0, 8, 3, 5)
    times = np.linspace(0.0, 30.0, 16)
    taylor = simulate_taylor(ds, W, v, times, loss=loss, alpha=alpha, tol_digits=14)
    mp = simulate(ds, W, v, 30.0, times=times, loss=loss, alpha=alpha, backend="mp", dps=20)
    assert len(taylor.crossings()) > 10 and _events(taylor) == _events(mp)
    assert max(abs(float(a.t) - float(b.t)) for a, b in zip(taylor.events, mp.events)) < 1e-10
    assert _cartesian_gap(taylor, mp) < 1e-11
    assert 0.0 < taylor.error_estimate < 1e-10 and taylor.backend == "taylor"


def test_dead_neurons_and_a_fixed_second_layer() -> None:
    """alpha = 0: a neuron that loses its last active row is logged dead and frozen; with v fixed only W moves."""
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    ds = Dataset(X, np.array([1.0, -1.0]))
    W0 = np.vstack([1e-2 * np.array([-1.0, 0.1]), [1e-2, 1e-3]])
    times = np.linspace(0.5, 30.0, 60)
    v0 = np.linalg.norm(W0, axis=1)
    taylor = simulate_taylor(ds, W0, v0, times, loss="exp", alpha=0.0, tol_digits=14)
    mp = simulate(ds, W0, v0, 30.0, times=times, backend="mp", dps=20)
    assert ("dead" in [e.kind for e in taylor.events]) and _events(taylor) == _events(mp)
    assert _cartesian_gap(taylor, mp) < 1e-11
    ds, W, v = _ortho(1, 6, 3, 4, eps=0.1)
    fixed = simulate_taylor(ds, W, np.sign(v), np.linspace(0.0, 5.0, 6), loss="logistic", alpha=0.0, tol_digits=14,
                            train_v=False)
    mp = simulate(ds, W, np.sign(v), 5.0, times=np.linspace(0.0, 5.0, 6), loss="logistic", train_v=False,
                  backend="mp", dps=20)
    np.testing.assert_array_equal(fixed.v, np.broadcast_to(np.sign(v), fixed.v.shape))
    np.testing.assert_allclose(fixed.W, np.asarray(mp.W, float), rtol=0, atol=1e-12)


@pytest.mark.parametrize("log_eps, horizon", [(-30.0, 1e3), (-3000.0, 3e3)])
def test_polar_runs_at_small_and_theorem_scale_eps(log_eps: float, horizon: float) -> None:
    ds = orthogonally_separable(4, 4, 3, 0.3, seed=2, norm_range=(0.5, 2.0))
    init = balanced_init(5, 3, log_eps=0.0, seed=2)
    times = np.geomspace(1e-2, horizon, 25)
    taylor = simulate_taylor(ds, init.W0, init.v0, times, loss="logistic", alpha=0.0, tol_digits=14, log_eps=log_eps)
    mp = simulate(ds, init.W0, init.v0, horizon, times=times, loss="logistic", backend="mp", dps=20, log_eps=log_eps)
    assert taylor.r is not None and _events(taylor) == _events(mp)
    np.testing.assert_allclose(taylor.r, np.asarray(mp.r, float), rtol=0, atol=1e-9)
    np.testing.assert_allclose(taylor.U, np.asarray(mp.U, float), rtol=0, atol=1e-9)
    assert taylor.stats["u_norm_drift"] < 1e-12


@pytest.mark.parametrize("alpha", [0.0, 0.1])
def test_sliding_runs_are_the_mp_backends(alpha: float) -> None:
    """Square loss slides (Filippov, one row per neuron): the series carry the sliding slope, the exits are roots of
    the slope's exit functions; the same events as the mp backend's and the same states."""
    ds, W, v = _ortho(0, 10, 4, 8)
    times = np.linspace(0.0, 40.0, 21)
    taylor = simulate_taylor(ds, W, v, times, loss="square", alpha=alpha, tol_digits=14)
    mp = simulate(ds, W, v, 40.0, times=times, loss="square", alpha=alpha, backend="mp", dps=20)
    assert sum(e.kind == "sliding" for e in taylor.events) >= 3 and _events(taylor) == _events(mp)
    assert _cartesian_gap(taylor, mp) < 1e-11


@pytest.mark.parametrize("seed, loss, alpha", [(0, "exp", 0.0), (2, "exp", 0.1), (3, "logistic2", 0.0)])
def test_rows_on_one_line_are_one_surface(seed: int, loss: str, alpha: float) -> None:
    """Symmetric data (x and its mirror -x): each line is searched once and settled as one surface (a mirror's slope
    1 + alpha - s), as the mp backend settles it: the same events (both rows' at each crossing), the same states."""
    sym = symmetric_separable(5, 3, 0.2, seed=seed)
    init = balanced_init(6, 3, log_eps=0.0, seed=5 + seed)
    times = np.linspace(0.0, 20.0, 11)
    taylor = simulate_taylor(sym, 1e-4 * init.W0, 1e-4 * init.v0, times, loss=loss, alpha=alpha, tol_digits=14)
    mp = simulate(sym, 1e-4 * init.W0, 1e-4 * init.v0, 20.0, times=times, loss=loss, alpha=alpha, backend="mp",
                  dps=20)
    assert len(taylor.crossings()) > 10 and _events(taylor) == _events(mp)
    assert _cartesian_gap(taylor, mp) < 1e-11


def test_off_its_path_it_declines() -> None:
    """A line of two rows that slides (coupled sliding: the mp backend refuses it too), two pairs of one neuron on
    their surfaces at t = 0 (w_j = 0), a Cartesian eps beyond float64: Declined (the cross-check then runs the mp
    backend)."""
    X = np.array([[1.6460279172899572, 0.03591098487716776], [-1.0325337328654607, -0.48446388988112],
                  [1.5880379164126466, -0.9419392946684394], [0.7695557612894949, 0.4388665853173851],
                  [3.2920558345799145, 0.07182196975433552], [-2.0650674657309214, -0.96892777976224],
                  [3.176075832825293, -1.8838785893368788], [1.5391115225789898, 0.8777331706347702],
                  [1.4652628189725065, 0.5318866803057821]])  # rows 4 to 7 are 2 x rows 0 to 3 (tests/test_coupled...)
    y = np.array([-1.0, 1.0, 1.0, 1.0, -1.0, 1.0, 1.0, 1.0, -1.0])
    U0 = np.array([[0.1337409126813979, 0.03624649434957914], [0.1791794986919268, 0.9070638474008038]])
    U0 /= np.linalg.norm(U0, axis=1)[:, None]
    with pytest.raises(Declined, match="slide together"):
        simulate_taylor(Dataset(X, y), U0, -np.ones(2), np.linspace(0.0, 40.0, 21), loss="exp", alpha=0.2,
                        tol_digits=14, log_eps=-30.0)
    ds, W, v = _ortho(0, 10, 4, 8)
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    on = Dataset(X, np.array([1.0, -1.0]))
    with pytest.raises(Declined, match="several pairs of one neuron"):
        simulate_taylor(on, np.array([[0.0, 0.0]]), np.array([1.0]), np.array([1.0]), loss="exp", alpha=0.0,
                        tol_digits=14)
    with pytest.raises(Declined, match="beyond float64"):
        simulate_taylor(ds, W, v, np.array([1.0]), loss="exp", alpha=0.0, tol_digits=14, log_eps=-800.0,
                        form="cartesian")


def _poly(*roots: float, lead: float = 1.0) -> np.ndarray:
    """Coefficients (lowest first) of lead prod (x - r)."""
    return np.polynomial.polynomial.polyfromroots(roots) * lead


@pytest.mark.parametrize("coefs, expected", [
    (_poly(0.3, lead=-1.0), 0.3),                 # monotone, turns negative at 0.3
    (_poly(0.2, 0.7), 0.2),                       # two roots in the step: the first
    (_poly(0.5, 0.5), np.inf),                    # a double root (touch): never negative
    (_poly(0.25, 0.25, 0.6, lead=-1.0), 0.6),     # a touch at 0.25, then a crossing at 0.6
    (_poly(1.5, lead=-1.0), np.inf),              # the root beyond the step
    (np.array([-1e-3, 1.0, 0.0]), 0.0),           # already negative at 0
    (np.zeros(4), np.inf),                        # identically 0
])
def test_first_root(coefs: np.ndarray, expected: float) -> None:
    c = np.ascontiguousarray(coefs, dtype=float)
    x = taylor64_roots.first_root(c, c.size)
    if np.isinf(expected):
        assert np.isinf(x)
    else:
        assert x == pytest.approx(expected, abs=1e-7)
        if expected > 0.0:
            assert taylor64_roots.horner(c, c.size, x + 1e-6) < 0.0 < taylor64_roots.horner(c, c.size, x - 1e-6)


def test_a_pair_on_its_surface_at_the_start_is_settled_there() -> None:
    """w_0 = (0, 0.1) is on x_0 = (1, 0)'s surface at t = 0, pushed to its active side by x_1 = (0.3, 1): the switching
    law activates it there (as the mp backend's initial mode does), and the run is the mp backend's."""
    X = np.array([[1.0, 0.0], [0.3, 1.0], [0.6, -0.8]])
    ds = Dataset(X, np.array([1.0, 1.0, -1.0]))
    W0 = np.array([[0.0, 0.1], [0.08, 0.02]])
    v0 = np.linalg.norm(W0, axis=1)
    times = np.linspace(0.0, 2.0, 9)  # (x_2 starts to slide on neuron 1 at t = 2.85)
    taylor = simulate_taylor(ds, W0, v0, times, loss="logistic", alpha=0.0, tol_digits=14)
    mp = simulate(ds, W0, v0, 2.0, times=times, loss="logistic", backend="mp", dps=20)
    assert _events(taylor) == _events(mp) and (taylor.events[0].t, _events(taylor)[0]) == (0.0, (0, 0, "activate", 1))
    assert _cartesian_gap(taylor, mp) < 1e-11
