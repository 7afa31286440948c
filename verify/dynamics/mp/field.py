"""The data, the mode and the loss of the GF field in high precision (gmpy2 mpfr).

A mode is the frozen switching state: slopes S (n x h), sides (+1 active, -1 inactive, 0 on
the surface, Filippov sliding), pairs put on their surface at the last event, dead neurons
and the sliding rows per neuron. Inside a mode the field is analytic and its Taylor series
come from :mod:`series` (vectorised over neurons and data); :meth:`MpField.series_cartesian`
and :meth:`MpField.series_polar` give them per state component.

Filippov sliding neuron j with rows R (<x_i, w_j> = 0 for i in R): the slopes c_R keep
<x_i, G_j> = 0, i.e. K_RR y_R = -sum_{l not in R} S_lj g_l K_lR for y = c g, solved with one
fixed inverse of K_RR (:meth:`MpField.slide_setup`).
Numbers are gmpy2 mpfr at the gmpy2 context precision (:mod:`num`); float64 data convert
exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field as dc_field
from typing import Any

import numpy as np

from verify.dynamics.field import NetworkField
from verify.dynamics.mp import num
from verify.dynamics.mp.num import dot, mpfr
from verify.dynamics.mp.series import F64, Dense, Grouped, Recurrence, mp_arith, mp_loss, poly_weight
from verify.errors import NumericalError
from verify.model.losses import Family, Loss

SLOPES_CACHED = 256  # products with the slopes kept per field (one per pattern of sides of the moving neurons)


@dataclass
class MpMode:
    """Frozen switching state: slopes (mpfr), sides, on-surface pairs, dead neurons, sliding rows.

    Lists are accepted and converted to arrays: ``S`` object (n, h), ``side`` int (n, h),
    ``onsurf`` bool (n, h), ``dead`` bool (h,)."""

    S: Any
    side: Any
    onsurf: Any
    dead: Any
    sliding: dict = dc_field(default_factory=dict)  # j -> list of rows

    def __post_init__(self) -> None:
        S = np.empty(np.shape(self.S), dtype=object)
        S[...] = [[mpfr(x) for x in row] for row in self.S]
        self.S = S
        self.side = np.array(self.side, dtype=np.int64)
        self.onsurf = np.array(self.onsurf, dtype=bool)
        self.dead = np.array(self.dead, dtype=bool)
        self.nonzero = S != 0

    def set(self, i: int, j: int, slope, side: int) -> None:
        self.S[i, j] = slope
        self.side[i, j] = side
        self.nonzero[i, j] = slope != 0

    def moving(self) -> np.ndarray:
        """Neurons that move: not dead, and sliding or with a nonzero slope."""
        live = ~self.dead & self.nonzero.any(axis=0)
        for j in self.sliding:
            live[j] = not self.dead[j]
        return np.flatnonzero(live)


def g_value(loss: Loss | str, y, f):
    """g = -l'(y, f), elementwise on object arrays of mpfr, by the declared ``loss.family``:
    y e^(-y f) (EXP), c y / (1 + e^(y f)) (LOGISTIC, c = ``loss.scale``), y - f (SQUARE),
    y (1 - z / sqrt(1 + z^2)) with z = y f (POLY). A name is looked up; InputError for a user-defined loss."""
    spec = mp_loss(loss)
    family = spec.family
    if family is Family.EXP:
        return y * num.vexp(-y * f)
    if family is Family.SQUARE:
        return y - f
    if family is Family.POLY:
        return y * poly_weight(y * f)
    w = 1 / (1 + num.vexp(y * f))
    return (y if spec.scale == 1 else spec.scale * y) * w


class MpField:
    """The data and loss of a :class:`NetworkField` converted exactly to mpfr (float64 -> mpfr is exact).
    ``loss`` is the field's built-in :class:`Loss` (InputError for a user-defined one: no mpfr formula).

    Arrays: ``Xm`` (object) and ``Xf`` (float64) (n, d), ``ym``/``yf``, ``Km``/``Kf`` the Gram
    matrix, ``xnorm_m``/``xnorm_f``; lists ``X``, ``K`` for the scalar switching code."""

    def __init__(self, field: NetworkField) -> None:
        self.field = field
        self.Xf = np.asarray(field.X, dtype=float)
        self.n, self.d = self.Xf.shape
        self.Xm = num.vec(self.Xf)
        self.yf = np.asarray(field.y, dtype=float)
        self.ym = num.vec(self.yf)
        self.X = self.Xm.tolist()
        self.K = [[dot(self.X[i], self.X[l]) for l in range(self.n)] for i in range(self.n)]
        self.Km = np.empty((self.n, self.n), dtype=object)
        self.Km[...] = self.K
        self.Kf = self.Km.astype(float)
        self.xnorm_m = num.vsqrt(np.diagonal(self.Km).copy())
        self.xnorm_f = self.xnorm_m.astype(float)
        self.alpha = mpfr(float(field.alpha))
        self.loss = mp_loss(field.loss)
        self.train_v = bool(field.train_v)
        self._slopes: dict[tuple, Dense | Grouped] = {}  # (mp, shape, sides) -> products (:meth:`slopes`)

    def g_point(self, f: np.ndarray) -> np.ndarray:
        return g_value(self.loss, self.ym, f)

    def slopes(self, mode: MpMode, cols: np.ndarray, mp: bool) -> Dense | Grouped:
        """Products with M = the slopes of the pairs off their surfaces (1 active, alpha inactive, 0 sliding); built
        once per pattern of sides (they change only at events) and shared, read-only."""
        side = mode.side[:, cols]
        key = (mp, side.shape, side.tobytes())
        prod = self._slopes.get(key)
        if prod is None:
            if len(self._slopes) >= SLOPES_CACHED:
                self._slopes.clear()
            prod = self._slopes[key] = self._new_slopes(side, mp)
        return prod

    def _new_slopes(self, side: np.ndarray, mp: bool) -> Dense | Grouped:
        """M for the sides ``side`` (n, m): sums over index sets in mpfr, a float64 matrix otherwise."""
        if mp:
            return Grouped(side == 1, side == -1, self.alpha, mpfr(0))
        return Dense(np.where(side == 1, 1.0, np.where(side == -1, float(self.alpha), 0.0)))

    def slide_setup(self, mode: MpMode, cols: np.ndarray) -> tuple[dict, dict]:
        """Per sliding neuron (local index in ``cols``): (rows, K_RR^-1, K[:, rows], M[:, j]) in mpfr and in float64."""
        where = {int(j): a for a, j in enumerate(cols)}
        out_m, out_f = {}, {}
        for j, rows in mode.sliding.items():
            if j not in where:
                continue
            m = len(rows)
            M = [[self.K[a][b] for b in rows] for a in rows]
            try:
                cols_inv = [num.solve(M, [mpfr(1) if q == c else mpfr(0) for q in range(m)]) for c in range(m)]
            except ZeroDivisionError:
                raise NumericalError(f"mp backend: neuron {j} slides on linearly dependent hyperplanes {list(rows)}") from None
            Kinv = np.empty((m, m), dtype=object)
            Kinv[...] = [[cols_inv[c][a] for c in range(m)] for a in range(m)]
            r = np.array(rows, dtype=np.int64)
            side = mode.side[:, j]
            col = np.where(side == 1, mpfr(1), np.where(side == -1, self.alpha, mpfr(0)))
            out_m[where[j]] = (r, Kinv, self.Km[:, r], col)
            out_f[where[j]] = (r, Kinv.astype(float), self.Kf[:, r], col.astype(float))
        return out_m, out_f

    def recurrence(self, form: str, mode: MpMode, cols: np.ndarray, A0: np.ndarray, b0: np.ndarray, weight: np.ndarray,
                   s: np.ndarray | None, cap: int, slide: dict, mp: bool) -> Recurrence:
        """The series recurrence of the neurons ``cols`` (rows A0, b0) in ``mode``; ``weight``:
        sigma_j^2 (Cartesian) or s_j (polar)."""
        prod = self.slopes(mode, cols, mp)
        if mp:
            return Recurrence(mp_arith(), form, self.loss, self.Xm, self.ym, A0, b0, weight, prod, s, slide, self.train_v, cap)
        to_f = (lambda a: None if a is None else np.asarray(a, dtype=object).astype(float))
        return Recurrence(F64, form, self.loss, self.Xf, self.yf, to_f(A0), to_f(b0), to_f(weight), prod, to_f(s), slide, self.train_v, cap)

    # per-component series (no scaling): the coefficients of every state component ---------------
    def series_cartesian(self, W: Any, v: Any, mode: MpMode, N: int) -> "StepSeries":
        """Taylor coefficients 0..N of (W, v) through (W, v) in ``mode``; components w_jc (row-major), then v_j."""
        A0, b0 = num.vec(W), num.vec(v)
        h = len(b0)
        ones = np.array([mpfr(1)] * h, dtype=object)
        return self._series("cartesian", mode, A0, b0, ones, None, N)

    def series_polar(self, r: Any, U: Any, s: Any, mode: MpMode, N: int) -> "StepSeries":
        """Taylor coefficients 0..N of (r, U) through (r, U) in ``mode``; components r_j, then u_jc."""
        b0, A0, sv = num.vec(r), num.vec(U), num.vec(s)
        return self._series("polar", mode, A0, b0, sv, sv, N)

    def _series(self, form: str, mode: MpMode, A0, b0, weight, s, N: int) -> "StepSeries":
        h, d = A0.shape
        cols = mode.moving()
        slide, _ = self.slide_setup(mode, cols)
        rec = self.recurrence(form, mode, cols, A0[cols], b0[cols], weight[cols], None if s is None else s[cols], N, slide, mp=True)
        rec.extend(N)
        A = np.empty((N + 1, h, d), dtype=object)
        b = np.empty((N + 1, h), dtype=object)
        A.fill(mpfr(0))
        b.fill(mpfr(0))
        A[0], b[0] = A0, b0
        A[:, cols], b[:, cols] = rec.A, rec.b
        wc = [list(A[:, j, c]) for j in range(h) for c in range(d)]
        bc = [list(b[:, j]) for j in range(h)]
        return StepSeries(wc + bc if form == "cartesian" else bc + wc)


@dataclass
class StepSeries:
    """Series of one step: flat state components, each a list of N + 1 coefficients."""

    comps: list

    @property
    def order(self) -> int:
        return len(self.comps[0]) - 1
