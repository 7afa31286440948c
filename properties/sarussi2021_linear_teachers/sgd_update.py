"""Claim sheet 002 sections 1.4 and 2.8: the SGD update (eq. (4), LT-D4) read step by step from the engine's run,
against the explicit update and with its epochs without replacement, and the derived LT-X6 (F = <W, W*> strictly
increases along SGD and GF), each with a planted twin sharing its check (the mean-loss step eta / n, sheet 5.1; ReLU /
sigma'(0) = 0, P4). The step reader and the SGD strategies here serve :mod:`.appendix_b` and :mod:`.theorem41`.

Runs are the engine's SGD (``scenarios.model_scenario(..., "sgd")``, backend "gd", ``spacing="steps"``: every
iterate): step t maps W_{t-1} to W_t with the point ``order[t-1]``; the paper's step is ``params["eta"]`` (engine lr =
eta / n) and sigma'(0) = alpha. w* is the min-norm teacher (verify's max-margin solver) rescaled so that min_j y_j
<w*, x_j> >= 1 holds in float64. Tolerance per step (sheet 6): 1e-9 (1 + |F| + G^2). A planted claim's reading is
``params["variant"]`` ("paper" otherwise).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st
from scipy.special import expit

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.errors import NumericalError
from verify.scenarios import SEEDS, Scenario
from verify.verdicts import Verdict

from properties.sarussi2021_linear_teachers import datasets as D
from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers import quantities as Q
from properties.sarussi2021_linear_teachers import scenarios as SC
from properties.sarussi2021_linear_teachers._shared import paper_claim, worst

U_ROUND = 2.0 ** -53
STEP_TOL = 1e-9  # sheet 6: per-step tolerance 1e-9 (1 + |F| + G^2)
UPDATE_RTOL = 1e-12  # LT-D4: the engine step against the explicit update, relative to the step
STEP_EPOCHS = 20  # horizon of the per-step claims (at most 12 points: 240 steps)
SGD_HYP = ("LT-D1 (audit: min-norm teacher)", "LT-A-INIT (R = max row norm of W0)",
           "SGD batch 1 without replacement in epochs", "leaky")


# --- the SGD run read step by step ----------------------------------------------------------------------------

def teacher_of(run: Any) -> np.ndarray | None:
    """w*: the min-norm teacher of the run's data, scaled up by the float64 deficit so that min_j y_j <w*, x_j> >= 1
    (None where the data have no teacher through the origin)."""
    w = run.audit.max_margin.svm.w
    if w is None:
        return None
    w = np.asarray(w, float)
    signed = run.y[:, None] * run.X
    w = w / float(np.min(signed @ w))
    while float(np.min(signed @ w)) < 1.0:
        w = w * (1.0 + 4.0 * U_ROUND)
    return w


@dataclass(frozen=True)
class SgdSteps:
    """Sheet 1.4 read off iterates W (T + 1, 2k, d) and the order (T,) of the sampled points: for step t (index t-1)
    x_t, y_t, the pre-activations P = <row, x_t> at W_{t-1}, slopes sigma'(P) (a_t the first k, b_t the last k),
    z_t = y_t N_{W_{t-1}}(x_t), c_t = c(z_t), l_t = l(z_t); F = <W, W*> and G^2 = ||W||^2 of every iterate."""

    W: np.ndarray
    order: np.ndarray
    X: np.ndarray
    y: np.ndarray
    eta: float
    alpha: float
    w_star: np.ndarray | None
    x: np.ndarray
    ys: np.ndarray
    P: np.ndarray
    slopes: np.ndarray
    z: np.ndarray
    c: np.ndarray
    loss: np.ndarray
    F: np.ndarray
    G2: np.ndarray

    @property
    def k(self) -> int:
        return self.W.shape[1] // 2

    @property
    def n(self) -> int:
        return self.X.shape[0]

    @property
    def B(self) -> float:
        return Q.data_radius(self.X)

    @property
    def epochs(self) -> int:
        return self.order.size // self.n

    def update(self, factor: float = 1.0) -> np.ndarray:
        """LT-D4's explicit steps (T, 2k, d): w + factor eta c y a x, u - factor eta c y b x."""
        v = N.second_layer(self.k)
        scale = factor * self.eta * self.c * self.ys
        return scale[:, None, None] * (v * self.slopes)[:, :, None] * self.x[:, None, :]

    def tol(self) -> np.ndarray:
        """Sheet 6's tolerance of step t: 1e-9 (1 + |F| + G^2), the larger of its two ends (T,)."""
        per = STEP_TOL * (1.0 + np.abs(self.F) + self.G2)
        return np.maximum(per[:-1], per[1:])

    def epoch_losses(self) -> np.ndarray:
        """l_t at the sampling time, one row per full epoch (E, n)."""
        return self.loss[:self.epochs * self.n].reshape(self.epochs, self.n)


def steps_of(W: np.ndarray, order: np.ndarray, X: np.ndarray, y: np.ndarray, eta: float, alpha: float,
             w_star: np.ndarray | None) -> SgdSteps:
    """:class:`SgdSteps` of iterates W and order (every quantity vectorised over the steps)."""
    W, order = np.asarray(W, float), np.asarray(order, int).reshape(-1)
    k = W.shape[1] // 2
    v = N.second_layer(k)
    x, ys = X[order], y[order]
    P = np.einsum("tkd,td->tk", W[:-1], x)
    z = ys * (N.leaky(P, alpha) @ v)
    if w_star is None:
        F = np.full(W.shape[0], math.nan)
    else:
        F = (W @ w_star) @ v
    return SgdSteps(W, order, X, y, float(eta), float(alpha), w_star, x, ys, P, N.slope(P, alpha), z, expit(-z),
                    N.point_loss(z), F, np.einsum("tkd,tkd->t", W, W))


def read_steps(run: Any) -> SgdSteps:
    """The run's SGD steps (``spacing="steps"``: every iterate) with its min-norm teacher."""
    order = run.trajectory.stats["order"][:, 0]
    return steps_of(run.W, order, run.X, run.y, run.scenario.params["eta"], run.scenario.alpha, teacher_of(run))


def variant(run: Any) -> str:
    """The reading a claim checks, recorded in the scenario's params ("paper" unless a planted claim mutates it)."""
    scenario = run.scenario if hasattr(run, "scenario") else run
    return str(scenario.params.get("variant", "paper"))


def row_radius(W0: np.ndarray) -> float:
    """R = the largest row norm of W0 (LT-A-INIT)."""
    return float(np.max(np.linalg.norm(np.asarray(W0, float), axis=1)))


# --- strategies -----------------------------------------------------------------------------------------------

def sgd_draw(draw: st.DrawFn, ds: Dataset, k: tuple[int, int], alphas: tuple[float, ...], etas: tuple[float, ...],
             radii: tuple[float, ...], **params: Any) -> Scenario:
    """An SGD scenario on ``ds`` (ball init of the drawn width and radius; the drawn params recorded)."""
    width, R, seed = draw(st.integers(*k)), draw(st.sampled_from(radii)), draw(SEEDS)
    return SC.model_scenario(ds, SC.ball_init(width, ds.d, R, seed), "sgd", eta=draw(st.sampled_from(etas)),
                             alpha=draw(st.sampled_from(alphas)), order_seed=draw(SEEDS), R=R, init_seed=seed,
                             **params)


@st.composite
def step_scenarios(draw: st.DrawFn, large: bool = False, etas: tuple[float, ...] = (1e-3, 0.1, 1.0, 10.0),
                   alphas: tuple[float, ...] = (0.01, 0.1, 0.2, 0.5, 0.99),
                   radii: tuple[float, ...] = (1e-3, 0.1, 1.0, 5.0), margins: tuple[float, ...] = (0.05, 0.1, 0.2, 0.4),
                   **params: Any) -> Scenario:
    """Sheet 6's SGD draws (n <= 12, d <= 4, k <= 5, alpha in [0.01, 0.99], eta in [1e-3, 10], R <= 5, margin >=
    0.05) with ``eps`` in {0.1, 0.3} and the given params; ``large``: the data times 10 (P5, datasets.large_norm)."""
    ds = draw(SC.teacher_sets(margins=margins))
    return sgd_draw(draw, D.large_norm(ds) if large else ds, (1, 5), alphas, etas, radii,
                    eps=draw(st.sampled_from((0.1, 0.3))), large=large, **params)


@st.composite
def kink_scenarios(draw: st.DrawFn, alphas: tuple[float, ...] = (0.01, 0.2, 0.5)) -> Scenario:
    """Every neuron on the kink of every point at t = 0: teacher data padded with a zero coordinate, every row r e_last
    (all pre-activations exactly 0, so the first step uses sigma'(0) = alpha on every neuron)."""
    ds = draw(SC.teacher_sets(n=(2, 6), d=(1, 2)))
    padded = Dataset(np.hstack([ds.X, np.zeros((ds.n, 1))]), ds.y, name=f"{ds.name} + a zero coordinate")
    k, r = draw(st.integers(1, 3)), draw(st.sampled_from((0.5, 1.0)))
    W0 = np.zeros((2 * k, ds.d + 1))
    W0[:, -1] = r
    return SC.model_scenario(padded, W0, "sgd", eta=draw(st.sampled_from((0.1, 1.0))),
                             alpha=draw(st.sampled_from(alphas)), order_seed=draw(SEEDS), R=r, eps=0.3, kink=True)


def p4_scenarios() -> st.SearchStrategy[Scenario]:
    """P4: relu_stuck data, alpha = 0, every neuron (0, -r) (all pre-activations negative), eps < log 2."""
    @st.composite
    def build(draw: st.DrawFn) -> Scenario:
        k, r = draw(st.integers(1, 3)), draw(st.sampled_from((0.5, 1.0)))
        W0 = np.tile([0.0, -r], (2 * k, 1))
        return SC.model_scenario(D.relu_stuck(), W0, "sgd", eta=draw(st.sampled_from((1.0, 5.0))), alpha=0.0,
                                 order_seed=draw(SEEDS), R=r, eps=draw(st.sampled_from((0.1, 0.3, 0.6))),
                                 alpha_rate=draw(st.sampled_from((0.01, 0.2))))
    return build()


# --- LT-D4: the engine's step is the paper's update ----------------------------------------------------------

@measures("-|engine step - explicit update| at the worst entry, relative to the step's largest entry (0 at best)")
def explicit_update(run: Any) -> Margin:
    """LT-D4: W_t = W_{t-1} + the explicit update of sheet 1.4 (factor 1; the planted "mean" reading: factor 1/n),
    entrywise within 1e-12 s + 4u (|W_{t-1}| + |engine step|), s the step's largest entry (value -gap / s, at the
    worst entry)."""
    S = read_steps(run)
    factor = 1.0 / S.n if variant(run) == "mean" else 1.0
    moved, explicit = S.W[1:] - S.W[:-1], S.update(factor)
    gap = np.abs(moved - explicit)
    scale = np.maximum(np.max(np.abs(moved), axis=(1, 2)), np.max(np.abs(explicit), axis=(1, 2)))[:, None, None]
    scale = scale + np.finfo(float).tiny
    err = UPDATE_RTOL * scale + 4.0 * U_ROUND * (np.abs(S.W[:-1]) + np.abs(moved))
    t, i, j = np.unravel_index(int(np.argmax((gap - err) / scale)), gap.shape)
    return Margin(-float(gap[t, i, j] / scale[t, 0, 0]), float(err[t, i, j] / scale[t, 0, 0]),
                  f"worst entry: step {t + 1}, row {i}, coordinate {j}: |engine - explicit| / |step| = "
                  f"{gap[t, i, j] / scale[t, 0, 0]:.3g} over {S.order.size} steps (update factor {factor:g} eta)",
                  site={"t": float(run.times[t + 1]), "j": int(i)})


D4 = paper_claim(
    "Eq. (4), sheet 1.4 (LT-D4)",
    id="LT-D4", node="D4", uses=("EPOCHS",),
    statement="Each engine SGD step equals the paper's update w_t = w_{t-1} + eta c_t y_t a_t x_t, u_t = u_{t-1} - "
              "eta c_t y_t b_t x_t (c = 1/(1+e^z), a, b = sigma'(pre-activation), sigma'(0) = alpha) to rounding, "
              "also from every neuron on a kink",
    check=explicit_update, over=st.one_of(step_scenarios(), kink_scenarios()), horizon=SC.epochs_horizon(3),
    backend="gd", spacing="steps",
    assumptions=SGD_HYP, tags=("engine", "sgd"), meta={"budget": {"ci": 6}},
)

D4_MEAN = paper_claim(
    "Eq. (4) read with the mean-loss step eta / n per sample (planted; sheet 5.1 mean vs sum)",
    id="LT-D4-mean", node="D4", uses=("EPOCHS",),
    statement="PLANTED: each SGD step moves W by (eta / n) c_t y_t sigma' x_t (the mean loss's 1/n applied to the "
              "sampled point). False: the paper's step on the sampled point is eta, the engine's lr = eta / n is "
              "scaled back by n for a batch of 1",
    check=explicit_update, over=step_scenarios(variant="mean"), horizon=SC.epochs_horizon(1), backend="gd",
    spacing="steps", expected=Verdict.REFUTED, assumptions=SGD_HYP, tags=("planted", "engine", "sgd"),
    meta={"budget": {"ci": 4}},
)


# --- LT-X6: F = <W, W*> strictly increases (SGD steps and GF) ------------------------------------------------

@measures("least rise of F = <W, W*> per step / sample interval, or dF/dt minus its floor (units of F); -1: null step")
def teacher_correlation_increases(run: Any) -> Margin:
    """LT-X6: F(W_t) - F(W_{t-1}) > 0 at every SGD step (value the increase, error sheet 6's tolerance; a step whose
    slopes are all exactly 0 has the exact update 0: an exact violation). Along GF: F(t_{i+1}) > F(t_i) between
    samples, and dF/dt >= (2 k alpha / n) sum_j c(q_j) at every sample (the field formula, mean-loss time)."""
    w_star = teacher_of(run)
    if w_star is None:
        return Margin(0.0, 0.0, "no linear teacher through 0", vacuous=True)
    if run.scenario.lr is not None:
        S = read_steps(run)
        rise, tol = np.diff(S.F), S.tol()
        dead = np.flatnonzero(np.all(S.slopes == 0.0, axis=1))
        if dead.size:
            if not np.array_equal(S.W[dead[0] + 1], S.W[dead[0]]):
                raise NumericalError("the engine moved W at a step whose exact update is 0 (every slope 0)")
            return Margin(-1.0, 0.0, f"step {dead[0] + 1}: every slope sigma' is exactly 0 (alpha = {S.alpha:g}), the "
                                     f"update is exactly 0 and F(W_t) = F(W_(t-1)) = {S.F[dead[0]]:.6g}",
                          site={"t": float(run.times[dead[0] + 1])})
        t = int(np.argmin(rise + tol))
        return Margin(float(rise[t]), float(tol[t]), f"smallest increase: step {t + 1}, F(W_t) - F(W_(t-1)) = "
                                                     f"{rise[t]:.3g} over {rise.size} steps",
                      site={"t": float(run.times[t + 1])})
    W, alpha, X, y, n = run.W, run.scenario.alpha, run.X, run.y, run.X.shape[0]
    k = W.shape[1] // 2
    F = (W @ w_star) @ N.second_layer(k)
    tol = STEP_TOL * (1.0 + np.abs(F) + np.einsum("tkd,tkd->t", W, W))
    parts = [Margin(float(F[t] - F[t - 1]), float(max(tol[t], tol[t - 1])),
                    f"F(t_{t}) - F(t_{t - 1}) = {F[t] - F[t - 1]:.3g}", site={"t": float(run.times[t])})
             for t in range(1, W.shape[0])]
    for t, Wt in enumerate(W):
        c = expit(-N.margins(Wt, X, y, alpha))
        rate = float(np.sum(c * y * (X @ w_star) * N.slope(X @ Wt.T, alpha).sum(axis=1))) / n
        floor = 2.0 * k * alpha * float(np.sum(c)) / n
        parts.append(Margin(rate - floor, STEP_TOL * (1.0 + abs(rate)),
                            f"sample {t}: dF/dt = {rate:.4g} >= 2 k alpha sum c / n = {floor:.4g}",
                            site={"t": float(run.times[t])}))
    return worst(parts)


X6 = paper_claim(
    "sheet 2.8 (LT-X6, SGD part; Eq. (14))",
    id="LT-X6", node="DER", uses=("D4", "LOSS", "D1", "LEAKY"),
    statement="F(W) = <W, W*> strictly increases at every SGD step (sigma' >= alpha > 0, y <w*, x> >= 1)",
    check=teacher_correlation_increases, over=step_scenarios(), horizon=SC.epochs_horizon(STEP_EPOCHS), backend="gd",
    spacing="steps", assumptions=SGD_HYP, tags=("sgd", "exact"), meta={"budget": {"ci": 6}},
)


@st.composite
def gf_scenarios(draw: st.DrawFn) -> Scenario:
    """GF of the fixed-layer model on LT-D1 data (n <= 6, d <= 3, k <= 3, R <= 1)."""
    ds = draw(SC.teacher_sets(n=(2, 6), d=(1, 3)))
    k, R, seed = draw(st.integers(1, 3)), draw(st.sampled_from((0.01, 0.1, 1.0))), draw(SEEDS)
    return SC.model_scenario(ds, SC.ball_init(k, ds.d, R, seed), "gf", alpha=draw(st.sampled_from((0.1, 0.2, 0.5))),
                             R=R, init_seed=seed)


X6_GF = paper_claim(
    "sheet 2.8 (LT-X6, GF part)",
    id="LT-X6-gf", node="DER", uses=("LOSS", "D1", "LEAKY"),
    statement="Along GF F(W(t)) strictly increases and dF/dt = (1/n) sum_j c(q_j) y_j <w*, x_j> (sum sigma'_+ + sum "
              "sigma'_-) >= (2 k alpha / n) sum_j c(q_j) > 0 at every sampled state",
    check=teacher_correlation_increases, over=gf_scenarios(), horizon=2.0, samples=16,
    assumptions=("LT-D1 (audit: min-norm teacher)", "leaky"), tags=("gf", "exact"), meta={"budget": {"ci": 3}},
)


@st.composite
def relu_dead_scenarios(draw: st.DrawFn) -> Scenario:
    """Sheet 5.1 / P4: alpha = 0 with every neuron off (P4's (0, -r) rows) or on the kink of every point (teacher
    data padded with a zero coordinate, every row r e_last: all pre-activations exactly 0, sigma'(0) = 0)."""
    if draw(st.booleans()):
        return draw(p4_scenarios())
    ds = draw(SC.teacher_sets(n=(2, 6), d=(1, 2)))
    padded = Dataset(np.hstack([ds.X, np.zeros((ds.n, 1))]), ds.y, name=f"{ds.name} + a zero coordinate")
    k, r = draw(st.integers(1, 3)), draw(st.sampled_from((0.5, 1.0)))
    W0 = np.zeros((2 * k, ds.d + 1))
    W0[:, -1] = r
    return SC.model_scenario(padded, W0, "sgd", eta=1.0, alpha=0.0, order_seed=draw(SEEDS), R=r, eps=0.3)


P4_X6 = paper_claim(
    "sheet 5.2 P4 and 5.1 (sigma'(0) = 0 at a kink breaks Eq. (14))",
    id="P4-X6-relu", node="DER", uses=("D4", "LOSS", "D1", "LEAKY"),
    statement="PLANTED: F = <W, W*> strictly increases at every SGD step of a ReLU net (alpha = 0, the framework "
              "convention sigma'(0) = 0). False: with every neuron off (P4) or on the kink of every point the step "
              "is 0",
    check=teacher_correlation_increases, over=relu_dead_scenarios(), horizon=SC.epochs_horizon(2), backend="gd",
    spacing="steps", expected=Verdict.REFUTED, assumptions=("drops 'leaky' (alpha = 0)",),
    tags=("planted", "sgd"), meta={"budget": {"ci": 4}},
)
