"""Seed 003's trajectory scenarios: the paper's initialisations (sheet 1.5) on its datasets, as Hypothesis strategies.

theta0 = sigma theta0-bar with theta0-bar ~ D_init(1) (symmetric-case theorems: independent Gaussian a, not balanced)
or D~_init(1) (Section 6: a_k = s_k ||w_k||). In the engine's terms W0 = sigma W-bar, v0 = sigma a-bar (Cartesian,
while sigma W-bar is representable), loss "logistic" (summed: engine time = paper time / n, see ``_shared``), leaky
slope ``alpha`` (1/2 unless a case says otherwise). ``params`` records the draw (kind, m, sigma, seed) so a check can
rebuild theta0-bar (:func:`draw_of`).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from hypothesis import strategies as st

from verify.data.dataset import Dataset
from verify.model.init import Initialization
from verify.scenarios import SEEDS, Scenario

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import quantities as Q
from properties.lyu2021_margin._shared import ALPHA, LOSS

SIGMAS = (1e-4, 1e-6, 1e-8)


def draw_scenario(ds: Dataset, draw: Q.Draw, sigma: float, /, *, alpha: float = ALPHA, loss: str = LOSS,
                  **params: Any) -> Scenario:
    """theta0 = sigma * (draw.W, draw.a) on ``ds`` (the log-eps form with the unscaled draw as base)."""
    init = Initialization(draw.W, draw.a, math.log(sigma), "balanced" if draw.kind == "balanced" else "unbalanced")
    return Scenario(ds, init, loss, alpha, {"data": ds.name, "init": draw.kind, "m": int(draw.a.size), "sigma": sigma,
                                            "init_seed": draw.seed, **params})


def draw_of(scenario: Scenario) -> Q.Draw:
    """theta0-bar of a scenario built by :func:`draw_scenario` (its unscaled base)."""
    return Q.Draw(scenario.init.W0, scenario.init.v0, scenario.params.get("init", "D_init"),
                  int(scenario.params.get("init_seed", 0)))


@st.composite
def small_init_scenarios(draw: st.DrawFn, data: Callable[[], Dataset] | None = None, m: tuple[int, int] = (2, 6),
                         sigmas: Sequence[float] = SIGMAS, kind: str = "D_init", alpha: float = ALPHA,
                         symmetric_families: bool = True) -> Scenario:
    """theta0 = sigma theta0-bar (``kind`` "D_init" or "balanced"), width in ``m``, on ``data`` (a builder), or on D-SYM
    or random symmetric separable data (:func:`datasets.random_symmetric`, d in {2, 3}, n/2 in 2..5)."""
    if data is not None:
        ds, params = data(), {}
    elif symmetric_families and draw(st.booleans()):
        params = {"n_half": draw(st.integers(2, 5)), "d": draw(st.integers(2, 3)), "seed": draw(SEEDS)}
        ds = D.random_symmetric(**params)
    else:
        ds, params = D.d_sym(), {}
    width = draw(st.integers(*m))
    seed = draw(SEEDS)
    theta = Q.d_init(width, ds.d, seed) if kind == "D_init" else Q.balanced_draw(width, ds.d, seed)
    return draw_scenario(ds, theta, draw(st.sampled_from(tuple(sigmas))), alpha=alpha, **params)
