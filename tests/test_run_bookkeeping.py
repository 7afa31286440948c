"""The Python around a float64 run, made cheaper (issue 18, 2026-11-29, seventh session): the compiled helpers that
replaced numpy code on a run's path, each against the formula it replaced (the oracle). Where the compiled helper
adds the same terms in the same order with no libm call in between, it must agree bit for bit; where numpy may
evaluate a transcendental function its own way (its SIMD log, for one), to rounding."""

from __future__ import annotations

import math

import numpy as np
import pytest

from verify import Dataset, simulate
from verify.data.generators import orthogonally_separable
from verify.dynamics import field_jit
from verify.dynamics.field import NetworkField
from verify.dynamics.loop import shared_rows
from verify.dynamics.settle import apex_passages
from verify.dynamics.times import sample_times
from verify.errors import InputError
from verify.model.losses import LOSSES, log_loss_rows, log_sum_exp
from verify.simulate import _balanced, _scale_bounds, row_log_norms, weight_facts
from verify.trajectory import Event


def _weights(rng: np.random.Generator, h: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    W = rng.normal(size=(h, d)) * 10.0 ** rng.integers(-8, 3, size=(h, 1))
    return W, rng.normal(size=h) * 1e-3


def test_weight_facts_are_the_checks_they_replace() -> None:
    rng = np.random.default_rng(3)
    norms = rng.uniform(0.5, 4.0, size=7)
    for _ in range(20):
        W, v = _weights(rng, 5, 3)
        W[1] = 0.0
        facts = weight_facts(W, v, norms)
        lw = row_log_norms(W)
        assert facts.finite_W and facts.finite_v
        assert (facts.biggest, facts.output_bound) == _scale_bounds(W, v, float(norms.max()))
        np.testing.assert_array_equal(facts.log_norms, lw)
        assert facts.balanced == _balanced(lw, v) and facts.nonzero is False
        assert facts.v_max == float(np.max(np.abs(v))) and (facts.log_norm_max, facts.log_norm_min) == (lw.max(), lw.min())
    W = np.array([[0.6, 0.8], [3.0, 4.0]])
    assert weight_facts(W, np.array([-1.0, 5.0])).balanced and weight_facts(W, np.array([1.0, 5.0])).nonzero
    Wb = W.copy()
    Wb[0, 1] = np.nan
    assert weight_facts(Wb, np.array([1.0, 5.0]))[:2] == (False, True)
    assert weight_facts(W, np.array([1.0, np.inf]))[:2] == (True, False)


def test_simulate_still_refuses_non_finite_and_unbalanced_weights_with_its_messages() -> None:
    ds = orthogonally_separable(3, 3, 3, 0.3, seed=0)
    W, v = np.full((2, 3), 1e-3), np.full(2, 1e-3)
    for field_, msg in (("W", "W0 contains non-finite values"), ("v", "v0 contains non-finite values")):
        Wb, vb = W.copy(), v.copy()
        (Wb if field_ == "W" else vb).flat[0] = np.inf
        with pytest.raises(InputError, match=msg):
            simulate(ds, Wb, vb, 1.0)
    with pytest.raises(InputError, match="needs a balanced init"):
        simulate(ds, W, v, 1.0, form="polar")
    with pytest.raises(InputError, match="beyond what float64"):
        simulate(ds, np.full((2, 3), 1e200), v, 1.0)


def test_field_norms_from_a_dataset_are_numpys() -> None:
    ds = orthogonally_separable(5, 4, 4, 0.3, seed=1, norm_range=(0.5, 2.0))
    field = NetworkField.from_dataset(ds)
    np.testing.assert_array_equal(field.norms, np.linalg.norm(ds.X, axis=1))
    assert np.array_equal(NetworkField(ds.X, ds.y, "exp").norms, field.norms)


@pytest.mark.parametrize("n, d, h", [(1, 1, 1), (5, 3, 4), (8, 3, 5), (9, 2, 7), (40, 10, 100)])
def test_state_outputs_are_the_fields_own_sums(n: int, d: int, h: int) -> None:
    """f_i = sum_j (S_ij P_ij) v_j in order of j, P by the field's preactivations: the field's own f, which the square
    loss's weight g_i = y_i (1 - y_i f_i) exposes without a libm call; and numpy's formula to rounding."""
    rng = np.random.default_rng(n * 100 + h)
    X, y = rng.normal(size=(n, d)), np.where(rng.random(n) < 0.5, -1.0, 1.0)
    Z = rng.normal(size=(3, h * d + h))
    Z[1, : h * d] = 0.0  # every preactivation 0: sigma'(0) = alpha
    alpha = 0.1
    F = field_jit.state_outputs(Z, X, alpha, h, d)
    for s in range(3):
        W, v = Z[s, : h * d].reshape(h, d), Z[s, h * d :]
        P = field_jit.preact(X, Z[s], 0, h)
        S = np.where(P > 0.0, 1.0, alpha)
        g = field_jit.data_weights(P.copy(), S, v.copy(), y, field_jit.LOSS_CODES["square"])
        np.testing.assert_array_equal(g, y * (1.0 - y * F[s]))
        want = NetworkField(X, y, "exp", alpha).outputs(W, v)
        np.testing.assert_allclose(F[s], want, rtol=1e-13, atol=1e-13 * float(np.abs(P).max(initial=0.0) * np.abs(v).max()))


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_log_loss_rows_are_the_losses_log_values(name: str) -> None:
    loss = LOSSES[name]
    rng = np.random.default_rng(len(name))
    y = np.where(rng.random(30) < 0.5, -1.0, 1.0)
    for scale in (1e-12, 1e-3, 1.0, 40.0, 900.0):
        F = rng.normal(size=(3, 30)) * scale
        F[1, :4] = [0.0, -0.0, y[2], -y[3] * 35.0]
        with np.errstate(divide="ignore", over="ignore"):
            per = loss.log_value(y, F)
        got, below = log_loss_rows(y, F, loss.jit_code, -745.0)
        assert below == bool((per < -745.0).any())
        want = log_sum_exp(per)
        if name == "exp":  # -z and the same compiled log-sum-exp: no libm call that numpy makes its own way
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=4e-16 * 8, atol=0.0)


def test_a_runs_loss_statistics_are_numpys() -> None:
    ds = orthogonally_separable(4, 4, 3, 0.3, seed=2, norm_range=(0.5, 2.0))
    rng = np.random.default_rng(2)
    W, v = 1e-3 * rng.normal(size=(4, 3)), 1e-3 * rng.normal(size=4)
    for loss in ("exp", "logistic", "square"):
        tr = simulate(ds, W, v, 5.0, times=[1.0, 5.0], loss=loss)
        field = NetworkField.from_dataset(ds, loss)
        want = field.loss.log_totals(field.y, field.outputs(tr.W, tr.v))
        np.testing.assert_allclose(tr.stats["log_loss"], want, rtol=1e-14)


def test_sample_times_returns_a_valid_float_grid_as_it_is_and_refuses_the_rest() -> None:
    grid = np.array([0.0, 0.5, 2.0])
    assert sample_times(grid) is grid
    for bad, msg in (([0.5, 0.5], "strictly increasing"), ([-1.0, 1.0], ">= 0"), ([0.0, np.nan], "non-finite"),
                     ([], "non-empty"), ([0.0, np.inf], "non-finite")):
        with pytest.raises(InputError, match=msg):
            sample_times(np.array(bad, dtype=float))
    np.testing.assert_array_equal(sample_times([0, 1]), [0.0, 1.0])
    assert sample_times(np.array([-0.0])).tolist() == [0.0]


def test_shared_rows_are_the_bincount_formula() -> None:
    rng = np.random.default_rng(4)
    for n in (1, 2, 7, 30):
        rep = np.minimum(rng.integers(0, n, size=n), np.arange(n))
        np.testing.assert_array_equal(shared_rows(rep), np.bincount(rep, minlength=n)[rep] > 1)


def test_apex_early_exit_reads_the_log_arrays_as_the_events() -> None:
    X = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 0.0], [1.0, 1e-12]])
    t = 0.00020487280649208786
    cases = [
        [Event(0.5, 0, 3, "activate", 1), Event(0.5, 1, 3, "deactivate", -1), Event(0.7, 0, 1, "activate", 1)],
        [Event(t, 0, 3, "activate", 1), Event(np.nextafter(t, 1.0), 1, 3, "deactivate", -1)],
        [Event(0.4, 0, 1, "deactivate", -1), Event(0.4, -1, 1, "dead", 0)],
        [Event(0.1, 0, 1, "activate", 1), Event(0.3, 1, 1, "activate", 1)],
        [],
    ]
    for events in cases:
        log = (np.array([e.t for e in events], dtype=float), np.array([e.i for e in events], dtype=np.int64))
        assert apex_passages(events, X, log) == apex_passages(events, X)
    assert apex_passages(cases[0], X) == [(3, 0.5)] and apex_passages(cases[2], X[:2]) == []


def test_a_compiled_run_and_the_python_iteration_agree_on_the_statistics(monkeypatch) -> None:
    from verify.dynamics import engine

    ds = Dataset(np.array([[1.0, 0.2], [-0.3, 1.0], [0.5, -1.0], [-1.0, -0.4]]), np.array([1, -1, 1, -1]))
    W, v = np.array([[1e-3, 2e-4], [-5e-4, 1e-3], [2e-4, -1e-3]]), np.array([1e-3, -1e-3, 5e-4])
    compiled = simulate(ds, W, v, 20.0, times=[0.5, 20.0])
    monkeypatch.setattr(engine, "COMPILED_LOOP", False)
    python = simulate(ds, W, v, 20.0, times=[0.5, 20.0])
    assert compiled.stats["apex"] == python.stats["apex"] == []
    assert compiled.stats["n_events"] == python.stats["n_events"] > 0
    np.testing.assert_allclose(compiled.stats["log_loss"], python.stats["log_loss"], rtol=1e-9)
    assert math.isfinite(compiled.balancedness_drift) and compiled.balancedness_drift < 1e-8
