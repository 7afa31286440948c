"""``verify reproduce --list`` and ``verify reproduce NAME [--out DIR] [--quick]`` (DESIGN.md section 6).

Exit 0 when every check of the experiment passed, 1 when one failed, 2 on bad input.
"""

from __future__ import annotations

import argparse
import sys

from verify.cli.outputs import output_dir
from verify.errors import InputError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "reproduce", help="run a paper's own experiment and check its stated outcomes",
        description="Reproduce an experiment of an installed paper: writes DIR/summary.json (checks on the paper's "
                    "stated qualitative outcomes) and PNG figures. Exit 0 iff every check passed.")
    p.add_argument("name", nargs="?", metavar="NAME", help="experiment name (see --list)")
    p.add_argument("--list", action="store_true", help="list the experiments, one per line, name first")
    p.add_argument("--out", metavar="DIR", help="output directory (default: reproductions/NAME)")
    p.add_argument("--quick", action="store_true", help="a reduced run (well under a minute on 2 cores)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from verify.reproduce import experiments, reproduce

    if args.list:
        if args.name:
            raise InputError("give either --list or an experiment NAME")
        for name, (paper_id, exp) in sorted(experiments().items()):
            print(f"{name}\t{paper_id}\t{exp.title}")
        return 0
    if not args.name:
        raise InputError("verify reproduce needs an experiment NAME or --list")
    if args.name not in experiments():
        raise InputError(f"unknown experiment {args.name!r}; see 'verify reproduce --list'")
    out = output_dir(args.out or f"reproductions/{args.name}", "--out")
    tty = sys.stderr.isatty()

    def progress(message: str) -> None:
        if tty:
            print(f"\r{args.name}: {message[:70]:<70}", end="", file=sys.stderr, flush=True)

    summary = reproduce(args.name, out, quick=args.quick, progress=progress)
    if tty:
        print(file=sys.stderr)
    for c in summary["checks"]:
        print(f"{'PASS' if c['passed'] else 'FAIL'}  {c['name']}: {c['detail']}")
    failed = sum(not c["passed"] for c in summary["checks"])
    print(f"{summary['name']} ({summary['paper']}): {len(summary['checks']) - failed}/{len(summary['checks'])} checks passed; "
          f"summary: {out / 'summary.json'}")
    return 1 if failed else 0
