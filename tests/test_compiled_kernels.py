"""The compiled (numba) kernels of the event engine against their numpy references.

Each kernel replaces whole-array numpy code for speed; these tests pin it to the reference
on random inputs (all losses, both forms, fractional sliding slopes, leaky slopes), and on
whole runs through the engine.
"""

from __future__ import annotations

import dataclasses
import zlib

import numba
import numpy as np
import pytest

from verify.dynamics import (crossings, detect, engine_jit, field_jit, filippov_jit, loop_jit, rk_jit, scan,
                             settle_jit, stepper, switching)
from verify.dynamics.events import solve_cartesian
from verify.dynamics.settle import SURFACE_TOL
from verify.dynamics.field import NetworkField
from verify.dynamics.forms import CartesianForm, PolarForm, row_norms
from verify.model.losses import EXP, LOSSES

RNG = np.random.default_rng(20261123)


@pytest.fixture(autouse=True)
def _seeded(request: pytest.FixtureRequest) -> None:
    """Each test draws from its own seed (its name's CRC): its problems do not depend on which tests ran before it in
    the same process (pytest-xdist distributes them differently from run to run)."""
    global RNG
    RNG = np.random.default_rng(zlib.crc32(request.node.name.encode()))


def _problem(n: int, h: int, d: int, loss: str, alpha: float = 0.0, train_v: bool = True) -> tuple[NetworkField, np.ndarray]:
    X = RNG.normal(size=(n, d))
    y = np.where(RNG.random(n) < 0.5, 1.0, -1.0)
    field = NetworkField(X, y, loss, alpha=alpha, train_v=train_v)
    S = np.where(RNG.random((n, h)) < 0.5, 1.0, alpha)
    S[RNG.integers(n), RNG.integers(h)] = RNG.uniform(alpha, 1.0)  # a sliding pair's slope
    return field, S


def _form_and_state(field: NetworkField, h: int, d: int, polar: bool, scale: float) -> tuple[CartesianForm | PolarForm, np.ndarray]:
    """A polar form (random signs and r_ref) with a state of small log-norms and random directions, or a Cartesian
    form with a state of size ``scale``."""
    if polar:
        form = PolarForm(field, np.where(RNG.random(h) < 0.5, 1.0, -1.0), RNG.normal(size=h) - 1.0, d)
        return form, np.concatenate([RNG.normal(size=h) * 0.1, RNG.normal(size=h * d)])
    form = CartesianForm(field, h, d)
    return form, scale * RNG.normal(size=form.size)


@pytest.mark.parametrize("loss", sorted(LOSSES))
@pytest.mark.parametrize("train_v", [True, False])
@pytest.mark.parametrize("n, h, d", [(9, 7, 4), (11, 5, 6), (3, 4, 2), (41, 10, 7)])  # four terms at a time; BLAS
def test_cartesian_rhs_matches_numpy(loss, train_v, n, h, d):
    field, S = _problem(n, h, d, loss, alpha=0.1, train_v=train_v)
    form = CartesianForm(field, h, d)
    for scale in (1e-3, 0.5, 2.0):  # outputs from ~0 to O(10)
        z = scale * RNG.normal(size=form.size)
        ref = form.rhs_numpy(z, S)
        assert np.all(np.isfinite(ref))
        np.testing.assert_allclose(form.rhs(z, S), ref, rtol=1e-13, atol=1e-15 * np.max(np.abs(ref)))


@pytest.mark.parametrize("loss", sorted(LOSSES))
@pytest.mark.parametrize("n, h, d", [(9, 7, 4), (41, 10, 7)])  # below and above field_jit.BLAS_MIN_WORK
def test_polar_rhs_matches_numpy(loss, n, h, d):
    field, S = _problem(n, h, d, loss)
    s = np.where(RNG.random(h) < 0.5, 1.0, -1.0)
    form = PolarForm(field, s, RNG.normal(size=h), d)
    for shift in (-400.0, -2.0, 0.0):  # outputs underflowing to the eps -> 0 limit, and O(1)
        z = np.concatenate([shift - form.r_ref + 0.3 * RNG.normal(size=h), RNG.normal(size=h * d)])
        ref = form.rhs_numpy(z, S)
        assert np.all(np.isfinite(ref))
        np.testing.assert_allclose(form.rhs(z, S), ref, rtol=1e-13, atol=1e-15 * np.max(np.abs(ref)))


@pytest.mark.parametrize("polar", [False, True])
@pytest.mark.parametrize("log_time", [False, True])
@pytest.mark.parametrize("n, h, d", [(9, 7, 4), (41, 10, 7)])
def test_blas_form_of_the_field_is_the_loops_form(polar, log_time, n, h, d):
    """field_jit.form_rhs_blas (its two products by BLAS, taken from BLAS_MIN_WORK on) against form_rhs (loops) on
    either side of the threshold: the same field to rounding; the wrappers take the form uses_blas names."""
    field, S = _problem(n, h, d, "logistic", alpha=0.2)
    form, z = _form_and_state(field, h, d, polar, 0.7)
    args = (0.3, z, S, *form.compiled_args(), log_time)
    outs = []
    for kernel in (field_jit.form_rhs, field_jit.form_rhs_blas):
        out = np.empty(z.size)
        kernel(out, *args, *field_jit.field_workspace(n, d, h))
        outs.append(out)
    np.testing.assert_allclose(outs[1], outs[0], rtol=1e-12, atol=1e-14 * np.max(np.abs(outs[0])))
    assert field_jit.uses_blas(n, h, d) == (n * h * d >= field_jit.BLAS_MIN_WORK)
    np.testing.assert_allclose(form.rhs(z, S) * (np.exp(0.3) if log_time else 1.0), outs[1], rtol=1e-12,
                               atol=1e-14 * np.max(np.abs(outs[0])))


def test_a_run_limits_blas_to_one_thread_from_blas_min_work_on():
    """field.single_thread_blas: one BLAS thread inside a run of n d max(n, h) >= BLAS_MIN_WORK (threadpoolctl's
    report), the threads left as they are below it (no limit is set: the run's products are too small to thread)."""
    from threadpoolctl import threadpool_info

    from verify.dynamics.field import single_thread_blas

    def blas_threads() -> list[int]:
        return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]

    outside = blas_threads()
    with single_thread_blas(8, 5, 3):
        assert blas_threads() == outside
    for n, h, d in ((40, 100, 10), (200, 1, 11)):  # X V^T large; X X^T large with one neuron
        assert n * d * max(n, h) >= field_jit.BLAS_MIN_WORK
        with single_thread_blas(n, h, d):
            assert set(blas_threads()) <= {1}
    assert blas_threads() == outside


def test_custom_loss_takes_the_numpy_path():
    custom = dataclasses.replace(EXP, name="my-exp")
    field = NetworkField(RNG.normal(size=(5, 3)), np.array([1.0, -1.0, 1.0, 1.0, -1.0]), custom)
    form = CartesianForm(field, 4, 3)
    assert form._loss is None
    z, S = RNG.normal(size=form.size), np.ones((5, 4))
    np.testing.assert_array_equal(form.rhs(z, S), form.rhs_numpy(z, S))


@pytest.mark.parametrize("pair", [0, 1])
@pytest.mark.parametrize("polar", [False, True])
@pytest.mark.parametrize("log_time", [False, True])
def test_compiled_low_order_step_matches_python_step(pair, polar, log_time):
    """3(2) and 5(4) steps with their dense matrices: compiled (rk_jit.low_step) against the numpy reference."""
    low = (stepper.RK23, stepper.RK45)[pair]
    field, S = _problem(12, 6, 3, "logistic")
    form, z = _form_and_state(field, 6, 3, polar, 0.3)

    def fun(s: float, zz: np.ndarray) -> np.ndarray:
        return form.rhs(zz, S) * (np.exp(s) if log_time else 1.0)

    s0, h = 0.2, 0.07
    f = fun(s0, z)
    atol = np.full(z.size, 1e-12)
    res = stepper.step_low(fun, s0, z, f, h, 1e-9, atol, low)
    F = stepper.dense_matrix_low(res, h, low)
    z_new, f_new, err, Fc = rk_jit.low_step(s0, z, f, h, np.full(z.size, 1e-9), atol, S, *form.compiled_args(), log_time,
                                            filippov_jit.no_slide(field.X @ field.X.T, field.alpha), *rk_jit.TABLEAUS[pair])
    np.testing.assert_allclose(z_new, res.z_new, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(f_new, res.f_new, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(Fc, F, rtol=1e-12, atol=1e-13 * np.max(np.abs(F)))
    assert err == pytest.approx(res.err, rel=1e-9)
    x = np.linspace(0.0, 1.0, 5)
    np.testing.assert_allclose(stepper.dense_eval(z, Fc, x), stepper.dense_eval(z, F, x), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("polar", [False, True])
@pytest.mark.parametrize("log_time", [False, True])
def test_compiled_dop853_step_matches_python_step(polar, log_time):
    """rk_jit.dop853_step + dop853_dense against their oracle, stepper.step + stepper.dense_matrix."""
    field, S = _problem(12, 6, 3, "logistic")
    form, z = _form_and_state(field, 6, 3, polar, 0.3)

    def fun(s: float, zz: np.ndarray) -> np.ndarray:
        return form.rhs(zz, S) * (np.exp(s) if log_time else 1.0)

    s0, h = 0.2, 0.07
    f = fun(s0, z)
    atol = np.full(z.size, 1e-12)
    res = stepper.step(fun, s0, z, f, h, 1e-9, atol)
    F = stepper.dense_matrix(fun, s0, z, f, res, h)
    args = (S, *form.compiled_args(), log_time, filippov_jit.no_slide(field.X @ field.X.T, field.alpha))
    z_new, f_new, err, K = rk_jit.dop853_step(s0, z, f, h, np.full(z.size, 1e-9), atol, *args, *rk_jit.TABLEAU_853)
    Fc = rk_jit.dop853_dense(s0, z, f, z_new, f_new, K, h, *args, *rk_jit.DENSE_853)
    # the compiled field sums in loops, numpy in BLAS: each evaluation agrees to rounding, amplified by the 12 stages
    np.testing.assert_allclose(z_new, res.z_new, rtol=0.0, atol=1e-12 * np.max(np.abs(res.z_new)))
    np.testing.assert_allclose(f_new, res.f_new, rtol=0.0, atol=1e-12 * np.max(np.abs(res.f_new)))
    # the stages agree to rounding amplified by the tableau (sum_q |A_iq| reaches 96 in the last stages), and F's
    # rows 3..6 = h D K amplify again (sum_q |D_kq| up to ~400): absolute agreement relative to max |K|, max |F|
    np.testing.assert_allclose(K, res.K, rtol=0.0, atol=1e-12 * np.max(np.abs(res.K)))
    np.testing.assert_allclose(Fc, F, rtol=0.0, atol=1e-10 * np.max(np.abs(F)))
    # err is a difference of O(1) stages of size ~rtol: rounding of K shows in its 8th digit
    assert err == pytest.approx(res.err, rel=1e-6)
    x = np.linspace(0.0, 1.0, 5)
    zx = stepper.dense_eval(z, F, x)
    np.testing.assert_allclose(stepper.dense_eval(z, Fc, x), zx, rtol=0.0, atol=1e-12 * np.max(np.abs(zx)))


@pytest.mark.parametrize("name", ["RK23", "RK45"])
def test_low_order_steps_are_scipys(name):
    """The 3(2) and 5(4) steps and their interpolants in the nested basis equal scipy's RK23 / RK45 (the same state,
    error estimate and dense output)."""
    import scipy.integrate

    def fun(t: float, z: np.ndarray) -> np.ndarray:
        return np.array([z[1], -z[0] + 0.1 * np.sin(t)])

    low = {"RK23": stepper.RK23, "RK45": stepper.RK45}[name]
    z0, h = np.array([0.3, 1.0]), 0.4 if name == "RK45" else 0.05
    sol = getattr(scipy.integrate, name)(fun, 0.0, z0, 10.0, first_step=h, max_step=h, rtol=1e-3, atol=1e-6)
    sol.step()
    res = stepper.step_low(fun, 0.0, z0, fun(0.0, z0), h, 1e-3, np.full(2, 1e-6), low)
    assert sol.t == pytest.approx(h)
    np.testing.assert_allclose(res.z_new, sol.y, rtol=1e-15, atol=1e-16)
    x = np.linspace(0.0, 1.0, 7)
    np.testing.assert_allclose(stepper.dense_eval(z0, stepper.dense_matrix_low(res, h, low), x),
                               sol.dense_output()(h * x).T, rtol=1e-14, atol=1e-15)


def test_engine_bookkeeping_kernels_match_numpy():
    n, h, d = 8, 6, 3
    X = RNG.normal(size=(n, d))
    V = RNG.normal(size=(h, d))
    P = X @ V.T
    P[2, 3] = 1e-14  # within the surface band
    side = np.where(RNG.random((n, h)) < 0.5, 1, -1)
    side[0, 0] = 0
    side[1, 1] = -np.sign(P[1, 1])  # on the wrong side
    dead = np.zeros(h, dtype=bool)
    dead[5] = True
    xnorm, vnorm = row_norms(X), row_norms(V)
    near, anycol = engine_jit.near_surface(P, xnorm, vnorm, side, dead, SURFACE_TOL)
    ref = (np.abs(P) <= SURFACE_TOL * xnorm[:, None] * vnorm[None, :]) | ((side * P <= 0.0) & (side != 0))
    ref &= ~dead[None, :]
    np.testing.assert_array_equal(near, ref)
    np.testing.assert_array_equal(anycol, ref.any(axis=0))
    assert near[2, 3] and near[1, 1]

    armed = RNG.random((n, h)) < 0.3
    expect = armed.copy()
    off = ~armed
    P_true = X @ V.T  # rearm recomputes <x_i, v_j> from X and V (not the doctored P[2, 3])
    expect[off] = (side[off] != 0) & (side[off] * P_true[off] > (SURFACE_TOL * xnorm[:, None] * vnorm[None, :])[off])
    engine_jit.rearm(armed, side, X, V, xnorm, SURFACE_TOL)
    np.testing.assert_array_equal(armed, expect)

    z, F = RNG.normal(size=11), RNG.normal(size=(7, 11))
    for x in (0.0, 0.37, 1.0):
        np.testing.assert_allclose(engine_jit.dense_point(z, F, x), stepper.dense_eval(z, F, x), rtol=1e-15, atol=1e-15)

    form = CartesianForm(NetworkField(X, np.ones(n), "exp"), h, d)
    zc = RNG.normal(size=form.size)
    W, v = form.unpack(zc)
    size = np.sqrt(np.sum(W * W, axis=1) + v * v)
    np.testing.assert_allclose(form.component_scale(zc), np.concatenate([np.repeat(size, d), size]), rtol=1e-15)


@pytest.mark.parametrize("alpha", [0.0, 0.2, 1.0])
def test_resolve_pair_is_resolve_neuron_for_one_row(alpha):
    n, h = 7, 5
    X = RNG.normal(size=(n, 3))
    K = X @ X.T
    kinds = set()
    for trial in range(3000):
        S = np.where(RNG.random((n, h)) < 0.5, 1.0, alpha)
        g = RNG.normal(size=n) * (RNG.random(n) < 0.85)
        gain = RNG.normal(size=h)
        i, j, arrival = int(RNG.integers(n)), int(RNG.integers(h)), int(RNG.integers(-1, 2))
        state, slopes, rep, _ = switching.resolve_neuron(S, g, K, gain, j, np.array([i]), alpha, np.array([arrival]))
        st, slope, r = switching.resolve_pair(S, g, K, gain, i, j, alpha, arrival)
        assert (st, bool(r)) == (int(state[0]), bool(rep[0]))
        assert slope == pytest.approx(float(slopes[0]), rel=1e-12, abs=1e-15)
        kinds.add(st)
    assert kinds == {switching.ACTIVE, switching.INACTIVE, switching.SLIDING} or alpha == 1.0


def _scan_reference(z, F, form, side, armed, dead):
    """crossings.first_crossing on all n h pairs (the numpy reference)."""
    c = form.preact(crossings.CHEB @ np.vstack([z[None, :], F]))
    V = form.neuron_block(z[None, :])[0]
    tau = SURFACE_TOL * form.field.norms[:, None] * row_norms(V)[None, :]
    watch = (side != 0) & ~dead[None, :]
    return crossings.first_crossing(c, form.preact(z), side, np.where(armed, 0.0, tau), watch, np.where(armed, tau, 0.0))


def test_scan_step_matches_first_crossing_on_random_steps():
    """Random cubic paths w_j(x) through the data's hyperplanes: the compiled scan finds the
    same first switching pair and point as the numpy reference (or defers to it: "hard")."""
    n, h, d = 10, 8, 3
    field = NetworkField(RNG.normal(size=(n, d)), np.ones(n), "exp")
    form = CartesianForm(field, h, d)
    found = skipped = 0
    for trial in range(300):
        z = form.pack(RNG.normal(size=(h, d)), RNG.normal(size=h))
        F = np.zeros((7, form.size))
        F[:3, : h * d] = RNG.normal(size=(3, h * d)) * (RNG.choice([0.02, 0.2, 0.6]) * np.array([1.0, 0.1, 0.01]))[:, None]
        P = form.preact(z)
        side = np.where(P > 0.0, 1, -1)
        armed = np.ones((n, h), dtype=bool)
        dead = RNG.random(h) < 0.1
        ref = _scan_reference(z, F, form, side, armed, dead)
        xq, qi, qj, start, hard = scan.scan_step(z, F, 0, h, field.X @ form.weights(z).T, field.X, field.norms, side, armed, dead, SURFACE_TOL, crossings.CHEB, scan.DER)
        if start.size or hard.size:
            skipped += 1  # decided by the numpy path in the engine
            continue
        if np.isfinite(ref.x):
            found += 1
            assert np.isfinite(xq) and abs(xq - ref.x) <= 1e-12 and (int(qi), int(qj)) in ref.pairs
        else:
            assert not np.isfinite(xq)
    assert found > 100 and skipped < 100


def test_event_dense_phase_uses_compiled_low_order_steps_and_stays_accurate():
    """Many crossings in a short time: the engine takes cheap 3(2) and 5(4) steps there, and the
    result matches a run at a 100x tighter tolerance."""
    from verify.data.generators import orthogonally_separable
    from verify.model.init import balanced_init

    ds = orthogonally_separable(10, 10, 6, 0.3, seed=1, norm_range=(0.5, 2.0))
    init = balanced_init(30, 6, log_eps=0.0, seed=1)
    field = NetworkField.from_dataset(ds, "exp")
    times = np.linspace(0.0, 6.0, 7)
    a = solve_cartesian(field, 1e-4 * init.W0, 1e-4 * init.v0, times, rtol=1e-10)
    b = solve_cartesian(field, 1e-4 * init.W0, 1e-4 * init.v0, times, rtol=1e-12)
    assert a.stats["steps_rk23"] + a.stats["steps_rk45"] > 0.5 * len(a.crossings()) > 10
    assert [(e.i, e.j, e.kind) for e in a.events] == [(e.i, e.j, e.kind) for e in b.events]
    scale = np.max(np.abs(b.W), axis=(1, 2))
    assert np.max(np.abs(a.W - b.W).max(axis=(1, 2)) / scale) < 1e-8


def test_project_off_matches_numpy():
    """engine_jit.project_off (the one projection onto a single row's surface, both engine paths) against numpy."""
    for _ in range(5):
        v, x = RNG.normal(size=4), RNG.normal(size=4)
        want = v - (x @ v) / (x @ x) * x
        got = v.copy()
        engine_jit.project_off(got, x)
        np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-15)
        assert abs(x @ got) <= 1e-14 * np.linalg.norm(x) * np.linalg.norm(v)


def test_row_norms_match_numpy():
    """engine_jit.row_norms and block_norm (loops, no BLAS call) against numpy's norms, to rounding; zero rows are 0."""
    V = RNG.normal(size=(7, 5)) * np.logspace(-150, 150, 7)[:, None]
    V[3] = 0.0
    want = np.linalg.norm(V, axis=1)
    np.testing.assert_allclose(engine_jit.row_norms(V), want, rtol=4e-16 * 5, atol=0.0)
    z = V.ravel()
    got = [engine_jit.block_norm(z, j * 5, 5) for j in range(7)]
    np.testing.assert_allclose(got, want, rtol=4e-16 * 5, atol=0.0)
    assert engine_jit.row_norms(V)[3] == 0.0


def test_the_uncounted_kernels_run_without_numbas_runtime():
    """field_jit.UNCOUNTED (numba's ``_nrt=False``) takes numba's runtime away: code that allocates fails to compile
    under it (the same code compiles with the runtime), so a kernel compiled so keeps no reference counts. The hot
    kernels are compiled so (the compiled loop's iteration and its settling included); the callees that need the
    runtime -- the BLAS products (np.dot), the loop's sliding screen -- say COUNTED."""
    def allocates(n: int) -> float:
        return float(np.empty(n).sum() * 0.0)

    assert numba.njit(allocates)(3) == 0.0
    with pytest.raises(numba.core.errors.NumbaError):
        numba.njit(**field_jit.UNCOUNTED)(allocates)(3)
    for kernel in (field_jit.form_rhs, rk_jit.low_step_into, rk_jit.dop853_step_into, rk_jit.dop853_dense_into,
                   scan.scan_step_into, loop_jit._iterate, settle_jit.settle_simple_into):
        assert kernel.targetoptions["_nrt"] is False, kernel
    for kernel in (field_jit.form_rhs_blas, field_jit.preact_blas, loop_jit._slides_out):
        assert kernel.targetoptions["_nrt"] is True, kernel


def test_one_row_slopes_solve_the_one_row_sliding_system():
    """switching.one_row_slopes against its oracle, switching.sliding_slopes (the linear system) with one row; where
    g_i K_ii = 0 the pair keeps its slope."""
    field, S = _problem(9, 5, 3, "exp", alpha=0.2)
    K = field.X @ field.X.T
    g = RNG.normal(size=9)
    ii, jj = np.array([0, 3, 7], dtype=np.int64), np.array([1, 2, 4], dtype=np.int64)
    c = switching.one_row_slopes(S, g, K, ii, jj)
    for p in range(3):
        np.testing.assert_allclose(c[p], switching.sliding_slopes(S, g, K, int(jj[p]), ii[p : p + 1])[0], rtol=1e-12)
    g[3] = 0.0
    assert switching.one_row_slopes(S, g, K, ii, jj)[1] == S[3, 2]


@pytest.mark.parametrize("polar", [False, True])
@pytest.mark.parametrize("alpha", [0.0, 0.3])
def test_compiled_steps_with_sliding_pairs_match_the_engines_python_rhs(polar, alpha):
    """With sliding pairs (one per neuron) the compiled 5(4) and DOP853 steps recompute the Filippov slopes at every
    stage (filippov_jit.filippov_S) as the engine's Python rhs does (Engine.effective_S): the same steps to rounding."""
    from verify.dynamics.engine import Engine

    field, S = _problem(10, 5, 3, "logistic", alpha=alpha)
    form, z = _form_and_state(field, 5, 3, polar, 0.5)
    eng = Engine(form, z, False, 1e-9, np.full(z.size, 1e-12), None)
    S[2, 1], S[6, 4] = 0.5, 0.6  # the sliding pairs' slopes before the step
    eng.mode.S[:] = S
    eng.mode.sliding = {1: np.array([2]), 4: np.array([6])}
    assert eng.compiled_steps()
    slide = eng.slide_args()
    S_mid = filippov_jit.filippov_S(z, S, slide, *form.compiled_args()[:7], polar)
    np.testing.assert_allclose(S_mid, eng.effective_S(z), rtol=1e-12, atol=1e-14)
    ii, jj, c = eng.raw_slopes(z)
    np.testing.assert_allclose(S_mid[ii, jj], np.clip(c, alpha, 1.0), rtol=1e-12, atol=1e-14)
    assert S_mid[2, 1] != 0.5 and S_mid[6, 4] != 0.6

    def fun(s: float, zz: np.ndarray) -> np.ndarray:
        return form.rhs(zz, eng.effective_S(zz))

    s0, h = 0.0, 0.05
    f = fun(s0, z)
    atol = np.full(z.size, 1e-12)
    args = (S, *form.compiled_args(), False, slide)
    res = stepper.step_low(fun, s0, z, f, h, 1e-9, atol)
    z_new, f_new, err, _F = rk_jit.low_step(s0, z, f, h, np.full(z.size, 1e-9), atol, *args, *rk_jit.TABLEAUS[1])
    np.testing.assert_allclose(z_new, res.z_new, rtol=0.0, atol=1e-13 * np.max(np.abs(res.z_new)))
    np.testing.assert_allclose(f_new, res.f_new, rtol=0.0, atol=1e-12 * np.max(np.abs(res.f_new)))
    assert err == pytest.approx(res.err, rel=1e-6)
    res = stepper.step(fun, s0, z, f, h, 1e-9, atol)
    z_new, f_new, err, K = rk_jit.dop853_step(s0, z, f, h, np.full(z.size, 1e-9), atol, *args, *rk_jit.TABLEAU_853)
    np.testing.assert_allclose(z_new, res.z_new, rtol=0.0, atol=1e-12 * np.max(np.abs(res.z_new)))
    Fc = rk_jit.dop853_dense(s0, z, f, z_new, f_new, K, h, *args, *rk_jit.DENSE_853)
    F = stepper.dense_matrix(fun, s0, z, f, res, h)
    np.testing.assert_allclose(Fc, F, rtol=0.0, atol=1e-10 * np.max(np.abs(F)))
    # the exit search's slopes at the step's nodes (filippov_jit.node_slopes) against raw_slopes on the dense output
    compiled = eng.node_slopes(z, Fc)
    nodes = stepper.dense_eval(z, Fc, detect.NODES)
    assert len(compiled) == len(nodes) == 9
    for (ci, cj, cc), zk in zip(compiled, nodes):
        pi, pj, pc = eng.raw_slopes(zk)
        assert np.array_equal(ci, pi) and np.array_equal(cj, pj)
        np.testing.assert_allclose(cc, pc, rtol=1e-11, atol=1e-13)
