"""Seed 000's trajectory scenarios: the paper's initialisation (sheet 1.5) on its datasets, as Hypothesis strategies.

Init (PL-A-INIT): w_j(0) = lambda v_j / ||v_j|| with v_j ~ N(0, I_d) and a_j(0) = s_j lambda, so
|a_j(0)| = ||w_j(0)|| = lambda. In the engine's terms: W0 = unit rows, v0 = s, ln eps = ln lambda (the
paper's a_j is the engine's v_j). The loss is the paper's summed logistic loss (H-CE) unless a planted case
changes it.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
from hypothesis import strategies as st

from verify.data.dataset import Dataset
from verify.model.init import Initialization
from verify.scenarios import SEEDS, Scenario

from properties.phuong_lampert2021 import datasets as d000

CE = "logistic"  # l_i(u) = log(1 + exp(-y_i u)), summed over examples (sheet 1.3)
LAMBDAS = (1e-2, 1e-3, 1e-4)  # sheet PL-T1 numeric check 2 (1e-6 reachable too; 1e-4 keeps runs short)

FIXTURE_DIRECTIONS = ((1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (-1.0, -1.0, -1.0), (1.0, -1.0, 0.0))
FIXTURE_SIGNS = (1.0, 1.0, -1.0, -1.0)


def pl_scenario(ds: Dataset, directions: Any, signs: Sequence[float], lam: float, /, *, loss: str = CE, alpha: float = 0.0,
                **params: Any) -> Scenario:
    """The paper's balanced init: rows ``directions`` normalised, a_j(0) = signs_j * lam."""
    V = np.asarray(directions, dtype=float)
    U = V / np.linalg.norm(V, axis=1, keepdims=True)
    s = np.asarray(signs, dtype=float)
    init = Initialization(U, s, math.log(lam), "balanced")
    return Scenario(ds, init, loss, alpha, {"data": ds.name, "lambda": lam, "p": int(U.shape[0]), "loss": loss,
                                            "alpha": alpha, **params})


def fixture_scenario(lam: float = 1e-3, loss: str = CE) -> Scenario:
    """Sheet section 7: the fixture data, p = 4, v = [e1, -e2, -(1,1,1), (1,-1,0)], a(0) = lam (+1, +1, -1, -1)."""
    return pl_scenario(d000.fixture(), FIXTURE_DIRECTIONS, FIXTURE_SIGNS, lam, loss=loss, construction="sheet 000 section 7")


def gaussian_init(ds: Dataset, p: int, lam: float, seed: int, signs: str = "random", /, *, loss: str = CE,
                  alpha: float = 0.0, **params: Any) -> Scenario:
    """v_j ~ N(0, I_d) i.i.d. (H-RAND), a_j(0) = +-lam: random fair signs, or all "positive" / "negative" (PC5)."""
    rng = np.random.default_rng(seed)
    V = rng.standard_normal((p, ds.d))
    if signs == "random":
        s = np.where(rng.random(p) < 0.5, -1.0, 1.0)
    elif signs in ("positive", "negative"):
        s = np.full(p, 1.0 if signs == "positive" else -1.0)
    else:
        raise ValueError(f"signs must be 'random', 'positive' or 'negative', got {signs!r}")
    return pl_scenario(ds, V, s, lam, loss=loss, alpha=alpha, init_seed=seed, sign_rule=signs, **params)


@st.composite
def os_datasets(draw: st.DrawFn, d: tuple[int, int] = (2, 3), n_side: tuple[int, int] = (2, 4),
                families: tuple[str, ...] = ("orthant", "span")) -> tuple[Dataset, dict[str, Any]]:
    """OS data of the named families (sheet 4.6): ``span`` meets H-SPAN by construction, ``orthant`` generically
    when a class has at least d points, ``sparse`` has exactly orthogonal cross pairs (PC12-like)."""
    family = draw(st.sampled_from(families))
    dim = draw(st.integers(*d))
    seed = draw(SEEDS)
    if family == "span":
        params = {"extra_pos": draw(st.integers(0, 2)), "extra_neg": draw(st.integers(0, 2)), "d": dim, "seed": seed}
        return d000.span(**params), {"family": family, **params}
    params = {"n_pos": draw(st.integers(*n_side)), "n_neg": draw(st.integers(*n_side)), "d": dim, "seed": seed}
    build = {"orthant": d000.orthant, "sparse": d000.sparse}[family]
    return build(**params), {"family": family, **params}


@st.composite
def os_scenarios(draw: st.DrawFn, p: tuple[int, int] = (1, 5), lambdas: Sequence[float] = LAMBDAS,
                 d: tuple[int, int] = (2, 3), n_side: tuple[int, int] = (2, 4),
                 families: tuple[str, ...] = ("orthant", "span"), signs: str = "random", loss: str = CE,
                 alpha: float = 0.0) -> Scenario:
    """The paper's setting: OS data (``families``), width p, balanced Gaussian init at one of ``lambdas``."""
    ds, data_params = draw(os_datasets(d, n_side, families))
    width = draw(st.integers(*p))
    lam = draw(st.sampled_from(tuple(lambdas)))
    return gaussian_init(ds, width, lam, draw(SEEDS), signs, loss=loss, alpha=alpha, **data_params)


@st.composite
def fixed_data_scenarios(draw: st.DrawFn, builder: Any, p: tuple[int, int] = (2, 6), lambdas: Sequence[float] = LAMBDAS,
                         signs: str = "random", loss: str = CE) -> Scenario:
    """Gaussian balanced inits on one named dataset (a planted case such as :func:`datasets.pc1`)."""
    ds = builder()
    return gaussian_init(ds, draw(st.integers(*p)), draw(st.sampled_from(tuple(lambdas))), draw(SEEDS), signs,
                         loss=loss)
