"""Claim sheet 000, exact finite-time facts of the flow read from the sampled states: PL-X1 (cone property and
monotone margins), PL-X2 (one sign change per (neuron, example), in the monotone direction; the event log agrees
with the states), Lemma B.1 (PL-LB1), Lemma 3 (PL-L3) and PL-X7 (loss non-increasing); planted PC1, PC2 (not OS),
PC4 (unbalanced), PC9 (square loss); controls PC2 (X7, the log under sliding), PC8 (exp loss), PC12 (exact zero
sector entries), PC15 (leaky ReLU).

q_jk(t) = s_j y_k w_j(t)^T x_k with s_j = sign(a_j(0)); values are divided by N_j ||x_k||, N_j the running neuron
size (lemma_a4.neuron_sizes), so their error is the state tolerance (measures.state_tolerance).
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import numpy as np
from hypothesis import strategies as st
from scipy.optimize import nnls

from verify.claims.model import Margin, measures
from verify.model.init import Initialization
from verify.scenarios import SEEDS, Scenario
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import measures as M
from properties.phuong_lampert2021 import scenarios as SC
from properties.phuong_lampert2021._shared import U_ROUND, paper_claim, worst
from properties.phuong_lampert2021.lemma_a4 import neuron_sizes, pc4_scenarios

NNLS_RTOL = 1e-12  # NNLS residual of a point inside the cone, relative to the neuron size
OS_HORIZON = 20.0
LOG_HORIZON = 100.0  # geometric samples from 1e-3; the mp reruns of orthant data cost ~3 s to t = 100, ~10 s to 1e3
DENSE = 200  # samples of the crossing claims (X2, B.1, L3)
OS_CASES = st.one_of(st.just(SC.fixture_scenario()), SC.os_scenarios())
OS_HYP = ("H-OS (by construction)", "balanced init", "H-CE")

os_claim = partial(paper_claim, over=OS_CASES, assumptions=OS_HYP, horizon=OS_HORIZON, samples=DENSE)
log_claim = partial(paper_claim, horizon=LOG_HORIZON, samples=120, spacing="log")
planted = partial(paper_claim, expected=Verdict.REFUTED, tags=("planted",))


def normalised_products(run: Any, smp: M.Samples) -> np.ndarray:
    """z[k, j, i] = w_j(t_k)^T x_i / (N_j(t_k) ||x_i||)."""
    scale = neuron_sizes(smp)[:, :, None] * np.linalg.norm(run.X, axis=1)[None, None, :]
    return np.einsum("kjd,id->kji", smp.W, run.X) / scale


@measures("min over samples, j, k of the increment of s_j y_k w_j^T x_k / (N_j ||x_k||) (dimensionless)")
def monotone_increments(run: Any) -> Margin:
    """PL-X1: min over consecutive samples and pairs of (q_jk(t_{m+1}) - q_jk(t_m)) / (N_j(t_{m+1}) ||x_k||) >= 0;
    error twice the state tolerance (one per endpoint)."""
    smp = M.samples(run)
    q = np.einsum("kjd,id->kji", smp.W, run.X) * smp.s[None, :, None] * run.y[None, None, :]
    inc = (q[1:] - q[:-1]) / (neuron_sizes(smp)[1:, :, None] * np.linalg.norm(run.X, axis=1)[None, None, :])
    m, j, i = np.unravel_index(int(np.argmin(inc)), inc.shape)
    return Margin(float(inc[m, j, i]), 2.0 * M.state_tolerance(run), f"min increment of s_j y_k w_j^T x_k / (N_j ||x_k||): "
                  f"{inc[m, j, i]:.3g} (neuron {j}, example {i}, t = {smp.t[m]:.4g} -> {smp.t[m + 1]:.4g})",
                  site={"t": float(smp.t[m + 1]), "j": int(j), "i": int(i)})


def _worst_nnls(run: Any, smp: M.Samples, pairs: Any, what: str) -> Margin:
    """-max over (j, k, step, columns) in ``pairs`` of the NNLS residual of step on s_j [y_i x_i]_columns / N_j(t_k)."""
    A = (run.y[:, None] * run.X).T
    size = neuron_sizes(smp)
    worst_res, where, site = 0.0, "no displacement", None
    for j, k, step, cols, label in pairs:
        res = (nnls(smp.s[j] * A[:, cols], step)[1] if cols.any() else float(np.linalg.norm(step))) / size[k, j]
        if res > worst_res:
            worst_res, where, site = res, f"neuron {j}, {label}", {"t": float(smp.t[k]), "j": int(j)}
    return Margin(-worst_res, M.state_tolerance(run) + NNLS_RTOL, f"max NNLS residual of {what} / N_j: {worst_res:.3g} ({where})",
                  site=site)


@measures("-max NNLS residual of w_j(t) - w_j(0) on s_j cone{y_i x_i}, over N_j (relative to neuron size)")
def cone_residual(run: Any) -> Margin:
    """PL-X1 (any data): w_j(t) - w_j(0) in s_j cone{y_i x_i} while sign(a_j) = s_j; error tol + NNLS_RTOL."""
    smp = M.samples(run)
    every = np.ones(run.X.shape[0], bool)
    pairs = ((j, k, smp.W[k, j] - smp.W[0, j], every, f"t = {smp.t[k]:.4g}")
             for j in range(smp.W.shape[1]) for k in range(1, smp.t.size))
    return _worst_nnls(run, smp, pairs, "w_j(t) - w_j(0) on s_j cone{y_i x_i}")


def active_cone_residual(run: Any) -> Margin:
    """PL-X1 with active sets (sheet 1.4: dw_j/dt = a_j sum_{i active} c_i y_i x_i): on OS data pairs move monotonically,
    so the examples active on [t_m, t_{m+1}] are those active (or within the state error of the surface) at either end,
    and w_j(t_{m+1}) - w_j(t_m) lies in s_j cone{y_i x_i : i active} (leaky ReLU: every i). A mode the engine failed to
    switch leaves this cone."""
    smp = M.samples(run)
    band = M.state_tolerance(run) * neuron_sizes(smp)[:, :, None] * np.linalg.norm(run.X, axis=1)[None, None, :]
    active = (np.einsum("kjd,id->kji", smp.W, run.X) > -band) | (run.field.alpha > 0.0)
    pairs = ((j, k, smp.W[k, j] - smp.W[k - 1, j], active[k - 1, j] | active[k, j],
              f"t = {smp.t[k - 1]:.4g} -> {smp.t[k]:.4g}, active {np.flatnonzero(active[k - 1, j] | active[k, j]).tolist()}")
             for j in range(smp.W.shape[1]) for k in range(1, smp.t.size))
    return _worst_nnls(run, smp, pairs, "w_j(t_m+1) - w_j(t_m) on s_j cone{y_i x_i : i active}")


@measures("worst of the monotone increment and the two cone NNLS residuals, each over N_j (dimensionless)")
def cone_property(run: Any) -> Margin:
    """PL-X1: monotone increments, cone membership of w_j(t) - w_j(0), and of each step on its active examples."""
    return worst([monotone_increments(run), cone_residual(run), active_cone_residual(run)])


X1 = log_claim(
    id="PL-X1",
    node="X1", uses=("OS", "LA4"),
    source="PL-X1 (derived from the proof of Lemma B.1: cone property, monotone margins)",
    statement="On OS data s_j y_k w_j(t)^T x_k is non-decreasing in t for every neuron j and example k, and w_j(t) - "
              "w_j(0) lies in s_j cone{y_i x_i}, each step in the cone of its active examples (sampled states)",
    check=cone_property,
    over=OS_CASES,
    assumptions=OS_HYP,
)


@measures("min over pairs of max(-earlier max, current) of s_j y_k w_j^T x_k / (N_j ||x_k||) (< 0: a reversal)")
def sign_reversals(run: Any, same_class_only: bool = False) -> Margin:
    """No sign change against the monotone direction: with r = s_j y_k z_jk, min_k max(-max_{m<k} r_m, r_k) >= 0 (it is
    < 0 iff some r_m > 0 is followed by an r_k < 0); ``same_class_only``: pairs with s_j = y_k. Error: state tolerance."""
    smp = M.samples(run)
    r = smp.s[None, :, None] * run.y[None, None, :] * normalised_products(run, smp)
    if same_class_only:
        keep = smp.s[:, None] * run.y[None, :] > 0
        if not keep.any():
            return Margin(0.0, 0.0, "no neuron-example pair of the neuron's own class", vacuous=True)
        r = np.where(keep[None], r, np.inf)
    prior = np.maximum.accumulate(r, axis=0)[:-1]
    value = np.maximum(-prior, r[1:])
    m, j, i = np.unravel_index(int(np.argmin(value)), value.shape)
    return Margin(float(value[m, j, i]), M.state_tolerance(run), f"pair (neuron {j}, example {i}): s_j y_k w^T x_k / "
                  f"(N ||x||) was {prior[m, j, i]:.3g} before t = {smp.t[m + 1]:.4g}, then {r[m + 1, j, i]:.3g}",
                  site={"t": float(smp.t[m + 1]), "j": int(j), "i": int(i)})


X2 = os_claim(
    id="PL-X2",
    node="X2", uses=("X1",),
    source="PL-X2 (derived: no Zeno behaviour on OS data)",
    statement="On OS data each (neuron, example) sign of w_j^T x_k changes at most once, only from s_j y_k w^T x_k <= 0 "
              "to > 0, judged from densely sampled states",
    check=sign_reversals,
)

LOGGED_SIDE = {"activate": 1, "deactivate": -1, "sliding": 0}  # sliding_exit: its direction; grazing, dead: no change


@measures("-1 per wrong or second logged crossing (exact), else min +-w^T x / (N ||x||) against the log")
def event_log_agreement(run: Any, os_data: bool = True) -> Margin:
    """The log replayed against the states: after the events up to t_k a pair logged active needs z > 0, inactive
    z <= 0, sliding z = 0 (margins z, -z, -|z|, error the state tolerance; pairs on the surface at t = 0 start inactive,
    as in the engine); ``os_data``: also at most one crossing per pair, in the direction of s_j y_k (margin -1, error 0)."""
    smp = M.samples(run)
    z = normalised_products(run, smp)
    side = np.where(np.array([M.pattern(run.X, w) for w in smp.W[0]]) > 0, 1, -1)  # (p, n)
    crossings = np.zeros_like(side)
    events = sorted(run.events, key=lambda e: e.t)
    parts: list[Margin] = []
    e = 0
    for k in range(1, smp.t.size):
        while e < len(events) and events[e].t <= smp.t[k]:
            ev, e = events[e], e + 1
            if ev.kind in LOGGED_SIDE or ev.kind == "sliding_exit":
                side[ev.j, ev.i] = LOGGED_SIDE.get(ev.kind, ev.direction)
            if os_data and ev.kind in ("activate", "deactivate"):
                crossings[ev.j, ev.i] += 1
                wrong = smp.s[ev.j] * run.y[ev.i] * ev.direction < 0
                if wrong or crossings[ev.j, ev.i] > 1:
                    parts.append(Margin(-1.0, 0.0, f"logged {ev.kind} of (neuron {ev.j}, example {ev.i}) at t = {ev.t:.6g}: "
                                                   f"{'against the monotone direction' if wrong else 'a second crossing'}",
                                        site={"t": float(ev.t), "j": int(ev.j), "i": int(ev.i)}))
        value = np.where(side > 0, z[k], np.where(side < 0, -z[k], -np.abs(z[k])))
        j, i = np.unravel_index(int(np.argmin(value)), value.shape)
        parts.append(Margin(float(value[j, i]), M.state_tolerance(run), f"t = {smp.t[k]:.4g}: (neuron {j}, example {i}) "
                            f"logged {['inactive', 'sliding', 'active'][side[j, i] + 1]}, state w^T x / (N ||x||) = {z[k, j, i]:.3g}",
                            site={"t": float(smp.t[k]), "j": int(j), "i": int(i)}))
    return worst(parts)


X2_LOG = os_claim(
    id="PL-X2-log",
    node="X2", uses=("X1",),
    source="PL-X2 (derived) / sheet 6 (events on every w_j^T x_k): the event log read against the states",
    statement="On OS data the engine's event log agrees with the sampled states (no missed or invented crossing) and "
              "logs at most one crossing per (neuron, example), in the monotone direction",
    check=event_log_agreement,
)


@measures("min over own-class pairs of max(-earlier max, current) of s_j y_k w_j^T x_k / (N_j ||x_k||)")
def positive_activations_kept(run: Any) -> Margin:
    """Lemma B.1: once a_j > 0 and w_j^T x_k > 0 for a positive k (a_j < 0, negative k), it stays > 0."""
    return sign_reversals(run, same_class_only=True)


LB1 = os_claim(
    id="PL-LB1",
    node="LB1", uses=("OS", "LA4", "X1"),
    source="Lemma B.1 (PL-LB1)",
    statement="If a_j(T) > 0 and w_j(T)^T x_k > 0 for a positive example k, then w_j(t)^T x_k > 0 for all t >= T; "
              "likewise for a_j(T) < 0 and a negative k (sampled states)",
    check=positive_activations_kept,
)


@measures("min after entry of sigma_k w_j^T x_k / (N_j ||x_k||) (-|.| on zero entries); -1 if it slides off")
def extremal_sector_kept(run: Any) -> Margin:
    """Lemma 3: after the first sample where neuron j is in its extremal sector sigma (a_j > 0 and sigma+, a_j < 0 and
    sigma-; sigma+- = sign(X m+-), measures.groups), every later sample has sigma_k z_jk > 0 where sigma_k != 0 and
    -|z_jk| at round-off level where sigma_k = 0 (error: the state tolerance); exits onto the boundary: _boundary_slides."""
    smp = M.samples(run)
    sp, sm = M.extremal_sectors(run.X, run.y)
    zs, tol = normalised_products(run, smp), M.state_tolerance(run)
    parts = []
    for j in range(smp.W.shape[1]):
        entered = [k for k in range(smp.t.size) if M.groups(run.X, smp.W[k, j:j + 1], smp.a[k, j:j + 1], sp, sm)[0] in (1, -1)]
        if not entered:
            continue
        k0 = entered[0]
        sigma, z = (sp if smp.a[k0, j] > 0 else sm), zs[k0:, j]
        value = np.where(sigma[None, :] != 0, sigma[None, :] * z, -np.abs(z))
        m, i = np.unravel_index(int(np.argmin(value)), value.shape)
        where = f"neuron {j} entered sigma{'+' if smp.a[k0, j] > 0 else '-'} = {sigma.tolist()} at t = {smp.t[k0]:.4g}"
        parts.append(Margin(float(value[m, i]), tol, f"{where}; at t = {smp.t[k0 + m]:.4g} example {i}: w^T x / (N ||x||) = {z[m, i]:.3g}",
                            site={"t": float(smp.t[k0 + m]), "j": j, "i": int(i)}))
        parts += _boundary_slides(run, smp.t[k0:], z, sigma, j, tol, where)
    return worst(parts, "no neuron entered its extremal sector within the horizon")


def _boundary_slides(run: Any, t: np.ndarray, z: np.ndarray, sigma: np.ndarray, j: int, tol: float, where: str) -> list[Margin]:
    """Exits of S_sigma onto its boundary: a Filippov sliding mode logged on (example i, neuron j) with sigma_i != 0 after
    the entry, every state sampled in it on the surface (|z| <= tol: the log agrees with the states). States alone cannot
    tell w^T x_i = 0 from a small positive value; the engines' sliding classification (float64, and mp for a REFUTED
    verdict) can: margin -1, error 0."""
    out = []
    events = sorted((e for e in run.events if e.j == j and e.t > t[0]), key=lambda e: e.t)
    for e in (e for e in events if e.kind == "sliding" and sigma[e.i] != 0):
        leave = next((f.t for f in events if f.i == e.i and f.t > e.t and f.kind != "sliding"), math.inf)
        inside = (t > e.t) & (t < leave)
        if inside.any() and np.all(np.abs(z[inside, e.i]) <= tol):
            out.append(Margin(-1.0, 0.0, f"{where}; from t = {e.t:.6g} (example {e.i}, sigma = {sigma[e.i]}) it slides on "
                                         f"w^T x = 0 ({int(inside.sum())} samples with |w^T x| / (N ||x||) <= {tol:.2g})",
                              site={"t": float(e.t), "j": int(j), "i": int(e.i)}))
    return out


L3 = os_claim(
    id="PL-L3",
    node="L3", uses=("OS", "LA3", "LA4", "X1"),
    source="Lemma 3 (PL-L3)",
    statement="Once a neuron is in its extremal sector (a_j > 0 and w_j in S_sigma+, or a_j < 0 and S_sigma-) its "
              "activation pattern stays constant (sampled states)",
    check=extremal_sector_kept,
)


@measures("min over consecutive samples of log l(t_m) - log l(t_m+1) (natural-log units)")
def loss_decreasing(run: Any) -> Margin:
    """PL-X7: min_m (log l(t_m) - log l(t_{m+1})) >= 0; error the first-order state error
    tol sum_i |l_i'| ||x_i|| sum_j N_j^2 / l at both ends, plus 16 n u."""
    smp = M.samples(run)
    X, y, loss = run.X, run.y, run.field.loss
    tol, size2, xn = M.state_tolerance(run), neuron_sizes(smp) ** 2, np.linalg.norm(X, axis=1)
    logl = np.array([M.log_loss(X, y, smp.W[k], smp.a[k], loss) for k in range(smp.t.size)])
    g = np.array([loss.g(y, np.maximum(X @ smp.W[k].T, 0.0) @ smp.a[k]) for k in range(smp.t.size)])
    err = tol * (np.abs(g) @ xn) * np.sum(size2, axis=1) / np.exp(logl)
    drop = logl[:-1] - logl[1:]
    m = int(np.argmin(drop))
    return Margin(float(drop[m]), float(np.max(err[:-1] + err[1:])) + 16.0 * X.shape[0] * U_ROUND,
                  f"log l from {logl[m]:.12g} to {logl[m + 1]:.12g} (t = {smp.t[m]:.4g} -> {smp.t[m + 1]:.4g})")


X7 = log_claim(
    id="PL-X7",
    node="X7", uses=("LA3",),
    source="PL-X7 (derived from Lemma A.3: dl/dt = -||dtheta/dt||^2)",
    statement="The loss l(theta(t)) is non-increasing along gradient flow (sampled states)",
    check=loss_decreasing,
    over=OS_CASES,
    assumptions=OS_HYP,
)


# --- planted counterexamples (not OS, unbalanced, square loss) and controls ---------------------------------------

def _unit(deg: float) -> list[float]:
    return [math.cos(math.radians(deg)), math.sin(math.radians(deg))]


def pc1_rescue_scenario(lam: float, theta_a: int, theta_b: int) -> Scenario:
    """PC1 with lambda_j <= lambda (sheet 1.5): a positive neuron at theta_a deg of norm lambda fits u(0) first; one at
    theta_b deg (active on u(0) and u(120)) of norm lambda / 10 is then pulled to u(120) and loses u(0); a negative
    neuron at 230 deg."""
    W0 = np.array([_unit(theta_a), [0.1 * c for c in _unit(theta_b)], _unit(230)])
    init = Initialization(W0, np.array([1.0, 0.1, -1.0]), math.log(lam), "balanced")
    return Scenario(D.pc1(), init, SC.CE, 0.0, {"data": "pl_pc1", "lambda": lam, "theta_A": theta_a, "theta_B": theta_b,
                                               "construction": "PC1, lambda_B = lambda / 10"})


@st.composite
def pc1_rescue_scenarios(draw: st.DrawFn) -> Scenario:
    """:func:`pc1_rescue_scenario` with lambda in {0.1, 0.01}, theta_a in [-10, 10], theta_b in [55, 85] deg."""
    return pc1_rescue_scenario(draw(st.sampled_from((1e-1, 1e-2))), draw(st.integers(-10, 10)), draw(st.integers(55, 85)))


@st.composite
def pc2_b1_scenarios(draw: st.DrawFn) -> Scenario:
    """PC2: a positive neuron at theta in [158, 169] deg, active on the positive u(80) and on both negatives, which push
    it past 170 deg (orthogonal to u(80)); plus a positive neuron at 30 deg and a negative one at 150 deg."""
    theta = draw(st.integers(158, 169))
    return SC.pl_scenario(D.pc2(), [_unit(theta), _unit(30), _unit(150)], [1.0, 1.0, -1.0], draw(st.sampled_from(SC.LAMBDAS)),
                          theta=theta, construction="PC2, a positive neuron near 160 deg")


@st.composite
def pc12_scenarios(draw: st.DrawFn) -> Scenario:
    """PC12 (sigma+ = (1, 1, 0, -1)): positive neurons (cos phi, sin phi, 0), phi in [-40, 85] deg, inside S_sigma+ with
    w^T x_3 = 0 exactly (x_3 = (0, 0, -1)), and one Gaussian negative neuron."""
    phis = draw(st.lists(st.integers(-40, 85), min_size=1, max_size=3))
    dirs = [[math.cos(math.radians(f)), math.sin(math.radians(f)), 0.0] for f in phis]
    dirs.append(np.random.default_rng(draw(SEEDS)).standard_normal(3).tolist())
    return SC.pl_scenario(D.pc12(), dirs, [1.0] * len(phis) + [-1.0], draw(st.sampled_from(SC.LAMBDAS)), phis=phis,
                          construction="PC12, positive neurons on the zero set of x_3")


PC1_X1 = planted(
    id="PC1-X1",
    node="X1", uses=("OS", "LA4"),
    source="sheet 5.6 PC1 (within-class obtuse pair, not OS; breaks PL-X1, observed min increment -0.39)",
    statement="PLANTED: on PC1 (+ at 0 and 120 deg) s_j y_k w_j^T x_k is not monotone: a positive neuron active on u(120) "
              "only moves away from u(0)",
    check=monotone_increments,
    over=SC.fixed_data_scenarios(D.pc1),
    horizon=10.0, samples=DENSE,
    assumptions=("drops H-OS (within-class obtuse pair)", "balanced init", "H-CE"),
)

PC1_LB1 = planted(
    id="PC1-LB1",
    node="LB1", uses=("OS", "LA4", "X1"),
    source="sheet 5.6 PC1 (within-class obtuse pair, not OS; breaks Lemma B.1)",
    statement="PLANTED: on PC1 a positive neuron active on u(0) and u(120) loses u(0) once a larger neuron has fitted u(0)",
    check=positive_activations_kept,
    over=pc1_rescue_scenarios(),
    horizon=20.0, samples=DENSE,
    assumptions=("drops H-OS (within-class obtuse pair)", "balanced init (lambda_j <= lambda)", "H-CE"),
)

PC2_X1 = planted(
    id="PC2-X1",
    node="X1", uses=("OS", "LA4"),
    source="sheet 5.6 PC2 (cross-class acute pair, not OS; breaks PL-X1, observed min increment -0.054)",
    statement="PLANTED: on PC2 (+ at 0 and 80 deg, - at 120 and 135 deg) s_j y_k w_j^T x_k is not monotone",
    check=monotone_increments,
    over=SC.fixed_data_scenarios(D.pc2),
    horizon=10.0, samples=DENSE,
    assumptions=("drops H-OS (cross-class acute pair)", "balanced init", "H-CE"),
)

PC2_LB1 = planted(
    id="PC2-LB1",
    node="LB1", uses=("OS", "LA4", "X1"),
    source="sheet 5.6 PC2 (cross-class acute pair, not OS; breaks Lemma B.1)",
    statement="PLANTED: on PC2 a positive neuron near 160 deg, active on u(80), is pushed past 170 deg by the negatives "
              "and loses u(80)",
    check=positive_activations_kept,
    over=pc2_b1_scenarios(),
    horizon=10.0, samples=DENSE,
    assumptions=("drops H-OS (cross-class acute pair)", "balanced init", "H-CE"),
)

PC2_L3 = planted(
    id="PC2-L3",
    node="L3", uses=("OS", "LA3", "LA4", "X1"),
    source="sheet 5.6 PC2 (cross-class acute pair, not OS; sigma+ = sign(X m+) is not absorbing; Lemma 3)",
    statement="PLANTED: on PC2 a neuron in its sector sign(X m+-) leaves it onto the boundary: positive neurons reach "
              "w^T u(120) = 0, negative ones w^T u(80) = 0, and slide there (Filippov)",
    check=extremal_sector_kept,
    over=SC.fixed_data_scenarios(D.pc2),
    horizon=10.0, samples=DENSE,
    assumptions=("drops H-OS (cross-class acute pair)", "balanced init", "H-CE"),
)

PC4_CONE = planted(
    id="PC4-X1-cone",
    node="X1", uses=("OS", "LA4"),
    source="sheet 5.6 PC4 (unbalanced init; PL-X1 holds only on intervals of constant sign)",
    statement="PLANTED: with the unbalanced PC4 init a flips sign, so w(t) - w(0) leaves sign(a(0)) cone{y_i x_i}",
    check=cone_residual,
    over=pc4_scenarios(),
    horizon=5.0,
    assumptions=("H-OS (by construction)", "drops balanced init (|a(0)| < ||w(0)||)"),
)

PC9_X1 = planted(
    id="PC9-X1",
    node="X1", uses=("OS", "LA4"),
    source="sheet 5.6 PC9 (square loss: -y l' < 0 once y f > 1; breaks PL-X1 after overshoot)",
    statement="PLANTED: with l = (f - y)^2 / 2 on OS data the overshooting examples (y f > 1) repel, and s_j y_k w_j^T x_k "
              "decreases",
    check=monotone_increments,
    over=st.one_of(st.just(SC.fixture_scenario(1e-2, loss="square")), SC.os_scenarios(lambdas=(1e-1, 1e-2), loss="square")),
    horizon=10.0, samples=DENSE,
    assumptions=("H-OS (by construction)", "balanced init", "drops H-LGEN (square loss: -y l' changes sign)"),
)

PC2_X7 = paper_claim(
    id="PC2-X7",
    node="X7", uses=("LA3",),
    source="sheet 5.6 PC2 (control: the loss decreases along GF without OS, also while sliding)",
    statement="On PC2 (not OS, Filippov sliding) the loss is still non-increasing",
    check=loss_decreasing,
    over=SC.fixed_data_scenarios(D.pc2),
    horizon=10.0,
    assumptions=("drops H-OS (cross-class acute pair)", "balanced init", "H-CE"),
    tags=("control",),
)

PC2_LOG = paper_claim(
    id="PC2-X2-log",
    node="X2", uses=("X1",),
    source="sheet 5.6 PC2 / 5.2 (control: the event log, sliding included, agrees with the states without OS)",
    statement="On PC2 (not OS) the event log (crossings, sliding entries and exits) agrees with the sampled states",
    check=partial(event_log_agreement, os_data=False),
    meta={"margin_unit": "min +-w^T x / (N ||x||) of the sampled states against the replayed event log (dimensionless)"},
    over=SC.fixed_data_scenarios(D.pc2),
    horizon=10.0, samples=DENSE,
    assumptions=("drops H-OS (cross-class acute pair)", "balanced init", "H-CE"),
    tags=("control",),
)

PC8_X1 = log_claim(
    id="PC8-X1",
    node="X1", uses=("OS", "LA4"),
    source="sheet 5.6 PC8 (control: exponential loss, l' unbounded; PL-X1 needs only -y l' > 0)",
    statement="With l = exp(-y f) on OS data s_j y_k w_j^T x_k is still non-decreasing, within the (active) cones",
    check=cone_property,
    over=SC.os_scenarios(loss="exp"),
    assumptions=("H-OS (by construction)", "balanced init", "exp loss (drops bounded l')"),
    tags=("control",),
)

PC15_X1 = log_claim(
    id="PC15-X1",
    node="X1", uses=("OS", "LA4"),
    source="sheet 5.6 PC15 (control: leaky ReLU, phi' > 0 keeps PL-X1)",
    statement="Leaky ReLU (alpha = 0.3) on OS data: s_j y_k w_j^T x_k is still non-decreasing, within the cone",
    check=cone_property,
    over=SC.os_scenarios(alpha=0.3),
    assumptions=("H-OS (by construction)", "balanced init", "leaky slope alpha = 0.3"),
    tags=("control",),
)

PC12_L3 = os_claim(
    id="PC12-L3",
    node="L3", uses=("OS", "LA3", "LA4", "X1"),
    source="sheet 5.6 PC12 (control: exactly orthogonal cross pairs; Lemma 3 with zero entries modulo tau)",
    statement="On data with exact zero entries of sigma+- (PC12, sparse integer data) a neuron in its extremal sector "
              "keeps its pattern, zero entries at round-off level",
    check=extremal_sector_kept,
    over=st.one_of(pc12_scenarios(), SC.os_scenarios(families=("sparse",))),
    assumptions=("H-OS with exact zero cross products", "drops H-SPAN", "balanced init", "H-CE"),
    tags=("control",),
)
