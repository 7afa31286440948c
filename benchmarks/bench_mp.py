"""Benchmark of the mp (Taylor, mpmath) backend against ``mpmath.odefun``.

Prints one JSON line per measurement. Problem: the smooth single-mode n = 1 case (x = (1, 0),
y = +1, exp loss, one neuron aligned with x, balanced, q0 = v0^2 = 1e-2), whose output
q = v^2 solves Ei(q(t)) - Ei(q0) = 2t; the reference q(T) is computed with mpmath.findroot on
mpmath.ei at 2 dps + 20 digits. For each digits D in (15, 30, 60) (or ``--digits``):

- ``solve_mp`` at dps = D (default order 1.15 D + 1, tolerance 10^-D);
- ``mpmath.odefun`` (its Taylor method, default tolerance = the working precision) at
  mp.dps = D, on the same ODE system (w1, w2, v) written for the active mode.

Both integrate to the horizon T (``--horizon``, default 2) and report wall time per unit
horizon and the digits of agreement of q(T) with the closed form, -log10(|q - q_ref|/q_ref).
Then the float64 events backend against mp at 40 digits on the toy4 problem (digits of
agreement vs rtol; odefun has no event handling, so no comparison there), and one larger
multi-mode run (n = 10, d = 5, h = 10, 36 events) with its cost.

    python benchmarks/bench_mp.py [--digits 15,30,60] [--horizon 2] [--skip-odefun] [--skip-table] [--skip-multimode]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import mpmath
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verify.dynamics.events import solve_cartesian  # noqa: E402
from verify.dynamics.field import NetworkField  # noqa: E402
from verify.dynamics.mp import solve_mp  # noqa: E402

Q0 = "0.01"


def reference_q(T: float, digits: int) -> mpmath.mpf:
    with mpmath.workdps(2 * digits + 20):
        target = mpmath.ei(mpmath.mpf(Q0)) + 2 * mpmath.mpf(T)
        guess = mpmath.mpf(Q0) * mpmath.exp(2 * T)
        guess = mpmath.findroot(lambda u: mpmath.ei(u) - target, (mpmath.mpf(Q0), 40), solver="anderson") if T > 0 else guess
        return mpmath.findroot(lambda u: mpmath.ei(u) - target, guess)


def digits_of(v, ref) -> float:
    """Digits of q = v^2 against ref (squared at 200 digits: mpf arithmetic uses the global precision)."""
    with mpmath.workdps(200):
        err = abs(v * v - ref) / ref
        return float("inf") if err == 0 else float(-mpmath.log10(err))


def one_point_field() -> NetworkField:
    return NetworkField(np.array([[1.0, 0.0]]), np.array([1.0]), "exp")


def bench_ours(D: int, T: float, ref) -> dict:
    field = one_point_field()
    start = time.perf_counter()
    tr = solve_mp(field, [["0.1", "0"]], ["0.1"], [T], dps=D)
    wall = time.perf_counter() - start
    return {"bench": "mp_vs_odefun", "method": "relu-verify mp (Taylor)", "digits_requested": D, "horizon": T, "s_per_unit_time": wall / T, "wall_s": wall, "digits_correct": round(digits_of(tr.v[-1, 0], ref), 2), "steps": tr.stats["steps"], "order": tr.stats["order"], "error_estimate": tr.error_estimate}


def bench_odefun(D: int, T: float, ref) -> dict:
    with mpmath.workdps(D):

        def F(t, z):
            w1, w2, v = z
            e = mpmath.exp(-v * w1)  # f = v relu(<w, x>) = v w1 in the active mode
            return [v * e, mpmath.mpf(0), w1 * e]

        start = time.perf_counter()
        sol = mpmath.odefun(F, 0, [mpmath.mpf(Q0) ** 0.5, mpmath.mpf(0), mpmath.mpf(Q0) ** 0.5])
        z = sol(mpmath.mpf(T))
        wall = time.perf_counter() - start
    return {"bench": "mp_vs_odefun", "method": "mpmath.odefun (taylor)", "digits_requested": D, "horizon": T, "s_per_unit_time": wall / T, "wall_s": wall, "digits_correct": round(digits_of(z[2], ref), 2)}


def toy4():
    a = 0.3
    X = np.array([[np.cos(a), np.sin(a)], [np.cos(a), -np.sin(a)], [-np.cos(a), np.sin(a)], [-np.cos(a), -np.sin(a)]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    ang = np.array([1.2, 2.0, -1.9, 0.4 + np.pi])
    s = np.array([1.0, 1.0, -1.0, 1.0])
    eps = 1e-3
    return NetworkField(X, y, "exp"), eps * np.stack([np.cos(ang), np.sin(ang)], 1), s * eps


def float64_table(dps: int = 40) -> list[dict]:
    """Digits of agreement of the float64 events backend with mp, per rtol (toy4, horizon 12)."""
    field, W0, v0 = toy4()
    times = np.linspace(0.5, 12.0, 24)
    ref = solve_mp(field, W0, v0, times, dps=dps)
    Wm = np.array(ref.W.tolist(), dtype=float)
    vm = np.array(ref.v.tolist(), dtype=float)
    scale = np.sqrt(np.sum(Wm**2, axis=2) + vm**2)
    rows = []
    for rtol in (1e-6, 1e-8, 1e-10, 1e-12):
        start = time.perf_counter()
        tr = solve_cartesian(field, W0, v0, times, rtol=rtol)
        wall = time.perf_counter() - start
        err = max(float(np.max(np.abs(tr.W - Wm) / scale[:, :, None])), float(np.max(np.abs(tr.v - vm) / scale)))
        same = [(e.i, e.j, e.kind) for e in tr.events] == [(e.i, e.j, e.kind) for e in ref.events]
        ev = max(abs(a.t - float(b.t)) for a, b in zip(tr.events, ref.events)) if same and tr.events else float("nan")
        rows.append({"bench": "float64_vs_mp", "rtol": rtol, "state_rel_err": err, "digits": round(-float(np.log10(err)), 2), "event_time_err": ev, "events_match": same, "float64_error_estimate": tr.error_estimate, "wall_s": wall})
    return rows


def multimode_problem() -> tuple[NetworkField, np.ndarray, np.ndarray]:
    """n = 10, d = 5, h = 10, Assumption 1 data (y_i x_i = e_1 + noise), balanced eps = 1e-3 init."""
    rng = np.random.default_rng(0)
    n, d, h = 10, 5, 10
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    base = np.zeros(d)
    base[0] = 1.0
    X = y[:, None] * (base + 0.5 * rng.normal(size=(n, d)) / np.sqrt(d))
    W0 = 1e-3 * rng.normal(size=(h, d)) / np.sqrt(d)
    v0 = rng.choice([-1.0, 1.0], size=h) * np.linalg.norm(W0, axis=1)
    return NetworkField(X, y, "exp"), W0, v0


def multimode(dps: int = 30) -> dict:
    """The multi-mode problem over horizon 10: mp wall time, steps, events, and agreement with
    the float64 backend at rtol 1e-12."""
    field, W0, v0 = multimode_problem()
    n, d = field.X.shape
    h = W0.shape[0]
    start = time.perf_counter()
    tr = solve_mp(field, W0, v0, [5.0, 10.0], dps=dps)
    wall = time.perf_counter() - start
    f64 = solve_cartesian(field, W0, v0, np.array([5.0, 10.0]), rtol=1e-12)
    Wm = np.array(tr.W.tolist(), dtype=float)
    err = float(np.max(np.abs(f64.W - Wm) / np.linalg.norm(Wm, axis=2)[:, :, None]))
    same = [(e.i, e.j, e.kind) for e in tr.events] == [(e.i, e.j, e.kind) for e in f64.events]
    return {"bench": "mp_multimode", "n": n, "d": d, "h": h, "horizon": 10.0, "dps": dps, "wall_s": wall, "s_per_unit_time": wall / 10.0, "steps": tr.stats["steps"], "order": tr.stats["order"], "events": len(tr.events), "float64_rtol1e-12_rel_err": err, "events_match_float64": same, "error_estimate": tr.error_estimate}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--digits", default="15,30,60")
    p.add_argument("--horizon", type=float, default=2.0)
    p.add_argument("--skip-odefun", action="store_true")
    p.add_argument("--skip-table", action="store_true")
    p.add_argument("--skip-multimode", action="store_true")
    args = p.parse_args(argv)
    print(json.dumps({"bench": "env", "python": platform.python_version(), "mpmath": mpmath.__version__, "backend": mpmath.libmp.BACKEND}))
    for D in (int(x) for x in args.digits.split(",")):
        ref = reference_q(args.horizon, D)
        ours = bench_ours(D, args.horizon, ref)
        print(json.dumps(ours), flush=True)
        if not args.skip_odefun:
            theirs = bench_odefun(D, args.horizon, ref)
            theirs["speedup_of_ours"] = round(theirs["wall_s"] / ours["wall_s"], 2)
            print(json.dumps(theirs), flush=True)
    if not args.skip_table:
        for row in float64_table():
            print(json.dumps(row), flush=True)
    if not args.skip_multimode:
        print(json.dumps(multimode()), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
