"""Claim sheet 004, section 2.H (App. E: existence, no Zeno), first part: EA-H2 finitely many crossings (with the
planted P1-H2: sliding once Assumption 1 fails), EA-H3 Example E.3 with the planted P4 (sigma'(0) > 0), EA-H4 the
regular solution of Example E.4, EA-H1 continuity off A with its planted jump on A (P-H1) and EA-H5 the monotone
loss, (50) along runs.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from properties.min2024_early_alignment import patterns as pat
from properties.min2024_early_alignment import measures as tm
from properties.min2024_early_alignment import datasets as d004
from verify.claims.model import Margin, measures
from verify.data import generators as gen
from verify.model.init import balanced_init
from verify.scenarios import SEEDS, Scenario, scenario
from verify.strategies import as_state, states
from verify.verdicts import Verdict

from properties.min2024_early_alignment._shared import _worst, paper_claim
from properties.min2024_early_alignment.preconditions import _theorem_scale
from properties.min2024_early_alignment.theorem_scale import _scenario, part2_claim


@measures("min(n h - crossings, 1 - max crossings per pair, -sliding events) (exact event counts)")
def crossings_margin(run) -> Margin:
    """EA-H2: no sliding, every (i, j) hyperplane crossed at most once, at most n h crossings in all."""
    ev = run.events
    cross = [e for e in ev if e.kind in ("activate", "deactivate")]
    slide = [e for e in ev if e.kind in ("sliding", "sliding_exit")]
    counts: dict[tuple[int, int], int] = {}
    for e in cross:
        counts[(e.i, e.j)] = counts.get((e.i, e.j), 0) + 1
    nh = run.audit.n * run.init.h
    per_pair = max(counts.values(), default=0)
    value = float(min(nh - len(cross), 1 - per_pair, -len(slide)))
    return Margin(value, 0.0, f"{len(cross)} crossings (n h = {nh}), max per pair {per_pair}, {len(slide)} sliding events")


H2 = paper_claim(
    id="EA-H2",
    node="EXIST", uses=("A1",),
    source="App. E.2 (46), no Zeno",
    statement="under Assumption 1: no sliding, every hyperplane <x_i, w_j> = 0 crossed at most once, at most n h crossings",
    check=crossings_margin,
    over=scenario(n=(2, 6), d=(2, 3), h=(2, 6), eps=(1e-6, 1e-1)),
    horizon=100.0,
    assumptions=("Assumption 1", "balanced init"),
)


@st.composite
def non_assumption1_scenarios(draw: st.DrawFn) -> Scenario:
    """Sheet P1 data (Assumption 1 false): P1(a) (same-label obtuse pair), P1(b) (cross-class acute pair) or near_miss
    data (one cross-class acute pair, mu = -violation), with a balanced Gaussian init of 2-4 neurons at eps = 1e-3."""
    kind = draw(st.sampled_from(["near_miss", "planted_p1a", "planted_p1b"]))
    params: dict = {"data": kind}
    if kind == "near_miss":
        params.update(n_pos=draw(st.integers(1, 3)), n_neg=draw(st.integers(1, 3)), d=draw(st.integers(2, 3)),
                      violation=draw(st.integers(5, 50)) / 100.0, seed=draw(SEEDS))
        ds = gen.near_miss(**{k: v for k, v in params.items() if k != "data"})
    else:
        ds = d004.planted_p1a() if kind == "planted_p1a" else d004.planted_p1b()
    h, init_seed = draw(st.integers(2, 4)), draw(SEEDS)
    init = balanced_init(h, ds.d, log_eps=math.log(1e-3), seed=init_seed)
    return Scenario(ds, init, "exp", 0.0, {**params, "h": h, "init_seed": init_seed, "log_eps": init.log_eps})


P1_H2 = paper_claim(
    id="P1-H2-sliding",
    node="EXIST", uses=("A1",),
    source="sheet P1 (Assumption 1 false; App. E.2's no-Zeno argument rests on (46))",
    statement="PLANTED: without Assumption 1 there is still no sliding and every hyperplane is crossed at most once -- fails: "
              "on P1(a), P1(b) and near-miss data the engine meets sliding modes (a neuron held on a data hyperplane)",
    check=crossings_margin,
    over=non_assumption1_scenarios(),
    horizon=10.0,  # the sliding modes start early (the same examples slide by t = 10 as by t = 100)
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1",),
    tags=("planted",),
)


def e3_field(a: float) -> np.ndarray:
    """Example E.3: x = (1, 0), y = -1, w(0) = (0, 1), v(0) = 1 (balanced), exp loss, sigma'(0) = a: the
    project's vector field with slope a at <x, w> = 0 (the leaky slope acts only on that boundary point here)."""
    from verify.dynamics.field import NetworkField

    fld = NetworkField(np.array([[1.0, 0.0]]), np.array([-1.0]), "exp", float(a))
    W, v = np.array([[0.0, 1.0]]), np.array([1.0])
    Wdot, vdot = fld.cartesian(W, v, fld.mode(fld.X @ W.T))
    return np.concatenate([Wdot[0], vdot])


@measures("-max |F(theta(0)) - (-a, 0, 0)| (absolute, field units)")
def e3_value_margin(a: float) -> Margin:
    """EA-H3: F(theta(0)) = (-a, 0; 0) exactly (nonzero iff a > 0, so no Caratheodory solution for a > 0)."""
    F = e3_field(a)
    dev = float(np.max(np.abs(F - np.array([-a, 0.0, 0.0]))))
    return Margin(-dev, 1e-15, f"a = {a:.6g}: F(theta(0)) = {F.tolist()}")


H3 = paper_claim(
    id="EA-H3",
    node="EXIST", uses=("A1",),
    source="App. E.3 (existence needs sigma'(0) = 0)",
    statement="on Example E.3 (x = (1,0), y = -1, w(0) = (0,1), v(0) = 1, exp loss) the field is F_w(theta(0)) = (-a, 0), F_v = 0 "
              "for sigma'(0) = a in [0, 1]: zero (stationary solution) iff a = 0",
    check=e3_value_margin,
    over=st.one_of(st.just(0.0), st.floats(min_value=0.0, max_value=1.0, allow_nan=False)),
    assumptions=("exp loss",),
)


@measures("-||F(theta(0))|| (absolute, field units; 0 holds)")
def e3_stationary_margin(a: float) -> Margin:
    """P4 (planted): F(theta(0)) = 0, i.e. the stationary solution exists -- true only for a = 0."""
    F = e3_field(a)
    norm = float(np.linalg.norm(F))
    return Margin(-norm, 1e-15, f"a = {a:.6g}: ||F(theta(0))|| = {norm:.6g}; F points into Int S_dead where F = 0, so no "
                                f"Caratheodory continuation exists for a > 0")


P4_E3 = paper_claim(
    id="P4-E3-stationary",
    node="E78", uses=("L5", "L10", "L11", "E28"),
    source="sheet P4 / App. E.3 (sigma'(0) = a > 0)",
    statement="PLANTED: with sigma'(0) = a in (0, 1], Example E.3's initial state is stationary (F(theta(0)) = 0) -- fails: "
              "F_w = (-a, 0) points into Int S_dead, where F = 0, so no Caratheodory solution exists",
    check=e3_stationary_margin,
    over=st.floats(min_value=1e-3, max_value=1.0, allow_nan=False),
    expected=Verdict.REFUTED,
    assumptions=("sigma'(0) = a > 0 (drops the paper's sigma'(0) = 0)",),
)


def e4_scenario() -> Scenario:
    """Example E.4 (P13): x = (1, 0), y = +1, w(0) = (0, 1), v(0) = 1 (on the boundary of S_dead)."""
    from verify.data.dataset import Dataset

    ds = Dataset([[1.0, 0.0]], [1.0], name="example_E4")
    return _scenario(ds, [[0.0, 1.0]], [1.0], 0.0, construction="App. E.4")


@measures("-max change of (ln ||w||, u) from t = 0 over the run (absolute; 0: stationary)")
def regular_solution_margin(run) -> Margin:
    """EA-H4 / P13: on Example E.4 the engine returns the regular (stationary) solution."""
    t, R, U, s = tm.polar_samples(run)
    move = float(max(np.max(np.abs(U - U[0][None])), np.max(np.abs(R - R[0][None]))))
    return Margin(-move, 0.0, f"max |change of (r, u)| = {move:.3g}")


H4 = paper_claim(
    id="EA-H4",
    node="EXIST", uses=("A1",),
    source="App. E.4 / sheet P13 (regular solution)",
    statement="on Example E.4 (x = (1,0), y = +1, w(0) = (0,1), v(0) = 1) the engine returns the regular, stationary solution",
    check=regular_solution_margin,
    over=st.just(e4_scenario()),
    horizon=5.0,
    assumptions=("sigma'(0) = 0",),
)


def _block_field(fo, W: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-neuron blocks (w_j', v_j') of the field in the mode at the state, and block magnitudes
    |v_j| sum_i |g_i| ||x_i|| + sum_i S_ij |g_i| |<w_j, x_i>| (what the block's entries are sums of)."""
    P = fo.X @ W.T
    S = fo.mode(P)
    Wdot, vdot = fo.cartesian(W, v, S)
    g = fo.loss.g(fo.y, (P * S) @ v)
    mag = np.abs(v) * (np.abs(g) @ fo.norms) + (S * np.abs(P)).T @ np.abs(g)
    return np.column_stack([Wdot, vdot]), mag


def segment_limit(fo, W: np.ndarray, v: np.ndarray, D: np.ndarray, dv: np.ndarray, s1: float, shrink: float = 1e-3):
    """Per-neuron discrepancies e_j(s) = ||F_j(theta + s delta) - F_j(theta)||/mag_j at s = s1 and s1 * shrink,
    each F in the engine's own mode at its point (sheet EA-H1). Continuity: e(s1 shrink) ~ shrink e(s1);
    a jump J: e(s) -> J/mag."""
    F0, mag = _block_field(fo, W, v)
    F1, _ = _block_field(fo, W + s1 * D, v + s1 * dv)
    F2, _ = _block_field(fo, W + s1 * shrink * D, v + s1 * shrink * dv)
    mag = np.where(mag > 0.0, mag, 1.0)
    return np.linalg.norm(F1 - F0, axis=1) / mag, np.linalg.norm(F2 - F0, axis=1) / mag


def hyperplane_distance(fo, W: np.ndarray, D: np.ndarray, skip: tuple[int, int] | None = None) -> float:
    """sup{s : no <x_i, w_j + s' D_j> changes sign for 0 <= s' < s} (inf if none changes), ignoring the pair ``skip``."""
    P, Q = fo.X @ W.T, fo.X @ D.T
    with np.errstate(divide="ignore", invalid="ignore"):
        roots = -P / Q
    if skip is not None:
        roots[skip] = np.inf
    roots = roots[np.isfinite(roots) & (roots > 0.0)]
    return float(roots.min()) if roots.size else math.inf


def _segment_state(state):
    st_ = as_state(state)
    fo = st_.field
    rng = np.random.default_rng(int(st_.params.get("state_seed", 0)) + 777)
    W, v = np.array(st_.W, float), np.array(st_.v, float)
    D = rng.standard_normal(W.shape)
    D *= np.linalg.norm(W) / np.linalg.norm(D)
    dv = rng.standard_normal(v.shape)
    dv *= np.linalg.norm(v) / np.linalg.norm(dv)
    return st_, fo, rng, W, v, D, dv


@measures("2 - q, q = e(s1/1000) / (e(s1)/1000): ~1 continuous, ~1e3 a jump (dimensionless ratio)")
def continuity_off_A_margin(state) -> Margin:
    """EA-H1: at a state off A = U_ij {<x_i, w_j> = 0}, the field (in the engine's mode at each point) along a
    random segment that crosses no hyperplane tends to F(theta). With s1 = 1e-3 min(1, distance to A along the
    segment) and e(s) the per-block relative discrepancy, q = e(1e-3 s1)/(1e-3 e(s1) + 1e-13) is ~1 when the
    discrepancy vanishes linearly (continuity) and ~1e3 for a jump. Margin 2 - q; error 0.5 (allowance for the
    O(s1) second-order term and rounding, which move q by far less)."""
    st_, fo, rng, W, v, D, dv = _segment_state(state)
    P = fo.X @ W.T
    rel = np.abs(P) / (fo.norms[:, None] * np.linalg.norm(W, axis=1)[None, :] + 1e-300)
    if float(rel.min()) < 1e-9:
        return Margin(0.0, 0.0, "state within 1e-9 of A (drawn on a hyperplane)", vacuous=True)
    s1 = 1e-3 * min(1.0, hyperplane_distance(fo, W, D))
    e1, e2 = segment_limit(fo, W, v, D, dv, s1)
    q = e2 / (1e-3 * e1 + 1e-13)
    j = int(np.argmax(q))
    return Margin(2.0 - float(q[j]), 0.5,
                  f"neuron {j}: relative discrepancy {e1[j]:.3g} at s = {s1:.3g}, {e2[j]:.3g} at s = {s1 * 1e-3:.3g} (ratio to linear "
                  f"decay q = {q[j]:.4g}; ~1: continuous)", site={"j": j})


H1 = paper_claim(
    id="EA-H1",
    node="EXIST", uses=("A1",),
    source="App. E.1, F is continuous off A = U_ij {<x_i, w_j> = 0}",
    statement="at states off A, the field along a segment crossing no hyperplane (each point in the engine's own mode) tends to "
              "F(theta): the discrepancy shrinks linearly with the step (1e-3 step ratio, 2e-3 allowed)",
    check=continuity_off_A_margin,
    over=states(scale_decades=(-1, 0)),
    assumptions=("exp or 2x logistic loss", "balanced or unbalanced states"),
    tags=("pointwise",),
)


@measures("2 - q, q = e(s1/1000) / (e(s1)/1000): ~1 continuous, ~1e3 a jump (dimensionless ratio)")
def continuity_on_A_margin(state) -> Margin:
    """P-H1 (planted): the same limit (same q, margin 2 - q) at a state ON a hyperplane A_ij (w_j projected onto
    x_i^perp, so that the engine's mode makes the pair inactive, sigma'(0) = 0), approached from the active side
    (delta_j = +x_i): the discrepancy stays at the jump |v_j| |g_i| ||x_i|| (relative to the block magnitude)
    instead of vanishing, q ~ 1e3."""
    st_, fo, rng, W, v, D, dv = _segment_state(state)
    i = int(rng.integers(fo.n))
    j = int(rng.integers(W.shape[0]))
    xi = fo.X[i]
    w = W[j] - (xi @ W[j]) / (xi @ xi) * xi
    for k in range(200):  # make <x_i, w_j> <= 0 in float64 (inactive at theta, sigma'(0) = 0): growing nudges
        p = float(fo.X[i] @ w)
        if p <= 0.0:
            break
        w = w - max(p, 1e-300) / (xi @ xi) * xi * 2.0 ** (k + 1)
    W[j] = w
    D[j] = xi * (np.linalg.norm(W) / np.linalg.norm(xi))
    s1 = 1e-3 * min(1.0, hyperplane_distance(fo, W, D, skip=(i, j)))
    e1, e2 = segment_limit(fo, W, v, D, dv, s1)
    q = float(e2[j] / (1e-3 * e1[j] + 1e-13))
    return Margin(2.0 - q, 0.5,
                  f"pair (i={i}, j={j}) on A: relative discrepancy {e1[j]:.3g} at s = {s1:.3g} and {e2[j]:.3g} at s = {s1 * 1e-3:.3g} "
                  f"(q = {q:.4g}: a jump, it does not shrink with s)", site={"i": i, "j": j})


P_H1 = paper_claim(
    id="P-H1-jump-on-A",
    node="EXIST", uses=("A1",),
    source="App. E.1 (negative counterpart of EA-H1: A is where F is discontinuous)",
    statement="PLANTED: F is also continuous at states ON a hyperplane A_ij (approached from the active side) -- fails: the w_j block "
              "jumps by |v_j| |g_i| x_i (sigma'(0) = 0 at theta, 1 just off it)",
    check=continuity_on_A_margin,
    over=states(scale_decades=(-1, 0)),
    expected=Verdict.REFUTED,
    assumptions=("state placed on A_ij (drops 'off A')",),
    tags=("pointwise",),
)


@measures("worst of: ln L decrease, -|L_dot + ||F||^2| and -L_dot (over magnitude), (50)'s ln-slack (log units)")
def loss_descent_margin(run) -> Margin:
    """EA-H5 (App. E.5): along the run, (a) ln L(t_k+1) <= ln L(t_k) at consecutive samples (error: the output
    error bound, |d ln L| <= max_i |df_i| for exp and 2x logistic); at every sampled state (b) the chain rule
    L_dot = sum_i l'_i f_i' equals -||F||^2 (F the field in its mode: F = -grad L, rounding error only) and
    (c) L_dot <= 0; (d) (50) along the trajectory: ||F(theta(t))||_F <= X_max L(theta(0)) ||theta(t)||_F.
    States are scaled per sample (theorem-scale eps stays finite); (b)-(d) are scale-free. Slack: (d)'s
    max ||F|| / (X_max L(0) ||theta||) (the only bound; (a)-(c) are sign and identity checks)."""
    S = tm.scaled_states(run)
    fld = run.field
    t, W, v, F, ferr = S["t"], S["W"], S["v"], S["f"], S["f_err"]
    lnL = np.array([fld.loss.log_total(run.y, f) for f in F])
    xmax = float(np.max(fld.norms))
    parts: list[tuple[float, float, str]] = []
    dif = lnL[:-1] - lnL[1:]
    if dif.size:
        k = int(np.argmin(dif))
        parts.append((float(dif[k]), float(ferr[k] + ferr[k + 1]) + 1e-14 * (abs(lnL[k]) + 1.0),
                      f"ln L({t[k + 1]:.6g}) - ln L({t[k]:.6g}) = {-dif[k]:.6g} (ln L from {lnL[0]:.6g} to {lnL[-1]:.6g})"))
    rnd = 64.0 * (fld.n + W.shape[1]) * pat.UNIT_ROUNDOFF
    low = math.inf  # min over samples of (d)'s ln-margin
    for k in range(t.size):
        ldot, norm2, mag = tm.loss_rate_terms(fld, W[k], v[k], F[k])
        if mag == 0.0:
            continue
        parts.append((-abs(ldot + norm2) / mag, rnd, f"t = {t[k]:.6g}: |L_dot + ||F||^2| / magnitude = {abs(ldot + norm2) / mag:.3g}"))
        parts.append((-ldot / mag, rnd, f"t = {t[k]:.6g}: L_dot / magnitude = {ldot / mag:.3g}"))
        ltheta = 0.5 * math.log(float(np.sum(W[k] ** 2) + np.sum(v[k] ** 2)))
        if norm2 > 0.0:
            val = math.log(xmax) + lnL[0] + ltheta - 0.5 * math.log(norm2)
            low = min(low, val)
            parts.append((val, 4.0 * S["err"] + float(ferr[k]) + 1e-12,
                          f"t = {t[k]:.6g}: ln(X_max L(0) ||theta||) - ln ||F|| = {val:.6g} (eq. (50))"))
    m = _worst(parts, "no sample")
    if m.vacuous or not math.isfinite(low):
        return m
    ratio = math.exp(min(-low, 700.0))
    return Margin(m.value, m.error, f"{m.note}; (50): max ||F|| / bound = {ratio:.3g}", ratio=ratio)


H5 = part2_claim(
    id="EA-H5",
    node="EXIST", uses=("A1",),
    source="App. E.5 (Theta_0 positively invariant; eq. (50)) [R22]",
    statement="along trajectories at eps = eps_required: ln L non-increasing at consecutive samples; at every sampled state "
              "L_dot = -||F||^2 <= 0 (chain rule through f vs the field's norm) and ||F||_F <= X_max L(theta(0)) ||theta||_F (50)",
    check=loss_descent_margin,
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "eps = eps_required", "exp loss"),
)

H5_UNBALANCED = paper_claim(
    id="EA-H5-unbalanced",
    node="EXIST", uses=("A1",),
    source="App. E.5 (monotone loss; any init)",
    statement="the same on unbalanced inits (Cartesian, exp and 2x logistic): ln L non-increasing, L_dot = -||F||^2 <= 0, "
              "||F||_F <= X_max L(theta(0)) ||theta||_F",
    check=loss_descent_margin,
    over=st.one_of(scenario(init="unbalanced", n=(2, 5), d=(2, 3), h=(2, 5), eps=(1e-3, 1e-1), loss="exp"),
                   scenario(init="unbalanced", n=(2, 5), d=(2, 3), h=(2, 5), eps=(1e-3, 1e-1), loss="logistic2")),
    horizon=30.0,
    form="cartesian",
    assumptions=("Assumption 1", "unbalanced init", "exp or 2x logistic loss"),
)
