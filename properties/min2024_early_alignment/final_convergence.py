"""Claim sheet 004, section 2.F (final convergence, App. D; Theorem 1 part 2): EA-F1 Lemma 13, EA-F2 the
decomposition (32), EA-F3 eqs. (34)-(35), EA-F4 the loss rate, EA-F6 the t2 bound (39) and EA-F5
the refined alignment (37)-(38), with the planted counterexample P11 (t2 = O(log(1/eps)/n) needs
balanced classes, erratum 8) and the negative controls P11 (balanced classes, (39) itself) and P12.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st
from scipy.special import logsumexp

from properties.min2024_early_alignment import patterns as pat
from properties.min2024_early_alignment import measures as tm
from verify.claims.model import Margin, measures
from verify.data import generators as gen
from properties.min2024_early_alignment import datasets as d004
from verify.scenarios import SEEDS, Scenario
from verify.verdicts import Verdict

from properties.min2024_early_alignment.audit import required_log_eps
from properties.min2024_early_alignment._shared import THEOREM_POLAR, _groups, _t2_data, _worst, bracketed_ratio, paper_claim
from properties.min2024_early_alignment.preconditions import _h_part2, _part2, _theorem_scale
from properties.min2024_early_alignment.theorem_scale import THEOREM, _rot, _scenario, part2_claim


@measures("min over t <= t1, j of r_j(t) - r_j(0) + 2 n X_max t, r_j = ln ||w_j|| (log-norm units)")
def lemma13_margin(run) -> Margin:
    """EA-F1: r_j(t) - r_j(0) + 2 n X_max t >= 0 for t <= t1 (per neuron, Lemma 13's proof); slack: the largest
    decay rate (r_j(0) - r_j(t)) / (2 n X_max t) (0 where the norm grew; the ratio of the two sides, 1 at t = 0 for
    any trajectory, would say nothing)."""
    t, R, U, s = tm.polar_samples(run)
    keep = (t > 0.0) & (t <= run.audit.t1 * (1 + 1e-12))
    a = run.audit
    val = R[keep] - R[0][None] + 2.0 * a.n * a.X_max * t[keep][:, None]
    k, j = np.unravel_index(int(np.argmin(val)), val.shape)
    err = 2 * pat.state_error(run) + 1e-15 * float(np.max(np.abs(R[keep])))
    decay = np.maximum(R[0][None] - R[keep], 0.0) / (2.0 * a.n * a.X_max * t[keep][:, None])
    ratio = float(np.max(decay)) if decay.size else None
    note = f"min at t = {t[keep][k]:.6g}, neuron {j}: r - r0 = {R[keep][k, j] - R[0, j]:.6g}"
    return Margin(float(val[k, j]), err, note + (f"; max decay rate / (2 n X_max) = {ratio:.3g}" if ratio is not None else ""), ratio=ratio,
                  site={"t": float(t[keep][k]), "j": int(j)})


F1 = paper_claim(
    id="EA-F1",
    node="L13", uses=("T1A", "L3"),
    source="Lemma 13 (per-neuron form) [R15]",
    statement="r_j(t) >= r_j(0) - 2 n X_max t for t <= t1 (ln||w_j||; implies Lemma 13's sums)",
    check=lemma13_margin,
    over=THEOREM,
    horizon="t1",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "eps = eps_required"),
    tags=THEOREM_POLAR,
)


@measures("-max over t >= t1_emp of <x_i, u_j> / ||x_i|| for i outside neuron j's group (cosine; 0 holds)")
def decoupling_margin(run) -> Margin:
    """EA-F2: after t1_emp, neurons outside V~+ contribute exactly 0 to positive points (and outside
    V~- to negative points), i.e. f = f+ on I+ and f = f- on I-. Margin: -max normalised pre-activation
    of such pairs (0 when all are <= 0)."""
    t, R, U, s = tm.polar_samples(run)
    vp, vm, t1e = _groups(run)
    keep = t >= t1e
    P = tm.preact(run.X, U[keep])  # (k, n, h)
    pos, neg = run.y > 0, run.y < 0
    worst = 0.0
    for rows, cols in ((pos, ~vp), (neg, ~vm)):
        if rows.any() and cols.any():
            worst = max(worst, float(np.max(P[:, rows][:, :, cols])))
    return Margin(-worst, pat.state_error(run) + tm.SURFACE_RTOL,
                  f"{int(keep.sum())} samples after t1_emp = {t1e:.6g}; max leaked pre-activation {worst:.3g}")


F2 = part2_claim(
    id="EA-F2",
    node="DEC", uses=("T1A",),
    source="App. D.1, decomposition (32)",
    statement="after t1: neurons outside V~+ contribute exactly 0 to positive points and outside V~- to negative points (f = f+ on I+, f = f- on I-)",
    check=decoupling_margin,
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "eps = eps_required"),
)


@measures("min over t >= t2 and both groups of ln sum_j ||w_j||^2 - ln(1/(4 X_max)) (natural-log units)")
def norms_after_t2_margin(run) -> Margin:
    """EA-F3 (34)/(35): for samples t >= t2: ln sum_{V~+-} ||w_j||^2 >= -ln(4 X_max); slack
    max (1/(4 X_max)) / sum_{V~+-} ||w_j||^2 = exp(-margin)."""
    t, R, U, s, F, vp, vm, t1e, br = _t2_data(run)
    t2 = max(br["plus"][1], br["minus"][1])
    if not math.isfinite(t2):
        return Margin(0.0, 0.0, "t2 not reached by the horizon", vacuous=True)
    keep = t >= t2
    lvl = -math.log(4.0 * run.audit.X_max)
    vals = [float(np.min(logsumexp(2.0 * R[keep][:, g], axis=1))) - lvl for g in (vp, vm)]
    ratio = math.exp(min(-min(vals), 700.0))
    return Margin(min(vals), 2 * pat.state_error(run) + 1e-13,
                  f"t2 in ({max(br['plus'][0], br['minus'][0]):.6g}, {t2:.6g}]; min ln-margins (+, -) = {vals[0]:.4g}, {vals[1]:.4g} "
                  f"(bound / measured = {ratio:.3g})", ratio=ratio)


F3 = part2_claim(
    id="EA-F3",
    node="DEC", uses=("T1A",),
    source="App. D.2, eqs. (34)-(35)",
    statement="for t >= t2: sum_{V~+} ||w_j||^2 >= 1/(4 X_max) and sum_{V~-} ||w_j||^2 >= 1/(4 X_max)",
    check=norms_after_t2_margin,
    assumptions=("Assumptions 1, 2", "eps = eps_required", "S+ and S- each hold a neuron at t1"),
)


@measures("min over sample pairs t2 <= t_a < t_b of ln(restarted bound) - ln L(t_b) (natural-log units)")
def loss_rate_margin(run) -> Margin:
    """EA-F4 (Thm 1 part 2): for sample pairs t2 <= t_a < t_b, L(t_b) <= L(t_a)/(L(t_a) alpha (t_b - t_a) + 1),
    the bound restarted at every t_a >= t2 (equivalent to d/dt(1/L) >= alpha on [t2, inf)), in log space."""
    t, R, U, s, F, vp, vm, t1e, br = _t2_data(run)
    t2 = max(br["plus"][1], br["minus"][1])
    if not math.isfinite(t2):
        return Margin(0.0, 0.0, "t2 not reached by the horizon", vacuous=True)
    keep = t >= t2
    tt, FF = t[keep], F[keep]
    logL = np.array([run.field.loss.log_total(run.y, f) for f in FF])
    ferr = tm.output_error(run.X, R[keep], pat.state_error(run))
    la = math.log(run.audit.alpha_rate)
    worst, note, err = math.inf, "fewer than two samples after t2", 0.0
    for a in range(tt.size - 1):
        dt = tt[a + 1:] - tt[a]
        bound = logL[a] - np.logaddexp(0.0, logL[a] + la + np.log(dt))
        val = bound - logL[a + 1:]
        b = int(np.argmin(val))
        if val[b] < worst:
            worst = float(val[b])
            err = float(ferr[a] + ferr[a + 1 + b]) + 1e-13 * (abs(logL[a]) + abs(logL[a + 1 + b]) + 1.0)
            note = (f"t_a = {tt[a]:.6g}, t_b = {tt[a + 1 + b]:.6g}: ln L(t_b) = {logL[a + 1 + b]:.6g} vs ln bound {bound[b]:.6g} "
                    f"(slack factor {math.exp(min(worst, 700)):.3g}); t2 in ({max(br['plus'][0], br['minus'][0]):.6g}, {t2:.6g}]")
    if not math.isfinite(worst):
        return Margin(0.0, 0.0, note, vacuous=True)
    ratio = rate_ratio(tt, logL, la)
    return Margin(worst, err, f"{note}; alpha / slowest rate of 1/L = {ratio:.3g}", ratio=ratio)


def rate_ratio(t: np.ndarray, logL: np.ndarray, log_alpha: float) -> float:
    """EA-F4's slack: max over adjacent samples of alpha (t_b - t_a) / (1/L(t_b) - 1/L(t_a)), in log space
    (<= 1 iff every restarted bound holds: a chord of 1/L over longer pairs averages the adjacent ones);
    inf where L does not decrease."""
    la, lb, dt = logL[:-1], logL[1:], np.diff(t)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_r = log_alpha + np.log(dt) + lb - np.log(-np.expm1(lb - la))
    finite = np.where(lb < la, log_r, np.inf)
    top = float(np.max(finite))
    return math.exp(min(top, 700.0)) if math.isfinite(top) else math.inf


F4 = part2_claim(
    id="EA-F4",
    node="F4", uses=("L15", "DEC", "L7"),
    source="Theorem 1 part 2 [R19]",
    statement="if S+ and S- each hold a neuron at t1: L(t) <= L(t2)/(L(t2) alpha (t - t2) + 1) for t >= t2, alpha = (mu X_min)^2/(32 X_max) "
              "(empirical t2 = max(t2+, t2-), R16; checked restarted at every sample after t2)",
    check=loss_rate_margin,
    assumptions=("Assumptions 1, 2", "eps = eps_required", "S+ and S- each hold a neuron at t1", "exp loss"),
)


def dead_negative_scenario(k: int, seed: int) -> Scenario:
    """P12: toy_2d data (all points in the upper half-plane, so (0, -1) is in S_dead); k V+ neurons at random
    angles around the positive points and one V- neuron at (0, -1), dead from t = 0; eps = eps_required."""
    ds = d004.toy_2d()
    rng = np.random.default_rng(seed)
    ang = rng.uniform(-0.8, 0.8, size=k) + 0.45
    W0 = np.vstack([np.column_stack([np.cos(ang), np.sin(ang)]), [[0.0, -1.0]]])
    s = np.concatenate([np.ones(k), [-1.0]])
    base = _scenario(ds, W0, s, 0.0)
    value, _ = required_log_eps(ds, base.init, "required")
    return _scenario(ds, W0, s, value if value is not None else -50.0, seed=seed, k=k, construction="sheet P12")


def dead_negatives() -> st.SearchStrategy[Scenario]:
    """A few fixed P12 constructions (all vacuous for part 2; a small finite space keeps the search short)."""
    return st.sampled_from([dead_negative_scenario(k, seed) for k, seed in ((1, 0), (2, 1), (3, 2))])


P12 = paper_claim(
    id="P12-part2-precondition",
    source="sheet P12 (negative control: precondition failure is vacuous)",
    statement="NEGATIVE CONTROL: Theorem 1 part 2 on runs whose only V- neuron starts in S_dead: the precondition fails on every "
              "example, so the verdict must be UNKNOWN (vacuous), never HOLDS",
    check=loss_rate_margin,
    over=dead_negatives(),
    horizon=_h_part2,
    samples=96,
    precondition=_part2,
    expected=Verdict.UNKNOWN,
    assumptions=("S- holds no neuron at t1 (the part-2 precondition is false)",),
)


@measures("bound (39) minus the upper sample bracket of the empirical t2+- (time units)")
def t2_bound_margin(run) -> Margin:
    """EA-F6 (39): the empirical t2+- (bracketed by samples) <= the bound with the theoretical t1."""
    t, R, U, s, F, vp, vm, t1e, br = _t2_data(run)
    a = run.audit
    worst, err, note, ratio = math.inf, 0.0, "", None
    for key, bound in (("plus", a.t2_plus), ("minus", a.t2_minus)):
        lo, hi = br[key]
        if bound is None:
            continue
        if not math.isfinite(hi):
            if run.horizon >= bound:  # never exceeded 1/4 although the horizon passed the bound
                return Margin(-(run.horizon - bound), tm.TIME_RTOL * bound, f"t2{key[0] == 'p' and '+' or '-'} > horizon >= bound {bound:.6g}")
            return Margin(0.0, 0.0, f"t2_{key} not reached by the horizon", vacuous=True)
        val = bound - hi
        if val < worst:
            worst, err = val, (hi - lo) + tm.TIME_RTOL * max(1.0, bound)
            note = f"t2_{key} in ({lo:.6g}, {hi:.6g}] vs bound (39) {bound:.6g} (ratio {hi / bound:.3g}); t1_emp = {t1e:.4g}, t1 = {a.t1:.4g}"
        if bound > 0.0:
            ratio = max(ratio or 0.0, hi / bound)
    return Margin(worst, err, note, ratio=ratio)


F6 = part2_claim(
    id="EA-F6",
    node="F6", uses=("F5", "L13", "L14"),
    source="eq. (39) [R17]",
    statement="t2+- <= t1 + 6/(sqrt(mu) n+- X_min) + 4/(sqrt(mu) n+- X_min) (ln(2/(eps^2 sqrt(mu) X_min W_min^2)) + 4 n X_max t1)",
    check=t2_bound_margin,
    assumptions=("Assumptions 1, 2", "eps = eps_required", "S+ and S- each hold a neuron at t1"),
)


@st.composite
def class_sizes(draw, n_pos: int, n_neg: int, log_eps: float, seeds: st.SearchStrategy[int] = SEEDS) -> Scenario:
    """P11: unit-norm data with given class sizes (mu = 0.9, d = 2), h = 4 neurons placed near x+ (two,
    signs +) and near x- (two, signs -), so zeta2 = 1 and t1 = 16 ln n/(mu^2 sqrt(mu) X_min)."""
    seed = draw(seeds)
    ds = gen.orthogonally_separable(n_pos, n_neg, 2, 0.9, seed=seed)
    xp = ds.x_plus / np.linalg.norm(ds.x_plus)
    xm = ds.x_minus / np.linalg.norm(ds.x_minus)
    W0 = np.array([_rot(xp, 0.2), _rot(xp, -0.3), _rot(xm, 0.25), _rot(xm, -0.15)])
    return _scenario(ds, W0, [1.0, 1.0, -1.0, -1.0], log_eps, n_pos=n_pos, n_neg=n_neg, seed=seed)


def _h_p11(sc, a):
    return 1.5 * (-sc.init.log_eps) / a.X_min + (a.t1 or 0.0)


@measures("t1 + C ln(1/eps)/n minus the upper sample bracket of the empirical t2 (time units)")
def t2_over_n_margin(run) -> Margin:
    """P11 (planted): t2 <= t1 + C ln(1/eps)/n with the n-independent C = 16/(sqrt(mu) X_min)
    (the leading coefficient (39) gives for balanced classes n+ = n- = n/2)."""
    t, R, U, s, F, vp, vm, t1e, br = _t2_data(run)
    a = run.audit
    C = 16.0 / (math.sqrt(a.mu) * a.X_min)
    bound = a.t1 + C * (-run.log_eps) / a.n
    lo = max(br["plus"][0], br["minus"][0])
    hi = max(br["plus"][1], br["minus"][1])
    if not math.isfinite(hi):
        if run.horizon > bound:
            return Margin(-(run.horizon - bound), tm.TIME_RTOL * bound, f"t2 > horizon {run.horizon:.6g} > bound {bound:.6g}")
        return Margin(0.0, 0.0, "t2 not reached", vacuous=True)
    return Margin(bound - hi, (hi - lo) + tm.TIME_RTOL * max(1.0, bound),
                  f"n = {a.n} (n+ = {a.n_pos}, n- = {a.n_neg}): t2 in ({lo:.6g}, {hi:.6g}] vs t1 + C ln(1/eps)/n = {bound:.6g} "
                  f"(C = {C:.4g}, ln(1/eps) = {-run.log_eps:.6g}); t2+ ~ {br['plus'][1]:.4g}, t2- ~ {br['minus'][1]:.4g}")


P11 = paper_claim(
    id="P11-t2-over-n",
    source="sheet P11 / erratum 8 (t2 = O(log(1/eps)/n) needs balanced classes)",
    statement="PLANTED: t2 <= t1 + C ln(1/eps)/n with the n-independent C = 16/(sqrt(mu) X_min) -- fails for n- = 1, n+ = 23 "
              "(t2- ~ ln(1/eps)/||x-||, independent of n)",
    check=t2_over_n_margin,
    over=class_sizes(23, 1, -3000.0, st.sampled_from([0, 1, 2, 3])),
    horizon=_h_p11,
    samples=200,
    expected=Verdict.REFUTED,
    assumptions=("class imbalance n- = 1", "eps = e^-3000 (below eps_required)"),
)

P11_BALANCED = paper_claim(
    id="P11-balanced-control",
    source="sheet P11 negative control (balanced classes)",
    statement="NEGATIVE CONTROL: the same t2 <= t1 + C ln(1/eps)/n holds with balanced classes n+ = n- = 12",
    check=t2_over_n_margin,
    over=class_sizes(12, 12, -3000.0),
    horizon=_h_p11,
    samples=200,
    assumptions=("balanced classes", "eps = e^-3000"),
)

F6_IMBALANCED = paper_claim(
    id="EA-F6-imbalanced",
    node="F6", uses=("F5", "L13", "L14"),
    source="eq. (39) on P11's imbalanced data (negative control)",
    statement="NEGATIVE CONTROL: (39) itself still holds for n- = 1, n+ = 23",
    check=t2_bound_margin,
    over=class_sizes(23, 1, -3000.0),
    horizon=_h_p11,
    samples=200,
    assumptions=("class imbalance n- = 1", "eps = e^-3000"),
)


@measures("worst of cos(x+-, x~_a) - 1/3, ||x~_a||/||x+-|| - 1/2, cos(x+-, w_j) - 1/4 and bound - t_a (time)")
def refined_alignment_margin(run) -> Margin:
    """EA-F5 (App. D.2 [R18]) for each group V~+ (x+, I+, n+, t2+) and V~- (x-, I-, n-, t2-), at the
    samples of [t1_emp, t2+-) (t2 bracketed by samples, R16; V~ from t1_emp on):
    (i) cos(x+, x~_a) >= 1/3 and ||x~_a|| >= ||x+||/2, x~_a = sum_{I+} |g_i| x_i (the exact aligning vector in S+);
    (ii) {cos(x+, w_j) >= 1/4} is trapping: once a sample has it, every later sample of the window does;
    (iii) t_a = inf{t >= t_s : min_{V~+} cos(x+, w_j) >= 1/4} <= t_s + 6/(sqrt(mu) n+ X_min) for t_s = t1_emp (the
    proof's argument from any time all of V~+ is in S+, DER-sharp) and t_s = t1 (as stated); bracketed by samples.
    The informal "cos about 1" is only reported (min cos(x+-, w_j) at the end of the window).
    Slack: max of (1/3)/cos(x+, x~_a), (||x+||/2)/||x~_a|| and (t_a - t_s) / (6/(sqrt(mu) n+ X_min)) (the elapsed time,
    as t_a / bound would be near 1 whenever t_s is large; t_a's sample bracket via :func:`bracketed_ratio`, unresolved
    brackets counted in the note; 0 where the group met the condition at a sample before t_s, so t_a = t_s by (ii));
    the trapping part (ii) is an invariance, not a bound, and has none."""
    a = run.audit
    t, R, U, s, F, vp, vm, t1e, br = _t2_data(run)
    X, y = run.X, run.y
    err = 2.0 * pat.state_error(run) + 1e-12
    parts: list[tuple[float, float, str]] = []
    info = []
    ratios, unresolved = [0.0], 0
    for key, grp, xs, idx in (("+", vp, a.x_plus, np.flatnonzero(y > 0)), ("-", vm, a.x_minus, np.flatnonzero(y < 0))):
        if not grp.any() or idx.size == 0:
            continue
        t2lo, t2hi = br["plus" if key == "+" else "minus"]
        win = (t >= t1e) & (t <= t2lo if math.isfinite(t2hi) else np.ones_like(t, bool))
        ks = np.flatnonzero(win)
        if ks.size == 0:
            continue
        nx = float(np.linalg.norm(xs))
        for k in ks:
            g = run.field.loss.g(y, F[k])
            xa = tm.refined_aligning_vector(X, g, idx)
            c = float(tm.cosines(xs, xa[None])[0])
            rel = float(np.linalg.norm(xa)) / nx
            parts.append((c - 1.0 / 3.0, err, f"V~{key}, t = {t[k]:.6g}: cos(x{key}, x~_a) = {c:.9g} vs 1/3"))
            parts.append((rel - 0.5, err, f"V~{key}, t = {t[k]:.6g}: ||x~_a||/||x{key}|| vs 1/2"))
            ratios += [1.0 / (3.0 * c) if c > 0.0 else 0.0, 0.5 / rel if rel > 0.0 else 0.0]  # <= 0: left to the margin
        C = tm.cosines(xs, U[ks][:, grp, :])  # (k, |V~|)
        for col in range(C.shape[1]):
            hit = np.flatnonzero(C[:, col] >= 0.25)
            if hit.size:
                later = C[hit[0]:, col]
                parts.append((float(later.min()) - 0.25, err, f"V~{key} neuron {np.flatnonzero(grp)[col]}: min cos(x{key}, w_j) "
                              f"after first reaching 1/4 (t = {t[ks][hit[0]]:.6g}) = {float(later.min()):.9g}"))
        n_side = a.n_pos if key == "+" else a.n_neg
        rate = 6.0 / (math.sqrt(a.mu) * n_side * a.X_min)
        mins = C.min(axis=1)
        for name, t_s in (("t1_emp", t1e), ("t1", float(a.t1))):
            bound = t_s + rate
            sel = np.flatnonzero(t[ks] >= t_s)
            if sel.size == 0:
                continue
            ok = sel[mins[sel] >= 0.25]
            if ok.size:
                k = int(ok[0])
                prev = max(t_s, float(t[ks][k - 1])) if k > 0 else t_s
                trapped = k > 0 and float(t[ks][k - 1]) <= t_s and mins[k - 1] >= 0.25  # t_a = t_s by (ii)
                r_t = 0.0 if trapped else bracketed_ratio((prev - t_s) / rate, (float(t[ks][k]) - t_s) / rate)
                unresolved += r_t is None
                ratios.append(r_t or 0.0)
                parts.append((bound - float(t[ks][k]), float(t[ks][k]) - prev + tm.TIME_RTOL * max(1.0, bound),
                              f"V~{key}: t_a from {name} in ({prev:.6g}, {t[ks][k]:.6g}] vs {name} + 6/(sqrt(mu) n{key} X_min) = "
                              f"{bound:.6g}"))
            elif float(t[ks][-1]) >= bound:
                ratios.append((float(t[ks][-1]) - t_s) / rate)
                parts.append((bound - float(t[ks][-1]), tm.TIME_RTOL * max(1.0, bound),
                              f"V~{key}: min cos < 1/4 up to {t[ks][-1]:.6g} >= {name} + 6/(sqrt(mu) n X_min) = {bound:.6g}"))
        info.append(f"min cos(x{key}, w_j) at t = {t[ks][-1]:.4g}: {float(mins[-1]):.6f}")
    m = _worst(parts, "no group with samples in [t1_emp, t2)")
    ratio = None if m.vacuous else max(ratios)
    note = m.note + (f"; worst bound ratio = {ratio:.3g} ({unresolved} t_a bracket(s) unresolved)" if ratio is not None else "")
    return Margin(m.value, m.error, note + ("; informal (cos ~ 1): " + ", ".join(info) if info else ""), m.vacuous, ratio)


F5 = part2_claim(
    id="EA-F5",
    node="F5", uses=("E40", "DEC"),
    source="App. D.2, refined alignment (37)-(38), (40) [R18]",
    statement="on [t1_emp, t2+) for V~+ (and [t1_emp, t2-) for V~-): cos(x+, x~_a) >= 1/3 and ||x~_a|| >= ||x+||/2 with "
              "x~_a = sum_{I+} g_i x_i; {cos(x+, w_j) >= 1/4} is trapping; t_a <= t_s + 6/(sqrt(mu) n+ X_min) for t_s = t1_emp "
              "and t_s = t1. The informal 'cos about 1' is only reported",
    check=refined_alignment_margin,
    samples=128,
    assumptions=("Assumptions 1, 2", "eps = eps_required", "S+ and S- each hold a neuron at t1", "exp loss"),
)
