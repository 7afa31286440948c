"""Claim sheet 000, PL-LA3 (Lemma A.3: the GF vector field, eqs. (45)-(46)) with its checks (a) (away from kinks
the implemented field is -grad of the summed loss) and (b) (on a Filippov sliding trajectory dw_j/dt is orthogonal
to x_i while w_j^T x_i = 0); PC11 (eq. (46) with P_w as an ODE right-hand side makes boundaries sticky; the true
GF leaves them); PC10 (GD discretisation, sheet section 6: signs flip once eta sup|l'| sum_i ||x_i|| >~ 1; PL-X1
per step; the balancedness drift is O(eta^2) and, accumulated, one-signed).

GD claims are pointwise (no horizon): the check itself runs the engine's "gd" backend with the scenario's
``params["lr"]`` to ``params["t_end"]``, sampling every step (the claim runner passes no step size to the engine).
"""

from __future__ import annotations

import dataclasses
import math
from functools import partial
from typing import Any

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.claims.run import Run
from verify.data.dataset import Dataset
from verify.dynamics.forms import CartesianForm
from verify.scenarios import Scenario
from verify.simulate import simulate
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import measures as M
from properties.phuong_lampert2021 import scenarios as SC
from properties.phuong_lampert2021._shared import U_ROUND, lower_bound_ratio, paper_claim, product_rounding, worst
from properties.phuong_lampert2021.cone import monotone_increments
from properties.phuong_lampert2021.lemma_a4 import neuron_sizes, signs_kept

L3_CE = 1.0 / (6.0 * math.sqrt(3.0))  # sup_u |l'''(u)| of l(u) = log(1 + exp(-u))
KINK_RTOL = 1e-8  # a coordinate whose stencil may come within KINK_RTOL N_j of a kink is skipped ("away from kinks")
GD_T = 5.0  # GF time of the GD runs (t = k eta with the summed loss)


def _ce_loss(X: np.ndarray, y: np.ndarray, W: np.ndarray, a: np.ndarray) -> float:
    """The paper's summed loss sum_i log(1 + exp(-y_i f(x_i))), eq. (3), written here independently of the engine."""
    return float(np.sum(np.logaddexp(0.0, -y * (np.maximum(X @ W.T, 0.0) @ a))))


def _state_gradient_parts(run: Any, t: float, W: np.ndarray, a: np.ndarray) -> list[Margin]:
    """Per neuron j at the state (W, a) at time t: -||F_j + FD_j|| / ||F|| and its error (see field_matches_gradient)."""
    X, y = run.X, run.y
    n, d = X.shape
    p = W.shape[0]
    P = X @ W.T
    F = CartesianForm(run.field, p, d).rhs(np.concatenate([W.ravel(), a]), run.field.mode(P))
    Wdot, adot = F[:p * d].reshape(p, d), F[p * d:]
    scale = float(np.linalg.norm(F))
    if scale == 0.0:
        return []
    L = _ce_loss(X, y, W, a)
    xn = np.linalg.norm(X, axis=1)
    df = (d + p + 2) * U_ROUND * float(np.abs(a) @ np.linalg.norm(W, axis=1)) * xn  # rounding error of f(x_i)
    dL = float(np.sum(df)) + (n + 4) * U_ROUND * L  # |l'| <= 1
    g = 1.0 / (1.0 + np.exp(np.clip(y * (np.maximum(P, 0.0) @ a), -700, 700)))  # |l_i'(f_i)|
    parts = []
    for j in range(p):
        size = math.hypot(float(np.linalg.norm(W[j])), float(a[j]))
        coords = [("w", m, a[j] * (P[:, j] > 0) * X[:, m], Wdot[j, m]) for m in range(d)] + [("a", 0, np.maximum(P[:, j], 0.0), adot[j])]
        diff, err = [], []
        for kind, m, c, field_value in coords:
            nz = np.abs(X[:, m]) > 0.0
            cap = 0.5 * float(np.min(np.abs(P[nz, j]) / np.abs(X[nz, m]))) if kind == "w" and nz.any() else math.inf
            if cap < KINK_RTOL * size:
                continue
            M3 = L3_CE * float(np.sum(np.abs(c) ** 3))
            h = min(cap, (3.0 * dL / M3) ** (1.0 / 3.0) if M3 > 0.0 else size)
            Wp, Wm, ap, am = W.copy(), W.copy(), a.copy(), a.copy()
            if kind == "w":
                Wp[j, m] += h
                Wm[j, m] -= h
                step = Wp[j, m] - Wm[j, m]
            else:
                ap[j] += h
                am[j] -= h
                step = ap[j] - am[j]
            fd = (_ce_loss(X, y, Wp, ap) - _ce_loss(X, y, Wm, am)) / step
            theta = W[j, m] if kind == "w" else a[j]
            field_err = 8.0 * (n + d + p) * U_ROUND * float(np.sum(g * np.abs(c))) + 0.25 * float(np.sum(df * np.abs(c)))
            if kind == "a":  # a_j' = sum_i g_i sigma(w_j^T x_i): each w_j^T x_i rounded to (d + 2) u ||x_i|| ||w_j||,
                # absolute (it cancels where w_j rests on a kink, as on a sliding surface: found at the thorough budget)
                field_err += product_rounding(d) * float(np.sum(g * xn)) * float(np.linalg.norm(W[j]))
            diff.append(field_value + fd)
            err.append(2.0 * (step**2 / 24.0 * M3 + 2.0 * dL / step + 0.25 * float(np.sum(c**2)) * U_ROUND * abs(theta)
                              + field_err))
        if diff:
            parts.append(Margin(-float(np.linalg.norm(diff)) / scale, float(np.linalg.norm(err)) / scale,
                                f"t = {t:.4g}, neuron {j}: ||F_j + FD grad_j|| / ||F|| "
                                f"= {np.linalg.norm(diff) / scale:.3g} over {len(diff)} coordinate(s)"))
    return parts


@measures("-max over t, j of ||F_j + FD grad_j|| / ||F||: field vs -grad of the loss (relative mismatch)")
def field_matches_gradient(run: Any) -> Margin:
    """(a): at each sampled state, the engine's compiled field F = (W', a') against central differences FD of
    l(theta) = sum_i log(1 + exp(-y_i f(x_i))) (computed independently), coordinate by coordinate, skipping w_j
    coordinates whose stencil could reach a kink (|w_j^T x_i| < 2 h |x_im|). Value -||F_j + FD_j|| / ||F||; error
    2 (h^2/24 sup|l'''| sum_i |df_i/dtheta|^3 + 2 dL / (2h) + field rounding), dL the rounding of l (f_i to
    (d+p+2) u sum_j |a_j| ||w_j|| ||x_i||, plus (n+4) u l), h balancing the two within the kink distance. The field's
    rounding of a_j' counts each w_j^T x_i's absolute rounding, 2 (d+2) u ||x_i|| ||w_j|| (a neuron resting on a kink
    has w_j^T x_i ~ 1e-19, whose sign and size are rounding)."""
    if run.field.loss.name != SC.CE or run.field.alpha != 0.0:
        return Margin(0.0, 0.0, "not the paper's ReLU net with the logistic loss", vacuous=True)
    smp = M.samples(run)
    parts = [m for k in range(smp.t.size) for m in _state_gradient_parts(run, smp.t[k], smp.W[k], smp.a[k])]
    return worst(parts, "every sampled coordinate was at a kink")


LA3_FIELD = paper_claim(
    id="PL-LA3-field",
    node="LA3", uses=("GEN",),
    source="Lemma A.3, eqs. (45)-(46) (PL-LA3 check (a))",
    statement="Away from kinks (w_j^T x_i != 0 within the stencil) the implemented GF field equals -grad of the summed "
              "logistic loss: finite differences at the sampled states of real runs agree within their error model",
    check=field_matches_gradient,
    over=st.one_of(st.just(SC.fixture_scenario()), SC.os_scenarios(), SC.fixed_data_scenarios(D.pc1),
                   SC.fixed_data_scenarios(D.pc2)),
    horizon=10.0,
    samples=24,
    assumptions=("H-GEN (generic data: orthant/span families, PC1, PC2)", "balanced init", "H-CE"),
)


@measures("-max of |w_j^T x_i| / (N_j ||x_i||) and |cos(Delta w_j, x_i)| while sliding (cosine units; 0 holds)")
def sliding_projection(run: Any) -> Margin:
    """(b): for each logged Filippov sliding mode of (neuron j, example i), the samples strictly inside it have
    |w_j^T x_i| / (N_j ||x_i||) <= tol (error: the state tolerance), and the displacement over the window,
    Delta w_j = w_j(t_b) - w_j(t_a) (the window-averaged dw_j/dt times t_b - t_a), has |cos(Delta w_j, x_i)| ~ 0
    (error 2 tol N_j(t_b) / ||Delta w_j||: one state error per end)."""
    smp = M.samples(run)
    tol, sizes, xn = M.state_tolerance(run), neuron_sizes(smp), np.linalg.norm(run.X, axis=1)
    events = sorted(run.events, key=lambda e: e.t)
    parts = []
    for e in (e for e in events if e.kind == "sliding"):
        leave = next((f.t for f in events if (f.i, f.j) == (e.i, e.j) and f.t > e.t and f.kind != "sliding"), math.inf)
        inside = np.flatnonzero((smp.t > e.t) & (smp.t < leave))
        if inside.size < 2:
            continue
        where = f"(neuron {e.j}, example {e.i}) sliding from t = {e.t:.6g} to {min(leave, smp.t[-1]):.6g}"
        z = smp.W[inside, e.j] @ run.X[e.i] / (sizes[inside, e.j] * xn[e.i])
        parts.append(Margin(-float(np.max(np.abs(z))), tol, f"{where}: max |w^T x| / (N ||x||) = {np.max(np.abs(z)):.3g}"))
        ka, kb = inside[0], inside[-1]
        dw = smp.W[kb, e.j] - smp.W[ka, e.j]
        speed = float(np.linalg.norm(dw))
        if speed > 0.0:
            cos = float(dw @ run.X[e.i]) / (speed * xn[e.i])
            parts.append(Margin(-abs(cos), 2.0 * tol * float(sizes[kb, e.j]) / speed,
                                f"{where}: cos(w(t_b) - w(t_a), x_i) = {cos:.3g} over t = {smp.t[ka]:.4g} .. {smp.t[kb]:.4g}"))
    return worst(parts, "no sliding mode with two samples inside it")


@st.composite
def pc2_sliding_scenarios(draw: st.DrawFn) -> Scenario:
    """PC2 with a positive neuron at theta in [33, 55] deg (active on u(120), which pushes it onto 30 deg, orthogonal to
    u(120), while the positives pull it back: it slides), a negative neuron in [140, 180] deg and a Gaussian one."""
    theta, phi = draw(st.integers(33, 55)), draw(st.integers(140, 180))
    rng = np.random.default_rng(draw(st.integers(0, 2**16 - 1)))
    dirs = [[math.cos(math.radians(a)), math.sin(math.radians(a))] for a in (theta, phi)] + [rng.standard_normal(2).tolist()]
    return SC.pl_scenario(D.pc2(), dirs, [1.0, -1.0, draw(st.sampled_from((1.0, -1.0)))], draw(st.sampled_from(SC.LAMBDAS)),
                          theta=theta, phi=phi, construction="PC2, a positive neuron near 30 deg")


LA3_SLIDING = paper_claim(
    id="PL-LA3-sliding",
    node="LA3", uses=("GEN",),
    source="Lemma A.3, eq. (46) and its proof (dw_j/dt orthogonal to x_i where w_j^T x_i = 0); sheet 5.2 (PL-LA3 check (b))",
    statement="On PC2 (not OS; neurons converge onto w^T x = 0 and slide) w_j^T x_i stays 0 within the state error while "
              "logged as sliding, and the window-averaged dw_j/dt is orthogonal to x_i (Filippov / projection form)",
    check=sliding_projection,
    over=pc2_sliding_scenarios(),
    horizon=4.0,
    samples=48,
    assumptions=("drops H-OS (PC2, cross-class acute pair, so that neurons slide)", "balanced init", "H-CE"),
)


# --- PC11: the true GF leaves the boundary (sheet 5.1) --------------------------------------------------------------

def pc11_scenario(x1: Any, x2: Any, w_dir: Any, lam: float, **params: Any) -> Scenario:
    """Sheet 5.1: two positives x1, x2 with x1^T x2 > 0 and one positive neuron w(0) = lam w_dir / ||w_dir|| with
    w(0)^T x2 = 0 (up to round-off) and w(0)^T x1 > 0, a(0) = +lam."""
    ds = Dataset([list(x1), list(x2)], [1, 1], name="pl_pc11")
    return SC.pl_scenario(ds, [list(w_dir)], [1.0], lam, construction="sheet 000 5.1 PC11", **params)


@st.composite
def pc11_scenarios(draw: st.DrawFn) -> Scenario:
    """The sheet's x1 = (1, 0.2), x2 = (0.2, 1), w(0) ~ (1, -0.2); or x2 = 2^e (q, 1), w(0) ~ (1, -q) with q a power
    of 2 (then w(0)^T x2 = 0 exactly in float), x1 = r u(phi), phi in [0, 30] deg (so x1^T x2 > 0)."""
    lam = draw(st.sampled_from(SC.LAMBDAS))
    if draw(st.booleans()):
        return pc11_scenario((1.0, 0.2), (0.2, 1.0), (1.0, -0.2), lam)
    q, e = draw(st.sampled_from((0.125, 0.25, 0.5, 1.0))), draw(st.integers(-1, 1))
    phi, r = math.radians(draw(st.integers(0, 30))), draw(st.sampled_from((0.5, 1.0, 2.0)))
    return pc11_scenario((r * math.cos(phi), r * math.sin(phi)), (2.0**e * q, 2.0**e), (1.0, -q), lam, q=q, phi=phi)


@measures("min over t > 0 of (w^T x2 - LB(t)) / (N ||x2||), relative to the neuron size")
def leaves_boundary(run: Any) -> Margin:
    """Sheet 5.1 (all examples positive, a > 0): a(t) >= a(0), w^T x1 > 0 and f(x1) increase, so c1(t) = |l'(f(x1))|
    decreases and w(t)^T x2 >= LB(t) = a(0) c1(t) x1^T x2 t. Value min over samples t > 0 of (w^T x2 - LB) / (N ||x2||);
    error: the state tolerance plus LB's first-order error through f(x1); ratio max_t LB / w^T x2."""
    smp = M.samples(run)
    X, tol = run.X, M.state_tolerance(run)
    if not (np.all(run.y > 0) and X[0] @ X[1] > 0.0 and smp.a[0, 0] > 0.0 and smp.W[0, 0] @ X[0] > 0.0):
        return Margin(0.0, 0.0, "not the sheet 5.1 situation (positives, x1^T x2 > 0, a(0) > 0, w(0)^T x1 > 0)", vacuous=True)
    later = smp.t > 0.0
    t, W, a, size = smp.t[later], smp.W[later, 0], smp.a[later, 0], neuron_sizes(smp)[later, 0]
    f1 = a * np.maximum(W @ X[0], 0.0)
    c1 = 1.0 / (1.0 + np.exp(f1))
    lb = smp.a[0, 0] * c1 * float(X[0] @ X[1]) * t
    x2n = float(np.linalg.norm(X[1]))
    value = (W @ X[1] - lb) / (size * x2n)
    err = tol + lb * 0.25 * 2.0 * tol * size * float(np.linalg.norm(X[0])) / x2n
    k = int(np.argmin(value))
    ratio, said = lower_bound_ratio(lb, W @ X[1], "max_t LB / w^T x2")
    return Margin(float(value[k]), float(err[k]), f"t = {t[k]:.4g}: w^T x2 = {W[k] @ X[1]:.4g} vs lower bound a(0) c1 x1^T x2 "
                                                  f"t = {lb[k]:.4g}{said}", ratio=ratio)


PC11_LEAVES = paper_claim(
    id="PC11-leaves-boundary",
    node="LA3", uses=("GEN",),
    source="sheet 5.1 / 5.6 PC11 (eq. (46) holds a.e. only; the simulator must not make w^T x2 = 0 sticky)",
    statement="From w(0)^T x2 = 0, w(0)^T x1 > 0 (positives with x1^T x2 > 0, a(0) > 0) the GF leaves the boundary: "
              "w(t)^T x2 >= a(0) |l'(f(x1(t)))| x1^T x2 t > 0 for t > 0 (eq. (46) with P_w would keep it at 0)",
    check=leaves_boundary,
    over=pc11_scenarios(),
    horizon=2.0,
    samples=32,
    assumptions=("positive examples only, x1^T x2 > 0", "balanced init", "H-CE"),
    tags=("control",),
)


# --- PC10: gradient descent (sheet 5.6 PC10 and section 6) ----------------------------------------------------------

def with_step(sc: Scenario, eta_bs: float, t_end: float = GD_T) -> Scenario:
    """``sc`` with GD step lr = eta_bs / (sup|l'| sum_i ||x_i||) (sup|l'| = 1 for CE) in its params."""
    lr = eta_bs / float(np.sum(np.linalg.norm(sc.dataset.X, axis=1)))
    return dataclasses.replace(sc, params={**sc.params, "lr": lr, "eta_BS": eta_bs, "t_end": t_end})


@st.composite
def gd_os_scenarios(draw: st.DrawFn, steps: tuple[float, ...] = (0.05, 0.1, 0.25, 0.5), t_end: float = GD_T) -> Scenario:
    """The paper's setting (fixture or os_scenarios) under GD with eta sup|l'| sum_i ||x_i|| in ``steps``."""
    sc = draw(st.one_of(st.just(SC.fixture_scenario()), SC.os_scenarios(p=(1, 4))))
    return with_step(sc, draw(st.sampled_from(steps)), t_end)


def gd_run(run: Any) -> Run:
    """The run with the engine's GD trajectory (step params["lr"], every step sampled up to params["t_end"])."""
    sc = run.scenario
    lr = float(sc.params["lr"])
    steps = max(1, int(round(float(sc.params["t_end"]) / lr)))
    traj = simulate(sc.dataset, sc.init.W0, sc.init.v0, steps * lr, loss=sc.loss, alpha=sc.alpha, backend="gd", lr=lr,
                    log_eps=sc.init.log_eps, times=lr * np.arange(1, steps + 1))
    return dataclasses.replace(run, trajectory=traj, horizon=steps * lr)


@measures("min over GD iterates, j of s_j a_j / N_j, N_j the running neuron size (dimensionless; > 0 holds)")
def gd_signs_kept(run: Any) -> Margin:
    """Lemma A.4's sign preservation (lemma_a4.signs_kept) read on the GD iterates."""
    return signs_kept(gd_run(run))


def _flip_scenario(ds: Dataset, kappa: float, lam: float) -> Scenario:
    """A positive neuron at m^_- (active on the negatives only, u = -m_- / 2 at f = 0) with a negative neuron at m^_+,
    GD step lr = kappa / ||u||: the first step gives a = lam (1 - kappa)."""
    neg = ds.X[ds.y < 0].sum(axis=0)
    sc = SC.pl_scenario(ds, [neg, -neg], [1.0, -1.0], lam, construction="PC10: positive neuron along m_-")
    eta_bs = kappa / (0.5 * float(np.linalg.norm(neg))) * float(np.sum(np.linalg.norm(ds.X, axis=1)))
    return with_step(sc, eta_bs, 1.0)


PC10_SIGNS = paper_claim(
    id="PC10-GD-signs",
    node="LA4", uses=("LA3", "BAL"),
    source="sheet 5.6 PC10 (GD discretisation with a large step breaks Lemma A.4's sign preservation)",
    statement="PLANTED: under GD with eta sup|l'| sum_i ||x_i|| >= 3 (eta ||grad_w|| / |a| = kappa > 1) a positive "
              "neuron along m_- (active on negatives only) flips the sign of a_j in one step",
    check=gd_signs_kept,
    over=st.builds(_flip_scenario, st.sampled_from((D.fixture(), D.orthant(3, 3, 3, seed=1))),
                   st.sampled_from((1.5, 2.0, 3.0)), st.sampled_from(SC.LAMBDAS)),
    backend="gd",
    expected=Verdict.REFUTED,
    assumptions=("H-OS (by construction)", "balanced init", "drops gradient flow (GD, eta sup|l'| sum ||x_i|| >= 3)"),
    tags=("planted",),
)

PC10_SIGNS_SMALL = paper_claim(
    id="PC10-GD-signs-small",
    node="LA4", uses=("LA3", "BAL"),
    source="sheet 5.6 PC10 (control: GD with a small step keeps the signs)",
    statement="Under GD with eta sup|l'| sum_i ||x_i|| <= 1/2 from the balanced init, sign(a_j) = sign(a_j(0)) at every step",
    check=gd_signs_kept,
    over=gd_os_scenarios(),
    backend="gd",
    assumptions=("H-OS (by construction)", "balanced init", "H-CE", "GD, eta sup|l'| sum ||x_i|| <= 1/2"),
    tags=("control",),
)


@measures("min over GD steps, j, k of the increment of s_j y_k w_j^T x_k / (N_j ||x_k||) (dimensionless)")
def gd_monotone(run: Any) -> Margin:
    """PL-X1 per GD step (cone.monotone_increments on every iterate) with the pre-step sign, which is sign(a_j(0))
    when no a_j changes sign (otherwise vacuous): w_{k+1} - w_k = eta a_jk sum_i |l_i'| y_i 1{...} x_i."""
    g = gd_run(run)
    if np.any(np.sign(g.v) * np.sign(g.v0)[None] <= 0):
        return Margin(0.0, 0.0, "a sign of a_j changed: the pre-step sign is not sign(a_j(0))", vacuous=True)
    return monotone_increments(g)


PC10_X1 = paper_claim(
    id="PC10-GD-X1",
    node="X1", uses=("OS", "LA4"),
    source="sheet 5.6 PC10 and section 6 (GD conserves PL-X1 exactly per step, with the pre-step sign)",
    statement="Under GD with a small step (eta sup|l'| sum_i ||x_i|| <= 1/2) on OS data s_j y_k w_j^T x_k is "
              "non-decreasing at every step",
    check=gd_monotone,
    over=gd_os_scenarios(),
    backend="gd",
    assumptions=("H-OS (by construction)", "balanced init", "H-CE", "GD, eta sup|l'| sum ||x_i|| <= 1/2"),
)


def _balance(run: Any) -> tuple[Run, M.Samples, np.ndarray]:
    g = gd_run(run)
    smp = M.samples(g)
    return g, smp, smp.a**2 - np.sum(smp.W**2, axis=2)


@measures("1 - max over steps, j of |c_j(t_K) - c_j(0)| / (eta^2 (BS)^2 sum N_jk^2): relative to the bound")
def gd_balance_bound(run: Any) -> Margin:
    """|c_j(t_K) - c_j(0)| <= eta^2 (B S)^2 sum_{k<K} N_jk^2 (c = a^2 - ||w||^2, N_jk = max(|a_jk|, ||w_jk||),
    B S = sup|l'| sum_i ||x_i||), since a step changes c by eta^2 ((w^T u)^2 - a^2 ||u||^2) with ||u|| <= B S.
    Ratio = measured / bound; error 8 (k + d) u max N^2 / bound (rounding of k steps)."""
    g, smp, c = _balance(run)
    eta, BS = float(g.scenario.params["lr"]), float(np.sum(np.linalg.norm(g.X, axis=1)))
    N2 = np.maximum(smp.a**2, np.sum(smp.W**2, axis=2))
    bound = eta**2 * BS**2 * np.cumsum(N2, axis=0)[:-1]
    ratio = np.abs(c[1:] - c[0][None]) / bound
    k, j = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
    err = 8.0 * (k + 1 + g.X.shape[1]) * U_ROUND * float(np.max(N2[:k + 2, j])) / bound[k, j]
    return Margin(float(1.0 - ratio[k, j]), err, f"|a^2 - ||w||^2| drift {abs(c[k + 1, j] - c[0, j]):.3g} vs eta^2 (BS)^2 "
                  f"sum N^2 = {bound[k, j]:.3g} (neuron {j}, step {k + 1}, eta BS = {eta * BS:.3g})", ratio=float(ratio[k, j]))


PC10_BALANCE = paper_claim(
    id="PC10-GD-balance",
    node="LA4", uses=("LA3", "BAL"),
    source="sheet 5.6 PC10 and PL-LA4 (GD: the balancedness drift is O(eta^2) per step)",
    statement="Under GD, |a_j^2 - ||w_j||^2 - (a_j(0)^2 - ||w_j(0)||^2)| <= eta^2 (sup|l'| sum_i ||x_i||)^2 "
              "sum_{k<K} max(a_jk^2, ||w_jk||^2) after K steps (slack reported as measured / bound)",
    check=gd_balance_bound,
    over=gd_os_scenarios(),
    backend="gd",
    assumptions=("H-OS (by construction)", "balanced init", "H-CE", "GD, eta sup|l'| sum ||x_i|| <= 1/2"),
)


@measures("min over steps, j of -(c_jk - c_j0) / N_jk^2, c = a^2 - ||w||^2 (relative to neuron size^2)")
def gd_balance_one_signed(run: Any, per_step: bool = False) -> Margin:
    """From a balanced start c_j = a_j^2 - ||w_j||^2 stays <= c_j(0): c_{k+1} <= c_k (1 - eta^2 ||u||^2) once c_k <= 0
    and eta ||u|| <= eta B S <= 1. Value min_k -(c_jk - c_j0) / N_jk^2 (N running neuron size), error 8 (k + d) u;
    ``per_step``: min_k -(c_j,k+1 - c_jk) / N^2 instead (the sheet's per-step reading), error 8 (d + 2) u."""
    _, smp, c = _balance(run)
    N2 = neuron_sizes(smp) ** 2
    d = smp.W.shape[2]
    if per_step:
        value = -(c[1:] - c[:-1]) / N2[1:]
        err = np.full(value.shape, 8.0 * (d + 2) * U_ROUND)
    else:
        value = -(c[1:] - c[0][None]) / N2[1:]
        err = 8.0 * (np.arange(1, c.shape[0])[:, None] + d) * U_ROUND * np.ones_like(value)
    k, j = np.unravel_index(int(np.argmin(value + err)), value.shape)
    what = "c_{k+1} - c_k" if per_step else "c_k - c_0"
    return Margin(float(value[k, j]), float(err[k, j]), f"max ({what}) / N^2 = {-value[k, j]:.3g} (neuron {j}, step {k + 1})",
                  site={"t": float(smp.t[k + 1]), "j": int(j)})


PC10_ONE_SIGNED = paper_claim(
    id="PC10-GD-balance-sign",
    node="LA4", uses=("LA3", "BAL"),
    source="sheet 5.6 PC10 and section 6 (GD: one-signed balancedness drift from a balanced start)",
    statement="Under GD with eta sup|l'| sum_i ||x_i|| <= 1/2 from a balanced start, a_j^2 - ||w_j||^2 <= 0 at every "
              "step (the accumulated drift is one-signed)",
    check=gd_balance_one_signed,
    over=gd_os_scenarios(),
    backend="gd",
    assumptions=("H-OS (by construction)", "balanced init", "H-CE", "GD, eta sup|l'| sum ||x_i|| <= 1/2"),
)

PC10_STEPS = paper_claim(
    id="PC10-GD-balance-steps",
    node="LA4", uses=("LA3", "BAL"),
    source="sheet PL-LA4 counterexamples / 5.6 PC10 as written (per-step drift eta^2((v^T w)^2 - a^2||v||^2) <= 0); "
           "sheet erratum",
    statement="AS WRITTEN: every GD step changes a_j^2 - ||w_j||^2 by <= 0. False once c_j < 0: a step with w_j nearly "
              "along the update direction u (sin^2 < |c_j| / ||w_j||^2) increases it (only the accumulated drift is <= 0)",
    check=partial(gd_balance_one_signed, per_step=True),
    meta={"margin_unit": "min over steps, j of -(c_j,k+1 - c_jk) / N^2, per-step drift of c = a^2 - ||w||^2 (relative)"},
    over=gd_os_scenarios(steps=(0.25, 0.5, 1.0), t_end=10.0),
    backend="gd",
    expected=Verdict.REFUTED,
    assumptions=("H-OS (by construction)", "balanced init", "H-CE", "GD, eta sup|l'| sum ||x_i|| <= 1"),
    tags=("erratum",),
)
