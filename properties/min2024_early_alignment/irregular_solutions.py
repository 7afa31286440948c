"""Claim sheet 004, section 2.H, second part: the irregular Caratheodory solution (47) of Example E.4
(EA-H4-irregular and the planted P13, outside Theorem 1's scope) and EA-H6 (App. F, Filippov),
which is deliberately not encoded: the sheet says "do not test; document only".
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Claim, Margin, measures
from verify.verdicts import Verdict

from properties.min2024_early_alignment._shared import paper_claim


def e4_irregular(t0: float, taus: np.ndarray):
    """Example E.4's irregular solution 2: theta(t) = theta(0) for t <= t0, then (47) from theta(0):
    w = (a, 1), v = sqrt(1 + a^2), a' = sqrt(1 + a^2) exp(-a sqrt(1 + a^2)), a(t0) = 0 (DER reduction of (47);
    the (45) check below uses the full engine field, so the reduction is itself tested).
    Returns a dense callable state(t) -> (W (1, 2), v (1,)) and a(t0 + taus)."""
    from scipy.integrate import solve_ivp

    def rhs(_t, a):
        q = math.sqrt(1.0 + a[0] ** 2)
        return [q * math.exp(-a[0] * q)]

    t_end = float(np.max(taus))
    sol = solve_ivp(rhs, (0.0, t_end), [0.0], method="DOP853", rtol=1e-13, atol=1e-15, dense_output=True)

    def state(t: float):
        a = float(sol.sol(t - t0)[0]) if t > t0 else 0.0
        return np.array([[a, 1.0]]), np.array([math.sqrt(1.0 + a * a)])

    return state, np.array([float(sol.sol(tau)[0]) for tau in taus])


def e4_residual(t0: float, taus=(0.25, 0.5, 1.0)) -> tuple[float, float, float]:
    """(max residual of (45), quadrature error estimate, <x, w(t)>/||w(t)|| at the last time) for the irregular
    solution of E.4: theta(t) - theta(0) - int_0^t F(theta(s)) ds, F = the engine's field (exp loss, sigma'(0) = 0,
    mode at the state), by adaptive quadrature (F(theta(0)) = 0 on [0, t0] included)."""
    from scipy.integrate import quad_vec

    from verify.dynamics.field import NetworkField

    fo = NetworkField(np.array([[1.0, 0.0]]), np.array([1.0]), "exp", 0.0)
    taus = np.asarray(taus, float)
    state, _ = e4_irregular(t0, taus)

    def F(s: float) -> np.ndarray:
        W, v = state(s)
        Wdot, vdot = fo.cartesian(W, v, fo.mode(fo.X @ W.T))
        return np.concatenate([Wdot[0], vdot])

    W0, v0 = state(0.0)
    th0 = np.concatenate([W0[0], v0])
    worst, qerr = 0.0, 0.0
    for tau in taus:
        t = t0 + float(tau)
        pieces = [(0.0, t0), (t0, t)] if t0 > 0 else [(0.0, t)]
        integral = np.zeros(3)
        for lo, hi in pieces:
            val, e = quad_vec(F, lo, hi, epsabs=1e-14, epsrel=1e-13)
            integral += val
            qerr += float(e)
        W, v = state(t)
        res = float(np.max(np.abs(np.concatenate([W[0], v]) - th0 - integral)))
        worst = max(worst, res)
    W, v = state(t0 + float(taus[-1]))
    return worst, qerr, float(W[0, 0] / np.linalg.norm(W[0]))


@measures("min(1e-10 - max residual of (45), 1e-10 - max |F(theta(0))|) (absolute, state units)")
def e4_caratheodory_margin(t0: float) -> Margin:
    """EA-H4 (irregular branch): E.4's solution 2 satisfies (45) to 1e-10 (and F(theta(0)) = 0, so solution 1,
    the stationary one, does too)."""
    res, qerr, _ = e4_residual(float(t0))
    from verify.dynamics.field import NetworkField

    fo = NetworkField(np.array([[1.0, 0.0]]), np.array([1.0]), "exp", 0.0)
    W, v = np.array([[0.0, 1.0]]), np.array([1.0])
    Wd, vd = fo.cartesian(W, v, fo.mode(fo.X @ W.T))
    f0 = float(np.max(np.abs(np.concatenate([Wd[0], vd]))))
    return Margin(min(1e-10 - res, 1e-10 - f0), qerr, f"t0 = {t0:.6g}: max (45) residual {res:.3g} (quadrature error {qerr:.2g}); "
                                              f"|F(theta(0))| = {f0:.3g}")


H4_IRREGULAR = paper_claim(
    id="EA-H4-irregular-caratheodory",
    node="EXIST", uses=("A1",),
    source="App. E.4 (47), solution 2",
    statement="on Example E.4, solution 2 (still until t0, then (47)) satisfies (45) with the engine's field to 1e-10 (quadrature), "
              "and F(theta(0)) = 0 (solution 1, stationary): both are Caratheodory solutions",
    check=e4_caratheodory_margin,
    over=st.one_of(st.just(0.0), st.floats(min_value=0.0, max_value=3.0, allow_nan=False)),
    assumptions=("sigma'(0) = 0", "exp loss"),
)


@measures("-cos(x, w(t0 + 1)) of the irregular solution 2 (cosine; < 0: it left S_dead)")
def e4_stays_dead_margin(t0: float) -> Margin:
    """P13 (planted, outside the theorem's scope): "every Caratheodory solution from E.4's theta(0) stays in S_dead".
    Witness: solution 2 (valid per (45) to 1e-10, else vacuous) has <x, w(t0 + 1)> > 0. Theorem 1 is stated for
    regular solutions only (Definition 1); the engine returns the regular one (EA-H4)."""
    res, qerr, cos_end = e4_residual(float(t0))
    if res > 1e-10:
        return Margin(0.0, 0.0, f"construction not a Caratheodory solution to 1e-10 (residual {res:.3g})", vacuous=True)
    return Margin(-cos_end, res + qerr, f"t0 = {t0:.6g}: irregular solution (residual {res:.3g}) has cos(x, w(t0 + 1)) = {cos_end:.6g} > 0: "
                                        f"left S_dead; outside the theorem's scope (irregular)")


P13 = paper_claim(
    id="P13-irregular-leaves-dead",
    source="sheet P13 / App. E.4 (irregular solutions: outside Theorem 1's scope)",
    statement="PLANTED (outside the theorem's scope): every Caratheodory solution from E.4's initial state stays in S_dead -- fails: "
              "the irregular solution 2 (valid per (45) to 1e-10) leaves S_dead right after t0. Theorem 1 is stated for regular "
              "solutions only (Definition 1); the engine returns the regular one (EA-H4), so this is not a counterexample to it",
    check=e4_stays_dead_margin,
    over=st.one_of(st.just(0.0), st.floats(min_value=0.0, max_value=3.0, allow_nan=False)),
    expected=Verdict.REFUTED,
    assumptions=("drops regularity (Definition 1)",),
    tags=("outside theorem scope", "irregular solution"),
)


@measures("no margin: documented only, not checked (verdict UNKNOWN)")
def _not_encoded(claim: Claim):
    from verify.claims.direct import DirectOutcome

    return DirectOutcome(Verdict.UNKNOWN, "not checked: the sheet says 'do not test; document only' (App. F states "
                                          "Theorem 1 for regular Filippov solutions without a proof)", examples=0)


H6 = paper_claim(
    id="EA-H6",
    node="EXIST", uses=("A1",),
    source="App. F (Filippov solutions)",
    statement="for regular Filippov solutions Theorem 1 'remains the same' (x_a becomes set-valued, eq. (57))",
    check=lambda _: 0.0,
    runner=_not_encoded,
    expected=Verdict.UNKNOWN,
    tags=("documented-only",),
)
