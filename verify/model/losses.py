"""Per-sample losses l(y, yhat) and their data weights g = -dl/dyhat, computed stably.

All five losses depend on the margin z = y * yhat (y in {-1, +1}):

- ``exp``:        l = exp(-z),                g = y exp(-z)
- ``logistic2``:  l = 2 log(1 + exp(-z)),     g = 2 y / (1 + exp(z))   (g(0) = y)
- ``logistic``:   l = log(1 + exp(-z)),       g = y / (1 + exp(z))     (g(0) = y/2)
- ``square``:     l = (1/2)(y - yhat)^2,      g = y - yhat
- ``poly``:       l = sqrt(1 + z^2) - z,      g = y (1 - z / sqrt(1 + z^2))   (g(0) = y)

``poly`` is a polynomial-tailed loss: l' bounded and Lipschitz,
-y l' > 0, but g / y ~ 1 / (2 z^2) as z -> inf (no exponential tail). With s = hypot(1, z)
(no overflow of z^2) and a = |z|: l = exp(-asinh z), so log l = -asinh z for every z;
for z >= 0, l = 1 / (s + z) and g / y = 1 / (s (s + z)) = (1/s)^2 / (1 + z/s) (no cancellation,
no overflow); for z < 0, l = s + a and g / y = 1 + a/s (sums of positive terms); (g - y)/y = -z/s.

Mean vs summed loss (the one place this is said). The engine trains on the summed loss L = sum_i l_i; a paper
that averages, L_mean = L / n, has the same flow slowed down by n: theta_mean(t) = theta_sum(t / n)
(:func:`summed_time`). A mean-loss GD or SGD step eta (batch b: the mean over the batch) is the engine's step
``lr = eta / n`` (:func:`summed_lr`), because the gd backend scales a batch's summed gradient by n / b; k such
steps reach summed time k eta / n and mean time k eta.

``g_minus_y`` returns g - y without cancellation (expm1 / tanh), which is what the
small-initialisation lemmas measure when yhat is of order eps^2. ``log_value`` is the log of
the loss, finite even where the loss itself underflows.

One specification for every backend: each built-in :class:`Loss` carries, next to its numpy
formulas, ``jit_code`` (the branch of the compiled ``field_jit.margin_weight`` and of
:func:`margin_log_value`, which a run's loss statistics read; ``LOSS_CODES`` is built from it)
and ``family`` / ``scale`` (:class:`Family`: the form of the weight w = g / y that the mpfr
``g_value`` and the Taylor recurrence of :mod:`verify.dynamics.mp.series` build):

    loss        jit_code  family    scale   w(z)
    exp         0         EXP       1       exp(-z)
    logistic    1         LOGISTIC  1       1 / (1 + exp(z))
    logistic2   2         LOGISTIC  2       2 / (1 + exp(z))
    square      3         SQUARE    1       1 - z            (g = y - yhat)
    poly        4         POLY      1       1 - z / sqrt(1 + z^2)

No backend compares loss names. A user-defined Loss leaves ``jit_code`` and ``family`` None: it runs
on the numpy (float64) path only; the compiled kernels and the mp backend take the built-in objects
only (a ``dataclasses.replace`` copy keeps fields that may no longer match its formulas).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Callable

import numba
import numpy as np
from scipy.special import expit

from verify.errors import InputError

LOG2 = float(np.log(2.0))


def _softplus(t: np.ndarray) -> np.ndarray:
    """log(1 + exp(t)), stable for all t."""
    return np.logaddexp(0.0, t)


def _log_softplus(t: np.ndarray) -> np.ndarray:
    """log(log(1 + exp(t))), finite where softplus(t) underflows (t << 0)."""
    t = np.asarray(t, dtype=float)
    small = t < -30.0
    out = np.empty_like(t)
    ts = t[small]
    out[small] = ts + np.log1p(-0.5 * np.exp(ts))
    out[~small] = np.log(_softplus(t[~small]))
    return out


def _poly_parts(z: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(z, a = |z|, r = |z| / sqrt(1 + z^2)) as float arrays; r in [0, 1], r = 1 at |z| = inf."""
    z = np.asarray(z, dtype=float)
    a = np.abs(z)
    s = np.hypot(1.0, a)
    with np.errstate(invalid="ignore"):
        r = np.where(np.isinf(a), 1.0, a / s)
    return z, a, r


def _poly_value(z: np.ndarray) -> np.ndarray:
    """sqrt(1 + z^2) - z: 1 / (s + z) for z >= 0 (halved sum: no overflow), s + |z| for z < 0."""
    z, a, _r = _poly_parts(z)
    s = np.hypot(1.0, a)
    with np.errstate(over="ignore"):
        return np.where(z >= 0.0, 0.5 / (0.5 * s + 0.5 * a), s + a)


def _poly_weight(z: np.ndarray) -> np.ndarray:
    """1 - z / sqrt(1 + z^2): (1/s)^2 / (1 + z/s) for z >= 0 (= 1 / (s (s + z))), 1 + |z|/s for z < 0."""
    z, a, r = _poly_parts(z)
    inv = 1.0 / np.hypot(1.0, a)
    return np.where(z >= 0.0, inv * inv / (1.0 + r), 1.0 + r)


def _poly_weight_minus_one(z: np.ndarray) -> np.ndarray:
    """-z / sqrt(1 + z^2)."""
    z, _a, r = _poly_parts(z)
    return -np.copysign(r, z)


class Family(enum.Enum):
    """Form of the margin weight w(z) = g / y read by the mp backend (the factor c is ``Loss.scale``)."""

    EXP = "exp"  # w = exp(-z)
    LOGISTIC = "logistic"  # w = c / (1 + exp(z))
    SQUARE = "square"  # w = 1 - z, i.e. g = y - yhat
    POLY = "poly"  # w = 1 - z / sqrt(1 + z^2)


@dataclass(frozen=True)
class Loss:
    """A margin loss: value, data weight, g - y and log-value, all vectorised over samples.

    ``jit_code``: branch of ``field_jit.margin_weight``; ``family`` and ``scale``: the weight
    w = g / y for the mp backend (:class:`Family`); None for a user-defined loss (numpy path only)."""

    name: str
    _value: Callable[[np.ndarray], np.ndarray]
    _weight: Callable[[np.ndarray], np.ndarray]  # g / y as a function of z
    _weight_minus_one: Callable[[np.ndarray], np.ndarray]  # (g - y) / y as a function of z
    _log_value: Callable[[np.ndarray], np.ndarray]
    jit_code: int | None = None
    family: Family | None = None
    scale: int = 1

    def value(self, y: np.ndarray, yhat: np.ndarray) -> np.ndarray:
        """l(y_i, yhat_i) per sample."""
        return self._value(np.asarray(y) * np.asarray(yhat))

    def g(self, y: np.ndarray, yhat: np.ndarray) -> np.ndarray:
        """Data weights g_i = -l'(y_i, yhat_i)."""
        y = np.asarray(y, dtype=float)
        return y * self._weight(y * np.asarray(yhat))

    def g_minus_y(self, y: np.ndarray, yhat: np.ndarray) -> np.ndarray:
        """g_i - y_i without cancellation."""
        y = np.asarray(y, dtype=float)
        return y * self._weight_minus_one(y * np.asarray(yhat))

    def log_value(self, y: np.ndarray, yhat: np.ndarray) -> np.ndarray:
        """log l(y_i, yhat_i), finite even where l underflows."""
        return self._log_value(np.asarray(y) * np.asarray(yhat))

    def total(self, y: np.ndarray, yhat: np.ndarray) -> float:
        """L = sum_i l(y_i, yhat_i) (summed, not averaged: DESIGN.md clarifications)."""
        return float(np.sum(self.value(y, yhat)))

    def log_totals(self, y: np.ndarray, yhat_rows: np.ndarray) -> np.ndarray:
        """log L of each row of ``yhat_rows`` (k, n) (outputs at k sample times): :func:`log_sum_exp` of the
        per-sample log-losses, in one call for all rows."""
        return log_sum_exp(self.log_value(y, np.atleast_2d(yhat_rows)))

    def log_total(self, y: np.ndarray, yhat: np.ndarray) -> float:
        """log L (:meth:`log_totals` of one row)."""
        return float(self.log_totals(y, np.asarray(yhat)[None, :])[0])


def log_sum_exp(a: np.ndarray) -> np.ndarray:
    """log sum_i exp(a_i) along the last axis, by the algorithm of scipy.special.logsumexp 1.17: with m = max_i a_i
    reached k times and s = sum over the other entries of exp(a_i - m), log1p(s / k) + log k + m (the largest terms
    kept out of the sum, for precision); -inf for a row of -inf (or an empty row), +inf for a row holding +inf, NaN
    for a row holding NaN. Compiled (:func:`_log_sum_exp_rows`): scipy's array-API dispatch cost ~60 us per call, more
    than the rest of a small run's bookkeeping, and numpy's ~19 calls per row still ~10 us (and so the engines'
    log-loss does not depend on the scipy version installed)."""
    a = np.atleast_1d(np.asarray(a, dtype=float))
    rows = np.ascontiguousarray(a.reshape(math.prod(a.shape[:-1]), a.shape[-1]))
    return _log_sum_exp_rows(rows).reshape(a.shape[:-1])


@numba.njit(cache=True)
def _log_sum_exp_rows(a: np.ndarray) -> np.ndarray:
    """:func:`log_sum_exp` of each row of a 2-d array, summed in row order."""
    out = np.empty(a.shape[0])
    for r in range(a.shape[0]):
        top, count, nan = -math.inf, 0.0, False
        for x in a[r]:
            if math.isnan(x):
                nan = True
            elif x > top:
                top, count = x, 1.0
            elif x == top:
                count += 1.0
        if nan:
            out[r] = math.nan
        elif not math.isfinite(top):
            out[r] = top  # every entry -inf (or none), or some +inf
        else:
            rest = 0.0
            for x in a[r]:
                if x != top:
                    rest += math.exp(x - top)
            if rest != 0.0:
                rest = rest / count
            out[r] = math.log1p(rest) + math.log(count) + top
    return out


@numba.njit(cache=True)
def _log_softplus_one(t: float) -> float:
    """:func:`_log_softplus` of one number: t + log1p(-e^t / 2) below -30, else the log of softplus(t) (as
    ``np.logaddexp(0, t)`` forms it: t + log1p(e^-t) for t > 0, log1p(e^t) for t < 0, log 2 at 0)."""
    if t < -30.0:
        return t + math.log1p(-0.5 * math.exp(t))
    if t > 0.0:
        return np.log(t + math.log1p(math.exp(-t)))
    if t < 0.0:
        return np.log(math.log1p(math.exp(t)))
    return np.log(LOG2) if t == 0.0 else t


@numba.njit(cache=True)
def margin_log_value(z: float, code: int) -> float:
    """log l at the margin z = y yhat for the built-in loss with ``Loss.jit_code`` ``code`` (the formulas of the
    losses' ``_log_value``: -z, log softplus(-z), log 2 + log softplus(-z), log(1/2) + 2 log |1 - z|, -asinh z)."""
    if code == 0:
        return -z
    if code == 1:
        return _log_softplus_one(-z)
    if code == 2:
        return LOG2 + _log_softplus_one(-z)
    if code == 3:
        return np.log(0.5) + 2.0 * np.log(abs(1.0 - z))
    return -np.arcsinh(z)


@numba.njit(cache=True)
def log_loss_rows(y: np.ndarray, outputs: np.ndarray, code: int, floor: float) -> tuple[np.ndarray, bool]:
    """(log L of each row of ``outputs`` (k, n) (:func:`log_sum_exp` of the per-sample :func:`margin_log_value`),
    whether any per-sample log-loss is below ``floor``) for the built-in loss with jit code ``code``."""
    per = np.empty(outputs.shape)
    below = False
    for r in range(outputs.shape[0]):
        for i in range(outputs.shape[1]):
            per[r, i] = margin_log_value(y[i] * outputs[r, i], code)
            below |= per[r, i] < floor
    return _log_sum_exp_rows(per), below


def summed_time(t_mean: float, n: int) -> float:
    """Summed-loss (engine) time of mean-loss time ``t_mean`` on n examples: t_mean / n."""
    return float(t_mean) / int(n)


def summed_lr(eta: float, n: int) -> float:
    """The gd backend's step for a mean-loss GD / SGD step ``eta`` on n examples: eta / n (any batch size)."""
    return float(eta) / int(n)


EXP = Loss(
    name="exp",
    _value=lambda z: np.exp(-z),
    _weight=lambda z: np.exp(-z),
    _weight_minus_one=lambda z: np.expm1(-z),
    _log_value=lambda z: -np.asarray(z, dtype=float),
    jit_code=0,
    family=Family.EXP,
)

LOGISTIC2 = Loss(
    name="logistic2",
    _value=lambda z: 2.0 * _softplus(-z),
    _weight=lambda z: 2.0 * expit(-z),
    _weight_minus_one=lambda z: -np.tanh(np.asarray(z, dtype=float) / 2.0),
    _log_value=lambda z: LOG2 + _log_softplus(-np.asarray(z, dtype=float)),
    jit_code=2,
    family=Family.LOGISTIC,
    scale=2,
)

LOGISTIC = Loss(
    name="logistic",
    _value=lambda z: _softplus(-z),
    _weight=lambda z: expit(-z),
    _weight_minus_one=lambda z: -expit(z),
    _log_value=lambda z: _log_softplus(-np.asarray(z, dtype=float)),
    jit_code=1,
    family=Family.LOGISTIC,
)

SQUARE = Loss(
    name="square",
    _value=lambda z: 0.5 * (1.0 - np.asarray(z, dtype=float)) ** 2,
    _weight=lambda z: 1.0 - np.asarray(z, dtype=float),
    _weight_minus_one=lambda z: -np.asarray(z, dtype=float),
    _log_value=lambda z: np.log(0.5) + 2.0 * np.log(np.abs(1.0 - np.asarray(z, dtype=float))),
    jit_code=3,
    family=Family.SQUARE,
)

POLY = Loss(
    name="poly",
    _value=_poly_value,
    _weight=_poly_weight,
    _weight_minus_one=_poly_weight_minus_one,
    _log_value=lambda z: -np.arcsinh(np.asarray(z, dtype=float)),
    jit_code=4,
    family=Family.POLY,
)

LOSSES: dict[str, Loss] = {loss.name: loss for loss in (EXP, LOGISTIC2, LOGISTIC, SQUARE, POLY)}


def get_loss(name: str | Loss) -> Loss:
    """Look a loss up by name ("exp", "logistic", "logistic2", "square", "poly")."""
    if isinstance(name, Loss):
        return name
    try:
        return LOSSES[name]
    except (KeyError, TypeError):
        raise InputError(f"unknown loss {name!r}; choose one of {', '.join(LOSSES)}") from None
