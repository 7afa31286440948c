"""Seed 002's data quantities (claim sheet 002 section 4) and the paper's ``audit`` hook.

- B = max_j ||x_j|| (the paper needs B <= 1, LT-D1); the min-norm teacher w* = w_svm (y_j <w*, x_j> >= 1, verify's
  max-margin solver: Clarabel and NNLS), ||w*||_min = 1 / gamma_S.
- Theorem 4.1's rebuilt bound (sheet 2.1): eps' = eps / (1 + 2 k eta n B^2), c_eps = 1 - e^-eps',
  T_max = 2 R ||w*|| / (alpha eta c_eps) + n ||w*||^2 (s + k eta B^2) / (k alpha^2 eta c_eps^2), M = n (floor T_max + 1),
  with s = 1 (the paper's c z <= 1) or s* = W_0(1/e) (sheet l4).
- Antipodal symmetry x in S => -x in S (Lemma 6.1), by a KD-tree match of every x with -x.
- Gamma_A = max_{x' in S-} dist(0, conv(S+ u {x'})) (= 1 / ||argmin{||w|| : <w, x> >= 1 on S+ u {x'}}|| where
  feasible, 0 where not: Gordan), Gamma_B likewise with the classes swapped; A_gamma = B_gamma = empty iff
  gamma > max(Gamma_A, Gamma_B) (the sheet's norm-constrained reading, 1.10).
- The PAR-SVM QP (8): min ||w||^2 + ||u||^2 s.t. <w,x> - alpha <u,x> >= 1 on S+, <u,x> - alpha <w,x> >= 1 on S-, the
  minimum-norm point of {z : A z >= 1} with rows (x, -alpha x) and (-alpha x, x); Z = sqrt(k (||w~||^2 + ||u~||^2)),
  gamma*_PAR = sqrt(k) / sqrt(||w~||^2 + ||u~||^2), gamma_max^PAR (LT-X5).
- LT-X52: P(|cos(x, e)| <= tau) for x uniform on S^{d-1} = I_{tau^2}(1/2, (d-1)/2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from scipy.spatial import cKDTree
from scipy.special import betainc, lambertw

from verify.audit import Audit, PaperAudit, finding
from verify.margins import MinNormPoint, min_norm_point

from properties.sarussi2021_linear_teachers._shared import ALPHA

S_STAR = float(lambertw(1.0 / math.e).real)  # max_z c(z) z = W_0(1/e) = 0.27846... (sheet l4)


def data_radius(X: np.ndarray) -> float:
    """B = max_j ||x_j||."""
    return float(np.max(np.linalg.norm(np.asarray(X, float), axis=1)))


@dataclass(frozen=True)
class SgdBound:
    """Theorem 4.1's rebuilt bound (sheet 2.1) for one setting."""

    eps: float
    eps_prime: float
    c_eps: float
    T_max: float
    M: float

    @property
    def epochs(self) -> int:
        """floor(T_max) + 1: some epoch up to this one is clean."""
        return int(math.floor(self.T_max)) + 1


def sgd_bound(eps: float, n: int, k: int, alpha: float, eta: float, R: float, B: float, teacher_norm: float,
              s: float = 1.0) -> SgdBound:
    """eps', c_eps, T_max and M(eps) of sheet 2.1 (``s`` = 1 as the paper, or ``S_STAR``)."""
    eps_prime = eps / (1.0 + 2.0 * k * eta * n * B * B)
    c_eps = -math.expm1(-eps_prime)
    t_max = (2.0 * R * teacher_norm / (alpha * eta * c_eps)
             + n * teacher_norm ** 2 * (s + k * eta * B * B) / (k * alpha ** 2 * eta * c_eps ** 2))
    return SgdBound(eps, eps_prime, c_eps, t_max, float(n) * (math.floor(t_max) + 1))


def antipodal_mismatch(X: np.ndarray) -> float:
    """max_j min_i ||x_j + x_i|| / B: 0 exactly when x in S => -x in S (Lemma 6.1's hypothesis)."""
    X = np.asarray(X, float)
    dist, _ = cKDTree(X).query(-X)
    return float(np.max(dist)) / max(data_radius(X), np.finfo(float).tiny)


def cone_margin(rows: np.ndarray) -> float:
    """dist(0, conv(rows)) = max_{||w|| <= 1} min_i <w, x_i>: 1 / ||w|| of the min-norm point of {<w, x_i> >= 1}, or 0
    where that set is empty (Gordan: 0 lies in the hull)."""
    point = min_norm_point(rows)
    return 0.0 if point.inverse_norm is None else float(point.inverse_norm)


def misclassifying_margins(X: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(Gamma_A, Gamma_B) of sheet section 4: Gamma_A = max_{x' in S-} cone_margin(S+ u {x'}), Gamma_B the same with
    the classes swapped; each is 0 when one class is empty."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    pos, neg = X[y > 0], X[y < 0]

    def one(keep: np.ndarray, others: np.ndarray) -> float:
        if keep.size == 0 or others.size == 0:
            return 0.0
        return max(cone_margin(np.vstack([keep, x])) for x in others)

    return one(pos, neg), one(neg, pos)


def par_rows(X: np.ndarray, y: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """The constraint rows of QP (8) in z = (w, u): (x, -alpha x) on S+, (-alpha x, x) on S-."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    plus = (y > 0)[:, None]
    return np.hstack([np.where(plus, X, -alpha * X), np.where(plus, -alpha * X, X)])


@dataclass(frozen=True)
class ParSvm:
    """The solution (w~, u~) of QP (8) with the solver's evidence (``point``); None where infeasible."""

    w: np.ndarray | None
    u: np.ndarray | None
    point: MinNormPoint

    def scale(self, k: int) -> float:
        """Z = sqrt(k (||w~||^2 + ||u~||^2))."""
        return math.sqrt(k * (float(self.w @ self.w) + float(self.u @ self.u)))

    def limit_margin(self, k: int) -> float:
        """gamma*_PAR = sqrt(k) / sqrt(||w~||^2 + ||u~||^2): the normalised margin of the predicted limit."""
        return math.sqrt(k) / math.sqrt(float(self.w @ self.w) + float(self.u @ self.u))

    def limit(self, k: int) -> np.ndarray:
        """W^_inf = (w~, ..., w~, u~, ..., u~) / Z (2k, d)."""
        return np.vstack([np.tile(self.w, (k, 1)), np.tile(self.u, (k, 1))]) / self.scale(k)

    def par_margin(self, X: np.ndarray, y: np.ndarray, k: int) -> float:
        """gamma_max^PAR = min_j min(y_j <w~, x_j>, -y_j <u~, x_j>) / Z (LT-X5: > 0 iff the QP's solution is in PAR)."""
        y = np.asarray(y, float)
        X = np.asarray(X, float)
        return float(min(np.min(y * (X @ self.w)), np.min(-y * (X @ self.u))) / self.scale(k))


def par_svm(X: np.ndarray, y: np.ndarray, alpha: float = ALPHA) -> ParSvm:
    """QP (8) by verify's min-norm-point solver (two independent paths, KKT residual reported)."""
    point = min_norm_point(par_rows(X, y, alpha))
    if point.w is None:
        return ParSvm(None, None, point)
    d = np.asarray(X).shape[1]
    return ParSvm(point.w[:d], point.w[d:], point)


def nonlinear_share(tau: float, d: int) -> float:
    """P(|cos(x, e)| <= tau) for x uniform on S^{d-1} (LT-X52): I_{tau^2}(1/2, (d-1)/2); d = 1: 1 if tau >= 1 else 0."""
    if tau >= 1.0:
        return 1.0
    if d == 1:
        return 0.0
    return float(betainc(0.5, 0.5 * (d - 1), tau * tau))


AUDIT_GAMMA_MAX_N = 400  # Gamma_A / Gamma_B take one QP per point: the audit computes them up to this many points


@lru_cache(maxsize=256)
def _cached_data_problems(xb: bytes, yb: bytes, shape: tuple[int, int], alpha: float) -> tuple[float | None, float | None, ParSvm]:
    """(Gamma_A, Gamma_B, QP (8)) of one dataset, computed once per process (the audit runs on every example)."""
    X = np.frombuffer(xb).reshape(shape)
    y = np.frombuffer(yb)
    ga, gb = misclassifying_margins(X, y) if shape[0] <= AUDIT_GAMMA_MAX_N else (None, None)
    return ga, gb, par_svm(X, y, alpha)


def unit_directions(d: int, count: int = 2048) -> np.ndarray:
    """``count`` unit vectors: an even grid on the circle (d = 2) or seeded Gaussian directions."""
    if d == 2:
        angle = np.linspace(0.0, 2.0 * math.pi, count, endpoint=False)
        return np.column_stack([np.cos(angle), np.sin(angle)])
    G = np.random.default_rng(0).standard_normal((count, d))
    return G / np.linalg.norm(G, axis=1, keepdims=True)


def _rescaled(value: Any, e: int, degree: int) -> Any:
    """A quantity computed on X / 2^e, scaled back to the data's scale by 2^(degree e)."""
    if value is None:
        return None
    with np.errstate(over="ignore", under="ignore"):
        return np.ldexp(value, degree * e) if isinstance(value, np.ndarray) else math.ldexp(value, degree * e)


def quantities(base: Audit) -> PaperAudit:
    """The hook: B, the min-norm teacher, antipodal symmetry, Gamma_A / Gamma_B, QP (8) and (with an init of 2k rows)
    Theorem 6.2's threshold alpha sqrt(k) B. Computed on the rows divided by a power of two (exact) and rescaled by
    each quantity's degree, so any data scale works without under- or overflow."""
    ds = base.dataset
    e = int(np.frexp(float(np.max(np.abs(ds.X))))[1]) if ds.X.size else 0
    X = np.ldexp(ds.X, -e)
    alpha = base.alpha if base.alpha > 0.0 else ALPHA
    q: dict[str, Any] = {"teacher_alpha": alpha}
    na: dict[str, str] = {}
    B = data_radius(X)
    q["data_radius"] = _rescaled(B, e, 1)
    gamma = base.max_margin.gamma_lin
    q["teacher_norm_min"] = None if gamma is None else 1.0 / gamma
    mismatch = antipodal_mismatch(X)
    q["antipodal_mismatch"] = mismatch
    q["antipodal"] = bool(mismatch <= 1e-12)
    ga, gb, par = _cached_data_problems(X.tobytes(), ds.y.tobytes(), X.shape, float(alpha))
    q["gamma_A"], q["gamma_B"] = _rescaled(ga, e, 1), _rescaled(gb, e, 1)
    if ga is None:
        na["gamma_A"] = na["gamma_B"] = (f"n = {ds.n} > {AUDIT_GAMMA_MAX_N}: one QP per point, not computed in the audit "
                                         "(quantities.misclassifying_margins computes it)")
    q["par_svm_w"] = _rescaled(par.w, e, -1)
    q["par_svm_u"] = _rescaled(par.u, e, -1)
    if par.w is None:
        for key in ("teacher_norm_min", "par_svm_w", "par_svm_u"):
            na[key] = "not separable through the origin (no linear teacher, LT-D1)"
    findings = [
        finding("LT-D1 B = max ||x_j|| (paper: <= 1)", q["data_radius"], "<=", 1.0, "002 Section 3 (LT-D1)",
                "Theorem 4.1 and 6.2 use the B-scaled constants otherwise"),
        finding("LT-D1 separable through the origin (gamma_S)", gamma, ">", 0.0, "002 Section 3 (LT-D1)"),
        finding("Lemma 6.1 x in S => -x in S (mismatch / B)", mismatch, "<=", 1e-12, "002 Lemma 6.1"),
        finding("Thm 6.2 hyp. 4 max(Gamma_A, Gamma_B) (A_gamma = B_gamma = empty for gamma above it)",
                None if ga is None else max(ga, gb), "<=", 0.0, "002 Theorem 6.2"),
    ]
    init_rows: list[tuple[str, str, str]] = []
    if base.h is not None and base.h % 2 == 0 and par.w is not None:
        k = base.h // 2
        q["par_limit_margin"] = _rescaled(par.limit_margin(k), e, 1)
        q["par_consistency"] = _rescaled(par.par_margin(X, ds.y, k), e, 1)
        q["smoothed_margin_threshold"] = alpha * math.sqrt(k) * q["data_radius"]
        findings.append(finding("LT-X5 gamma_max^PAR (QP (8) solution in PAR)", q["par_consistency"], ">", 0.0,
                                "002 Theorem 6.2 (LT-X5)"))
        init_rows.append(("Thm 6.2 threshold alpha sqrt(k) B", f"{q['smoothed_margin_threshold']:.6g}",
                          "hypothesis 3: the smoothed margin must exceed it"))
    rows = [("B = max ||x||", f"{q['data_radius']:.6g}", "LT-D1 needs B <= 1"),
            ("||w*||_min = 1 / gamma_S", "n/a" if gamma is None else f"{q['teacher_norm_min']:.6g}", "min-norm teacher"),
            ("Gamma_A / Gamma_B", "n/a" if ga is None else f"{q['gamma_A']:.4g} / {q['gamma_B']:.4g}",
             "A_gamma, B_gamma empty for gamma above"),
            ("antipodal (x in S => -x in S)", str(q["antipodal"]), f"mismatch / B = {mismatch:.3g}")]
    return PaperAudit(q, findings, [], na, rows, init_rows)
