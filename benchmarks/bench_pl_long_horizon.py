"""Long-horizon benchmark on seed 000's reference fixture (claim sheet 000 section 7) to t = 1e8.

Problem: the sheet's fixture data (d = 3, n = 9), p = 4, lambda = 1e-3, balanced init
v = [e1, -e2, -(1,1,1), (1,-1,0)], a(0) = lambda (+1, +1, -1, -1), summed logistic loss, simulated with
``verify.claims.run.execute(fixture_scenario(), 1e8, samples=161, spacing="log", papers=("000",))``:

- ``events``: the float64 event engine at rtol 1e-11 (log-time): one warm-up run (JIT compilation, imports),
  then ``--repeat`` timed runs; wall time median (and min / max) of execute() (the seed-000 audit plus the
  simulation: ``wall_s``) and of the simulation alone (``simulate_wall_s``), rhs evaluations, steps, events, the
  engine's error estimate;
- ``mp``: the mpmath Taylor backend at dps 16, the same sampling (``--mp-repeat`` timed runs after the events
  warm-up; ``--skip-mp`` leaves it out); its steps, events, tail error estimate and the largest relative state
  difference from the events run.

Each line also carries the fixture values at t = 1e8 (neuron groups at that time: D_W of eq. (8), the ratio
||W+||_F^2 / ||W-||_F^2 of PL-X5, the cosines of neurons 0..3 with w^_{sign a_j}) next to the sheet's
(D_W 0.0355, ratio 1.1744, cosines 1.00000 1.00000 .99864 .99862), their differences and whether they agree to
the sheet's printed digits (``matches_sheet``). Target (issue of the long-horizon fixture): the events run
under 5 s; ``target_met``.

    python benchmarks/bench_pl_long_horizon.py [--repeat 5] [--mp-repeat 1] [--skip-mp]

One JSON line per measurement (``{"bench": "bench_pl_long_horizon", "name": ...}``), as the other benchmarks.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verify.claims.run import execute  # noqa: E402

from properties.phuong_lampert2021 import measures  # noqa: E402
from properties.phuong_lampert2021.scenarios import fixture_scenario  # noqa: E402

HORIZON = 1e8
SAMPLES = 161
RTOL = 1e-11
DPS = 16
TARGET_S = 5.0
SHEET = {"D_W": 0.0355, "ratio": 1.1744, "cos_w": [1.00000, 1.00000, 0.99864, 0.99862]}
SHEET_TOL = {"D_W": 1e-4, "ratio": 1e-4, "cos_w": 1e-5}  # half a unit of the printed digit, plus rounding slack


def emit(name: str, **fields: Any) -> None:
    print(json.dumps({"bench": "bench_pl_long_horizon", "name": name, **fields}), flush=True)


def run_once(backend: str) -> tuple[Any, float]:
    """One execute() of the fixture to 1e8; (run, wall seconds)."""
    options = {"dps": DPS} if backend == "mp" else {"rtol": RTOL}
    start = time.perf_counter()
    run = execute(fixture_scenario(), HORIZON, samples=SAMPLES, spacing="log", papers=("000",), backend=backend, **options)
    return run, time.perf_counter() - start


def fixture_values(run: Any) -> dict[str, Any]:
    """D_W, the group norm ratio and the cosines with w^_sign at the last sample, against the sheet."""
    X, y = run.X, run.y
    W, a = np.asarray(run.W[-1], float), np.asarray(run.v[-1], float)
    w_plus, w_minus = np.asarray(run.audit.w_plus), np.asarray(run.audit.w_minus)
    sp, sm = measures.extremal_sectors(X, y)
    grp = measures.groups(X, W, a, sp, sm)
    D_W, D_a = measures.theorem1_distances(W, a, grp, w_plus, w_minus)
    ratio = measures.group_norm_ratio(W, grp)
    cos = measures.cosines(W, np.sign(np.asarray(run.v0, float)), w_plus, w_minus).tolist()
    diff = {"D_W": abs(D_W - SHEET["D_W"]), "ratio": abs(ratio - SHEET["ratio"]) if ratio is not None else None,
            "cos_w": max(abs(c - s) for c, s in zip(cos, SHEET["cos_w"]))}
    matches = all(diff[k] is not None and diff[k] <= SHEET_TOL[k] for k in diff)
    return {"t": float(run.times[-1]), "groups": grp.tolist(), "D_W": D_W, "D_a": D_a, "ratio": ratio, "cos_w": cos,
            "sheet": SHEET, "abs_diff_from_sheet": diff, "matches_sheet": matches}


def timed(backend: str, repeat: int) -> tuple[Any, list[float], list[float]]:
    """``repeat`` runs: the last run, the execute() wall times and simulate()'s own (``stats["wall_time_s"]``)."""
    walls, sim, run = [], [], None
    for _ in range(repeat):
        run, wall = run_once(backend)
        walls.append(wall)
        sim.append(float(run.trajectory.stats["wall_time_s"]))
    return run, walls, sim


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed events runs after the warm-up (default 5)")
    parser.add_argument("--mp-repeat", type=int, default=1, help="timed mp runs (default 1)")
    parser.add_argument("--skip-mp", action="store_true", help="leave out the mp backend")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.mp_repeat < 1:
        parser.error("--repeat and --mp-repeat must be at least 1")
    emit("setup", python=platform.python_version(), numpy=np.__version__, machine=platform.machine(),
         problem={"fixture": "sheet 000 section 7", "p": 4, "lambda": 1e-3, "loss": "logistic", "horizon": HORIZON,
                  "samples": SAMPLES, "spacing": "log"})
    _, warm = run_once("events")
    run, walls, sims = timed("events", args.repeat)
    traj = run.trajectory
    median = statistics.median(walls)
    emit("events", rtol=RTOL, wall_s=median, wall_min_s=min(walls), wall_max_s=max(walls), simulate_wall_s=statistics.median(sims),
         repeat=len(walls), warmup_s=warm,
         rhs_evals=traj.stats.get("rhs_evals"), steps=traj.stats.get("steps"), rejected=traj.stats.get("rejected"),
         events=len(traj.events), log_time=traj.stats.get("log_time"), error_estimate=float(traj.error_estimate),
         target_s=TARGET_S, target_met=median < TARGET_S, **fixture_values(run))
    if not args.skip_mp:
        mp_run, mp_walls, mp_sims = timed("mp", args.mp_repeat)
        mt = mp_run.trajectory
        Wm, vm = np.asarray(mp_run.W, float), np.asarray(mp_run.v, float)
        We, ve = np.asarray(run.W, float), np.asarray(run.v, float)
        scale = np.sqrt(np.sum(Wm**2, axis=2) + vm**2)
        state_diff = max(float(np.max(np.abs(We - Wm) / scale[:, :, None])), float(np.max(np.abs(ve - vm) / scale)))
        emit("mp", dps=DPS, wall_s=statistics.median(mp_walls), simulate_wall_s=statistics.median(mp_sims), repeat=len(mp_walls), steps=mt.stats.get("steps"),
             order=mt.stats.get("order"), events=len(mt.events), error_estimate=float(mt.error_estimate),
             max_rel_state_diff_vs_events=state_diff, wall_ratio_mp_over_events=statistics.median(mp_walls) / median,
             **fixture_values(mp_run))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
