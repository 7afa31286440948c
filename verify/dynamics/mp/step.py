"""The series of one step of the mp backend and its pair polynomials.

:class:`Step` holds the Taylor coefficients of the scaled moving rows: mpfr orders 0..K-1 and
float64 orders K..N, evaluated at t0 + tau as sum_{k<K} A_k tau^k (Horner, mpfr) plus the
float64 tail. Per pair (i, j) the step polynomial in x = tau / h is
phi_ij(x) = side_ij sum_k <x_i, A_k,j> h^k x^k (:meth:`Step.pair_coeffs`); a sliding pair has
the two slope-exit functions sg (g_i - y_i) and sg (y_i - alpha g_i) (:func:`slide_polys`).
:class:`Pairs` holds the float64 copies used by the screen (:mod:`screen`).
"""

from __future__ import annotations

import math

import numpy as np

from verify.dynamics.mp import num, screen
from verify.dynamics.mp.num import mpfr
from verify.dynamics.mp.series import Recurrence


def times_powers(A: np.ndarray, h: float) -> np.ndarray:
    """A[k] h^k (rows k = 0, 1, ...) in float64. A long step at high order (h ~ 1e10, k ~ 40) makes h^k overflow
    although the products are small; then h = m 2^e (frexp) and A[k] h^k = ldexp(A[k] m^k, e k), exact scaling."""
    k = np.arange(A.shape[0], dtype=float)[:, None]
    with np.errstate(all="ignore"):
        if h <= 0.0 or A.shape[0] * math.log2(h) < 1000.0:
            return A * h**k
        m, e = math.frexp(h)
        return np.ldexp(A * m**k, (e * k).astype(int))


def normalised(poly: list) -> np.ndarray:
    """Float64 coefficients of ``poly`` divided by the largest magnitude (same signs and roots): the terms c_k h^k
    are formed in mpfr, where h^k of a long step (h ~ 1e10, k ~ 30) is finite, and would overflow as floats."""
    top = max((abs(c) for c in poly), default=0)
    return np.array([float(c / top) if top else 0.0 for c in poly], dtype=float)


def finite(rec: Recurrence) -> bool:
    """No overflow in the float64 orders computed so far."""
    k = rec.k
    return bool(np.isfinite(rec.A[: k + 1]).all() and np.isfinite(rec.b[: k + 1]).all() and np.isfinite(rec.g[:k]).all())


UNDERFLOW = 1e-280  # float64 coefficient sizes below this are too small for float64 (or its step-size rule)


def underflow(a: list) -> bool:
    """The last float64 coefficient sizes a_{N-1}, a_N are below UNDERFLOW (a moving series, a_1 > 0)."""
    return bool(a[1] > 0 and min(a[-2:]) < UNDERFLOW)


def representable_order(a: list) -> int:
    """The highest order n <= N = len(a) - 1 at which the float64 series does not :func:`underflow`: a slow flow's
    sizes a_k fall geometrically (by 1e-7.5 per order on a late phase), so they leave float64's range at N while
    the orders below n still serve a step nearly as long (its length is (tol / a_n)^(1/n))."""
    n = len(a) - 1
    while n > 1 and underflow(a[: n + 1]):
        n -= 1
    return n


def row_exponents(Z: np.ndarray) -> np.ndarray:
    """Per row, the binary exponent e (x = m 2^e, 1/2 <= |m| < 1) of the largest entry; 0 for a zero row.

    From float64 where the row maximum is a normal number (rounding may raise e by one:
    harmless, the scaling stays exact), else from the mpfr entries."""
    with np.errstate(all="ignore"):
        top = np.abs(Z.astype(float)).max(axis=1, initial=0.0)
        e = np.frexp(top)[1].astype(np.int64)
        if ((top >= 1e-300) & (top < np.inf)).all():  # every row maximum a normal float64
            return e
    for r in np.flatnonzero(~np.isfinite(top) | ((top < 1e-300) & (top > 0)) | ((top == 0) & (Z != 0).any(axis=1))):
        nz = list(num.vexponent(Z[r][Z[r] != 0]))
        e[r] = max(nz) if nz else 0
    return e


class Step:
    """The series of one step: mpfr orders 0..K-1 (K_mp..K-1 from double-double) and float64 orders 0..N of the
    scaled state."""

    def __init__(self, cols: np.ndarray, e: np.ndarray, rec_m: Recurrence, rec_f: Recurrence, mixed: bool, scale: np.ndarray,
                 K_mp: int | None = None) -> None:
        self.cols, self.e, self.rec_m, self.rec_f, self.mixed, self.scale = cols, e, rec_m, rec_f, mixed, scale
        self.K = rec_m.k + 1
        self.N = rec_f.k
        self.K_mp = self.K if K_mp is None else K_mp  # orders K_mp..K-1 of rec_m came from double-double

    def evaluate(self, tau) -> tuple[np.ndarray, np.ndarray]:
        """Scaled rows A(t0 + tau) (m, d) and b (m,): mpfr orders by Horner plus the float64 tail."""
        rm, K, d = self.rec_m, self.K, self.rec_m.A.shape[2]
        Z = np.concatenate([rm.A[:K], rm.b[:K, :, None]], axis=2)  # rows (A_k, b_k): one Horner pass for both
        acc = Z[K - 1]
        for k in range(K - 2, -1, -1):
            acc = acc * tau + Z[k]
        A, b = acc[:, :d], acc[:, d]
        if K <= self.N:
            with np.errstate(under="ignore"):
                pw = float(tau) ** np.arange(K, self.N + 1, dtype=float)
            tail = self.rec_f.A[K : self.N + 1]
            A = A + np.dot(pw[None, :], tail.reshape(len(pw), -1)).reshape(A.shape)  # tensordot's product, not its overhead
            b = b + pw @ self.rec_f.b[K : self.N + 1]
        return A, b

    def pair_coeffs(self, X: np.ndarray, Pf: np.ndarray, I: np.ndarray, J: np.ndarray, sd: np.ndarray, hp: list) -> list:
        """Per pair (i, local j): side * <x_i, A_k,j> h^k, k = 0..N (mpfr below K, float64 above)."""
        K = self.K
        powers = np.array(hp[: self.N + 1], dtype=object)[:, None]
        Pm = (X[I][None, :, :] * self.rec_m.A[:K][:, J, :]).sum(axis=2)
        low = (sd.astype(np.int64).astype(object)[None, :] * Pm) * powers[:K]
        high = (sd[None, :] * Pf[K : self.N + 1, I, J]).astype(object) * powers[K:]  # float64 orders, exact into mpfr
        return np.concatenate([low, high]).T.tolist()

    def slide_coeffs(self, j: int, a: int) -> tuple[list, list]:
        """(g_i, y_i) coefficients (field orders 0..N-1) of row a of sliding neuron j."""
        gm, ym = self.rec_m.slide_series(j, a)
        gf, yf = self.rec_f.slide_series(j, a)
        k0 = len(gm)
        return gm + [mpfr(float(x)) for x in gf[k0:]], ym + [mpfr(float(x)) for x in yf[k0:]]


def slide_polys(st: Step, hp: list, exact: bool, alpha, surf) -> list:
    """Slope-exit functions of the sliding pairs of step ``st``: [(i, j, poly)], poly = sg (g - y) h^k and
    sg (y - alpha g) h^k (mpfr with ``exact``, else float64), each raised by the slack surf |g_0|."""
    out = []
    rf = st.rec_f
    for jl, (rows, *_rest) in rf.slide.items():
        for a, i in enumerate(rows):
            gser, yser = st.slide_coeffs(jl, a) if exact else rf.slide_series(jl, a)
            sg = 1 if gser[0] > 0 else -1
            al = alpha if exact else float(alpha)
            slack = (surf if exact else float(surf)) * abs(gser[0])
            for poly in ([sg * (gk - yk) * hp[k] for k, (gk, yk) in enumerate(zip(gser, yser))],
                         [sg * (yk - al * gk) * hp[k] for k, (gk, yk) in enumerate(zip(gser, yser))]):
                poly[0] += slack
                out.append((int(i), int(st.cols[jl]), poly))
    return out


class Pairs:
    """Float64 preactivation polynomials of one step: Pf (N+1, n, m); pairs I, J (local), sides sd;
    Q = sd P_IJ and the coefficient bounds C = ||x_i|| ||A_k,j||, deflated for on-surface pairs."""

    def __init__(self, Pf: np.ndarray, I: np.ndarray, J: np.ndarray, sd: np.ndarray, Q: np.ndarray, C: np.ndarray) -> None:
        self.Pf, self.I, self.J, self.sd, self.Q, self.C = Pf, I, J, sd, Q, C

    def screen(self, h: float, among: np.ndarray) -> np.ndarray:
        """The pairs of ``among`` that may cross on [0, h]."""
        return among[screen.may_cross(times_powers(self.Q[:, among], h), times_powers(self.C[:, among], h))]

    def first_root(self, h: float, among: np.ndarray) -> float:
        """Float64 estimate of the first root of the pairs ``among`` on [0, h] (in units of h; 1 if none seen)."""
        return screen.first_negative(times_powers(self.Q[:, among], h))
