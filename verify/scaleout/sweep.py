"""``verify sweep``: a claim's margin over a grid of scenario parameters (DESIGN.md section 6, "Scale-out").

At every grid point the claim's own ``scenario(...)`` strategy is rebuilt with the grid keys fixed (the
strategy keeps the arguments it was built from, ``scenario_args``); ``--seeds K`` draws K scenarios from it,
draw k being a pure function of (strategy, k) (:func:`draw_scenario`), and each is evaluated once
(:func:`verify.search.evaluate`; a violation beyond its error is rerun at the search's tighter confirmation
tolerance). One row per (grid point, seed) goes to ``DIR/results.parquet``: the grid keys, ``seed``,
``margin``, ``error``, ``vacuous``, ``violated`` (confirmed), ``status``, ``reason``, ``time_s`` and the
drawn scenario's ``params`` (JSON).

Rows are flushed as they finish, as part files under ``DIR/results.parts/`` (each written to a temporary
name and renamed), and merged into ``results.parquet`` (again written aside and renamed) at the end of the
run, after Ctrl-C too. A rerun reads both, skips every row already written, and reruns only rows whose
task failed (status "failed").
"""

from __future__ import annotations

import itertools
import json
import math
import os
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from verify import interrupt
from verify.errors import InputError
from verify.scaleout.cluster import ClaimRef, claim_ref, dask_client, on_worker, resolve_claim, run_tasks

SWEEP_KEYS: dict[str, type] = {"n": int, "d": int, "h": int, "eps": float, "mu": float, "alpha": float,
                               "loss": str, "data": str, "init": str}
RESULTS = "results.parquet"
PARTS = "results.parts"
FLUSH_S = 1.0  # finished rows are written at least this often
_ONE_EVALUATION = threading.Lock()


def parse_grid(items: list[str]) -> dict[str, list[Any]]:
    """``KEY=V1,V2,...`` options as {key: typed values}, keys in the order given."""
    grid: dict[str, list[Any]] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise InputError(f"--grid: expected KEY=V1,V2,..., got {item!r}")
        if key not in SWEEP_KEYS:
            raise InputError(f"--grid: unknown key {key!r}; choose from {', '.join(SWEEP_KEYS)}")
        if key in grid:
            raise InputError(f"--grid: key {key!r} given twice")
        words = [w.strip() for w in text.split(",")]
        if not text.strip() or any(not w for w in words):
            raise InputError(f"--grid {key}: empty value in {text!r}")
        values = [_typed(key, w) for w in words]
        if len(set(values)) != len(values):
            raise InputError(f"--grid {key}: a value is repeated in {text!r}")
        grid[key] = values
    if not grid:
        raise InputError("give at least one --grid KEY=V1,V2,...")
    return grid


def _typed(key: str, word: str) -> Any:
    kind = SWEEP_KEYS[key]
    try:
        value = kind(word)
    except ValueError:
        noun = "an integer" if kind is int else "a number"
        raise InputError(f"--grid {key}: {word!r} is not {noun}") from None
    if kind is float and not math.isfinite(value):
        raise InputError(f"--grid {key}: {word!r} is not a finite number")
    if key == "mu":
        hundredths = round(value * 100)
        if abs(value * 100 - hundredths) > 1e-6 or not 1 <= hundredths <= 100:
            raise InputError(f"--grid mu: {word!r} is not a multiple of 0.01 in [0.01, 1] "
                             f"(scenarios draw mu in hundredths)")
    return value


def scenario_args_of(claim: Any) -> dict[str, Any]:
    """The arguments of the claim's ``scenario(...)`` strategy; InputError when ``over`` is anything else."""
    from verify.scenarios import is_scenario_strategy

    args = getattr(claim.over, "scenario_args", None)
    if not is_scenario_strategy(claim.over) or not isinstance(args, dict):
        raise InputError(f"claim {claim.id!r} does not draw its scenarios from a plain verify.scenarios.scenario(...) "
                         f"strategy; verify sweep can only fix the parameters of such a claim")
    return dict(args)


def fixed_args(base: dict[str, Any], point: dict[str, Any]) -> dict[str, Any]:
    """``scenario()`` arguments with the grid point's keys fixed (a range key becomes a one-value range)."""
    out = dict(base)
    for key, value in point.items():
        if key in ("n", "d", "h", "eps"):
            out[key] = (value, value)
        elif key == "mu":  # drawn in hundredths: a band around the value holds exactly that one
            out[key] = (max(0.0, value - 1e-3), value + 1e-3)
        else:
            out[key] = value
    return out


def point_strategy(claim: Any, point: dict[str, Any]) -> Any:
    """The claim's scenario strategy with the grid point's parameters fixed (validated: InputError)."""
    from verify.scenarios import scenario

    return scenario(**fixed_args(scenario_args_of(claim), point))


def draw_scenario(strategy: Any, seed: int) -> Any:
    """Draw ``seed`` of ``strategy``: one value, a pure function of (strategy, seed) in every process.

    Public Hypothesis API only: a two-example run of the generate phase under ``@seed(seed)``, no database;
    its first example is the strategy's simplest (the same for every seed), so the draw is the second (the
    first when the strategy has a single value). The project's modules are loaded first, as for a search, so
    that Hypothesis's constant pool is the same everywhere."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as seeded

    from verify.search import load_project_modules

    load_project_modules()
    drawn: list[Any] = []

    @seeded(seed)
    @settings(max_examples=2, database=None, phases=[Phase.generate], deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(value: Any) -> None:
        drawn.append(value)

    collect()
    return drawn[-1]


def sweep_task(ref: ClaimRef, point: dict[str, Any], seed: int) -> dict[str, Any]:
    """Worker side (or in process): the row of one (grid point, seed); ``time_s`` is the draw and the
    evaluation (the process's one-time import of the engine and the claim is left out)."""
    from verify.search import _violates, confirm, evaluate, load_project_modules

    row: dict[str, Any] = {**point, "seed": seed, "margin": math.nan, "error": math.nan, "vacuous": False,
                           "violated": False, "status": "failed", "reason": "", "params": "{}"}
    with _ONE_EVALUATION, on_worker():
        claim = resolve_claim(ref)
        strategy = point_strategy(claim, point)
        load_project_modules()
        start = time.perf_counter()
        scenario = draw_scenario(strategy, seed)
        row["params"] = json.dumps(getattr(scenario, "params", {}), default=str, sort_keys=True)
        try:
            ev = evaluate(claim, scenario)
            if _violates(ev):
                row["violated"] = _violates(confirm(claim, scenario))
        except Exception as exc:  # the check or the engine errored: a failed row (rerun on resume)
            row["reason"] = f"{type(exc).__name__}: {exc}".splitlines()[0]
            row["time_s"] = time.perf_counter() - start
            return row
    row.update(status=ev.status, reason=ev.reason, vacuous=ev.status == "vacuous")
    if ev.margin is not None and ev.status != "vacuous":
        row["margin"], row["error"] = float(ev.margin.value), float(ev.margin.error)
    if ev.margin is not None and ev.margin.note and not row["reason"]:
        row["reason"] = ev.margin.note
    row["time_s"] = time.perf_counter() - start
    return row


class SweepStore:
    """``DIR/results.parquet`` and the part files of a running sweep; knows its claim and grid keys."""

    def __init__(self, out: Path, claim_id: str | None = None, keys: list[str] | None = None) -> None:
        self.out, self.claim_id, self.keys = Path(out), claim_id, keys
        self.results, self.parts = self.out / RESULTS, self.out / PARTS

    def schema(self) -> Any:
        import pyarrow as pa

        kinds = {int: pa.int64(), float: pa.float64(), str: pa.string()}
        fields = [pa.field(k, kinds[SWEEP_KEYS[k]]) for k in self.keys or []]
        fields += [pa.field("seed", pa.int64()), pa.field("margin", pa.float64()), pa.field("error", pa.float64()),
                   pa.field("vacuous", pa.bool_()), pa.field("violated", pa.bool_()), pa.field("status", pa.string()),
                   pa.field("reason", pa.string()), pa.field("time_s", pa.float64()), pa.field("params", pa.string())]
        from verify import __version__

        meta = {"claim": self.claim_id, "keys": self.keys, "tool": f"relu-verify {__version__}"}
        return pa.schema(fields, metadata={b"verify.sweep": json.dumps(meta).encode()})

    def key(self, row: dict[str, Any]) -> tuple[Any, ...]:
        return (*(row[k] for k in self.keys or []), row["seed"])

    def _files(self) -> list[Path]:
        found = [self.results] if self.results.is_file() else []
        if self.parts.is_dir():
            found += sorted(p for p in self.parts.glob("*.parquet"))
        return found

    def load(self) -> dict[tuple[Any, ...], dict[str, Any]]:
        """Every row written so far by key (results file, then part files; the newest row of a key is kept).
        Adopts the stored claim and keys when none were given; a store of another claim or other keys is an
        InputError."""
        import pyarrow.parquet as pq

        rows: dict[tuple[Any, ...], dict[str, Any]] = {}
        for path in self._files():
            try:
                table = pq.read_table(path)
                meta = json.loads((table.schema.metadata or {}).get(b"verify.sweep", b"null"))
            except Exception as exc:
                raise InputError(f"{path}: cannot read ({type(exc).__name__}: {exc})".splitlines()[0]) from None
            if not isinstance(meta, dict):
                raise InputError(f"{path}: not written by verify sweep")
            if self.claim_id is None:
                self.claim_id, self.keys = meta.get("claim"), list(meta.get("keys") or [])
            if meta.get("claim") != self.claim_id or list(meta.get("keys") or []) != self.keys:
                raise InputError(f"{self.out} holds a sweep of claim {meta.get('claim')!r} over "
                                 f"{', '.join(meta.get('keys') or []) or 'no keys'}; give another --out")
            for row in table.to_pylist():  # files in the order written: a rerun of a failed row replaces it
                rows[self.key(row)] = row
        return rows

    def append(self, rows: list[dict[str, Any]]) -> None:
        """Write finished rows as one new part file (written aside, then renamed into place)."""
        if not rows:
            return
        self.parts.mkdir(parents=True, exist_ok=True)
        self._write(rows, self.parts / f"part-{time.time_ns()}-{uuid.uuid4().hex[:8]}.parquet")

    def consolidate(self) -> int:
        """Merge the results file and the part files into ``results.parquet`` (sorted by key); returns rows."""
        if not self._files():
            return 0
        rows = self.load()
        self._write([rows[k] for k in sorted(rows, key=_sort_key)], self.results)
        if self.parts.is_dir():
            for path in self.parts.iterdir():
                path.unlink(missing_ok=True)
            self.parts.rmdir()
        return len(rows)

    def _write(self, rows: list[dict[str, Any]], path: Path) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        schema = self.schema()
        table = pa.Table.from_pylist([{f.name: r.get(f.name) for f in schema} for r in rows], schema=schema)
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
        try:
            pq.write_table(table, tmp)
            os.replace(tmp, path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise InputError(f"--out: cannot write {path} ({exc.strerror or exc})") from None


def _sort_key(key: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple((0, v) if isinstance(v, (int, float)) else (1, str(v)) for v in key)


@dataclass
class SweepSummary:
    """What one ``verify sweep`` run did."""

    rows: int = 0  # rows in results.parquet after the run
    new: int = 0  # rows computed by this run
    skipped: int = 0  # rows already written before it
    failed: int = 0  # rows whose task failed (rerun next time)
    interrupted: bool = False
    results: Path | None = None
    failures: list[str] = field(default_factory=list)


def grid_points(grid: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """Every grid point (the product of the keys' values, in the order given)."""
    keys = list(grid)
    return [dict(zip(keys, values)) for values in itertools.product(*(grid[k] for k in keys))]


def run_sweep(claim: Any, grid: dict[str, list[Any]], seeds: int, out: Path, *, workers: int | None = None,
              scheduler: str | None = None, progress: bool | None = None) -> SweepSummary:
    """Evaluate ``claim`` at every (grid point, seed) not yet in ``out`` -- in process, or on a Dask cluster
    (``workers`` / ``scheduler``) -- writing rows as they finish; Ctrl-C keeps the finished rows."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from verify.cli.check_cmd import _interrupt_on_sigterm

    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
        raise InputError(f"--seeds must be an integer >= 1, got {seeds!r}")
    scenario_args_of(claim)  # a claim over anything but a plain scenario(...) strategy: one clear line
    ref = claim_ref(claim)
    points = grid_points(grid)
    for point in points:  # every grid point is a valid scenario() call, before anything runs
        try:
            point_strategy(claim, point)
        except InputError as exc:
            raise InputError(f"--grid {', '.join(f'{k}={v}' for k, v in point.items())}: {exc}") from None
    store = SweepStore(out, claim.id, list(grid))
    done = {k: r for k, r in store.load().items() if r.get("status") != "failed"}
    todo = [(ref, p, s) for p in points for s in range(seeds) if store.key({**p, "seed": s}) not in done]
    summary = SweepSummary(skipped=len(points) * seeds - len(todo), results=store.results)
    buffer: list[dict[str, Any]] = []
    last_flush = [time.monotonic()]

    def flush(force: bool = False) -> None:
        if buffer and (force or time.monotonic() - last_flush[0] >= FLUSH_S):
            store.append(buffer)
            buffer.clear()
            last_flush[0] = time.monotonic()

    show = sys.stderr.isatty() if progress is None else progress
    with _interrupt_on_sigterm(), Progress(TextColumn("{task.description}"), BarColumn(),
                                           TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                                           transient=True, disable=not show) as bar:
        task = bar.add_task(f"sweep {claim.id}", total=len(todo))

        def on_result(i: int, row: dict[str, Any]) -> None:
            buffer.append(row)
            summary.new += 1
            if row.get("status") == "failed":
                summary.failed += 1
                summary.failures.append(row.get("reason", ""))
            bar.advance(task)
            flush()

        def on_failure(i: int, reason: str) -> None:
            _, point, seed = todo[i]
            on_result(i, {**point, "seed": seed, "margin": math.nan, "error": math.nan, "vacuous": False,
                          "violated": False, "status": "failed", "reason": f"task failed: {reason}",
                          "time_s": 0.0, "params": "{}"})

        try:
            if workers is None and not scheduler:
                _run_in_process(todo, on_result, on_failure)
            else:
                with dask_client(workers, scheduler) as client:
                    run_tasks(client, sweep_task, todo, on_result=on_result, on_failure=on_failure)
            interrupt.raise_if_requested()
        except KeyboardInterrupt:
            summary.interrupted = True
        finally:
            flush(force=True)
            summary.rows = store.consolidate()
    return summary


def _run_in_process(todo: list[tuple[Any, ...]], on_result: Callable[[int, dict[str, Any]], None],
                    on_failure: Callable[[int, str], None]) -> None:
    """The serial sweep: the same task function, in this process; a task that raises is a failed row."""
    for i, args in enumerate(todo):
        interrupt.raise_if_requested()
        try:
            row = sweep_task(*args)
        except InputError as exc:
            on_failure(i, str(exc))
            continue
        except Exception as exc:
            on_failure(i, f"{type(exc).__name__}: {exc}".splitlines()[0])
            continue
        on_result(i, row)
