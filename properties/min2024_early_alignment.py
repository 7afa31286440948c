"""Seed 004: Min, Mallada & Vidal, "Early Neuron Alignment in Two-layer ReLU Networks with Small
Initialization" (ICLR 2024), encoded from claim sheet 004 (ids EA-..., planted cases P1-P14).

Every claim returns a signed margin (>= 0 holds) with its error estimate; planted claims drop
one hypothesis and are expected to be REFUTED.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from verify.claims.direct import symbolic_claim
from verify.claims.model import Claim, Margin
from verify.model.losses import get_loss
from verify.scenarios import scenario
from verify.symbolic.catalogue import SYMBOLIC_CLAIMS
from verify.verdicts import Verdict

SEED = "004"
BALANCE_TOL = 1e-9  # sheet 3.5: relative drift of exact identities under GF at rtol <= 1e-10


def _balancedness(run) -> np.ndarray:
    """c_j(t) = v_j(t)^2 - ||w_j(t)||^2 and the per-neuron scale max(v^2, ||w||^2), shape (k, h)."""
    v2 = run.v**2
    w2 = np.sum(run.W**2, axis=2)
    return v2 - w2, np.maximum(v2, w2)


def balancedness_conserved(run) -> Margin:
    """EA-A1: max_t max_j |c_j(t) - c_j(0)| / scale <= tolerance (exactly 0 under GF)."""
    c, scale = _balancedness(run)
    c0 = run.v0**2 - np.sum(run.W0**2, axis=1)
    drift = np.max(np.abs(c - c0[None]) / np.maximum(scale, np.maximum(np.abs(c0), 1e-300)[None]))
    return Margin(-float(drift), BALANCE_TOL, f"relative drift {drift:.3g}")


def balanced_stays_zero(run) -> Margin:
    """P2 negative control: c_j(t) = 0 (fails for unbalanced init, where c_j is conserved but != 0)."""
    c, scale = _balancedness(run)
    worst = float(np.max(np.abs(c) / np.maximum(scale, 1e-300)))
    return Margin(-worst, BALANCE_TOL, f"max relative |v^2 - ||w||^2| = {worst:.3g}")


def signs_preserved(run) -> Margin:
    """EA-A2: min_t s_j v_j(t) / |v_j(0)| > 0."""
    s = np.sign(run.v0)
    ratio = float(np.min(s[None] * run.v / np.abs(run.v0)[None]))
    return Margin(ratio if ratio > 0 else min(ratio, -1e-300), 0.0, f"min s_j v_j(t)/|v_j(0)| = {ratio:.3g}")


def lemma2_margin(loss_name: str):
    """EA-B1 (Lemma 2, R1): 2|yhat| - |g(y, yhat) - y| >= 0 for y in {-1, +1}, |yhat| <= 1."""
    loss = get_loss(loss_name)

    def check(point: tuple[float, float]) -> Margin:
        y, yhat = point
        lhs = abs(float(loss.g_minus_y(y, yhat)))
        return Margin(2.0 * abs(yhat) - lhs, 4e-16 * max(1.0, lhs), f"|g - y| = {lhs:.6g} at y = {y}, yhat = {yhat}")

    return check


LABELS = st.sampled_from([1.0, -1.0])
UNIT_OUTPUTS = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)

A1 = Claim(
    id="EA-A1",
    source=f"{SEED} Sec. 2.1 (balancedness, citing Du et al. 2018)",
    statement="v_j(t)^2 - ||w_j(t)||^2 = v_j(0)^2 - ||w_j(0)||^2 for all t, j (= 0 under balanced init (3))",
    check=balancedness_conserved,
    over=scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-4, 1e-1)),
    horizon=20.0,
    form="cartesian",
    assumptions=("Assumption 1 (by construction)", "balanced init (3)"),
    assumed=("Caratheodory solution with sigma'(0) = 0",),
)

A1_UNBALANCED = Claim(
    id="EA-A1-unbalanced",
    source=f"{SEED} Sec. 2.1 [DER: any init]",
    statement="d/dt (v_j^2 - ||w_j||^2) = 0 for any init (conserved but nonzero when unbalanced)",
    check=balancedness_conserved,
    over=scenario(init="unbalanced", n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-3, 1e-1)),
    horizon=20.0,
    form="cartesian",
    assumptions=("unbalanced Gaussian init",),
)

P2_BALANCED = Claim(
    id="P2-balanced-zero",
    source=f"{SEED} sheet P2 (unbalanced init; negative control of EA-A1)",
    statement="PLANTED: v_j(t)^2 - ||w_j(t)||^2 = 0 without the balanced init -- must be refuted",
    check=balanced_stays_zero,
    over=scenario(init="unbalanced", n=(2, 4), d=(2, 3), h=(1, 3), eps=(1e-2, 1e-1)),
    horizon=1.0,
    form="cartesian",
    expected=Verdict.REFUTED,
    assumptions=("unbalanced init (drops eq. (3))",),
)

A2 = Claim(
    id="EA-A2",
    source=f"{SEED} Sec. 2.1 (sign preservation, citing Boursier et al. 2022)",
    statement="sign(v_j(t)) = sign(v_j(0)) for all t, j under balanced init",
    check=signs_preserved,
    over=scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-4, 1e-1)),
    horizon=20.0,
    form="cartesian",
    assumptions=("balanced init (3)",),
)

B1_EXP = Claim(
    id="EA-B1-exp",
    source=f"{SEED} Lemma 2 (exp loss)",
    statement="|-l'(y, yhat) - y| <= 2|yhat| for y in {-1, +1}, |yhat| <= 1, l = exp(-y yhat)",
    check=lemma2_margin("exp"),
    over=st.tuples(LABELS, UNIT_OUTPUTS),
)

B1_LOGISTIC2 = Claim(
    id="EA-B1-logistic2",
    source=f"{SEED} Lemma 2 (2 x logistic loss, App. B)",
    statement="|-l'(y, yhat) - y| <= 2|yhat| for |yhat| <= 1, l = 2 log(1 + exp(-y yhat))",
    check=lemma2_margin("logistic2"),
    over=st.tuples(LABELS, UNIT_OUTPUTS),
)

P8_LEMMA2 = Claim(
    id="P8-lemma2-plain-logistic",
    source=f"{SEED} Lemma 2 with the main-text logistic (sheet P8, erratum 4)",
    statement="PLANTED: |-l'(y, yhat) - y| <= 2|yhat| for l = log(1 + exp(-y yhat)) -- fails at yhat = 0",
    check=lemma2_margin("logistic"),
    over=st.tuples(LABELS, UNIT_OUTPUTS),
    expected=Verdict.REFUTED,
)

CLAIMS: list[Claim] = [A1, A1_UNBALANCED, P2_BALANCED, A2, B1_EXP, B1_LOGISTIC2, P8_LEMMA2]

# SECTIONS A-D (continued below)


SYMBOLIC: list[Claim] = [symbolic_claim(spec) for spec in SYMBOLIC_CLAIMS]
CLAIMS += SYMBOLIC
# =============================================================================================
# Sections 2.A-2.D of sheet 004: invariants and sign structure (A3-A6), loss lemmas (B2-B4),
# small-initialisation lemmas (C1-C3), static conic geometry (D1-D7), with the planted cases of
# sheet section 5 that belong to them and the negative controls the sheet says must still hold.
# Shared measurements live in verify.claims.patterns.
# =============================================================================================

import math  # noqa: E402
from dataclasses import dataclass, field as dc_field  # noqa: E402
from typing import Any  # noqa: E402

from verify import geometry  # noqa: E402
from verify.claims import patterns as pat  # noqa: E402
from verify.data import generators as gen  # noqa: E402
from verify.data.dataset import Dataset  # noqa: E402
from verify.dynamics.field import NetworkField  # noqa: E402
from verify.model.init import Initialization  # noqa: E402
from verify.scenarios import SEEDS, Scenario, datasets  # noqa: E402

U_ROUND = pat.UNIT_ROUNDOFF
STRICT_TINY = -1e-300  # margin of a strict inequality whose exact value is 0


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

    @property
    def field(self) -> NetworkField:
        return NetworkField.from_dataset(self.dataset, self.loss, self.alpha)

    @property
    def s(self) -> np.ndarray:
        return np.sign(self.v)

    def to_dict(self) -> dict[str, Any]:
        out = {"X": self.dataset.X.tolist(), "y": self.dataset.y.tolist(), "W": self.W.tolist(), "v": self.v.tolist(),
               "loss": self.loss, "alpha": self.alpha, "params": dict(self.params)}
        if self.r is not None:
            out["r"] = self.r.tolist()
            out["U"] = self.U.tolist()
        return out


def polar_state(ds: Dataset, r: np.ndarray, U: np.ndarray, s: np.ndarray, loss: str, alpha: float, params: dict) -> State:
    """A balanced State from its polar form: w_j = e^{r_j} u_j, v_j = s_j e^{r_j}."""
    U = U / np.linalg.norm(U, axis=1, keepdims=True)
    e = np.exp(r)
    return State(ds, e[:, None] * U, s * e, loss, alpha, np.asarray(r, float), U, params)


@st.composite
def states(draw: st.DrawFn, n: tuple[int, int] = (2, 6), d: tuple[int, int] = (2, 3), h: tuple[int, int] = (1, 5),
           losses: tuple[str, ...] = ("exp", "logistic2"), alphas: tuple[float, ...] = (0.0,), balanced: tuple[bool, ...] = (True, False),
           scale_decades: tuple[int, int] = (-2, 0), f_decades: tuple[int, int] | None = None) -> State:
    """Random states on Assumption-1 data: directions, norms and signs from one seed.

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


# ---------------------------------------------------------------------------------- EA-A3


def eq46_margin(strict_everywhere: bool = False):
    """EA-A3, eq. (46): q_ij = y_i s_j <x_i, F_{w_j}> > 0 if n_a(w_j) >= 1, and = 0 if n_a(w_j) = 0.

    Margin: min_ij q_ij / Q_ij with Q_ij = |v_j| sum_k S_kj |g_k| ||x_i|| ||x_k|| (so it lies in
    [-1, 1]); float error 4 n u (u the unit roundoff). Strict: a float value within the error
    of 0 is decided by the exact rational sign of y_i sum_k S_kj g_k <x_i, x_k> (the formula on
    the computed g), and an exact value <= 0 gives a negative margin with error 0. Dead neurons
    (no active point, alpha = 0) must have q = 0 exactly. ``strict_everywhere``: leaky control
    (P5), every neuron counts as live.
    """

    def check(state: State) -> Margin:
        fo = state.field
        W, v = state.W, state.v
        P = fo.X @ W.T
        S = fo.mode(P)
        q = pat.flow_inner_products(fo, W, v, S)
        Q = pat.flow_inner_product_scale(fo, W, v, S)
        live = np.ones(W.shape[0], bool) if strict_everywhere else np.any(P > 0.0, axis=0)
        if np.any(q[:, ~live] != 0.0):
            return Margin(-float(np.max(np.abs(q[:, ~live]))), 0.0, "a dead neuron has a nonzero flow component")
        if not live.any():
            return Margin(0.0, 0.0, "every neuron dead: q = 0 exactly", vacuous=True)
        ratio = q[:, live] / Q[:, live]
        err = 4.0 * fo.n * U_ROUND
        value = float(ratio.min())
        note = f"min q_ij/Q_ij = {value:.3g} over {int(live.sum())} live neuron(s)"
        if value <= err:
            g = fo.loss.g(fo.y, (P * S) @ v)
            for jj, j in enumerate(np.flatnonzero(live)):
                if ratio[:, jj].min() > err:
                    continue
                signs_exact = pat.exact_signed_gram_signs(fo.X, fo.y, S[:, j] * g * fo.y)
                if np.any(signs_exact <= 0):
                    i = int(np.flatnonzero(signs_exact <= 0)[0])
                    return Margin(min(float(ratio[i, jj]), STRICT_TINY), 0.0 if ratio[i, jj] > -err else err,
                                  f"exact sign of q_{i}{j} is {int(signs_exact[i])} (neuron active on some point); {note}")
            value = max(value, 0.0)
        return Margin(value, err, note)

    return check


@st.composite
def p1a_states(draw: st.DrawFn) -> State:
    """Sheet P1(a): x1 = (1, 0), x2 = (-1.5, 3) (both +1); a V+ neuron near (0.05, 1) activating both."""
    ds = gen.planted_p1a()
    theta = math.atan2(1.0, 0.05) + 0.01 * draw(st.integers(min_value=-3, max_value=3))
    k = draw(st.integers(min_value=-3, max_value=0))
    r = np.array([k * math.log(10.0)])
    U = np.array([[math.cos(theta), math.sin(theta)]])
    return polar_state(ds, r, U, np.array([1.0]), "exp", 0.0, {"data": "planted_p1a", "theta": theta, "scale_decade": k})


@st.composite
def p10_states(draw: st.DrawFn) -> State:
    """Sheet P10: toy4(a) and one V+ neuron near x+ = (2 cos a, 0), norm c with c^2 cos(a) > 1 (overshoot), l2 loss."""
    a = draw(st.sampled_from([0.2, 0.3, 0.4]))
    c = draw(st.sampled_from([1.5, 2.0, 3.0]))
    phi = 0.02 * draw(st.integers(min_value=-3, max_value=3))
    U = np.array([[math.cos(phi), math.sin(phi)]])
    return polar_state(gen.toy4(a), np.array([math.log(c)]), U, np.array([1.0]), "square", 0.0, {"data": "toy4", "a": a, "c": c, "phi": phi})


A3 = Claim(
    id="EA-A3",
    source=f"{SEED} eq. (46), App. E.2/E.5 (reading R21)",
    statement="y_i sign(v_j) <x_i, F_{w_j}(W, v)> > 0 whenever w_j is not in S_dead, = 0 when it is (F = -grad, any (W, v))",
    check=eq46_margin(),
    over=states(),
    assumptions=("Assumption 1 (by construction)", "exp or 2x logistic loss (g_k y_k > 0)"),
    assumed=("sigma'(0) = 0",),
    tags=("pointwise",),
)

P1A_A3 = Claim(
    id="P1a-A3-same-label-obtuse",
    source=f"{SEED} sheet P1(a) (Assumption 1 false; breaks eq. (46))",
    statement="PLANTED: eq. (46) on x1 = (1,0), x2 = (-1.5,3) (both +1, mu < 0): y_1 <x1, w_dot> < 0 for a neuron active on both",
    check=eq46_margin(),
    over=p1a_states(),
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1 (same-label obtuse pair)",),
    tags=("pointwise", "planted"),
)

P10_A3 = Claim(
    id="P10-A3-square-overshoot",
    source=f"{SEED} sheet P10 (l2 loss after overshoot; Remark 4 scope)",
    statement="PLANTED: eq. (46) under l2 loss once y_i f(x_i) > 1 (g_i y_i < 0): the S+ neuron is repelled by its points",
    check=eq46_margin(),
    over=p10_states(),
    expected=Verdict.REFUTED,
    assumptions=("l2 loss with y f > 1 (drops g_k y_k > 0)",),
    tags=("pointwise", "planted"),
)

P5_A3 = Claim(
    id="P5-A3-leaky-strictly-positive",
    source=f"{SEED} sheet P5 (negative control: (46) under leaky ReLU)",
    statement="Leaky ReLU, alpha in (0, 1]: y_i sign(v_j) <x_i, F_{w_j}> > 0 for EVERY neuron, dead-pattern ones included",
    check=eq46_margin(strict_everywhere=True),
    over=states(alphas=(0.1, 0.5, 1.0)),
    assumptions=("Assumption 1", "leaky slope alpha > 0"),
    tags=("pointwise", "control"),
)
