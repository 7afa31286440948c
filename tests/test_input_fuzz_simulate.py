"""Property-based tests of ``verify simulate`` options and inits (issue #11 item 2: never loop, never lie).

Each example picks a defect -- which option or which part of the init is wrong -- and then its value,
on the small embedded data set ``gen:toy4`` (n = 4, d = 2), and runs the CLI in-process. Every outcome
is one of: exit 2 with exactly one line on stderr (bad input), exit 3 with one line (the run could
not be completed numerically: only where the defect makes the flow too fast for float64), or exit 0
with an output file whose arrays are finite and whose times are strictly increasing. Never a
traceback, never a warning, and each example within a few seconds.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.cli.main import main

SECONDS = 20.0  # per example, generous for a loaded 2-core machine (numba kernels compile once)
PER_DEFECT = settings(max_examples=max(3, settings.default.max_examples // 6))  # each defect is its own test

# defect -> the exit codes it may give: 2 bad input; 3 a flow float64 cannot follow; 0 a valid run.
# lr_tiny asks for more than 1e8 GD steps; times_off_grid are GD sample times that are not multiples
# of lr (served by the last iterate before them, at its true time k lr). A subnormal init (1e-320) is
# refused unless rounding left it balanced (then it runs in polar form).
OPTION_DEFECTS = {
    "t_end_zero": (2,), "t_end_negative": (2,), "t_end_nan": (2,), "t_end_inf": (2,), "t_end_text": (2,),
    "t_end_huge": (0,),
    "lr_zero": (2,), "lr_negative": (2,), "lr_nan": (2,), "lr_beyond_t_end": (2,), "lr_tiny": (2,),
    "times_unsorted": (2,), "times_negative": (2,), "times_beyond": (2,), "times_text": (2,), "times_empty_item": (2,),
    "times_nan": (2,), "times_off_grid": (0,),
    "dps_low": (2,), "dps_high": (2,), "dps_text": (2,), "dps_without_mp": (2,),
    "backend": (2,), "loss": (2,), "rtol": (2,), "alpha": (2,),
    "log_eps_positive": (0, 3), "log_eps_huge": (2,), "log_eps_nan": (2,), "log_eps_inf": (2,),
}
INIT_DEFECTS = {
    "W_1d": (2,), "W_wrong_d": (2,), "v_wrong_shape": (2,), "v_missing": (2,), "no_neurons": (2,),
    "W_nan": (2,), "v_inf": (2,), "huge": (2,), "tiny_balanced": (0,), "tiny_subnormal": (0, 2), "tiny_unbalanced": (0,),
    "tiny_unbalanced_below_cartesian": (2,),
}


def _run(argv: list[str]) -> tuple[int, str, str]:
    """``verify ARGV`` in-process with captured stdout / stderr; warnings are errors."""
    start = time.perf_counter()
    out, err = io.StringIO(), io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        warnings.simplefilter("error")
        code = main(argv)
    assert time.perf_counter() - start < SECONDS, argv
    assert "Traceback" not in err.getvalue() and "Warning" not in err.getvalue()
    return code, out.getvalue(), err.getvalue()


def _base_init(h: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A balanced eps-free base (h, 2) with alternating output signs: ||w_j|| = |v_j|."""
    W = np.random.default_rng(seed).normal(size=(h, 2))
    W[np.all(W == 0.0, axis=1), 0] = 1.0
    return W, np.linalg.norm(W, axis=1) * np.where(np.arange(h) % 2 == 0, 1.0, -1.0)


@st.composite
def valid_runs(draw) -> tuple[list[str], dict]:
    """(option words, init arrays) of a valid run: backend, horizon, sample times, loss, scale."""
    backend = draw(st.sampled_from(["events", "gd", "limit"]))
    t_end = draw(st.sampled_from([0.5, 1.0, 2.5]))
    W, v = _base_init(draw(st.integers(1, 4)), draw(st.integers(0, 2**16)))
    words = ["--t-end", repr(t_end), "--backend", backend, "--loss", draw(st.sampled_from(["exp", "logistic"]))]
    if backend == "gd":
        words += ["--lr", draw(st.sampled_from(["0.01", "0.05"]))]
    k = draw(st.integers(0, 3))
    if k:
        words += ["--times", ",".join(repr(t_end * (i + 1) / (k + 1)) for i in range(k))]
    if backend != "gd" and draw(st.booleans()):
        words += ["--log-eps", draw(st.sampled_from(["-1e4", "-2302.6", "-20", "-1e-3"]))]
        return words, {"W": W, "v": v}
    scale = draw(st.sampled_from([1e-6, 1e-3, 0.1]))
    return words, {"W": scale * W, "v": scale * v}


GD = ("--backend", "gd", "--lr")
MP = ("--backend", "mp", "--dps")
# defect -> (the horizon, the option words before the value, the values to draw from)
OPTION_VALUES: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "t_end_zero": ("2", ("--t-end",), ("0", "0.0", "-0")),
    "t_end_negative": ("2", ("--t-end",), ("-1", "-1e3", "-1e-300")),
    "t_end_nan": ("2", ("--t-end",), ("nan", "NaN")),
    "t_end_inf": ("2", ("--t-end",), ("inf", "-inf", "1e400")),
    "t_end_text": ("2", ("--t-end",), ("soon", "1,2", "")),
    "t_end_huge": ("2", ("--t-end",), ("1e6", "1e300")),
    "lr_zero": ("2", GD, ("0", "0.0")),
    "lr_negative": ("2", GD, ("-0.1", "-1e-3")),
    "lr_nan": ("2", GD, ("nan", "inf")),
    "lr_beyond_t_end": ("2.5", GD, ("2.6", "100", "1e300")),
    "lr_tiny": ("1e3", GD, ("1e-9", "1e-300")),
    "times_unsorted": ("2", ("--times",), ("0.4,0.2", "1,1")),
    "times_negative": ("2", ("--times",), ("-0.1,0.2", "-1e-3")),
    "times_beyond": ("2", ("--times",), ("0.1,99", "2.5")),
    "times_text": ("2", ("--times",), ("0.1,x", "a")),
    "times_empty_item": ("2", ("--times",), ("0.1,,0.2", ",")),
    "times_nan": ("2", ("--times",), ("0.1,nan", "inf")),
    "times_off_grid": ("2", ("--backend", "gd", "--lr", "0.3", "--times"), ("0.5,1", "0.1,0.2,1.9")),
    "dps_low": ("2", MP, ("5", "0", "-3")),
    "dps_high": ("2", MP, ("2001", "1e4")),
    "dps_text": ("2", MP, ("x", "30.5")),
    "dps_without_mp": ("2", ("--dps",), ("30",)),
    "backend": ("2", ("--backend",), ("rk4", "GD", "")),
    "loss": ("2", ("--loss",), ("hinge", "mse", "")),
    "rtol": ("2", ("--rtol",), ("0", "-1e-3", "2", "nan")),
    "alpha": ("2", ("--alpha",), ("-0.1", "1.5", "nan")),
    "log_eps_positive": ("2", ("--log-eps",), ("0.5", "3", "8", "20")),
    "log_eps_huge": ("2", ("--log-eps",), ("1e4", "1e300")),
    "log_eps_nan": ("2", ("--log-eps",), ("nan", "NaN")),
    "log_eps_inf": ("2", ("--log-eps",), ("inf", "-inf")),
}


def _option_defect(draw, defect: str) -> tuple[list[str], dict]:
    """A valid events run on gen:toy4 with the one option ``defect`` made wrong (the eps-free base
    for the log_eps defects, weights at scale 1e-3 otherwise)."""
    W, v = _base_init(3, draw(st.integers(0, 2**16)))
    t_end, prefix, values = OPTION_VALUES[defect]
    scale = 1.0 if defect.startswith("log_eps") else 1e-3
    return ["--t-end", t_end, *prefix, draw(st.sampled_from(values))], {"W": scale * W, "v": scale * v}


def _init_defect(draw, defect: str) -> tuple[list[str], dict]:
    """A valid events run on gen:toy4 whose init has the one ``defect``."""
    h = draw(st.integers(1, 4))
    W, v = _base_init(h, draw(st.integers(0, 2**16)))
    scale = draw(st.sampled_from([1e-3, 0.1]))
    W, v = scale * W, scale * v
    row = draw(st.integers(0, h - 1))
    if defect == "W_1d":
        return [], {"W": W.reshape(-1), "v": v}
    if defect == "W_wrong_d":
        return [], {"W": np.column_stack([W, W[:, :draw(st.integers(1, 2))]]), "v": v}
    if defect == "v_wrong_shape":
        return [], {"W": W, "v": draw(st.sampled_from([v[:-1], v[:, None], np.append(v, 1.0)]))}
    if defect == "v_missing":
        return [], {"W": W}
    if defect == "no_neurons":
        return [], {"W": np.zeros((0, 2)), "v": np.zeros(0)}
    if defect == "W_nan":
        W[row, draw(st.integers(0, 1))] = draw(st.sampled_from([np.nan, np.inf, -np.inf]))
        return [], {"W": W, "v": v}
    if defect == "v_inf":
        v[row] = draw(st.sampled_from([np.nan, np.inf, -np.inf]))
        return [], {"W": W, "v": v}
    sizes = {"huge": (1e160, 1e200, 1e300), "tiny_balanced": (1e-200, 1e-250, 1e-305), "tiny_subnormal": (1e-320, 1e-322),
             "tiny_unbalanced": (1e-200, 1e-250), "tiny_unbalanced_below_cartesian": (1e-305, 1e-310)}
    factor = draw(st.sampled_from(sizes[defect])) / scale
    unbalance = draw(st.sampled_from([0.5, 2.0])) if defect.startswith("tiny_unbalanced") else 1.0
    return [], {"W": factor * W, "v": unbalance * factor * v}


def _check_outcome(argv: list[str], codes: tuple[int, ...], out_path: Path) -> None:
    """Exit 2 / 3 with one line and no file, or exit 0 with finite arrays at increasing times."""
    code, stdout, err = _run(argv)
    assert code in codes, (argv, code, err)
    if code != 0:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("verify: error:"), err
        assert stdout == "" and not out_path.exists()
        return
    assert err == "" and not re.search(r"\b(nan|inf)\b", stdout, re.IGNORECASE)
    if out_path.suffix == ".json":
        t = [float(x) for x in json.loads(out_path.read_text())["t"]]
        assert np.all(np.diff(t) > 0)
        return
    with np.load(out_path) as traj:
        for key in ("t", "W", "v", "ev_t") + (("r", "U") if "r" in traj.files else ()):
            assert np.all(np.isfinite(traj[key])), key
        assert np.all(np.diff(traj["t"]) > 0)


def _argv(folder: Path, words: list[str], init: dict) -> tuple[list[str], Path]:
    np.savez(folder / "init.npz", **init)
    out = folder / ("traj.json" if list(MP[:2]) == words[2:4] else "traj.npz")
    return ["simulate", "gen:toy4", "--init", str(folder / "init.npz"), "--out", str(out), *words], out


@pytest.mark.parametrize("defect", sorted(OPTION_DEFECTS))
@PER_DEFECT
@given(data=st.data())
def test_option_defects_give_one_line_or_a_finite_trajectory(defect, data, tmp_path_factory) -> None:
    words, init = _option_defect(data.draw, defect)
    argv, out = _argv(tmp_path_factory.mktemp("sim"), words, init)
    _check_outcome(argv, OPTION_DEFECTS[defect], out)


@pytest.mark.parametrize("defect", sorted(INIT_DEFECTS))
@PER_DEFECT
@given(data=st.data())
def test_init_defects_give_one_line_or_a_finite_trajectory(defect, data, tmp_path_factory) -> None:
    words, init = _init_defect(data.draw, defect)
    argv, out = _argv(tmp_path_factory.mktemp("sim"), ["--t-end", "2", *words], init)
    _check_outcome(argv, INIT_DEFECTS[defect], out)


@given(case=valid_runs())
def test_valid_runs_write_finite_trajectories(case, tmp_path_factory) -> None:
    words, init = case
    argv, out = _argv(tmp_path_factory.mktemp("sim"), words, init)
    _check_outcome(argv, (0,), out)
