"""A paper's claim list, collected from its modules (never listed by hand)."""

from __future__ import annotations

from types import ModuleType

from verify.claims.model import Claim


def collect(module: ModuleType) -> list[Claim]:
    """The claims ``module`` defines, in definition order: every module-level :class:`Claim` and every
    claim in a module-level list or tuple (claims built in a loop), each once."""
    found: dict[int, Claim] = {}
    for value in vars(module).values():
        for item in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(item, Claim):
                found.setdefault(id(item), item)
    return list(found.values())


def assemble(modules: tuple[ModuleType, ...]) -> list[Claim]:
    """The claims of ``modules`` in their order, each module's by :func:`collect`; a claim found in two
    modules (one imports it from the other) is an error, so every claim is listed once, where it is defined."""
    owner: dict[int, str] = {}
    claims: list[Claim] = []
    for module in modules:
        for claim in collect(module):
            if id(claim) in owner:
                raise ValueError(f"claim {claim.id} is found in {owner[id(claim)]} and in {module.__name__}: "
                                 "import modules, not claims")
            owner[id(claim)] = module.__name__
            claims.append(claim)
    return claims
