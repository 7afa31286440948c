"""Dask plumbing of the scale-out (DESIGN.md section 6, "Scale-out"): the ``--workers`` / ``--scheduler``
options, a quiet client on a LocalCluster or an existing cluster, claims shipped by reference, and a task
runner that retries a failed task once, never waits forever on a cluster without workers, and cancels
what is left on Ctrl-C.

Claims are never pickled: a catalogue claim travels as its id and is found again on the worker
(:func:`verify.claims.registry.get_claim`); a claim loaded from a user's file travels as (file, id) and the
worker imports the file itself (:func:`verify.claims.registry.load_file`), so the file must be readable
at the same path on every worker.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import socket
import threading
import time
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from verify import interrupt
from verify.errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from distributed import Client

    from verify.claims.model import Claim

ClaimRef = tuple[str, str, str]  # ("catalogue", id, "") or ("file", absolute path, id)

CONNECT_TIMEOUT_S = 10.0  # connecting to an existing scheduler
NO_WORKER_GRACE_S = 60.0  # pending tasks and no worker connected for this long: the tasks are FAILED
RETRIES = 1  # a task that fails (its function raised, or its worker died) runs once more, then it is FAILED


def workers_count(text: str) -> int:
    """argparse type of ``--workers``: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {value}")
    return value


def add_cluster_options(parser: argparse.ArgumentParser) -> None:
    """``--workers N`` (a LocalCluster of N processes) or ``--scheduler ADDRESS`` (an existing cluster)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--workers", type=workers_count, metavar="N",
                       help="run on a local Dask cluster of N worker processes (one thread each)")
    group.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on an existing Dask cluster ('dask scheduler' + 'dask worker'), "
                            "e.g. tcp://host:8786")


def wants_cluster(args: argparse.Namespace) -> bool:
    """True when ``--workers`` or ``--scheduler`` was given."""
    return getattr(args, "workers", None) is not None or bool(getattr(args, "scheduler", None))


def _quiet() -> None:
    """Dask's loggers say nothing below CRITICAL on this process's terminal (what fails reaches the report
    as a FAILED verdict with its reason instead)."""
    for name in list(logging.root.manager.loggerDict):
        if name.split(".")[0] in ("distributed", "tornado", "bokeh"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
    for name in ("distributed", "tornado", "bokeh"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def _check_address(address: str) -> None:
    """A well-formed scheduler address; for tcp, something listens there (else one clear InputError now,
    not a connection timeout later)."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address.strip())
        if scheme != "tcp":
            return
        host, port = parse_host_port(location)
    except (ValueError, TypeError) as exc:
        raise InputError(f"--scheduler: bad address {address!r} ({exc}); e.g. tcp://127.0.0.1:8786") from None
    try:
        with socket.create_connection((host, int(port)), timeout=5.0):
            pass
    except OSError as exc:
        raise InputError(f"--scheduler: cannot reach a Dask scheduler at {address} "
                         f"({exc.strerror or type(exc).__name__})") from None


@contextlib.contextmanager
def dask_client(workers: int | None = None, scheduler: str | None = None) -> Iterator["Client"]:
    """A Dask client: on a LocalCluster of ``workers`` single-threaded processes (no dashboard, logs
    silenced, a worker death fails its task at once so that :func:`run_tasks` retries it exactly once), or
    connected to the scheduler at ``scheduler``. Closed (and the LocalCluster shut down) on exit; after a
    KeyboardInterrupt the LocalCluster's worker processes are ended at once (a running search cannot be
    cancelled inside its thread)."""
    import dask
    from distributed import Client, LocalCluster

    if workers is not None and scheduler:
        raise InputError("give --workers or --scheduler, not both")
    if workers is not None and workers < 1:
        raise InputError(f"--workers must be >= 1, got {workers}")
    _quiet()
    cluster = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Dask's start-up and shut-down notes are not the user's concern
        # a worker death fails the tasks it was running at once (run_tasks retries them once), and a worker holds
        # only the task it runs (no queued bystander fails with it; idle workers take the next claim)
        with dask.config.set({"distributed.scheduler.allowed-failures": 0,
                              "distributed.scheduler.worker-saturation": 1.0}):
            if scheduler:
                _check_address(scheduler)
                try:
                    client = Client(scheduler.strip(), timeout=CONNECT_TIMEOUT_S)
                except (OSError, TimeoutError) as exc:
                    raise InputError(f"--scheduler: cannot connect to the Dask scheduler at {scheduler} "
                                     f"({type(exc).__name__}: {exc})".splitlines()[0]) from None
            else:
                with _sigint_ignored():  # the workers inherit it: Ctrl-C reaches this process only
                    cluster = LocalCluster(n_workers=workers or 1, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=logging.CRITICAL, host="127.0.0.1",
                                           preload=["verify.scaleout.worker"])
                client = Client(cluster)
            _quiet()
        interrupted = False
        try:
            yield client
        except KeyboardInterrupt:
            interrupted = True
            raise
        finally:
            _quiet()
            if interrupted and cluster is not None:
                _end_worker_processes(cluster)
            with contextlib.suppress(Exception):
                client.close(timeout=2 if interrupted else 10)
            if cluster is not None:
                with contextlib.suppress(Exception):
                    cluster.close(timeout=2 if interrupted else 10)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored meanwhile (main thread only): processes spawned now start with it ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _end_worker_processes(cluster: Any) -> None:
    """SIGKILL the worker processes this LocalCluster started (by their ids)."""
    for nanny in list(getattr(cluster, "workers", {}).values()):
        pid = getattr(getattr(getattr(nanny, "process", None), "process", None), "pid", None)
        if isinstance(pid, int) and pid > 0:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


@contextlib.contextmanager
def on_worker() -> Iterator[None]:
    """Around a task's work on a Dask worker: Hypothesis warns when the global ``random`` state moves during a
    draw, and the worker's own event-loop thread (connection back-off, heartbeats) moves it; the project's
    strategies never use ``random`` (their data come from seeded numpy generators), so that note is dropped."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Do not use the `random` module inside strategies")
        yield


def claim_ref(claim: "Claim") -> ClaimRef:
    """How a worker finds ``claim`` again: by catalogue id, or by (file, id) for a claim loaded from a file."""
    from verify.claims.registry import paper_of

    path = claim.meta.get("file")
    if path:
        return ("file", str(path), claim.id)
    paper = paper_of(claim.id)
    if paper is not None and any(c is claim for c in paper.claims):
        return ("catalogue", claim.id, "")
    raise InputError(f"claim {claim.id!r} cannot be sent to Dask workers: it is neither a catalogue claim nor "
                     f"loaded from a claim file")


def resolve_claim(ref: ClaimRef) -> "Claim":
    """The claim a :func:`claim_ref` names (imports the catalogue or the user's file once per process)."""
    from verify.claims.registry import get_claim, load_file

    kind, first, second = ref
    if kind == "catalogue":
        return get_claim(first)
    if kind == "file":
        found = next((c for c in load_file(first) if c.id == second), None)
        if found is None:
            raise InputError(f"{first} no longer defines claim {second!r}")
        return found
    raise InputError(f"unknown claim reference {ref!r}")


@dataclass
class _Task:
    index: int
    args: tuple[Any, ...]
    priority: int = 0
    attempts: int = 0


def run_tasks(client: "Client", fn: Callable[..., Any], argsets: Sequence[tuple[Any, ...]], *,
              on_result: Callable[[int, Any], None], on_failure: Callable[[int, str], None],
              retries: int = RETRIES, poll_s: float = 0.2, no_worker_grace_s: float = NO_WORKER_GRACE_S,
              priorities: Sequence[int] | None = None) -> None:
    """Run ``fn(*argsets[i])`` on the cluster for every i, calling ``on_result(i, value)`` as results arrive
    (in completion order). A task that raises or whose worker dies is submitted again ``retries`` times,
    then ``on_failure(i, reason)``; so are all pending tasks when no worker has been connected for
    ``no_worker_grace_s`` or the scheduler is lost. KeyboardInterrupt cancels the pending futures and is
    raised again (the callbacks have seen everything that finished). ``priorities``: higher starts first
    (the order of the results is not affected)."""
    from distributed import wait

    tasks = [_Task(i, tuple(a), int(priorities[i]) if priorities else 0) for i, a in enumerate(argsets)]
    pending: dict[Any, _Task] = {}

    def submit(task: _Task) -> None:
        task.attempts += 1
        pending[client.submit(fn, *task.args, pure=False, priority=task.priority)] = task

    def fail_all(reason: str) -> None:
        for fut, task in list(pending.items()):
            with contextlib.suppress(Exception):
                fut.cancel()
            del pending[fut]
            on_failure(task.index, reason)

    try:
        for task in tasks:
            submit(task)
        no_workers_since: float | None = None
        last_probe = 0.0
        while pending:
            interrupt.raise_if_requested()  # a Ctrl-C whose KeyboardInterrupt was swallowed
            try:
                wait(list(pending), timeout=poll_s, return_when="FIRST_COMPLETED")
            except TimeoutError:
                pass
            except Exception:  # e.g. FuturesCancelledError: each future's own status says what happened
                pass
            if client.status != "running":  # the connection to the scheduler is lost: its tasks are gone
                fail_all("lost the connection to the Dask scheduler")
                break
            for fut in [f for f in pending if f.done()]:
                task = pending.pop(fut)
                if fut.status == "finished":
                    try:
                        value = fut.result()
                    except Exception as exc:  # the result could not be fetched (a worker died meanwhile)
                        _retry_or_fail(task, f"{type(exc).__name__}: {exc}", retries, submit, on_failure)
                        continue
                    on_result(task.index, value)
                else:
                    why = _failure_reason(fut)
                    _retry_or_fail(task, why, retries, submit, on_failure)
            now = time.monotonic()
            if pending and now - last_probe > 2.0:
                last_probe = now
                try:
                    connected = len(client.scheduler_info().get("workers", {}))
                except Exception as exc:  # the scheduler is gone: nothing pending can finish
                    fail_all(f"lost the Dask scheduler ({type(exc).__name__})")
                    break
                no_workers_since = None if connected else (no_workers_since or now)
                if no_workers_since is not None and now - no_workers_since > no_worker_grace_s:
                    fail_all(f"no Dask worker connected to the scheduler for {no_worker_grace_s:.0f} s")
    except KeyboardInterrupt:
        with contextlib.suppress(Exception):
            client.cancel(list(pending), force=True)
        raise


def _failure_reason(fut: Any) -> str:
    """One line: the remote exception (a KilledWorker when its worker died), or the future's status."""
    try:
        exc = fut.exception(timeout=5)
    except Exception as err:  # cancelled or lost
        return f"task {fut.status} ({type(err).__name__})"
    if exc is None:
        return f"task {fut.status}"
    if type(exc).__name__ == "KilledWorker":
        return "its Dask worker died while running it"
    return f"{type(exc).__name__}: {exc}".splitlines()[0]


def _retry_or_fail(task: _Task, reason: str, retries: int, submit: Callable[[_Task], None],
                   on_failure: Callable[[int, str], None]) -> None:
    if task.attempts <= retries:
        submit(task)
    else:
        on_failure(task.index, f"{reason} (tried {task.attempts} times)")
