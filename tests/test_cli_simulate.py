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
