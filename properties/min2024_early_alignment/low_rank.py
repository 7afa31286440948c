"""Claim sheet 004, section 2.G (low-rank bias, App. D.3): EA-G1 invariance, EA-G3 the stable-rank
inequality, EA-G4 the asymptotic stable rank and EA-G2 eqs. (41)-(43), sharp and as printed.
"""

from __future__ import annotations

import math

import numpy as np

from properties.min2024_early_alignment import patterns as pat
from properties.min2024_early_alignment import measures as tm
from verify.claims.model import Margin, measures
from verify.model.losses import log_sum_exp
from verify.scenarios import scenario

from properties.min2024_early_alignment._shared import THEOREM_POLAR, _groups, _t2_data, _worst, paper_claim
from properties.min2024_early_alignment.preconditions import _h_part2, _part2
from properties.min2024_early_alignment.theorem_scale import THEOREM_P2, THEOREM_P2_LOW_MU, THEOREM_P2_WIDE, part2_claim


@measures("-max relative Frobenius drift of W_g^T W_g - v_g v_g^T per group after its last pattern change")
def invariance_margin(run) -> Margin:
    """EA-G1 ([DER] form): for each group V~+- (neurons ending in S+ / S-), W^T W - v v^T restricted to the
    group is constant from the group's last pattern change on. Relative Frobenius drift."""
    traj = run.trajectory
    W, v, t = traj.W, traj.v, traj.times
    pieces = tm.pattern_history(run)
    vp, vm, _ = _groups(run)
    worst, note, used = 0.0, "no group with two or more neurons", 0
    for name, g in (("+", vp), ("-", vm)):
        idx = np.flatnonzero(g)
        if idx.size < 2:
            continue
        t_ref = max(pieces[j][-1].t_start for j in idx)
        ks = np.flatnonzero(t >= t_ref)
        if ks.size < 2:
            continue
        used += 1
        Wg, vg = W[:, idx, :], v[:, idx]
        M = np.einsum("khd,kgd->khg", Wg, Wg) - vg[:, :, None] * vg[:, None, :]
        scale = np.maximum(np.linalg.norm(np.einsum("khd,kgd->khg", Wg, Wg), axis=(1, 2)), np.sum(vg**2, axis=1))
        ref = ks[0]
        drift = np.linalg.norm(M[ks] - M[ref][None], axis=(1, 2)) / np.maximum(scale[ks], scale[ref])
        if float(drift.max()) > worst or used == 1:
            worst = float(drift.max())
            note = f"group V~{name} ({idx.size} neurons) from t = {t[ref]:.4g}: max relative drift {worst:.3g}"
    if used == 0:
        return Margin(0.0, 0.0, note, vacuous=True)
    return Margin(-worst, 4.0 * pat.state_error(run), note)


G1 = paper_claim(
    id="EA-G1",
    node="LR", uses=("INIT", "T1A", "L3"),
    source="App. D.3 invariance (citing Arora et al. 2018b) [DER form]",
    statement="W+^T W+ - v+ v+^T (and the same for V~-) is constant from the group's last pattern change on (relative Frobenius drift)",
    check=invariance_margin,
    over=scenario(n=(2, 4), d=(2, 3), h=(3, 6), eps=(1e-3, 1e-1), mu=(0.5, 0.95)),
    horizon=40.0,
    form="cartesian",
    assumptions=("Assumption 1", "balanced init", "moderate eps (Cartesian float64)"),
)


STABLE_RANK_FACTOR = 2.0  # the 2 of ||W||_F^2 <= 2 ||W||_2^2 + ... (EA-G3, G4); a name, so a test can lower it


def _stable_rank_margins(run, R, U) -> np.ndarray:
    """ln(2 ||W||_2^2 + 4 sqrt(h) eps W_max^2) - ln ||W||_F^2 per sample (2: :data:`STABLE_RANK_FACTOR`)."""
    a = run.audit
    lslack = math.log(4.0 * math.sqrt(a.h) * a.W_max**2) + run.log_eps
    out = []
    for Rk, Uk in zip(R, U):
        lf, l2 = tm.log_norms_W(Rk, Uk)
        out.append(float(np.logaddexp(math.log(STABLE_RANK_FACTOR) + l2, lslack)) - lf)
    return np.array(out)


@measures("min over t >= t1_emp of ln(2||W||_2^2 + 4 sqrt(h) eps W_max^2) - ln ||W||_F^2 (natural-log units)")
def stable_rank_margin(run) -> Margin:
    """EA-G3: ||W||_F^2 <= 2||W||_2^2 + 4 sqrt(h) eps W_max^2 at samples t >= t1_emp (t1_emp <= T), log space;
    slack ||W||_F^2 / bound (>= 1/2 for every W: rank one gives 1/2)."""
    t, R, U, s = tm.polar_samples(run)
    t1e = tm.alignment_time(run)
    keep = t >= t1e
    m = _stable_rank_margins(run, R[keep], U[keep])
    k = int(np.argmin(m))
    ratio = math.exp(min(max(-float(m[k]), -700.0), 700.0))
    return Margin(float(m[k]), 4 * pat.state_error(run) + 1e-12,
                  f"{int(keep.sum())} samples after t1_emp = {t1e:.4g}; min ln-margin {m[k]:.4g} at t = {t[keep][k]:.4g} "
                  f"(||W||_F^2 / bound = {ratio:.3g})", ratio=ratio)


G3 = part2_claim(
    id="EA-G3",
    node="LR", uses=("INIT", "T1A", "L3"),
    source="App. D.3, stable-rank inequality",
    statement="for t >= t1: ||W||_F^2 <= 2 ||W||_2^2 + 4 sqrt(h) eps W_max^2 (log space; eps = eps_required)",
    check=stable_rank_margin,
    over=THEOREM_P2_LOW_MU,  # down to mu = 0.2: near mu = 0 the factor 2 is needed (theorem_scale.THEOREM_P2_LOW_MU)
    assumptions=("Assumptions 1, 2", "eps = eps_required", "t1_emp <= T"),
)


def _h_long(sc, a):
    base = _h_part2(sc, a)
    return None if base is None else 100.0 * base


@measures("min(growth of ln ||W||_2 from t2 to the end, final stable-rank ln-margin) (natural-log units)")
def asymptotic_rank_margin(run) -> Margin:
    """EA-G4: on a long horizon ||W||_2 grows past its value at t2, and the stable rank at the last
    sample is <= 2 + 4 sqrt(h) eps W_max^2/||W||_2^2."""
    t, R, U, s, F, vp, vm, t1e, br = _t2_data(run)
    t2 = max(br["plus"][1], br["minus"][1])
    if not math.isfinite(t2):
        return Margin(0.0, 0.0, "t2 not reached", vacuous=True)
    k2 = int(np.flatnonzero(t >= t2)[0])
    l2_t2 = tm.log_norms_W(R[k2], U[k2])[1]
    lf_end, l2_end = tm.log_norms_W(R[-1], U[-1])
    growth = 0.5 * (l2_end - l2_t2)
    rank = _stable_rank_margins(run, R[-1:], U[-1:])[0]
    sr = math.exp(lf_end - l2_end)
    return Margin(min(growth, rank), 4 * pat.state_error(run) + 1e-12,
                  f"ln||W||_2 grows by {growth:.4g} from t2 ~ {t2:.4g} to t = {t[-1]:.4g}; stable rank at the end {sr:.6g}")


G4 = paper_claim(
    id="EA-G4",
    node="LR", uses=("INIT", "T1A", "L3"),
    source="App. D.3 [R20], limsup ||W||_F^2/||W||_2^2 <= 2",
    statement="over a long horizon (100 x the part-2 horizon, log time) ||W||_2 keeps growing after t2 and the final stable rank is "
              "<= 2 + 4 sqrt(h) eps W_max^2/||W||_2^2",
    check=asymptotic_rank_margin,
    over=THEOREM_P2,
    horizon=_h_long,
    samples=96,
    precondition=_part2,
    assumptions=("Assumptions 1, 2", "eps = eps_required"),
    tags=THEOREM_POLAR,
)


def _trapped_groups(run) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(V~+, V~-, V~dead, t1_emp) from the pattern history."""
    vp, vm, t1e = _groups(run)
    last = [h[-1].active for h in tm.pattern_history(run)]
    vd = np.array([len(p) == 0 for p in last])
    return vp, vm, vd, t1e


def _ln_tail_error(ln_tail: float, ln_frob: float, m: int, err: float) -> float:
    """ln of a bound on the float error of sum_{k>=2} sigma_k^2 of an m-row block W_g given ln ||W_g||_F^2:
    |d sigma_k| <= delta = ||dW_g||_F <= 2 err ||W_g||_F (r and u each off by err), so the error is
    <= 2 delta sqrt(m tail) + m delta^2."""
    ln_delta = math.log(2.0 * err + 1e-16) + 0.5 * ln_frob
    quad = math.log(m) + 2.0 * ln_delta
    if not math.isfinite(ln_tail):
        return quad
    return float(np.logaddexp(quad, math.log(2.0) + ln_delta + 0.5 * (math.log(m) + ln_tail)))


@measures("1 - max over t >= t_ref of LHS / RHS of the sharp low-rank bound (relative to the bound)")
def sharp_low_rank_margin(run) -> Margin:
    """EA-G2 (sharp form, DER from (41)-(43)'s proof): for samples t >= t_ref (the first sample after t1_emp,
    all neurons trapped) ||W||_F^2 - ||W+||_2^2 - ||W-||_2^2 <= 2 sum_{V~+-} ||w_j(t_ref)||^2 + sum_{dead} ||w_j||^2.
    The left side is computed without cancellation as sum_{k>=2} sigma_k(W+)^2 + sum_{k>=2} sigma_k(W-)^2 +
    ||W_dead||_F^2; relative margin 1 - LHS/RHS; error: the state error propagated through the singular values
    (Weyl: |d sigma_k| <= ||dW||_F) plus that of the right side. Slack max LHS/RHS (= 1 - margin)."""
    t, R, U, s = tm.polar_samples(run)
    vp, vm, vd, t1e = _trapped_groups(run)
    ks = np.flatnonzero(t >= t1e)
    if ks.size < 2 or not math.isfinite(t1e):
        return Margin(0.0, 0.0, "no sample after t1_emp", vacuous=True)
    err = pat.state_error(run)
    k0 = ks[0]
    rhs_terms = [math.log(2.0) + float(log_sum_exp(2.0 * R[k0][g])) for g in (vp, vm) if g.any()]
    rhs_terms += [float(log_sum_exp(2.0 * R[k0][vd]))] if vd.any() else []
    if not rhs_terms:
        return Margin(0.0, 0.0, "no neuron", vacuous=True)
    lrhs = float(log_sum_exp(rhs_terms))
    worst, note, werr, top = math.inf, "", 0.0, 0.0
    for k in ks:
        tails, errs = [], []
        for g in (vp, vm):
            if g.sum() >= 2:
                _, tail = tm.log_sv2(R[k][g], U[k][g])
                if math.isfinite(tail):
                    tails.append(tail)
                errs.append(_ln_tail_error(tail, float(log_sum_exp(2.0 * R[k][g])), int(g.sum()), err))
        if vd.any():
            ld = float(log_sum_exp(2.0 * R[k][vd]))
            tails.append(ld)
            errs.append(ld + math.log(4.0 * err + 1e-16))
        llhs = float(log_sum_exp(tails)) if tails else -math.inf
        ratio = math.exp(min(llhs - lrhs, 700.0))
        top = max(top, ratio)
        val = 1.0 - ratio
        e = (math.exp(min(float(log_sum_exp(errs)) - lrhs, 700.0)) if errs else 0.0) + 4.0 * err * ratio + 1e-13
        if val < worst:
            worst, werr = val, e
            note = (f"t = {t[k]:.6g}: LHS/RHS = {ratio:.6g} (ln RHS = {lrhs:.6g} at t_ref = {t[k0]:.6g}, t1_emp = {t1e:.4g}; "
                    f"|V~+| = {int(vp.sum())}, |V~-| = {int(vm.sum())}, dead {int(vd.sum())})")
    return Margin(worst, werr, note, ratio=top)


G2 = paper_claim(
    id="EA-G2",
    node="LR", uses=("INIT", "T1A", "L3"),
    source="App. D.3, eqs. (41)-(43) (sharp form from their proof)",
    statement="after t1_emp: ||W||_F^2 - ||W+||_2^2 - ||W-||_2^2 <= 2 sum_{V~+-} ||w_j(t_ref)||^2 + sum_{dead} ||w_j||^2 (t_ref: the "
              "first sample after t1_emp), to integrator tolerance (moderate eps, where O(eps^2) is resolved)",
    check=sharp_low_rank_margin,
    over=scenario(n=(2, 4), d=(2, 3), h=(3, 6), eps=(1e-4, 1e-1), mu=(0.5, 0.95)),
    horizon=40.0,
    form="cartesian",
    assumptions=("Assumption 1", "balanced init", "moderate eps (Cartesian float64)", "every neuron trapped by the horizon (else vacuous)"),
)


@measures("min over t >= t1_emp of ln(bound) - ln(LHS + float error) of (41)-(43) (natural-log units)")
def paper_low_rank_margin(run) -> Margin:
    """EA-G2 as printed, (41)-(43), for samples t >= t1_emp (t1_emp <= T: Lemma 3 at t1), in log space:
    ||W+||_F^2 - ||W+||_2^2 <= (4 eps W_max^2/sqrt(h)) |V~+| (41), the same for W- (42), and
    ||W_dead||_F^2 <= (2 eps W_max^2/sqrt(h)) |V~dead| (43). The left sides are sum_{k>=2} sigma_k^2 (no
    cancellation) and the margin uses LHS + its float error bound (:func:`_ln_tail_error`). A sample where that
    error bound alone exceeds the bound cannot be resolved and is skipped (counted in the note): once the norms
    have grown ~1e9-fold past the scale of eps, the float64 state no longer resolves spreads of order eps.
    Slack: max LHS / bound over the checks whose LHS exceeds its float error bound (where it does not, LHS + error
    measures float64's resolution, not the bound: no ratio; None when no check is above its error)."""
    a = run.audit
    t, R, U, s = tm.polar_samples(run)
    vp, vm, vd, t1e = _trapped_groups(run)
    ks = np.flatnonzero(t >= t1e)
    err = pat.state_error(run)
    base = run.log_eps + 2.0 * math.log(a.W_max) - 0.5 * math.log(a.h)
    parts: list[tuple[float, float, str]] = []
    skipped = 0
    log_ratios = []  # ln(LHS / bound) of the checks with LHS above its error
    for k in ks:
        for name, g, c in (("(41)", vp, 4.0), ("(42)", vm, 4.0), ("(43)", vd, 2.0)):
            if not g.any():
                continue
            lbound = math.log(c * g.sum()) + base
            lfrob = float(log_sum_exp(2.0 * R[k][g]))
            if name == "(43)":
                log_ratios.append(lfrob - lbound)
                parts.append((lbound - lfrob, 4.0 * err + 1e-12,
                              f"{name} at t = {t[k]:.6g}: ln ||W_dead||_F^2 = {lfrob:.6g} vs ln bound = {lbound:.6g}"))
                continue
            if g.sum() < 2:
                continue  # one neuron: ||W_g||_F = ||W_g||_2, LHS = 0 exactly (no evidence)
            _, ltail = tm.log_sv2(R[k][g], U[k][g])
            lerr = _ln_tail_error(ltail, lfrob, int(g.sum()), err)
            if lerr >= lbound:
                skipped += 1
                continue
            up = float(np.logaddexp(ltail, lerr)) if math.isfinite(ltail) else lerr
            if ltail > lerr:
                log_ratios.append(ltail - lbound)
            parts.append((lbound - up, 1e-12 * (abs(lbound) + 1.0),
                          f"{name} at t = {t[k]:.6g}: ln(LHS + error) = {up:.6g} vs ln bound = {lbound:.6g}"))
    m = _worst(parts, f"no resolvable sample after t1_emp ({skipped} unresolved; one-neuron groups have LHS = 0 trivially)")
    ratio = math.exp(min(max(log_ratios), 700.0)) if log_ratios else None
    return Margin(m.value, m.error, m.note + f"; {len(parts)} resolved checks, {skipped} unresolved skipped (t1_emp = {t1e:.4g}, "
                  f"T = {a.T_eps:.4g}); max LHS / bound = {'n/a' if ratio is None else f'{ratio:.3g}'} over the {len(log_ratios)} "
                  "checks with LHS above its float error", m.vacuous, ratio)


G2_PAPER = part2_claim(
    id="EA-G2-constants",
    node="LR", uses=("INIT", "T1A", "L3"),
    source="App. D.3, eqs. (41)-(43) as printed",
    statement="for t >= t1: ||W+||_F^2 <= ||W+||_2^2 + (4 eps W_max^2/sqrt(h))|V~+| (41), the same for W- (42), ||W_dead||_F^2 <= "
              "(2 eps W_max^2/sqrt(h))|V~dead| (43), at eps = eps_required in log space (t >= t1_emp; samples whose float64 error "
              "exceeds the bound are skipped and counted)",
    check=paper_low_rank_margin,
    over=THEOREM_P2_WIDE,
    assumptions=("Assumptions 1, 2", "eps = eps_required", "t1_emp <= T (Lemma 3 at t1)"),
)
