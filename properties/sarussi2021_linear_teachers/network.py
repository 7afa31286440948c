"""Seed 002's network and its per-W quantities (claim sheet 002 sections 1.2, 1.7-1.11), in float64 numpy.

W (2k, d): rows 0..k-1 are the + neurons w^(i), rows k..2k-1 the - neurons u^(i); the fixed second layer is
v = (1_k, -1_k). N_W(x) = sum_i sigma(<w^(i), x>) - sum_i sigma(<u^(i), x>), sigma(z) = max(z, alpha z).
Margins q_j = y_j N_W(x_j); gamma-bar = min_j q_j / ||W|| (eq. 5); the smoothed margin (eq. 6, with the summed loss
n L_S) gamma~ = -log(expm1(n L_S)) / ||W||, defined where n L_S < log 2.
Cluster statistics (1.8): w-bar, u-bar the means, r the largest distance of a neuron from its mean, rho = r /
||w-bar - u-bar||, theta_max the largest angle between two neurons of one type. NAR (Definition 6.2, global
normalisation W^ = W / ||W||_F): the common signs s+, s- and gamma_NAR = min_{i,j} s_j <w^_i, x_j>; PAR (Definition
6.3) is the NAR with s+ = y, s- = -y. Exact-arithmetic versions of N live in :mod:`.theorem51` (Fractions).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import expit, logsumexp

from properties.sarussi2021_linear_teachers._shared import ALPHA

LOG2 = math.log(2.0)


def leaky(z: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """sigma(z) = max(z, alpha z) for alpha in [0, 1]."""
    z = np.asarray(z, float)
    return np.where(z > 0.0, z, alpha * z)


def slope(z: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """sigma'(z): 1 for z > 0, alpha for z <= 0 (sigma'(0) = alpha, ``_shared.SIGMA_PRIME_ZERO``)."""
    return np.where(np.asarray(z, float) > 0.0, 1.0, alpha)


def second_layer(k: int) -> np.ndarray:
    """v = (1_k, -1_k)."""
    return np.r_[np.ones(k), -np.ones(k)]


def halves(W: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the + neurons w^(1..k), the - neurons u^(1..k)) of W (2k, d)."""
    W = np.asarray(W, float)
    k = W.shape[0] // 2
    return W[:k], W[k:]


def output(W: np.ndarray, X: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """N_W(x_j) for every row of X (eq. 1)."""
    Wp, Wm = halves(W)
    X = np.atleast_2d(np.asarray(X, float))
    return leaky(X @ Wp.T, alpha).sum(axis=1) - leaky(X @ Wm.T, alpha).sum(axis=1)


def margins(W: np.ndarray, X: np.ndarray, y: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """q_j = y_j N_W(x_j)."""
    return np.asarray(y, float) * output(W, X, alpha)


def point_loss(q: np.ndarray) -> np.ndarray:
    """l(q) = log(1 + e^-q), overflow-free."""
    return np.logaddexp(0.0, -np.asarray(q, float))


def point_weight(q: np.ndarray) -> np.ndarray:
    """c(q) = -l'(q) = 1 / (1 + e^q) (scipy's expit(-q): overflow-free, relatively accurate where c ~ e^-q)."""
    return expit(-np.asarray(q, float))


def mean_loss(W: np.ndarray, X: np.ndarray, y: np.ndarray, alpha: float = ALPHA) -> float:
    """L_S(W) = (1/n) sum_j l(q_j) (eq. 2)."""
    return float(np.mean(point_loss(margins(W, X, y, alpha))))


def log_point_loss(q: np.ndarray) -> np.ndarray:
    """log l(q), finite where l underflows: for q > 30, log log1p(t) = log t + log(log1p(t) / t) = -q - t/2 + O(t^2)
    with t = e^-q < 1e-13."""
    q = np.asarray(q, float)
    with np.errstate(divide="ignore"):
        direct = np.log(point_loss(q))
    return np.where(q > 30.0, -q - 0.5 * np.exp(-np.maximum(q, 30.0)), direct)


def normalised_margin(W: np.ndarray, X: np.ndarray, y: np.ndarray, alpha: float = ALPHA) -> float:
    """gamma-bar(W) = min_j q_j / ||W|| (eq. 5)."""
    return float(np.min(margins(W, X, y, alpha)) / np.linalg.norm(W))


def smoothed_margin(W: np.ndarray, X: np.ndarray, y: np.ndarray, alpha: float = ALPHA) -> float:
    """gamma~(W) = -log(expm1(n L_S)) / ||W|| (eq. 6); NaN where n L_S >= log 2 (undefined). log(n L_S) by
    log-sum-exp of log l(q_j), so margins beyond 745 (where e^-q underflows) keep full accuracy."""
    log_s = float(logsumexp(log_point_loss(margins(W, X, y, alpha))))
    s = math.exp(log_s)
    if s >= LOG2:
        return math.nan
    correction = math.log(math.expm1(s) / s) if s > 0.0 else 0.0
    return -(log_s + correction) / float(np.linalg.norm(W))


@dataclass(frozen=True)
class Clusters:
    """Sheet 1.8: w-bar, u-bar, r, rho = r / ||w-bar - u-bar|| (inf where w-bar = u-bar), theta_max (radians)."""

    w_bar: np.ndarray
    u_bar: np.ndarray
    r: float
    rho: float
    theta_max: float


def max_angle(V: np.ndarray) -> float:
    """The largest angle between two rows of V (0 for one row; pi/2 against a zero row)."""
    norms = np.linalg.norm(V, axis=1)
    if V.shape[0] < 2:
        return 0.0
    U = V / np.where(norms > 0.0, norms, 1.0)[:, None]
    cos = np.clip(U @ U.T, -1.0, 1.0)
    cos[(norms == 0.0)[:, None] | (norms == 0.0)[None, :]] = 0.0
    return float(np.arccos(np.min(cos)))


def clusters(W: np.ndarray) -> Clusters:
    """The cluster statistics of W."""
    Wp, Wm = halves(W)
    w_bar, u_bar = Wp.mean(axis=0), Wm.mean(axis=0)
    r = float(max(np.max(np.linalg.norm(Wp - w_bar, axis=1)), np.max(np.linalg.norm(Wm - u_bar, axis=1))))
    gap = float(np.linalg.norm(w_bar - u_bar))
    return Clusters(w_bar, u_bar, r, r / gap if gap > 0.0 else math.inf, max(max_angle(Wp), max_angle(Wm)))


@dataclass(frozen=True)
class Agreement:
    """Definition 6.2 read off W: ``s_plus`` / ``s_minus`` the common signs of <w^(i), x_j> / <u^(i), x_j> (None where
    the neurons of that type disagree or one is 0 on some point), ``gamma`` = gamma_NAR(W) (NaN without agreement),
    ``d_max`` the largest number of points on which two same-type neurons disagree in sign (sheet 3, Fig. 9 (c))."""

    s_plus: np.ndarray | None
    s_minus: np.ndarray | None
    gamma: float
    d_max: int

    @property
    def nar(self) -> bool:
        return self.s_plus is not None and self.s_minus is not None

    def par(self, y: np.ndarray) -> bool:
        """In the NAR of Definition 6.3 (s+ = y, s- = -y)."""
        return self.nar and bool(np.all(self.s_plus == y) and np.all(self.s_minus == -np.asarray(y)))


def _common_sign(P: np.ndarray) -> np.ndarray | None:
    """The sign shared by every column of P (n, k) on each row, or None."""
    s = np.sign(P)
    if np.any(s == 0.0) or np.any(s != s[:, :1]):
        return None
    return s[:, 0]


def _disagreements(P: np.ndarray) -> int:
    s = P > 0.0
    k = s.shape[1]
    return max((int(np.sum(s[:, i] != s[:, j])) for i in range(k) for j in range(i + 1, k)), default=0)


def products(W: np.ndarray, X: np.ndarray, on_kink: np.ndarray | None = None) -> np.ndarray:
    """<x_i, w^(j)> (n, 2k), exactly 0 where ``on_kink`` marks a pair sliding on its kink."""
    P = np.asarray(X, float) @ np.asarray(W, float).T
    if on_kink is not None:
        P = np.where(on_kink, 0.0, P)
    return P


def agreement(W: np.ndarray, X: np.ndarray, on_kink: np.ndarray | None = None) -> Agreement:
    """The NAR reading of W on the data X (global normalisation, sheet 1.9); ``on_kink`` (n, 2k) marks the pairs an
    exact flow holds at <w, x> = 0 (sliding: :func:`verify.trajectory.sliding_mask`), read as 0, not as rounding."""
    P = products(W, X, on_kink)
    k = P.shape[1] // 2
    Pp, Pm = P[:, :k], P[:, k:]
    sp, sm = _common_sign(Pp), _common_sign(Pm)
    gamma = math.nan
    if sp is not None and sm is not None:
        gamma = float(min(np.min(sp[:, None] * Pp), np.min(sm[:, None] * Pm)) / np.linalg.norm(W))
    return Agreement(sp, sm, gamma, max(_disagreements(Pp), _disagreements(Pm)))


def teacher_stack(w_star: np.ndarray, k: int) -> np.ndarray:
    """W* = (w*, ..., w*, -w*, ..., -w*) (k copies each; sheet 1.11), ||W*|| = sqrt(2k) ||w*||."""
    w = np.asarray(w_star, float)
    return np.vstack([np.tile(w, (k, 1)), np.tile(-w, (k, 1))])


def teacher_correlation(W: np.ndarray, w_star: np.ndarray) -> float:
    """F(W) = <W, W*> = sum_i <w^(i), w*> - sum_i <u^(i), w*>."""
    Wp, Wm = halves(W)
    w = np.asarray(w_star, float)
    return float(np.sum(Wp @ w) - np.sum(Wm @ w))
