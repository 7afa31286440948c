"""Scale-out speed-up: ``verify check`` on a local Dask cluster of N worker processes against the serial run.

    python benchmarks/bench_scaleout.py [--paper 004] [--profile ci] [--workers 2] [--seed 0] [--quick]
                                        [--hinted] [--keep DIR]

Runs ``verify check --paper P --profile PROF --seed S`` twice, serially and with ``--workers N`` (each its
own process, wall-clock time from start to exit, cluster start-up included), checks that both reports agree
on every claim's verdict, examples and min margin, and prints one JSON line: ``serial_s``, ``workers_s``,
``speedup`` (serial_s / workers_s), ``claims``, ``same_results`` (and the ids that differ), ``cpus``.
``--hinted``: the cluster run writes into a directory holding the serial report, so its claims start longest
first (what a rerun into the same ``--report`` does). ``--quick``: two claims, budget 2 (a smoke run). Reports go
to a temporary directory, or to ``--keep DIR``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VERIFY = Path(sys.executable).parent / "verify"
COMPARED = ("verdict", "examples", "vacuous", "min_margin", "min_margin_error")


def timed_check(args: list[str], report: Path) -> tuple[float, dict[str, dict]]:
    """Wall-clock seconds of one ``verify check`` process and its claims by id."""
    start = time.perf_counter()
    res = subprocess.run([str(VERIFY), "check", *args, "--report", str(report)], cwd=ROOT, capture_output=True,
                         text=True)
    wall = time.perf_counter() - start
    if res.returncode not in (0, 1):  # 1: some verdict unexpected; the timing still counts
        raise SystemExit(f"verify check {' '.join(args)} exited {res.returncode}: {res.stderr.strip()[-500:]}")
    claims = json.loads((report / "report.json").read_text())["claims"]
    return wall, {c["id"]: c for c in claims}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", default="004")
    ap.add_argument("--profile", default="ci")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="two claims at budget 2 (smoke run)")
    ap.add_argument("--hinted", action="store_true", help="cluster run into a copy of the serial report's directory")
    ap.add_argument("--keep", metavar="DIR", help="keep both reports under DIR (serial/, workers/)")
    opts = ap.parse_args()
    base = ["--paper", opts.paper, "--profile", opts.profile, "--seed", str(opts.seed)]
    if opts.quick:
        base += ["EA-A2", "P2-balanced-zero", "--budget", "2"]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(opts.keep) if opts.keep else Path(tmp)
        serial_s, serial = timed_check(base, root / "serial")
        if opts.hinted:
            shutil.copytree(root / "serial", root / "workers", dirs_exist_ok=True)
        workers_s, parallel = timed_check([*base, "--workers", str(opts.workers)], root / "workers")
    differing = sorted(cid for cid in set(serial) | set(parallel)
                       if any(serial.get(cid, {}).get(k) != parallel.get(cid, {}).get(k) for k in COMPARED))
    same = list(serial) == list(parallel) and not differing
    print(json.dumps({"bench": "scaleout", "command": f"verify check {' '.join(base)}", "workers": opts.workers,
                      "serial_s": round(serial_s, 1), "workers_s": round(workers_s, 1),
                      "speedup": round(serial_s / workers_s, 2), "claims": len(serial), "same_results": same,
                      "differing": differing, "hinted": opts.hinted, "cpus": os.cpu_count()}))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
