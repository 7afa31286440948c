"""The structures scenario(...) draws (split classes, support pairs, mixed signs, anchored neurons) keep each
family's documented guarantees, and the drawn parameters rebuild the same scenario."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verify.data import generators as gen
from verify.geometry import mu
from verify.margins import max_margin
from verify.scenarios import ANCHOR_ANGLE, anchor_neurons, log_hundredths, make_init, mix_signs, scenario

FAST = settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def _rebuilt_init(sc):
    """The init rebuilt from the recorded parameters, step by step: (plain, after mixing, final)."""
    p = sc.params
    plain = make_init(p["init"], p["h"], sc.dataset.d, p["log_eps"], p["init_seed"])
    mixed = mix_signs(plain, p["init_seed"]) if p["signs"] == "mixed" else plain
    return plain, mixed, anchor_neurons(mixed, sc.dataset, p["anchored"], p["init_seed"])


@FAST
@given(st.data(), st.sampled_from(["balanced", "unbalanced", "dominated"]))
def test_init_structures_keep_the_family_guarantees(data, kind):
    sc = data.draw(scenario(init=kind, n=(2, 6), d=(1, 4), h=(1, 6)))
    init, p = sc.init, sc.params
    plain, mixed, final = _rebuilt_init(sc)
    np.testing.assert_array_equal(final.W0, init.W0)
    np.testing.assert_array_equal(final.v0, init.v0)
    norms = np.linalg.norm(init.W0, axis=1)
    np.testing.assert_allclose(norms, np.linalg.norm(plain.W0, axis=1), rtol=1e-12)  # anchoring keeps ||W0_j||
    np.testing.assert_array_equal(np.abs(init.v0), np.abs(plain.v0))  # mixing keeps |v0_j|
    if kind == "balanced":
        assert init.balanced
    if kind == "dominated":
        np.testing.assert_allclose(np.abs(init.v0), 2.0 * norms, rtol=1e-12)
    if p["signs"] == "mixed" and init.h >= 2:
        assert np.any(init.v0 > 0) and np.any(init.v0 < 0)
    if p["signs"] == "random":
        np.testing.assert_array_equal(init.v0, plain.v0)


@FAST
@given(scenario(n=(2, 6), d=(2, 4), h=(1, 6)))
def test_anchored_neurons_start_just_inside_an_own_class_half_space(sc):
    X, y = sc.dataset.X, sc.dataset.y
    unit = X / np.linalg.norm(X, axis=1, keepdims=True)
    lo, hi = (math.sin(a) for a in ANCHOR_ANGLE)
    for j in range(sc.params["anchored"]):
        w = sc.init.W0[j] / np.linalg.norm(sc.init.W0[j])
        cos = unit @ w
        own = y == np.sign(sc.init.v0[j])
        assert np.any(own & (cos >= lo - 1e-12) & (cos <= hi + 1e-12))


@FAST
@given(scenario(n=(2, 8), d=(1, 4), mu=(0.05, 0.95)))
def test_orthogonally_separable_draws_have_the_recorded_mu(sc):
    p = sc.params
    assert p["split"] in (0.0, 0.9)
    assert mu(sc.dataset) == pytest.approx(p["mu"], abs=gen.MU_TOL)
    assert abs(p["mu"] * 100 - round(p["mu"] * 100)) < 1e-9


@FAST
@given(scenario(data="linearly_separable", n=(2, 8), d=(1, 4)))
def test_linearly_separable_draws_have_the_recorded_margin(sc):
    p = sc.params
    ds = gen.linear_teacher(p["n"], p["d"], p["margin"], seed=p["seed"], band=p["band"], unit_norm=p["unit_norm"],
                            tilt=p["tilt"])
    np.testing.assert_array_equal(ds.X, sc.dataset.X)
    mm = max_margin(sc.dataset)
    assert mm.linearly_separable and mm.gamma_lin == pytest.approx(p["margin"], rel=1e-6)
    assert sc.dataset.X_max <= 1.0 + 1e-12


@given(st.integers(1, 100), st.integers(0, 100), st.data())
def test_log_hundredths_stay_in_range(lo, extra, data):
    k = data.draw(log_hundredths(lo, lo + extra))
    assert lo <= k <= lo + extra and isinstance(k, int)


def test_log_hundredths_spread_towards_the_low_end():
    """As many values of u in [0, 1000] map below 2 lo as above 2 lo ... (log-uniform): the median of the map is
    the geometric mean of the range."""
    values = [min(95, max(5, round(5 * (95 / 5) ** (u / 1000)))) for u in range(1001)]
    assert np.median(values) == pytest.approx(math.sqrt(5 * 95), abs=1.0)
    assert np.mean(np.array(values) <= 20) > 0.45
