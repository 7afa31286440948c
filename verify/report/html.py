"""A self-contained ``index.html`` rendering of the report (inline CSS, no network)."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from verify.report.document import summary_line

CSS = """
body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;width:100%}
th,td{border:1px solid #ccc;padding:4px 8px;text-align:left;font-size:14px}
th{background:#f3f3f3}
.PROVED{background:#c8e6c9}.HOLDS{background:#e8f5e9}.REFUTED{background:#ffe0b2}
.UNKNOWN{background:#eeeeee}.FAILED{background:#ffcdd2}.unexpected{outline:3px solid #d32f2f}
code{font-size:12px}
"""


def render(report: dict[str, Any]) -> str:
    """The HTML page as a string."""
    esc = html.escape
    rows = []
    for e in report["claims"]:
        cls = e["verdict"] + ("" if e["as_expected"] else " unexpected")
        replay = e.get("counterexample", {}).get("replay", "")
        rows.append(
            f"<tr class='{cls}'><td>{esc(e['id'])}</td><td>{esc(e['source'])}</td><td>{esc(e['statement'])}</td>"
            f"<td>{esc(e['expected'])}</td><td>{esc(e['verdict'])}</td><td>{e['examples']}</td>"
            f"<td>{esc(str(e['min_margin']))}</td><td>{e['time_s']:.2f}</td><td>{esc(e['reason'])}"
            f"{'<br><code>' + esc(replay) + '</code>' if replay else ''}</td></tr>"
        )
    tool = report["tool"]
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>relu-verify report</title>"
        f"<style>{CSS}</style></head><body><h1>relu-verify report</h1>"
        f"<p>relu-verify {esc(tool['version'])}, commit {esc(str(tool['git_commit']))}; "
        f"profile {esc(str(report['settings'].get('profile')))}, seed {esc(str(report['settings'].get('seed')))}</p>"
        f"<p><strong>{esc(summary_line(report))}</strong></p>"
        "<table><thead><tr><th>id</th><th>source</th><th>statement</th><th>expected</th><th>verdict</th>"
        "<th>examples</th><th>min margin</th><th>time (s)</th><th>reason / replay</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></body></html>\n"
    )


def write_html(report: dict[str, Any], path: str | Path) -> Path:
    """Write the page."""
    p = Path(path)
    p.write_text(render(report))
    return p
