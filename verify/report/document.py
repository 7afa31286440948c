"""``report.json`` (DESIGN.md section 6 schema) and the plain Markdown summary beside it.

Top level: ``report_version``, ``tool`` (name, version, git commit), ``settings`` (profile,
seed, budget, precision, tolerances), ``environment`` (Python and library versions),
``summary`` (counts per verdict, unexpected outcomes), ``claims`` (one entry per claim: id,
source, statement, assumptions, expected, verdict, examples, min_margin, time_s, reason,
``definition_hash`` (SHA-256 of the claim's definition and check code, used to mark results
obsolete when a stored report is re-rendered), and for REFUTED the ``counterexample`` with X, y,
W0, v0, params and ``replay``). The JSON Schema is :data:`verify.report.schema.SCHEMA`.
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Iterable

from verify.jsonable import jsonable
from verify.search import SearchResult
from verify.verdicts import Verdict

REPORT_VERSION = "1.2"  # 1.1: claim entries carry definition_hash; 1.2: engine_hash, explored, worst_case, margin_unit


def git_commit() -> str | None:
    """The checkout's HEAD commit (None outside a git checkout)."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5,
                             cwd=Path(__file__).resolve().parent)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def environment() -> dict[str, Any]:
    """Python, platform and library versions, and the float environment."""
    import hypothesis
    import mpmath
    import numpy
    import scipy
    import sympy

    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "mpmath": mpmath.__version__,
        "mpmath_backend": mpmath.libmp.BACKEND,
        "sympy": sympy.__version__,
        "hypothesis": hypothesis.__version__,
        "float": {"epsilon": sys.float_info.epsilon, "min": sys.float_info.min, "max": sys.float_info.max},
    }


def claim_entry(result: SearchResult, replay: str | None = None, paper: str | None = None) -> dict[str, Any]:
    """One claim's report entry; ``paper`` is the id of the paper that holds the claim (None: a user claim)."""
    from verify.report.obsolete import definition_hash, engine_hash

    entry = result.claim.to_dict()
    entry["paper"] = paper
    entry["definition_hash"] = definition_hash(result.claim)
    entry["engine_hash"] = engine_hash(result.claim)
    if result.claim.margin_unit:
        entry["margin_unit"] = result.claim.margin_unit
    entry.update(
        {
            "verdict": str(result.verdict),
            "as_expected": result.as_expected,
            "examples": result.examples,
            "vacuous": result.vacuous,
            "numerical_failures": result.numerical_failures,
            "inconclusive": result.inconclusive,
            "min_margin": jsonable(result.min_margin),
            "min_margin_error": jsonable(result.min_margin_error),
            "time_s": round(result.time_s, 4),
            "example_time_s": _timing(result.example_times),
            "reason": result.reason,
        }
    )
    if result.certificate is not None:
        entry["certificate"] = result.certificate
    if result.cross_check is not None:
        entry["cross_check"] = dict(result.cross_check)
    entry["teeth"] = list(result.claim.meta.get("teeth", ()))
    if result.slack is not None:
        entry["slack"] = dict(result.slack)
    if result.explored is not None:
        entry["explored"] = dict(result.explored)
    if result.worst_case is not None and result.verdict == Verdict.HOLDS:
        entry["worst_case"] = dict(result.worst_case)
    if result.counterexample is not None:
        cx = dict(result.counterexample)
        if replay:
            cx["replay"] = replay
        entry["counterexample"] = cx
    return jsonable(entry)  # non-finite margins (a -inf t1_emp margin, a NaN error) as "-inf" / "nan"


def _timing(times: list[float]) -> dict[str, float] | None:
    if not times:
        return None
    ordered = sorted(times)
    return {"min": round(ordered[0], 4), "median": round(ordered[len(ordered) // 2], 4), "max": round(ordered[-1], 4)}


def build_report(entries: Iterable[dict[str, Any]], settings: dict[str, Any], *, command: str | None = None,
                 partial: bool = False, papers: Iterable[Any] = ()) -> dict[str, Any]:
    """The whole report document; ``command`` is the ``verify ...`` line that regenerates it,
    ``partial`` marks a run that was interrupted (its unfinished claims are UNKNOWN "interrupted"),
    ``papers`` the :class:`verify.Paper` objects whose claims it holds (their title, blueprint and
    errata are stored, so the report re-renders without the plug-ins). ``tool.engine`` maps each engine
    module to a short hash of its source (what ``verify report --from`` names when the engine changed)."""
    from verify import __version__
    from verify.report.obsolete import engine_module_hashes

    claims = list(entries)
    counts = Counter(e["verdict"] for e in claims)
    unexpected = [e["id"] for e in claims if not e["as_expected"]]
    return {
        "report_version": REPORT_VERSION,
        "tool": {"name": "relu-verify", "version": __version__, "git_commit": git_commit(), "command": command,
                 "engine": engine_module_hashes()},
        "settings": settings,
        "environment": environment(),
        "summary": {
            "claims": len(claims),
            "counts": {v.value: counts.get(v.value, 0) for v in Verdict},
            "refuted_as_expected": sum(1 for e in claims if e["verdict"] == "REFUTED" and e["as_expected"]),
            "unexpected": unexpected,
            "partial": partial,
        },
        "papers": [jsonable(p.to_dict()) for p in papers],
        "claims": claims,
    }


def summary_line(report: dict[str, Any]) -> str:
    """e.g. '32 claims: 9 PROVED, 17 HOLDS, 6 REFUTED (6 as expected), 0 UNKNOWN, 0 FAILED; 0 unexpected'.

    A re-rendered report with obsolete entries (``summary["obsolete"]`` > 0) adds '; N obsolete'.
    """
    s = report["summary"]
    c = s["counts"]
    return (
        f"{s['claims']} claims: {c['PROVED']} PROVED, {c['HOLDS']} HOLDS, {c['REFUTED']} REFUTED "
        f"({s['refuted_as_expected']} as expected), {c['UNKNOWN']} UNKNOWN, {c['FAILED']} FAILED; "
        f"{len(s['unexpected'])} unexpected"
        + (f"; {s['obsolete']} obsolete" if s.get("obsolete") else "")
        + ("; PARTIAL (interrupted)" if s.get("partial") else "")
    )


def write_report(report: dict[str, Any], directory: str | Path) -> dict[str, Path]:
    """Write report.json, report.md (the digest) and claims.md (the appendix), without figure files, into ``directory``.

    :func:`verify.report.render.render_all` writes these and index.html, graph-<paper>.svg and the plots.
    """
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    from verify.report.render_md import APPENDIX, render, render_appendix

    paths = {"json": out / "report.json", "md": out / "report.md", "appendix": out / APPENDIX}
    paths["json"].write_text(json.dumps(report, indent=2, allow_nan=False) + "\n")
    paths["md"].write_text(render(report))
    paths["appendix"].write_text(render_appendix(report))
    return paths
