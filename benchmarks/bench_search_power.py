"""Search power: how often the default search refutes claims that are false, and how fast.

    python benchmarks/bench_search_power.py [--seeds 10] [--profile ci] [--paper ID ...] [--generic] [--only ID ...] [--quick]

The false-claim suite is every installed claim the catalogue expects REFUTED (the planted
counterexamples and errata) that is decided by search -- symbolic claims are decided by their own
procedure and do not depend on a seed, so they are left out. ``--generic`` searches instead the false
claims of ``benchmarks/generic_false_claims.py``, written over the generic scenario strategies as a user
would (the planted strategies are built to hit their counterexample; these are not). Each is searched with seeds
0 .. K-1 at the profile's budget with no example database (``--db none``: every search depends on
its seed alone). One JSON line per claim: refuted fraction, median and worst number of generated
examples up to the first confirmed violation, verdicts per seed; then a summary line with the
overall refuted fraction (goal >= 0.95) and the claims below it. ``--quick``: 3 claims x 2 seeds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verify.claims import catalogue  # noqa: E402
from verify.cli.profiles import budget_for  # noqa: E402
from verify.search import search  # noqa: E402
from verify.verdicts import Verdict  # noqa: E402

GOAL = 0.95


def false_claims(paper_ids: list[str] | None, generic: bool = False) -> list:
    """Claims expected REFUTED that a search decides (no direct runner); ``generic``: the generic suite."""
    if generic:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from generic_false_claims import CLAIMS

        return list(CLAIMS)
    claims = catalogue(paper_ids) if paper_ids else catalogue()
    return [c for c in claims if c.expected == Verdict.REFUTED and c.runner is None]


def measure(claim, seeds: int, profile: str) -> dict:
    """Search ``claim`` once per seed; refuted fraction and examples to the first violation."""
    budget = budget_for(profile, claim.meta.get("budget"))
    verdicts, firsts, wall = [], [], 0.0
    for seed in range(seeds):
        start = time.perf_counter()
        result = search(claim, budget=budget, seed=seed, database=None)
        wall += time.perf_counter() - start
        verdicts.append(str(result.verdict))
        if result.verdict == Verdict.REFUTED and result.first_violation is not None:
            firsts.append(result.first_violation)
    refuted = sum(v == "REFUTED" for v in verdicts) / seeds
    return {"bench": "search_power", "name": claim.id, "source": claim.source, "budget": budget, "seeds": seeds,
            "refuted_fraction": refuted, "median_examples_to_violation": statistics.median(firsts) if firsts else None,
            "max_examples_to_violation": max(firsts) if firsts else None, "verdicts": verdicts,
            "wall_s": round(wall, 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--profile", default="ci")
    parser.add_argument("--paper", action="append", help="restrict to these paper ids")
    parser.add_argument("--generic", action="store_true", help="the false claims over generic strategies")
    parser.add_argument("--only", action="append", help="restrict to these claim ids")
    parser.add_argument("--quick", action="store_true", help="3 claims x 2 seeds (smoke test)")
    args = parser.parse_args()
    claims = false_claims(args.paper, args.generic)
    if args.only:
        claims = [c for c in claims if c.id in args.only]
    seeds = args.seeds
    if args.quick:
        claims, seeds = claims[:3], 2
    rows = []
    for claim in claims:
        row = measure(claim, seeds, args.profile)
        rows.append(row)
        print(json.dumps(row), flush=True)
    total = sum(r["refuted_fraction"] * r["seeds"] for r in rows)
    runs = sum(r["seeds"] for r in rows)
    firsts = [r["median_examples_to_violation"] for r in rows if r["median_examples_to_violation"] is not None]
    overall = total / runs if runs else float("nan")
    print(json.dumps({"bench": "search_power", "name": "summary", "claims": len(rows), "searches": runs,
                      "refuted_fraction": overall, "goal": GOAL, "meets_goal": overall >= GOAL,
                      "median_examples_to_violation": statistics.median(firsts) if firsts else None,
                      "below_goal": [r["name"] for r in rows if r["refuted_fraction"] < GOAL],
                      "profile": args.profile, "suite": "generic" if args.generic else "catalogue"}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
