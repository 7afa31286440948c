"""Dormand-Prince 8(5,3) and 5(4) steps with dense output, as a set of pure functions.

Same tableaux and error norms as :class:`scipy.integrate.DOP853` and
:class:`scipy.integrate.RK45` (coefficients imported from scipy), hand-driven because the
event engine needs what the classes keep private:

- restart from any state (event point, projected state) while keeping the step size;
- refresh the FSAL derivative after a projection (sliding surface, ``||u|| = 1``);
- the dense-output matrix ``F`` itself, to map it linearly onto all n*h preactivations.

One step from (s, z) with slope f and size h gives z_new and the embedded error norm
    err = |h| ||e5||^2 / sqrt((||e5||^2 + 0.01 ||e3||^2) N),   e_k = K^T E_k / scale,
    scale = atol + rtol max(|z|, |z_new|);   accepted iff err < 1,
and the dense interpolant on x = (s' - s)/h in [0, 1] (degree 7 in x)
    z(x) = z + x (F0 + (1-x)(F1 + x (F2 + (1-x)(F3 + x (F4 + (1-x)(F5 + x F6)))))).

The low-order pairs (:class:`LowPair`: Dormand-Prince 5(4), 6 stages, error exponent -1/5, and Bogacki-Shampine
3(2), 3 stages, -1/3; both FSAL, scipy's RMS error norm) are the cheap steps for short, event-limited steps
(:mod:`control` chooses): their interpolants z + h sum_k Q_k x^(k+1) (quartic, cubic) need no extra evaluations and
are returned in the same nested basis (F0..F6), so that everything downstream (dense evaluation, crossing search) is
shared.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numba
import numpy as np
from scipy.integrate._ivp import dop853_coefficients as _dop
from scipy.integrate._ivp.rk import RK23 as _RK23
from scipy.integrate._ivp.rk import RK45 as _RK45

from verify.errors import NumericalError

N_STAGES = _dop.N_STAGES
_A = _dop.A[:N_STAGES, :N_STAGES]
_B = _dop.B
_C = _dop.C[:N_STAGES]
_E3 = _dop.E3
_E5 = _dop.E5
_D = _dop.D
_A_EXTRA = _dop.A[N_STAGES + 1 :]
_C_EXTRA = _dop.C[N_STAGES + 1 :]
N_DENSE_EXTRA = _C_EXTRA.size  # DOP853's dense output: 3 more evaluations
ORDER = 7  # error exponent -1/(ORDER + 1), as in scipy
SAFETY, MIN_FACTOR, MAX_FACTOR = 0.9, 0.2, 10.0
MIN_STEP_REL = 1e-15  # a step below MIN_STEP_REL max(1, |s|) barely moves s in float64: the run has failed

Rhs = Callable[[float, np.ndarray], np.ndarray]


@dataclass
class StepResult:
    """One attempted step: new state and slope, stage matrix, scaled error norm."""

    z_new: np.ndarray
    f_new: np.ndarray
    K: np.ndarray | None  # (16, N) stages (rows 13..15 filled by dense_matrix); None from a compiled step
    err: float


def rms(a: np.ndarray) -> float:
    """sqrt(mean(a^2)): numpy's mean (the sum over all entries, divided by their number) without its wrapper."""
    return float(np.sqrt(np.add.reduce(a * a, axis=None) / a.size)) if a.size else 0.0


def check_step(h: float, s: float, t: float | None = None) -> None:
    """Raise NumericalError unless h >= MIN_STEP_REL max(1, |s|) (a NaN step fails too): bounds every
    step-size loop. ``t`` is the time shown in the message (default s)."""
    if not h >= MIN_STEP_REL * max(1.0, abs(s)):
        raise NumericalError(f"step size underflow at t = {s if t is None else t:.6g} (step {h:.3g}): the flow is "
                             "too fast to integrate here (weights or outputs far beyond the data's scale?)")


def initial_step(fun: Rhs, s0: float, z0: np.ndarray, f0: np.ndarray, span: float, rtol: np.ndarray, atol: np.ndarray) -> float:
    """Hairer's starting step (as scipy's ``select_initial_step``), at most ``span`` (:func:`first_guess`, one rhs
    evaluation, :func:`starting_step`; the compiled start of :func:`loop_jit.run` calls the same two); ``rtol`` per
    component. NumericalError (:func:`check_step`) when even the first guess (below ``span``) underflows."""
    h0, d1 = first_guess(z0, f0, rtol, atol)
    if h0 < span:
        check_step(h0, s0)
    h0 = min(h0, span)
    f1 = fun(s0 + h0, z0 + h0 * f0)
    return starting_step(z0, f0, f1, rtol, atol, h0, d1, span)


@numba.njit(cache=True)
def _scaled_rms(a: np.ndarray, b: np.ndarray, z0: np.ndarray, rtol: np.ndarray, atol: np.ndarray) -> float:
    """sqrt(mean(((a - b) / scale)^2)), scale = atol + rtol |z0| (b = 0: the norm of a), summed in component order."""
    acc = 0.0
    for p in range(a.size):
        q = (a[p] - b[p]) / (atol[p] + abs(z0[p]) * rtol[p])
        acc += q * q
    return math.sqrt(acc / a.size)


@numba.njit(cache=True)
def first_guess(z0: np.ndarray, f0: np.ndarray, rtol: np.ndarray, atol: np.ndarray) -> tuple[float, float]:
    """(h0, d1): h0 = 0.01 d0 / d1 (1e-6 when d0 or d1 < 1e-5), d0 and d1 the RMS norms of z0 and f0 in the scale
    atol + rtol |z0|."""
    zero = np.zeros(z0.size)
    d0, d1 = _scaled_rms(z0, zero, z0, rtol, atol), _scaled_rms(f0, zero, z0, rtol, atol)
    return (1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1), d1


@numba.njit(cache=True)
def starting_step(z0: np.ndarray, f0: np.ndarray, f1: np.ndarray, rtol: np.ndarray, atol: np.ndarray, h0: float,
                  d1: float, span: float) -> float:
    """min(100 h0, h1, span), h1 = (0.01 / max(d1, d2))^(1/8) (max(1e-6, 1e-3 h0) when both are <= 1e-15), d2 the
    RMS norm of (f1 - f0) / h0 in the scale of :func:`first_guess`, f1 the slope at z0 + h0 f0."""
    d2 = _scaled_rms(f1, f0, z0, rtol, atol) / h0
    if d1 <= 1e-15 and d2 <= 1e-15:
        h1 = max(1e-6, h0 * 1e-3)
    else:
        h1 = (0.01 / max(d1, d2)) ** (1.0 / (ORDER + 1))
    return min(100.0 * h0, h1, span)


def step(fun: Rhs, s: float, z: np.ndarray, f: np.ndarray, h: float, rtol: float | np.ndarray, atol: np.ndarray) -> StepResult:
    """One DOP853 step of size h (12 stages, FSAL slope included: 12 new rhs evaluations); ``rtol`` scalar or per
    component."""
    K = np.empty((_dop.N_STAGES_EXTENDED, z.size))
    K[0] = f
    for i in range(1, N_STAGES):
        K[i] = fun(s + _C[i] * h, z + h * (_A[i, :i] @ K[:i]))
    z_new = z + h * (_B @ K[:N_STAGES])
    f_new = fun(s + h, z_new)
    K[N_STAGES] = f_new
    scale = atol + np.maximum(np.abs(z), np.abs(z_new)) * rtol
    err5 = (_E5 @ K[: N_STAGES + 1]) / scale
    err3 = (_E3 @ K[: N_STAGES + 1]) / scale
    e5, e3 = float(err5 @ err5), float(err3 @ err3)
    err = 0.0 if e5 == 0.0 and e3 == 0.0 else abs(h) * e5 / np.sqrt((e5 + 0.01 * e3) * z.size)
    return StepResult(z_new, f_new, K, float(err))


@numba.njit(cache=True)
def next_size(h: float, err: float, rejected_before: bool, order: int = ORDER) -> float:
    """Standard controller: h * clip(0.9 err^(-1/(order+1))), never growing right after a rejection
    (compiled: the same function serves the Python iteration and :func:`loop_jit.run`)."""
    if err == 0.0:
        factor = MAX_FACTOR
    elif err < 1.0:
        factor = min(MAX_FACTOR, SAFETY * err ** (-1.0 / (order + 1)))
    else:
        factor = max(MIN_FACTOR, SAFETY * err ** (-1.0 / (order + 1)))
    if rejected_before and err < 1.0:
        factor = min(1.0, factor)
    return h * factor


def dense_matrix(fun: Rhs, s: float, z: np.ndarray, f: np.ndarray, res: StepResult, h: float) -> np.ndarray:
    """The (7, N) matrix F of the dense interpolant (3 more rhs evaluations)."""
    K = res.K
    for k, (a, c) in enumerate(zip(_A_EXTRA, _C_EXTRA), start=N_STAGES + 1):
        K[k] = fun(s + c * h, z + h * (a[:k] @ K[:k]))
    dz = res.z_new - z
    F = np.empty((7, z.size))
    F[0] = dz
    F[1] = h * f - dz
    F[2] = 2.0 * dz - h * (res.f_new + f)
    F[3:] = h * (_D @ K)
    return F


def dense_eval(z: np.ndarray, F: np.ndarray, x: np.ndarray | float) -> np.ndarray:
    """Evaluate the interpolant at x in [0, 1] (scalar -> (N,), array (m,) -> (m, N))."""
    x = np.asarray(x, dtype=float)
    xs = x[:, None] if x.ndim else x
    y = np.zeros((x.size, z.size)) if x.ndim else np.zeros_like(z)
    for i, Fi in enumerate(F[::-1]):
        y = y + Fi
        y = y * (xs if i % 2 == 0 else 1.0 - xs)
    return y + z


def _monomial_matrix() -> np.ndarray:
    """M (8, 8): monomial coefficients in x of the interpolant from (z, F0..F6)."""
    P = np.polynomial.polynomial
    M = np.zeros((8, 8))
    M[0, 0] = 1.0
    for m in range(7):
        poly = np.array([0.0])
        for i in range(6, -1, -1):
            if i == m:
                poly = P.polyadd(poly, [1.0])
            poly = P.polymul(poly, [0.0, 1.0] if (6 - i) % 2 == 0 else [1.0, -1.0])
        M[: poly.size, m + 1] = poly
    return M


MONOMIAL = _monomial_matrix()
_FROM_MONOMIAL = np.linalg.inv(MONOMIAL)[1:]  # monomial coefficients -> (F0..F6)

@dataclass(frozen=True, eq=False)
class LowPair:
    """An explicit Runge-Kutta pair with a free interpolant, as scipy's: tableau A, B, C, error weights E (over the
    stages and the FSAL slope), interpolant P (monomials x, x^2, ... of z + h sum_k Q_k x^(k+1), Q = P^T K) and the
    order of its error estimate (the controller's exponent -1/(order + 1)); ``stages``: its new evaluations per step
    (the FSAL slope included)."""

    name: str
    A: np.ndarray
    B: np.ndarray
    C: np.ndarray
    E: np.ndarray
    P: np.ndarray
    order: int

    @property
    def stages(self) -> int:
        return self.B.size

    @property
    def dense(self) -> np.ndarray:
        """(7, stages + 1): the stages K -> the nested-basis dense matrix F, divided by h."""
        return np.ascontiguousarray(_FROM_MONOMIAL[:, 1 : self.P.shape[1] + 1] @ self.P.T)


RK45 = LowPair("rk45", _RK45.A, _RK45.B, _RK45.C, _RK45.E, _RK45.P, _RK45.error_estimator_order)
RK23 = LowPair("rk23", _RK23.A, _RK23.B, _RK23.C, _RK23.E, _RK23.P, _RK23.error_estimator_order)


def step_low(fun: Rhs, s: float, z: np.ndarray, f: np.ndarray, h: float, rtol: float | np.ndarray, atol: np.ndarray, pair: LowPair = RK45) -> StepResult:
    """One step of size h of a low-order pair (Dormand-Prince 5(4): 6 new rhs evaluations, Bogacki-Shampine 3(2):
    3, the FSAL slope included); err = RMS(h K^T E / scale), as scipy's RK45 / RK23."""
    n_st = pair.stages
    K = np.empty((n_st + 1, z.size))
    K[0] = f
    hA = h * pair.A
    for i in range(1, n_st):
        zi = hA[i, :i] @ K[:i]
        zi += z
        K[i] = fun(s + pair.C[i] * h, zi)
    z_new = (h * pair.B) @ K[:n_st]
    z_new += z
    f_new = fun(s + h, z_new)
    K[n_st] = f_new
    scale = np.maximum(np.abs(z), np.abs(z_new))
    scale *= rtol
    scale += atol
    err = (h * pair.E) @ K
    err /= scale
    return StepResult(z_new, f_new, K, rms(err))


def dense_matrix_low(res: StepResult, h: float, pair: LowPair = RK45) -> np.ndarray:
    """The (7, N) nested-basis matrix F of the pair's interpolant z + h sum_k Q_k x^(k+1), Q = P^T K (quartic for
    the 5(4) pair, cubic for the 3(2) pair; no rhs evaluations)."""
    k = pair.P.shape[1]
    mono = np.zeros((8, res.K.shape[1]))
    mono[1 : k + 1] = h * (pair.P.T @ res.K)
    return _FROM_MONOMIAL @ mono
