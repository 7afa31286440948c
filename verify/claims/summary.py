"""A counterexample in a few lines a person reads: sizes, scale, loss, horizon, margins, the first violated sample.

Used where a refutation is shown as text (the pytest plugin's failure, ``verify search``). The record is the
JSON counterexample of :func:`verify.search.counterexample_record`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from verify.claims.model import Claim, as_margin
from verify.errors import VerifyError


def _number(value: Any) -> str:
    return "-" if value is None else f"{value:.6g}" if isinstance(value, (int, float)) else str(value)


def counterexample_lines(claim: Claim, record: dict[str, Any]) -> list[str]:
    """The counterexample of ``claim`` described line by line (replay command last, when the record has one)."""
    params = record.get("params") or {}
    lines: list[str] = []
    if record.get("X"):
        n, d = len(record["X"]), len(record["X"][0])
        h = len(record.get("W0") or [])
        log_eps = record.get("log_eps", params.get("log_eps"))
        scale = "-" if log_eps is None else f"eps = exp({log_eps:.6g})" + (f" = {math.exp(log_eps):.3g}" if log_eps > -700 else "")
        lines.append(f"scenario: n = {n} examples in d = {d}, h = {h} neurons, {scale}, loss {params.get('loss', '-')}, "
                     f"alpha = {_number(params.get('alpha'))}, horizon t_end = {_number(params.get('t_end'))}"
                     + (f", data {params['data']}" if "data" in params else ""))
    elif "witness" in record:
        lines.append(f"witness: {record['witness']}")
    elif "value" in record:
        lines.append(f"drawn value: {record['value']!r:.200}")
    lines.append(f"margin {_number(record.get('margin'))} (error {_number(record.get('margin_error'))}); "
                 f"rerun at {_number(record.get('confirm_rtol'))} rtol: {_number(record.get('confirmed_margin'))}"
                 + (f"; {record['mp_dps']}-digit mp rerun: {_number(record.get('mp_margin'))} ({record.get('mp_confirmation')})"
                    if record.get("mp_dps") else ""))
    if record.get("note"):
        lines.append(f"check says: {record['note']}")
    if record.get("X") and claim.horizon is not None:
        lines.append(first_violated_sample(claim, record))
    if record.get("replay"):
        lines.append(f"replay: {record['replay']}")
    return lines


def first_violated_sample(claim: Claim, record: dict[str, Any]) -> str:
    """The earliest sample time at which the check, run on the trajectory up to that sample, is violated beyond
    its error estimate (the counterexample is simulated again; a check that needs the whole trajectory or whose
    verdict on prefixes is not monotone says so)."""
    from verify.scenarios import Scenario
    from verify.search import evaluate

    try:
        ev = evaluate(claim, Scenario.from_dict(record))
    except (VerifyError, ValueError, TypeError, KeyError) as exc:
        return f"first violated sample: not determined (the replay failed: {exc})"
    run = ev.run
    if ev.status != "ok" or run is None or run.trajectory is None:
        return f"first violated sample: not determined (replay {ev.status}: {ev.reason})"
    times = run.trajectory.times

    def violated(k: int) -> bool | None:
        try:
            margin = as_margin(claim.check(dataclasses.replace(run, trajectory=run.trajectory.until(k))), claim.id)
        except Exception:  # a check that reads the whole trajectory may fail on a prefix: no answer, never a crash
            return None
        return margin.value < -margin.error

    answers = [violated(k) for k in range(1, len(times) + 1)]
    if None in answers:
        return "first violated sample: not determined (the check does not run on a prefix of the trajectory)"
    if not answers[-1]:
        return "first violated sample: not determined (the replay does not violate on the sampled trajectory)"
    k = answers.index(True)
    monotone = all(answers[k:])
    return (f"first violated sample: t = {times[k]:.6g} (sample {k + 1} of {len(times)}; the check holds on the samples "
            f"before it" + ("" if monotone else ", and its answer on longer prefixes is not monotone") + ")")
