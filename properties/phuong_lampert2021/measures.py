"""Seed 000's trajectory quantities (claim sheet 000 section 4 item 10 and PL-T1's numeric check), parameter-free:
the neuron groups and T^, the best finite-time u, z, the distances D_W and D_a of eqs. (8)-(9), the cosines with
w+- and with m+-, the normalised margin gamma~ of PL-X6, the norm ratio of PL-X5 and Corollary 1's limit function.

The paper's a_j is the engine's v_j. Every function reads a run's samples with the exact t = 0 state first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from properties.phuong_lampert2021 import sectors

DEAD, NONE = 0, 2  # group labels besides +1 (J+) and -1 (J-); NONE: not yet dead nor in its extremal sector
SECTOR_RTOL = 1e-12  # |w^T x_k| <= SECTOR_RTOL ||w|| ||x_k|| counts as 0 (sheet 5.4: compare modulo the zero set)


@dataclass(frozen=True)
class Samples:
    """A run's states: times t (k,), first layers W (k, p, d), second layers a (k, p), initial signs s (p,)."""

    t: np.ndarray
    W: np.ndarray
    a: np.ndarray
    s: np.ndarray


def samples(run: Any) -> Samples:
    """The sampled states with the exact initial state prepended (when the run does not sample t = 0)."""
    t, W, a = np.asarray(run.times, float), np.asarray(run.W, float), np.asarray(run.v, float)
    W0, a0 = np.asarray(run.W0, float), np.asarray(run.v0, float)
    if t[0] > 0.0:
        t, W, a = np.r_[0.0, t], np.concatenate([W0[None], W]), np.concatenate([a0[None], a])
    return Samples(t, W, a, np.sign(a0))


def state_tolerance(run: Any) -> float:
    """Relative error level of a sampled state: 10 (rtol + the engine's accumulated error estimate)."""
    traj = run.trajectory
    est = float(traj.error_estimate) if traj is not None and math.isfinite(traj.error_estimate) else 0.0
    return 10.0 * (float(run.params.get("rtol") or 1e-10) + est)


def extremal_sectors(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sigma+ = sign(X m+) and sigma- = sign(X m-) (PL-X3; exact zero entries where the data are rational)."""
    _, plus, minus, _ = sectors.signs(X, y)
    return np.asarray(plus, int), np.asarray(minus, int)


def pattern(X: np.ndarray, w: np.ndarray, rtol: float = SECTOR_RTOL) -> np.ndarray:
    """sign(X w) with |x_k^T w| <= rtol ||x_k|| ||w|| read as 0."""
    p = X @ w
    scale = rtol * np.linalg.norm(X, axis=1) * np.linalg.norm(w)
    return np.where(np.abs(p) <= scale, 0, np.sign(p)).astype(int)


def in_sector(X: np.ndarray, w: np.ndarray, sigma: np.ndarray, rtol: float = SECTOR_RTOL) -> bool:
    """w in S_sigma modulo the zero set: the signs agree wherever sigma_k != 0, |x_k^T w| ~ 0 where sigma_k = 0."""
    return bool(np.array_equal(pattern(X, w, rtol), sigma))


def groups(X: np.ndarray, W: np.ndarray, a: np.ndarray, sigma_plus: np.ndarray, sigma_minus: np.ndarray,
           rtol: float = SECTOR_RTOL) -> np.ndarray:
    """Per neuron: DEAD (sigma <= 0), +1 (a_j > 0 and w_j in S_sigma+), -1 (a_j < 0, S_sigma-) or NONE."""
    out = np.full(W.shape[0], NONE, dtype=int)
    for j, (w, aj) in enumerate(zip(W, a)):
        p = pattern(X, w, rtol)
        if np.all(p <= 0):
            out[j] = DEAD
        elif aj > 0 and np.array_equal(p, sigma_plus):
            out[j] = 1
        elif aj < 0 and np.array_equal(p, sigma_minus):
            out[j] = -1
    return out


def entry_index(X: np.ndarray, y: np.ndarray, smp: Samples, rtol: float = SECTOR_RTOL) -> int | None:
    """Index of the first sample at which every neuron is dead or in its extremal sector (T^ of sheet 1.8)."""
    sp, sm = extremal_sectors(X, y)
    for k in range(smp.t.size):
        if np.all(groups(X, smp.W[k], smp.a[k], sp, sm, rtol) != NONE):
            return k
    return None


def optimal_uz(W: np.ndarray, grp: np.ndarray, w_plus: np.ndarray, w_minus: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """u_j = max(0, <w_j, w+>) / (||W||_F ||w+||^2) on J+ (0 elsewhere), z_j likewise on J- (PL-T1 structure)."""
    norm_W = float(np.linalg.norm(W))
    u = np.where(grp == 1, np.maximum(0.0, W @ w_plus), 0.0) / (norm_W * float(w_plus @ w_plus))
    z = np.where(grp == -1, np.maximum(0.0, W @ w_minus), 0.0) / (norm_W * float(w_minus @ w_minus))
    return u, z


def theorem1_distances(W: np.ndarray, a: np.ndarray, grp: np.ndarray, w_plus: np.ndarray,
                       w_minus: np.ndarray) -> tuple[float, float]:
    """D_W = ||W/||W||_F - u w+^T - z w-^T||_F (eq. 8) and D_a = ||a/||a|| - (||w+|| u - ||w-|| z)|| (eq. 9)."""
    u, z = optimal_uz(W, grp, w_plus, w_minus)
    D_W = float(np.linalg.norm(W / np.linalg.norm(W) - np.outer(u, w_plus) - np.outer(z, w_minus)))
    D_a = float(np.linalg.norm(a / np.linalg.norm(a) - (np.linalg.norm(w_plus) * u - np.linalg.norm(w_minus) * z)))
    return D_W, D_a


def cosines(W: np.ndarray, signs: np.ndarray, plus: np.ndarray, minus: np.ndarray) -> np.ndarray:
    """cos(w_j, target of sign(a_j)): ``plus`` for a_j > 0, ``minus`` for a_j < 0."""
    targets = np.where(signs[:, None] > 0, plus[None], minus[None])
    return np.sum(W * targets, axis=1) / (np.linalg.norm(W, axis=1) * np.linalg.norm(targets, axis=1))


def log_loss(X: np.ndarray, y: np.ndarray, W: np.ndarray, a: np.ndarray, loss: Any) -> float:
    """ln l(theta) of the summed loss, finite where l underflows."""
    f = np.maximum(X @ W.T, 0.0) @ a
    return loss.log_total(y, f)


def normalised_margin(X: np.ndarray, y: np.ndarray, W: np.ndarray, a: np.ndarray, loss: Any) -> float | None:
    """gamma~ = g(log 1/l) / ||theta||^2 with g(q) = -log(exp(exp(-q)) - 1) = -log(expm1(l)) (PL-X6, CE);
    None while l >= log 2 (before the monotone phase)."""
    value = math.exp(log_loss(X, y, W, a, loss))
    if value >= math.log(2.0):
        return None
    return -math.log(math.expm1(value)) / float(np.sum(W**2) + np.sum(a**2))


def group_norm_ratio(W: np.ndarray, grp: np.ndarray) -> float | None:
    """||W_+||_F^2 / ||W_-||_F^2 (PL-X5); None while J- has no weight."""
    minus = float(np.sum(W[grp == -1] ** 2))
    return None if minus == 0.0 else float(np.sum(W[grp == 1] ** 2)) / minus


def corollary1_gap(W: np.ndarray, a: np.ndarray, points: np.ndarray, w_plus: np.ndarray, w_minus: np.ndarray,
                   U: float, Z: float) -> float:
    """sup_x |f(x)/||theta||^2 - (U rho(w+^T x) - Z rho(w-^T x))| / sup_x |limit| over ``points`` (Corollary 1)."""
    theta2 = float(np.sum(W**2) + np.sum(a**2))
    F = np.maximum(points @ W.T, 0.0) @ a / theta2
    limit = U * np.maximum(points @ w_plus, 0.0) - Z * np.maximum(points @ w_minus, 0.0)
    return float(np.max(np.abs(F - limit)) / np.max(np.abs(limit)))


def decade_indices(t: np.ndarray, start: float) -> np.ndarray:
    """Indices of the samples closest to 10^k for every whole decade 10^k in [start, t[-1]]."""
    ks = np.arange(math.ceil(math.log10(start)), math.floor(math.log10(t[-1])) + 1)
    idx = [int(np.argmin(np.abs(np.log(t[1:]) - k * math.log(10.0)))) + 1 for k in ks]
    return np.unique(np.asarray(idx, dtype=int))
