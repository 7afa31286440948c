"""False claims over the generic scenario strategies: the honest half of the search-power benchmark.

The catalogue's planted claims search strategies built to hit their counterexample; these claims search
:func:`verify.scenarios.scenario` as a user would write it (random data of a family, random init), so the
search has to find the structure that breaks them. Each is false -- ``WITNESSES`` builds a scenario that
violates it, checked in ``tests/test_generic_false_claims.py`` -- and how often a ci-budget search with a
fresh seed refutes it is what ``benchmarks/bench_search_power.py --generic`` measures. Some are false on
most draws, some only on a thin set (dead neurons, cross-class acute pairs, sliding): the benchmark's
score is a measurement, not a target met by construction.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

import verify
from verify.data.dataset import Dataset
from verify.model.init import Initialization, balanced_init
from verify.scenarios import Scenario, scenario

SOURCE = "search-power suite (false on purpose)"
GENERIC = scenario(n=(2, 8), d=(2, 4), h=(2, 6), eps=(1e-6, 1e-2))
NON_OS = scenario(data="linearly_separable", n=(2, 8), d=(2, 4), h=(2, 6), eps=(1e-6, 1e-2))
UNBALANCED = scenario(init="unbalanced", n=(2, 8), d=(2, 4), h=(2, 6), eps=(1e-3, 1e-1))


def _cos(run, k: int) -> np.ndarray:
    """(n, h) cosines <x_i, w_j(t_k)> / (||x_i|| ||w_j(t_k)||) (0 for a zero row)."""
    W = np.asarray(run.W[k], dtype=float)
    norms = np.linalg.norm(W, axis=1)
    X = run.X / np.linalg.norm(run.X, axis=1)[:, None]
    return np.divide(X @ W.T, norms[None, :], out=np.zeros((run.X.shape[0], W.shape[0])), where=norms[None, :] > 0)


@verify.claim(id="generic-no-dead-neuron", over=GENERIC, horizon=20.0, source=SOURCE, expected="REFUTED",
              statement="FALSE: at t = 20 every neuron is active on some point (max_i cos(x_i, w_j) > 0)")
def no_dead_neuron(run) -> verify.Margin:
    """min_j max_i cos(x_i, w_j(T)): a neuron that starts in S_dead (every <x_i, w_j> < 0) stays there (ReLU)."""
    return verify.Margin(float(_cos(run, -1).max(axis=0).min()), 1e-9)


@verify.claim(id="generic-norms-never-shrink", over=GENERIC, horizon=10.0, source=SOURCE, expected="REFUTED",
              statement="FALSE: ||w_j(t)|| >= ||w_j(0)|| at every sample")
def norms_never_shrink(run) -> verify.Margin:
    """min_{k,j} ln(||w_j(t_k)|| / ||w_j(0)||): a V- neuron active only on +1 points shrinks (r' = s <u, x_a> < 0)."""
    norms = np.linalg.norm(np.asarray(run.W, dtype=float), axis=2)
    return verify.Margin(float(np.min(np.log(norms / norms[0][None, :]))), 1e-9)


@verify.claim(id="generic-lemma1-half", over=GENERIC, horizon=5.0, source=SOURCE, expected="REFUTED",
              statement="FALSE: ||grad L(theta)|| <= (1/2) X_max L(theta) ||theta|| at every sample (seed 004 Lemma 1 "
                        "with half its constant)")
def lemma1_half(run) -> verify.Margin:
    """min_k ln((1/2) X_max L ||theta|| / ||grad L||); one point and one neuron aligned with it give ratio 1."""
    x_max = float(np.max(np.linalg.norm(run.X, axis=1)))
    worst = math.inf
    for W, v in zip(np.asarray(run.W, dtype=float), np.asarray(run.v, dtype=float)):
        S = run.field.mode(run.X @ W.T)
        dW, dv = run.field.cartesian(W, v, S)
        grad = math.sqrt(float(np.sum(dW**2) + np.sum(dv**2)))
        if grad == 0.0:
            continue
        theta = math.sqrt(float(np.sum(W**2) + np.sum(v**2)))
        log_bound = math.log(0.5 * x_max * theta) + run.field.loss.log_total(run.y, run.field.outputs(W, v))
        worst = min(worst, log_bound - math.log(grad))
    return verify.Margin(worst if math.isfinite(worst) else 0.0, 1e-9, vacuous=not math.isfinite(worst))


@verify.claim(id="generic-stable-rank-1.5", over=GENERIC, horizon=200.0, source=SOURCE, expected="REFUTED",
              statement="FALSE: at t = 200 the stable rank ||W||_F^2 / ||W||_2^2 is <= 1.5")
def stable_rank_below(run) -> verify.Margin:
    """1.5 - ||W(T)||_F^2 / ||W(T)||_2^2: one neuron per class on orthogonal points grows symmetrically (rank 2)."""
    W = np.asarray(run.W[-1], dtype=float)
    sv = np.linalg.svd(W / np.max(np.abs(W)), compute_uv=False)
    return verify.Margin(1.5 - float(np.sum(sv**2) / sv[0] ** 2), 1e-9)


@verify.claim(id="generic-v-keeps-sign", over=UNBALANCED, horizon=20.0, source=SOURCE, expected="REFUTED",
              statement="FALSE (unbalanced init): every v_j keeps the sign of v_j(0)")
def v_keeps_sign(run) -> verify.Margin:
    """min_{k,j} sign(v_j(0)) v_j(t_k) / |v_j(0)|: with |v_j(0)| < ||w_j(0)|| the data can drive v_j through 0."""
    v = np.asarray(run.v, dtype=float)
    v0 = v[0]
    keep = v0 != 0.0
    if not keep.any():
        return verify.Margin(0.0, 0.0, vacuous=True)
    return verify.Margin(float(np.min(np.sign(v0[keep]) * v[:, keep] / np.abs(v0[keep]))), 1e-9)


@verify.claim(id="generic-crossings-monotone", over=NON_OS, horizon=5.0, source=SOURCE, expected="REFUTED",
              statement="FALSE without Assumption 1: every crossing of <x_i, w_j> = 0 goes in direction y_i s_j "
                        "(seed 004 Lemma 11 / EA-A4 on merely separable data; t <= 5)")
def crossings_monotone(run) -> verify.Margin:
    """-(number of crossings against y_i s_j, and of sliding records): a V+ neuron can deactivate a +1 point."""
    s = np.sign(np.asarray(run.v, dtype=float)[0])
    wrong = sum(1 for e in run.events
                if (e.kind in ("activate", "deactivate") and e.direction != run.y[e.i] * s[e.j]) or e.kind == "sliding")
    return verify.Margin(-float(wrong), 0.0)


@verify.claim(id="generic-no-sliding", over=NON_OS, horizon=5.0, source=SOURCE, expected="REFUTED",
              statement="FALSE without Assumption 1: the flow never slides on a surface <x_i, w_j> = 0 (t <= 5)")
def no_sliding(run) -> verify.Margin:
    """-(number of sliding records): a cross-class acute pair makes a V+ neuron slide on the -1 point's surface."""
    return verify.Margin(-float(sum(1 for e in run.events if e.kind == "sliding")), 0.0)


def _planar(X: list[list[float]], y: list[float], angles: list[float], signs: list[float], log_eps: float) -> Scenario:
    W0 = np.array([[math.cos(a), math.sin(a)] for a in angles])
    init = balanced_init(len(angles), 2, log_eps=log_eps, W0=W0, signs=np.array(signs))
    return Scenario(Dataset(X, y), init)


WITNESSES: dict[str, Callable[[], Scenario]] = {
    "generic-no-dead-neuron": lambda: _planar([[1.0, 0.5], [-1.0, 0.5]], [1.0, -1.0], [-math.pi / 2], [1.0], math.log(1e-3)),
    "generic-norms-never-shrink": lambda: _planar([[1.0, 0.0], [-1.0, 0.0]], [1.0, -1.0], [0.1], [-1.0], math.log(1e-3)),
    "generic-lemma1-half": lambda: _planar([[1.0, 0.0]], [1.0], [0.0], [1.0], math.log(0.1)),
    "generic-stable-rank-1.5": lambda: _planar([[1.0, 0.0], [0.0, 1.0]], [1.0, -1.0], [0.0, math.pi / 2], [1.0, -1.0],
                                               math.log(1e-3)),
    "generic-v-keeps-sign": lambda: Scenario(Dataset([[1.0, 0.0]], [1.0]),
                                             Initialization(np.array([[1.0, 0.0]]), np.array([-0.01]), math.log(0.1), "unbalanced")),
    "generic-crossings-monotone": lambda: _planar([[1.0, 0.0], [-1.5, 3.0]], [1.0, 1.0], [math.atan2(1.0, 0.05)], [1.0],
                                                  math.log(1e-3)),
    "generic-no-sliding": lambda: _planar([[1.0, 0.0], [1.0, 1.0]], [1.0, -1.0], [-math.pi / 4 + 0.01], [1.0], math.log(1e-3)),
}

CLAIMS = [no_dead_neuron, norms_never_shrink, lemma1_half, stable_rank_below, v_keeps_sign, crossings_monotone, no_sliding]
