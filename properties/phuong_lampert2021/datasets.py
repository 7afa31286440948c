"""Seed 000's datasets (claim sheet 000 sections 1.1, 4.6, 5.6 and 7) and the Hypothesis strategies of
static cases drawn from them, registered as the paper's ``datasets`` (``gen:pl_fixture`` and the like).

Families of orthogonally separable (OS) data, eq. (1): same-label products > 0, opposite-label <= 0.

- ``orthant``: positives |g| + shift, negatives -|g'| - shift, then a random rotation (sheet 4.6 (i));
- ``sparse``: small integers, positives >= 0 and negatives <= 0 with disjoint supports in places, so some
  cross-class products are exactly 0 (sheet 4.6 (iv), the non-generic zero entries of eqs. (13)-(14));
- ``span``: d support points per class near the axes (H-SPAN by construction) plus extra points beyond
  the margin (sheet 4.6 (ii)).
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from verify.data.dataset import Dataset
from verify.scenarios import SEEDS
from verify.strategies import GeometryCase


def _u(deg: float) -> list[float]:
    a = math.radians(deg)
    return [math.cos(a), math.sin(a)]


def fixture() -> Dataset:
    """Sheet 000 section 7: d = 3, n = 9 (4 positives, 5 negatives); w+ = (5/6)(1, 1, 1), supports x1..x3 and x5..x7."""
    X = [[1, .1, .1], [.1, 1, .1], [.1, .1, 1], [3, .5, .2],
         [-1, -.2, -.1], [-.3, -1, -.2], [-.1, -.4, -1], [-.5, -2, -.5], [-.2, -1.5, -2.5]]
    return Dataset(X, [1, 1, 1, 1, -1, -1, -1, -1, -1], name="pl_fixture")


def pc1() -> Dataset:
    """Sheet 5.6 PC1 (within-class obtuse pair, not OS): + at u(0), u(120); - at u(225), u(240)."""
    return Dataset([_u(0), _u(120), _u(225), _u(240)], [1, 1, -1, -1], name="pl_pc1")


def pc2() -> Dataset:
    """Sheet 5.6 PC2 (cross-class acute pair, not OS): + at u(0), u(80); - at u(120), u(135)."""
    return Dataset([_u(0), _u(80), _u(120), _u(135)], [1, 1, -1, -1], name="pl_pc2")


def pc12() -> Dataset:
    """Sheet 5.6 PC12 (rational, OS, violates H-SPAN): the negative (0, 0, -1) is orthogonal to both positives."""
    return Dataset([[1, 0, 0], [1, 1, 0], [0, 0, -1], [-1, -1, -1]], [1, 1, -1, -1], name="pl_pc12")


def orthant_counterexample() -> Dataset:
    """Sheet 1.1 (c): OS in d = 2 with + at 10 and 80 degrees and - at 175 degrees, which is not in the third quadrant."""
    return Dataset([_u(10), _u(80), _u(175)], [1, 1, -1], name="pl_orthants")


def ascent_gap() -> Dataset:
    """Our witness of the gap in Lemma 2's proof (sheet PL-L2): OS, the two negatives (1, 1/10) and (1, -1) have
    opposite projections on e1^perp, the positive (-1, 0) is inactive at w = e1 (G(e1) < 0)."""
    return Dataset([[-1.0, 0.0], [1.0, 0.1], [1.0, -1.0]], [1, -1, -1], name="pl_ascent_gap")


def orthant(n_pos: int, n_neg: int, d: int, *, seed: int, shift: float = 0.2) -> Dataset:
    """Sheet 4.6 (i): positives |g| + shift, negatives -|g'| - shift, rotated by a random orthogonal Q (OS kept)."""
    rng = np.random.default_rng(seed)
    P = np.abs(rng.standard_normal((n_pos, d))) + shift
    N = -np.abs(rng.standard_normal((n_neg, d))) - shift
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    return Dataset(np.vstack([P, N]) @ Q.T, np.r_[np.ones(n_pos), -np.ones(n_neg)],
                   name=f"pl_orthant(n_pos={n_pos}, n_neg={n_neg}, d={d}, seed={seed})")


def sparse(n_pos: int, n_neg: int, d: int, *, seed: int) -> Dataset:
    """Sheet 4.6 (iv): integers, positives >= 0 with x_0 >= 1, negatives <= 0 with x_{d-1} <= -1, zeros elsewhere at
    random, so cross-class products are <= 0 and exactly 0 where supports are disjoint (OS, exact zeros)."""
    rng = np.random.default_rng(seed)
    P = rng.integers(0, 3, size=(n_pos, d)) * (rng.random((n_pos, d)) < 0.5)
    N = -rng.integers(0, 3, size=(n_neg, d)) * (rng.random((n_neg, d)) < 0.5)
    P[:, 0] = rng.integers(1, 4, size=n_pos)
    N[:, -1] = -rng.integers(1, 4, size=n_neg)
    if d > 1:
        N[:, 0] = np.where(rng.random(n_neg) < 0.5, 0, N[:, 0])
    return Dataset(np.vstack([P, N]).astype(float), np.r_[np.ones(n_pos), -np.ones(n_neg)],
                   name=f"pl_sparse(n_pos={n_pos}, n_neg={n_neg}, d={d}, seed={seed})")


def span(extra_pos: int, extra_neg: int, d: int, *, seed: int) -> Dataset:
    """Sheet 4.6 (ii): per class d support points e_k + 0.3 |noise| (their min-norm solution has every
    multiplier positive for small noise, so they span R^d), plus extra points scaled beyond the margin."""
    rng = np.random.default_rng(seed)
    parts, labels = [], []
    for label, extra in ((1.0, extra_pos), (-1.0, extra_neg)):
        S = np.eye(d) + 0.3 * np.abs(rng.standard_normal((d, d))) / d
        w = np.linalg.solve(S, np.ones(d))
        E = np.abs(rng.standard_normal((extra, d))) + 0.1
        E *= (1.2 + rng.random(extra))[:, None] / (E @ w)[:, None]
        parts.append(label * np.vstack([S, E]))
        labels += [label] * (d + extra)
    return Dataset(np.vstack(parts), labels, name=f"pl_span(extra_pos={extra_pos}, extra_neg={extra_neg}, d={d}, seed={seed})")


DATASETS = {"pl_fixture": fixture, "pl_pc1": pc1, "pl_pc2": pc2, "pl_pc12": pc12, "pl_orthants": orthant_counterexample,
            "pl_ascent_gap": ascent_gap, "pl_orthant": orthant, "pl_sparse": sparse, "pl_span": span}

FAMILIES = ("orthant", "sparse", "span")


@st.composite
def os_cases(draw: st.DrawFn, d: tuple[int, int] = (2, 4), n_side: tuple[int, int] = (1, 4),
             families: tuple[str, ...] = FAMILIES) -> GeometryCase:
    """An OS dataset of one of :data:`FAMILIES` (sizes per class in ``n_side``; ``span`` adds 0-2 extra points
    per class to its d supports) and a seed for the check's random vectors."""
    family = draw(st.sampled_from(families))
    dim = draw(st.integers(d[0], d[1]))
    seed = draw(SEEDS)
    if family == "span":
        params = {"extra_pos": draw(st.integers(0, 2)), "extra_neg": draw(st.integers(0, 2)), "d": dim, "seed": seed}
        ds = span(**params)
    else:
        params = {"n_pos": draw(st.integers(*n_side)), "n_neg": draw(st.integers(*n_side)), "d": dim, "seed": seed}
        ds = (orthant if family == "orthant" else sparse)(**params)
    return GeometryCase(ds, draw(SEEDS), {"data": family, **params})


def fixed_cases(*builders) -> st.SearchStrategy[GeometryCase]:
    """Cases on the named fixed datasets (planted counterexamples), with a seed for the check's random vectors."""
    return st.builds(lambda b, seed: GeometryCase(b(), seed, {"data": b().name}), st.sampled_from(builders), SEEDS)
