"""``verify sweep CLAIM --grid KEY=V1,V2,... --seeds K --out DIR``: a claim's margin over a parameter grid,
written to ``DIR/results.parquet`` with its phase diagram ``DIR/phase.png``; ``verify sweep --plot DIR``
redraws the diagram."""

from __future__ import annotations

import argparse
import sys

from verify.errors import InputError


def register(sub: argparse._SubParsersAction) -> None:
    from verify.scaleout.cluster import add_cluster_options
    from verify.scaleout.sweep import SWEEP_KEYS

    p = sub.add_parser(
        "sweep", help="a claim's margin over a grid of scenario parameters (Parquet + phase diagram)",
        description="Fix the claim's scenario() parameters at every grid point, draw K seeded scenarios there and "
                    "write one row per (grid point, seed) to DIR/results.parquet (grid keys, seed, margin, error, "
                    "vacuous, violated, status, time_s); rows already written are skipped (resumable). The phase "
                    "diagram goes to DIR/phase.png. 'verify sweep --plot DIR' only redraws it.")
    p.add_argument("claim", nargs="?", metavar="CLAIM", help="catalogue claim id or path/to/file.py::NAME")
    p.add_argument("--grid", action="append", default=[], metavar="KEY=V1,V2,...",
                   help=f"a scenario() argument and its values (repeatable); KEY is one of {', '.join(SWEEP_KEYS)}")
    p.add_argument("--seeds", type=int, default=1, metavar="K",
                   help="scenarios drawn per grid point: seeds 0..K-1 (default 1)")
    p.add_argument("--out", metavar="DIR", help="output directory (results.parquet, phase.png)")
    p.add_argument("--plot", metavar="DIR", help="only draw DIR/phase.png from the results already in DIR")
    add_cluster_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the sweep (or only draw the plot); exit 0, 4 when some rows failed, 130 when interrupted."""
    from verify.cli.outputs import output_dir
    from verify.scaleout.plot import phase_diagram

    if args.plot:
        if args.claim or args.grid or args.out:
            raise InputError("--plot DIR only draws the phase diagram: give no CLAIM, --grid or --out with it")
        print(f"phase diagram: {phase_diagram(args.plot)}")
        return 0
    if not args.claim:
        raise InputError("give a CLAIM to sweep (or --plot DIR)")
    if not args.out:
        raise InputError("--out DIR is required")
    if args.seeds < 1:
        raise InputError(f"--seeds must be >= 1, got {args.seeds}")
    from verify.claims.registry import load_target
    from verify.scaleout.sweep import parse_grid, run_sweep

    grid = parse_grid(args.grid)
    claim = load_target(args.claim)
    out = output_dir(args.out, "--out")
    summary = run_sweep(claim, grid, args.seeds, out, workers=args.workers, scheduler=args.scheduler)
    print(f"{summary.rows} row(s) in {summary.results} ({summary.new} new, {summary.skipped} already written)")
    if summary.rows:
        print(f"phase diagram: {phase_diagram(out)}")
    if summary.interrupted:
        print(f"verify: interrupted: {summary.rows} finished row(s) kept in {summary.results}", file=sys.stderr)
        return 130
    if summary.failed:
        print(f"verify: error: {summary.failed} row(s) failed (first: {summary.failures[0]}); a rerun retries them",
              file=sys.stderr)
        return 4
    return 0
