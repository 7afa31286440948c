"""Shared measurements on runs and states for seed 004's pattern, region and small-init claims.

Everything here reads a :class:`verify.claims.run.Run` (or a bare state) and returns arrays or
small records; nothing decides a verdict. Conventions (claim sheet 004, sections 1.6 and 3.3):

- data are rows of ``X``; a neuron ``j`` has sign ``s_j = sign(v_j(0))``;
- activity uses the strict sign of sigma'(0) = 0: ``<x_i, w_j> > tol ||x_i|| ||w_j||`` is active,
  anything at or below that (the surface included) is inactive;
- sampled quantities include t = 0 (taken from the eps-free initial directions, which the
  scale does not change) ahead of the run's own sample times, which start after 0;
- region codes: :data:`OTHER` 0, :data:`S_PLUS` 1, :data:`S_MINUS` -1, :data:`S_DEAD` 2; a
  neuron's *trapping set* is S_dead or the cone of its own sign (S+ for s_j = +1, S- for -1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from scipy.special import logsumexp

OTHER, S_PLUS, S_MINUS, S_DEAD = 0, 1, -1, 2
REGION_NAMES = {OTHER: "other", S_PLUS: "S+", S_MINUS: "S-", S_DEAD: "S_dead"}
SURFACE_TOL = 1e-12  # |<x_i, u_j>| <= SURFACE_TOL ||x_i||: on the surface, i.e. inactive (sheet 3.3)
UNIT_ROUNDOFF = float(np.finfo(float).eps)  # 2.2e-16


# ----------------------------------------------------------------------------- states along a run


def signs(run: Any) -> np.ndarray:
    """s_j = sign(v_j(0)) from the eps-free initial second layer, shape (h,)."""
    return np.sign(np.asarray(run.init.v0, dtype=float))


def _unit_rows(W: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(W, axis=-1, keepdims=True)
    return np.divide(W, norms, out=np.zeros_like(W), where=norms > 0.0)


def sample_times(run: Any) -> np.ndarray:
    """The run's sample times with t = 0 prepended when the run does not sample it, shape (k,)."""
    t = np.asarray(run.times, dtype=float)
    return t if t.size and t[0] == 0.0 else np.concatenate([[0.0], t])


def directions(run: Any) -> np.ndarray:
    """Unit directions u_j(t) at :func:`sample_times`, shape (k, h, d) (zero rows stay zero).

    Polar runs give U exactly (whatever eps); Cartesian runs normalise W. Row 0 is t = 0.
    """
    U0 = _unit_rows(np.asarray(run.init.W0, dtype=float))
    traj = run.trajectory
    if traj is None:
        return U0[None]
    U = np.asarray(traj.U, dtype=float) if traj.U is not None else _unit_rows(np.asarray(traj.W, dtype=float))
    return U if run.times[0] == 0.0 else np.concatenate([U0[None], U])


def log_norms(run: Any) -> np.ndarray:
    """r_j(t) = ln ||w_j(t)|| at :func:`sample_times`, shape (k, h) (-inf for zero rows)."""
    with np.errstate(divide="ignore"):
        r0 = run.log_eps + np.log(np.linalg.norm(np.asarray(run.init.W0, dtype=float), axis=1))
    traj = run.trajectory
    if traj is None:
        return r0[None]
    if traj.r is not None:
        r = np.asarray(traj.r, dtype=float)
    else:
        with np.errstate(divide="ignore"):
            r = np.log(np.linalg.norm(np.asarray(traj.W, dtype=float), axis=2))
    return r if run.times[0] == 0.0 else np.concatenate([r0[None], r])


def active(X: np.ndarray, U: np.ndarray, tol: float = SURFACE_TOL) -> np.ndarray:
    """Activity 1{<x_i, u_j> > tol ||x_i|| ||u_j||} for U of shape (..., h, d): shape (..., n, h)."""
    P = np.matmul(X, np.swapaxes(U, -1, -2))
    scale = np.linalg.norm(X, axis=1)[:, None] * np.linalg.norm(U, axis=-1)[..., None, :]
    return P > tol * scale


def region_codes(act: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Region code per neuron from an activity array (..., n, h): S_dead, S+, S- or other."""
    pos = (y > 0)[:, None]
    codes = np.full(act.shape[:-2] + act.shape[-1:], OTHER, dtype=int)
    codes[np.all(act == pos, axis=-2)] = S_PLUS
    codes[np.all(act == ~pos, axis=-2)] = S_MINUS
    codes[~np.any(act, axis=-2)] = S_DEAD  # checked last: with one class, S-+ = S_dead
    return codes


def regions(run: Any, tol: float = SURFACE_TOL) -> np.ndarray:
    """Region code of every neuron at :func:`sample_times`, shape (k, h)."""
    return region_codes(active(run.X, directions(run), tol), run.y)


def trap_code(s: np.ndarray) -> np.ndarray:
    """The non-dead trapping region of each neuron: S+ for s_j = +1, S- for s_j = -1."""
    return np.where(np.asarray(s) > 0, S_PLUS, S_MINUS)


def in_trap(codes: np.ndarray, s: np.ndarray) -> np.ndarray:
    """True where a neuron is in its trapping set (S_dead, or the cone of its own sign)."""
    return (codes == S_DEAD) | (codes == trap_code(s))


def trap_entry_index(run: Any, tol: float = SURFACE_TOL, codes: np.ndarray | None = None) -> np.ndarray:
    """First index into :func:`sample_times` at which each neuron is in its trapping set; -1 if never."""
    codes = regions(run, tol) if codes is None else codes
    inside = in_trap(codes, signs(run))
    first = np.argmax(inside, axis=0)
    return np.where(inside.any(axis=0), first, -1)


# ----------------------------------------------------------------------------- events and patterns


@dataclass(frozen=True)
class PatternInterval:
    """A maximal time interval on which neuron ``j`` keeps the activation pattern ``active``.

    ``sliding`` lists the data indices held on their surface (Filippov) during the interval.
    """

    j: int
    t_start: float
    t_end: float
    active: tuple[bool, ...]
    sliding: tuple[int, ...] = ()

    @property
    def duration(self) -> float:
        return self.t_end - self.t_start

    @property
    def n_active(self) -> int:
        return int(sum(self.active))

    def region(self, y: np.ndarray) -> int:
        """Region code of the pattern (sliding pairs count as inactive)."""
        act = np.asarray(self.active, dtype=bool)
        return int(region_codes(act[:, None], np.asarray(y))[0])


def initial_activity(run: Any) -> np.ndarray:
    """Activity at t = 0 (:func:`active`, the one activation rule), from the eps-free W0, shape (n, h)."""
    return active(np.asarray(run.X, dtype=float), np.asarray(run.init.W0, dtype=float))


def pattern_intervals(run: Any) -> list[list[PatternInterval]]:
    """Per neuron, its constant-pattern intervals on [0, t_end], rebuilt from the event log.

    "activate" / "sliding_exit" with direction +1 set a pair active, "deactivate" /
    "sliding_exit" with -1 inactive, "sliding" marks it sliding; "grazing" and "dead" change
    nothing. Simultaneous events of one neuron (same t) close a single interval.
    """
    act = initial_activity(run)
    n, h = act.shape
    t_end = float(run.times[-1]) if run.trajectory is not None else 0.0
    state = [act[:, j].copy() for j in range(h)]
    slide: list[set[int]] = [set() for _ in range(h)]
    start = [0.0] * h
    out: list[list[PatternInterval]] = [[] for _ in range(h)]
    for e in sorted(run.events, key=lambda e: e.t):
        if e.kind not in ("activate", "deactivate", "sliding", "sliding_exit") or e.j < 0:
            continue
        j = e.j
        new = state[j].copy()
        new_slide = set(slide[j])
        if e.kind == "sliding":
            new[e.i] = False
            new_slide.add(e.i)
        else:
            new[e.i] = e.direction > 0 if e.kind == "sliding_exit" else e.kind == "activate"
            new_slide.discard(e.i)
        if np.array_equal(new, state[j]) and new_slide == slide[j]:
            continue
        if e.t > start[j]:
            out[j].append(PatternInterval(j, start[j], float(e.t), tuple(bool(a) for a in state[j]), tuple(sorted(slide[j]))))
            start[j] = float(e.t)
        state[j], slide[j] = new, new_slide
    for j in range(h):
        out[j].append(PatternInterval(j, start[j], max(t_end, start[j]), tuple(bool(a) for a in state[j]), tuple(sorted(slide[j]))))
    return out


def log_state_mismatches(run: Any) -> tuple[int, str]:
    """The event log checked against the states: (count, first) of (sample, i, j) whose activity read from
    the sampled direction, 1{<x_i, u_j(t_k)> > 0}, differs from the log's pattern at t_k
    (:func:`pattern_intervals`). Pairs within the state's error of their surface (|<x_i, u_j>| / ||x_i||
    <= max(SURFACE_TOL, :func:`state_error`)), sliding pairs and samples at an interval's start (an event
    time) are not compared, so a mismatch is an inconsistency of the engine, not rounding."""
    traj = run.trajectory
    if traj is None or getattr(traj, "backend", "events") == "limit":
        return 0, "no event log to check"
    t = sample_times(run)
    X = np.asarray(run.X, dtype=float)
    P = np.einsum("id,khd->kih", X / np.linalg.norm(X, axis=1)[:, None], directions(run))
    tol = max(SURFACE_TOL, state_error(run))
    count, first = 0, ""
    for j, intervals in enumerate(pattern_intervals(run)):
        starts = np.array([iv.t_start for iv in intervals])
        for k, tk in enumerate(t):
            idx = int(np.searchsorted(starts, tk, side="right")) - 1
            iv = intervals[max(idx, 0)]
            if idx > 0 and tk == iv.t_start:
                continue
            for i in range(X.shape[0]):
                p = P[k, i, j]
                if i in iv.sliding or abs(p) <= tol or (p > 0.0) == iv.active[i]:
                    continue
                count += 1
                first = first or (f"at t = {tk:.6g} the state has <x_{i}, u_{j}>/||x_{i}|| = {p:.3g} but the event log "
                                  f"says {'active' if iv.active[i] else 'inactive'}")
    return count, first or f"event log agrees with the states at {len(t)} samples"


def trap_entry_time(run: Any) -> np.ndarray:
    """Per neuron, the start of its first event-log interval in its trapping set; inf if never."""
    s = signs(run)
    out = np.full(len(s), np.inf)
    for j, intervals in enumerate(pattern_intervals(run)):
        for iv in intervals:
            code = iv.region(run.y)
            if not iv.sliding and (code == S_DEAD or code == trap_code(s[j])):
                out[j] = iv.t_start
                break
    return out


@dataclass
class CrossingAudit:
    """Crossings of the surfaces <x_i, w_j> = 0 against seed 004's monotone-pattern rule (EA-A4).

    ``expected[i, j] = y_i s_j`` is the only admissible crossing direction (+1 gain, -1 loss);
    ``counts[i, j]`` the number of transversal crossings; ``wrong`` the crossings in the other
    direction; ``repeated`` the pairs crossed more than once; ``sliding`` the sliding,
    sliding-exit and grazing records (none can occur when (46) holds strictly).
    """

    expected: np.ndarray
    counts: np.ndarray
    wrong: list[Any] = field(default_factory=list)
    repeated: list[tuple[int, int]] = field(default_factory=list)
    sliding: list[Any] = field(default_factory=list)

    @property
    def violations(self) -> int:
        return len(self.wrong) + len(self.repeated) + len(self.sliding)

    def describe(self) -> str:
        parts = []
        if self.wrong:
            e = self.wrong[0]
            parts.append(f"{len(self.wrong)} wrong-direction crossing(s), first {e.kind} of (i={e.i}, j={e.j}) at t={e.t:.6g}")
        if self.repeated:
            parts.append(f"pairs crossed more than once: {self.repeated[:4]}")
        if self.sliding:
            e = self.sliding[0]
            parts.append(f"{len(self.sliding)} sliding/grazing record(s), first {e.kind} of (i={e.i}, j={e.j}) at t={e.t:.6g}")
        return "; ".join(parts) or f"{int(self.counts.sum())} crossing(s), all in direction y_i s_j, each pair at most once"


def crossing_audit(run: Any) -> CrossingAudit:
    """Classify the run's crossing events against the direction y_i s_j and the once-per-pair rule."""
    y = np.asarray(run.y, dtype=float)
    s = signs(run)
    expected = np.outer(y, s).astype(int)
    counts = np.zeros_like(expected)
    audit = CrossingAudit(expected, counts)
    for e in run.events:
        if e.kind in ("activate", "deactivate"):
            counts[e.i, e.j] += 1
            if e.direction != expected[e.i, e.j]:
                audit.wrong.append(e)
        elif e.kind in ("sliding", "sliding_exit", "grazing"):
            audit.sliding.append(e)
    audit.repeated = [(int(i), int(j)) for i, j in zip(*np.nonzero(counts > 1))]
    return audit


def signed_preactivations(run: Any) -> tuple[np.ndarray, np.ndarray]:
    """a_ij(t) = y_i s_j <x_i, u_j(t)> / ||x_i|| and r_j(t) at :func:`sample_times`.

    The signed preactivation of EA-A4 is y_i s_j <x_i, w_j> = ||x_i|| exp(r_j) a_ij, kept in
    this factored form so that theorem-scale eps does not underflow. Shapes (k, n, h), (k, h).
    """
    U = directions(run)
    X = np.asarray(run.X, dtype=float)
    norms = np.linalg.norm(X, axis=1)
    a = np.matmul(X, np.swapaxes(U, -1, -2)) / norms[:, None]
    a = a * np.asarray(run.y, dtype=float)[:, None] * signs(run)[None, :]
    return a, log_norms(run)


def monotone_increments(a: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Normalised increments of ||x_i|| e^{r_j} a_ij between consecutive samples, shape (k-1, n, h).

    Each increment is divided by ||x_i|| max(||w_j(t_k)||, ||w_j(t_k+1)||), so it lies in
    [-2, 2] and its float error is the relative state error of the two samples.
    """
    m = np.maximum(r[1:], r[:-1])
    with np.errstate(invalid="ignore", under="ignore"):
        later = np.exp(r[1:] - m)[:, None, :] * a[1:]
        earlier = np.exp(r[:-1] - m)[:, None, :] * a[:-1]
    inc = later - earlier
    return np.where(np.isfinite(m)[:, None, :], inc, 0.0)


def state_error(run: Any, safety: float = 10.0) -> float:
    """Relative (Cartesian) or absolute-in-(r, u) (polar) error scale of the sampled states.

    Event engine: ``safety * (rtol + error_estimate)``, where ``error_estimate`` is the engine's sum of
    accepted local error estimates (an indicator, not a bound: hence the safety factor).
    Pointwise runs (no trajectory) have no integration error: 0.
    """
    traj = run.trajectory
    if traj is None:
        return 0.0
    if getattr(traj, "backend", "events") == "limit":
        # closed form: rounding only, growing with tau = k t (k <= sum_i ||x_i||)
        return 1e-13 * max(1.0, float(traj.times[-1]) * float(np.sum(run.field.norms)))
    est = float(traj.error_estimate)
    rtol = float(traj.params.get("rtol", 1e-10))
    return safety * (rtol + (est if np.isfinite(est) else rtol))


# ----------------------------------------------------------------------------- pointwise quantities


def flow_inner_products(fieldobj: Any, W: np.ndarray, v: np.ndarray, S: np.ndarray | None = None) -> np.ndarray:
    """Seed 004 eq. (46): q_ij = y_i sign(v_j) <x_i, F_{w_j}(W, v)>, F the flow (-grad), shape (n, h).

    ``S`` defaults to the current mode (sigma'(0) = alpha on the surface).
    """
    W = np.asarray(W, dtype=float)
    v = np.asarray(v, dtype=float)
    P = fieldobj.X @ W.T
    S = fieldobj.mode(P) if S is None else S
    Wdot, _ = fieldobj.cartesian(W, v, S)
    return fieldobj.y[:, None] * np.sign(v)[None, :] * (fieldobj.X @ Wdot.T)


def flow_inner_product_scale(fieldobj: Any, W: np.ndarray, v: np.ndarray, S: np.ndarray | None = None) -> np.ndarray:
    """|v_j| sum_k S_kj |g_k| ||x_i|| ||x_k||: the sum of magnitudes behind q_ij, shape (n, h).

    |q_ij| <= this; its float error is below n * 4 u times this (u the unit roundoff).
    """
    W = np.asarray(W, dtype=float)
    v = np.asarray(v, dtype=float)
    P = fieldobj.X @ W.T
    S = fieldobj.mode(P) if S is None else S
    g = fieldobj.loss.g(fieldobj.y, (P * S) @ v)
    weight = (S * np.abs(g)[:, None] * fieldobj.norms[:, None]).sum(axis=0)  # (h,)
    return fieldobj.norms[:, None] * (np.abs(v) * weight)[None, :]


def exact_signed_gram_signs(X: np.ndarray, y: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Exact signs of y_i sum_k c_k y_k <x_i, x_k> for every i (rational arithmetic on the floats).

    Used to decide strict inequalities whose float value is within rounding of 0: the inputs
    are taken as exact binary fractions, so the sign is that of the stated formula.
    """
    Xf = [[Fraction(float(x)) for x in row] for row in np.asarray(X, dtype=float)]
    yf = [Fraction(float(t)) for t in np.asarray(y, dtype=float)]
    cf = [Fraction(float(t)) for t in np.asarray(c, dtype=float)]
    z = [sum((cf[k] * yf[k] * Xf[k][l] for k in range(len(Xf))), Fraction(0)) for l in range(len(Xf[0]))]
    out = []
    for i, row in enumerate(Xf):
        val = yf[i] * sum((a * b for a, b in zip(row, z)), Fraction(0))
        out.append((val > 0) - (val < 0))
    return np.asarray(out, dtype=int)


def x_a_matrix(X: np.ndarray, y: np.ndarray, U: np.ndarray, alpha: float = 0.0) -> np.ndarray:
    """x_a(u_j) = sum_i sigma'(<x_i, u_j>) y_i x_i for every row of U (leaky reading R4), shape (h, d)."""
    S = np.where(X @ np.asarray(U).T > 0.0, 1.0, alpha)
    return S.T @ (np.asarray(y)[:, None] * X)


def direction_field_error(fieldobj: Any, r: np.ndarray, U: np.ndarray, s: np.ndarray, xa_alpha: float | None = None) -> np.ndarray:
    """Seed 004 Lemma 4 / Lemma 1 LHS: || d/dt u_j - s_j P_{u_j} x_a(u_j) || per neuron, shape (h,).

    d/dt u_j is the exact polar field (sheet 1.11) at the state (r, U, s) in its current mode;
    ``x_a`` uses the slope ``xa_alpha`` on inactive points (default: the field's own alpha).
    """
    U = np.asarray(U, dtype=float)
    S = fieldobj.mode(fieldobj.X @ U.T)
    _, Udot = fieldobj.polar(np.asarray(r, dtype=float), U, np.asarray(s, dtype=float), S)
    xa = x_a_matrix(fieldobj.X, fieldobj.y, U, fieldobj.alpha if xa_alpha is None else xa_alpha)
    proj = xa - np.einsum("hd,hd->h", U, xa)[:, None] * U
    return np.linalg.norm(Udot - np.asarray(s)[:, None] * proj, axis=1)


def direction_field_rounding(fieldobj: Any, r: np.ndarray, U: np.ndarray, s: np.ndarray) -> float:
    """Float error bound of :func:`direction_field_error`: 16 n u sum_i (|g_i| + 1) ||x_i||."""
    f = fieldobj.polar_outputs(np.asarray(r, dtype=float), np.asarray(U, dtype=float), np.asarray(s, dtype=float))
    g = fieldobj.loss.g(fieldobj.y, f)
    return 16.0 * fieldobj.n * UNIT_ROUNDOFF * float(np.sum((np.abs(g) + 1.0) * fieldobj.norms))


def log_abs_outputs(fieldobj: Any, r: np.ndarray, U: np.ndarray, s: np.ndarray) -> np.ndarray:
    """ln |f(x_i)| computed in log space (finite for any eps; -inf where f = 0 exactly), shape (n,).

    f(x_i) = sum_j s_j exp(2 r_j) sigma(<u_j, x_i>), summed by a signed log-sum-exp.
    """
    U = np.asarray(U, dtype=float)
    P = fieldobj.X @ U.T
    act = np.where(P > 0.0, P, fieldobj.alpha * P)  # sigma(<u_j, x_i>) (negative when leaky and inactive)
    with np.errstate(divide="ignore"):
        a = 2.0 * np.asarray(r, dtype=float)[None, :] + np.log(np.abs(act))
    b = np.sign(act) * np.asarray(s, dtype=float)[None, :]
    out = np.full(fieldobj.n, -np.inf)
    for i in range(fieldobj.n):
        keep = b[i] != 0.0
        if keep.any():
            val, sign = logsumexp(a[i, keep], b=b[i, keep], return_sign=True)
            out[i] = val if sign != 0 else -np.inf
    return out
