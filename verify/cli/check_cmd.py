"""``verify check [CLAIM_ID ...]``: run catalogue claims and write the report (JSON, Markdown, HTML)."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Iterator

from verify import interrupt
from verify.cli.outputs import output_dir
from verify.cli.profiles import PROFILES, budget_for
from verify.errors import InputError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="run the catalogue and write a report",
                       description="Run catalogue claims (all by default) and write report.json, report.md, index.html.")
    p.add_argument("claims", nargs="*", metavar="CLAIM_ID", help="claim ids (default: every claim of the selected papers)")
    p.add_argument("--paper", action="append", metavar="ID", help="only this paper's claims (repeatable; default: every installed paper)")
    p.add_argument("--profile", default="ci", choices=sorted(PROFILES), help="search budget profile (default ci)")
    p.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    p.add_argument("--report", default="reports/latest", help="output directory (default reports/latest)")
    p.add_argument("--budget", type=int, help="override the profile's examples per claim")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Search every selected claim; Ctrl-C or SIGTERM writes the finished ones as a partial report (exit 130)."""
    from verify.claims import catalogue
    from verify.claims.registry import select_papers
    from verify.search import CONFIRM_RTOL_FACTOR, MP_DPS

    if args.budget is not None and args.budget < 1:
        raise InputError(f"--budget must be >= 1, got {args.budget}")
    report_dir = output_dir(args.report, "--report")
    pool = catalogue(args.paper)
    claims = [_pick(pool, c, args.paper) for c in args.claims] if args.claims else pool
    started = time.perf_counter()
    entries, interrupted = _search_all(claims, args, report_dir / "report.json")
    used = {e["paper"] for e in entries}
    papers = [p for p in select_papers() if p.id in used]
    settings = {
        "profile": args.profile,
        "seed": args.seed,
        "budget_override": args.budget,
        "precision": "float64 event-driven GF (DOP853 steps, exact event location; hybrid exact limit phase in "
                     "polar form); candidate violations rerun at 1000x tighter rtol and with the mpmath backend",
        "tolerances": {"default_rtol": 1e-10, "confirm_rtol_factor": CONFIRM_RTOL_FACTOR, "mp_dps": MP_DPS},
        "sigma_prime_at_zero": 0.0,
        "wall_time_s": round(time.perf_counter() - started, 2),
    }
    return _write(entries, settings, report_dir, interrupted, getattr(args, "command_line", None), papers)


def _pick(pool: list, claim_id: str, paper_ids: list[str] | None):
    """The claim with this id among the selected papers' claims."""
    from verify.claims import get_claim

    found = next((c for c in pool if c.id == claim_id), None)
    if found is None:
        get_claim(claim_id)  # an unknown id: the registry's message
        raise InputError(f"claim {claim_id!r} is not in paper(s) {', '.join(paper_ids or [])}")
    return found


def _search_all(claims: list, args: argparse.Namespace, json_path: Path) -> tuple[list[dict], bool]:
    """Report entries of every claim, in order; after an interrupt the unfinished ones are UNKNOWN."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from verify.claims.registry import paper_of
    from verify.cli.search_cmd import replay_command
    from verify.report.document import claim_entry
    from verify.search import SearchResult, search
    from verify.verdicts import Verdict

    entries: list[dict] = []
    with _interrupt_on_sigterm(), Progress(TextColumn("{task.description}"), BarColumn(),
                                           TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                                           transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task("claims", total=len(claims))
        try:
            for claim in claims:
                bar.update(task, description=claim.id)
                budget = args.budget or budget_for(args.profile, claim.meta.get("budget"))
                result = search(claim, budget=budget, seed=args.seed)
                replay = replay_command(claim.id, json_path) if result.counterexample else None
                entries.append(claim_entry(result, replay, _paper_id(paper_of(claim.id))))
                print(f"{claim.id:<28} {str(result.verdict):<8} expected {str(claim.expected):<8} {result.time_s:7.2f}s",
                      flush=True)
                bar.advance(task)
                interrupt.raise_if_requested()  # the signal's KeyboardInterrupt may have been swallowed
        except KeyboardInterrupt:
            for claim in claims[len(entries):]:
                entries.append(claim_entry(SearchResult(claim, Verdict.UNKNOWN, reason="interrupted"), None,
                                           _paper_id(paper_of(claim.id))))
            return entries, True
    return entries, False


@contextlib.contextmanager
def _interrupt_on_sigterm() -> Iterator[None]:
    """SIGINT and SIGTERM raise KeyboardInterrupt for the duration of the run and record a stop request
    (:mod:`verify.interrupt`; the previous handlers are restored). Python ignores an exception raised while
    a gc callback runs, so the search checks the request before every example: a signal is never lost."""
    def handler(signum: int, frame: object) -> None:
        interrupt.request()
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    interrupt.clear()
    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def _paper_id(paper) -> str | None:
    return None if paper is None else paper.id


def _write(entries: list[dict], settings: dict, report_dir: Path, interrupted: bool, command: str | None,
           papers: list) -> int:
    """Render the report (JSON, Markdown, HTML); exit 130 when interrupted, else 0 iff nothing is unexpected."""
    from verify.report.document import build_report, summary_line
    from verify.report.render import render_all

    report = build_report(entries, settings, command=command, partial=interrupted, papers=papers)
    with _interrupt_on_sigterm():
        paths = render_all(report, report_dir)
    print(summary_line(report))
    print(f"report: {paths['json']}")
    if interrupted:
        print(f"verify: interrupted: partial report of {sum(e['reason'] != 'interrupted' for e in entries)} finished "
              f"claim(s) written", file=sys.stderr)
        return 130
    return 0 if not report["summary"]["unexpected"] else 1
