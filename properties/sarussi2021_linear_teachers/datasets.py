"""Seed 002's datasets (claim sheet 002 sections 3, 5.2 and 7), registered as the paper's ``datasets``
(``gen:symmetric_gaussians``, ``gen:outlier`` and the like).

Every builder is deterministic in its seed and returns data in the unit ball (LT-D1: ||x|| <= 1) unless it is a
planted case that breaks that on purpose. Teacher data (y = sign <w*, x> with a margin) is verify's
``linear_teacher`` generator; symmetric teacher data is ``symmetric_separable``.
"""

from __future__ import annotations

import math

import numpy as np

from verify.data import generators as gen
from verify.data.dataset import Dataset

SYMMETRIC_MEAN = (1.0, 0.5)  # sheet 3, Figure 4 / section 7 (t6_nar_par.py)
ASYMMETRIC_NEGATIVE_MEAN = (1.0, -0.75)  # sheet 5.2 P8 / P10: S- drawn from -N((1, -0.75), 0.3^2)
OUTLIER = (0.1, 1.0)  # sheet 3, Figure 9


def into_unit_ball(ds: Dataset, name: str | None = None) -> Dataset:
    """x <- x / max_j ||x_j|| (LT-D1)."""
    B = float(np.max(np.linalg.norm(ds.X, axis=1)))
    return Dataset(ds.X / B, ds.y, name=name or f"unit_ball({ds.name})")


def _gaussian_half(mean: tuple[float, ...], sigma: float, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` draws of N(mean, sigma^2 I) with <x, mean> >= ||mean||^2 / 4 (redrawn otherwise, so the class lies in an
    open half-space through the origin)."""
    m = np.asarray(mean, float)
    out: list[np.ndarray] = []
    while len(out) < count:
        x = m + sigma * rng.standard_normal(m.size)
        if x @ m >= 0.25 * (m @ m):
            out.append(x)
    return np.array(out)


def symmetric_gaussians(n_half: int = 50, sigma: float = 0.3, seed: int = 0) -> Dataset:
    """Figure 4: S+ ~ N((1, 0.5), sigma^2 I), S- = -S+ (exactly antipodal), scaled into the unit ball."""
    P = _gaussian_half(SYMMETRIC_MEAN, sigma, n_half, np.random.default_rng(seed))
    ds = Dataset(np.vstack([P, -P]), np.r_[np.ones(n_half), -np.ones(n_half)])
    return into_unit_ball(ds, f"symmetric_gaussians(n_half={n_half}, sigma={sigma:g}, seed={seed})")


def asymmetric_gaussians(n_half: int = 50, sigma: float = 0.3, seed: int = 0) -> Dataset:
    """P8 / P10: S+ ~ N((1, 0.5), sigma^2 I), S- = -N((1, -0.75), sigma^2 I), scaled into the unit ball (separable
    through the origin for the seeds used: checked by the claims, not assumed)."""
    rng = np.random.default_rng(seed)
    P = _gaussian_half(SYMMETRIC_MEAN, sigma, n_half, rng)
    N = -_gaussian_half(ASYMMETRIC_NEGATIVE_MEAN, sigma, n_half, rng)
    ds = Dataset(np.vstack([P, N]), np.r_[np.ones(n_half), -np.ones(n_half)])
    return into_unit_ball(ds, f"asymmetric_gaussians(n_half={n_half}, sigma={sigma:g}, seed={seed})")


def outlier(n_half: int = 50, sigma: float = 0.2, seed: int = 0, x: float = OUTLIER[0], y: float = OUTLIER[1]) -> Dataset:
    """Figure 9 (App. J): S+ ~ N((1, 0), sigma^2 I), S- = -S+, plus the positive outlier (x, y) (the sheet's guess
    (0.1, 1.0) by default; the paper's position was lost); unit ball."""
    P = _gaussian_half((1.0, 0.0), sigma, n_half, np.random.default_rng(seed))
    X = np.vstack([P, -P, np.array([[x, y]])])
    ds = Dataset(X, np.r_[np.ones(n_half), -np.ones(n_half), 1.0])
    return into_unit_ball(ds, f"outlier(n_half={n_half}, sigma={sigma:g}, seed={seed}, at=({x:g}, {y:g}))")


def teacher(n: int = 20, d: int = 2, margin: float = 0.1, seed: int = 0) -> Dataset:
    """LT-D1 data: y = sign <w*, x>, ||x|| <= 1, y <w*/margin, x> >= 1 (verify's linear_teacher)."""
    return gen.linear_teacher(n, d, margin, seed=seed)


def symmetric_teacher(n_half: int = 10, d: int = 2, margin: float = 0.1, seed: int = 0) -> Dataset:
    """Antipodal teacher data (Lemma 6.1's hypothesis; verify's symmetric_separable)."""
    return gen.symmetric_separable(n_half, d, margin, seed=seed)


def relu_stuck() -> Dataset:
    """P4: X = {(+-0.5, 0.8), (+-0.3, 0.9)}, y = sign(x_1)."""
    X = np.array([[0.5, 0.8], [-0.5, 0.8], [0.3, 0.9], [-0.3, 0.9]])
    return Dataset(X, np.sign(X[:, 0]), name="relu_stuck (P4)")


def affine_only() -> Dataset:
    """P13: {(1, -1), (2, +1)} in 1-D: affinely but not homogeneously separable (N(2) = 2 N(1))."""
    return Dataset(np.array([[1.0], [2.0]]), np.array([-1.0, 1.0]), name="affine_only (P13)")


def bias_augmented(ds: Dataset) -> Dataset:
    """App. K: x~ = (x, 1) / sqrt 2 (||x~|| <= 1 when ||x|| <= 1)."""
    X = np.hstack([ds.X, np.ones((ds.n, 1))]) / math.sqrt(2.0)
    return Dataset(X, ds.y, name=f"bias_augmented({ds.name})")


def large_norm(ds: Dataset, scale: float = 10.0) -> Dataset:
    """P5: the data times ``scale`` (||x|| up to ``scale``: LT-D1 broken on purpose)."""
    return Dataset(scale * ds.X, ds.y, name=f"{scale:g} x {ds.name}")


DATASETS = {"symmetric_gaussians": symmetric_gaussians, "asymmetric_gaussians": asymmetric_gaussians,
            "outlier": outlier, "teacher": teacher, "symmetric_teacher": symmetric_teacher, "relu_stuck": relu_stuck,
            "affine_only": affine_only}
