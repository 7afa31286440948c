"""Output paths, validated before any work starts (a finished result is never lost to a bad path).

``output_file`` is for a file option (``--json``, ``--out`` of simulate): its directory must exist
and be writable and the path must not be a directory. ``output_dir`` is for a report directory
(``--report``, ``--out`` of report): it is created with its parents, and must not be a file.
Both raise :class:`InputError` (exit 2, one line) naming the option.
"""

from __future__ import annotations

import os
from pathlib import Path

from verify.errors import InputError


def _nearest_existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def output_file(path: str | Path, option: str) -> Path:
    """A writable file path whose directory exists (nothing is created)."""
    p = Path(path)
    if p.is_dir():
        raise InputError(f"{option}: {str(p)!r} is a directory, not a file")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(f"{option}: directory {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise InputError(f"{option}: cannot write {str(p)!r} (permission denied)")
    return p


def output_dir(path: str | Path, option: str) -> Path:
    """A writable directory, created with its parents if missing."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise InputError(f"{option}: {str(p)!r} is a file, not a directory")
    base = _nearest_existing(p.resolve())
    if not base.is_dir():
        raise InputError(f"{option}: cannot create {str(p)!r} ({str(base)!r} is a file)")
    if not os.access(base, os.W_OK | os.X_OK):
        raise InputError(f"{option}: cannot write into {str(base)!r} (permission denied)")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{option}: cannot create {str(p)!r} ({exc.strerror or exc})") from None
    return p


def write_text(path: Path, text: str, option: str) -> None:
    """Write ``text``; an OSError (disk full, removed directory) is an InputError naming the option."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{option}: cannot write {str(path)!r} ({exc.strerror or exc})") from None
