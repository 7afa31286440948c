"""Claim sheet 000, PL-LA4 (Lemma A.4: balancedness a_j^2 = ||w_j||^2 and sign preservation along GF, numeric
checks (a)-(c)) and PL-X8 (the neuron groups are fixed by the initial signs), with the planted counterexample
PC4 (unbalanced init: a flips sign) and the controls PC1, PC2 (balance kept without OS), PC4 (the invariant
a^2 - ||w||^2 kept for any init) and PC15 (leaky ReLU).

Every check reads the sampled states (measures.samples); errors come from measures.state_tolerance (the
engine's tolerance is relative to each neuron's size ||(w_j, a_j)||).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.model.init import Initialization
from verify.scenarios import Scenario
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import measures as M
from properties.phuong_lampert2021 import scenarios as SC
from properties.phuong_lampert2021._shared import paper_claim, worst

SUP_LOSS_DERIVATIVE = {"logistic": 1.0, "logistic2": 2.0, "poly": 2.0}  # B = sup_u |l_i'(u)| (H-LGEN: l' bounded)
GF_HORIZON = 100.0


def neuron_sizes(smp: M.Samples) -> np.ndarray:
    """N_j(t) = max_{s <= t} ||(w_j(s), a_j(s))||, shape (k, p): the scale of the engine's per-neuron error control
    (errors committed while a neuron was large persist after it shrinks, so the running maximum)."""
    return np.maximum.accumulate(np.sqrt(np.sum(smp.W**2, axis=2) + smp.a**2), axis=0)


@measures("-max over t, j of |c_j(t) - c_j(0)| / N_j(t)^2, c_j = a_j^2 - ||w_j||^2 (relative to neuron size^2)")
def balance_drift(run: Any) -> Margin:
    """max_{t,j} |c_j(t) - c_j(0)| / N_j(t)^2, c_j = a_j^2 - ||w_j||^2 (exactly constant under GF for any init and
    any Clarke selection), N_j the running neuron size; error 4 x the state tolerance (c is quadratic in the state)."""
    smp = M.samples(run)
    c = smp.a**2 - np.sum(smp.W**2, axis=2)
    drift = np.abs(c - c[0][None]) / neuron_sizes(smp) ** 2
    k, j = np.unravel_index(int(np.argmax(drift)), drift.shape)
    return Margin(-float(drift[k, j]), 4.0 * M.state_tolerance(run),
                  f"max relative drift of a^2 - ||w||^2: {drift[k, j]:.3g} (neuron {j}, t = {smp.t[k]:.4g})",
                  site={"t": float(smp.t[k]), "j": int(j)})


LA4_GF = paper_claim(
    id="PL-LA4-GF",
    node="LA4", uses=("LA3",),
    source="Lemma A.4, proof (d a_j^2/dt = d ||w_j||^2/dt) (PL-LA4 check (a))",
    statement="a_j(t)^2 - ||w_j(t)||^2 is constant along gradient flow (0 under the balanced init), relative drift at "
              "integrator level (rtol 1e-11)",
    check=balance_drift,
    over=SC.os_scenarios(),
    horizon=GF_HORIZON,
    rtol=1e-11,
    form="cartesian",
    assumptions=("H-OS (by construction)", "balanced init", "H-CE"),
)


@measures("min over t, j of s_j a_j(t) / N_j(t), N_j the running neuron size (dimensionless; > 0 holds)")
def signs_kept(run: Any) -> Margin:
    """min_{t,j} s_j a_j(t) / N_j(t) > 0 with s_j = sign(a_j(0)) and N_j the running neuron size (1/sqrt 2 under
    balance while the neuron grows); error: the state tolerance (relative to the neuron's size)."""
    smp = M.samples(run)
    ratio = smp.s[None] * smp.a / neuron_sizes(smp)
    k, j = np.unravel_index(int(np.argmin(ratio)), ratio.shape)
    return Margin(float(ratio[k, j]), M.state_tolerance(run),
                  f"min s_j a_j / N_j = {ratio[k, j]:.3g} (neuron {j}, t = {smp.t[k]:.4g}, a_j(0) = {smp.a[0, j]:.3g})",
                  site={"t": float(smp.t[k]), "j": int(j)})


LA4_SIGNS = paper_claim(
    id="PL-LA4-signs",
    node="LA4", uses=("LA3", "BAL"),
    source="Lemma A.4, eq. (57) (PL-LA4 check (b))",
    statement="sign(a_j(t)) = sign(a_j(0)) for all t and j under the balanced init (a_j = sign(a_j(0)) ||w_j||)",
    check=signs_kept,
    over=SC.os_scenarios(),
    horizon=GF_HORIZON,
    form="cartesian",
    assumptions=("H-OS (by construction)", "balanced init", "H-CE"),
)


@measures("1 - max over t, j of |log|a_j(t)/a_j(0)|| / (t B sum_i ||x_i||): relative to the bound")
def growth_bound(run: Any) -> Margin:
    """|log|a_j(t)| - log|a_j(0)|| <= t B sum_i ||x_i|| for t > 0 (B = sup|l'|, 1 for CE); ratio = the largest
    measured / bound; margin min (bound - measured) / bound, error tol N_j / |a_j| / bound at the worst sample."""
    B = SUP_LOSS_DERIVATIVE.get(run.field.loss.name)
    if B is None:
        return Margin(0.0, 0.0, f"loss {run.field.loss.name!r} has no bounded derivative (Lemma A.4 needs one)", vacuous=True)
    smp = M.samples(run)
    later = smp.t > 0.0
    t, a, size = smp.t[later], smp.a[later], neuron_sizes(smp)[later]
    measured = np.abs(np.log(np.abs(a)) - np.log(np.abs(smp.a[0]))[None])
    bound = (t * B * float(np.sum(np.linalg.norm(run.X, axis=1))))[:, None]
    ratio = measured / bound
    k, j = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
    tol = M.state_tolerance(run)
    return Margin(float(1.0 - ratio[k, j]), float(tol * size[k, j] / abs(a[k, j]) / bound[k, 0]),
                  f"|log|a_j(t)/a_j(0)|| = {measured[k, j]:.4g} vs t B sum||x_i|| = {bound[k, 0]:.4g} "
                  f"(neuron {j}, t = {t[k]:.4g})", ratio=float(ratio[k, j]), site={"t": float(t[k]), "j": int(j)})


LA4_GROWTH = paper_claim(
    id="PL-LA4-growth",
    node="LA4", uses=("LA3", "BAL"),
    source="Lemma A.4, proof (|d a_j^2/dt| <= 2nBV a_j^2; sheet 8 erratum: 2nBV, not nBV) (PL-LA4 check (c))",
    statement="|log|a_j(t)| - log|a_j(0)|| <= t sup|l'| sum_i ||x_i|| (sup|l'| = 1 for CE), so a_j never reaches 0 "
              "in finite time; slack reported as measured / bound",
    check=growth_bound,
    over=SC.os_scenarios(lambdas=(1e-1, 1e-2, 1e-3)),
    horizon=20.0,
    form="cartesian",
    assumptions=("H-OS (by construction)", "balanced init", "H-CE (sup|l'| = 1)"),
)


@measures("min over grouped neurons j of s_j a_j(T) / N_j(T) at the last sample (dimensionless; > 0 holds)")
def groups_follow_signs(run: Any) -> Margin:
    """J+ subset of {a_j(0) > 0} and J- subset of {a_j(0) < 0} for the groups at the last sample: each grouped
    neuron j (group g_j = sign a_j(T)) has s_j a_j(T) / ||(w_j, a_j)|| > 0; error the state tolerance."""
    smp = M.samples(run)
    sp, sm = M.extremal_sectors(run.X, run.y)
    grp = M.groups(run.X, smp.W[-1], smp.a[-1], sp, sm)
    grouped = np.flatnonzero((grp == 1) | (grp == -1))
    if grouped.size == 0:
        return Margin(0.0, 0.0, "no neuron in J+ or J- at the end of the run", vacuous=True)
    size = neuron_sizes(smp)[-1]
    tol = M.state_tolerance(run)
    parts = [Margin(float(smp.s[j] * smp.a[-1, j] / size[j]), tol,
                    f"neuron {j} in J{'+' if grp[j] > 0 else '-'} with a_j(0) = {smp.a[0, j]:.3g}, a_j(T) = {smp.a[-1, j]:.3g}",
                    site={"t": float(smp.t[-1]), "j": int(j)})
             for j in grouped]
    return worst(parts)


X8 = paper_claim(
    id="PL-X8",
    node="X8", uses=("LA4", "BAL"),
    source="PL-X8 (derived: groups are fixed by sign, from Lemma A.4)",
    statement="At the end of the run, every neuron of J+ (a_j > 0, w_j in S_sigma+) had a_j(0) > 0 and every neuron "
              "of J- had a_j(0) < 0",
    check=groups_follow_signs,
    over=SC.os_scenarios(),
    horizon=GF_HORIZON,
    form="cartesian",
    assumptions=("H-OS (by construction)", "balanced init", "H-CE"),
)


# --- planted PC4 (unbalanced init) and the controls ----------------------------------------------------------

def _small_os() -> Dataset:
    """A small OS dataset for PC4 besides the fixture (d = 2, every cross product < 0)."""
    return Dataset([[1.0, 0.2], [0.3, 1.0], [-1.0, -0.1], [-0.2, -1.0]], [1, 1, -1, -1], name="pl_pc4_small")


def pc4_scenario(ds: Dataset, k: int, a0: float) -> Scenario:
    """Sheet 5.6 PC4: one neuron with a(0) = +a0 and w(0) = 1e-2 x^_k for the negative example k, so |a(0)| < ||w(0)||
    and (OS) the neuron is active on negatives only, da/dt < 0; base (W0, v0) = (w(0) / a0, 1), ln eps = ln a0."""
    x = ds.X[k] / np.linalg.norm(ds.X[k])
    init = Initialization((1e-2 / a0) * x[None], np.array([1.0]), math.log(a0), "unbalanced")
    return Scenario(ds, init, SC.CE, 0.0, {"data": ds.name, "negative": k, "a0": a0, "w0_norm": 1e-2,
                                            "construction": "sheet 000 5.6 PC4"})


@st.composite
def pc4_scenarios(draw: st.DrawFn) -> Scenario:
    """:func:`pc4_scenario` on the fixture or a small OS set, any negative example, a0 in {1e-3, 2e-3}."""
    ds = draw(st.sampled_from((D.fixture, _small_os)))()
    k = int(draw(st.sampled_from(np.flatnonzero(ds.y < 0).tolist())))
    return pc4_scenario(ds, k, draw(st.sampled_from((1e-3, 2e-3))))


PC4_SIGNS = paper_claim(
    id="PC4-LA4-signs",
    node="LA4", uses=("LA3", "BAL"),
    source="sheet 5.6 PC4 (unbalanced init; breaks Lemma A.4's sign preservation)",
    statement="PLANTED: with a(0) = +1e-3 and w(0) = 1e-2 x^_neg (|a(0)| < ||w(0)||, active on negatives only) "
              "sign(a(t)) = sign(a(0)) fails: a crosses 0",
    check=signs_kept,
    over=pc4_scenarios(),
    horizon=5.0,
    expected=Verdict.REFUTED,
    assumptions=("H-OS (by construction)", "drops balanced init (|a(0)| < ||w(0)||)"),
    tags=("planted",),
)

PC4_X8 = paper_claim(
    id="PC4-X8",
    node="X8", uses=("LA4", "BAL"),
    source="sheet 5.6 PC4 (unbalanced init; breaks PL-X8)",
    statement="PLANTED: without balance the PC4 neuron (a(0) > 0) ends in J- (a < 0, w in S_sigma-), so J- is not "
              "inside {a_j(0) < 0}",
    check=groups_follow_signs,
    over=pc4_scenarios(),
    horizon=20.0,
    expected=Verdict.REFUTED,
    assumptions=("H-OS (by construction)", "drops balanced init (|a(0)| < ||w(0)||)"),
    tags=("planted",),
)

PC4_INVARIANT = paper_claim(
    id="PC4-LA4-invariant",
    node="LA4", uses=("LA3",),
    source="sheet 5.6 PC4 (control: a_j^2 - ||w_j||^2 = const holds for any init, Lemma A.4 proof)",
    statement="With the unbalanced PC4 init, a^2 - ||w||^2 stays at its initial value (< 0) while a changes sign",
    check=balance_drift,
    over=pc4_scenarios(),
    horizon=20.0,
    rtol=1e-11,
    assumptions=("H-OS (by construction)", "drops balanced init"),
    tags=("control",),
)

PC1_BALANCE = paper_claim(
    id="PC1-LA4-GF",
    node="LA4", uses=("LA3",),
    source="sheet 5.6 PC1 (control: Lemma A.4 needs no OS)",
    statement="On PC1 (within-class obtuse pair, not OS) a_j^2 - ||w_j||^2 = 0 still holds along GF",
    check=balance_drift,
    over=SC.fixed_data_scenarios(D.pc1),
    horizon=10.0,
    rtol=1e-11,
    form="cartesian",
    assumptions=("drops H-OS (within-class obtuse pair)", "balanced init", "H-CE"),
    tags=("control",),
)

PC2_BALANCE = paper_claim(
    id="PC2-LA4-GF",
    node="LA4", uses=("LA3",),
    source="sheet 5.6 PC2 (control: Lemma A.4 needs no OS, also while neurons slide)",
    statement="On PC2 (cross-class acute pair, not OS, Filippov sliding) a_j^2 - ||w_j||^2 = 0 still holds along GF",
    check=balance_drift,
    over=SC.fixed_data_scenarios(D.pc2),
    horizon=10.0,
    rtol=1e-11,
    form="cartesian",
    assumptions=("drops H-OS (cross-class acute pair)", "balanced init", "H-CE"),
    tags=("control",),
)

PC2_SIGNS = paper_claim(
    id="PC2-LA4-signs",
    node="LA4", uses=("LA3", "BAL"),
    source="sheet 5.6 PC2 (control: sign preservation needs no OS)",
    statement="On PC2 (not OS, sliding) sign(a_j(t)) = sign(a_j(0)) still holds under the balanced init",
    check=signs_kept,
    over=SC.fixed_data_scenarios(D.pc2),
    horizon=10.0,
    form="cartesian",
    assumptions=("drops H-OS (cross-class acute pair)", "balanced init", "H-CE"),
    tags=("control",),
)

PC15_BALANCE = paper_claim(
    id="PC15-LA4-GF",
    node="LA4", uses=("LA3",),
    source="sheet 5.6 PC15 (control: leaky ReLU keeps balancedness, phi(z) = z phi'(z))",
    statement="Leaky ReLU (alpha = 0.3) on OS data: a_j^2 - ||w_j||^2 = 0 still holds along GF",
    check=balance_drift,
    over=SC.os_scenarios(alpha=0.3),
    horizon=20.0,
    rtol=1e-11,
    form="cartesian",
    assumptions=("H-OS (by construction)", "balanced init", "leaky slope alpha = 0.3"),
    tags=("control",),
)
