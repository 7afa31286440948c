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
        ("labels.csv", b"1,2,3\n", "labels must be"),
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
