"""scripts/numba_cache_guard.py: numba's caches are dropped exactly when a compiled module's source changed."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

GUARD = runpy.run_path(str(Path(__file__).resolve().parents[1] / "scripts" / "numba_cache_guard.py"))


def _tree(tmp_path: Path) -> tuple[Path, Path, list[Path]]:
    root = tmp_path / "pkg"
    (root / "__pycache__").mkdir(parents=True)
    (root / "kernel.py").write_text("import numba\n\n@numba.njit(cache=True)\ndef f(x):\n    return x\n")
    (root / "plain.py").write_text("X = 1\n")
    caches = [root / "__pycache__" / "kernel.f-4.py311.nbi", root / "__pycache__" / "kernel.f-4.py311.1.nbc"]
    return root, root / "__pycache__" / "stamp", caches


def _make(caches: list[Path]) -> None:
    for path in caches:
        path.write_bytes(b"cached")


def test_caches_survive_until_a_compiled_source_changes(tmp_path):
    root, stamp, caches = _tree(tmp_path)
    _make(caches)
    assert GUARD["guard"](root, stamp)  # no stamp yet: whatever is cached is of unknown sources
    assert not any(p.exists() for p in caches) and stamp.exists()
    _make(caches)
    assert not GUARD["guard"](root, stamp)  # same sources: kept
    assert all(p.exists() for p in caches)
    (root / "plain.py").write_text("X = 2\n")  # not a numba module: kept
    assert not GUARD["guard"](root, stamp) and all(p.exists() for p in caches)
    (root / "kernel.py").write_text((root / "kernel.py").read_text() + "\n# edited\n")
    assert GUARD["guard"](root, stamp)
    assert not any(p.exists() for p in caches)


def test_the_repository_stamp_matches_its_sources():
    """The root conftest ran the guard for this session: the stamp describes the current sources."""
    if not GUARD["STAMP"].exists():
        pytest.skip("read-only checkout: no stamp (and no numba cache) can be written")
    assert GUARD["STAMP"].read_text(encoding="ascii").strip() == GUARD["sources_hash"]()
