"""Hypothesis profiles shared by tests/ and properties/.

``ci`` (default): derandomized, no deadline, bounded examples -- the whole suite stays well
under 15 minutes on 2 cores. ``thorough``: many more examples for long audits.
Select with HYPOTHESIS_PROFILE=ci|thorough.
"""

import os

from hypothesis import HealthCheck, settings

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
