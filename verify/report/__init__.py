"""Verification reports: the JSON document (the machine contract) and its renderings.

``render_all(report, directory)`` (:mod:`verify.report.render`) writes report.json, report.md,
index.html, graph-<paper>.svg and plots/; the JSON Schema is :data:`verify.report.schema.SCHEMA`.
"""

from verify.report.document import REPORT_VERSION, build_report, claim_entry, write_report


def render_all(report, directory, *, plots=True):  # noqa: ANN001, ANN201 - thin lazy wrapper (keeps imports light)
    """See :func:`verify.report.render.render_all`."""
    from verify.report.render import render_all as _render_all

    return _render_all(report, directory, plots=plots)


__all__ = ["REPORT_VERSION", "build_report", "claim_entry", "render_all", "write_report"]
