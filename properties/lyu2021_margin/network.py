"""Seed 003's network and its margins (claim sheet 003 sections 1.2, 1.4, 4.3-4.6), for theta = (W, a) with W the
(m, d) first layer and a the (m,) second layer (the engine's v).

- phi(z) = max(z, alpha z), f_theta(x) = sum_k a_k phi(<w_k, x>);
- q_i = y_i f(x_i), gamma(theta) = min_i q_i / ||theta||^2 (the normalised margin, L = 2);
- the even part f(x) + f(-x) = (1 - alpha) sum_k a_k |<w_k, x>| and its index N(theta) (sheet 4.6, Gaussian closed form);
- the odd part sum_k a_k w_k / ||theta||^2;
- the smoothed margin of the mean logistic loss, gamma~ = -log(expm1(n L)) / ||theta||^2 (sheet 4.4);
- the KKT residual of (P) at a direction (sheet 4.5).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import nnls

from verify.model.losses import get_loss


def phi(z: np.ndarray, alpha: float) -> np.ndarray:
    """Leaky ReLU phi(z) = max(z, alpha z) (alpha in [0, 1])."""
    z = np.asarray(z, dtype=float)
    return np.where(z > 0.0, z, alpha * z)


def outputs(X: np.ndarray, W: np.ndarray, a: np.ndarray, alpha: float) -> np.ndarray:
    """f_theta(x_i) = sum_k a_k phi(<w_k, x_i>) for every row of X."""
    return phi(np.asarray(X, float) @ np.asarray(W, float).T, alpha) @ np.asarray(a, float)


def norm_sq(W: np.ndarray, a: np.ndarray) -> float:
    """||theta||^2 = ||W||_F^2 + ||a||^2."""
    return float(np.sum(np.asarray(W, float) ** 2) + np.sum(np.asarray(a, float) ** 2))


def margins(X: np.ndarray, y: np.ndarray, W: np.ndarray, a: np.ndarray, alpha: float) -> np.ndarray:
    """q_i(theta) = y_i f_theta(x_i)."""
    return np.asarray(y, float) * outputs(X, W, a, alpha)


def normalised_margin(X: np.ndarray, y: np.ndarray, W: np.ndarray, a: np.ndarray, alpha: float) -> float:
    """gamma(theta) = q_min(theta) / ||theta||^2 (2-homogeneous net; sheet 1.4)."""
    return float(np.min(margins(X, y, W, a, alpha)) / norm_sq(W, a))


def odd_part(W: np.ndarray, a: np.ndarray) -> np.ndarray:
    """sum_k a_k w_k / ||theta||^2: f(x) - f(-x) = (1 + alpha) <sum_k a_k w_k, x> (identity I1)."""
    return np.asarray(a, float) @ np.asarray(W, float) / norm_sq(W, a)


def even_part_index(W: np.ndarray, a: np.ndarray, alpha: float) -> float:
    """N(theta) = ((1 - alpha)/2) sqrt(E_x[(sum_k a_k |<w_k, x>|)^2]) / ||theta||^2, x ~ N(0, I), by the closed form
    E|<u, x>||<v, x>| = (2/pi) ||u|| ||v|| (sqrt(1 - rho^2) + rho arcsin rho), rho = cos(u, v) (sheet 4.6). N = 0 iff f
    is linear."""
    W, a = np.asarray(W, float), np.asarray(a, float)
    norms = np.linalg.norm(W, axis=1)
    live = norms > 0.0
    if not np.any(live):
        return 0.0
    U = W[live] / norms[live, None]
    rho = np.clip(U @ U.T, -1.0, 1.0)
    K = (2.0 / math.pi) * (np.sqrt(1.0 - rho**2) + rho * np.arcsin(rho)) * np.outer(norms[live], norms[live])
    c = a[live]
    return float(0.5 * (1.0 - alpha) * math.sqrt(max(0.0, float(c @ K @ c))) / norm_sq(W, a))


def even_part_sup(W: np.ndarray, a: np.ndarray, alpha: float, directions: np.ndarray) -> float:
    """max over unit test directions x of |f(x) + f(-x)| / (2 ||theta||^2) = ((1-alpha)/2) |sum_k a_k |<w_k, x>|| /
    ||theta||^2 (sheet 4.6's sup proxy; (1-alpha)/4 for the single unit (1/2) phi(<w*, x>))."""
    D = np.asarray(directions, float)
    D = D / np.linalg.norm(D, axis=1, keepdims=True)
    even = 0.5 * (1.0 - alpha) * np.abs(np.abs(D @ np.asarray(W, float).T) @ np.asarray(a, float))
    return float(np.max(even) / norm_sq(W, a))


def mean_loss(X: np.ndarray, y: np.ndarray, W: np.ndarray, a: np.ndarray, alpha: float) -> float:
    """L(theta) = (1/n) sum_i log(1 + exp(-q_i)) (sheet 1.3, a mean)."""
    q = margins(X, y, W, a, alpha)
    return float(np.mean(np.logaddexp(0.0, -q)))


def smoothed_margin(X: np.ndarray, y: np.ndarray, W: np.ndarray, a: np.ndarray, alpha: float) -> float | None:
    """gamma~ = -log(exp(n L) - 1) / ||theta||^2 with n L = sum_i log(1 + e^-q_i) computed in log space (sheet 4.4);
    None where n L >= ln 2 (gamma~ is defined and monotone only below it)."""
    log_nl = get_loss("logistic").log_total(np.asarray(y, float), outputs(X, W, a, alpha))
    if not log_nl < math.log(math.log(2.0)):
        return None
    nl = math.exp(log_nl)
    return float(-math.log(math.expm1(nl)) / norm_sq(W, a))


def kkt_residual(X: np.ndarray, y: np.ndarray, W: np.ndarray, a: np.ndarray, alpha: float,
                 active_tol: float = 1e-3) -> tuple[float, float]:
    """(eps_KKT, delta_KKT) of problem (P) at the direction of theta (sheet 4.5): theta~ = theta / sqrt(q_min); active
    set A = {i : q_i(theta~) <= 1 + active_tol}; h_i = grad q_i(theta~) (slope 1 where <w_k, x_i> > 0, alpha where < 0,
    the two one-sided choices both offered at an exact kink); eps_KKT = min_{lambda >= 0} ||theta~ - sum lambda_i h_i|| /
    ||theta~|| (NNLS), delta_KKT = sum_i lambda_i (q_i - 1)."""
    X, y, W, a = (np.asarray(v, float) for v in (X, y, W, a))
    q = margins(X, y, W, a, alpha)
    qmin = float(np.min(q))
    if not qmin > 0.0:
        return math.inf, math.inf
    scale = 1.0 / math.sqrt(qmin)
    Wt, at, qt = W * scale, a * scale, q / qmin
    theta = np.r_[Wt.ravel(), at]
    columns, owners = [], []
    for i in np.flatnonzero(qt <= 1.0 + active_tol):
        z = Wt @ X[i]
        slopes = [np.where(z > 0.0, 1.0, alpha)]
        if np.any(z == 0.0):
            slopes.append(np.where(z >= 0.0, 1.0, alpha))
        for slope in slopes:
            gW = y[i] * (at * slope)[:, None] * X[i][None, :]
            columns.append(np.r_[gW.ravel(), y[i] * phi(z, alpha)])
            owners.append(i)
    if not columns:
        return math.inf, math.inf
    lam, res = nnls(np.column_stack(columns), theta)
    delta = float(sum(l * (qt[i] - 1.0) for l, i in zip(lam, owners)))
    return float(res / np.linalg.norm(theta)), delta
