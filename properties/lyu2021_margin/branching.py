"""Claim sheet 003, C-A4.6: a numerical proxy for Assumption 4.6 (non-branching near the aligned two-group
configuration), with the planted branching start of S-14.

Assumption 4.6 says that for every m >= 2 there are r, eps > 0 such that GF from theta is unique (non-branching)
whenever theta's neurons form two groups: a_k = ||w_k|| in (0, r) along one direction w+ with ||w+ - mu^|| <= eps,
and -a_k = ||w_k|| in (0, r) along one w- with ||w- + mu^|| <= eps. It is not checkable exactly; the sheet's proxy
integrates from such starts with two kink rules (phi'(0) = alpha and phi'(0) = 1) and with an event-located and a
fixed-step integrator, and flags branching where the trajectories separate beyond tolerance. The three flows:

- A: the engine's event-located flow (``backend="events"``, the run the claim reads): a Caratheodory solution, sliding
  continued as Filippov's; at a kink that both sides repel it takes the phi'(0) = alpha side (``stats["nonunique"]``);
- B: the engine's fixed-step flow, gradient descent with step h (``backend="gd"``, explicit Euler on the same summed
  loss), phi'(0) = alpha (``NetworkField.mode``);
- C: this module's explicit Euler (:func:`fixed_step`) with the other kink rule, phi'(0) = 1 on |<w_k, x_i>| <=
  KINK_TOL ||w_k|| ||x_i|| (the engine's surface tolerance); an independent implementation of the field (the paper's
  phi, compiled here; its numpy oracle with network.py's phi is in the tests), so B against C also compares the
  engine's field with the paper's.

The engine has no option for phi'(0) = 1 (its one place for the kink rule, ``NetworkField.mode``, is fixed to alpha;
the mutant that changes it is a planted bug, not an option), so the event-located flow is run with phi'(0) = alpha only.

Separation at the samples t_k of A (B and C interpolated linearly between their steps, an O(h^2) error), per neuron
as the cross-check measures it: d_kj = ||z_j - z'_j|| / max(||z_j||, ||z'_j||), z_j = (w_j, a_j); the claim reads the
largest over the pairs (A, B), (A, C), (B, C). Tolerance: Euler's error at step h is twice the gap between the h and
h/2 runs of C (Richardson, first order), times SAFETY, plus the event run's own state tolerance. A branching start
separates by O(1) (0.23 to 0.26 on the planted starts, against a tolerance below 1e-2); a non-branching one by the
discretisation error only (A - B = 2 (C_h - C_h/2) measured on D-SYM: the margin uses a quarter of its error).

Horizon: paper time ln(1/r)/lambda0 + TAIL, past the escape from the small-norm regime, where the groups turn from mu^
towards w* and cross kinks (D-SYM: six to eight crossings). Step: h n lambda0 = STEP (engine time).

Planted (S-14: "different kink rules may diverge ... a divergence is an A4.6 issue, not a theorem failure"): on the
non-symmetric data x1 = (1, 0), x2 = (-3/4, 1) (label +1), x3 = (0, -1) (label -1), rotated by 0, 0.4 or 1.3, a
neuron w = r (0, 1) (rotated), a = r, sits on x1's kink: the normal rate <w', x1> = a g (phi'(0) - 3/4) (g ~ 1/2 near
0) is < 0 with phi'(0) = alpha = 1/2 and > 0 with phi'(0) = 1, so both sides repel and GF from there branches. A
start on a kink that attracts from both sides (sliding) would not serve: Filippov's solution is unique forward there,
and a fixed-step integrator chatters around the kink whatever phi'(0) is (its iterates do not land on it), so the two
kink rules cannot part there. On symmetric data near 0 the kink of a mirror pair (x_i, -x_i) repels on neither side:
by (I1) the pair's terms add to a_k (1 + alpha) g y_i x_i whichever side w_k is on (``phase1`` docstring), so the
normal rate is the same on both sides and a two-group start on such a kink (below) crosses it transversally.
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.model.init import Initialization
from verify.scenarios import SEEDS, Scenario
from verify.simulate import simulate
from verify.verdicts import Verdict

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import quantities as Q
from properties.lyu2021_margin._shared import ALPHA, LOSS, engine_time, paper_claim

KINK_TOL = 1e-12  # |<w_k, x_i>| <= KINK_TOL ||w_k|| ||x_i||: on the kink (verify.dynamics.settle.SURFACE_TOL)
STEP = 1e-3  # fixed step h = STEP / (n lambda0), engine time
TAIL = 40.0  # paper time after the escape time ln(1/r)/lambda0
SAFETY = 4.0
RS = (1e-2, 1e-1)  # r: group norms drawn in (0.1 r, r)
EPSILONS = (0.02, 0.1, 0.3)  # eps: ||w+ - mu^||, ||w- + mu^|| <= eps
SAMPLES = 40
RTOL = 1e-10
A46_CHECKED = ("A3.2 (by construction)", "A4.1 (audit)", "A4.5 (audit)", "m >= 2", "leaky",
               "two groups along w+ ~ mu^, w- ~ -mu^ (by construction)")
A46_ASSUMED = ("a finite-horizon, finite-step proxy: branching is flagged only where three integrations separate "
               "beyond Euler's Richardson error estimate (sheet C-A4.6); agreement does not prove uniqueness",)


def fixed_step(X: np.ndarray, y: np.ndarray, W: np.ndarray, a: np.ndarray, h: float, steps: np.ndarray, kink: float,
               alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """Explicit Euler (GD with step h) on the summed logistic loss sum_i log(1 + exp(-y_i f(x_i))) from (W, a), with
    phi'(p) = 1 for p > tol, alpha for p < -tol and ``kink`` on |p| <= tol (tol = KINK_TOL ||w_k|| ||x_i||); the states
    after each of ``steps`` (increasing step counts): W (k, m, d), a (k, m). Compiled (:func:`_euler`; its numpy
    oracle is in tests/test_paper_003_branching.py): the proxy takes 10^4 to 10^5 steps per start."""
    return _euler(np.ascontiguousarray(X, dtype=float), np.ascontiguousarray(y, dtype=float),
                  np.array(W, dtype=float, order="C"), np.array(a, dtype=float), float(h),
                  np.asarray(steps, dtype=np.int64), float(kink), float(alpha))


@numba.njit(cache=True)
def _dot(u: np.ndarray, v: np.ndarray) -> float:
    """sum_c u_c v_c, left to right (numba hands np.dot of two vectors to BLAS: ~60 ns a call)."""
    acc = 0.0
    for c in range(u.size):
        acc += u[c] * v[c]
    return acc


@numba.njit(cache=True)
def _euler(X: np.ndarray, y: np.ndarray, W: np.ndarray, a: np.ndarray, h: float, steps: np.ndarray, kink: float,
           alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`fixed_step` in place on (W, a): per step, p_ik = <x_i, w_k>, f_i = sum_k a_k phi(p_ik),
    g_i = (1 - tanh(y_i f_i / 2)) / 2 = -l'(y_i f_i), then w_k += h a_k sum_i g_i y_i phi'(p_ik) x_i and
    a_k += h sum_i g_i y_i phi(p_ik), phi(p) = max(p, alpha p)."""
    n, d = X.shape
    m = W.shape[0]
    xn = np.empty(n)
    for i in range(n):
        xn[i] = math.sqrt(_dot(X[i], X[i]))
    P, S, g, wn = np.empty((n, m)), np.empty((n, m)), np.empty(n), np.empty(m)
    dW, da = np.empty((m, d)), np.empty(m)
    Ws, As = np.empty((steps.size, m, d)), np.empty((steps.size, m))
    k = 0
    for q in range(steps.size):
        while k < steps[q]:
            for j in range(m):
                wn[j] = math.sqrt(_dot(W[j], W[j]))
            for i in range(n):
                f = 0.0
                for j in range(m):
                    p = _dot(X[i], W[j])
                    P[i, j] = p
                    tol = KINK_TOL * xn[i] * wn[j]
                    S[i, j] = 1.0 if p > tol else (alpha if p < -tol else kink)
                    f += (p if p > 0.0 else alpha * p) * a[j]
                g[i] = 0.5 * (1.0 - math.tanh(0.5 * y[i] * f))
            for j in range(m):
                dW[j] = 0.0
                acc = 0.0
                for i in range(n):
                    gy = g[i] * y[i]
                    for c in range(d):
                        dW[j, c] += gy * S[i, j] * X[i, c]
                    acc += gy * (P[i, j] if P[i, j] > 0.0 else alpha * P[i, j])
                da[j] = acc
            for j in range(m):
                for c in range(d):
                    W[j, c] += h * (a[j] * dW[j, c])
                a[j] += h * da[j]
            k += 1
        Ws[q] = W
        As[q] = a
    return Ws, As


def step_size(ds: Dataset) -> float:
    """h = STEP / (n lambda0) (engine time; lambda0 the corrected Phase-I rate, paper time)."""
    return STEP / (ds.n * Q.lambda0(ds.X, ds.y, ALPHA))


def bracket(times: np.ndarray, h: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(steps, lo, hi, w): the step counts that bracket each t, k0 = floor(t/h) and k0 + 1, with 0 first (sorted,
    unique), the indices of k0 and k0 + 1 in them, and t's weight w = t/h - k0 on the upper one."""
    t = np.asarray(times, float)
    k0 = np.floor(t / h + 1e-9).astype(int)
    steps = np.unique(np.r_[0, k0, k0 + 1])
    return steps, np.searchsorted(steps, k0), np.searchsorted(steps, k0 + 1), np.clip(t / h - k0, 0.0, 1.0)


def interpolate(W: np.ndarray, a: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """States at the sample times, linear between the bracketing steps (W (steps, m, d), a (steps, m), step 0 first)."""
    return ((1.0 - w)[:, None, None] * W[lo] + w[:, None, None] * W[hi],
            (1.0 - w)[:, None] * a[lo] + w[:, None] * a[hi])


def separation(W1: np.ndarray, a1: np.ndarray, W2: np.ndarray, a2: np.ndarray) -> tuple[float, int, int]:
    """(max_kj d_kj, k, j): d_kj = ||z_j - z'_j|| / max(||z_j||, ||z'_j||) at sample k, z_j = (w_j, a_j)."""
    Z1 = np.concatenate([W1, a1[..., None]], axis=-1)
    Z2 = np.concatenate([W2, a2[..., None]], axis=-1)
    size = np.maximum(np.linalg.norm(Z1, axis=-1), np.linalg.norm(Z2, axis=-1))
    d = np.where(size > 0.0, np.linalg.norm(Z1 - Z2, axis=-1) / np.where(size > 0.0, size, 1.0), 0.0)
    k, j = np.unravel_index(int(np.argmax(d)), d.shape)
    return float(d[k, j]), int(k), int(j)


def fixed_step_flows(ds: Dataset, W0: np.ndarray, a0: np.ndarray, times: np.ndarray,
                     h: float) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """B (the engine's GD, phi'(0) = alpha), C and C2 (:func:`fixed_step`, phi'(0) = 1, steps h, h/2) at ``times``."""
    steps, lo, hi, w = bracket(times, h)
    gd = simulate(ds, W0, a0, float(steps[-1] * h), loss=LOSS, alpha=ALPHA, times=steps[1:] * h, backend="gd", lr=h)
    runs = {"B": (gd.W, gd.v), "C": fixed_step(ds.X, ds.y, W0, a0, h, steps[1:], 1.0),
            "C2": fixed_step(ds.X, ds.y, W0, a0, h / 2.0, 2 * steps[1:], 1.0)}
    return {name: interpolate(np.concatenate([W0[None], Wk]), np.concatenate([a0[None], ak]), lo, hi, w)
            for name, (Wk, ak) in runs.items()}


@measures("minus the largest per-neuron relative separation of the three flows (dimensionless; error: Euler h vs h/2)")
def flows_agree(run: Any) -> Margin:
    """C-A4.6 proxy (module docstring): the event flow A (the run), the engine's GD B (phi'(0) = alpha) and Euler C
    (phi'(0) = 1) at the run's samples. Value -max(d(A, B), d(A, C), d(B, C)); error SAFETY x 2 max d(C_h, C_h/2)
    + the run's state tolerance (10 (rtol + its error estimate)); site: the sample time and neuron of the largest."""
    ds, W0, a0 = run.dataset, np.asarray(run.W0, float), np.asarray(run.v0, float)
    times = np.asarray(run.times, float)
    h = step_size(ds)
    flows = fixed_step_flows(ds, W0, a0, times, h)
    A = (np.asarray(run.W, float), np.asarray(run.v, float))
    pairs = {"A-B": (A, flows["B"]), "A-C": (A, flows["C"]), "B-C": (flows["B"], flows["C"])}
    seps = {name: separation(*p, *q) for name, (p, q) in pairs.items()}
    richardson = separation(*flows["C"], *flows["C2"])[0]
    est = float(run.trajectory.error_estimate) if run.trajectory is not None else 0.0
    rtol = float(run.params.get("rtol") or RTOL)
    error = SAFETY * 2.0 * richardson + 10.0 * (rtol + (est if math.isfinite(est) else rtol))
    name = max(seps, key=lambda key: seps[key][0])
    d, k, j = seps[name]
    nonunique = int((run.trajectory.stats or {}).get("nonunique", 0)) if run.trajectory is not None else 0
    p = run.scenario.params
    note = (f"largest separation {name} = {d:.3g} (neuron {j}, t = {times[k]:.4g}); "
            + ", ".join(f"{key} {v[0]:.3g}" for key, v in seps.items())
            + f"; Euler h = {h:.3g}: |C_h - C_h/2| = {richardson:.3g}; event run: {len(run.events)} events, "
              f"{nonunique} non-unique kink(s) (alpha side taken); {p.get('start', '')}")
    return Margin(-d, error, note, site={"t": float(times[k]), "j": j})


# --- starts ----------------------------------------------------------------------------------------------------------

def near(rng: np.random.Generator, center: np.ndarray, eps: float) -> np.ndarray:
    """A unit vector u with ||u - center|| <= eps (center a unit vector): a seeded direction at chord length
    eps U, U ~ uniform(0, 1)."""
    z = rng.standard_normal(center.size)
    z -= (z @ center) * center
    z /= np.linalg.norm(z)
    angle = 2.0 * math.asin(min(1.0, eps * float(rng.random()) / 2.0))
    return math.cos(angle) * center + math.sin(angle) * z


def nearest_kink(ds: Dataset, direction: np.ndarray) -> tuple[np.ndarray, int, float]:
    """(u, i, ||u - direction||): the unit u on the kink <u, x_i> = 0 closest to ``direction``, over the data points."""
    Xh = ds.X / np.linalg.norm(ds.X, axis=1, keepdims=True)
    c = Xh @ direction
    i = int(np.argmin(np.abs(c)))
    u = direction - c[i] * Xh[i]
    u /= np.linalg.norm(u)
    return u, i, float(np.linalg.norm(u - direction))


def two_group_start(ds: Dataset, m: int, r: float, eps: float, seed: int,
                    on_kink: bool = False) -> tuple[np.ndarray, np.ndarray, float, str]:
    """Assumption 4.6's set: neurons split in two non-empty groups (seeded), norms uniform in (0.1 r, r), group 1 along
    w+ (:func:`near` mu^), group 2 along w- (near -mu^); ``on_kink``: w+ is the point of a kink nearest to mu^ where
    it is within max(EPSILONS), and eps is then its distance to mu^ (> 0 by A4.5), the smallest eps whose set holds
    the start.
    (W, a, eps, description)."""
    rng = np.random.default_rng(seed)
    mu = Q.mean_signed(ds.X, ds.y)
    mu_hat = mu / np.linalg.norm(mu)
    w_plus, where = near(rng, mu_hat, eps), ""
    if on_kink:
        u, i, dist = nearest_kink(ds, mu_hat)
        if dist <= max(EPSILONS):
            w_plus, eps, where = u, dist, f", w+ on the kink of x_{i}"
    w_minus = near(rng, -mu_hat, eps)
    s = np.ones(m)
    s[rng.permutation(m)[: int(rng.integers(1, m))]] = -1.0
    norms = r * rng.uniform(0.1, 1.0, m)
    W = np.where(s[:, None] > 0.0, w_plus, w_minus) * norms[:, None]
    text = (f"two groups ({int(np.sum(s > 0))} +, {int(np.sum(s < 0))} -), r = {r:g}, eps = {eps:.3g}, "
            f"||w+ - mu^|| = {np.linalg.norm(w_plus - mu_hat):.3g}{where}")
    return W, s * norms, eps, text


@st.composite
def a46_scenarios(draw: st.DrawFn) -> Scenario:
    """:func:`two_group_start` on D-SYM or random symmetric separable data (n/2 in 3..5, d in 2..3), m in 2..4, r in
    RS, eps in EPSILONS, or (one start in two) w+ on the kink nearest to mu^ (where within 0.3)."""
    if draw(st.booleans()):
        ds, data = D.d_sym(), {}
    else:
        data = {"n_half": draw(st.integers(3, 5)), "d": draw(st.integers(2, 3)), "data_seed": draw(SEEDS)}
        ds = D.random_symmetric(data["n_half"], data["d"], seed=data["data_seed"])
    m, r, eps, seed = draw(st.integers(2, 4)), draw(st.sampled_from(RS)), draw(st.sampled_from(EPSILONS)), draw(SEEDS)
    on_kink = draw(st.booleans())
    W, a, eps, text = two_group_start(ds, m, r, eps, seed, on_kink)
    return Scenario(ds, Initialization(W, a, 0.0, "given"), LOSS, ALPHA,
                    {"data": ds.name, "m": m, "r": r, "eps": eps, "init_seed": seed, "on_kink": on_kink,
                     "start": text, **data})


def a46_horizon(scenario: Scenario, audit: Any) -> float:
    """Engine time of paper time ln(1/r)/lambda0 + TAIL."""
    ds = scenario.dataset
    lam = Q.lambda0(ds.X, ds.y, scenario.alpha)
    return engine_time(math.log(1.0 / float(scenario.params["r"])) / lam + TAIL, ds.n)


def symmetric_a45(run: Any) -> bool | str:
    """Assumption 4.6's setting: A4.1 and A4.5 hold (audit)."""
    a = run.audit
    return True if a.symmetric and a.a45 else f"A4.1 / A4.5 not met (symmetric {a.symmetric}, A4.5 {a.a45})"


A46_PROXY = paper_claim(
    id="LY-A46-proxy",
    node="A46", uses=("A41", "A45", "LEAKY"),
    source="Assumption 4.6 (C-A4.6 numerical proxy: two kink rules, event-located vs fixed-step)",
    statement="From random starts in Assumption 4.6's two-group set (m in 2..4, norms < r in {0.01, 0.1}, "
              "||w+ - mu^||, ||w- + mu^|| <= eps in {0.02, 0.1, 0.3}, or, one start in two, w+ exactly on the kink "
              "nearest to mu^ and eps its distance where <= 0.3) on symmetric data, the "
              "event-located flow (phi'(0) = alpha), the fixed-step GD flow (phi'(0) = alpha) and a fixed-step Euler "
              "flow with phi'(0) = 1 agree within the Euler error estimate up to paper time ln(1/r)/lambda0 + 40: no "
              "branching detected",
    check=flows_agree,
    over=a46_scenarios(),
    horizon=a46_horizon,
    rtol=RTOL, samples=SAMPLES, spacing="mixed",
    precondition=symmetric_a45,
    assumptions=A46_CHECKED,
    assumed=A46_ASSUMED,
    tags=("proxy",),
    meta={"budget": {"ci": 6}},
)


# --- planted: a start on a kink that both sides repel (S-14) ---------------------------------------------------------

KINK_DATA = ((1.0, 0.0, 1.0), (-0.75, 1.0, 1.0), (0.0, -1.0, -1.0))  # (x, y): x1's kink repels on both sides at (0, 1)


def repelling_kink_scenario(angle: float, r: float) -> Scenario:
    """S-14's branching start: KINK_DATA and the neurons w1 = r (0, 1), a1 = r (on x1's kink, both sides repelling:
    module docstring) and w2 = r (-0.6, -0.8), a2 = -r, all rotated by ``angle``."""
    c, s = math.cos(angle), math.sin(angle)
    R = np.array([[c, -s], [s, c]])
    rows = np.array(KINK_DATA)
    ds = Dataset(rows[:, :2] @ R.T, rows[:, 2], name="repelling_kink")
    W = np.array([[0.0, r], [-0.6 * r, -0.8 * r]]) @ R.T
    return Scenario(ds, Initialization(W, np.array([r, -r]), 0.0, "given"), LOSS, ALPHA,
                    {"data": ds.name, "m": 2, "r": r, "angle": angle,
                     "start": f"neuron 0 on x_0's repelling kink, r = {r:g}, rotation {angle:.3g}"})


def kink_horizon(scenario: Scenario, audit: Any) -> float:
    """Engine time 5 (the separation peaks at 0.23 to 0.26 by then)."""
    return 5.0


S14_KINK = paper_claim(
    id="S14-A46-repelling-kink",
    node="A46", uses=("LEAKY",),
    source="sheet S-14 ('different kink rules may diverge: an A4.6 issue, not a theorem failure'), planted for C-A4.6",
    statement="PLANTED: the same three flows agree from a start with a neuron exactly on a kink that both sides repel "
              "(non-symmetric data x1 = (1, 0), x2 = (-3/4, 1), x3 = (0, -1), rotated; w1 = r (0, 1), a1 = r): false, "
              "GF branches there, phi'(0) = alpha leaves to one side and phi'(0) = 1 to the other (expected REFUTED; "
              "outside A4.6's set, A4.1 dropped)",
    check=flows_agree,
    over=st.builds(repelling_kink_scenario, st.sampled_from((0.0, 0.4, 1.3)), st.sampled_from(RS)),
    horizon=kink_horizon,
    rtol=RTOL, samples=SAMPLES, spacing="mixed",
    expected=Verdict.REFUTED,
    assumptions=("A3.2 (by construction)", "leaky", "drops A4.1 and the two-group set (a neuron on a repelling kink)"),
    tags=("planted", "proxy"),
    meta={"budget": {"ci": 2}},
)
