"""Closed-form eps -> 0 limit of the alignment phase of a balanced small initialisation.

As eps -> 0 the outputs vanish, f = 0, so the data weights are the constants
g_i = -l'(y_i, 0) (y_i for exp, logistic2, square and poly; y_i/2 for the plain logistic, whose
limit time therefore runs twice as slowly). Each neuron j = (r_j, u_j) moves on its own:

    u_j' = s_j P_u x_a(u_j),   r_j' = s_j <u_j, x_a(u_j)>,   x_a(u) = sum_i sigma'(<x_i,u>) g_i x_i,

with sigma'(p) = 1 for p > 0 and alpha for p <= 0 (sigma'(0) = alpha: the paper's convention).
Inside a fixed activation pattern x_a is constant. With k = ||x_a||, a = x_a/k,
phi = angle(u, a) and tau = ln tan(phi/2) (tau = -inf at u = a, +inf at u = -a):

    phi' = -s k sin(phi)  <=>  tau(t) = tau0 - s k t,
    u(t) = cos(phi) a + sin(phi) e = -tanh(tau) a + sech(tau) e,   e = P_a u0 / ||P_a u0||,
    r(t) = r0 - ln(sin(phi)/sin(phi0)) = r0 + lncosh(tau) - lncosh(tau0).

(Verified: dr/dphi = r'/phi' = s k cos(phi)/(-s k sin(phi)) = -cot(phi), whose integral is
-ln sin(phi); the closed form is right. The tau form never overflows.) A hyperplane
<x_i, u> = 0 is met where sech(tau) (B_i - sinh(tau) A_i) = 0 with A_i = <x_i, a>,
B_i = <x_i, e>: tau*_i = asinh(B_i/A_i) (unique, transversal), t*_i = (tau0 - tau*_i)/(s k),
kept when t*_i > 0. So every pair crosses at most once per mode.

Switching: the pairs on their hyperplanes (at t = 0, and at each crossing with the neuron's sliding pairs and every
pair resting on its plane, |<x_i, u>| <= plane_tol, whatever its side: an active pair with zero normal speed) are
settled by the engines' one switching law, :func:`law.settle_column` (its module docstring), with gain s,
data weights g and Gram matrix K = X X^T: on the hyperplane <x_i, u> = 0 the limit velocity is u' = s P_u x_eff,
so <x_i, u'> = s <x_i, x_eff> = s sum_k S_k g_k K_ki, the normal rate the law classifies (sigma'(0) = alpha; a pair
that arrived by a crossing is pushed in from the side it came from; a pair becomes active, inactive or slides,
jointly for simultaneous crossings, coupled for rows on one line through 0). Events "activate", "deactivate",
"grazing", "sliding", "sliding_exit" as in every engine (:func:`switching.event_code`).

Filippov sliding (only when mu <= 0): a sliding pair's slope S_i in [alpha, 1] is the one that keeps
<x_i, x_eff> = 0, x_eff = sum_k S_k g_k x_k: x_eff is the projection of x_a onto span{x_i : i sliding}^perp.
Since <x_i, u> = 0 on the sliding set, u' = s P_u x_eff keeps u there and the closed form above applies with
x_a -> x_eff (a constant, so the slopes are constant inside a mode: a pair leaves the sliding set only when another
pair switches and moves its slope out of [alpha, 1]). ``stats["exact"]`` is False only if a simultaneous-switch
resolution did not settle. In d = 2 a sliding neuron has a fixed direction but its norm keeps changing
(r' = s <u, x_eff>).

Dead neurons: for alpha = 0 a neuron with no active (and no sliding) point is dead: x_a = 0,
it is frozen, and Event(kind="dead", i=-1) is recorded (at t = 0 for neurons that start
dead). x_a = 0 with active points (only when mu <= 0) also freezes the neuron,
without an event.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from verify.dynamics import law, switching
from verify.dynamics.field import NetworkField
from verify.dynamics.times import sample_times
from verify.errors import InputError, NumericalError
from verify.trajectory import Event, Trajectory

PLANE_RTOL = 1e-12  # |<x_i, u>| <= PLANE_RTOL ||x_i|| counts as on the hyperplane (inactive)
TIME_RTOL = 1e-12  # crossings within TIME_RTOL max(1, t) of the earliest one are simultaneous
LN2 = float(np.log(2.0))


def _lncosh(tau: np.ndarray | float) -> np.ndarray:
    """ln cosh(tau) without overflow."""
    a = np.abs(np.asarray(tau, dtype=float))
    return a + np.log1p(np.exp(-2.0 * a)) - LN2


@dataclass(frozen=True)
class LimitMode:
    """One constant-pattern piece of the limit flow of one neuron, starting at (u0, r0).

    ``tau0 = ln tan(phi0/2)``; ``k = ||x_a||`` (0: the neuron does not move).
    """

    u0: np.ndarray
    r0: float
    s: float
    k: float
    a_hat: np.ndarray
    e: np.ndarray
    tau0: float

    @classmethod
    def start(cls, x_a: np.ndarray, u0: np.ndarray, s: float, r0: float = 0.0) -> "LimitMode":
        """Frame of the mode: a = x_a/k, e = P_a u0/||P_a u0||, tau0 = ln tan(phi0/2)."""
        u0 = np.asarray(u0, dtype=float)
        x_a = np.asarray(x_a, dtype=float)
        k = float(np.linalg.norm(x_a))
        zero = np.zeros_like(u0)
        if k == 0.0:
            return cls(u0, float(r0), float(s), 0.0, zero, zero, 0.0)
        a_hat = x_a / k
        c = float(u0 @ a_hat)
        e_raw = u0 - c * a_hat
        sn = float(np.linalg.norm(e_raw))
        if sn == 0.0:
            tau0 = -np.inf if c > 0.0 else np.inf
            return cls(u0, float(r0), float(s), k, a_hat, zero, tau0)
        tau0 = np.log(sn) - np.log1p(c) if c >= 0.0 else np.log1p(-c) - np.log(sn)
        return cls(u0, float(r0), float(s), k, a_hat, e_raw / sn, float(tau0))

    @property
    def moving(self) -> bool:
        return self.k > 0.0 and np.isfinite(self.tau0)

    def tau(self, t: np.ndarray | float) -> np.ndarray:
        """tau(t) = tau0 - s k t (t measured from the start of the mode)."""
        return self.tau0 - self.s * self.k * np.asarray(t, dtype=float)

    def state(self, t: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
        """(u(t), r(t)) for t >= 0 from the mode start; u has shape t.shape + (d,)."""
        t = np.asarray(t, dtype=float)
        if self.k == 0.0:
            return np.broadcast_to(self.u0, t.shape + self.u0.shape).copy(), np.full(t.shape, self.r0)
        if not np.isfinite(self.tau0):
            cos0 = 1.0 if self.tau0 < 0 else -1.0
            return np.broadcast_to(self.u0, t.shape + self.u0.shape).copy(), self.r0 + self.s * self.k * cos0 * t
        tau = self.tau(t)
        cos_phi = -np.tanh(tau)
        sin_phi = 1.0 / np.cosh(np.clip(tau, -700.0, 700.0))
        U = cos_phi[..., None] * self.a_hat + sin_phi[..., None] * self.e
        U /= np.linalg.norm(U, axis=-1, keepdims=True)
        r = self.r0 + _lncosh(tau) - _lncosh(self.tau0)
        return U, r

    def crossing_times(self, X: np.ndarray) -> np.ndarray:
        """t*_i > 0 at which <x_i, u(t)> = 0 (np.inf where the hyperplane is never met)."""
        n = X.shape[0]
        out = np.full(n, np.inf)
        if not self.moving:
            return out
        A = X @ self.a_hat
        B = X @ self.e
        ok = A != 0.0
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            tau_star = np.arcsinh(B[ok] / A[ok])
            t_star = (self.tau0 - tau_star) / (self.s * self.k)
        t_star[~(t_star > 0.0)] = np.inf
        out[ok] = t_star
        return out


def limit_weights(field: NetworkField) -> np.ndarray:
    """The limit data weights g_i = -l'(y_i, 0)."""
    return np.asarray(field.loss.g(field.y, np.zeros(field.n)), dtype=float)


def limit_aligning_vector(field: NetworkField, active: np.ndarray) -> np.ndarray:
    """x_a = sum_i S_i g_i x_i with S_i = 1 on ``active`` (bool (n,)) and alpha elsewhere."""
    S = np.where(active, 1.0, field.alpha)
    return (S * limit_weights(field)) @ field.X


def limit_crossing_times(X: np.ndarray, x_a: np.ndarray, u0: np.ndarray, s: float) -> np.ndarray:
    """Closed-form times t*_i > 0 at which u(t) of the constant-x_a flow u' = s P_u x_a meets
    <x_i, u> = 0: t*_i = (tau0 - asinh(<x_i,e>/<x_i,a>))/(s ||x_a||); np.inf where never."""
    u0 = np.asarray(u0, dtype=float)
    return LimitMode.start(x_a, u0 / np.linalg.norm(u0), s).crossing_times(np.asarray(X, dtype=float))


def limit_mode_state(x_a: np.ndarray, u0: np.ndarray, s: float, t: np.ndarray, r0: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Closed-form (u(t), r(t)) of u' = s P_u x_a, r' = s <u, x_a> with x_a held constant."""
    u0 = np.asarray(u0, dtype=float)
    return LimitMode.start(x_a, u0 / np.linalg.norm(u0), s, r0).state(t)


@dataclass
class Segment:
    t0: float
    t1: float
    mode: LimitMode
    active: np.ndarray
    sliding: np.ndarray


@dataclass(frozen=True)
class Surfaces:
    """What the switching law reads of the data (:func:`law.settle_column`): the Gram matrix K = X X^T and the
    rows on one line through 0 (``rep``, ``sgn``: :func:`switching.lines`; ``line_rows``: :func:`switching.line_rows`)."""

    K: np.ndarray
    rep: np.ndarray
    sgn: np.ndarray
    line_rows: dict

    @classmethod
    def of(cls, X: np.ndarray) -> "Surfaces":
        rep, sgn = switching.lines(X)
        return cls(X @ X.T, rep, sgn, switching.line_rows(rep))


class NeuronRun:
    """Event loop of one neuron: a list of constant-mode segments and its events."""

    def __init__(self, field: NetworkField, g: np.ndarray, j: int, u0: np.ndarray, r0: float, s: float, t_end: float,
                 max_events: int, surfaces: Surfaces | None = None):
        self.field, self.g, self.j, self.s, self.t_end = field, g, j, s, t_end
        self.X = field.X
        self.surf = Surfaces.of(field.X) if surfaces is None else surfaces
        self.plane_tol = PLANE_RTOL * field.norms
        self.segments: list[Segment] = []
        self.events: list[Event] = []
        self.exact = True
        self.max_events = max_events
        self._run(u0, r0)

    def _resolve(self, t: float, plane: np.ndarray, crossed: set[int]) -> None:
        """Settle the pairs ``plane`` on their hyperplanes at time t (``crossed``: those that arrived by a crossing)
        with the engines' one switching law, :func:`law.settle_column` (gain s, data weights g, Gram K: the
        normal rate of pair i is s <x_i, x_eff>); log its events, update the slopes and sides."""
        sf = self.surf
        out = law.settle_column(self.col[:, None], self.g, sf.K, np.array([self.s]), 0, plane, self.side,
                                      crossed, self.field.alpha, sf.rep, sf.sgn, sf.line_rows)
        for i, (kind, direction) in zip(out.rows.tolist(), out.events):
            if kind is not None:
                self.events.append(Event(t, i, self.j, kind, direction))
        self.col[out.rows] = out.slope
        self.side[out.rows] = out.side
        self.exact = self.exact and out.settled

    def _mode(self, u: np.ndarray, r: float) -> LimitMode:
        """The mode's closed form with x_eff = sum_i S_i g_i x_i (S the slopes: 1 active, alpha inactive, the Filippov
        slope of a sliding pair); with sliding pairs, u and the frame vector e are projected onto
        span{x_i : i sliding}^perp (where x_eff lies) so rounding cannot leave it."""
        x_eff = (self.col * self.g) @ self.X
        sliding = self.side == 0
        if not sliding.any():
            return LimitMode.start(x_eff, u, self.s, r)
        pinv_Xs = np.linalg.pinv(self.X[sliding])
        Xs = self.X[sliding]
        u = u - pinv_Xs @ (Xs @ u)
        mode = LimitMode.start(x_eff, u / np.linalg.norm(u), self.s, r)
        if not mode.moving:
            return mode
        e = mode.e - pinv_Xs @ (Xs @ mode.e)
        ne = float(np.linalg.norm(e))
        if ne < 1e-8 or np.linalg.matrix_rank(Xs) >= self.X.shape[1] - 1:
            # no room to move inside the sliding subspace (a line, or less): u = +-a_hat there. On a line the frame
            # vector e is rounding noise of u - <u, a> a, which would turn u through 0 to -u
            return LimitMode(mode.u0, mode.r0, mode.s, mode.k, mode.a_hat, np.zeros_like(e), -np.inf if mode.u0 @ mode.a_hat > 0 else np.inf)
        return LimitMode(mode.u0, mode.r0, mode.s, mode.k, mode.a_hat, e / ne, mode.tau0)

    def _run(self, u: np.ndarray, r: float) -> None:
        alpha = self.field.alpha
        p = self.X @ u
        plane = np.flatnonzero(np.abs(p) <= self.plane_tol)
        self.side = np.where(p > self.plane_tol, 1, -1)  # on-plane pairs start inactive (sigma'(0) = alpha)
        self.col = np.where(self.side == 1, 1.0, alpha)
        crossed: set[int] = set()
        t = 0.0
        n_events = 0
        while True:
            if plane.size:
                self._resolve(t, plane, crossed)
            active, sliding = self.side == 1, self.side == 0
            if alpha == 0.0 and not active.any() and not sliding.any():
                self.events.append(Event(t, -1, self.j, "dead", 0))
                self.segments.append(Segment(t, self.t_end, LimitMode.start(np.zeros_like(u), u, self.s, r), active, sliding))
                return
            mode = self._mode(u, r)
            tc = mode.crossing_times(self.X)
            tc[plane] = np.inf
            tc[sliding] = np.inf
            dt = float(tc.min())
            if not t + dt < self.t_end:
                self.segments.append(Segment(t, self.t_end, mode, active, sliding))
                return
            n_events += 1
            if n_events > self.max_events:
                raise NumericalError(f"limit engine: neuron {self.j} switched mode more than {self.max_events} times by t = {t:.6g} (Zeno?)")
            t_new = t + dt
            self.segments.append(Segment(t, t_new, mode, active, sliding))
            hit = np.flatnonzero(t + tc <= t_new + TIME_RTOL * max(1.0, t_new))
            crossed = set(hit.tolist())
            u_arr, r_arr = mode.state(dt)
            u, r, t = u_arr, float(r_arr), t_new
            resting = np.flatnonzero(np.abs(self.X @ u) <= self.plane_tol)  # on their planes now, whatever their side
            plane = np.union1d(np.union1d(hit, np.flatnonzero(sliding)), resting)

    def pattern_at(self, t: float) -> tuple[np.ndarray, np.ndarray, bool, np.ndarray]:
        """(active, sliding, dead, entries) at time t: the pattern of the segment with t0 <= t < t1 (the last one from
        its end on), dead once a "dead" event is logged at or before t (alpha = 0), and per row the "sliding" events
        logged at or before t (zero for a dead neuron)."""
        seg = next((sg for sg in self.segments if sg.t0 <= t < sg.t1), self.segments[-1])
        dead = self.field.alpha == 0.0 and any(e.kind == "dead" and e.t <= t for e in self.events)
        rows = [] if dead else [e.i for e in self.events if e.kind == "sliding" and e.t <= t]
        return seg.active.copy(), seg.sliding.copy(), dead, np.bincount(np.asarray(rows, dtype=np.int64), minlength=self.X.shape[0])

    def sample(self, times: np.ndarray, U: np.ndarray, R: np.ndarray) -> None:
        """Fill U[:, j], R[:, j] at the sample times."""
        for seg in self.segments:
            last = seg is self.segments[-1]
            m = (times >= seg.t0) & ((times < seg.t1) | last)
            if m.any():
                U[m, self.j], R[m, self.j] = seg.mode.state(times[m] - seg.t0)


def solve_limit(field: NetworkField, U0: np.ndarray, s: np.ndarray, times: np.ndarray, *, r0: np.ndarray | None = None, max_events_per_neuron: int | None = None) -> Trajectory:
    """Exact eps -> 0 alignment-phase dynamics (f = 0, g_i = -l'(y_i, 0)), event by event.

    ``U0`` (h, d): initial directions (rows are normalised; their norms are ignored);
    ``s`` (h,): signs s_j = sign(v_j) in {-1, +1}; ``r0`` (h,): initial log-norms
    ln ||w_j(0)|| (default 0). Returns a Trajectory with backend "limit", ``r``, ``U`` and
    W = exp(r) U, v = s exp(r) at ``times``; events with exact times (sorted by time);
    ``stats``: ``n_events`` (activate/deactivate crossings), ``history`` (per neuron a list of
    (t_start, t_end, k_plus, k_minus), one entry per mode), ``patterns`` (per neuron the
    active index tuples of those modes), ``sliding_sets`` (per neuron the sliding index
    tuples), ``dead`` ({j: t}), ``n_sliding`` (sliding entries) and ``exact``.
    The balanced limit state is exact, so ``balancedness_drift`` is 0 and ``error_estimate``
    is the float64 rounding level. More than ``max_events_per_neuron`` (default 10 n + 10)
    mode switches of one neuron raise NumericalError (Zeno guard; with mu > 0 a neuron
    switches at most n times).
    """
    if not field.train_v:
        raise InputError("the limit engine needs balanced dynamics with the second layer trained (train_v=True)")
    times = sample_times(times)
    U0 = np.asarray(U0, dtype=float)
    if U0.ndim != 2 or U0.shape[1] != field.X.shape[1]:
        raise InputError(f"U0 must have shape (h, {field.X.shape[1]}), got {U0.shape}")
    h = U0.shape[0]
    norms = np.linalg.norm(U0, axis=1)
    if not np.all(np.isfinite(U0)) or np.any(norms == 0.0):
        raise InputError("U0 rows must be finite and nonzero")
    s = np.asarray(s, dtype=float).reshape(-1)
    if s.shape != (h,) or not np.all(np.isin(s, (-1.0, 1.0))):
        raise InputError(f"s must be {h} entries in {{-1, +1}}")
    r0 = np.zeros(h) if r0 is None else np.asarray(r0, dtype=float).reshape(-1)
    if r0.shape != (h,) or not np.all(np.isfinite(r0)):
        raise InputError(f"r0 must be {h} finite log-norms")
    g = limit_weights(field)
    t_end = float(times[-1])
    cap = 10 * field.n + 10 if max_events_per_neuron is None else int(max_events_per_neuron)
    surf = Surfaces.of(field.X)
    runs = [NeuronRun(field, g, j, U0[j] / norms[j], float(r0[j]), float(s[j]), t_end, cap, surf) for j in range(h)]
    U = np.empty((times.size, h, U0.shape[1]))
    R = np.empty((times.size, h))
    for run in runs:
        run.sample(times, U, R)
    events = sorted((e for run in runs for e in run.events), key=lambda e: (e.t, e.j, e.i))
    yp = field.y > 0
    history = [[(seg.t0, seg.t1, int(np.sum(seg.active & yp)), int(np.sum(seg.active & ~yp))) for seg in run.segments] for run in runs]
    patterns = [[tuple(int(i) for i in np.flatnonzero(seg.active)) for seg in run.segments] for run in runs]
    sliding_sets = [[tuple(int(i) for i in np.flatnonzero(seg.sliding)) for seg in run.segments] for run in runs]
    return Trajectory.from_polar(
        times, R, U, s,
        events=events,
        backend="limit",
        balancedness_drift=0.0,
        error_estimate=float(np.finfo(float).eps * 10),
        stats={
            "n_events": sum(1 for e in events if e.kind in ("activate", "deactivate")),
            "history": history,
            "patterns": patterns,
            "dead": {e.j: e.t for e in events if e.kind == "dead"},
            "sliding_sets": sliding_sets,
            "n_sliding": sum(1 for e in events if e.kind == "sliding"),
            "exact": all(run.exact for run in runs),
        },
        params={"loss": field.loss.name, "alpha": field.alpha, "t_end": t_end, "limit_weights": g.tolist()},
    )


def limit_alignment_time(traj: Trajectory, y: np.ndarray, s: np.ndarray) -> float:
    """Empirical t1 of a "limit" trajectory: the earliest time after which every j with s_j = +1
    stays in S+ or S_dead and every j with s_j = -1 in S- or S_dead (np.inf if some neuron is
    not there at the horizon). Uses the exact pattern history in ``traj.stats``."""
    y = np.asarray(y, dtype=float)
    pos = tuple(int(i) for i in np.flatnonzero(y > 0))
    neg = tuple(int(i) for i in np.flatnonzero(y < 0))
    t1 = 0.0
    for j, (hist, pats) in enumerate(zip(traj.stats["history"], traj.stats["patterns"])):
        allowed = {(), pos if s[j] > 0 else neg}
        start = np.inf
        for (t_start, _t_end, _kp, _km), pat in zip(reversed(hist), reversed(pats)):
            if pat not in allowed:
                break
            start = t_start
        t1 = max(t1, start)
    return float(t1)
