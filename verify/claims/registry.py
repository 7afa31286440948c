"""The claim catalogue (``properties/``) and user-claim targets (``path/to/file.py::name``)."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

from verify.claims.model import Claim
from verify.errors import InputError

CATALOGUE_MODULES = ("properties.min2024_early_alignment",)


def catalogue() -> list[Claim]:
    """Every catalogue claim, in catalogue order (each module exposes ``CLAIMS``)."""
    claims: list[Claim] = []
    seen: set[str] = set()
    for name in CATALOGUE_MODULES:
        module = importlib.import_module(name)
        for item in module.CLAIMS:
            if item.id in seen:
                raise RuntimeError(f"duplicate claim id {item.id} in {name}")
            seen.add(item.id)
            claims.append(item)
    return claims


def get_claim(claim_id: str) -> Claim:
    """The catalogue claim with this id."""
    for item in catalogue():
        if item.id == claim_id:
            return item
    raise InputError(f"unknown claim {claim_id!r}; see 'verify list'")


def load_target(target: str) -> Claim:
    """A catalogue id, or ``path/to/file.py::name`` naming a :class:`Claim` in a user file."""
    if "::" not in target:
        return get_claim(target)
    path_text, _, name = target.rpartition("::")
    path = Path(path_text)
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    module_name = f"verify_user_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise InputError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    except Exception as exc:
        raise InputError(f"{path}: cannot import ({type(exc).__name__}: {exc})") from None
    found = getattr(module, name, None)
    if not isinstance(found, Claim):
        raise InputError(f"{path} has no claim named {name!r} (decorate a function with @verify.claim)")
    return found
