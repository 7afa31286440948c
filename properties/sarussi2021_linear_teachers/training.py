"""Training runs of seed 002's experiments: the fixed-layer model (v = (1_k, -1_k)) trained by the paper's SGD
(batch 1, epochs without replacement) or full-batch GD on the mean logistic loss, through ``verify.simulate``
(backend "gd", ``train_v=False``, step eta / n: ``_shared.engine_lr``), and the per-iterate readings the figures
plot: agreement (NAR / PAR, D_max), clusters (r, rho, theta_max), margins, the share of points or directions outside
Theorem 5.1's linear regime, and the PAR shares of Figures 8 and 9.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from verify.data.dataset import Dataset
from verify.simulate import simulate
from verify.trajectory import Trajectory

from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers._shared import ALPHA, LOSS, engine_lr


def train(ds: Dataset, W0: np.ndarray, eta: float, steps: int, *, sgd: bool = False, samples: int = 24,
          alpha: float = ALPHA, seed: int = 0) -> Trajectory:
    """``steps`` updates of step ``eta`` (SGD batch 1 in epochs when ``sgd``, else full-batch GD) from W0, sampled at
    ``samples`` geometrically spaced iterates (and the first and last)."""
    lr = engine_lr(eta, ds.n)
    k = np.asarray(W0).shape[0] // 2
    ks = np.unique(np.r_[0, np.geomspace(1, steps, samples).astype(int), steps])
    return simulate(ds, W0, N.second_layer(k), steps * lr, loss=LOSS, alpha=alpha, backend="gd", lr=lr, train_v=False,
                    times=ks * lr, batch_size=1 if sgd else None, seed=seed)


def regime_share(W: np.ndarray, X: np.ndarray) -> float:
    """The share of the rows x of X outside Theorem 5.1's linear regime: |<w-bar - u-bar, x>| <= 2 r ||x||."""
    c = N.clusters(W)
    proj = np.abs(np.asarray(X) @ (c.w_bar - c.u_bar))
    return float(np.mean(proj <= 2.0 * c.r * np.linalg.norm(X, axis=1)))


def linear_mismatch(W: np.ndarray, U: np.ndarray, alpha: float = ALPHA) -> float:
    """The share of the directions U on which sign N_W differs from f_lin = sign <w-bar - u-bar, x>."""
    c = N.clusters(W)
    return float(np.mean(np.sign(N.output(W, U, alpha)) != np.sign(U @ (c.w_bar - c.u_bar))))


def par_share(W: np.ndarray, X: np.ndarray, y: np.ndarray, on_kink: np.ndarray | None = None) -> tuple[float, float]:
    """(share of + neurons classifying the training set like w*, share of - neurons classifying it like -w*); a
    neuron sliding on a point's kink (``on_kink``, :func:`network.products`) classifies it as neither."""
    P = N.products(W, X, on_kink)
    k = P.shape[1] // 2
    y = np.asarray(y, float)
    plus = np.all(y[:, None] * P[:, :k] > 0.0, axis=0)
    minus = np.all(-y[:, None] * P[:, k:] > 0.0, axis=0)
    return float(np.mean(plus)), float(np.mean(minus))


@dataclass(frozen=True)
class Reading:
    """One iterate's numbers."""

    step: int
    loss: float
    train_error: float
    nar: bool
    par: bool
    d_max: int
    r: float
    rho: float
    theta_max: float
    normalised_margin: float
    smoothed_margin: float
    outside_regime: float


def read(traj: Trajectory, ds: Dataset, alpha: float = ALPHA, on_kink: np.ndarray | None = None) -> list[Reading]:
    """The readings of every sampled iterate of a :func:`train` run (``on_kink`` (S, n, 2k): an exact flow's sliding
    pairs per sample, :func:`verify.trajectory.sliding_mask`)."""
    lr = traj.params["lr"]
    out = []
    for s, (t, W) in enumerate(zip(traj.times, traj.W)):
        a = N.agreement(W, ds.X, None if on_kink is None else on_kink[s])
        c = N.clusters(W)
        q = N.margins(W, ds.X, ds.y, alpha)
        out.append(Reading(int(round(t / lr)), float(np.mean(N.point_loss(q))), float(np.mean(q <= 0.0)), a.nar,
                           a.par(ds.y), a.d_max, c.r, c.rho, c.theta_max, float(np.min(q) / np.linalg.norm(W)),
                           N.smoothed_margin(W, ds.X, ds.y, alpha), regime_share(W, ds.X)))
    return out


def first_step(readings: list[Reading], attribute: str) -> int | None:
    """The first sampled step from which ``attribute`` holds at every later sample (None if not at the end)."""
    start = None
    for r in readings:
        if getattr(r, attribute):
            start = r.step if start is None else start
        else:
            start = None
    return start
