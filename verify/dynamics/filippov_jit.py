"""Compiled (numba) Filippov slopes of sliding pairs, each alone on its neuron and on its line through 0.

``slide`` = (ii, jj, K, alpha): the sliding pairs (ii[p], jj[p]), K = X X^T and the leaky slope. At a state z
the pairs' slopes are :func:`switching.one_row_slopes` with the data weights g(z) of the current mode S
(:func:`filippov_slopes`, unclipped; the Python reference is :meth:`filippov.Filippov.raw_slopes`). The
Runge-Kutta stages read them clipped to [alpha, 1] (:func:`filippov_S_into`, in :mod:`rk_jit`); the exit search of a
step reads them unclipped at the nodes of the step's dense output (:func:`node_slopes`, in :mod:`detect`).
"""

from __future__ import annotations

import numba
import numpy as np

from verify.dynamics import switching
from verify.dynamics.engine_jit import dense_point
from verify.dynamics.field_jit import COUNTED, data_weights_into, field_workspace, output_factors_into, preact_any_into


def no_slide(K: np.ndarray, alpha: float) -> tuple:
    """The ``slide`` argument of a mode without sliding pairs."""
    return np.empty(0, np.int64), np.empty(0, np.int64), K, float(alpha)


@numba.njit(cache=True, inline="always")
def _weights_into(g: np.ndarray, PS: np.ndarray, VT: np.ndarray, a: np.ndarray, z: np.ndarray, S: np.ndarray,
                  X: np.ndarray, y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int,
                  polar: bool) -> None:
    """In place: g = the data weights g(z) in mode S (:func:`field_jit.data_weights_into`); PS, VT, a: scratch."""
    output_factors_into(a, z, sgn, r_ref, h, d, polar)
    preact_any_into(PS, VT, X, z, h if polar else 0, h)
    data_weights_into(g, PS, S, a, y, loss)


@numba.njit(cache=True)
def filippov_slopes(z: np.ndarray, S: np.ndarray, slide: tuple, X: np.ndarray, y: np.ndarray, sgn: np.ndarray,
                    r_ref: np.ndarray, h: int, d: int, loss: int, polar: bool) -> np.ndarray:
    """The sliding pairs' slopes at state z (unclipped): :func:`switching.one_row_slopes` with g(z) in mode S."""
    ii, jj, K, _alpha = slide
    VT, PS, g, _GT, a = field_workspace(X.shape[0], d, h)
    _weights_into(g, PS, VT, a, z, S, X, y, sgn, r_ref, h, d, loss, polar)
    return switching.one_row_slopes(S, g, K, ii, jj)


@numba.njit(cache=True, **COUNTED)
def filippov_S_into(out: np.ndarray, z: np.ndarray, S: np.ndarray, slide: tuple, X: np.ndarray, y: np.ndarray,
                    sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, polar: bool, VT: np.ndarray,
                    PS: np.ndarray, g: np.ndarray, a: np.ndarray) -> None:
    """In place: out = S with the sliding pairs' slopes at z (:func:`filippov_slopes`), clipped to [alpha, 1] (1 when
    alpha = 1). VT, PS, g, a: scratch (:func:`field_jit.field_workspace`); no allocation."""
    ii, jj, K, alpha = slide
    _weights_into(g, PS, VT, a, z, S, X, y, sgn, r_ref, h, d, loss, polar)
    for i in range(S.shape[0]):
        for j in range(S.shape[1]):
            out[i, j] = S[i, j]
    for p in range(ii.size):
        c = switching.one_row_slope(S, g, K, ii[p], jj[p])
        out[ii[p], jj[p]] = min(max(c, alpha), 1.0) if alpha < 1.0 else 1.0


@numba.njit(cache=True)
def filippov_S(z: np.ndarray, S: np.ndarray, slide: tuple, X: np.ndarray, y: np.ndarray, sgn: np.ndarray,
               r_ref: np.ndarray, h: int, d: int, loss: int, polar: bool) -> np.ndarray:
    """:func:`filippov_S_into` into a new array."""
    out = np.empty_like(S)
    VT, PS, g, _GT, a = field_workspace(X.shape[0], d, h)
    filippov_S_into(out, z, S, slide, X, y, sgn, r_ref, h, d, loss, polar, VT, PS, g, a)
    return out


@numba.njit(cache=True)
def node_slopes(z: np.ndarray, F: np.ndarray, nodes: np.ndarray, S: np.ndarray, slide: tuple, X: np.ndarray,
                y: np.ndarray, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, loss: int, polar: bool) -> np.ndarray:
    """(len(nodes), pairs): :func:`filippov_slopes` at the step's dense output at each node x in [0, 1]."""
    out = np.empty((nodes.size, slide[0].size))
    for k in range(nodes.size):
        out[k] = filippov_slopes(dense_point(z, F, nodes[k]), S, slide, X, y, sgn, r_ref, h, d, loss, polar)
    return out
