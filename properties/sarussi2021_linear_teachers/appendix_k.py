"""Claim sheet 002 section 2.6, Appendix K (LT-K): x~ = (x, 1)/sqrt 2 keeps ||x~|| <= 1, makes P13's affine-only data
separable through the origin, and no augmented dataset is antipodal (Lemma 6.1's hypothesis fails, Theorem 6.2's
hypothesis 4 must be checked). Each is paired with a planted claim on the same check (no 1/sqrt 2, the data before
augmentation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.margins import max_margin
from verify.scenarios import SEEDS

from properties.sarussi2021_linear_teachers import datasets as D
from properties.sarussi2021_linear_teachers._shared import exact_margin
from properties.sarussi2021_linear_teachers.quantities import antipodal_mismatch, data_radius
from properties.sarussi2021_linear_teachers.appendix_e import (ANTIPODAL_TOL, U_ROUND, planted_claim, static_claim,
                                                               teacher_data)


# ---------------------------------------------------------------- Appendix K: bias by augmentation

@dataclass(frozen=True)
class AugmentCase:
    """Data (X, y) and the augmentation scale: x~ = (x, 1) * scale (the paper's 1/sqrt 2, planted 1), or none."""

    X: np.ndarray
    y: np.ndarray
    scale: float | None


def augmented(case: AugmentCase) -> np.ndarray:
    """x~ = (x, 1) * scale (datasets.bias_augmented at scale 1/sqrt 2); the raw X where scale is None."""
    ds = Dataset(case.X, case.y)
    if case.scale is None:
        return ds.X
    return D.bias_augmented(ds).X * (math.sqrt(2.0) * case.scale)


@st.composite
def ball_cases(draw: st.DrawFn, scale: float = 1.0 / math.sqrt(2.0)) -> AugmentCase:
    ds = draw(teacher_data())
    return AugmentCase(ds.X, ds.y, scale)


@measures("1 - max_j ||x~_j|| (units of ||x||)")
def augmented_norm_margin(case: AugmentCase) -> Margin:
    """LT-K (a): 1 - max_j ||x~_j|| on data with ||x_j|| <= 1."""
    top = data_radius(augmented(case))
    return Margin(1.0 - top, 8.0 * U_ROUND, f"max ||x~|| = {top:.12g} (max ||x|| = {data_radius(case.X):.6g})")


KA = static_claim(
    "Appendix K (LT-K), caveat (a)",
    id="LT-Ka", node="K", uses=("D1",),
    statement="x~ = (x, 1)/sqrt 2 keeps the data in the unit ball: ||x~|| <= 1 when ||x|| <= 1",
    check=augmented_norm_margin, over=ball_cases(), assumptions=("LT-D1",),
)

KA_UNSCALED = planted_claim(
    "Appendix K (LT-K), caveat (a), planted: no 1/sqrt 2",
    id="LT-Ka-unscaled", node="K", uses=("D1",),
    statement="PLANTED: x~ = (x, 1) keeps the data in the unit ball (||x~|| = sqrt(||x||^2 + 1) > 1)",
    check=augmented_norm_margin, over=ball_cases(1.0), assumptions=("LT-D1",),
)


@st.composite
def affine_only_cases(draw: st.DrawFn, scale: float | None = 1.0 / math.sqrt(2.0)) -> AugmentCase:
    """P13 ({(1, -1), (2, +1)}) or 1-D data on (0, 1] labelled by a threshold: affinely but not homogeneously
    separable (every x > 0 gets the sign of N(1))."""
    if draw(st.booleans()):
        ds = D.affine_only()
        return AugmentCase(ds.X, ds.y, scale)
    rng = np.random.default_rng(draw(SEEDS))
    cut, n = draw(st.sampled_from((0.3, 0.5, 0.7))), draw(st.integers(2, 8))
    x = np.r_[cut - rng.uniform(0.05, cut - 0.05, 1), cut + rng.uniform(0.05, 1.0 - cut, 1),
              rng.uniform(0.05, 1.0, n - 2)]
    x = x[np.abs(x - cut) > 1e-3]
    return AugmentCase(x[:, None], np.where(x > cut, 1.0, -1.0), scale)


@measures("+1 separable through 0 (w_svm re-checked exactly) / -1 not (solver infeasible or the re-check fails)")
def separable_margin(case: AugmentCase) -> Margin:
    """LT-K (b): the (augmented) data are separable through the origin: +1 when verify's max-margin solver returns w_svm
    and y_j <w_svm, x_j> > 0 re-checks exactly (Fractions of the floats), -1 when the solver finds the LP infeasible
    (Clarabel and NNLS agree; for d = 1 exactly: the y_j x_j take both signs)."""
    X = augmented(case)
    svm = max_margin(Dataset(X, case.y)).svm
    if svm.w is None:
        signed = case.y[:, None] * X
        exact = X.shape[1] == 1 and bool(np.any(signed > 0.0) and np.any(signed < 0.0))
        return exact_margin(False, f"not separable through 0: {svm.reason}" + ("; exact: y x takes both signs" if exact
                                                                                else ""))
    rows = [[Fraction(float(v)) for v in row] for row in case.y[:, None] * X]
    w = [Fraction(float(v)) for v in svm.w]
    worst_row = min(sum((a * b for a, b in zip(row, w)), Fraction(0)) for row in rows)
    return exact_margin(worst_row > 0, f"min_j y_j <w_svm, x_j> = {float(worst_row):.6g} (exact), "
                                       f"KKT residual {svm.kkt_residual}")


KB = static_claim(
    "Appendix K (LT-K), sheet P13",
    id="LT-Kb", node="K", uses=("D1",),
    statement="after x~ = (x, 1)/sqrt 2, P13's data {(1, -1), (2, +1)} and other affine-only 1-D data are separable "
              "through the origin (an exactly re-checked separator), so Theorem 4.1 applies to the augmented problem",
    check=separable_margin, over=affine_only_cases(), assumptions=("LT-D1 after augmentation",),
)

P13_ORIGIN = planted_claim(
    "Appendix K (LT-K), sheet P13 (the data before augmentation)",
    id="P13-K-origin", node="K", uses=("D1",),
    statement="PLANTED: P13's data {(1, -1), (2, +1)} (and affine-only 1-D data) are separable through the origin "
              "(false: N(2) = 2 N(1), no linear teacher; LT-D1 fails)",
    check=separable_margin, over=affine_only_cases(None),
)


@st.composite
def symmetric_cases(draw: st.DrawFn, scale: float | None = 1.0 / math.sqrt(2.0)) -> AugmentCase:
    ds = D.symmetric_teacher(draw(st.integers(1, 6)), draw(st.integers(1, 4)), draw(st.sampled_from((0.05, 0.3))),
                             draw(SEEDS))
    return AugmentCase(ds.X, ds.y, scale)


@measures("antipodal mismatch max_j min_i ||x_j + x_i|| / B minus the audit's 1e-12 (dimensionless)")
def asymmetry_margin(case: AugmentCase) -> Margin:
    """LT-K (d): the (augmented) data are NOT antipodal: antipodal_mismatch - 1e-12 > 0 (the audit's tolerance);
    after augmentation the last coordinates 1/sqrt 2 of x~ and -x~' never match, mismatch >= sqrt 2 / B."""
    mismatch = antipodal_mismatch(augmented(case))
    return Margin(mismatch - ANTIPODAL_TOL, 0.0, f"max_j min_i ||x_j + x_i|| / B = {mismatch:.6g}")


KC = static_claim(
    "Appendix K (LT-K), caveat (d)",
    id="LT-Kc", node="K", uses=("SYM",),
    statement="after x~ = (x, 1)/sqrt 2 no dataset is antipodal (x~ in S => -x~ in S fails, even for symmetric S), so "
              "Lemma 6.1 never applies and Theorem 6.2's hypothesis 4 must be checked directly",
    check=asymmetry_margin, over=symmetric_cases(),
)

KC_RAW = planted_claim(
    "Appendix K (LT-K), caveat (d), planted: before augmentation",
    id="LT-Kc-raw", node="K", uses=("SYM",),
    statement="PLANTED: the data are not antipodal before augmentation either (false for symmetric_teacher data, "
              "x in S => -x in S exactly)",
    check=asymmetry_margin, over=symmetric_cases(None),
)
