"""``verify report --from JSON [--out DIR]``: re-render a stored report.json (Markdown, HTML, plots).

Results whose claim definition changed since the run (a different ``definition_hash`` than
the current catalogue's claim), whose claim left the catalogue, or that were computed by
another tool version are flagged **obsolete** in every rendering and counted in the summary
line. ``--out`` defaults to the stored report's directory (its report.json is rewritten with
the obsolete flags; nothing else in it changes). Results computed by an older engine (their ``engine_hash``
differs from the engine modules' now) are obsolete too; a report computed at another commit than the working
tree's says so at the top of every rendering. Exit codes: 0 written, 2 unreadable or
schema-invalid input.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from verify.cli.outputs import output_dir
from verify.errors import InputError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="re-render a stored report.json",
                       description="Re-render report.md, index.html (and plots) from a stored report.json; results "
                                   "whose claim definition or tool version changed are marked obsolete.")
    p.add_argument("--from", dest="source", required=True, metavar="JSON", help="the stored report.json")
    p.add_argument("--out", metavar="DIR", help="output directory (default: the JSON's directory)")
    p.add_argument("--no-plots", action="store_true", help="skip the matplotlib figures")
    p.add_argument("--no-validate", action="store_true", help="do not check the JSON against the report schema")
    p.set_defaults(func=run)


def load_report(path: Path, validate: bool = True) -> dict:
    """Read and (when jsonschema is installed) schema-check a stored report."""
    try:
        report = json.loads(path.read_text())
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except ValueError as exc:
        raise InputError(f"{path}: not JSON ({exc})") from None
    if not isinstance(report, dict) or "claims" not in report:
        raise InputError(f"{path}: not a relu-verify report (no 'claims')")
    if validate:
        try:
            from verify.report.schema import errors
        except ImportError:  # pragma: no cover - jsonschema is a test dependency
            return report
        try:
            problems = errors(report)
        except ImportError:  # pragma: no cover
            return report
        if problems:
            raise InputError(f"{path}: does not follow the report schema: {problems[0]}"
                             + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
    return report


def run(args: argparse.Namespace) -> int:
    from verify.report.document import summary_line
    from verify.report.obsolete import mark_obsolete
    from verify.report.render import render_all

    source = Path(args.source)
    out = output_dir(args.out if args.out else source.parent, "--out")
    report = load_report(source, validate=not args.no_validate)
    report = mark_obsolete(report)
    paths = render_all(report, out, plots=not args.no_plots)
    print(summary_line(report))
    obsolete = [e["id"] for e in report["claims"] if e.get("obsolete")]
    if obsolete:
        shown = ", ".join(obsolete[:10]) + (f", ... ({len(obsolete)} in all)" if len(obsolete) > 10 else "")
        print(f"obsolete: {shown}")
    from verify.report.digest import warnings

    for line in warnings(report):
        if "commit" in line:  # obsolete and unexpected results are printed above
            print(f"note: {line}")
    print(f"report: {paths['html']} (digest: {paths['md']}, per-claim appendix: {paths['appendix']})")
    return 0
