"""The discrete GD / SGD backend (verify.dynamics.gd)."""

import mpmath
import numpy as np
import pytest

from verify.dynamics.field import NetworkField
from verify.dynamics.gd import solve_gd
from verify.errors import InputError


def random_problem(seed: int, n: int = 6, d: int = 3, h: int = 4, scale: float = 0.7):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return X, y, scale * rng.normal(size=(h, d)), scale * rng.normal(size=h)


def summed_loss(field: NetworkField, W: np.ndarray, v: np.ndarray) -> float:
    return field.loss.total(field.y, field.outputs(W, v))


@pytest.mark.parametrize("loss", ["exp", "logistic", "logistic2", "square", "poly"])
@pytest.mark.parametrize("alpha", [0.0, 0.2])
def test_one_step_is_minus_lr_times_finite_difference_gradient(loss, alpha):
    X, y, W0, v0 = random_problem(0)
    field = NetworkField(X, y, loss, alpha)
    assert np.min(np.abs(X @ W0.T)) > 1e-2  # away from kinks: the loss is smooth around W0
    delta = 1e-6
    gW = np.zeros_like(W0)
    for idx in np.ndindex(W0.shape):
        E = np.zeros_like(W0)
        E[idx] = delta
        gW[idx] = (summed_loss(field, W0 + E, v0) - summed_loss(field, W0 - E, v0)) / (2 * delta)
    gv = np.array([(summed_loss(field, W0, v0 + delta * e) - summed_loss(field, W0, v0 - delta * e)) / (2 * delta) for e in np.eye(v0.size)])
    lr = 0.05
    traj = solve_gd(field, W0, v0, np.array([0.0, lr]), lr=lr)
    np.testing.assert_allclose(traj.W[0], W0)
    np.testing.assert_allclose(traj.W[1], W0 - lr * gW, rtol=0, atol=1e-9)
    np.testing.assert_allclose(traj.v[1], v0 - lr * gv, rtol=0, atol=1e-9)
    assert traj.stats["steps"] == 1 and traj.backend == "gd"


def _q_exact(q0: float, t: float) -> float:
    """One-point problem (n = 1, ||x|| = 1, w = a x, v = a): q = v^2 solves q' = 2 q e^{-q},
    i.e. Ei(q(t)) - Ei(q0) = 2 t."""
    with mpmath.workdps(30):
        target = mpmath.ei(q0) + 2 * t
        return float(mpmath.findroot(lambda q: mpmath.ei(q) - target, q0 + 2 * t * q0))


def test_gd_converges_to_the_gradient_flow_linearly_in_lr():
    x = np.array([[0.6, 0.8]])
    field = NetworkField(x, np.array([1.0]), "exp")
    a, t_end = 0.5, 1.5
    q_true = _q_exact(a * a, t_end)
    errors = []
    lrs = [1 / 100, 1 / 200, 1 / 400, 1 / 800]
    for lr in lrs:
        traj = solve_gd(field, a * x, np.array([a]), np.array([t_end]), lr=lr)
        assert traj.stats["max_time_offset"] < 1e-12
        w, v = traj.W[-1, 0], traj.v[-1, 0]
        np.testing.assert_allclose(w / np.linalg.norm(w), x[0], atol=1e-14)  # stays aligned with x
        errors.append(abs(v * v - q_true))
    ratios = np.array(errors[:-1]) / np.array(errors[1:])
    assert np.all((ratios > 1.8) & (ratios < 2.2)), ratios  # first order in lr
    assert errors[-1] < 2e-2 * q_true * lrs[-1] * 100


@pytest.mark.parametrize("train_v, alpha, batch_size", [(True, 0.0, None), (True, 0.3, None), (False, 0.0, None), (True, 0.0, 3)])
def test_balancedness_drift_equals_the_accumulated_lr_squared_terms(train_v, alpha, batch_size):
    X, y, W0, v0 = random_problem(1, n=8, d=3, h=5)
    field = NetworkField(X, y, "exp", alpha, train_v)
    traj = solve_gd(field, W0, v0, np.linspace(0.0, 4.0, 9), lr=0.02, batch_size=batch_size)
    pred = traj.stats["balancedness_gd_prediction"]
    actual = traj.stats["balancedness_actual"]
    c0 = v0**2 - np.sum(W0**2, axis=1)
    np.testing.assert_allclose(actual, traj.v**2 - np.sum(traj.W**2, axis=2) - c0, atol=1e-15)
    scale = np.max(np.abs(traj.v) ** 2 + np.sum(traj.W**2, axis=2))
    assert np.max(np.abs(pred)) > 1e-6 * scale  # the drift is not trivially zero
    np.testing.assert_allclose(actual, pred, rtol=0, atol=200 * np.finfo(float).eps * scale)


def test_sgd_is_deterministic_under_its_seed_and_full_batch_is_gd():
    X, y, W0, v0 = random_problem(2, n=10)
    field = NetworkField(X, y, "logistic2")
    ts = np.array([0.5, 1.0])
    a = solve_gd(field, W0, v0, ts, lr=0.01, batch_size=3, seed=7)
    b = solve_gd(field, W0, v0, ts, lr=0.01, batch_size=3, seed=7)
    c = solve_gd(field, W0, v0, ts, lr=0.01, batch_size=3, seed=8)
    np.testing.assert_array_equal(a.W, b.W)
    np.testing.assert_array_equal(a.v, b.v)
    assert a.events == b.events
    assert not np.allclose(a.W, c.W)
    full = solve_gd(field, W0, v0, ts, lr=0.01)
    same = solve_gd(field, W0, v0, ts, lr=0.01, batch_size=10, seed=3)
    np.testing.assert_array_equal(full.W, same.W)


def test_sgd_step_is_the_scaled_batch_gradient():
    X, y, W0, v0 = random_problem(3, n=6)
    field = NetworkField(X, y, "exp")
    lr = 0.1
    traj = solve_gd(field, W0, v0, np.array([lr]), lr=lr, batch_size=2, seed=11)
    batch = np.random.default_rng(11).permutation(6)[:2]
    sub = NetworkField(X[batch], y[batch], "exp")
    Wdot, vdot = sub.cartesian(W0, v0, sub.mode(X[batch] @ W0.T))
    np.testing.assert_allclose(traj.W[0], W0 + lr * 3 * Wdot, atol=1e-14)
    np.testing.assert_allclose(traj.v[0], v0 + lr * 3 * vdot, atol=1e-14)


def test_events_are_the_sign_changes_between_iterates():
    X, y, W0, v0 = random_problem(4, n=12, d=2, h=6, scale=0.3)
    field = NetworkField(X, y, "exp")
    lr = 0.01
    steps = np.arange(0, 301)
    traj = solve_gd(field, W0, v0, steps * lr, lr=lr)
    assert traj.stats["sample_steps"] == steps.tolist()
    pos = (np.einsum("id,khd->kih", X, traj.W) > 0)
    expected = []
    for k in range(1, steps.size):
        for i, j in zip(*np.nonzero(pos[k] != pos[k - 1])):
            expected.append((k, int(i), int(j), "activate" if pos[k, i, j] else "deactivate"))
    got = [(int(round(e.t / lr)), e.i, e.j, e.kind) for e in traj.crossings()]
    assert expected and sorted(got) == sorted(expected)
    for e in traj.crossings():
        assert e.t == pytest.approx(round(e.t / lr) * lr, abs=1e-15)
    for e in (e for e in traj.events if e.kind == "dead"):
        k = int(round(e.t / lr))
        assert e.i == -1 and not pos[k, :, e.j].any()


def test_sampling_reports_the_true_times_of_whole_steps():
    """Each requested time is served by the last iterate at or before it; Trajectory.times are k lr."""
    X, y, W0, v0 = random_problem(5)
    field = NetworkField(X, y, "exp")
    lr = 0.03
    ts = np.array([0.0, 0.1, 0.25, 1.0, 1.01])
    traj = solve_gd(field, W0, v0, ts, lr=lr)
    steps = [0, 3, 8, 33]  # 1.0 and 1.01 share step 33 (t = 0.99): reported once
    assert traj.stats["sample_steps"] == steps
    np.testing.assert_array_equal(traj.times, np.array(steps) * lr)
    assert np.all(np.diff(traj.times) > 0) and np.all(traj.times <= ts.max())
    np.testing.assert_array_equal(traj.stats["requested_times"], ts)
    assert 0 < traj.stats["max_time_offset"] < lr
    again = solve_gd(field, W0, v0, [steps[2] * lr], lr=lr)
    np.testing.assert_array_equal(again.W[0], traj.W[2])


def test_multiples_of_lr_are_exact_and_lr_beyond_the_horizon_is_refused():
    X, y, W0, v0 = random_problem(5)
    field = NetworkField(X, y, "exp")
    traj = solve_gd(field, W0, v0, [0.3, 0.6, 0.9], lr=0.1)  # 0.3 / 0.1 = 2.9999999999999996
    assert traj.stats["sample_steps"] == [3, 6, 9]
    traj = solve_gd(field, W0, v0, [0.6, 0.9, 1.0], lr=0.3)
    assert traj.stats["sample_steps"] == [2, 3]
    np.testing.assert_array_equal(traj.times, [2 * 0.3, 3 * 0.3])
    with pytest.raises(InputError, match="larger than the horizon"):
        solve_gd(field, W0, v0, [10.0], lr=100.0)


def test_progress_callback_and_input_validation():
    X, y, W0, v0 = random_problem(6)
    field = NetworkField(X, y, "exp")
    seen = []
    solve_gd(field, W0, v0, [1.0], lr=0.001, progress=lambda t, t_end: seen.append((t, t_end)))
    assert 50 <= len(seen) <= 101 and seen[-1][0] == pytest.approx(1.0)
    with pytest.raises(InputError):
        solve_gd(field, W0, v0, [1.0], lr=0.0)
    with pytest.raises(InputError):
        solve_gd(field, W0, v0, [1.0], lr=None)
    with pytest.raises(InputError):
        solve_gd(field, W0, v0, [1.0], lr=0.1, batch_size=0)
    with pytest.raises(InputError):
        solve_gd(field, W0[:, :2], v0, [1.0], lr=0.1)
    with pytest.raises(InputError):
        solve_gd(field, W0, v0[:2], [1.0], lr=0.1)


def test_divergence_is_a_numerical_error_without_warnings():
    """Iterates that overflow end the run with NumericalError; no overflow warning escapes."""
    import warnings

    from verify.errors import NumericalError

    X, y, W0, v0 = random_problem(7)
    field = NetworkField(X, y, "exp")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(NumericalError, match="float64"):
            solve_gd(field, 30.0 * W0, -30.0 * v0, [1.0], lr=0.5)


def test_a_run_of_more_than_max_steps_is_refused():
    from verify.dynamics.gd import MAX_STEPS

    X, y, W0, v0 = random_problem(8)
    field = NetworkField(X, y, "exp")
    with pytest.raises(InputError, match="GD steps"):
        solve_gd(field, W0, v0, [1e3], lr=1e3 / (2 * MAX_STEPS))
