"""Claim-definition hashes and the *obsolete* marking of re-rendered reports.

Every claim entry of ``report.json`` carries ``definition_hash``: the SHA-256 of what defines
the claim (id, source, statement, expected verdict, checked and assumed hypotheses, horizon,
tolerances, backend) together with the source code of its check function, precondition and
direct runner (and of the functions those close over, so a symbolic claim's hash changes when
its sympy procedure does). Source code is read with :func:`inspect.getsource` where available
and falls back to the function's qualified name.

``verify report --from report.json`` re-renders a stored report; :func:`mark_obsolete`
compares the stored hashes with the current catalogue and the stored tool version with the
installed one. An entry is **obsolete** when its claim's definition changed, when the claim
is no longer in the catalogue, when the entry has no hash (a report older than version 1.1),
when the engine it ran through changed, or when the tool version changed (then every entry is
obsolete). Obsolete entries get an ``obsolete`` object ``{"reason": ...}``; the summary gets
``obsolete`` (a count) and ``no_engine_hash`` (entries from before engine hashes, version 1.2).

``engine_hash`` is the SHA-256 of the source files of the engine modules a claim runs through:
the static import closure (every ``import`` in a module's source, function bodies included) of
:mod:`verify.search` and of the modules that define the claim's check, precondition and runner,
restricted to ``verify`` and without its presentation layers (``verify.report``, ``verify.cli``).
The closure over-approximates what ran (a change can mark a result obsolete that it did not
affect) but never misses a module the claim used.
"""

from __future__ import annotations

import ast
import copy
import dis
import hashlib
import inspect
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

_MAX_DEPTH = 2


def _source_of(fn: Any) -> str:
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):
        return f"<{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', type(fn).__name__)}>"


_OWN_PACKAGES = ("verify", "properties")


def _own(obj: Any) -> bool:
    module = getattr(obj, "__module__", None) or getattr(obj, "__name__", "")
    return isinstance(module, str) and module.split(".")[0] in _OWN_PACKAGES


def _codes(code: Any) -> Iterable[Any]:
    """A code object and the code objects nested in it (lambdas, comprehensions, inner functions)."""
    yield code
    for const in code.co_consts:
        if inspect.iscode(const):
            yield from _codes(const)


def _referenced(fn: Any) -> Iterable[Any]:
    """Project functions a function names through its globals, read from its bytecode: ``helper(...)``
    (a global function) and ``module.helper(...)`` (a global own module followed by that attribute),
    in its own code and the code nested in it. Only what the code names is followed."""
    code = getattr(fn, "__code__", None)
    glob = getattr(fn, "__globals__", None)
    if code is None or glob is None:
        return
    for inner in _codes(code):
        instructions = list(dis.get_instructions(inner))
        for k, ins in enumerate(instructions):
            if ins.opname != "LOAD_GLOBAL":
                continue
            value = glob.get(ins.argval)
            if inspect.isfunction(value) and _own(value):
                yield value
            elif inspect.ismodule(value) and _own(value) and k + 1 < len(instructions):
                nxt = instructions[k + 1]
                if nxt.opname in ("LOAD_ATTR", "LOAD_METHOD"):
                    attr = getattr(value, nxt.argval, None)
                    if inspect.isfunction(attr) and _own(attr):
                        yield attr


def _callables(fn: Any, depth: int = 0) -> Iterable[Any]:
    """fn, the functions it closes over (and their ``check``/``run`` attributes) and the project
    functions it calls by global name, a few levels deep."""
    if fn is None:
        return
    yield fn
    if depth >= _MAX_DEPTH:
        return
    for value in _referenced(fn):
        yield from _callables(value, depth + 1)
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # empty cell
            continue
        if callable(value) and hasattr(value, "__code__"):
            yield from _callables(value, depth + 1)
        else:
            for name in ("check", "run"):
                attr = getattr(value, name, None)
                if callable(attr) and hasattr(attr, "__code__"):
                    yield from _callables(attr, depth + 1)


def _code_sources(claim: Any) -> list[str]:
    seen: set[int] = set()
    out: list[str] = []
    for fn in (getattr(claim, "check", None), getattr(claim, "precondition", None), getattr(claim, "runner", None)):
        for item in _callables(fn):
            code = getattr(item, "__code__", None) or getattr(getattr(item, "__func__", None), "__code__", None)
            key = id(code) if code is not None else id(item)
            if key in seen:
                continue
            seen.add(key)
            out.append(_source_of(item))
    return out


def definition_hash(claim: Any) -> str:
    """SHA-256 (hex) of a :class:`verify.claims.Claim`'s definition and its check code."""
    horizon = claim.horizon
    doc = {
        "id": claim.id,
        "source": claim.source,
        "statement": claim.statement,
        "expected": str(claim.expected),
        "assumptions": list(claim.assumptions),
        "assumed": list(claim.assumed),
        "horizon": horizon if isinstance(horizon, (int, float, str)) or horizon is None else _source_of(horizon),
        "rtol": claim.rtol,
        "samples": claim.samples,
        "backend": claim.backend,
        "form": claim.form,
        "min_examples": claim.min_examples,
        "depends_on": list(claim.depends_on),
        "code": _code_sources(claim),
    }
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()


_VERIFY_DIR = Path(__file__).resolve().parents[1]
_NOT_ENGINE = ("verify.report", "verify.cli")


def _module_file(name: str) -> Path | None:
    """The source file of a ``verify`` module or package (None: not one, or outside the engine)."""
    if not (name == "verify" or name.startswith("verify.")) or any(name == p or name.startswith(p + ".") for p in _NOT_ENGINE):
        return None
    base = _VERIFY_DIR.joinpath(*name.split(".")[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


@lru_cache(maxsize=None)
def _imports(name: str) -> tuple[str, ...]:
    """The engine modules ``name`` imports anywhere in its source (and its parent packages)."""
    path = _module_file(name)
    if path is None:
        return ()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    parents = {".".join(m.split(".")[:k]) for m in found for k in range(1, m.count(".") + 1)}
    return tuple(sorted(m for m in found | parents if _module_file(m) is not None))


def _closure(roots: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    todo = [r for r in roots if _module_file(r) is not None]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(_imports(name))
    return sorted(seen)


@lru_cache(maxsize=None)
def _file_hash(name: str) -> str:
    path = _module_file(name)
    return hashlib.sha256(path.read_bytes()).hexdigest() if path is not None else ""


def engine_modules(claim: Any) -> list[str]:
    """The engine modules a claim runs through (see the module docstring), sorted."""
    roots = {"verify.search"}
    for fn in (getattr(claim, "check", None), getattr(claim, "precondition", None), getattr(claim, "runner", None)):
        module = getattr(fn, "__module__", None)
        if isinstance(module, str):
            roots.add(module)
            roots.update(_external_imports(module))
    return _closure(roots)


def _external_imports(module: str) -> tuple[str, ...]:
    """The ``verify`` modules a claim's own module (a paper's, or a user's file) imports."""
    import sys

    mod = sys.modules.get(module)
    try:
        tree = ast.parse(inspect.getsource(mod)) if mod is not None else None
    except (OSError, TypeError, SyntaxError):
        tree = None
    if tree is None:
        return ()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return tuple(n for n in names if _module_file(n) is not None)


def engine_hash(claim: Any) -> str:
    """SHA-256 (hex) of the source files of :func:`engine_modules` (names and contents)."""
    doc = [(name, _file_hash(name)) for name in engine_modules(claim)]
    return hashlib.sha256(json.dumps(doc).encode()).hexdigest()


def engine_module_hashes() -> dict[str, str]:
    """Every engine module -> the first 16 hex digits of its source's SHA-256 (stored as ``tool.engine``)."""
    names = []
    for path in sorted(_VERIFY_DIR.rglob("*.py")):
        parts = path.relative_to(_VERIFY_DIR.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if _module_file(name) is not None:
            names.append(name)
    return {name: _file_hash(name)[:16] for name in names}


def mark_obsolete(report: dict[str, Any], claims: Iterable[Any] | None = None, tool_version: str | None = None,
                  hasher: Callable[[Any], str] = definition_hash) -> dict[str, Any]:
    """A copy of ``report`` with obsolete entries flagged against ``claims`` (default: the catalogue).

    ``tool_version`` defaults to the installed ``verify.__version__``. Adds ``entry["obsolete"]``
    (``{"reason": ...}``) to every obsolete entry, removes stale flags from current ones, and
    sets ``summary["obsolete"]`` to the count and ``summary["rerendered_against"]`` to the
    version compared with.
    """
    if claims is None:
        from verify.claims import catalogue

        claims = catalogue()
    if tool_version is None:
        from verify import __version__ as tool_version
    current = {c.id: c for c in claims}
    hashes: dict[str, str] = {}
    out = copy.deepcopy(report)
    stored_version = (out.get("tool") or {}).get("version")
    version_changed = stored_version != tool_version
    stored_modules = (out.get("tool") or {}).get("engine") or {}
    now_modules = engine_module_hashes() if stored_modules else {}
    count = no_engine = 0
    for entry in out.get("claims", []):
        entry.pop("obsolete", None)
        reasons = []
        if version_changed:
            reasons.append(f"tool version changed ({stored_version} -> {tool_version})")
        claim = current.get(entry.get("id"))
        if claim is None:
            reasons.append("claim no longer in the catalogue")
        else:
            stored = entry.get("definition_hash")
            if stored is None:
                reasons.append("no definition hash stored (report predates definition hashes)")
            else:
                now = hashes.setdefault(claim.id, hasher(claim))
                if now != stored:
                    reasons.append("claim definition changed since this result was computed")
            if entry.get("engine_hash") is None:
                no_engine += 1
            elif entry["engine_hash"] != engine_hash(claim):
                changed = [m for m in engine_modules(claim) if stored_modules.get(m) != now_modules.get(m)]
                reasons.append("engine changed since this result was computed"
                               + (f" ({', '.join(changed[:6])}{', ...' if len(changed) > 6 else ''})" if changed else ""))
        if reasons:
            entry["obsolete"] = {"reason": "; ".join(reasons)}
            count += 1
    summary = out.setdefault("summary", {})
    summary["obsolete"] = count
    summary["no_engine_hash"] = no_engine
    summary["rerendered_against"] = tool_version
    return out
