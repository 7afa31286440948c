"""Scale-out on a real Dask cluster (issue 21): a ``dask scheduler`` and two ``dask worker`` processes on the
loopback, driven through ``verify check --scheduler`` and ``verify sweep --scheduler``; verdicts, examples,
margins and sweep rows equal the serial run's. Also ``--workers`` (a LocalCluster). Every process the test
starts is stopped by it. (Ctrl-C and worker deaths: tests/test_scaleout.py.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
CLAIMS = ["EA-A2", "P2-balanced-zero"]  # one HOLDS (mp cross-checked), one REFUTED (counterexample)
USER_FILE = ROOT / "tests" / "user_claims_example.py"
SWEEP = ["sweep", f"{USER_FILE}::user-no-growth", "--grid", "h=1,2", "--grid", "eps=0.001,0.01", "--seeds", "2"]
SAME = ("id", "verdict", "examples", "vacuous", "numerical_failures", "min_margin", "min_margin_error", "explored",
        "worst_case", "slack", "cross_check", "reason")
ENV = {**os.environ, "PYTHONUNBUFFERED": "1", "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"}


def _runs(runs: list[list[str]]) -> subprocess.Popen:
    """One background process that runs ``verify`` commands in turn (``main(argv)``; one start-up for all);
    its exit status is 0 when every command exited 0."""
    script = ("import sys\nfrom verify.cli.main import main\n"
              f"sys.exit(max(main(argv) for argv in {runs!r}))\n")
    return subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


class LoopbackCluster:
    """``dask scheduler`` + two ``dask worker`` processes on 127.0.0.1, each in its own process group."""

    def __init__(self, tmp: Path, workers: int = 2) -> None:
        self.tmp, self.procs, self.address, self.workers = tmp, [], "", workers

    def start(self) -> None:
        info = self.tmp / "scheduler.json"
        self._spawn([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(info)], "scheduler")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not self.address:
            time.sleep(0.2)
            try:
                self.address = json.loads(info.read_text())["address"]
            except (OSError, ValueError, KeyError):
                pass
        assert self.address.startswith("tcp://127.0.0.1:"), (self.tmp / "scheduler.log").read_text()
        for k in range(self.workers):
            self._spawn([str(BIN / "dask"), "worker", self.address, "--host", "127.0.0.1", "--nthreads", "1",
                         "--nworkers", "1", "--no-dashboard", "--name", f"w{k}"], f"worker{k}")

    def _spawn(self, cmd: list[str], name: str) -> None:
        log = open(self.tmp / f"{name}.log", "w")
        self.procs.append(subprocess.Popen(cmd, cwd=ROOT, env=ENV, stdout=log, stderr=subprocess.STDOUT,
                                           start_new_session=True))
        log.close()

    def stop(self) -> None:
        for proc in reversed(self.procs):  # workers first, then the scheduler; each with its own children
            for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
                if proc.poll() is not None:
                    break
                try:
                    os.killpg(proc.pid, sig)
                    proc.wait(wait)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    pass
        for proc in self.procs:
            assert proc.poll() is not None, f"process {proc.pid} still running"
            try:  # the group is gone too (nanny children)
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                continue
            os.killpg(proc.pid, signal.SIGKILL)


def _claims(report: Path) -> dict[str, dict]:
    return {c["id"]: c for c in json.loads((report / "report.json").read_text())["claims"]}


def _rows(out: Path) -> list[dict]:
    rows = pq.read_table(out / "results.parquet").to_pylist()
    for r in rows:
        r.pop("time_s")
    return rows


def _assert_same_claims(serial: dict[str, dict], other: dict[str, dict]) -> None:
    assert list(serial) == list(other)
    for cid, entry in serial.items():
        for key in SAME:
            assert entry.get(key) == other[cid].get(key), (cid, key)
        cx, cy = entry.get("counterexample"), other[cid].get("counterexample")
        assert (cx is None) == (cy is None), cid
        if cx:
            assert {k: v for k, v in cx.items() if k != "replay"} == {k: v for k, v in cy.items() if k != "replay"}


def test_scheduler_workers_and_local_cluster_match_the_serial_run(tmp_path: Path) -> None:
    """Serial, ``--workers 2`` and ``--scheduler`` (two loopback workers) runs of the same claims and sweep
    agree. (One test: the runs overlap in time; each process start-up imports the engine, ~5 s of CPU.)"""
    check = ["check", *CLAIMS, "--budget", "3", "--report"]
    serial = _runs([[*check, str(tmp_path / "serial")], [*SWEEP, "--out", str(tmp_path / "ssweep")]])
    cluster = LoopbackCluster(tmp_path)
    dist = None
    try:
        cluster.start()
        dist = _runs([[*check, str(tmp_path / "local"), "--workers", "2"],
                      [*check, str(tmp_path / "dist"), "--scheduler", cluster.address],
                      [*SWEEP, "--out", str(tmp_path / "dsweep"), "--scheduler", cluster.address]])
        out, err = serial.communicate(timeout=240)
        assert serial.returncode == 0 and err == "", err  # no warning on valid input
        out, err = dist.communicate(timeout=240)
        assert dist.returncode == 0, err
        assert err == "", err  # no Dask log lines, dashboard-port or shutdown warnings

        reference = _claims(tmp_path / "serial")
        _assert_same_claims(reference, _claims(tmp_path / "local"))
        _assert_same_claims(reference, _claims(tmp_path / "dist"))
        assert "8 row(s)" in out and (tmp_path / "dsweep" / "phase.png").stat().st_size > 0
        rows = _rows(tmp_path / "dsweep")
        assert len(rows) == 8 and rows == _rows(tmp_path / "ssweep")

    finally:
        for proc in (serial, dist):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
        cluster.stop()
    leftovers = [p for p in psutil.Process().children(recursive=True) if "dask" in " ".join(p.cmdline())]
    assert not leftovers


def test_a_lost_scheduler_fails_the_pending_tasks_instead_of_hanging(tmp_path: Path, capfd) -> None:
    from verify.scaleout import cluster as cl

    cluster = LoopbackCluster(tmp_path, workers=1)
    results: dict[int, object] = {}
    failures: dict[int, str] = {}
    try:
        cluster.start()
        with cl.dask_client(scheduler=cluster.address) as client:
            client.wait_for_workers(1, timeout=60)
            started = time.monotonic()
            timer = threading.Timer(2.0, os.killpg, (cluster.procs[0].pid, signal.SIGKILL))  # the scheduler dies
            timer.start()
            cl.run_tasks(client, time.sleep, [(30,), (30,)], on_result=results.__setitem__,
                         on_failure=failures.__setitem__)
            timer.join()
            assert time.monotonic() - started < 25
    finally:
        cluster.stop()
    assert results == {} and failures == {0: "lost the connection to the Dask scheduler",
                                          1: "lost the connection to the Dask scheduler"}
    assert "Traceback" not in capfd.readouterr().err
