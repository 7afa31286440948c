"""Hypothesis profiles shared by tests/ and properties/.

``ci`` (default): derandomized, no deadline, bounded examples -- the whole suite stays well
under 15 minutes on 2 cores. ``thorough``: many more examples for long audits.
Select with HYPOTHESIS_PROFILE=ci|thorough.

First, stale numba caches under verify/ are removed (scripts/numba_cache_guard.py: numba does not invalidate a
kernel's cache when a function it calls, in another file, changes).
"""

import os
import runpy
from pathlib import Path

from hypothesis import HealthCheck, settings

runpy.run_path(str(Path(__file__).resolve().parent / "scripts" / "numba_cache_guard.py"), run_name="__main__")

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=30,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=1000,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
