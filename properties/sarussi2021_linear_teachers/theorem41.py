"""Claim sheet 002 section 2.1: Theorem 4.1 (SGD reaches L_S < eps within M(eps)) in its strong form, its informal
Section-4 claims LT-I41, Eqs. (25)-(27) (LT-P41i: the end-of-clean-epoch loss), the epochs of LT-D4 (sheet 1.4) and
the planted cases P4 (ReLU stuck at log 2), P6 / P13 (no linear teacher: the hypothesis is flagged and the loss is
bounded below) and P16 (sampling with replacement is not an epoch). The SGD reader and the per-step inequalities of
Appendix B are in :mod:`.appendix_b` (the step reader in :mod:`.sgd_update`).

Theorem 4.1 is checked by running the engine's SGD (verify's ``simulate``, backend "gd", every iterate) in chunks of
whole epochs (:func:`sgd_until_clean`) until an epoch is clean (every point sampled in it had l < eps' at its
sampling time) or a budget of epochs ends; a budget below M(eps) without a clean epoch is inconclusive, never a
violation. M(eps), eps', T_max are ``quantities.sgd_bound`` with the min-norm teacher, R = max row norm of W0 and
B = max ||x_j||.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.errors import NumericalError
from verify.scenarios import SEEDS, Scenario
from verify.simulate import simulate
from verify.verdicts import Verdict

from properties.sarussi2021_linear_teachers import datasets as D
from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers import quantities as Q
from properties.sarussi2021_linear_teachers import scenarios as SC
from properties.sarussi2021_linear_teachers._shared import LOSS, exact_margin, paper_claim, worst
from properties.sarussi2021_linear_teachers.sgd_update import (SGD_HYP, STEP_EPOCHS, SgdSteps, p4_scenarios,
                                                               row_radius, sgd_draw, step_scenarios, steps_of,
                                                               teacher_of, variant)

LOSS_RTOL = 1e-12  # relative error of a point loss computed in float64
EPOCH_BUDGET = 1500  # epochs a Theorem 4.1 check runs at most (the ci draws are clean by about 500)
FIRST_CHUNK = 25  # epochs of the first chunk; each next chunk doubles


# --- strategies -----------------------------------------------------------------------------------------------

def obtuse_pair(theta_deg: float) -> Dataset:
    """Two positive unit points at the angle theta (< 180 deg): a step on one lowers the other's margin."""
    t = math.radians(theta_deg)
    return Dataset(np.array([[1.0, 0.0], [math.cos(t), math.sin(t)]]), np.array([1.0, 1.0]),
                   name=f"obtuse_pair({theta_deg:g} deg)")


@st.composite
def clean_epoch_scenarios(draw: st.DrawFn, k: tuple[int, int] = (1, 3), radii: tuple[float, ...] = (0.01, 0.1, 1.0),
                          etas: tuple[float, ...] = (1.0, 5.0)) -> Scenario:
    """Theorem 4.1 draws that reach a clean epoch within the ci budget: teacher data with n in [2, 4], d <= 3 and
    margin 0.4 or 0.6, eps in {0.1, 0.3}, alpha in {0.2, 0.5}."""
    ds = D.teacher(draw(st.integers(2, 4)), draw(st.integers(1, 3)), draw(st.sampled_from((0.4, 0.6))), draw(SEEDS))
    return sgd_draw(draw, ds, k, (0.2, 0.5), etas, radii, eps=draw(st.sampled_from((0.1, 0.3))), epochs=EPOCH_BUDGET)


# --- Theorem 4.1 (strong form) --------------------------------------------------------------------------------

@dataclass(frozen=True)
class CleanEpoch:
    """The first clean epoch of a chunked SGD run: its chunk's steps, its index in the chunk (0-based) and overall
    (1-based, the paper's T*), and how many epochs ran."""

    steps: SgdSteps | None
    in_chunk: int
    epoch: int
    epochs_run: int

    @property
    def found(self) -> bool:
        return self.steps is not None

    @property
    def rows(self) -> slice:
        """The epoch's steps within the chunk."""
        n = self.steps.n
        return slice(self.in_chunk * n, (self.in_chunk + 1) * n)

    @property
    def W_end(self) -> np.ndarray:
        return self.steps.W[(self.in_chunk + 1) * self.steps.n]


def chunk_seed(order_seed: int, epochs_done: int) -> int:
    """The order seed of the chunk starting after ``epochs_done`` epochs."""
    return int(np.random.SeedSequence([int(order_seed), int(epochs_done)]).generate_state(1)[0])


def sgd_until_clean(run: Any, eps_prime: float, budget: int) -> CleanEpoch:
    """Run the scenario's SGD (verify.simulate, backend "gd", every iterate) in chunks of whole epochs, each with its
    own permutation seed, until an epoch has every sampled loss < eps' or ``budget`` epochs ran."""
    sc, w_star = run.scenario, teacher_of(run)
    ds, n = sc.dataset, sc.dataset.n
    W, done, chunk = np.array(sc.init.W0, float), 0, FIRST_CHUNK
    while done < budget:
        epochs = min(chunk, budget - done)
        times = sc.lr * np.arange(epochs * n + 1)
        traj = simulate(ds, W, sc.init.v0, float(times[-1]), loss=LOSS, alpha=sc.alpha, backend="gd", lr=sc.lr,
                        batch_size=1, seed=chunk_seed(sc.order_seed, done), train_v=False, times=times)
        S = steps_of(traj.W, traj.stats["order"][:, 0], ds.X, ds.y, sc.params["eta"], sc.alpha, w_star)
        clean = np.flatnonzero(np.all(S.epoch_losses() < eps_prime, axis=1))
        if clean.size:
            return CleanEpoch(S, int(clean[0]), done + int(clean[0]) + 1, done + epochs)
        W, done, chunk = traj.W[-1], done + epochs, 2 * chunk
    return CleanEpoch(None, -1, -1, done)


def stationary(run: Any) -> bool:
    """Every data point's SGD step at W0 is exactly zero (x_j = 0 or every slope 0: ReLU with every neuron off), so
    W_t = W_0 for every t whatever the order."""
    sc = run.scenario
    S = steps_of(np.repeat(np.asarray(sc.init.W0, float)[None], sc.dataset.n + 1, axis=0), np.arange(sc.dataset.n),
                 run.X, run.y, sc.params["eta"], sc.alpha, None)
    return bool(np.all(np.all(S.slopes == 0.0, axis=1) | ~np.any(S.x != 0.0, axis=1)))


def stuck_margin(run: Any, eps: float) -> Margin:
    """P4: W0 is a fixed point of every SGD step, so L_S(W_t) = L_S(W_0) for every t; the engine's run over two
    epochs must leave W and the loss exactly unchanged (else the engine contradicts the exact zero step)."""
    sc = run.scenario
    loss0 = N.mean_loss(sc.init.W0, run.X, run.y, sc.alpha)
    times = sc.lr * np.arange(2 * sc.dataset.n + 1)
    traj = simulate(sc.dataset, sc.init.W0, sc.init.v0, float(times[-1]), loss=LOSS, alpha=sc.alpha, backend="gd",
                    lr=sc.lr, batch_size=1, seed=sc.order_seed, train_v=False, times=times)
    losses = [N.mean_loss(W, run.X, run.y, sc.alpha) for W in traj.W]
    if not (np.all(traj.W == traj.W[0]) and all(value == loss0 for value in losses)):
        raise NumericalError("the engine moved W although every sampled SGD step at W0 is exactly zero")
    return Margin((eps - loss0) / eps, 0.0, f"every SGD step at W0 is exactly 0 (all slopes 0), so L_S(W_t) = "
                                            f"L_S(W_0) = {loss0!r} (log 2 = {math.log(2.0)!r}) for every t; the "
                                            f"engine's {times.size - 1} steps left W and L_S exactly unchanged; "
                                            f"eps = {eps:g}")


@measures("min((eps - max_j l) / eps, 1 - t / M(eps)) at the first clean epoch (relative); -1: none within M(eps)")
def theorem41(run: Any) -> Margin:
    """LT-T41 (strong form): the first clean epoch T* (every sampled l < eps') ends at t = n T* <= M(eps) with
    max_j l(y_j N(x_j)) < eps; value min((eps - max l) / eps, 1 - t / M), ratio t / M. No clean epoch within a budget
    below M: inconclusive. A stationary W0 (P4) decides the conclusion exactly: L_S stays L_S(W0) for ever."""
    sc, eps = run.scenario, float(run.scenario.params["eps"])
    w_star = teacher_of(run)
    if w_star is None:
        return Margin(0.0, 0.0, "no linear teacher through 0 (LT-D1 not met)", vacuous=True)
    if stationary(run):
        return stuck_margin(run, eps)
    k, n, eta, alpha = sc.init.W0.shape[0] // 2, sc.dataset.n, float(sc.params["eta"]), sc.alpha
    bound = Q.sgd_bound(eps, n, k, alpha, eta, row_radius(sc.init.W0), Q.data_radius(run.X),
                        float(np.linalg.norm(w_star)))
    found = sgd_until_clean(run, bound.eps_prime, int(sc.params.get("epochs", EPOCH_BUDGET)))
    if not found.found:
        if found.epochs_run * n >= bound.M:
            return Margin(-1.0, 0.0, f"no clean epoch in {found.epochs_run} epochs >= M(eps) / n = {bound.M / n:.4g}")
        return Margin(0.0, math.inf, f"no clean epoch (eps' = {bound.eps_prime:.3g}) in the budget of "
                                     f"{found.epochs_run} epochs, below M(eps) = {bound.M:.3g} steps: inconclusive")
    t = n * found.epoch
    worst_loss = float(np.max(N.point_loss(N.margins(found.W_end, run.X, run.y, alpha))))
    value = min((eps - worst_loss) / eps, 1.0 - t / bound.M)
    return Margin(value, LOSS_RTOL, f"first clean epoch T* = {found.epoch} (eps' = {bound.eps_prime:.3g}) ends at "
                                    f"t = {t}: max_j l = {worst_loss:.4g} < eps = {eps:g}; M(eps) = {bound.M:.4g} "
                                    f"(T_max = {bound.T_max:.4g} epochs), slack t / M = {t / bound.M:.3g}",
                  ratio=t / bound.M)


T41 = paper_claim(
    "Theorem 4.1 (LT-T41)",
    id="LT-T41", node="T41", uses=("P41", "D1", "INIT", "EPOCHS", "LEAKY"),
    statement="SGD (batch 1, epochs without replacement, step eta) from rows of norm <= R on LT-D1 data reaches, at "
              "the end of its first clean epoch T* (every sampled point had l < eps' = eps / (1 + 2 k eta n B^2)), "
              "max_j l(y_j N(x_j)) < eps at t = n T* <= M(eps) = n (floor T_max + 1) (sheet 2.1; slack t / M reported)",
    check=theorem41, over=clean_epoch_scenarios(), assumptions=SGD_HYP, tags=("sgd", "exist-bound"),
    meta={"budget": {"ci": 8}},
)

P4_T41 = paper_claim(
    "sheet 5.2 P4 (Theorem 4.1 for ReLU, alpha = 0)",
    id="P4-T41-relu", node="T41", uses=("P41", "D1", "INIT", "EPOCHS", "LEAKY"),
    statement="PLANTED: Theorem 4.1 for ReLU: SGD reaches L_S < eps (eps < log 2) at some t. False on P4: with every "
              "neuron at (0, -r) every sampled step is exactly 0, so L_S = log 2 at every step, for ever",
    check=theorem41, over=p4_scenarios(), expected=Verdict.REFUTED, assumptions=("drops 'leaky' (alpha = 0)",),
    tags=("planted", "sgd"), meta={"budget": {"ci": 4}},
)

I41_SIZE = paper_claim(
    "Section 4 prose (LT-I41 (a): any network size and initialisation scale)",
    id="LT-I41a", node="I41", uses=("T41",),
    statement="Theorem 4.1's strong form holds for any width and initialisation scale: k up to 5 and R up to 5",
    check=theorem41, over=clean_epoch_scenarios(k=(1, 5), radii=(0.01, 1.0, 5.0), etas=(1.0,)),
    assumptions=SGD_HYP, tags=("sgd", "exist-bound"), meta={"budget": {"ci": 6}},
)

I41_STEP = paper_claim(
    "Section 4 prose (LT-I41 (b): any step size)",
    id="LT-I41b", node="I41", uses=("T41",),
    statement="Theorem 4.1's strong form holds for any step: eta = 10 (the sheet's [NUM] reference)",
    check=theorem41, over=clean_epoch_scenarios(etas=(10.0,)), assumptions=SGD_HYP, tags=("sgd", "exist-bound"),
    meta={"budget": {"ci": 6}},
)


# --- LT-P41i, Eqs. (25)-(27): the loss at the end of a clean epoch ----------------------------------------------

@measures("min(relative slack of the Lipschitz chain for l_j, (eps - max_j l) / eps) at the clean epoch's end")
def clean_epoch_end(run: Any) -> Margin:
    """LT-P41i: at the end of the first clean epoch (every sampled l < eps'; the planted "eps" reading: l < eps), for
    every j, l(y_j N(x_j)) <= l_j at its sampling time + 2 k eta ||x_j|| sum_{tau after j} c_tau ||x_tau|| (l is
    1-Lipschitz, Eq. (24); the step on x_j itself only lowers its loss), and < eps' + 2 k eta n B^2 eps' = eps. Value
    min of the chain's relative slack and (eps - max l) / eps; ratio max l / eps; vacuous without a clean epoch."""
    sc, eps = run.scenario, float(run.scenario.params["eps"])
    w_star = teacher_of(run)
    if w_star is None:
        return Margin(0.0, 0.0, "no linear teacher through 0 (LT-D1 not met)", vacuous=True)
    k, n, eta = sc.init.W0.shape[0] // 2, sc.dataset.n, float(sc.params["eta"])
    bound = Q.sgd_bound(eps, n, k, sc.alpha, eta, row_radius(sc.init.W0), Q.data_radius(run.X),
                        float(np.linalg.norm(w_star)))
    threshold = eps if variant(run) == "eps" else bound.eps_prime
    found = sgd_until_clean(run, threshold, int(sc.params.get("epochs", EPOCH_BUDGET)))
    if not found.found:
        return Margin(0.0, 0.0, f"no clean epoch in {found.epochs_run} epochs", vacuous=True)
    S, rows = found.steps, found.rows
    end = N.point_loss(N.margins(found.W_end, run.X, run.y, sc.alpha))
    pushes = S.c[rows] * np.linalg.norm(S.x[rows], axis=1)
    after = np.cumsum(pushes[::-1])[::-1] - pushes  # sum over the steps after each position
    sampled = S.order[rows]
    chain = S.loss[rows] + 2.0 * k * eta * np.linalg.norm(run.X[sampled], axis=1) * after
    slack = chain - end[sampled]
    t = int(np.argmin(slack))
    worst_loss = float(np.max(end))
    note = (f"clean epoch T* = {found.epoch} (threshold {threshold:.3g}): max_j l at its end = {worst_loss:.4g} vs "
            f"eps = {eps:g}; chain slack {slack[t]:.3g} at point {sampled[t]}")
    chain_slack = float(slack[t]) / max(float(chain[t]), 1e-300)
    point = sampled[t] if chain_slack <= (eps - worst_loss) / eps else np.argmax(end)  # the part that decides
    return Margin(min(chain_slack, (eps - worst_loss) / eps), LOSS_RTOL, note, ratio=worst_loss / eps,
                  site={"i": int(point)})


P41I = paper_claim(
    "App. B, Eqs. (25)-(27) (LT-P41i)",
    id="LT-P41i", node="P41", uses=("D4", "LOSS", "D1"),
    statement="At the end of a clean epoch (every sampled l < eps') every point has l(y_j N(x_j)) <= its sampled "
              "loss + 2 k eta ||x_j|| sum_{later tau} c_tau ||x_tau|| < eps' + 2 k eta n B^2 eps' = eps",
    check=clean_epoch_end, over=clean_epoch_scenarios(), assumptions=SGD_HYP, tags=("sgd", "per-epoch"),
    meta={"budget": {"ci": 6}},
)


@st.composite
def obtuse_scenarios(draw: st.DrawFn, **params: Any) -> Scenario:
    """Two positive unit points 160 or 170 degrees apart, large steps (eta in {5, 10}), eps = 0.3."""
    ds = obtuse_pair(draw(st.sampled_from((160.0, 170.0))))
    return sgd_draw(draw, ds, (1, 3), (0.2, 0.5), (5.0, 10.0), (0.01, 0.1), eps=0.3, epochs=400, **params)


P41I_EPS = paper_claim(
    "App. B, Eqs. (25)-(27) with eps' = eps (planted: the 1 / (1 + 2 k eta n B^2) factor dropped)",
    id="LT-P41i-eps", node="P41", uses=("D4", "LOSS", "D1"),
    statement="PLANTED: at the end of an epoch whose sampled losses were all < eps every point has loss < eps. False "
              "with large steps on two positive points 160-170 degrees apart: the later step pushes the earlier point "
              "back above eps",
    check=clean_epoch_end, over=obtuse_scenarios(variant="eps"), expected=Verdict.REFUTED, assumptions=SGD_HYP,
    tags=("planted", "sgd"), meta={"budget": {"ci": 8}},
)


# --- LT-D4 epochs and P16 ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SampledOrder:
    """A sampling order of n points (P16's draws: i.i.d. uniform, with replacement)."""

    order: np.ndarray
    n: int
    scheme: str


@st.composite
def with_replacement(draw: st.DrawFn) -> SampledOrder:
    """P16: 3 n draws i.i.d. uniform from n points (n in [2, 12])."""
    n = draw(st.integers(2, 12))
    return SampledOrder(np.random.default_rng(draw(SEEDS)).integers(0, n, 3 * n), n, "with replacement")


@measures("+1 every epoch is a permutation of the n points / -1 not (exact decision)")
def epoch_permutations(value: Any) -> Margin:
    """LT-D4 epochs: every full epoch of the order (n consecutive steps) visits each point exactly once (exact)."""
    if isinstance(value, SampledOrder):
        order, n, scheme = value.order, value.n, value.scheme
    else:
        order, n, scheme = value.trajectory.stats["order"][:, 0], value.dataset.n, "engine SGD"
    epochs = order.size // n
    bad = [e + 1 for e in range(epochs) if not np.array_equal(np.sort(order[e * n:(e + 1) * n]), np.arange(n))]
    return exact_margin(not bad and epochs > 0, f"{scheme}: {epochs} epoch(s) of n = {n}; "
                                                f"not a permutation: epochs {bad[:5]}" if bad else
                        f"{scheme}: {epochs} epoch(s) of n = {n}, each a permutation")


D4_EPOCHS = paper_claim(
    "Section 3, sheet 1.4 (LT-D4: epochs without replacement)",
    id="LT-D4-epochs", node="D4", uses=("EPOCHS",),
    statement="The engine's SGD runs in epochs without replacement: each block of n consecutive steps samples every "
              "training point exactly once (the recorded order is a permutation per epoch)",
    check=epoch_permutations, over=step_scenarios(), horizon=SC.epochs_horizon(3), backend="gd", spacing="steps",
    assumptions=SGD_HYP, tags=("engine", "sgd"), meta={"budget": {"ci": 4}},
)

P16_REPLACEMENT = paper_claim(
    "sheet 5.2 P16 (with-replacement SGD is outside Theorem 4.1)",
    id="P16-D4-replacement", node="D4", uses=("EPOCHS",),
    statement="PLANTED: SGD sampling i.i.d. with replacement also runs in epochs (each block of n draws is a "
              "permutation). False: some block repeats a point, so Theorem 4.1's hypothesis is not met (P16: SKIP)",
    check=epoch_permutations, over=with_replacement(), expected=Verdict.REFUTED,
    assumptions=("drops 'without replacement'",), tags=("planted", "pointwise"), meta={"budget": {"ci": 6}},
)


# --- P6 / P13: no linear teacher ------------------------------------------------------------------------------

def loss_floor(X: np.ndarray, y: np.ndarray) -> tuple[float, str]:
    """A lower bound on L_S(W) over every W: conflicting duplicates (x, +1), (x, -1) add >= 2 log 2 each (l7); in
    1-D, N(x) = x A on x > 0 and |x| A' on x < 0, so n L_S >= sum of the two convex minima over A, A'."""
    pairs, used = 0, set()
    for i in range(len(y)):
        for j in range(i + 1, len(y)):
            if i not in used and j not in used and y[i] != y[j] and np.array_equal(X[i], X[j]):
                pairs, used = pairs + 1, used | {i, j}
    floors = [(2.0 * pairs * math.log(2.0) / len(y), f"{pairs} conflicting pair(s) (l7)")]
    if X.shape[1] == 1:
        total = 0.0
        for side in (X[:, 0] > 0.0, X[:, 0] < 0.0):
            s = y[side] * np.abs(X[side, 0])
            if s.size and np.any(s > 0.0) and np.any(s < 0.0):
                total += float(minimize_scalar(lambda a: float(np.sum(N.point_loss(s * a)))).fun) - 1e-9
        floors.append((total / len(y), "1-D: N(x) = x A on each side of 0 (convex minimum)"))
    return max(floors)


@st.composite
def no_teacher_scenarios(draw: st.DrawFn, **params: Any) -> Scenario:
    """P6 (teacher data plus a copy of a point with the opposite label) or P13 (1-D positive points with both
    labels, the sheet's affine_only among them)."""
    if draw(st.booleans()):
        ds = draw(SC.teacher_sets(n=(2, 6), d=(1, 3)))
        j = draw(st.integers(0, ds.n - 1))
        ds = Dataset(np.vstack([ds.X, ds.X[j]]), np.r_[ds.y, -ds.y[j]], name=f"P6: {ds.name} + conflicting copy {j}")
    elif draw(st.booleans()):
        ds = D.affine_only()
    else:
        rng = np.random.default_rng(draw(SEEDS))
        m = draw(st.integers(2, 5))
        ds = Dataset(rng.uniform(0.1, 1.0, (m, 1)), np.r_[1.0, -1.0, rng.choice([-1.0, 1.0], m - 2)],
                     name="P13: 1-D positive points with both labels")
    return sgd_draw(draw, ds, (1, 3), (0.2, 0.5), (0.1, 1.0), (0.1, 1.0), **params)


@measures("worst of the audit's exact flag (+1 / -1) and (min_t L_S - loss floor) / floor (relative)")
def no_teacher(run: Any) -> Margin:
    """P6 / P13: the audit finds no teacher through 0 (exact) and L_S(W_t) >= :func:`loss_floor` at every SGD step
    (value (min_t L_S - floor) / floor). The planted reading "conclusion" asserts Theorem 4.1's conclusion instead:
    some t has L_S(W_t) < eps = floor / 2 (value (eps - min_t L_S) / eps; the floor holds for every W)."""
    floor, why = loss_floor(run.X, run.y)
    if floor <= 0.0:
        return Margin(0.0, 0.0, "no positive loss floor found for these data", vacuous=True)
    losses = np.array([N.mean_loss(W, run.X, run.y, run.scenario.alpha) for W in run.W])
    low = float(np.min(losses))
    if variant(run) == "conclusion":
        eps = 0.5 * floor
        return Margin((eps - low) / eps, LOSS_RTOL, f"min_t L_S = {low:.4g} over {losses.size} iterates; eps = "
                                                    f"{eps:.4g} is below the floor {floor:.4g} of every W ({why})")
    flagged = exact_margin(not run.audit.max_margin.linearly_separable,
                           "the audit finds no teacher through 0 (LT-D1 flagged)")
    return worst([flagged, Margin((low - floor) / floor, LOSS_RTOL, f"min_t L_S = {low:.4g} >= {floor:.4g} ({why})",
                                  ratio=floor / low)])


T41_HYP = paper_claim(
    "sheet 5.2 P6 and P13 (Theorem 4.1 without a linear teacher: SKIP)",
    id="LT-T41-hyp", node="D1", uses=("LOSS",),
    statement="On data with conflicting duplicates (P6) or only affinely separable 1-D data (P13) the audit flags "
              "LT-D1 (no teacher through 0) and SGD's L_S stays above the data's floor (2 log 2 per conflicting pair "
              "/ n by l7; the convex 1-D minimum)",
    check=no_teacher, over=no_teacher_scenarios(), horizon=SC.epochs_horizon(STEP_EPOCHS), backend="gd",
    spacing="steps", assumptions=("drops LT-D1 (audit must flag it)", "SGD batch 1 without replacement in epochs"),
    tags=("sgd", "hypothesis"), meta={"budget": {"ci": 6}},
)

P6_NO_TEACHER = paper_claim(
    "sheet 5.2 P6 / P13 (Theorem 4.1's conclusion without its hypothesis LT-D1)",
    id="P6-T41-no-teacher", node="T41", uses=("D1", "LOSS"),
    statement="PLANTED: without a linear teacher SGD still reaches L_S < eps (eps = half the data's loss floor). "
              "False: every W has L_S >= the floor (l7 for conflicting duplicates, the 1-D minimum for P13)",
    check=no_teacher, over=no_teacher_scenarios(variant="conclusion"), horizon=SC.epochs_horizon(5), backend="gd",
    spacing="steps", expected=Verdict.REFUTED, assumptions=("drops LT-D1",), tags=("planted", "sgd"),
    meta={"budget": {"ci": 4}, "margin_unit": "(eps - min_t L_S) / eps, eps = half the data's loss floor (relative)"},
)
