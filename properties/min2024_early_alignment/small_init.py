"""Claim sheet 004, section 2.C (small-initialisation approximation): EA-C1 Lemma 3, EA-C2 Lemma 4, EA-C3
Lemma 1, also at the theorem's own eps, and EA-C4 time scales, with the planted counterexamples P5
(leaky ReLU) and P8 (main-text logistic loss) and the P5 negative control.

Float64 flushes f ~ eps^2 to 0 below eps ~ 1e-154, which would make both sides of (9)/(11) vanish;
the theorem-scale versions evaluate the error term and the bound in mpmath from the polar state
(:mod:`.lemma34_terms`) and compare their logarithms. Lemmas 1 and 3 are also searched at the edge of their
hypothesis, eps = eps_L3 with sqrt(h) eps -> 1 (:func:`lemma3_edge_scenarios`), where Lemma 3's norm bound is within a
factor ~2 of the initial norms (the ranges of small eps alone left it ~100x loose).
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from properties.min2024_early_alignment import patterns as pat
from properties.min2024_early_alignment import measures as tm
from verify.claims.model import Margin, measures
from verify.model.init import balanced_init
from verify.scenarios import SEEDS, Scenario, datasets, scenario
from verify.strategies import State, as_state, states, theorem_scale_states
from verify.verdicts import Verdict

from properties.min2024_early_alignment._shared import _worst, bracketed_ratio, paper_claim
from properties.min2024_early_alignment.preconditions import _theorem_scale
from properties.min2024_early_alignment.theorem_scale import part2_claim, tiny_eps_scenarios


def lemma3_hypotheses(run) -> bool | str:
    """Lemmas 1 and 3 need T(eps) > 0 (sqrt(h) eps < 1) and eps <= eps_L3 = 1/(4 sqrt(h) X_max W_max^2)."""
    a = run.audit
    if a.T_eps is None or a.T_eps <= 0.0:
        return "T(eps) <= 0 (sqrt(h) eps >= 1): Lemmas 1/3 vacuous"
    if a.log_eps_L3 is None or run.log_eps > a.log_eps_L3:
        return f"eps = exp({run.log_eps:.4g}) > eps_L3 = exp({a.log_eps_L3:.4g})"
    return True


@st.composite
def lemma3_edge_scenarios(draw: st.DrawFn, loss: str = "exp") -> Scenario:
    """Lemmas 1/3's hard case: eps = eps_L3 = 1/(4 sqrt(h) X_max W_max^2) (the edge of their hypothesis) with the base
    init rescaled so that sqrt(h) eps_L3 = 1/(1 + delta), delta in {1, 0.1, 0.01} (T(eps) = ln(1 + delta)/(4 n X_max) -> 0).
    There the norm bound 2 eps W_max^2/sqrt(h) is within a factor 2 (1 + delta) of max ||w_j(0)||^2 = eps^2 W_max^2."""
    from properties.min2024_early_alignment.audit import theorem1_quantities
    from verify.audit import audit as audit_data
    from verify.model.init import Initialization

    base = draw(scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-2, 1e-2), loss=loss))
    delta = draw(st.sampled_from([1.0, 0.1, 0.01]))
    c = math.sqrt((1.0 + delta) / (4.0 * base.dataset.X_max)) / float(np.max(np.linalg.norm(base.init.W0, axis=1)))
    W0, v0 = c * base.init.W0, c * base.init.v0  # 4 X_max W_max^2 = 1 + delta
    le = float(theorem1_quantities(audit_data(base.dataset, W0, v0, log_eps=0.0, papers=())).quantities["log_eps_L3"])
    return Scenario(base.dataset, Initialization(W0, v0, le, base.init.kind), base.loss, base.alpha,
                    {**base.params, "log_eps": le, "eps_mode": "eps_L3", "edge_delta": delta, "w_scale": c})


def lemma3_horizon(scenario: Scenario, report) -> float | None:
    """T(eps) = ln(1/(sqrt(h) eps))/(4 n X_max) (None when <= 0)."""
    return report.T_eps if report.T_eps is not None and report.T_eps > 0.0 else None


@measures("min over t <= T(eps) of ln(bound) - ln(measured), for max_j ||w_j||^2 and max_i |f(x_i)| (natural-log units)")
def lemma3_margin(run) -> Margin:
    """EA-C1 (Lemma 3, (10)) in log space, at every sample t <= T(eps):
    2 max_j r_j(t) <= ln(2 eps W_max^2/sqrt(h)) and max_i ln|f(x_i)| <= ln(2 eps sqrt(h) X_max W_max^2).

    Margin: the smaller log-slack (ln bound - ln lhs); f is summed by a signed log-sum-exp of
    s_j exp(2 r_j) sigma(<u_j, x_i>), finite for any eps. Error 2 x 10 (rtol + engine error
    estimate) (absolute error of r, doubled) + 1e-12 (log rounding). Slack exp(-margin): the larger of
    max ||w||^2 / bound and max |f| / bound.
    """
    a = run.audit
    fo = run.field
    le, h = run.log_eps, run.init.h
    log_w_bound = math.log(2.0) + le + 2.0 * math.log(a.W_max) - 0.5 * math.log(h)
    log_f_bound = math.log(2.0) + le + 0.5 * math.log(h) + math.log(a.X_max) + 2.0 * math.log(a.W_max)
    t = pat.sample_times(run)
    U, r = pat.directions(run), pat.log_norms(run)
    s = pat.signs(run)
    keep = t <= a.T_eps * (1.0 + 1e-12)
    slack_w = float(np.min(log_w_bound - 2.0 * r[keep].max(axis=1)))
    log_f = np.array([pat.log_abs_outputs(fo, r[k], U[k], s).max() for k in np.flatnonzero(keep)])
    slack_f = float(np.min(log_f_bound - log_f))
    value = min(slack_w, slack_f)
    err = 2.0 * pat.state_error(run) + 1e-12
    ratio = math.exp(min(-value, 700.0))
    return Margin(value, err, f"log-slack ||w||^2: {slack_w:.4g}, |f|: {slack_f:.4g} (eps = exp({le:.4g}), T = {a.T_eps:.4g}); "
                  f"measured / bound = {ratio:.3g}", ratio=ratio)


C1 = paper_claim(
    id="EA-C1",
    node="L3", uses=("INIT", "L2"),
    source="Lemma 3, eq. (10) (reading R5)",
    statement="If eps <= 1/(4 sqrt(h) X_max W_max^2), then for t <= T = ln(1/(sqrt(h) eps))/(4 n X_max): "
              "max_j ||w_j||^2 <= 2 eps W_max^2/sqrt(h) and max_i |f(x_i)| <= 2 eps sqrt(h) X_max W_max^2",
    check=lemma3_margin,
    over=st.one_of(
        scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-10, 1e-2), loss="exp"),
        scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-10, 1e-2), loss="logistic2"),
        tiny_eps_scenarios(),
        lemma3_edge_scenarios(),
    ),
    horizon=lemma3_horizon,
    precondition=lemma3_hypotheses,
    assumptions=("eps <= eps_L3 and T(eps) > 0 (precondition)", "balanced init (3)", "loss satisfying Lemma 2"),
)


def lemma4_margin(xa_alpha: float | None = None):
    """EA-C2 (Lemma 4, (11)) at a balanced state with max_i |f(x_i)| <= 1:
    || d/dt u_j - s_j P_{u_j} x_a(u_j) || <= 2 n X_max max_i |f(x_i)| for every j.

    d/dt u_j is the exact polar field (sheet 1.11) at the state; x_a uses the field's slope
    (``xa_alpha`` overrides it: planted P5 evaluates a leaky field with the ReLU x_a).
    Margin (B - max_j LHS_j)/B, B = 2 n X_max max|f|; error = the float bound of the LHS
    (16 n u sum_i (|g_i| + 1) ||x_i||) over B. Vacuous if max|f| > 1 or f = 0 with LHS = 0.
    """

    @measures("(B - max_j ||u_j' - s_j P x_a||) / B, B = 2 n X_max max|f|: relative to the bound (dimensionless)")
    def check(state: State) -> Margin:
        state = as_state(state)
        fo = state.field
        f = fo.polar_outputs(state.r, state.U, state.s)
        fmax = float(np.max(np.abs(f)))
        if fmax > 1.0:
            return Margin(0.0, 0.0, "max|f| > 1: Lemma 4 does not apply", vacuous=True)
        lhs = float(np.max(pat.direction_field_error(fo, state.r, state.U, state.s, xa_alpha)))
        rounding = pat.direction_field_rounding(fo, state.r, state.U, state.s)
        bound = 2.0 * fo.n * float(np.max(fo.norms)) * fmax
        note = f"LHS {lhs:.4g} vs 2 n X_max max|f| = {bound:.4g}"
        if bound == 0.0:
            return Margin(-lhs, rounding, note) if lhs > rounding else Margin(0.0, 0.0, note + " (f = 0)", vacuous=True)
        return Margin((bound - lhs) / bound, rounding / bound, note, ratio=lhs / bound)

    return check


# one function for EA-C2, the planted P8-C2 and the P5 control, so that P8's refutation is their teeth
LEMMA4 = lemma4_margin()

C2_STATES = states(h=(1, 5), balanced=(True,), f_decades=(0, 8))

C2 = paper_claim(
    id="EA-C2",
    node="L4", uses=("L2",),
    source="Lemma 4, eq. (11)",
    statement="At any balanced state with max_i |f(x_i)| <= 1: || d/dt(w_j/||w_j||) - sign(v_j) P_{w_j} x_a(w_j) || <= 2 n X_max max_i |f(x_i)|",
    check=LEMMA4,
    over=C2_STATES,
    assumptions=("balanced state", "max|f| <= 1", "exp or 2x logistic loss (Lemma 2)"),
    tags=("pointwise",),
)

P8_C2 = paper_claim(
    id="P8-C2-plain-logistic",
    node="L4", uses=("L2",),
    source="Lemma 4 with the main-text logistic (sheet P8)",
    statement="PLANTED: Lemma 4 for l = log(1 + exp(-y yhat)): the small-f direction field is (1/2) s_j P x_a, error ~ (1/2)||P x_a||",
    check=LEMMA4,
    over=states(h=(1, 5), balanced=(True,), f_decades=(0, 8), losses=("logistic",)),
    expected=Verdict.REFUTED,
    assumptions=("plain logistic loss (drops Lemma 2)",),
    tags=("pointwise", "planted"),
)

P5_C2_RELU = paper_claim(
    id="P5-C2-leaky-with-relu-xa",
    node="L4", uses=("L2",),
    source="sheet P5 (leaky field, ReLU x_a)",
    statement="PLANTED: Lemma 4 for a leaky network evaluated with the ReLU x_a: error ~ alpha ||P sum_{inactive} y_i x_i||",
    check=lemma4_margin(xa_alpha=0.0),
    over=states(h=(1, 5), balanced=(True,), f_decades=(0, 8), alphas=(0.5, 0.2, 1.0)),
    expected=Verdict.REFUTED,
    assumptions=("leaky slope alpha > 0, x_a without the alpha term (wrong x_a)",),
    tags=("pointwise", "planted"),
)

P5_C2 = paper_claim(
    id="P5-C2-leaky-xa-alpha",
    node="L4", uses=("L2",),
    source="sheet P5 (negative control: Lemma 4 with the leaky x_a, reading R4)",
    statement="Leaky ReLU with x_a(w) = sum_i sigma'(<x_i, w>) y_i x_i: Lemma 4's bound still holds",
    check=LEMMA4,
    over=states(h=(1, 5), balanced=(True,), f_decades=(0, 8), alphas=(0.5, 0.2, 1.0)),
    assumptions=("balanced state", "max|f| <= 1", "leaky slope alpha with the matching x_a"),
    tags=("pointwise", "control"),
)


@measures("(B1 - max over t <= T(eps), j of ||u_j' - s_j P x_a||) / B1: relative to the bound (dimensionless)")
def lemma1_margin(run) -> Margin:
    """EA-C3 (Lemma 1, (9)) along the trajectory, at every sample t <= T(eps):
    || d/dt u_j - s_j P_{u_j} x_a(u_j) || <= B1 = 4 eps n sqrt(h) X_max^2 W_max^2.

    The LHS is the exact polar field at the sampled state (never a finite difference). Margin
    (B1 - max LHS)/B1; error (float bound of the LHS + 4 x state error x LHS)/B1 (the LHS
    scales like f ~ exp(2 r), so a state error delta in r moves it by about 2 delta relative).
    """
    a = run.audit
    fo = run.field
    le, h = run.log_eps, run.init.h
    log_b1 = math.log(4.0) + le + math.log(fo.n) + 0.5 * math.log(h) + 2.0 * math.log(a.X_max) + 2.0 * math.log(a.W_max)
    b1 = math.exp(log_b1)
    t = pat.sample_times(run)
    U, r = pat.directions(run), pat.log_norms(run)
    s = pat.signs(run)
    dstate = pat.state_error(run)
    worst, worst_err, at, j = -np.inf, 0.0, 0.0, 0
    for k in np.flatnonzero(t <= a.T_eps * (1.0 + 1e-12)):
        per_neuron = pat.direction_field_error(fo, r[k], U[k], s)
        lhs = float(np.max(per_neuron))
        if lhs > worst:
            worst, at, j = lhs, float(t[k]), int(np.argmax(per_neuron))
            worst_err = pat.direction_field_rounding(fo, r[k], U[k], s) + 4.0 * dstate * lhs
    return Margin((b1 - worst) / b1, worst_err / b1, f"max LHS {worst:.4g} at t = {at:.4g} vs B1 = {b1:.4g}", ratio=worst / b1,
                  site={"t": at, "j": j})


C3 = paper_claim(
    id="EA-C3",
    node="L1", uses=("L3", "L4"),
    source="Lemma 1, eq. (9), App. B.1 (reading R3)",
    statement="If eps <= 1/(4 sqrt(h) X_max W_max^2), then for t <= T(eps): || d/dt(w_j/||w_j||) - sign(v_j(0)) P_{w_j} x_a(w_j) || "
              "<= 4 eps n sqrt(h) X_max^2 W_max^2",
    check=lemma1_margin,
    over=st.one_of(
        scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-8, 1e-2), loss="exp"),
        scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-8, 1e-2), loss="logistic2"),
        lemma3_edge_scenarios(),
        lemma3_edge_scenarios("logistic2"),
    ),
    horizon=lemma3_horizon,
    precondition=lemma3_hypotheses,
    assumptions=("eps <= eps_L3 and T(eps) > 0 (precondition)", "balanced init (3)", "loss satisfying Lemma 2"),
)

P8_C3 = paper_claim(
    id="P8-C3-plain-logistic",
    node="L1", uses=("L3", "L4"),
    source="Lemma 1 with the main-text logistic (sheet P8)",
    statement="PLANTED: Lemma 1 along GF with l = log(1 + exp(-y yhat)): the error is ~ (1/2)||P x_a||, far above B1",
    check=lemma1_margin,
    over=scenario(n=(2, 5), d=(2, 3), h=(2, 4), eps=(1e-8, 1e-3), loss="logistic"),
    horizon=lemma3_horizon,
    precondition=lemma3_hypotheses,
    expected=Verdict.REFUTED,
    assumptions=("plain logistic loss (drops Lemma 2)",),
    tags=("planted",),
)

MP_DIGITS = 30

LOG_MARGIN_ERROR = 1e-12  # log-domain rounding of a 30-digit evaluation, with a float64 state


@measures("ln(2 n X_max max|f|) - max_j ln ||u_j' - s_j P x_a|| (natural-log units, mpmath)")
def lemma4_theorem_scale(state: State) -> Margin:
    """EA-C2 at theorem scale: max_j log LHS_j <= log(2 n X_max max_i |f(x_i)|), both in mpmath."""
    from properties.min2024_early_alignment.lemma34_terms import small_init_terms

    state = as_state(state)
    terms = small_init_terms(state.field, state.r, state.U, state.s, dps=MP_DIGITS)
    if terms["log_max_abs_f"] == -math.inf:
        return Margin(0.0, 0.0, "f = 0 (every neuron dead): nothing to compare", vacuous=True)
    lhs = max(float(v) for v in terms["log_lemma4_lhs"])
    rhs = float(terms["log_lemma4_rhs"])
    return Margin(rhs - lhs, LOG_MARGIN_ERROR * max(1.0, abs(rhs)), f"log LHS {lhs:.6g} vs log bound {rhs:.6g}",
                  ratio=math.exp(min(lhs - rhs, 700.0)))


C2_THEOREM = paper_claim(
    id="EA-C2-theorem-scale",
    node="L4", uses=("L2",),
    source="Lemma 4, eq. (11), at eps = exp(-1e3 .. -1e4)",
    statement="Lemma 4 at the paper's own eps: log || d/dt u_j - s_j P x_a || <= log(2 n X_max max|f|), with f ~ eps^2 "
              "evaluated in mpmath (float64 flushes it to 0)",
    check=lemma4_theorem_scale,
    over=theorem_scale_states(),
    assumptions=("balanced state", "exp or 2x logistic loss (Lemma 2)"),
    tags=("pointwise", "theorem-scale", "mp"),
)

P8_C2_THEOREM = paper_claim(
    id="P8-C2-theorem-scale",
    node="L4", uses=("L2",),
    source="Lemma 4 with the main-text logistic at eps = exp(-1e3 .. -1e4) (sheet P8)",
    statement="PLANTED: Lemma 4 for l = log(1 + exp(-y yhat)) at theorem-scale eps: the error stays ~ (1/2)||P x_a||",
    check=lemma4_theorem_scale,
    over=theorem_scale_states(losses=("logistic",)),
    expected=Verdict.REFUTED,
    assumptions=("plain logistic loss (drops Lemma 2)",),
    tags=("pointwise", "theorem-scale", "mp", "planted"),
)


@measures("ln B1 - max over t <= T(eps), j of ln ||u_j' - s_j P x_a|| (natural-log units, mpmath)")
def lemma1_theorem_scale(run) -> Margin:
    """EA-C3 at theorem scale: at every sample t <= T(eps), log max_j LHS_j <= log B1,
    B1 = 4 eps n sqrt(h) X_max^2 W_max^2; LHS from the sampled polar state, evaluated in mpmath.
    Error: the log-domain rounding plus 4 x the state error (LHS ~ exp(2 r) moves by 2 delta r)."""
    from properties.min2024_early_alignment.lemma34_terms import small_init_terms

    a = run.audit
    fo = run.field
    log_b1 = math.log(4.0) + run.log_eps + math.log(fo.n) + 0.5 * math.log(run.init.h) + 2.0 * math.log(a.X_max) \
        + 2.0 * math.log(a.W_max)
    t = pat.sample_times(run)
    U, r = pat.directions(run), pat.log_norms(run)
    s = pat.signs(run)
    worst, at = -math.inf, 0.0
    for k in np.flatnonzero(t <= a.T_eps * (1.0 + 1e-12)):
        terms = small_init_terms(fo, r[k], U[k], s, dps=MP_DIGITS)
        lhs = max(float(v) for v in terms["log_lemma4_lhs"])
        if lhs > worst:
            worst, at = lhs, float(t[k])
    if worst == -math.inf:
        return Margin(0.0, 0.0, "no neuron active at any sample", vacuous=True)
    error = LOG_MARGIN_ERROR * abs(log_b1) + 4.0 * pat.state_error(run)
    return Margin(log_b1 - worst, error, f"max log LHS {worst:.6g} at t = {at:.4g} vs log B1 = {log_b1:.6g}",
                  ratio=math.exp(min(worst - log_b1, 700.0)), site={"t": at})


@st.composite
def theorem_scale_scenarios(draw: st.DrawFn) -> Scenario:
    """Balanced scenarios at eps = exp(-L), L in {400, 800, ..., 4000} (below float64's range)."""
    ds, dparams = draw(datasets(n=(2, 5), d=(2, 3)))
    width = draw(st.integers(min_value=2, max_value=4))
    log_eps = -400.0 * draw(st.integers(min_value=1, max_value=10))
    init_seed = draw(SEEDS)
    params = {**dparams, "init": "balanced", "h": width, "log_eps": log_eps, "init_seed": init_seed, "loss": "exp", "alpha": 0.0}
    return Scenario(ds, balanced_init(width, ds.d, log_eps=log_eps, seed=init_seed), "exp", 0.0, params)


def theorem_scale_horizon(scenario: Scenario, report) -> float | None:
    """min(T(eps), 20): Lemma 1 speaks about t <= T(eps); 20 covers the alignment phase of these sizes."""
    return None if report.T_eps is None or report.T_eps <= 0 else min(report.T_eps, 20.0)


C3_THEOREM = paper_claim(
    id="EA-C3-theorem-scale",
    node="L1", uses=("L3", "L4"),
    source="Lemma 1, eq. (9), at eps = exp(-1e3 .. -1e4)",
    statement="Lemma 1 at the paper's own eps along the polar trajectory: log || d/dt u_j - s_j P x_a || <= "
              "log(4 eps n sqrt(h) X_max^2 W_max^2) for t <= T(eps), evaluated in mpmath",
    check=lemma1_theorem_scale,
    over=theorem_scale_scenarios(),
    horizon=theorem_scale_horizon,
    samples=16,
    precondition=lemma3_hypotheses,
    assumptions=("eps <= eps_L3 and T(eps) > 0 (precondition)", "balanced init (3)", "exp loss"),
    tags=("theorem-scale", "mp"),
)


@measures("min(T(eps) - t1_emp, t_onset - T(eps)), t_onset's lower sample bracket (time units)")
def time_scales_margin(run) -> Margin:
    """EA-C4 (Sec. 2.2/3.1): at eps = eps_required, t1_emp <= T(eps) <= t_onset, where
    t_onset = inf{t : max_i |f(x_i)| > 1/4} ends the small-output phase (read in log space).

    The first inequality is "alignment finishes inside Lemma 3's window"; the second is what Lemma 3
    gives at eps <= eps_required (max|f| <= F* < 1/4 on [0, T]). t_onset is bracketed by samples
    (value: lower end - T, error: bracket width). The note reports the sheet's DER estimate
    ln(1/eps^2)/(2 ||x+-||) of the onset (informational: the Theta(log 1/eps) remark) and the first
    doubling of a neuron norm, which comes long before T (norm growth is not output growth).
    Slack: max(t1_emp / T, T / t_onset), t_onset's sample bracket (above the horizon when not reached) via
    :func:`bracketed_ratio` (an unresolved bracket leaves t1_emp / T)."""
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
    t_lo, t_hi = (lo, hi) if math.isfinite(hi) else (float(run.horizon), math.inf)
    onset_ratio = bracketed_ratio(T / t_hi, T / t_lo if t_lo > 0.0 else math.inf) if T > 0.0 else None
    ratio = max(t1e / T, onset_ratio or 0.0) if T > 0.0 else None
    ests = [(-run.log_eps) / float(np.linalg.norm(x)) for x in (a.x_plus, a.x_minus) if np.linalg.norm(x) > 0]
    dlo, dhi = tm.first_exceed(t, np.max(R - R[0][None], axis=1), math.log(2.0))
    onset = f"({lo:.6g}, {hi:.6g}]" if math.isfinite(hi) else f"> {run.horizon:.6g}"
    info = (f"; T = {T:.6g}, t1 = {a.t1:.6g}, t1_emp = {t1e:.6g}, t_onset {onset}, DER estimate ln(1/eps^2)/(2||x+-||) = "
            + ", ".join(f"{e:.6g}" for e in ests) + f"; first norm doubling at t <= {dhi:.4g} (ln eps = {run.log_eps:.6g})")
    ratio_note = "" if ratio is None else (f"; max(t1_emp / T, T / t_onset) = {ratio:.3g}"
                                           + ("" if onset_ratio is not None else " (t_onset bracket unresolved)"))
    return Margin(m.value, m.error, m.note + ratio_note + info, ratio=ratio)


C4 = part2_claim(
    id="EA-C4",
    node="L1", uses=("L3", "L4"),
    source="Sec. 2.2 and 3.1 remarks (time scales)",
    statement="at eps = eps_required: t1_emp <= T(eps) <= t_onset, t_onset = inf{t : max_i |f(x_i)| > 1/4} (alignment ends inside "
              "Lemma 3's window, before the outputs grow); the Theta(log 1/eps) onset is informational: the note reports the DER "
              "estimate ln(1/eps^2)/(2||x+-||) and the first norm doubling (long before T: norms grow, outputs do not)",
    check=time_scales_margin,
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "n >= 2", "eps = eps_required (28)"),
)
