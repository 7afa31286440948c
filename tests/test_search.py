"""Soundness rules of the search: what may and may not become REFUTED or HOLDS."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import strategies as st

from verify.claims.model import Claim, Margin
from verify.errors import NumericalError
from verify.scenarios import scenario
from verify.search import search
from verify.verdicts import Verdict

HERE = Path(__file__).parent
SMALL = scenario(n=(2, 4), d=(2, 3), h=(1, 3), eps=(1e-3, 1e-2))


def _claim(check, **kw):
    return Claim(id=kw.pop("id", "test-claim"), source="test", statement="test", check=check, **kw)


def test_violation_below_error_estimate_is_not_refuted():
    result = search(_claim(lambda x: Margin(-1e-12, 1e-9), over=st.integers(0, 10)), budget=20)
    assert result.verdict == Verdict.HOLDS
    assert result.min_margin == -1e-12


def test_numerical_failure_gives_unknown_not_holds():
    def check(x):
        if x % 2:
            raise NumericalError("step size underflow")
        return 1.0

    result = search(_claim(check, over=st.integers(0, 50)), budget=20)
    assert result.verdict == Verdict.UNKNOWN
    assert "numerically" in result.reason


def test_engine_error_gives_failed():
    result = search(_claim(lambda x: 1 / 0, over=st.integers(0, 5)), budget=5)
    assert result.verdict == Verdict.FAILED
    assert "ZeroDivisionError" in result.reason


def test_assumptions_never_met_gives_unknown():
    result = search(_claim(lambda x: Margin(0.0, vacuous=True, note="premise false"), over=st.integers(0, 5)), budget=5)
    assert result.verdict == Verdict.UNKNOWN
    assert "never met" in result.reason


def test_float_artefact_cleared_by_confirmation_is_not_refuted():
    def check(run):
        rtol = run.trajectory.params["rtol"]
        return Margin(-1e-3 if rtol >= 1e-10 else 1e-3, 0.0)  # "violates" only at the loose tolerance

    result = search(_claim(check, over=SMALL, horizon=1.0), budget=6)
    assert result.verdict == Verdict.HOLDS
    assert result.counterexample is None


def test_confirmed_violation_is_refuted_shrunk_and_deterministic():
    claim = _claim(lambda run: 1.0 - float(run.W.shape[1]), over=SMALL, horizon=1.0, id="h-le-1")
    first = search(claim, budget=20, seed=3)
    second = search(claim, budget=20, seed=3)
    assert first.verdict == Verdict.REFUTED
    cx = first.counterexample
    assert len(cx["W0"]) == 2  # shrunk to the smallest violating width
    assert len(cx["X"]) == 2 and cx["params"]["seed"] == 0 and cx["params"]["init_seed"] == 0
    assert cx["confirmed_margin"] < 0 and cx["params"]["t_end"] == 1.0
    assert second.counterexample == cx


def _verify(*args, cwd):
    return subprocess.run([sys.executable, "-c", "import sys; from verify.cli.main import main; sys.exit(main())", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=300)


def test_user_claim_file_true_claim_holds(tmp_path):
    out = _verify("search", f"{HERE / 'user_claims_example.py'}::balancedness_small", "--budget", "5", "--json",
                  str(tmp_path / "r.json"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads((tmp_path / "r.json").read_text())["verdict"] == "HOLDS"


def test_user_claim_file_false_claim_refuted_and_replayed(tmp_path):
    target = f"{HERE / 'user_claims_example.py'}::norms_never_double"
    out = _verify("search", target, "--budget", "10", "--json", str(tmp_path / "r.json"), cwd=tmp_path)
    assert out.returncode == 1, out.stderr
    doc = json.loads((tmp_path / "r.json").read_text())
    cx = doc["counterexample"]
    assert doc["verdict"] == "REFUTED" and cx["confirmed_margin"] < 0
    assert {"X", "y", "W0", "v0", "params", "replay"} <= set(cx) and cx["params"]["t_end"] == 30.0
    replay = cx["replay"].split()
    assert replay[:2] == ["verify", "search"]
    again = _verify(*replay[1:], cwd=tmp_path)
    assert again.returncode == 1 and "VIOLATED" in again.stdout


@pytest.mark.parametrize("args, fragment", [
    (["search", "no-such-claim"], "unknown claim"),
    (["search", "missing.py::x"], "no such file"),
    (["search", "EA-A1", "--budget", "0"], "--budget"),
    (["check", "--profile", "huge"], "invalid choice"),
])
def test_search_cli_bad_input(tmp_path, args, fragment):
    out = _verify(*args, cwd=tmp_path)
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1 and fragment in out.stderr
    assert "Traceback" not in out.stderr


def test_float64_artefact_cleared_by_mp_rerun_is_not_refuted():
    """A -1e-15 'violation' that only the float64 engine produces is cleared by the 30-digit rerun."""

    def check(run):
        return Margin(1e-15 if run.trajectory.backend == "mp" else -1e-15, 0.0)

    result = search(_claim(check, over=SMALL, horizon=1.0, id="kink-artefact"), budget=4)
    assert result.verdict == Verdict.UNKNOWN
    assert "cleared" in result.reason
    cx = result.counterexample
    assert cx["mp_confirmation"] == "cleared" and cx["mp_dps"] == 30
    assert cx["confirmed_margin"] == -1e-15 and cx["mp_margin"] == 1e-15


def test_real_violation_survives_mp_rerun_and_report_shows_both_margins():
    claim = _claim(lambda run: 1.0 - float(run.W.shape[1]), over=SMALL, horizon=1.0, id="h-le-1-mp")
    result = search(claim, budget=10)
    assert result.verdict == Verdict.REFUTED
    cx = result.counterexample
    assert cx["mp_confirmation"] == "violated" and cx["mp_margin"] == cx["confirmed_margin"] == -1.0


def test_example_database_replays_a_found_counterexample_first(tmp_path):
    calls = []

    def check(x):
        calls.append(x)
        return 1.0 if x < 37 else -1.0

    claim = _claim(check, over=st.integers(0, 10**6), id="db-claim")
    first = search(claim, budget=200, seed=1, database=tmp_path / "db")
    assert first.verdict == Verdict.REFUTED and first.counterexample["value"] == 37
    calls.clear()
    again = search(claim, budget=200, seed=2, database=tmp_path / "db")
    assert again.verdict == Verdict.REFUTED
    assert calls[0] == 37  # the stored counterexample is replayed before any new example


def test_search_interrupted_by_hypothesis_is_unknown_not_holds():
    """An error that does not reproduce makes Hypothesis stop with Flaky: inconclusive, never HOLDS."""
    from hypothesis.errors import Flaky

    seen = []

    def check(x):
        seen.append(x)
        if len(seen) == 3:
            raise Flaky("simulated interruption")
        return 1.0

    result = search(_claim(check, over=st.integers(0, 100)), budget=10)
    assert result.verdict == Verdict.UNKNOWN and "interrupted" in result.reason


def test_infinite_margins_are_evidence_not_an_interruption():
    result = search(_claim(lambda x: float("inf") if x % 2 else 1.0, over=st.integers(0, 100)), budget=10)
    assert result.verdict == Verdict.HOLDS and result.examples == 10


def test_a_search_does_not_depend_on_what_ran_before_it() -> None:
    """Hypothesis draws some values from the constants of the loaded local modules; the search loads every
    project module first, so a claim searched alone and after an unrelated run (which imports more modules)
    sees the same examples (two fresh processes)."""
    import subprocess
    import sys

    before = ("from verify.simulate import simulate\nfrom verify.data.generators import orthogonally_separable\n"
              "from verify.model.init import balanced_init\n"
              "ds = orthogonally_separable(2, 2, 2, 0.5, seed=0); i = balanced_init(2, 2, log_eps=-5, seed=0)\n"
              "simulate(ds, i.W0, i.v0, 1.0, log_eps=-5)\n")
    body = ("from verify.claims.registry import get_claim\nfrom verify.search import search\n"
            "r = search(get_claim('EA-D1'), budget=12, seed=0)\nprint(repr(r.min_margin), r.examples)\n")
    outs = [subprocess.run([sys.executable, "-c", prefix + body], capture_output=True, text=True, check=True).stdout
            for prefix in ("", before)]
    assert outs[0] == outs[1] and outs[0].strip()


@pytest.mark.parametrize("margin, word", [(Margin(0.0, vacuous=True, note="premise false"), "never met"),
                                          (Margin(1.0, error=float("inf")), "inconclusive")])
def test_a_search_whose_every_example_is_rejected_stops_at_its_call_cap(margin, word):
    """Hypothesis alone would run about 1000 calls whatever the budget; the search stops at CALL_CAP_FACTOR x
    budget and stays UNKNOWN."""
    from verify.search import CALL_CAP_FACTOR

    calls = []
    result = search(_claim(lambda x: calls.append(x) or margin, over=st.integers(0, 10**9)), budget=4, seed=1)
    assert result.verdict == Verdict.UNKNOWN and word in result.reason and "call cap" in result.reason
    assert len(calls) == CALL_CAP_FACTOR * 4 == result.vacuous + result.inconclusive


def test_the_call_cap_leaves_valid_examples_and_shrinking_alone():
    """A search with valid examples is not cut while it has them; a found violation is shrunk past the cap."""
    mostly_vacuous = search(_claim(lambda x: Margin(1.0) if x % 3 == 0 else Margin(0.0, vacuous=True),
                                   over=st.integers(0, 10**9)), budget=5, seed=2)
    assert mostly_vacuous.verdict == Verdict.HOLDS and mostly_vacuous.examples == 5
    calls = []

    def check(x):
        calls.append(x)
        return Margin(-1.0 if x >= 1000 else 1.0)

    refuted = search(_claim(check, over=st.integers(0, 10**9)), budget=2, seed=0)
    assert refuted.verdict == Verdict.REFUTED and refuted.counterexample["value"] == 1000
    assert refuted.first_violation <= 2 < 20 < len(calls)  # shrinking to the boundary took more than 10 x budget calls
