"""What a margin measures (``verify.measures`` / claim metadata ``margin_unit``) and where it is attained
(``Margin.site``): declared by the claim, carried into the report and the counterexample plot."""

from __future__ import annotations

import math

import pytest

import verify
from verify.claims.model import ClaimResultError, Margin, as_margin
from verify.claims.registry import catalogue
from verify.report import evidence_text as E
from verify.scenarios import scenario


@verify.measures("seconds of wall time (illustration)")
def _timed(run) -> float:
    return 1.0


def test_measures_marks_the_check_and_the_claim_reads_it() -> None:
    c = verify.Claim(id="u", source="user", statement="s", check=_timed, over=scenario(), horizon=1.0)
    assert c.margin_unit == "seconds of wall time (illustration)"
    own = verify.Claim(id="u2", source="user", statement="s", check=_timed, over=scenario(), horizon=1.0,
                       meta={"margin_unit": "the claim's own words"})
    assert own.margin_unit == "the claim's own words"
    bare = verify.Claim(id="u3", source="user", statement="s", check=lambda run: 1.0, over=scenario(), horizon=1.0)
    assert bare.margin_unit is None


def test_measures_works_above_or_below_the_claim_decorator() -> None:
    @verify.measures("above")
    @verify.claim(id="above", over=scenario(), horizon=1.0)
    def first(run) -> float:
        return 1.0

    @verify.claim(id="below", over=scenario(), horizon=1.0)
    @verify.measures("below")
    def second(run) -> float:
        return 1.0

    assert first.margin_unit == "above" and second.margin_unit == "below"


@pytest.mark.parametrize("bad", ["", "   ", None, 3])
def test_measures_needs_words(bad) -> None:
    with pytest.raises(verify.InputError):
        verify.measures(bad)


def test_a_site_is_validated_like_the_rest_of_a_margin() -> None:
    assert as_margin(Margin(-1.0, 0.0, site={"t": 2.5, "j": 1, "i": 0})).site == {"t": 2.5, "j": 1, "i": 0}
    for bad in ({"t": math.nan}, {"j": -1}, {"j": 1.5}, {"k": 0}, {"i": True}, [1, 2]):
        with pytest.raises(ClaimResultError):
            as_margin(Margin(-1.0, 0.0, site=bad))


def test_the_recorded_site_wins_over_the_note() -> None:
    cx = {"note": "neuron j=3 crosses at t=4.0", "site": {"t": 1.5, "j": 0, "i": 2}, "params": {"t_end": 9.0}}
    assert E.violation_site(cx) == {"t": 1.5, "j": 0, "i": 2, "t_end": 9.0}


def test_every_catalogue_claim_with_a_margin_says_what_it_measures() -> None:
    """Symbolic claims decide exactly (no margin); every other claim declares its margin's unit."""
    missing = [c.id for c in catalogue() if "symbolic" not in c.tags and not c.margin_unit]
    assert not missing, f"{len(missing)} claims declare no margin unit: {missing[:20]}"
