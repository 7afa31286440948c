"""An independent reference for the eps -> 0 limit engine on horizons the mp backend cannot reach.

In the limit the data weights stay g_i = -l'(y_i, 0), so once a direction has converged it is a stable equilibrium
of rate ~||x_a||: the flow is stiff, and every explicit integrator (the float64 event engine, the mp Taylor series)
needs ~horizon x ||x_a|| steps. This module integrates the limit field neuron by neuron with scipy's implicit Radau
method instead,

    u' = s (x_a - <u, x_a> u),    r' = s <u, x_a>,    x_a = sum_i S_i g_i x_i,  S_i = 1 if <x_i, u> > 0 else alpha,

locating the kinks <x_i, u> = 0 as ``solve_ivp`` events and switching S_i (and S_k of every row x_k = c x_i on the
same line through 0, which shares the kink) when the field on the far side carries the direction across. It shares
no code with :mod:`verify.dynamics.limit` (closed-form modes and crossing times): only the loss's derivative at 0. A pair whose far-side field points back (Filippov sliding) is not handled:
:class:`Unsupported`.
"""

from __future__ import annotations

import numpy as np
from scipy.integrate import solve_ivp

from verify.errors import VerifyError

RTOL = 1e-12
ATOL = 1e-14
MAX_SWITCHES = 1000  # per neuron
LINE_COS = 1e-12  # rows with |cos| > 1 - LINE_COS lie on one line through 0 and share a kink


class Unsupported(VerifyError):
    """The stiff reference does not cover this run (a sliding pair, too many switches)."""


def _x_a(X: np.ndarray, g: np.ndarray, alpha: float, active: np.ndarray) -> np.ndarray:
    return (np.where(active, 1.0, alpha) * g) @ X


def neuron(X: np.ndarray, g: np.ndarray, alpha: float, s: float, u0: np.ndarray,
           times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(r(t) - r(0) (k,), u(t) (k, d)) of one neuron of the limit flow at ``times`` (> 0, increasing)."""
    n, d = X.shape
    unit = X / np.linalg.norm(X, axis=1)[:, None]
    cos = unit @ unit.T
    lines = [[(k, bool(cos[i, k] > 0.0)) for k in range(n) if abs(cos[i, k]) > 1.0 - LINE_COS] for i in range(n)]
    u = np.asarray(u0, float) / np.linalg.norm(u0)
    active = X @ u > 0.0
    t0, r = 0.0, 0.0
    out_r, out_u = np.empty(times.size), np.empty((times.size, d))
    k = 0
    for _ in range(MAX_SWITCHES):
        x_a = _x_a(X, g, alpha, active)

        def field(t: float, z: np.ndarray, x_a: np.ndarray = x_a) -> np.ndarray:
            v = z[1:]
            p = float(v @ x_a)
            return np.concatenate([[s * p], s * (x_a - p * v)])

        events = []
        for i in range(n):
            def kink(t: float, z: np.ndarray, i: int = i) -> float:
                return float(X[i] @ z[1:])
            kink.terminal = True
            kink.direction = -1.0 if active[i] else 1.0
            events.append(kink)
        rest = times[k:]
        sol = solve_ivp(field, (t0, float(times[-1])), np.concatenate([[r], u]), method="Radau", rtol=RTOL, atol=ATOL,
                        events=events, dense_output=True)
        if sol.status < 0:
            raise Unsupported(f"Radau failed: {sol.message}")
        t_stop = float(sol.t[-1])
        upto = rest[rest <= t_stop]
        for t in upto:
            z = sol.sol(t)
            out_r[k], out_u[k] = z[0], z[1:] / np.linalg.norm(z[1:])
            k += 1
        if sol.status == 0:
            return out_r, out_u
        z = sol.y[:, -1]
        t0, r, u = t_stop, float(z[0]), z[1:] / np.linalg.norm(z[1:])
        i = next(i for i, te in enumerate(sol.t_events) if len(te))
        flipped = active.copy()
        for m, same in lines[i]:  # rows on x_i's line through 0 share its kink: x_m = c x_i
            flipped[m] = (not active[i]) if same else active[i]
        # on the far side the kink value must keep moving away: s <x_i, x_a'> has the crossing's sign
        towards = s * float(X[i] @ _x_a(X, g, alpha, flipped))
        if (towards > 0.0) != bool(flipped[i]):
            raise Unsupported(f"pair ({i}, neuron) slides at t = {t_stop:.6g} (the far side's field points back)")
        active = flipped
    raise Unsupported(f"more than {MAX_SWITCHES} switches")


def reference(X: np.ndarray, g: np.ndarray, alpha: float, r0: np.ndarray, U0: np.ndarray, s: np.ndarray,
              times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(r (k, h), U (k, h, d)) of the limit flow with data weights g (g_i = -l'(y_i, 0)) from (r0, U0) with signs s,
    at ``times``."""
    times = np.asarray(times, float)
    R = np.empty((times.size, len(r0)))
    U = np.empty((times.size, len(r0), X.shape[1]))
    for j in range(len(r0)):
        dr, U[:, j] = neuron(X, g, alpha, float(s[j]), U0[j], times)
        R[:, j] = r0[j] + dr
    return R, U
