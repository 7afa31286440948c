"""Claim sheet 003, Theorem 5.5 (C-T5.5; sheet E4), read with :mod:`.late_phase`'s helpers (the envelope trend over
[1e4, 1e12] split at 1e8, the integrator gate, the Lyu-Li certificate): two balanced neurons of opposite signs with
<w1, w*> > 0 > <w2, w*>, any scale (no small init): theta/||theta|| -> (1/2)(w*, -w*, 1, -1) (erratum S-3: printed
1/4), the sign conditions persist (a DERIVED expectation); planted: the same on the non-symmetric D-S (S-10), and an
unbalanced start (hypothesis dropped).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.margins import max_margin
from verify.model.init import Initialization
from verify.scenarios import SEEDS, Scenario
from verify.verdicts import Verdict

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import network as N
from properties.lyu2021_margin import quantities as Q
from properties.lyu2021_margin._shared import ALPHA, LOSS, paper_claim, worst
from properties.lyu2021_margin.flows import direction_distance, two_group_direction
from properties.lyu2021_margin.late_phase import (C_GLOBAL, LATE, SAFETY, TREND, beyond, envelope, gate, margin_ratio,
                                                  ratio_error, read, series)

SCALES = (0.01, 0.1, 0.3, 1.0, 3.0)  # sheet C-T5.5: "various scales (0.01 to 3)"


def symmetric_data(draw: st.DrawFn) -> Dataset:
    """D-SYM or random symmetric separable data (n/2 in 3..5, d in 2..3)."""
    if draw(st.booleans()):
        return D.d_sym()
    return D.random_symmetric(draw(st.integers(3, 5)), draw(st.integers(2, 3)), seed=draw(SEEDS))


def two_neuron_scenario(ds: Dataset, scale: float, seed: int) -> Scenario:
    """T5.5's start: unit w_k from a seeded Gaussian, w1 = P w + (|<w, w*>| + 0.05) w* and w2 likewise with -w* (P the
    projection orthogonal to w*; so <w1, w*> > 0 > <w2, w*>), a = (||w1||, -||w2||), ||theta0|| = scale."""
    w_star = np.asarray(max_margin(ds).svm.direction, float)
    G = np.random.default_rng(seed).standard_normal((2, ds.d))
    G /= np.linalg.norm(G, axis=1, keepdims=True)
    along = G @ w_star
    W = G - np.outer(along, w_star) + np.outer(np.array([1.0, -1.0]) * (np.abs(along) + 0.05), w_star)
    a = np.array([1.0, -1.0]) * np.linalg.norm(W, axis=1)
    norm = math.sqrt(N.norm_sq(W, a))
    return Scenario(ds, Initialization(W / norm, a / norm, math.log(scale), "balanced"), LOSS, ALPHA,
                    {"data": ds.name, "init": "two neurons", "m": 2, "scale": scale, "init_seed": seed})


def unbalanced_scenario(ds: Dataset, scale: float = 0.1) -> Scenario:
    """T5.5's sign conditions without balance: w1 = 0.01 w* + u = -w2 with u the unit vector of -(mu - <mu, w*> w*),
    a = 0.05 (||w1||, -||w2||). Then <w1, w*> > 0 > <w2, w*> but <w1, mu> < 0 when ||mu_perp|| > 0.01 <w*, mu>, so
    near 0 da1/dt ~ <w1, mu~> < 0 (eq. (3)) drives a1 through 0."""
    w_star = np.asarray(max_margin(ds).svm.direction, float)
    mu = Q.mean_signed(ds.X, ds.y)
    u = -(mu - (mu @ w_star) * w_star)
    w1 = 0.01 * w_star + u / np.linalg.norm(u)
    W, a = np.vstack([w1, -w1]), 0.05 * np.linalg.norm(w1) * np.array([1.0, -1.0])
    norm = math.sqrt(N.norm_sq(W, a))
    return Scenario(ds, Initialization(W / norm, a / norm, math.log(scale), "given"), LOSS, ALPHA,
                    {"data": ds.name, "init": "two neurons, unbalanced", "m": 2, "scale": scale})


@st.composite
def two_neuron_scenarios(draw: st.DrawFn) -> Scenario:
    """:func:`two_neuron_scenario` on symmetric data, scale in SCALES, a seeded direction."""
    return two_neuron_scenario(symmetric_data(draw), draw(st.sampled_from(SCALES)), draw(SEEDS))


@measures("early minus late window max of ||theta-bar - (1/2)(w*, -w*, 1, -1)|| and |1 - gamma/(C gamma_lin)|")
def two_neuron_limit(run: Any) -> Margin:
    """T5.5: ||theta/||theta|| - (1/2)(w*, -w*, 1, -1)|| (error 2 SAFETY tol: a normalised state) and |1 - gamma/(C
    gamma_lin)| shrink in envelope; gamma~ > C gamma_lin (Lyu-Li) rules the limit out (S-10's certificate). A run
    still near 0 at t = 1e4 (n L >= ln 2: the scale too small for the horizon, sheet C-T5.5) is vacuous, not a failure."""
    blocked = gate(run)
    if blocked is not None:
        return blocked
    lt = read(run)
    start = int(np.argmax(lt.early))
    if len(lt.y) * N.mean_loss(lt.X, lt.y, lt.W[start], lt.a[start], ALPHA) >= math.log(2.0):
        return Margin(0.0, 0.0, f"n L >= ln 2 at t = {lt.t[start]:.3g}: still near the origin (scale "
                                f"{run.scenario.params.get('scale')}), inconclusive at this horizon", vacuous=True)
    over = beyond(lt, C_GLOBAL * lt.gamma_lin, "gamma((1/2)(w*, -w*, 1, -1)) = C gamma_lin")
    if over is not None:
        return over
    target = two_group_direction(lt.w_star)
    dist = series(lt, lambda W, a: direction_distance(W, a, target))
    ratio = margin_ratio(lt)
    parts = [envelope(dist, lt, 2.0 * SAFETY * lt.tol, "||theta-bar - (1/2)(w*, -w*, 1, -1)||"),
             envelope(np.abs(1.0 - ratio), lt, ratio_error(lt), "|1 - gamma/(C gamma_lin)|")]
    out = worst(parts)
    return Margin(out.value, out.error, f"{parts[0].note}; {parts[1].note}; at t = {lt.t[-1]:.3g}: distance "
                                        f"{dist[-1]:.4g}, gamma/(C gamma_lin) = {ratio[-1]:.4f}", ratio=out.ratio)


T55_LIMIT = paper_claim(
    id="LY-T55-direction",
    node="T55", uses=("T42", "BAL"),
    source="Theorem 5.5 with the limit (1/2)(w*, -w*, 1, -1) (erratum S-3; C-T5.5 check, sheet E4)",
    statement="Two neurons, a1 = ||w1||, a2 = -||w2||, <w1, w*> > 0 > <w2, w*>, ||theta0|| in {0.01, 0.1, 0.3, 1, 3}, "
              "symmetric data: ||theta/||theta|| - (1/2)(w*, -w*, 1, -1)|| and |1 - gamma/(C gamma_lin)| shrink over "
              "[1e4, 1e12]",
    check=two_neuron_limit,
    over=two_neuron_scenarios(),
    **LATE,
    assumptions=("A3.2 (by construction)", "A4.1 (by construction)", "balanced, opposite signs (by construction)",
                 "leaky", "integrator gate (C-S6-bal)") + TREND,
    assumed=("A4.5, A4.6 implicit in the paper's Section 5 (sheet C-T5.5 [RECON])",),
)

S10_T55 = paper_claim(
    id="S10-T55-DS",
    node="T55", uses=("T42",),
    source="sheet S-10 / C-T5.5 planted failure (non-symmetric D-S)",
    statement="PLANTED: on the non-symmetric D-S the same start ends beyond the linear margin C gamma_lin = 0.0928 "
              "(gamma~(1e12) = 0.097-0.100 at scales 1, 3; distance ~0.25): not (1/2)(w*, -w*, 1, -1) (expected "
              "REFUTED; A4.1 violated)",
    check=two_neuron_limit,
    over=st.builds(lambda scale, seed: two_neuron_scenario(D.d_s(), scale, seed), st.sampled_from((1.0, 3.0)),
                   st.integers(0, 3)),
    **LATE,
    expected=Verdict.REFUTED,
    assumptions=("A3.2", "balanced, opposite signs", "leaky", "drops A4.1 (D-S)"),
    tags=("planted",),
)


@measures("min over samples of a1/S1, -a2/S2, cos(w1, w*), -cos(w2, w*) (dimensionless)")
def two_neuron_signs(run: Any) -> Margin:
    """T5.5's conditions persist (sheet: a DERIVED expectation): a1 > 0 > a2 and <w1, w*> > 0 > <w2, w*> at every
    sample, as min of a1/S1, -a2/S2, cos(w1, w*), -cos(w2, w*) (S_k = ||(w_k, a_k)||; error SAFETY tol); balancedness
    a_k^2 = ||w_k||^2 is the integrator gate (exact conservation of a_k^2 - ||w_k||^2)."""
    blocked = gate(run)
    if blocked is not None:
        return blocked
    lt = read(run)
    norms = np.linalg.norm(lt.W, axis=2)
    size = np.sqrt(norms**2 + lt.a**2)
    cos = (lt.W @ lt.w_star) / norms
    cols = np.column_stack([lt.a[:, 0] / size[:, 0], -lt.a[:, 1] / size[:, 1], cos[:, 0], -cos[:, 1]])
    k, j = np.unravel_index(int(np.argmin(cols)), cols.shape)
    names = ("a1 / S1", "-a2 / S2", "cos(w1, w*)", "-cos(w2, w*)")
    return Margin(float(cols[k, j]), SAFETY * lt.tol, f"min {names[j]} = {cols[k, j]:.4g} at t = {lt.t[k]:.3g}; mins "
                                                      f"{np.round(np.min(cols, axis=0), 4).tolist()}",
                  site={"t": float(lt.t[k]), "j": int(j % 2)})


T55_SIGNS = paper_claim(
    id="LY-T55-signs",
    node="T55", uses=("BAL",),
    source="Theorem 5.5's hypotheses along the flow (C-T5.5: 'balancedness is exact, <w1, w*> > 0 should persist', "
           "DERIVED expectation)",
    statement="Along GF from Theorem 5.5's start, a1 = ||w1|| > 0 > a2 = -||w2|| and <w1, w*> > 0 > <w2, w*> hold at "
              "every sample to t = 1e12",
    check=two_neuron_signs,
    over=two_neuron_scenarios(),
    **LATE,
    assumptions=("A3.2 (by construction)", "A4.1 (by construction)", "balanced, opposite signs (by construction)",
                 "leaky", "integrator gate (C-S6-bal)"),
)

T55_UNBALANCED = paper_claim(
    id="LY-T55-signs-unbalanced",
    node="T55", uses=("BAL",),
    source="Theorem 5.5 with its balancedness hypothesis dropped (planted)",
    statement="PLANTED: from a1 = 0.05 ||w1||, a2 = -0.05 ||w2|| with <w1, mu> < 0 (|a_k| < ||w_k||, so a_k may cross "
              "0) at scale 0.1, the signs are not kept: the neurons swap roles (expected REFUTED; hypothesis "
              "'balanced' violated)",
    check=two_neuron_signs,
    over=st.sampled_from([unbalanced_scenario(D.random_symmetric(n_half, d, seed=seed))
                          for n_half, d, seed in ((4, 2, 22), (4, 3, 31), (5, 2, 80))]),
    **LATE,
    expected=Verdict.REFUTED,
    assumptions=("A3.2", "A4.1", "opposite signs", "leaky", "drops balancedness"),
    tags=("planted",),
)
