"""Independent cross-check of a HOLDS: rerun examples on an independent path and compare the states.

After the search of a trajectory claim on the float64 event engine ends HOLDS, its worst example
(smallest margin) and a seeded sample of ``SAMPLED`` others are rerun on the float64 engine (the
run the verdict read) and on a first reference: the float64 Taylor engine (:mod:`verify.dynamics.taylor64`,
``FIRST``: the mp backend's method in float64, compiled -- Taylor series per mode from the mp backend's recurrence,
its own event location and loss code: an independent path, at about 1/40 of the mp backend's cost), or where that
engine declines the run (surfaces of two lines through 0 of one neuron reached at once, a line of several rows that
slides: ``declined`` records why) the mpmath backend at ``CROSS_DPS`` digits. Either steps at tolerance 10^-D,
D = ``CROSS_TOL_BEYOND`` digits beyond the claim's rtol (:func:`reference_tol_digits`; at most the mp backend's
default dps + 2): its own error, SAFETY errmp in e below, stays about 10^3 times under the SAFETY rtol term, and its
steps are about a third fewer than at the default tolerance. At every sample time t_k the states
are compared per neuron j:

    Cartesian:  d_kj = ||(w_j, v_j) - (w'_j, v'_j)|| / max(||(w_j, v_j)||, ||(w'_j, v'_j)||)
                (w_j alone when the second layer is fixed: its +-1 would hide an error of a small w_j)
    polar:      d_kj = max(|r_j - r'_j|, ||u_j - u'_j||)        (absolute in ln||w_j|| and u_j)

``max_disagreement`` = max_kj d_kj over the rerun examples. Error estimate of one example:

    e = SAFETY (rtol + err64) + SAFETY errmp + 10^(1 - CROSS_DPS)

rtol is the claim's tolerance, err64 and errmp the engines' own ``Trajectory.error_estimate`` (errmp: the first
reference's, the Taylor engine's including (N + 1) 2^-52 rounding per step)
(sums of accepted local errors: indicators that ignore error propagation, hence ``SAFETY``;
measured at seed 0 over the built-in catalogue, d / (rtol + err64) <= 20 within the cost cap, 60 beyond it;
the planted engine bugs of :mod:`verify.evidence.mutants` give d of 1e-2 to 1e4). The activation
pattern is compared from the states too (never from either engine's event log): the signs of
p_ikj = <x_i, w_j(t_k)> / (||x_i|| scale_j) (u_j in polar form) must agree wherever both |p| > e.
A disagreement beyond e, or a sign mismatch, is rerun on the mp backend at each of ``ESCALATE_DPS``
digits in turn, and the first that agrees decides (``escalated`` records the ladder). When none agrees, the last two
mp runs are compared with each other: only a converged reference (they agree) makes the disagreement an engine
inconsistency; an unconverged one (they disagree, or one is undetermined) skips the example with that reason.
The rule is a safeguard: until 2026-11-29 the mp backend planned steps near converged directions at theorem-scale
eps from float64 coefficient sizes that had lost every digit, and stepped past its series' reach (at eps = e^-3000
the 16-, 30- and 60-digit runs of a 24-point flow were 1.9, 17 and 1e15 away from float64, with spurious events;
at e^-4762 a 16-digit run logged 31 crossings against 7; at e^-1228 a 30-digit run killed a neuron that lives).
Such steps are now planned from the mpfr series (:meth:`verify.dynamics.mp.engine.Engine.planned_step`), and a
polar run's error estimate is at least its unit-length defect. A
disagreement that persists at the last precision against a converged reference is rerun once more in float64 at
rtol / ``TIGHTEN``: if that run agrees with the reference, the engine converges and the claim's run was merely less
accurate than its local-error sum says: the tight comparison counts,
``estimate_exceeded`` records the example, and the claim's check is re-evaluated on the mp reference (a violation
there is FAILED, never HOLDS). If the tight run disagrees too, it is an engine inconsistency: the search reports
FAILED with both values. (The case that prompted the rule, a theorem-scale run 1.6e-5 off at rtol 1e-10, 6x its
estimate, turned out to be the float64 engine reading samples from the dense output of long log-time steps, which is
not error-controlled; the engine now ends its log-time steps on the sample times and that run agrees to 3e-8.)

Data with rows on one line through 0 (x_k = +-c x_i: symmetric data, duplicates): both engines settle such rows as
one surface with coupled slopes (:func:`verify.dynamics.switching.lines`); a line of coupled rows that *slides* is
integrated by the float64 engine only (the mp run raises, and the example is skipped with that reason).

Claims run on the closed-form eps -> 0 limit engine (backend "limit") are rerun on the mp backend too: the true
flow in polar form from the same init at a scale eps' small enough that every output stays below
e^LIMIT_OUTPUT_LOG over the horizon (:func:`reference_log_eps`), so the flow equals the limit to far below the error
estimate; the states are compared with r shifted by ln eps - ln eps'. The two paths share nothing: closed-form
modes and crossing times against Taylor series of the full field with its own event location and loss code.

Cost cap: a limit run whose horizon x sum_i ||x_i|| exceeds ``LIMIT_MAX_WORK`` is not rerun on the mp backend (in
the limit a converged direction is a stiff equilibrium, so the explicit Taylor steps scale with the horizon: 1e11 is
out of reach); it is compared instead with :mod:`verify.evidence.stiff_limit` (scipy's implicit Radau on the limit
field, its own event location; log-norms relative to their growth), recorded in ``stiff``; an example whose float64
run took more than ``MAX_STEPS`` accepted steps is not rerun (the mp run's cost grows with its steps, and its adaptive Taylor steps
grow with the state as the float64 engine's do: a 9-point, 4-neuron problem to t = 1e12 takes 124 float64 and
210 mp steps, 0.9 s); the skipped reason is recorded (``runs`` counts only the examples compared). The horizon
alone is no cost: long horizons run in log time.
"""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from verify.claims.model import Claim, as_margin, inconclusive
from verify.claims.registry import audit_papers
from verify.claims.run import Run, execute
from verify.dynamics.mp.engine import TOL_MARGIN
from verify.dynamics.mp.solve import MIN_TOL_DIGITS
from verify.dynamics.taylor64 import Declined
from verify.errors import VerifyError
from verify.evidence import stiff_limit
from verify.model.losses import get_loss
from verify.scenarios import Scenario
from verify.simulate import polar_state

FIRST = "taylor"  # the first reference: the float64 Taylor engine (verify.dynamics.taylor64); mp where it declines
CROSS_DPS = 16
CROSS_TOL_BEYOND = 3  # the CROSS_DPS run's step tolerance is rtol / 10^3 (rounded to a power of ten)
ESCALATE_DPS = (30, 60)  # a disagreement at CROSS_DPS is rerun at these digits in turn; the last run decides
# how a FAILED reason names the reference an engine disagreed with
MP_REFERENCE = (f"the mp backend disagree at {' and '.join(map(str, ESCALATE_DPS))} digits (first the float64 Taylor engine, "
                f"or where it declines the mp backend at {CROSS_DPS} digits)")
STIFF_REFERENCE = "the stiff reference (scipy Radau on the limit field) disagree"
TIGHTEN = 100.0  # a float64 run off its converged mp reference is rerun at rtol / TIGHTEN (does the engine converge?)
SAMPLED = 1  # examples rerun besides the worst one
SAFETY = 1000.0
MAX_STEPS = 2000  # the one catalogue run between 1000 and 2000 steps (1338) costs 12 s in mp
LIMIT_MAX_WORK = 1e4  # a limit run is rerun only below this horizon x sum_i ||x_i|| (the mp steps scale with it)
LIMIT_OUTPUT_LOG = -80.0  # the mp rerun of a limit run keeps every |f_i| <= e^LIMIT_OUTPUT_LOG on the horizon


@dataclass
class Comparison:
    """The largest state disagreement of one rerun example and where it is."""

    disagreement: float = 0.0
    error: float = 0.0
    mismatches: int = 0
    where: str = ""


@dataclass
class CrossCheck:
    """Outcome of a claim's cross-check (report field ``cross_check``)."""

    runs: int = 0
    backend: str = "mp"
    engine: str = "events"  # the backend whose runs are checked: "events" (float64) or "limit"
    max_disagreement: float = 0.0
    error: float = 0.0
    pattern_mismatches: int = 0
    skipped: list[str] = field(default_factory=list)
    detail: str = ""
    escalated: list[str] = field(default_factory=list)  # examples decided by the ESCALATE_DPS rerun
    stiff: list[str] = field(default_factory=list)  # limit examples beyond the mp cap, compared with stiff_limit
    estimate_exceeded: list[str] = field(default_factory=list)  # float64 off beyond its estimate, converging when tightened
    reference_violations: int = 0  # examples whose check fails on the converged mp reference
    disagrees_with: str = MP_REFERENCE  # the first example beyond its error: MP_REFERENCE or STIFF_REFERENCE
    tol_digits: int | None = None  # D of the CROSS_DPS runs' step tolerance 10^-D (reference_tol_digits)
    first: list[str] = field(default_factory=list)  # the backend of each compared example's first reference run
    declined: list[str] = field(default_factory=list)  # examples the FIRST engine declined (the mp backend ran them)

    @property
    def consistent(self) -> bool:
        """No state disagreement beyond its error estimate and no activation sign mismatch."""
        return (self.max_disagreement <= self.error and self.pattern_mismatches == 0
                and self.reference_violations == 0)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"runs": self.runs, "engine": self.engine, "backend": self.backend}
        if "mp" in self.first:  # some first reference ran on the mp backend (the FIRST engine declined it)
            out["dps"] = CROSS_DPS
        out.update({"tol_digits": self.tol_digits, "max_disagreement": self.max_disagreement, "error": self.error,
                    "pattern_mismatches": self.pattern_mismatches})
        if self.skipped:
            out["skipped"] = list(self.skipped)
        if self.declined:
            out["declined"] = list(self.declined)
        if self.escalated:
            out["escalated"] = list(self.escalated)
        if self.estimate_exceeded:
            out["estimate_exceeded"] = list(self.estimate_exceeded)
        if self.stiff:
            out["stiff"] = list(self.stiff)
        if self.detail:
            out["detail"] = self.detail
        return out


def applies(claim: Claim) -> bool:
    """Trajectory claims integrated by the float64 event engine or the limit engine have an mp counterpart."""
    return claim.horizon is not None and claim.backend in ("events", "limit") and claim.runner is None


def not_applicable(claim: Claim) -> dict[str, Any]:
    """The report's ``cross_check`` of a HOLDS with nothing to rerun on an independent path, with the reason
    (``not_applicable``: a runner's own procedure, no engine trajectory, or a backend with no second implementation)."""
    if claim.runner is not None:
        why = "the claim runs its own decision procedure (runner: symbolic, statistical), not an engine trajectory"
    elif claim.horizon is None:
        why = "no engine trajectory (horizon None): the check evaluates data, an init or its own computation"
    else:
        why = f"backend {claim.backend!r} has no second implementation to rerun"
    return {"runs": 0, "backend": "-", "max_disagreement": None, "error": None, "not_applicable": why}


def reference_log_eps(run: Run) -> float:
    """ln eps' of the mp rerun of a limit run ``run``: min(ln eps, (LIMIT_OUTPUT_LOG - ln(h X_max)) / 2 - G) with

        G = max_k max_j (r_j(t_k) - ln eps) + S max_k (t_k - t_{k-1}),   S = sum_i ||x_i|| >= |r_j'|

    (|r_j'| = |<u_j, x_a>| <= sum_i |l'(y_i, 0)| ||x_i||, |l'(y, 0)| <= 1 for the built-in losses), so that
    |f_i| <= h X_max e^{2 max r} <= e^LIMIT_OUTPUT_LOG between the samples too."""
    traj = run.trajectory
    assert traj is not None and traj.r is not None
    norms = np.linalg.norm(run.X, axis=1)
    gap = float(np.max(np.diff(np.concatenate([[0.0], traj.times]))))
    growth = float(np.max(traj.r)) - run.log_eps + float(np.sum(norms)) * gap
    outputs = math.log(traj.r.shape[1] * float(np.max(norms)))
    return min(run.log_eps, 0.5 * (LIMIT_OUTPUT_LOG - outputs) - max(growth, 0.0))


def choose(examples: Sequence[tuple[float, Scenario]], claim_id: str, seed: int, sampled: int = SAMPLED) -> list[tuple[str, Scenario]]:
    """The worst example (smallest margin, first of ties) and ``sampled`` others drawn with a seeded RNG."""
    if not examples:
        return []
    worst = min(range(len(examples)), key=lambda k: examples[k][0])
    rest = [k for k in range(len(examples)) if k != worst]
    picked = random.Random(f"{seed}:{claim_id}").sample(rest, min(sampled, len(rest)))
    return [("worst", examples[worst][1])] + [(f"sample {k}", examples[k][1]) for k in sorted(picked)]


def _fmt(a: np.ndarray) -> str:
    return np.array2string(np.asarray(a, dtype=float), precision=12, separator=", ", max_line_width=10_000)


def compare(run64: Run, runmp: Run, error: float, r_origin: np.ndarray | None = None) -> Comparison:
    """State disagreement d (module docstring) and activation sign mismatches beyond ``error``; with ``r_origin``
    (polar) the log-norms are compared relative to their growth, |r - r'| / max(1, |r - r_origin|)."""
    a, b = run64.trajectory, runmp.trajectory
    assert a is not None and b is not None
    X = run64.X
    xn = np.linalg.norm(X, axis=1)
    if a.r is not None and b.r is not None:
        with np.errstate(invalid="ignore"):
            dr = np.abs(a.r - b.r)
            if r_origin is not None:
                dr = dr / np.maximum(1.0, np.abs(a.r - r_origin))
            d = np.maximum(dr, np.linalg.norm(a.U - b.U, axis=2))
        Pa, Pb = np.matmul(a.U, X.T), np.matmul(b.U, X.T)  # (k, h, n)
        scale = np.ones(a.r.shape)
        first, second = (a.r, a.U), (b.r, b.U)
        names = ("r", "u")
    else:
        fixed = not run64.scenario.train_v  # a fixed second layer is no part of the state: compare W alone
        za = a.W if fixed else np.concatenate([a.W, a.v[..., None]], axis=2)
        zb = b.W if fixed else np.concatenate([b.W, b.v[..., None]], axis=2)
        scale = np.maximum(np.linalg.norm(za, axis=2), np.linalg.norm(zb, axis=2))
        with np.errstate(invalid="ignore", divide="ignore"):
            d = np.where(scale > 0.0, np.linalg.norm(za - zb, axis=2) / scale, 0.0)
        Pa, Pb = np.matmul(a.W, X.T), np.matmul(b.W, X.T)
        first, second = (a.W, a.v), (b.W, b.v)
        names = ("w", "v")
    d = np.where(np.isnan(d), np.inf, d)
    with np.errstate(invalid="ignore", divide="ignore"):
        denom = scale[..., None] * xn[None, None, :]
        pa, pb = Pa / denom, Pb / denom
    flips = (np.sign(pa) != np.sign(pb)) & (np.abs(pa) > error) & (np.abs(pb) > error)
    k, j = np.unravel_index(int(np.argmax(d)), d.shape)
    out = Comparison(float(d[k, j]), error, int(np.sum(flips)))
    if out.disagreement > error or out.mismatches:
        if out.mismatches and out.disagreement <= error:
            k, j, _ = np.argwhere(flips)[0]
        t = float(a.times[k])
        label = "float64" if a.backend == "events" else a.backend
        out.where = (f"t = {t:.9g}, neuron {j}: {label} {names[0]} = {_fmt(first[0][k, j])}, {names[1]} = "
                     f"{_fmt(first[1][k, j])}; {b.backend} {names[0]} = {_fmt(second[0][k, j])}, {names[1]} = "
                     f"{_fmt(second[1][k, j])}")
    return out


def example_error(run64: Run, runmp: Run, rtol: float, dps: int = CROSS_DPS) -> float:
    """e = SAFETY (rtol + err64) + SAFETY errmp + 10^(1 - dps) (module docstring)."""
    def est(run: Run) -> float:
        value = float(run.trajectory.error_estimate) if run.trajectory is not None else math.nan
        return value if math.isfinite(value) else rtol

    return SAFETY * (rtol + est(run64)) + SAFETY * est(runmp) + 10.0 ** (1 - dps)


def reference_tol_digits(rtol: float) -> int:
    """D of the CROSS_DPS run's step tolerance 10^-D: ceil(-log10 rtol) + CROSS_TOL_BEYOND, within
    [MIN_TOL_DIGITS, CROSS_DPS + TOL_MARGIN] (the mp backend's range at CROSS_DPS digits); a power of ten
    counts as its exponent whichever way log10 rounds it."""
    digits = math.ceil(-math.log10(rtol) - 1e-9)
    return min(CROSS_DPS + TOL_MARGIN, max(MIN_TOL_DIGITS, digits + CROSS_TOL_BEYOND))


def _rerun(claim: Claim, scenario: Scenario, backend: str, dps: int = CROSS_DPS, rtol: float | None = None,
           tol_digits: int | None = None) -> Run:
    return execute(scenario, claim.horizon, rtol=rtol or claim.rtol, samples=claim.samples, spacing=claim.spacing,
                   backend=backend, form=claim.form, dps=dps, papers=audit_papers(claim), tol_digits=tol_digits)


def _rerun_flow(claim: Claim, scenario: Scenario, run64: Run, dps: int, backend: str = "mp") -> Run:
    """The reference run that ``run64`` is compared with, on ``backend`` (FIRST or "mp"): the same scenario, or for a
    limit run the flow from eps' (:func:`reference_log_eps`) with its log-norms shifted back by ln eps - ln eps'. At
    CROSS_DPS digits the step tolerance is :func:`reference_tol_digits`; the ESCALATE_DPS runs keep the mp backend's
    default."""
    tol_digits = reference_tol_digits(claim.rtol) if dps == CROSS_DPS else None
    if claim.backend != "limit":
        return _rerun(claim, scenario, backend, dps, tol_digits=tol_digits)
    log_eps = reference_log_eps(run64)
    small = dataclasses.replace(scenario, init=dataclasses.replace(scenario.init, log_eps=log_eps))
    runmp = execute(small, run64.horizon, rtol=claim.rtol, samples=claim.samples, spacing=claim.spacing,
                    backend=backend, form="polar", dps=dps, papers=audit_papers(claim), tol_digits=tol_digits)
    traj = runmp.trajectory
    assert traj is not None and traj.r is not None
    shifted = dataclasses.replace(traj, r=traj.r + (scenario.init.log_eps - log_eps))
    return dataclasses.replace(runmp, scenario=scenario, trajectory=shifted)


class Unconverged(Exception):
    """The mp reference itself is not converged: its runs at the last two precisions of the ladder disagree with each
    other beyond the error estimate, or one of them is undetermined (:attr:`Trajectory.uncertified`), so a
    disagreement with float64 says nothing about the float64 engine."""


def _first_reference(claim: Claim, scenario: Scenario, run64: Run, label: str, result: "CrossCheck") -> Run:
    """The first reference run: the FIRST engine, or where it declines the run (:class:`taylor64.Declined`: crowded
    surfaces, a line that slides, ...) the mp backend at CROSS_DPS digits, the reason kept in ``result.declined``;
    the backend used is appended to ``result.first``."""
    try:
        run = _rerun_flow(claim, scenario, run64, CROSS_DPS, FIRST)
    except Declined as exc:
        result.declined.append(f"{label}: {exc}")
        run = _rerun_flow(claim, scenario, run64, CROSS_DPS, "mp")
    result.first.append(run.trajectory.backend if run.trajectory is not None else "mp")
    return run


def _compare_mp(claim: Claim, scenario: Scenario, run64: Run, label: str,
                result: "CrossCheck") -> tuple[Comparison, float, int, Run]:
    """Compare with the first reference (:func:`_first_reference`); a disagreement is rerun on the mp backend at each
    of ESCALATE_DPS in turn until one agrees (that one decides) or the last one disagrees too. Then the last two mp
    runs are compared with each
    other: if they disagree beyond the error estimate the mp reference is not converged (:class:`Unconverged`, the
    example is skipped: no engine can be blamed); if they agree with each other and not with float64, the float64
    engine is inconsistent (the caller reports FAILED)."""
    history: list[str] = []
    runs: list[tuple[int, Run, float]] = []
    for dps in (CROSS_DPS,) + ESCALATE_DPS:
        runmp = _first_reference(claim, scenario, run64, label, result) if dps == CROSS_DPS else (
            _rerun_flow(claim, scenario, run64, dps))
        if runmp.trajectory is not None and runmp.trajectory.uncertified is not None:
            raise Unconverged(f"the {dps}-digit mp reference is undetermined: {runmp.trajectory.uncertified}")
        error = example_error(run64, runmp, claim.rtol, dps)
        cmp = compare(run64, runmp, error)
        runs.append((dps, runmp, error))
        agrees = cmp.disagreement <= error and cmp.mismatches == 0
        if dps != CROSS_DPS:
            history.append(f"{dps} digits {'agree' if agrees else 'disagree'} ({cmp.disagreement:.3g} vs error {error:.3g})")
        elif not agrees:
            taylor = runmp.trajectory is not None and runmp.trajectory.backend == FIRST
            first = "float64 Taylor" if taylor else f"{dps} digits"
            history.append(f"{first} disagree ({cmp.disagreement:.3g} vs error {error:.3g}, "
                           f"{cmp.mismatches} sign mismatch(es))")
        if agrees:
            break
    else:
        (lo, run_lo, _), (hi, run_hi, err_hi) = runs[-2], runs[-1]
        self_check = compare(run_lo, run_hi, err_hi)
        if self_check.disagreement > err_hi or self_check.mismatches:
            history.append(f"the {lo}- and {hi}-digit mp runs disagree with each other ({self_check.disagreement:.3g} vs "
                           f"error {err_hi:.3g}): the mp reference is not converged")
            result.escalated.append(f"{label}: " + "; ".join(history))
            raise Unconverged(f"the mp reference is not converged (its {lo}- and {hi}-digit runs disagree by "
                              f"{self_check.disagreement:.3g} > {err_hi:.3g})")
    if history:
        result.escalated.append(f"{label}: " + "; ".join(history))
    return cmp, error, dps, runmp


def _tightened(claim: Claim, scenario: Scenario, runmp: Run, cmp: Comparison, error: float, dps: int,
               label: str, result: "CrossCheck") -> tuple[Comparison, float]:
    """A float64 run off its converged mp reference (``cmp`` beyond ``error`` at every precision) is rerun at
    rtol / TIGHTEN. If that run agrees with the reference, the engine converges and the claim's run was merely less
    accurate than its local-error estimate says (error propagation on a long run): recorded in ``estimate_exceeded``
    with the check re-evaluated on the reference (a violation there is ``reference_violations``, never a HOLDS), and
    the tight comparison counts. If it disagrees too, the engine is inconsistent: ``cmp`` stands."""
    if claim.backend != "events":
        return cmp, error
    rtol = claim.rtol / TIGHTEN
    tight = _rerun(claim, scenario, claim.backend, rtol=rtol)
    tight_error = example_error(tight, runmp, rtol, dps)
    tight_cmp = compare(tight, runmp, tight_error)
    if tight_cmp.disagreement > tight_error or tight_cmp.mismatches:
        return cmp, error
    margin = as_margin(claim.check(runmp), claim.id)
    if not margin.vacuous and (margin.value < 0.0 or inconclusive(margin)):
        result.reference_violations += 1
        result.detail = result.detail or (f"{label} example: the check fails on the converged {dps}-digit mp reference "
                                          f"(margin {margin.value:.4g}) where the float64 run at rtol {claim.rtol:g} "
                                          f"held; {cmp.where}")
    result.estimate_exceeded.append(
        f"{label}: float64 at rtol {claim.rtol:g} is off its {dps}-digit mp reference by {cmp.disagreement:.3g} > its "
        f"error estimate {error:.3g} (the local-error sum misses the error's growth along this run; {cmp.where}); at rtol "
        f"{rtol:g} it agrees ({tight_cmp.disagreement:.3g} <= {tight_error:.3g}): the engine converges; the check on "
        f"the mp reference: margin {margin.value:.4g}")
    return tight_cmp, tight_error


def cross_check(claim: Claim, examples: Sequence[tuple[float, Scenario]], seed: int) -> CrossCheck:
    """Rerun the chosen examples (:func:`choose`) on both engines and compare (:func:`compare`).

    Examples beyond the cost cap, or whose mp run fails with a :class:`VerifyError` (a numerical
    limit, an input the mp backend refuses), are skipped with the reason.
    """
    result = CrossCheck(engine=claim.backend, tol_digits=reference_tol_digits(claim.rtol))
    for label, scenario in choose(examples, claim.id, seed):
        try:
            run64 = _rerun(claim, scenario, claim.backend)
        except VerifyError as exc:
            result.skipped.append(f"{label}: {claim.backend} rerun failed ({exc})")
            continue
        traj = run64.trajectory
        if traj is None or run64.horizon is None:
            result.skipped.append(f"{label}: horizon undefined")
            continue
        if traj.uncertified is not None:
            result.skipped.append(f"{label}: the {claim.backend} run is undetermined ({traj.uncertified})")
            continue
        steps = int(traj.stats.get("steps", 0))
        if steps > MAX_STEPS:
            result.skipped.append(f"{label}: beyond the mp cost cap ({steps} float64 steps > {MAX_STEPS})")
            continue
        limit = claim.backend == "limit"
        work = float(run64.horizon) * float(np.sum(np.linalg.norm(run64.X, axis=1))) if limit else 0.0
        if work > LIMIT_MAX_WORK:
            why = f"beyond the mp cost cap (horizon x sum ||x_i|| = {work:.3g} > {LIMIT_MAX_WORK:g})"
            try:
                cmp, error = _compare_stiff(run64)
            except VerifyError as exc:  # stiff_limit.Unsupported among them
                result.skipped.append(f"{label}: {why}; the stiff reference does not apply ({exc})")
                continue
            result.stiff.append(f"{label}: {why}: compared with the stiff reference")
            _record(result, label, cmp, error, "scipy Radau", STIFF_REFERENCE)
            continue
        compared = len(result.first)
        try:
            cmp, error, dps, runmp = _compare_mp(claim, scenario, run64, label, result)
            if cmp.disagreement > error or cmp.mismatches:
                cmp, error = _tightened(claim, scenario, runmp, cmp, error, dps, label, result)
        except Unconverged as exc:
            result.skipped.append(f"{label}: {exc}")
            del result.first[compared:]  # a skipped example's reference names no backend of the comparison
            continue
        except VerifyError as exc:
            result.skipped.append(f"{label}: mp run failed ({type(exc).__name__}: {exc})")
            del result.first[compared:]
            continue
        how = "float64 Taylor" if dps == CROSS_DPS and result.first[-1] == FIRST else f"{dps} digits"
        _record(result, label, cmp, error, how, MP_REFERENCE)
    used = list(dict.fromkeys(result.first)) + (["scipy-radau"] if result.stiff else [])
    result.backend = " + ".join(used) if used else FIRST
    return result


def _record(result: CrossCheck, label: str, cmp: Comparison, error: float, how: str, reference: str) -> None:
    """Count one compared example: the largest disagreement relative to its error, the first one beyond it (and the
    ``reference`` it disagrees with)."""
    result.runs += 1
    result.pattern_mismatches += cmp.mismatches
    if cmp.disagreement / error > result.max_disagreement / max(result.error, 1e-300) or result.runs == 1:
        result.max_disagreement, result.error = cmp.disagreement, error
    if cmp.where and not result.detail:
        result.detail = (f"{label} example ({how}): disagreement {cmp.disagreement:.3g} > error {error:.3g} or "
                         f"{cmp.mismatches} activation sign mismatch(es); {cmp.where}")
        result.disagrees_with = reference


def _compare_stiff(run64: Run) -> tuple[Comparison, float]:
    """A limit run beyond the mp cost cap against :mod:`verify.evidence.stiff_limit` (scipy's Radau on the limit
    field, from the same init), log-norms compared relative to their growth: d_r = |r - r'| / max(1, |r - r(0)|)
    (float64 resolves r only to ulp(|r|), and |r| reaches 1e12 at theorem-scale eps), directions absolutely.
    Error e = SAFETY (stiff_limit.RTOL + the limit run's error estimate)."""
    traj = run64.trajectory
    assert traj is not None and traj.r is not None
    sc = run64.scenario
    r0, U0, s = polar_state(sc.init.W0, sc.init.v0, sc.init.log_eps)
    g = np.asarray(get_loss(sc.loss).g(run64.y, np.zeros(len(run64.y))), dtype=float)
    R, U = stiff_limit.reference(run64.X, g, sc.alpha, r0, U0, s, traj.times)
    ref = dataclasses.replace(run64, trajectory=dataclasses.replace(traj, r=R, U=U))
    error = SAFETY * (stiff_limit.RTOL + float(traj.error_estimate))
    return compare(run64, ref, error, r_origin=r0), error


def failure_reason(cc: CrossCheck) -> str:
    """The FAILED message of an inconsistent cross-check."""
    engine = "float64 event engine" if cc.engine == "events" else f"{cc.engine} engine"
    if cc.reference_violations:
        return f"the check fails on the converged mp reference of {cc.reference_violations} example(s): {cc.detail}"
    return f"engine inconsistency: the {engine} and {cc.disagrees_with}: {cc.detail}"
