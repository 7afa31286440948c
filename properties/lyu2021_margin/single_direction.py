"""Seed 003's max margins over restricted classes of networks (claim sheet 003 C-T4.2 (b), C-S6-intro, C-T6.2), as
:class:`max_margin.Bracket`'s [lower, upper] on sup gamma, the lower end realised by a net whose margin is re-measured:

- One neuron: an SVM on rescaled points (:func:`single_neuron`). One direction (C-S6-intro: f = A phi(<u, x>) -
  B phi(-<u, x>), A + B = 1/2): per u the LP in (A, B) is solved exactly (:func:`direction_values`), over u by branch
  and bound on the sphere (:func:`sphere_sup`).
- The linear nets (at most ((1 + alpha)/4) gamma_lin, any data) and the single leaky unit (1/2) phi(<w*, x>) of
  Theorem 6.2.
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache
from typing import Callable

import numpy as np

from verify.data.dataset import Dataset
from verify.margins import max_margin

from properties.lyu2021_margin._shared import U_ROUND
from properties.lyu2021_margin.max_margin import (Bracket, _data, _face_boxes, _frozen, _key, linear_bracket,
                                                  margin_error, min_norm_bracket, net_from_measure)
from properties.lyu2021_margin.network import normalised_margin, phi

BB_TOL = 1e-6  # branch and bound: the certified upper end is within BB_TOL * max||x|| of the best point found


# --- branch and bound on the sphere ---------------------------------------------------------------------------------

def _children(C: np.ndarray, axes: np.ndarray, r: float) -> np.ndarray:
    """The 2^(d-1) children centres C +- r/2 (on the free coordinates) of each box of half-width r."""
    N, d = C.shape
    free = np.ones((N, d), dtype=bool)
    free[np.arange(N), axes] = False
    out = []
    for sgn in itertools.product((-1.0, 1.0), repeat=d - 1):
        child = C.copy()
        child[free] += np.tile(np.asarray(sgn) * (r / 2.0), N)
        out.append(child)
    return np.stack(out, axis=1).reshape(-1, d)


def sphere_sup(f: Callable[[np.ndarray], np.ndarray], bound: Callable[[np.ndarray, float], np.ndarray], d: int,
               tol: float, fp: float = 0.0, max_boxes: int = 300_000) -> tuple[float, np.ndarray, float]:
    """(best, argmax, upper) for sup_{||u|| = 1} f(u), f vectorised over rows, by branch and bound on the cube's face
    boxes: ``bound(U, rho)`` bounds f above on the chord ball of radius rho around each row of U, and a box of
    half-width r lies within rho = sqrt(d - 1) r of its centre's direction (v -> v / ||v||_inf maps onto the faces,
    p -> p / ||p|| is 1-Lipschitz on ||p|| >= 1). Boxes whose bound cannot beat best + tol are pruned, the rest split in
    2^(d-1). ``upper`` is certified (the largest bound of a pruned or leftover box, plus ``fp``, the error of a computed
    f); best = f(argmax)."""
    if d == 1:
        U = np.array([[1.0], [-1.0]])
        v = f(U)
        i = int(np.argmax(v))
        return float(v[i]), U[i], float(v[i]) + fp
    C, axes, r = _face_boxes(d, 4)
    best, best_u, pruned = -math.inf, np.zeros(d), -math.inf
    while True:
        U = C / np.linalg.norm(C, axis=1, keepdims=True)
        v = f(U)
        i = int(np.argmax(v))
        if v[i] > best:
            best, best_u = float(v[i]), U[i].copy()
        up = bound(U, math.sqrt(d - 1) * r)
        keep = up > best + tol
        if np.any(~keep):
            pruned = max(pruned, float(np.max(up[~keep])))
        if not np.any(keep):
            return best, best_u, max(best, pruned) + fp
        if np.count_nonzero(keep) * 2 ** (d - 1) > max_boxes:
            return best, best_u, max(best, pruned, float(np.max(up[keep]))) + fp
        C, axes = _children(C[keep], axes[keep], r), np.repeat(axes[keep], 2 ** (d - 1))
        r /= 2.0


# --- one neuron, one direction --------------------------------------------------------------------------------------

def direction_values(U: np.ndarray, X: np.ndarray, y: np.ndarray, alpha: float,
                     slack: np.ndarray | float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(V, s) per unit row u of U: V(u) = max_{A + B = 1/2} min_i y_i (A phi(<u, x_i>) - B phi(-<u, x_i>)), the
    normalised margin of the net (sqrt A, sqrt A u), (-sqrt B, -sqrt B u), at s = 2A. With p_i = y_i phi(<u, x_i>),
    r_i = y_i phi(-<u, x_i>) it is half the max over s in [0, 1] of the lower envelope of the lines l_i(s) =
    s (p_i + r_i) - r_i, which by LP duality (two variables, two active constraints) is the least of
    max_{[0, 1]} l_i = -r_i + max(p_i + r_i, 0) and of the crossings of a rising and a falling line; s is the
    maximiser (clipped to [0, 1]). ``slack``: added to every line (l_i moves by at most ||x_i|| rho on a chord ball
    of radius rho around u, so ``slack = ||x_i|| rho`` bounds V on that ball)."""
    Z = U @ X.T
    p, r = y * phi(Z, alpha) + slack, y * phi(-Z, alpha) - slack
    slope, icpt = p + r, -r
    value = np.min(icpt + np.maximum(slope, 0.0), axis=1)
    s = np.where(slope[np.arange(len(U)), np.argmin(icpt + np.maximum(slope, 0.0), axis=1)] > 0.0, 1.0, 0.0)
    i, j = np.triu_indices(X.shape[0], 1)
    ai, aj, bi, bj = slope[:, i], slope[:, j], icpt[:, i], icpt[:, j]
    rising_falling = ai * aj < 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        cross_s = np.where(rising_falling, (bj - bi) / (ai - aj), 0.0)
        cross = np.where(rising_falling, bi + ai * cross_s, np.inf)
    k = np.argmin(cross, axis=1) if cross.shape[1] else np.zeros(len(U), dtype=int)
    if cross.shape[1]:
        rows = np.arange(len(U))
        better = cross[rows, k] < value
        value = np.where(better, cross[rows, k], value)
        s = np.where(better, np.clip(cross_s[rows, k], 0.0, 1.0), s)
    return 0.5 * value, s


def direction_net(u: np.ndarray, s: float) -> tuple[np.ndarray, np.ndarray]:
    """The two-neuron net A phi(<u, x>) - B phi(-<u, x>), A = s/2, B = (1 - s)/2: (sqrt A, sqrt A u), (-sqrt B,
    -sqrt B u) (a zero neuron is dropped)."""
    return net_from_measure(np.vstack([u, -u]), np.array([s / 2.0, -(1.0 - s) / 2.0]))


def single_direction(ds: Dataset, alpha: float, tol: float = BB_TOL) -> Bracket:
    """sup gamma over the single-direction nets f = A phi(<u, x>) - B phi(-<u, x>) (C-S6-intro), by branch and bound
    on u: on a chord ball of radius rho each line l_i moves by at most ||x_i|| rho (the ``slack`` of
    :func:`direction_values`), to within tol max||x||."""
    return _direction_bracket(_key(ds), float(alpha), float(tol))


@lru_cache(maxsize=64)
def _direction_bracket(key: tuple, alpha: float, tol: float) -> Bracket:
    X, y = _data(key)
    n, d = X.shape
    norms = np.linalg.norm(X, axis=1)
    x_max = float(np.max(norms))
    f = lambda U: direction_values(U, X, y, alpha)[0]
    bound = lambda U, rho: direction_values(U, X, y, alpha, norms * rho)[0]
    best, u, upper = sphere_sup(f, bound, d, tol * x_max, (d + 4) * U_ROUND * x_max)
    _, s = direction_values(u[None, :], X, y, alpha)
    W, a = direction_net(u, float(s[0]))
    lower = normalised_margin(X, y, W, a, alpha)
    note = f"one direction: u = {np.round(u, 6).tolist()}, A = {s[0] / 2:.6g}, realised {lower:.9g}, upper {upper:.9g}"
    return Bracket(lower, upper, *_frozen(W, a), note=note)


def single_neuron(ds: Dataset, alpha: float) -> Bracket:
    """sup gamma at width 1, f = c phi(<u, x>), |c| <= ||theta||^2 / 2. A positive margin forces the pattern: for c > 0,
    <u, x_i> has the sign of y_i, so y_i f(x_i) = c kappa_i y_i <u, x_i> (kappa_i = 1 if y_i = +1, alpha if -1), and
    sup = (1/2) max_{||u|| = 1} min_i kappa_i y_i <u, x_i> = (1/2) dist(0, conv{kappa_i y_i x_i}) (an SVM,
    :func:`min_norm_bracket`); for c < 0 the same with kappa_i = alpha if y_i = +1, 1 if -1 and the points
    -kappa_i y_i x_i. The better sign is realised by (a, w) = (+-1, u) / sqrt 2, u = p / ||p|| (sheet C-T4.2 (b))."""
    X, y = ds.X, ds.y
    out = []
    for sign, kappa in ((1.0, np.where(y > 0, 1.0, alpha)), (-1.0, np.where(y > 0, alpha, 1.0))):
        lo, hi, p = min_norm_bracket(sign * (kappa * y)[:, None] * X)
        W, a = p[None, :] / (np.linalg.norm(p) * math.sqrt(2.0)), np.array([sign / math.sqrt(2.0)])
        out.append((0.5 * hi, normalised_margin(X, y, W, a, alpha), W, a))
    upper = max(o[0] for o in out)
    _, lower, W, a = max(out, key=lambda o: o[1])
    return Bracket(lower, upper, W, a, note=f"one neuron: realised {lower:.10g}, certified upper {upper:.10g}")


# --- the linear nets and the single leaky unit ---------------------------------------------------------------------

def linear_class(ds: Dataset, alpha: float) -> Bracket:
    """sup gamma over nets computing a linear function: f = ((1 + alpha)/2) <sum a_k w_k, x> with
    ||sum a_k w_k|| <= ||theta||^2 / 2, so at most ((1 + alpha)/4) gamma_lin (any data), realised by
    (1/2)(w*, -w*, 1, -1)."""
    lo, hi, p = linear_bracket(ds)
    w_star = p / np.linalg.norm(p)
    W, a = 0.5 * np.vstack([w_star, -w_star]), np.array([0.5, -0.5])
    lower = normalised_margin(ds.X, ds.y, W, a, alpha)
    return Bracket(lower, (1.0 + alpha) / 4.0 * hi, W, a, note=f"linear: ((1+alpha)/4) gamma_lin in "
                                                                  f"[{lower:.9g}, {(1.0 + alpha) / 4.0 * hi:.9g}]")


def leaky_unit(ds: Dataset, alpha: float) -> Bracket:
    """The single leaky unit f = (1/2) phi(<w*, x>) of Theorem 6.2, theta = (w*/sqrt 2, 1/sqrt 2), ||theta|| = 1: its
    margin gamma_f_inf = (1/2) min(min_{y=+1} <w*, x>, alpha min_{y=-1} |<w*, x>|) (the bracket of this one net: its
    computed margin and that plus its float64 error)."""
    w_star = max_margin(ds).svm.direction
    w_star = w_star / np.linalg.norm(w_star)
    W, a = w_star[None, :] / math.sqrt(2.0), np.array([1.0 / math.sqrt(2.0)])
    gamma = normalised_margin(ds.X, ds.y, W, a, alpha)
    upper = gamma + margin_error(ds.n, ds.d, 1, ds.X_max)
    return Bracket(gamma, upper, W, a, note=f"(1/2) phi(<w*, x>): {gamma:.9g}")
