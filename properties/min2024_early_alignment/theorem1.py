"""Seed 004, Theorem 1 and its appendices: claim sheet sections 2.E (alignment phase), 2.F (final
convergence), 2.G (low-rank bias), 2.H (existence / no Zeno), with planted counterexamples P3,
P6, P7, P9, P11, negative controls P7-near, P11, P12, P14, and the errata R8, R9 and n = 1
(sheet 7.1-7.3) as PAIRED claims (as printed vs corrected), so the report shows which reading holds.
Also EA-C4 (time scales), EA-E5 (per-neuron path travel times; its symbolic path sums are S9-*), EA-F5
(refined alignment), EA-G2 ((41)-(43), sharp and as printed), EA-H1 (continuity off A, with the planted
jump on A, P-H1), EA-H5 (monotone loss, (50) along runs) and the irregular E.4 solution (EA-H4-irregular,
P13: outside the theorem's scope). EA-H6 (App. F, Filippov) is deliberately not encoded: the sheet says
"do not test; document only".

Exposes ``CLAIMS_THEOREM1`` (assembled into the catalogue by the package ``__init__``).

Theorem-scale runs use ``scenario(eps="required")``: ln eps = the audit's ln eps_required (eq. (28),
min reading of zeta, c = 8) for the drawn data and base init, simulated in the exact polar form
(r = ln||w||, u = w/||w||), where f ~ eps^2 underflows harmlessly and every output is read in log
space from (r, U). Scenario ranges are small (n <= 4, d <= 3, h <= 4, mu >= 0.5) so each claim
stays within ~10 s for 12 examples in the ci profile; t1 itself can be 1e2-1e6 (zeta2 from random
inits), which the event engine crosses in log time.

Error estimates: state quantities carry ``state_error`` (10 x (accumulated local error + rtol),
absolute in r and u) propagated through each formula; time claims carry tol_t = 1e-9 max(1, t)
(event location) plus, for times bracketed by samples, the bracket width; pointwise identities
carry float64 rounding only.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st
from scipy.special import logsumexp

from verify.audit import audit as audit_data
from verify.claims import patterns as pat
from verify.claims import theorem_measures as tm
from verify.claims.model import Claim, Margin
from verify.data import generators as gen
from verify.data.dataset import Dataset
from verify.model.init import Initialization, balanced_init
from verify.scenarios import SEEDS, Scenario, datasets, required_log_eps, scenario
from verify.strategies import as_state, states
from verify.verdicts import Verdict

SEED = "004"
MAX_T = 1e12  # verify.claims.run.MAX_HORIZON


# =========================================================================== shared preconditions


def _theorem_scale(run) -> bool | str:
    """Hypotheses of Theorem 1 at the drawn case: Assumption 1, Assumption 2, n >= 2, eps <= eps_req."""
    a = run.audit
    if "eps_mode_undefined" in run.scenario.params:
        return run.scenario.params["eps_mode_undefined"]
    if not a.assumption1:
        return "Assumption 1 fails (mu <= 0)"
    if not a.assumption2:
        return "Assumption 2 fails (c_star = 1)"
    if a.n < 2:
        return "n = 1: the t1 formula gives 0 (erratum 3, separate claims)"
    if a.t1 is None:
        return "t1 undefined"
    if not a.eps_satisfies:
        return "eps above eps_required (28)"
    return True


def _both_groups_at(run, t: float) -> bool | str:
    """Part-2 precondition (sheet 2.F): S+ and S- each contain a neuron at time t."""
    pieces = tm.pattern_history(run)
    pos = frozenset(np.flatnonzero(run.y > 0).tolist())
    neg = frozenset(np.flatnonzero(run.y < 0).tolist())
    _, _, s = tm.initial_polar(run)
    have_p = have_m = False
    for j, hist in enumerate(pieces):
        pat = next((p.active for p in hist if p.t_start <= t <= p.t_end), hist[-1].active)
        have_p |= s[j] > 0 and pat == pos and len(pos) > 0
        have_m |= s[j] < 0 and pat == neg and len(neg) > 0
    if not (have_p and have_m):
        return "part 2 precondition false: S+ or S- holds no neuron at t1 (sheet P12)"
    return True


def _part2(run) -> bool | str:
    ok = _theorem_scale(run)
    if ok is not True:
        return ok
    if not run.audit.both_classes:
        return "single class: part 2 does not apply (P14)"
    t1e = tm.alignment_time(run)
    if not t1e <= run.audit.T_eps:
        return f"t1_emp = {t1e:.6g} > T(eps): Lemma 3 at t1 unavailable"
    return _both_groups_at(run, min(run.audit.t1, run.horizon))


# =========================================================================== EA-E1 Lemma 10


def lemma10_margin(run) -> Margin:
    """EA-E1 (24): |d/dt psi_rj - s_j (psi_ra - psi_rj psi_aj)||x_a|| | <= 2 n X_max max|f| at every
    sampled state with max|f| <= 1, for references x_r = y_i x_i/||x_i||, x+/||x+||, x-/||x-|| and
    two seeded random unit vectors. Identity: x_r^T P_u x_a = ||x_a||(psi_ra - psi_rj psi_aj), so the
    difference is s_j <x_r, P_u sum_i S_ij (g_i - y_i) x_i> (computed without cancellation)."""
    X, y, fld = run.X, run.y, run.field
    t, R, U, s = tm.polar_samples(run)
    n = X.shape[0]
    Xmax = float(np.max(np.linalg.norm(X, axis=1)))
    refs = [y[i] * X[i] / np.linalg.norm(X[i]) for i in range(n)]
    for v in (run.audit.x_plus, run.audit.x_minus):
        if np.linalg.norm(v) > 0:
            refs.append(v / np.linalg.norm(v))
    rng = np.random.default_rng(int(run.scenario.params.get("init_seed", 0)))
    for _ in range(2):
        z = rng.standard_normal(X.shape[1])
        refs.append(z / np.linalg.norm(z))
    Xr = np.array(refs)
    F = tm.outputs(X, R, U, s)
    worst, note, used, worst_err = math.inf, "no state with max|f| <= 1", 0, 0.0
    for k in range(t.size):
        fmax = float(np.max(np.abs(F[k])))
        if fmax > 1.0 or fmax == 0.0:
            continue
        bound = 2.0 * n * Xmax * fmax
        gmy = fld.loss.g_minus_y(y, F[k])
        for j in range(U.shape[1]):
            u = U[k, j]
            S = (X @ u > 0.0).astype(float)
            D = (S * gmy) @ X  # G_j - x_a(u_j)
            PD = D - (u @ D) * u
            diff = np.abs(Xr @ PD)
            err = 1e-14 * float(np.sum(S * np.abs(gmy) * np.linalg.norm(X, axis=1)) + 1e-300)
            ratio = float(np.max(diff)) / bound
            used += 1
            if 1.0 - ratio < worst:
                worst = 1.0 - ratio
                note = f"t = {t[k]:.4g}, neuron {j}: |difference| / (2 n X_max max|f|) = {ratio:.6g} (max|f| = {fmax:.3g})"
                worst_err = err / bound
    if used == 0:
        return Margin(0.0, 0.0, note, vacuous=True)
    return Margin(worst, worst_err + 1e-13, note)


# =========================================================================== EA-E2 eq. (29)


def _fstar(run, reading: str) -> float | None:
    a = run.audit
    r = a.readings.get(reading, {})
    if "mm" not in r or not a.assumption1:
        return None
    return r["mm"] * math.sqrt(a.mu) * a.X_min / (4.0 * a.n * a.X_max)


def eq29_margin(reading: str):
    """EA-E2: ln F* - ln max_i |f(x_i)| over samples t <= T(eps), F* = mm sqrt(mu) X_min/(4 n X_max)
    with mm of the given zeta reading; ln|f| from the polar state (f ~ eps^2 underflows)."""

    def check(run) -> Margin:
        fstar = _fstar(run, reading)
        if fstar is None:
            return Margin(0.0, 0.0, "F* undefined", vacuous=True)
        t, R, U, s = tm.polar_samples(run)
        lf, _, labs = tm.log_outputs(run.X, R, U, s)
        keep = t <= run.audit.T_eps * (1 + 1e-12)
        lf, labs = lf[keep], labs[keep]
        worst = float(np.max(lf))
        k = np.unravel_index(int(np.argmax(lf)), lf.shape)
        err = pat.state_error(run)
        # relative error of |f| <= 3 err sum|terms|/|f| (r and u each off by err), plus rounding
        rel = 3.0 * err * float(np.exp(min(labs[k] - lf[k], 700.0))) if math.isfinite(lf[k]) else 0.0
        value = math.log(fstar) - worst
        other = _fstar(run, "max" if reading == "min" else "min")
        note = (f"log10 max|f| = {worst / math.log(10):.6g} vs log10 F* = {math.log10(fstar):.6g} ({reading} reading); "
                f"log10 eps = {run.log_eps / math.log(10):.6g}, T = {run.audit.T_eps:.6g}")
        if other is not None:
            note += f"; other reading: log10 F* = {math.log10(other):.6g}"
        rounding = 1e-12 * (abs(worst) + 1.0) if math.isfinite(worst) else 0.0  # f == 0 exactly: nothing to round
        return Margin(value, rel + rounding, note)

    return check


def _eps_mode_defined(run) -> bool | str:
    if "eps_mode_undefined" in run.scenario.params:
        return run.scenario.params["eps_mode_undefined"]
    if not run.audit.assumption1 or not run.audit.assumption2:
        return "Assumption 1 or 2 fails"
    if not (run.audit.T_eps is not None and run.audit.T_eps > 0):
        return "T(eps) <= 0: Lemmas 1/3 vacuous (P12)"
    return True


def _horizon_T(sc, a):
    return a.T_eps


# =========================================================================== EA-E3 (7)/(8)


def boundary_push(quantitative: bool):
    """EA-E3 at the initial state: for each neuron j and point i, put u_j on x_i^perp (skip if the
    projected direction is dead), keep r_j (balanced) and evaluate exactly
    D = d/dt <w_j/||w_j||, y_i x_i/||x_i||> = s_j <y_i x_i/||x_i||, G_j> (sigma'(0) = 0: x_i inactive).
    Sign part: s_j D > 0 (any eps). Quantitative part (eps as in (28)): s_j D >= mu^{3/2} X_min/2."""

    def check(run) -> Margin:
        X, y, fld = run.X, run.y, run.field
        r0, U0, s = tm.initial_polar(run)
        Xn = X / np.linalg.norm(X, axis=1)[:, None]
        level = run.audit.mu ** 1.5 * run.audit.X_min / 2.0 if quantitative else 0.0
        worst, note, used, err = math.inf, "every projected direction is dead", 0, 0.0
        for j in range(U0.shape[0]):
            for i in range(X.shape[0]):
                u = U0[j] - (U0[j] @ Xn[i]) * Xn[i]
                nu = float(np.linalg.norm(u))
                if nu < 1e-8:
                    continue
                u = u / nu
                u = u - (u @ Xn[i]) * Xn[i]
                p = X @ u
                p[i] = 0.0
                act = p > tm.SURFACE_RTOL * np.linalg.norm(X, axis=1)
                if not act.any():
                    continue
                U = U0.copy()
                U[j] = u
                f = tm.outputs(X, r0[None], U[None], s)[0]
                g = fld.loss.g(y, f)
                G = (act * g) @ X
                D = s[j] * (y[i] * Xn[i] @ G)
                scale = float(np.sum(act * np.abs(g) * np.linalg.norm(X, axis=1)))
                val = (s[j] * D - level) / scale
                used += 1
                if val < worst:
                    worst, err = val, 1e-13
                    note = f"neuron {j} (s = {int(s[j]):+d}) on x_{i}^perp: s_j d/dt<w_hat, y_i x_i_hat> = {s[j] * D:.6g}" + (
                        f" vs mu^1.5 X_min/2 = {level:.6g}" if quantitative else "")
        if used == 0:
            return Margin(0.0, 0.0, note, vacuous=True)
        return Margin(worst, err, note)

    return check


# =========================================================================== EA-E4 dwell time


def dwell_margin(run) -> Margin:
    """EA-E4 on the exact limit engine: every non-final constant-pattern piece lasts <= Delta t(n_a)."""
    a = run.audit
    tol = tm.TIME_RTOL * max(1.0, run.horizon)
    worst, note = tm.dwell_violations(run, a.delta_t_coef, math.inf, tol)
    if not math.isfinite(worst):
        return Margin(0.0, 0.0, note, vacuous=True)
    return Margin(worst, tol, note)


def barrier_margin(run) -> Margin:
    """EA-E4 barrier: cos(w_j(t), x-) <= sqrt(1 - zeta) for j in V+ (and cos(w_j, x+) for V-) at all samples."""
    a = run.audit
    t, R, U, s = tm.polar_samples(run)
    level = math.sqrt(max(0.0, 1.0 - a.zeta_min))
    worst, note = math.inf, "no opposite class"
    for sign, target in ((1.0, a.x_minus), (-1.0, a.x_plus)):
        nt = float(np.linalg.norm(target))
        sel = s == sign
        if nt == 0 or not sel.any():
            continue
        c = U[:, sel, :] @ (target / nt)
        val = level - float(c.max())
        if val < worst:
            worst = val
            note = f"max cos over V{'+' if sign > 0 else '-'} = {float(c.max()):.9g} vs sqrt(1 - zeta) = {level:.9g}"
    if not math.isfinite(worst):
        return Margin(0.0, 0.0, note, vacuous=True)
    return Margin(worst, 1e-12, note)


# =========================================================================== EA-E6 Theorem 1 part 1


def part1_at(time_of):
    """Theorem 1 part 1 at the time ``time_of(run)`` (must be 0 or the horizon): every V+ neuron in
    S+ or S_dead, and in S+ if it initially activated a positive point; likewise V- with S-.
    Margin: min over neurons of the signed region margin (normalised pre-activations)."""

    def check(run) -> Margin:
        t_check = time_of(run)
        t, R, U, s = tm.polar_samples(run)
        k = 0 if t_check == 0.0 else t.size - 1
        if t_check != 0.0 and abs(t[k] - t_check) > 1e-9 * max(1.0, t_check):
            raise ValueError(f"part-1 check at t = {t_check} but the horizon is {t[k]}")
        _, U0, _ = tm.initial_polar(run)
        own = tm.initially_active_own(run.X, run.y, U0, s)
        worst, note = math.inf, ""
        for j in range(U.shape[1]):
            m = tm.allowed_margin(run.X, run.y, U[k, j], s[j], bool(own[j]))
            if m < worst:
                worst = m
                note = (f"t = {t[k]:.6g}: neuron {j} (s = {int(s[j]):+d}, initially active on own class: {bool(own[j])}) "
                        f"is in {tm.region_of(run.X, run.y, U[k, j])}, margin {m:.6g}")
        return Margin(worst, pat.state_error(run) + tm.SURFACE_RTOL, note)

    return check


def with_dead_time(check):
    """Append the observed S_dead entry times (events of kind "dead") to the check's note (P9: t* = 0.604 in the limit)."""

    def wrapped(run) -> Margin:
        m = check(run)
        dead = sorted((e.j, e.t) for e in run.events if e.kind == "dead")
        extra = "; dead at " + ", ".join(f"j={j}: t={t:.6g}" for j, t in dead) if dead else "; no neuron died"
        return Margin(m.value, m.error, m.note + extra + f" (limit t* = ln tan((pi-1)/2) = {tm.p9_dead_time():.6g})", m.vacuous)

    return wrapped


def _at_horizon(run) -> float:
    return float(run.horizon)


def t1_emp_margin(run) -> Margin:
    """EA-E6: t1_emp <= t1, t1_emp = inf{t : every neuron in its trapping set for all later t <= horizon}."""
    t1 = float(run.audit.t1)
    t1e = tm.alignment_time(run)
    return Margin(t1 - t1e, tm.TIME_RTOL * max(1.0, t1),
                  f"t1_emp = {t1e:.10g} vs t1 = {t1:.6g} (ratio {t1e / t1:.3g}); zeta2 = {run.audit.zeta2:.3g}")


def random_init_margin(run) -> Margin:
    """EA-E7: with m+ V+ neurons of i.i.d. N(0, I/d) directions (a symmetric law), the frequency of
    "some V+ neuron activates a positive point at init" is >= 1 - 2^{-m+} (Monte Carlo, N = 4000 draws
    seeded by the scenario; error = 5 binomial standard deviations); likewise for V- and negative points."""
    X, y = run.X, run.y
    _, _, s = tm.initial_polar(run)
    rng = np.random.default_rng(int(run.scenario.params.get("init_seed", 0)) + 12345)
    N = 20000
    worst, err, note = math.inf, 0.0, "no neuron faces a nonempty class of its sign"
    for sign, cls in ((1.0, y > 0), (-1.0, y < 0)):
        m = int(np.sum(s == sign))
        if m == 0 or not cls.any():
            continue
        W = rng.standard_normal((N, m, X.shape[1])) / math.sqrt(X.shape[1])
        hit = np.any(np.einsum("nd,kmd->kmn", X[cls], W) > 0.0, axis=(1, 2))
        p_hat = float(hit.mean())
        bound = 1.0 - 2.0 ** (-m)
        sd = math.sqrt(max(bound * (1.0 - bound), 1.0 / N) / N)
        if p_hat - bound < worst:
            worst, err = p_hat - bound, 5.0 * sd
            note = f"V{'+' if sign > 0 else '-'} (m = {m}): frequency {p_hat:.4f} vs 1 - 2^-m = {bound:.4f} (N = {N})"
    if not math.isfinite(worst):
        return Margin(0.0, 0.0, note, vacuous=True)
    return Margin(worst, err, note)


# =========================================================================== EA-F1 .. F6


def lemma13_margin(run) -> Margin:
    """EA-F1: r_j(t) - r_j(0) + 2 n X_max t >= 0 for t <= t1 (per neuron, Lemma 13's proof)."""
    t, R, U, s = tm.polar_samples(run)
    keep = (t > 0.0) & (t <= run.audit.t1 * (1 + 1e-12))
    a = run.audit
    val = R[keep] - R[0][None] + 2.0 * a.n * a.X_max * t[keep][:, None]
    k, j = np.unravel_index(int(np.argmin(val)), val.shape)
    err = 2 * pat.state_error(run) + 1e-15 * float(np.max(np.abs(R[keep])))
    return Margin(float(val[k, j]), err, f"min at t = {t[keep][k]:.6g}, neuron {j}: r - r0 = {R[keep][k, j] - R[0, j]:.6g}")


def _groups(run) -> tuple[np.ndarray, np.ndarray, float]:
    """(V~+ mask, V~- mask, t1_emp): neurons in S+ / S- from t1_emp on (pattern history)."""
    pieces = tm.pattern_history(run)
    t1e = tm.alignment_time(run)
    pos = frozenset(np.flatnonzero(run.y > 0).tolist())
    neg = frozenset(np.flatnonzero(run.y < 0).tolist())
    last = [h[-1].active for h in pieces]
    vp = np.array([p == pos and len(pos) > 0 for p in last])
    vm = np.array([p == neg and len(neg) > 0 for p in last])
    return vp, vm, t1e


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


def _t2_data(run):
    t, R, U, s = tm.polar_samples(run)
    F = tm.outputs(run.X, R, U, s)
    vp, vm, t1e = _groups(run)
    br = tm.empirical_t2(run, t, F, {"plus": np.flatnonzero(run.y > 0), "minus": np.flatnonzero(run.y < 0)}, t1e)
    return t, R, U, s, F, vp, vm, t1e, br


def norms_after_t2_margin(run) -> Margin:
    """EA-F3 (34)/(35): for samples t >= t2: ln sum_{V~+-} ||w_j||^2 >= -ln(4 X_max)."""
    t, R, U, s, F, vp, vm, t1e, br = _t2_data(run)
    t2 = max(br["plus"][1], br["minus"][1])
    if not math.isfinite(t2):
        return Margin(0.0, 0.0, "t2 not reached by the horizon", vacuous=True)
    keep = t >= t2
    lvl = -math.log(4.0 * run.audit.X_max)
    vals = [float(np.min(logsumexp(2.0 * R[keep][:, g], axis=1))) - lvl for g in (vp, vm)]
    return Margin(min(vals), 2 * pat.state_error(run) + 1e-13,
                  f"t2 in ({max(br['plus'][0], br['minus'][0]):.6g}, {t2:.6g}]; min ln-margins (+, -) = {vals[0]:.4g}, {vals[1]:.4g}")


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
    return Margin(worst, err, note)


def t2_bound_margin(run) -> Margin:
    """EA-F6 (39): the empirical t2+- (bracketed by samples) <= the bound with the theoretical t1."""
    t, R, U, s, F, vp, vm, t1e, br = _t2_data(run)
    a = run.audit
    worst, err, note = math.inf, 0.0, ""
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
    return Margin(worst, err, note)


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


# =========================================================================== EA-G


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


def _stable_rank_margins(run, R, U) -> np.ndarray:
    """ln(2 ||W||_2^2 + 4 sqrt(h) eps W_max^2) - ln ||W||_F^2 per sample."""
    a = run.audit
    lslack = math.log(4.0 * math.sqrt(a.h) * a.W_max**2) + run.log_eps
    out = []
    for Rk, Uk in zip(R, U):
        lf, l2 = tm.log_norms_W(Rk, Uk)
        out.append(float(np.logaddexp(math.log(2.0) + l2, lslack)) - lf)
    return np.array(out)


def stable_rank_margin(run) -> Margin:
    """EA-G3: ||W||_F^2 <= 2||W||_2^2 + 4 sqrt(h) eps W_max^2 at samples t >= t1_emp (t1_emp <= T), log space."""
    t, R, U, s = tm.polar_samples(run)
    t1e = tm.alignment_time(run)
    keep = t >= t1e
    m = _stable_rank_margins(run, R[keep], U[keep])
    k = int(np.argmin(m))
    return Margin(float(m[k]), 4 * pat.state_error(run) + 1e-12,
                  f"{int(keep.sum())} samples after t1_emp = {t1e:.4g}; min ln-margin {m[k]:.4g} at t = {t[keep][k]:.4g}")


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


# =========================================================================== EA-H


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


def regular_solution_margin(run) -> Margin:
    """EA-H4 / P13: on Example E.4 the engine returns the regular (stationary) solution."""
    t, R, U, s = tm.polar_samples(run)
    move = float(max(np.max(np.abs(U - U[0][None])), np.max(np.abs(R - R[0][None]))))
    return Margin(-move, 0.0, f"max |change of (r, u)| = {move:.3g}")


def e3_field(a: float) -> np.ndarray:
    """Example E.3: x = (1, 0), y = -1, w(0) = (0, 1), v(0) = 1 (balanced), exp loss, sigma'(0) = a: the
    project's vector field with slope a at <x, w> = 0 (the leaky slope acts only on that boundary point here)."""
    from verify.dynamics.field import NetworkField

    fld = NetworkField(np.array([[1.0, 0.0]]), np.array([-1.0]), "exp", float(a))
    W, v = np.array([[0.0, 1.0]]), np.array([1.0])
    Wdot, vdot = fld.cartesian(W, v, fld.mode(fld.X @ W.T))
    return np.concatenate([Wdot[0], vdot])


def e3_value_margin(a: float) -> Margin:
    """EA-H3: F(theta(0)) = (-a, 0; 0) exactly (nonzero iff a > 0, so no Caratheodory solution for a > 0)."""
    F = e3_field(a)
    dev = float(np.max(np.abs(F - np.array([-a, 0.0, 0.0]))))
    return Margin(-dev, 1e-15, f"a = {a:.6g}: F(theta(0)) = {F.tolist()}")


def e3_stationary_margin(a: float) -> Margin:
    """P4 (planted): F(theta(0)) = 0, i.e. the stationary solution exists -- true only for a = 0."""
    F = e3_field(a)
    norm = float(np.linalg.norm(F))
    return Margin(-norm, 1e-15, f"a = {a:.6g}: ||F(theta(0))|| = {norm:.6g}; F points into Int S_dead where F = 0, so no "
                                f"Caratheodory continuation exists for a > 0")


# =========================================================================== worst component


def _worst(parts: list[tuple[float, float, str]], empty: str) -> Margin:
    """The component closest to a violation (min of value + error: a component with value < -error
    is always chosen when one exists), or a vacuous margin when there is none."""
    if not parts:
        return Margin(0.0, 0.0, empty, vacuous=True)
    value, error, note = min(parts, key=lambda p: p[0] + p[1])
    return Margin(float(value), float(error), note)


# =========================================================================== EA-C4 time scales


def time_scales_margin(run) -> Margin:
    """EA-C4 (Sec. 2.2/3.1): at eps = eps_required, t1_emp <= T(eps) <= t_onset, where
    t_onset = inf{t : max_i |f(x_i)| > 1/4} ends the small-output phase (read in log space).

    The first inequality is "alignment finishes inside Lemma 3's window"; the second is what Lemma 3
    gives at eps <= eps_required (max|f| <= F* < 1/4 on [0, T]). t_onset is bracketed by samples
    (value: lower end - T, error: bracket width). The note reports the sheet's DER estimate
    ln(1/eps^2)/(2 ||x+-||) of the onset (informational: the Theta(log 1/eps) remark) and the first
    doubling of a neuron norm, which comes long before T (norm growth is not output growth)."""
    a = run.audit
    T = float(a.T_eps)
    t, R, U, s = tm.polar_samples(run)
    lf, _, _ = tm.log_outputs(run.X, R, U, s)
    lo, hi = tm.first_exceed(t, np.max(lf, axis=1), math.log(0.25))
    t1e = tm.alignment_time(run)
    tol = tm.TIME_RTOL * max(1.0, T)
    parts = [(T - t1e, tol, f"t1_emp = {t1e:.6g} vs T(eps) = {T:.6g}")]
    if math.isfinite(hi):
        parts.append((lo - T, (hi - lo) + tol, f"t_onset in ({lo:.6g}, {hi:.6g}] vs T(eps) = {T:.6g}"))
    else:
        parts.append((run.horizon - T, tol, f"t_onset > horizon {run.horizon:.6g} vs T(eps) = {T:.6g}"))
    m = _worst(parts, "")
    ests = [(-run.log_eps) / float(np.linalg.norm(x)) for x in (a.x_plus, a.x_minus) if np.linalg.norm(x) > 0]
    dlo, dhi = tm.first_exceed(t, np.max(R - R[0][None], axis=1), math.log(2.0))
    onset = f"({lo:.6g}, {hi:.6g}]" if math.isfinite(hi) else f"> {run.horizon:.6g}"
    info = (f"; T = {T:.6g}, t1 = {a.t1:.6g}, t1_emp = {t1e:.6g}, t_onset {onset}, DER estimate ln(1/eps^2)/(2||x+-||) = "
            + ", ".join(f"{e:.6g}" for e in ests) + f"; first norm doubling at t <= {dhi:.4g} (ln eps = {run.log_eps:.6g})")
    return Margin(m.value, m.error, m.note + info)


# =========================================================================== EA-E5 paths, arrival


def arrival_margin(run) -> Margin:
    """EA-E5 (trajectory part, App. C): per neuron, on the exact eps -> 0 limit engine,
    - arrival in its own cone (S+ for V+, S- for V-) at a time <= T(P_observed) = sum over the
      visited (k+, k-) vertices of Delta t(k+ + k-), and T(P_observed) <= T(P_max) (R13);
    - arrival in S_dead at a time <= T(P_observed) and <= 4 H_{n_a(0)}/(m sqrt(mu) X_min);
    - a neuron that has arrived nowhere by the horizon: T(P_observed, current vertex included) >= horizon.
    The symbolic path sums (T(P) <= T(P_max) <= t1, H_n <= 4 ln n) are the S9-* claims."""
    a = run.audit
    coef = float(a.delta_t_coef)
    pos, neg = tm.class_patterns(run.y)
    _, _, s = tm.initial_polar(run)
    parts: list[tuple[float, float, str]] = []
    for j, hist in enumerate(tm.pattern_history(run)):
        own = pos if s[j] > 0 else neg
        tag = f"neuron {j} (s = {int(s[j]):+d})"
        t_own, before = tm.arrival(hist, own) if own else (math.inf, list(hist))
        t_dead, before_d = tm.arrival(hist, frozenset())
        if min(t_own, t_dead) == 0.0:
            continue  # trapped at t = 0: empty path, no evidence
        if math.isfinite(t_own) and t_own <= t_dead:
            T_obs = tm.path_travel_time(before, coef)
            tol = tm.TIME_RTOL * max(1.0, T_obs)
            path = [tm.path_counts(p.active, run.y) for p in before]
            parts.append((T_obs - t_own, tol, f"{tag} enters its cone at {t_own:.6g} vs T(P_obs) = {T_obs:.6g}, path {path}"))
            t_max = a.T_Pmax_plus if s[j] > 0 else a.T_Pmax_minus
            if t_max is not None:
                parts.append((t_max - T_obs, tm.TIME_RTOL * max(1.0, t_max), f"{tag}: T(P_obs) = {T_obs:.6g} vs T(P_max) = {t_max:.6g}"))
        elif math.isfinite(t_dead):
            T_obs = tm.path_travel_time(before_d, coef)
            n_a0 = len(hist[0].active)
            dead = tm.dead_path_bound(n_a0, coef)
            parts.append((T_obs - t_dead, tm.TIME_RTOL * max(1.0, T_obs), f"{tag} dies at {t_dead:.6g} vs T(P_obs) = {T_obs:.6g}"))
            parts.append((dead - t_dead, tm.TIME_RTOL * max(1.0, dead),
                          f"{tag} dies at {t_dead:.6g} vs 4 H_{n_a0}/(m sqrt(mu) X_min) = {dead:.6g}"))
        else:
            T_all = tm.path_travel_time(hist, coef)
            parts.append((T_all - float(run.horizon), tm.TIME_RTOL * max(1.0, run.horizon),
                          f"{tag} not trapped by the horizon {run.horizon:.6g}; T(P_obs incl. current vertex) = {T_all:.6g}"))
    return _worst(parts, "every neuron is trapped at t = 0 (empty paths)")


# =========================================================================== EA-F5 refined alignment


def refined_alignment_margin(run) -> Margin:
    """EA-F5 (App. D.2 [R18]) for each group V~+ (x+, I+, n+, t2+) and V~- (x-, I-, n-, t2-), at the
    samples of [t1_emp, t2+-) (t2 bracketed by samples, R16; V~ from t1_emp on):
    (i) cos(x+, x~_a) >= 1/3 and ||x~_a|| >= ||x+||/2, x~_a = sum_{I+} |g_i| x_i (the exact aligning vector in S+);
    (ii) {cos(x+, w_j) >= 1/4} is trapping: once a sample has it, every later sample of the window does;
    (iii) t_a = inf{t >= t_s : min_{V~+} cos(x+, w_j) >= 1/4} <= t_s + 6/(sqrt(mu) n+ X_min) for t_s = t1_emp (the
    proof's argument from any time all of V~+ is in S+, DER-sharp) and t_s = t1 (as stated); bracketed by samples.
    The informal "cos about 1" is only reported (min cos(x+-, w_j) at the end of the window)."""
    a = run.audit
    t, R, U, s, F, vp, vm, t1e, br = _t2_data(run)
    X, y = run.X, run.y
    err = 2.0 * pat.state_error(run) + 1e-12
    parts: list[tuple[float, float, str]] = []
    info = []
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
            parts.append((c - 1.0 / 3.0, err, f"V~{key}, t = {t[k]:.6g}: cos(x{key}, x~_a) = {c:.9g} vs 1/3"))
            parts.append((float(np.linalg.norm(xa)) / nx - 0.5, err, f"V~{key}, t = {t[k]:.6g}: ||x~_a||/||x{key}|| vs 1/2"))
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
                parts.append((bound - float(t[ks][k]), float(t[ks][k]) - prev + tm.TIME_RTOL * max(1.0, bound),
                              f"V~{key}: t_a from {name} in ({prev:.6g}, {t[ks][k]:.6g}] vs {name} + 6/(sqrt(mu) n{key} X_min) = "
                              f"{bound:.6g}"))
            elif float(t[ks][-1]) >= bound:
                parts.append((bound - float(t[ks][-1]), tm.TIME_RTOL * max(1.0, bound),
                              f"V~{key}: min cos < 1/4 up to {t[ks][-1]:.6g} >= {name} + 6/(sqrt(mu) n X_min) = {bound:.6g}"))
        info.append(f"min cos(x{key}, w_j) at t = {t[ks][-1]:.4g}: {float(mins[-1]):.6f}")
    m = _worst(parts, "no group with samples in [t1_emp, t2)")
    return Margin(m.value, m.error, m.note + ("; informal (cos ~ 1): " + ", ".join(info) if info else ""), m.vacuous)


# =========================================================================== EA-G2 low-rank bounds


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


def sharp_low_rank_margin(run) -> Margin:
    """EA-G2 (sharp form, DER from (41)-(43)'s proof): for samples t >= t_ref (the first sample after t1_emp,
    all neurons trapped) ||W||_F^2 - ||W+||_2^2 - ||W-||_2^2 <= 2 sum_{V~+-} ||w_j(t_ref)||^2 + sum_{dead} ||w_j||^2.
    The left side is computed without cancellation as sum_{k>=2} sigma_k(W+)^2 + sum_{k>=2} sigma_k(W-)^2 +
    ||W_dead||_F^2; relative margin 1 - LHS/RHS; error: the state error propagated through the singular values
    (Weyl: |d sigma_k| <= ||dW||_F) plus that of the right side."""
    t, R, U, s = tm.polar_samples(run)
    vp, vm, vd, t1e = _trapped_groups(run)
    ks = np.flatnonzero(t >= t1e)
    if ks.size < 2 or not math.isfinite(t1e):
        return Margin(0.0, 0.0, "no sample after t1_emp", vacuous=True)
    err = pat.state_error(run)
    k0 = ks[0]
    rhs_terms = [math.log(2.0) + float(logsumexp(2.0 * R[k0][g])) for g in (vp, vm) if g.any()]
    rhs_terms += [float(logsumexp(2.0 * R[k0][vd]))] if vd.any() else []
    if not rhs_terms:
        return Margin(0.0, 0.0, "no neuron", vacuous=True)
    lrhs = float(logsumexp(rhs_terms))
    worst, note, werr = math.inf, "", 0.0
    for k in ks:
        tails, errs = [], []
        for g in (vp, vm):
            if g.sum() >= 2:
                _, tail = tm.log_sv2(R[k][g], U[k][g])
                if math.isfinite(tail):
                    tails.append(tail)
                errs.append(_ln_tail_error(tail, float(logsumexp(2.0 * R[k][g])), int(g.sum()), err))
        if vd.any():
            ld = float(logsumexp(2.0 * R[k][vd]))
            tails.append(ld)
            errs.append(ld + math.log(4.0 * err + 1e-16))
        llhs = float(logsumexp(tails)) if tails else -math.inf
        ratio = math.exp(min(llhs - lrhs, 700.0))
        val = 1.0 - ratio
        e = (math.exp(min(float(logsumexp(errs)) - lrhs, 700.0)) if errs else 0.0) + 4.0 * err * ratio + 1e-13
        if val < worst:
            worst, werr = val, e
            note = (f"t = {t[k]:.6g}: LHS/RHS = {ratio:.6g} (ln RHS = {lrhs:.6g} at t_ref = {t[k0]:.6g}, t1_emp = {t1e:.4g}; "
                    f"|V~+| = {int(vp.sum())}, |V~-| = {int(vm.sum())}, dead {int(vd.sum())})")
    return Margin(worst, werr, note)


def paper_low_rank_margin(run) -> Margin:
    """EA-G2 as printed, (41)-(43), for samples t >= t1_emp (t1_emp <= T: Lemma 3 at t1), in log space:
    ||W+||_F^2 - ||W+||_2^2 <= (4 eps W_max^2/sqrt(h)) |V~+| (41), the same for W- (42), and
    ||W_dead||_F^2 <= (2 eps W_max^2/sqrt(h)) |V~dead| (43). The left sides are sum_{k>=2} sigma_k^2 (no
    cancellation) and the margin uses LHS + its float error bound (:func:`_ln_tail_error`). A sample where that
    error bound alone exceeds the bound cannot be resolved and is skipped (counted in the note): once the norms
    have grown ~1e9-fold past the scale of eps, the float64 state no longer resolves spreads of order eps."""
    a = run.audit
    t, R, U, s = tm.polar_samples(run)
    vp, vm, vd, t1e = _trapped_groups(run)
    ks = np.flatnonzero(t >= t1e)
    err = pat.state_error(run)
    base = run.log_eps + 2.0 * math.log(a.W_max) - 0.5 * math.log(a.h)
    parts: list[tuple[float, float, str]] = []
    skipped = 0
    for k in ks:
        for name, g, c in (("(41)", vp, 4.0), ("(42)", vm, 4.0), ("(43)", vd, 2.0)):
            if not g.any():
                continue
            lbound = math.log(c * g.sum()) + base
            lfrob = float(logsumexp(2.0 * R[k][g]))
            if name == "(43)":
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
            parts.append((lbound - up, 1e-12 * (abs(lbound) + 1.0),
                          f"{name} at t = {t[k]:.6g}: ln(LHS + error) = {up:.6g} vs ln bound = {lbound:.6g}"))
    m = _worst(parts, f"no resolvable sample after t1_emp ({skipped} unresolved; one-neuron groups have LHS = 0 trivially)")
    return Margin(m.value, m.error, m.note + f"; {len(parts)} resolved checks, {skipped} unresolved skipped (t1_emp = {t1e:.4g}, "
                                                f"T = {a.T_eps:.4g})", m.vacuous)


# =========================================================================== EA-H5 monotone loss


def loss_descent_margin(run) -> Margin:
    """EA-H5 (App. E.5): along the run, (a) ln L(t_k+1) <= ln L(t_k) at consecutive samples (error: the output
    error bound, |d ln L| <= max_i |df_i| for exp and 2x logistic); at every sampled state (b) the chain rule
    L_dot = sum_i l'_i f_i' equals -||F||^2 (F the field in its mode: F = -grad L, rounding error only) and
    (c) L_dot <= 0; (d) (50) along the trajectory: ||F(theta(t))||_F <= X_max L(theta(0)) ||theta(t)||_F.
    States are scaled per sample (theorem-scale eps stays finite); (b)-(d) are scale-free."""
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
    for k in range(t.size):
        ldot, norm2, mag = tm.loss_rate_terms(fld, W[k], v[k], F[k])
        if mag == 0.0:
            continue
        parts.append((-abs(ldot + norm2) / mag, rnd, f"t = {t[k]:.6g}: |L_dot + ||F||^2| / magnitude = {abs(ldot + norm2) / mag:.3g}"))
        parts.append((-ldot / mag, rnd, f"t = {t[k]:.6g}: L_dot / magnitude = {ldot / mag:.3g}"))
        ltheta = 0.5 * math.log(float(np.sum(W[k] ** 2) + np.sum(v[k] ** 2)))
        if norm2 > 0.0:
            val = math.log(xmax) + lnL[0] + ltheta - 0.5 * math.log(norm2)
            parts.append((val, 4.0 * S["err"] + float(ferr[k]) + 1e-12,
                          f"t = {t[k]:.6g}: ln(X_max L(0) ||theta||) - ln ||F|| = {val:.6g} (eq. (50))"))
    return _worst(parts, "no sample")


# =========================================================================== EA-H1 continuity off A


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
                  f"decay q = {q[j]:.4g}; ~1: continuous)")


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
                  f"(q = {q:.4g}: a jump, it does not shrink with s)")


# =========================================================================== E.4 irregular solution (P13)


def e4_irregular(t0: float, taus: np.ndarray):
    """Example E.4's irregular solution 2: theta(t) = theta(0) for t <= t0, then (47) from theta(0):
    w = (a, 1), v = sqrt(1 + a^2), a' = sqrt(1 + a^2) exp(-a sqrt(1 + a^2)), a(t0) = 0 (DER reduction of (47);
    the (45) check below uses the full engine field, so the reduction is itself tested).
    Returns a dense callable state(t) -> (W (1, 2), v (1,)) and a(t0 + taus)."""
    from scipy.integrate import solve_ivp

    def rhs(_t, a):
        q = math.sqrt(1.0 + a[0] ** 2)
        return [q * math.exp(-a[0] * q)]

    t_end = float(np.max(taus))
    sol = solve_ivp(rhs, (0.0, t_end), [0.0], method="DOP853", rtol=1e-13, atol=1e-15, dense_output=True)

    def state(t: float):
        a = float(sol.sol(t - t0)[0]) if t > t0 else 0.0
        return np.array([[a, 1.0]]), np.array([math.sqrt(1.0 + a * a)])

    return state, np.array([float(sol.sol(tau)[0]) for tau in taus])


def e4_residual(t0: float, taus=(0.25, 0.5, 1.0)) -> tuple[float, float, float]:
    """(max residual of (45), quadrature error estimate, <x, w(t)>/||w(t)|| at the last time) for the irregular
    solution of E.4: theta(t) - theta(0) - int_0^t F(theta(s)) ds, F = the engine's field (exp loss, sigma'(0) = 0,
    mode at the state), by adaptive quadrature (F(theta(0)) = 0 on [0, t0] included)."""
    from scipy.integrate import quad_vec

    from verify.dynamics.field import NetworkField

    fo = NetworkField(np.array([[1.0, 0.0]]), np.array([1.0]), "exp", 0.0)
    taus = np.asarray(taus, float)
    state, _ = e4_irregular(t0, taus)

    def F(s: float) -> np.ndarray:
        W, v = state(s)
        Wdot, vdot = fo.cartesian(W, v, fo.mode(fo.X @ W.T))
        return np.concatenate([Wdot[0], vdot])

    W0, v0 = state(0.0)
    th0 = np.concatenate([W0[0], v0])
    worst, qerr = 0.0, 0.0
    for tau in taus:
        t = t0 + float(tau)
        pieces = [(0.0, t0), (t0, t)] if t0 > 0 else [(0.0, t)]
        integral = np.zeros(3)
        for lo, hi in pieces:
            val, e = quad_vec(F, lo, hi, epsabs=1e-14, epsrel=1e-13)
            integral += val
            qerr += float(e)
        W, v = state(t)
        res = float(np.max(np.abs(np.concatenate([W[0], v]) - th0 - integral)))
        worst = max(worst, res)
    W, v = state(t0 + float(taus[-1]))
    return worst, qerr, float(W[0, 0] / np.linalg.norm(W[0]))


def e4_caratheodory_margin(t0: float) -> Margin:
    """EA-H4 (irregular branch): E.4's solution 2 satisfies (45) to 1e-10 (and F(theta(0)) = 0, so solution 1,
    the stationary one, does too)."""
    res, qerr, _ = e4_residual(float(t0))
    from verify.dynamics.field import NetworkField

    fo = NetworkField(np.array([[1.0, 0.0]]), np.array([1.0]), "exp", 0.0)
    W, v = np.array([[0.0, 1.0]]), np.array([1.0])
    Wd, vd = fo.cartesian(W, v, fo.mode(fo.X @ W.T))
    f0 = float(np.max(np.abs(np.concatenate([Wd[0], vd]))))
    return Margin(min(1e-10 - res, 1e-10 - f0), qerr, f"t0 = {t0:.6g}: max (45) residual {res:.3g} (quadrature error {qerr:.2g}); "
                                              f"|F(theta(0))| = {f0:.3g}")


def e4_stays_dead_margin(t0: float) -> Margin:
    """P13 (planted, outside the theorem's scope): "every Caratheodory solution from E.4's theta(0) stays in S_dead".
    Witness: solution 2 (valid per (45) to 1e-10, else vacuous) has <x, w(t0 + 1)> > 0. Theorem 1 is stated for
    regular solutions only (Definition 1); the engine returns the regular one (EA-H4)."""
    res, qerr, cos_end = e4_residual(float(t0))
    if res > 1e-10:
        return Margin(0.0, 0.0, f"construction not a Caratheodory solution to 1e-10 (residual {res:.3g})", vacuous=True)
    return Margin(-cos_end, res + qerr, f"t0 = {t0:.6g}: irregular solution (residual {res:.3g}) has cos(x, w(t0 + 1)) = {cos_end:.6g} > 0: "
                                        f"left S_dead; outside the theorem's scope (irregular)")


# =========================================================================== fixed constructions


def _scenario(ds, W0: np.ndarray, signs: np.ndarray, log_eps: float, **params) -> Scenario:
    W0 = np.asarray(W0, dtype=float)
    init = Initialization(W0, np.asarray(signs, float) * np.linalg.norm(W0, axis=1), float(log_eps), "balanced")
    return Scenario(ds, init, "exp", 0.0, {"data": ds.name, "log_eps": float(log_eps), **params})


def _rot(v: np.ndarray, a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


def p3_data():
    """Sheet P3/P7 data: x1 = (1, 0.2) (+1), x2 = (-1, 0.2) (-1); n = 2, mu = 0.923, t1 ~ 13.3."""
    from verify.data.dataset import Dataset

    return Dataset([[1.0, 0.2], [-1.0, 0.2]], [1.0, -1.0], name="p3_data")


def p3_scenario(log_eps: float = 2.0) -> Scenario:
    """P3: V+ u0 = (0, 1) (activates both points), V- u0 = (-1, 0); ||w_j(0)|| = eps = e^2."""
    return _scenario(p3_data(), [[0.0, 1.0], [-1.0, 0.0]], [1.0, -1.0], log_eps, construction="sheet P3")


def p6_scenario() -> Scenario:
    """P6: x1 = (1, 0), x2 = (0, 1), both +1 (mu = 0); one V+ neuron at angle -0.5 rad."""
    return _scenario(gen.orthogonal_pair(), [[math.cos(-0.5), math.sin(-0.5)]], [1.0], -20.0, construction="sheet P6")


def p7_scenario(near: float | None = None) -> Scenario:
    """P7: P3's data with the V+ neuron exactly along x2 = x- (Assumption 2 fails, c_star = 1); with
    ``near`` the neuron is instead rotated off x- so that cos(w(0), x-) = 1 - near (zeta2 ~ 2 near)."""
    ds = p3_data()
    xm = ds.X[1] / np.linalg.norm(ds.X[1])
    u = xm if near is None else _rot(xm, math.acos(1.0 - near))
    base = _scenario(ds, [u, [-1.0, 0.0]], [1.0, -1.0], -30.0, construction="sheet P7" + ("" if near is None else f" near ({near:g})"))
    if near is None:
        return base
    value, _ = required_log_eps(base.dataset, base.init, "required")
    return _scenario(ds, [u, [-1.0, 0.0]], [1.0, -1.0], value, construction=f"sheet P7 near-violation control ({near:g})")


def p9_scenario() -> Scenario:
    """P9: n = 1, x1 = (1, 0), y1 = -1; one V+ neuron u0 = (cos 1, sin 1); eps = eps_required."""
    from verify.data.dataset import Dataset

    ds = Dataset([[1.0, 0.0]], [-1.0], name="p9_data")
    base = _scenario(ds, [[math.cos(1.0), math.sin(1.0)]], [1.0], 0.0)
    value, _ = required_log_eps(ds, base.init, "required")
    return _scenario(ds, [[math.cos(1.0), math.sin(1.0)]], [1.0], value, construction="sheet P9")


def e4_scenario() -> Scenario:
    """Example E.4 (P13): x = (1, 0), y = +1, w(0) = (0, 1), v(0) = 1 (on the boundary of S_dead)."""
    from verify.data.dataset import Dataset

    ds = Dataset([[1.0, 0.0]], [1.0], name="example_E4")
    return _scenario(ds, [[0.0, 1.0]], [1.0], 0.0, construction="App. E.4")


def toy4_scenario() -> Scenario:
    """Sheet 3.2 toy4 (a = 0.3) with h = 8 directions 0.2 + k pi/4, signs +,-,..., W_max = 1, at eps_required."""
    ds = gen.toy4()
    ang = 0.2 + np.arange(8) * math.pi / 4
    W0 = np.column_stack([np.cos(ang), np.sin(ang)])
    s = np.where(np.arange(8) % 2 == 0, 1.0, -1.0)
    base = _scenario(ds, W0, s, 0.0)
    value, _ = required_log_eps(ds, base.init, "required")
    return _scenario(ds, W0, s, value, construction="sheet 3.2 toy4, h = 8")


@st.composite
def near_assumption2(draw, mode: str) -> Scenario:
    """Erratum R8: two points (one per class) with mu in [0.97, 0.99]; one V+ neuron at angle delta in
    {1e-5, 5e-6} from x- (zeta2 = sin^2 delta ~ 1e-10, so t1 with the min reading is ~1e11), one V-
    neuron at angle 0.3 from x+; eps from ``mode`` ("required" or "required_printed")."""
    mu = draw(st.integers(min_value=97, max_value=99)) / 100.0
    seed = draw(SEEDS)
    delta = draw(st.sampled_from([1e-5, 5e-6]))
    side = draw(st.sampled_from([1.0, -1.0]))
    ds = gen.orthogonally_separable(1, 1, 2, mu, seed=seed)
    xm = ds.x_minus / np.linalg.norm(ds.x_minus)
    xp = ds.x_plus / np.linalg.norm(ds.x_plus)
    W0 = np.array([_rot(xm, side * delta), _rot(xp, 0.3)])
    s = np.array([1.0, -1.0])
    base = _scenario(ds, W0, s, 0.0)
    value, _ = required_log_eps(ds, base.init, mode)
    return _scenario(ds, W0, s, value, mu=mu, seed=seed, delta=delta, side=side, eps_mode=mode)


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


@st.composite
def single_class(draw) -> Scenario:
    """P14: positive points only (n- = 0, x- = 0), random balanced init (zeta2 >= 0.1) at eps_required."""
    n_pos = draw(st.integers(min_value=2, max_value=4))
    d = draw(st.integers(min_value=2, max_value=3))
    mu = draw(st.integers(min_value=50, max_value=95)) / 100.0
    seed, init_seed = draw(SEEDS), draw(SEEDS)
    h = draw(st.integers(min_value=2, max_value=4))
    ds = gen.orthogonally_separable(n_pos, 0, d, mu, seed=seed)
    for k in range(50):  # as theorem_scale: first seed with zeta2 >= 0.1 (bounded t1 for the ci budget)
        init = balanced_init(h, d, log_eps=0.0, seed=init_seed + k)
        rep = audit_data(ds, init.W0, init.v0, log_eps=0.0)
        if rep.zeta2 is not None and rep.zeta2 >= 0.1:
            break
    init_seed += k
    value, why = required_log_eps(ds, init, "required")
    params = {"n_pos": n_pos, "n_neg": 0, "d": d, "mu": mu, "seed": seed, "h": h, "init_seed": init_seed}
    if value is None:
        params["eps_mode_undefined"] = why
        value = -50.0
    return Scenario(ds, Initialization(init.W0, init.v0, value, "balanced"), "exp", 0.0, {**params, "log_eps": value})


def dead_negative_scenario(k: int, seed: int) -> Scenario:
    """P12: toy_2d data (all points in the upper half-plane, so (0, -1) is in S_dead); k V+ neurons at random
    angles around the positive points and one V- neuron at (0, -1), dead from t = 0; eps = eps_required."""
    ds = gen.toy_2d()
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


# =========================================================================== horizons


def _h_t1(sc, a):
    return a.t1


def _h_t1max(sc, a):
    return a.t1_max


def _h_t1min_capped(sc, a):
    return None if a.t1_min is None else min(a.t1_min, MAX_T)


def _h_part2(sc, a):
    """Past t2: 1.5 x the (39) bound (or 3 t1 when it is undefined)."""
    if a.t1 is None:
        return None
    return 1.5 * a.t2 if a.t2 is not None else 3.0 * a.t1


def _h_long(sc, a):
    base = _h_part2(sc, a)
    return None if base is None else 100.0 * base


def _h_data_t1(sc, a):
    """t1 with the data-only m = min(zeta1, xi) (what remains when Assumption 2's zeta2 is dropped)."""
    return audit_data(sc.dataset).t1


def _h_p11(sc, a):
    return 1.5 * (-sc.init.log_eps) / a.X_min + (a.t1 or 0.0)


# =========================================================================== the claims

SMALL = dict(n=(2, 4), d=(2, 3), h=(2, 4), mu=(0.5, 0.95))


@st.composite
def theorem_scale(draw, min_zeta2: float = 0.1, n=(2, 4), d=(2, 3), h=(2, 4), mu=(0.5, 0.95), signs: str = "random") -> Scenario:
    """Theorem-scale scenarios (eps = eps_required) with zeta2 >= ``min_zeta2``: the data and width are drawn as in
    ``scenario``; the init seed is the first of init_seed, init_seed + 1, ... (at most 50) whose Gaussian init has
    zeta2 >= min_zeta2 (a deterministic construction, not a filter), so t1 <= 16 ln n/(min(mu^2, min_zeta2) sqrt(mu) X_min)
    stays within what the event engine integrates in the ci budget (the engine's explicit steps grow ~ linearly in t
    once directions have converged). Small-zeta2 inits are covered by EA-E4 (limit engine), P7-near and R8.
    ``signs="alternating"`` (+, -, +, ...) guarantees both signs (part-2 claims, fewer vacuous examples)."""
    ds, dparams = draw(datasets("orthogonally_separable", n, d, mu))
    width = draw(st.integers(min_value=h[0], max_value=h[1]))
    seed0 = draw(SEEDS)
    for k in range(50):
        init = balanced_init(width, ds.d, log_eps=0.0, seed=seed0 + k, signs=signs)
        rep = audit_data(ds, init.W0, init.v0, log_eps=0.0)
        if rep.zeta2 is not None and rep.zeta2 >= min_zeta2:
            break
    value, why = required_log_eps(ds, init, "required")
    params = {**dparams, "h": width, "init_seed": seed0 + k, "signs": signs, "eps_mode": "required"}
    if value is None:
        params["eps_mode_undefined"] = why
        value = -50.0
    params["log_eps"] = value
    return Scenario(ds, Initialization(init.W0, init.v0, value, "balanced"), "exp", 0.0, params)


THEOREM = theorem_scale()
THEOREM_P2 = theorem_scale(h=(2, 5), signs="alternating")  # part 2: both signs present

E1 = Claim(
    id="EA-E1",
    node="L10", uses=("L4",),
    source=f"{SEED} Lemma 10, eq. (24)",
    statement="|d/dt psi_rj - sign(v_j(0)) (psi_ra - psi_rj psi_aj) ||x_a(w_j)|| | <= 2 n X_max max_i |f(x_i)| whenever max|f| <= 1",
    check=lemma10_margin,
    over=scenario(n=(1, 6), d=(2, 3), h=(1, 5), eps=(1e-2, 1.0)),
    horizon=3.0,
    assumptions=("Assumption 1 (by construction)", "balanced init (3)", "max|f| <= 1 at the state (else the state is skipped)"),
    assumed=("exp loss (Lemma 2 holds)",),
)

E2 = Claim(
    id="EA-E2",
    node="E28", uses=("L3",),
    source=f"{SEED} eqs. (28)-(29) [R9, R10]",
    statement="at eps = eps_required (min reading, c = 8), max_i |f(x_i)| <= min{mu,zeta,xi} sqrt(mu) X_min/(4 n X_max) for all t <= T(eps) (log space)",
    check=eq29_margin("min"),
    over=THEOREM,
    horizon=_horizon_T,
    precondition=_eps_mode_defined,
    assumptions=("Assumptions 1, 2", "eps = eps_required (28), corrected reading"),
    tags=("theorem-scale", "polar"),
)

E2_EPS1 = Claim(
    id="EA-E2-eps1",
    node="E28", uses=("L3",),
    source=f"{SEED} eqs. (28)-(29) via Lemma 3 [R9]",
    statement="at eps = eps1 with c = 8 (first term of (28) alone, capped by eps_L3), max|f| <= F* for t <= T(eps)",
    check=eq29_margin("min"),
    over=scenario(eps="eps1", n=(1, 4), d=(2, 3), h=(1, 4), mu=(0.5, 0.95)),
    horizon=_horizon_T,
    precondition=_eps_mode_defined,
    assumptions=("Assumptions 1, 2", "eps = min(eps1 (c = 8), eps_L3)"),
    tags=("erratum R9", "corrected"),
)

R9_PRINTED = Claim(
    id="R9-E2-printed",
    source=f"{SEED} eq. (28) as printed (c = 4) [erratum R9, sheet 7.2]",
    statement="PAIRED (as printed): at eps = eps1 with c = 4, max|f| <= F* for t <= T(eps). The proof via Lemma 3 only gives 2 F*; "
              "expected to HOLD empirically (Lemma 3's bound is loose by ~sqrt(eps)), so R9 is a proof gap, not an observable failure",
    check=eq29_margin("min"),
    over=scenario(eps="eps1_printed", n=(1, 4), d=(2, 3), h=(1, 4), mu=(0.5, 0.95)),
    horizon=_horizon_T,
    precondition=_eps_mode_defined,
    assumptions=("Assumptions 1, 2", "eps = min(eps1 (c = 4), eps_L3)"),
    tags=("erratum R9", "printed"),
)

E2_PRINTED = Claim(
    id="EA-E2-printed",
    node="E28", uses=("L3",),
    source=f"{SEED} eqs. (28)-(29) as printed [R8, R9]",
    statement="PAIRED (as printed): at eps_required of the printed reading (zeta = max{zeta1, zeta2}, c = 4), "
              "max|f| <= F* (printed mm) for t <= T(eps)",
    check=eq29_margin("max"),
    over=scenario(eps="required_printed", **SMALL),
    horizon=_horizon_T,
    precondition=_eps_mode_defined,
    assumptions=("Assumptions 1, 2", "eps = eps_required, printed reading"),
    tags=("erratum R8", "erratum R9", "printed"),
)

E3_SIGN = Claim(
    id="EA-E3",
    node="E78", uses=("L5", "L10", "L11", "E28"),
    source=f"{SEED} eqs. (7)/(8), sign part [R11, DER: any eps]",
    statement="for w_j not in S_dead on x_i^perp: d/dt <w_j_hat, y_i x_i_hat> > 0 for j in V+ and < 0 for j in V- (any eps)",
    check=boundary_push(False),
    over=scenario(n=(2, 6), d=(2, 4), h=(1, 5), eps=(1e-4, 1.0)),
    horizon=None,
    assumptions=("Assumption 1 (by construction)", "balanced init (3)"),
)

E3_MARGIN = Claim(
    id="EA-E3-margin",
    node="E78", uses=("L5", "L10", "L11", "E28"),
    source=f"{SEED} eqs. (7)/(8) [R11]",
    statement="with eps as in (28): s_j d/dt <w_j_hat, y_i x_i_hat> >= mu^{3/2} X_min/2 on x_i^perp (w_j not in S_dead)",
    check=boundary_push(True),
    over=scenario(eps="required", n=(2, 6), d=(2, 4), h=(1, 5), mu=(0.05, 0.95)),
    horizon=None,
    precondition=_eps_mode_defined,
    assumptions=("Assumptions 1, 2", "eps = eps_required"),
)

E4 = Claim(
    id="EA-E4",
    node="DT", uses=("L8", "L9", "L11", "E28", "A2", "L10"),
    source=f"{SEED} App. C.2, dwell time Delta t [R7]",
    statement="every constant-pattern piece of a neuron outside its trapping set lasts <= Delta t(n_a) = 4/(m sqrt(mu) n_a X_min) (exact limit engine)",
    check=dwell_margin,
    over=scenario(n=(2, 6), d=(2, 3), h=(2, 6), mu=(0.2, 0.95)),
    horizon=_h_t1,
    backend="limit",
    precondition=lambda run: True if run.audit.assumption2 and run.audit.t1 is not None else "Assumption 2 fails or t1 undefined",
    assumptions=("Assumptions 1, 2", "eps -> 0 limit (T = infinity)"),
    tags=("limit",),
)

E4_BARRIER = Claim(
    id="EA-E4-barrier",
    node="DT", uses=("L8", "L9", "L11", "E28", "A2", "L10"),
    source=f"{SEED} App. C.2, Case 2 barrier",
    statement="cos(w_j(t), x-) <= sqrt(1 - zeta) for j in V+ and cos(w_j(t), x+) <= sqrt(1 - zeta) for j in V- (exact limit engine)",
    check=barrier_margin,
    over=scenario(n=(2, 6), d=(2, 3), h=(2, 6), mu=(0.2, 0.95)),
    horizon=_h_t1,
    backend="limit",
    samples=128,
    precondition=lambda run: True if run.audit.assumption2 and run.audit.t1 is not None else "Assumption 2 fails or t1 undefined",
    assumptions=("Assumptions 1, 2", "eps -> 0 limit"),
    tags=("limit",),
)

E6 = Claim(
    id="EA-E6",
    node="T1A", uses=("PATHS", "E78", "L12", "EXIST", "L1"),
    source=f"{SEED} Theorem 1 part 1",
    statement="at eps = eps_required and t = t1 (min reading): every V+ neuron in S+ or S_dead (in S+ if it initially activated a "
              "positive point), every V- neuron in S- or S_dead (in S- if it initially activated a negative point)",
    check=part1_at(_at_horizon),
    over=THEOREM,
    horizon="t1",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "n >= 2", "eps = eps_required (28)", "regular solution (engine freezes dead neurons)"),
    tags=("theorem-scale", "polar"),
)

E6_T1EMP = Claim(
    id="EA-E6-t1emp",
    node="T1A", uses=("PATHS", "E78", "L12", "EXIST", "L1"),
    source=f"{SEED} Theorem 1 part 1 (t1_emp <= t1)",
    statement="the empirical alignment time t1_emp (every neuron in its trapping set for all later t) is <= t1 at eps = eps_required",
    check=t1_emp_margin,
    over=THEOREM,
    horizon="t1",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "n >= 2", "eps = eps_required"),
    tags=("theorem-scale", "polar"),
)

E6_TOY4 = Claim(
    id="EA-E6-toy4",
    node="T1A", uses=("PATHS", "E78", "L12", "EXIST", "L1"),
    source=f"{SEED} sheet 3.2 worked example (toy4, h = 8)",
    statement="toy4 at eps_required (log10 eps = -4298.8): t1_emp <= t1 = 618.6; the exact t1_emp is 1.362790997720063 "
              "(limit engine; the sheet's 1.380 is a sampling artefact)",
    check=t1_emp_margin,
    over=st.just(toy4_scenario()),
    horizon="t1",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2",),
    tags=("worked example",),
)

E7 = Claim(
    id="EA-E7",
    node="T1A", uses=("PATHS", "E78", "L12", "EXIST", "L1"),
    source=f"{SEED} Sec. 3.3 'Merits of random initialization' [P/INF]",
    statement="with m+ V+ neurons of a symmetric random init, P(some V+ neuron activates a positive point at init) >= 1 - 2^{-m+} "
              "(likewise V-; Monte Carlo, N = 20000, 5-sd error)",
    check=random_init_margin,
    over=scenario(n=(1, 6), d=(2, 4), h=(1, 6)),
    horizon=None,
    assumptions=("Gaussian N(0, I/d) directions (symmetric law)",),
)

R8_PRINTED = Claim(
    id="R8-t1-max-printed",
    source=f"{SEED} App. C.2 after (26), zeta := max{{zeta1, zeta2}} as printed [erratum R8, sheet 7.1]",
    statement="PAIRED (as printed): Theorem 1 part 1 at t1 = 16 ln n/(min{max{zeta1,zeta2}, xi} sqrt(mu) X_min) and eps = eps_required "
              "of the printed reading -- refuted by inits with a V+ neuron within 1e-5 rad of x-",
    check=part1_at(_at_horizon),
    over=near_assumption2("required_printed"),
    horizon=_h_t1max,
    expected=Verdict.REFUTED,
    assumptions=("Assumptions 1, 2 (zeta2 ~ 1e-10)", "eps = eps_required, printed reading"),
    tags=("erratum R8", "printed"),
)

R8_CORRECTED = Claim(
    id="R8-t1-min-corrected",
    source=f"{SEED} App. C.2 after (26), zeta := min{{zeta1, zeta2}} [erratum R8, sheet 7.1]",
    statement="PAIRED (corrected): Theorem 1 part 1 at t1 with zeta = min{zeta1, zeta2} (~1e11 here) and eps = eps_required, on the "
              "same near-boundary inits that refute the printed reading",
    check=part1_at(_at_horizon),
    over=near_assumption2("required"),
    horizon=_h_t1min_capped,
    backend="limit",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2 (zeta2 ~ 1e-10)", "eps = eps_required (corrected), ln eps ~ -9e11: run on the exact "
                 "eps -> 0 limit engine (f <= e^{-1e12} on [0, t1]; the explicit event engine needs ~k t steps once "
                 "directions converge, infeasible at t1 ~ 1e11)"),
    tags=("erratum R8", "corrected"),
)

P3 = Claim(
    id="P3-large-eps",
    source=f"{SEED} sheet P3 (eps far above eps_required; Theorem 1 part 1)",
    statement="PLANTED: Theorem 1 part 1 at t1 = 13.3 with ||w_j(0)|| = eps = e^2 (violates (28) and eps_L3 ~ 0.173): the V+ neuron "
              "still activates x2 (sheet: cos(u+, x2) = 0.196 at t = 10, 0.120 at t = 1e5)",
    check=part1_at(_at_horizon),
    over=st.just(p3_scenario()),
    horizon="t1",
    expected=Verdict.REFUTED,
    assumptions=("Assumptions 1, 2", "eps = e^2 (drops (28))"),
)

P6 = Claim(
    id="P6-mu-zero-moreover",
    source=f"{SEED} sheet P6 (mu = 0, App. A.3; Theorem 1 'moreover' clause)",
    statement="PLANTED: with orthogonal data (mu = 0, t1 undefined; checked at t = 5), a V+ neuron that initially activates x1 "
              "ends in S+ -- fails: <x2, w(t)> = <x2, w(0)> < 0 for all t",
    check=part1_at(_at_horizon),
    over=st.just(p6_scenario()),
    horizon=5.0,
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1 (mu = 0)",),
)

P7 = Claim(
    id="P7-assumption2",
    source=f"{SEED} sheet P7 (Assumption 2 violated)",
    statement="PLANTED: Theorem 1 part 1 at the data-only t1 = 13.3 with a V+ neuron exactly along x- = x2: its direction is "
              "frozen in S- (purely radial flow), never in S+ or S_dead",
    check=part1_at(_at_horizon),
    over=st.just(p7_scenario()),
    horizon=_h_data_t1,
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 2 (c_star = 1, zeta2 = 0)", "eps = e^-30"),
)

P7_NEAR = Claim(
    id="P7-near-control",
    source=f"{SEED} sheet P7 near-violation negative control",
    statement="NEGATIVE CONTROL: cos(w(0), x-) = 1 - 1e-6 (zeta2 ~ 2e-6, t1 ~ 5.7e6, log10 eps_req ~ -2e7): Theorem 1 part 1 holds at t1",
    check=part1_at(_at_horizon),
    over=st.just(p7_scenario(near=1e-6)),
    horizon="t1",
    backend="limit",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2 (barely)", "eps = eps_required (ln eps ~ -4.6e7): exact eps -> 0 limit engine"),
)

P9 = Claim(
    id="P9-n1-t1-printed",
    node="T1A", uses=("PATHS", "E78", "L12", "EXIST", "L1"),
    source=f"{SEED} sheet P9 / erratum 3 (n = 1: t1 = 16 ln 1/(...) = 0)",
    statement="PAIRED (as printed) PLANTED: for n = 1, at t1 = 0 every V+ neuron is in S+ or S_dead -- fails: the neuron reaches "
              "S_dead only at t* = ln tan((pi-1)/2) = 0.604 (eps -> 0)",
    check=with_dead_time(part1_at(lambda run: 0.0)),
    over=st.just(p9_scenario()),
    horizon=lambda sc, a: a.t1_dead_path,
    expected=Verdict.REFUTED,
    assumptions=("n = 1", "eps = eps_required"),
    tags=("erratum 3", "printed"),
)

P9_CORRECTED = Claim(
    id="EA-E6-n1-dead-path",
    node="T1A", uses=("PATHS", "E78", "L12", "EXIST", "L1"),
    source=f"{SEED} erratum 3 corrected (n = 1: dead-path bound 4 H_1/(m sqrt(mu) X_min))",
    statement="PAIRED (corrected): for n = 1, at t = 4 H_1/(m sqrt(mu) X_min) every V+ neuron is in S+ or S_dead (P9's neuron: dead at 0.604)",
    check=with_dead_time(part1_at(_at_horizon)),
    over=st.just(p9_scenario()),
    horizon=lambda sc, a: a.t1_dead_path,
    assumptions=("n = 1", "eps = eps_required"),
    tags=("erratum 3", "corrected"),
)

P14 = Claim(
    id="P14-single-class-part1",
    source=f"{SEED} sheet P14 (n- = 0; negative control)",
    statement="NEGATIVE CONTROL: with positive points only (x- = 0, S- = S_dead), Theorem 1 part 1 holds at t1 and eps_required",
    check=part1_at(_at_horizon),
    over=single_class(),
    horizon="t1",
    precondition=_theorem_scale,
    assumptions=("Assumption 1", "Assumption 2 (vacuous for V+)", "eps = eps_required"),
)

F1 = Claim(
    id="EA-F1",
    node="L13", uses=("T1A", "L3"),
    source=f"{SEED} Lemma 13 (per-neuron form) [R15]",
    statement="r_j(t) >= r_j(0) - 2 n X_max t for t <= t1 (ln||w_j||; implies Lemma 13's sums)",
    check=lemma13_margin,
    over=THEOREM,
    horizon="t1",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "eps = eps_required"),
    tags=("theorem-scale", "polar"),
)

F2 = Claim(
    id="EA-F2",
    node="DEC", uses=("T1A",),
    source=f"{SEED} App. D.1, decomposition (32)",
    statement="after t1: neurons outside V~+ contribute exactly 0 to positive points and outside V~- to negative points (f = f+ on I+, f = f- on I-)",
    check=decoupling_margin,
    over=THEOREM_P2,
    horizon=_h_part2,
    samples=96,
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "eps = eps_required"),
    tags=("theorem-scale", "polar"),
)

F3 = Claim(
    id="EA-F3",
    node="DEC", uses=("T1A",),
    source=f"{SEED} App. D.2, eqs. (34)-(35)",
    statement="for t >= t2: sum_{V~+} ||w_j||^2 >= 1/(4 X_max) and sum_{V~-} ||w_j||^2 >= 1/(4 X_max)",
    check=norms_after_t2_margin,
    over=THEOREM_P2,
    horizon=_h_part2,
    samples=96,
    precondition=_part2,
    assumptions=("Assumptions 1, 2", "eps = eps_required", "S+ and S- each hold a neuron at t1"),
    tags=("theorem-scale", "polar"),
)

F4 = Claim(
    id="EA-F4",
    node="F4", uses=("L15", "DEC", "L7"),
    source=f"{SEED} Theorem 1 part 2 [R19]",
    statement="if S+ and S- each hold a neuron at t1: L(t) <= L(t2)/(L(t2) alpha (t - t2) + 1) for t >= t2, alpha = (mu X_min)^2/(32 X_max) "
              "(empirical t2 = max(t2+, t2-), R16; checked restarted at every sample after t2)",
    check=loss_rate_margin,
    over=THEOREM_P2,
    horizon=_h_part2,
    samples=96,
    precondition=_part2,
    assumptions=("Assumptions 1, 2", "eps = eps_required", "S+ and S- each hold a neuron at t1", "exp loss"),
    tags=("theorem-scale", "polar"),
)

P12 = Claim(
    id="P12-part2-precondition",
    source=f"{SEED} sheet P12 (negative control: precondition failure is vacuous)",
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

F6 = Claim(
    id="EA-F6",
    node="F6", uses=("F5", "L13", "L14"),
    source=f"{SEED} eq. (39) [R17]",
    statement="t2+- <= t1 + 6/(sqrt(mu) n+- X_min) + 4/(sqrt(mu) n+- X_min) (ln(2/(eps^2 sqrt(mu) X_min W_min^2)) + 4 n X_max t1)",
    check=t2_bound_margin,
    over=THEOREM_P2,
    horizon=_h_part2,
    samples=96,
    precondition=_part2,
    assumptions=("Assumptions 1, 2", "eps = eps_required", "S+ and S- each hold a neuron at t1"),
    tags=("theorem-scale", "polar"),
)

P11 = Claim(
    id="P11-t2-over-n",
    source=f"{SEED} sheet P11 / erratum 8 (t2 = O(log(1/eps)/n) needs balanced classes)",
    statement="PLANTED: t2 <= t1 + C ln(1/eps)/n with the n-independent C = 16/(sqrt(mu) X_min) -- fails for n- = 1, n+ = 23 "
              "(t2- ~ ln(1/eps)/||x-||, independent of n)",
    check=t2_over_n_margin,
    over=class_sizes(23, 1, -3000.0, st.sampled_from([0, 1, 2, 3])),
    horizon=_h_p11,
    samples=200,
    expected=Verdict.REFUTED,
    assumptions=("class imbalance n- = 1", "eps = e^-3000 (below eps_required)"),
)

P11_BALANCED = Claim(
    id="P11-balanced-control",
    source=f"{SEED} sheet P11 negative control (balanced classes)",
    statement="NEGATIVE CONTROL: the same t2 <= t1 + C ln(1/eps)/n holds with balanced classes n+ = n- = 12",
    check=t2_over_n_margin,
    over=class_sizes(12, 12, -3000.0),
    horizon=_h_p11,
    samples=200,
    assumptions=("balanced classes", "eps = e^-3000"),
)

F6_IMBALANCED = Claim(
    id="EA-F6-imbalanced",
    node="F6", uses=("F5", "L13", "L14"),
    source=f"{SEED} eq. (39) on P11's imbalanced data (negative control)",
    statement="NEGATIVE CONTROL: (39) itself still holds for n- = 1, n+ = 23",
    check=t2_bound_margin,
    over=class_sizes(23, 1, -3000.0),
    horizon=_h_p11,
    samples=200,
    assumptions=("class imbalance n- = 1", "eps = e^-3000"),
)

G1 = Claim(
    id="EA-G1",
    node="LR", uses=("INIT", "T1A", "L3"),
    source=f"{SEED} App. D.3 invariance (citing Arora et al. 2018b) [DER form]",
    statement="W+^T W+ - v+ v+^T (and the same for V~-) is constant from the group's last pattern change on (relative Frobenius drift)",
    check=invariance_margin,
    over=scenario(n=(2, 4), d=(2, 3), h=(3, 6), eps=(1e-3, 1e-1), mu=(0.5, 0.95)),
    horizon=40.0,
    form="cartesian",
    assumptions=("Assumption 1", "balanced init", "moderate eps (Cartesian float64)"),
)

G3 = Claim(
    id="EA-G3",
    node="LR", uses=("INIT", "T1A", "L3"),
    source=f"{SEED} App. D.3, stable-rank inequality",
    statement="for t >= t1: ||W||_F^2 <= 2 ||W||_2^2 + 4 sqrt(h) eps W_max^2 (log space; eps = eps_required)",
    check=stable_rank_margin,
    over=THEOREM_P2,
    horizon=_h_part2,
    samples=96,
    precondition=_part2,
    assumptions=("Assumptions 1, 2", "eps = eps_required", "t1_emp <= T"),
    tags=("theorem-scale", "polar"),
)

G4 = Claim(
    id="EA-G4",
    node="LR", uses=("INIT", "T1A", "L3"),
    source=f"{SEED} App. D.3 [R20], limsup ||W||_F^2/||W||_2^2 <= 2",
    statement="over a long horizon (100 x the part-2 horizon, log time) ||W||_2 keeps growing after t2 and the final stable rank is "
              "<= 2 + 4 sqrt(h) eps W_max^2/||W||_2^2",
    check=asymptotic_rank_margin,
    over=THEOREM_P2,
    horizon=_h_long,
    samples=96,
    precondition=_part2,
    assumptions=("Assumptions 1, 2", "eps = eps_required"),
    tags=("theorem-scale", "polar"),
)

H2 = Claim(
    id="EA-H2",
    node="EXIST", uses=("A1",),
    source=f"{SEED} App. E.2 (46), no Zeno",
    statement="under Assumption 1: no sliding, every hyperplane <x_i, w_j> = 0 crossed at most once, at most n h crossings",
    check=crossings_margin,
    over=scenario(n=(2, 6), d=(2, 3), h=(2, 6), eps=(1e-6, 1e-1)),
    horizon=100.0,
    assumptions=("Assumption 1", "balanced init"),
)

H4 = Claim(
    id="EA-H4",
    node="EXIST", uses=("A1",),
    source=f"{SEED} App. E.4 / sheet P13 (regular solution)",
    statement="on Example E.4 (x = (1,0), y = +1, w(0) = (0,1), v(0) = 1) the engine returns the regular, stationary solution",
    check=regular_solution_margin,
    over=st.just(e4_scenario()),
    horizon=5.0,
    assumptions=("sigma'(0) = 0",),
)

H3 = Claim(
    id="EA-H3",
    node="EXIST", uses=("A1",),
    source=f"{SEED} App. E.3 (existence needs sigma'(0) = 0)",
    statement="on Example E.3 (x = (1,0), y = -1, w(0) = (0,1), v(0) = 1, exp loss) the field is F_w(theta(0)) = (-a, 0), F_v = 0 "
              "for sigma'(0) = a in [0, 1]: zero (stationary solution) iff a = 0",
    check=e3_value_margin,
    over=st.one_of(st.just(0.0), st.floats(min_value=0.0, max_value=1.0, allow_nan=False)),
    assumptions=("exp loss",),
)

P4_E3 = Claim(
    id="P4-E3-stationary",
    node="E78", uses=("L5", "L10", "L11", "E28"),
    source=f"{SEED} sheet P4 / App. E.3 (sigma'(0) = a > 0)",
    statement="PLANTED: with sigma'(0) = a in (0, 1], Example E.3's initial state is stationary (F(theta(0)) = 0) -- fails: "
              "F_w = (-a, 0) points into Int S_dead, where F = 0, so no Caratheodory solution exists",
    check=e3_stationary_margin,
    over=st.floats(min_value=1e-3, max_value=1.0, allow_nan=False),
    expected=Verdict.REFUTED,
    assumptions=("sigma'(0) = a > 0 (drops the paper's sigma'(0) = 0)",),
)

# --------------------------------------------------------------------------- section-2 completions (C4, E5, F5, G2, H1, H5, P13)

THEOREM_WIDE = theorem_scale(min_zeta2=0.0, n=(2, 6), h=(2, 6), mu=(0.2, 0.95))  # limit engine: any zeta2
THEOREM_P2_WIDE = theorem_scale(h=(4, 6), signs="alternating")  # part 2 with >= 2 neurons per sign (rank > 1 groups)

C4 = Claim(
    id="EA-C4",
    node="L1", uses=("L3", "L4"),
    source=f"{SEED} Sec. 2.2 and 3.1 remarks (time scales)",
    statement="at eps = eps_required: t1_emp <= T(eps) <= t_onset, t_onset = inf{t : max_i |f(x_i)| > 1/4} (alignment ends inside "
              "Lemma 3's window, before the outputs grow); the Theta(log 1/eps) onset is informational: the note reports the DER "
              "estimate ln(1/eps^2)/(2||x+-||) and the first norm doubling (long before T: norms grow, outputs do not)",
    check=time_scales_margin,
    over=THEOREM_P2,
    horizon=_h_part2,
    samples=96,
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "n >= 2", "eps = eps_required (28)"),
    tags=("theorem-scale", "polar"),
)

E5 = Claim(
    id="EA-E5",
    node="PATHS", uses=("DT",),
    source=f"{SEED} App. C.2, paths and travel time [R12, R13] (trajectory part; the symbolic path sums are S9-*)",
    statement="per neuron (exact eps -> 0 limit engine, up to t1): arrival in its own cone (S+ for V+, S- for V-) <= T(P_observed) "
              "<= T(P_max), T(P) = sum of Delta t(k+ + k-) over the visited (k+, k-) vertices; arrival in S_dead <= T(P_observed) "
              "and <= 4 H_{n_a(0)}/(m sqrt(mu) X_min)",
    check=arrival_margin,
    over=THEOREM_WIDE,
    horizon=_h_t1,
    backend="limit",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "n >= 2", "eps -> 0 limit (eps_required: T >= t1)"),
    tags=("limit",),
)

F5 = Claim(
    id="EA-F5",
    node="F5", uses=("E40", "DEC"),
    source=f"{SEED} App. D.2, refined alignment (37)-(38), (40) [R18]",
    statement="on [t1_emp, t2+) for V~+ (and [t1_emp, t2-) for V~-): cos(x+, x~_a) >= 1/3 and ||x~_a|| >= ||x+||/2 with "
              "x~_a = sum_{I+} g_i x_i; {cos(x+, w_j) >= 1/4} is trapping; t_a <= t_s + 6/(sqrt(mu) n+ X_min) for t_s = t1_emp "
              "and t_s = t1. The informal 'cos about 1' is only reported",
    check=refined_alignment_margin,
    over=THEOREM_P2,
    horizon=_h_part2,
    samples=128,
    precondition=_part2,
    assumptions=("Assumptions 1, 2", "eps = eps_required", "S+ and S- each hold a neuron at t1", "exp loss"),
    tags=("theorem-scale", "polar"),
)

G2 = Claim(
    id="EA-G2",
    node="LR", uses=("INIT", "T1A", "L3"),
    source=f"{SEED} App. D.3, eqs. (41)-(43) (sharp form from their proof)",
    statement="after t1_emp: ||W||_F^2 - ||W+||_2^2 - ||W-||_2^2 <= 2 sum_{V~+-} ||w_j(t_ref)||^2 + sum_{dead} ||w_j||^2 (t_ref: the "
              "first sample after t1_emp), to integrator tolerance (moderate eps, where O(eps^2) is resolved)",
    check=sharp_low_rank_margin,
    over=scenario(n=(2, 4), d=(2, 3), h=(3, 6), eps=(1e-4, 1e-1), mu=(0.5, 0.95)),
    horizon=40.0,
    form="cartesian",
    assumptions=("Assumption 1", "balanced init", "moderate eps (Cartesian float64)", "every neuron trapped by the horizon (else vacuous)"),
)

G2_PAPER = Claim(
    id="EA-G2-constants",
    node="LR", uses=("INIT", "T1A", "L3"),
    source=f"{SEED} App. D.3, eqs. (41)-(43) as printed",
    statement="for t >= t1: ||W+||_F^2 <= ||W+||_2^2 + (4 eps W_max^2/sqrt(h))|V~+| (41), the same for W- (42), ||W_dead||_F^2 <= "
              "(2 eps W_max^2/sqrt(h))|V~dead| (43), at eps = eps_required in log space (t >= t1_emp; samples whose float64 error "
              "exceeds the bound are skipped and counted)",
    check=paper_low_rank_margin,
    over=THEOREM_P2_WIDE,
    horizon=_h_part2,
    samples=96,
    precondition=_part2,
    assumptions=("Assumptions 1, 2", "eps = eps_required", "t1_emp <= T (Lemma 3 at t1)"),
    tags=("theorem-scale", "polar"),
)

H1 = Claim(
    id="EA-H1",
    node="EXIST", uses=("A1",),
    source=f"{SEED} App. E.1, F is continuous off A = U_ij {{<x_i, w_j> = 0}}",
    statement="at states off A, the field along a segment crossing no hyperplane (each point in the engine's own mode) tends to "
              "F(theta): the discrepancy shrinks linearly with the step (1e-3 step ratio, 2e-3 allowed)",
    check=continuity_off_A_margin,
    over=states(scale_decades=(-1, 0)),
    assumptions=("exp or 2x logistic loss", "balanced or unbalanced states"),
    tags=("pointwise",),
)

P_H1 = Claim(
    id="P-H1-jump-on-A",
    node="EXIST", uses=("A1",),
    source=f"{SEED} App. E.1 (negative counterpart of EA-H1: A is where F is discontinuous)",
    statement="PLANTED: F is also continuous at states ON a hyperplane A_ij (approached from the active side) -- fails: the w_j block "
              "jumps by |v_j| |g_i| x_i (sigma'(0) = 0 at theta, 1 just off it)",
    check=continuity_on_A_margin,
    over=states(scale_decades=(-1, 0)),
    expected=Verdict.REFUTED,
    assumptions=("state placed on A_ij (drops 'off A')",),
    tags=("pointwise",),
)

H5 = Claim(
    id="EA-H5",
    node="EXIST", uses=("A1",),
    source=f"{SEED} App. E.5 (Theta_0 positively invariant; eq. (50)) [R22]",
    statement="along trajectories at eps = eps_required: ln L non-increasing at consecutive samples; at every sampled state "
              "L_dot = -||F||^2 <= 0 (chain rule through f vs the field's norm) and ||F||_F <= X_max L(theta(0)) ||theta||_F (50)",
    check=loss_descent_margin,
    over=THEOREM_P2,
    horizon=_h_part2,
    samples=96,
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "eps = eps_required", "exp loss"),
    tags=("theorem-scale", "polar"),
)

H5_UNBALANCED = Claim(
    id="EA-H5-unbalanced",
    node="EXIST", uses=("A1",),
    source=f"{SEED} App. E.5 (monotone loss; any init)",
    statement="the same on unbalanced inits (Cartesian, exp and 2x logistic): ln L non-increasing, L_dot = -||F||^2 <= 0, "
              "||F||_F <= X_max L(theta(0)) ||theta||_F",
    check=loss_descent_margin,
    over=st.one_of(scenario(init="unbalanced", n=(2, 5), d=(2, 3), h=(2, 5), eps=(1e-3, 1e-1), loss="exp"),
                   scenario(init="unbalanced", n=(2, 5), d=(2, 3), h=(2, 5), eps=(1e-3, 1e-1), loss="logistic2")),
    horizon=30.0,
    form="cartesian",
    assumptions=("Assumption 1", "unbalanced init", "exp or 2x logistic loss"),
)

H4_IRREGULAR = Claim(
    id="EA-H4-irregular-caratheodory",
    node="EXIST", uses=("A1",),
    source=f"{SEED} App. E.4 (47), solution 2",
    statement="on Example E.4, solution 2 (still until t0, then (47)) satisfies (45) with the engine's field to 1e-10 (quadrature), "
              "and F(theta(0)) = 0 (solution 1, stationary): both are Caratheodory solutions",
    check=e4_caratheodory_margin,
    over=st.one_of(st.just(0.0), st.floats(min_value=0.0, max_value=3.0, allow_nan=False)),
    assumptions=("sigma'(0) = 0", "exp loss"),
)

P13 = Claim(
    id="P13-irregular-leaves-dead",
    source=f"{SEED} sheet P13 / App. E.4 (irregular solutions: outside Theorem 1's scope)",
    statement="PLANTED (outside the theorem's scope): every Caratheodory solution from E.4's initial state stays in S_dead -- fails: "
              "the irregular solution 2 (valid per (45) to 1e-10) leaves S_dead right after t0. Theorem 1 is stated for regular "
              "solutions only (Definition 1); the engine returns the regular one (EA-H4), so this is not a counterexample to it",
    check=e4_stays_dead_margin,
    over=st.one_of(st.just(0.0), st.floats(min_value=0.0, max_value=3.0, allow_nan=False)),
    expected=Verdict.REFUTED,
    assumptions=("drops regularity (Definition 1)",),
    tags=("outside theorem scope", "irregular solution"),
)

# =========================================================================== 2.I prose claims, App. F


def s_dead_trivial_margin(run) -> Margin:
    """EA-I2: with S_dead = {0}, every neuron ends in its own cone (V+ in S+, V- in S-) at t1:
    margin min_j (own-cone margin of u_j(t1)) on normalised pre-activations (error: state error)."""
    t, R, U, s = tm.polar_samples(run)
    worst, note = math.inf, ""
    for j in range(U.shape[1]):
        m = tm.region_margins(run.X, run.y, U[-1, j])["S+" if s[j] > 0 else "S-"]
        if m < worst:
            worst, note = m, f"t = {t[-1]:.6g}: neuron {j} (s = {int(s[j]):+d}) own-cone margin {m:.3g}"
    return Margin(worst, pat.state_error(run) + tm.SURFACE_RTOL, note)


@st.composite
def toy4_family(draw) -> Scenario:
    """toy4 data x = (cos a, +-sin a) (+1), (-cos a, +-sin a) (-1), a in {0.1, ..., 0.7} (S_dead = {0}),
    random balanced directions at the theorem's eps (min reading)."""
    ds = gen.toy4(draw(st.integers(min_value=1, max_value=7)) / 10.0)
    width = draw(st.integers(min_value=2, max_value=6))
    seed = draw(SEEDS)
    base = balanced_init(width, 2, log_eps=0.0, seed=seed)
    value, why = required_log_eps(ds, base, "required")
    if value is None:
        return _scenario(ds, base.W0, np.sign(base.v0), -50.0, init_seed=seed, eps_mode_undefined=why)
    return _scenario(ds, base.W0, np.sign(base.v0), value, init_seed=seed, eps_mode="required")


I2 = Claim(
    id="EA-I2",
    source=f"{SEED} Sec. 3 prose (sheet 2.I): 'it is possible that S_dead = {{0}}'",
    statement="if S_dead = {0} (toy4 data), every neuron reaches S+ or S-: at t1 every V+ neuron is in S+ and every V- neuron in S-",
    check=s_dead_trivial_margin,
    over=toy4_family(),
    horizon="t1",
    backend="limit",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "S_dead = {0} (toy4: data in all four quadrants)", "eps = eps_required (28)"),
    tags=("theorem-scale", "limit", "prose"),
)


@st.composite
def dead_cone_family(draw) -> Scenario:
    """Sheet P5's data x1 = (1, 0.5) (+), x2 = (-1, 0.5) (-) (S_dead != {0}) with one V+ neuron in
    S_dead, at angle -pi/2 + b, b in {-0.4, ..., 0.4}, and a V- neuron at angle pi - 0.3."""
    ds = Dataset(np.array([[1.0, 0.5], [-1.0, 0.5]]), np.array([1.0, -1.0]), name="P5 data")
    b = draw(st.integers(min_value=-4, max_value=4)) / 10.0
    angles = np.array([-math.pi / 2 + b, math.pi - 0.3])
    W0 = np.column_stack([np.cos(angles), np.sin(angles)])
    base = _scenario(ds, W0, np.array([1.0, -1.0]), 0.0)
    value, why = required_log_eps(ds, base.init, "required")
    return _scenario(ds, W0, np.array([1.0, -1.0]), -50.0 if value is None else value, offset=b,
                     **({"eps_mode_undefined": why} if value is None else {"eps_mode": "required"}))


P_I2 = Claim(
    id="P-I2-dead-cone",
    source=f"{SEED} sheet 2.I / P5 data (negative counterpart of EA-I2: S_dead != {{0}})",
    statement="PLANTED: without S_dead = {0} a neuron can end in S_dead, so 'every neuron reaches S+ or S-' fails",
    check=s_dead_trivial_margin,
    over=dead_cone_family(),
    horizon="t1",
    backend="limit",
    precondition=_theorem_scale,
    expected=Verdict.REFUTED,
    assumptions=("Assumptions 1, 2", "S_dead != {0} (drops EA-I2's premise)"),
    tags=("theorem-scale", "limit", "prose", "planted"),
)


def escapes_s_minus_margin(run) -> Margin:
    """EA-I1 (Fig. 2): a V+ neuron that starts in S- is repelled by x-, leaves S-, and at t1 is in S+ or
    S_dead (symmetrically V- from S+). Margin: min over such neurons of max(S+ margin, S_dead margin)
    at t1; vacuous if no neuron starts in the opposite cone."""
    _, U0, s = tm.initial_polar(run)
    t, R, U, _ = tm.polar_samples(run)
    worst, note, seen = math.inf, "", 0
    for j in range(U.shape[1]):
        opposite = "S-" if s[j] > 0 else "S+"
        if tm.region_of(run.X, run.y, U0[j]) != opposite:
            continue
        seen += 1
        m = tm.region_margins(run.X, run.y, U[-1, j])
        value = max(m["S+" if s[j] > 0 else "S-"], m["S_dead"])
        if value < worst:
            worst, note = value, f"neuron {j} (s = {int(s[j]):+d}) started in {opposite}; margin at t1 {value:.3g}"
    if not seen:
        return Margin(0.0, 0.0, "no neuron starts in the opposite cone", vacuous=True)
    return Margin(worst, pat.state_error(run) + tm.SURFACE_RTOL, note)


I1 = Claim(
    id="EA-I1",
    source=f"{SEED} Fig. 2 and Sec. 3 prose (sheet 2.I)",
    statement="a V+ neuron initialised in S- escapes S- and ends (by t1) in S+ or S_dead; likewise V- from S+",
    check=escapes_s_minus_margin,
    over=toy4_family(),
    horizon="t1",
    backend="limit",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "eps = eps_required (28)"),
    tags=("theorem-scale", "limit", "prose"),
)


def _not_encoded(claim: Claim):
    from verify.claims.direct import DirectOutcome

    return DirectOutcome(Verdict.UNKNOWN, "not checked: the sheet says 'do not test; document only' (App. F states "
                                          "Theorem 1 for regular Filippov solutions without a proof)", examples=0)


H6 = Claim(
    id="EA-H6",
    node="EXIST", uses=("A1",),
    source=f"{SEED} App. F (Filippov solutions)",
    statement="for regular Filippov solutions Theorem 1 'remains the same' (x_a becomes set-valued, eq. (57))",
    check=lambda _: 0.0,
    runner=_not_encoded,
    expected=Verdict.UNKNOWN,
    tags=("documented-only",),
)


CLAIMS_THEOREM1: list[Claim] = [
    E1, E2, E2_EPS1, R9_PRINTED, E2_PRINTED, E3_SIGN, E3_MARGIN, E4, E4_BARRIER,
    E6, E6_T1EMP, E6_TOY4, E7, R8_PRINTED, R8_CORRECTED, P3, P6, P7, P7_NEAR, P9, P9_CORRECTED, P14,
    F1, F2, F3, F4, P12, F6, P11, P11_BALANCED, F6_IMBALANCED, G1, G3, G4, H2, H3, P4_E3, H4,
    C4, E5, F5, G2, G2_PAPER, H1, P_H1, H5, H5_UNBALANCED, H4_IRREGULAR, P13, H6, I1, I2, P_I2,
]
