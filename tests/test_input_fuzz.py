"""Property-based tests of the input layer for data files (issue: no wrong answer on any input);
``tests/test_input_fuzz_simulate.py`` does the same for ``verify simulate``'s options and inits.

Hypothesis builds data files from a few structured choices -- which defect, and
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
