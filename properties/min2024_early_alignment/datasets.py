"""Seed 004's own datasets (claim sheet sections 3.2, 4.3-4.5 and the planted P1), registered as the
paper's ``datasets`` (``gen:toy4`` and the like on the command line)."""

from __future__ import annotations

import math

from verify.data.dataset import Dataset
from verify.data.generators import angular, in_range


def toy_2d() -> Dataset:
    """Our offline stand-in for 004 App. A.1 / Fig. 6 (sheet 4.3; the paper gives only a picture).

    Unit points: +1 at angles {0.35, 0.45, 0.55} rad, -1 at {pi-0.4, pi-0.5, pi-0.6}. All lie in
    the upper half-plane, so (0, -1) is in S_dead; ``mu = cos(0.55 + 0.6) = cos(1.15) ~ 0.4085``.
    """
    return angular([0.35, 0.45, 0.55], [math.pi - 0.4, math.pi - 0.5, math.pi - 0.6], "toy_2d")


def toy4(a: float = 0.3) -> Dataset:
    """Sheet 004 section 3.2 ``toy4``: (cos a, +-sin a) label +1 and (-cos a, +-sin a) label -1.

    Unit norms; ``mu = cos(2a)`` (positive iff a < pi/4), ``x+ = (2 cos a, 0) = -x-``, S_dead = {0}.
    """
    a = in_range("a", a, 0.0, 0.5 * math.pi, lo_open=True, hi_open=True)
    return angular([a, -a], [math.pi - a, math.pi + a], f"toy4(a={a!r})")


def two_point(mu: float) -> Dataset:
    """004 App. A.2 (sheet 4.4): two positive points x1 = (1, 0), x2 = (mu, sqrt(1 - mu^2)).

    Both labels +1, unit norms, ``cos(x1, x2) = mu`` (the paper uses mu = sin(0.1) and sin(0.001),
    i.e. x2 = (sin t, cos t)). Any mu in [-1, 1] is accepted; mu <= 0 violates Assumption 1.
    """
    mu = in_range("mu", mu, -1.0, 1.0, lo_open=False, hi_open=False)
    X = [[1.0, 0.0], [mu, math.sqrt(1.0 - mu * mu)]]
    return Dataset(X, [1.0, 1.0], name=f"two_point(mu={mu!r})")


def orthogonal_pair() -> Dataset:
    """004 App. A.3 (sheet 4.5, planted P6): x1 = (1, 0), x2 = (0, 1), both +1; mu = 0 exactly."""
    return Dataset([[1.0, 0.0], [0.0, 1.0]], [1.0, 1.0], name="orthogonal_pair")


def planted_p1a() -> Dataset:
    """Sheet 004 section 5 P1(a), same-label obtuse pair: x1 = (1, 0), x2 = (-1.5, 3), both +1; mu = -1/sqrt(5)."""
    return Dataset([[1.0, 0.0], [-1.5, 3.0]], [1.0, 1.0], name="planted_p1a")


def planted_p1b() -> Dataset:
    """Sheet 004 section 5 P1(b), cross-class acute pair: x1 = (1, 0) (+1), x3 = (1, 1) (-1); mu = -1/sqrt(2)."""
    return Dataset([[1.0, 0.0], [1.0, 1.0]], [1.0, -1.0], name="planted_p1b")


DATASETS = {"toy_2d": toy_2d, "toy4": toy4, "two_point": two_point, "orthogonal_pair": orthogonal_pair,
            "planted_p1a": planted_p1a, "planted_p1b": planted_p1b}
