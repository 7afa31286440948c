"""Reproductions of the papers' own experiments (DESIGN.md section 6, "Reproductions").

A paper lists its experiments as :class:`Experiment` values (``Paper.experiments``); each is a function
``run(quick, progress) -> Outcome`` that simulates, checks the paper's stated *qualitative* outcomes
(orderings, rank, alignment, which phase ends first; never iteration counts) and draws figures.
:func:`reproduce` runs one and writes ``DIR/summary.json``::

    {"name", "paper", "title", "source", "data", "quick", "checks": [{"name", "passed", "detail"}],
     "figures": ["NAME.png", ...], "notes": [...], "time_s"}

plus the PNG files. The engine knows no experiment: they are found through the installed papers. A run the
experiment simulates that is undetermined (:func:`verify.simulate.uncertified_runs`) adds the failed check "every
run is determined": such a reproduction never passes.
"""

from __future__ import annotations

import io
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from verify.errors import InputError
from verify.jsonable import jsonable

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Check:
    """One stated outcome: whether it holds on this run, and the numbers behind the answer."""

    name: str
    passed: bool
    detail: str


@dataclass(frozen=True)
class Figure:
    """A figure of the experiment: file stem, title and PNG bytes."""

    name: str
    title: str
    png: bytes


@dataclass
class Outcome:
    """What an experiment's ``run`` returns: the data description, its checks, figures and notes (e.g.
    where the paper's GD and the exact gradient flow disagree)."""

    data: str
    checks: list[Check] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    values: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Experiment:
    """An experiment of a paper: ``name`` begins with the paper id (``<paper>-<experiment>``); ``run(quick,
    progress)`` does the work (``quick``: a reduced run, well under a minute on 2 cores)."""

    name: str
    title: str
    run: Callable[[bool, Progress], Outcome]
    source: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name or not callable(self.run):
            raise InputError("an Experiment needs a name and a callable run(quick, progress)")


def experiments() -> dict[str, tuple[str, Experiment]]:
    """Every installed paper's experiments by name: name -> (paper id, experiment)."""
    from verify.claims.registry import papers  # local: the registry imports the plug-ins

    out: dict[str, tuple[str, Experiment]] = {}
    for paper in papers().values():
        for exp in paper.experiments:
            if exp.name in out:
                raise InputError(f"experiment {exp.name!r} is listed by paper {out[exp.name][0]} and by paper {paper.id}")
            out[exp.name] = (paper.id, exp)
    return out


def png_bytes(fig: Any) -> bytes:
    """A matplotlib figure as PNG bytes (the figure is closed)."""
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def reproduce(name: str, out: str | Path, *, quick: bool = False, progress: Progress | None = None) -> dict[str, Any]:
    """Run the experiment ``name`` and write ``out/summary.json`` and its figures; returns the summary."""
    known = experiments()
    if name not in known:
        raise InputError(f"unknown experiment {name!r}; see 'verify reproduce --list' ({', '.join(sorted(known)) or 'none'})")
    from verify.simulate import uncertified_runs

    paper_id, exp = known[name]
    directory = Path(out)
    start = time.perf_counter()
    with uncertified_runs() as undetermined:
        outcome = exp.run(quick, progress or (lambda message: None))
    checks = [{"name": c.name, "passed": bool(c.passed), "detail": c.detail} for c in outcome.checks]
    if undetermined:  # a run without a determined outcome reproduces nothing, whatever the checks read from it
        checks.append({"name": "every run is determined", "passed": False,
                       "detail": f"{len(undetermined)} run(s) undetermined; first: {undetermined[0]}"})
    summary = {
        "name": exp.name, "paper": paper_id, "title": exp.title, "source": exp.source, "data": outcome.data,
        "quick": quick, "checks": checks,
        "figures": [f"{f.name}.png" for f in outcome.figures], "notes": list(outcome.notes),
        "values": jsonable(outcome.values), "time_s": round(time.perf_counter() - start, 2),
    }
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for f in outcome.figures:
            (directory / f"{f.name}.png").write_bytes(f.png)
        (directory / "summary.json").write_text(json.dumps(summary, indent=2, allow_nan=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write into {str(directory)!r} ({exc.strerror or exc})") from None
    return summary


REPORT_SUBDIR = "reproductions"


def passed(summary: dict[str, Any]) -> bool:
    """A reproduction passed iff it ran without error and has at least one check, all passed (no checks or an
    error is inconclusive, never a pass)."""
    checks = summary.get("checks") or []
    return not summary.get("error") and bool(checks) and all(c.get("passed") is True for c in checks)


def run_for_report(papers: Iterable[Any], quick: bool, out_dir: str | Path,
                   progress: Progress | None = None) -> list[dict[str, Any]]:
    """Run every experiment of ``papers`` (Paper objects or paper ids, in their order; each paper's experiments
    in its own order) for a report written into ``out_dir``: each experiment's files go to
    ``out_dir/reproductions/NAME/`` and its summary (as :func:`reproduce` returns it) comes back with ``figures``
    relative to ``out_dir`` (``reproductions/NAME/FIG.png``) and ``dir``. An experiment that raises is kept
    as a summary with ``error`` set and no checks (it never counts as passed); an unknown paper id is an
    InputError. ``progress(message)`` is called before each experiment (None: print to stderr on a TTY only).
    The summaries are what ``report.json``'s optional ``reproductions`` list holds."""
    import sys

    from verify.claims.registry import papers as installed

    known = installed()
    chosen = []
    for p in papers:
        pid = p if isinstance(p, str) else getattr(p, "id", None)
        if pid not in known:
            raise InputError(f"unknown paper {pid!r} for the reproductions (installed: {', '.join(sorted(known)) or 'none'})")
        chosen.append(known[pid])
    own = progress is None
    if progress is None:
        tty = sys.stderr.isatty()

        def progress(message: str) -> None:
            if tty:
                print(f"\r{message[:78]:<78}", end="", file=sys.stderr, flush=True)

    base = Path(out_dir)
    out: list[dict[str, Any]] = []
    for paper in chosen:
        for exp in paper.experiments:
            rel = Path(REPORT_SUBDIR) / exp.name
            progress(f"reproduce {exp.name}{' (quick)' if quick else ''}")
            try:
                summary = reproduce(exp.name, base / rel, quick=quick)
            except (KeyboardInterrupt, SystemExit):
                raise
            except Exception as exc:  # noqa: BLE001 - one failing experiment must not lose the report
                summary = {"name": exp.name, "paper": paper.id, "title": exp.title, "source": exp.source, "data": "",
                           "quick": quick, "checks": [], "figures": [], "notes": [],
                           "error": f"{type(exc).__name__}: {exc}"}
            summary["figures"] = [(rel / f).as_posix() for f in summary["figures"]]
            summary["dir"] = rel.as_posix()
            summary["passed"] = passed(summary)
            out.append(summary)
    if own and sys.stderr.isatty():
        print(file=sys.stderr)
    return out
