"""verify.simulate: input validation, time grids, form selection and backend agreement."""

from __future__ import annotations

import math

import numpy as np
import pytest

import verify
from verify import Dataset, InputError, simulate
from verify.simulate import _choose_form, _time_grid, is_balanced, row_log_norms
from verify.trajectory import Trajectory

X = np.array(
    [
        [1.0, 0.2, 0.1],
        [1.0, -0.1, 0.3],
        [0.8, 0.2, -0.2],
        [-1.0, 0.1, 0.2],
        [-0.9, -0.3, 0.1],
    ]
)
Y = np.array([1.0, 1.0, 1.0, -1.0, -1.0])
DS = Dataset(X, Y)


def base_init(h: int = 6, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """Eps-free balanced base (W0, v0) with alternating signs."""
    rng = np.random.default_rng(seed)
    W0 = rng.standard_normal((h, 3)) / math.sqrt(3)
    s = np.where(np.arange(h) % 2 == 0, 1.0, -1.0)
    return W0, s * np.linalg.norm(W0, axis=1)


W0, V0 = base_init()


def scaled(eps: float) -> tuple[np.ndarray, np.ndarray]:
    return eps * W0, eps * V0


def rel_err(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


# validation ---------------------------------------------------------------------------------

W_OK, V_OK = scaled(1e-3)
BAD_CALLS = [
    ("not a dataset", dict(dataset=[[1.0, 0.0]]), "dataset must be"),
    ("bad tuple dataset", dict(dataset=(np.zeros((2, 3)), [1, -1])), "zero vector"),
    ("W0 1-D", dict(W0=np.ones(3)), "2-D"),
    ("W0 wrong d", dict(W0=np.ones((6, 2))), "dimension d = 3"),
    ("W0 no rows", dict(W0=np.ones((0, 3)), v0=np.ones(0)), "no rows"),
    ("v0 wrong shape", dict(v0=np.ones(5)), "v0 must have shape"),
    ("v0 2-D", dict(v0=np.ones((6, 1))), "v0 must have shape"),
    ("W0 nan", dict(W0=np.where(np.eye(6, 3) > 0, np.nan, W_OK)), "non-finite"),
    ("v0 inf", dict(v0=np.r_[np.inf, V_OK[1:]]), "non-finite"),
    ("W0 strings", dict(W0=np.array([["a", "b", "c"]] * 6)), "real numbers"),
    ("W0 complex", dict(W0=W_OK + 1j), "real numbers"),
    ("t_end zero", dict(t_end=0.0), "t_end"),
    ("t_end negative", dict(t_end=-1.0), "t_end"),
    ("t_end nan", dict(t_end=float("nan")), "t_end"),
    ("t_end inf", dict(t_end=float("inf")), "t_end"),
    ("t_end text", dict(t_end="soon"), "t_end"),
    ("times decreasing", dict(times=[0.5, 0.2]), "strictly increasing"),
    ("times repeated", dict(times=[0.5, 0.5]), "strictly increasing"),
    ("times negative", dict(times=[-0.1, 0.5]), ">= 0"),
    ("times beyond t_end", dict(times=[0.5, 2.0]), "exceed t_end"),
    ("times nan", dict(times=[0.5, float("nan")]), "non-finite"),
    ("times 2-D", dict(times=[[0.5, 0.7]]), "1-D"),
    ("unknown loss", dict(loss="hinge"), "unknown loss"),
    ("unknown backend", dict(backend="rk4"), "unknown backend"),
    ("mp backend dps", dict(backend="mp", dps=3), "dps"),
    ("mp backend lr", dict(backend="mp", lr=0.1), "lr"),
    ("unknown form", dict(form="spherical"), "unknown form"),
    ("rtol zero", dict(rtol=0.0), "rtol"),
    ("rtol one", dict(rtol=1.0), "rtol"),
    ("rtol nan", dict(rtol=float("nan")), "rtol"),
    ("alpha negative", dict(alpha=-0.1), "alpha"),
    ("alpha above one", dict(alpha=1.5), "alpha"),
    ("gd without lr", dict(backend="gd"), "needs a step size"),
    ("gd lr zero", dict(backend="gd", lr=0.0), "lr must be"),
    ("gd lr negative", dict(backend="gd", lr=-1e-3), "lr must be"),
    ("gd lr nan", dict(backend="gd", lr=float("nan")), "lr must be"),
    ("gd batch too big", dict(backend="gd", lr=1e-3, batch_size=99), "batch_size"),
    ("lr for events", dict(lr=1e-3), "lr applies to backend 'gd' only"),
    ("batch_size for events", dict(batch_size=2), "batch_size applies"),
    ("dps for events", dict(dps=30), "dps applies"),
    ("tol_digits for events", dict(tol_digits=13), "tol_digits applies to backend 'mp' only"),
    ("mp tol_digits beyond its precision", dict(backend="mp", dps=16, tol_digits=19), "tol_digits must be"),
    ("mp tol_digits too loose", dict(backend="mp", tol_digits=5), "tol_digits must be"),
    ("log_eps nan", dict(log_eps=float("nan")), "log_eps"),
    ("log_eps unbalanced", dict(W0=W0, v0=2.0 * V0, log_eps=-10.0), "balanced"),
    ("polar unbalanced", dict(v0=2.0 * V_OK, form="polar"), "balanced"),
    ("polar zero row", dict(W0=np.r_[np.zeros((1, 3)), W_OK[1:]], v0=np.r_[0.0, V_OK[1:]], form="polar"), "row 0 is zero"),
    ("polar frozen v", dict(form="polar", train_v=False), "train_v"),
    ("limit unbalanced", dict(v0=2.0 * V_OK, backend="limit"), "balanced"),
    ("limit cartesian", dict(backend="limit", form="cartesian"), "does not apply"),
    ("gd polar", dict(backend="gd", lr=1e-3, form="polar"), "does not apply"),
    ("cartesian tiny eps", dict(W0=W0, v0=V0, log_eps=-2302.6, form="cartesian"), "too small"),
    ("gd tiny eps", dict(W0=W0, v0=V0, log_eps=-2302.6, backend="gd", lr=1e-3), "too small"),
    ("seed not int", dict(seed=1.5), "seed"),
]


@pytest.mark.parametrize("label, override, fragment", BAD_CALLS, ids=[c[0] for c in BAD_CALLS])
def test_bad_input_raises_input_error(label: str, override: dict, fragment: str) -> None:
    kwargs = dict(dataset=DS, W0=W_OK, v0=V_OK, t_end=1.0)
    kwargs.update(override)
    with pytest.raises(InputError, match=fragment):
        simulate(kwargs.pop("dataset"), kwargs.pop("W0"), kwargs.pop("v0"), kwargs.pop("t_end"), **kwargs)


def test_simulate_is_exported() -> None:
    assert verify.simulate is simulate
    assert "simulate" in verify.__all__


# helpers that need no backend ---------------------------------------------------------------


def test_time_grid_rules() -> None:
    np.testing.assert_array_equal(_time_grid(None, 2.0), [2.0])
    np.testing.assert_array_equal(_time_grid([], 2.0), [2.0])
    np.testing.assert_array_equal(_time_grid([0.0, 1.0], 2.0), [0.0, 1.0, 2.0])
    np.testing.assert_array_equal(_time_grid([0.5, 2.0], 2.0), [0.5, 2.0])
    np.testing.assert_array_equal(_time_grid(1.0, 2.0), [1.0, 2.0])


def test_log_norms_and_balance_survive_underflow() -> None:
    W, v = scaled(1e-200)
    np.testing.assert_allclose(row_log_norms(W), np.log(np.linalg.norm(W0, axis=1)) + math.log(1e-200), rtol=1e-14)
    assert is_balanced(W, v)
    assert not is_balanced(W, 1.001 * v)
    assert is_balanced(np.zeros((1, 3)), np.zeros(1))
    assert not is_balanced(np.zeros((1, 3)), np.ones(1))


@pytest.mark.parametrize(
    "backend, form, eps, log_eps, expected",
    [
        ("events", None, 1e-6, None, "cartesian"),
        ("events", None, 1e-200, None, "polar"),
        ("events", None, None, -20.0, "polar"),
        ("events", "cartesian", None, -20.0, "cartesian"),
        ("events", "polar", 1e-3, None, "polar"),
        ("gd", None, 1e-6, None, "cartesian"),
        ("limit", None, 1e-6, None, "polar"),
    ],
)
def test_form_selection(backend: str, form: str | None, eps: float | None, log_eps: float | None, expected: str) -> None:
    W, v = (W0, V0) if eps is None else scaled(eps)
    assert _choose_form(backend, form, W, v, log_eps, True) == expected


def test_unbalanced_tiny_init_stays_cartesian() -> None:
    W, v = scaled(1e-200)
    assert _choose_form("events", None, W, 1.5 * v, None, True) == "cartesian"
    assert _choose_form("events", None, W, v, None, False) == "cartesian"


# runs (need the backends) -------------------------------------------------------------------


def test_times_none_gives_t_end_only() -> None:
    traj = simulate(DS, *scaled(1e-3), 1.0)
    assert isinstance(traj, Trajectory)
    np.testing.assert_array_equal(traj.times, [1.0])
    assert traj.W.shape == (1, 6, 3) and traj.v.shape == (1, 6)


def test_times_appends_t_end_and_starts_at_initial_state() -> None:
    W, v = scaled(1e-3)
    traj = simulate(DS, W, v, 2.0, times=[0.0, 0.5, 1.0])
    np.testing.assert_array_equal(traj.times, [0.0, 0.5, 1.0, 2.0])
    np.testing.assert_allclose(traj.W[0], W, rtol=1e-12)
    np.testing.assert_allclose(traj.v[0], v, rtol=1e-12)
    assert traj.t_end == 2.0


def test_params_are_recorded() -> None:
    traj = simulate(DS, *scaled(1e-3), 1.0, loss="logistic", alpha=0.1, rtol=1e-9)
    p = traj.params
    assert (p["loss"], p["alpha"], p["backend"], p["form"], p["rtol"]) == ("logistic", 0.1, "events", "cartesian", 1e-9)
    assert p["lr"] is None and p["log_eps"] is None and p["t_end"] == 1.0 and p["seed"] == 0
    assert traj.stats["wall_time_s"] >= 0.0


def test_tuple_dataset_is_accepted() -> None:
    traj = simulate((X, Y), *scaled(1e-3), 0.5)
    assert traj.t_end == 0.5


def test_auto_polar_for_log_eps_and_for_eps_1e_200() -> None:
    a = simulate(DS, W0, V0, 2.0, log_eps=math.log(1e-200))
    b = simulate(DS, *scaled(1e-200), 2.0)
    assert a.params["form"] == b.params["form"] == "polar"
    assert a.polar and b.polar and a.log_eps == pytest.approx(math.log(1e-200))
    np.testing.assert_allclose(a.r, b.r, rtol=1e-9)
    np.testing.assert_allclose(a.U, b.U, atol=1e-9)


def test_polar_at_eps_1e_minus_1000_is_finite() -> None:
    traj = simulate(DS, W0, V0, 5.0, log_eps=-2302.6, times=[1.0, 2.5])
    assert traj.params["form"] == "polar" and traj.params["log_eps"] == -2302.6
    assert np.all(np.isfinite(traj.r)) and np.all(np.isfinite(traj.U))
    assert np.all(traj.r < -2000.0)
    np.testing.assert_allclose(np.linalg.norm(traj.U, axis=-1), 1.0, atol=1e-9)


def test_cartesian_and_polar_agree_at_eps_1e_minus_6() -> None:
    W, v = scaled(1e-6)
    times = [2.0, 5.0, 12.0]
    cart = simulate(DS, W, v, 12.0, times=times, form="cartesian")
    pol = simulate(DS, W, v, 12.0, times=times, form="polar")
    assert cart.params["form"] == "cartesian" and pol.params["form"] == "polar"
    for k in range(3):
        assert rel_err(pol.W[k], cart.W[k]) < 1e-7
        assert rel_err(pol.v[k], cart.v[k]) < 1e-7


def test_three_backends_agree_roughly() -> None:
    W, v = scaled(1e-6)  # by t = 3 the largest w_j has grown to ~e^-5: f is still small
    ev = simulate(DS, W, v, 3.0, form="polar")
    gd = simulate(DS, W, v, 3.0, backend="gd", lr=1e-3)
    lim = simulate(DS, W, v, 3.0, backend="limit")
    assert gd.params["form"] == "cartesian" and lim.params["form"] == "polar"
    assert rel_err(gd.W[-1], ev.W[-1]) < 2e-2
    assert rel_err(lim.U[-1], ev.U[-1]) < 1e-5
    assert np.max(np.abs(lim.r[-1] - ev.r[-1])) < 1e-4
    assert len(lim.crossings()) == len(ev.crossings())


def test_limit_matches_events_in_the_eps_to_zero_regime() -> None:
    ev = simulate(DS, W0, V0, 3.0, log_eps=-300.0, times=[1.0, 2.0])
    lim = simulate(DS, W0, V0, 3.0, log_eps=-300.0, times=[1.0, 2.0], backend="limit")
    np.testing.assert_allclose(lim.U, ev.U, atol=1e-7)
    np.testing.assert_allclose(lim.r, ev.r, atol=1e-7)


def test_save_load_roundtrip(tmp_path) -> None:
    traj = simulate(DS, W0, V0, 3.0, log_eps=-20.0, times=[0.5, 1.0])
    path = tmp_path / "run.npz"
    traj.save(path)
    back = Trajectory.load(path)
    np.testing.assert_array_equal(back.times, traj.times)
    np.testing.assert_array_equal(back.W, traj.W)
    np.testing.assert_array_equal(back.v, traj.v)
    np.testing.assert_array_equal(back.r, traj.r)
    np.testing.assert_array_equal(back.U, traj.U)
    assert back.log_eps == pytest.approx(-20.0)
    assert [(e.t, e.i, e.j, e.kind) for e in back.events] == [(e.t, e.i, e.j, e.kind) for e in traj.events]


def test_progress_true_runs(capsys) -> None:
    traj = simulate(DS, *scaled(1e-3), 1.0, progress=True)
    assert traj.t_end == 1.0
    assert capsys.readouterr().out == ""


def test_progress_callable_sees_time_advance() -> None:
    seen: list[float] = []
    simulate(DS, *scaled(1e-3), 2.0, progress=seen.append)
    assert seen and all(0.0 <= t <= 2.0 for t in seen)
    assert seen == sorted(seen)


def test_progress_callable_can_abort() -> None:
    class Stop(Exception):
        pass

    def stop(t: float) -> None:
        raise Stop

    with pytest.raises(Stop):
        simulate(DS, *scaled(1e-3), 2.0, progress=stop)
    with pytest.raises(Stop):
        simulate(DS, *scaled(1e-3), 2.0, backend="gd", lr=1e-3, progress=stop)


def test_mp_backend_through_the_api_matches_events() -> None:
    from properties.min2024_early_alignment.datasets import toy4
    from verify.model.init import balanced_init

    init = balanced_init(4, 2, eps=1e-3, seed=2)
    ds = toy4()
    ref = simulate(ds, init.W, init.v, 4.0, backend="mp", dps=30, times=[1.0, 4.0])
    got = simulate(ds, init.W, init.v, 4.0, times=[1.0, 4.0], rtol=1e-12)
    assert ref.backend == "mp" and ref.params["dps"] == 30
    np.testing.assert_allclose(np.asarray(ref.W, dtype=float), got.W, rtol=0, atol=1e-9 * np.abs(got.W).max())
    def key(events):  # simultaneous events (toy4 has x_1 = -x_4) may be logged in either order
        return sorted((round(float(e.t), 9), e.i, e.j, e.kind) for e in events)

    assert key(ref.events) == key(got.events)


# scales float64 cannot integrate (issue #11 item 2): refused, routed to the polar form, or a
# NumericalError -- never a loop, never NaN / inf reported as a result ---------------------------

TOY4 = verify.load_dataset("gen:toy4")
W_TOY = np.array([[1.0, 0.2], [-0.2, 1.0]])
V_WRONG = np.linalg.norm(W_TOY, axis=1) * np.array([-1.0, 1.0])  # each neuron opposes its points' labels


def assert_finite_result(traj: Trajectory) -> None:
    """A result holds finite arrays only, a finite drift and strictly increasing times."""
    assert np.all(np.isfinite(traj.W)) and np.all(np.isfinite(traj.v))
    assert math.isfinite(traj.balancedness_drift)
    assert np.all(np.diff(traj.times) > 0.0)


@pytest.mark.parametrize("scale", [1e150, 1e200, 1e300])
def test_huge_inits_are_refused(scale: float) -> None:
    with pytest.raises(InputError, match="beyond what float64 can integrate"):
        simulate(DS, *scaled(scale), 1.0)
    with pytest.raises(InputError, match="beyond what float64 can integrate"):
        simulate(DS, *scaled(scale), 1.0, backend="gd", lr=1e-2)


@pytest.mark.parametrize("scale", [1e-200, 1e-310])
def test_tiny_balanced_inits_run_in_polar_form(scale: float) -> None:
    W, v = scaled(scale)
    traj = simulate(DS, W, v, 2.0, times=[1.0])
    assert traj.params["form"] == "polar"
    assert_finite_result(traj)
    assert np.all(np.isfinite(traj.r)) and np.all(traj.r < -400.0)


@pytest.mark.parametrize("backend, extra", [("events", {}), ("gd", {"lr": 1e-2})])
@pytest.mark.parametrize("scale, factor", [(1e-310, 1.5), (1e-320, 1.0)])
def test_tiny_unbalanced_inits_are_refused_below_the_cartesian_range(backend: str, extra: dict, scale: float, factor: float) -> None:
    """A Cartesian state below 1e-300 has no error control (subnormal weights keep few bits: 1e-320
    times a balanced base keeps about 11, so it is no longer balanced and cannot go polar either)."""
    W, v = scaled(scale)
    with pytest.raises(InputError, match="too small for the Cartesian float64 form"):
        simulate(DS, W, factor * v, 1.0, backend=backend, **extra)
    assert_finite_result(simulate(DS, *scaled(1e-200), 1.0, form="cartesian", backend=backend, **extra))


def test_a_zero_row_with_a_tiny_output_weight_is_refused_in_cartesian_form() -> None:
    """The Cartesian scale check's quick pass (every ||w_j|| far above 1e-300) does not cover a zero row w_j: that
    neuron's size is |v_j|, and 1e-310 is refused."""
    W, v = scaled(1.0)
    W, v = W.copy(), v.copy()
    W[0], v[0] = 0.0, 1e-310
    with pytest.raises(InputError, match="too small for the Cartesian float64 form"):
        simulate(DS, W, v, 1.0, form="cartesian")


@pytest.mark.parametrize("log_eps", [1.0, 3.0, 5.0, 8.0])
@pytest.mark.parametrize("backend, form, extra", [("events", "polar", {}), ("events", "cartesian", {}), ("gd", None, {"lr": 1e-2})])
def test_eps_above_one_gives_a_finite_result_or_a_numerical_error(log_eps, backend, form, extra) -> None:
    """eps = e^L > 1 is a valid flow outside every theorem: float64 follows it or the run ends with
    NumericalError at once (here the loss grows like exp(eps^2)), without a warning."""
    import time
    import warnings

    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            traj = simulate(TOY4, W_TOY, V_WRONG, 2.0, times=[0.5, 1.0], log_eps=log_eps, form=form, backend=backend, **extra)
        except verify.NumericalError as exc:
            assert str(exc)
        else:
            assert_finite_result(traj)
    assert time.perf_counter() - start < 20.0


def test_mp_backend_ends_a_flow_too_fast_for_its_steps_with_a_numerical_error() -> None:
    """At eps = e^5 the mp field is ~10^8686: its steps (~1e-8883) could never reach t_end."""
    import time

    start = time.perf_counter()
    with pytest.raises(verify.NumericalError, match="step size"):
        simulate(TOY4, W_TOY, V_WRONG, 1.0, log_eps=5.0, backend="mp", dps=20)
    assert time.perf_counter() - start < 20.0


def test_limit_backend_result_is_its_exact_log_norms_on_long_horizons() -> None:
    """The eps -> 0 dynamics grows ln||w|| linearly: past r = 709.78 its W = exp(r) U overflows, and
    the result is (r, U), finite and exact; ``nonfinite_state`` names the overflow (the CLI refuses it)."""
    from verify.simulate import nonfinite_state

    short = simulate(DS, *scaled(1e-3), 10.0, backend="limit")
    assert_finite_result(short)
    assert nonfinite_state(short) is None
    long = simulate(DS, *scaled(1e-3), 1e3, backend="limit")
    assert np.all(np.isfinite(long.r)) and np.all(np.isfinite(long.U)) and np.max(long.r) > 709.78
    assert "beyond float64's range" in nonfinite_state(long)


def test_an_init_whose_eps_overflows_float64_refuses_its_scaled_weights() -> None:
    from verify.model.init import balanced_init

    init = balanced_init(3, 2, log_eps=1000.0)
    assert init.eps == math.inf and not init.representable
    with pytest.raises(InputError, match="overflows float64"):
        init.W
    assert np.all(np.isfinite(balanced_init(3, 2, log_eps=5.0).W))


@pytest.mark.parametrize("backend", ["events", "limit", "gd", "mp"])
def test_every_backend_checks_its_times_with_the_same_message(backend) -> None:
    """One time-grid check (verify.dynamics.times) behind every backend's entry point: the first entry out of order
    is named, whatever the backend."""
    from verify.dynamics.times import check_order, sample_times

    with pytest.raises(verify.InputError, match=r"strictly increasing \(entry 2 = 0.2 after 0.5\)"):
        sample_times([0.1, 0.5, 0.2])
    with pytest.raises(verify.InputError, match=r"times must be >= 0"):
        check_order([-1.0, 2.0])
    with pytest.raises(verify.InputError, match="non-empty"):
        sample_times([])
    with pytest.raises(verify.InputError, match="finite"):
        sample_times([0.1, float("nan")])
    ds = verify.Dataset(np.array([[1.0, 0.2], [-0.9, 0.1]]), np.array([1.0, -1.0]))
    W0, v0 = 1e-3 * np.array([[1.0, 0.0], [0.0, 1.0]]), 1e-3 * np.array([1.0, -1.0])
    with pytest.raises(verify.InputError, match=r"strictly increasing \(entry 2 = 0.2 after 0.5\)"):
        verify.simulate(ds, W0, v0, 1.0, backend=backend, times=[0.1, 0.5, 0.2])
