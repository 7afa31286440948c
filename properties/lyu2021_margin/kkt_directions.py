"""Claim sheet 003, the suboptimal KKT direction (C-KKTsub; Sec. 2 and Fig. 1 left, "KKT-margin direction with
suboptimal margin does exist"): every neuron along +w* with a_k = ||w_k|| (or along -w*) is a KKT-margin direction of
(P) with margin (alpha/2) gamma_lin (static; planted: not KKT on the non-symmetric D-S, S-10), and the S-8 control:
bad-event runs converge to it (read with :mod:`.late_phase`'s envelope trend and Lyu-Li certificate; planted:
good-event runs do not).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.margins import max_margin
from verify.strategies import GeometryCase, as_case
from verify.verdicts import Verdict

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import network as N
from properties.lyu2021_margin._shared import ALPHA, U_ROUND, largest_ratio, paper_claim, worst
from properties.lyu2021_margin.late_phase import (BAD_PLATEAU, C_GLOBAL, LATE, SAFETY, TREND, bad_scenarios, beyond,
                                                  envelope, fixed_draws, gate, margin_ratio, ratio_error, read, series)


# ---------------------------------------------------------------------------------------------- C-KKTsub


def suboptimal_direction(w_star: np.ndarray, m: int, seed: int, sign: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """C-KKTsub's direction: every neuron along sign w* with a_k = sign ||w_k|| (seeded positive norms), ||theta|| = 1;
    f = (sign/2) phi(sign <w*, x>) after normalisation."""
    c = 0.2 + np.random.default_rng(seed).random(m)
    c /= math.sqrt(2.0 * float(np.sum(c**2)))
    return sign * np.outer(c, w_star), sign * c


@measures("worst of -eps_KKT, -|delta_KKT|, -|gamma - (alpha/2) gamma_lin| / gamma_lin, C - gamma / gamma_lin")
def kkt_suboptimal(case: GeometryCase) -> Margin:
    """C-KKTsub: at the direction of :func:`suboptimal_direction` (m in 1..5 and the sign from the case's seed),
    eps_KKT ~ 0 and delta_KKT ~ 0 (network.kkt_residual, active q_i <= (1 + 1e-9) q_min), gamma = (alpha/2) gamma_lin
    < C gamma_lin (ratio gamma / (C gamma_lin), 2 alpha / (1 + alpha) on symmetric data). Error 1e3 n D u (the NNLS
    fit of an exactly consistent system; margins of O(1) sums)."""
    case = as_case(case)
    ds = case.dataset
    mm = max_margin(ds)
    m = 1 + case.seed % 5
    sign = 1.0 if (case.seed // 5) % 2 == 0 else -1.0
    W, a = suboptimal_direction(np.asarray(mm.svm.direction, float), m, case.seed, sign)
    eps, delta = N.kkt_residual(ds.X, ds.y, W, a, ALPHA, active_tol=1e-9)
    gamma = N.normalised_margin(ds.X, ds.y, W, a, ALPHA)
    err = 1e3 * ds.n * (m * ds.d + m) * U_ROUND
    parts = [Margin(-eps, err, f"eps_KKT = {eps:.3g}"), Margin(-abs(delta), err, f"delta_KKT = {delta:.3g}"),
             Margin(-abs(gamma - 0.5 * ALPHA * mm.gamma_lin) / mm.gamma_lin, err,
                    f"gamma = {gamma:.10g} vs (alpha/2) gamma_lin = {0.5 * ALPHA * mm.gamma_lin:.10g}"),
             Margin(C_GLOBAL - gamma / mm.gamma_lin, err, f"< C gamma_lin = {C_GLOBAL * mm.gamma_lin:.6g}")]
    out, ratio = worst(parts), max(0.0, gamma) / (C_GLOBAL * mm.gamma_lin)
    return Margin(out.value, out.error, f"m = {m}, all along {'+' if sign > 0 else '-'}w*: "
                                        + "; ".join(p.note for p in parts) + f"; gamma / (C gamma_lin) = {ratio:.4g}",
                  ratio=ratio)


KKT_SUB = paper_claim(
    id="LY-KKTsub",
    node="KKTSUB", uses=("T31", "D33", "T42"),
    source="Sec. 2 and Fig. 1 left ('KKT-margin direction with suboptimal margin does exist'; C-KKTsub, derived)",
    statement="On symmetric separable data, every neuron along +w* with a_k = ||w_k|| (or along -w* with a_k = -||w_k||), "
              "any width m >= 1, is a KKT-margin direction of (P) (KKT residual 0 at fp level) with margin "
              "(alpha/2) gamma_lin < ((1 + alpha)/4) gamma_lin",
    check=kkt_suboptimal,
    over=D.symmetric_cases(),
    horizon=None,
    assumptions=("A3.2 (by construction)", "A4.1 (by construction)", "leaky"),
    tags=("pointwise", "static"),
)

KKT_SUB_S10 = paper_claim(
    id="S10-KKTsub-DS",
    node="KKTSUB", uses=("T31", "D33"),
    source="sheet S-10 (A4.1 dropped) applied to C-KKTsub",
    statement="PLANTED: on the non-symmetric D-S the same direction (all neurons along +-w*) is not a KKT-margin "
              "direction: its KKT residual is bounded away from 0 (expected REFUTED; A4.1 violated, not a "
              "counterexample to the paper)",
    check=kkt_suboptimal,
    over=D.fixed_cases(D.d_s),
    horizon=None,
    expected=Verdict.REFUTED,
    assumptions=("A3.2", "leaky", "drops A4.1 (D-S)"),
    tags=("planted", "pointwise", "static"),
)


# ---------------------------------------------------------------------------------------------- S-8 control


@measures("early minus late window max of |gamma/(C gamma_lin) - 2 alpha/(1+alpha)| and |N - (1-alpha)/4|")
def suboptimal_limit(run: Any) -> Margin:
    """S-8 control: a bad-event run converges to the suboptimal KKT direction +-(1/2) phi(+-<w*, x>): |gamma/(C gamma_lin)
    - 2 alpha/(1 + alpha)| and |N - (1 - alpha)/4| shrink in envelope; gamma~ > (alpha/2) gamma_lin (Lyu-Li) is a
    violation. Ratio: the larger max_late / max_early of the two. |sup-even - (1 - alpha)/4| (network.even_part_sup
    over +-w* and 64 seeded unit directions) is reported, not decided: it follows the group's direction, which drifts
    by ~1e-6 over [1e4, 1e12] before it aligns with w*."""
    blocked = gate(run)
    if blocked is not None:
        return blocked
    lt = read(run)
    over = beyond(lt, 0.5 * ALPHA * lt.gamma_lin, "(alpha/2) gamma_lin")
    if over is not None:
        return over
    U = np.random.default_rng(0).standard_normal((64, lt.X.shape[1]))
    dirs = np.vstack([lt.w_star, -lt.w_star, U])
    even = (1.0 - ALPHA) / 4.0
    parts = [envelope(np.abs(margin_ratio(lt) - BAD_PLATEAU), lt, ratio_error(lt), "|gamma/(C gamma_lin) - 2a/(1+a)|"),
             envelope(np.abs(series(lt, lambda W, a: N.even_part_index(W, a, ALPHA)) - even), lt, SAFETY * lt.tol,
                      "|N - (1 - alpha)/4|")]
    sup = envelope(np.abs(series(lt, lambda W, a: N.even_part_sup(W, a, ALPHA, dirs)) - even), lt, SAFETY * lt.tol,
                   "reported: |sup-even - (1 - alpha)/4|")
    out, ratio = worst(parts), largest_ratio(parts)
    slack = "" if ratio is None else f"; largest max late / max early = {ratio:.3g}"
    return Margin(out.value, out.error, "; ".join(p.note for p in parts + [sup]) + slack, ratio=ratio)


S8_CONTROL = paper_claim(
    id="S8-control",
    node="KKTSUB", uses=("T31", "T43"),
    source="sheet S-8 and C-T4.3 'not a counterexample' (bad-event runs, SIM m = 2, 3)",
    statement="Bad-event runs (fixture 3, either sign) converge to the suboptimal KKT direction: gamma/(C gamma_lin) -> "
              "2 alpha/(1 + alpha) and N -> (1 - alpha)/4 (envelope trends; the sup even part's distance to "
              "(1 - alpha)/4 reported)",
    check=suboptimal_limit,
    over=bad_scenarios(),
    **LATE,
    assumptions=("A3.2", "A4.1", "m >= 2", "D_init", "leaky", "bad event (by construction)",
                 "integrator gate (C-S6-bal)") + TREND,
    tags=("control",),
)

S8_CONTROL_GOOD = paper_claim(
    id="S8-control-good",
    node="KKTSUB", uses=("T31", "T43"),
    source="sheet S-8 control applied inside the good event",
    statement="PLANTED: good-event draws do not go to the suboptimal direction: gamma~ exceeds (alpha/2) gamma_lin, "
              "so the control's check fails (expected REFUTED)",
    check=suboptimal_limit,
    over=st.sampled_from(fixed_draws(((3, 2, 0, 2), (5, 3, 5, 2)))),
    **LATE,
    expected=Verdict.REFUTED,
    assumptions=("A3.2", "A4.1", "m >= 2", "D_init", "leaky", "good event"),
    tags=("planted",),
)
