"""Ctrl-C or SIGTERM during ``verify check`` writes a partial report of the finished claims and exits 130."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import verify.search
from verify.cli.main import main

FAST = ["S1-balancedness-relu", "S1-balancedness-leaky", "S2-lemma2-exp"]


def test_keyboard_interrupt_keeps_the_finished_claims(tmp_path, monkeypatch, capsys):
    real = verify.search.search
    calls = []

    def interrupted_on_second(claim, **kwargs):
        calls.append(claim.id)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(claim, **kwargs)

    monkeypatch.setattr(verify.search, "search", interrupted_on_second)
    before = signal.getsignal(signal.SIGTERM)
    assert main(["check", *FAST, "--report", str(tmp_path)]) == 130
    doc = json.loads((tmp_path / "report.json").read_text())
    assert doc["summary"]["partial"] is True
    assert [c["id"] for c in doc["claims"]] == FAST
    assert doc["claims"][0]["verdict"] == "PROVED"
    assert [c["verdict"] for c in doc["claims"][1:]] == ["UNKNOWN", "UNKNOWN"]
    assert all(c["reason"] == "interrupted" for c in doc["claims"][1:])
    assert (tmp_path / "index.html").exists() and "interrupted" in capsys.readouterr().err
    assert signal.getsignal(signal.SIGTERM) is before  # the run's handler is gone again


def test_sigterm_writes_a_partial_report(tmp_path):
    """A real process, terminated while it searches: exit 130 and a readable partial report."""
    claim_file = tmp_path / "slow.py"
    claim_file.write_text(
        "import time\nimport verify\nfrom verify.scenarios import scenario\n"
        "@verify.claim(id='slow', over=scenario(n=(2, 2), d=(2, 2), h=(1, 1)), horizon=0.1)\n"
        "def slow(run):\n    time.sleep(0.5)\n    return True\n")
    script = ("import sys, verify.claims as c, verify.cli.main as m\n"
              f"slow = c.load_target({str(claim_file)!r} + '::slow')\n"
              "c.catalogue = lambda *a, **k: [c.get_claim('S1-balancedness-relu'), slow]\n"
              "sys.exit(m.main(['check', '--report', sys.argv[1]]))\n")
    proc = subprocess.Popen([sys.executable, "-c", script, str(tmp_path / "r")], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 120
    line = ""
    while "S1-balancedness-relu" not in line and time.monotonic() < deadline:
        line = proc.stdout.readline()
    time.sleep(1.0)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    doc = json.loads((Path(tmp_path) / "r" / "report.json").read_text())
    assert doc["summary"]["partial"] is True
    assert [(c["id"], c["verdict"]) for c in doc["claims"]] == [("S1-balancedness-relu", "PROVED"), ("slow", "UNKNOWN")]
    assert "Traceback" not in err
