"""Property-based tests of the input layer (issue: no wrong answer on any input).

Hypothesis builds data files and option values from a few structured choices -- which defect, and
where -- and runs the CLI in-process. Every outcome must be either exit 2 with exactly one line on
stderr (or 3 for a genuine numerical failure), or exit 0 with an answer that matches what was
written; never a traceback, never a warning, always within a few seconds.
"""

from __future__ import annotations

import contextlib
import io
import time
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.cli.main import main

SECONDS = 20.0  # per example, generous for a loaded 2-core CI machine (numba kernels are compiled once)

CSV_DEFECTS = ("none", "header", "bom", "blank_lines", "text_cell", "nan_cell", "inf_cell", "ragged", "bad_label",
               "zero_row", "semicolon", "tab", "empty", "only_header", "one_column")
NPZ_DEFECTS = ("none", "missing_y", "missing_X", "wrong_shape", "object", "text", "truncated", "nan", "labels_2d",
               "complex", "empty")
MAGNITUDES = (1e-300, 1e-200, 1e-5, 1.0, 1e5, 1e200, 1e300)


def _run(argv: list[str]) -> tuple[int, str, str]:
    """Run the CLI in-process with its own captured stdout/stderr (Hypothesis reuses fixtures)."""
    start = time.perf_counter()
    out_buf, err_buf = io.StringIO(), io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(out_buf), contextlib.redirect_stderr(err_buf):
        warnings.simplefilter("error")
        code = main(argv)
    assert time.perf_counter() - start < SECONDS, argv
    out, err = out_buf.getvalue(), err_buf.getvalue()
    assert "Traceback" not in err and "Warning" not in err
    return code, out, err


def _one_line_error(code: int, err: str, codes=(2,)) -> None:
    assert code in codes, err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("verify: error:")


@st.composite
def datasets(draw) -> tuple[np.ndarray, np.ndarray]:
    """Valid labelled data: n points in d dimensions at one magnitude, both labels present."""
    n = draw(st.integers(2, 6))
    d = draw(st.integers(1, 4))
    scale = draw(st.sampled_from(MAGNITUDES))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    X = rng.normal(size=(n, d))
    X[np.all(X == 0.0, axis=1), 0] = 1.0
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return X * scale, y


@st.composite
def csv_files(draw) -> tuple[str, bytes, tuple[int, int] | None]:
    """(defect, file bytes, (n, d) when the file is valid)."""
    X, y = draw(datasets())
    defect = draw(st.sampled_from(CSV_DEFECTS))
    rows = [[repr(float(v)) for v in x] + [repr(float(t))] for x, t in zip(X, y)]
    at = draw(st.integers(0, len(rows) - 1))
    col = draw(st.integers(0, len(rows[0]) - 1))
    header = ",".join([f"x{k}" for k in range(X.shape[1])] + ["label"])
    valid = (X.shape[0], X.shape[1])
    if defect == "text_cell":
        rows[at][col], valid = "abc", None
    elif defect in ("nan_cell", "inf_cell"):
        rows[at][min(col, len(rows[at]) - 2)], valid = ("nan" if defect == "nan_cell" else "-inf"), None
    elif defect == "ragged":
        rows[at], valid = rows[at][:-1] + ["1.0", "1.0"], None
    elif defect == "bad_label":
        rows[at][-1], valid = "2", None
    elif defect == "zero_row":
        rows[at], valid = ["0"] * (len(rows[at]) - 1) + ["1"], None
    elif defect == "one_column":
        rows, valid = [[r[-1]] for r in rows], None
    sep = {"semicolon": ";", "tab": "\t"}.get(defect, ",")
    if sep != ",":
        valid = None
    lines = [sep.join(r) for r in rows]
    if defect == "header":
        lines.insert(0, header)
    if defect == "blank_lines":
        lines.insert(at, "")
        lines.append("   ")
    text = "\n".join(lines) + "\n"
    if defect == "empty":
        text, valid = "", None
    if defect == "only_header":
        text, valid = header + "\n", None
    data = text.encode()
    if defect == "bom":
        data = b"\xef\xbb\xbf" + data
    return defect, data, valid


@given(case=csv_files())
@settings(deadline=None)
def test_csv_files_give_a_correct_answer_or_one_line(case, tmp_path_factory):
    defect, data, valid = case
    path = tmp_path_factory.mktemp("csv") / "data.csv"
    path.write_bytes(data)
    _audit_answers(path, defect, valid)


def _audit_answers(path, defect: str, valid: tuple[int, int] | None) -> None:
    """`verify audit FILE`: one line and exit 2 for a defective file, else the (n, d) that was written."""
    code, out, err = _run(["audit", str(path)])
    if valid is None:
        _one_line_error(code, err)
    else:
        assert code == 0, (defect, err)
        assert f"(n = {valid[0]}, d = {valid[1]})" in out


@st.composite
def npz_files(draw) -> tuple[str, dict | bytes, tuple[int, int] | None]:
    X, y = draw(datasets())
    defect = draw(st.sampled_from(NPZ_DEFECTS))
    arrays: dict = {"X": X, "y": y}
    valid = X.shape
    if defect == "missing_y":
        del arrays["y"]
    elif defect == "missing_X":
        del arrays["X"]
    elif defect == "wrong_shape":
        arrays["X"] = X.reshape(-1)
    elif defect == "object":
        arrays["X"] = np.array([{"x": 1}] * len(y), dtype=object)
    elif defect == "nan":
        arrays["X"] = X.copy()
        arrays["X"][draw(st.integers(0, X.shape[0] - 1)), 0] = np.nan
    elif defect == "labels_2d":
        arrays["y"] = y[:, None]
    elif defect == "complex":
        arrays["X"] = X + 1j
    elif defect == "empty":
        arrays = {"X": np.zeros((0, 2)), "y": np.zeros(0)}
    elif defect == "text":
        return defect, b"X,y\n1,2\n", None
    elif defect == "truncated":
        return defect, b"PK\x03\x04" + b"\x00" * draw(st.integers(0, 40)), None
    return defect, arrays, (valid if defect in ("none", "labels_2d") else None)  # a label column (n, 1) is accepted


@given(case=npz_files())
@settings(deadline=None)
def test_npz_files_give_a_correct_answer_or_one_line(case, tmp_path_factory):
    defect, content, valid = case
    path = tmp_path_factory.mktemp("npz") / "data.npz"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        np.savez(path, **content)
    _audit_answers(path, defect, valid)


SIM_DEFECTS = ("none", "t_end_zero", "t_end_negative", "t_end_nan", "t_end_text", "lr_zero", "lr_beyond_t_end",
               "times_unsorted", "times_negative", "times_beyond", "times_text", "backend", "loss", "dps", "log_eps_nan",
               "init_shape", "init_nan", "init_huge", "init_no_neurons", "rtol")


EXTRA_WORDS = {"times_unsorted": ["--times", "0.4,0.2"], "times_negative": ["--times", "-0.1,0.2"],
               "times_beyond": ["--times", "0.1,99"], "times_text": ["--times", "0.1,x"], "loss": ["--loss", "hinge"],
               "dps": ["--dps", "5"], "log_eps_nan": ["--log-eps", "nan"]}


@st.composite
def simulate_args(draw) -> tuple[str, list[str], dict]:
    """(defect, option words, init arrays) for `verify simulate gen:toy4 --init INIT --out OUT ...`."""
    defect = draw(st.sampled_from(SIM_DEFECTS))
    backend = draw(st.sampled_from(["events", "gd"]))
    t_end = draw(st.sampled_from(["0.5", "1", "2.5"]))
    scale = draw(st.sampled_from([1e-6, 1e-3, 0.1]))
    W = np.array([[1.0, 0.5], [-0.3, 1.0], [0.2, -1.0]]) * scale
    v = np.linalg.norm(W, axis=1) * np.array([1.0, -1.0, 1.0])
    words = ["--t-end", t_end, "--backend", backend] + (["--lr", "0.01"] if backend == "gd" else [])
    init = {"W": W, "v": v}
    swap = {"t_end_zero": ("--t-end", "0"), "t_end_negative": ("--t-end", "-1e3"), "t_end_nan": ("--t-end", "nan"),
            "t_end_text": ("--t-end", "soon")}
    if defect in swap:
        words[1] = swap[defect][1]
    elif defect == "lr_zero":
        words = ["--t-end", t_end, "--backend", "gd", "--lr", "0"]
    elif defect == "lr_beyond_t_end":
        words = ["--t-end", t_end, "--backend", "gd", "--lr", "100"]
    elif defect in EXTRA_WORDS:
        words += EXTRA_WORDS[defect]
    elif defect == "backend":
        words[3] = "rk4"
    elif defect == "rtol":
        words += ["--rtol", draw(st.sampled_from(["0", "-1e-3", "2"]))]
    elif defect == "init_shape":
        init = {"W": W[:, :1], "v": v}
    elif defect == "init_nan":
        init = {"W": np.where(W > 0.4 * scale, np.nan, W), "v": v}
    elif defect == "init_huge":
        init = {"W": W * 1e200 / scale, "v": v * 1e200 / scale}
    elif defect == "init_no_neurons":
        init = {"W": np.zeros((0, 2)), "v": np.zeros(0)}
    return defect, words, init


@given(case=simulate_args())
@settings(deadline=None)
def test_simulate_options_give_a_trajectory_or_one_line(case, tmp_path_factory):
    defect, words, init = case
    folder = tmp_path_factory.mktemp("sim")
    np.savez(folder / "init.npz", **init)
    out_path = folder / "traj.npz"
    code, out, err = _run(["simulate", "gen:toy4", "--init", str(folder / "init.npz"), "--out", str(out_path), *words])
    if defect != "none":
        _one_line_error(code, err)
        assert not out_path.exists()
        return
    assert code == 0, err
    with np.load(out_path) as traj:
        assert np.all(np.isfinite(traj["W"])) and np.all(np.isfinite(traj["v"]))
        assert np.all(np.diff(traj["t"]) > 0)


@pytest.mark.parametrize("words", [["--log-eps", "-1e4"], ["--log-eps", "-2302.6"], ["--log-eps=-1e4"]])
def test_negative_numbers_with_exponents_are_option_values(words, tmp_path):
    np.savez(tmp_path / "base.npz", W=np.array([[1.0, 0.2], [-0.2, 1.0]]), v=np.array([1.0198039027185568, -1.0198039027185568]))
    code, out, err = _run(["simulate", "gen:toy4", "--init", str(tmp_path / "base.npz"), "--t-end", "1",
                           "--out", str(tmp_path / "t.npz"), *words])
    assert code == 0, err


def test_no_command_is_a_usage_error():
    code, _, err = _run([])
    _one_line_error(code, err)
