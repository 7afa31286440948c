"""The pytest plugin (entry point ``pytest11``): module-level claims become test items named by claim id.

Each test runs pytest in a subprocess on a file written here, as a user's project would."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

from tests.test_user_claims import CLAIM_FILE, readme_claim_file
from verify.cli.main import main

CLAIMS = CLAIM_FILE + """

@verify.claim(id="planted-never-doubles", over=SMALL, horizon=30.0, source="user: planted", expected="REFUTED")
def planted(run):
    return never_doubles.check(run)


@verify.claim(id="needs-more-examples", over=SMALL, horizon=1.0, min_examples=1000)
def needs_more_examples(run):
    return True


def test_plain_function():
    assert True
"""


def pytest_in(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-o", f"cache_dir={folder / 'cache'}",
                           "--verify-db", "none", *args], cwd=folder, capture_output=True, text=True, timeout=300)


def test_the_plugin_is_registered_with_the_package():
    assert any(ep.value == "verify.pytest_plugin" for ep in entry_points(group="pytest11"))


def test_claims_become_items_that_pass_fail_and_xfail(tmp_path, monkeypatch, capsys):
    (tmp_path / "test_mine.py").write_text(CLAIMS)
    out = pytest_in(tmp_path, "test_mine.py", "--verify-budget", "4", "-rA", "--hypothesis-show-statistics")
    text = out.stdout
    assert out.returncode == 1, text
    assert re.search(r"2 failed, 2 passed, 1 xfailed", text), text
    assert "PASSED test_mine.py::v-signs-kept" in text and "PASSED test_mine.py::test_plain_function" in text
    assert "XFAIL test_mine.py::planted-never-doubles" in text
    failure = text[text.index("claim never-doubles [user: false]: REFUTED"):]
    for piece in ("scenario: n = 2 examples in d = 2", "margin -", "30-digit mp rerun", "first violated sample: t = ",
                  "replay: verify search test_mine.py::never-doubles --replay "):
        assert piece in failure, piece
    assert "claim needs-more-examples [user]: UNKNOWN" in text and "--verify-allow-unknown" in text
    assert "relu-verify search, budget 4, seed 0" in text  # Hypothesis's statistics section
    replay = re.search(r"replay: (verify search .*\.json)", failure).group(1).split()
    monkeypatch.chdir(tmp_path)
    assert main(replay[1:]) == 1  # the replay command of the failure text re-evaluates the counterexample
    assert "VIOLATED" in capsys.readouterr().out


def test_unknown_is_skipped_never_passed_when_allowed(tmp_path):
    (tmp_path / "test_mine.py").write_text(CLAIMS)
    out = pytest_in(tmp_path, "test_mine.py::needs-more-examples", "--verify-budget", "2", "--verify-allow-unknown", "-rs")
    assert out.returncode == 0 and "1 skipped" in out.stdout and "UNKNOWN (allowed by --verify-allow-unknown)" in out.stdout


def test_imported_claims_are_not_collected_twice_and_bad_options_are_usage_errors(tmp_path):
    (tmp_path / "base_claims.py").write_text(CLAIMS)
    (tmp_path / "test_reuse.py").write_text("from base_claims import signs_kept, never_doubles\n\n"
                                            "def test_it():\n    assert signs_kept.id == 'v-signs-kept'\n")
    out = pytest_in(tmp_path, "test_reuse.py", "--collect-only")
    assert "test_reuse.py::test_it" in out.stdout and "v-signs-kept" not in out.stdout and "1 test collected" in out.stdout
    bad = pytest_in(tmp_path, "test_reuse.py", "--verify-budget", "0")
    assert bad.returncode == 4 and "--verify-budget must be >= 1, got 0" in bad.stderr


def test_the_readme_claim_file_under_pytest(tmp_path):
    """``pytest my_claims.py`` on the README's file: the true claim passes, the false one fails with its replay."""
    (tmp_path / "my_claims.py").write_text(readme_claim_file())
    out = pytest_in(tmp_path, "my_claims.py")
    assert out.returncode == 1 and "1 failed, 1 passed" in out.stdout, out.stdout
    assert "replay: verify search my_claims.py::norms-at-most-double --replay " in out.stdout
