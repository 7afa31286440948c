"""The gradient-flow vector field of f(x) = sum_j v_j sigma(<w_j, x>) under a summed loss.

A *mode* is a slope matrix S (n, h) with S_ij = sigma'(<x_i, w_j>) frozen at its value for
the current activation pattern (1 active, alpha inactive; a fractional value in [alpha, 1]
for a Filippov sliding pair). Inside a mode the field is analytic; by positive homogeneity
sigma(p) = p sigma'(p), so the outputs are f = (P * S) @ v with P = X W^T.

Cartesian form:
    w_j' = v_j sum_i S_ij g_i x_i,    v_j' = sum_i S_ij P_ij g_i,    g_i = -l'(y_i, f(x_i)).
Polar form (balanced init, v_j = s_j e^{r_j}, w_j = e^{r_j} u_j):
    G_j = sum_i S_ij g_i x_i,   r_j' = s_j <u_j, G_j>,   u_j' = s_j (I - u_j u_j^T) G_j.
"""

from __future__ import annotations

import contextlib
import functools
from dataclasses import InitVar, dataclass, field

import numpy as np
from threadpoolctl import ThreadpoolController

from verify.data.dataset import Dataset
from verify.dynamics.field_jit import BLAS_MIN_WORK
from verify.model.activation import check_alpha
from verify.model.losses import Loss, get_loss


def single_thread_blas(n: int, h: int, d: int) -> contextlib.AbstractContextManager:
    """One BLAS thread for a run on n rows, h neurons, dimension d: the matrices are small, and BLAS threads only add
    overhead (2-3x measured). The controller (which scans the loaded libraries, ~1.6 ms) is built once per process;
    each run sets and restores the limit (~12 us). No limit below n d max(n, h) = BLAS_MIN_WORK: the compiled kernels
    then make no BLAS call (:func:`field_jit.uses_blas`) and the run's products (X V^T, X X^T and smaller) are far too
    small for BLAS to split between threads."""
    if n * d * max(n, h) < BLAS_MIN_WORK:
        return contextlib.nullcontext()
    return _blas_controller().limit(limits=1, user_api="blas")


@functools.lru_cache(maxsize=1)
def _blas_controller() -> ThreadpoolController:
    return ThreadpoolController()


@dataclass(frozen=True, eq=False)
class NetworkField:
    """Vector field of gradient flow on the summed loss; knows nothing about claims or solvers."""

    X: np.ndarray
    y: np.ndarray
    loss: Loss
    alpha: float = 0.0
    train_v: bool = True
    known_norms: InitVar[np.ndarray | None] = None  # ||x_i|| when the caller has them (a Dataset's), else computed
    norms: np.ndarray = field(init=False, repr=False)

    def __post_init__(self, known_norms: np.ndarray | None) -> None:
        object.__setattr__(self, "loss", get_loss(self.loss))
        object.__setattr__(self, "alpha", check_alpha(self.alpha))
        object.__setattr__(self, "norms", np.linalg.norm(self.X, axis=1) if known_norms is None else known_norms)

    @classmethod
    def from_dataset(cls, ds: Dataset, loss: str | Loss = "exp", alpha: float = 0.0, train_v: bool = True) -> "NetworkField":
        """The field on a dataset's X and y, with its row norms (:attr:`Dataset.norms`, cached on the dataset)."""
        return cls(ds.X, ds.y, get_loss(loss), alpha, train_v, ds.norms)

    @property
    def n(self) -> int:
        return int(self.X.shape[0])

    def mode(self, P: np.ndarray) -> np.ndarray:
        """Slope matrix S_ij = sigma'(P_ij): 1 where P > 0, alpha where P <= 0 (sigma'(0) = alpha)."""
        return np.where(P > 0.0, 1.0, self.alpha)

    # Cartesian form -------------------------------------------------------------------------
    def outputs(self, W: np.ndarray, v: np.ndarray, S: np.ndarray | None = None) -> np.ndarray:
        """f(x_i) for all i, at one state (W (h, d), v (h,): (n,)) or at several (W (k, h, d), v (k, h): (k, n));
        S defaults to the mode of the current pattern."""
        P = np.matmul(self.X, np.swapaxes(W, -1, -2))
        S = self.mode(P) if S is None else S
        return np.einsum("...nh,...h->...n", P * S, v)

    def cartesian(self, W: np.ndarray, v: np.ndarray, S: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(W', v') in mode S."""
        P = self.X @ W.T
        f = (P * S) @ v
        g = self.loss.g(self.y, f)
        Wdot = v[:, None] * ((S * g[:, None]).T @ self.X)
        vdot = (P * S).T @ g if self.train_v else np.zeros_like(v)
        return Wdot, vdot

    # Polar form -----------------------------------------------------------------------------
    def polar_outputs(self, r: np.ndarray, U: np.ndarray, s: np.ndarray, S: np.ndarray | None = None) -> np.ndarray:
        """f(x_i) = sum_j s_j exp(2 r_j) S_ij <u_j, x_i> (underflows harmlessly to the eps -> 0 limit), at one state
        (r (h,), U (h, d): (n,)) or at several (r (k, h), U (k, h, d): (k, n))."""
        P = np.matmul(self.X, np.swapaxes(U, -1, -2))
        S = self.mode(P) if S is None else S
        return np.einsum("...nh,...h->...n", P * S, s * np.exp(2.0 * r))

    def polar(self, r: np.ndarray, U: np.ndarray, s: np.ndarray, S: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(r', U') in mode S; valid for balanced states with the second layer trained."""
        f = self.polar_outputs(r, U, s, S)
        g = self.loss.g(self.y, f)
        G = (S * g[:, None]).T @ self.X
        radial = np.einsum("hd,hd->h", U, G)
        rdot = s * radial
        Udot = s[:, None] * (G - radial[:, None] * U)
        return rdot, Udot
