"""Cross-checks of HOLDS (verify/evidence/cross_check.py): recorded for trajectory claims, shown in the
report, and a float64-vs-mp disagreement is FAILED with both values, never HOLDS or UNKNOWN."""

from __future__ import annotations

import numpy as np

from verify.claims.model import Claim, Margin
from verify.evidence import cross_check as xc
from verify.evidence.mutants import MUTANTS
from verify.report.content import cross_check_text
from verify.report.document import build_report, claim_entry
from verify.report.render_html import render as render_html
from verify.report.render_md import render_appendix
from verify.report.schema import errors
from verify.scenarios import scenario
from verify.search import search
from verify.verdicts import Verdict

SMALL = scenario(data="linearly_separable", init="unbalanced", n=(3, 5), d=(2, 3), h=(2, 3), eps=(0.05, 0.2), loss="logistic2")


def _claim(**kw) -> Claim:
    return Claim(id=kw.pop("id", "xc-test"), source="test", statement="the final loss is finite", over=SMALL,
                 check=lambda run: float(np.isfinite(run.W).all()), horizon=kw.pop("horizon", 3.0), **kw)


def test_holds_is_cross_checked_and_reported() -> None:
    result = search(_claim(), budget=4, seed=0)
    assert result.verdict == Verdict.HOLDS
    cc = result.cross_check
    assert cc is not None and cc["backend"] == "taylor" and cc["runs"] == 2 and "dps" not in cc
    assert 0.0 <= cc["max_disagreement"] <= cc["error"] < 1e-5
    assert cc["pattern_mismatches"] == 0
    entry = claim_entry(result)
    assert entry["cross_check"]["runs"] == 2 and entry["teeth"] == []
    assert errors(build_report([entry], {"profile": "test", "seed": 0})) == []


def test_the_reference_steps_at_a_tolerance_three_digits_beyond_the_claims() -> None:
    """The first references step at rtol / 10^3 (rounded to a power of ten, within the mp backend's [8, 18] digits);
    the report says so."""
    assert [xc.reference_tol_digits(r) for r in (1e-4, 1e-10, 3e-11, 1e-13, 1e-16)] == [8, 13, 14, 16, 18]
    cc = search(_claim(id="xc-tol"), budget=2, seed=0).cross_check
    assert cc["tol_digits"] == 13 and cc["backend"] == "taylor"
    assert "on taylor (float64 Taylor, tolerance 1e-13)" in cross_check_text(cc)
    mixed = dict(cc, backend="taylor + mp", dps=xc.CROSS_DPS, declined=["worst: a pair slides (Filippov) at t = 1"])
    assert "(float64 Taylor / 16 digits, tolerance 1e-13)" in cross_check_text(mixed)
    assert "1 declined by the Taylor engine, run on mp" in cross_check_text(mixed)


def test_a_run_the_taylor_engine_declines_is_run_on_mp() -> None:
    """Sliding (Filippov) is beyond the Taylor engine: the example is rerun on the mp backend at 16 digits, and the
    report names both references and why."""
    from verify.dynamics.taylor64 import Declined

    real = xc._rerun
    calls: list[str] = []

    def rerun(claim, scenario, backend, dps=xc.CROSS_DPS, rtol=None, tol_digits=None):
        calls.append(backend)
        if backend == xc.FIRST:
            raise Declined("a pair slides (Filippov) at t = 1")
        return real(claim, scenario, backend, dps, rtol, tol_digits)

    import pytest

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(xc, "_rerun", rerun)
        cc = search(_claim(id="xc-declined"), budget=4, seed=0).cross_check
    assert cc["backend"] == "mp" and cc["dps"] == xc.CROSS_DPS and cc["runs"] == 2
    assert len(cc["declined"]) == 2 and all("slides" in why for why in cc["declined"])
    assert calls.count(xc.FIRST) == 2 and calls.count("mp") == 2


def test_a_step_tolerance_is_for_the_mp_backend_only() -> None:
    import pytest

    from verify.claims.run import execute
    from verify.data.generators import orthogonally_separable
    from verify.errors import InputError
    from verify.model.init import balanced_init
    from verify.scenarios import Scenario

    ds = orthogonally_separable(2, 1, 2, 0.3, seed=0, norm_range=(1, 1), split=0.0)
    sc = Scenario(ds, balanced_init(2, 2, seed=0, eps=0.1), "exp", 0.0, {})
    assert execute(sc, 1.0, backend="mp", dps=16, tol_digits=13).trajectory.params["tol"] == "1e-13"
    assert execute(sc, 1.0, backend="taylor", tol_digits=13).trajectory.params["tol_digits"] == 13
    with pytest.raises(InputError, match="tol_digits applies to backend 'mp' only"):
        execute(sc, 1.0, backend="events", tol_digits=13)


def test_disagreement_is_failed_with_both_values() -> None:
    with MUTANTS["logistic2-weight-halved"].active():
        result = search(_claim(), budget=4, seed=0)
    assert result.verdict == Verdict.FAILED
    assert "engine inconsistency" in result.reason
    assert "float64 w = [" in result.reason and "mp w = [" in result.reason
    assert result.cross_check["max_disagreement"] > result.cross_check["error"]


def test_long_horizon_is_rerun_in_log_time() -> None:
    result = search(_claim(id="xc-long", horizon=1e8), budget=2, seed=0)
    assert result.verdict == Verdict.HOLDS
    assert result.cross_check["runs"] == 2 and not result.cross_check.get("skipped")
    assert result.cross_check["max_disagreement"] <= result.cross_check["error"]


def test_steps_beyond_the_cap_are_not_rerun(monkeypatch) -> None:
    monkeypatch.setattr(xc, "MAX_STEPS", 0)
    result = search(_claim(id="xc-steps"), budget=2, seed=0)
    assert result.verdict == Verdict.HOLDS
    assert result.cross_check["runs"] == 0
    assert all("cost cap" in why for why in result.cross_check["skipped"])


BALANCED = scenario(data="orthogonally_separable", init="balanced", n=(3, 5), d=(2, 3), h=(2, 3), eps=(1e-17, 1e-9),
                    mu=(0.3, 0.9))


def _limit_claim(**kw) -> Claim:
    return Claim(id=kw.pop("id", "xc-limit"), source="test", statement="the limit directions stay unit vectors",
                 over=BALANCED, backend="limit", horizon=kw.pop("horizon", 4.0),
                 check=lambda run: float(1e-9 - np.max(np.abs(np.linalg.norm(run.trajectory.U, axis=2) - 1.0))), **kw)


def test_pointwise_claims_are_not_cross_checked_and_say_why() -> None:
    assert not xc.applies(_claim(horizon=None))
    result = search(_claim(id="xc-pointwise", horizon=None), budget=2, seed=0)
    assert result.verdict == Verdict.HOLDS
    assert result.cross_check["runs"] == 0 and "horizon None" in result.cross_check["not_applicable"]
    report = build_report([claim_entry(result)], {"profile": "test", "seed": 0})
    assert errors(report) == []
    assert "cross-check</b> not applicable: no engine trajectory" in render_html(report)
    assert "- cross-check: not applicable: no engine trajectory" in render_appendix(report)


def test_limit_claims_are_rerun_as_the_flow_at_a_smaller_eps() -> None:
    assert xc.applies(_limit_claim())
    result = search(_limit_claim(), budget=3, seed=0)
    assert result.verdict == Verdict.HOLDS
    cc = result.cross_check
    assert cc["engine"] == "limit" and cc["backend"] == "taylor" and cc["runs"] == 2
    assert 0.0 <= cc["max_disagreement"] <= cc["error"] < 1e-5 and cc["pattern_mismatches"] == 0


def test_reference_eps_keeps_the_outputs_negligible() -> None:
    from verify.claims.run import execute
    from verify.data.generators import orthogonally_separable
    from verify.model.init import balanced_init
    from verify.scenarios import Scenario

    ds = orthogonally_separable(2, 2, 3, 0.5, seed=1)
    run = execute(Scenario(ds, balanced_init(3, 3, log_eps=-30.0, seed=2)), 4.0, backend="limit")
    log_eps = xc.reference_log_eps(run)
    norms = np.linalg.norm(run.X, axis=1)
    top = float(np.max(run.trajectory.r)) - run.log_eps + log_eps
    assert log_eps <= run.log_eps
    assert 2.0 * top + np.log(run.trajectory.r.shape[1] * norms.max()) <= xc.LIMIT_OUTPUT_LOG


def test_a_wrong_limit_engine_is_failed() -> None:
    with MUTANTS["limit-alignment-slow"].active():
        result = search(_limit_claim(id="xc-limit-mutant"), budget=3, seed=0)
    assert result.verdict == Verdict.FAILED
    assert "limit engine and the mp backend disagree" in result.reason


def test_limit_runs_beyond_the_mp_cap_are_compared_with_the_stiff_reference(monkeypatch) -> None:
    """Beyond the mp cost cap (here every run: the cap set to 0) a limit run is compared with scipy's Radau on the
    limit field (verify.evidence.stiff_limit): HOLDS, both examples compared, recorded in ``stiff``."""
    monkeypatch.setattr(xc, "LIMIT_MAX_WORK", 0.0)
    result = search(_limit_claim(id="xc-limit-stiff"), budget=3, seed=0)
    assert result.verdict == Verdict.HOLDS, result.reason
    cc = result.cross_check
    assert cc["runs"] == 2 and len(cc["stiff"]) == 2 and cc["backend"] == "scipy-radau"
    assert 0.0 <= cc["max_disagreement"] <= cc["error"] < 1e-8 and cc["pattern_mismatches"] == 0
    assert "stiff reference" in result.reason
    report = build_report([claim_entry(result)], {"profile": "test", "seed": 0})
    assert errors(report) == [] and "scipy's Radau" in render_appendix(report)


def test_the_stiff_reference_catches_a_wrong_limit_engine(monkeypatch) -> None:
    """Both planted limit-engine bugs, beyond the mp cap: FAILED against the stiff reference."""
    monkeypatch.setattr(xc, "LIMIT_MAX_WORK", 0.0)
    for mutant in ("limit-alignment-slow", "limit-skip-crossing"):
        with MUTANTS[mutant].active():
            result = search(_limit_claim(id=f"xc-stiff-{mutant}", horizon=40.0), budget=3, seed=0)
        assert result.verdict == Verdict.FAILED, (mutant, result.reason)
        assert "stiff reference" in result.reason


def test_the_stiff_reference_refuses_a_sliding_pair() -> None:
    """A direction pushed onto a kink from both sides (x_a on the far side points back) is Filippov sliding, which the
    stiff reference does not integrate: Unsupported, so the cross-check skips the example with that reason."""
    import pytest

    from verify.evidence import stiff_limit

    X = np.array([[1.0, 0.0], [np.sqrt(0.5), np.sqrt(0.5)]])
    g = np.array([-1.0, 1.0])  # active, x_a = (-0.29, 0.71) pushes <x_0, u> down to 0; inactive, (0.71, 0.71) back up
    u0 = np.array([0.2, 1.0])
    with pytest.raises(stiff_limit.Unsupported, match="slides"):
        stiff_limit.reference(X, g, 0.0, np.zeros(1), u0[None], np.array([1.0]), np.array([1.0, 50.0]))


def test_choose_is_seeded_and_keeps_the_worst() -> None:
    examples = [(float(m), object()) for m in (3, -1, 2, 5, 0)]
    first = xc.choose(examples, "c", seed=1, sampled=2)
    assert first[0] == ("worst", examples[1][1]) and len(first) == 3
    assert xc.choose(examples, "c", seed=1, sampled=2) == first


def test_float64_violation_the_mp_rerun_contradicts_is_failed() -> None:
    """A confirmed float64 violation that the mp backend clears by far more than the errors is an engine
    inconsistency (both margins in the reason), not a rounding artefact."""

    def check(run):
        return Margin(0.5 if run.trajectory.backend == "mp" else -0.5, 1e-9)

    claim = Claim(id="xc-contradicted", source="test", statement="test", check=check, over=SMALL, horizon=1.0)
    result = search(claim, budget=3, seed=0)
    assert result.verdict == Verdict.FAILED
    assert "engine inconsistency" in result.reason and "-0.5" in result.reason and "0.5" in result.reason
    assert result.counterexample["mp_confirmation"] == "inconsistent"


def test_a_16_digit_disagreement_is_decided_by_the_30_digit_rerun(monkeypatch) -> None:
    """A wrong first reference (here: the Taylor engine's states moved by 1%) is rerun on mp at 30 digits; that run
    agrees, so the claim HOLDS and the report says which example was escalated. (The mutant test above: a
    disagreement that persists is FAILED.)"""
    import dataclasses

    real = xc._rerun

    def rerun(claim, scenario, backend, dps=xc.CROSS_DPS, rtol=None, tol_digits=None):
        run = real(claim, scenario, backend, dps, rtol, tol_digits)
        if backend == xc.FIRST:
            traj = run.trajectory
            run = dataclasses.replace(run, trajectory=dataclasses.replace(traj, W=traj.W * 1.01))
        return run

    monkeypatch.setattr(xc, "_rerun", rerun)
    result = search(_claim(id="xc-escalated"), budget=4, seed=0)
    assert result.verdict == Verdict.HOLDS
    cc = result.cross_check
    assert cc["runs"] == 2 and cc["max_disagreement"] <= cc["error"]
    assert len(cc["escalated"]) == 2
    assert all("float64 Taylor disagree" in e and "30 digits agree" in e for e in cc["escalated"])


def _mp_runs_moved_by(monkeypatch, factor_at) -> None:
    """Every reference rerun's W multiplied by ``factor_at(dps)`` (a planted reference; the first, on the Taylor
    engine, at CROSS_DPS)."""
    import dataclasses

    real = xc._rerun

    def rerun(claim, scenario, backend, dps=xc.CROSS_DPS, rtol=None, tol_digits=None):
        run = real(claim, scenario, backend, dps, rtol, tol_digits)
        if backend in ("mp", xc.FIRST):
            traj = run.trajectory
            run = dataclasses.replace(run, trajectory=dataclasses.replace(traj, W=traj.W * factor_at(dps)))
        return run

    monkeypatch.setattr(xc, "_rerun", rerun)


def test_an_unconverged_mp_reference_is_skipped_not_blamed_on_float64(monkeypatch) -> None:
    """mp runs that move with the precision (1%, 2%, 5% off at 16, 30, 60 digits) disagree with each other: the
    reference is not converged, so the example is skipped with that reason and the HOLDS stands uncross-checked."""
    _mp_runs_moved_by(monkeypatch, lambda dps: {16: 1.01, 30: 1.02, 60: 1.05}[dps])
    result = search(_claim(id="xc-unconverged"), budget=4, seed=0)
    assert result.verdict == Verdict.HOLDS
    cc = result.cross_check
    assert cc["runs"] == 0 and len(cc["skipped"]) == 2
    assert all("the mp reference is not converged" in s for s in cc["skipped"])
    assert all("disagree with each other" in e for e in cc["escalated"])
    assert "not cross-checked" in result.reason


def test_a_converged_mp_reference_that_contradicts_float64_is_failed(monkeypatch) -> None:
    """mp runs that agree with each other at 30 and 60 digits but not with float64 (all 1% off): FAILED."""
    _mp_runs_moved_by(monkeypatch, lambda dps: 1.01)
    result = search(_claim(id="xc-converged-contradiction"), budget=4, seed=0)
    assert result.verdict == Verdict.FAILED and "engine inconsistency" in result.reason


def _float64_at_the_claims_rtol_moved_by(monkeypatch, factor: float) -> None:
    """The cross-check's float64 rerun at the claim's own rtol has its W multiplied by ``factor`` (a planted global
    error beyond the local-error estimate); its rerun at rtol / TIGHTEN is genuine."""
    import dataclasses

    real = xc._rerun

    def rerun(claim, scenario, backend, dps=xc.CROSS_DPS, rtol=None, tol_digits=None):
        run = real(claim, scenario, backend, dps, rtol, tol_digits)
        if backend == "events" and rtol is None:
            traj = run.trajectory
            run = dataclasses.replace(run, trajectory=dataclasses.replace(traj, W=traj.W * factor))
        return run

    monkeypatch.setattr(xc, "_rerun", rerun)


def test_a_float64_error_beyond_its_estimate_that_converges_is_recorded_not_failed(monkeypatch) -> None:
    """float64 off its converged mp reference at every precision, but its rtol / 100 rerun agrees: the engine
    converges, the claim's run was less accurate than its estimate. HOLDS stands on the tight comparison, the
    report says which example exceeded its estimate and by how much, with the check's margin on the reference."""
    _float64_at_the_claims_rtol_moved_by(monkeypatch, 1.01)
    result = search(_claim(id="xc-estimate-exceeded"), budget=4, seed=0)
    assert result.verdict == Verdict.HOLDS, result.reason
    cc = result.cross_check
    assert cc["runs"] == 2 and cc["max_disagreement"] <= cc["error"]
    assert len(cc["estimate_exceeded"]) == 2
    assert all("the engine converges" in e and "margin 1" in e for e in cc["estimate_exceeded"])
    assert "exceeded its error estimate" in result.reason
    assert errors(build_report([claim_entry(result)], {"profile": "test", "seed": 0})) == []
    assert "error estimate exceeded" in render_appendix(build_report([claim_entry(result)], {"profile": "test", "seed": 0}))


def test_a_check_that_fails_on_the_converged_reference_is_failed(monkeypatch) -> None:
    """Same planted float64 error, and a check that holds on float64 runs but fails on mp runs: the converged
    reference violates the claim, so no HOLDS (FAILED, the margin on the reference in the reason)."""
    _float64_at_the_claims_rtol_moved_by(monkeypatch, 1.01)
    claim = Claim(id="xc-reference-violation", source="test", statement="holds in float64 only", over=SMALL,
                  check=lambda run: -1.0 if run.trajectory.backend == "mp" else 1.0, horizon=3.0)
    result = search(claim, budget=4, seed=0)
    assert result.verdict == Verdict.FAILED
    assert "fails on the converged" in result.reason and "margin -1" in result.reason


def test_a_float64_error_that_persists_when_tightened_is_failed(monkeypatch) -> None:
    """The rtol / 100 rerun is off too (every float64 rerun moved): an engine inconsistency, FAILED."""
    import dataclasses

    real = xc._rerun

    def rerun(claim, scenario, backend, dps=xc.CROSS_DPS, rtol=None, tol_digits=None):
        run = real(claim, scenario, backend, dps, rtol, tol_digits)
        if backend == "events":
            run = dataclasses.replace(run, trajectory=dataclasses.replace(run.trajectory, W=run.trajectory.W * 1.01))
        return run

    monkeypatch.setattr(xc, "_rerun", rerun)
    result = search(_claim(id="xc-persistent"), budget=4, seed=0)
    assert result.verdict == Verdict.FAILED and "engine inconsistency" in result.reason
    assert not result.cross_check.get("estimate_exceeded")
