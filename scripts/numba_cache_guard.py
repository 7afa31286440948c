"""Drop numba's on-disk caches under verify/ when the source of any compiled module changed.

numba's cache (``@numba.njit(cache=True)``: ``__pycache__/*.nbi`` / ``*.nbc`` beside each source file) is
invalidated by the function's own source file only: a cached kernel keeps the callees it compiled in from other
files as they were when it was cached (numba PR #8396, "Extend cache invalidation to include changes in other
files", is not merged). After an edit to ``field_jit.py``, ``rk_jit`` and ``loop_jit`` would go on running the old
field. This script hashes the sources of every module under verify/ that uses numba and, when the hash differs from
the one stored with the caches, removes all numba cache files under verify/. A fresh clone or an installed
upgrade has no stale cache; ``make check / test / reference / bench`` and the root conftest.py run this first.

    python scripts/numba_cache_guard.py
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "verify"
STAMP = ROOT / "dynamics" / "__pycache__" / "numba-sources.sha256"


def sources_hash(root: Path = ROOT) -> str:
    """SHA-256 over the paths and contents of the modules under ``root`` that use numba, in path order."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        text = path.read_bytes()
        if b"numba" in text:
            digest.update(str(path.relative_to(root)).encode() + b"\0" + text)
    return digest.hexdigest()


def guard(root: Path = ROOT, stamp: Path = STAMP) -> bool:
    """Remove the numba caches under ``root`` if its compiled sources changed since ``stamp`` was written (or there is
    no stamp); True if some cache file was removed."""
    now = sources_hash(root)
    try:
        if stamp.read_text(encoding="ascii").strip() == now:
            return False
    except OSError:
        pass
    stale = [p for pattern in ("*.nbi", "*.nbc") for p in root.rglob(pattern)]
    for path in stale:
        path.unlink(missing_ok=True)
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(now + "\n", encoding="ascii")
    except OSError:  # a read-only checkout: nothing cached there either
        pass
    return bool(stale)


if __name__ == "__main__":
    guard()
