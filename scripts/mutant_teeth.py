"""Measure which catalogue claims catch each planted engine bug (verify/evidence/mutants.py).

Usage: .venv/bin/python scripts/mutant_teeth.py [MUTANT_ID ...] [--profile ci] [--seed 0] [--paper ID]
Prints one JSON line per mutant: {"mutant", "caught_by": {claim id: verdict}, "time_s"}; the baseline
(no mutant) first, whose unexpected claims are not counted for any mutant. The caught_by ids are
what a paper's teeth table (e.g. properties/min2024_early_alignment/teeth.py) records.
"""

from __future__ import annotations

import argparse
import json
import time

from verify.claims.registry import catalogue
from verify.evidence.mutants import MUTANTS, unexpected_under


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("mutants", nargs="*", help="mutant ids (default: all)")
    p.add_argument("--profile", default="ci")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--paper", action="append")
    args = p.parse_args(argv)
    claims = catalogue(args.paper)
    start = time.perf_counter()
    baseline = unexpected_under(None, claims, profile=args.profile, seed=args.seed)
    print(json.dumps({"mutant": None, "unexpected": baseline, "time_s": round(time.perf_counter() - start, 1)}), flush=True)
    for mid in args.mutants or list(MUTANTS):
        start = time.perf_counter()
        found = unexpected_under(mid, claims, profile=args.profile, seed=args.seed)
        caught = {cid: v for cid, v in found.items() if cid not in baseline}
        print(json.dumps({"mutant": mid, "caught_by": caught, "time_s": round(time.perf_counter() - start, 1)}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
