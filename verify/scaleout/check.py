"""``verify check --workers N | --scheduler ADDRESS``: one claim per Dask task.

Each worker runs the same :func:`verify.search.search` with the same budget and seed as the serial run
and builds the report entry itself (:func:`verify.report.document.claim_entry`), so verdicts, examples and
margins are those of ``verify check`` without the option; only timings differ. Claims start longest first
when the report directory holds an earlier report (its ``time_s``), else in the order given. A task that fails twice
(its worker died, or it raised outside the search) is reported FAILED for that claim; Ctrl-C cancels the
pending tasks and the finished entries go into the partial report.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path
from typing import Any

from verify import interrupt
from verify.scaleout.cluster import ClaimRef, claim_ref, dask_client, on_worker, resolve_claim, run_tasks

_ONE_SEARCH = threading.Lock()  # a worker started with several threads still runs one search at a time


def check_task(ref: ClaimRef, budget: int, seed: int, replay_target: str, json_path: str) -> dict[str, Any]:
    """Worker side: search one claim and return its report entry (a JSON-ready dict) and its line."""
    from verify.cli.check_cmd import check_claim

    with _ONE_SEARCH, on_worker():
        entry, line = check_claim(resolve_claim(ref), budget, seed, replay_target, json_path)
    return {"entry": entry, "line": line}


def previous_times(json_path: Path) -> dict[str, float]:
    """Each claim's ``time_s`` in the report already at ``json_path`` (the last run into that directory), or {}."""
    try:
        doc = json.loads(Path(json_path).read_text())
        return {str(c["id"]): float(c["time_s"]) for c in doc.get("claims", [])
                if isinstance(c, dict) and isinstance(c.get("time_s"), (int, float))}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return {}


def search_all_distributed(claims: list, args: argparse.Namespace, json_path: Path) -> tuple[list[dict], bool]:
    """Report entries of every claim in order, computed on the Dask cluster that ``args`` names
    (``--workers`` / ``--scheduler``); the flag is True after an interrupt (unfinished claims UNKNOWN)."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from verify.claims.registry import target_of
    from verify.cli.check_cmd import _interrupt_on_sigterm, claim_line, unsearched_entry
    from verify.cli.profiles import budget_for

    refs = [claim_ref(c) for c in claims]  # a claim that cannot travel: exit 2 before any cluster starts
    argsets = [(ref, args.budget or budget_for(args.profile, c.meta.get("budget")), args.seed, target_of(c),
                str(json_path)) for ref, c in zip(refs, claims)]
    entries: list[dict | None] = [None] * len(claims)
    hints = previous_times(json_path)  # the longest claims of the last run start first (shorter makespan)

    with _interrupt_on_sigterm(), Progress(TextColumn("{task.description}"), BarColumn(),
                                           TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                                           transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task("claims on the Dask cluster", total=len(claims))

        def on_result(i: int, value: dict[str, Any]) -> None:
            entries[i] = value["entry"]
            print(value["line"], flush=True)
            bar.advance(task)

        def on_failure(i: int, reason: str) -> None:
            entries[i] = unsearched_entry(claims[i], f"Dask task failed: {reason}", "FAILED")
            print(claim_line(claims[i], "FAILED", 0.0), flush=True)
            bar.advance(task)

        try:
            with dask_client(args.workers, args.scheduler) as client:
                run_tasks(client, check_task, argsets, on_result=on_result, on_failure=on_failure,
                          priorities=[int(1000 * hints.get(c.id, 0.0)) for c in claims])
            interrupt.raise_if_requested()
        except KeyboardInterrupt:
            for i, claim in enumerate(claims):
                if entries[i] is None:
                    entries[i] = unsearched_entry(claim, "interrupted")
            return [e for e in entries if e is not None], True
    return [e for e in entries if e is not None], False
