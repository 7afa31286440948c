import math

import numpy as np
import pytest

from verify import InputError
from verify.model.init import balanced_init, dominated_init, given_init, unbalanced_init


def test_balanced_init_is_balanced_and_scaled():
    init = balanced_init(7, 3, eps=1e-6, seed=1)
    assert init.balanced and init.kind == "balanced"
    np.testing.assert_allclose(init.v**2, np.sum(init.W**2, axis=1), rtol=1e-14)
    assert init.eps == pytest.approx(1e-6, rel=1e-15)
    np.testing.assert_array_equal(np.abs(init.signs), 1.0)


def test_same_seed_same_init_and_signs_patterns():
    a, b = balanced_init(5, 2, eps=0.1, seed=3), balanced_init(5, 2, eps=0.1, seed=3)
    np.testing.assert_array_equal(a.W0, b.W0)
    np.testing.assert_array_equal(a.v0, b.v0)
    alt = balanced_init(4, 2, eps=0.1, signs="alternating")
    np.testing.assert_array_equal(alt.signs, [1, -1, 1, -1])
    assert not np.array_equal(balanced_init(5, 2, eps=0.1, seed=4).W0, a.W0)


def test_theorem_scale_eps_kept_in_log_space():
    init = balanced_init(3, 2, log_eps=-1000 * math.log(10), seed=0)
    assert init.eps == 0.0 and not init.representable
    with pytest.raises(InputError, match="underflows"):
        _ = init.W
    assert np.all(np.isfinite(init.W0))


def test_unbalanced_and_dominated():
    u = unbalanced_init(6, 3, eps=1.0, seed=2)
    assert not u.balanced
    dom = dominated_init(6, 3, eps=1.0, seed=2, ratio=3.0)
    np.testing.assert_allclose(np.abs(dom.v0), 3.0 * np.linalg.norm(dom.W0, axis=1))


@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda: balanced_init(0, 2, eps=1.0), "h >= 1"),
        (lambda: balanced_init(2, 2, eps=0.0), "eps must be"),
        (lambda: balanced_init(2, 2, eps=1.0, log_eps=0.0), "exactly one"),
        (lambda: balanced_init(2, 2, eps=1.0, signs="sideways"), "sign pattern"),
        (lambda: balanced_init(2, 2, eps=1.0, W0=np.zeros((2, 2))), "nonzero rows"),
        (lambda: dominated_init(2, 2, eps=1.0, ratio=0.5), "ratio > 1"),
        (lambda: given_init(np.ones((2, 2)), np.ones(3)), "shapes"),
        (lambda: given_init(np.full((1, 2), np.nan), np.ones(1)), "non-finite"),
    ],
)
def test_bad_init_arguments(call, fragment):
    with pytest.raises(InputError, match=fragment):
        call()
