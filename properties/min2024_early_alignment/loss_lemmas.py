"""Claim sheet 004, section 2.B (loss-function lemmas): EA-B1 Lemma 2, EA-B2 eq. (40), EA-B3 Lemma 15 and
EA-B4 the E.5 growth bound, with the main-text logistic loss of sheet P8 / erratum 4 as planted
counterexamples.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.model.losses import get_loss
from verify.scenarios import scenario
from verify.strategies import State, as_state, states
from verify.verdicts import Verdict

from properties.min2024_early_alignment._shared import U_ROUND, paper_claim


def lemma2_margin(loss_name: str):
    """EA-B1 (Lemma 2, R1): 2|yhat| - |g(y, yhat) - y| >= 0 for y in {-1, +1}, |yhat| <= 1."""
    loss = get_loss(loss_name)

    @measures("2|yhat| - |g(y, yhat) - y| (absolute, in output units)")
    def check(point: tuple[float, float]) -> Margin:
        y, yhat = point
        lhs = abs(float(loss.g_minus_y(y, yhat)))
        return Margin(2.0 * abs(yhat) - lhs, 4e-16 * max(1.0, lhs), f"|g - y| = {lhs:.6g} at y = {y}, yhat = {yhat}",
                      ratio=lhs / (2.0 * abs(yhat)) if yhat != 0.0 else None)

    return check


LABELS = st.sampled_from([1.0, -1.0])

UNIT_OUTPUTS = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)

B1_EXP = paper_claim(
    id="EA-B1-exp",
    node="L2",
    source="Lemma 2 (exp loss)",
    statement="|-l'(y, yhat) - y| <= 2|yhat| for y in {-1, +1}, |yhat| <= 1, l = exp(-y yhat)",
    check=lemma2_margin("exp"),
    over=st.tuples(LABELS, UNIT_OUTPUTS),
)

B1_LOGISTIC2 = paper_claim(
    id="EA-B1-logistic2",
    node="L2",
    source="Lemma 2 (2 x logistic loss, App. B)",
    statement="|-l'(y, yhat) - y| <= 2|yhat| for |yhat| <= 1, l = 2 log(1 + exp(-y yhat))",
    check=lemma2_margin("logistic2"),
    over=st.tuples(LABELS, UNIT_OUTPUTS),
)

P8_LEMMA2 = paper_claim(
    id="P8-lemma2-plain-logistic",
    node="L2",
    source="Lemma 2 with the main-text logistic (sheet P8, erratum 4)",
    statement="PLANTED: |-l'(y, yhat) - y| <= 2|yhat| for l = log(1 + exp(-y yhat)) -- fails at yhat = 0",
    check=lemma2_margin("logistic"),
    over=st.tuples(LABELS, UNIT_OUTPUTS),
    expected=Verdict.REFUTED,
)


@measures("min(y g - 1/2, 3/2 - y g): distance of y g inside [1/2, 3/2] (absolute, dimensionless)")
def eq40_margin(point: tuple[str, float, float]) -> Margin:
    """EA-B2 (eq. (40)): |yhat| <= 1/4 implies 1/2 <= y g(y, yhat) <= 3/2 (g = -l'); margin min(yg - 1/2, 3/2 - yg), error 4u;
    slack max(yg / (3/2), (1/2) / yg) (None where yg <= 0: no finite ratio, the margin reports it)."""
    loss_name, y, yhat = point
    yg = float(y * get_loss(loss_name).g(y, yhat))
    ratio = max(yg / 1.5, 0.5 / yg) if yg > 0.0 else None
    note = f"y g = {yg:.6g} at y = {y}, yhat = {yhat} ({loss_name})" + (f"; measured / bound = {ratio:.3g}" if ratio is not None else "")
    return Margin(min(yg - 0.5, 1.5 - yg), 4.0 * U_ROUND * max(1.0, abs(yg)), note, ratio=ratio)


QUARTER_OUTPUTS = st.floats(min_value=-0.25, max_value=0.25, allow_nan=False)

B2 = paper_claim(
    id="EA-B2",
    node="E40", uses=("L2",),
    source="eq. (40), App. D.2 (from Lemma 2)",
    statement="If |f(x_i)| <= 1/4 then 1/2 <= y_i g_i <= 3/2 (g_i = -l'(y_i, f(x_i))), for exp and 2x logistic",
    check=eq40_margin,
    over=st.tuples(st.sampled_from(["exp", "logistic2"]), LABELS, QUARTER_OUTPUTS),
    tags=("pointwise",),
)

P8_B2 = paper_claim(
    id="P8-B2-plain-logistic",
    node="E40", uses=("L2",),
    source="eq. (40) with the main-text logistic (sheet P8, erratum 4)",
    statement="PLANTED: 1/2 <= y g <= 3/2 on |yhat| <= 1/4 for l = log(1 + exp(-y yhat)) -- y g = 1/(1 + e^{y yhat}) < 1/2 for y yhat > 0",
    check=eq40_margin,
    over=st.tuples(st.just("logistic"), LABELS, QUARTER_OUTPUTS),
    expected=Verdict.REFUTED,
    tags=("pointwise", "planted"),
)


@measures("min over samples of (||F||^2 - ||v||^2 L^2 gamma^2 / 4) / ||F||^2 (relative to ||F||^2)")
def lemma15_margin(run) -> Margin:
    """EA-B3 (Lemma 15, (31)): along GF of a linear two-layer network (alpha = 1), at every sample with
    y_i f(x_i) > 0 for all i: -L_dot = ||F||^2 >= (1/4) ||v||^2 L^2 gamma^2.

    gamma = min_i y_i <z, x_i> for the witness z = x_0/||x_0|| (the generator's support vector
    along the teacher). Margin min_t (||F||^2 - (1/4)||v||^2 L^2 gamma^2)/||F||^2: the
    inequality is pointwise in the state, so only float error counts (16 n u). Vacuous when no
    sample has all margins positive. Slack max_t (1/4)||v||^2 L^2 gamma^2 / ||F||^2 (samples with F = 0 skipped).
    """
    fo = run.field
    X, y = fo.X, fo.y
    z = y[0] * X[0] / np.linalg.norm(X[0])
    gamma = float(np.min(y * (X @ z)))
    if gamma <= 0.0:
        return Margin(0.0, 0.0, "witness has no positive margin", vacuous=True)
    worst, count, ratio = np.inf, 0, None
    for W, v in zip(run.W, run.v):
        S = np.ones((fo.n, W.shape[0]))
        f = (X @ W.T) @ v
        if np.any(y * f <= 0.0):
            continue
        count += 1
        Wdot, vdot = fo.cartesian(W, v, S)
        F2 = float(np.sum(Wdot**2) + np.sum(vdot**2))
        L = fo.loss.total(y, f)
        rhs = 0.25 * float(v @ v) * L * L * gamma * gamma
        worst = min(worst, (F2 - rhs) / F2 if F2 > 0.0 else (0.0 if rhs == 0.0 else -1.0))
        if F2 > 0.0:
            ratio = max(ratio or 0.0, rhs / F2)
    if count == 0:
        return Margin(0.0, 0.0, "no sample with all margins y_i f(x_i) > 0", vacuous=True)
    note = f"{count} sample(s) with positive margins; min relative slack {worst:.3g}; gamma {gamma:.3g}"
    if ratio is not None:
        note += f"; bound / ||F||^2 = {ratio:.3g}"
    return Margin(float(worst), 16.0 * fo.n * U_ROUND, note, ratio=ratio)


B3 = paper_claim(
    id="EA-B3",
    node="L15", uses=("L2",),
    source="Lemma 15 (eq. (31)), App. D.2",
    statement="GF on a linear two-layer network, data separable with margin gamma: while all y_i f(x_i) > 0, "
              "L_dot <= -(1/4) ||v||^2 L^2 gamma^2",
    check=lemma15_margin,
    over=st.one_of(
        scenario(data="linearly_separable", n=(2, 6), d=(2, 3), h=(1, 4), eps=(1e-2, 1e-1), loss="exp", alpha=1.0),
        scenario(data="linearly_separable", n=(2, 6), d=(2, 3), h=(1, 4), eps=(1e-2, 1e-1), loss="logistic2", alpha=1.0),
    ),
    horizon=30.0,
    form="cartesian",
    assumptions=("linear network (leaky slope alpha = 1)", "data linearly separable through 0 (generator witness)", "exp or 2x logistic loss"),
)


@measures("(X_max L ||theta|| - ||grad L||) / (X_max L ||theta||), relative to the bound (dimensionless)")
def e5_growth_margin(state: State) -> Margin:
    """EA-B4 (App. E.5, (50)): ||grad L(theta)||_F <= X_max L(theta) ||theta||_F at any theta = (W, v).

    Margin (X_max L ||theta|| - ||F||) / (X_max L ||theta||), F the field in the current mode;
    float error 16 n u.
    """
    state = as_state(state)
    fo = state.field
    W, v = state.W, state.v
    S = fo.mode(fo.X @ W.T)
    Wdot, vdot = fo.cartesian(W, v, S)
    grad = math.sqrt(float(np.sum(Wdot**2) + np.sum(vdot**2)))
    L = fo.loss.total(fo.y, fo.outputs(W, v, S))
    theta = math.sqrt(float(np.sum(W**2) + np.sum(v**2)))
    bound = float(np.max(fo.norms)) * L * theta
    return Margin((bound - grad) / bound, 16.0 * fo.n * U_ROUND, f"||grad|| = {grad:.6g} vs X_max L ||theta|| = {bound:.6g}",
                  ratio=grad / bound)


B4 = paper_claim(
    id="EA-B4",
    node="EXIST", uses=("A1",),
    source="App. E.5, eq. (50) (reading R22)",
    statement="||grad L(theta)||_F <= X_max L(theta) ||theta||_F for every theta (balanced or not), exp and 2x logistic",
    check=e5_growth_margin,
    over=states(scale_decades=(-2, 0)),
    assumptions=("exp or 2x logistic loss (|l'| <= l)",),
    tags=("pointwise",),
)
