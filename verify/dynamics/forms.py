"""State forms for the event engine: flat packing, preactivations, rhs in a mode, projections.

Two forms share one interface (the solver only sees flat vectors z):

- Cartesian, z = [W.ravel(), v]: e_ij(z) = <x_i, w_j>, rhs = (W', v') of the gradient flow,
  neuron gain gamma_j = v_j (w_j' = gamma_j G_j).
- Polar, z = [r - r_ref, U.ravel()] (r_j = ln ||w_j||, offset by r_ref = r(0) so that the
  tolerance on r is absolute, whatever eps): e_ij(z) = <x_i, u_j>, rhs = (r', U') of the
  1.11, gamma_j = s_j (the normal rate <x_i, u_j'> = s_j <x_i, G_j> on e_ij = 0).

Both e_ij are linear in z, so the dense output of a step maps linearly onto them.
"""

from __future__ import annotations

import numpy as np

from verify.dynamics import engine_jit, field_jit
from verify.dynamics.field import NetworkField
from verify.model.losses import LOSSES

UNIT_NORM_TOL = 1e-13  # polar directions are renormalised when some | ||u_j|| - 1 | exceeds this


def _compiled_loss(field: NetworkField) -> int | None:
    """Code of a built-in loss for :mod:`field_jit` (None: a custom Loss, numpy path)."""
    name = field.loss.name
    return field_jit.LOSS_CODES.get(name) if LOSSES.get(name) is field.loss else None


class _Compiled:
    """What the compiled kernels need of a form: contiguous X, y, the loss code (None: numpy
    path) and the field arguments of :func:`field_jit.form_rhs` after (out, s, z, S)."""

    def _set_compiled(self, field: NetworkField, sgn: np.ndarray, r_ref: np.ndarray, h: int, d: int, polar: bool) -> None:
        self._X, self._y = np.ascontiguousarray(field.X, float), np.ascontiguousarray(field.y, float)
        self._loss = _compiled_loss(field)
        self._cargs = (self._X, self._y, sgn, r_ref, h, d, self._loss, field.train_v or polar, polar)

    def compiled_args(self) -> tuple:
        return self._cargs


def _data_weights(form: "CartesianForm | PolarForm", P: np.ndarray, S: np.ndarray, a: np.ndarray) -> np.ndarray:
    """g_i = -l'(y_i, f_i), f = (P * S) a (a: the output factors), by the compiled :func:`field_jit.data_weights`
    for the built-in losses (the compiled loop reads the same function)."""
    if form._loss is None:
        return form.field.loss.g(form.field.y, (P * S) @ a)
    return field_jit.data_weights(np.array(P, dtype=float, order="C"), np.ascontiguousarray(S, dtype=float),
                                  np.ascontiguousarray(a, dtype=float), form._y, form._loss)


def row_norms(A: np.ndarray) -> np.ndarray:
    """||A_j|| per row (:func:`engine_jit.row_norms`, the compiled loop's own: much cheaper than np.linalg.norm on
    small arrays)."""
    return engine_jit.row_norms(np.asarray(A, dtype=float))


def _remove_span(V: np.ndarray, j: int, Xa: np.ndarray) -> None:
    """In place: V[j] minus its orthogonal projection onto span(rows of Xa).

    Skipped when the rows span the whole space (the only common point of the surfaces is 0,
    which a balanced neuron never reaches: this only happens to a neuron that float64 has
    already collapsed, and projecting would annihilate it)."""
    if Xa.shape[0] >= V.shape[1] and np.linalg.matrix_rank(Xa) >= V.shape[1]:
        return
    if Xa.shape[0] == 1:
        engine_jit.project_off(V[j], np.ascontiguousarray(Xa[0], dtype=float))
    else:
        V[j] -= Xa.T @ np.linalg.lstsq(Xa @ Xa.T, Xa @ V[j], rcond=None)[0]


class CartesianForm(_Compiled):
    """(W, v) packed as z = [W.ravel(), v]."""

    name = "cartesian"

    def step_rtol(self, rtol: float) -> float:
        """The relative part of the step's error scale (with atol = rtol times each neuron's size: relative per neuron)."""
        return float(rtol)

    def __init__(self, field: NetworkField, h: int, d: int) -> None:
        self.field, self.h, self.d = field, h, d
        self.size = h * d + h
        self._set_compiled(field, np.ones(h), np.zeros(h), h, d, polar=False)

    def pack(self, W: np.ndarray, v: np.ndarray) -> np.ndarray:
        return np.concatenate([np.asarray(W, float).ravel(), np.asarray(v, float).ravel()])

    def weights(self, z: np.ndarray) -> np.ndarray:
        """W (h, d) (a view)."""
        return z[: self.h * self.d].reshape(self.h, self.d)

    def unpack(self, z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.weights(z), z[self.h * self.d :]

    def preact(self, z: np.ndarray) -> np.ndarray:
        """e = X W^T (n, h); z may be a stack (m, N) -> (m, n, h)."""
        W = z[..., : self.h * self.d].reshape(z.shape[:-1] + (self.h, self.d))
        return np.matmul(self.field.X, np.swapaxes(W, -1, -2))

    def g(self, z: np.ndarray, S: np.ndarray, P: np.ndarray | None = None) -> np.ndarray:
        """Loss weights g_i = -l'(y_i, f_i) in mode S; P = X W^T when already at hand."""
        W, v = self.unpack(z)
        P = self.field.X @ W.T if P is None else P
        return _data_weights(self, P, S, v)

    def gain(self, z: np.ndarray) -> np.ndarray:
        return self.unpack(z)[1]

    def rhs(self, z: np.ndarray, S: np.ndarray) -> np.ndarray:
        """(W', v') of :meth:`NetworkField.cartesian` as one new flat array (compiled for the
        built-in losses)."""
        if self._loss is None:
            return self.rhs_numpy(z, S)
        return field_jit.cartesian_rhs(z, np.ascontiguousarray(S), self._X, self._y, self.h, self.d, self._loss, self.field.train_v)

    def rhs_numpy(self, z: np.ndarray, S: np.ndarray) -> np.ndarray:
        """Reference numpy version of :meth:`rhs`."""
        fld, hd = self.field, self.h * self.d
        W, v = z[:hd].reshape(self.h, self.d), z[hd:]
        PS = (fld.X @ W.T) * S
        y = fld.y
        g = y * fld.loss._weight(y * (PS @ v))
        out = np.empty(self.size)
        np.multiply(v[:, None], S.T @ (g[:, None] * fld.X), out=out[:hd].reshape(self.h, self.d))
        if fld.train_v:
            np.dot(PS.T, g, out=out[hd:])
        else:
            out[hd:] = 0.0
        return out

    @property
    def block(self) -> slice:
        """Where the neuron vectors w_j sit in z."""
        return slice(0, self.h * self.d)

    def neuron_block(self, Z: np.ndarray) -> np.ndarray:
        """The w_j part of a stack of flat vectors Z (m, N) as (m, h, d) (e_ij = <x_i, w_j>)."""
        return Z[:, : self.h * self.d].reshape(Z.shape[0], self.h, self.d)

    def neuron_scale(self, z: np.ndarray) -> np.ndarray:
        """||w_j|| (for tolerances on e_ij)."""
        return row_norms(self.weights(z))

    def component_scale(self, z: np.ndarray) -> np.ndarray:
        """Per component of z, the size ||(w_j, v_j)|| of its neuron (floored at 1e-300)."""
        return engine_jit.neuron_size_per_component(np.ascontiguousarray(z, dtype=float), self.h, self.d, 1e-300)

    def project(self, z: np.ndarray, j: int, rows: np.ndarray) -> None:
        """In place: w_j <- w_j minus its component in span{x_i : i in rows} (onto e_ij = 0)."""
        _remove_span(self.weights(z), j, self.field.X[rows])

    def normalise(self, z: np.ndarray) -> bool:
        return False


class PolarForm(_Compiled):
    """(r, U) of a balanced network with signs s, packed as z = [r - r_ref, U.ravel()]."""

    name = "polar"

    def __init__(self, field: NetworkField, s: np.ndarray, r_ref: np.ndarray, d: int) -> None:
        self.field, self.s, self.r_ref = field, np.ascontiguousarray(s, float), np.ascontiguousarray(r_ref, float)
        self.h, self.d = self.s.size, d
        self.size = self.h + self.h * d
        self._set_compiled(field, self.s, self.r_ref, self.h, d, polar=True)

    def pack(self, r: np.ndarray, U: np.ndarray) -> np.ndarray:
        return np.concatenate([np.asarray(r, float) - self.r_ref, np.asarray(U, float).ravel()])

    def step_rtol(self, rtol: float) -> np.ndarray:
        """Per component, the relative part of the step's error scale atol + rtol_k |z_k|: 0 for the log-norms (an
        error in r_j is a relative error of ||w_j||, controlled absolutely by atol, whatever r_j - r_ref_j has grown
        to; relative to |r_j - r_ref_j| ~ ln(1/eps) it would allow errors ln(1/eps) times the tolerance), rtol for U."""
        out = np.full(self.size, float(rtol))
        out[: self.h] = 0.0
        return out

    def directions(self, z: np.ndarray) -> np.ndarray:
        """U (h, d) (a view)."""
        return z[self.h :].reshape(self.h, self.d)

    def unpack(self, z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return z[: self.h] + self.r_ref, self.directions(z)

    def preact(self, z: np.ndarray) -> np.ndarray:
        U = z[..., self.h :].reshape(z.shape[:-1] + (self.h, self.d))
        return np.matmul(self.field.X, np.swapaxes(U, -1, -2))

    def g(self, z: np.ndarray, S: np.ndarray, P: np.ndarray | None = None) -> np.ndarray:
        """Loss weights g_i = -l'(y_i, f_i) in mode S; P = X U^T when already at hand."""
        r, U = self.unpack(z)
        P = self.field.X @ U.T if P is None else P
        return _data_weights(self, P, S, self.s * np.exp(2.0 * r))

    def gain(self, z: np.ndarray) -> np.ndarray:
        return self.s

    def rhs(self, z: np.ndarray, S: np.ndarray) -> np.ndarray:
        """(r', U') of :meth:`NetworkField.polar` as one new flat array (compiled for the
        built-in losses)."""
        if self._loss is None:
            return self.rhs_numpy(z, S)
        return field_jit.polar_rhs(z, np.ascontiguousarray(S), self._X, self._y, self.s, self.r_ref, self.h, self.d, self._loss)

    def rhs_numpy(self, z: np.ndarray, S: np.ndarray) -> np.ndarray:
        """Reference numpy version of :meth:`rhs`."""
        fld, h = self.field, self.h
        U = z[h:].reshape(h, self.d)
        y = fld.y
        f = ((fld.X @ U.T) * S) @ (self.s * np.exp(2.0 * (z[:h] + self.r_ref)))
        g = y * fld.loss._weight(y * f)
        G = S.T @ (g[:, None] * fld.X)
        radial = np.einsum("hd,hd->h", U, G)
        out = np.empty(self.size)
        np.multiply(self.s, radial, out=out[:h])
        G -= radial[:, None] * U
        np.multiply(self.s[:, None], G, out=out[h:].reshape(h, self.d))
        return out

    @property
    def block(self) -> slice:
        """Where the unit vectors u_j sit in z."""
        return slice(self.h, self.h + self.h * self.d)

    def neuron_block(self, Z: np.ndarray) -> np.ndarray:
        """The u_j part of a stack of flat vectors Z (m, N) as (m, h, d) (e_ij = <x_i, u_j>)."""
        return Z[:, self.h :].reshape(Z.shape[0], self.h, self.d)

    def neuron_scale(self, z: np.ndarray) -> np.ndarray:
        return row_norms(self.directions(z))

    def project(self, z: np.ndarray, j: int, rows: np.ndarray) -> None:
        U = self.directions(z)
        _remove_span(U, j, self.field.X[rows])
        U[j] /= np.linalg.norm(U[j])

    def normalise(self, z: np.ndarray, tol: float = UNIT_NORM_TOL) -> bool:
        """In place u_j <- u_j / ||u_j|| when some | ||u_j|| - 1 | > tol; True if z changed."""
        U = self.directions(z)
        norms = row_norms(U)
        if np.max(np.abs(norms - 1.0)) <= tol:
            return False
        U /= norms[:, None]
        return True
