import re

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
        ([[1.0, 2.0]], [0], "y[0]: label 0.0 is not -1 or"),
        ([[1.0, 2.0]], [2], "label 2.0 is not -1 or +1"),
        (np.zeros((0, 3)), np.zeros(0), "empty"),
        ([["a", "b"]], [1], "numeric"),
        ([[1 + 1j, 0.0]], [1], "complex"),
    ],
)
def test_bad_input_raises_input_error(X, y, fragment):
    with pytest.raises(InputError, match=re.escape(fragment)):
        Dataset(X, y)


def test_input_error_is_value_error():
    assert issubclass(InputError, ValueError)


def test_single_class_is_accepted():
    ds = Dataset([[1.0, 0.0]], [1])
    assert not ds.both_classes
    np.testing.assert_array_equal(ds.x_minus, [0.0, 0.0])


def test_class_sums_use_each_class_own_scale():
    """x+ and its direction do not vanish when one class is 1e600 times smaller than the other."""
    X = np.array([[1.0, 0.5], [0.5, 1.0], [-1.0, 0.2], [-0.3, -1.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    base = Dataset(X, y)
    scaled = Dataset(np.where(y[:, None] > 0, np.ldexp(X, -1000), np.ldexp(X, 1000)), y)
    np.testing.assert_array_equal(scaled.x_plus, np.ldexp(base.x_plus, -1000))
    np.testing.assert_array_equal(scaled.x_minus, np.ldexp(base.x_minus, 1000))
    for label in (1, -1):
        np.testing.assert_allclose(scaled.class_direction(label), base.class_direction(label), rtol=1e-15)


@pytest.mark.parametrize("X, y, fragment", [
    ([[1.0, 2.0], [np.nan, 1.0]], [1, -1], "X row 1, column 0: non-finite value nan"),
    ([[1.0, 2.0], [3.0, 1.0]], [1, 2.5], "y[1]: label 2.5 is not -1 or +1"),
    ([[1.0, 2.0], [0.0, -0.0]], [1, -1], "X row 1: the zero vector"),
])
def test_messages_name_row_and_column_in_plain_numbers(X, y, fragment):
    with pytest.raises(InputError) as info:
        Dataset(X, y)
    assert fragment in str(info.value) and "np." not in str(info.value)
