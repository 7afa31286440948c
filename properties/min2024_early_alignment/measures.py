"""Measurements along runs for seed 004's Theorem 1 claims (sheet sections 2.E-2.H).

Everything works on the exact polar state (log-norms r, unit directions U, signs s), so it
applies at theorem-scale eps (1e-4000) where the Cartesian weights and outputs underflow:

- :func:`polar_samples` - (times, r, U, s) including the exact initial state at t = 0;
- :func:`log_outputs` - ln|f(x_i)| and sign(f(x_i)) by a signed log-sum-exp, plus ln of the
  absolute sum (the conditioning of f, used in error estimates);
- (the error level of a run's states is :func:`properties.min2024_early_alignment.patterns.state_error`);
- :func:`preact` / :func:`region_margins` - signed distances to S+, S-, S_dead (boundary inactive);
- :func:`pattern_history` / :func:`alignment_time` - the exact per-neuron activation patterns
  from the event log (or the limit engine's history) and the empirical t1;
- :func:`empirical_t2` - the bracket of t2+- = inf{t : max_{i in I+-} |f+-(x_i)| > 1/4} (R16);
- :func:`log_loss` - ln L along the run (finite where L underflows);
- closed forms used as known answers: :func:`p9_dead_time`;
- paths (EA-E5): :func:`arrival`, :func:`path_travel_time`, :func:`dead_path_bound`, :func:`first_exceed`;
- refined alignment (EA-F5): :func:`refined_aligning_vector`, :func:`cosines`;
- low rank (EA-G2): :func:`log_sv2` (sum of the squared non-top singular values without cancellation);
- loss along runs (EA-H5): :func:`scaled_states`, :func:`loss_rate_terms` (L_dot by the chain rule vs ||F||^2).

All logarithms are natural.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import logsumexp

from verify.model.losses import log_sum_exp
from verify.simulate import row_log_norms

from properties.min2024_early_alignment.patterns import SURFACE_TOL, pattern_intervals, state_error

SURFACE_RTOL = SURFACE_TOL  # |<x_i, u>| <= SURFACE_RTOL ||x_i||: on the hyperplane (inactive), as the engines
TIME_RTOL = 1e-9  # event-engine time claims: tol_t = TIME_RTOL * max(1, t) (sheet 3.5)
ROUND = 1e-14  # float64 rounding level of a few dozen flops on O(1) quantities


# --------------------------------------------------------------------------- polar state


def initial_polar(run: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact initial (r0, U0, s): r0_j = ln eps + ln ||W0_j||, U0_j = W0_j/||W0_j||, s_j = sign(v0_j)."""
    W0 = np.asarray(run.init.W0, dtype=float)
    r0 = row_log_norms(W0) + run.log_eps
    U0 = W0 / np.linalg.norm(W0, axis=1)[:, None]
    return r0, U0, np.sign(run.init.v0)


def polar_samples(run: Any, include_initial: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(times, r, U, s) at the run's samples, with the exact t = 0 state prepended (when absent).

    Polar trajectories give r, U directly; Cartesian ones are converted (balanced runs only:
    v_j = s_j ||w_j||).
    """
    r0, U0, s = initial_polar(run)
    traj = run.trajectory
    if traj is None:
        return np.array([0.0]), r0[None], U0[None], s
    if traj.r is not None:
        R, U = np.asarray(traj.r, float), np.asarray(traj.U, float)
    else:
        W = np.asarray(traj.W, float)
        R = np.array([row_log_norms(Wk) for Wk in W])
        with np.errstate(invalid="ignore", divide="ignore"):
            U = W / np.linalg.norm(W, axis=2)[:, :, None]
    t = np.asarray(traj.times, float)
    if include_initial and t[0] > 0.0:
        t = np.concatenate([[0.0], t])
        R = np.concatenate([r0[None], R])
        U = np.concatenate([U0[None], U])
    return t, R, U, s


def preact(X: np.ndarray, U: np.ndarray) -> np.ndarray:
    """Normalised pre-activations p_ij = <x_i, u_j>/||x_i|| for U (h, d) or (k, h, d): shape (..., n, h)."""
    Xn = X / np.linalg.norm(X, axis=1)[:, None]
    return np.einsum("nd,...hd->...nh", Xn, U)


# --------------------------------------------------------------------------- outputs and loss


def log_outputs(X: np.ndarray, R: np.ndarray, U: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ln|f_i|, sign f_i, ln sum_j |term_ij|) per sample (k, n); f_i = sum_j s_j e^{2 r_j} relu(<u_j, x_i>).

    ln|f| is -inf where f = 0 exactly (no active neuron, or exact cancellation).
    """
    R = np.atleast_2d(R)
    U = U if U.ndim == 3 else U[None]
    P = np.einsum("nd,khd->knh", X, U)
    act = np.maximum(P, 0.0)
    with np.errstate(divide="ignore"):
        logt = 2.0 * R[:, None, :] + np.log(act)  # (k, n, h), -inf where inactive
    b = np.broadcast_to(s[None, None, :], logt.shape)
    val, sign = logsumexp(logt, axis=2, b=b, return_sign=True)
    absval = logsumexp(logt, axis=2)
    val = np.where(sign == 0, -np.inf, val)
    return val, sign, absval


def outputs(X: np.ndarray, R: np.ndarray, U: np.ndarray, s: np.ndarray) -> np.ndarray:
    """f(x_i) per sample (k, n) in float64 (underflows harmlessly to 0 for tiny weights)."""
    lf, sg, _ = log_outputs(X, R, U, s)
    with np.errstate(under="ignore", over="ignore"):
        return sg * np.exp(lf)


def log_loss(field: Any, X: np.ndarray, R: np.ndarray, U: np.ndarray, s: np.ndarray) -> np.ndarray:
    """ln L(t) per sample (summed loss, finite where L underflows)."""
    F = outputs(X, R, U, s)
    return np.array([field.loss.log_total(field.y, f) for f in F])


def output_error(X: np.ndarray, R: np.ndarray, err: float) -> np.ndarray:
    """Bound on the absolute error of f_i per sample: sum_j e^{2 r_j} ||x_i|| (2 err + err) (k,)."""
    with np.errstate(under="ignore", over="ignore"):
        return 3.0 * err * float(np.max(np.linalg.norm(X, axis=1))) * np.exp(log_sum_exp(2.0 * np.atleast_2d(R)))


# --------------------------------------------------------------------------- regions


def region_margins(X: np.ndarray, y: np.ndarray, u: np.ndarray) -> dict[str, float]:
    """Signed margins of membership of one direction u: >= 0 means in the set (boundary inactive).

    S+: min(min_{I+} p_i, min_{I-} -p_i); S-: min(min_{I-} p_i, min_{I+} -p_i); S_dead: min_i -p_i,
    with p_i = <x_i, u>/||x_i||. An empty index set contributes +inf.
    """
    p = X @ u / np.linalg.norm(X, axis=1)
    pos, neg = y > 0, y < 0

    def mn(a: np.ndarray) -> float:
        return float(a.min()) if a.size else math.inf

    return {
        "S+": min(mn(p[pos]), mn(-p[neg])),
        "S-": min(mn(p[neg]), mn(-p[pos])),
        "S_dead": mn(-p),
    }


def region_of(X: np.ndarray, y: np.ndarray, u: np.ndarray) -> str:
    """"S+", "S-", "S_dead" or "other" (|p_i| <= SURFACE_RTOL counts as inactive)."""
    p = X @ u / np.linalg.norm(X, axis=1)
    active = p > SURFACE_RTOL
    if not active.any():
        return "S_dead"
    if np.array_equal(active, y > 0):
        return "S+"
    if np.array_equal(active, y < 0):
        return "S-"
    return "other"


def allowed_margin(X: np.ndarray, y: np.ndarray, u: np.ndarray, s: float, initially_active_own: bool) -> float:
    """Theorem 1 part 1 margin of one neuron: for s = +1, in S+ or S_dead (only S+ if it initially
    activated a positive point: the "moreover" clause); for s = -1 likewise with S-."""
    m = region_margins(X, y, u)
    own = "S+" if s > 0 else "S-"
    return m[own] if initially_active_own else max(m[own], m["S_dead"])


def initially_active_own(X: np.ndarray, y: np.ndarray, U0: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Per neuron: max_{i in I_{s_j}} <w_j(0), x_i> > 0 (the premise of the "moreover" clause)."""
    P = X @ U0.T  # (n, h)
    own = (y[:, None] * s[None, :]) > 0
    return np.any((P > 0.0) & own, axis=0)


# --------------------------------------------------------------------------- patterns and t1


@dataclass(frozen=True)
class Piece:
    """A maximal constant-pattern interval of one neuron."""

    t_start: float
    t_end: float
    active: frozenset
    sliding: bool = False


def pattern_history(run: Any) -> list[list[Piece]]:
    """Per neuron, the constant-pattern pieces over [0, horizon] (exact event times).

    Limit runs use the engine's own history; event-engine runs take :func:`patterns.pattern_intervals`
    (the event log replayed from the initial pattern of the one activation rule, ``patterns.active``;
    sliding marks the piece as sliding until its exit).
    """
    traj = run.trajectory
    t_end = float(run.horizon)
    if traj is not None and traj.backend == "limit":
        out = []
        for hist, pats, slides in zip(traj.stats["history"], traj.stats["patterns"], traj.stats["sliding_sets"]):
            out.append([Piece(float(a), float(b), frozenset(p), bool(sl)) for (a, b, _kp, _km), p, sl in zip(hist, pats, slides)])
        return out
    return [[Piece(iv.t_start, t_end if k == len(ivs) - 1 else iv.t_end, frozenset(np.flatnonzero(iv.active).tolist()),
                   bool(iv.sliding)) for k, iv in enumerate(ivs)] for ivs in pattern_intervals(run)]


def allowed_sets(y: np.ndarray, s: float) -> set[frozenset]:
    """Trapping patterns of Theorem 1 part 1: the empty pattern (S_dead) and the own class (S+ / S-)."""
    own = frozenset(np.flatnonzero(y > 0).tolist() if s > 0 else np.flatnonzero(y < 0).tolist())
    return {frozenset(), own}


def neuron_alignment_times(pieces: list[list[Piece]], y: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Per neuron, the start of its final run of allowed pieces (np.inf if the last piece is not allowed)."""
    out = np.empty(len(pieces))
    for j, hist in enumerate(pieces):
        ok = allowed_sets(y, s[j])
        t = math.inf
        for piece in reversed(hist):
            if piece.sliding or piece.active not in ok:
                break
            t = piece.t_start
        out[j] = t
    return out


def alignment_time(run: Any) -> float:
    """Empirical t1: inf{t : every neuron is in its allowed trapping set for all later t <= horizon}."""
    _, _, s = initial_polar(run)
    times = neuron_alignment_times(pattern_history(run), run.y, s)
    return float(times.max()) if times.size else 0.0


def dwell_violations(run: Any, delta_t_coef: float, T: float, tol_t: float) -> tuple[float, str, float]:
    """EA-E4: min over non-final pieces starting before T of (Delta t(n_a) - duration), a note, and the largest
    duration / Delta t(n_a) (the bound's slack).

    Final pieces are the allowed trapping ones (S+ / S_dead for V+, S- / S_dead for V-); a piece
    still running at the horizon counts with its duration so far (a lower bound of the dwell).
    """
    _, _, s = initial_polar(run)
    worst, note, ratio = math.inf, "no non-final piece", 0.0
    for j, hist in enumerate(pattern_history(run)):
        ok = allowed_sets(run.y, s[j])
        for piece in hist:
            if piece.t_start >= T or (piece.active in ok and not piece.sliding):
                continue
            n_a = len(piece.active)
            if n_a == 0:
                continue  # sliding on S_dead's boundary: covered by EA-H2
            bound = delta_t_coef / n_a
            dur = min(piece.t_end, T) - piece.t_start
            ratio = max(ratio, dur / bound)
            slack = bound - dur
            if slack < worst:
                worst = slack
                note = (f"neuron {j} (s = {int(s[j]):+d}) pattern {sorted(piece.active)} on [{piece.t_start:.6g}, "
                        f"{piece.t_end:.6g}]: dwell {dur:.6g} vs Delta t({n_a}) = {bound:.6g}")
    return worst, note, ratio


# --------------------------------------------------------------------------- t2


def empirical_t2(run: Any, t: np.ndarray, F: np.ndarray, groups: dict[str, np.ndarray], t_from: float) -> dict[str, tuple[float, float]]:
    """Brackets (t_lo, t_hi] of t2+- = inf{t >= t_from : max_{i in I+-} |f(x_i)| > 1/4} from samples (R16).

    ``F`` (k, n) are the outputs at the samples ``t``; ``groups`` maps "plus"/"minus" to the
    index sets I+ / I-. After t1 (every neuron trapped), f(x_i) = f+(x_i) on I+ (EA-F2).
    (inf, inf) when the level is never exceeded by the horizon.
    """
    out: dict[str, tuple[float, float]] = {}
    for key, idx in groups.items():
        if idx.size == 0:
            out[key] = (math.inf, math.inf)
            continue
        over = (np.max(np.abs(F[:, idx]), axis=1) > 0.25) & (t >= t_from)
        if not over.any():
            out[key] = (math.inf, math.inf)
            continue
        k = int(np.argmax(over))
        lo = max(float(t[k - 1]), t_from) if k > 0 else 0.0
        out[key] = (lo, float(t[k]))
    return out


# --------------------------------------------------------------------------- stable rank


def log_norms_W(R: np.ndarray, U: np.ndarray) -> tuple[float, float]:
    """(ln ||W||_F^2, ln ||W||_2^2) of W = diag(e^r) U without underflow."""
    rmax = float(np.max(R))
    scaled = np.exp(R - rmax)[:, None] * U
    sv = np.linalg.svd(scaled, compute_uv=False)
    return float(log_sum_exp(2.0 * R)), 2.0 * rmax + 2.0 * math.log(float(sv[0]))


# --------------------------------------------------------------------------- closed forms


def p9_dead_time() -> float:
    """Sheet P9: a V+ neuron u0 = (cos 1, sin 1) against x1 = (1, 0), y1 = -1, reaches S_dead at
    t* = ln tan((pi - 1)/2) in the eps -> 0 limit (rotation away from x1 at unit rate)."""
    return math.log(math.tan((math.pi - 1.0) / 2.0))


def log_add(a: float, b: float) -> float:
    """ln(e^a + e^b)."""
    return float(np.logaddexp(a, b))


# --------------------------------------------------------------------------- paths and arrival (EA-E5)


def class_patterns(y: np.ndarray) -> tuple[frozenset, frozenset]:
    """(I+, I-) as frozensets: the activation patterns of S+ and S- (sheet 1.6)."""
    return frozenset(np.flatnonzero(y > 0).tolist()), frozenset(np.flatnonzero(y < 0).tolist())


def path_counts(active: frozenset, y: np.ndarray) -> tuple[int, int]:
    """(k+, k-) of an activation pattern: active positive and active negative points (sheet 1.6)."""
    k_plus = sum(1 for i in active if y[i] > 0)
    return k_plus, len(active) - k_plus


def arrival(hist: list[Piece], target: frozenset) -> tuple[float, list[Piece]]:
    """(first time the neuron's pattern equals ``target`` (non-sliding), the pieces visited before).

    inf and the whole history when the target is never reached by the horizon.
    """
    before: list[Piece] = []
    for piece in hist:
        if piece.active == target and not piece.sliding:
            return piece.t_start, before
        before.append(piece)
    return math.inf, before


def path_travel_time(pieces: list[Piece], delta_t_coef: float) -> float:
    """T(P) = sum over the visited vertices of Delta t(n_a) = coef/(k+ + k-) (sheet EA-E5, App. C).

    ``pieces`` are the non-terminal pieces in order; consecutive pieces with one pattern (split by
    a sliding record) count once. An empty pattern contributes inf (paths avoid (0, 0)).
    """
    total, last = 0.0, None
    for piece in pieces:
        if piece.active == last:
            continue
        last = piece.active
        n_a = len(piece.active)
        total += math.inf if n_a == 0 else delta_t_coef / n_a
    return total


def dead_path_bound(n_a0: int, delta_t_coef: float) -> float:
    """4 H_{n_a(0)}/(m sqrt(mu) X_min) = coef H_{n_a(0)}: the dead-path arrival bound (sheet EA-E5)."""
    return delta_t_coef * math.fsum(1.0 / k for k in range(1, n_a0 + 1))


def first_exceed(t: np.ndarray, values: np.ndarray, level: float, t_from: float = 0.0) -> tuple[float, float]:
    """Bracket (t_lo, t_hi] of inf{t >= t_from : values(t) > level} from samples; (inf, inf) if never."""
    over = (np.asarray(values) > level) & (t >= t_from)
    if not over.any():
        return math.inf, math.inf
    k = int(np.argmax(over))
    lo = max(float(t[k - 1]), t_from) if k > 0 else 0.0
    return lo, float(t[k])


# --------------------------------------------------------------------------- refined alignment (EA-F5)


def cosines(a: np.ndarray, B: np.ndarray) -> np.ndarray:
    """cos(a, b) for every row b of B (..., d); nan where b = 0."""
    na = float(np.linalg.norm(a))
    nb = np.linalg.norm(B, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (B @ a) / (na * nb)


def refined_aligning_vector(X: np.ndarray, g: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """x~_a = sum_{i in idx} |g_i| x_i: the exact aligning vector of a neuron trapped in S+ (idx = I+,
    g_i > 0) or S- (idx = I-, g_i < 0, so -x~_a drives w_j with v_j < 0) (sheet EA-F5, App. D.2)."""
    return np.abs(g[idx]) @ X[idx]


# --------------------------------------------------------------------------- low rank (EA-G2)


def log_sv2(R: np.ndarray, U: np.ndarray) -> tuple[float, float]:
    """(ln sigma_1^2, ln sum_{k >= 2} sigma_k^2) of W = diag(e^r) U (rows r, U), without underflow.

    One row: (2 r, -inf). The tail is computed from the singular values themselves (no
    ||W||_F^2 - ||W||_2^2 cancellation); its absolute float error is ~ u sigma_1 per value.
    """
    R = np.atleast_1d(np.asarray(R, float))
    if R.size == 0:
        return -math.inf, -math.inf
    rmax = float(np.max(R))
    sv = np.linalg.svd(np.exp(R - rmax)[:, None] * np.atleast_2d(U), compute_uv=False)
    top = 2.0 * rmax + 2.0 * math.log(float(sv[0]))
    tail = sv[1:]
    tail = tail[tail > 0.0]
    return top, (2.0 * rmax + float(log_sum_exp(2.0 * np.log(tail)))) if tail.size else -math.inf


# --------------------------------------------------------------------------- loss along runs (EA-H5)


def scaled_states(run: Any) -> dict[str, Any]:
    """The sampled states as scaled Cartesian weights plus the true outputs, for any run (sheet EA-H5).

    Each state is scaled by its own c_k (W_k c_k, v_k c_k) so that theorem-scale states stay
    representable; ``lnc`` holds ln(1/c_k). Polar runs: W = e^{r - rmax} U, v = s e^{r - rmax}
    (c = e^{-rmax}); Cartesian runs (balanced or not): the raw samples over max_j max(||w_j||, |v_j|).
    Keys: t, W, v, lnc, f (true outputs, (k, n)), f_err (bound on |error of f_i| per sample, from
    :func:`properties.min2024_early_alignment.patterns.state_error`), err (that error level). The t = 0 state comes from the
    init (exact, log-eps form).
    """

    traj = run.trajectory
    err = state_error(run)
    X = run.X
    xmax = float(np.max(np.linalg.norm(X, axis=1)))
    if traj is not None and traj.r is not None:
        t, R, U, s = polar_samples(run)
        rmax = np.max(R, axis=1)
        e = np.exp(R - rmax[:, None])
        return {"t": t, "W": e[:, :, None] * U, "v": s[None, :] * e, "lnc": rmax, "f": outputs(X, R, U, s),
                "f_err": output_error(X, R, err), "err": err}
    eps = math.exp(run.log_eps)
    W0 = eps * np.asarray(run.init.W0, float)
    v0 = eps * np.asarray(run.init.v0, float)
    if traj is None:
        t, W, v = np.array([0.0]), W0[None], v0[None]
    else:
        t, W, v = np.asarray(traj.times, float), np.asarray(traj.W, float), np.asarray(traj.v, float)
        if t[0] > 0.0:
            t, W, v = np.concatenate([[0.0], t]), np.concatenate([W0[None], W]), np.concatenate([v0[None], v])
    f = np.array([run.field.outputs(Wk, vk) for Wk, vk in zip(W, v)])
    f_err = 3.0 * err * xmax * np.sum(np.abs(v) * np.linalg.norm(W, axis=2), axis=1)
    scale = np.maximum(np.max(np.linalg.norm(W, axis=2), axis=1), np.max(np.abs(v), axis=1))
    scale = np.where(scale > 0.0, scale, 1.0)
    return {"t": t, "W": W / scale[:, None, None], "v": v / scale[:, None], "lnc": np.log(scale), "f": f, "f_err": f_err, "err": err}


def loss_rate_terms(field: Any, W: np.ndarray, v: np.ndarray, f: np.ndarray) -> tuple[float, float, float]:
    """(L_dot, ||F||^2, magnitude) at the state (W, v) (scaled: all three carry the factor c^2) with the
    true outputs ``f`` (sheet EA-H5, App. E.5).

    F = (W', v') is the field in the current mode (sigma'(0) = 0); L_dot = sum_i l'(y_i, f_i) f_i' is
    the chain rule through the outputs, f_i' = sum_j S_ij (v_j' <w_j, x_i> + v_j <w_j', x_i>), computed
    independently of ||F||^2, so L_dot + ||F||^2 = 0 is the identity "the field is -grad L".
    ``magnitude`` = sum_i |g_i| sum_j S_ij (|v_j'| |<w_j,x_i>| + |v_j| |<w_j', x_i>|) bounds both terms.
    """
    P = field.X @ W.T
    S = field.mode(P)
    g = field.loss.g(field.y, f)
    Wdot = v[:, None] * ((S * g[:, None]).T @ field.X)
    vdot = (P * S).T @ g
    Q = field.X @ Wdot.T
    fdot = np.sum(S * (vdot[None, :] * P + v[None, :] * Q), axis=1)
    ldot = -float(g @ fdot)
    norm2 = float(np.sum(Wdot**2) + np.sum(vdot**2))
    mag = float(np.abs(g) @ np.sum(S * (np.abs(vdot)[None, :] * np.abs(P) + np.abs(v)[None, :] * np.abs(Q)), axis=1))
    return ldot, norm2, mag
