"""Claim sheet 002, the static (data-only and any-W) part of Section 6.2: Lemma 6.1 (LT-L61) with the planted P7
(gamma = 0) and P8 (no antipodal symmetry), the static core of Theorem 6.2, LT-X3 (App. G.1, eqs. (28)-(30)), with its
planted P17 twins, and the QP (8) on antipodal data, LT-X4 with P11 and LT-X5 with P10's data-only reason. The SVM
view of QP (8) and Theorem 6.2 on trajectories are in :mod:`.theorem62`.

A_gamma, B_gamma in the norm-constrained reading (sheet 1.10): A_gamma = {||w|| <= 1 : <w, x> >= gamma on S+ and
<w, x'> >= gamma for some x' in S-}, so A_gamma is empty iff gamma > Gamma_A = max_{x' in S-} dist(0, conv(S+ u {x'}))
(:func:`quantities.misclassifying_margins`, one min-norm QP per x'). In 2-D Gamma_A is also read off a grid of unit
vectors w(theta) (:func:`grid_misclassifying_margins`, an independent path with the bound (dtheta / 2) B).

LT-X3: for any W and a positive x_j with <w^(i), x_j> <= 0 for all i, q_j <= alpha ||x_j|| sum_i ||u^(i)||
<= alpha sqrt(k) ||x_j|| ||W|| (negative points: the same with the roles of w and u exchanged); hence
gamma-bar(W) > alpha sqrt(k) B makes every positive point activate a + neuron and every negative point a - neuron,
and with NAR agreement and gamma_NAR > max(Gamma_A, Gamma_B), W is in the PAR. W is drawn in a given NAR by putting
each cluster's rows in the agreement cone of a direction; a tight family (u^(i) = -c x^_j, w^(i) = -eps c x^_j)
attains ratio ~ 1, so the twins with alpha / 2 or without sqrt(k) fail there (P17).

QP (8) (verify's min-norm-point solver, :func:`quantities.par_svm`): on antipodal data (w~, u~) = (w_svm, -w_svm) /
(1 + alpha) (LT-X4), and gamma_max^PAR = gamma_S / sqrt(2k) > 0 (LT-X5); solution tolerances come from the solvers'
KKT residuals (:func:`solution_error`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from verify.audit import audit
from verify.claims.model import Margin, measures
from verify.data.dataset import Dataset
from verify.margins import max_margin
from verify.scenarios import SEEDS
from verify.verdicts import Verdict

from properties.sarussi2021_linear_teachers import datasets as D
from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers import quantities as Q
from properties.sarussi2021_linear_teachers._shared import ALPHA, SEED, exact_margin, paper_claim, worst

GAMMA_TOL = 1e-9  # Gamma from min-norm QPs with KKT residuals ~1e-14: a Gamma below this is 0 (sheet 2.3 LT-L61)
GRID = 20000  # unit vectors w(theta) of the 2-D grid path; its error is (pi / GRID) B
ROUNDING = 64 * np.finfo(float).eps  # relative rounding of a sum of a few dozen float64 products
SYM_HYP = ("antipodal data (x in S => -x in S; Lemma 6.1's hypothesis, by construction)",)


# --- data strategies -------------------------------------------------------------------------------------------------

def symmetric_sets() -> st.SearchStrategy[Dataset]:
    """Antipodal data: verify's symmetric teacher (n_half 1..12, d 1..4) or Figure 4's symmetric Gaussians (2-D)."""
    return st.one_of(
        st.builds(D.symmetric_teacher, st.integers(1, 12), st.integers(1, 4), st.sampled_from((0.05, 0.1, 0.3, 0.6)),
                  SEEDS),
        st.builds(D.symmetric_gaussians, st.integers(2, 15), st.sampled_from((0.1, 0.3)), SEEDS))


def asymmetric_sets() -> st.SearchStrategy[Dataset]:
    """P8's data: the asymmetric 2-D Gaussians (sheet 5.2) or Figure 9's outlier set, n_half 5..15."""
    return st.one_of(st.builds(D.asymmetric_gaussians, st.integers(5, 15), st.just(0.3), SEEDS),
                     st.builds(D.outlier, st.integers(5, 15), st.just(0.2), SEEDS))


# --- Lemma 6.1 (LT-L61), P7, P8 ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class EmptinessCase:
    """'A_gamma = B_gamma = empty for every gamma > floor' (``closed``: for every gamma >= floor) on ``ds``."""

    ds: Dataset
    floor: float = 0.0
    closed: bool = False


@measures("floor - max(Gamma_A, Gamma_B) (units of ||x||); -1: w = 0 is an exact witness in A_0")
def emptiness_margin(case: EmptinessCase) -> Margin:
    """A_gamma = B_gamma = empty for all gamma > g iff max(Gamma_A, Gamma_B) <= g: value g - max(Gamma_A, Gamma_B),
    error GAMMA_TOL (the QPs' accuracy). With gamma = g included (``closed``) and g <= 0, w = 0 is an exact witness
    in A_0 (<0, x> = 0 >= 0 on S+ and on any x' in S-; ||0|| <= 1) whenever S- is non-empty."""
    X, y = case.ds.X, case.ds.y
    if case.closed and case.floor <= 0.0 and np.any(y < 0) and np.any(y > 0):
        return exact_margin(False, f"w = 0 lies in A_{case.floor:g}: <0, x> = 0 >= {case.floor:g} on S+ and on S-")
    ga, gb = Q.misclassifying_margins(X, y)
    return Margin(case.floor - max(ga, gb), GAMMA_TOL,
                  f"Gamma_A = {ga:.3g}, Gamma_B = {gb:.3g} (A_gamma, B_gamma empty iff gamma > Gamma) on {case.ds.name}")


L61 = paper_claim(
    "Lemma 6.1 (LT-L61)",
    id="LT-L61", node="L61", uses=("SYM",),
    statement="If x in S => -x in S then A_gamma = B_gamma = empty for every gamma > 0: Gamma_A = Gamma_B = 0 "
              "(max_{x' in S-} dist(0, conv(S+ u {x'})), min-norm QPs, within 1e-9)",
    check=emptiness_margin,
    over=st.builds(EmptinessCase, symmetric_sets()),
    assumptions=SYM_HYP,
)

P7_L61 = paper_claim(
    "sheet 5.2 P7 (Lemma 6.1 with gamma = 0)",
    id="P7-L61-gamma0", node="L61", uses=("SYM",),
    statement="PLANTED: Lemma 6.1 with gamma = 0 allowed (A_0 = B_0 = empty on antipodal data); w = 0 is in A_0 exactly",
    check=emptiness_margin,
    over=st.builds(EmptinessCase, symmetric_sets(), st.just(0.0), st.just(True)),
    expected=Verdict.REFUTED, assumptions=SYM_HYP, tags=("planted",),
)

P8_L61 = paper_claim(
    "sheet 5.2 P8 (Lemma 6.1's conclusion without its hypothesis)",
    id="P8-L61-nosym", node="L61",
    statement="PLANTED: A_gamma = B_gamma = empty for every gamma > 0 without antipodal symmetry (asymmetric Gaussians, "
              "Figure 9's outlier set); Gamma_A or Gamma_B > 0 there",
    check=emptiness_margin,
    over=st.builds(EmptinessCase, asymmetric_sets()),
    expected=Verdict.REFUTED, assumptions=("drops the antipodal hypothesis",), tags=("planted",),
)


def grid_cone_values(rows: np.ndarray, grid: int = GRID) -> np.ndarray:
    """min_i <w(theta), x_i> on the grid theta = 2 pi m / grid (2-D rows)."""
    theta = 2.0 * math.pi * np.arange(grid) / grid
    return np.min(np.stack([np.cos(theta), np.sin(theta)], axis=1) @ np.asarray(rows, float).T, axis=1)


def grid_misclassifying_margins(X: np.ndarray, y: np.ndarray, grid: int = GRID) -> tuple[float, float]:
    """(Gamma_A, Gamma_B) in 2-D by a grid of unit vectors: max_{x'} max(0, max_theta min(<w, S+>, <w, x'>)). It is at
    most the true value and at least the true value minus (pi / grid) max ||x|| (<w(theta), x> is ||x||-Lipschitz in
    theta)."""
    X, y = np.asarray(X, float), np.asarray(y, float)

    def one(keep: np.ndarray, others: np.ndarray) -> float:
        if keep.size == 0 or others.size == 0:
            return 0.0
        base = grid_cone_values(keep, grid)
        return max(0.0, max(float(np.max(np.minimum(base, grid_cone_values(x[None, :], grid)))) for x in others))

    return one(X[y > 0], X[y < 0]), one(X[y < 0], X[y > 0])


@measures("worst of the audit's exact flag (+1 / -1), max Gamma - 1e-9, grid-vs-QP Gamma slacks (units of ||x||)")
def flagged_margin(ds: Dataset) -> Margin:
    """The audit's Lemma 6.1 test flags ``ds`` (its antipodal finding fails: mismatch / B > 1e-12), its Thm 6.2 hyp. 4
    row reports A_gamma != empty for small gamma (max(Gamma_A, Gamma_B) > GAMMA_TOL), and in 2-D the grid path agrees
    with the QPs: Gamma_grid <= Gamma_QP + GAMMA_TOL <= Gamma_grid + (pi / GRID) B + 2 GAMMA_TOL."""
    hook = audit(ds, papers=(SEED,)).papers[SEED]
    q = hook.quantities
    sym = next(f for f in hook.findings if f.name.startswith("Lemma 6.1"))
    ga, gb = q["gamma_A"], q["gamma_B"]
    parts = [exact_margin(sym.holds is False, f"the audit's antipodal test: mismatch / B = {q['antipodal_mismatch']:.3g}"),
             Margin(max(ga, gb) - GAMMA_TOL, 0.0, f"Gamma_A = {ga:.4g}, Gamma_B = {gb:.4g} (audit)")]
    if ds.d == 2:
        step = math.pi / GRID * Q.data_radius(ds.X)
        for name, qp, grid in zip(("Gamma_A", "Gamma_B"), (ga, gb), grid_misclassifying_margins(ds.X, ds.y)):
            parts.append(Margin(qp + GAMMA_TOL - grid, 0.0, f"{name}: grid {grid:.6g} <= QP {qp:.6g}"))
            parts.append(Margin(grid + step + GAMMA_TOL - qp, GAMMA_TOL, f"{name}: QP {qp:.6g} <= grid {grid:.6g} + {step:.2g}"))
    return worst(parts)


P8_FLAGGED = paper_claim(
    "sheet 5.2 P8 (Lemma 6.1 SKIP: the hypothesis test flags the data; Gamma validated)",
    id="P8-L61-flagged", node="L61", uses=("SYM",),
    statement="On P8's asymmetric data the audit reports Lemma 6.1's hypothesis violated (x in S => -x in S fails) and "
              "Thm 6.2 hyp. 4 violated for small gamma (Gamma_A or Gamma_B > 0), with Gamma cross-checked in 2-D by a "
              "grid of unit vectors (error (pi / 20000) B): Lemma 6.1 is skipped there, not refuted",
    check=flagged_margin,
    over=asymmetric_sets(),
    assumptions=("asymmetric data (antipodal hypothesis absent by construction)",),
)

P8_FLAG_TWIN = paper_claim(
    "sheet 5.2 P8 (twin: the hypothesis test on antipodal data)",
    id="P8-L61-flagged-sym", node="L61", uses=("SYM",),
    statement="PLANTED: the audit flags antipodal data too (Lemma 6.1's hypothesis reported violated, Gamma > 0); it "
              "must not",
    check=flagged_margin,
    over=symmetric_sets(),
    expected=Verdict.REFUTED, assumptions=SYM_HYP, tags=("planted",),
)


# --- LT-X3: the static core of Theorem 6.2 (App. G.1) ---------------------------------------------------------------

@dataclass(frozen=True)
class NarCase:
    """A network W (2k, d) on ``ds``; the bound is read with ``factor`` alpha (and sqrt(k) unless not ``sqrt_k``)."""

    ds: Dataset
    W: np.ndarray
    label: str
    factor: float = 1.0
    sqrt_k: bool = True


def cone_cluster(X: np.ndarray, direction: np.ndarray, k: int, spread: float, scales: np.ndarray,
                 rng: np.random.Generator) -> np.ndarray:
    """k rows scales_i (v + spread s delta_i), v = direction / ||direction||, ||delta_i|| < 1 and s = min_j |<v, x_j>| /
    ||x_j||: each row has sign <row, x_j> = sign <v, x_j> on every point (spread < 1), so the rows agree."""
    v = direction / np.linalg.norm(direction)
    slack = float(np.min(np.abs(X @ v) / np.linalg.norm(X, axis=1)))
    delta = rng.standard_normal((k, X.shape[1]))
    delta *= (rng.uniform(0.0, 1.0, (k, 1)) ** (1.0 / X.shape[1])) / np.linalg.norm(delta, axis=1, keepdims=True)
    return scales[:, None] * (v[None, :] + spread * slack * delta)


def rotated(w: np.ndarray, angle: float, rng: np.random.Generator) -> np.ndarray:
    """The unit vector at ``angle`` from w^ toward a random orthogonal direction (w^ itself in 1-D unless angle > pi/2)."""
    w = w / np.linalg.norm(w)
    xi = rng.standard_normal(w.size)
    xi -= (xi @ w) * w
    if np.linalg.norm(xi) < 1e-12:
        return w if math.cos(angle) >= 0.0 else -w
    return math.cos(angle) * w + math.sin(angle) * xi / np.linalg.norm(xi)


@st.composite
def nar_cases(draw: st.DrawFn, factor: float = 1.0, sqrt_k: bool = True, tight_only: bool = False) -> NarCase:
    """W in an NAR on antipodal or teacher data: "cones" (each cluster in the agreement cone of w_svm rotated by an
    angle, rows scaled at random) or "tight" (a positive x_j with u^(i) = -c x^_j, w^(i) = -eps c x^_j: LT-X3's bound
    is attained up to eps)."""
    ds = draw(st.one_of(symmetric_sets(), st.builds(D.teacher, st.integers(2, 12), st.integers(1, 4),
                                                    st.sampled_from((0.1, 0.3, 0.6)), SEEDS)))
    k, seed = draw(st.integers(2 if not sqrt_k else 1, 5)), draw(SEEDS)
    rng = np.random.default_rng(seed)
    w_svm = max_margin(ds).svm.direction
    if tight_only or draw(st.integers(0, 2)) == 0:
        j = int(np.flatnonzero(ds.y > 0)[0])
        x_hat = ds.X[j] / np.linalg.norm(ds.X[j])
        eps, c = draw(st.sampled_from((1e-1, 1e-2, 1e-3))), draw(st.sampled_from((1e-3, 1.0, 1e3)))
        W = np.vstack([np.tile(-eps * c * x_hat, (k, 1)), np.tile(-c * x_hat, (k, 1))])
        return NarCase(ds, W, f"tight at x_{j} (eps {eps:g}, c {c:g}, k {k})", factor, sqrt_k)
    angles = (0.0, 0.1, 0.3, 1.0, 2.0, math.pi)
    a_plus, a_minus = draw(st.sampled_from(angles)), draw(st.sampled_from(angles))
    spread = draw(st.sampled_from((0.0, 0.5, 0.99)))
    plus = cone_cluster(ds.X, rotated(w_svm, a_plus, rng), k, spread, rng.uniform(0.1, 1.0, k), rng)
    minus = cone_cluster(ds.X, -rotated(w_svm, a_minus, rng), k, spread, rng.uniform(0.1, 1.0, k), rng)
    return NarCase(ds, np.vstack([plus, minus]), f"cones at {a_plus:.3g} / {a_minus:.3g} from +-w_svm, spread "
                   f"{spread:g}, k {k}", factor, sqrt_k)


@measures("worst of (bound - q_j) / (alpha ||x_j|| ||W||) at inactive points and exact activation / PAR tests (+1/-1)")
def x3_margin(case: NarCase) -> Margin:
    """LT-X3 on one W: (1) q_j <= f alpha ||x_j|| sum ||u^(i)|| and q_j <= f alpha sqrt(k) ||x_j|| ||W|| at every
    positive point no + neuron activates (and symmetrically), value (bound - q_j) / (alpha ||x_j|| ||W||), ratio
    q_j / bound; (2) gamma-bar > f alpha sqrt(k) B => every point activates a neuron of its class (exact); (3) if
    also in an NAR with gamma_NAR > max(Gamma_A, Gamma_B): W in the PAR (exact). Vacuous when nothing applies."""
    X, y, W = case.ds.X, case.ds.y, case.W
    k = W.shape[0] // 2
    Wp, Wm = N.halves(W)
    Pp, Pm = X @ Wp.T, X @ Wm.T
    q = N.margins(W, X, y, ALPHA)
    norm_w, xn = float(np.linalg.norm(W)), np.linalg.norm(X, axis=1)
    root = math.sqrt(k) if case.sqrt_k else 1.0
    parts: list[Margin] = []
    for dead, other in (((y > 0) & (np.max(Pp, axis=1) <= 0.0), Wm), ((y < 0) & (np.max(Pm, axis=1) <= 0.0), Wp)):
        rows = float(np.sum(np.linalg.norm(other, axis=1)))
        for j in np.flatnonzero(dead):
            unit = ALPHA * xn[j] * norm_w
            for bound, what in ((case.factor * ALPHA * xn[j] * rows, "sum ||rows||"),
                                (case.factor * ALPHA * root * xn[j] * norm_w, "sqrt(k) ||W||" if case.sqrt_k else "||W||")):
                parts.append(Margin((bound - q[j]) / unit, ROUNDING * (abs(bound) + abs(q[j])) / unit,
                                    f"x_{j} inactive for its class: q_j = {q[j]:.6g} vs {case.factor:g} alpha ||x_j|| "
                                    f"{what} = {bound:.6g} ({case.label})", ratio=max(0.0, q[j] / bound),
                                    site={"i": int(j)}))
    threshold = case.factor * ALPHA * root * Q.data_radius(X)
    gamma_bar = float(np.min(q)) / norm_w
    if gamma_bar > threshold:
        active = np.where(y > 0, np.max(Pp, axis=1), np.max(Pm, axis=1))
        parts.append(exact_margin(bool(np.all(active > 0.0)), f"gamma-bar {gamma_bar:.4g} > {threshold:.4g}: every point "
                                  f"activates its class ({case.label})"))
        agree = N.agreement(W, X)
        if agree.nar and agree.gamma > max(Q.misclassifying_margins(X, y)):
            parts.append(exact_margin(agree.par(y), f"NAR with gamma {agree.gamma:.3g} > max Gamma: PAR ({case.label})"))
    return worst(parts, f"no inactive point and gamma-bar {gamma_bar:.3g} <= {threshold:.3g} ({case.label})")


X3_HYP = ("leaky (alpha = 0.2)", "W drawn in an NAR (agreement cones) or the tight family")

X3 = paper_claim(
    "Theorem 6.2's proof, App. G.1 eqs. (28)-(30) (LT-X3)",
    id="LT-X3", node="X3", uses=("LEAKY", "H3", "H4", "NARH"),
    statement="For any W and a positive x_j with <w^(i), x_j> <= 0 for all i: q_j <= alpha ||x_j|| sum_i ||u^(i)|| <= "
              "alpha sqrt(k) ||x_j|| ||W|| (negative points symmetrically); hence gamma-bar(W) > alpha sqrt(k) B makes "
              "every point activate a neuron of its class, and in an NAR with A_gamma = B_gamma = empty W is in the PAR",
    check=x3_margin,
    over=nar_cases(),
    assumptions=X3_HYP,
)

P17_HALF = paper_claim(
    "sheet 5.2 P17 (LT-X3 with alpha / 2)",
    id="P17-X3-half-alpha", node="X3", uses=("LEAKY",),
    statement="PLANTED: LT-X3's bound with alpha / 2: q_j <= (alpha / 2) ||x_j|| sum_i ||u^(i)||; the tight W "
              "(u^(i) = -c x^_j) reaches twice that",
    check=x3_margin,
    over=nar_cases(factor=0.5, tight_only=True),
    expected=Verdict.REFUTED, assumptions=X3_HYP, tags=("planted",),
)

P17_ROOT = paper_claim(
    "sheet 5.2 P17 (LT-X3 without sqrt(k))",
    id="P17-X3-no-sqrtk", node="X3", uses=("LEAKY",),
    statement="PLANTED: LT-X3's bound without sqrt(k): q_j <= alpha ||x_j|| ||W||; the tight W with k >= 2 equal "
              "- neurons reaches sqrt(k) times that",
    check=x3_margin,
    over=nar_cases(sqrt_k=False, tight_only=True),
    expected=Verdict.REFUTED, assumptions=X3_HYP, tags=("planted",),
)


# --- QP (8) on antipodal data: LT-X4, P11 --------------------------------------------------------------------------

@dataclass(frozen=True)
class QpCase:
    """QP (8) on ``ds`` at width k (k only scales gamma_max^PAR); ``kernel`` "paper" (sheet 1.10) or "label-blind"
    (<x, x'> (1 + alpha^2) for every pair: the sheet's equal-label case read for all pairs)."""

    ds: Dataset
    k: int = 1
    kernel: str = "paper"


def solution_error(kkt: float | None, *others: float | None) -> float:
    """The solution error allowed by KKT residuals eps: O(sqrt(eps)) (complementarity enters under a square root):
    10 sqrt(sum eps) + 1e-9."""
    return 10.0 * math.sqrt(sum(e for e in (kkt, *others) if e is not None)) + 1e-9


@measures("-max(relative distance of (w~, u~) to (w_svm, -w_svm) / (1 + alpha), 1 - cos(w~ - u~, w_svm))")
def symmetric_solution_margin(case: QpCase) -> Margin:
    """LT-X4: (w~, u~) = (w_svm, -w_svm) / (1 + alpha) and w~ - u~ parallel to w_svm. Value -max(relative distance,
    1 - cos(w~ - u~, w_svm)); error from both solvers' KKT residuals (:func:`solution_error`)."""
    par, svm = Q.par_svm(case.ds.X, case.ds.y, ALPHA), max_margin(case.ds).svm
    if par.w is None or svm.w is None:
        return Margin(0.0, 0.0, "not separable through the origin", vacuous=True)
    z, pred = np.r_[par.w, par.u], np.r_[svm.w, -svm.w] / (1.0 + ALPHA)
    rel = float(np.linalg.norm(z - pred) / np.linalg.norm(pred))
    gap = par.w - par.u
    cos = float(gap @ svm.w / (np.linalg.norm(gap) * np.linalg.norm(svm.w)))
    return Margin(-max(rel, 1.0 - cos), solution_error(par.point.kkt_residual, svm.kkt_residual),
                  f"||(w~, u~) - (w_svm, -w_svm)/(1+alpha)|| / ||.|| = {rel:.3g}, cos(w~ - u~, w_svm) = {cos:.9f}; "
                  f"w~ = {np.round(par.w, 4).tolist()}, u~ = {np.round(par.u, 4).tolist()} on {case.ds.name}")


X4 = paper_claim(
    "Theorem 6.2 / QP (8) on antipodal data (LT-X4)",
    id="LT-X4", node="QP8", uses=("SYM", "L61"),
    statement="If S- = -S+, QP (8) is solved by w~ = w_svm / (1 + alpha), u~ = -w~ (w_svm the hard-margin SVM through "
              "0), so the predicted boundary is sign <w_svm, x>; tolerance from both solvers' KKT residuals",
    check=symmetric_solution_margin,
    over=st.builds(QpCase, symmetric_sets()),
    assumptions=SYM_HYP,
)

P11_SVM = paper_claim(
    "sheet 5.2 P11 (QP (8) replaced by the plain linear SVM)",
    id="P11-QP8-svm", node="QP8",
    statement="PLANTED: Theorem 6.2's limit is the plain linear SVM on any separable data: (w~, u~) = (w_svm, -w_svm) / "
              "(1 + alpha) with w~ - u~ parallel to w_svm, on asymmetric data (sheet: w_svm along (0.991, 0.136) vs "
              "w~ along (0.849, 0.528))",
    check=symmetric_solution_margin,
    over=st.builds(QpCase, asymmetric_sets()),
    expected=Verdict.REFUTED, assumptions=("drops the antipodal hypothesis",), tags=("planted",),
)


# --- LT-X5: the QP's solution lies in the PAR ----------------------------------------------------------------------

@measures("worst of gamma_max^PAR (normalised margin) and, antipodal data, -|gamma_max^PAR - gamma_S / sqrt(2k)|")
def par_consistency_margin(case: QpCase) -> Margin:
    """LT-X5: gamma_max^PAR = min_j min(y_j <w~, x_j>, -y_j <u~, x_j>) / Z > 0 (value, ratio-free); on antipodal data
    also gamma_max^PAR = gamma_S / sqrt(2k) (w~ = w_svm / (1 + alpha), min_j y_j <w_svm, x_j> = 1)."""
    X, y = case.ds.X, case.ds.y
    par = Q.par_svm(X, y, ALPHA)
    if par.w is None:
        return Margin(0.0, 0.0, "QP (8) infeasible", vacuous=True)
    g = par.par_margin(X, y, case.k)
    parts = [Margin(g, ROUNDING * par.limit_margin(case.k), f"gamma_max^PAR = {g:.6g} (k = {case.k}) on {case.ds.name}")]
    if Q.antipodal_mismatch(X) <= 1e-12:
        closed = max_margin(case.ds).svm.inverse_norm / math.sqrt(2.0 * case.k)
        parts.append(Margin(-abs(g - closed), solution_error(par.point.kkt_residual) * closed,
                            f"gamma_max^PAR = {g:.9g} vs gamma_S / sqrt(2k) = {closed:.9g}"))
    return worst(parts)


X5 = paper_claim(
    "Theorem 6.2, data-only consistency (LT-X5)",
    id="LT-X5", node="QP8", uses=("SYM", "H4"),
    statement="On antipodal data the QP (8) solution lies in the PAR: gamma_max^PAR = min_j min(y_j <w~, x_j>, "
              "-y_j <u~, x_j>) / Z > 0, and equals gamma_S / sqrt(2k)",
    check=par_consistency_margin,
    over=st.builds(QpCase, symmetric_sets(), st.integers(1, 5)),
    assumptions=SYM_HYP,
)

P10_X5 = paper_claim(
    "sheet 5.2 P10 (LT-X5 without hypothesis 4: the data-only reason)",
    id="P10-X5-nosym", node="QP8", uses=("H4",),
    statement="PLANTED: the QP (8) solution lies in the PAR on any separable data; on P10's asymmetric Gaussians "
              "gamma_max^PAR < 0 (then Theorem 6.2's hypotheses are jointly unsatisfiable)",
    check=par_consistency_margin,
    over=st.builds(QpCase, st.builds(D.asymmetric_gaussians, st.sampled_from((30, 50)), st.just(0.3),
                                     st.sampled_from((0, 3, 4, 6))), st.integers(1, 5)),
    expected=Verdict.REFUTED, assumptions=("drops hyp. 4 (asymmetric data)",), tags=("planted",),
)
