"""Readers for ``.npz`` (arrays ``X``, ``y``) and ``.csv`` (label in the last column)."""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

import numpy as np

from verify.data.dataset import Dataset
from verify.errors import InputError


def load_npz_arrays(path: str | Path, keys: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Read the named arrays from an ``.npz`` archive, with one-line errors for every failure."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file")
    if not p.is_file():
        raise InputError(f"{p}: not a regular file")
    try:
        with np.load(p, allow_pickle=False) as archive:
            missing = [k for k in keys if k not in archive.files]
            if missing:
                raise InputError(
                    f"{p}: missing array(s) {', '.join(missing)} (found: {', '.join(archive.files) or 'none'})"
                )
            return {k: np.array(archive[k]) for k in keys}
    except InputError:
        raise
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise InputError(f"{p}: not a readable .npz archive ({type(exc).__name__}: {exc})") from None


def _load_csv(p: Path) -> Dataset:
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{p}: cannot read ({type(exc).__name__}: {exc})") from None
    rows = [r for r in csv.reader(text.splitlines()) if r and any(c.strip() for c in r)]
    if not rows:
        raise InputError(f"{p}: the file holds no data rows")

    def parse(row: list[str], lineno: int) -> list[float] | None:
        out = []
        for col, cell in enumerate(row, start=1):
            try:
                out.append(float(cell))
            except ValueError:
                if lineno == 1:
                    return None  # a header line
                raise InputError(f"{p}: line {lineno}, column {col}: non-numeric cell {cell.strip()!r}") from None
        return out

    parsed = []
    for lineno, row in enumerate(rows, start=1):
        values = parse(row, lineno)
        if values is not None:
            parsed.append((lineno, values))
    if not parsed:
        raise InputError(f"{p}: the file holds no data rows")
    width = len(parsed[0][1])
    for lineno, values in parsed:
        if len(values) != width:
            raise InputError(f"{p}: line {lineno} has {len(values)} columns, expected {width}")
    if width < 2:
        raise InputError(f"{p}: need at least one feature column and a label column")
    table = np.array([v for _, v in parsed], dtype=np.float64)
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
