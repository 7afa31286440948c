"""Hypothesis strategies: composable values built from a few structured parameters.

Scenario strategies (data, initialisation, loss) live in :mod:`verify.scenarios` and are
re-exported here; this module adds the *pointwise* cases that state-level claims quantify over:

- :class:`State` / :func:`states`: data plus one network state (W, v), balanced states also in
  polar form (r, U, s), optionally rescaled to a chosen max|f| or to theorem-scale eps;
- :class:`GeometryCase` / :func:`geometry_cases`: mu > 0 data plus a seed for the random
  vectors a static geometry check draws.

Each case serialises to JSON (``to_dict``/``from_dict``) so counterexamples replay exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field as dc_field
from typing import Any

import numpy as np
from hypothesis import strategies as st

from verify.data.dataset import Dataset
from verify.dynamics.field import NetworkField
from verify.scenarios import SEEDS, Scenario, datasets, scenario

__all__ = ["SEEDS", "GeometryCase", "Scenario", "State", "as_case", "as_state", "datasets", "geometry_cases",
           "polar_state", "scenario", "states", "theorem_scale_states"]


@dataclass(frozen=True, eq=False)
class State:
    """A pointwise case: data, one network state (W, v) (unscaled floats), loss and leaky slope.

    Balanced states also carry their exact polar form (r, U, s) (``r`` = ln ||w_j||), which is
    what the small-init lemmas read; ``params`` records how the case was built (for replay).
    """

    dataset: Dataset
    W: np.ndarray
    v: np.ndarray
    loss: str = "exp"
    alpha: float = 0.0
    r: np.ndarray | None = None
    U: np.ndarray | None = None
    params: dict[str, Any] = dc_field(default_factory=dict)
    signs: np.ndarray | None = None  # s_j, kept explicitly where v = s e^r underflows

    @property
    def field(self) -> NetworkField:
        return NetworkField.from_dataset(self.dataset, self.loss, self.alpha)

    @property
    def s(self) -> np.ndarray:
        return np.sign(self.v) if self.signs is None else self.signs

    def to_dict(self) -> dict[str, Any]:
        out = {"X": self.dataset.X.tolist(), "y": self.dataset.y.tolist(), "W": self.W.tolist(), "v": self.v.tolist(),
               "loss": self.loss, "alpha": self.alpha, "params": dict(self.params)}
        if self.r is not None:
            out["r"] = self.r.tolist()
            out["U"] = self.U.tolist()
            out["s"] = self.s.tolist()
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "State":
        """Inverse of :meth:`to_dict` (``verify search ID --replay`` passes the stored JSON)."""
        r = np.asarray(data["r"], float) if data.get("r") is not None else None
        U = np.asarray(data["U"], float) if data.get("U") is not None else None
        signs = np.asarray(data["s"], float) if data.get("s") is not None else None
        return cls(Dataset(np.asarray(data["X"], float), np.asarray(data["y"], float), name="replay"), np.asarray(data["W"], float),
                   np.asarray(data["v"], float), str(data.get("loss", "exp")), float(data.get("alpha", 0.0)), r, U,
                   dict(data.get("params", {})), signs)


def as_state(value: Any) -> State:
    """A State, or its JSON form (replay)."""
    return value if isinstance(value, State) else State.from_dict(value)


def polar_state(ds: Dataset, r: np.ndarray, U: np.ndarray, s: np.ndarray, loss: str, alpha: float, params: dict) -> State:
    """A balanced State from its polar form: w_j = e^{r_j} u_j, v_j = s_j e^{r_j}."""
    U = U / np.linalg.norm(U, axis=1, keepdims=True)
    e = np.exp(r)
    return State(ds, e[:, None] * U, s * e, loss, alpha, np.asarray(r, float), U, params, np.asarray(s, float))


@st.composite
def states(draw: st.DrawFn, n: tuple[int, int] = (2, 6), d: tuple[int, int] = (2, 3), h: tuple[int, int] = (1, 5),
           losses: tuple[str, ...] = ("exp", "logistic2"), alphas: tuple[float, ...] = (0.0,), balanced: tuple[bool, ...] = (True, False),
           scale_decades: tuple[int, int] = (-2, 0), f_decades: tuple[int, int] | None = None) -> State:
    """Random states on mu > 0 data: directions, norms and signs from one seed.

    Norm scale 10^k (k in ``scale_decades``), or, with ``f_decades``, a balanced state rescaled
    so that max_i |f(x_i)| = 10^-k exactly (k in ``f_decades``; all-dead states keep f = 0).
    """
    ds, dparams = draw(datasets(n=n, d=d))
    width = draw(st.integers(min_value=h[0], max_value=h[1]))
    seed = draw(SEEDS)
    loss = draw(st.sampled_from(losses))
    alpha = draw(st.sampled_from(alphas))
    bal = draw(st.sampled_from(balanced))
    rng = np.random.default_rng(seed)
    U = rng.standard_normal((width, ds.d))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    s = rng.choice([-1.0, 1.0], size=width)
    r = np.log(rng.uniform(0.5, 2.0, size=width))
    params = {**dparams, "h": width, "state_seed": seed, "loss": loss, "alpha": alpha, "balanced": bal}
    if f_decades is not None:
        k = draw(st.integers(min_value=f_decades[0], max_value=f_decades[1]))
        fieldobj = NetworkField.from_dataset(ds, loss, alpha)
        fmax = float(np.max(np.abs(fieldobj.polar_outputs(r, U, s))))
        if fmax > 0.0:
            r = r + 0.5 * (math.log(10.0) * (-k) - math.log(fmax))
        params["max_abs_f"] = 10.0**-k
        return polar_state(ds, r, U, s, loss, alpha, params)
    k = draw(st.integers(min_value=scale_decades[0], max_value=scale_decades[1]))
    r = r + k * math.log(10.0)
    params["scale_decade"] = k
    if bal:
        return polar_state(ds, r, U, s, loss, alpha, params)
    W = np.exp(r)[:, None] * U
    v = s * np.exp(r) * rng.uniform(0.2, 5.0, size=width)
    return State(ds, W, v, loss, alpha, None, None, params)


@dataclass(frozen=True, eq=False)
class GeometryCase:
    """A static case: a dataset and the seed of the random vectors a check draws (cones, K, caps)."""

    dataset: Dataset
    seed: int
    params: dict[str, Any] = dc_field(default_factory=dict)

    @property
    def rng(self) -> np.random.Generator:
        return np.random.default_rng(self.seed)

    def to_dict(self) -> dict[str, Any]:
        return {"X": self.dataset.X.tolist(), "y": self.dataset.y.tolist(), "seed": self.seed, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GeometryCase":
        """Inverse of :meth:`to_dict` (replay)."""
        return cls(Dataset(np.asarray(data["X"], float), np.asarray(data["y"], float), name="replay"), int(data["seed"]), dict(data.get("params", {})))


def as_case(value: Any) -> GeometryCase:
    """A GeometryCase, or its JSON form (replay)."""
    return value if isinstance(value, GeometryCase) else GeometryCase.from_dict(value)


@st.composite
def geometry_cases(draw: st.DrawFn, n: tuple[int, int] = (2, 8), d: tuple[int, int] = (2, 4)) -> GeometryCase:
    """mu > 0 data and a seed for the check's random vectors."""
    ds, params = draw(datasets(n=n, d=d))
    return GeometryCase(ds, draw(SEEDS), params)


@st.composite
def theorem_scale_states(draw: st.DrawFn, losses: tuple[str, ...] = ("exp", "logistic2")) -> State:
    """Balanced states at eps = exp(-L), L in {1000, 2000, ..., 10000}: r_j = -L + O(1) offsets."""
    base = draw(states(h=(1, 4), balanced=(True,), scale_decades=(0, 0), losses=losses))
    decades = draw(st.integers(min_value=1, max_value=10))
    log_eps = -1000.0 * decades
    return polar_state(base.dataset, base.r + log_eps, base.U, base.s, base.loss, base.alpha,
                       {**base.params, "log_eps": log_eps})
