"""``verify simulate``: a good run writes the trajectory; every bad input exits 2 with one line."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from verify.cli.simulate_cmd import parse_times
from verify.errors import InputError
from verify.trajectory import Trajectory

ROOT = Path(__file__).resolve().parents[1]
# verify/cli/__init__.py imports verify.cli.main, so ``python -m verify.cli.main`` makes runpy
# warn on stderr; that known warning (and only it) is silenced here.
CMD = [sys.executable, "-W", "ignore::RuntimeWarning:runpy", "-m", "verify.cli.main"]
X = np.array([[1.0, 0.2, 0.1], [1.0, -0.1, 0.3], [0.8, 0.2, -0.2], [-1.0, 0.1, 0.2], [-0.9, -0.3, 0.1]])
Y = np.array([1.0, 1.0, 1.0, -1.0, -1.0])


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        CMD + ["simulate", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("sim")
    rng = np.random.default_rng(3)
    W0 = rng.standard_normal((6, 3)) / math.sqrt(3)
    v0 = np.where(np.arange(6) % 2 == 0, 1.0, -1.0) * np.linalg.norm(W0, axis=1)
    paths = {
        "data": d / "data.npz",
        "init": d / "init.npz",
        "base": d / "base.npz",
        "init_d2": d / "init_d2.npz",
        "init_no_v": d / "init_no_v.npz",
        "corrupt": d / "corrupt.npz",
        "dir": d,
    }
    np.savez(paths["data"], X=X, y=Y)
    np.savez(paths["init"], W=1e-6 * W0, v=1e-6 * v0)
    np.savez(paths["base"], W=W0, v=v0)
    np.savez(paths["init_d2"], W=W0[:, :2], v=v0)
    np.savez(paths["init_no_v"], W=W0)
    paths["corrupt"].write_bytes(b"this is not a zip archive")
    return paths


def test_good_run_writes_trajectory(files) -> None:
    out = files["dir"] / "out.npz"
    res = cli(str(files["data"]), "--init", str(files["init"]), "--t-end", "3", "--times", "0.5,1", "--out", str(out))
    assert res.returncode == 0, res.stderr
    assert "events" in res.stdout and "balancedness drift" in res.stdout and "wall time" in res.stdout
    with np.load(out) as z:
        for key in ("t", "W", "v", "ev_t", "ev_i", "ev_j", "ev_kind", "ev_dir"):
            assert key in z.files
        np.testing.assert_array_equal(z["t"], [0.5, 1.0, 3.0])
        assert z["W"].shape == (3, 6, 3) and z["v"].shape == (3, 6)
    assert Trajectory.load(out).t_end == 3.0


def test_polar_run_with_log_eps_writes_r_and_u(files) -> None:
    out = files["dir"] / "polar.npz"
    res = cli(str(files["data"]), "--init", str(files["base"]), "--t-end", "2", "--log-eps", "-2302.6", "--out", str(out))
    assert res.returncode == 0, res.stderr
    with np.load(out) as z:
        assert "r" in z.files and "U" in z.files
        assert np.all(np.isfinite(z["r"])) and float(z["log_eps"]) == -2302.6


def test_gd_run(files) -> None:
    out = files["dir"] / "gd.npz"
    res = cli(str(files["data"]), "--init", str(files["init"]), "--t-end", "1", "--backend", "gd", "--lr", "1e-2", "--out", str(out))
    assert res.returncode == 0, res.stderr
    assert "backend gd" in res.stdout


def test_fixed_second_layer_sgd_run_keeps_v(files) -> None:
    out = files["dir"] / "sgd_fixed.npz"
    res = cli(str(files["data"]), "--init", str(files["init"]), "--t-end", "1", "--backend", "gd", "--lr", "1e-2",
              "--batch-size", "1", "--seed", "4", "--fixed-v", "--out", str(out))
    assert res.returncode == 0, res.stderr
    with np.load(files["init"]) as init, np.load(out) as traj:
        np.testing.assert_array_equal(traj["v"][-1], init["v"])
        assert not np.allclose(traj["W"][-1], init["W"])


BAD = {
    "missing data": lambda f: [str(f["dir"] / "nope.npz"), "--init", str(f["init"]), "--t-end", "1", "--out", str(f["dir"] / "o.npz")],
    "corrupt data": lambda f: [str(f["corrupt"]), "--init", str(f["init"]), "--t-end", "1", "--out", str(f["dir"] / "o.npz")],
    "missing init": lambda f: [str(f["data"]), "--init", str(f["dir"] / "none.npz"), "--t-end", "1", "--out", str(f["dir"] / "o.npz")],
    "corrupt init": lambda f: [str(f["data"]), "--init", str(f["corrupt"]), "--t-end", "1", "--out", str(f["dir"] / "o.npz")],
    "init without v": lambda f: [str(f["data"]), "--init", str(f["init_no_v"]), "--t-end", "1", "--out", str(f["dir"] / "o.npz")],
    "shape mismatch": lambda f: [str(f["data"]), "--init", str(f["init_d2"]), "--t-end", "1", "--out", str(f["dir"] / "o.npz")],
    "t_end zero": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "0", "--out", str(f["dir"] / "o.npz")],
    "t_end negative": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end=-1", "--out", str(f["dir"] / "o.npz")],
    "t_end text": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "soon", "--out", str(f["dir"] / "o.npz")],
    "unknown loss": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "1", "--loss", "hinge", "--out", str(f["dir"] / "o.npz")],
    "unknown backend": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "1", "--backend", "rk4", "--out", str(f["dir"] / "o.npz")],
    "backend mp with npz out": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "1", "--backend", "mp", "--dps", "30", "--out", str(f["dir"] / "o.npz")],
    "backend mp dps too small": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "1", "--backend", "mp", "--dps", "5", "--out", str(f["dir"] / "o.json")],
    "times not numbers": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "1", "--times", "0.1,abc", "--out", str(f["dir"] / "o.npz")],
    "times empty item": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "1", "--times", "0.1,,0.2", "--out", str(f["dir"] / "o.npz")],
    "times decreasing": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "1", "--times", "0.5,0.2", "--out", str(f["dir"] / "o.npz")],
    "times beyond t_end": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "1", "--times", "0.5,2", "--out", str(f["dir"] / "o.npz")],
    "out wrong suffix": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "1", "--out", str(f["dir"] / "o.txt")],
    "out missing dir": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "1", "--out", str(f["dir"] / "no" / "o.npz")],
    "gd without lr": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "1", "--backend", "gd", "--out", str(f["dir"] / "o.npz")],
    "lr for events": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "1", "--lr", "0.1", "--out", str(f["dir"] / "o.npz")],
    "bad form": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "1", "--form", "spherical", "--out", str(f["dir"] / "o.npz")],
    "missing --out": lambda f: [str(f["data"]), "--init", str(f["init"]), "--t-end", "1"],
    "tiny eps cartesian": lambda f: [str(f["data"]), "--init", str(f["base"]), "--t-end", "1", "--log-eps", "-2302.6", "--form", "cartesian", "--out", str(f["dir"] / "o.npz")],
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_exits_2_with_one_line(files, case: str) -> None:
    res = cli(*BAD[case](files))
    assert res.returncode == 2, (res.stdout, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("verify: error:")
    assert "Traceback" not in res.stderr and res.stdout == ""


def test_backend_mp_writes_decimal_strings(files) -> None:
    out = files["dir"] / "mp.json"
    res = cli(str(files["data"]), "--init", str(files["init"]), "--t-end", "0.5", "--backend", "mp", "--dps", "40", "--out", str(out))
    assert res.returncode == 0, res.stderr
    from verify.dynamics.mp import read_json

    traj = read_json(out)
    assert traj.backend == "mp" and traj.W.shape == (1, 6, 3)
    text = out.read_text()
    assert any(len(tok.strip('"-')) > 35 for tok in text.replace(",", " ").split() if tok.strip('"-').replace(".", "").isdigit())


def test_parse_times() -> None:
    assert parse_times(None) is None
    assert parse_times("0.5, 1,2e0") == [0.5, 1.0, 2.0]
    for bad in ("", "1,,2", "x", "1,inf"):
        with pytest.raises(InputError):
            parse_times(bad)


def test_help_lists_options() -> None:
    res = cli("--help")
    assert res.returncode == 0
    for option in ("--init", "--t-end", "--backend", "--loss", "--times", "--out", "--log-eps", "--progress"):
        assert option in res.stdout


# in-process runs (issue #11 item 2) -------------------------------------------------------------

W_TOY = np.array([[1.0, 0.2], [-0.2, 1.0]])
V_WRONG = np.linalg.norm(W_TOY, axis=1) * np.array([-1.0, 1.0])  # on gen:toy4 each neuron opposes its points' labels


def run_main(*argv: str) -> tuple[int, str, str]:
    """``verify ARGV`` in-process: (exit code, stdout, stderr); a warning fails the test."""
    import contextlib
    import io
    import warnings

    from verify.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        warnings.simplefilter("error")
        code = main(list(argv))
    assert "Traceback" not in err.getvalue()
    return code, out.getvalue(), err.getvalue()


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("verify: error:"), err
    return lines[0]


@pytest.fixture()
def toy_init(tmp_path) -> Path:
    path = tmp_path / "wrong.npz"
    np.savez(path, W=W_TOY, v=V_WRONG)
    return path


@pytest.mark.parametrize("words", [["--log-eps", "3"], ["--log-eps", "5", "--backend", "gd", "--lr", "0.01"],
                                   ["--log-eps", "5", "--backend", "mp", "--dps", "20"]])
def test_a_flow_float64_cannot_follow_exits_3_with_one_line(toy_init, tmp_path, words) -> None:
    """eps = e^3 .. e^5 against the labels: the loss grows like exp(eps^2); the run ends at once."""
    out = tmp_path / ("t.json" if "mp" in words else "t.npz")
    code, stdout, err = run_main("simulate", "gen:toy4", "--init", str(toy_init), "--t-end", "2", "--out", str(out), *words)
    assert code == 3 and stdout == "" and not out.exists()
    assert "numerical failure" in one_line(err)


@pytest.mark.parametrize("scale, code", [(1e150, 2), (1e200, 2), (1e300, 2), (1e-200, 0), (1e-310, 0), (1e-320, 2)])
def test_init_scales_are_run_in_range_or_refused(tmp_path, scale: float, code: int) -> None:
    np.savez(tmp_path / "init.npz", W=scale * W_TOY, v=scale * np.linalg.norm(W_TOY, axis=1) * np.array([1.0, -1.0]))
    out = tmp_path / "t.npz"
    got, stdout, err = run_main("simulate", "gen:toy4", "--init", str(tmp_path / "init.npz"), "--t-end", "2", "--out", str(out))
    assert got == code, err
    if code == 2:
        assert "float64" in one_line(err) and not out.exists()
        return
    assert "nan" not in stdout
    with np.load(out) as z:
        assert np.all(np.isfinite(z["W"])) and np.all(np.isfinite(z["v"])) and np.all(np.isfinite(z["r"]))


def test_gd_reports_the_true_times_and_refuses_lr_beyond_the_horizon(files, tmp_path) -> None:
    out = tmp_path / "gd.npz"
    base = [str(files["data"]), "--init", str(files["init"]), "--backend", "gd", "--out", str(out)]
    code, _, err = run_main("simulate", *base, "--t-end", "10", "--lr", "100")
    assert code == 2 and "larger than the horizon" in one_line(err)
    code, stdout, err = run_main("simulate", *base, "--t-end", "10", "--lr", "3", "--times", "5")
    assert code == 0, err
    assert "last GD iterate at t = 9" in stdout
    with np.load(out) as z:
        np.testing.assert_array_equal(z["t"], [3.0, 9.0])


@pytest.mark.parametrize("words, fragment", [(["--log-eps", "-1e4"], None), (["--log-eps", "-2302.6"], None),
                                             (["--log-eps", "-1.5e-3"], None), (["--log-eps", "1"], None),
                                             (["--times", "1,2"], None), (["--times", "-1,2"], "times must be >= 0"),
                                             (["--t-end", "-1e3"], "t_end must be"), (["--log-eps", "-inf"], "log_eps must be finite"),
                                             (["--alpha", "-1e-3"], "alpha")])
def test_negative_numbers_are_option_values(files, tmp_path, words, fragment) -> None:
    argv = [str(files["data"]), "--init", str(files["base"]), "--t-end", "3", "--out", str(tmp_path / "t.npz"), *words]
    code, _, err = run_main("simulate", *argv)
    if fragment is None:
        assert code == 0, err
    else:
        assert code == 2 and fragment in one_line(err)


def test_every_numeric_option_of_every_subcommand_takes_a_negative_exponent() -> None:
    """argparse would read ``-1e4`` as an option; here it reaches the option's own type and checks."""
    import argparse

    from verify.cli.main import build_parser

    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    checked = 0
    for name, sub in subparsers.choices.items():
        required = []
        for action in sub._actions:
            if not action.option_strings:
                required += [] if action.nargs in ("*", "?") else ["x"]
            elif action.required:
                required += [action.option_strings[0], "1" if action.type in (int, float) else "x"]
        for action in sub._actions:
            if action.type not in (int, float) or not action.option_strings:
                continue
            value = "-1e4" if action.type is float else "-3"
            args = parser.parse_args([name, *required, action.option_strings[0], value])
            assert getattr(args, action.dest) == action.type(value), (name, action.dest)
            checked += 1
    assert checked >= 10


def test_no_command_is_a_usage_error_and_help_is_not() -> None:
    code, stdout, err = run_main()
    assert code == 2 and stdout == "" and "a command is required" in one_line(err)
    with pytest.raises(SystemExit) as exc:
        run_main("--help")
    assert exc.value.code == 0


def test_a_numerical_error_outside_simulate_stays_an_engine_failure(monkeypatch) -> None:
    """Exit 3 is simulate's numerical failure; elsewhere (search / check decide UNKNOWN themselves)
    a NumericalError that escapes is exit 4, as before."""
    import verify.cli.list_cmd
    from verify.errors import NumericalError

    def boom(args) -> int:
        raise NumericalError("step size underflow")

    monkeypatch.setattr(verify.cli.list_cmd, "run", boom)
    code, _, err = run_main("list")
    assert code == 4 and "NumericalError: step size underflow" in one_line(err)


def test_a_limit_trajectory_that_overflows_float64_is_not_written(files, tmp_path) -> None:
    out = tmp_path / "lim.npz"
    code, stdout, err = run_main("simulate", str(files["data"]), "--init", str(files["init"]), "--t-end", "1e3",
                                 "--backend", "limit", "--out", str(out))
    assert code == 3 and stdout == "" and not out.exists()
    assert "beyond float64's range" in one_line(err)
