"""Executable claims: the model, the ``@claim`` decorator for user claims, and the catalogue."""

from verify.claims.decorator import claim
from verify.claims.model import Claim, Margin, measures
from verify.claims.registry import catalogue, get_claim, load_target

__all__ = ["Claim", "Margin", "catalogue", "claim", "get_claim", "load_target", "measures"]
