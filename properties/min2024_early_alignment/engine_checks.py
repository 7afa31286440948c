"""Engine identities of seed 004 that planted engine bugs must not survive (issue 13, item 4).

The polar form the engine integrates at small eps (claim sheet 1.11) is the network of eq. (1) and
the flow of eq. (12) in other coordinates; these claims check the two agree on random balanced
states, pointwise (no simulation):

- EC-polar-outputs: f(x_i) = sum_j v_j sigma(<w_j, x_i>) = sum_j s_j e^{2 r_j} sigma(<u_j, x_i>)
  (w_j = e^{r_j} u_j, v_j = s_j e^{r_j});
- EC-polar-field: with (W', v') the Cartesian field (12) and (r', U') the polar one,
  r_j' = <w_j, w_j'> / ||w_j||^2, u_j' = (w_j' - <u_j, w_j'> u_j) / ||w_j|| and v_j' = s_j e^{r_j} r_j';
- EC-loss-derivative: the data weight g(y, yhat) of every loss is -dl/dyhat of its value (central
  difference with its error bound).

Both are exact identities; the margin is the tolerance minus the relative mismatch, the error a
few hundred unit roundoffs (the sums have at most n h d terms).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.dynamics.field import NetworkField
from verify.model.losses import get_loss
from verify.strategies import State, states

from properties.min2024_early_alignment._shared import U_ROUND, paper_claim

ROUNDING = 1e3  # unit roundoffs allowed per relative comparison (sums of <= n h d products)

BALANCED = states(n=(2, 6), d=(2, 4), h=(1, 4), losses=("exp", "logistic", "logistic2", "square"),
                  alphas=(0.0, 0.1), balanced=(True,), scale_decades=(-2, 0))


def _field(state: State) -> NetworkField:
    return NetworkField.from_dataset(state.dataset, state.loss, state.alpha)


@measures("-max_i |f_polar(x_i) - f_cart(x_i)| / (X_max sum_j |v_j| ||w_j||) (relative mismatch)")
def polar_outputs_agree(state: State) -> Margin:
    """EC-polar-outputs: -max_i |f_polar(x_i) - f_cart(x_i)| / scale, scale = X_max sum_j |v_j| ||w_j||."""
    fo = _field(state)
    f_cart = fo.outputs(state.W, state.v)
    f_polar = fo.polar_outputs(state.r, state.U, state.s)
    scale = float(np.max(fo.norms) * np.sum(np.abs(state.v) * np.linalg.norm(state.W, axis=1)))
    gap = float(np.max(np.abs(f_polar - f_cart))) / scale
    return Margin(-gap, ROUNDING * U_ROUND, f"relative output mismatch {gap:.3g}")


@measures("-max relative mismatch of r', u', v' between the polar and Cartesian fields (dimensionless)")
def polar_field_agrees(state: State) -> Margin:
    """EC-polar-field: -(largest relative mismatch of r', u' and v' = s e^r r' between the two forms)."""
    fo = _field(state)
    S = fo.mode(fo.X @ state.W.T)
    Wdot, vdot = fo.cartesian(state.W, state.v, S)
    rdot, Udot = fo.polar(state.r, state.U, state.s, S)
    norms = np.linalg.norm(state.W, axis=1)
    radial = np.einsum("hd,hd->h", state.U, Wdot)
    scale = np.maximum(np.linalg.norm(Wdot, axis=1), np.abs(vdot)) / norms
    scale = np.where(scale > 0.0, scale, 1.0)
    gaps = np.concatenate([
        np.abs(rdot - radial / norms) / scale,
        np.linalg.norm(Udot - (Wdot - radial[:, None] * state.U) / norms[:, None], axis=1) / scale,
        np.abs(vdot - state.s * np.exp(state.r) * rdot) / (scale * norms),
    ])
    gap = float(np.max(gaps))
    return Margin(-gap, ROUNDING * U_ROUND, f"relative field mismatch {gap:.3g}")


POLAR_OUTPUTS = paper_claim(
    id="EC-polar-outputs",
    source="eq. (1) with the balanced polar form of eq. (3) (claim sheet 1.11)",
    statement="f(x_i) = sum_j v_j sigma(<w_j, x_i>) equals sum_j s_j e^{2 r_j} sigma(<u_j, x_i>) for balanced "
              "states w_j = e^{r_j} u_j, v_j = s_j e^{r_j} (the outputs the polar engine integrates)",
    check=polar_outputs_agree,
    over=BALANCED,
    assumptions=("balanced state (3)",),
    tags=("pointwise", "engine"),
)

POLAR_FIELD = paper_claim(
    id="EC-polar-field",
    source="eq. (12) in the polar coordinates of claim sheet 1.11",
    statement="for balanced states the polar field (r', U') is the Cartesian field (12) in polar coordinates: "
              "r_j' = <w_j, w_j'>/||w_j||^2, u_j' = (w_j' - <u_j, w_j'> u_j)/||w_j||, v_j' = s_j e^{r_j} r_j'",
    check=polar_field_agrees,
    over=BALANCED,
    assumptions=("balanced state (3)",),
    tags=("pointwise", "engine"),
)


FD_STEP = 1e-4  # central-difference step for EC-loss-derivative


@measures("-|g + central difference of l| / max(1, |g|) (relative mismatch of g = -dl/dyhat)")
def loss_derivative_agrees(case: tuple[str, float, float]) -> Margin:
    """EC-loss-derivative: -|g + (l(yhat + h) - l(yhat - h)) / 2h| / max(1, |g|), the error the
    difference's truncation h^2 max|l'''| / 6 <= h^2 e^{|yhat| + h} / 3 plus its rounding 10 u l / h."""
    name, y, yhat = case
    loss = get_loss(name)
    ys, ts = np.array([y]), np.array([yhat - FD_STEP, yhat, yhat + FD_STEP])
    values = loss.value(np.repeat(ys, 3), ts)
    g = float(loss.g(ys, np.array([yhat]))[0])
    fd = float(values[2] - values[0]) / (2.0 * FD_STEP)
    scale = max(1.0, abs(g))
    error = (FD_STEP**2 * np.exp(abs(yhat) + FD_STEP) / 3.0 + 10.0 * U_ROUND * float(np.max(values)) / FD_STEP) / scale
    gap = abs(g + fd) / scale
    return Margin(-gap, float(error), f"{name}: g = {g:.6g}, -dl/dyhat = {-fd:.6g}")


LOSS_DERIVATIVE = paper_claim(
    id="EC-loss-derivative",
    source="eq. (2) and App. B (the losses l and the data weights g = -dl/dyhat the flow (12) uses)",
    statement="for every loss (exp, logistic, logistic2, square) the data weight g(y, yhat) the engine uses is "
              "-dl(y, yhat)/dyhat of the loss value l, for y = +-1 and |yhat| <= 3",
    check=loss_derivative_agrees,
    over=st.tuples(st.sampled_from(("exp", "logistic", "logistic2", "square")), st.sampled_from((-1.0, 1.0)),
                   st.floats(-3.0, 3.0, allow_nan=False)),
    tags=("pointwise", "engine"),
)
