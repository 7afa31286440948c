"""Accuracy of the float64 event engine measured against the mp backend on the benchmark problem.

Problem: that of ``bench_gf.py`` (orthogonally separable data n = 40, d = 10, mu = 0.3, norms
in [0.5, 2], seed 0; balanced init h = 100, eps = 1e-6; exp loss; horizon 40), Cartesian form.

    python benchmarks/bench_f64_vs_mp.py [--quick] [--dps 30] [--check-dps D | --no-check]
                                         [--rtols 1e-6,1e-8,1e-10,1e-12]

1. The mp backend (``simulate(..., backend="mp", dps=D)``) once: wall time, steps, events and
   its own error estimate (sum of the local tail terms).
2. A check of that reference: a second mp run at ``--check-dps`` digits (default D + 10) on the
   same problem; the largest difference between the two (relative per neuron, and event
   times) bounds the reference's error far below what float64 can resolve.
3. The float64 event engine (``simulate(..., rtol=r)``) per rtol: the largest relative state
   error at the sample times, err = max_{t, j} max(||w_j - w_j^mp||_inf, |v_j - v_j^mp|) /
   ||(w_j^mp, v_j^mp)||, the correct digits -log10(err), the largest event-time difference,
   whether the event sequences (i, j, kind) are identical, the engine's own error_estimate,
   and the wall times of both runs.

Sample times: 7 geometric in [1e-3, 1] (almost all crossings happen before t = 0.1) and 20
evenly spaced up to the horizon. One JSON line per figure. ``--quick``: the small problem of
``bench_gf.py --quick`` (n = 12, d = 4, h = 10, horizon 3), a few seconds.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from pathlib import Path
from typing import Any

import mpmath
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_gf import QUICK, Config, make_data, make_init  # noqa: E402
from verify import simulate  # noqa: E402
from verify.trajectory import Trajectory  # noqa: E402

RTOLS = (1e-6, 1e-8, 1e-10, 1e-12)


def emit(name: str, **fields: Any) -> dict:
    record = {"bench": "bench_f64_vs_mp", "name": name, **fields}
    print(json.dumps(record), flush=True)
    return record


def sample_times(horizon: float) -> np.ndarray:
    """Geometric samples in [1e-3, min(1, horizon/2)] and 20 evenly spaced ones up to the horizon."""
    early = np.geomspace(1e-3, min(1.0, horizon / 2), 7)
    late = np.linspace(horizon / 20, horizon, 20)
    return np.unique(np.concatenate([early, late]))


def as_float(traj: Trajectory) -> tuple[np.ndarray, np.ndarray]:
    """(W, v) of an mp trajectory as float64 arrays (each mpf rounded once)."""
    return np.array(traj.W.tolist(), dtype=float), np.array(traj.v.tolist(), dtype=float)


def state_error(W: np.ndarray, v: np.ndarray, W_ref: np.ndarray, v_ref: np.ndarray) -> float:
    """max over samples and neurons of max(|w - w_ref|_inf, |v - v_ref|) / ||(w_ref, v_ref)||."""
    scale = np.sqrt((W_ref**2).sum(axis=2) + v_ref**2)
    scale = np.where(scale > 0, scale, 1.0)
    return float(max(np.max(np.abs(W - W_ref) / scale[:, :, None]), np.max(np.abs(v - v_ref) / scale)))


def event_comparison(a: Trajectory, ref: Trajectory) -> tuple[bool, float]:
    """(identical (i, j, kind) sequences, max |t_a - t_ref| over them; nan when they differ)."""
    same = [(e.i, e.j, e.kind) for e in a.events] == [(e.i, e.j, e.kind) for e in ref.events]
    if not same:
        return False, math.nan
    diffs = [abs(float(x.t) - float(y.t)) for x, y in zip(a.events, ref.events)]
    return True, max(diffs, default=0.0)


def mp_difference(a: Trajectory, b: Trajectory, digits: int) -> float:
    """Largest relative (per neuron) difference between two mp runs at the samples, in mpmath."""
    worst = mpmath.mpf(0)
    with mpmath.workdps(digits):
        for k in range(a.W.shape[0]):
            for j in range(a.W.shape[1]):
                sc = mpmath.sqrt(mpmath.fsum(x * x for x in b.W[k, j]) + b.v[k, j] ** 2) or mpmath.mpf(1)
                diff = max([abs(x - y) for x, y in zip(a.W[k, j], b.W[k, j])] + [abs(a.v[k, j] - b.v[k, j])])
                worst = max(worst, diff / sc)
    return float(worst)


def mp_event_difference(a: Trajectory, b: Trajectory, digits: int) -> tuple[bool, float]:
    same = [(e.i, e.j, e.kind) for e in a.events] == [(e.i, e.j, e.kind) for e in b.events]
    if not same:
        return False, math.nan
    with mpmath.workdps(digits):
        return True, float(max((abs(x.t - y.t) for x, y in zip(a.events, b.events)), default=mpmath.mpf(0)))


def run_mp(ds, W, v, horizon: float, times: np.ndarray, dps: int) -> tuple[Trajectory, float]:
    start = time.perf_counter()
    traj = simulate(ds, W, v, horizon, backend="mp", dps=dps, times=times)
    return traj, time.perf_counter() - start


def mp_fields(traj: Trajectory, wall: float) -> dict:
    st = traj.stats
    return {
        "dps": st["dps"],
        "wall_s": round(wall, 2),
        "steps": st["steps"],
        "events": len(traj.events),
        "crossings": len(traj.crossings()),
        "order": st["order"],
        "mp_orders_per_step": round(st["mp_orders"] / max(1, st["steps"]), 2),
        "error_estimate": traj.error_estimate,
        "balancedness_drift": traj.balancedness_drift,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small problem and short horizon (smoke test)")
    parser.add_argument("--dps", type=int, default=30, help="digits of the mp reference run (default 30)")
    parser.add_argument("--check-dps", type=int, default=None, help="digits of the check run (default dps + 10)")
    parser.add_argument("--no-check", action="store_true", help="skip the second mp run")
    parser.add_argument("--rtols", default=",".join(f"{r:g}" for r in RTOLS), help="float64 tolerances, comma-separated")
    args = parser.parse_args(argv)
    cfg: Config = QUICK if args.quick else Config()
    rtols = [float(r) for r in args.rtols.split(",")]
    ds = make_data(cfg.n, cfg.d, cfg)
    W0, v0 = make_init(cfg.h, cfg.d, cfg)
    W, v = cfg.eps * W0, cfg.eps * v0
    times = sample_times(cfg.horizon)
    problem = {"n": cfg.n, "d": cfg.d, "h": cfg.h, "eps": cfg.eps, "loss": "exp", "horizon": cfg.horizon, "mu": cfg.mu, "seed": cfg.seed, "samples": len(times)}
    emit("setup", quick=args.quick, python=platform.python_version(), numpy=np.__version__, mpmath=mpmath.__version__, machine=platform.machine(), problem=problem)

    ref, ref_wall = run_mp(ds, W, v, cfg.horizon, times, args.dps)
    emit("mp", **mp_fields(ref, ref_wall))
    if not args.no_check:
        dps2 = args.check_dps or args.dps + 10
        chk, chk_wall = run_mp(ds, W, v, cfg.horizon, times, dps2)
        same, dt = mp_event_difference(ref, chk, dps2 + 10)
        emit("mp_check", **mp_fields(chk, chk_wall), reference_dps=args.dps, reference_error=mp_difference(ref, chk, dps2 + 10), event_time_diff=dt, events_match=same)

    W_ref, v_ref = as_float(ref)
    simulate(ds, W, v, min(cfg.horizon, 0.1), rtol=rtols[0])  # warm-up: compiled kernels out of the timings
    for rtol in rtols:
        start = time.perf_counter()
        tr = simulate(ds, W, v, cfg.horizon, rtol=rtol, times=times)
        wall = time.perf_counter() - start
        err = state_error(tr.W, tr.v, W_ref, v_ref)
        same, dt = event_comparison(tr, ref)
        emit(
            "float64",
            rtol=rtol,
            state_rel_err=err,
            digits=round(-math.log10(err), 2) if err > 0 else math.inf,
            event_time_err=dt,
            events_match=same,
            events=len(tr.events),
            float64_error_estimate=tr.error_estimate,
            float64_wall_s=round(wall, 3),
            mp_wall_s=round(ref_wall, 2),
            mp_dps=args.dps,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
