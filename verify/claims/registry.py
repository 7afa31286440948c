"""The catalogue -- every installed paper's claims (entry points ``verify.papers``) -- and user-claim
targets (``path/to/file.py::name``)."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable

from verify.claims.collect import collect
from verify.claims.model import Claim
from verify.errors import InputError
from verify.paper import ENTRY_POINT_GROUP, Paper

_PAPERS: dict[str, Paper] | None = None
_OWNERS: tuple[dict[str, Paper], dict[int, str]] | None = None  # (papers(), id(claim) -> paper id), for audit_papers
_LOADING = False  # True while the entry points are being imported (a plug-in's claims are being made)


def papers() -> dict[str, Paper]:
    """Every installed paper by id, from the entry-point group ``verify.papers`` (loaded once).

    An entry point that fails to import or does not name a :class:`Paper`, two papers with one id,
    or one claim id in two papers is an InputError naming both sides.
    """
    global _PAPERS, _LOADING
    if _PAPERS is None:
        _LOADING = True
        try:
            _PAPERS = _discover()
        finally:
            _LOADING = False
    return _PAPERS


def _discover() -> dict[str, Paper]:
    found: dict[str, tuple[Paper, str]] = {}
    owner: dict[str, str] = {}
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        where = f"entry point {ep.name!r} ({ep.value}" + (f", distribution {ep.dist.name}" if ep.dist else "") + ")"
        try:
            paper = ep.load()
        except Exception as exc:
            raise InputError(f"{where} cannot be loaded: {type(exc).__name__}: {exc}") from None
        if not isinstance(paper, Paper):
            raise InputError(f"{where} names a {type(paper).__name__}, not a verify.Paper")
        if paper.id in found:
            raise InputError(f"paper id {paper.id!r} is declared twice: {found[paper.id][1]} and {where}")
        for c in paper.claims:
            if c.id in owner:
                raise InputError(f"claim id {c.id!r} is in paper {owner[c.id]} and in paper {paper.id} ({where})")
            owner[c.id] = paper.id
        found[paper.id] = (paper, where)
    return {pid: found[pid][0] for pid in sorted(found)}


def plugin_packages() -> list[str]:
    """Top-level packages of the installed papers' entry points (e.g. "properties")."""
    return sorted({ep.value.split(":")[0].split(".")[0] for ep in entry_points(group=ENTRY_POINT_GROUP)})


def named_horizons() -> dict[str, Callable[[Any], float | None]] | None:
    """Every installed paper's named horizons (``Paper.horizons``); None while the plug-ins are being
    loaded (a plug-in's own claims are checked against its paper by :class:`Paper`). A name defined
    by two papers is an InputError naming both."""
    if _LOADING:
        return None
    out: dict[str, Callable[[Any], float | None]] = {}
    owner: dict[str, str] = {}
    for paper in papers().values():
        for name, fn in paper.horizons.items():
            if name in owner:
                raise InputError(f"horizon {name!r} is defined by paper {owner[name]} and by paper {paper.id}")
            owner[name], out[name] = paper.id, fn
    return out


def select_papers(ids: Iterable[str] | None = None) -> list[Paper]:
    """The installed papers with these ids (all when ``ids`` is empty); an unknown id lists the installed ones."""
    installed = papers()
    wanted = list(ids or ())
    unknown = [i for i in wanted if i not in installed]
    if unknown:
        raise InputError(f"unknown paper {unknown[0]!r}; installed: {', '.join(installed) or 'none'}")
    return [installed[i] for i in wanted] if wanted else list(installed.values())


def catalogue(paper_ids: Iterable[str] | None = None) -> list[Claim]:
    """Every claim of the selected papers (all installed ones by default), paper by paper."""
    return [c for paper in select_papers(paper_ids) for c in paper.claims]


def paper_of(claim_id: str) -> Paper | None:
    """The installed paper that holds this claim id (None for a user claim)."""
    return next((p for p in papers().values() if any(c.id == claim_id for c in p.claims)), None)


def audit_papers(claim: Claim) -> tuple[str, ...] | None:
    """The papers whose audit hooks a run of ``claim`` needs: its own paper (a catalogue claim reads its
    paper's quantities), or every installed paper (None) for a user claim."""
    global _OWNERS
    installed = papers()
    if _OWNERS is None or _OWNERS[0] is not installed:
        _OWNERS = (installed, {id(c): p.id for p in installed.values() for c in p.claims})
    owner = _OWNERS[1].get(id(claim))
    return None if owner is None else (owner,)


def get_claim(claim_id: str) -> Claim:
    """The catalogue claim with this id."""
    for item in catalogue():
        if item.id == claim_id:
            return item
    raise InputError(f"unknown claim {claim_id!r}; see 'verify list'")


def defined_claims(module: ModuleType) -> list[Claim]:
    """The claims ``module`` itself defines, in definition order: module-level :class:`Claim` objects (and
    lists or tuples of them) whose check function was written in that module. A claim imported from
    another module belongs to that module and is not listed again."""
    name = module.__name__
    return [c for c in collect(module) if getattr(c.check, "__module__", None) == name]


_FILES: dict[Path, list[Claim]] = {}


def load_file(path: str | Path) -> list[Claim]:
    """Every claim a user's ``.py`` file defines (:func:`defined_claims`), each with ``meta["file"]`` set
    to the file's absolute path. The file's folder goes first on ``sys.path`` (as for ``python file.py``),
    so the file may import modules beside it. A file is imported once per process; a missing file, one
    that does not import, one with no claim, or one that defines a claim id twice is an InputError."""
    resolved = Path(path).resolve()
    if resolved in _FILES:
        return _FILES[resolved]
    if not resolved.is_file():
        raise InputError(f"{path}: no such file")
    if resolved.suffix != ".py":
        raise InputError(f"{path}: not a Python file (claims are read from .py files)")
    folder = str(resolved.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    digest = hashlib.sha256(str(resolved).encode()).hexdigest()[:12]
    module_name = f"verify_user_{resolved.stem}_{digest}"
    spec = importlib.util.spec_from_file_location(module_name, resolved)
    if spec is None or spec.loader is None:
        raise InputError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except InputError as exc:
        del sys.modules[module_name]
        raise InputError(f"{path}: {exc}") from None
    except Exception as exc:
        del sys.modules[module_name]
        raise InputError(f"{path}: cannot import ({type(exc).__name__}: {exc})") from None
    claims = defined_claims(module)
    if not claims:
        raise InputError(f"{path} defines no claim (decorate a function with @verify.claim)")
    seen: dict[str, Claim] = {}
    for c in claims:
        if c.id in seen:
            raise InputError(f"{path} defines claim id {c.id!r} twice")
        seen[c.id] = c
        c.meta["file"] = str(resolved)
        c.meta["name"] = next((k for k, v in vars(module).items() if v is c), c.id)
    _FILES[resolved] = claims
    return claims


def target_of(claim: Claim) -> str:
    """The ``verify search`` target that finds this claim again: its id for a catalogue claim,
    ``path/to/file.py::id`` for a claim loaded from a user's file (the path relative to the working
    folder when it lies below it)."""
    path = claim.meta.get("file")
    return claim.id if path is None else f"{display_path(path)}::{claim.id}"


def display_path(path: str | Path) -> str:
    """``path`` relative to the working folder when it lies below it, else absolute."""
    resolved = Path(path).resolve()
    try:
        return str(resolved.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(resolved)


def load_target(target: str) -> Claim:
    """A catalogue id, or ``path/to/file.py::NAME`` where NAME is a claim id or the name the file gives the
    claim (its function's name); an unknown NAME lists the file's claims."""
    if "::" not in target:
        return get_claim(target)
    path_text, _, name = target.rpartition("::")
    claims = load_file(path_text)
    found = next((c for c in claims if c.id == name), None) or next((c for c in claims if c.meta.get("name") == name), None)
    if found is None:
        available = ", ".join(c.id if c.meta.get("name") in (None, c.id) else f"{c.id} ({c.meta['name']})"
                              for c in claims)
        raise InputError(f"{path_text} has no claim {name!r}; it defines: {available}")
    return found
