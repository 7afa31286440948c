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
    p = sub.add_parser("check", help="run the catalogue (or your claim files) and write a report",
                       description="Run catalogue claims (all by default) or the claims of your own .py files, and write "
                                   "report.json, report.md (the digest), claims.md and index.html. Exit 0 iff every "
                                   "verdict is the expected one.")
    p.add_argument("claims", nargs="*", metavar="CLAIM_ID|FILE.py",
                   help="claim ids, user claim files (every claim the file defines) or FILE.py::NAME "
                        "(default: every claim of the selected papers)")
    p.add_argument("--paper", action="append", metavar="ID", help="only this paper's claims (repeatable; default: every installed paper)")
    p.add_argument("--profile", default="ci", choices=sorted(PROFILES), help="search budget profile (default ci)")
    p.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    p.add_argument("--report", default="reports/latest", help="output directory (default reports/latest)")
    p.add_argument("--budget", type=int, help="override the profile's examples per claim")
    p.add_argument("--with-reproductions", nargs="?", const="quick", choices=("quick", "full"), metavar="quick|full",
                   help="also run the reported papers' experiments (verify reproduce) and show them in the report: "
                        "quick (the default when no value is given: reduced runs) or full; put it after the claim ids")
    from verify.scaleout.cluster import add_cluster_options

    add_cluster_options(p)  # --workers N | --scheduler ADDRESS: one claim per Dask task (verify.scaleout)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Search every selected claim; Ctrl-C or SIGTERM writes the finished ones as a partial report (exit 130)."""
    from verify.claims.registry import select_papers
    from verify.search import CONFIRM_RTOL_FACTOR, MP_DPS

    if args.budget is not None and args.budget < 1:
        raise InputError(f"--budget must be >= 1, got {args.budget}")
    report_dir = output_dir(args.report, "--report")
    claims = _selected(args.claims, args.paper)
    started = time.perf_counter()
    entries, interrupted = _search_all(claims, args, report_dir / "report.json")
    used = {e["paper"] for e in entries}
    papers = [p for p in select_papers() if p.id in used]
    reproductions = None
    if args.with_reproductions and not interrupted:
        from verify.reproduce import run_for_report

        try:
            reproductions = run_for_report(papers, args.with_reproductions == "quick", report_dir)
        except KeyboardInterrupt:
            interrupted = True  # the claims' results are kept; the reproductions are dropped
    settings = {
        "profile": args.profile,
        "seed": args.seed,
        "budget_override": args.budget,
        "precision": "float64 event-driven GF (DOP853 steps, exact event location; hybrid exact limit phase in "
                     "polar form); candidate violations rerun at 1000x tighter rtol and with the mpmath backend",
        "tolerances": {"default_rtol": 1e-10, "confirm_rtol_factor": CONFIRM_RTOL_FACTOR, "mp_dps": MP_DPS},
        "sigma_prime_at_zero": 0.0,
        "wall_time_s": round(time.perf_counter() - started, 2),
        **({"reproductions": args.with_reproductions} if args.with_reproductions else {}),
    }
    return _write(entries, settings, report_dir, interrupted, getattr(args, "command_line", None), papers, reproductions)


def _selected(targets: list[str], paper_ids: list[str] | None) -> list:
    """The claims to run, in the order given: every claim of a user file (``path.py``), one claim of a file
    (``path.py::NAME``), or a catalogue id among the selected papers' claims; nothing given: every claim of
    the selected papers. One claim id twice (a file's claim named like a catalogue claim) is an InputError."""
    from verify.claims import catalogue, get_claim
    from verify.claims.registry import load_file, load_target

    if not targets:
        return catalogue(paper_ids)
    pool: list | None = None
    chosen: list = []
    for target in targets:
        if "::" in target:
            chosen.append(load_target(target))
        elif target.endswith(".py") or Path(target).is_file():
            chosen.extend(load_file(target))
        else:
            pool = catalogue(paper_ids) if pool is None else pool
            found = next((c for c in pool if c.id == target), None)
            if found is None:
                get_claim(target)  # an unknown id: the registry's message
                raise InputError(f"claim {target!r} is not in paper(s) {', '.join(paper_ids or [])}")
            chosen.append(found)
    where: dict[str, str] = {}
    for c in chosen:
        origin = c.meta.get("file", "the catalogue")
        if c.id in where and where[c.id] != origin:
            raise InputError(f"claim id {c.id!r} is in {where[c.id]} and in {origin}")
        where[c.id] = origin
    unique = {id(c): c for c in chosen}
    return list(unique.values())


def _search_all(claims: list, args: argparse.Namespace, json_path: Path) -> tuple[list[dict], bool]:
    """Report entries of every claim, in order; after an interrupt the unfinished ones are UNKNOWN."""
    from verify.scaleout.cluster import wants_cluster

    if wants_cluster(args):  # the same searches and entries, one claim per task on a Dask cluster
        from verify.scaleout.check import search_all_distributed

        return search_all_distributed(claims, args, json_path)
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from verify.claims.registry import target_of

    entries: list[dict] = []
    with _interrupt_on_sigterm(), Progress(TextColumn("{task.description}"), BarColumn(),
                                           TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                                           transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task("claims", total=len(claims))
        try:
            for claim in claims:
                bar.update(task, description=claim.id)
                budget = args.budget or budget_for(args.profile, claim.meta.get("budget"))
                entry, line = check_claim(claim, budget, args.seed, target_of(claim), json_path)
                entries.append(entry)
                print(line, flush=True)
                bar.advance(task)
                interrupt.raise_if_requested()  # the signal's KeyboardInterrupt may have been swallowed
        except KeyboardInterrupt:
            entries.extend(unsearched_entry(claim, "interrupted") for claim in claims[len(entries):])
            return entries, True
    return entries, False


def check_claim(claim, budget: int, seed: int, replay_target: str, json_path: str | Path) -> tuple[dict, str]:
    """Search one claim: its report entry and the line ``verify check`` prints (the serial loop and the Dask
    workers both run this). ``replay_target`` is what ``verify search`` calls the claim (:func:`target_of`)."""
    from verify.cli.search_cmd import replay_command
    from verify.report.document import claim_entry
    from verify.search import search

    result = search(claim, budget=budget, seed=seed)
    replay = replay_command(replay_target, json_path) if result.counterexample else None
    return claim_entry(result, replay, paper_id(claim)), claim_line(claim, str(result.verdict), result.time_s)


def unsearched_entry(claim, reason: str, verdict: str = "UNKNOWN") -> dict:
    """The report entry of a claim whose search did not finish (interrupted: UNKNOWN; a lost task: FAILED)."""
    from verify.report.document import claim_entry
    from verify.search import SearchResult
    from verify.verdicts import Verdict

    return claim_entry(SearchResult(claim, Verdict(verdict), reason=reason), None, paper_id(claim))


def claim_line(claim, verdict: str, time_s: float) -> str:
    """The per-claim line ``verify check`` prints."""
    return f"{claim.id:<28} {verdict:<8} expected {str(claim.expected):<8} {time_s:7.2f}s"


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


def paper_id(claim) -> str | None:
    """The id of the installed paper that holds ``claim`` (None for a user claim)."""
    from verify.claims.registry import paper_of

    paper = paper_of(claim.id)
    return None if paper is None else paper.id


def _write(entries: list[dict], settings: dict, report_dir: Path, interrupted: bool, command: str | None,
           papers: list, reproductions: list[dict] | None = None) -> int:
    """Render the report (JSON, Markdown, HTML); exit 130 when interrupted, else 0 iff nothing is unexpected and
    every attached reproduction passed."""
    from verify.report.document import build_report, summary_line
    from verify.report.render import render_all

    report = build_report(entries, settings, command=command, partial=interrupted, papers=papers)
    if reproductions is not None:
        report["reproductions"] = reproductions
    with _interrupt_on_sigterm():
        paths = render_all(report, report_dir)
    print(summary_line(report))
    print(f"report: {paths['json']}")
    if interrupted:
        print(f"verify: interrupted: partial report of {sum(e['reason'] != 'interrupted' for e in entries)} finished "
              f"claim(s) written", file=sys.stderr)
        return 130
    reproduced = all(r["passed"] for r in report.get("reproductions", []))
    return 0 if not report["summary"]["unexpected"] and reproduced else 1
