"""Measure which catalogue claims catch each planted engine bug (verify/evidence/mutants.py).

Usage: .venv/bin/python scripts/mutant_teeth.py [MUTANT_ID ...] [--profile ci] [--seed 0] [--paper ID]
           [--claim ID ...] [--claim-timeout S] [--mutant-timeout S]

Prints one JSON line per mutant: {"mutant", "caught_by": {claim id: verdict}, "timeouts": [claim ids],
"not_measured": [claim ids], "time_s", "claim_time_s"}; the baseline (no mutant) first, {"mutant": null,
"unexpected": {...}, ...}, whose unexpected claims are not counted for any mutant. The caught_by ids are what a
paper's teeth table (e.g. properties/min2024_early_alignment/teeth.py) records.

Isolation: the baseline and every mutant run in a fresh Python process (this script with ``--worker``), because a
paper may cache runs by content (seed 003: ``time_scale._SWEEPS``, ``theorem43._SIGMA_SWEEPS``, the lru caches of
``phase1.phase_one``, ``late_phase.read``, ``theorem62.sibling`` / ``reference``): in one process a run computed under
one mutant would be read under the next (a false catch, or a miss). Inside its process a mutant is applied once
around all its claims, as ``verify.evidence.mutants.unexpected_under`` does (its "every 10th" counters run across
claims).

Time bounds: a mutated flow can grow without bound slowly rather than fail. The worker reports each claim as it
finishes; a claim not finished ``--claim-timeout`` seconds after the previous one (or after the worker's imports) is
recorded in ``timeouts`` (not as a catch), and the worker is killed and restarted on the claims after it; a mutant
that reaches ``--mutant-timeout`` in all lists the claims it did not reach in ``not_measured``. A worker writes its
records on its own copy of stdout (anything else printed there goes to stderr, which is discarded).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STARTUP_S = 300.0  # a worker's imports and catalogue load may take this long before its claims' clock starts


def worker(mutant_id: str | None, papers: list[str] | None, ids: list[str], profile: str, seed: int) -> int:
    """Run ``ids`` (catalogue order) under the mutant in this process; one JSON line per claim, flushed."""
    import contextlib

    from verify.claims.registry import catalogue
    from verify.cli.profiles import budget_for
    from verify.evidence.mutants import MUTANTS
    from verify.search import search

    records = os.fdopen(os.dup(1), "w")  # the records' own channel: whatever else writes to stdout goes to stderr
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def emit(record: dict) -> None:
        records.write(json.dumps(record) + "\n")
        records.flush()

    wanted = set(ids)
    claims = [c for c in catalogue(papers) if c.id in wanted]
    emit({"ready": True})  # imports done: the per-claim clock starts here
    with (MUTANTS[mutant_id].active() if mutant_id else contextlib.nullcontext()):
        for claim in claims:
            start = time.perf_counter()
            try:
                result = search(claim, budget=budget_for(profile, claim.meta.get("budget")), seed=seed)
                verdict, as_expected = str(result.verdict), bool(result.as_expected)
            except Exception as exc:  # a mutant may break the search itself: that claim's verdict is not expected
                verdict, as_expected = f"ERROR {type(exc).__name__}: {exc}"[:200], False
            emit({"claim": claim.id, "verdict": verdict, "as_expected": as_expected,
                  "time_s": round(time.perf_counter() - start, 1)})
    return 0


def _reader(stream, lines: "queue.Queue[str | None]") -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def _kill(proc: subprocess.Popen) -> None:
    """End the worker and its children (its own session: started here, so only ours)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def measure(mutant_id: str | None, papers: list[str] | None, ids: list[str], profile: str, seed: int,
            claim_timeout: float,
            mutant_timeout: float) -> tuple[dict[str, str], list[str], list[str], dict[str, float]]:
    """(claim id -> verdict of the claims not as expected, ids that timed out, ids not reached by the mutant's
    deadline, claim id -> seconds) for one mutant, in fresh worker processes (a new one after each claim timeout)."""
    unexpected: dict[str, str] = {}
    timeouts: list[str] = []
    not_measured: list[str] = []
    times: dict[str, float] = {}
    todo = list(ids)
    deadline = time.monotonic() + mutant_timeout
    while todo:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--profile", profile, "--seed", str(seed),
               "--mutant", mutant_id or "", *sum((["--paper", p] for p in papers or []), []),
               *sum((["--claim", c] for c in todo), [])]
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                start_new_session=True)
        lines: "queue.Queue[str | None]" = queue.Queue()
        threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True).start()
        ready = False
        while todo:
            wait = min(claim_timeout if ready else max(claim_timeout, STARTUP_S), deadline - time.monotonic())
            try:
                line = lines.get(timeout=max(wait, 0.0))
            except queue.Empty:
                line = "timeout"
            if line == "timeout":
                _kill(proc)
                if time.monotonic() >= deadline:
                    not_measured.extend(todo)
                    todo = []
                else:
                    timeouts.append(todo.pop(0))
                break
            if line is None:  # the worker died: the claim it was on is not measured
                proc.wait()
                unexpected[todo[0]] = f"worker exited with status {proc.returncode}"
                todo.pop(0)
                break
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            if not isinstance(rec, dict):
                continue
            if rec.get("ready"):
                ready = True
                continue
            if rec["claim"] in todo:
                todo.remove(rec["claim"])
            times[rec["claim"]] = rec["time_s"]
            if not rec["as_expected"]:
                unexpected[rec["claim"]] = rec["verdict"]
        else:
            proc.wait()
    return unexpected, timeouts, not_measured, times


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("mutants", nargs="*", help="mutant ids (default: all)")
    p.add_argument("--profile", default="ci")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--paper", action="append")
    p.add_argument("--claim", action="append", help="only these claim ids (default: the papers' whole catalogue)")
    p.add_argument("--claim-timeout", type=float, default=600.0, help="seconds one claim may take under a mutant")
    p.add_argument("--mutant-timeout", type=float, default=7200.0, help="seconds one mutant may take in all")
    p.add_argument("--no-baseline", action="store_true", help="skip the baseline (its unexpected claims then count)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--mutant", default="", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        return worker(args.mutant or None, args.paper, args.claim or [], args.profile, args.seed)

    from verify.claims.registry import catalogue
    from verify.evidence.mutants import MUTANTS

    ids = [c.id for c in catalogue(args.paper) if not args.claim or c.id in set(args.claim)]
    bounds = (args.claim_timeout, args.mutant_timeout)
    baseline: dict[str, str] = {}
    if not args.no_baseline:
        start = time.perf_counter()
        baseline, late, missed, times = measure(None, args.paper, ids, args.profile, args.seed, *bounds)
        print(json.dumps({"mutant": None, "unexpected": baseline, "timeouts": late, "not_measured": missed,
                          "time_s": round(time.perf_counter() - start, 1), "claim_time_s": times}), flush=True)
    for mid in args.mutants or list(MUTANTS):
        start = time.perf_counter()
        found, late, missed, times = measure(mid, args.paper, ids, args.profile, args.seed, *bounds)
        caught = {cid: v for cid, v in found.items() if cid not in baseline}
        print(json.dumps({"mutant": mid, "caught_by": caught, "timeouts": late, "not_measured": missed,
                          "time_s": round(time.perf_counter() - start, 1), "claim_time_s": times}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
