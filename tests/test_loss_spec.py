"""One loss specification for every backend (issue 18, item 3).

The numpy ``Loss.g`` is the reference; the compiled weight (``field_jit.data_weights`` with the
loss's declared ``jit_code``) and the mpfr ``g_value`` (declared ``family`` / ``scale``) must agree
with it on a grid of margins, the code table is derived from the Loss objects, a user-defined loss
is refused by the mp backend with a typed error, and no backend picks a formula by loss name.
"""

from __future__ import annotations

import dataclasses
import pathlib
import re

import numpy as np
import pytest

from verify.dynamics import field_jit
from verify.dynamics.field import NetworkField
from verify.dynamics.mp import num
from verify.dynamics.mp.field import MpField, g_value
from verify.dynamics.mp.series import mp_loss
from verify.errors import InputError
from verify.model.losses import EXP, LOSSES, Family, Loss

# margins z = y f from deep misclassification to far past the margin (no float64 underflow of g)
MARGINS = np.array([-30.0, -5.0, -1.0, -0.25, -1e-9, 0.0, 1e-12, 0.3, 1.0, 2.5, 10.0, 40.0, 300.0])
PREC_50_DIGITS = 170  # bits: ~51 decimal digits


def _grid() -> tuple[np.ndarray, np.ndarray]:
    """Labels and outputs covering every margin of MARGINS with both labels."""
    y = np.repeat([1.0, -1.0], MARGINS.size)
    return y, y * np.tile(MARGINS, 2)


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_compiled_weight_matches_numpy(name):
    y, f = _grid()
    ref = LOSSES[name].g(y, f)
    P = np.diag(f)  # f_i = sum_j S_ij P_ij a_j = f_i exactly (S, a all ones; the other terms are 0)
    got = field_jit.data_weights(P, np.ones_like(P), np.ones(f.size), y, field_jit.LOSS_CODES[name])
    np.testing.assert_allclose(got, ref, rtol=1e-14, atol=0.0)


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_mp_weight_matches_numpy(name):
    y, f = _grid()
    ref = LOSSES[name].g(y, f)
    with num.context(PREC_50_DIGITS):
        got = g_value(LOSSES[name], num.vec(y), num.vec(f)).astype(float)
        by_name = g_value(name, num.vec(y), num.vec(f)).astype(float)
    np.testing.assert_allclose(got, ref, rtol=1e-14, atol=0.0)
    np.testing.assert_array_equal(by_name, got)


def test_loss_codes_are_derived_from_the_losses():
    assert field_jit.LOSS_CODES == {loss.name: loss.jit_code for loss in LOSSES.values()}
    assert len(set(field_jit.LOSS_CODES.values())) == len(LOSSES)
    for loss in LOSSES.values():
        assert isinstance(loss.family, Family) and loss.scale in (1, 2)


def test_custom_loss_is_refused_by_the_mp_backend():
    X, y = np.array([[1.0, 0.5], [-0.3, 1.0]]), np.array([1.0, -1.0])
    mine = Loss("mine", EXP._value, EXP._weight, EXP._weight_minus_one, EXP._log_value)
    assert mine.jit_code is None and mine.family is None
    np.testing.assert_array_equal(mine.g(y, X[:, 0]), EXP.g(y, X[:, 0]))  # numpy path as before
    for custom in (mine, dataclasses.replace(EXP, name="my-exp")):
        with pytest.raises(InputError, match="built-in losses only"):
            MpField(NetworkField(X, y, custom))
        with pytest.raises(InputError, match="built-in losses only"):
            mp_loss(custom)
    with pytest.raises(InputError, match="unknown loss"):
        mp_loss("nope")


def test_no_backend_compares_loss_names():
    root = pathlib.Path(__file__).resolve().parents[1] / "verify" / "dynamics"
    names = "|".join(re.escape(n) for n in LOSSES)
    pattern = re.compile(rf"""(==|!=|\bin)\s*\(?\s*["']({names})["']|["']({names})["']\s*(==|!=)|\.name\s*(==|!=)""")
    hits = [f"{p.relative_to(root)}:{i}: {line.strip()}" for p in sorted(root.rglob("*.py"))
            for i, line in enumerate(p.read_text().splitlines(), 1) if pattern.search(line)]
    assert not hits, "backends pick a loss formula by name:\n" + "\n".join(hits)
