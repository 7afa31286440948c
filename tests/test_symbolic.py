"""Tests of verify.symbolic: registry verdicts, exact witnesses, and broken lemmas (no rubber stamp)."""

from __future__ import annotations

import json
import time

import pytest
import sympy as sp

from verify.errors import InputError
from verify.symbolic import (
    Claim, Piece, SymbolicResult, decide_inequality, prove_identity, prove_nonneg, recheck_witness,
    scan_integer_inequality,
)
from properties.min2024_early_alignment.scalar_lemmas import SYMBOLIC_CLAIMS, get_claim, run_all
from properties.min2024_early_alignment.scalar_lemmas import inequalities as Q
from properties.min2024_early_alignment.scalar_lemmas import paths as P
from verify.symbolic.result import refuted
from verify.symbolic.witness import substitution_witness
from verify.verdicts import Verdict

R = sp.Rational


@pytest.fixture(scope="module")
def results() -> dict[str, SymbolicResult]:
    start = time.perf_counter()
    out = {r.id: r for r in run_all()}
    print(f"\nsymbolic registry: {len(out)} claims in {time.perf_counter() - start:.2f} s")
    return out


def _claim(name: str = "broken") -> Claim:
    return Claim(name, "deliberately broken variant", "see test", "tests/test_symbolic.py")


@pytest.mark.parametrize("spec", SYMBOLIC_CLAIMS, ids=[s.id for s in SYMBOLIC_CLAIMS])
def test_registry_entry_gets_expected_verdict(spec, results):
    result = results[spec.id]
    assert result.verdict is spec.expected, result.reason
    assert result.source == spec.source and result.statement == spec.statement
    json.dumps(result.to_dict())


def test_every_sheet_item_is_covered():
    items = {spec.id.split("-")[0] for spec in SYMBOLIC_CLAIMS}
    assert items == {f"S{k}" for k in range(1, 16)}


def test_planted_items_present():
    for cid in ("S2-lemma2-logistic-main", "S2-lemma2-exp-widened", "S9-t1-n1", "S9-maxpath-literal",
                "S9-sqrt-na-path-sum", "S9-Hn-4ln-n1"):
        assert get_claim(cid).expected is Verdict.REFUTED
    with pytest.raises(InputError):
        get_claim("no-such-claim")


def test_proved_have_certificates_and_holds_state_range(results):
    for r in results.values():
        if r.verdict is Verdict.PROVED:
            assert r.certificate and r.witness is None
        if r.verdict is Verdict.HOLDS:
            assert "HOLDS on" in r.reason and r.certificate


def test_refuted_witnesses_recheck_exactly(results):
    refuted_results = [r for r in results.values() if r.verdict is Verdict.REFUTED]
    assert len(refuted_results) >= 8
    for r in refuted_results:
        ok, detail = recheck_witness(r.witness)
        assert ok, (r.id, detail)
        assert r.witness["kind"] in ("substitution", "path")
        if r.witness["kind"] == "substitution":
            for value in r.witness["point"].values():
                v = sp.sympify(value, rational=True)
                assert v.is_rational or v.is_algebraic


def test_specific_witnesses(results):
    logistic = results["S2-lemma2-logistic-main"].witness
    assert logistic["point"] == {"y": "1", "yhat": "0"}
    wide = results["S2-lemma2-exp-widened"].witness
    assert sp.Rational(wide["point"]["yhat"]) < R(-12564, 10000)
    assert "-1.2564" in wide["violation_starts_at_z"]
    assert results["S9-sqrt-na-path-sum"].witness["point"] == {"n": "98"}
    assert results["S9-Hn-4ln-n1"].witness["point"] == {"n": "1"}
    path = results["S9-maxpath-literal"].witness
    assert (path["n_plus"], path["n_minus"], path["T_path"], path["T_Pmax"]) == (1, 2, "7/3", "2")
    assert results["S9-t1-n1"].witness["point"]["n"] == "1"


def test_recheck_rejects_a_point_where_the_claim_holds():
    x = sp.Symbol("x", real=True)
    good = substitution_witness(2 * x / (1 + x) - sp.log(1 + x), {x: R(1, 2)}, ">=")
    assert recheck_witness(good)[0] is False
    transcendental = substitution_witness(-x, {x: sp.pi}, ">=")
    assert recheck_witness(transcendental)[0] is False
    bad_path = {"kind": "path", "path": [[0, 2], [0, 1], [1, 2], [1, 1], [1, 0]], "n_plus": 1, "n_minus": 2,
                "reading": "monotone"}
    assert recheck_witness(bad_path)[0] is False


def test_refuted_constructor_downgrades_unchecked_witness():
    x = sp.Symbol("x", real=True)
    wit = substitution_witness(x ** 2, {x: 3}, ">=")
    result = refuted(_claim(), wit, "bogus")
    assert result.verdict is Verdict.UNKNOWN
    with pytest.raises(ValueError):
        SymbolicResult("x", Verdict.PROVED, "s", "d", None, None, "no certificate", "src")
    with pytest.raises(ValueError):
        SymbolicResult("x", Verdict.REFUTED, "s", "d", None, None, "no witness", "src")


# --- deliberately broken lemmas go through the same public decision procedures -----------------

def test_lemma2_exp_constant_halved_is_refuted():
    r = Q.check_lemma2(_claim(), "exp", const=1)
    assert r.verdict is Verdict.REFUTED and recheck_witness(r.witness)[0]


def test_lemma2_exp_widened_domain_is_refuted():
    r = Q.check_lemma2(_claim(), "exp", lo=R(-13, 10), hi=R(1))
    assert r.verdict is Verdict.REFUTED
    assert sp.Rational(r.witness["point"]["yhat"]) * sp.Rational(r.witness["point"]["y"]) < R(-12564, 10000)


def test_lemma2_logistic_constant_too_small_is_refuted():
    r = Q.check_lemma2(_claim(), "logistic2", const=R(1, 4))
    assert r.verdict is Verdict.REFUTED


def test_lemma2_plain_logistic_found_without_hint():
    r = Q.check_lemma2(_claim(), "logistic")
    assert r.verdict is Verdict.REFUTED


def test_lemma15_with_x_over_1_plus_x_is_refuted():
    r = Q.check_lemma15(_claim(), numerator=1)
    assert r.verdict is Verdict.REFUTED


def test_flipped_inequality_is_refuted():
    x = sp.Symbol("x", real=True)
    r = Q.check_one_var(_claim(), sp.log(1 + x) - 2 * x / (1 + x), x, sp.Integer(0), sp.Integer(1))
    assert r.verdict is Verdict.REFUTED


def test_eq40_radius_doubled_is_refuted():
    r = Q.check_eq40(_claim(), "exp", radius=R(1, 2))
    assert r.verdict is Verdict.REFUTED


def test_s10_ratio_beyond_equality_is_refuted():
    assert Q.check_s10_ratio(_claim(), q_hi=R(5, 2)).verdict is Verdict.REFUTED


def test_s15_xi_bound_has_teeth():
    """xi = mu (a stronger, false Lemma 9 constant) is refuted, and the upper half without its
    hypothesis <c, z2> <= 0 is not provable: the PROVED verdict rests on both."""
    from properties.min2024_early_alignment.scalar_lemmas import identities as I
    from verify.symbolic.signs import prove_nonneg_symbolic

    assert I.check_s15_xi(_claim()).verdict is Verdict.PROVED
    planted = I.check_s15_xi(_claim(), xi_of_mu=lambda mu: mu)
    assert planted.verdict is Verdict.REFUTED and recheck_witness(planted.witness)[0]
    a, b, p, q = sp.symbols("a b p q", real=True)
    A, B, Qn = sp.symbols("A B Q", nonnegative=True)
    free_p = prove_nonneg_symbolic(_claim(), b - (a * p + b * q), {a: A, b: B, q: 1 - Qn})
    assert free_p.verdict is not Verdict.PROVED


def test_identity_with_wrong_sign_is_refuted():
    n, mu = sp.symbols("n mu", real=True)
    r = prove_identity(_claim(), n * (1 + mu * (n - 1)) - mu * n ** 2, n * (1 + mu))
    assert r.verdict is Verdict.REFUTED and recheck_witness(r.witness)[0]
    v, g, a, p = sp.symbols("v g a p", real=True)
    r = prove_identity(_claim(), 2 * v * g * a * p + 2 * v * a * g * p, 0)  # d/dt (v^2 + ||w||^2)
    assert r.verdict is Verdict.REFUTED


def test_wrong_sign_in_closed_form_is_refuted():
    t, k, s = sp.symbols("t k s", real=True)
    T0 = sp.Symbol("T0", positive=True)
    phi = 2 * sp.atan(T0 * sp.exp(-s * k * t))
    r = prove_identity(_claim(), sp.diff(phi, t) - s * k * sp.sin(phi), 0)  # phi_dot = +s k sin(phi)
    assert r.verdict is Verdict.REFUTED


def test_harmonic_bound_with_constant_one_is_refuted():
    r = P.check_integer_claim(_claim(), sp.log(P.N) - sp.harmonic(P.N), 2, 30)
    assert r.verdict is Verdict.REFUTED and r.witness["point"] == {"n": "2"}


def test_harmonic_bound_range_check_is_holds_not_proved():
    r = P.check_integer_claim(_claim(), 4 * sp.log(P.N) - sp.harmonic(P.N), 2, 30)
    assert r.verdict is Verdict.HOLDS


def test_touching_point_needs_the_derivative_argument():
    x = sp.Symbol("x", real=True)
    f = sp.log(1 + x) - x / (1 + x)  # f(0) = f'(0) = 0
    box = {x: (sp.Integer(0), sp.Integer(1))}
    with_touch = prove_nonneg(f, box, touching=[{x: sp.Integer(0)}])
    assert with_touch.status == "proved"
    without = prove_nonneg(f, box, max_boxes=200)
    assert without.status == "unknown"
    bogus = prove_nonneg(f - R(1, 10 ** 6), box, touching=[{x: sp.Integer(0)}], max_boxes=200)
    assert bogus.status != "proved"


def test_decide_inequality_reports_unknown_on_budget():
    x = sp.Symbol("x", real=True)
    f = sp.exp(x) - 1 - x  # f(0) = f'(0) = 0 and f' is not rational: branch-and-bound only
    piece = Piece(f, {x: (sp.Integer(0), sp.Integer(1))}, {x: x}, [], "no touching info")
    r = decide_inequality(_claim(), f, [piece], max_boxes=100)
    assert r.verdict is Verdict.UNKNOWN and "budget" in r.reason


def test_scan_integer_inequality_finds_first_violation():
    n = sp.Symbol("n", integer=True, positive=True)
    first, _ = scan_integer_inequality(10 - n, n, 1, 20)
    assert first == 11


@pytest.mark.parametrize("loss", ["exp", "logistic2", "logistic", "l2"])
def test_lemma2_pieces_are_equivalent_to_the_target(loss):
    """min over the pieces of one (y, side) equals c|yhat| - |g - y| at sample points."""
    g = Q.data_weight(loss)
    target = 2 * sp.Abs(Q.YHAT) - sp.Abs(g - Q.Y)
    for y in (1, -1):
        pieces = Q.abs_bound_pieces((g - Q.Y).subs(Q.Y, y), 2, R(-1), R(1), {Q.Y: sp.Integer(y)})
        for yhat in (R(-9, 10), R(-1, 3), R(1, 7), R(4, 5)):
            side = [p for p in pieces if sp.sign(p.back[Q.YHAT].subs(Q.U, 1)) == sp.sign(yhat)]
            assert len(side) == 2
            vals = [float(p.expr.subs(Q.U, abs(yhat))) for p in side]
            assert min(vals) == pytest.approx(float(target.subs({Q.Y: y, Q.YHAT: yhat})), abs=1e-12)
