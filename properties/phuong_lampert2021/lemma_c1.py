"""Claim sheet 000, PL-LC1 (Lemma C.1: W = u w+^T + z w-^T, a = ||w+|| u - ||w-|| z with disjoint supports and
||u|| = ||w+||^{-1/2}, ||z|| = ||w-||^{-1/2} is a KKT point of min ||theta||^2/2 s.t. y_i f(x_i) >= 1), checked
numerically on drawn OS data against the generic audit's max-margin solutions (the multipliers alpha_i of
eq. (78) recovered on the support set only, sheet 4.2), with the planted PC2 (not OS: infeasible, y f = 0.773).
"""

from __future__ import annotations

from functools import partial

import numpy as np
from scipy.optimize import nnls

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.margins import max_margin
from verify.strategies import GeometryCase, as_case
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021._shared import U_ROUND, paper_claim, worst

static_claim = partial(paper_claim, horizon=None, tags=("pointwise", "static"))


def multipliers(X: np.ndarray, w: np.ndarray, active: list[int]) -> np.ndarray:
    """alpha >= 0 with w = sum_{i in active} alpha_i x_i (eq. (78)), by NNLS on the active rows only (sheet 4.2)."""
    alpha = np.zeros(len(X))
    if active:
        alpha[active], _ = nnls(X[active].T, w)
    return alpha


def kkt_point(X: np.ndarray, y: np.ndarray, rng: np.random.Generator) -> dict | None:
    """Lemma C.1's theta for random admissible u, z (width 2..5, both groups non-empty, a dead neuron at times),
    with the multipliers lambda_i of eq. (89); None when a class is empty or its max-margin problem is infeasible."""
    mm = max_margin(Dataset(X, y))
    if mm.plus.w is None or mm.minus.w is None:
        return None
    p = int(rng.integers(2, 6))
    group = rng.permutation(np.r_[1, -1, rng.choice([1, -1, 0], size=p - 2)])
    lam = np.zeros(len(y))
    out = {"W": np.zeros((p, X.shape[1])), "a": np.zeros(p), "kkt": max(mm.plus.kkt_residual, mm.minus.kkt_residual)}
    for label, mp in ((1, mm.plus), (-1, mm.minus)):
        rows = np.flatnonzero(y == label)
        w = mp.w
        nw = float(np.linalg.norm(w))
        u = np.where(group == label, rng.uniform(0.2, 1.0, size=p), 0.0)
        u /= np.linalg.norm(u) * np.sqrt(nw)
        out["W"] += np.outer(u, w)
        out["a"] += label * nw * u
        alpha = multipliers(X[rows], w, sorted(mp.support + mp.weakly_active))
        lam[rows] = alpha / nw
        out[f"w{label:+d}"] = w
    out["lam"] = lam
    return out


@measures("worst KKT residual at unit data scale: min y f - 1, -|slackness|, -relative stationarity, -cross w^T x/||w||")
def kkt_margin(case: GeometryCase) -> Margin:
    """Lemma C.1 on one drawn dataset: feasibility min_i y_i f(x_i) = 1, complementary slackness
    lambda_i (y_i f(x_i) - 1) = 0, stationarity theta = sum_i lambda_i y_i g_i(theta) (relative residual), and
    eqs. (79)-(80) (w+^T x_i <= 0 on negatives, w-^T x_i <= 0 on positives, relative). Error: 1e3 x the max-margin
    solution's KKT residual plus 1e3 n d u."""
    case = as_case(case)
    ds = case.dataset
    if not ds.both_classes:
        return Margin(0.0, 0.0, "single class: Lemma C.1 needs both w+ and w-", vacuous=True)
    X, y = ds.X / ds.X_max, ds.y  # Lemma C.1 is scale-covariant; unit scale keeps the residuals comparable
    kp = kkt_point(X, y, case.rng)
    if kp is None:
        return Margin(0.0, 0.0, "a max-margin problem is infeasible", vacuous=True)
    W, a, lam = kp["W"], kp["a"], kp["lam"]
    err = 1e3 * (kp["kkt"] + ds.n * ds.d * U_ROUND)
    pre = X @ W.T
    yf = y * (np.maximum(pre, 0.0) @ a)
    grad_W = sum(lam[i] * y[i] * np.outer((pre[i] > 0) * a, X[i]) for i in range(ds.n))
    grad_a = sum(lam[i] * y[i] * np.maximum(pre[i], 0.0) for i in range(ds.n))
    theta = float(np.sqrt(np.sum(W**2) + np.sum(a**2)))
    stat = float(np.sqrt(np.sum((W - grad_W) ** 2) + np.sum((a - grad_a) ** 2))) / theta
    cross = max(float(np.max(X[y < 0] @ kp["w+1"])) * float(np.linalg.norm(kp["w+1"])) ** -1,
                float(np.max(X[y > 0] @ kp["w-1"])) * float(np.linalg.norm(kp["w-1"])) ** -1)
    parts = [
        Margin(float(yf.min()) - 1.0, err, f"feasibility: min_i y_i f(x_i) = {yf.min():.12g} (must be >= 1)"),
        Margin(-abs(float(yf.min()) - 1.0), err, f"the constraint is active: min_i y_i f(x_i) - 1 = {yf.min() - 1.0:.3g}"),
        Margin(-float(np.max(np.abs(lam * (yf - 1.0)))), err, "complementary slackness max_i |lambda_i (y_i f_i - 1)|"),
        Margin(-stat, err, f"stationarity: ||theta - sum_i lambda_i y_i g_i|| / ||theta|| = {stat:.3g}"),
        Margin(-cross, err, f"eqs. (79)-(80): max cross-class w^T x / ||w|| = {cross:.3g} (must be <= 0)"),
    ]
    return worst(parts)


LC1 = static_claim(
    id="PL-LC1",
    node="LC1", uses=("OS",),
    source="Lemma C.1, eqs. (77)-(80), (89); PL-LC1 (numeric check on the audit's max-margin solutions)",
    statement="On OS data, W = u w+^T + z w-^T, a = ||w+|| u - ||w-|| z (u, z >= 0, disjoint supports, ||u|| = ||w+||^{-1/2}, "
              "||z|| = ||w-||^{-1/2}) is a KKT point of min ||theta||^2/2 s.t. y_i f(x_i) >= 1 with lambda_i = alpha_i/||w+-||",
    check=kkt_margin,
    over=D.os_cases(),
    assumptions=("H-OS (by construction)",),
)

PC2_LC1 = static_claim(
    id="PC2-LC1",
    node="LC1", uses=("OS",),
    source="sheet 5.6 PC2 (cross-class acute pair, not OS; breaks Lemma C.1)",
    statement="PLANTED: on PC2 w+ (40 deg) is active on the negative at 120 deg and w- on the positive at 80 deg, so Lemma "
              "C.1's theta is infeasible: y f = 1 - cos 80/cos 40 = 0.773 at the negative, 1 - cos 47.5/cos 7.5 = 0.319 at the positive",
    check=kkt_margin,
    over=D.fixed_cases(D.pc2),
    expected=Verdict.REFUTED,
    assumptions=("drops H-OS (cross-class acute pair)",),
    tags=("pointwise", "static", "planted"),
)
