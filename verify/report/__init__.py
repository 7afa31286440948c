"""Verification reports: the JSON document (the machine contract) and its renderings."""

from verify.report.document import REPORT_VERSION, build_report, claim_entry, write_report

__all__ = ["REPORT_VERSION", "build_report", "claim_entry", "write_report"]
