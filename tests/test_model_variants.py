"""Model variants through the claims path (issue 16): a fixed second layer, mean-loss steps, SGD without
replacement in epochs with its recorded order, and scenarios that carry them (replayable)."""

from __future__ import annotations

import numpy as np
import pytest

from verify.claims.run import execute
from verify.data.dataset import Dataset
from verify.dynamics.field import NetworkField
from verify.errors import InputError
from verify.model.init import Initialization
from verify.model.losses import summed_lr, summed_time
from verify.scenarios import Scenario


def problem(n: int = 6, k: int = 2, seed: int = 0) -> tuple[Dataset, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2))
    X /= np.max(np.linalg.norm(X, axis=1))
    y = np.where(X @ np.array([1.0, 0.5]) > 0, 1.0, -1.0)
    y[0], y[1] = 1.0, -1.0
    return Dataset(X, y), 1e-2 * rng.standard_normal((2 * k, 2)), np.r_[np.ones(k), -np.ones(k)]


def scenario(ds: Dataset, W0: np.ndarray, v0: np.ndarray, **algorithm) -> Scenario:
    return Scenario(ds, Initialization(W0, v0, 0.0, "given"), "logistic", 0.2, {}, **algorithm)


def test_sgd_with_a_fixed_second_layer_is_the_papers_update_step_by_step():
    """W_t = W_{t-1} - eta grad l(y_t N(x_t)) with eta the mean-loss step: lr = eta / n, batch 1, epochs."""
    ds, W0, v0 = problem()
    eta = 0.5
    run = execute(scenario(ds, W0, v0, train_v=False, lr=summed_lr(eta, ds.n), batch_size=1, order_seed=3),
                  3 * ds.n * summed_lr(eta, ds.n), backend="gd", spacing="steps")
    order = run.trajectory.stats["order"][:, 0]
    assert run.W.shape[0] == order.size + 1 == 3 * ds.n + 1
    for epoch in order.reshape(3, ds.n):  # without replacement: each epoch is a permutation
        assert sorted(epoch.tolist()) == list(range(ds.n))
    np.testing.assert_array_equal(run.v, np.broadcast_to(v0, run.v.shape))
    for k, i in enumerate(order):
        W = run.W[k]
        x, yi = ds.X[i], ds.y[i]
        pre = W @ x
        slope = np.where(pre > 0, 1.0, 0.2)  # sigma'(0) = alpha
        c = 1.0 / (1.0 + np.exp(yi * (v0 @ (slope * pre))))  # c(z) = -l'(z), z = y N(x)
        np.testing.assert_allclose(run.W[k + 1], W + eta * c * yi * (v0 * slope)[:, None] * x, rtol=1e-12, atol=1e-15)


def test_full_batch_gd_on_the_mean_loss_and_the_flow_share_the_time_scale():
    ds, W0, v0 = problem(seed=1)
    eta, steps = 0.05, 400
    sc = scenario(ds, W0, v0, train_v=False, lr=summed_lr(eta, ds.n))
    gd = execute(sc, steps * sc.lr, backend="gd", samples=4)
    gf = execute(scenario(ds, W0, v0, train_v=False), summed_time(steps * eta, ds.n), samples=4)
    assert gd.times[-1] == pytest.approx(gf.times[-1])
    np.testing.assert_allclose(gd.W[-1], gf.W[-1], rtol=0.05)
    assert NetworkField.from_dataset(ds, "logistic", 0.2, False).train_v is False


def test_scenarios_carry_and_replay_their_algorithm():
    ds, W0, v0 = problem()
    sc = scenario(ds, W0, v0, train_v=False, lr=0.1, batch_size=2, order_seed=9)
    assert sc.algorithm == {"train_v": False, "lr": 0.1, "batch_size": 2, "order_seed": 9}
    back = Scenario.from_dict(sc.to_dict())
    assert back.algorithm == sc.algorithm
    assert "lr" not in scenario(ds, W0, v0).to_dict()  # the default (GF, v trained) adds nothing
    a = execute(sc, 1.0, backend="gd", samples=3)
    b = execute(back, 1.0, backend="gd", samples=3)
    np.testing.assert_array_equal(a.W, b.W)


@pytest.mark.parametrize("bad", [{"lr": 0.0}, {"lr": float("nan")}, {"batch_size": 2}, {"lr": 0.1, "batch_size": 0},
                                 {"lr": 0.1, "batch_size": 7}, {"train_v": "no"}, {"order_seed": 1.5}])
def test_bad_algorithm_fields_are_input_errors(bad):
    ds, W0, v0 = problem()
    with pytest.raises(InputError):
        scenario(ds, W0, v0, **bad)


def test_gd_claims_need_a_step_and_steps_spacing_needs_gd():
    ds, W0, v0 = problem()
    with pytest.raises(InputError, match="lr"):
        execute(scenario(ds, W0, v0, train_v=False), 1.0, backend="gd")
    with pytest.raises(InputError, match="steps"):
        execute(scenario(ds, W0, v0, train_v=False, lr=0.1), 1.0, spacing="steps")
