"""Seed 003's data and initialisation quantities (claim sheet 003 sections 1.5-1.6, 4.2 and 4.7), and the paper's
``audit`` hook.

- Assumption 4.1: every (x, y) has a mirror (-x, -y), found as a perfect matching (Hungarian algorithm on
  ||x_i + x_j||, opposite labels only); the worst mismatch is reported (0 exactly on canonical data).
- mu = (1/n) sum_i y_i x_i, mu^ = mu / ||mu||; Assumption 4.5: min_i |<mu, x_i>| > 0.
- G(w) = (-l'(0)/n) sum_i y_i phi(<w, x_i>) = (1/(2n)) sum_i y_i phi(<w, x_i>) (logistic, mean loss); on symmetric
  data G(w) = <w, mu~> with mu~ = ((1+alpha)/4) mu (erratum S-1: printed (1+alpha)/2), lambda0 = ||mu~||.
- lambda+ = max_{S^{d-1}} G, lambda- = -min_{S^{d-1}} G (hinted data, Section 6), by dense sampling and
  projected-subgradient refinement (G is piecewise linear on the cones of the arrangement).
- D_init(sigma) (w_k ~ N(0, sigma^2 I), a_k ~ N(0, c^2 sigma^2)) and the balanced D~_init(sigma); b_k =
  (<w_k, mu^> + a_k) / (2 sqrt(m) ||theta0||_M) from the unscaled draw, the good-embedding test, T1(r), T2(r), T12.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from verify.audit import Audit, PaperAudit, finding
from verify.data.dataset import Dataset, unit_rows

from properties.lyu2021_margin._shared import ALPHA
from properties.lyu2021_margin.network import phi

A45_TOL = 1e-12  # Assumption 4.5 "<mu, x_i> != 0" read as min_i |<mu, x_i>| > A45_TOL ||mu|| max ||x|| (sheet: "> tau")
MU_TILDE_COEF = {"corrected": lambda alpha: (1.0 + alpha) / 4.0, "printed": lambda alpha: (1.0 + alpha) / 2.0}


def symmetry_mismatch(X: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray | None]:
    """(worst ||x_i + x_pi(i)|| over the best perfect matching pi between the positives and the negatives, pi as an
    index array into the rows), or (inf, None) when the classes differ in size (Assumption 4.1 impossible)."""
    pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y < 0)
    if pos.size != neg.size or pos.size == 0:
        return math.inf, None
    cost = np.linalg.norm(X[pos][:, None, :] + X[neg][None, :, :], axis=2)
    rows, cols = linear_sum_assignment(cost)
    partner = np.empty(X.shape[0], dtype=int)
    partner[pos[rows]] = neg[cols]
    partner[neg[cols]] = pos[rows]
    return float(np.max(cost[rows, cols])), partner


def canonical(ds: Dataset) -> Dataset:
    """Sheet 4.2: the paper's layout of symmetric data, positives first, then their mirrors in the same order."""
    _, partner = symmetry_mismatch(ds.X, ds.y)
    if partner is None:
        raise ValueError("the data are not symmetric (the classes differ in size)")
    pos = np.flatnonzero(ds.y > 0)
    order = np.r_[pos, partner[pos]]
    return Dataset(ds.X[order], ds.y[order], name=f"canonical({ds.name})")


def mean_signed(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """mu = (1/n) sum_i y_i x_i."""
    return np.asarray(y, float) @ np.asarray(X, float) / len(y)


def G(w: np.ndarray, X: np.ndarray, y: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """G(w) = (1/(2n)) sum_i y_i phi(<w, x_i>) for each row of ``w`` (a vector counts as one row; l'(0) = -1/2, mean
    loss); shape (rows,)."""
    w = np.atleast_2d(np.asarray(w, float))
    return phi(w @ np.asarray(X, float).T, alpha) @ np.asarray(y, float) / (2.0 * len(y))


def mu_tilde(X: np.ndarray, y: np.ndarray, alpha: float = ALPHA, reading: str = "corrected") -> np.ndarray:
    """mu~ = ((1+alpha)/4) mu (corrected, sheet erratum S-1) or ((1+alpha)/2) mu (as printed)."""
    return MU_TILDE_COEF[reading](alpha) * mean_signed(X, y)


def lambda0(X: np.ndarray, y: np.ndarray, alpha: float = ALPHA, reading: str = "corrected") -> float:
    """lambda0 = ||mu~||, the top eigenvalue of M_mu~ (corrected (1+alpha)/4 or printed (1+alpha)/2)."""
    return float(np.linalg.norm(mu_tilde(X, y, alpha, reading)))


def sphere_extremes(X: np.ndarray, y: np.ndarray, alpha: float = ALPHA, samples: int = 20000,
                    seed: int = 0) -> tuple[float, np.ndarray, float, np.ndarray]:
    """(lambda+, argmax, lambda-, argmin) of G on the unit sphere: the best of ``samples`` seeded directions and the
    data directions +-x_i, each refined by projected subgradient steps (step 1/k); lambda- = -min G."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    rng = np.random.default_rng(seed)
    U = rng.standard_normal((samples, X.shape[1]))
    units = unit_rows(X)  # scale-free per row (rows many orders below the largest)
    U = np.vstack([U / np.linalg.norm(U, axis=1, keepdims=True), units, -units])
    vals = G(U, X, y, alpha)
    out = []
    for sign in (1.0, -1.0):
        u = U[int(np.argmax(sign * vals))].copy()
        best_u, best = u.copy(), float(sign * G(u, X, y, alpha)[0])
        for k in range(1, 2001):
            slope = np.where(X @ u > 0.0, 1.0, alpha)
            grad = sign * (y * slope) @ X / (2.0 * len(y))
            grad -= (grad @ u) * u
            u = u + grad / (k * max(1e-300, float(np.linalg.norm(grad)))) * 0.05
            u /= np.linalg.norm(u)
            val = float(sign * G(u, X, y, alpha)[0])
            if val > best:
                best_u, best = u.copy(), val
        out.append((best, best_u))
    (lp, up), (lm, um) = out
    return lp, up, lm, um


@lru_cache(maxsize=64)
def _cached_extremes(X_bytes: bytes, y_bytes: bytes, shape: tuple[int, int], alpha: float) -> tuple:
    """:func:`sphere_extremes` (4000 samples) keyed by the data's bytes: the audit of every example of a claim on the
    same data asks again."""
    X = np.frombuffer(X_bytes, dtype=float).reshape(shape)
    y = np.frombuffer(y_bytes, dtype=float)
    return sphere_extremes(X, y, alpha, samples=4000)


@dataclass(frozen=True)
class Draw:
    """An unscaled initialisation theta0-bar: W (m, d), a (m,), how it was drawn, and its seed."""

    W: np.ndarray
    a: np.ndarray
    kind: str  # "D_init" (independent Gaussian a) or "balanced" (a_k = s_k ||w_k||)
    seed: int

    @property
    def m_norm(self) -> float:
        """||theta0||_M = max_k max(||w_k||, |a_k|) (Definition 5.1)."""
        return float(max(np.max(np.linalg.norm(self.W, axis=1)), np.max(np.abs(self.a))))


def d_init(m: int, d: int, seed: int, c_ainit: float = 1.0) -> Draw:
    """D_init(1): w_k ~ N(0, I_d), a_k ~ N(0, c_ainit^2), independent (sheet 1.5; c_ainit unspecified, default 1)."""
    rng = np.random.default_rng(seed)
    return Draw(rng.standard_normal((m, d)), c_ainit * rng.standard_normal(m), "D_init", seed)


def balanced_draw(m: int, d: int, seed: int) -> Draw:
    """D~_init(1): w_k ~ N(0, I_d), a_k = s_k ||w_k||, s_k fair signs (sheet 1.5)."""
    rng = np.random.default_rng(seed)
    W = rng.standard_normal((m, d))
    s = np.where(rng.random(m) < 0.5, -1.0, 1.0)
    return Draw(W, s * np.linalg.norm(W, axis=1), "balanced", seed)


def embedding_vector(draw: Draw, mu_hat: np.ndarray) -> np.ndarray:
    """b_k = (<w_k, mu^> + a_k) / (2 sqrt(m) ||theta0||_M) of the unscaled draw (sheet 1.6; b in R^m)."""
    m = draw.a.size
    return (draw.W @ mu_hat + draw.a) / (2.0 * math.sqrt(m) * draw.m_norm)


def good_embedding(b: np.ndarray) -> bool:
    """A good embedding vector: every entry non-zero, at least one > 0 and at least one < 0 (Phase II)."""
    return bool(np.all(b != 0.0) and np.any(b > 0.0) and np.any(b < 0.0))


def b_plus_minus(b: np.ndarray) -> tuple[float, float]:
    """(b+, b-) = (sqrt(sum_{b_j > 0} b_j^2), -sqrt(sum_{b_j < 0} b_j^2))."""
    return float(np.sqrt(np.sum(b[b > 0.0] ** 2))), float(-np.sqrt(np.sum(b[b < 0.0] ** 2)))


def phase_times(lam0: float, m: int, sigma: float, m_norm: float, r: float) -> tuple[float, float, float]:
    """(T1(r), T2(r), T12) = ((1/lambda0) ln(r / (sqrt(m) sigma ||theta0||_M)), (1/lambda0) ln(1/r), their sum), paper
    (mean-loss) time."""
    t1 = math.log(r / (math.sqrt(m) * sigma * m_norm)) / lam0
    t2 = math.log(1.0 / r) / lam0
    return t1, t2, math.log(1.0 / (math.sqrt(m) * sigma * m_norm)) / lam0


def _rescaled(value: float | np.ndarray, e: int, degree: int) -> float | np.ndarray:
    """A quantity of homogeneity ``degree`` computed on data divided by 2^e, back at the data's scale (exact; inf or
    nan where float64 cannot hold it, which the audit turns into None with the reason)."""
    with np.errstate(over="ignore", under="ignore"):
        out = np.ldexp(value, degree * e)
    if np.ndim(out) == 0:
        out = float(out)
        return math.nan if out == 0.0 and value != 0.0 else out
    return np.where((out == 0.0) & (np.asarray(value) != 0.0), np.nan, out)


def quantities(base: Audit) -> PaperAudit:
    """The hook: symmetry, mu and A4.5, lambda0 (corrected and printed), the linear-theory margins and G's extremes.
    Computed on the rows divided by a power of two (exact, so any data scale works without under/overflow) and scaled
    back by each quantity's degree; the mirror mismatch is relative to max ||x_i||."""
    ds = base.dataset
    y = ds.y
    e = int(np.frexp(float(np.max(np.abs(ds.X))))[1]) if ds.X.size else 0
    X = np.ldexp(ds.X, -e)  # exact: max |x| in [1/2, 1)
    alpha = base.alpha if base.alpha > 0.0 else ALPHA
    q: dict[str, Any] = {}
    na: dict[str, str] = {}
    mismatch, _ = symmetry_mismatch(X, y)
    scale = float(np.max(np.linalg.norm(X, axis=1)))
    q["symmetry_mismatch"] = mismatch / scale if math.isfinite(mismatch) else None
    if q["symmetry_mismatch"] is None:
        na["symmetry_mismatch"] = "the classes differ in size: no mirror matching"
    q["symmetric"] = bool(math.isfinite(mismatch) and mismatch <= 1e-12 * scale)
    mu = mean_signed(X, y)
    mu_norm = float(np.linalg.norm(mu))
    q["mu_mean"] = _rescaled(mu, e, 1)
    q["mu_mean_norm"] = _rescaled(mu_norm, e, 1)
    q["a45_min_abs"] = _rescaled(float(np.min(np.abs(X @ mu))), e, 2)
    q["a45_relative"] = float(np.min(np.abs(X @ mu))) / (mu_norm * scale) if mu_norm > 0.0 else 0.0
    q["a45"] = bool(q["a45_relative"] > A45_TOL)
    q["leaky_alpha"] = alpha
    lam0, lam0_printed = lambda0(X, y, alpha), lambda0(X, y, alpha, "printed")
    q["lambda0"], q["lambda0_printed"] = _rescaled(lam0, e, 1), _rescaled(lam0_printed, e, 1)
    gamma = base.max_margin.gamma_lin
    q["global_margin_symmetric"] = None if gamma is None else (1.0 + alpha) / 4.0 * gamma
    q["single_unit_margin"] = None if gamma is None else alpha / 2.0 * gamma
    for key in ("global_margin_symmetric", "single_unit_margin"):
        if q[key] is None:
            na[key] = "not linearly separable through the origin"
    if q["symmetric"] and mu_norm > 0.0:  # G(w) = <w, mu~> exactly: max and -min on the sphere are lambda0, at +-mu^
        up = mu / mu_norm
        lp, lm, um = lam0, lam0, -up
    else:
        lp, up, lm, um = _cached_extremes(X.tobytes(), y.tobytes(), X.shape, alpha)
    q.update(lambda_plus=_rescaled(lp, e, 1), lambda_minus=_rescaled(lm, e, 1), argmax_G=up, argmin_G=um)
    w_star = base.max_margin.svm.direction
    q["cos_argmax_G_w_star"] = None if w_star is None else float(up @ w_star)
    if w_star is None:
        na["cos_argmax_G_w_star"] = "not linearly separable through the origin"
    findings = [
        finding("A4.1 symmetric (worst mirror mismatch / max ||x||)", q["symmetry_mismatch"], "<=", 1e-12,
                "003 Assumption 4.1"),
        finding("A4.5 min_i |<mu, x_i>| / (||mu|| max ||x||)", q["a45_relative"], ">", A45_TOL, "003 Assumption 4.5"),
    ]
    if not q["symmetric"]:  # on symmetric data G is linear and lambda+ = lambda- exactly: T6.2's regime is moot
        findings.append(finding("T6.2 lambda+ > lambda- (H large enough)", lp - lm, ">", 0.0, "003 Theorem 6.2 (sheet 4.7)"))
    rows = [("A4.1 worst mirror mismatch", "n/a" if q["symmetry_mismatch"] is None else f"{q['symmetry_mismatch']:.3g}",
             "relative to max ||x||; 0 on the paper's symmetric data"),
            ("lambda0 = ((1+alpha)/4) ||mu||", f"{q['lambda0']:.6g}", f"printed (1+alpha)/2: {q['lambda0_printed']:.6g} (S-1)"),
            ("((1+alpha)/4) gamma_lin", "n/a" if gamma is None else f"{q['global_margin_symmetric']:.6g}",
             "global max margin on symmetric data, m >= 2 (T4.2)"),
            ("lambda+ / lambda-", f"{q['lambda_plus']:.4g} / {q['lambda_minus']:.4g}", "max / -min of G on the sphere (T6.2)")]
    return PaperAudit(q, findings, [], na, rows)
