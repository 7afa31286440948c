"""Claim sheet 000, PL-P6 (Theorem 1's probability: P(J+ u J- != {}) >= 1 - 2^-p over the Gaussian init) and its
deterministic part (a neuron with a_j(0) > 0 active at t = 0 on some positive example ends in J+, by Lemma B.1;
likewise for negatives), with the planted PC6 (x+ = e1, x- = -e2: death has probability exactly 1/2 at p = 1, so
"some neuron survives" is refuted while the frequency bound holds, tightly) and PC4 (unbalanced: the sign flips).

Deciding death (sheet 1.8, PL-X1/X2): a neuron is *alive* once it is active on an example of its own class
(s_j y_k w_j^T x_k > 0 with y_k = s_j = sign a_j(0)); by PL-X1 that activation never ends, so by Lemma 1 the neuron is
in J_{s_j} at T. It is *dead* once inactive on every example; it is then constant. Both are absorbing, so the final
state of a run decides every neuron that is not still active on the other class only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np
from hypothesis import strategies as st

from verify.claims.direct import DirectOutcome
from verify.claims.model import Claim, Margin, measures
from verify.data.dataset import Dataset
from verify.model.init import Initialization
from verify.scenarios import Scenario
from verify.simulate import simulate
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import measures as M
from properties.phuong_lampert2021 import scenarios as SC
from properties.phuong_lampert2021._shared import paper_claim, worst
from properties.phuong_lampert2021.decoupling import entered

N_INITS = 200
Z = 3.0  # one-sided normal quantile: a false alarm has probability 1 - Phi(3) = 0.135% per case
LAMBDA = 1e-3
DECIDE_HORIZONS = (20.0, 200.0, 2000.0)  # each undecided run is continued to the next horizon
DECIDE_RTOL = 1e-10
SURVIVAL_DRAWS = 20000

Draw = Callable[[np.random.Generator, int, int], tuple[np.ndarray, np.ndarray]]


def pc6() -> Dataset:
    """Sheet 5.6 PC6 / PL-P6: x+ = e1, x- = -e2 in R^2 (OS, violates H-SPAN; the classes are orthogonal, no rescue)."""
    return Dataset([[1.0, 0.0], [0.0, -1.0]], [1, -1], name="pl_pc6")


def gaussian_draw(rng: np.random.Generator, p: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    """The paper's init (H-RAND): v_j ~ N(0, I_d) i.i.d. and fair random signs s_j, independent of v."""
    return rng.standard_normal((p, d)), np.where(rng.random(p) < 0.5, -1.0, 1.0)


def own_class_cosines(X: np.ndarray, y: np.ndarray, W: np.ndarray, s: np.ndarray) -> np.ndarray:
    """c[j, k] = s_j y_k cos(w_j, x_k) for y_k = s_j, -inf for the other class."""
    cos = (W @ X.T) / (np.linalg.norm(W, axis=1)[:, None] * np.linalg.norm(X, axis=1)[None, :])
    return np.where(y[None, :] == s[:, None], s[:, None] * y[None, :] * cos, -np.inf)


def sufficient(X: np.ndarray, y: np.ndarray, W: np.ndarray, s: np.ndarray) -> np.ndarray:
    """PL-P6's sufficient condition per neuron: s_j w_j^T x_k > 0 for some example k with y_k = s_j."""
    return np.max(own_class_cosines(X, y, W, s), axis=1) > 0.0


def survival_probability(ds: Dataset, rng: np.random.Generator, draws: int = SURVIVAL_DRAWS) -> tuple[float, float]:
    """Sheet 4 item 8: q_+- = P_v[v^T x > 0 for some x of class +-] (Monte Carlo over Gaussian v); a neuron of random
    sign meets the sufficient condition with probability (q_+ + q_-)/2 >= 1/2."""
    V = rng.standard_normal((draws, ds.d))
    act = V @ ds.X.T > 0.0
    return float(np.mean(np.any(act[:, ds.y > 0], axis=1))), float(np.mean(np.any(act[:, ds.y < 0], axis=1)))


@dataclass
class DeathCount:
    """Outcome of N seeded inits: runs decided without simulation (a neuron meets the sufficient condition),
    simulated runs, and among those the dead, alive and undecided ones; neuron counts for the survival estimate."""

    runs: int = 0
    by_condition: int = 0
    simulated: int = 0
    dead: int = 0
    undecided: int = 0
    neurons: int = 0
    neurons_sufficient: int = 0
    rescued: int = 0  # neurons of simulated runs that end alive without meeting the condition
    dead_seeds: list[int] = field(default_factory=list)


def decide(ds: Dataset, V: np.ndarray, s: np.ndarray, lam: float, horizons: Sequence[float] = DECIDE_HORIZONS
           ) -> tuple[np.ndarray, np.ndarray]:
    """Per neuron (alive, dead) at the end of the first horizon deciding every neuron (both False: undecided at the
    last horizon). Alive: own-class cosine > tol; dead: every cosine <= tol; tol = 10 (rtol + error estimate)."""
    U = V / np.linalg.norm(V, axis=1, keepdims=True)
    alive = dead = np.zeros(len(s), bool)
    for t_end in horizons:
        traj = simulate(ds, U, s, t_end, loss=SC.CE, log_eps=math.log(lam), times=[t_end], rtol=DECIDE_RTOL)
        est = float(traj.error_estimate) if math.isfinite(traj.error_estimate) else 0.0
        tol = 10.0 * (DECIDE_RTOL + est)
        W = np.asarray(traj.W[-1], float)
        alive = np.max(own_class_cosines(ds.X, ds.y, W, s), axis=1) > tol
        cos = (W @ ds.X.T) / (np.linalg.norm(W, axis=1)[:, None] * np.linalg.norm(ds.X, axis=1)[None, :])
        dead = ~alive & (np.max(cos, axis=1) <= tol)
        if np.all(alive | dead):
            break
    return alive, dead


def count_deaths(ds: Dataset, p: int, n: int = N_INITS, seed: int = 0, lam: float = LAMBDA,
                 draw: Draw = gaussian_draw) -> DeathCount:
    """N seeded inits (numpy streams (seed, i)). What is simulated: a run with a neuron meeting the sufficient
    condition is alive by Lemma B.1 (its activation on that example never ends), so it needs no simulation; every
    other run is simulated whole (its neurons interact through f, i.e. through c_i(t)) until each neuron is alive or
    dead (:func:`decide`). Such a neuron is active on the other class only; that activation falls at a rate ~ |a|
    c_i ||x||^2 while |a| shrinks no faster, so it is decided within O(1) time (20 units; continued to 200, 2000)."""
    out = DeathCount()
    for i in range(n):
        V, s = draw(np.random.default_rng([seed, i]), p, ds.d)
        suff = sufficient(ds.X, ds.y, V, s)
        out.runs += 1
        out.neurons += p
        out.neurons_sufficient += int(suff.sum())
        if suff.any():
            out.by_condition += 1
            continue
        out.simulated += 1
        alive, dead = decide(ds, V, s, lam)
        out.rescued += int(alive.sum())
        if np.all(dead):
            out.dead += 1
            out.dead_seeds.append(i)
        elif not alive.any():
            out.undecided += 1
    return out


def frequency_bound(p: int, n: int, z: float = Z) -> float:
    """2^-p + z sqrt(2^-p (1 - 2^-p) / N): the largest all-dead frequency consistent with P <= 2^-p at level z."""
    q = 2.0**-p
    return q + z * math.sqrt(q * (1.0 - q) / n)


def binomial_tail(k: int, n: int, q: float) -> float:
    """P(Bin(n, q) >= k), exact: the p-value of observing k or more deaths if P(all dead) were exactly q."""
    return float(sum(math.comb(n, i) * q**i * (1.0 - q) ** (n - i) for i in range(k, n + 1)))


def frequency_runner(cases: Sequence[tuple[Callable[[], Dataset], int]], n: int = N_INITS, seed: int = 0,
                     draw: Draw = gaussian_draw) -> Callable[[Claim], DirectOutcome]:
    """PL-P6 as a direct decision per (dataset, p): REFUTED if even counting undecided runs alive the all-dead frequency
    exceeds :func:`frequency_bound`; HOLDS if it stays below counting them dead; UNKNOWN otherwise."""

    @measures("min over cases of (2^-p + 3 sd) - all-dead frequency, undecided runs counted dead (probability units)")
    def runner(_: Claim) -> DirectOutcome:
        verdicts, notes, margins, dead_cases = [], [], [], []
        for build, p in cases:
            ds = build()
            c = count_deaths(ds, p, n, seed, draw=draw)
            q_plus, q_minus = survival_probability(ds, np.random.default_rng(seed))
            bound = frequency_bound(p, n)
            lo, hi = c.dead / n, (c.dead + c.undecided) / n
            verdicts.append(Verdict.REFUTED if lo > bound else Verdict.HOLDS if hi <= bound else Verdict.UNKNOWN)
            margins.append(bound - hi)
            notes.append(f"{ds.name}, p = {p}: {c.dead} dead + {c.undecided} undecided of {n} (frequency {lo:.3f}) vs "
                         f"bound 2^-p + {Z:g} sd = {bound:.3f}: {verdicts[-1]}; P(Bin >= {c.dead}) at 2^-p = "
                         f"{binomial_tail(c.dead, n, 2.0**-p):.3g}; {c.by_condition} runs alive by the sufficient "
                         f"condition, {c.simulated} simulated, {c.rescued} neurons rescued; neurons meeting the condition "
                         f"{c.neurons_sufficient}/{c.neurons}; survival estimate (q+ + q-)/2 = {(q_plus + q_minus) / 2:.3f} "
                         f"(q+ = {q_plus:.3f}, q- = {q_minus:.3f})")
            if verdicts[-1] == Verdict.REFUTED:
                dead_cases.append({"X": ds.X.tolist(), "y": ds.y.tolist(), "p": p, "dead_inits": c.dead_seeds[:10]})
        verdict = (Verdict.REFUTED if Verdict.REFUTED in verdicts else
                   Verdict.UNKNOWN if Verdict.UNKNOWN in verdicts else Verdict.HOLDS)
        reason = (f"confidence per case 1 - Phi({Z:g}) = {0.5 * math.erfc(Z / math.sqrt(2.0)):.2%} false alarm "
                  f"(one-sided normal approximation); " + "; ".join(notes))
        cx = None
        if dead_cases:
            cx = {"X": [], "y": [], "W0": [], "v0": [], "cases": dead_cases, "margin": min(margins),
                  "params": {"t_end": DECIDE_HORIZONS[-1], "horizon": None, "lambda": LAMBDA, "N": n, "seed": seed},
                  "note": "all-dead frequency above 2^-p + z sd (init streams numpy default_rng([seed, i]))"}
        return DirectOutcome(verdict, reason, examples=len(cases) * n, min_margin=min(margins), counterexample=cx)

    return runner


P6 = paper_claim(
    id="PL-P6",
    node="P6", uses=("LB1", "X8"),
    source="Thm 1 and its proof, probability 1 - 2^-p (PL-P6)",
    statement=f"P(J+ u J- != {{}}) >= 1 - 2^-p: over N = {N_INITS} seeded Gaussian inits (lambda = {LAMBDA:g}) the all-dead "
              f"frequency is <= 2^-p + {Z:g} sqrt(2^-p (1 - 2^-p) / N), on the fixture (p = 1, 2) and 3-d orthant data (p = 1)",
    check=lambda _: 0.0,
    runner=frequency_runner(((D.fixture, 1), (D.fixture, 2), (lambda: D.orthant(3, 3, 3, seed=0), 1))),
    assumptions=("H-OS", "H-RAND", "balanced init"),
    assumed=("Lemma 1 (an alive neuron is in its group at T)",),
    tags=("statistical",),
)

PC6_P6 = paper_claim(
    id="PC6-P6",
    node="P6", uses=("LB1", "X8"),
    source="sheet 5.6 PC6 (control: the bound of PL-P6 is attained, P(all dead) = 2^-p exactly)",
    statement=f"On x+ = e1, x- = -e2 (no rescue possible) the all-dead frequency over N = {N_INITS} inits is still <= "
              f"2^-p + {Z:g} sd for p = 1, 2 (observed near 1/2 and 1/4: the bound is tight)",
    check=lambda _: 0.0,
    runner=frequency_runner(((pc6, 1), (pc6, 2))),
    assumptions=("H-OS", "H-RAND", "balanced init", "drops H-SPAN"),
    tags=("statistical", "control"),
)


@measures("max over j, own-class k of s_j y_k cos(w_j, x_k) at the end of the run (cosine; > 0 holds)")
def some_neuron_alive(run: Any) -> Margin:
    """J+ u J- != {} at the end: margin max_j max_{y_k = s_j} s_j y_k cos(w_j(T_end), x_k) (> 0: an own-class
    activation, never lost by PL-X1); error twice the state tolerance."""
    smp = M.samples(run)
    c = np.max(own_class_cosines(run.X, run.y, smp.W[-1], smp.s), axis=1)
    return Margin(float(np.max(c)), 2.0 * M.state_tolerance(run), f"best own-class cosine per neuron at t = "
                                                                   f"{smp.t[-1]:.4g}: {np.round(c, 6).tolist()}",
                  site={"t": float(smp.t[-1]), "j": int(np.argmax(c))})


PC6_ALIVE = paper_claim(
    id="PC6-alive",
    node="P6", uses=("LB1", "X8"),
    source="sheet 5.6 PC6 (p = 1: Theorem 1's conclusion fails exactly on the all-dead event)",
    statement="PLANTED: with p = 1 on x+ = e1, x- = -e2 some neuron is alive at the end (J+ u J- != {}) for EVERY init; "
              "refuted by an init whose single neuron dies (probability 1/2)",
    check=some_neuron_alive,
    over=SC.fixed_data_scenarios(pc6, p=(1, 1), lambdas=(LAMBDA,)),
    horizon=20.0,
    samples=16,
    spacing="log",
    expected=Verdict.REFUTED,
    assumptions=("H-OS", "drops H-SPAN", "balanced init"),
    tags=("planted",),
)


@measures("worst of min_t s_j y_k cos(w_j, x_k) on sufficient pairs and their final sector/sign margin (cosine)")
def sufficient_ends_in_group(run: Any) -> Margin:
    """PL-P6, deterministic part: for every (j, k) with y_k = s_j and s_j w_j(0)^T x_k > 0, the activation persists
    (min_t s_j y_k cos(w_j(t), x_k) > 0, Lemma B.1) and neuron j ends in J_{s_j}: at the last sample
    s_j a_j > 0 and sigma_i cos(w_j, x_i) > 0 on every nonzero entry of sigma_{s_j}. Error 2x the state tolerance."""
    smp = M.samples(run)
    c0 = own_class_cosines(run.X, run.y, smp.W[0], smp.s)
    pairs = np.argwhere(c0 > 0.0)
    if pairs.size == 0:
        return Margin(0.0, 0.0, "no neuron meets the sufficient condition", vacuous=True)
    err = 2.0 * M.state_tolerance(run)
    cos = np.einsum("kjd,id->kji", smp.W, run.X) / (np.linalg.norm(smp.W, axis=2)[:, :, None]
                                                     * np.linalg.norm(run.X, axis=1)[None, None, :])
    parts = []
    for j, i in pairs:
        r = smp.s[j] * run.y[i] * cos[:, j, i]
        m = int(np.argmin(r))
        parts.append(Margin(float(r[m]), err, f"B.1: s y cos(w_{j}, x_{i}) = {r[m]:.3g} at t = {smp.t[m]:.4g}",
                            site={"t": float(smp.t[m]), "j": int(j), "i": int(i)}))
    sp, sm = M.extremal_sectors(run.X, run.y)
    for j in np.unique(pairs[:, 0]):
        sigma = sp if smp.s[j] > 0 else sm
        nz = sigma != 0
        sector = sigma[nz] * cos[-1, j, nz]
        sign = smp.s[j] * smp.a[-1, j] / np.linalg.norm(smp.W[-1, j])
        parts.append(Margin(float(min(sector.min(), sign)), err,
                            f"neuron {j} at t = {smp.t[-1]:.4g}: s a/||w|| = {sign:.3g}, min sigma_i cos(w, x_i) over "
                            f"sigma_{'+' if smp.s[j] > 0 else '-'} = {sector.min():.3g}", site={"t": float(smp.t[-1]), "j": int(j)}))
    return worst(parts)


P6_SUFFICIENT = paper_claim(
    id="PL-P6-sufficient",
    node="P6", uses=("LB1", "X8", "L3"),
    source="Thm 1 proof, probability argument (PL-P6 deterministic part, by Lemma B.1)",
    statement="A neuron with a_j(0) > 0 active at t = 0 on some positive example keeps that activation and ends in J+ "
              "(a_j(0) < 0 with a negative example: J-)",
    check=sufficient_ends_in_group,
    over=SC.os_scenarios(),
    horizon=1e3,
    samples=40,
    spacing="log",
    precondition=entered,
    assumptions=("H-OS (by construction)", "balanced init"),
    assumed=("Lemma 1: T^ reached (checked per run)",),
)


@st.composite
def pc4_sufficient_scenarios(draw: st.DrawFn) -> Scenario:
    """Unbalanced (PC4): on the fixture one neuron with a(0) = a0 in {1e-4, 2e-4} and w(0) = 1e-2 u, u a unit vector
    active on the positives x1, x4 but mostly on negatives (da/dt < 0: a flips before the activation can help)."""
    ds = D.fixture()
    direction = np.array(draw(st.sampled_from(((0.3, -1.0, 0.0), (0.35, -1.0, -0.1), (0.4, -1.0, 0.1)))))
    a0 = draw(st.sampled_from((1e-4, 2e-4)))
    u = direction / np.linalg.norm(direction)
    init = Initialization((1e-2 / a0) * u[None], np.array([1.0]), math.log(a0), "unbalanced")
    return Scenario(ds, init, SC.CE, 0.0, {"data": ds.name, "direction": direction.tolist(), "a0": a0,
                                           "w0_norm": 1e-2, "construction": "PC4 with a sufficient neuron"})


PC4_P6 = paper_claim(
    id="PC4-P6-sufficient",
    node="P6", uses=("LB1", "X8", "L3"),
    source="sheet 5.6 PC4 (unbalanced init; the sufficient condition of PL-P6 needs sign preservation)",
    statement="PLANTED: without balance (|a(0)| = 1e-4 < ||w(0)|| = 1e-2) a neuron with a(0) > 0 active on a positive "
              "example ends in J+: fails, a flips sign and the neuron ends in J-",
    check=sufficient_ends_in_group,
    over=pc4_sufficient_scenarios(),
    horizon=100.0,
    samples=40,
    spacing="log",
    precondition=entered,
    expected=Verdict.REFUTED,
    assumptions=("H-OS (by construction)", "drops balanced init"),
    tags=("planted",),
)
