"""``verify search TARGET``: counterexample search for one claim (catalogue id or file.py::name).

Exit codes: 0 PROVED/HOLDS, 1 REFUTED, 3 UNKNOWN, 2 usage or input error, 4 FAILED.
``--replay JSON`` re-evaluates the stored counterexample of a search JSON or report.json.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import sys
from pathlib import Path
from typing import Callable, Iterator

from verify.cli.outputs import output_file, write_text
from verify.cli.profiles import PROFILES, budget_for
from verify.errors import InputError
from verify.verdicts import Verdict

DEFAULT_DB = ".verify-examples"
DEFAULT_BUDGET = 30
EXIT = {Verdict.PROVED: 0, Verdict.HOLDS: 0, Verdict.REFUTED: 1, Verdict.UNKNOWN: 3, Verdict.FAILED: 4}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("search", help="search one claim for counterexamples",
                       description="Search a claim (catalogue id or path/to/file.py::name) for a confirmed counterexample.")
    p.add_argument("target", help="catalogue id, or path/to/file.py::NAME (NAME: the claim id or its function's name)")
    p.add_argument("--budget", type=int, help=f"generated examples (default: the --profile's, else {DEFAULT_BUDGET})")
    p.add_argument("--profile", choices=sorted(PROFILES), help="take the budget from this profile, as 'verify check' does "
                                                               "(a claim may set its own per-profile budget)")
    p.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    p.add_argument("--json", dest="json_path", help="write the result as JSON")
    p.add_argument("--db", default=DEFAULT_DB, help=f"example database directory: counterexamples found before are replayed "
                                                    f"first (default {DEFAULT_DB}; 'none' disables it)")
    p.add_argument("--replay", help="re-evaluate the counterexample stored in this JSON (search result or report.json)")
    p.set_defaults(func=run)


def replay_command(target: str, json_path: str | Path) -> str:
    """The command line that replays a stored counterexample."""
    return f"verify search {shlex.quote(target)} --replay {shlex.quote(str(json_path))}"


def _stored_counterexample(path: Path, claim_id: str) -> dict:
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read JSON ({exc})") from None
    if isinstance(doc, dict) and "claims" in doc:
        doc = next((c for c in doc["claims"] if isinstance(c, dict) and c.get("id") == claim_id), None) or {}
    elif isinstance(doc, dict) and doc.get("id") not in (None, claim_id):
        raise InputError(f"{path}: holds the result of claim {doc['id']!r}, not of {claim_id!r}")
    cx = doc.get("counterexample") if isinstance(doc, dict) else None
    if not cx:
        raise InputError(f"{path}: no counterexample stored for {claim_id}")
    return cx


def _replay(claim, path: Path) -> int:
    from verify.scenarios import Scenario
    from verify.search import evaluate, search

    cx = _stored_counterexample(path, claim.id)
    if claim.runner is not None:
        result = search(claim)
        print(f"{claim.id}: decision procedure rerun -> {result.verdict}; stored witness {cx.get('witness')}")
        return EXIT[result.verdict]
    try:
        subject = Scenario.from_dict(cx) if cx.get("X") else cx.get("value")
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InputError(f"{path}: the counterexample stored for {claim.id} is not replayable ({type(exc).__name__}: {exc})") from None
    ev = evaluate(claim, subject)
    if ev.status != "ok" or ev.margin is None:
        print(f"{claim.id}: replay inconclusive ({ev.status}: {ev.reason})")
        return 3
    violated = ev.margin.value < -ev.margin.error
    print(f"{claim.id}: margin {ev.margin.value:.6g} (error {ev.margin.error:.3g}) -> {'VIOLATED' if violated else 'not violated'}")
    return 1 if violated else 0


@contextlib.contextmanager
def _progress_bar(label: str, budget: int) -> Iterator[Callable[[int, int], None]]:
    """A rich progress bar on stderr (only when it is a terminal); yields the search's progress callback."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn(label), BarColumn(), TextColumn("{task.completed} examples"), TimeElapsedColumn(),
                  transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task(label, total=budget)
        yield lambda calls, total: bar.update(task, completed=min(calls, total))


def run(args: argparse.Namespace) -> int:
    from verify import __version__
    from verify.claims import load_target
    from verify.claims.registry import paper_of
    from verify.report.document import claim_entry
    from verify.search import search

    if args.budget is not None and args.budget < 1:
        raise InputError(f"--budget must be >= 1, got {args.budget}")
    json_path = output_file(args.json_path, "--json") if args.json_path else None
    claim = load_target(args.target)
    if args.replay:
        return _replay(claim, Path(args.replay))
    budget = args.budget or (budget_for(args.profile, claim.meta.get("budget")) if args.profile else DEFAULT_BUDGET)
    database = None if args.db in ("none", "") else args.db
    with _progress_bar(claim.id, budget) as advance:
        result = search(claim, budget=budget, seed=args.seed, database=database, progress=advance)
    replay = replay_command(args.target, args.json_path) if args.json_path and result.counterexample else None
    paper = paper_of(claim.id)
    entry = claim_entry(result, replay, None if paper is None else paper.id)
    print(f"{claim.id} [{claim.source}]: {result.verdict} (expected {claim.expected}); "
          f"{result.examples} example(s), min margin {result.min_margin:.4g}; {result.reason}")
    if json_path is not None:
        entry.update({"seed": args.seed, "budget": budget, "profile": args.profile, "database": database,
                      "database_used": database is not None, "tool_version": __version__,
                      "command": search_command(args.target, budget, args.seed, database, args.json_path)})
        write_text(json_path, json.dumps(entry, indent=2, allow_nan=False) + "\n", "--json")
    return EXIT[result.verdict]


def search_command(target: str, budget: int, seed: int, database: str | None, json_path: str | None = None) -> str:
    """The ``verify search`` command line that runs this search again (same target, budget, seed, database)."""
    words = ["verify", "search", target, "--budget", str(budget), "--seed", str(seed), "--db", database or "none"]
    return shlex.join(words + (["--json", str(json_path)] if json_path else []))
