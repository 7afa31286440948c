"""User claims are first-class: ``verify check FILE.py``, claim lookup by id or name, sibling imports, the
search JSON's provenance, the API's docstrings, and the README's worked example run exactly as printed."""

from __future__ import annotations

import inspect
import json
import re
import textwrap
from pathlib import Path

import pytest

import verify
from verify.claims.registry import load_file, load_target
from verify.cli.main import main
from verify.errors import InputError
from verify.scenarios import scenario

ROOT = Path(__file__).resolve().parents[1]


def readme_claim_file() -> str:
    """The claim file of the README's "Write your own claim" section, as printed."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Write your own claim"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def write(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(body))
    return path


CLAIM_FILE = """\
import numpy as np
import verify
from verify.scenarios import scenario

SMALL = scenario(n=(2, 3), d=(2, 2), h=(1, 2), eps=(1e-3, 1e-2))


@verify.claim(id="v-signs-kept", over=SMALL, horizon=5.0, source="user: 004 Lemma 1")
def signs_kept(run):
    return bool(np.all(np.sign(run.v) == np.sign(run.v0)))


@verify.claim(id="never-doubles", over=SMALL, horizon=30.0, source="user: false")
def never_doubles(run):
    growth = np.linalg.norm(run.W, axis=2) / np.linalg.norm(run.W0, axis=1)
    return float(2.0 - growth.max())
"""


def test_readme_example_through_check_search_replay_and_report(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "my_claims.py", readme_claim_file())
    assert main(["check", "my_claims.py", "--report", "reports/mine"]) == 1  # the false claim is not as expected
    report = json.loads((tmp_path / "reports/mine/report.json").read_text())
    verdicts = {c["id"]: c["verdict"] for c in report["claims"]}
    assert verdicts == {"signs-of-v-kept": "HOLDS", "norms-at-most-double": "REFUTED"}
    assert all(c["file"] == "my_claims.py" and c["paper"] is None for c in report["claims"])
    refuted = next(c for c in report["claims"] if c["verdict"] == "REFUTED")
    assert refuted["counterexample"]["replay"].startswith("verify search my_claims.py::norms-at-most-double --replay ")
    assert report["tool"]["command"] == "verify check my_claims.py --report reports/mine"
    assert (tmp_path / "reports/mine/index.html").is_file() and (tmp_path / "reports/mine/report.md").is_file()
    capsys.readouterr()
    assert main(["search", "my_claims.py::norms-at-most-double", "--json", "r.json", "--db", "none"]) == 1
    assert main(["search", "my_claims.py::norms-at-most-double", "--replay", "r.json"]) == 1
    assert "VIOLATED" in capsys.readouterr().out


def test_check_runs_every_claim_of_several_files_and_catalogue_ids(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "a.py", CLAIM_FILE)
    write(tmp_path, "b.py", CLAIM_FILE.replace('"v-signs-kept"', '"b-signs"').replace('"never-doubles"', '"b-doubles"'))
    code = main(["check", "a.py", "b.py::b-signs", "EA-D1", "--budget", "3", "--report", "out"])
    entries = json.loads((tmp_path / "out/report.json").read_text())["claims"]
    assert [e["id"] for e in entries] == ["v-signs-kept", "never-doubles", "b-signs", "EA-D1"]
    assert [e["paper"] for e in entries] == [None, None, None, "004"]
    assert code == 1  # never-doubles is REFUTED where HOLDS was expected


def test_claim_lookup_by_id_or_function_name_and_the_list_of_names(tmp_path):
    path = write(tmp_path, "claims.py", CLAIM_FILE)
    by_id = load_target(f"{path}::never-doubles")
    assert load_target(f"{path}::never_doubles") is by_id
    assert by_id.meta["file"] == str(path.resolve())
    with pytest.raises(InputError, match=r"has no claim 'nope'; it defines: v-signs-kept \(signs_kept\), never-doubles \(never_doubles\)"):
        load_target(f"{path}::nope")


def test_unknown_name_and_bad_files_exit_2_with_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "claims.py", CLAIM_FILE)
    write(tmp_path, "empty.py", "x = 1\n")
    write(tmp_path, "broken.py", "import no_such_module_anywhere\n")
    write(tmp_path, "twice.py", CLAIM_FILE.replace('"never-doubles"', '"v-signs-kept"'))
    for argv, message in [(["search", "claims.py::nope"], "it defines: v-signs-kept"),
                          (["check", "empty.py"], "defines no claim"),
                          (["check", "broken.py"], "cannot import (ModuleNotFoundError"),
                          (["check", "twice.py"], "defines claim id 'v-signs-kept' twice"),
                          (["check", "missing.py"], "missing.py: no such file")]:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_one_id_in_a_file_and_the_catalogue_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "clash.py", CLAIM_FILE.replace('"never-doubles"', '"EA-D1"'))
    assert main(["check", "clash.py", "EA-D1", "--report", "out"]) == 2
    assert "claim id 'EA-D1' is in " in capsys.readouterr().err


def test_a_claim_file_imports_a_module_beside_it(tmp_path):
    write(tmp_path, "thresholds.py", "LIMIT = 2.0\n")
    path = write(tmp_path, "uses_helper.py", """\
        import numpy as np
        import thresholds
        import verify
        from verify.scenarios import scenario

        @verify.claim(id="helper-limit", over=scenario(n=(2, 3), d=(2, 2), h=(1, 2)), horizon=1.0)
        def within(run):
            return thresholds.LIMIT - 1.0
        """)
    (found,) = load_file(path)
    from verify.search import search

    assert search(found, budget=2, seed=0).verdict == verify.Verdict.HOLDS


def test_imported_claims_belong_to_their_own_file(tmp_path):
    write(tmp_path, "base_claims.py", CLAIM_FILE)
    path = write(tmp_path, "reuses.py", """\
        import verify
        from verify.scenarios import scenario
        from base_claims import signs_kept

        @verify.claim(id="own", over=scenario(n=(2, 3)), horizon=1.0)
        def own(run):
            return True
        """)
    assert [c.id for c in load_file(path)] == ["own"]


def test_search_json_records_how_to_reproduce_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "claims.py", CLAIM_FILE)
    assert main(["search", "claims.py::v-signs-kept", "--profile", "ci", "--seed", "4", "--db", "none", "--json", "a.json"]) == 0
    doc = json.loads((tmp_path / "a.json").read_text())
    recorded = {k: doc[k] for k in ("seed", "budget", "profile", "database", "database_used", "tool_version", "command")}
    assert recorded == {"seed": 4, "budget": 12, "profile": "ci", "database": None, "database_used": False,
                        "tool_version": verify.__version__,
                        "command": "verify search claims.py::v-signs-kept --budget 12 --seed 4 --db none --json a.json"}
    assert main(doc["command"].split()[1:-2] + ["--json", "b.json"]) == 0
    again = json.loads((tmp_path / "b.json").read_text())
    assert (again["examples"], again["min_margin"], again["verdict"]) == (doc["examples"], doc["min_margin"], doc["verdict"])


def test_the_api_documents_every_argument():
    claim_doc = inspect.getdoc(verify.claim)
    for name in ("id", "over", "horizon", "source", "statement", "expected", "precondition", "rtol", "samples",
                 "spacing", "backend", "min_examples", "True / False", "verify.Margin", "ratio", "Example"):
        assert name in claim_doc, name
    scenario_doc = inspect.getdoc(scenario)
    for name in inspect.signature(scenario).parameters:
        assert re.search(rf"^\s*{name} --", scenario_doc, re.M), name
    for family in ("orthogonally_separable", "linearly_separable", "symmetric", "any", "balanced", "unbalanced", "dominated"):
        assert f'"{family}"' in scenario_doc, family
    run_doc = inspect.getdoc(verify.Run)
    for name in ("scenario", "audit", "field", "trajectory", "horizon"):
        assert re.search(rf"^\s*{name} --", run_doc, re.M), name
    for prop in ("X", "y", "W0", "v0", "times", "W", "v", "events", "params", "log_eps", "init", "dataset"):
        assert inspect.getdoc(getattr(verify.Run, prop)), prop


def test_the_claim_docstring_example_runs():
    doc = inspect.getdoc(verify.claim)
    code = textwrap.dedent(doc[doc.index("Example::") + len("Example::"):])
    namespace: dict = {}
    exec(compile(code, "<verify.claim example>", "exec"), namespace)  # noqa: S102 - our own docstring
    from verify.search import search

    assert search(namespace["balancedness"], budget=3, seed=0).verdict == verify.Verdict.HOLDS
