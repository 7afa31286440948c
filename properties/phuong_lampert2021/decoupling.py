"""Claim sheet 000, the decoupling step of Theorem 1's proof: PL-P1 (eq. (15): after Lemma 1's time T the output on a
positive example comes from the J+ neurons only, on a negative one from J- only) and PL-P2 (eq. (16): the J+ block is
a linear two-layer net trained on the positive examples alone, J- likewise; the sheet's sharp test, re-integrating the
two linear nets from T^ and comparing; and its perturbation form, moving the other class leaves the block unchanged),
with the planted cases PC2 (not OS: the blocks do not decouple) and the reading of eq. (16) from t = 0 (before T^).

T^ is the first sample at which every neuron is dead or in its extremal sector (measures.entry_index); the groups are
read there. Distances between two runs are relative per neuron, d_j(t) = ||(w_j, a_j) - (w'_j, a'_j)|| /
max(||(w_j, a_j)||, ||(w'_j, a'_j)||), with error the sum of both runs' state tolerances (10 (rtol + the engine's
accumulated error estimate) each, measures.state_tolerance).
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

import numpy as np

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.simulate import simulate
from verify.trajectory import Trajectory
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import measures as M
from properties.phuong_lampert2021 import scenarios as SC
from properties.phuong_lampert2021._shared import U_ROUND, paper_claim, product_rounding, worst

HORIZON = 1e3  # T^ is O(1)-O(10) at lambda >= 1e-4; long enough for the growth phase, short enough for the mp cross-check
SAMPLES = 40
LINEAR = 1.0  # leaky slope 1: the identity activation, a linear network
MIN_RTOL = 1e-14  # the re-integrations' tolerance: the run's own rtol, floored here (mp runs report 1e-15)

Block = tuple[int, np.ndarray, str]  # (label, neuron indices, name)


def entered(run: Any) -> bool | str:
    """Precondition: T^ (every neuron dead or in its extremal sector) is reached at a sample before the last."""
    smp = M.samples(run)
    k = M.entry_index(run.X, run.y, smp)
    if k is None:
        return "T^ not reached within the horizon (Lemma 1's phase unfinished)"
    return True if k < smp.t.size - 1 else "T^ reached only at the last sample: nothing after it to compare"


def _groups_at_entry(run: Any) -> tuple[M.Samples, int, np.ndarray]:
    smp = M.samples(run)
    k = M.entry_index(run.X, run.y, smp)
    sp, sm = M.extremal_sectors(run.X, run.y)
    return smp, k, M.groups(run.X, smp.W[k], smp.a[k], sp, sm)


def _tolerance(traj: Trajectory, rtol: float) -> float:
    """10 (rtol + accumulated error estimate) of a re-integration, as measures.state_tolerance does for a run."""
    est = float(traj.error_estimate) if np.isfinite(traj.error_estimate) else 0.0
    return 10.0 * (rtol + est)


def _distances(W: np.ndarray, a: np.ndarray, W2: np.ndarray, a2: np.ndarray) -> np.ndarray:
    """d[k, j] = ||(w, a) - (w', a')|| / max(||(w, a)||, ||(w', a')||) over samples k and neurons j."""
    diff = np.sqrt(np.sum((W - W2) ** 2, axis=-1) + (a - a2) ** 2)
    size = np.maximum(np.sqrt(np.sum(W**2, axis=-1) + a**2), np.sqrt(np.sum(W2**2, axis=-1) + a2**2))
    return diff / np.where(size > 0.0, size, 1.0)


def _joined(parts: list[Margin], empty: str = "nothing to check") -> Margin:
    """The worst part (measures closest to a violation) with every part's note."""
    m = worst(parts, empty)
    return m if m.vacuous else Margin(m.value, m.error, "; ".join(p.note for p in parts), site=m.site)


def _rerun(run: Any, smp: M.Samples, k: int, data: Dataset, J: np.ndarray, alpha: float) -> tuple[Trajectory, float]:
    """Integrate the neurons J alone on ``data`` from the state of sample k to the run's later samples."""
    rtol = max(float(run.params.get("rtol") or 1e-10), MIN_RTOL)
    later = smp.t[k + 1:] - smp.t[k]
    traj = simulate(data, smp.W[k][J], smp.a[k][J], float(later[-1]), loss=run.scenario.loss, alpha=alpha,
                    times=later, rtol=rtol)
    return traj, _tolerance(traj, rtol)


def _compare(run: Any, smp: M.Samples, k: int, blocks: list[Block], data_of: Callable[[int], Dataset],
             alpha: float, what: str) -> Margin:
    """Margin -max_{t > t_k, j} d_j(t) between the run and each block re-integrated alone on ``data_of(label)``."""
    parts = []
    for label, J, name in blocks:
        if J.size == 0:
            continue
        traj, tol = _rerun(run, smp, k, data_of(label), J, alpha)
        d = _distances(smp.W[k + 1:][:, J], smp.a[k + 1:][:, J], traj.W, traj.v)
        m, jj = np.unravel_index(int(np.argmax(d)), d.shape)
        parts.append(Margin(-float(d[m, jj]), M.state_tolerance(run) + tol,
                            f"{what} {name} (neurons {J.tolist()}) from t = {smp.t[k]:.4g}: max "
                            f"relative distance {d[m, jj]:.3g} (neuron {int(J[jj])}, t = {smp.t[k + 1 + m]:.4g})",
                            site={"t": float(smp.t[k + 1 + m]), "j": int(J[jj])}))
    return _joined(parts, "J+ and J- both empty: nothing decouples")


@measures("-max over t >= T^, i of |f(x_i) - sum over J_{y_i}| / sum_j |a_j w_j^T x_i| (relative mismatch)")
def outputs_split(run: Any) -> Margin:
    """PL-P1, eq. (15): at every sample t >= T^, f(x_i) = sum_{j in J_{y_i}} a_j w_j^T x_i. Margin
    -|f(x_i) - sum_{J_{y_i}}| / sum_j |a_j w_j^T x_i| (both sides from the same products) at the sample and example
    most beyond its error: 4 p u of the sums, plus each product's absolute rounding |a_j| 2 (d + 2) u ||w_j|| ||x_i||
    (a neuron resting on a kink, w_j^T x_i ~ 1e-17, has a rounding sign, and alone it is the whole scale)."""
    smp, k, grp = _groups_at_entry(run)
    P = np.einsum("kjd,id->kji", smp.W[k:], run.X)  # w_j(t)^T x_i
    terms = smp.a[k:, :, None] * P
    f = np.sum(terms * (P > 0.0), axis=1)  # sum_j a_j relu(w_j^T x_i)
    own = (grp[:, None] == run.y[None, :]).astype(float)  # [j, i]: neuron j is in J_{y_i}
    split = np.sum(terms * own[None], axis=1)
    scale = np.sum(np.abs(terms), axis=1)
    d = run.X.shape[1]
    rounding = product_rounding(d) * np.einsum("kj,i->ki", np.abs(smp.a[k:]) * np.linalg.norm(smp.W[k:], axis=2),
                                                    np.linalg.norm(run.X, axis=1))
    unit = np.where(scale > 0.0, scale, 1.0)
    rel, err = np.abs(f - split) / unit, 4.0 * grp.size * U_ROUND + rounding / unit
    m, i = np.unravel_index(int(np.argmax(rel - err)), rel.shape)
    return Margin(-float(rel[m, i]), float(err[m, i]),
                  f"groups at T^ = {smp.t[k]:.4g}: {grp.tolist()}; |f - sum over J_y| / scale = {rel[m, i]:.3g} "
                  f"(error {err[m, i]:.2g}; example {int(i)}, t = {smp.t[k + m]:.4g}), the most beyond its error; "
                  f"largest {float(np.max(rel)):.3g}", site={"t": float(smp.t[k + m]), "i": int(i)})


P1 = paper_claim(
    id="PL-P1",
    node="P1", uses=("L1", "L3"),
    source="Thm 1 proof, eq. (15) (PL-P1)",
    statement="For t >= T (read at T^) f(x_i) = sum_{j in J+} a_j w_j^T x_i on positive examples and sum over J- on "
              "negative ones: the J- and dead neurons stay inactive on positives, J+ stays active on them (and vice versa)",
    check=outputs_split,
    over=SC.os_scenarios(),
    horizon=HORIZON,
    samples=SAMPLES,
    spacing="log",
    precondition=entered,
    assumptions=("H-OS (by construction)", "balanced init"),
    assumed=("Lemma 1: T^ reached (checked per run)", "Clarke solution with relu'(0) = 0"),
)

pc2_planted = partial(  # sheet 5.6 PC2 (not OS): the decoupling of eqs. (15)-(16) fails
    paper_claim,
    over=SC.fixed_data_scenarios(D.pc2, p=(2, 4), lambdas=(1e-3,)),
    horizon=100.0,
    samples=SAMPLES,
    spacing="log",
    precondition=entered,
    expected=Verdict.REFUTED,
    assumptions=("drops H-OS (cross-class acute pair)", "balanced init"),
    tags=("planted",),
)

PC2_P1 = pc2_planted(
    id="PC2-P1",
    node="P1", uses=("L1", "L3"),
    source="sheet 5.6 PC2 (cross-class acute pair, not OS; eq. (15) fails)",
    statement="PLANTED: on PC2 (+ at 0, 80 deg; - at 120, 135 deg) the groups of the sectors sign(X m+-) do not split "
              "the outputs: a negative-group neuron is active on the positive at 80 deg (or J+ on the negative at 120)",
    check=outputs_split,
)


def _by_label(run: Any) -> Callable[[int], Dataset]:
    """The examples of one label, the data each linear block trains on in eq. (16)."""
    return lambda label: Dataset(run.X[run.y == label], run.y[run.y == label], name=f"{run.dataset.name}[y={label}]")


@measures("-max over t > T^, j of ||(w_j, a_j) - linear-block rerun|| / neuron size (relative distance)")
def linear_blocks(run: Any) -> Margin:
    """PL-P2, eq. (16): from T^ the J+ neurons follow the LINEAR net (identity activation) trained on the positive
    examples alone, J- the linear net on the negatives alone, and dead neurons stay put. Margin -max_{t, j} d_j(t);
    error the ReLU run's state tolerance plus the linear re-integration's."""
    smp, k, grp = _groups_at_entry(run)
    blocks = [(1, np.flatnonzero(grp == 1), "J+"), (-1, np.flatnonzero(grp == -1), "J-")]
    parts = [_compare(run, smp, k, blocks, _by_label(run), LINEAR, "linear net vs ReLU run:")]
    dead = np.flatnonzero(grp == M.DEAD)
    if dead.size:
        d = _distances(smp.W[k:][:, dead], smp.a[k:][:, dead], smp.W[k][None, dead], smp.a[k][None, dead])
        parts.append(Margin(-float(d.max()), M.state_tolerance(run),
                            f"dead neurons {dead.tolist()} move by {d.max():.3g}"))
    return _joined(parts)


P2 = paper_claim(
    id="PL-P2",
    node="P2", uses=("P1",),
    source="Thm 1 proof, eq. (16) (PL-P2, sharp test [DER])",
    statement="From T^ on, the ReLU trajectory of the J+ neurons equals the linear two-layer net trained on the positive "
              "examples alone (J- on the negatives alone), started from the state at T^, to integrator tolerance",
    check=linear_blocks,
    over=SC.os_scenarios(),
    horizon=HORIZON,
    samples=SAMPLES,
    spacing="log",
    precondition=entered,
    assumptions=("H-OS (by construction)", "balanced init"),
    assumed=("Lemma 1: T^ reached (checked per run)", "Clarke solution with relu'(0) = 0"),
)


@measures("-max over t > 0, j of ||(w_j, a_j) - linear-block rerun from t = 0|| / neuron size (relative distance)")
def linear_from_start(run: Any) -> Margin:
    """Eq. (16) read from t = 0 with the groups fixed by sign alone (J+- = {j : sign a_j(0) = +-1}): compared as in
    PL-P2. Fails where a neuron starts outside its extremal sector (it is not yet a linear unit)."""
    smp = M.samples(run)
    blocks = [(1, np.flatnonzero(smp.s > 0), "a > 0"), (-1, np.flatnonzero(smp.s < 0), "a < 0")]
    return _compare(run, smp, 0, blocks, _by_label(run), LINEAR, "linear net (from t = 0) vs ReLU run:")


P2_FROM_ZERO = paper_claim(
    id="PL-P2-from-0",
    node="P2", uses=("P1",),
    source="Thm 1 proof, eq. (16) (PL-P2) read before Lemma 1's time T",
    statement="PLANTED: the decoupling of eq. (16) from t = 0 instead of T: every neuron with a_j(0) > 0 follows the "
              "linear net on the positives (a_j(0) < 0: on the negatives) from the initialisation on",
    check=linear_from_start,
    over=SC.os_scenarios(p=(2, 5)),
    horizon=HORIZON,
    samples=SAMPLES,
    spacing="log",
    expected=Verdict.REFUTED,
    assumptions=("H-OS (by construction)", "balanced init"),
    tags=("planted",),
)

PC2_P2 = pc2_planted(
    id="PC2-P2",
    node="P2", uses=("P1",),
    source="sheet 5.6 PC2 (not OS; sigma+ is not absorbing, so eq. (16) fails)",
    statement="PLANTED: on PC2, from T^ (groups by the sectors sign(X m+-)) the blocks follow the linear nets on their "
              "own class: fails, the neurons slide along the boundary of the acute cross-class pair",
    check=linear_blocks,
)


def mix_other_class(own: np.ndarray, other: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """x'_k = sum_l M_kl x_l over the other class, M_kl uniform in [0.2, 1.5]: the products with the own class stay
    <= 0, those within the other class > 0 (OS kept), and w^T x'_k < 0 wherever w^T x_l < 0 for every l."""
    return rng.uniform(0.2, 1.5, size=(other.shape[0], other.shape[0])) @ other


def moved_other_class(mix: Callable[[np.ndarray, np.ndarray, np.random.Generator], np.ndarray] = mix_other_class
                      ) -> Callable[[Any], Margin]:
    """PL-P2 (perturbation form): from T^, re-integrate the ReLU net on data whose other class is replaced by
    ``mix(own, other, rng)``; the neurons of sign s (J_s and the dead ones with sign s) must follow the run unchanged.
    Exact under OS: they never activate on the other class (PL-X1), whose examples then never enter their flow."""

    @measures("-max over t > T^, j of ||(w_j, a_j) - rerun with the other class moved|| / neuron size (relative)")
    def check(run: Any) -> Margin:
        smp, k, _ = _groups_at_entry(run)
        rng = np.random.default_rng(int(run.scenario.params.get("init_seed", 0)))

        def data_of(label: int) -> Dataset:
            own, other = run.X[run.y == label], run.X[run.y != label]
            X = np.vstack([own, mix(own, other, rng)])
            return Dataset(X, np.r_[np.full(len(own), label), np.full(len(other), -label)], name="moved")

        blocks = [(1, np.flatnonzero(smp.s > 0), "a > 0"), (-1, np.flatnonzero(smp.s < 0), "a < 0")]
        return _compare(run, smp, k, blocks, data_of, 0.0, "ReLU net with the other class moved vs run:")

    return check


P2_MOVED = paper_claim(
    id="PL-P2-moved",
    node="P2", uses=("P1", "X1"),
    source="Thm 1 proof, eq. (16) (PL-P2 sharp test, perturbation form [DER])",
    statement="From T^, replacing the negative examples by positive combinations of them (OS kept, still inactive for "
              "every a > 0 neuron) leaves the trajectory of every a > 0 neuron unchanged; likewise with the classes "
              "swapped",
    check=moved_other_class(),
    over=SC.os_scenarios(),
    horizon=HORIZON,
    samples=SAMPLES,
    spacing="log",
    precondition=entered,
    assumptions=("H-OS (by construction)", "balanced init"),
    assumed=("Lemma 1: T^ reached (checked per run)", "Clarke solution with relu'(0) = 0"),
)
