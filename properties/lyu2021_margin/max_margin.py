"""Seed 003's max-margin optimisers (claim sheet 003 section 4.3, C-T4.2): brackets [lower, upper] on sup gamma over a
class of networks, the lower end realised by a net whose margin is re-measured with :func:`network.normalised_margin`,
the upper end certified. d <= 3; results cached per dataset (its bytes) and alpha. The restricted classes (one neuron,
one direction, the linear nets, the single leaky unit) are in :mod:`.single_direction`.

- gamma_lin: the no-bias SVM of :func:`verify.margins.max_margin` (Clarabel + NNLS), bracketed by the margin of w*
  and by ||p||, p = Z^T lam / sum lam in conv{y_i x_i} (lam >= 0 from NNLS of w* on the support rows).
- Every width (the infinite-width LP): f = sum_j c_j phi(<u_j, x>) with sum |c_j| <= ||theta||^2 / 2, so sup gamma =
  max t s.t. y_i sum_j c_j phi(<u_j, x_i>) >= t, sum |c_j| <= 1/2 over measures on the sphere. On a finite U (HiGHS)
  the value is realised by the net (a, w) = (sign c sqrt|c|, sqrt|c| u). Weak duality: for lam in the simplex,
  sup gamma <= (1/2) max_{||u|| = 1} |g(u)|, g(u) = sum_i lam_i y_i phi(<u, x_i>), a piecewise-linear function whose
  maximisers lie in a finite set (:func:`critical_points`); its points that beat the LP join U (column generation).
  The sheet's bound LP + (1/2) h max||x|| on a grid of covering radius h is computed too, as a cross-check.
- Width m: multi-start SLSQP on (P) min (1/2)||theta||^2 s.t. q_i(theta) >= 1, analytic Jacobian (a lower end only;
  the KKT residual of :func:`network.kkt_residual` as certificate).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy.optimize import linprog, minimize, nnls

from verify.data.dataset import Dataset
from verify.margins import min_norm_point

from properties.lyu2021_margin._shared import U_ROUND
from properties.lyu2021_margin.network import kkt_residual, normalised_margin, phi

HIGHS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
LP_TOL = 1e-9  # column generation stops when no direction beats the LP value by LP_TOL * max||x||
CRITICAL_SLACK = 1e-12  # the computed critical points are within ~n d u of the exact ones: g moves by < this * max||x||
SLSQP = {"ftol": 1e-13, "maxiter": 400}
STARTS = 6
START_SEED = 3  # the seed of SLSQP's random starts (with the width)


def margin_error(n: int, d: int, m: int, x_max: float) -> float:
    """A bound on the float64 error of a computed gamma(theta) = min_i y_i f(x_i) / ||theta||^2 at width m:
    |dq_i| <= (d + m + 2) u sum_k |a_k| ||w_k|| ||x_i|| <= (d + m + 2) u ||theta||^2 x_max / 2, the norm adds
    (m d + m + 1) u |gamma| <= (m d + m + 1) u x_max / 2; doubled for second-order terms (n enters through min only)."""
    return 2.0 * (d + m + 2 + m * d + m + 1) * U_ROUND * x_max


@dataclass(frozen=True)
class Bracket:
    """sup gamma over a class of networks lies in [lower, upper]; (W, a) realises ``lower``."""

    lower: float
    upper: float
    W: np.ndarray
    a: np.ndarray
    note: str = ""


def _key(ds: Dataset) -> tuple:
    return ds.X.shape, ds.X.tobytes(), ds.y.tobytes()


def _data(key: tuple) -> tuple[np.ndarray, np.ndarray]:
    shape, xb, yb = key
    return np.frombuffer(xb).reshape(shape), np.frombuffer(yb)


def _frozen(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    for arr in arrays:
        arr.setflags(write=False)
    return arrays


# --- the linear max margin ------------------------------------------------------------------------------------------

def linear_bracket(ds: Dataset) -> tuple[float, float, np.ndarray]:
    """(lo, hi, p) with gamma_lin in [lo, hi]: :func:`min_norm_bracket` of the points y_i x_i."""
    return _min_norm_bracket(_rows_key(ds.y[:, None] * ds.X))


def min_norm_bracket(Z: np.ndarray) -> tuple[float, float, np.ndarray]:
    """(lo, hi, p) with max_{||w|| = 1} min_i <w, z_i> = dist(0, conv{z_i}) in [lo, hi]: w = the direction of
    :func:`verify.margins.min_norm_point` (the no-bias SVM, Clarabel + NNLS), lo = min_i <w, z_i>, hi = ||p|| for
    p = Z^T lam / sum lam in conv{z_i} (lam >= 0 from NNLS of w on the support rows, all rows if that fails), both
    widened by their float64 error."""
    return _min_norm_bracket(_rows_key(Z))


def _rows_key(Z: np.ndarray) -> tuple:
    Z = np.ascontiguousarray(Z, dtype=float)
    return Z.shape, Z.tobytes()


@lru_cache(maxsize=128)
def _min_norm_bracket(key: tuple) -> tuple[float, float, np.ndarray]:
    shape, zb = key
    Z = np.frombuffer(zb).reshape(shape)
    n, d = Z.shape
    svm = min_norm_point(Z)
    if svm.direction is None:
        raise ValueError(f"not linearly separable through the origin: {svm.reason}")
    w = svm.direction / np.linalg.norm(svm.direction)
    z_max = float(np.max(np.linalg.norm(Z, axis=1)))
    lo = float(np.min(Z @ w)) - (2 * d + 2) * U_ROUND * z_max
    for rows in (sorted(set(svm.support) | set(svm.weakly_active)), list(range(n))):
        lam, _ = nnls(Z[rows].T, w) if rows else (np.zeros(0), 0.0)
        if lam.sum() > 0.0:
            p = Z[rows].T @ lam / lam.sum()
            return lo, float(np.linalg.norm(p)) + (n + d + 2) * U_ROUND * z_max, _frozen(p)[0]
    raise RuntimeError("no non-negative combination of the points along w")


# --- grids on the sphere --------------------------------------------------------------------------------------------

def _face_boxes(d: int, per_axis: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Centres (on the cube [-1, 1]^d) and face axes of per_axis^(d-1) boxes per face, and their half-width."""
    ticks = -1.0 + (2.0 * np.arange(per_axis) + 1.0) / per_axis
    grid = np.array(list(itertools.product(ticks, repeat=d - 1))).reshape(-1, d - 1)
    centres, axes = [], []
    for k in range(d):
        for s in (1.0, -1.0):
            C = np.insert(grid, k, s, axis=1)
            centres.append(C)
            axes.append(np.full(len(C), k))
    return np.vstack(centres), np.concatenate(axes), 1.0 / per_axis


def sphere_grid(d: int, per_axis: int) -> tuple[np.ndarray, float]:
    """Unit directions from the box centres of the cube's faces and their covering radius bound
    h = sqrt(d - 1) / per_axis: every unit v maps to v / ||v||_inf on a face, within sqrt(d - 1) r of a centre, and
    p -> p / ||p|| is 1-Lipschitz on ||p|| >= 1."""
    if d == 1:
        return np.array([[1.0], [-1.0]]), 0.0
    C, _, r = _face_boxes(d, per_axis)
    return C / np.linalg.norm(C, axis=1, keepdims=True), math.sqrt(d - 1) * r



# --- the exact sup of a piecewise-linear g on the sphere ------------------------------------------------------------

def _planes(X: np.ndarray, tau: float = 1e-12) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(normals, plane_of, orient): the distinct planes x_i^perp as unit normals N_p; x_i = o_i ||x_i|| N_p(i)."""
    U = X / np.linalg.norm(X, axis=1, keepdims=True)
    normals: list[np.ndarray] = []
    plane_of, orient = np.zeros(len(X), dtype=int), np.ones(len(X))
    for i, u in enumerate(U):
        dots = [float(u @ nrm) for nrm in normals]
        hit = [p for p, c in enumerate(dots) if abs(abs(c) - 1.0) <= tau]
        if hit:
            plane_of[i], orient[i] = hit[0], math.copysign(1.0, dots[hit[0]])
        else:
            plane_of[i] = len(normals)
            normals.append(u)
    return np.array(normals), plane_of, orient


def critical_points(X: np.ndarray, weights: np.ndarray, alpha: float, tau: float = 1e-10) -> np.ndarray:
    """Unit points containing every maximiser of +-g on the sphere, g(u) = sum_i weights_i phi(<u, x_i>), d <= 3.

    g is linear, <v_K, u>, on each closed cell K of the arrangement of the planes x_i^perp, so its max over K is at
    v_K / ||v_K|| (inside K), at the normalised projection of v_K on a plane x_p^perp (inside an edge), or at a vertex.
    Every cell touches a vertex (the intersections of two distinct planes; a point of the plane if there is only
    one), and every edge of a cell ends at a vertex on its plane: so the candidates are the vertices V, and for every
    sign pattern of the planes through V (|<N_p, V>| <= tau) the points +-v_K and their projections on those planes."""
    n, d = X.shape
    if d == 1:
        return np.array([[1.0], [-1.0]])
    if d > 3:
        raise ValueError(f"the critical points are enumerated for d <= 3, not d = {d}")
    N, plane_of, orient = _planes(X)
    if d == 2:
        verts = N @ np.array([[0.0, 1.0], [-1.0, 0.0]])
    elif len(N) == 1:
        e = np.eye(3)[int(np.argmin(np.abs(N[0])))]
        verts = np.cross(N[0], e)[None, :]
    else:
        p, q = np.triu_indices(len(N), 1)
        verts = np.cross(N[p], N[q])
    verts = verts / np.linalg.norm(verts, axis=1, keepdims=True)
    verts = np.vstack([verts, -verts])
    cands = [verts]
    for V in verts:
        z = N @ V
        through = np.flatnonzero(np.abs(z) <= tau)
        signs = np.sign(z)
        for combo in itertools.product((-1.0, 1.0), repeat=len(through)):
            signs[through] = combo
            slope = np.where(orient * signs[plane_of] > 0.0, 1.0, alpha)
            v = (weights * slope) @ X
            pts = [v] + [v - (v @ N[k]) * N[k] for k in through]
            cands.append(np.vstack(pts + [-pt for pt in pts]))
    C = np.vstack(cands)
    norms = np.linalg.norm(C, axis=1)
    C = C[norms > 0.0] / norms[norms > 0.0, None]
    _, first = np.unique(np.round(C, 12), axis=0, return_index=True)
    return C[np.sort(first)]


# --- networks from directions ---------------------------------------------------------------------------------------

def net_from_measure(U: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The net of f = sum_j c_j phi(<u_j, x>): neurons (a, w) = (sign c sqrt|c|, sqrt|c| u) for c != 0, so that
    ||theta||^2 = 2 sum |c_j|."""
    live = np.abs(c) > 0.0
    root = np.sqrt(np.abs(c[live]))
    return root[:, None] * U[live], np.sign(c[live]) * root


# --- every width: the infinite-width LP -----------------------------------------------------------------------------

@dataclass(frozen=True)
class GlobalBracket(Bracket):
    """:class:`Bracket` of sup gamma over all widths, with the sheet's grid bound LP + (1/2) h sum lam_i ||x_i|| (an
    independent, looser certificate)."""

    upper_grid: float = math.inf


def global_margin(ds: Dataset, alpha: float, per_axis: int = 6, rounds: int = 60) -> GlobalBracket:
    """The infinite-width LP (sheet 4.3) on the directions +-x_i / ||x_i|| and +-w*, grown by column generation: the
    critical points of the dual function with (1/2)|g| > t + LP_TOL max||x|| join U until there are none (or
    ``rounds`` LPs); the upper end is (1/2) max |g| over them, checked against a cube-sphere grid (``per_axis`` boxes
    per face axis), which also gives the sheet's looser bound."""
    return _global_margin(_key(ds), float(alpha), per_axis, rounds)


def _lp(Phi: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """(c, t, lam): max t s.t. Phi c >= t, sum |c| <= 1/2 (c = c+ - c-), and the rows' multipliers in the simplex."""
    n, N = Phi.shape
    A = np.vstack([np.hstack([-Phi, Phi, np.ones((n, 1))]), np.r_[np.ones(2 * N), 0.0][None, :]])
    cost = np.zeros(2 * N + 1)
    cost[-1] = -1.0
    res = linprog(cost, A_ub=A, b_ub=np.r_[np.zeros(n), 0.5], bounds=[(0, None)] * (2 * N) + [(None, None)],
                  method="highs", options=HIGHS)
    if res.status != 0:
        raise RuntimeError(f"HiGHS: {res.message}")
    lam = np.maximum(0.0, -res.ineqlin.marginals[:n])
    return res.x[:N] - res.x[N:2 * N], -float(res.fun), lam / lam.sum()


@lru_cache(maxsize=64)
def _global_margin(key: tuple, alpha: float, per_axis: int, rounds: int) -> GlobalBracket:
    X, y = _data(key)
    n, d = X.shape
    norms = np.linalg.norm(X, axis=1)
    x_max = float(np.max(norms))
    grid, h = sphere_grid(d, per_axis)
    _, _, p = _min_norm_bracket(_rows_key(y[:, None] * X))
    w_star = p / np.linalg.norm(p)
    U = np.vstack([X / norms[:, None], -X / norms[:, None], w_star, -w_star])
    fp = (d + n + 2) * U_ROUND * x_max
    for round_ in range(rounds):
        c, t, lam = _lp(y[:, None] * phi(X @ U.T, alpha))
        half_g = lambda V: 0.5 * np.abs(phi(V @ X.T, alpha) @ (lam * y))
        cands = critical_points(X, lam * y, alpha)
        vals = half_g(cands)
        new = np.flatnonzero(vals > t + LP_TOL * x_max)
        if not len(new) or round_ == rounds - 1:
            break
        U = np.vstack([U, cands[new]])
    upper = float(np.max(vals)) + CRITICAL_SLACK * x_max + fp
    on_grid = float(np.max(half_g(grid)))
    if on_grid > upper:
        raise RuntimeError("the dual function exceeds its critical points on the grid: the enumeration missed a cell")
    upper_grid = on_grid + 0.5 * h * float(lam @ norms) + fp
    W, a = net_from_measure(U, c)
    lower = normalised_margin(X, y, W, a, alpha)
    return GlobalBracket(lower, min(upper, upper_grid), *_frozen(W, a),
                         note=f"LP on {len(U)} directions (value {t:.10g}): realised {lower:.10g}, certified upper "
                              f"{upper:.10g} (grid bound {upper_grid:.4g}, h = {h:.3g})", upper_grid=upper_grid)


# --- width m: SLSQP on (P) ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FixedWidth:
    """The best of the multi-start SLSQP runs on (P) at width m: its normalised margin (re-measured), its (W, a), the
    KKT residual (eps, delta) of (P) at its direction, and how many starts reached q_min > 0."""

    gamma: float
    W: np.ndarray
    a: np.ndarray
    kkt: tuple[float, float]
    feasible_starts: int


def fixed_width(ds: Dataset, alpha: float, m: int, starts: int = STARTS) -> FixedWidth:
    """Multi-start SLSQP on (P) min (1/2)||theta||^2 s.t. q_i(theta) >= 1 at width m, with the analytic Jacobian
    dq_i/dw_k = y_i a_k phi'(<w_k, x_i>) x_i, dq_i/da_k = y_i phi(<w_k, x_i>); seeded Gaussian starts."""
    return _fixed_width(_key(ds), float(alpha), int(m), int(starts))


@lru_cache(maxsize=256)
def _fixed_width(key: tuple, alpha: float, m: int, starts: int) -> FixedWidth:
    X, y = _data(key)
    n, d = X.shape
    split = m * d

    def unpack(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return theta[:split].reshape(m, d), theta[split:]

    def q_minus_one(theta: np.ndarray) -> np.ndarray:
        W, a = unpack(theta)
        return y * (phi(X @ W.T, alpha) @ a) - 1.0

    def jacobian(theta: np.ndarray) -> np.ndarray:
        W, a = unpack(theta)
        Z = X @ W.T
        slope = np.where(Z > 0.0, 1.0, alpha)
        dW = (y[:, None] * slope * a[None, :])[:, :, None] * X[:, None, :]
        return np.hstack([dW.reshape(n, split), y[:, None] * phi(Z, alpha)])

    rng = np.random.default_rng([START_SEED, m])
    best: tuple[float, np.ndarray] | None = None
    feasible = 0
    for _ in range(starts):
        theta0 = rng.standard_normal(split + m) * math.sqrt(2.0 / (split + m))
        res = minimize(lambda t: 0.5 * float(t @ t), theta0, jac=lambda t: t, method="SLSQP",
                       constraints=[{"type": "ineq", "fun": q_minus_one, "jac": jacobian}], options=SLSQP)
        W, a = unpack(res.x)
        if not np.any(res.x):
            continue
        gamma = normalised_margin(X, y, W, a, alpha)
        feasible += gamma > 0.0
        if best is None or gamma > best[0]:
            best = (gamma, res.x.copy())
    if best is None:
        raise RuntimeError("every SLSQP start collapsed to theta = 0")
    W, a = unpack(best[1])
    return FixedWidth(best[0], *_frozen(W.copy(), a.copy()), kkt_residual(X, y, W, a, alpha), feasible)
