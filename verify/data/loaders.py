"""Readers for ``.npz`` (arrays ``X``, ``y``) and ``.csv`` (label in the last column)."""

from __future__ import annotations

import csv
import math
import zipfile
from decimal import Decimal
from pathlib import Path

import numpy as np

from verify.data.dataset import Dataset, first_invalid_row
from verify.errors import InputError


def load_npz_arrays(path: str | Path, keys: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Read the named arrays from an ``.npz`` archive, with one-line errors for every failure."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file")
    if not p.is_file():
        raise InputError(f"{p}: not a regular file")
    try:
        with p.open("rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        raise InputError(f"{p}: cannot read ({exc.strerror or exc})") from None
    if magic[:2] != b"PK":
        kind = "an empty file" if not magic else ("a single .npy array" if magic == b"\x93NUM" else "not a zip archive")
        raise InputError(f"{p}: not a .npz archive ({kind}); write one with numpy.savez(path, {', '.join(f'{k}=...' for k in keys)})")
    try:
        with p.open("rb") as fh, np.load(fh, allow_pickle=False) as archive:  # our handle: closed on every error
            missing = [k for k in keys if k not in archive.files]
            if missing:
                raise InputError(
                    f"{p}: missing array(s) {', '.join(missing)} (found: {', '.join(archive.files) or 'none'})"
                )
            arrays = {k: archive[k] for k in keys}
    except InputError:
        raise
    except ValueError as exc:
        if "pickle" in str(exc):
            raise InputError(f"{p}: holds object arrays, which are not read (arrays must be numeric)") from None
        raise InputError(f"{p}: not a readable .npz archive ({exc})") from None
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise InputError(f"{p}: not a readable .npz archive ({type(exc).__name__}: {exc})") from None
    raw = [k for k, v in arrays.items() if not isinstance(v, np.ndarray)]  # numpy hands back a non-.npy member as bytes
    if raw:
        raise InputError(f"{p}: member {raw[0]}.npy of the archive is not a .npy array; write the file with numpy.savez")
    return {k: np.array(v) for k, v in arrays.items()}


OTHER_DELIMITERS = ((";", "';'"), ("\t", "tab"), ("|", "'|'"))


def _number(cell: str) -> float | None:
    """The cell as a float, or None when it is not a number: ASCII decimal or scientific notation
    (NaN / inf parse and are refused by ``_cell_value``); Python's extras ('1_000', non-ASCII digits)
    are not numbers."""
    if not cell.isascii() or "_" in cell:
        return None
    try:
        return float(cell)
    except ValueError:
        return None


def _cell_value(cell: str, lineno: int, col: int, line: str) -> float:
    """The cell's float64 value, or an InputError naming line and column: a non-numeric cell, a
    non-finite one, a finite decimal beyond float64, or a nonzero decimal that rounds to 0."""
    value = _number(cell)
    where = f"line {lineno}, column {col}"
    text = cell.strip()
    if value is None:
        raise InputError(f"{where}: non-numeric cell {text!r}" + _delimiter_hint(line))
    if not math.isfinite(value):
        if text.lstrip("+-").lower() in ("nan", "inf", "infinity"):
            raise InputError(f"{where}: non-finite value {text!r}")
        raise InputError(f"{where}: {text!r} is beyond the float64 range (> 1.8e308): rescale the data "
                         "(every verdict is scale-free)")
    if value == 0.0 and Decimal(text) != 0:
        raise InputError(f"{where}: {text!r} underflows float64 to 0 (< 4.9e-324): rescale the data "
                         "(every verdict is scale-free)")
    return value


def _delimiter_hint(line: str) -> str:
    """' (the line looks tab-separated: use commas)' when another delimiter would split it into numbers."""
    for delim, name in OTHER_DELIMITERS:
        cells = line.split(delim)
        if len(cells) > 1 and all(_number(c) is not None for c in cells):
            return f" (the line looks {name}-separated: use commas)"
    cells = line.split()
    if len(cells) > 1 and all(_number(c) is not None for c in cells):
        return " (the line looks whitespace-separated: use commas)"
    return ""


def _load_csv(p: Path) -> Dataset:
    """A CSV with the label in the last column; rules (each error names the file's line and column):

    - a UTF-8 byte-order mark is ignored; blank lines are skipped (line numbers stay the file's own);
    - the first non-blank line is a header iff NONE of its cells parses as a number; any other
      non-numeric cell is an error (never a silently dropped row);
    - a cell is an ASCII decimal whose float64 value is finite and is 0 only if the decimal is 0;
    - every row has the same number of cells, at least two (features and the label);
    - the rows obey ``first_invalid_row`` (labels +-1, no zero row, norms within float64).
    """
    try:
        text = p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{p}: not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start}); "
                         "save the CSV as UTF-8") from None
    except OSError as exc:
        raise InputError(f"{p}: cannot read ({exc.strerror or exc})") from None
    lines = [(k, line) for k, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise InputError(f"{p}: the file holds no data rows")
    first_cells = next(csv.reader([lines[0][1]]))
    if all(_number(c) is None for c in first_cells) and not _delimiter_hint(lines[0][1]):
        lines = lines[1:]
    if not lines:
        raise InputError(f"{p}: the file holds a header and no data rows")
    rows = [(lineno, [_cell_value(c, lineno, col, line) for col, c in enumerate(next(csv.reader([line])), start=1)])
            for lineno, line in lines]
    width = len(rows[0][1])
    for lineno, values in rows:
        if len(values) != width:
            raise InputError(f"{p}: line {lineno} has {len(values)} columns, expected {width}")
    if width < 2:
        raise InputError(f"{p}: line {rows[0][0]}: one column; need at least one feature column and a label column")
    table = np.array([v for _, v in rows], dtype=np.float64)
    problem = first_invalid_row(table[:, :-1], table[:, -1])
    if problem is not None:
        kind, i, reason = problem
        raise InputError(f"line {rows[i][0]}{f', column {width}' if kind == 'label' else ''}: {reason}")
    return Dataset(table[:, :-1], table[:, -1], name=p.stem)


GENERATED_PREFIX = "gen:"


def parse_generated(spec: str) -> Dataset:
    """Build an embedded dataset from ``gen:NAME[:key=value,key=value...]``.

    Example: ``gen:orthogonally_separable:n_pos=20,n_neg=20,d=10,mu=0.3,seed=0`` or ``gen:toy4``.
    """
    from verify.data.generators import make_dataset

    body = spec[len(GENERATED_PREFIX):]
    name, _, arg_text = body.partition(":")
    params: dict[str, str] = {}
    for item in filter(None, (a.strip() for a in arg_text.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InputError(f"{spec}: expected key=value, got {item!r}")
        params[key.strip()] = value.strip()
    return make_dataset(name.strip(), **params)


def load_dataset(path: str | Path) -> Dataset:
    """Load a dataset from ``.npz`` (``X``, ``y``), ``.csv`` (label last) or ``gen:NAME[:k=v,...]``."""
    if isinstance(path, str) and path.startswith(GENERATED_PREFIX):
        return parse_generated(path)
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".npz":
        arrays = load_npz_arrays(p, ("X", "y"))
        try:
            return Dataset(arrays["X"], arrays["y"], name=p.stem)
        except InputError as exc:
            raise InputError(f"{p}: {exc}") from None
    if suffix == ".csv":
        if not p.exists():
            raise InputError(f"{p}: no such file")
        try:
            return _load_csv(p)
        except InputError as exc:
            msg = str(exc)
            raise InputError(msg if msg.startswith(str(p)) else f"{p}: {msg}") from None
    raise InputError(f"{p}: unsupported data format {suffix or '(none)'!r}; use .npz or .csv")


def save_npz(path: str | Path, dataset: Dataset) -> None:
    """Write a dataset as ``.npz`` with arrays ``X`` and ``y``."""
    np.savez(Path(path), X=dataset.X, y=dataset.y)
