"""Subprocess tests of ``verify audit`` (DESIGN.md section 6: bad input -> exit 2, one line)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
RUNNER = "import sys; from verify.cli.main import main; sys.exit(main())"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RUNNER, *map(str, args)],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )


def make_data(n_pos: int = 4, n_neg: int = 3, d: int = 3, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Assumption-1 data: y_i x_i within 0.4 rad of a core direction."""
    rng = np.random.default_rng(seed)
    u = np.eye(d)[0]
    rows = []
    for _ in range(n_pos + n_neg):
        e = rng.standard_normal(d)
        e -= (e @ u) * u
        e /= np.linalg.norm(e)
        phi = rng.uniform(0.0, 0.4)
        rows.append(rng.uniform(0.5, 2.0) * (math.cos(phi) * u + math.sin(phi) * e))
    y = np.r_[np.ones(n_pos), -np.ones(n_neg)]
    return y[:, None] * np.array(rows), y


@pytest.fixture
def data_files(tmp_path: Path) -> dict[str, Path]:
    X, y = make_data()
    npz = tmp_path / "data.npz"
    np.savez(npz, X=X, y=y)
    csv = tmp_path / "data.csv"
    csv.write_text("\n".join(",".join(repr(float(v)) for v in [*row, lab]) for row, lab in zip(X, y)) + "\n")
    rng = np.random.default_rng(5)
    W = rng.standard_normal((6, X.shape[1]))
    v = np.where(np.arange(6) % 2 == 0, 1.0, -1.0) * np.linalg.norm(W, axis=1)
    init = tmp_path / "init.npz"
    np.savez(init, W=W, v=v)
    return {"npz": npz, "csv": csv, "init": init, "dir": tmp_path}


def assert_input_error(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("verify: error:")
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout


def _bad_data(tmp: Path, kind: str) -> Path:
    X, y = make_data()
    if kind == "missing":
        return tmp / "nope.npz"
    if kind == "missing_csv":
        return tmp / "nope.csv"
    if kind == "corrupt_npz":
        p = tmp / "bad.npz"
        p.write_bytes(b"PK\x03\x04 this is not a zip archive")
        return p
    if kind == "missing_key":
        p = tmp / "nokey.npz"
        np.savez(p, X=X)
        return p
    if kind == "non_numeric_csv":
        p = tmp / "bad.csv"
        p.write_text("1.0,2.0,1\n3.0,abc,-1\n")
        return p
    if kind == "nan_npz":
        X = X.copy()
        X[1, 0] = np.nan
        p = tmp / "nan.npz"
        np.savez(p, X=X, y=y)
        return p
    if kind == "inf_csv":
        p = tmp / "inf.csv"
        p.write_text("1.0,2.0,1\ninf,1.0,-1\n")
        return p
    if kind == "zero_row":
        X = X.copy()
        X[2] = 0.0
        p = tmp / "zero.npz"
        np.savez(p, X=X, y=y)
        return p
    if kind == "X_1d":
        p = tmp / "x1d.npz"
        np.savez(p, X=X[:, 0], y=y)
        return p
    if kind == "y_length":
        p = tmp / "ylen.npz"
        np.savez(p, X=X, y=y[:-1])
        return p
    if kind == "labels_01":
        p = tmp / "labels.npz"
        np.savez(p, X=X, y=(y > 0).astype(float))
        return p
    if kind == "labels_csv":
        p = tmp / "labels.csv"
        p.write_text("1.0,2.0,2\n3.0,1.0,-1\n")
        return p
    if kind == "empty_npz":
        p = tmp / "empty.npz"
        np.savez(p, X=np.zeros((0, 3)), y=np.zeros(0))
        return p
    if kind == "empty_csv":
        p = tmp / "empty.csv"
        p.write_text("")
        return p
    if kind == "header_only_csv":
        p = tmp / "header.csv"
        p.write_text("a,b,label\n")
        return p
    if kind == "ragged_csv":
        p = tmp / "ragged.csv"
        p.write_text("1.0,2.0,1\n3.0,-1\n")
        return p
    if kind == "bad_suffix":
        p = tmp / "data.txt"
        p.write_text("1,2,1\n")
        return p
    if kind == "directory":
        p = tmp / "adir.npz"
        p.mkdir()
        return p
    raise AssertionError(kind)


BAD_DATA = [
    "missing", "missing_csv", "corrupt_npz", "missing_key", "non_numeric_csv", "nan_npz", "inf_csv",
    "zero_row", "X_1d", "y_length", "labels_01", "labels_csv", "empty_npz", "empty_csv",
    "header_only_csv", "ragged_csv", "bad_suffix", "directory",
]


@pytest.mark.parametrize("kind", BAD_DATA)
def test_bad_data_exit_2_one_line(tmp_path: Path, kind: str) -> None:
    assert_input_error(run_cli("audit", _bad_data(tmp_path, kind)))


def _bad_init(tmp: Path, kind: str) -> Path:
    W = np.random.default_rng(0).standard_normal((4, 3))
    v = np.linalg.norm(W, axis=1)
    p = tmp / f"init_{kind}.npz"
    if kind == "missing":
        return tmp / "no_init.npz"
    if kind == "corrupt":
        p.write_bytes(b"garbage")
    elif kind == "missing_v":
        np.savez(p, W=W)
    elif kind == "dim_mismatch":
        np.savez(p, W=W[:, :2], v=v)
    elif kind == "v_length":
        np.savez(p, W=W, v=v[:-1])
    elif kind == "nan":
        W[0, 0] = np.nan
        np.savez(p, W=W, v=v)
    elif kind == "W_3d":
        np.savez(p, W=W[None], v=v)
    elif kind == "all_zero":
        np.savez(p, W=np.zeros((2, 3)), v=np.zeros(2))
    elif kind == "strings":
        np.savez(p, W=np.array([["a", "b", "c"]]), v=np.ones(1))
    else:
        raise AssertionError(kind)
    return p


@pytest.mark.parametrize("kind", ["missing", "corrupt", "missing_v", "dim_mismatch", "v_length", "nan", "W_3d", "all_zero", "strings"])
def test_bad_init_exit_2_one_line(data_files: dict[str, Path], kind: str) -> None:
    assert_input_error(run_cli("audit", data_files["npz"], "--init", _bad_init(data_files["dir"], kind)))


@pytest.mark.parametrize(
    "extra",
    [
        ["--eps", "0"],
        ["--eps", "-1e-3"],
        ["--eps", "nan"],
        ["--eps", "inf"],
        ["--eps", "abc"],
        ["--log-eps", "inf"],
        ["--eps", "1e-3", "--log-eps", "-5"],
        ["--alpha", "2"],
        ["--alpha", "-0.1"],
        ["--bogus"],
    ],
)
def test_bad_options_exit_2_one_line(data_files: dict[str, Path], extra: list[str]) -> None:
    assert_input_error(run_cli("audit", data_files["npz"], "--init", data_files["init"], *extra))


def test_eps_without_init_is_an_error(data_files: dict[str, Path]) -> None:
    assert_input_error(run_cli("audit", data_files["npz"], "--eps", "1e-3"))


def test_missing_data_argument(data_files: dict[str, Path]) -> None:
    assert_input_error(run_cli("audit"))


def test_unwritable_json_path(data_files: dict[str, Path]) -> None:
    assert_input_error(run_cli("audit", data_files["npz"], "--json", data_files["dir"] / "no_dir" / "a.json"))


@pytest.mark.parametrize("fmt", ["npz", "csv"])
def test_good_run_prints_table_and_writes_json(data_files: dict[str, Path], fmt: str) -> None:
    out = data_files["dir"] / f"audit_{fmt}.json"
    proc = run_cli("audit", data_files[fmt], "--json", out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    for word in ("mu", "orthogonally separable", "zeta1", "xi", "t1", "Assumption 1"):
        assert word in proc.stdout
    assert "\x1b[" not in proc.stdout  # no ANSI escapes when piped
    d = json.loads(out.read_text())
    for key in ("n", "d", "mu", "orthogonally_separable", "X_min", "X_max", "zeta1", "xi", "t1"):
        assert key in d
    assert d["n"] == 7 and d["d"] == 3 and d["orthogonally_separable"] is True and d["mu"] > 0
    assert d["zeta2"] is None and d["has_init"] is False


def test_npz_and_csv_agree(data_files: dict[str, Path]) -> None:
    res = {}
    for fmt in ("npz", "csv"):
        out = data_files["dir"] / f"agree_{fmt}.json"
        assert run_cli("audit", data_files[fmt], "--json", out).returncode == 0
        res[fmt] = json.loads(out.read_text())
    for key in ("mu", "zeta1", "xi", "t1", "X_min", "X_max"):
        assert res["npz"][key] == res["csv"][key]


def test_good_run_with_init_and_tiny_eps(data_files: dict[str, Path]) -> None:
    out = data_files["dir"] / "init.json"
    proc = run_cli("audit", data_files["npz"], "--init", data_files["init"], "--log-eps", "-20000", "--json", out)
    assert proc.returncode == 0, proc.stderr
    for word in ("zeta2", "eps_required", "R8", "R9", "t2 bound"):
        assert word in proc.stdout
    d = json.loads(out.read_text())
    for key in ("zeta2", "eps_required", "log_eps_required", "c_star", "t1_min", "t1_max", "assumptions", "errata"):
        assert key in d
    assert d["has_init"] is True and d["h"] == 6 and d["log_eps"] == -20000.0
    assert isinstance(d["eps_required"], float) and math.isfinite(d["log10_eps_required"])
    r8 = next(e for e in d["errata"] if e["id"] == "R8")
    assert "t1_min" in r8["values"] and "t1_max" in r8["values"]


def test_failed_assumption_is_stated_with_margin(data_files: dict[str, Path]) -> None:
    X = np.array([[1.0, 0.0], [-1.5, 3.0], [0.0, -1.0]])
    y = np.array([1.0, 1.0, -1.0])
    p = data_files["dir"] / "p1.npz"
    np.savez(p, X=X, y=y)
    out = data_files["dir"] / "p1.json"
    proc = run_cli("audit", p, "--json", out)
    assert proc.returncode == 0, proc.stderr
    assert "FAIL" in proc.stdout and "Assumption 1: mu > 0" in proc.stdout and "short by" in proc.stdout
    d = json.loads(out.read_text())
    a1 = next(f for f in d["assumptions"] if f["name"].startswith("Assumption 1"))
    assert a1["holds"] is False and a1["margin"] == pytest.approx(d["mu"])
    assert d["t1"] is None and "mu <= 0" in d["na"]["t1"]


def test_plain_renderer_readable() -> None:
    """The no-rich fallback prints every section as aligned text."""
    import contextlib
    import io

    from verify.audit import audit
    from verify.cli.audit_cmd import _print_plain, audit_sections, summary_lines
    from verify.data.dataset import Dataset

    X, y = make_data()
    a = audit(Dataset(X, y), np.eye(3), np.ones(3), eps=1e-3)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        _print_plain("header", audit_sections(a), summary_lines(a))
    text = buf.getvalue()
    for word in ("Data geometry", "Initialisation", "Assumptions", "Errata", "mu", "zeta2", "R8"):
        assert word in text


def test_help_lists_options() -> None:
    proc = run_cli("audit", "--help")
    assert proc.returncode == 0
    for opt in ("--json", "--init", "--eps", "--log-eps", "--alpha"):
        assert opt in proc.stdout


def _main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``verify ...`` in-process with warnings as errors: (exit code, stdout, stderr)."""
    import warnings

    from verify.cli.main import main

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("W, v, fragment", [
    (np.array([[1.0, np.inf, 0.0]]), np.ones(1), "init W[0, 1] is non-finite (inf)"),
    (np.ones((2, 3)), np.array([1.0, np.nan]), "init v[1] is non-finite (nan)"),
    (np.full((1, 3), 1.5e308), np.ones(1), "overflows float64"),
    (np.ones((1, 3)) + 1j, np.ones(1), "real numbers"),
    (np.array([None, 1.0], dtype=object), np.ones(2), "object arrays"),
    (np.ones((2, 3)), np.ones((2, 2)), "init shapes must be W (h, d) and v (h,)"),
    (np.ones((0, 3)), np.ones(0), "no neurons"),
    (None, None, "not a .npz archive (not a zip archive)"),
])
def test_init_defects_exit_2_with_one_line_naming_the_cause(data_files, capsys, W, v, fragment):
    init = data_files["dir"] / "bad_init.npz"
    if W is None:
        init.write_text("W,v\n1,2\n")
    else:
        np.savez(init, W=W, v=v)
    code, out, err = _main(["audit", str(data_files["npz"]), "--init", str(init)], capsys)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("verify: error: ") and fragment in err and str(init) in err


@pytest.mark.parametrize("scale", [1e-200, 1e200, 1e300, 1e305, 1e308, 2.0**-1060])
@pytest.mark.parametrize("fmt", ["npz", "csv"])
def test_scaled_data_audit_the_same_without_warnings(data_files, capsys, scale, fmt):
    """`verify audit` of s X (tiny, huge, near the float64 limit, subnormal): exit 0, no warning,
    mu, orthogonal separability, Assumption 1 and the cones (rho+-, zeta1) those of X; every number
    finite, or null with the reason."""
    X, y = make_data()
    X = X / np.linalg.norm(X, axis=1).max()  # X_max = 1, so that X_max = s after scaling
    runs = {}
    for name, data in (("base", X), ("scaled", X * scale)):
        path = data_files["dir"] / f"{name}.{fmt}"
        if fmt == "npz":
            np.savez(path, X=data, y=y)
        else:
            path.write_text("".join(",".join(map(repr, [*map(float, row), float(lab)])) + "\n" for row, lab in zip(data, y)))
        out_json = data_files["dir"] / f"{name}.json"
        code, _, err = _main(["audit", str(path), "--json", str(out_json)], capsys)
        assert code == 0 and err == ""
        runs[name] = json.loads(out_json.read_text())
    base, got = runs["base"], runs["scaled"]
    rel = 1e-3 if scale < 1e-300 else 1e-12  # subnormal entries keep only ~20 bits
    for key in ("orthogonally_separable", "assumption1", "sign_disagreements", "n", "d"):
        assert got[key] == base[key], key
    for key in ("mu", "rho_plus", "rho_minus", "zeta1_sup", "min_same_label_cos"):
        assert got[key] == pytest.approx(base[key], rel=rel), key
    assert got["X_max"] == pytest.approx(scale, rel=1e-12)
    for key, value in got.items():
        assert not (isinstance(value, str) and value in ("inf", "-inf", "nan")), key
        if value is None and base[key] is not None and key != "delta_t":  # delta_t is derived from delta_t_coef
            assert "beyond the float64 range" in got["na"][key], key
