"""Max-margin quantities of a dataset (DESIGN.md section 6), for any data.

``w_svm = argmin ||w||^2 s.t. y_i <w, x_i> >= 1 for all i`` (hard-margin SVM through the origin; the data
are linearly separable iff it exists, and then ``gamma_lin = 1/||w_svm||``), ``w_plus`` the same over the
points with y_i = +1 only (``<w, x_i> >= 1``) and ``w_minus`` over y_i = -1. Each is the minimum-norm point
of a polyhedron ``{w : A w >= 1}``, solved on two independent paths: Clarabel (interior point, through
qpsolvers) and scipy's NNLS on the least-distance form (Lawson & Hanson, ch. 23: with E = [A^T; 1^T] and
f = e_{d+1}, the NNLS residual r = E u - f is 0 iff the polyhedron is empty, else w = -r[:d] / r[d]).
The answer with the smaller KKT residual is reported, with that residual and its distance to the other
(``solver_distance``: the cross-check); an infeasible problem gives ``None`` with the reason (never an
exception).

Scale: rows are divided by a power of two first (exact), so the problems are well scaled at any data
scale; w scales back as 1 / scale.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sparse
from scipy.optimize import nnls

from verify.data.dataset import Dataset

ACTIVE_TOL = 1e-7  # a constraint with a_i w - 1 <= ACTIVE_TOL is active; a multiplier above it is positive
_CLARABEL = {"tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12, "tol_ktratio": 1e-10,
             "max_iter": 400}


@dataclass(frozen=True)
class MinNormPoint:
    """argmin ||w||^2 s.t. A w >= 1, with its evidence.

    ``w`` None where the polyhedron is empty (``reason`` says so) or the rows are absent. ``support``:
    indices with a positive multiplier (support examples); ``weakly_active``: active constraints with a
    zero multiplier. ``kkt_residual``: max of primal infeasibility, stationarity ||w - A^T lambda||
    relative to ||w||, and complementarity. ``solver_distance``: ||w - w_nnls|| / ||w|| (independent path).
    """

    w: np.ndarray | None
    reason: str = ""
    inverse_norm: float | None = None  # 1 / ||w|| (finite even where w itself lies beyond float64)
    support: list[int] = field(default_factory=list)
    weakly_active: list[int] = field(default_factory=list)
    kkt_residual: float | None = None
    solver_distance: float | None = None
    direction: np.ndarray | None = None  # w / ||w|| (finite at any data scale)

    def to_dict(self) -> dict[str, Any]:
        return {"w": None if self.w is None else [float(v) for v in self.w], "reason": self.reason,
                "inverse_norm": self.inverse_norm,
                "support": self.support, "weakly_active": self.weakly_active,
                "kkt_residual": self.kkt_residual, "solver_distance": self.solver_distance,
                "direction": None if self.direction is None else [float(v) for v in self.direction]}


def least_distance_nnls(A: np.ndarray) -> np.ndarray | None:
    """argmin ||w|| s.t. A w >= 1 by NNLS on the least-distance form; None if the polyhedron is empty."""
    n, d = A.shape
    E = np.vstack([A.T, np.ones((1, n))])
    f = np.zeros(d + 1)
    f[d] = 1.0
    u, _ = nnls(E, f, maxiter=50 * (n + d + 1))
    r = E @ u - f
    if abs(r[d]) <= 1e-12 or np.linalg.norm(r) <= 1e-12:
        return None
    return -r[:d] / r[d]


def _clarabel(A: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None, str]:
    """(w, multipliers, status) of min (1/2)||w||^2 s.t. -A w <= -1 by Clarabel."""
    from qpsolvers import Problem, solve_problem

    n, d = A.shape
    problem = Problem(sparse.identity(d, format="csc"), np.zeros(d), sparse.csc_matrix(-A), -np.ones(n))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # qpsolvers warns on a non-solved status; the status is reported instead
        sol = solve_problem(problem, solver="clarabel", **_CLARABEL)
    status = str(sol.extras.get("status", "unknown")) if isinstance(sol.extras, dict) else "unknown"
    if not sol.found or sol.x is None:
        return None, None, status
    return np.asarray(sol.x, dtype=float), np.asarray(sol.z, dtype=float), status


def _with_kkt(B: np.ndarray, w: np.ndarray, lam: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, float]:
    """(w, multipliers, KKT residual); multipliers from NNLS on the active rows when none are given."""
    slack = B @ w - 1.0
    if lam is None:  # w = B_active^T lambda, lambda >= 0
        lam = np.zeros(len(B))
        act = slack <= ACTIVE_TOL
        if act.any():
            lam[act], _ = nnls(B[act].T, w)
    kkt = max(float(np.max(np.maximum(-slack, 0.0))),
              float(np.linalg.norm(w - B.T @ lam)) / max(float(np.linalg.norm(w)), 1e-300),
              float(np.max(np.abs(lam * slack))))
    return w, lam, kkt


def min_norm_point(A: np.ndarray) -> MinNormPoint:
    """The minimum-norm point of {w : A w >= 1} (rows of ``A`` finite, any scale)."""
    A = np.atleast_2d(np.asarray(A, dtype=float))
    if A.shape[0] == 0:
        return MinNormPoint(None, "no constraints (the class is empty)")
    e = int(np.frexp(np.max(np.abs(A)))[1])
    B = np.ldexp(A, -e)  # rows over a power of two: exact
    w_ip, lam_ip, status = _clarabel(B)
    w_ls = least_distance_nnls(B)
    candidates = [c for c in ((w_ip, lam_ip), (w_ls, None)) if c[0] is not None and np.min(B @ c[0]) >= 1.0 - 1e-9]
    if not candidates:
        return MinNormPoint(None, f"infeasible: no w has a_i w > 0 for every row (Clarabel: {status}; "
                                  f"NNLS least-distance residual {'0' if w_ls is None else 'nonzero'})")
    w, lam, kkt = min((_with_kkt(B, w, lam) for w, lam in candidates), key=lambda c: c[2])
    slack = B @ w - 1.0
    norm_w = float(np.linalg.norm(w))
    active = slack <= ACTIVE_TOL
    positive = lam > ACTIVE_TOL * max(1.0, float(np.max(lam)))
    others = [c[0] for c in candidates if c[0] is not w]
    distance = float(np.linalg.norm(w - others[0])) / norm_w if others else None
    with np.errstate(over="ignore", under="ignore"):
        w_out = np.ldexp(w, -e)  # w = w_B / 2^e
    try:
        inverse = math.ldexp(1.0 / norm_w, e)  # 1/||w|| = 2^e / ||w_B||
    except OverflowError:
        inverse = math.inf
    reason = ""
    if not np.all(np.isfinite(w_out)):
        w_out, reason = None, "beyond the float64 range at this data scale (1/||w|| is given)"
    return MinNormPoint(w_out, reason, inverse if math.isfinite(inverse) else None,
                        [int(i) for i in np.flatnonzero(positive)], [int(i) for i in np.flatnonzero(active & ~positive)],
                        kkt, distance, w / norm_w)


@dataclass(frozen=True)
class MaxMargin:
    """The three problems of DESIGN.md section 6 for one dataset."""

    svm: MinNormPoint
    plus: MinNormPoint
    minus: MinNormPoint

    @property
    def linearly_separable(self) -> bool:
        return self.svm.inverse_norm is not None or self.svm.w is not None

    @property
    def gamma_lin(self) -> float | None:
        """1 / ||w_svm|| (None if not linearly separable)."""
        return self.svm.inverse_norm


def max_margin(ds: Dataset) -> MaxMargin:
    """w_svm (rows y_i x_i), w_plus (rows x_i, y_i = +1) and w_minus (rows x_i, y_i = -1)."""
    return MaxMargin(min_norm_point(ds.signed), min_norm_point(ds.X[ds.y > 0]), min_norm_point(ds.X[ds.y < 0]))
