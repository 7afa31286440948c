import numpy as np
import pytest

from verify import InputError, load_dataset
from verify.data.loaders import save_npz
from verify import Dataset


def test_npz_roundtrip(tmp_path):
    ds = Dataset([[1.0, 2.0], [-3.0, 0.5]], [1, -1])
    path = tmp_path / "d.npz"
    save_npz(path, ds)
    back = load_dataset(path)
    np.testing.assert_array_equal(back.X, ds.X)
    np.testing.assert_array_equal(back.y, ds.y)


def test_csv_with_and_without_header(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text("a,b,label\n1,2,1\n-3,0.5,-1\n")
    ds = load_dataset(p)
    assert ds.X.shape == (2, 2) and list(ds.y) == [1.0, -1.0]
    q = tmp_path / "e.csv"
    q.write_text("1,2,1\n-3,0.5,-1\n")
    np.testing.assert_array_equal(load_dataset(q).X, ds.X)


@pytest.mark.parametrize(
    "name, content, fragment",
    [
        ("missing.npz", None, "no such file"),
        ("missing.csv", None, "no such file"),
        ("corrupt.npz", b"this is not a zip archive", "not a .npz archive"),
        ("cells.csv", b"1,2,1\n1,x,-1\n", "non-numeric cell 'x'"),
        ("ragged.csv", b"1,2,1\n1,-1\n", "line 2 has 2 columns"),
        ("empty.csv", b"", "no data rows"),
        ("onecol.csv", b"1\n-1\n", "at least one feature"),
        ("labels.csv", b"1,2,3\n", "line 1, column 3: label 3.0 is not -1 or"),
        ("nan.csv", b"nan,2,1\n", "non-finite"),
        ("zero.csv", b"0,0,1\n", "zero vector"),
        ("data.txt", b"1,2,1\n", "unsupported data format"),
    ],
)
def test_bad_files(tmp_path, name, content, fragment):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(InputError, match=fragment):
        load_dataset(path)


def test_npz_missing_key(tmp_path):
    path = tmp_path / "k.npz"
    np.savez(path, X=np.ones((2, 2)))
    with pytest.raises(InputError, match="missing array"):
        load_dataset(path)


def test_npz_wrong_shapes(tmp_path):
    path = tmp_path / "s.npz"
    np.savez(path, X=np.ones((2, 2)), y=np.ones(3))
    with pytest.raises(InputError, match="2 rows but y has 3"):
        load_dataset(path)


def test_generated_source():
    ds = load_dataset("gen:orthogonally_separable:n_pos=3,n_neg=2,d=4,mu=0.4,seed=1")
    assert (ds.n_pos, ds.n_neg, ds.d) == (3, 2, 4)
    from verify.geometry import mu

    assert mu(ds) == pytest.approx(0.4, abs=1e-12)
    assert load_dataset("gen:toy4").n == 4


@pytest.mark.parametrize("spec, fragment", [("gen:nope", "unknown generator"), ("gen:toy4:a", "key=value"), ("gen:toy4:b=1", "toy4")])
def test_generated_source_errors(spec, fragment):
    with pytest.raises(InputError, match=fragment):
        load_dataset(spec)


@pytest.mark.parametrize(
    "content, fragment",
    [
        (b"a,b,y\n\n1,2,1\n\n3,nan,-1\n", "line 5, column 2: non-finite value 'nan'"),
        (b"a,b,y\n\n1,2,1\n\n3,4,2\n", "line 5, column 3: label 2.0 is not -1 or +1"),
        (b"a,b,y\n\n1,2,1\n\n0,0,-1\n", "line 5: the zero vector"),
        (b"1,2,1\n1.5e308,1.5e308,-1\n", "line 2: Euclidean norm beyond the float64 range"),
        (b"1,2,1\n1e400,1,-1\n", "line 2, column 1: '1e400' is beyond the float64 range"),
        (b"1,2,1\n1e-400,1,-1\n", "line 2, column 1: '1e-400' underflows float64 to 0"),
        (b"1_000,2,1\n", "line 1, column 1: non-numeric cell '1_000'"),
        ("\uff11,2,1\n".encode(), "line 1, column 1: non-numeric cell"),
        (b"\xff\xfe1,2\n", "not UTF-8 text"),
    ],
)
def test_csv_value_errors_name_the_files_line_and_column(tmp_path, content, fragment):
    """Every rule on a cell's value names the physical line (blank lines and the header counted) and
    the column; no value is silently changed (an underflow to 0 or Python's '1_000' is refused)."""
    path = tmp_path / "d.csv"
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        load_dataset(path)
    message = str(info.value)
    assert fragment in message and "np.float64" not in message and "\n" not in message


def test_csv_keeps_every_value_exactly(tmp_path):
    """Decimal cells are read as the nearest float64 (tiny, subnormal and huge ones included)."""
    cells = ["4.9e-324", "-2.2250738585072014e-308", "1e-300", "1.7976931348623157e308", "0.1"]
    path = tmp_path / "d.csv"
    path.write_text("".join(f"{c},{1 if k % 2 else -1}\n" for k, c in enumerate(cells)))
    np.testing.assert_array_equal(load_dataset(path).X[:, 0], [float(c) for c in cells])


def test_npz_member_that_is_not_an_npy_array(tmp_path):
    """A zip whose X.npy is not a .npy file (numpy returns its raw bytes) names the member, not a dtype."""
    import zipfile

    path = tmp_path / "d.npz"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("X.npy", b"garbage")
        zf.writestr("y.npy", b"junk")
    with pytest.raises(InputError, match=r"member X\.npy of the archive is not a \.npy array"):
        load_dataset(path)


@pytest.mark.parametrize("cut", [0.5, 0.9])
def test_truncated_npz_is_not_readable(tmp_path, cut):
    path = tmp_path / "d.npz"
    np.savez(path, X=np.ones((3, 2)), y=np.array([1.0, -1.0, 1.0]))
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * cut)])
    with pytest.raises(InputError, match="not a readable .npz archive") as info:
        load_dataset(path)
    assert "pickle" not in str(info.value)
