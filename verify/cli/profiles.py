"""Search budgets per profile: ``ci`` (bounded, for CI and the default report) and ``thorough``."""

from __future__ import annotations

from verify.errors import InputError

PROFILES = {"ci": 12, "thorough": 200}


def budget_for(profile: str, claim_budget: dict[str, int] | None = None) -> int:
    """Examples per claim for the profile (a claim may set its own per-profile budget in ``meta``)."""
    if profile not in PROFILES:
        raise InputError(f"unknown profile {profile!r}; choose one of {', '.join(PROFILES)}")
    if claim_budget and profile in claim_budget:
        return int(claim_budget[profile])
    return PROFILES[profile]
