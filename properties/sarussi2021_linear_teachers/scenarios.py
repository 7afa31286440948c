"""Seed 002's trajectory scenarios: the fixed-second-layer model (sheet 1.2: v = (1_k, -1_k), only W trained) on its
datasets, trained by the paper's SGD (batch 1, without replacement in epochs, sheet 1.4), full-batch GD or GF.

Every scenario has ``train_v`` False, ``init.v0`` = v and ``log_eps`` 0 (the initial W is given at its own scale).
Steps are the paper's mean-loss steps eta, converted once (``_shared.engine_lr``); ``params`` records the draw
(k, R or scale, eta, seeds, algorithm) so a check can rebuild anything it needs.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np
from hypothesis import strategies as st

from verify.data.dataset import Dataset
from verify.model.init import Initialization
from verify.scenarios import SEEDS, Scenario

from properties.sarussi2021_linear_teachers import datasets as D
from properties.sarussi2021_linear_teachers._shared import ALPHA, LOSS, engine_lr
from properties.sarussi2021_linear_teachers.network import second_layer

ALGORITHMS = ("sgd", "gd", "gf")


def ball_init(k: int, d: int, R: float, seed: int) -> np.ndarray:
    """W0 (2k, d): Gaussian rows scaled so the largest row norm is exactly R (LT-A-INIT: every row <= R)."""
    W = np.random.default_rng(seed).standard_normal((2 * k, d))
    return R * W / float(np.max(np.linalg.norm(W, axis=1)))


def gaussian_init(k: int, d: int, scale: float, seed: int) -> np.ndarray:
    """W0 = scale * G, G (2k, d) standard Gaussian (LT-A-INIT with R ~ scale sqrt(d))."""
    return scale * np.random.default_rng(seed).standard_normal((2 * k, d))


def model_scenario(ds: Dataset, W0: np.ndarray, algorithm: str, *, eta: float | None = None, alpha: float = ALPHA,
                   order_seed: int = 0, **params: Any) -> Scenario:
    """The fixed-layer model from W0 on ``ds``: "sgd" (batch 1, epochs without replacement, mean-loss step ``eta``),
    "gd" (full batch, step ``eta``) or "gf" (gradient flow, the events engine)."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
    W0 = np.asarray(W0, float)
    k = W0.shape[0] // 2
    lr = None if algorithm == "gf" else engine_lr(float(eta), ds.n)
    return Scenario(ds, Initialization(W0, second_layer(k), 0.0, "given"), LOSS, alpha,
                    {"data": ds.name, "k": k, "algorithm": algorithm, "eta": eta, **params},
                    train_v=False, lr=lr, batch_size=1 if algorithm == "sgd" else None, order_seed=order_seed)


def epochs_horizon(epochs: int) -> Callable[[Scenario, Any], float]:
    """A horizon of ``epochs`` passes over the data (n steps of the scenario's lr each), in engine time."""
    return lambda scenario, _audit: epochs * scenario.dataset.n * scenario.lr


@st.composite
def teacher_sets(draw: st.DrawFn, n: tuple[int, int] = (2, 12), d: tuple[int, int] = (1, 4),
                 margins: Sequence[float] = (0.05, 0.1, 0.2, 0.4)) -> Dataset:
    """LT-D1 data (sheet 6's strategy: n in [2, 12], d in [1, 4], data in the unit ball, margin >= 0.05)."""
    return D.teacher(draw(st.integers(*n)), draw(st.integers(*d)), draw(st.sampled_from(tuple(margins))), draw(SEEDS))


@st.composite
def sgd_scenarios(draw: st.DrawFn, data: st.SearchStrategy[Dataset] | None = None, k: tuple[int, int] = (1, 5),
                  alphas: Sequence[float] = (0.01, 0.1, 0.2, 0.5, 0.99), etas: Sequence[float] = (1e-3, 0.1, 1.0, 10.0),
                  radii: Sequence[float] = (1e-3, 0.1, 1.0, 5.0)) -> Scenario:
    """Theorem 4.1's SGD on LT-D1 data (sheet 6: k in [1, 5], alpha in [0.01, 0.99], eta in [1e-3, 10], R in (0, 5])."""
    ds = draw(data if data is not None else teacher_sets())
    width, R, seed = draw(st.integers(*k)), draw(st.sampled_from(tuple(radii))), draw(SEEDS)
    return model_scenario(ds, ball_init(width, ds.d, R, seed), "sgd", eta=draw(st.sampled_from(tuple(etas))),
                          alpha=draw(st.sampled_from(tuple(alphas))), order_seed=draw(SEEDS), R=R, init_seed=seed)
