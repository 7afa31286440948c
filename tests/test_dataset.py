import numpy as np
import pytest

from verify import Dataset, InputError


def test_valid_dataset_properties():
    ds = Dataset([[3.0, 4.0], [-1.0, 0.0]], [1, -1])
    assert (ds.n, ds.d, ds.n_pos, ds.n_neg) == (2, 2, 1, 1)
    assert ds.X_max == 5.0 and ds.X_min == 1.0
    np.testing.assert_array_equal(ds.x_plus, [3.0, 4.0])
    np.testing.assert_array_equal(ds.signed, [[3.0, 4.0], [1.0, 0.0]])
    assert ds.both_classes


@pytest.mark.parametrize(
    "X, y, fragment",
    [
        ([[np.nan, 1.0]], [1], "non-finite"),
        ([[np.inf, 1.0]], [1], "non-finite"),
        ([[0.0, 0.0], [1.0, 1.0]], [1, -1], "zero vector"),
        ([1.0, 2.0], [1, -1], "2-D"),
        ([[1.0, 2.0]], [1, -1], "1 rows but y has 2"),
        ([[1.0, 2.0]], [0], "labels must be -1 or"),
        ([[1.0, 2.0]], [2], "labels must be -1 or"),
        (np.zeros((0, 3)), np.zeros(0), "empty"),
        ([["a", "b"]], [1], "numeric"),
        ([[1 + 1j, 0.0]], [1], "complex"),
    ],
)
def test_bad_input_raises_input_error(X, y, fragment):
    with pytest.raises(InputError, match=fragment):
        Dataset(X, y)


def test_input_error_is_value_error():
    assert issubclass(InputError, ValueError)


def test_single_class_is_accepted():
    ds = Dataset([[1.0, 0.0]], [1])
    assert not ds.both_classes
    np.testing.assert_array_equal(ds.x_minus, [0.0, 0.0])
