"""``render_all``: write every rendering of a report into a directory.

Files: ``report.json`` (the document, validated by :data:`verify.report.schema.SCHEMA`),
``report.md`` (the digest, in Markdown), ``claims.md`` (the per-claim appendix; figures referenced
as files), ``index.html`` (self-contained: inline CSS, PNG data URIs, inline SVG, one inline script
for the table filter, no network), ``graph-<paper>.svg`` (each paper's dependency graph) and
``plots/*.png`` (representative runs and counterexample trajectories). ``plots=False`` skips
the matplotlib figures (the HTML then says so); a plotting error never loses the report.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from verify.errors import InputError
from verify.report import graph, render_html, render_md

_FIGURE_CACHE: dict[tuple[str, ...], list[Any]] = {}


def representative_figures() -> list[Any]:
    """The representative-run figures, computed once per process and set of installed papers (they come from the
    papers' representative datasets, not from the report)."""
    from verify.claims.registry import papers

    key = tuple(sorted(papers()))
    if key not in _FIGURE_CACHE:
        from verify.report.plots import representative_figures as make

        _FIGURE_CACHE[key] = make()
    return list(_FIGURE_CACHE[key])


def _file_stem(claim_id: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in claim_id)


def _cx_plots(report: dict[str, Any]) -> dict[str, bytes | str | None]:
    """claim id -> violating-trajectory PNG (None: symbolic / pointwise; str: why the plot failed)."""
    from verify.report.plots import counterexample_png

    out: dict[str, bytes | str | None] = {}
    for e in report.get("claims", []):
        if "counterexample" not in e:
            continue
        try:
            out[e["id"]] = counterexample_png(e)
        except Exception as exc:  # noqa: BLE001 - a plotting failure must not lose the report
            out[e["id"]] = f"{type(exc).__name__}: {exc}"
    return out


def html_page(report: dict[str, Any], *, plots: bool = True) -> str:
    """The self-contained index.html text (with figures unless ``plots`` is False)."""
    figures: list[Any] = []
    plot_error = None
    cx: dict[str, bytes | str | None] = {}
    if plots:
        try:
            figures = representative_figures()
        except Exception as exc:  # noqa: BLE001
            plot_error = f"{type(exc).__name__}: {exc}"
        cx = _cx_plots(report)
    return render_html.render(report, figures, cx, plot_error)


def _save(path: Path, data: str | bytes) -> None:
    """Write ``data``; an OSError (disk full, directory removed meanwhile) is an InputError naming the file."""
    try:
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write {str(path)!r} ({exc.strerror or exc})") from None


def _save_json(path: Path, text: str) -> None:
    """Write report.json; if that fails, keep the finished results in a temporary file and say where."""
    try:
        _save(path, text)
    except InputError as exc:
        try:
            fd, rescue = tempfile.mkstemp(prefix="verify-report-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError:
            raise exc from None
        raise InputError(f"{exc}; the report was saved to {rescue} instead") from None


def render_all(report: dict[str, Any], directory: str | Path, *, plots: bool = True) -> dict[str, Path]:
    """Write report.json, report.md, index.html, graph-<paper>.svg (and plots/*.png) into ``directory``.

    Returns the written paths: keys ``json``, ``md``, ``appendix`` (claims.md), ``html``, ``svg:<paper>`` and ``png:<name>`` per figure.
    A file that cannot be written is an InputError naming it (report.json is then kept in a temporary file).
    """
    out = Path(directory)
    paths: dict[str, Path] = {"json": out / "report.json", "md": out / "report.md", "appendix": out / render_md.APPENDIX,
                              "html": out / "index.html"}
    text = json.dumps(report, indent=2, allow_nan=False) + "\n"
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        _save_json(paths["json"], text)  # fails too, and keeps the report elsewhere
        raise InputError(f"cannot create {str(out)!r} ({exc.strerror or exc})") from None
    _save_json(paths["json"], text)
    md_figures: dict[str, str] = {}
    for g in graph.graphs(report):  # one SVG per paper blueprint: graph-<paper id>.svg
        name = f"graph-{_file_stem(g.paper)}.svg"
        paths[f"svg:{g.paper}"] = out / name
        _save(paths[f"svg:{g.paper}"], graph.svg(report, g) + "\n")
        md_figures[f"graph-{g.paper}"] = name
    figures: list[Any] = []
    cx_pngs: dict[str, bytes | str | None] = {}
    plot_error = None
    captions: dict[str, tuple[str, str]] = {}
    if plots:
        plot_dir = out / "plots"
        try:
            plot_dir.mkdir(exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create {str(plot_dir)!r} ({exc.strerror or exc})") from None
        try:
            figures = representative_figures()
        except Exception as exc:  # noqa: BLE001 - a plotting failure must not lose the report
            plot_error = f"{type(exc).__name__}: {exc}"
        for f in figures:
            p = plot_dir / f"{f.name}.png"
            _save(p, f.png)
            paths[f"png:{f.name}"] = p
            md_figures[f.name] = f"plots/{f.name}.png"
            captions[f.name] = (f.title, f.caption)
        cx_pngs = _cx_plots(report)
        for claim_id, png in cx_pngs.items():
            if isinstance(png, bytes):
                name = f"cx-{_file_stem(claim_id)}"
                p = plot_dir / f"{name}.png"
                _save(p, png)
                paths[f"png:{name}"] = p
                md_figures[f"cx-{claim_id}"] = f"plots/{name}.png"
    _save(paths["md"], render_md.render(report, md_figures, captions))
    _save(paths["appendix"], render_md.render_appendix(report, md_figures, captions))
    _save(paths["html"], render_html.render(report, figures, cx_pngs, plot_error, base=out))
    return paths
