"""The switching law is one implementation over number types: float64 arrays and object arrays of mpfr give the same
states, slopes and repelling flags (slopes to a tolerance, classification exactly on well-separated cases), and the
compiled single-pair path agrees with it."""

from __future__ import annotations

import gmpy2
import numpy as np
import pytest

from verify.dynamics import switching as sw
from verify.dynamics.mp import events as mpev
from verify.dynamics.mp import num

PREC = 200
MPFR = type(gmpy2.mpfr(0))


def problem(seed: int, n: int = 5, h: int = 3, alpha: float = 0.1):
    """Random (S, g, K, gain) with slopes in [alpha, 1] and a well-conditioned Gram matrix."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, n))
    S = rng.uniform(alpha, 1.0, size=(n, h))
    S[rng.random((n, h)) < 0.3] = alpha
    g = rng.normal(size=n)
    gain = rng.choice([-1.0, 1.0], size=h) * rng.uniform(0.5, 2.0, size=h)
    return S, g, X @ X.T, gain


def as_mp(*arrays):
    return [num.vec(a) for a in arrays]


def both(fn, S, g, K, gain, *args, **kw):
    """fn on float64 arrays and on mpfr object arrays (the same tolerance factor D_TOL, so the same law)."""
    f64 = fn(S, g, K, gain, *args, **kw)
    with num.context(PREC):
        Sm, gm, Km, gainm = as_mp(S, g, K, gain)
        argm = [num.mpfr(a) if isinstance(a, float) else a for a in args]  # alpha in the type, as the mp engine has it
        mp = fn(Sm, gm, Km, gainm, *argm, nums=mpev.numbers(gmpy2.mpfr(sw.D_TOL)), **kw)
    return f64, mp


def assert_same(f64, mp, alpha):
    (st, sl, rep, settled), (stm, slm, repm, settled_mp) = f64, mp
    assert settled == settled_mp
    assert np.array_equal(st, stm)
    assert np.array_equal(rep, repm)
    assert slm.dtype == object and all(type(x) is MPFR for x in slm)  # no float leaks into the mp state
    assert np.allclose(slm.astype(float), sl, rtol=1e-9, atol=1e-12)
    assert all(alpha <= x <= 1 for x in slm)


def root_slope(S, g, K, i, j, k, target):
    """S with S[k, j] set so that base_ij + target = 0 (a rate at rounding level), base = sum_{l != i} S_lj g_l K_li."""
    S = S.copy()
    rest = sum(S[l, j] * g[l] * K[l, i] for l in range(g.size) if l not in (i, k))
    S[k, j] = -(rest + target) / (g[k] * K[k, i])
    return S


@pytest.mark.parametrize("alpha", [0.0, 0.1, 0.5])
def test_random_neurons_agree_on_float64_and_mpfr(alpha):
    seen = set()
    for seed in range(60):
        S, g, K, gain = problem(seed, alpha=alpha)
        rng = np.random.default_rng(1000 + seed)
        rows = np.sort(rng.choice(5, size=1 + seed % 3, replace=False))
        j = seed % 3
        f64, mp = both(sw.resolve_neuron, S, g, K, gain, j, rows, alpha)
        assert_same(f64, mp, alpha)
        st, _, rep, _ = f64
        seen |= {(int(s), rows.size > 1) for s in st} | ({"repelling"} if rep.any() else set())
    for kind in (sw.ACTIVE, sw.INACTIVE, sw.SLIDING):
        assert (kind, False) in seen and (kind, True) in seen
    assert "repelling" in seen


def test_sliding_slopes_keep_every_row_on_its_surface():
    alpha = 0.1
    for seed in range(60):
        S, g, K, gain = problem(seed, alpha=alpha)
        rows = np.array([0, 2, 3])
        st, sl, _, _ = sw.resolve_neuron(S, g, K, gain, 1, rows, alpha)
        slide = st == sw.SLIDING
        if slide.sum() < 2 or not np.all((sl[slide] > alpha) & (sl[slide] < 1.0)):
            continue
        S2 = S.copy()
        S2[rows, 1] = sl
        d0, _, tol = sw.normal_rates(S2, g, K, gain, rows[slide], np.full(slide.sum(), 1), 0.0)
        own = g[rows[slide]] * np.diag(K)[rows[slide]]
        d = d0 + gain[1] * own * sl[slide]  # d(c) at the sliding slopes: 0
        assert np.all(np.abs(d) <= 1e6 * tol)
        return
    pytest.fail("no case with two rows sliding inside (alpha, 1)")


@pytest.mark.parametrize("side", [-1, 1])
def test_arrival_pushes_from_its_own_side(side):
    """A rate at rounding level on the side the pair came from counts as pushing in (both number types): the pair
    crosses (the far side pushes on) or slides at the bound it arrived from (the far side pushes back)."""
    alpha = 0.1
    seen = set()
    for seed in range(40):
        S, g, K, gain = problem(seed, alpha=alpha)
        i, j, k = 0, 0, 1
        own = g[i] * K[i, i]
        S = root_slope(S, g, K, i, j, k, (alpha if side == -1 else 1.0) * own)  # d(alpha) = 0, resp. d(1) = 0
        rows = np.array([i])
        crosses = gain[j] * own > 0  # d(1) - d(alpha) = gamma_j (1 - alpha) g_i K_ii
        free, _ = both(sw.resolve_neuron, S, g, K, gain, j, rows, alpha)
        if not crosses:  # |d| <= tol reads as 0: without the arrival it would bounce back to its side
            assert free[0][0] == (sw.INACTIVE if side == -1 else sw.ACTIVE)
        arrived, arrived_mp = both(sw.resolve_neuron, S, g, K, gain, j, rows, alpha, np.array([side]))
        assert_same(arrived, arrived_mp, alpha)
        if crosses:
            assert arrived[0][0] == (sw.ACTIVE if side == -1 else sw.INACTIVE)
        else:
            assert arrived[0][0] == sw.SLIDING
            assert arrived[1][0] == pytest.approx(alpha if side == -1 else 1.0, rel=1e-9)
        seen.add(bool(crosses))
    assert seen == {True, False}


def mirror_problem(seed: int):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(5, 3))
    X[1] = -2.0 * X[0]  # a mirror of row 0
    X[3] = 0.5 * X[2]  # parallel to row 2
    g = rng.normal(size=5)
    S = rng.uniform(0.0, 1.0, size=(5, 2))
    gain = rng.choice([-1.0, 1.0], size=2)
    return X, S, g, X @ X.T, gain


@pytest.mark.parametrize("alpha", [0.0, 0.2])
def test_lines_with_mirrors_agree_on_float64_and_mpfr(alpha):
    seen = set()
    for seed in range(40):
        X, S, g, K, gain = mirror_problem(seed)
        rep, sgn = sw.lines(X)
        assert rep.tolist()[:4] == [0, 0, 2, 2] and sgn.tolist()[:2] == [1, -1]
        members = [np.array([0, 1]), np.array([2, 3])][: 1 + seed % 2]
        signs = [sgn[r] for r in members]
        arrival = np.array([(-1, 0, 1)[seed % 3]] + [0] * (len(members) - 1))
        f64, mp = both(sw.resolve_lines, S, g, K, gain, seed % 2, members, signs, alpha, arrival)
        assert_same(f64, mp, alpha)
        seen |= set(f64[0].tolist())
        with num.context(PREC):
            ms = sw.member_slopes(mp[1][0], signs[0], num.mpfr(alpha))
        assert all(type(x) is MPFR for x in ms)
        assert np.allclose(ms.astype(float), sw.member_slopes(f64[1][0], signs[0], alpha))
    assert seen == {sw.ACTIVE, sw.INACTIVE, sw.SLIDING}


@pytest.mark.parametrize("alpha", [0.0, 0.1, 1.0])
def test_compiled_pair_is_the_law_for_one_row(alpha):
    for seed in range(60):
        S, g, K, gain = problem(seed, alpha=min(alpha, 0.99))
        i, j, arrival = seed % 5, seed % 3, (-1, 0, 1)[seed % 3]
        state, slope, rep = sw.resolve_pair(S, g, K, gain, i, j, alpha, arrival)
        f64, mp = both(sw.resolve_neuron, S, g, K, gain, j, np.array([i]), alpha, np.array([arrival]))
        assert_same(f64, mp, alpha)
        assert (state, bool(rep)) == (int(f64[0][0]), bool(f64[2][0]))
        assert slope == pytest.approx(float(mp[1][0]), rel=1e-9, abs=1e-12)


def test_dependent_sliding_surfaces_raise_in_mp():
    """float64 takes least squares on dependent sliding surfaces; the mp solve refuses (NumericalError)."""
    from verify.errors import NumericalError

    with num.context(PREC):
        M = num.vec(np.array([[1.0, 2.0], [2.0, 4.0]]))
        with pytest.raises(NumericalError):
            mpev.numbers(num.mpfr(1e-12)).solve(M, num.vec(np.array([1.0, 1.0])))


def test_the_one_event_rule():
    """Every (side before, state after, crossing?, repelling?) against the rule's table, through the compiled
    event_code (what the compiled loop calls) and event_kind (every other backend)."""
    from itertools import product

    from verify.trajectory import EVENT_KINDS

    A, I, SL = sw.ACTIVE, sw.INACTIVE, sw.SLIDING

    def expected(prev: int, new: int, trig: bool, rep: bool) -> tuple[str | None, int]:
        if new == SL:
            return (None if prev == 0 else "sliding"), 0
        if prev == 0:
            return "sliding_exit", 1 if new == A else -1
        if (prev, new) == (-1, A):
            return "activate", 1
        if (prev, new) == (1, I):
            return "deactivate", -1
        return ("grazing" if trig or rep else None), 0

    for prev, new, trig, rep in product((-1, 0, 1), (A, I, SL), (False, True), (False, True)):
        want = expected(prev, new, trig, rep)
        assert sw.event_kind(prev, new, trig, rep) == want
        code, direction = sw.event_code(prev, new, trig, rep)
        assert (None if code == sw.NO_EVENT else EVENT_KINDS[code], direction) == want


def test_pairs_that_keep_each_other_active_settle_on_a_fixed_point():
    """Two rows of one neuron, each active exactly when the other is (alpha = 0): classified jointly from (active,
    inactive) they swap sides forever; once a state comes back only the first pair moves, which settles on a
    fixed point, in both number types. A fixed point: classifying each row with the others at the settled
    slopes gives the settled states again."""
    K = np.array([[1.0, 0.8, 0.5], [0.8, 1.0, 0.5], [0.5, 0.5, 1.0]])
    g = np.array([1.0, 1.0, -0.5])
    S = np.array([[1.0], [0.0], [1.0]])
    rows, gain = np.array([0, 1]), np.ones(1)
    first = sw.resolve_neuron(S, g, K, gain, 0, rows, 0.0, max_iter=1)[0]
    assert first.tolist() == [sw.INACTIVE, sw.ACTIVE]  # the joint update swaps the two
    f64, mp = both(sw.resolve_neuron, S, g, K, gain, 0, rows, 0.0)
    assert_same(f64, mp, 0.0)
    state, slopes, _, settled = f64
    assert settled and state[0] == state[1]
    S2 = S.copy()
    S2[rows, 0] = slopes
    again = sw.resolve_neuron(S2, g, K, gain, 0, rows, 0.0, max_iter=1)[0]
    assert np.array_equal(again, state)


def test_a_settling_without_a_fixed_point_is_reported_not_hidden():
    """Three rows of one neuron whose single moves cycle through four states (none a fixed point of the law): the
    iteration stops at its cap and says so, in both number types, and law.settle_column hands the flag on (the
    engines count it in stats["unsettled"]; the limit engine's stats["exact"] becomes False)."""
    from verify.dynamics import law

    alpha = 0.1
    S = np.array([[0.9073108509281433], [0.8905092387272714], [0.9948647689319402], [0.4167315380750284], [0.1]])
    g = np.array([-0.5506707019933543, -1.5250804770169624, -1.763631886148366, 0.8112818236152496, 0.25643114886432494])
    K = np.array([[3.600144714297868, -0.27899634817042424, 1.6466823626903044, -1.6340951228115816, -0.5186331825911008],
                  [-0.27899634817042424, 6.158681777774084, -0.278030015171809, 3.9283492604900303, -0.6719023088658485],
                  [1.6466823626903044, -0.278030015171809, 3.3156067060821157, -0.7163535457881174, 0.1761771035199481],
                  [-1.6340951228115816, 3.9283492604900303, -0.7163535457881174, 5.391337034340078, 1.0071385982790233],
                  [-0.5186331825911008, -0.6719023088658485, 0.1761771035199481, 1.0071385982790233, 1.3307287233848946]])
    gain, rows = np.array([-0.5508106541849114]), np.array([1, 2, 3])
    f64, mp = both(sw.resolve_neuron, S, g, K, gain, 0, rows, alpha)
    assert f64[3] is False and mp[3] is False
    side, lines = np.where(S[:, 0] == 1.0, 1, -1), (np.arange(5), np.ones(5, dtype=int), {})
    assert not law.settle_column(S, g, K, gain, 0, rows, side, set(), alpha, *lines).settled
    assert law.settle_column(S, g, K, gain, 0, rows[:1], side, set(), alpha, *lines).settled
