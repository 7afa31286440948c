"""What a claim's check may return (DESIGN.md section 6, "User claims are first-class"), and what
``@verify.claim`` accepts when the claim is made: every other value is a defect named, never a pass."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import strategies as st

import verify
from verify.claims.model import ClaimResultError, as_margin
from verify.scenarios import scenario
from verify.search import search
from verify.verdicts import Verdict

SMALL = dict(n=(2, 3), d=(2, 2), h=(1, 2), eps=(1e-3, 1e-2))


def _user_claim(value, claim_id="c"):
    @verify.claim(id=claim_id, over=scenario(**SMALL), horizon=0.5)
    def check(run):
        return value() if callable(value) else value

    return check


@pytest.mark.parametrize("value, margin", [(True, 1.0), (False, -1.0), (np.bool_(False), -1.0), (2, 2.0),
                                           (np.float64(-0.5), -0.5), (-math.inf, -math.inf)])
def test_bools_and_numbers_are_margins(value, margin):
    out = as_margin(value, "c")
    assert out.value == margin and out.error == 0.0


@pytest.mark.parametrize("value", [None, "0.5", float("nan"), [1.0], verify.Margin(float("nan")),
                                   verify.Margin(1.0, error=-1.0), verify.Margin(1.0, error=float("nan")),
                                   verify.Margin("1.0")])
def test_anything_else_is_an_error_naming_the_claim(value):
    with pytest.raises(ClaimResultError, match="claim my-claim"):
        as_margin(value, "my-claim")


def test_a_false_claim_is_refuted_not_holds():
    result = search(_user_claim(False), budget=3, seed=0)
    assert result.verdict is Verdict.REFUTED
    assert result.counterexample["margin"] == -1.0


def test_a_true_claim_holds():
    assert search(_user_claim(True), budget=3, seed=0).verdict is Verdict.HOLDS


@pytest.mark.parametrize("value", [None, "yes", float("nan"), verify.Margin(0.0, error=-1.0)])
def test_a_non_margin_makes_the_search_failed_with_the_claim_named(value):
    result = search(_user_claim(value, "bad-return"), budget=3, seed=0)
    assert result.verdict is Verdict.FAILED
    assert "bad-return" in result.reason


@pytest.mark.parametrize("value", [-1.0, 1.0])
def test_an_infinite_error_is_inconclusive_never_holds(value):
    result = search(_user_claim(verify.Margin(value, error=math.inf)), budget=3, seed=0)
    assert result.verdict is Verdict.UNKNOWN
    assert result.inconclusive >= 1 and "inconclusive" in result.reason


@pytest.mark.parametrize("over", [st.integers(), st.just(1.0), scenario(**SMALL).filter(lambda s: True), None])
def test_over_must_be_a_scenario_strategy(over):
    with pytest.raises(verify.InputError, match="scenario strategy"):
        verify.claim(id="x", over=over, horizon=1.0)


@pytest.mark.parametrize("horizon", ["foo", 0.0, -1.0, math.inf, math.nan, None, True, "T1"])
def test_horizon_must_be_positive_or_named(horizon):
    with pytest.raises(verify.InputError, match="horizon"):
        verify.claim(id="x", over=scenario(**SMALL), horizon=horizon)


@pytest.mark.parametrize("horizon", [1.0, 3, "t1", lambda sc, audit: 2.0])
def test_valid_horizons_are_accepted(horizon):
    assert verify.claim(id="x", over=scenario(**SMALL), horizon=horizon)(lambda run: True).horizon is horizon


def test_bad_claim_files_are_exit_2_at_load_time(tmp_path, capsys):
    from verify.cli.main import main

    for body in ("over=st.integers(), horizon=1.0", "over=scenario(), horizon='foo'"):
        path = tmp_path / "claims.py"
        path.write_text("import verify\nfrom hypothesis import strategies as st\nfrom verify.scenarios import scenario\n"
                        f"@verify.claim(id='bad', {body})\ndef bad(run):\n    return True\n")
        assert main(["search", f"{path}::bad", "--db", "none"]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("ratio", [-0.5, math.nan, "x"])
def test_a_ratio_must_be_a_number_at_least_zero(ratio):
    with pytest.raises(ClaimResultError, match="ratio"):
        as_margin(verify.Margin(1.0, ratio=ratio), "c")


def test_the_search_reports_the_largest_ratio_as_slack():
    """A bound claim returns measured / bound; the report's slack is the tightest case found, with its note."""
    from verify.report.content import slack_text
    from verify.report.document import claim_entry

    @verify.claim(id="slack-demo", over=scenario(n=(2, 4), d=(2, 2), h=(1, 2)), horizon=0.5)
    def bound(run):
        measured = float(np.abs(run.W[-1]).max())
        bound_value = 10.0 * measured + 1.0
        return verify.Margin(bound_value - measured, 0.0, f"measured {measured:.3g}", ratio=measured / bound_value)

    result = search(bound, budget=5, seed=0)
    assert result.verdict is Verdict.HOLDS and 0.0 < result.slack["worst_ratio"] < 0.1
    entry = claim_entry(result)
    assert entry["slack"]["worst_ratio"] == result.slack["worst_ratio"] and "measured" in entry["slack"]["note"]
    assert "loose" in slack_text(entry["slack"])
