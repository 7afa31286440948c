"""The input layer: CSV and .npz rules, and data that are valid at any scale (DESIGN.md, Clarifications)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import verify
from verify import Dataset, InputError, load_dataset
from verify.cli.main import main
from verify.data.generators import orthogonally_separable


def _csv(tmp_path, text: str | bytes, name: str = "d.csv"):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


@pytest.mark.parametrize("text, fragment", [
    ("1,a,1\n2,3,-1\n", "line 1, column 2: non-numeric cell 'a'"),
    ("x1,x2,y\n\n\n1,2,1\n2,q,-1\n", "line 5, column 2"),
    ("1;2;1\n2;3;-1\n", "';'-separated: use commas"),
    ("1\t2\t1\n", "tab-separated: use commas"),
    ("1 2 1\n", "whitespace-separated: use commas"),
    ("x,y\n", "a header and no data rows"),
    ("\n\n1,2,1\n\n1,2\n", "line 5 has 2 columns, expected 3"),
])
def test_csv_errors_name_the_files_own_line(tmp_path, text, fragment):
    with pytest.raises(InputError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        load_dataset(_csv(tmp_path, text))


def test_a_mixed_first_line_is_data_not_a_header(tmp_path):
    """Only a line in which no cell parses as a number is a header: '1,a,1' is an error, never dropped."""
    with pytest.raises(InputError, match="line 1"):
        load_dataset(_csv(tmp_path, "1,a,1\n2,3,-1\n"))
    assert load_dataset(_csv(tmp_path, "a,b,c\n1,2,1\n2,3,-1\n")).n == 2
    assert load_dataset(_csv(tmp_path, "1,2,1\n2,3,-1\n")).n == 2


def test_a_byte_order_mark_drops_no_row(tmp_path):
    ds = load_dataset(_csv(tmp_path, b"\xef\xbb\xbf1,2,1\n2,3,-1\n"))
    assert ds.n == 2 and ds.X[0, 0] == 1.0
    assert load_dataset(_csv(tmp_path, b"\xef\xbb\xbfx1,x2,y\n1,2,1\n")).n == 1


@pytest.mark.parametrize("content, fragment", [
    (b"hello\n", "not a zip archive"),
    (b"", "an empty file"),
    (b"\x93NUMPY\x01\x00", "a single .npy array"),
])
def test_non_npz_files_get_the_right_cause_and_no_unsafe_advice(tmp_path, content, fragment):
    path = tmp_path / "d.npz"
    path.write_bytes(content)
    with pytest.raises(InputError, match=fragment) as info:
        load_dataset(path)
    assert "pickle" not in str(info.value)


def test_object_arrays_are_refused_with_the_reason(tmp_path):
    path = tmp_path / "d.npz"
    np.savez(path, X=np.array([{"a": 1}], dtype=object), y=np.array([1.0]))
    with pytest.raises(InputError, match="object arrays") as info:
        load_dataset(path)
    assert "allow_pickle" not in str(info.value)


BASE = orthogonally_separable(5, 4, 3, 0.3, seed=0)
EXACT_KEYS = ("orthogonally_separable", "assumption1", "mu_exact", "sign_disagreements", "n", "d")
FLOAT_KEYS = ("mu", "zeta1", "xi", "rho_plus", "rho_minus", "min_same_label_cos")


@pytest.mark.parametrize("power", [-1000, -900, -665, 664, 1000, 1019])
def test_audit_is_scale_free_without_warnings(power):
    """X * 2^k (exact: a power of two, every entry still a normal float) for tiny and huge k: the same
    geometry to the last bit where it is exact, no warning, no non-finite number."""
    scaled = Dataset(np.ldexp(BASE.X, power), BASE.y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got, want = verify.audit(scaled).to_dict(), verify.audit(BASE).to_dict()
    for key in EXACT_KEYS:
        assert got[key] == want[key], key
    for key in FLOAT_KEYS:
        assert got[key] == pytest.approx(want[key], rel=1e-12, abs=1e-15), key
    assert got["X_max"] == pytest.approx(np.ldexp(want["X_max"], power), rel=1e-15)
    for key, value in got.items():
        assert not (isinstance(value, float) and not np.isfinite(value)) or key.startswith(("c_star", "log_eps", "eps")), key


def test_subnormal_rows_are_valid_data():
    ds = Dataset([[5e-324, 0.0], [0.0, -1e-310]], [1, -1])
    assert ds.norms[0] == 5e-324 and np.all(np.isfinite(ds.unit))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert verify.audit(ds).orthogonally_separable


def test_only_an_exactly_zero_row_is_zero_and_an_overflowing_norm_is_refused():
    with pytest.raises(InputError, match="row 1: the zero vector"):
        Dataset([[1.0, 0.0], [0.0, 0.0]], [1, -1])
    with pytest.raises(InputError, match="beyond the float64 range"):
        Dataset([[1.5e308, 1.5e308], [1.0, 0.0]], [1, -1])


def test_times_beyond_float64_are_null_with_a_reason(tmp_path, capsys):
    path = tmp_path / "tiny.npz"
    np.savez(path, X=np.ldexp(BASE.X, -1060), y=BASE.y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert main(["audit", str(path), "--json", str(tmp_path / "a.json")]) == 0
    import json

    doc = json.loads((tmp_path / "a.json").read_text())
    assert doc["t1"] is None and "beyond the float64 range" in doc["na"]["t1"]
    assert doc["mu"] == pytest.approx(verify.audit(BASE).mu, rel=1e-3)  # subnormal entries keep only ~10 bits


@pytest.mark.parametrize("scale", [1e-300, 1e-150, 1e150, 1e200, 1e300])
@pytest.mark.parametrize("eps", [None, 1.0])
def test_audit_of_an_init_at_any_scale_warns_never(scale, eps):
    W = np.array([[1.0, 0.2], [-0.3, 1.0]]) * scale
    v = np.array([1.0, -1.0]) * np.linalg.norm(W / scale, axis=1) * scale
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = verify.audit(verify.load_dataset("gen:toy4"), W, v, eps=eps)
    assert a.balanced and a.imbalance < 1e-12
    assert a.W_max == pytest.approx(1.0 if eps is None else np.linalg.norm(W / scale, axis=1).max() * scale, rel=1e-12)


def test_a_flow_float64_cannot_follow_fails_numerically_and_quickly():
    """eps = e^8 on this data: exp-loss weights overflow at t = 0. A NumericalError (exit 3), never a loop."""
    import time

    from verify.data.generators import orthogonally_separable as os_data

    ds = os_data(10, 10, 5, 0.3, seed=0)
    rng = np.random.default_rng(0)
    W = rng.normal(size=(6, 5))
    W /= np.linalg.norm(W, axis=1)[:, None]
    v = np.where(np.arange(6) % 2 == 0, 1.0, -1.0)
    start = time.perf_counter()
    with pytest.raises(verify.NumericalError):
        verify.simulate(ds, W, v, 2.0, log_eps=8.0)
    assert time.perf_counter() - start < 30.0
