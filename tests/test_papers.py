"""Papers as plug-ins: verify.Paper, discovery through the entry-point group verify.papers, a third-party
paper installed from its own pyproject.toml and listed, checked and reported with no change to verify/."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import verify
from verify.claims import registry
from verify.cli.main import main
from verify.scenarios import scenario

ROOT = Path(__file__).resolve().parents[1]


def _claim(cid: str, **kw):
    return verify.claim(id=cid, over=scenario(n=(2, 2), d=(2, 2), h=(1, 1)), horizon=0.1, **kw)(lambda run: True)


def test_paper_validation_errors_are_typed():
    with pytest.raises(verify.InputError, match="non-empty string id"):
        verify.Paper("", "t", [])
    with pytest.raises(verify.InputError, match="Claim objects"):
        verify.Paper("X", "t", ["not a claim"])
    with pytest.raises(verify.InputError, match="duplicate claim ids a"):
        verify.Paper("X", "t", [_claim("a"), _claim("a")])
    with pytest.raises(verify.InputError, match="do not exist: a -> L9"):
        verify.Paper("X", "t", [_claim("a", node="L9")], blueprint=verify.Blueprint((verify.Node("L1", "Lemma 1"),)))
    with pytest.raises(verify.InputError, match="edge"):
        verify.Blueprint((verify.Node("L1", "Lemma 1"),), (("L1", "L2"),))
    with pytest.raises(TypeError):
        verify.Paper("X", "t", [], None)  # source and the rest are keyword-only


class _EntryPoint:
    def __init__(self, name, value, obj):
        self.name, self.value, self.dist, self._obj = name, value, None, obj

    def load(self):
        if isinstance(self._obj, Exception):
            raise self._obj
        return self._obj


def _discover(monkeypatch, *eps):
    monkeypatch.setattr(registry, "entry_points", lambda group: list(eps))
    monkeypatch.setattr(registry, "_PAPERS", None)
    try:
        return registry.papers()
    finally:
        monkeypatch.setattr(registry, "_PAPERS", None)


def test_a_claim_id_in_two_papers_is_an_error_naming_both(monkeypatch):
    a = verify.Paper("A", "first", [_claim("shared")])
    b = verify.Paper("B", "second", [_claim("shared")])
    with pytest.raises(verify.InputError, match="'shared' is in paper A and in paper B"):
        _discover(monkeypatch, _EntryPoint("A", "a:P", a), _EntryPoint("B", "b:P", b))


def test_broken_entry_points_are_named(monkeypatch):
    with pytest.raises(verify.InputError, match="entry point 'X' \\(x:P\\) cannot be loaded: ImportError"):
        _discover(monkeypatch, _EntryPoint("X", "x:P", ImportError("no module x")))
    with pytest.raises(verify.InputError, match="names a int, not a verify.Paper"):
        _discover(monkeypatch, _EntryPoint("X", "x:P", 3))
    p = verify.Paper("A", "first", [_claim("c1")])
    with pytest.raises(verify.InputError, match="paper id 'A' is declared twice"):
        _discover(monkeypatch, _EntryPoint("A", "a:P", p), _EntryPoint("A2", "a2:P", verify.Paper("A", "again", [])))


def test_list_by_paper_and_unknown_paper(capsys):
    assert main(["list", "--paper", "004"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == len(registry.papers()["004"].claims) and all(" 004" in line for line in lines)
    assert main(["list", "--paper", "nope"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "installed: " in err and "004" in err


def test_check_of_a_claim_outside_the_selected_paper_is_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(registry, "_PAPERS", {**registry.papers(), "T": verify.Paper("T", "t", [_claim("t-only")])})
    assert main(["check", "--paper", "T", "S1-balancedness-relu", "--report", str(tmp_path)]) == 2
    assert "not in paper(s) T" in capsys.readouterr().err


def test_the_engine_names_no_paper():
    """verify/paper.py and the registry know no built-in paper (the built-ins are entry points too)."""
    for path in (ROOT / "verify" / "paper.py", ROOT / "verify" / "claims" / "registry.py"):
        text = path.read_text()
        assert "004" not in text and "min2024" not in text, path


@pytest.fixture(scope="module")
def installed_tiny_paper(tmp_path_factory):
    """tests/third_party_paper installed (pip, offline, no build isolation) into its own directory."""
    target = tmp_path_factory.mktemp("site")
    source = tmp_path_factory.mktemp("src") / "tiny"
    shutil.copytree(ROOT / "tests" / "third_party_paper", source)  # the build writes beside its sources
    res = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                          "--no-index", "--target", str(target), str(source)],
                         capture_output=True, text=True, timeout=300, cwd=source)
    assert res.returncode == 0, res.stderr
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), os.environ.get("PYTHONPATH", "")])}
    return env


def _verify(env, *argv, cwd):
    return subprocess.run([sys.executable, "-m", "verify.cli.main", *argv], capture_output=True, text=True,
                          env=env, timeout=600, cwd=cwd)


def test_a_third_party_paper_is_listed_checked_and_reported(installed_tiny_paper, tmp_path):
    env = installed_tiny_paper
    listed = _verify(env, "list", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "T01-balancedness" in listed.stdout and "EA-A1" in listed.stdout
    only = _verify(env, "list", "--paper", "T01", cwd=tmp_path)
    assert [line.split()[0] for line in only.stdout.strip().splitlines()] == ["T01-balancedness", "T01-planted-no-growth"]
    checked = _verify(env, "check", "--paper", "T01", "--report", str(tmp_path / "r"), cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    doc = json.loads((tmp_path / "r" / "report.json").read_text())
    verdicts = {c["id"]: c["verdict"] for c in doc["claims"]}
    assert verdicts == {"T01-balancedness": "HOLDS", "T01-planted-no-growth": "REFUTED"}
    assert {c["id"]: c["node"] for c in doc["claims"]} == {"T01-balancedness": "L1", "T01-planted-no-growth": "L2"}
