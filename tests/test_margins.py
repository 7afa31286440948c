"""Max-margin quantities (verify.margins; DESIGN.md section 6): known answers, infeasible problems,
the independent NNLS path, scale and the audit / CLI keys."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify import Dataset, audit
from verify.data.generators import angular, linear_teacher, symmetric_separable
from verify.margins import least_distance_nnls, max_margin, min_norm_point


def test_symmetric_points_have_margin_cos_a() -> None:
    a = 0.3
    mm = max_margin(angular([a, -a], [math.pi - a, math.pi + a], "four"))
    assert mm.linearly_separable
    assert mm.gamma_lin == pytest.approx(math.cos(a), rel=1e-9)
    assert mm.svm.w == pytest.approx([1.0 / math.cos(a), 0.0], abs=1e-9)
    assert mm.plus.w == pytest.approx([1.0 / math.cos(a), 0.0], abs=1e-9)
    assert mm.minus.w == pytest.approx([-1.0 / math.cos(a), 0.0], abs=1e-9)
    assert sorted(mm.svm.support + mm.svm.weakly_active) == [0, 1, 2, 3]  # all on the margin; multipliers not unique
    assert mm.svm.support and mm.svm.kkt_residual < 1e-9


def test_weakly_active_point_is_reported() -> None:
    """w = (1, 1, 0) is the min-norm point of w1 >= 1, w2 >= 1, w1 + w3 >= 1: the third constraint is
    active, and w = l1 e1 + l2 e2 + l3 (1, 0, 1) forces l3 = 0 (unique multipliers)."""
    ds = Dataset(np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 1.0]]), np.ones(3))
    p = max_margin(ds).plus
    assert p.w == pytest.approx([1.0, 1.0, 0.0], abs=1e-8)
    assert p.support == [0, 1] and p.weakly_active == [2]


def test_infeasible_and_empty_problems_are_null_with_a_reason() -> None:
    ds = Dataset(np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, 1.0]))
    mm = max_margin(ds)
    assert not mm.linearly_separable and mm.svm.w is None and mm.gamma_lin is None
    assert "infeasible" in mm.svm.reason and mm.plus.w is None
    assert mm.minus.w is None and "empty" in mm.minus.reason


@settings(deadline=None)
@given(n=st.integers(2, 12), d=st.integers(2, 6), margin=st.floats(0.05, 0.9), seed=st.integers(0, 2**32 - 1))
def test_interior_point_and_nnls_agree_and_the_margin_is_the_planted_one(n: int, d: int, margin: float, seed: int) -> None:
    ds = linear_teacher(n, d, margin, seed=seed)
    mm = max_margin(ds)
    assert mm.gamma_lin == pytest.approx(margin, rel=1e-6)
    w_nnls = least_distance_nnls(ds.signed)
    assert w_nnls is not None
    assert np.linalg.norm(mm.svm.w - w_nnls) <= 1e-6 * np.linalg.norm(w_nnls)
    assert mm.svm.solver_distance is not None and mm.svm.solver_distance <= 1e-6


@pytest.mark.parametrize("scale", [1e-300, 1e-100, 1.0, 1e100, 1e300])
def test_scale_free(scale: float) -> None:
    ds = symmetric_separable(4, 3, 0.3, seed=2)
    base = max_margin(ds).gamma_lin
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scaled = max_margin(Dataset(ds.X * scale, ds.y)).gamma_lin
    assert scaled / scale == pytest.approx(base, rel=1e-9)


def test_min_norm_point_of_one_row() -> None:
    p = min_norm_point(np.array([[3.0, 4.0]]))
    assert p.w == pytest.approx([3.0 / 25.0, 4.0 / 25.0], rel=1e-9) and p.inverse_norm == pytest.approx(5.0)


def test_audit_and_its_json_carry_the_contract_keys(tmp_path) -> None:
    ds = linear_teacher(6, 3, 0.4, seed=0)
    a = audit(ds)
    assert a.linearly_separable and a.gamma_lin == pytest.approx(0.4, rel=1e-6)
    d = json.loads(json.dumps(a.to_dict(), allow_nan=False))
    for key in ("linearly_separable", "w_svm", "gamma_lin", "w_plus", "w_minus"):
        assert key in d
    assert len(d["w_svm"]) == 3 and d["max_margin"]["svm"]["kkt_residual"] < 1e-8
