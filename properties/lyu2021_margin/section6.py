"""Claim sheet 003, Section 6 (non-symmetric data, balanced init), its definitions: Definition 6.1 (C-D6.1, the hinted
data S') and balancedness and sign preservation ("Corollary B.18", C-S6-bal), with what Section 6's trajectory claims
share (the hinted configurations of the sheet, the tolerance of a read-out). Theorem 6.2, the numeric companion of the
Section-6 intro and S-17 are in :mod:`.theorem62`; the probability of Theorem 6.2 (S-4) is in :mod:`.probability`.

Hinted data are used unscaled (||x1'|| = H > 1, S-12: rescaling data is not a rescaling of time).
"""

from __future__ import annotations

import math
from functools import lru_cache, partial
from typing import Any

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.margins import max_margin
from verify.scenarios import SEEDS, Scenario
from verify.strategies import GeometryCase, as_case
from verify.verdicts import Verdict

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import quantities as Q
from properties.lyu2021_margin._shared import U_ROUND, exact_margin, paper_claim, worst
from properties.lyu2021_margin.scenarios import draw_scenario

HINTED, HINTED_B = (5.0, 1.0, 0.05), (10.0, 2.0, 0.02)  # the sheet's recommended regimes (C-T6.2 table)
H_SMALL = (1.0, 1.0, 0.05)  # S-11: lambda- = 0.180 > lambda+ = 0.167
SAFETY = 100.0  # error of a normalised read-out: SAFETY (rtol + the engine's error estimate)
TEST_POINTS = 512

static_claim = partial(paper_claim, horizon=None, tags=("pointwise", "static"))


@lru_cache(maxsize=8)
def hinted_ds(config: tuple[float, float, float]) -> Dataset:
    """Definition 6.1 on D-S with the sheet's w_perp (cached: the scenarios share it)."""
    return D.hinted(*config)


def tolerance(traj: Any) -> float:
    """SAFETY (rtol + error estimate): the error of a normalised quantity read off a state."""
    est = float(traj.error_estimate)
    return SAFETY * (float(traj.params.get("rtol") or 0.0) + (est if math.isfinite(est) else 0.0))


# --- Definition 6.1 (C-D6.1) ---------------------------------------------------------------------------------------

def perpendicular_unit(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """A unit vector orthogonal to the unit w: v's component off w, normalised; where v lies along w (the strategy's
    draw repeats the data generator's own for some seeds, e.g. random_symmetric(2, 2, seed=376), whose w* it is),
    the component off w of the axis least aligned with w."""
    u = v - (v @ w) * w
    if not np.linalg.norm(u) > 1e-8 * np.linalg.norm(v):
        e = np.eye(w.size)[int(np.argmin(np.abs(w)))]
        u = e - (e @ w) * w
    return u / np.linalg.norm(u)


@lru_cache(maxsize=256)
def _base_set(seed: int, n_half: int | None, d: int | None) -> tuple[Dataset, Any, int]:
    """(S, max_margin(S).svm, uniforms drawn) of :func:`hinted_cases`: D-S (n_half None) or random_symmetric(n_half,
    d, seed) with a seeded subset of rows kept (``uniforms`` draws of default_rng(seed) pick it). Cached: the
    strategy's space is small, and Hypothesis drew it 16,000 times for a 200-example search, three QPs each."""
    if n_half is None:
        S, drawn = D.d_s(), 0
    else:
        full = D.random_symmetric(n_half, d, seed=seed)
        keep = np.random.default_rng(seed).random(full.n) < 0.7
        keep[[0, full.n // 2]] = True
        S, drawn = Dataset(full.X[keep], full.y[keep], name="random separable"), full.n
    return S, max_margin(S).svm, drawn


@st.composite
def hinted_cases(draw: st.DrawFn, eps_factors: tuple[float, ...] = (0.1, 0.5, 0.9, 1.0)) -> GeometryCase:
    """S' = hinted(H, K, eps) of D-S or of a random separable S (random_symmetric data with a seeded subset of rows
    kept, so not symmetric), a random unit w_perp orthogonal to w*(S), eps = f gamma_lin(S), H >= eps."""
    seed = draw(SEEDS)
    if draw(st.booleans()):
        base = {"base": "d_s"}
        S, svm, drawn = _base_set(seed, None, None)
    else:
        base = {"base": "random_symmetric subset", "n_half": draw(st.integers(2, 5)), "d": draw(st.integers(2, 3))}
        S, svm, drawn = _base_set(seed, base["n_half"], base["d"])
    rng = np.random.default_rng(seed)
    rng.random(drawn)  # past the draws that picked S's rows
    eps = draw(st.sampled_from(eps_factors)) * svm.inverse_norm
    H, K = max(eps, draw(st.sampled_from((0.0, 1.0, 5.0)))), draw(st.sampled_from((0.1, 1.0, 2.0, 10.0)))
    ds = D.hinted(H, K, eps, base=S, w_perp=perpendicular_unit(rng.standard_normal(S.d), svm.direction),
                  w_star=svm.direction)
    return GeometryCase(ds, seed, {**base, "H": H, "K": K, "eps": eps, "gamma_S": svm.inverse_norm})


@measures("worst of -||w*(S') - w*(S)||, -|gamma_lin(S') - eps| / eps, support +1/-1, min_w eps cos - min <w, x'>")
def hinted_properties(case: GeometryCase) -> Margin:
    """C-D6.1: w*(S') = w*(S) and gamma_lin(S') = eps (error 10x the QPs' KKT residuals and solver distances); if
    eps < gamma_lin(S) and H > eps the support vectors of S' are exactly x2', x3' (index sets); for 512 seeded unit w,
    min(<w, x2'>, <w, x3'>) <= eps <w, w*> (x2' + x3' = 2 eps w*; error 8 u (eps + K)). Ratio: the max of
    min(<w, x2'>, <w, x3'>) / (eps <w, w*>) over the w with <w, w*> > 0 (the others have a bound <= 0; a negative
    min counts 0)."""
    case = as_case(case)
    ds, p = case.dataset, case.params
    n0, eps, K = ds.n - 3, float(p["eps"]), float(p["K"])
    S, Sh = max_margin(Dataset(ds.X[:n0], ds.y[:n0])).svm, max_margin(ds).svm
    if Sh.direction is None:
        return Margin(-1.0, 0.0, f"S' not separable: {Sh.reason}")
    err = 10.0 * sum(v or 0.0 for v in (S.kkt_residual, Sh.kkt_residual, S.solver_distance, Sh.solver_distance))
    w, dist = S.direction, float(np.linalg.norm(Sh.direction - S.direction))
    parts = [Margin(-dist, err, f"||w*(S') - w*(S)|| = {dist:.3g}"),
             Margin(-abs(Sh.inverse_norm - eps) / eps, err, f"gamma_lin(S') = {Sh.inverse_norm:.12g} vs eps = {eps:.12g} "
                                                            f"(gamma_lin(S) = {S.inverse_norm:.6g}, H = {p['H']:g}, K = {K:g})")]
    if eps < S.inverse_norm * (1.0 - 1e-9) and float(p["H"]) > eps:
        parts.append(exact_margin(sorted(Sh.support) == [n0 + 1, n0 + 2], f"support of S' {Sh.support} (x2', x3' are "
                                                                          f"rows {n0 + 1}, {n0 + 2})"))
    U = case.rng.standard_normal((TEST_POINTS, ds.d))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    low, cos = np.minimum(U @ ds.X[n0 + 1], U @ ds.X[n0 + 2]), U @ w
    gap, up = eps * cos - low, cos > 0.0
    ratio = float(np.max(np.maximum(low[up], 0.0) / (eps * cos[up]))) if np.any(up) else None
    slack = "" if ratio is None else (f"; max over the {int(up.sum())} w with cos(beta) > 0 of min(<w, x2'>, "
                                      f"<w, x3'>) / (eps cos(beta)) = {ratio:.4g}")
    parts.append(Margin(float(gap.min()), 8.0 * U_ROUND * (eps + K), f"min over {TEST_POINTS} unit w of eps cos(beta) - "
                                                                     f"min(<w, x2'>, <w, x3'>) = {gap.min():.3g}"))
    out = worst(parts)
    return Margin(out.value, out.error, out.note + slack, vacuous=out.vacuous, ratio=ratio)


D61 = static_claim(
    id="LY-D61", node="D61", uses=("D33", "A32"),
    source="Definition 6.1 (C-D6.1 derived properties)",
    statement="For S' = S + {(H w*, +1), (eps w* +- K w_perp, +1)} with eps <= gamma_lin(S), H >= eps: w*(S') = w*(S), "
              "gamma_lin(S') = eps, the support vectors are x2', x3' (eps < gamma_lin, H > eps), and min(<w, x2'>, "
              "<w, x3'>) <= eps cos(beta) for every unit w (D-S and random separable S, random w_perp)",
    check=hinted_properties, over=hinted_cases(),
    assumptions=("A3.2 (by construction)", "eps <= gamma_lin(S), H >= eps (by construction)"),
)

D61_EPS_LARGE = static_claim(
    id="LY-D61-eps-large", node="D61", uses=("D33", "A32"),
    source="Definition 6.1 (C-D6.1; planted: eps > gamma_lin(S))",
    statement="PLANTED: the same properties with eps > gamma_lin(S): gamma_lin(S') = eps fails (S's own points bind: "
              "gamma_lin(S') <= gamma_lin(S) < eps)",
    check=hinted_properties, over=hinted_cases(eps_factors=(1.5, 2.0, 4.0)),
    expected=Verdict.REFUTED, assumptions=("A3.2 (by construction)", "drops eps <= gamma_lin(S)"),
    tags=("pointwise", "static", "planted"),
)


# --- balancedness and sign preservation (C-S6-bal, "Corollary B.18") -----------------------------------------------

@st.composite
def bal_scenarios(draw: st.DrawFn, kind: str = "balanced") -> Scenario:
    """D~_init ("balanced") or D_init draws, m in 1..4, sigma in {1e-2, 1e-4}, on hinted (5, 1, 0.05), (1, 1, 0.05) or
    D-S."""
    ds = draw(st.sampled_from((lambda: hinted_ds(HINTED), lambda: hinted_ds(H_SMALL), D.d_s)))()
    m, seed = draw(st.integers(1, 4)), draw(SEEDS)
    theta = Q.balanced_draw(m, ds.d, seed) if kind == "balanced" else Q.d_init(m, ds.d, seed)
    return draw_scenario(ds, theta, draw(st.sampled_from((1e-2, 1e-4))))


@measures("minus the max relative drift of a_k^2 - ||w_k||^2 (dimensionless)")
def balance_drift(run: Any) -> Margin:
    """a_k^2 - ||w_k||^2 is constant along GF: max_{t,k} |c_k(t) - c_k(0)| / max(a_k^2, ||w_k||^2)(t) (error
    SAFETY (rtol + error estimate))."""
    a2, nw2 = run.v**2, np.sum(run.W**2, axis=2)
    drift = np.abs(a2 - nw2 - (a2[0] - nw2[0])) / np.maximum(np.maximum(a2, nw2), np.finfo(float).tiny)
    k, j = np.unravel_index(int(np.argmax(drift)), drift.shape)
    return Margin(-float(drift[k, j]), tolerance(run.trajectory), f"relative drift of a^2 - ||w||^2: {drift[k, j]:.3g} "
                                                                  f"(neuron {j}, t = {run.times[k]:.4g})",
                  site={"t": float(run.times[k]), "j": int(j)})


@measures("worst of -(relative drift of a_k^2 - ||w_k||^2), -|a_k - s_k ||w_k||| / ||theta_k||, min s_k a_k / ||theta_k||")
def signs_and_balance(run: Any) -> Margin:
    """Corollary B.18: the drift of :func:`balance_drift`; where a_k(0)^2 = ||w_k(0)||^2 (to 8 u), |a_k - s_k ||w_k|||
    / ||theta_k|| stays at integrator level; and every a_k keeps its sign: min_{t,k} s_k a_k / ||theta_k|| > 0 with
    s_k = sign(a_k(0)) (1/sqrt 2 when balanced). Error SAFETY (rtol + error estimate)."""
    a, nw2 = run.v, np.sum(run.W**2, axis=2)
    s, size, tol = np.sign(a[0]), np.maximum(np.sqrt(a**2 + nw2), np.finfo(float).tiny), tolerance(run.trajectory)
    parts = [balance_drift(run)]
    bal = np.abs(a[0] ** 2 - nw2[0]) <= 8.0 * U_ROUND * (a[0] ** 2 + nw2[0])
    if np.any(bal):
        dev = np.abs(a[:, bal] - s[bal] * np.sqrt(nw2[:, bal])) / size[:, bal]
        parts.append(Margin(-float(dev.max()), tol, f"max |a_k - s_k ||w_k||| / ||theta_k|| = {dev.max():.3g}"))
    keep = s * a / size
    k, j = np.unravel_index(int(np.argmin(keep)), keep.shape)
    parts.append(Margin(float(keep[k, j]), tol, f"min s_k a_k / ||theta_k|| = {keep[k, j]:.3g} (neuron {j}, t = "
                                                f"{run.times[k]:.4g}; a_k^2 - ||w_k||^2 at 0: {a[0, j]**2 - nw2[0, j]:.3g})",
                        site={"t": float(run.times[k]), "j": int(j)}))
    return worst(parts)


BAL = paper_claim(
    id="LY-S6-bal", node="BAL", uses=("LEAKY",),
    source="Section 6, 'Corollary B.18' (C-S6-bal)",
    statement="Under D~_init (a_k = s_k ||w_k|| at 0) GF keeps a_k(t) = s_k ||w_k(t)|| and sign(a_k) for all t, and "
              "a_k^2 - ||w_k||^2 is conserved (integrated in Cartesian form, where balance is not built into the state)",
    check=signs_and_balance, over=bal_scenarios("balanced"),
    horizon=1e2, samples=40, spacing="log", form="cartesian",
    assumptions=("leaky", "D~_init"), meta={"budget": {"ci": 6}},
)

BAL_DINIT = paper_claim(
    id="LY-S6-bal-Dinit", node="BAL", uses=("LEAKY",),
    source="Section 6 (C-S6-bal: a_k^2 - ||w_k||^2 conserved in general)",
    statement="Under D_init (unbalanced) a_k^2 - ||w_k||^2 is conserved along GF (relative drift at integrator level)",
    check=balance_drift, over=bal_scenarios("D_init"),
    horizon=1e2, samples=40, spacing="log",
    assumptions=("leaky", "D_init"), meta={"budget": {"ci": 6}},
)


def flip_scenario(name: str, m: int, seed: int, sigma: float) -> Scenario:
    """A D_init draw whose neuron 0 is replaced by w-bar_0 = ||w-bar_0|| u_-, a-bar_0 = +0.1 ||w-bar_0|| (u_- = argmin G,
    G(u_-) < 0): ||w-bar_0|| > |a-bar_0|, and on D-SYM b-bar_0 = (<w-bar_0, mu^> + a-bar_0) / (...) < 0 < a-bar_0."""
    ds = D.d_sym() if name == "d_sym" else hinted_ds(HINTED)
    theta = Q.d_init(m, ds.d, seed)
    W, a = theta.W.copy(), theta.a.copy()
    r = float(np.linalg.norm(W[0]))
    W[0], a[0] = r * Q.sphere_extremes(ds.X, ds.y, samples=4000)[3], 0.1 * r
    return draw_scenario(ds, Q.Draw(W, a, "D_init", seed), sigma, construction="neuron 0 along argmin G, a-bar_0 > 0")


BAL_FLIP = paper_claim(
    id="LY-S6-bal-Dinit-signs", node="BAL", uses=("LEAKY",),
    source="Section 6 / Lemma 5.2 (C-S6-bal: under D_init the sign of a_k may flip; planted)",
    statement="PLANTED: Corollary B.18's sign preservation under D_init; refuted by constructed draws with ||w-bar_0|| > "
              "|a-bar_0| = a-bar_0 and G(w-bar_0) < 0 (on D-SYM: b-bar_0 < 0): a_0 crosses 0 in Phase I",
    check=signs_and_balance,
    over=st.builds(flip_scenario, st.sampled_from(("d_sym", "hinted")), st.integers(1, 3), st.integers(0, 20),
                   st.sampled_from((1e-2, 1e-4))),
    horizon=1e2, samples=40, spacing="log",
    expected=Verdict.REFUTED, tags=("planted",),
    assumptions=("leaky", "D_init", "drops balance (a_k = s_k ||w_k|| at 0)"),
)
