"""Taylor coefficients of the GF solution in a fixed mode, vectorised over neurons and data.

The same recurrence runs on two number types: numpy object arrays of gmpy2 mpfr (the
context precision, :mod:`num`) and float64 arrays. The solver uses the mpfr recurrence for the
low orders, which carry the solution, and the float64 one for the high orders, whose terms
are below tol / 1e13 on the step taken (:mod:`solve`). Coefficient k of every quantity is
built from coefficients 0..k of the state (Moore; Jorba and Zou 2005); the field's coefficient
k gives the state's coefficient k + 1 = F_k / (k + 1).

Moving neurons only (m of them; the others are constant), state rows A (m, d) and b (m,);
M (n, m) the slopes of the pairs off their surfaces (1 active, alpha inactive, 0 sliding):

Cartesian, A = W~, b = v~ (each neuron scaled by a power of two sigma_j, exact):
    f_i  = sum_j M_ij omega_j <x_i, (A b)_j>    omega_j = sigma_j^2
    A'   = b G,   b' = <A, G>                  G_j = sum_i M_ij g_i x_i (+ sliding rows)
Polar, A = U, b = r (unscaled):
    E    = exp(2 b),  f_i = sum_j M_ij omega_j <x_i, (E A)_j>     omega_j = s_j
    rho  = <A, G>,  b' = s rho,  A' = s (G - rho A)
The products M Q and M^T Y are float64 matrix products, or in mpfr sums over the index sets
{M = 1} and {M = alpha} (numpy ``add.reduceat``): additions only, 3-4x cheaper than an object
matrix product.
Loss g_i = -l'(y_i, f_i), by the loss's declared ``Loss.family`` (:class:`~verify.model.losses.Family`):
    EXP:       a = -y f, e = exp(a), g = y e        (e_k = (1/k) sum_{m=1}^k m a_m e_{k-m})
    LOGISTIC:  a = y f, q = 1/(1 + exp(a)), g = c y q  (c = ``Loss.scale``: 1 logistic, 2 logistic2), through the
               shifted e = exp(a - c0), c0 = max(a_0, 0) (e_0 <= 1: nothing overflows at large margins, where
               exp(a_0) leaves float64's range from a_0 > 709 and its orders were nan): with lam = exp(-c0) and
               inv0 = 1/(lam + e_0), q_0 = lam inv0 and q_k = -inv0 sum_{m=1}^k e_m q_{k-m} (for a_0 <= 0, c0 = 0:
               the unshifted recurrence, operation for operation)
    SQUARE:    g = y - f
    POLY:      z = y f, q = 1 - z / sqrt(1 + z^2), g = y q. With s0 = sqrt(1 + z_0^2) (hypot),
               zeta = z / s0, c~ = (1 + z^2) / s0^2 (c~_0 = 1, c~_k = sum_{j=0}^k zeta_j zeta_{k-j}),
               u~ = c~^(-3/2) (u~_0 = 1, u~_k = (1/k) sum_{j=1}^k (-j/2 - k) c~_j u~_{k-j}), and
               dq/dz = -(1 + z^2)^(-3/2), i.e. q' = -s0^-2 zeta' u~:
               q_0 = (1/s0)^2 / (1 + |z_0|/s0) (z_0 >= 0) or 1 + |z_0|/s0 (z_0 < 0),
               q_k = -(s0^-2 / k) sum_{j=1}^k j zeta_j u~_{k-j}.
               No coefficient is formed as 1 - z/s (which cancels for large z, q ~ 1/(2 z^2)), and
               nothing of size z^2 appears (float64 coefficients do not overflow for |z| > 1e154).
Filippov sliding neuron j (rows R on their surfaces): the products y_R = c_R g_R solve
K_RR y_R = -sum_{l not in R} SG_lj K_lR, linear in g, so y_k = Kinv_RR b_k order by order.

A float64 recurrence without sliding neurons runs compiled (:mod:`series_jit`, the same
operations; this numpy recurrence is its oracle in the tests); mpfr and sliding run here.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

import gmpy2
import numpy as np

from verify.dynamics.mp import num, series_jit
from verify.errors import InputError
from verify.model.losses import LOSSES, Family, Loss, get_loss

_vhypot = np.frompyfunc(gmpy2.hypot, 2, 1)


class Arith:
    """The number type of one recurrence: vectorised exp and hypot, scalar constructor, dtype."""

    def __init__(self, exp: Callable, scalar: Callable, dtype: Any, hypot: Callable) -> None:
        self.exp, self.scalar, self.dtype, self.hypot = exp, scalar, dtype, hypot
        self.zero = scalar(0)

    def empty(self, shape: tuple) -> np.ndarray:
        """Zeros of this number type."""
        out = np.empty(shape, dtype=self.dtype)
        out.fill(self.zero)
        return out


F64 = Arith(np.exp, float, np.float64, np.hypot)


def mp_arith() -> Arith:
    """mpfr arithmetic at the current gmpy2 context precision."""
    return Arith(num.vexp, num.mpfr, object, _vhypot)


def mp_loss(loss: Loss | str) -> Loss:
    """The built-in Loss (a name is looked up) whose declared ``family`` / ``scale`` the mp backend
    reads; InputError for a user-defined loss, which has no mpfr formula."""
    spec = get_loss(loss)
    if spec.family is None or LOSSES.get(spec.name) is not spec:
        raise InputError(f"the mp backend has mpfr formulas for the built-in losses only ({', '.join(LOSSES)}); "
                         f"loss {spec.name!r} is user-defined (use a float64 backend)")
    return spec


def _poly_start(ar: Arith, z0: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(1/s0, q_0) for the poly loss at margins z0: s0 = hypot(1, |z0|), q_0 = 1 - z0/s0 without
    cancellation ((1/s0)^2 / (1 + |z0|/s0) for z0 >= 0, 1 + |z0|/s0 for z0 < 0)."""
    a = np.abs(z0)
    inv = 1 / ar.hypot(ar.scalar(1), a)
    r = a * inv
    if ar.dtype is object:
        r = np.array([ar.scalar(1) if not gmpy2.is_finite(x) else x for x in r], dtype=object).reshape(r.shape)
        pos = np.array([x >= 0 for x in z0.ravel()], dtype=bool).reshape(z0.shape)
    else:
        r = np.where(np.isinf(a), 1.0, r)
        pos = z0 >= 0
    return inv, np.where(pos, inv * inv / (1 + r), 1 + r)


def poly_weight(z: np.ndarray) -> np.ndarray:
    """q = 1 - z / sqrt(1 + z^2) elementwise on an object array of mpfr (stable form)."""
    z = np.asarray(z, dtype=object)
    return _poly_start(mp_arith(), z)[1]


class Dense:
    """M Q and M^T Y as matrix products (float64)."""

    def __init__(self, M: np.ndarray) -> None:
        self.M = M

    def left(self, Q: np.ndarray) -> np.ndarray:
        return self.M @ Q

    def right(self, Y: np.ndarray) -> np.ndarray:
        return self.M.T @ Y


class Grouped:
    """M Q and M^T Y for M = 1 on ``ones``, alpha on ``alphas``, 0 elsewhere (mpfr: sums over index sets)."""

    def __init__(self, ones: np.ndarray, alphas: np.ndarray, alpha, zero) -> None:
        self.n, self.m = ones.shape
        self.zero = zero
        self.groups = [(None, ones)] + ([(alpha, alphas)] if alpha != 0 and alphas.any() else [])
        self.rows = [self._index(mask) for _, mask in self.groups]
        self.cols = [self._index(mask.T) for _, mask in self.groups]

    @staticmethod
    def _index(mask: np.ndarray) -> tuple:
        """(flat column indices row by row, start of each nonempty row, the nonempty rows)."""
        counts = mask.sum(axis=1)
        live = np.flatnonzero(counts)
        starts = np.concatenate([[0], np.cumsum(counts[live])[:-1]]).astype(np.int64)
        return np.nonzero(mask)[1], starts, live

    def _apply(self, index: list, Q: np.ndarray, rows: int) -> np.ndarray:
        out = np.empty((rows,) + Q.shape[1:], dtype=object)
        out.fill(self.zero)
        for (val, _mask), (idx, starts, live) in zip(self.groups, index):
            if len(idx):
                part = np.add.reduceat(Q[idx], starts, axis=0)
                out[live] += part if val is None else val * part
        return out

    def left(self, Q: np.ndarray) -> np.ndarray:
        return self._apply(self.rows, Q, self.n)

    def right(self, Y: np.ndarray) -> np.ndarray:
        return self._apply(self.cols, Y, self.m)


class Recurrence:
    """Coefficients 0..order of the state (A, b) through (A0, b0) in a fixed mode.

    ``X`` (n, d), ``y`` (n,), ``weight`` (m,) omega_j, ``prod`` (:class:`Dense` or
    :class:`Grouped`) the products with M, all in the recurrence's number type; ``s`` (m,)
    signs (polar); ``slide``: {local neuron: (rows, Kinv, K[:, rows], M[:, j])};
    ``cap``: the highest state order that may be asked for. :meth:`extend` adds orders.
    """

    def __init__(self, ar: Arith, form: str, loss: Loss | str, X: np.ndarray, y: np.ndarray, A0: np.ndarray, b0: np.ndarray,
                 weight: np.ndarray, prod: Dense | Grouped, s: np.ndarray | None, slide: dict, train_v: bool, cap: int) -> None:
        self.loss = mp_loss(loss)
        self.family, self.scale = self.loss.family, self.loss.scale
        self.ar, self.form = ar, form
        self.X, self.y, self.weight, self.prod, self.s, self.slide, self.train_v = X, y, weight, prod, s, slide, train_v
        m, d = A0.shape
        n = X.shape[0]
        self.A = ar.empty((cap + 1, m, d))
        self.b = ar.empty((cap + 1, m))
        self.A[0], self.b[0] = A0, b0
        self.G = ar.empty((cap, m, d))
        self.g = ar.empty((cap, n))
        self.f = ar.empty((cap, n))
        self.aux = ar.empty((cap, n))  # exponent series a of the loss
        self.ex = ar.empty((cap, n))  # exp(a)
        self.q = ar.empty((cap, n))  # 1/(1 + exp(a)); poly: 1 - z/sqrt(1 + z^2)
        self.cc = ar.empty((cap, n)) if self.family is Family.POLY else None  # poly: (1 + z^2) / s0^2
        self.inv0 = None  # set at order 0: poly 1 / s0 = 1 / sqrt(1 + z_0^2); logistic 1 / (lam + e_0)
        self.ka = ar.empty((cap, n))  # k a_k (poly: k zeta_k), kept for the sums of later orders
        self.E = ar.empty((cap, m)) if form == "polar" else None
        self.kb = ar.empty((cap, m)) if form == "polar" else None  # k b_k (polar)
        self.rho = ar.empty((cap, m)) if form == "polar" else None
        self.neg_y = -y
        self.ys = {j: [] for j in slide}
        self.k = 0  # state orders 0..k are known
        self.cap = cap
        self.ks = np.arange(cap + 1)
        self.compiled = ar is F64 and not slide and isinstance(prod, Dense)

    def extend(self, order: int) -> None:
        """Compute state coefficients up to ``order`` (<= cap)."""
        target = min(order, self.cap)
        if self.compiled and self.k < target:
            self._extend_compiled(target)
        while self.k < target:
            self._field_order(self.k)
            self.k += 1

    def _extend_compiled(self, target: int) -> None:
        """Field orders k..target-1 by :func:`series_jit.extend` (float64, no sliding neuron)."""
        n, m = self.X.shape[0], self.A.shape[1]
        if self.inv0 is None:
            self.inv0 = np.empty(n)
        none = np.empty((0, m))
        flat = (lambda a: np.array(a, dtype=np.float64, order="C"))  # writable C copies: one compiled signature
        series_jit.extend(int(self.k), int(target), self.form == "polar", series_jit.FAMILY_CODES[self.family],
                          float(self.scale), bool(self.train_v), flat(self.X), flat(self.y), flat(self.prod.M),
                          flat(self.weight), np.empty(0) if self.s is None else flat(self.s),
                          self.A, self.b, self.G, self.g, self.f, self.aux, self.ex, self.q,
                          none if self.cc is None else self.cc, self.inv0, self.ka, none if self.E is None else self.E,
                          none if self.kb is None else self.kb, none if self.rho is None else self.rho,
                          np.full(m, -1, dtype=np.int64), none)
        self.k = target

    # one field order ------------------------------------------------------------------------------
    def _field_order(self, k: int) -> None:
        A, b = self.A, self.b
        if self.form == "cartesian":
            P = (A[: k + 1] * b[k::-1, :, None]).sum(0)
        else:
            E = self.E
            if k == 0:
                E[0] = self.ar.exp(2 * b[0])
            else:
                self.kb[k] = k * b[k]
                E[k] = (self.kb[1 : k + 1] * E[k - 1 :: -1]).sum(0) * 2 / k
            P = (E[: k + 1, :, None] * A[k::-1]).sum(0)
        self.f[k] = (self.X * self.prod.left(P * self.weight[:, None])).sum(1)
        self._loss_order(k)
        gk = self.g[k]
        G = self.G
        G[k] = self.prod.right(gk[:, None] * self.X)
        for j, (rows, Kinv, KR, col) in self.slide.items():
            yk = Kinv @ -((col * gk) @ KR)
            G[k][j] = G[k][j] + (yk[:, None] * self.X[rows]).sum(0)
            self.ys[j].append(yk)
        if self.form == "cartesian":
            Adot = (b[: k + 1, :, None] * G[k::-1]).sum(0)
            bdot = (A[: k + 1] * G[k::-1]).sum((0, 2)) if self.train_v else b[0] * 0
        else:
            rho = self.rho
            rho[k] = (A[: k + 1] * G[k::-1]).sum((0, 2))
            Adot = self.s[:, None] * (G[k] - (rho[: k + 1, :, None] * A[k::-1]).sum(0))
            bdot = self.s * rho[k]
        A[k + 1] = Adot / (k + 1)
        b[k + 1] = bdot / (k + 1)

    def _loss_order(self, k: int) -> None:
        y, f = self.y, self.f
        family = self.family
        if family is Family.SQUARE:
            self.g[k] = (y - f[0]) if k == 0 else -f[k]
            return
        if family is Family.POLY:
            self._poly_order(k)
            return
        a, ex = self.aux, self.ex
        a[k] = self.neg_y * f[k] if family is Family.EXP else y * f[k]
        if k == 0:
            shift = np.where(a[0] > 0, a[0], self.ar.zero) if family is Family.LOGISTIC else None
            ex[0] = self.ar.exp(a[0] if shift is None else a[0] - shift)
        else:
            self.ka[k] = k * a[k]
            ex[k] = (self.ka[1 : k + 1] * ex[k - 1 :: -1]).sum(0) / k
        if family is Family.EXP:
            self.g[k] = y * ex[k]
            return
        q = self.q
        if k == 0:
            lam = self.ar.exp(-shift)
            self.inv0 = 1 / (lam + ex[0])
            q[0] = lam * self.inv0
        else:
            q[k] = -self.inv0 * (ex[1 : k + 1] * q[k - 1 :: -1]).sum(0)
        self.g[k] = (y if self.scale == 1 else self.scale * y) * q[k]

    def _poly_order(self, k: int) -> None:
        """Order k of g for the poly loss (module docstring): aux = zeta = z/s0, cc = c~, ex = u~, q."""
        y = self.y
        zeta, cc, u, q = self.aux, self.cc, self.ex, self.q
        if k == 0:
            z0 = y * self.f[0]
            self.inv0, q[0] = _poly_start(self.ar, z0)
            zeta[0] = z0 * self.inv0
            cc[0] = self.ar.empty(z0.shape) + 1
            u[0] = self.ar.empty(z0.shape) + 1
        else:
            zeta[k] = y * self.f[k] * self.inv0
            self.ka[k] = k * zeta[k]
            cc[k] = (zeta[: k + 1] * zeta[k::-1]).sum(0)
            js = self.ks[1 : k + 1, None]
            u[k] = -((js + 2 * k) * cc[1 : k + 1] * u[k - 1 :: -1]).sum(0) / (2 * k)  # integer weights: exact in mpfr
            q[k] = -(self.inv0 * self.inv0) * (self.ka[1 : k + 1] * u[k - 1 :: -1]).sum(0) / k
        self.g[k] = y * q[k]

    def truncated(self, order: int) -> "Recurrence":
        """A view of the orders 0..``order`` (<= k) computed so far (shares the arrays; not to be extended)."""
        out = copy.copy(self)
        out.k = min(order, self.k)
        out.cap = out.k
        return out

    def floats(self) -> "Recurrence":
        """A float64 copy of the coefficients computed so far (for screening and step control)."""
        out = copy.copy(self)
        out.ar = F64
        for name in ("A", "b", "G", "g", "f", "aux", "ex", "q", "cc", "inv0", "E", "rho", "ka", "kb", "neg_y"):
            arr = getattr(self, name)
            if arr is not None:
                setattr(out, name, arr.astype(float))
        out.ys = {j: [yk.astype(float) for yk in ys] for j, ys in self.ys.items()}
        return out

    # views ------------------------------------------------------------------------------------------
    def slide_series(self, j: int, a: int) -> tuple[list, list]:
        """(g_i, y_i) coefficient lists (field orders 0..k-1) of row a of sliding neuron j."""
        i = self.slide[j][0][a]
        return [self.g[k][i] for k in range(self.k)], [yk[a] for yk in self.ys[j][: self.k]]
