"""Tests of the high-precision mp backend (verify.dynamics.mp): accuracy against closed forms,
event location, agreement with the float64 backend, inputs, JSON I/O, small-init terms."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from verify.dynamics.events import solve_cartesian
from verify.dynamics.field import NetworkField
from verify.dynamics.mp import events as mpev
from verify.dynamics.mp import num
from verify.dynamics.mp import read_json, solve_mp, write_json
from properties.min2024_early_alignment.lemma34_terms import small_init_terms
from verify.dynamics.mp.field import MpField, MpMode
from verify.dynamics.mp.taylor import cauchy, exp_coeff, horner, recip_coeff
from verify.errors import InputError

Q0 = "0.01"


def digits(a, b) -> float:
    """Significant digits of agreement of a with the reference b (at 200 digits)."""
    with mpmath.workdps(200):
        a, b = mpmath.mpf(a), mpmath.mpf(b)
        err = abs(a - b) / abs(b)
        return math.inf if err == 0 else float(-mpmath.log10(err))


def unit_str(angle: str, prec: int = 70) -> list[str]:
    with mpmath.workdps(prec):
        t = mpmath.mpf(angle)
        return [mpmath.nstr(mpmath.cos(t), prec - 5), mpmath.nstr(mpmath.sin(t), prec - 5)]


def toy4_field(loss: str = "exp") -> NetworkField:
    """x = (cos a, +-sin a) label +1, (-cos a, +-sin a) label -1, a = 3/10 (float64 data)."""
    with mpmath.workdps(30):
        c, s = float(mpmath.cos(mpmath.mpf("0.3"))), float(mpmath.sin(mpmath.mpf("0.3")))
    X = np.array([[c, s], [c, -s], [-c, s], [-c, -s]])
    return NetworkField(X, np.array([1.0, 1.0, -1.0, -1.0]), loss)


# Taylor primitives ------------------------------------------------------------------------------


def test_series_recurrences():
    with mpmath.workdps(40):
        a = [mpmath.mpf(1) / (k + 2) for k in range(12)]
        e, q = [], []
        for k in range(12):
            e.append(exp_coeff(a, e, k))
            q.append(recip_coeff(a, q, k))
        x = mpmath.mpf("0.1")
        A = horner(a, x)
        assert digits(horner(e, x), mpmath.exp(A)) > 9
        assert digits(horner(q, x), 1 / A) > 9
        prod = [cauchy(e, q, k) for k in range(12)]
        assert digits(horner(prod, x), mpmath.exp(A) / A) > 9


# (a) the n = 1 closed form -----------------------------------------------------------------------


def ei_reference(t: float) -> mpmath.mpf:
    """q(t) with Ei(q) - Ei(q0) = 2t (q' = 2 q e^{-q}: f = v ||w|| = q, v' = ||w|| e^{-q}), 80 digits."""
    with mpmath.workdps(80):
        target = mpmath.ei(mpmath.mpf(Q0)) + 2 * mpmath.mpf(t)
        guess = mpmath.findroot(lambda u: mpmath.ei(u) - target, (mpmath.mpf(Q0), mpmath.mpf(10)), solver="anderson")
        return mpmath.findroot(lambda u: mpmath.ei(u) - target, guess)


@pytest.mark.parametrize("dps,need", [(40, 25), (60, 45)])
def test_one_point_closed_form(dps, need):
    field = NetworkField(np.array([[1.0, 0.0]]), np.array([1.0]), "exp")
    before = mpmath.mp.prec
    tr = solve_mp(field, [["0.1", "0"]], ["0.1"], [1, 5], dps=dps)
    assert mpmath.mp.prec == before  # the global precision is left alone
    assert tr.backend == "mp" and tr.events == []
    for k, t in enumerate((1, 5)):
        with mpmath.workdps(100):
            q = tr.v[k, 0] ** 2
            qw = tr.v[k, 0] * tr.W[k, 0, 0]  # f = v <w, x>
        assert digits(q, ei_reference(t)) >= need
        assert digits(qw, ei_reference(t)) >= need
    assert tr.balancedness_drift < 10.0 ** (-dps)
    assert 0 < tr.error_estimate < 10.0 ** (-dps + 2)
    assert tr.stats["order"] >= dps and tr.params["dps"] == dps and tr.params["form"] == "cartesian"
    assert isinstance(tr.W[0, 0, 0], mpmath.mpf) and tr.W.dtype == object


def test_rerun_error_estimate_measures_the_error():
    field = NetworkField(np.array([[1.0, 0.0]]), np.array([1.0]), "exp")
    tr = solve_mp(field, [["0.1", "0"]], ["0.1"], [2], dps=20, estimate="rerun")
    with mpmath.workdps(60):
        err = abs(tr.v[0, 0] ** 2 - ei_reference(2)) / ei_reference(2)
    assert tr.stats["rerun_events_match"] and tr.stats["error_method"] == "rerun"
    assert float(err) <= 10 * tr.error_estimate + 1e-40
    assert tr.error_estimate < 1e-19


# (b) the eps -> 0 limit dynamics (closed form) ----------------------------------------------------


def limit_reference(X, y, u0, s, t_end):
    """Closed-form eps -> 0 dynamics of one neuron (sheet 004 section 1.11), in mpmath.

    Returns (events [(t, i, kind)], state(t) -> (u, r - r(0))). Inside a mode
    tan(phi/2) = tan(phi0/2) exp(-s k t), u = -tanh(tau) a + sech(tau) e, r = lncosh(tau) -
    lncosh(tau0) with tau = ln tan(phi/2); crossing of <x_i, u> = 0 at tau* = asinh(B_i/A_i).
    """
    n, d = len(X), len(u0)
    P = [mpmath.fdot(zip(X[i], u0)) for i in range(n)]
    active = [p > 0 for p in P]
    t, r, u = mpmath.mpf(0), mpmath.mpf(0), list(u0)
    segments, events = [], []
    lncosh = lambda x: mpmath.log(mpmath.cosh(x))  # noqa: E731
    while True:
        if not any(active):
            segments.append((t, None, u, r))
            break
        xa = [mpmath.fsum(y[i] * X[i][c] for i in range(n) if active[i]) for c in range(d)]
        k = mpmath.sqrt(mpmath.fdot(zip(xa, xa)))
        a = [c / k for c in xa]
        cphi = mpmath.fdot(zip(u, a))
        e_raw = [uc - cphi * ac for uc, ac in zip(u, a)]
        sn = mpmath.sqrt(mpmath.fdot(zip(e_raw, e_raw)))
        e = [c / sn for c in e_raw]
        tau0 = mpmath.log(sn / (1 + cphi))
        seg = (t, (a, e, tau0, k), u, r)
        cand = []
        for i in range(n):
            A = mpmath.fdot(zip(X[i], a))
            B = mpmath.fdot(zip(X[i], e))
            if abs(mpmath.fdot(zip(X[i], u))) < mpmath.mpf(10) ** -40 or A == 0:
                continue
            ts = (tau0 - mpmath.asinh(B / A)) / (s * k)
            if ts > 0:
                cand.append((ts, i))
        segments.append(seg)
        if not cand or t + min(cand)[0] >= t_end:
            break
        dt = min(cand)[0]
        tau = tau0 - s * k * dt
        u = [-mpmath.tanh(tau) * ac + mpmath.sech(tau) * ec for ac, ec in zip(a, e)]
        r = r + lncosh(tau) - lncosh(tau0)
        t = t + dt
        for ts, i in sorted(cand):
            if ts <= dt * (1 + mpmath.mpf(10) ** -40):
                active[i] = not active[i]
                events.append((t, i, "activate" if active[i] else "deactivate"))

    def state(tq):
        tq = mpmath.mpf(tq)
        seg = [sg for sg in segments if sg[0] <= tq][-1]
        t0, frame, u0_, r0_ = seg
        if frame is None:
            return u0_, r0_
        a, e, tau0, k = frame
        tau = tau0 - s * k * (tq - t0)
        uu = [-mpmath.tanh(tau) * ac + mpmath.sech(tau) * ec for ac, ec in zip(a, e)]
        return uu, r0_ + lncosh(tau) - lncosh(tau0)

    return events, state


def test_limit_dynamics_closed_form_polar_tiny_eps():
    field = toy4_field()
    angles, signs = ["2.0", "-1.9", "3.54159"], [1, -1, 1]
    W0 = [unit_str(a) for a in angles]
    v0 = [str(s) for s in signs]
    times = [0.05, 0.5, 0.8, 1.5, 3.0]
    tr = solve_mp(field, W0, v0, times, dps=40, form="polar", log_eps="-1e4")
    assert tr.polar and tr.log_eps == -1e4 and tr.balancedness_drift == 0.0
    with mpmath.workdps(60):
        X = [[mpmath.mpf(float(c)) for c in row] for row in field.X]
        y = [mpmath.mpf(float(c)) for c in field.y]
        ref_events = []
        worst_state = math.inf
        for j, (ang, s) in enumerate(zip(angles, signs)):
            u0 = [mpmath.mpf(c) for c in unit_str(ang)]
            nrm = mpmath.sqrt(mpmath.fdot(zip(u0, u0)))
            u0 = [c / nrm for c in u0]
            evs, state = limit_reference(X, y, u0, s, times[-1])
            ref_events += [(t, i, j, kind) for t, i, kind in evs]
            for k, tq in enumerate(times):
                uu, dr = state(tq)
                for c in range(2):
                    worst_state = min(worst_state, -float(mpmath.log10(abs(tr.U[k, j, c] - uu[c]) + mpmath.mpf(10) ** -70)))
                r_ref = mpmath.mpf("-1e4") + dr  # ||W0_j|| = 1
                worst_state = min(worst_state, -float(mpmath.log10(abs(tr.r[k, j] - r_ref) + mpmath.mpf(10) ** -70)))
        ref_events.sort(key=lambda e: (e[0], e[2], e[1]))
        got = sorted(((e.t, e.i, e.j, e.kind) for e in tr.events), key=lambda e: (e[0], e[2], e[1]))
        assert [g[1:] for g in got] == [r[1:] for r in ref_events]
        assert len({r[0] for r in ref_events}) >= 2 and len(ref_events) >= 4
        ev_digits = min(digits(g[0], r[0]) for g, r in zip(got, ref_events))
    print(f"\nlimit dynamics at log_eps = -1e4, dps 40: event-time digits {ev_digits:.1f}, state abs digits {worst_state:.1f}")
    assert ev_digits >= 25
    assert worst_state >= 25


# (c) agreement with the float64 events backend ---------------------------------------------------


def toy4_cartesian():
    field = toy4_field()
    ang = np.array([1.2, 2.0, -1.9, 0.4 + np.pi])
    s = np.array([1.0, 1.0, -1.0, 1.0])
    eps = 1e-3
    return field, eps * np.stack([np.cos(ang), np.sin(ang)], 1), s * eps


def test_agrees_with_float64_backend_and_measures_its_error():
    field, W0, v0 = toy4_cartesian()
    times = np.linspace(0.5, 12.0, 12)
    ref = solve_mp(field, W0, v0, times, dps=30)
    Wm = np.array(ref.W.tolist(), dtype=float)
    vm = np.array(ref.v.tolist(), dtype=float)
    scale = np.sqrt(np.sum(Wm**2, axis=2) + vm**2)
    assert len(ref.crossings()) >= 4 and len({float(e.t) for e in ref.events}) >= 2
    rows = []
    for rtol in (1e-6, 1e-8, 1e-10, 1e-12):
        tr = solve_cartesian(field, W0, v0, times, rtol=rtol)
        assert [(e.i, e.j, e.kind) for e in tr.events] == [(e.i, e.j, e.kind) for e in ref.events]
        err = max(float(np.max(np.abs(tr.W - Wm) / scale[:, :, None])), float(np.max(np.abs(tr.v - vm) / scale)))
        ev = max(abs(a.t - float(b.t)) for a, b in zip(tr.events, ref.events))
        rows.append((rtol, err, ev))
    print("\nfloat64 events backend vs mp (toy4, h = 4, horizon 12):")
    print("   rtol     state rel err  digits  event-time err")
    for rtol, err, ev in rows:
        print(f"  {rtol:7.0e}   {err:12.3e}   {-math.log10(err):5.2f}   {ev:10.3e}")
    assert rows[-1][1] <= 1e-9 and rows[-1][2] <= 1e-9
    assert rows[-1][1] < rows[0][1]
    assert ref.balancedness_drift < 1e-28


def test_a_looser_step_tolerance_is_cheaper_and_as_accurate_as_it_says():
    """tol_digits D < dps + 2: the same precision, fewer steps, and the run stays within a few times its own error
    estimate of the 30-digit reference (the estimate sums steps' tails of about 10^-D)."""
    field, W0, v0 = toy4_cartesian()
    times = np.linspace(0.5, 12.0, 12)
    ref = solve_mp(field, W0, v0, times, dps=30)
    full = solve_mp(field, W0, v0, times, dps=16)
    loose = solve_mp(field, W0, v0, times, dps=16, tol_digits=11)
    assert loose.params["tol"] == "1e-11" and full.params["tol"] == "1e-18"
    assert loose.stats["order"] < full.stats["order"] and loose.stats["steps"] < full.stats["steps"]
    assert [(e.i, e.j, e.kind) for e in loose.events] == [(e.i, e.j, e.kind) for e in ref.events]
    Wr = np.array(ref.W.tolist(), dtype=float)
    scale = np.sqrt(np.sum(Wr**2, axis=2) + np.array(ref.v.tolist(), dtype=float) ** 2)
    err = float(np.max(np.abs(np.array(loose.W.tolist(), dtype=float) - Wr) / scale[:, :, None]))
    assert 1e-16 < loose.error_estimate < 1e-8
    assert err <= 10 * loose.error_estimate


def test_sliding_continued_like_float64():
    """PC2 (no Assumption 1): Filippov sliding pairs, continued through (not stopped)."""

    def unit(deg):
        return np.array([np.cos(np.radians(deg)), np.sin(np.radians(deg))])

    X = np.array([unit(0), unit(80), unit(120), unit(135)])
    s = np.array([1.0, 1.0, 1.0, -1.0, -1.0])
    W0 = 1e-3 * np.array([unit(a) for a in (45.0, 60.0, 20.0, 200.0, 160.0)])
    field = NetworkField(X, np.array([1.0, 1.0, -1.0, -1.0]), "logistic")
    times = np.array([2.0, 6.0])
    f64 = solve_cartesian(field, W0, s * 1e-3, times, rtol=1e-12)
    mp = solve_mp(field, W0, s * 1e-3, times, dps=20)
    late = [(e.i, e.j, e.kind) for e in mp.events if e.t > 1e-10]  # mp resolves <x_4, w_1(0)> = 6e-20 > 0
    assert late == [(e.i, e.j, e.kind) for e in f64.events]
    assert {(e.i, e.j) for e in mp.events if e.kind == "sliding"} == {(2, 0), (2, 1), (2, 2)}
    Wm = np.array(mp.W.tolist(), dtype=float)
    assert np.max(np.abs(f64.W - Wm) / np.linalg.norm(Wm, axis=2)[:, :, None]) <= 1e-9
    with mpmath.workdps(40):  # sliding neurons stay on <x_3, w_j> = 0 to full precision
        for j in range(3):
            e = abs(mp.W[-1, j, 0] * mpmath.mpf(X[2, 0]) + mp.W[-1, j, 1] * mpmath.mpf(X[2, 1]))
            assert e <= mpmath.mpf(10) ** -25 * abs(mp.v[-1, j])


# (d) two crossings inside one step -----------------------------------------------------------------


def test_first_root_finds_interior_double_crossing():
    with mpmath.workdps(40):
        # phi(x) = (x - 0.3)(x - 0.6) + 0 : positive at both ends, negative on (0.3, 0.6)
        c = [mpmath.mpf("0.18"), mpmath.mpf("-0.9"), mpmath.mpf(1)]
        x, touches = mpev.first_root(c + [mpmath.mpf(0)] * 10)
        assert digits(x, mpmath.mpf("0.3")) > 35 and touches == []
        # a tangential touch (double root at 0.5) is grazing, not a crossing
        c2 = [mpmath.mpf("0.25"), mpmath.mpf(-1), mpmath.mpf(1)]
        x2, touches2 = mpev.first_root(c2)
        assert x2 is None and len(touches2) == 1 and abs(touches2[0] - mpmath.mpf("0.5")) < 1e-15


def test_double_crossing_inside_one_step_of_the_engine():
    """w = (1, 0.8662), v = -0.5, x1 = (1, 0) (+, active), x2 = (-1, 1) (-, inactive): w_1 dips
    to 0.86603 at t ~ 0.44 and comes back (w_2 is constant), so e_2 = w_2 - w_1 goes from < 0
    to > 0 and back below 0 within [0.41, 0.47]: both crossings lie inside one Taylor step
    [0.38, 0.53] of the engine's series, whose end values see nothing."""
    X = np.array([[1.0, 0.0], [-1.0, 1.0]])
    field = NetworkField(X, np.array([1.0, -1.0]), "exp")
    W0, v0 = [[1, "0.8662"]], ["-0.5"]
    pre = solve_mp(field, W0, v0, ["0.38"], dps=40)
    assert pre.events == []
    with num.context(num.prec_of_dps(50)):  # the solver's own number type (gmpy2 mpfr)
        mf = MpField(field)
        one, zero = num.mpfr(1), num.mpfr(0)
        mode = MpMode(S=[[one], [zero]], side=[[1], [-1]], onsurf=[[False], [False]], dead=[False])
        ser = mf.series_cartesian([[num.fr(c) for c in pre.W[0, 0]]], [num.fr(pre.v[0, 0])], mode, 80)
        h = num.mpfr("0.15")
        w1, w2 = ser.comps[0], ser.comps[1]
        phi = [(a - b) * h**k for k, (a, b) in enumerate(zip(w1, w2))]  # side (-1) times <x2, w>
        assert abs(phi[-1]) < num.mpfr(10) ** -40  # the series converges on the step
        assert horner(phi, 1) > 0 and phi[0] > 0  # the end points see nothing
        x, touches = mpev.first_root(phi)
        assert x is not None and 0 < x < 1 and touches == []
        t_up = num.mp(num.mpfr("0.38") + x * h)
        rest = [c * (1 - x) ** k for k, c in enumerate(horner_shift(phi, x))]
        assert mpev.first_root(rest, on_surface=True)[0] is not None  # and the second crossing
    tr = solve_mp(field, W0, v0, [1.0], dps=40)
    first = tr.events[0]
    assert (first.i, first.j, first.kind) == (1, 0, "activate")
    assert 0.41 < first.t < 0.44
    assert digits(first.t, t_up) > 35


def horner_shift(c, a):
    from verify.dynamics.mp.taylor import shift

    return shift(c, a, 1)


# (e) dead neurons freeze --------------------------------------------------------------------------


def test_dead_neuron_freezes_at_the_limit_time():
    """P9: x = (1, 0), y = -1, one V+ neuron at angle 1: in the limit it reaches S_dead at
    t* = ln tan((pi - 1)/2); at log_eps = -1e4 the finite-eps time equals it to all digits."""
    field = NetworkField(np.array([[1.0, 0.0]]), np.array([-1.0]), "exp")
    W0 = [unit_str("1")]
    times = [0.3, 0.7, 1.0, 2.0]
    tr = solve_mp(field, W0, ["1"], times, dps=35, form="polar", log_eps="-1e4")
    assert [(e.i, e.j, e.kind) for e in tr.events] == [(0, 0, "deactivate"), (-1, 0, "dead")]
    with mpmath.workdps(50):
        t_star = mpmath.log(mpmath.tan((mpmath.pi - 1) / 2))
    assert digits(tr.events[1].t, t_star) >= 30
    for k in (2, 3):  # frozen after death, exactly
        assert tr.r[k, 0] == tr.r[1, 0] and list(tr.U[k, 0]) == list(tr.U[1, 0])
    assert abs(tr.U[1, 0, 0]) < 1e-30  # on the hyperplane <x, u> = 0
    # Cartesian at moderate eps: frozen too (W and v exactly constant after the event)
    trc = solve_mp(field, [[0.1 * math.cos(1), 0.1 * math.sin(1)]], [0.1], times, dps=30)
    assert [e.kind for e in trc.events] == ["deactivate", "dead"]
    assert list(trc.W[2, 0]) == list(trc.W[3, 0]) and trc.v[2, 0] == trc.v[3, 0]


# (f) inputs ------------------------------------------------------------------------------------------


def test_decimal_strings_mpf_and_floats_agree():
    field, W0, v0 = toy4_cartesian()
    times = [0.5, 1.5]
    a = solve_mp(field, W0, v0, times, dps=20)
    with mpmath.workdps(30):
        W_mp = [[mpmath.mpf(float(c)) for c in row] for row in W0]
        v_mp = [mpmath.mpf(float(c)) for c in v0]
    b = solve_mp(field, W_mp, v_mp, times, dps=20)
    c = solve_mp(field, [[repr(float(x)) for x in row] for row in W0], [repr(float(x)) for x in v0], np.array(times), dps=20)
    assert all(x == y for x, y in zip(a.W.reshape(-1), b.W.reshape(-1)))  # mpf(float) is exact
    assert [e.t for e in a.events] == [e.t for e in b.events]
    # repr(float) strings are the shortest round-trip decimals, not the binary values: ~17 digits
    assert min(digits(x, y) for x, y in zip(c.W.reshape(-1), a.W.reshape(-1))) > 14
    assert [(e.i, e.j, e.kind) for e in a.events] == [(e.i, e.j, e.kind) for e in c.events]
    # decimal strings that are not floats keep their digits
    d = solve_mp(NetworkField(np.array([[1.0, 0.0]]), np.array([1.0]), "exp"), [["0.1", "0"]], ["0.1"], ["0.5"], dps=40)
    assert d.times.tolist() == [0.5]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"W0": [[1.0, 0.0, 0.0]]},
        {"v0": [1.0, 2.0]},
        {"v0": ["abc"]},
        {"W0": [[float("nan"), 0.0]]},
        {"W0": [[object(), 0.0]]},
        {"times": [1.0, 0.5]},
        {"times": []},
        {"times": [-1.0, 1.0]},
        {"form": "spherical"},
        {"dps": 5},
        {"dps": 30.5},
        {"order": 2},
        {"estimate": "guess"},
        {"form": "polar", "v0": [0.5]},
        {"form": "polar", "W0": [[0.0, 0.0]], "v0": [0.0]},
        {"log_eps": "minus four"},
        {"tol_digits": 7},
        {"tol_digits": 33},
        {"tol_digits": 12.0},
        {"tol_digits": True},
    ],
)
def test_bad_inputs_raise_input_error(kwargs):
    field = NetworkField(np.array([[1.0, 0.0]]), np.array([1.0]), "exp")
    args = {"W0": [[0.1, 0.0]], "v0": [0.1], "times": [1.0]}
    args.update(kwargs)
    W0, v0, times = args.pop("W0"), args.pop("v0"), args.pop("times")
    with pytest.raises(InputError):
        solve_mp(field, W0, v0, times, **args)


def test_cartesian_at_eps_1e_minus_4000():
    """mpmath exponents are unbounded: Cartesian (W, v) at eps = 1e-4000 matches polar."""
    field = toy4_field()
    W0, v0 = [unit_str("2.0")], ["1"]
    le = str(-4000 * math.log(10))
    cart = solve_mp(field, W0, v0, [1.0], dps=25, log_eps=le)
    pol = solve_mp(field, W0, v0, [1.0], dps=25, form="polar", log_eps=le)
    with mpmath.workdps(40):
        assert -4000 < float(mpmath.log10(abs(cart.W[0, 0, 0]))) < -3998
        for c in range(2):
            assert digits(cart.W[0, 0, c], pol.W[0, 0, c]) > 20
    assert [(e.i, e.kind) for e in cart.events] == [(e.i, e.kind) for e in pol.events]


# (g) JSON I/O ------------------------------------------------------------------------------------------


def test_json_roundtrip_keeps_full_precision(tmp_path):
    field = toy4_field()
    tr = solve_mp(field, [unit_str("2.0"), unit_str("-1.9")], ["1", "-1"], [0.2, 1.0], dps=30, form="polar", log_eps="-1e4")
    path = tmp_path / "traj.json"
    write_json(tr, path)
    back = read_json(path)
    for key in ("W", "v", "r", "U"):
        a, b = getattr(tr, key), getattr(back, key)
        assert a.shape == b.shape and all(x == y for x, y in zip(a.reshape(-1), b.reshape(-1)))
    assert [(e.t, e.i, e.j, e.kind, e.direction) for e in tr.events] == [(e.t, e.i, e.j, e.kind, e.direction) for e in back.events]
    assert back.times.tolist() == tr.times.tolist() and back.log_eps == tr.log_eps and back.backend == "mp"
    assert back.error_estimate == tr.error_estimate and back.params["dps"] == 30
    with pytest.raises(InputError):
        bad = tmp_path / "bad.json"
        bad.write_text('{"format": "something else"}')
        read_json(bad)


# small-initialisation terms ---------------------------------------------------------------------------


def test_small_init_terms_at_theorem_scale_and_against_float64():
    field = toy4_field()
    r, U, s = [0.1, -0.2, 0.3], [[0.2, 1.0], [-1.0, 0.3], [1.0, -0.1]], [1, -1, 1]
    tiny = small_init_terms(field, r, U, s, log_eps="-1e4", dps=30)
    assert -20002 < float(tiny["log_max_abs_f"]) < -19998
    assert all(lhs <= tiny["log_lemma4_rhs"] for lhs in tiny["log_lemma4_lhs"])
    assert float(tiny["log_max_w2"]) == pytest.approx(-2e4 + 0.6, abs=1e-9)
    # at moderate eps the same quantities in float64
    mod = small_init_terms(field, r, U, s, log_eps=math.log(1e-2), dps=30)
    Uf = np.array(U) / np.linalg.norm(U, axis=1)[:, None]
    w2 = np.exp(2 * (np.log(1e-2) + np.array(r)))
    P = field.X @ Uf.T
    f = (np.maximum(P, 0.0) * (np.array(s) * w2)).sum(axis=1)
    np.testing.assert_allclose([float(x) for x in mod["f"]], f, rtol=1e-12)
    gmy = field.loss.g_minus_y(field.y, f)
    for j in range(3):
        V = ((P[:, j] > 0) * gmy) @ field.X
        pv = V - (Uf[j] @ V) * Uf[j]
        assert float(mod["lemma4_lhs"][j]) == pytest.approx(np.linalg.norm(pv), rel=1e-10)
    assert float(mod["max_w2"]) == pytest.approx(w2.max(), rel=1e-12)


@pytest.mark.parametrize("loss,alpha", [("exp", 0.2), ("logistic2", 0.0), ("logistic", 0.1), ("square", 0.0), ("poly", 0.15)])
def test_losses_and_leaky_slopes_agree_with_float64_and_polar(loss, alpha):
    field = NetworkField(toy4_field().X, toy4_field().y, loss, alpha)
    ang = np.array([1.2, 2.0, -1.9, 0.4 + np.pi])
    s = np.array([1.0, 1.0, -1.0, 1.0])
    W0 = 0.3 * np.stack([np.cos(ang), np.sin(ang)], 1)
    times = [1.0, 3.0]
    cart = solve_mp(field, W0, 0.3 * s, times, dps=20)
    f64 = solve_cartesian(field, W0, 0.3 * s, np.array(times), rtol=1e-12)
    assert [(e.i, e.j, e.kind) for e in cart.events] == [(e.i, e.j, e.kind) for e in f64.events]
    Wm = np.array(cart.W.tolist(), dtype=float)
    assert np.max(np.abs(f64.W - Wm) / np.linalg.norm(Wm, axis=2)[:, :, None]) <= 1e-9
    seen = []
    with mpmath.workdps(60):  # exactly balanced v0 = s ||W0|| (0.3 s is balanced to 1e-16 only)
        v_bal = [sj * mpmath.sqrt(mpmath.mpf(w[0]) ** 2 + mpmath.mpf(w[1]) ** 2) for sj, w in zip(s, W0)]
    cart = solve_mp(field, W0, v_bal, times, dps=20)
    pol = solve_mp(field, W0, v_bal, times, dps=20, form="polar", progress=seen.append)
    assert seen and seen[-1] == 3.0 and all(b >= a for a, b in zip(seen, seen[1:]))
    with mpmath.workdps(40):
        for k in range(2):
            for j in range(4):
                scale = mpmath.sqrt(mpmath.fsum(x * x for x in cart.W[k, j]))
                assert max(abs(x - y) for x, y in zip(pol.W[k, j], cart.W[k, j])) < mpmath.mpf(10) ** -19 * scale
    assert [(e.i, e.j, e.kind) for e in cart.events] == [(e.i, e.j, e.kind) for e in pol.events]


def test_no_assumption1_sliding_case_p1b_matches_float64():
    """P1b: x1 = (1, 0) (+), x3 = (1, 1) (-): a V+ neuron slides on <x3, w> = 0 (Filippov)."""
    field = NetworkField(np.array([[1.0, 0.0], [1.0, 1.0]]), np.array([1.0, -1.0]), "exp")
    W0 = 1e-2 * np.array([[np.cos(np.radians(-46.0)), np.sin(np.radians(-46.0))]])
    f64 = solve_cartesian(field, W0, np.array([1e-2]), np.array([1.0, 6.0]), rtol=1e-12)
    mp = solve_mp(field, W0, [1e-2], [1.0, 6.0], dps=25, estimate="rerun")
    assert [(e.i, e.j, e.kind) for e in mp.events] == [(1, 0, "sliding")] == [(e.i, e.j, e.kind) for e in f64.events]
    assert abs(float(mp.events[0].t) - f64.events[0].t) < 1e-10
    assert np.max(np.abs(np.array(mp.W.tolist(), dtype=float) - f64.W)) < 1e-12
    assert mp.stats["rerun_events_match"] and mp.error_estimate < 1e-22


@pytest.mark.filterwarnings("error")
def test_long_horizon_steps_do_not_overflow_the_step_polynomials():
    """Late steps of a long run are ~1e9 long at order ~30: the step polynomials' terms c_k h^k are formed in mpfr
    and normalised, the screening's by exact power-of-two scaling (h^k alone overflows a float: this run used to warn and
    then raise OverflowError between t = 1e8 and 1e10 at 30 digits)."""
    import verify

    X = np.array([[1, .1, .1], [.1, 1, .1], [.1, .1, 1], [3, .5, .2], [-1, -.2, -.1], [-.3, -1, -.2], [-.1, -.4, -1],
                  [-.5, -2, -.5], [-.2, -1.5, -2.5]])
    y = np.array([1.0] * 4 + [-1.0] * 5)
    V = np.array([[1.0, 0, 0], [0, -1.0, 0], [-1.0, -1, -1], [1.0, -1, 0]])
    W0 = 1e-3 * V / np.linalg.norm(V, axis=1)[:, None]
    v0 = 1e-3 * np.array([1.0, 1.0, -1.0, -1.0])
    ds = verify.Dataset(X, y)
    mp_run = verify.simulate(ds, W0, v0, 1e10, loss="poly", backend="mp", dps=30, times=[1e10])
    f64 = verify.simulate(ds, W0, v0, 1e10, loss="poly", times=[1e10], rtol=1e-11)
    W = np.array(mp_run.W[-1], dtype=float)
    rel = np.linalg.norm(W - f64.W[-1], axis=1) / np.linalg.norm(f64.W[-1], axis=1)
    assert rel.max() < 1e-6


def test_polar_step_cap_counts_only_the_rows_a_neuron_sees():
    """Two positive neurons, so no neuron fits the negatives (|g_i| = 1/2 forever). Before the cap counted only a
    neuron's own rows it held the steps near 1.3 time units (~8,000 steps to t = 1e4); now they grow like the
    float64 engine's."""
    import verify

    X = np.array([[1, .1, .1], [.1, 1, .1], [.1, .1, 1], [-1, -.2, -.1], [-.3, -1, -.2], [-.1, -.4, -1]])
    y = np.array([1.0] * 3 + [-1.0] * 3)
    W0 = np.array([[1.0, 0.0, 0.0], [0.0, 0.6, 0.8]])
    v0 = np.array([1.0, 1.0])
    ds = verify.Dataset(X, y)
    mp_run = verify.simulate(ds, W0, v0, 1e4, loss="logistic", backend="mp", dps=16, log_eps=math.log(1e-3), times=[1e4])
    f64 = verify.simulate(ds, W0, v0, 1e4, loss="logistic", log_eps=math.log(1e-3), times=[1e4], rtol=1e-11)
    assert mp_run.stats["steps"] < 1000
    W = np.array(mp_run.W[-1], dtype=float)
    assert np.max(np.linalg.norm(W - f64.W[-1], axis=1) / np.linalg.norm(f64.W[-1], axis=1)) < 1e-6


def test_surface_flags_are_released_after_event_steps():
    """30 neurons on 3-d data: every mp step used to end in an event, so the on-surface flags of pairs that had left
    their surfaces were never cleared; the root search then reported crossings of pairs far from their surfaces
    (431 events against float64's 119), and a projection onto such rows zeroed a direction: NaN from t ~ 1.3, 64 s.
    Now the run agrees with float64 event for event (2 s)."""
    from properties.phuong_lampert2021 import datasets as D
    from properties.phuong_lampert2021 import theorem1 as T

    import verify

    ds = D.span(2, 1, 3, seed=9494)
    sc = T.gaussian_scenario(ds, 30, 1e-4, 0)
    times = list(np.geomspace(1e-3, 30.0, 31))
    mp_run = verify.simulate(ds, sc.init.W0, sc.init.v0, 30.0, loss="logistic", times=times, log_eps=sc.init.log_eps,
                             backend="mp", dps=16)
    f64 = verify.simulate(ds, sc.init.W0, sc.init.v0, 30.0, loss="logistic", times=times, log_eps=sc.init.log_eps, rtol=1e-11)
    assert [(e.i, e.j, e.kind) for e in mp_run.events] == [(e.i, e.j, e.kind) for e in f64.events]
    assert np.abs(np.array(mp_run.r, dtype=float) - f64.r).max() < 1e-7
    assert np.abs(np.array(mp_run.U, dtype=float) - f64.U).max() < 1e-7


def test_a_non_finite_mp_state_is_a_numerical_error_never_a_result():
    import verify
    from verify.simulate import nonfinite_state

    X = np.array([[1.0, 0.0], [0.0, -1.0]])
    y = np.array([1.0, -1.0])
    traj = verify.simulate((X, y), np.array([[0.1, 0.2]]), np.array([0.2]), 1.0, backend="mp", dps=20)
    assert nonfinite_state(traj) is None
    traj.W[-1, 0, 0] = mpmath.mpf("1e-5000")  # tiny is finite in mp
    assert nonfinite_state(traj) is None
    traj.W[-1, 0, 0] = mpmath.mpf("nan")
    assert "not finite" in nonfinite_state(traj)
