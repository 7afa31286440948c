"""Claim sheet 000, Lemma 1 (PL-L1, Maennel et al. 2018, Lemma 5; the paper's weakest link): on OS data with the
paper's balanced small init there is a time T^ (sheet 1.8) at which every neuron is dead (sigma <= 0, and stays
constant) or has a_j > 0 and w_j in S_sigma+, or a_j < 0 and w_j in S_sigma-; the sheet's [DER] scale-free check
(T^(lambda) tends to a lambda-independent limit T_0 as lambda -> 0); the width-free reading of PL-I5 (p = 1 or 30);
the control PC13 (Lemma 1 never uses H-SPAN) and the planted PC3 (lambda >= 1: T^ is never reached).

Membership is read in cosines: for neuron j with s = sign(a_j) and sigma = sigma+ (s > 0) or sigma- (s < 0),
mem_j = max(-max_i cos(x_i, w_j), min_i sigma_i cos(x_i, w_j)) (a zero entry sigma_i = 0 counts as -|cos|), so
mem_j >= 0 iff measures.groups puts j in DEAD, J+ or J- (up to its 1e-12 zero band). A relative state error tol
(measures.state_tolerance) moves each cosine by at most 2 tol; every margin here has error SAFETY * tol.

"lambda small enough" is unquantified (sheet PL-L1). It depends on the draw: on orthant(2, 4, d=2, seed=56608)
with p = 8 (init seed 19262) neuron 3 never reaches S_sigma- at lambda = 1e-2 (t = 1e12), while T^ = 12.02 at
1e-3, 3.651 at 1e-4 and 3.5446 at 1e-6 (the limit T_0); and on orthant(4, 2, d=2, seed=2) with p = 4 (init seed 2,
the seed-6 thorough audit) T^ is never reached at 1e-2, 1e-3 or 1e-4, while T_0 = 3.2282 (1e-6 to 1e-12), after
the norm escape time log(1/lambda)/max||m+-|| = 2.07 at 1e-3 and before it (4.13) at 1e-6. PL-L1 draws
lambda <= 1e-3 and reads H-SMALL as the sheet's [DER] does: "lambda small enough" means that T_0 finishes before
the escape time. Where T^ is not reached at the drawn lambda, the same directions run at LIMIT_LAMBDA give T_0; if
T_0 comes after the drawn lambda's escape time, H-SMALL fails for this draw and the example is vacuous; if T_0 is
not reached either, or comes before the escape, the violation stands (:func:`reached_if_small_enough`). The
scale-free check is vacuous likewise where some lambda's T^ comes after its escape time (:func:`scale_free`): there
the draw has left the scale-free regime, and the gaps need not shrink (the seed-6 draw: T^ = 6.626, 6.498, 6.267
at 1e-2, 1e-3, 1e-4 against escape times 3.27, 4.9, 6.54, and T_0 = 6.2426).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.claims.run import execute
from verify.scenarios import Scenario
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import measures as M
from properties.phuong_lampert2021 import scenarios as SC
from properties.phuong_lampert2021 import theorem1 as T
from properties.phuong_lampert2021._shared import paper_claim, worst

HORIZON = T.HORIZON  # 1e12 in log time: ~0.2 s per run, p = 30 included
SAMPLES = T.SAMPLES  # "log" spacing, ten samples per decade from 1e-3
RTOL = T.RTOL
SAFETY = T.SAFETY  # error of a cosine: SAFETY * state tolerance
SMALL_LAMBDAS = (1e-3, 1e-4, 1e-6)  # H-SMALL read as lambda <= 1e-3 (module docstring: 1e-2 can be too large)
SCALE_LAMBDAS = (1e-2, 1e-3, 1e-4)  # the scale-free sequence, same directions and signs (sheet PL-L1 [DER])
LIMIT_LAMBDA = 1e-12  # T^ there is the scale-free limit T_0 (the seed-6 draw: the same to 1e-3 from 1e-6 on)

HYP = ("H-OS (precondition: audit)", "balanced init (by construction)")
TRUST = ("Clarke GF with relu'(0) = 0 (canonical selection: dead neurons frozen, sheet 5.3)",
         "H-SMALL (the paper's threshold is unquantified): lambda <= 1e-3, read as the sheet's [DER] criterion, T_0 "
         "before the norm escape time log(1/lambda)/max||m+-||; a draw where it fails is vacuous")
L1_USES = ("OS", "BAL", "LA4", "X3", "L3")


def os_holds(run: Any) -> bool | str:
    """H-OS from the audit (eq. (1)); Lemma 1 needs neither H-SPAN nor anything else about the data here."""
    a = run.audit
    if a.os_min_same is not None and a.os_min_same > 0 and a.os_max_cross is not None and a.os_max_cross <= 0:
        return True
    return f"H-OS false (min same-label product {a.os_min_same}, max cross-label {a.os_max_cross})"


def membership(X: np.ndarray, W: np.ndarray, a: np.ndarray, sp: np.ndarray, sm: np.ndarray) -> np.ndarray:
    """mem_j = max(dead_j, sector_j): dead_j = -max_i cos(x_i, w_j) (>= 0: sigma <= 0), sector_j = min_i sigma_i
    cos(x_i, w_j), sigma = sp (sigma+) for a_j > 0, else sm (sigma-), -|cos| on zero entries (>= 0: in S_sigma)."""
    cos = (W @ X.T) / (np.linalg.norm(W, axis=1)[:, None] * np.linalg.norm(X, axis=1)[None, :])
    sigma = np.where(a[:, None] > 0, sp[None, :], sm[None, :])
    sector = np.min(np.where(sigma != 0, sigma * cos, -np.abs(cos)), axis=1)
    return np.maximum(-np.max(cos, axis=1), sector)


def dead_margins(X: np.ndarray, W: np.ndarray) -> np.ndarray:
    """-max_i cos(x_i, w_j) per neuron (>= 0: inactive on every example)."""
    return -np.max((W @ X.T) / (np.linalg.norm(W, axis=1)[:, None] * np.linalg.norm(X, axis=1)[None, :]), axis=1)


def entry_time(run: Any) -> tuple[float, float] | None:
    """T^ and its error, or None when not reached. measures.entry_index brackets it in (t_{k-1}, t_k]; T^ is the
    last logged crossing there (patterns change only at crossings); error SAFETY tol / |secant rate| of that pair's
    cosine over the bracket (a cosine error 2 tol shifts its zero by tol / rate), capped by the bracket width."""
    smp = M.samples(run)
    k = M.entry_index(run.X, run.y, smp)
    if k is None:
        return None
    if k == 0:
        return 0.0, 0.0
    lo, hi = float(smp.t[k - 1]), float(smp.t[k])
    crossings = [e for e in run.events if lo < e.t <= hi and e.i >= 0]
    if not crossings:
        return hi, hi - lo
    e = max(crossings, key=lambda ev: ev.t)
    x = run.X[e.i]
    z = [float(smp.W[m, e.j] @ x / (np.linalg.norm(smp.W[m, e.j]) * np.linalg.norm(x))) for m in (k - 1, k)]
    rate = abs(z[1] - z[0]) / (hi - lo)
    err = SAFETY * M.state_tolerance(run) / rate if rate > 0 else hi - lo
    return float(e.t), min(err, hi - lo)


@measures("max over t of min_j cosine membership of w_j in dead or its sector (>= 0: T^ reached); -dead drift")
def reached_within_horizon(run: Any) -> Margin:
    """Lemma 1 within the horizon: max_k min_j mem_j(t_k) >= 0 (some sample has every neuron dead or in its
    extremal sector), and (i) every neuron dead (dead_j >= -error) at the first such sample stays
    constant to the horizon (relative drift). Dead within the error counts: a dying neuron is frozen on the surface
    w_j^T x_k = 0 of the last example it leaves. Error SAFETY * tol. The note gives T^ (events), or, when it is
    never reached, the neurons outside sigma+ u sigma- u dead at the horizon (measures.groups), their share of
    ||W||_F^2 and the loss against n log 2."""
    smp = M.samples(run)
    X, y = run.X, run.y
    err = SAFETY * M.state_tolerance(run)
    sp, sm = M.extremal_sectors(X, y)
    mem = np.array([membership(X, smp.W[k], smp.a[k], sp, sm) for k in range(smp.t.size)])
    low = np.min(mem, axis=1)
    best = int(np.argmax(low))
    ok = np.flatnonzero(low >= -err)
    if ok.size == 0:
        g = M.groups(X, smp.W[-1], smp.a[-1], sp, sm)
        out = np.flatnonzero(g == M.NONE)
        share = float(np.sum(smp.W[-1][out] ** 2) / np.sum(smp.W[-1] ** 2))
        loss = math.exp(M.log_loss(X, y, smp.W[-1], smp.a[-1], run.field.loss))
        j = int(np.argmin(mem[best]))
        return Margin(float(low[best]), err, f"T^ not reached by t = {smp.t[-1]:.3g}: at every sample a neuron is outside "
                      f"sigma+ u sigma- u dead (best t = {smp.t[best]:.3g}, neuron {j}, membership {low[best]:.3g}); at the "
                      f"horizon {out.size}/{g.size} neurons outside ({share:.3g} of ||W||_F^2), loss {loss:.3g} vs n log 2 = "
                      f"{len(y) * math.log(2.0):.4g}", site={"t": float(smp.t[best]), "j": j})
    k0 = int(ok[0])
    dead = np.flatnonzero(dead_margins(X, smp.W[k0]) >= -err)
    parts = [Margin(float(low[best]), err, f"min_j membership {low[best]:.3g} at t = {smp.t[best]:.3g}")]
    if dead.size:
        drift = np.linalg.norm(smp.W[k0:, dead] - smp.W[k0, dead], axis=2) / np.linalg.norm(smp.W[k0, dead], axis=1)
        parts.append(Margin(-float(np.max(drift)), err, f"dead neurons {dead.tolist()}: relative drift {np.max(drift):.3g} "
                                                        f"after t = {smp.t[k0]:.3g}"))
    out = worst(parts)
    hat = entry_time(run)
    where = "not bracketed by measures.entry_index" if hat is None else f"T^ = {hat[0]:.6g} (+- {hat[1]:.2g})"
    return Margin(out.value, out.error, f"{out.note}; {where}; first admissible sample t = {smp.t[k0]:.3g}")


def escape_time(run: Any, lam: float) -> float:
    """The norm escape time log(1/lambda) / max(||m+||, ||m-||) (sheet PL-X4)."""
    return math.log(1.0 / lam) / max(run.audit.m_plus_norm, run.audit.m_minus_norm)


@measures("max over t of min_j cosine membership of w_j in dead or its sector (>= 0: T^ reached); -dead drift; "
          "vacuous where H-SMALL fails for the draw")
def reached_if_small_enough(run: Any) -> Margin:
    """:func:`reached_within_horizon` under H-SMALL read as the sheet's [DER] (module docstring): where T^ is not
    reached at the drawn lambda, T_0 = T^ of the same directions at LIMIT_LAMBDA; T_0 after the drawn lambda's
    escape time (beyond T_0's error) makes the example vacuous (lambda not small enough for this draw); T_0 not
    reached, or before the escape, leaves the violation."""
    m = reached_within_horizon(run)
    if m.value >= -m.error:
        return m
    lam = float(run.scenario.params["lambda"])
    limit = execute(at_scale(run.scenario, LIMIT_LAMBDA), run.horizon, rtol=float(run.params.get("rtol") or RTOL),
                    samples=SAMPLES, spacing="log", papers=("000",))
    hat, escape = entry_time(limit), escape_time(run, lam)
    if hat is not None and hat[0] - hat[1] > escape:
        return Margin(0.0, 0.0, f"H-SMALL not met at lambda = {lam:g} for this draw: T_0 = {hat[0]:.6g} (T^ at "
                                f"lambda = {LIMIT_LAMBDA:g}) comes after the norm escape time {escape:.3g}; {m.note}",
                      vacuous=True)
    where = (f"T^ not reached at lambda = {LIMIT_LAMBDA:g} either" if hat is None
             else f"T_0 = {hat[0]:.6g} (lambda = {LIMIT_LAMBDA:g}) before the norm escape time {escape:.3g}")
    return Margin(m.value, m.error, f"{m.note}; {where}", site=m.site)


def small_init_scenarios(p: tuple[int, int] = (1, 5)) -> st.SearchStrategy[Scenario]:
    """The fixture with its sheet init at lambda = 1e-3, or OS data (orthant, span) with the paper's Gaussian init."""
    return st.one_of(st.just(SC.fixture_scenario()), SC.os_scenarios(p=p, lambdas=SMALL_LAMBDAS))


L1 = paper_claim(
    id="PL-L1",
    node="L1", uses=L1_USES,
    source="Lemma 1 (Maennel et al. 2018, Lemma 5) (PL-L1)",
    statement="On OS data with the balanced init at lambda <= 1e-3, within t = 1e12 there is a time T^ at which every "
              "neuron is dead (inactive on every example, then constant), or has a_j > 0 and w_j in S_sigma+, or a_j < 0 "
              "and w_j in S_sigma- (margins in cosines; T^ from the event log); H-SMALL read as the sheet's [DER]: a "
              "draw whose limit entry time T_0 comes after the norm escape time is vacuous",
    check=reached_if_small_enough,
    over=small_init_scenarios(),
    horizon=HORIZON, rtol=RTOL, samples=SAMPLES, spacing="log",
    precondition=os_holds,
    assumptions=HYP, assumed=TRUST,
)


def width_scenarios() -> st.SearchStrategy[Scenario]:
    """PL-I5: OS data meeting H-SPAN (sheet 4.6 (ii), d = 3) with the paper's Gaussian init at width 1 or 30."""
    return st.builds(lambda data_seed, p, seed: T.gaussian_scenario(D.span(2, 1, 3, seed=data_seed), p, 1e-4, seed),
                     st.integers(0, 2**16 - 1), st.sampled_from((1, 30)), st.integers(0, 2**16 - 1))


L1_WIDTH = paper_claim(
    id="PL-I5-L1",
    node="L1", uses=L1_USES,
    source="Sec. 3 prose 'irrespective of network width' (PL-I5), through Lemma 1 (PL-L1)",
    statement="The early phase needs no over-parameterisation: at width p = 1 and p = 30 alike (lambda = 1e-4), every "
              "neuron is dead or in the extremal sector of its sign by t = 1e12",
    check=reached_if_small_enough,
    over=width_scenarios(),
    horizon=HORIZON, rtol=RTOL, samples=SAMPLES, spacing="log",
    precondition=os_holds,
    assumptions=HYP, assumed=TRUST,
)


def at_scale(scenario: Scenario, lam: float) -> Scenario:
    """The same data, directions and signs at a_j(0) = +-lam (only ln eps changes)."""
    init = dataclasses.replace(scenario.init, log_eps=math.log(lam))
    return dataclasses.replace(scenario, init=init, params={**scenario.params, "lambda": lam})


@measures("|T^(1e-3) - T^(1e-2)| - |T^(1e-4) - T^(1e-3)| (time units); Lemma 1's margin if T^(1e-4) is not reached")
def scale_free(run: Any) -> Margin:
    """[DER] T^(lambda) -> T_0: the run is at lambda_1 = 1e-2; the same directions run at 1e-3 and 1e-4. The gaps
    |T^(1e-3) - T^(1e-2)| >= |T^(1e-4) - T^(1e-3)| (value their difference, error the sum of the T^ errors, ratio
    second / first gap; the sheet's O(lambda^2) correction predicts ~1e-2). T^ not reached at 1e-4: Lemma 1's
    margin there; not reached at 1e-2 or 1e-3 only, or reached after that lambda's norm escape time (beyond its
    error): vacuous (H-SMALL not met, module docstring). Spread (max - min) / T^(1e-4)."""
    runs = [run] + [execute(at_scale(run.scenario, lam), run.horizon, rtol=float(run.params.get("rtol") or RTOL),
                            samples=SAMPLES, spacing="log", papers=("000",)) for lam in SCALE_LAMBDAS[1:]]
    hats = [entry_time(r) for r in runs]
    if hats[-1] is None:
        m = reached_within_horizon(runs[-1])
        return Margin(m.value, m.error, f"lambda = {SCALE_LAMBDAS[-1]:g}: {m.note}")
    if any(h is None for h in hats):
        missing = [f"{lam:g}" for lam, h in zip(SCALE_LAMBDAS, hats) if h is None]
        return Margin(0.0, 0.0, f"T^ not reached at lambda = {', '.join(missing)} (not small enough for this draw; "
                                f"T^({SCALE_LAMBDAS[-1]:g}) = {hats[-1][0]:.6g})", vacuous=True)
    t = [h[0] for h in hats]
    escape = [escape_time(run, lam) for lam in SCALE_LAMBDAS]
    late = [f"{lam:g} (T^ = {h[0]:.6g}, escape {e:.3g})" for lam, h, e in zip(SCALE_LAMBDAS, hats, escape) if h[0] - h[1] > e]
    if late:
        return Margin(0.0, 0.0, f"H-SMALL not met: T^ after the norm escape time at lambda = {'; '.join(late)}: the "
                                f"draw leaves the scale-free regime first", vacuous=True)
    g1, g2 = abs(t[1] - t[0]), abs(t[2] - t[1])
    error = hats[0][1] + 2.0 * hats[1][1] + hats[2][1]
    spread = (max(t) - min(t)) / t[2] if t[2] > 0 else 0.0
    return Margin(g1 - g2, error, f"T^ = {', '.join(f'{v:.8g}' for v in t)} at lambda = "
                                  f"{', '.join(f'{lam:g}' for lam in SCALE_LAMBDAS)}; gaps {g1:.3g}, {g2:.3g}; spread "
                                  f"{spread:.3g}; escape times log(1/lambda)/max||m+-|| {', '.join(f'{e:.3g}' for e in escape)}",
                  ratio=g2 / g1 if g1 > 0 else None)


L1_SCALE = paper_claim(
    id="PL-L1-scale-free",
    node="L1", uses=L1_USES + ("X4",),
    source="Lemma 1, lambda -> 0 (PL-L1 check [DER]: scale-free directional dynamics, sheet fixture T^ = 0.6393)",
    statement="On the same data, directions and signs at lambda = 1e-2, 1e-3, 1e-4, T^ tends to a lambda-independent "
              "limit: |T^(1e-4) - T^(1e-3)| <= |T^(1e-3) - T^(1e-2)| (T^ from the event log; spread reported)",
    check=scale_free,
    over=st.one_of(st.just(SC.fixture_scenario(1e-2)), SC.os_scenarios(lambdas=SCALE_LAMBDAS[:1])),
    horizon=HORIZON, rtol=RTOL, samples=SAMPLES, spacing="log",
    precondition=os_holds,
    assumptions=HYP, assumed=TRUST[:1],
)


def span_fails(run: Any) -> bool | str:
    """PC13's precondition: H-OS holds and H-SPAN fails (audit.span_holds is False)."""
    ok = os_holds(run)
    if ok is not True:
        return ok
    return True if run.audit.span_holds is False else f"H-SPAN holds or is undefined ({run.audit.span_holds})"


PC13_L1 = paper_claim(
    id="PC13-L1",
    node="L1", uses=L1_USES,
    source="sheet 5.6 PC13 (drop H-SPAN only) on Lemma 1 (PL-L1 assumes no H-SPAN: must still hold)",
    statement="On OS data violating H-SPAN (d = 3, at most 2 examples per class) Lemma 1 still holds as in PL-L1: "
              "Lemma 1 never uses the span assumption",
    check=reached_if_small_enough,
    over=SC.os_scenarios(d=(3, 3), n_side=(1, 2), families=("orthant",), lambdas=SMALL_LAMBDAS),
    horizon=HORIZON, rtol=RTOL, samples=SAMPLES, spacing="log",
    precondition=span_fails,
    assumptions=HYP + ("drops H-SPAN (precondition: audit.span_holds is False)",), assumed=TRUST,
    tags=("control",),
)


def large_init_scenarios() -> st.SearchStrategy[Scenario]:
    """Sheet PC3: lambda = 1, p = 30, 3-d OS data (the fixture, pulled_span(3, 1, seed=4)), init seed 7."""
    return st.sampled_from([T.gaussian_scenario(ds, 30, 1.0, seed=7) for ds in (D.fixture(), T.pulled_span(3, 1, seed=4))])


PC3_L1 = paper_claim(
    id="PC3-L1",
    node="L1", uses=L1_USES,
    source="sheet 5.6 PC3 (large init on OS data: Lemma 1 within the horizon fails) (PL-L1, PL-I1)",
    statement="PLANTED: with lambda = 1 and p = 30 on 3-d OS data, T^ is not reached by t = 1e8 (the sheet's horizon): at "
              "every sample some neuron is outside sigma+ u sigma- u dead by more than the error (sheet: 11/30 at 1e8)",
    check=reached_within_horizon,
    over=large_init_scenarios(),
    horizon=1e8, rtol=RTOL, samples=SAMPLES, spacing="log",
    precondition=os_holds,
    expected=Verdict.REFUTED,
    assumptions=HYP + ("drops H-SMALL (lambda = 1)",), assumed=TRUST[:1],
    tags=("planted",),
)
