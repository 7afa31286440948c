"""The mp backend's middle series orders in double-double arithmetic (compiled, ~32 digits).

A double-double number is an unevaluated sum hi + lo of two float64 with |lo| <= ulp(hi) / 2:
106 bits, unit roundoff u = 2^-106 ~ 1.2e-32 per operation (Dekker 1971; Hida, Li and Bailey
2001: ``two_sum``, ``two_prod`` by Dekker's splitting, the accurate sum). The recurrence of
:class:`series.Recurrence` runs on such numbers for the orders between the few that carry the
solution (mpfr) and the many that float64 resolves: on a step of length h it replaces mpfr orders
K_dd <= k < K when rho_dd sum_{k >= K_dd} a_k h^k <= tol (:mod:`planning`), rho_dd bounding the
relative error of its coefficients (measured against mpfr on the orders computed both ways).

:class:`DoubleDouble` is seeded with the mpfr recurrence's order 0 (the transcendental values
exp, 1/(1 + e), hypot enter only there) and computes orders 1, 2, ... itself; :meth:`fill`
writes its state orders into the mpfr recurrence as mpfr numbers (hi + lo, rounded to the context
precision), which ends there. Arrays carry a trailing axis (hi, lo). Sliding neurons stay on mpfr.
"""

from __future__ import annotations

import gmpy2
import numba
import numpy as np

from verify.dynamics.mp import series_jit
from verify.dynamics.mp.series import Dense, Recurrence

SPLIT = 134217729.0  # 2^27 + 1 (Dekker's splitting of a float64 into two 26-bit halves)
STATE = ("A", "b")
FIELD = ("G", "g", "f", "aux", "ex", "q", "cc", "ka", "E", "kb", "rho")  # the recurrence's working series
MAX_ABS = 1e290  # beyond this Dekker's splitting overflows: the orders stay in mpfr
MIN_ABS = 1e-280  # below this lo is subnormal (precision lost): the orders stay in mpfr


@numba.njit(cache=True)
def two_sum(a: float, b: float) -> tuple[float, float]:
    """s + e = a + b exactly, s = fl(a + b)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@numba.njit(cache=True)
def quick_two_sum(a: float, b: float) -> tuple[float, float]:
    """s + e = a + b exactly for |a| >= |b|."""
    s = a + b
    return s, b - (s - a)


@numba.njit(cache=True)
def two_prod(a: float, b: float) -> tuple[float, float]:
    """p + e = a b exactly (Dekker: no fused multiply-add needed)."""
    p = a * b
    t = SPLIT * a
    ah = t - (t - a)
    al = a - ah
    t = SPLIT * b
    bh = t - (t - b)
    bl = b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


@numba.njit(cache=True)
def add(ah: float, al: float, bh: float, bl: float) -> tuple[float, float]:
    """(ah + al) + (bh + bl), accurate also under cancellation."""
    s1, s2 = two_sum(ah, bh)
    t1, t2 = two_sum(al, bl)
    s2 += t1
    s1, s2 = quick_two_sum(s1, s2)
    s2 += t2
    return quick_two_sum(s1, s2)


@numba.njit(cache=True)
def mul(ah: float, al: float, bh: float, bl: float) -> tuple[float, float]:
    """(ah + al) (bh + bl)."""
    p1, p2 = two_prod(ah, bh)
    p2 += ah * bl + al * bh
    return quick_two_sum(p1, p2)


@numba.njit(cache=True)
def scale(ah: float, al: float, b: float) -> tuple[float, float]:
    """(ah + al) b for a float64 b."""
    p1, p2 = two_prod(ah, b)
    p2 += al * b
    return quick_two_sum(p1, p2)


@numba.njit(cache=True)
def div(ah: float, al: float, b: float) -> tuple[float, float]:
    """(ah + al) / b for a float64 b (an order's integer divisor)."""
    q1 = ah / b
    p1, p2 = two_prod(q1, b)
    s, e = two_sum(ah, -p1)
    e -= p2
    e += al
    return quick_two_sum(q1, (s + e) / b)


@numba.njit(cache=True)
def _loss_order(k: int, family: int, scl: float, y: np.ndarray, f: np.ndarray, g: np.ndarray, aux: np.ndarray,
                ex: np.ndarray, q: np.ndarray, cc: np.ndarray, inv0: np.ndarray, ka: np.ndarray) -> None:
    """g_k (k >= 1) from f_0..f_k: the loss orders of ``series_jit._loss_order`` in double-double."""
    for i in range(y.shape[0]):
        yi = y[i]
        if family == 2:
            g[k, i, 0], g[k, i, 1] = -f[k, i, 0], -f[k, i, 1]
            continue
        if family == 3:
            h, l = scale(f[k, i, 0], f[k, i, 1], yi)
            aux[k, i, 0], aux[k, i, 1] = mul(h, l, inv0[i, 0], inv0[i, 1])
            ka[k, i, 0], ka[k, i, 1] = scale(aux[k, i, 0], aux[k, i, 1], float(k))
            sh, sl = 0.0, 0.0
            for m in range(k + 1):
                h, l = mul(aux[m, i, 0], aux[m, i, 1], aux[k - m, i, 0], aux[k - m, i, 1])
                sh, sl = add(sh, sl, h, l)
            cc[k, i, 0], cc[k, i, 1] = sh, sl
            sh, sl = 0.0, 0.0
            for m in range(1, k + 1):
                h, l = scale(cc[m, i, 0], cc[m, i, 1], float(m + 2 * k))
                h, l = mul(h, l, ex[k - m, i, 0], ex[k - m, i, 1])
                sh, sl = add(sh, sl, h, l)
            ex[k, i, 0], ex[k, i, 1] = div(-sh, -sl, float(2 * k))
            sh, sl = 0.0, 0.0
            for m in range(1, k + 1):
                h, l = mul(ka[m, i, 0], ka[m, i, 1], ex[k - m, i, 0], ex[k - m, i, 1])
                sh, sl = add(sh, sl, h, l)
            ph, pl = mul(inv0[i, 0], inv0[i, 1], inv0[i, 0], inv0[i, 1])
            h, l = mul(-ph, -pl, sh, sl)
            q[k, i, 0], q[k, i, 1] = div(h, l, float(k))
            g[k, i, 0], g[k, i, 1] = scale(q[k, i, 0], q[k, i, 1], yi)
            continue
        aux[k, i, 0], aux[k, i, 1] = scale(f[k, i, 0], f[k, i, 1], -yi if family == 0 else yi)
        ka[k, i, 0], ka[k, i, 1] = scale(aux[k, i, 0], aux[k, i, 1], float(k))
        sh, sl = 0.0, 0.0
        for m in range(1, k + 1):
            h, l = mul(ka[m, i, 0], ka[m, i, 1], ex[k - m, i, 0], ex[k - m, i, 1])
            sh, sl = add(sh, sl, h, l)
        ex[k, i, 0], ex[k, i, 1] = div(sh, sl, float(k))
        if family == 0:
            g[k, i, 0], g[k, i, 1] = scale(ex[k, i, 0], ex[k, i, 1], yi)
            continue
        sh, sl = 0.0, 0.0
        for m in range(1, k + 1):
            h, l = mul(ex[m, i, 0], ex[m, i, 1], q[k - m, i, 0], q[k - m, i, 1])
            sh, sl = add(sh, sl, h, l)
        q[k, i, 0], q[k, i, 1] = mul(-inv0[i, 0], -inv0[i, 1], sh, sl)
        g[k, i, 0], g[k, i, 1] = scale(q[k, i, 0], q[k, i, 1], scl * yi)


@numba.njit(cache=True)
def _slopes_times(M: np.ndarray, Q: np.ndarray, out: np.ndarray, transposed: bool) -> None:
    """out = M Q (``transposed``: M^T Q) for float64 slopes M and double-double Q, each sum in index order, the
    zero slopes skipped."""
    rows, inner = (M.shape[1], M.shape[0]) if transposed else (M.shape[0], M.shape[1])
    for r in range(rows):
        for c in range(Q.shape[1]):
            sh, sl = 0.0, 0.0
            for i in range(inner):
                w = M[i, r] if transposed else M[r, i]
                if w != 0.0:
                    h, lo = scale(Q[i, c, 0], Q[i, c, 1], w)
                    sh, sl = add(sh, sl, h, lo)
            out[r, c, 0], out[r, c, 1] = sh, sl


@numba.njit(cache=True)
def extend(k0: int, k1: int, polar: bool, family: int, scl: float, train_v: bool, X: np.ndarray, y: np.ndarray,
           M: np.ndarray, weight: np.ndarray, s: np.ndarray, A: np.ndarray, b: np.ndarray, G: np.ndarray, g: np.ndarray,
           f: np.ndarray, aux: np.ndarray, ex: np.ndarray, q: np.ndarray, cc: np.ndarray, inv0: np.ndarray,
           ka: np.ndarray, E: np.ndarray, kb: np.ndarray, rho: np.ndarray) -> None:
    """Field orders k0..k1-1 (k0 >= 1: order 0 is the seed), i.e. state orders k0+1..k1, in place: the recurrence of
    ``series_jit.extend`` on (hi, lo) pairs (trailing axis of every array)."""
    n, d = X.shape
    m = A.shape[1]
    P = np.zeros((m, d, 2))
    R = np.zeros((n, d, 2))
    Y = np.zeros((n, d, 2))
    for k in range(k0, k1):
        for j in range(m):
            if polar:
                kb[k, j, 0], kb[k, j, 1] = scale(b[k, j, 0], b[k, j, 1], float(k))
                sh, sl = 0.0, 0.0
                for l in range(1, k + 1):
                    h, lo = mul(kb[l, j, 0], kb[l, j, 1], E[k - l, j, 0], E[k - l, j, 1])
                    sh, sl = add(sh, sl, h, lo)
                E[k, j, 0], E[k, j, 1] = div(2.0 * sh, 2.0 * sl, float(k))
            for c in range(d):
                sh, sl = 0.0, 0.0
                for l in range(k + 1):
                    if polar:
                        h, lo = mul(E[l, j, 0], E[l, j, 1], A[k - l, j, c, 0], A[k - l, j, c, 1])
                    else:
                        h, lo = mul(A[l, j, c, 0], A[l, j, c, 1], b[k - l, j, 0], b[k - l, j, 1])
                    sh, sl = add(sh, sl, h, lo)
                P[j, c, 0], P[j, c, 1] = scale(sh, sl, weight[j])
        _slopes_times(M, P, R, False)
        for i in range(n):
            fh, fl = 0.0, 0.0
            for c in range(d):
                h, lo = scale(R[i, c, 0], R[i, c, 1], X[i, c])
                fh, fl = add(fh, fl, h, lo)
            f[k, i, 0], f[k, i, 1] = fh, fl
        _loss_order(k, family, scl, y, f, g, aux, ex, q, cc, inv0, ka)
        for i in range(n):
            for c in range(d):
                Y[i, c, 0], Y[i, c, 1] = scale(g[k, i, 0], g[k, i, 1], X[i, c])
        _slopes_times(M, Y, G[k], True)
        for j in range(m):
            if polar:
                sh, sl = 0.0, 0.0
                for l in range(k + 1):
                    for c in range(d):
                        h, lo = mul(A[l, j, c, 0], A[l, j, c, 1], G[k - l, j, c, 0], G[k - l, j, c, 1])
                        sh, sl = add(sh, sl, h, lo)
                rho[k, j, 0], rho[k, j, 1] = sh, sl
                for c in range(d):
                    sh, sl = 0.0, 0.0
                    for l in range(k + 1):
                        h, lo = mul(rho[l, j, 0], rho[l, j, 1], A[k - l, j, c, 0], A[k - l, j, c, 1])
                        sh, sl = add(sh, sl, h, lo)
                    h, lo = add(G[k, j, c, 0], G[k, j, c, 1], -sh, -sl)
                    h, lo = scale(h, lo, s[j])
                    A[k + 1, j, c, 0], A[k + 1, j, c, 1] = div(h, lo, float(k + 1))
                h, lo = scale(rho[k, j, 0], rho[k, j, 1], s[j])
                b[k + 1, j, 0], b[k + 1, j, 1] = div(h, lo, float(k + 1))
            else:
                for c in range(d):
                    sh, sl = 0.0, 0.0
                    for l in range(k + 1):
                        h, lo = mul(b[l, j, 0], b[l, j, 1], G[k - l, j, c, 0], G[k - l, j, c, 1])
                        sh, sl = add(sh, sl, h, lo)
                    A[k + 1, j, c, 0], A[k + 1, j, c, 1] = div(sh, sl, float(k + 1))
                sh, sl = 0.0, 0.0
                if train_v:
                    for l in range(k + 1):
                        for c in range(d):
                            h, lo = mul(A[l, j, c, 0], A[l, j, c, 1], G[k - l, j, c, 0], G[k - l, j, c, 1])
                            sh, sl = add(sh, sl, h, lo)
                b[k + 1, j, 0], b[k + 1, j, 1] = div(sh, sl, float(k + 1))


def double_double(rec: Recurrence, rec_f: Recurrence) -> "DoubleDouble | None":
    """The double-double orders of the mpfr recurrence ``rec`` (seeded, ``rec.k >= 1``) whose float64 twin ``rec_f``
    runs compiled, or None: sliding neurons, or inputs (weights sigma_j^2) beyond float64's range."""
    if rec.slide or not rec_f.compiled:
        return None
    dd = DoubleDouble(rec, rec_f.prod)
    return dd if all(np.all(np.isfinite(x)) for x in dd.inputs) else None


_pair_to_mpfr = np.frompyfunc(gmpy2.add, 2, 1)  # floats enter gmpy2's arithmetic exactly


def to_mpfr(pairs: np.ndarray) -> np.ndarray:
    """(..., 2) double-double -> object array of mpfr hi + lo (rounded to the context precision)."""
    out = np.empty(pairs.shape[:-1], dtype=object)
    out[...] = _pair_to_mpfr(pairs[..., 0], pairs[..., 1])
    return out


_rest = np.frompyfunc(gmpy2.sub, 2, 1)


def _split(a: np.ndarray) -> np.ndarray:
    """mpfr object array -> (..., 2) float64: hi = the nearest float64, lo = the nearest float64 to the rest. A value
    beyond float64's range gives inf or nan, which :meth:`DoubleDouble.usable` refuses (the orders stay in mpfr)."""
    out = np.empty(a.shape + (2,))
    with np.errstate(over="ignore", invalid="ignore"):
        out[..., 0] = a.astype(float)
        out[..., 1] = _rest(a, out[..., 0]).astype(float)
    return out


class DoubleDouble:
    """Double-double orders of an mpfr :class:`Recurrence` ``rec`` without sliding neurons, seeded with its order 0
    (``rec.k >= 1``); ``M`` the float64 slopes (:class:`series.Dense`)."""

    def __init__(self, rec: Recurrence, M: Dense) -> None:
        assert rec.k >= 1 and not rec.slide
        self.rec, self.M = rec, np.array(M.M, dtype=np.float64, order="C")
        m = rec.A.shape[1]
        self.arrays: dict[str, np.ndarray] = {}
        seeds = []  # (target, seeded mpfr orders), split in one call
        for name in STATE + FIELD:
            src = getattr(rec, name)
            if src is None:
                self.arrays[name] = np.zeros((0, m, 2))
                continue
            out = np.zeros(src.shape + (2,))
            seeded = 2 if name in STATE else 1
            seeds.append((out[:seeded], src[:seeded]))
            self.arrays[name] = out
        self.inv0 = np.zeros(rec.inv0.shape + (2,)) if rec.inv0 is not None else np.zeros((0, 2))
        if rec.inv0 is not None:
            seeds.append((self.inv0, rec.inv0))
        parts = _split(np.concatenate([src.ravel() for _, src in seeds]))
        start = 0
        for target, src in seeds:
            target[...] = parts[start : start + src.size].reshape(target.shape)
            start += src.size
        flat = (lambda a: np.array(a, dtype=np.float64, order="C"))
        self.inputs = (flat(rec.X.astype(float)), flat(rec.y.astype(float)), self.M, flat(rec.weight.astype(float)),
                       np.zeros(0) if rec.s is None else flat(rec.s.astype(float)))
        self.k = 1

    def extend(self, order: int) -> None:
        """State orders up to ``order`` (<= the recurrence's cap)."""
        order = min(order, self.rec.cap)
        if order <= self.k:
            return
        ar = self.arrays
        rec = self.rec
        X, y, M, weight, s = self.inputs
        extend(self.k, order, rec.form == "polar", series_jit.FAMILY_CODES[rec.family], float(rec.scale), bool(rec.train_v),
               X, y, M, weight, s, ar["A"], ar["b"], ar["G"], ar["g"], ar["f"], ar["aux"], ar["ex"], ar["q"], ar["cc"],
               self.inv0, ar["ka"], ar["E"], ar["kb"], ar["rho"])
        self.k = order

    def usable(self, k0: int, k1: int) -> bool:
        """State orders k0..k1 are finite and in the range where double-double keeps its precision."""
        for name in STATE:
            hi = np.abs(self.arrays[name][k0 : k1 + 1, ..., 0])
            if not ((hi <= MAX_ABS) & ((hi >= MIN_ABS) | (hi == 0.0))).all():  # false for nan too
                return False
        return True

    def state(self, name: str, k: int | list) -> np.ndarray:
        """State order k (or the orders of a list, stacked) of ``name`` ("A" or "b") as mpfr: hi + lo rounded to the
        context precision."""
        return to_mpfr(self.arrays[name][k])

    def fill(self, order: int) -> None:
        """Extend the mpfr recurrence's state orders to ``order`` with these; the recurrence ends there (its cap:
        its field orders behind them are not written, so it is not extended further)."""
        rec = self.rec
        self.extend(order)
        if order > rec.k:
            for name in STATE:
                getattr(rec, name)[rec.k + 1 : order + 1] = to_mpfr(self.arrays[name][rec.k + 1 : order + 1])
            rec.k = order
        rec.cap = rec.k
