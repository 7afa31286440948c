"""Theorem-scale small quantities of 004 Lemmas 3 and 4, evaluated in mpmath from a polar state.

At eps = exp(-10^4) the outputs f(x_i) are of size eps^2 = exp(-2 10^4), far below float64's
range (it flushes them to 0), but mpmath exponents are unbounded, so the claims can compare
``log(error) <= log(bound)`` exactly. From a balanced polar state (r_j, u_j, s_j):

    ||w_j||^2 = exp(2 R_j),   R_j = log_eps + r_j   (R_j = r_j when log_eps is None),
    f(x_i)    = sum_j s_j exp(2 R_j) sigma(<u_j, x_i>),
    Lemma 4 LHS_j = || s_j P_{u_j} sum_i sigma'(<x_i, u_j>) (g_i - y_i) x_i ||
              (the exact difference d/dt u_j - s_j P_{u_j} x_a(u_j); g - y without cancellation),
    Lemma 4 RHS   = 2 n X_max max_i |f(x_i)|,
    Lemma 3: max_j ||w_j||^2 and max_i |f(x_i)|,

with sigma'(z) = 1{z > 0} + alpha 1{z <= 0} (the field's alpha). ``log_eps`` is kept apart from
the O(1) offsets r_j so that it can be given exactly (e.g. the string "-1e4"); pass the full
log-norms as ``r`` with ``log_eps=None`` otherwise.
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np

from verify.dynamics.field import NetworkField
from verify.dynamics.mp.inputs import to_mp_array, to_mpf
from verify.errors import InputError

GUARD = 10


def g_minus_y(name: str, y, f):
    """g - y = -l'(y, f) - y without cancellation (f of order eps^2), in mpmath."""
    if name == "exp":
        return y * mpmath.expm1(-y * f)
    if name == "logistic2":
        return -y * mpmath.tanh(y * f / 2)
    if name == "logistic":
        return -y / (1 + mpmath.exp(-y * f))
    return -f


class _Data:
    """X, y, norms of a NetworkField as mpf (exact conversion of the float64 data)."""

    def __init__(self, field: NetworkField) -> None:
        self.n, self.d = int(field.X.shape[0]), int(field.X.shape[1])
        self.X = [[mpmath.mpf(float(c)) for c in row] for row in field.X]
        self.y = [mpmath.mpf(float(c)) for c in field.y]
        self.xnorm = [mpmath.sqrt(mpmath.fdot(zip(row, row))) for row in self.X]
        self.alpha = mpmath.mpf(float(field.alpha))
        self.loss = field.loss.name

    def preact(self, rows: list) -> list:
        return [[mpmath.fdot(zip(xi, u)) for u in rows] for xi in self.X]


def _log(x):
    return mpmath.log(x) if x > 0 else mpmath.ninf


def small_init_terms(field: NetworkField, r: Any, U: Any, s: Any, log_eps: Any = None, dps: int = 30) -> dict:
    """Lemma 3/4 quantities at one polar state, as mpf (and their natural logs).

    ``r`` (h,), ``U`` (h, d) (rows normalised here), ``s`` (h,) in {-1, +1}: floats, mpf or
    decimal strings; ``log_eps``: None or a number/string added to every r_j.
    Returns a dict: ``f`` (list of n mpf), ``log_abs_f`` (list), ``max_abs_f``,
    ``log_max_abs_f``, ``max_w2``, ``log_max_w2``, ``lemma4_lhs`` (list of h mpf),
    ``log_lemma4_lhs`` (list), ``lemma4_rhs``, ``log_lemma4_rhs``, ``g_minus_y`` (list), and
    ``dps``. The values are computed at dps + 10 digits; logs of 0 are -inf.
    """
    if isinstance(dps, bool) or not isinstance(dps, (int, np.integer)) or not 15 <= int(dps) <= 2000:
        raise InputError(f"dps must be an integer in [15, 2000], got {dps!r}")
    with mpmath.workdps(int(dps) + GUARD):
        mf = _Data(field)
        rr, shr = to_mp_array(r, 1, "r")
        UU, shU = to_mp_array(U, 2, "U")
        ss, shs = to_mp_array(s, 1, "s")
        h = shr[0]
        if shU != (h, mf.d) or shs != (h,):
            raise InputError(f"need r (h,), U (h, {mf.d}), s (h,); got {shr}, {shU}, {shs}")
        if any(abs(x) != 1 for x in ss):
            raise InputError("s must hold signs -1 or +1")
        le = mpmath.mpf(0) if log_eps is None else to_mpf(log_eps, "log_eps")
        units = []
        for j, row in enumerate(UU):
            nrm = mpmath.sqrt(mpmath.fdot(zip(row, row)))
            if nrm == 0:
                raise InputError(f"U row {j} is zero")
            units.append([c / nrm for c in row])
        w2 = [mpmath.exp(2 * (le + rj)) for rj in rr]
        alpha = mf.alpha
        P = mf.preact(units)
        f = [mpmath.fsum(ss[j] * w2[j] * (P[i][j] if P[i][j] > 0 else alpha * P[i][j]) for j in range(h)) for i in range(mf.n)]
        gmy = [g_minus_y(mf.loss, mf.y[i], f[i]) for i in range(mf.n)]
        lhs = []
        for j in range(h):
            V = [mpmath.fsum((1 if P[i][j] > 0 else alpha) * gmy[i] * mf.X[i][c] for i in range(mf.n)) for c in range(mf.d)]
            proj = mpmath.fdot(zip(units[j], V))
            PV = [V[c] - proj * units[j][c] for c in range(mf.d)]
            lhs.append(mpmath.sqrt(mpmath.fdot(zip(PV, PV))))
        max_f = max(abs(x) for x in f)
        x_max = max(mf.xnorm)
        rhs = 2 * mf.n * x_max * max_f
        max_w2 = max(w2)
        return {
            "f": f,
            "log_abs_f": [_log(abs(x)) for x in f],
            "max_abs_f": max_f,
            "log_max_abs_f": _log(max_f),
            "max_w2": max_w2,
            "log_max_w2": _log(max_w2),
            "lemma4_lhs": lhs,
            "log_lemma4_lhs": [_log(x) for x in lhs],
            "lemma4_rhs": rhs,
            "log_lemma4_rhs": _log(rhs),
            "g_minus_y": gmy,
            "dps": int(dps),
        }
