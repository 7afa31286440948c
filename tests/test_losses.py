import mpmath as mp
import numpy as np
import pytest

from verify import InputError
from verify.model.losses import LOSSES, get_loss, log_sum_exp

Z = np.array([-800.0, -40.0, -3.0, -1.0, -1e-9, 0.0, 1e-12, 0.5, 2.0, 35.0, 900.0])


def _reference(name: str, z: float):
    """Value, weight g/y and (g - y)/y at margin z, at 50 digits."""
    with mp.workdps(50):
        z = mp.mpf(z)
        if name == "exp":
            return mp.exp(-z), mp.exp(-z), mp.exp(-z) - 1
        if name == "logistic2":
            w = 2 / (1 + mp.exp(z))
            return 2 * mp.log1p(mp.exp(-z)), w, w - 1
        if name == "logistic":
            w = 1 / (1 + mp.exp(z))
            return mp.log1p(mp.exp(-z)), w, w - 1
        if name == "poly":
            s = mp.sqrt(1 + z * z)
            return s - z, 1 - z / s, -z / s
        return (1 - z) ** 2 / 2, 1 - z, -z


@pytest.mark.parametrize("name", sorted(LOSSES))
@pytest.mark.parametrize("y", [1.0, -1.0])
def test_loss_against_mpmath(name, y):
    loss = get_loss(name)
    yhat = y * Z
    with np.errstate(over="ignore"):
        value, g, gmy, logv = loss.value(y, yhat), loss.g(y, yhat), loss.g_minus_y(y, yhat), loss.log_value(y, yhat)
    for k, z in enumerate(Z):
        ref_value, ref_w, ref_wm1 = _reference(name, float(z))
        for got, ref in ((value[k], ref_value), (g[k], y * ref_w), (gmy[k], y * ref_wm1)):
            if abs(ref) > 1e300 or (ref != 0 and abs(ref) < 1e-300):
                continue  # outside float64 range; covered by log_value
            assert got == pytest.approx(float(ref), rel=1e-12, abs=1e-300), (name, z)
        if ref_value > 0:
            assert logv[k] == pytest.approx(float(mp.log(ref_value)), rel=1e-12, abs=1e-12), (name, z)


def test_g_minus_y_has_no_cancellation_at_tiny_outputs():
    loss = get_loss("exp")
    assert loss.g_minus_y(1.0, 1e-300) == pytest.approx(-1e-300, rel=1e-15)
    assert get_loss("logistic2").g_minus_y(1.0, 1e-300) == pytest.approx(-0.5e-300, rel=1e-15)


def test_summed_total():
    loss = get_loss("exp")
    assert loss.total(np.array([1.0, -1.0]), np.array([0.0, 0.0])) == 2.0
    assert loss.log_total(np.array([1.0, 1.0]), np.array([1000.0, 1000.0])) == pytest.approx(-1000 + np.log(2))


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_log_totals_is_log_total_per_row(name):
    """The outputs at many sample times in one call (the engines' log-loss diagnostics) agree with one row at a time,
    also where the losses underflow float64 (log L finite, about -700 .. -1e4)."""
    loss = get_loss(name)
    rng = np.random.default_rng(1)
    y = rng.choice([-1.0, 1.0], size=9)
    rows = y[None, :] * np.array([[0.0], [1e-9], [1.0], [30.0], [800.0], [1e4]]) + rng.normal(scale=1e-3, size=(6, 9))
    with np.errstate(divide="ignore"):
        got = loss.log_totals(y, rows)
        one = np.array([loss.log_total(y, f) for f in rows])
    assert got.shape == (6,)
    np.testing.assert_allclose(got, one, rtol=1e-14, atol=0.0)


def test_logistic_weights_at_zero():
    assert get_loss("logistic").g(1.0, 0.0) == 0.5
    assert get_loss("logistic2").g(1.0, 0.0) == 1.0


def test_unknown_loss():
    with pytest.raises(InputError, match="unknown loss"):
        get_loss("hinge")


def test_log_sum_exp_against_mpmath():
    """log sum exp per row to a few ulps of the 50-digit value, from rows of one entry to rows spanning 1e4 in log
    (terms that underflow exp alone), ties at the maximum included."""
    rng = np.random.default_rng(3)
    rows = [rng.normal(scale=s, size=k) for s in (1e-3, 1.0, 30.0, 1e4) for k in (1, 2, 9)]
    rows += [np.array([5.0, 5.0, 5.0]), np.array([-800.0, -800.0, 0.0]), np.array([-1e4, -1e4 - 1e-9])]
    for row in rows:
        with mp.workdps(50):
            ref = mp.log(mp.fsum(mp.exp(mp.mpf(float(a))) for a in row))
        assert log_sum_exp(row[None, :])[0] == pytest.approx(float(ref), rel=4e-16, abs=4e-16), row


def test_log_sum_exp_edges():
    """A row of -inf (every loss exactly 0) gives -inf, a row holding +inf gives +inf, without warnings; ties at
    the maximum count each (log k + m); one call for all rows keeps them apart."""
    a = np.array([[-np.inf, -np.inf], [0.0, np.inf], [0.0, 0.0], [-np.inf, 1.5]])
    with np.errstate(all="raise"):
        out = log_sum_exp(a)
    assert out[0] == -np.inf and out[1] == np.inf
    assert out[2] == np.log(2.0) and out[3] == 1.5
    assert log_sum_exp(np.zeros((0, 3))).shape == (0,)
