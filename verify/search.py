"""Counterexample search: Hypothesis drives scenarios toward violations, then confirms them.

For each generated scenario the claim is evaluated (audit -> simulate -> check). A margin
below ``-error`` is only a *candidate*; it becomes a violation after a confirmation rerun at
a 1000x tighter tolerance still violates beyond its error estimate. Hypothesis then shrinks
the confirmed violation (every shrink step is confirmed again), so a REFUTED verdict always
carries a small, confirmed, replayable counterexample. Runs whose hypotheses fail are
*vacuous* and never count as evidence; runs that fail numerically make the verdict UNKNOWN. Until a
violation is found a search makes at most ``CALL_CAP_FACTOR`` x budget calls, rejected ones included, so a
search whose every example is rejected ends UNKNOWN after that many, not after Hypothesis's ~1000.

Two engines must agree. A confirmed float64 violation of a trajectory claim is rerun on the mp
backend: a margin there that differs from the float64 one by more than ``INCONSISTENT_FACTOR``
times their error estimates (each at least ``ROUNDING_FLOOR`` relative) is an engine inconsistency (FAILED, both margins in the reason), not
a rounding artefact. A HOLDS of a trajectory claim is rerun on the mp backend too
(:mod:`verify.evidence.cross_check`): a state disagreement beyond its error estimate is FAILED.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import pkgutil
import time
import unittest
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from hypothesis import HealthCheck, Phase, given, reject, settings, target
from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase
from hypothesis.errors import Unsatisfiable

from verify import interrupt
from verify.claims.model import Claim, Margin, as_margin, inconclusive
from verify.claims.registry import audit_papers
from verify.claims.run import Run, execute
from verify.errors import InputError, NumericalError
from verify.explored import Explored
from verify.jsonable import jsonable
from verify.scenarios import Scenario
from verify.simulate import uncertified_runs
from verify.verdicts import Verdict

CONFIRM_RTOL_FACTOR = 1e-3
MP_DPS = 30  # digits of the high-precision confirmation (issue 5: at least 30)
INCONSISTENT_FACTOR = 10.0  # float64 and mp margins further apart than this x their errors: an engine inconsistency
ROUNDING_FLOOR = 1e-12  # relative rounding allowed on top of a margin's stated error (checks that claim error 0)
CALL_CAP_FACTOR = 10  # a search draws at most this many times its budget before a violation (rejected ones count)


@dataclass
class Evaluation:
    """The outcome of one scenario: a margin, or why there is none."""

    status: str  # "ok" | "vacuous" | "numerical" | "inconclusive" (infinite error bound)
    margin: Margin | None = None
    reason: str = ""
    run: Run | None = None


@dataclass
class SearchResult:
    """Verdict and evidence of one claim's search."""

    claim: Claim
    verdict: Verdict
    examples: int = 0  # valid (non-vacuous, numerically successful) examples
    vacuous: int = 0
    numerical_failures: int = 0
    inconclusive: int = 0  # examples whose margin had an infinite error bound
    min_margin: float = math.inf
    min_margin_error: float = 0.0
    counterexample: dict[str, Any] | None = None
    reason: str = ""
    time_s: float = 0.0
    example_times: list[float] = field(default_factory=list)
    certificate: Any = None  # PROVED results: the symbolic/interval certificate
    first_violation: int | None = None  # generated examples up to the first confirmed violation (search power)
    cross_check: dict[str, Any] | None = None  # HOLDS of trajectory claims: the mp rerun (verify.evidence.cross_check)
    slack: dict[str, Any] | None = None  # bound claims: the largest measured / bound found, and where
    explored: dict[str, list[Any]] | None = None  # parameter -> [min, max] over the valid examples (verify.explored)
    worst_case: dict[str, Any] | None = None  # the smallest-margin valid example: margin, note, parameters

    @property
    def as_expected(self) -> bool:
        return self.verdict == self.claim.expected or (self.claim.expected == Verdict.HOLDS and self.verdict == Verdict.PROVED)


class _Violation(Exception):
    """Raised inside the Hypothesis test for a confirmed violation."""


class _EngineFailure(Exception):
    """Raised inside the Hypothesis test when the engine itself errors."""


class _CallCap(unittest.SkipTest):
    """Raised inside the Hypothesis test when the search reaches its call cap. A skip exception: Hypothesis
    stops the run at once and re-raises it (no shrinking, nothing reported), where any other exception would be
    a failing example to shrink. Without it a search whose every example is rejected (vacuous, numerical,
    inconclusive) runs until Hypothesis's own limit on invalid examples, about 1000 calls whatever the budget."""


def _precondition(claim: Claim, run: Run) -> str | None:
    if claim.precondition is None:
        return None
    verdict = claim.precondition(run)
    if verdict is True:
        return None
    return verdict if isinstance(verdict, str) and verdict else "precondition false"


def evaluate(claim: Claim, scenario: Any, *, rtol: float | None = None, backend: str | None = None) -> Evaluation:
    """Audit, simulate and check one scenario; NumericalError gives status "numerical", and a run (the claim's or one
    its check simulates) that is undetermined (:func:`verify.simulate.uncertified_runs`) status "inconclusive".

    A drawn value that is not a :class:`Scenario` (a scalar, a state) goes to the check as is.
    """
    if not isinstance(scenario, Scenario):
        try:
            margin = as_margin(claim.check(scenario), claim.id)
        except NumericalError as exc:
            return Evaluation("numerical", reason=str(exc))
        return _classified(margin)
    try:
        with uncertified_runs() as undetermined:
            run = execute(scenario, claim.horizon, rtol=rtol or claim.rtol, samples=claim.samples,
                          spacing=claim.spacing, backend=backend or claim.backend, form=claim.form, dps=MP_DPS,
                          papers=audit_papers(claim))
            why = _precondition(claim, run)
            if why is not None:
                return Evaluation("vacuous", reason=why, run=run)
            if claim.horizon is not None and run.trajectory is None:
                return Evaluation("vacuous", reason="horizon undefined for this scenario", run=run)
            margin = as_margin(claim.check(run), claim.id)
    except NumericalError as exc:
        return Evaluation("numerical", reason=str(exc))
    except InputError as exc:
        return Evaluation("vacuous", reason=f"scenario outside the claim's domain: {exc}")
    if undetermined and not margin.vacuous:
        why = f"a run of this example is undetermined: {undetermined[0]}"
        return Evaluation("inconclusive", margin=dataclasses.replace(margin, error=math.inf, note=why), run=run,
                          reason=why)
    return _classified(margin, run)


def _classified(margin: Margin, run: Run | None = None) -> Evaluation:
    """A checked margin: vacuous (the check says its premise failed), inconclusive (infinite error) or ok."""
    if margin.vacuous:
        return Evaluation("vacuous", margin=margin, reason=margin.note or "check reported vacuous", run=run)
    if inconclusive(margin):
        return Evaluation("inconclusive", margin=margin, reason=margin.note or "margin with an infinite error bound", run=run)
    return Evaluation("ok", margin=margin, run=run)


def confirm(claim: Claim, scenario: Scenario) -> Evaluation:
    """Rerun at a 1000x tighter tolerance; the violation must persist beyond the new error estimate."""
    return evaluate(claim, scenario, rtol=max(claim.rtol * CONFIRM_RTOL_FACTOR, 1e-14))


def needs_mp_confirmation(claim: Claim, scenario: Any) -> bool:
    """Trajectory claims on the float64 event engine are re-confirmed with the mp backend.

    Pointwise and symbolic claims have no trajectory; the "limit" backend is a closed form and
    "gd" is a discrete map, so neither has an mp counterpart.
    """
    return isinstance(scenario, Scenario) and claim.horizon is not None and claim.backend == "events"


def confirm_mp(claim: Claim, scenario: Scenario) -> Evaluation:
    """Rerun the scenario with the mpmath backend at MP_DPS digits (the check reads a float64 copy)."""
    return evaluate(claim, scenario, backend="mp")


def _violates(ev: Evaluation) -> bool:
    return ev.status == "ok" and ev.margin is not None and ev.margin.value < -ev.margin.error


def counterexample_record(claim: Claim, scenario: Any, first: Evaluation, second: Evaluation) -> dict[str, Any]:
    """The JSON record of a confirmed counterexample (DESIGN.md section 6)."""
    run = second.run or first.run
    if not isinstance(scenario, Scenario):
        return {"X": [], "y": [], "W0": [], "v0": [], "value": jsonable(scenario), "params": {"t_end": 0.0, "horizon": None},
                "margin": first.margin.value if first.margin else None,
                "margin_error": first.margin.error if first.margin else None,
                "confirmed_margin": second.margin.value if second.margin else None,
                "confirmed_margin_error": second.margin.error if second.margin else None,
                "note": (second.margin.note if second.margin else "")}
    record = scenario.to_dict()
    params = dict(record["params"])
    params.update({"loss": scenario.loss, "alpha": scenario.alpha, "log_eps": scenario.init.log_eps})
    if run is not None and run.horizon is not None and math.isfinite(run.horizon):
        params["t_end"] = run.horizon
    else:
        params["t_end"] = 0.0
    params["horizon"] = claim.horizon if isinstance(claim.horizon, (int, float, str)) else "computed"
    record["params"] = params
    record["margin"] = first.margin.value if first.margin else None
    record["margin_error"] = first.margin.error if first.margin else None
    record["confirmed_margin"] = second.margin.value if second.margin else None
    record["confirmed_margin_error"] = second.margin.error if second.margin else None
    record["confirm_rtol"] = max(claim.rtol * CONFIRM_RTOL_FACTOR, 1e-14)
    record["note"] = (second.margin.note if second.margin else "") or (first.margin.note if first.margin else "")
    site = (second.margin.site if second.margin else None) or (first.margin.site if first.margin else None)
    if site:
        record["site"] = {k: (float(v) if k == "t" else int(v)) for k, v in site.items()}
    return record


def _database(path: str | Path | None) -> ExampleDatabase | None:
    return None if path is None else DirectoryBasedExampleDatabase(str(path))


@lru_cache(maxsize=1)
def load_project_modules() -> int:
    """Import every module of the engine and of the installed papers' packages (test modules aside);
    returns how many are loaded.

    Hypothesis draws some values from the numeric constants in the source of the loaded *local* modules
    (its "local constants"), so without this a search's examples would depend on which modules happen to
    be imported before it -- the claims that ran earlier, the command used -- and ``verify check A B`` could
    give B other examples than ``verify check B``. With every module loaded first, one seed gives one
    search per code version."""
    from verify.claims.registry import plugin_packages

    count = 0
    for root in ("verify", *plugin_packages()):
        package = importlib.import_module(root)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{root}."):
            leaf = info.name.rsplit(".", 1)[-1]
            if leaf.startswith("test") or leaf in ("conftest", "__main__"):
                continue
            importlib.import_module(info.name)
            count += 1
    return count


def search(
    claim: Claim,
    *,
    budget: int = 30,
    seed: int = 0,
    database: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SearchResult:
    """Search for a confirmed counterexample of ``claim`` over ``budget`` generated scenarios."""
    load_project_modules()  # the same examples for one seed, whatever ran before (see there)
    start = time.perf_counter()
    result = SearchResult(claim, Verdict.UNKNOWN)
    if claim.runner is not None:
        return _run_direct(claim, result, start)
    if claim.over is None:
        raise InputError(f"claim {claim.id} has neither a scenario strategy nor a direct runner")
    found: dict[str, Any] = {}
    calls = [0]
    reasons: list[str] = []
    valid: list[tuple[float, Scenario]] = []  # (margin, scenario) of the valid examples, for the cross-check
    explored = Explored()  # their parameters, for the report's `explored` and `worst_case`

    cap = CALL_CAP_FACTOR * max(1, budget)

    def probe(sc: Scenario) -> None:
        interrupt.raise_if_requested()  # a Ctrl-C / SIGTERM whose KeyboardInterrupt was swallowed
        if calls[0] >= cap and not ("counterexample" in found or "failure" in found):  # never cuts a shrink
            found["capped"] = calls[0]
            raise _CallCap(f"call cap {cap} reached")
        calls[0] += 1
        if progress is not None:
            progress(calls[0], budget)
        t0 = time.perf_counter()
        try:
            ev = evaluate(claim, sc)
        except Exception as exc:  # the engine or the check errored: FAILED, not a verdict on the claim
            found["failure"] = f"{type(exc).__name__}: {exc}"
            raise _EngineFailure from exc
        result.example_times.append(time.perf_counter() - t0)
        if ev.status == "vacuous":
            result.vacuous += 1
            if len(reasons) < 3 and ev.reason not in reasons:
                reasons.append(ev.reason)
            reject()
        if ev.status == "numerical":
            result.numerical_failures += 1
            found.setdefault("numerical", ev.reason)
            reject()
        if ev.status == "inconclusive":
            result.inconclusive += 1
            found.setdefault("inconclusive", ev.reason)
            reject()
        assert ev.margin is not None
        result.examples += 1
        valid.append((ev.margin.value, sc))
        explored.add(sc, ev.margin, ev.run.horizon if ev.run is not None else None)
        if ev.margin.value < result.min_margin:
            result.min_margin, result.min_margin_error = ev.margin.value, ev.margin.error
        if math.isfinite(ev.margin.value):  # Hypothesis rejects non-finite observations
            target(-ev.margin.value, label="violation")
        ratio = ev.margin.ratio
        if ratio is not None and math.isfinite(ratio):
            target(ratio, label="tightness")  # search where the bound is tight, not only where margins are small
            if result.slack is None or ratio > result.slack["worst_ratio"]:
                result.slack = {"worst_ratio": float(ratio), "note": ev.margin.note}
        if _violates(ev):
            second = confirm(claim, sc)
            if _violates(second):
                found.setdefault("first_violation", calls[0])
                found["counterexample"] = counterexample_record(claim, sc, ev, second)
                found["scenario"] = sc
                raise _Violation()

    runner = given(claim.over)(probe)
    runner._hypothesis_internal_database_key = f"relu-verify:{claim.id}".encode()  # type: ignore[attr-defined]
    runner = settings(
        max_examples=budget,
        deadline=None,
        database=_database(database),
        derandomize=False,
        report_multiple_bugs=False,
        phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink),
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )(runner)
    # hypothesis.seed() would also switch the example database off; set the seed alone so that a
    # search is deterministic under --seed and still replays stored counterexamples first
    runner._hypothesis_internal_use_seed = seed  # type: ignore[attr-defined]
    try:
        runner()
    except (_Violation, _CallCap):
        pass
    except _EngineFailure:
        result.verdict = Verdict.FAILED
        result.reason = found.get("failure", "engine error")
    except Unsatisfiable:  # every example was rejected: counted below as "assumptions never met"
        pass
    except Exception as exc:  # Hypothesis stopped for another reason: the search is inconclusive
        found["interrupted"] = f"{type(exc).__name__}: {exc}".splitlines()[0]
    result.time_s = time.perf_counter() - start
    result.explored, result.worst_case = explored.ranges(), explored.worst_case()
    if result.verdict == Verdict.FAILED:
        return result
    if "counterexample" in found:
        result.counterexample = found["counterexample"]
        result.first_violation = found["first_violation"]
        result.verdict, result.reason = _high_precision_verdict(claim, found["scenario"], result.counterexample)
    elif "interrupted" in found:
        result.verdict = Verdict.UNKNOWN
        result.reason = f"search interrupted after {result.examples} valid example(s): {found['interrupted']}"
    elif result.numerical_failures:
        result.verdict = Verdict.UNKNOWN
        result.reason = f"{result.numerical_failures} run(s) failed numerically (first: {found.get('numerical')})"
    elif result.inconclusive:
        result.verdict = Verdict.UNKNOWN
        result.reason = f"{result.inconclusive} example(s) inconclusive (first: {found.get('inconclusive')})"
    elif result.examples < claim.min_examples:
        result.verdict = Verdict.UNKNOWN
        result.reason = "assumptions never met within budget" + (f" ({'; '.join(reasons)})" if reasons else "")
    else:
        result.verdict = Verdict.HOLDS
        result.reason = f"no violation beyond the error estimate in {result.examples} valid example(s)"
        _cross_check(claim, result, valid, seed)
        result.time_s = time.perf_counter() - start
    if "capped" in found and result.verdict != Verdict.REFUTED:
        result.reason += (f" [search stopped at its call cap: {found['capped']} calls = {CALL_CAP_FACTOR} x budget "
                          f"{budget}, {result.examples} valid]")
    return result


def _cross_check(claim: Claim, result: SearchResult, valid: list[tuple[float, Scenario]], seed: int) -> None:
    """A HOLDS of a trajectory claim is rerun on the mp backend; a disagreement beyond the error estimate
    turns it FAILED (an engine inconsistency, both values in the reason)."""
    from verify.evidence import cross_check as xc

    if not xc.applies(claim):
        result.cross_check = xc.not_applicable(claim)
        return
    try:
        cc = xc.cross_check(claim, valid, seed)
    except Exception as exc:  # the rerun itself errored: an engine failure
        result.verdict, result.reason = Verdict.FAILED, f"cross-check rerun failed: {type(exc).__name__}: {exc}"
        return
    result.cross_check = cc.to_dict()
    if not cc.consistent:
        result.verdict, result.reason = Verdict.FAILED, xc.failure_reason(cc)
    elif cc.runs:
        result.reason += f"; cross-checked on the mp backend ({cc.runs} run(s), max disagreement {cc.max_disagreement:.2g} <= {cc.error:.2g})"
        if cc.stiff:
            result.reason += (f"; {len(cc.stiff)} of them beyond the mp cost cap against the stiff reference (scipy "
                              "Radau on the limit field)")
        if cc.estimate_exceeded:
            result.reason += (f"; on {len(cc.estimate_exceeded)} of them float64 at the claim's rtol exceeded its error "
                              f"estimate and converged at rtol / {xc.TIGHTEN:g} (cross_check.estimate_exceeded)")
    else:
        result.reason += "; not cross-checked (" + "; ".join(cc.skipped) + ")"


def _high_precision_verdict(claim: Claim, scenario: Any, record: dict[str, Any]) -> tuple[Verdict, str]:
    """REFUTED only if the shrunk counterexample also violates in the mp backend (where one applies)."""
    base = "confirmed violation, shrunk by Hypothesis, rechecked at 1000x tighter rtol"
    if not needs_mp_confirmation(claim, scenario):
        why = ("pointwise check, no trajectory" if not isinstance(scenario, Scenario) or claim.horizon is None
               else f"backend {claim.backend!r} is not an ODE integration")
        record["mp_confirmation"] = f"not applicable ({why})"
        return Verdict.REFUTED, base
    ev = confirm_mp(claim, scenario)
    record["mp_dps"] = MP_DPS
    record["mp_margin"] = ev.margin.value if ev.margin else None
    record["mp_margin_error"] = ev.margin.error if ev.margin else None
    if ev.status != "ok":
        record["mp_confirmation"] = f"failed: {ev.status} ({ev.reason})"
        return Verdict.UNKNOWN, f"float64 violation could not be confirmed at {MP_DPS} digits ({ev.status}: {ev.reason})"
    if _violates(ev):
        record["mp_confirmation"] = "violated"
        return Verdict.REFUTED, f"{base} and at {MP_DPS} digits (mp backend)"
    record["mp_confirmation"] = "cleared"
    m64, e64 = record.get("confirmed_margin"), record.get("confirmed_margin_error") or 0.0
    allowed = INCONSISTENT_FACTOR * (e64 + ev.margin.error + ROUNDING_FLOOR * max(1.0, abs(m64 or 0.0), abs(ev.margin.value)))
    if m64 is not None and abs(m64 - ev.margin.value) > allowed:
        record["mp_confirmation"] = "inconsistent"
        return Verdict.FAILED, (f"engine inconsistency: float64 margin {m64:.6g} (error {e64:.2g}, confirmed at 1000x tighter "
                                f"rtol) vs {MP_DPS}-digit mp margin {ev.margin.value:.6g} (error {ev.margin.error:.2g}): they "
                                f"differ by more than {INCONSISTENT_FACTOR:g}x their error estimates")
    return Verdict.UNKNOWN, f"float64 violation cleared by the {MP_DPS}-digit rerun (margin {ev.margin.value:.3g}): a rounding artefact"


def _run_direct(claim: Claim, result: SearchResult, start: float) -> SearchResult:
    """Claims with their own decision procedure (symbolic): map its outcome onto a SearchResult."""
    try:
        outcome = claim.runner(claim)  # type: ignore[misc]
    except Exception as exc:
        result.verdict, result.reason = Verdict.FAILED, f"{type(exc).__name__}: {exc}"
    else:
        result.verdict = outcome.verdict
        result.reason = getattr(outcome, "reason", "")
        result.examples = getattr(outcome, "examples", 1)
        result.counterexample = getattr(outcome, "counterexample", None)
        result.min_margin = getattr(outcome, "min_margin", math.nan)
        result.certificate = getattr(outcome, "certificate", None)
        if result.verdict == Verdict.HOLDS:
            from verify.evidence import cross_check as xc

            result.cross_check = xc.not_applicable(claim)
    result.time_s = time.perf_counter() - start
    return result
