"""Compare the verdicts of two report.json files (``make check`` against the committed reference).

``python -m verify.report.compare NEW REFERENCE`` prints one line per claim whose verdict differs,
per claim present in only one of the two, and a summary line; exit 0 iff the verdicts agree
claim by claim, 1 if they differ, 2 if a file cannot be read. Examples and margins are not
compared: they are the same for the same seed on one machine, but a different libm may move a
margin in its last digits, which must not fail a fresh machine's ``make check``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Sequence


def verdicts(path: str | Path) -> dict[str, str]:
    """Claim id -> verdict of a report.json (ValueError with the reason if it is not one)."""
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{p}: cannot read a report ({type(exc).__name__}: {exc})") from None
    claims = doc.get("claims") if isinstance(doc, dict) else None
    if not isinstance(claims, list) or not all(isinstance(c, dict) and "id" in c and "verdict" in c for c in claims):
        raise ValueError(f"{p}: not a report.json (no 'claims' list with id and verdict)")
    return {str(c["id"]): str(c["verdict"]) for c in claims}


def differences(new: dict[str, str], reference: dict[str, str]) -> list[str]:
    """One line per claim whose verdict differs or that only one report has, in reference order."""
    lines = [f"{cid}: {reference[cid]} in the reference, {new[cid]} now" for cid in reference
             if cid in new and new[cid] != reference[cid]]
    lines += [f"{cid}: in the reference ({reference[cid]}), not in the new report" for cid in reference if cid not in new]
    lines += [f"{cid}: new ({new[cid]}), not in the reference" for cid in new if cid not in reference]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print("usage: python -m verify.report.compare NEW/report.json REFERENCE/report.json", file=sys.stderr)
        return 2
    try:
        new, reference = verdicts(args[0]), verdicts(args[1])
    except ValueError as exc:
        print(f"compare: error: {exc}", file=sys.stderr)
        return 2
    lines = differences(new, reference)
    for line in lines:
        print(line)
    if lines:
        print(f"verdicts differ from the reference {args[1]} in {len(lines)} claim(s)")
        return 1
    print(f"verdicts agree with the reference {args[1]} ({len(reference)} claims)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
