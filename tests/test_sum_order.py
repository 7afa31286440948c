"""The compiled kernels' sums keep index order: each sum adds its terms one at a time, in order, from 0 (or from its
start vector), whatever the number of terms a pass over the output takes (one, two or four) and whether the first
pass starts from 0 or from a pass of zeros. Oracles: plain Python loops that add the same terms in that order. With
only + and * (the square loss, no libm), IEEE 754 fixes every bit, so the comparisons are exact."""

from __future__ import annotations

import numpy as np
import pytest

from verify.dynamics import field_jit, rk_jit

SHAPES = [(n, d, h) for d in range(1, 10) for n, h in ((1, 1), (3, 2), (4, 5), (7, 3), (9, 4))]


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=float).view(np.int64)


def _preact_oracle(X: np.ndarray, z: np.ndarray, h: int) -> np.ndarray:
    n, d = X.shape
    P = np.empty((n, h))
    for i in range(n):
        for j in range(h):
            acc = 0.0
            for q in range(d):
                acc += X[i, q] * z[j * d + q]
            P[i, j] = acc
    return P


def _cartesian_square_oracle(X: np.ndarray, y: np.ndarray, z: np.ndarray, S: np.ndarray, h: int) -> np.ndarray:
    """[W', v'] for the square loss (w(m) = 1 - m), every sum in index order from 0."""
    n, d = X.shape
    P, v = _preact_oracle(X, z, h), z[h * d:]
    PS = P * S
    g = np.empty(n)
    for i in range(n):
        f = 0.0
        for j in range(h):
            f += PS[i, j] * v[j]
        g[i] = y[i] * (1.0 - y[i] * f)
    out = np.empty(h * d + h)
    for j in range(h):
        for q in range(d):
            acc = 0.0
            for i in range(n):
                acc += (S[i, j] * g[i]) * X[i, q]
            out[j * d + q] = v[j] * acc
        acc = 0.0
        for i in range(n):
            acc += g[i] * PS[i, j]
        out[h * d + j] = acc
    return out


@pytest.mark.parametrize("n, d, h", SHAPES)
def test_preactivations_add_each_term_in_index_order(n, d, h):
    """field_jit.preact_into (its first pass writes min(d, 4) terms from 0, later passes add four, then one)."""
    rng = np.random.default_rng(n * 100 + d * 10 + h)
    X, z = rng.normal(size=(n, d)), rng.normal(size=h * d + h)
    np.testing.assert_array_equal(_bits(field_jit.preact(X, z, 0, h)), _bits(_preact_oracle(X, z, h)))


@pytest.mark.parametrize("n, d, h", SHAPES)
def test_field_adds_each_term_in_index_order(n, d, h):
    """form_rhs through field_jit.cartesian_rhs (square loss): the preactivations as above, and the gradients' and v's
    sums over i, four rows per pass onto a pass of zeros, then one."""
    rng = np.random.default_rng(n * 100 + d * 10 + h + 1)
    X, y = rng.normal(size=(n, d)), np.where(rng.random(n) < 0.5, -1.0, 1.0)
    z, S = rng.normal(size=h * d + h), np.where(rng.random((n, h)) < 0.6, 1.0, 0.1)
    got = field_jit.cartesian_rhs(z, S, X, y, h, d, field_jit.LOSS_CODES["square"], True)
    np.testing.assert_array_equal(_bits(got), _bits(_cartesian_square_oracle(X, y, z, S, h)))


def _accumulate_oracle(start: np.ndarray | None, scale: float, row: np.ndarray, K: np.ndarray, count: int) -> np.ndarray:
    out = np.zeros(K.shape[1]) if start is None else start.copy()
    for q in range(count):
        c = scale * row[q]
        if c != 0.0:
            for p in range(K.shape[1]):
                out[p] = out[p] + c * K[q, p]
    return out


@pytest.mark.parametrize("count", range(0, 17))
@pytest.mark.parametrize("from_zero", [True, False])
def test_stage_sums_add_each_term_in_index_order(count, from_zero):
    """rk_jit._accumulate (two terms per pass, zero coefficients skipped) on DOP853's rows with their zeros, and on
    rows of only zeros, one nonzero term, every count; _stage_state = that sum from 0, times the step, plus z."""
    rng = np.random.default_rng(count + 17 * from_zero)
    K, z, N = rng.normal(size=(16, 11)), rng.normal(size=11), 11
    A = np.zeros((12, 16))
    A[:, :12] = rk_jit.TABLEAU_853[0]
    rows = np.vstack([rk_jit.DENSE_853[2], A[[3, 7, 11]], np.zeros(16), np.eye(16)[min(count, 15)]])
    for c in range(rows.shape[0]):
        out = np.full(N, np.nan)
        rk_jit._accumulate(out, z, from_zero, 0.25, rows, c, K, count)
        want = _accumulate_oracle(None if from_zero else z, 0.25, rows[c], K, count)
        np.testing.assert_array_equal(_bits(out), _bits(want))
        if count <= 12:
            rk_jit._stage_state(out, z, 0.25, rows, c, K, count)
            np.testing.assert_array_equal(_bits(out), _bits(_accumulate_oracle(None, 1.0, rows[c], K, count) * 0.25 + z))


@pytest.mark.parametrize("count", range(0, 14))
def test_error_norm_adds_each_stage_in_index_order(count):
    """rk_jit._scaled_norm2 (two stage rows per pass, zero coefficients included) against the sum in order."""
    rng = np.random.default_rng(count)
    K, scale = rng.normal(size=(13, 9)), rng.random(9) + 0.5
    E = rng.normal(size=13)
    E[::3] = 0.0
    acc = np.zeros(9)
    for q in range(count):
        acc = acc + (0.5 * E[q]) * K[q]
    want = 0.0
    for p in range(9):
        e = acc[p] / scale[p]
        want += e * e
    assert rk_jit._scaled_norm2(K, E, count, 0.5, scale, np.full(9, np.nan)) == want
