"""The Dask task runner of the scale-out (issue 21): a task that raises or whose worker dies is retried once,
then reported failed, and the run never hangs; Ctrl-C during ``verify check --workers`` keeps the finished
claims in a partial report; bad cluster options exit 2 with one line."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from pathlib import Path

import cloudpickle
import pytest

from verify.cli.main import main
from verify.scaleout import cluster as cl

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this test module


def _double(x: int) -> int:
    return 2 * x


def _always_raises(marker: str) -> None:
    with open(marker, "a") as fh:
        fh.write("x")
    raise ValueError("planted task failure")


def _fails_once(marker: str) -> str:
    if not os.path.exists(marker):
        Path(marker).write_text("x")
        raise RuntimeError("transient")
    return "second try"


def _kills_its_worker(marker: str) -> None:
    with open(marker, "a") as fh:
        fh.write("x")
    os._exit(1)


def test_failed_tasks_and_dead_workers_are_retried_once_then_reported(tmp_path: Path, capfd) -> None:
    results: dict[int, object] = {}
    failures: dict[int, str] = {}
    markers = [str(tmp_path / f"m{k}") for k in range(3)]
    started = time.monotonic()
    with cl.dask_client(workers=1) as client:
        cl.run_tasks(client, _dispatch, [("double", 1), ("raise", markers[0]), ("once", markers[1]),
                                         ("die", markers[2]), ("double", 4)],
                     on_result=results.__setitem__, on_failure=failures.__setitem__)
    assert time.monotonic() - started < 120
    assert results == {0: 2, 2: "second try", 4: 8}
    assert "ValueError: planted task failure (tried 2 times)" in failures[1]
    assert "worker died" in failures[3] and "tried 2 times" in failures[3]
    assert Path(markers[0]).read_text() == "xx" and Path(markers[2]).read_text() == "xx"  # exactly one retry
    err = capfd.readouterr().err
    assert "Traceback" not in err and "WARNING" not in err.upper(), err


def test_ctrl_c_cancels_the_pending_tasks_and_ends_the_local_workers(capfd) -> None:
    """A KeyboardInterrupt while tasks run: the runner cancels the futures, the LocalCluster's workers are
    ended at once (a task sleeping for a minute does not hold the exit up)."""
    seen = []

    def on_result(i: int, value: object) -> None:
        seen.append(value)
        raise KeyboardInterrupt

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        with cl.dask_client(workers=2) as client:
            cl.run_tasks(client, _dispatch, [("sleep", 60), ("double", 3), ("sleep", 60)], on_result=on_result,
                         on_failure=lambda i, why: None)
    assert seen == [6] and time.monotonic() - started < 30
    err = capfd.readouterr().err
    assert "Traceback" not in err, err


def _dispatch(kind: str, arg: object) -> object:
    return {"double": _double, "raise": _always_raises, "once": _fails_once, "die": _kills_its_worker,
            "sleep": time.sleep}[kind](arg)


def test_ctrl_c_during_a_cluster_check_writes_the_partial_report(tmp_path: Path, monkeypatch, capsys) -> None:
    """The runner's KeyboardInterrupt (after one claim finished) reaches the report: that claim kept, the others
    UNKNOWN "interrupted", exit 130. (No cluster: the client and the runner are stand-ins.)"""
    import verify.scaleout.check as ck

    def fake_run_tasks(client, fn, argsets, *, on_result, on_failure, **kw):
        on_result(1, fn(*argsets[1]))  # the second claim finishes first, on "the cluster"
        raise KeyboardInterrupt

    monkeypatch.setattr(ck, "dask_client", lambda workers, scheduler: contextlib.nullcontext())
    monkeypatch.setattr(ck, "run_tasks", fake_run_tasks)
    claims = ["EA-A2", "P2-balanced-zero", "EA-A1"]
    assert main(["check", *claims, "--budget", "2", "--report", str(tmp_path), "--workers", "2"]) == 130
    doc = json.loads((tmp_path / "report.json").read_text())
    assert doc["summary"]["partial"] is True and [c["id"] for c in doc["claims"]] == claims
    assert [c["verdict"] for c in doc["claims"]] == ["UNKNOWN", "REFUTED", "UNKNOWN"]
    assert doc["claims"][0]["reason"] == doc["claims"][2]["reason"] == "interrupted"
    assert "--replay" in doc["claims"][1]["counterexample"]["replay"]
    captured = capsys.readouterr()
    assert captured.out.startswith("P2-balanced-zero") and "interrupted" in captured.err


@pytest.mark.parametrize("argv, message", [
    (["--workers", "0"], "--workers: must be an integer >= 1"),
    (["--workers", "x"], "--workers: must be an integer >= 1"),
    (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "not allowed with argument"),
    (["--scheduler", "tcp://127.0.0.1:1"], "cannot reach a Dask scheduler at tcp://127.0.0.1:1"),
    (["--scheduler", "tcp://127.0.0.1"], "missing port number"),
    (["--scheduler", "nonsense::"], "--scheduler: bad address"),
])
def test_bad_cluster_options_exit_2_with_one_line(tmp_path: Path, capsys, argv: list[str], message: str) -> None:
    assert main(["check", "P2-balanced-zero", "--report", str(tmp_path), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_a_claim_that_cannot_travel_is_refused() -> None:
    from verify.claims.model import Claim
    from verify.errors import InputError

    stray = Claim(id="stray", source="test", statement="s", check=lambda run: True)
    with pytest.raises(InputError, match="cannot be sent to Dask workers"):
        cl.claim_ref(stray)
    user = Claim(id="u", source="test", statement="s", check=lambda run: True, meta={"file": "/abs/f.py"})
    assert cl.claim_ref(user) == ("file", "/abs/f.py", "u")
    from verify.claims.registry import get_claim

    assert cl.resolve_claim(cl.claim_ref(get_claim("EA-A1"))) is get_claim("EA-A1")
