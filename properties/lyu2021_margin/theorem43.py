"""Claim sheet 003, Theorem 4.3 and Corollary 4.4 (C-T4.3 finite check 3, C-C4.4): inside the good event, GF from
sigma D_init(1) on symmetric data tends to the linear limit f = C <w*, x>, C = (1 + alpha)/4, of margin C gamma_lin.
Both are limits, read as envelope trends over [1e4, 1e12] split at 1e8 (sheet 2.0) with :mod:`.late_phase`'s readers,
the one-sign and Lyu-Li certificates deciding violations. Planted: S-7 (m = 1) and S-8 (a draw forced into the bad
event, fixture 3), both single-signed for ever.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin
from verify.verdicts import Verdict

from properties.lyu2021_margin import network as N
from properties.lyu2021_margin import quantities as Q
from properties.lyu2021_margin import scenarios as SC
from properties.lyu2021_margin._shared import ALPHA, largest_ratio, paper_claim, worst
from properties.lyu2021_margin.late_phase import (BAD_PLATEAU, C_GLOBAL, LATE, SAFETY, TREND, beyond, envelope,
                                                  fixed_draws, gate, margin_ratio, one_sign, ratio_error, read, series)

THRESHOLD = 0.9  # sheet E3: good plateaus (-> 1) and bad ones (2 alpha / (1 + alpha)) are separated by 0.9
SHARE_MIN = 1e-3  # neurons carrying >= this share of ||theta||^2 at the horizon
T43_HYP = ("A3.2 (audit)", "A4.1 (audit)", "A4.5 (audit)", "m >= 2", "D_init (by construction)", "leaky",
           "good embedding vector b (precondition)")


def good_event(run: Any) -> bool | str:
    """Theorem 4.3's hypotheses on a D_init draw: A3.2, A4.1, A4.5 (audit), m >= 2, b-bar a good embedding vector."""
    a = run.audit
    if not a.linearly_separable or not a.symmetric or not a.a45_min_abs > 0.0:
        return f"A3.2 / A4.1 / A4.5 not met (symmetric {a.symmetric}, min |<mu, x_i>| = {a.a45_min_abs:.3g})"
    b = embedding(run)
    if b.size < 2 or not Q.good_embedding(b):
        return f"b-bar = {np.round(b, 4).tolist()} is not a good embedding vector (bad event, m = {b.size})"
    return True


def embedding(run: Any) -> np.ndarray:
    """b-bar of the run's draw (quantities.embedding_vector with mu^ of the data)."""
    mu = Q.mean_signed(run.X, run.y)
    return Q.embedding_vector(SC.draw_of(run.scenario), mu / np.linalg.norm(mu))


def global_margin(run: Any) -> Margin:
    """Cor. 4.4: |1 - gamma / (C gamma_lin)| shrinks in envelope (error :func:`ratio_error`); the one-sign certificate
    (limit ratio <= 2 alpha / (1 + alpha)) and Lyu-Li's (gamma~ > C gamma_lin) are violations. The final ratio is
    reported against sheet E3's threshold 0.9."""
    blocked = gate(run)
    if blocked is not None:
        return blocked
    lt = read(run)
    ratio = margin_ratio(lt)
    plateau = (f"gamma/(C gamma_lin) = {ratio[-1]:.4f} at t = {lt.t[-1]:.3g} "
               f"({'good plateau' if ratio[-1] >= THRESHOLD else f'below the E3 threshold {THRESHOLD}: slow'})")
    sign = one_sign(lt)
    if sign is not None:
        return Margin(BAD_PLATEAU - 1.0, SAFETY * lt.tol, f"{sign}: the limit ratio is <= {BAD_PLATEAU:.4f}; {plateau}")
    over = beyond(lt, C_GLOBAL * lt.gamma_lin, "C gamma_lin")
    if over is not None:
        return over
    trend = envelope(np.abs(1.0 - ratio), lt, ratio_error(lt), "|1 - gamma/(C gamma_lin)|")
    return Margin(trend.value, trend.error, f"{trend.note}; {plateau}", ratio=trend.ratio)


C44_MARGIN = paper_claim(
    id="LY-C44-margin",
    node="C44", uses=("T43", "T42", "L54", "T55", "T56"),
    source="Corollary 4.4 / Theorem 4.3 (C-T4.3 finite check 3, C-C4.4; sheet 2.0 trend, E3)",
    statement="Inside the good event, GF from sigma D_init(1) (sigma in {1e-4, 1e-6, 1e-8}, m in 2..6) has "
              "gamma/(C gamma_lin) -> 1, C = (1 + alpha)/4: |1 - gamma/(C gamma_lin)| shrinks over [1e4, 1e12] "
              "(final ratio reported against E3's 0.9)",
    check=global_margin,
    over=SC.small_init_scenarios(),
    **LATE,
    precondition=good_event,
    assumptions=T43_HYP + ("integrator gate (C-S6-bal)",) + TREND,
    assumed=("A4.6 (non-branching; not checkable)", "sigma < sigma_max(theta0-bar) (unquantified; sheet 2.0)"),
)

S7_MARGIN = paper_claim(
    id="S7-C44-m1",
    node="C44", uses=("T43", "T42"),
    source="sheet S-7 (m = 1 on symmetric data) applied to Corollary 4.4",
    statement="PLANTED: with m = 1 the same check fails: a single neuron is single-signed, so gamma <= (alpha/2) "
              "gamma_lin for ever and GF converges to +-(1/2) phi(+-<w*, x>) (expected REFUTED; hypothesis m >= 2 "
              "violated)",
    check=global_margin,
    over=st.sampled_from(fixed_draws(((4, 2, 1, 1), (3, 3, 2, 1), (5, 2, 4, 1)))),
    **LATE,
    expected=Verdict.REFUTED,
    assumptions=("A3.2", "A4.1", "D_init", "leaky", "drops m >= 2 (m = 1)"),
    tags=("planted",),
)

S8_MARGIN = paper_claim(
    id="S8-C44-bad",
    node="C44", uses=("T43", "T42"),
    source="sheet S-8 (a draw forced into the bad event, fixture 3) applied to Corollary 4.4",
    statement="PLANTED: a draw with every b-bar_k > 0 (a-bar_k = |a-bar_k| + |<w-bar_k, mu^>|) stays single-signed and "
              "plateaus at gamma/(C gamma_lin) = 2 alpha/(1 + alpha) (expected REFUTED; outside the probability event, "
              "not a counterexample)",
    check=global_margin,
    over=st.sampled_from(fixed_draws(((4, 2, 0, 3), (4, 3, 2, 3), (5, 2, 4, 2)), bad=True)),
    **LATE,
    expected=Verdict.REFUTED,
    assumptions=("A3.2", "A4.1", "m >= 2", "D_init", "leaky", "drops the good event (b-bar all positive)"),
    tags=("planted",),
)


def linear_structure(run: Any) -> Margin:
    """Theorem 4.3's limit f = C <w*, x> and its neurons (C-T4.3 finite check 3): the even-part index N, ||sum_k a_k
    w_k / ||theta||^2 - w*/2|| and, for neurons carrying >= SHARE_MIN of ||theta||^2, ||a_k|/||w_k|| - 1| shrink in
    envelope (ratio: the largest max_late / max_early of the three), and sign(cos(w_k, w*)) = sign(a_k) =
    sign(b-bar_k) on the window. 1 - |cos(w_k, w*)| is reported, not decided: in slow runs (lopsided b-bar) the
    majority group's direction drifts by ~1e-6 over [1e4, 1e12] before it aligns (measured; a finite-time transit). A
    run that ends single-signed has N >= ((1 - alpha)/2) ||odd part|| for ever (module docstring): a violation. Error
    SAFETY tol (>= 1e-8, above N's O(sqrt(u)) floor: sqrt(1 - rho^2) at |rho| ~ 1)."""
    blocked = gate(run)
    if blocked is not None:
        return blocked
    lt = read(run)
    odd = series(lt, N.odd_part)
    sign = one_sign(lt)
    if sign is not None:
        bound = 0.5 * (1.0 - ALPHA) * float(np.linalg.norm(odd[-1]))
        return Margin(-bound, SAFETY * lt.tol, f"{sign}: N >= {bound:.4f} stays away from 0")
    err = SAFETY * lt.tol
    W, a = lt.W, lt.a
    norms = np.linalg.norm(W, axis=2)
    share = (a[-1] ** 2 + norms[-1] ** 2) / N.norm_sq(W[-1], a[-1])
    carrying = np.flatnonzero(share >= SHARE_MIN)
    cos = (W @ lt.w_star) / norms
    b = np.sign(embedding(run))
    agree = np.minimum(b * cos, b * a / np.sqrt(a**2 + norms**2))[lt.window][:, carrying]
    parts = [envelope(series(lt, lambda W_, a_: N.even_part_index(W_, a_, ALPHA)), lt, err, "N"),
             envelope(np.linalg.norm(odd - 0.5 * lt.w_star, axis=1), lt, err, "||odd part - w*/2||"),
             envelope(np.abs(np.abs(a) / norms - 1.0)[:, carrying], lt, err, "||a_k|/||w_k|| - 1|"),
             Margin(float(np.min(agree)), err, f"min sign(b_k) x (cos(w_k, w*), a_k/||(w_k, a_k)||) = "
                                               f"{float(np.min(agree)):.3g} on the window")]
    aligned = envelope(1.0 - np.abs(cos[:, carrying]), lt, err, "reported: 1 - |cos(w_k, w*)|")
    out, ratio = worst(parts), largest_ratio(parts)
    slack = "" if ratio is None else f"; largest max late / max early = {ratio:.3g}"
    return Margin(out.value, out.error, "; ".join(p.note for p in parts) + f"; {aligned.note}, neurons "
                  f"{carrying.tolist()}; N(t_end) = {N.even_part_index(W[-1], a[-1], ALPHA):.3g}{slack}", ratio=ratio)


T43_LINEAR = paper_claim(
    id="LY-T43-linear",
    node="T43", uses=("L52", "L54", "T55", "T56", "T42"),
    source="Theorem 4.3 (f^inf(x) = C <w*, x>; C-T4.3 finite check 3: N, odd part, cosines, balance, signs)",
    statement="Inside the good event, along GF from sigma D_init(1): the even-part index N, ||sum_k a_k w_k/||theta||^2 - "
              "w*/2|| and, per neuron carrying norm, ||a_k|/||w_k|| - 1| shrink over [1e4, 1e12], with sign(cos(w_k, "
              "w*)) = sign(a_k) = sign(b-bar_k) (1 - |cos(w_k, w*)| reported)",
    check=linear_structure,
    over=SC.small_init_scenarios(),
    **LATE,
    precondition=good_event,
    assumptions=T43_HYP + ("integrator gate (C-S6-bal)",) + TREND,
    assumed=("A4.6 (non-branching; not checkable)", "sigma < sigma_max(theta0-bar) (unquantified; sheet 2.0)"),
)

S8_LINEAR = paper_claim(
    id="S8-T43-bad",
    node="T43", uses=("L52", "L54", "T42"),
    source="sheet S-8 (fixture 3, bad event) applied to Theorem 4.3's linear limit",
    statement="PLANTED: a draw forced into the bad event ends single-signed, so its even part stays >= ((1 - alpha)/2) "
              "||odd part|| (-> (1 - alpha)/4): the linear limit fails (expected REFUTED; outside the event, not a "
              "counterexample)",
    check=linear_structure,
    over=st.sampled_from(fixed_draws(((4, 2, 0, 3), (4, 3, 2, 3), (5, 2, 4, 2)), bad=True)),
    **LATE,
    expected=Verdict.REFUTED,
    assumptions=("A3.2", "A4.1", "m >= 2", "D_init", "leaky", "drops the good event (b-bar all positive)"),
    tags=("planted",),
)
