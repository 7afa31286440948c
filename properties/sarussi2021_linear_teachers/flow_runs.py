"""Reading seed 002's Section-6 runs (claim sheet 002 sections 2.3, 6): the GF / GD / SGD runs of the fixed-layer model
from a small or large init and the planted starts (P9 large init, P12 wide-angle data with a large step, P15 one flipped
neuron), and what the claims of :mod:`.theorem61` and :mod:`.lyu_li` read off them.

Reading a run (:class:`Trace`). Times are the paper's mean-loss times t = n t_engine (``_shared.engine_time``).
t0 = the first sample with n L_S < log 2 (Assumption 6.1). The final NAR window (:func:`nar_window`, sheet 6 "NAR
detection") starts at t2 = the first sample from which every later sample is in one NAR (Definition 6.2, global
normalisation; gamma_NAR at or below ``NAR_FLOOR`` is a neuron sliding on a kink, not an NAR) and after which the
engine logged no activation event; gamma := min gamma_NAR / 2 over it (reported). "For all t >= t2" cannot be verified
finitely: every trajectory verdict reads "consistent on [t2, T]". The approximate KKT point of (P) (sheet 6):
W~ = W / q_min, eps_KKT = min_{lambda >= 0} ||vec W~ - sum_j lambda_j vec grad q_j(W~)|| / ||W~|| (NNLS).

Mutations. A planted claim shares its check with the claim it mutates (so the catalogue's teeth see the pair); the
mutated statement is named by the planted scenario's ``params["mutation"]`` (:data:`MUTATIONS`), e.g. P15 drops
LT-X1's agreement gate, P9 drops Theorem 6.1's NAR hypothesis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from hypothesis import strategies as st
from scipy.optimize import nnls

from verify.claims.model import Margin
from verify.data.dataset import Dataset
from verify.margins import max_margin
from verify.scenarios import SEEDS, Scenario
from verify.trajectory import Event, sliding_mask

from properties.sarussi2021_linear_teachers import datasets as D
from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers._shared import worst
from properties.sarussi2021_linear_teachers.scenarios import gaussian_init, model_scenario

HORIZON = 1000.0  # engine time (paper time 1000 n): t0 is reached on every small-init draw, 64 log-spaced samples
SAMPLES = 64
GF_SAFETY = 10.0  # sheet 2.3 (a): ODE tolerance 10 rtol ||W||
GD_STEP_RTOL = 1e-12  # LT-X1 per GD / SGD step, relative to ||W|| (rounding of one update)
GD_DRIFT_RTOL = 1e-10  # sheet 2.3 (a) for GD: cumulative drift since t2, relative to 1 + ||W||
GD_MARGIN_STEP = 1e-8  # sheet 6: gamma~ may fall by 1e-8 per small-eta GD step (rounding, kinks)
KKT_FLOOR = 1e-9  # eps_KKT trend: absolute slack (NNLS rounding)
NAR_FLOOR = 1e-9  # gamma_NAR at or below this is rounding (a neuron sliding on a data point's kink), not an NAR
QUADRATURE_SAFETY = 4.0  # LT-X7: x the local |Simpson - trapezoid| (measured worst ratio ~1 over 100 runs)
DIRECTIONS = 2048  # LT-C62: directions sampled per time (a grid on the circle for d = 2)
UNGATED, NO_NAR, MEAN_THRESHOLD, SLOPE_ONE, ALWAYS = ("no-agreement-gate", "no-nar-hypothesis", "mean-loss-threshold",
                                                      "slope-one", "no-margin-gate")
MUTATIONS = (UNGATED, NO_NAR, MEAN_THRESHOLD, SLOPE_ONE, ALWAYS)
LOG2 = math.log(2.0)


# --- reading a run -------------------------------------------------------------------------------------------------

class Trace:
    """A run in the paper's terms: samples at engine times ``t_engine`` and paper times ``t`` = n t_engine, W (S, 2k,
    d), margins q (S, n), n L_S, the NAR reading per sample (computed on first use), the engine's events, the relative
    state tolerance ``tol`` (GF: GF_SAFETY rtol; GD / SGD: GD_STEP_RTOL), the statement's ``mutation``, SGD's order."""

    def __init__(self, t_engine: np.ndarray, W: np.ndarray, X: np.ndarray, y: np.ndarray, alpha: float,
                 algorithm: str = "gf", events: tuple[Event, ...] = (), rtol: float = 1e-10,
                 mutation: str | None = None, order: np.ndarray | None = None) -> None:
        self.t_engine, self.W = np.asarray(t_engine, float), np.asarray(W, float)
        self.X, self.y, self.alpha, self.algorithm = np.asarray(X, float), np.asarray(y, float), float(alpha), algorithm
        self.t = self.n * self.t_engine
        self.q = np.array([N.margins(Wi, self.X, self.y, self.alpha) for Wi in self.W])
        self.nL = N.point_loss(self.q).sum(axis=1)
        self.norms = np.linalg.norm(self.W, axis=(1, 2))
        self.events, self.mutation, self.order = tuple(events), mutation, order
        self.tol = GF_SAFETY * rtol if algorithm == "gf" else GD_STEP_RTOL

    @property
    def k(self) -> int:
        return self.W.shape[1] // 2

    @property
    def n(self) -> int:
        return self.X.shape[0]

    @cached_property
    def on_kink(self) -> np.ndarray:
        """(S, n, 2k): the pairs an exact flow holds on their kink (sliding) per sample; none for GD / SGD."""
        if self.algorithm != "gf":
            return np.zeros((self.W.shape[0], self.n, self.W.shape[1]), dtype=bool)
        return sliding_mask(self.events, self.t_engine, self.n, self.W.shape[1])

    @cached_property
    def agreements(self) -> tuple[N.Agreement, ...]:
        return tuple(N.agreement(Wi, self.X, m) for Wi, m in zip(self.W, self.on_kink))


def trace(run: Any) -> Trace:
    """The :class:`Trace` of a run."""
    params = run.scenario.params
    stats = run.trajectory.stats if run.trajectory is not None else {}
    return Trace(run.times, run.W, run.X, run.y, run.scenario.alpha, str(params.get("algorithm", "gf")), run.events,
                 float(run.params.get("rtol") or 1e-10), params.get("mutation"), stats.get("order"))


def separation_index(tr: Trace, threshold: float = LOG2) -> int | None:
    """The first sample with n L_S < threshold (Assumption 6.1: log 2), or None."""
    hits = np.flatnonzero(tr.nL < threshold)
    return int(hits[0]) if hits.size else None


@dataclass(frozen=True)
class NarWindow:
    """The final NAR window [t2, T]: its first sample ``start``, t2 (paper time), gamma = min gamma_NAR / 2, signs."""

    start: int
    t2: float
    gamma: float
    s_plus: np.ndarray
    s_minus: np.ndarray


def nar_window(tr: Trace) -> NarWindow | None:
    """The longest final run of samples in one NAR (same s+, s-, gamma_NAR > NAR_FLOOR) after the last logged event;
    None when the last sample is in no NAR (Theorem 6.1's hypothesis (ii) reported violated)."""
    last = tr.agreements[-1]
    if not (last.nar and last.gamma > NAR_FLOOR):
        return None
    t_event = max((e.t for e in tr.events), default=-math.inf)
    i = len(tr.agreements) - 1
    while i > 0:
        a = tr.agreements[i - 1]
        same = a.nar and np.array_equal(a.s_plus, last.s_plus) and np.array_equal(a.s_minus, last.s_minus)
        if not (same and a.gamma > NAR_FLOOR and tr.t_engine[i - 1] >= t_event):
            break
        i -= 1
    if tr.t_engine[i] < t_event:
        return None
    gamma = 0.5 * min(a.gamma for a in tr.agreements[i:])
    return NarWindow(i, float(tr.t[i]), gamma, last.s_plus, last.s_minus)


def window_start(tr: Trace) -> tuple[int | None, str]:
    """First sample of [max(t0, t2), T] (t2 := t0 under the NO_NAR mutation), or None with the reason."""
    i0 = separation_index(tr)
    if i0 is None:
        return None, f"n L_S >= log 2 up to T = {tr.t[-1]:.3g}: Assumption 6.1 not reached (vacuous)"
    if tr.mutation == NO_NAR:
        return i0, f"t0 = {tr.t[i0]:.3g} (NAR hypothesis dropped)"
    win = nar_window(tr)
    if win is None:
        return None, (f"no NAR at T (d_max = {tr.agreements[-1].d_max}): Theorem 6.1's hypothesis (ii) reported "
                      "violated (vacuous)")
    start = max(i0, win.start)
    return start, f"t0 = {tr.t[i0]:.3g}, t2 = {win.t2:.3g}, gamma = {win.gamma:.3g}"


def differences(W: np.ndarray) -> np.ndarray:
    """w^(i) - w^(1) and u^(i) - u^(1) for every sample: (..., 2k, d)."""
    W = np.asarray(W, float)
    k = W.shape[-2] // 2
    return np.concatenate([W[..., :k, :] - W[..., :1, :], W[..., k:, :] - W[..., k:k + 1, :]], axis=-2)


def kkt_residual(W: np.ndarray, X: np.ndarray, y: np.ndarray, alpha: float) -> tuple[float, float]:
    """Sheet 6's approximate KKT point of (P): W~ = W / q_min, eps_KKT = min_{lambda >= 0} ||vec W~ - sum_j lambda_j
    vec grad q_j(W~)|| / ||W~|| (NNLS over every j) and delta_KKT = sum_j lambda_j (q_j(W~) - 1); (inf, inf) where
    q_min <= 0. grad q_j: y_j sigma'(<w_i, x_j>) x_j on + rows, -y_j sigma'(<u_i, x_j>) x_j on - rows."""
    q = N.margins(W, X, y, alpha)
    q_min = float(np.min(q))
    if not q_min > 0.0:
        return math.inf, math.inf
    Wt = np.asarray(W, float) / q_min
    v = N.second_layer(Wt.shape[0] // 2)
    slopes = N.slope(X @ Wt.T, alpha) * v  # (n, 2k)
    columns = (np.asarray(y, float)[:, None, None] * slopes[:, :, None] * X[:, None, :]).reshape(len(y), -1).T
    lam, residual = nnls(columns, Wt.ravel())
    return float(residual / np.linalg.norm(Wt)), float(lam @ (q / q_min - 1.0))


def _intervals_with_events(tr: Trace, rows: range | None = None) -> np.ndarray:
    """(S - 1,) mask: an engine event (of a neuron in ``rows``) lies in (t_a, t_b]."""
    mask = np.zeros(max(len(tr.t_engine) - 1, 0), bool)
    for e in tr.events:
        if rows is not None and e.j not in rows:
            continue
        b = int(np.searchsorted(tr.t_engine, e.t, side="left"))
        if 1 <= b < len(tr.t_engine):
            mask[b - 1] = True
    return mask


def _margin(parts: list[Margin], note: str) -> Margin:
    out = worst(parts)
    return Margin(out.value, out.error, f"{note}; {out.note}", vacuous=out.vacuous, ratio=out.ratio, site=out.site)


# --- scenarios ----------------------------------------------------------------------------------------------------

@st.composite
def small_data(draw: st.DrawFn) -> Dataset:
    """Sheet 2.3's data, n <= 12: symmetric Gaussians (Fig. 4), antipodal teacher data, LT-D1 teacher data."""
    kind, seed = draw(st.sampled_from(("symmetric_gaussians", "symmetric_teacher", "teacher"))), draw(SEEDS)
    margin, d = draw(st.sampled_from((0.1, 0.2))), draw(st.integers(2, 3))
    if kind == "symmetric_gaussians":
        return D.symmetric_gaussians(draw(st.integers(2, 6)), seed=seed)
    if kind == "symmetric_teacher":
        return D.symmetric_teacher(draw(st.integers(2, 6)), d, margin, seed=seed)
    return D.teacher(draw(st.integers(4, 12)), d, margin, seed=seed)


@st.composite
def small_init_flows(draw: st.DrawFn, algorithm: str = "gf", mutation: str | None = None) -> Scenario:
    """GF (or GD / SGD, see :func:`discrete_runs`) from W0 = scale G, scale in {1e-4, 1e-3}, k in 2..5."""
    ds, k, scale, seed = draw(small_data()), draw(st.integers(2, 5)), draw(st.sampled_from((1e-4, 1e-3))), draw(SEEDS)
    extra = {} if mutation is None else {"mutation": mutation}
    return model_scenario(ds, gaussian_init(k, ds.d, scale, seed), algorithm, init_scale=scale, init_seed=seed, **extra)


@st.composite
def large_init_flows(draw: st.DrawFn, mutation: str | None = None) -> Scenario:
    """P9: GF from W0 = scale G, scale in {1, 10}, on 2-D asymmetric Gaussians (n_half 3..8), k in 2..5."""
    ds = D.asymmetric_gaussians(draw(st.integers(3, 8)), seed=draw(SEEDS))
    k, scale, seed = draw(st.integers(2, 5)), draw(st.sampled_from((1.0, 10.0))), draw(SEEDS)
    extra = {} if mutation is None else {"mutation": mutation}
    return model_scenario(ds, gaussian_init(k, ds.d, scale, seed), "gf", init_scale=scale, init_seed=seed, **extra)


P9_DRAWS = ((5, 3, 10.0, 0), (6, 4, 10.0, 1), (7, 5, 10.0, 2), (8, 3, 10.0, 3), (5, 4, 10.0, 4), (6, 5, 10.0, 5),
            (7, 5, 1.0, 2), (8, 3, 1.0, 3), (6, 5, 1.0, 5), (8, 5, 1.0, 11), (7, 5, 1.0, 14), (7, 5, 1.0, 26))
# (n_half, k, scale, seed) -- data and init seed -- of P9 runs whose neurons still disagree at T (d_max >= 2)


def p9_flows() -> list[Scenario]:
    """The P9 runs of the detector claim: asymmetric Gaussians, large init (:data:`P9_DRAWS`)."""
    out = []
    for n_half, k, scale, seed in P9_DRAWS:
        ds = D.asymmetric_gaussians(n_half, seed=seed)
        out.append(model_scenario(ds, gaussian_init(k, ds.d, scale, seed), "gf", init_scale=scale, init_seed=seed))
    return out


def steps_horizon(scenario: Scenario, _audit: Any) -> float:
    """``params["steps"]`` steps of the scenario's lr (engine time)."""
    return scenario.params["steps"] * scenario.lr


@st.composite
def discrete_runs(draw: st.DrawFn, algorithms: tuple[str, ...] = ("gd", "sgd"), etas: tuple[float, ...] = (0.05, 0.5),
                  steps: int = 600) -> Scenario:
    """Small-init GD / SGD (mean-loss step eta) for ``steps`` steps on :func:`small_data`."""
    ds, k, scale, seed = draw(small_data()), draw(st.integers(2, 5)), draw(st.sampled_from((1e-4, 1e-3))), draw(SEEDS)
    return model_scenario(ds, gaussian_init(k, ds.d, scale, seed), draw(st.sampled_from(algorithms)),
                          eta=draw(st.sampled_from(etas)), order_seed=draw(SEEDS), init_scale=scale, init_seed=seed,
                          steps=steps)


def one_flip_init(ds: Dataset, k: int, scale: float, seed: int) -> np.ndarray:
    """P15 (2-D data): + rows c_i w^, - rows -c_i w^ (w^ = w_svm / ||w_svm||, c_i in [0.5, 1.5]: a PAR), then the first
    + row rotated by half-way between the smallest and second-smallest rotation angle that flips a point's sign, so
    it disagrees with the other + neurons on exactly one point."""
    w = max_margin(ds).svm.direction
    c = scale * np.random.default_rng(seed).uniform(0.5, 1.5, 2 * k)
    W = np.vstack([c[:k, None] * w, -c[k:, None] * w])
    theta = np.arctan2(ds.X[:, 1], ds.X[:, 0]) - math.atan2(w[1], w[0])
    flips = np.sort(np.mod(theta + math.pi / 2.0, math.pi))
    beta = 0.5 * (flips[0] + flips[1]) if len(flips) > 1 else flips[0] + 1e-3
    rot = np.array([[math.cos(beta), -math.sin(beta)], [math.sin(beta), math.cos(beta)]])
    W[0] = rot @ W[0]
    return W


@st.composite
def one_flip_runs(draw: st.DrawFn, mutation: str | None = None) -> Scenario:
    """P15: full-batch GD (eta in {0.05, 0.5}, 300 steps) from :func:`one_flip_init` on 2-D teacher data."""
    ds = D.teacher(draw(st.integers(4, 10)), 2, draw(st.sampled_from((0.1, 0.2))), seed=draw(SEEDS))
    k, seed = draw(st.integers(2, 4)), draw(SEEDS)
    extra = {} if mutation is None else {"mutation": mutation}
    return model_scenario(ds, one_flip_init(ds, k, 1e-2, seed), "gd", eta=draw(st.sampled_from((0.05, 0.5))),
                          init_scale=1e-2, init_seed=seed, steps=300, construction="P15 one flipped + neuron", **extra)


def wide_angle(seed: int) -> Dataset:
    """P12's small random separable data: two positives at 75-85 degrees either side of e2 (radii 1 and 0.4-0.6) and
    one negative -0.5 e2, so that a large step toward one positive costs the other its margin."""
    rng = np.random.default_rng(seed)
    a1, a2 = np.deg2rad(rng.uniform(75.0, 85.0, 2))
    r2 = rng.uniform(0.4, 0.6)
    X = np.array([[math.sin(a1), math.cos(a1)], [-r2 * math.sin(a2), r2 * math.cos(a2)], [0.0, -0.5]])
    return Dataset(X, np.array([1.0, 1.0, -1.0]), name=f"wide_angle(seed={seed})")


@st.composite
def large_step_runs(draw: st.DrawFn, eta: float = 50.0, steps: int = 300) -> Scenario:
    """P12: full-batch GD with mean-loss step ``eta`` from W0 = 1e-3 G on :func:`wide_angle` data, k in 1..3."""
    ds, k, seed = wide_angle(draw(SEEDS)), draw(st.integers(1, 3)), draw(SEEDS)
    return model_scenario(ds, gaussian_init(k, 2, 1e-3, seed), "gd", eta=eta, init_scale=1e-3, init_seed=seed,
                          steps=steps)


@st.composite
def small_step_runs(draw: st.DrawFn) -> Scenario:
    """The P12 control: GD with eta = 0.05 for 2000 steps from W0 = 1e-3 G on LT-D1 teacher data (margin 0.2)."""
    ds = D.teacher(draw(st.integers(4, 10)), draw(st.integers(2, 3)), 0.2, seed=draw(SEEDS))
    k, seed = draw(st.integers(2, 4)), draw(SEEDS)
    return model_scenario(ds, gaussian_init(k, ds.d, 1e-3, seed), "gd", eta=0.05, init_scale=1e-3, init_seed=seed,
                          steps=2000)


GF = dict(horizon=HORIZON, samples=SAMPLES, spacing="log")
STEPS = dict(horizon=steps_horizon, backend="gd", spacing="steps")
SMALL_INIT = ("small init W0 = scale G, scale in {1e-4, 1e-3} (by construction)", "leaky",
              "LT-D1 data (by construction)")
