"""Claim sheet 003 C-T4.2 and its corollaries (static): Theorem 4.2 (on symmetric separable data the max normalised
margin of a leaky two-layer net of width m >= 2 is ((1+alpha)/4) gamma_lin, and every maximiser is linear), its
quantitative corollaries (a)-(c), the Intro's claim (d) that without symmetry the global max can be nonlinear, and
the Section-6 intro (C-S6-intro); planted S-7 (m = 1) and S-10 (D-S, A4.1 dropped), each found by optimisation.

The numbers come from :mod:`.max_margin`: brackets [lower, upper] on sup gamma over a class of nets, the lower end a
realised net (re-measured), the upper end certified (the LP's dual on the sphere, an SVM for one neuron, branch and
bound for one direction); gamma_lin is bracketed by w*'s margin and the dual point p of conv{y_i x_i}.
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.scenarios import SEEDS
from verify.strategies import GeometryCase, as_case
from verify.verdicts import Verdict

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import max_margin as MM
from properties.lyu2021_margin import single_direction as SD
from properties.lyu2021_margin._shared import ALPHA, U_ROUND, largest_ratio, paper_claim, worst
from properties.lyu2021_margin.network import even_part_index, norm_sq, normalised_margin
from properties.lyu2021_margin.quantities import symmetry_mismatch

ALPHAS = (0.1, 0.5, 0.9)  # the leaky slopes drawn: alpha in (0, 1) strictly
RANDOM_DRAWS = 16  # random theta per case in the bound check, widths 1..6
AGREE = 1e-5  # optimisers agree with a closed form within AGREE (relative) plus the brackets' own resolution
EQUAL = 1e-3  # "=" in a chain of classes: both brackets within EQUAL (relative) of each other
COEF = {"(1+alpha)/4": lambda alpha: (1.0 + alpha) / 4.0, "alpha/2": lambda alpha: alpha / 2.0}

static_claim = partial(paper_claim, horizon=None, tags=("pointwise", "static"))
planted = partial(paper_claim, horizon=None, expected=Verdict.REFUTED, tags=("planted", "pointwise", "static"))


def premise_a41(case: GeometryCase) -> Margin | None:
    """None where Assumption 4.1 holds (worst mirror mismatch <= 1e-12 max||x||, the audit's test) or the case drops
    it (planted); else a vacuous margin: the symmetric-data theorem says nothing there (sheet 5, fixture 7)."""
    if case.params.get("drops") == "A4.1":
        return None
    ds = case.dataset
    mismatch, _ = symmetry_mismatch(ds.X, ds.y)
    if mismatch <= 1e-12 * ds.X_max:
        return None
    return Margin(0.0, 0.0, f"A4.1 fails (worst mirror mismatch {mismatch:.3g}): outside Theorem 4.2, not a "
                            f"counterexample (sheet 5 fixture 7)", vacuous=True)


@st.composite
def symmetric_params(draw: st.DrawFn, m: tuple[int, ...], perturbed: bool = False, n_half: tuple[int, int] = (1, 6),
                     **params) -> GeometryCase:
    """A symmetric separable case (D-SYM or random, d in {2, 3}), or, one time in six where ``perturbed``, fixture 7
    (D-SYM with jittered mirrors); with a leaky slope from ALPHAS, a width from ``m`` and ``params``."""
    if perturbed and draw(st.integers(0, 5)) == 0:
        base = GeometryCase(D.d_sym_perturbed(), draw(SEEDS), {"data": "d_sym_perturbed"})
    else:
        base = draw(D.symmetric_cases(n_half=n_half, d=(2, 3)))
    return GeometryCase(base.dataset, base.seed, {**base.params, "alpha": draw(st.sampled_from(ALPHAS)),
                                                  "m": draw(st.sampled_from(m)), **params})


def fixed_params(builder, m: tuple[int, ...] = (2,), **params) -> st.SearchStrategy[GeometryCase]:
    """A fixed dataset (sheet 3.3) at alpha = 1/2, a width from ``m`` and ``params`` (a planted case sets drops)."""
    def build(seed: int, width: int) -> GeometryCase:
        ds = builder()
        return GeometryCase(ds, seed, {"data": ds.name, "alpha": ALPHA, "m": width, **params})
    return st.builds(build, SEEDS, st.sampled_from(m))


# ------------------------------------------------------------------------------------------ (a): the upper bound

@measures("certified ((1+alpha)/4) gamma_lin minus the largest normalised margin gamma found (absolute)")
def symmetric_bound(case: GeometryCase) -> Margin:
    """C-T4.2 (a), check (i): gamma(theta) <= ((1+alpha)/4) gamma_lin for every theta on symmetric data (q_min <=
    ((1+alpha)/2) min_i <sum a_k w_k, x_i>, ||sum a_k w_k|| <= ||theta||^2 / 2). Witnesses: RANDOM_DRAWS Gaussian theta of
    widths 1..6 (from the case's seed), the SLSQP optimum at width m and the infinite-width LP's net; margin = bound
    (gamma_lin's certified upper end) - the largest gamma, error = its float64 bound; ratio = largest / bound."""
    case = as_case(case)
    ds, alpha, m = case.dataset, float(case.params["alpha"]), int(case.params["m"])
    bound = (1.0 + alpha) / 4.0 * MM.linear_bracket(ds)[1]
    rng = case.rng
    draws = []
    for _ in range(RANDOM_DRAWS):
        width = int(rng.integers(1, 7))
        W, a = rng.standard_normal((width, ds.d)), rng.standard_normal(width)
        draws.append((normalised_margin(ds.X, ds.y, W, a, alpha), width, "random"))
    opt, lp = MM.fixed_width(ds, alpha, m), MM.global_margin(ds, alpha)
    witnesses = draws + [(opt.gamma, m, "SLSQP"), (lp.lower, len(lp.a), "LP")]
    gamma, width, kind = max(witnesses)
    note = (f"max gamma = {gamma:.10g} ({kind} net, width {width}) vs ((1+alpha)/4) gamma_lin = {bound:.10g}, "
            f"alpha = {alpha:g}; random draws reach {max(draws)[0] / bound:.3g} of it")
    vacuous = premise_a41(case)
    if vacuous is not None:
        return Margin(0.0, 0.0, f"{vacuous.note}; here {note}", vacuous=True)
    err = max(MM.margin_error(ds.n, ds.d, w, ds.X_max) for _, w, _ in witnesses)
    return Margin(bound - gamma, err, note, ratio=max(0.0, gamma) / bound)


T42_BOUND = static_claim(
    id="LY-T42-bound",
    node="T42", uses=("A32", "A41", "I1", "D33", "LEAKY"),
    source="Theorem 4.2 (C-T4.2 (a), check (i); sheet 3.4 E1)",
    statement="On symmetric separable data every theta of every width has gamma(theta) <= ((1+alpha)/4) gamma_lin "
              "(random theta, the SLSQP optimum and the LP net as witnesses; alpha in {0.1, 0.5, 0.9}). The jittered "
              "D-SYM (fixture 7) breaks A4.1 and is vacuous, never a counterexample",
    check=symmetric_bound,
    over=symmetric_params(m=(1, 2, 3), perturbed=True),
    assumptions=("A3.2 (by construction)", "A4.1 (checked; vacuous otherwise)", "leaky"),
)

S10_BOUND = planted(
    id="S10-T42-bound-DS",
    node="T42", uses=("A32", "I1", "D33", "LEAKY"),
    source="sheet S-10 (A4.1 dropped) applied to Theorem 4.2 (C-T4.2 (a))",
    statement="PLANTED: on the non-symmetric D-S the same bound gamma <= ((1+alpha)/4) gamma_lin = 0.0928 fails: SLSQP at "
              "m in {2, 3} and the LP find 0.1081 (found by optimisation; random theta stay below)",
    check=symmetric_bound,
    over=fixed_params(D.d_s, m=(2, 3), drops="A4.1"),
    assumptions=("A3.2", "leaky", "m >= 2", "drops A4.1 (D-S)"),
)


# ---------------------------------------------------------------------------- (a)-(c): the optimum and its structure

def structure(ds, W: np.ndarray, a: np.ndarray, alpha: float, p: np.ndarray, Gamma: float) -> list[Margin]:
    """C-T4.2 (c), quantitatively: at ||theta|| = 1 with delta = 1 - gamma / ((1+alpha) Gamma / 4) (Gamma >= ||p||, p
    in conv{y_i x_i}, delta widened by gamma's float64 error), the theorem's chain of inequalities gives
    sum (|a_k| - ||w_k||)^2 <= delta (balance), sum |c_k| ||sign(c_k) u_k - v^||^2 <= delta (one direction,
    c_k = a_k ||w_k||, v = sum a_k w_k), ||v - p^/2|| <= sqrt(2 delta)/2 + delta/2, |A - B| <= beta :=
    ((1+alpha) Gamma delta / (2 (1-alpha)) + max||x|| sqrt(delta/2)) / ((1-delta) Gamma), |A - 1/4|, |B - 1/4| <=
    beta/2 + delta/4, and the even part N(theta) <= ((1-alpha)/2)(beta + sqrt(d delta/2)) (for gamma > 0, i.e.
    delta < 1; none otherwise). At an exact maximiser (delta = 0) this is (c): balanced neurons along +-w*,
    A = B = 1/4, v = w*/2, f linear. Each row's ratio: deviation / bound (every bound is > 0: delta includes fp)."""
    scale = math.sqrt(norm_sq(W, a))
    W, a = W / scale, a / scale
    x_max = ds.X_max
    gamma = normalised_margin(ds.X, ds.y, W, a, alpha)
    fp = MM.margin_error(ds.n, ds.d, len(a), x_max) / ((1.0 + alpha) / 4.0 * Gamma)
    delta = max(0.0, 1.0 - gamma / ((1.0 + alpha) / 4.0 * Gamma)) + fp
    if not delta < 1.0:
        return []  # gamma <= 0: the chain of inequalities needs gamma > 0
    norms = np.linalg.norm(W, axis=1)
    live = norms > 0.0
    c, U = a[live] * norms[live], W[live] / norms[live, None]
    v = a @ W
    v_hat, p_hat = v / np.linalg.norm(v), p / np.linalg.norm(p)
    A, B = float(np.sum(c[c > 0.0])), float(-np.sum(c[c < 0.0]))
    beta = ((1.0 + alpha) * Gamma * delta / (2.0 * (1.0 - alpha)) + x_max * math.sqrt(delta / 2.0)) \
        / ((1.0 - delta) * Gamma)
    spread = float(np.sum(np.abs(c) * np.sum((np.sign(c)[:, None] * U - v_hat) ** 2, axis=1)))
    rows = [("sum (|a_k| - ||w_k||)^2", float(np.sum((np.abs(a) - norms) ** 2)), delta),
            ("sum |c_k| ||s_k u_k - v^||^2", spread, delta),
            ("||sum a_k w_k - w*/2||", float(np.linalg.norm(v - p_hat / 2.0)), math.sqrt(2.0 * delta) / 2.0 + delta / 2.0),
            ("|A - 1/4|", abs(A - 0.25), beta / 2.0 + delta / 4.0),
            ("|B - 1/4|", abs(B - 0.25), beta / 2.0 + delta / 4.0),
            ("even part N", even_part_index(W, a, alpha), (1.0 - alpha) / 2.0 * (beta + math.sqrt(ds.d * delta / 2.0)))]
    err = 64.0 * (len(a) * (ds.d + 1) + ds.n) * U_ROUND
    return [Margin(bound - dev, err, f"{name} = {dev:.3g} <= {bound:.3g}", ratio=dev / bound)
            for name, dev, bound in rows]


@measures("closed form coef(alpha) gamma_lin against the certified max-margin bracket, or a (c) bound minus deviation")
def closed_form_optimum(case: GeometryCase) -> Margin:
    """C-T4.2 (a)/(b): the max margin at width m equals the closed form coef(alpha) gamma_lin (coef = case "value").
    Realised lower ends (SLSQP at width m, and the certifying net) must not exceed its upper end, and the certified
    upper end (the LP's dual, all widths, for m >= 2; the exact one-neuron SVM bound for m = 1) must reach its lower
    end: a miss either way is a counterexample. If the ends are further than AGREE from it, the optimisers fell short:
    inconclusive. For m >= 2 on symmetric data the SLSQP maximiser must also satisfy :func:`structure` (ratio: the
    largest deviation / bound of its rows; the closed-form equality itself has none)."""
    case = as_case(case)
    vacuous = premise_a41(case)
    if vacuous is not None:
        return vacuous
    ds, alpha, m, value = case.dataset, float(case.params["alpha"]), int(case.params["m"]), case.params["value"]
    lo, hi, p = MM.linear_bracket(ds)
    t_lo, t_hi = COEF[value](alpha) * lo, COEF[value](alpha) * hi
    opt = MM.fixed_width(ds, alpha, m)
    err = MM.margin_error(ds.n, ds.d, max(m, ds.n + 1), ds.X_max)
    certified, kind = (SD.single_neuron(ds, alpha), "one-neuron SVM") if m == 1 else (MM.global_margin(ds, alpha), "LP")
    parts = [Margin(t_hi - opt.gamma, err, f"SLSQP (m = {m}) {opt.gamma:.10g} <= {value} gamma_lin {t_hi:.10g}"),
             Margin(t_hi - certified.lower, err, f"{kind} net {certified.lower:.10g} <= {t_hi:.10g}"),
             Margin(certified.upper - t_lo, err, f"certified sup ({kind}) {certified.upper:.10g} >= {t_lo:.10g}")]
    lowers = [opt.gamma, certified.lower]
    if m >= 2 and case.params.get("drops") != "A4.1" and value == "(1+alpha)/4":
        parts += structure(ds, opt.W, opt.a, alpha, p, hi)
    out, ratio = worst(parts), largest_ratio(parts)
    note = f"alpha = {alpha:g}, m = {m}, KKT residual {opt.kkt[0]:.2g}: " + "; ".join(q.note for q in parts)
    if ratio is not None:
        note += f"; largest structure deviation / bound = {ratio:.3g}"
    if out.value < -out.error:
        return Margin(out.value, out.error, note, ratio=ratio)
    resolution = certified.upper - certified.lower
    short = max(t_lo - min(lowers), certified.upper - t_hi)
    if short > AGREE * t_lo + resolution:
        return Margin(out.value, math.inf, f"the optimisers miss the closed form by {short:.3g}: {note}", ratio=ratio)
    return Margin(out.value, out.error, note, ratio=ratio)


T42_OPTIMUM = static_claim(
    id="LY-T42-optimum",
    node="T42", uses=("A32", "A41", "WIDTH", "I1", "D33", "LEAKY"),
    source="Theorem 4.2 (C-T4.2 (a), (c), check (ii); sheet 3.3: D-SYM 0.0672083746 for m = 2, 3, 5, LP 0.067206)",
    statement="On symmetric separable data the max margin at width m in {2, 3, 5} is ((1+alpha)/4) gamma_lin: SLSQP reaches "
              "it, the LP bracket contains it (within 1e-5), and the maximiser found is linear with the structure of (c) "
              "(balanced neurons along +-w*, A = B = 1/4, sum a_k w_k = w*/2), within bounds implied by its optimality gap",
    check=closed_form_optimum,
    over=symmetric_params(m=(2, 3, 5), n_half=(2, 5), value="(1+alpha)/4"),
    assumptions=("A3.2 (by construction)", "A4.1 (checked)", "m >= 2", "leaky"),
)

T42_M1 = static_claim(
    id="LY-T42-b-m1",
    node="T42", uses=("A32", "A41", "I1", "D33", "LEAKY"),
    source="Theorem 4.2, corollary (b) (C-T4.2 (b); sheet 3.3: D-SYM 0.0448055831)",
    statement="On symmetric separable data a single neuron (m = 1) has max margin (alpha/2) gamma_lin: SLSQP reaches it and "
              "the one-neuron bound (an SVM on the points kappa_i y_i x_i) certifies it",
    check=closed_form_optimum,
    over=symmetric_params(m=(1,), n_half=(2, 5), value="alpha/2"),
    assumptions=("A3.2 (by construction)", "A4.1 (checked)", "leaky"),
)

S7_M1 = planted(
    id="S7-T42-m1",
    node="T42", uses=("A32", "A41", "I1", "D33", "LEAKY"),
    source="sheet S-7 (hypothesis m >= 2 dropped) applied to Theorem 4.2 (C-T4.2 (a))",
    statement="PLANTED: T4.2's value ((1+alpha)/4) gamma_lin is attained at m = 1 on D-SYM (false: one neuron reaches "
              "(alpha/2) gamma_lin = 0.0448 < 0.0672, certified by the one-neuron bound)",
    check=closed_form_optimum,
    over=fixed_params(D.d_sym, m=(1,), value="(1+alpha)/4"),
    assumptions=("A3.2", "A4.1", "leaky", "drops m >= 2 (m = 1)"),
)

S10_M1 = planted(
    id="S10-T42-b-DS",
    node="T42", uses=("A32", "I1", "D33", "LEAKY"),
    source="sheet S-10 (A4.1 dropped) applied to corollary (b) of Theorem 4.2",
    statement="PLANTED: on the non-symmetric D-S one neuron has max margin (alpha/2) gamma_lin = 0.0619 (false: SLSQP "
              "finds 0.083647)",
    check=closed_form_optimum,
    over=fixed_params(D.d_s, m=(1,), value="alpha/2", drops="A4.1"),
    assumptions=("A3.2", "leaky", "drops A4.1 (D-S)"),
)


# ------------------------------------------------------------------- chains of classes: Intro (d), Section-6 intro

def width_two(ds, alpha: float) -> MM.Bracket:
    """Width 2: the SLSQP net realises the lower end, the all-width LP dual bounds it above."""
    opt = MM.fixed_width(ds, alpha, 2)
    return MM.Bracket(opt.gamma, MM.global_margin(ds, alpha).upper, opt.W, opt.a)


CLASSES = {"linear": SD.linear_class, "f_inf": SD.leaky_unit, "single_neuron": SD.single_neuron,
           "single_direction": SD.single_direction, "width2": width_two, "global": MM.global_margin}


def relation(left: str, rel: str, right: str, brackets: dict, err: float) -> Margin:
    """One link of a chain. "<": certified iff upper(left) < lower(right), refuted iff upper(right) <= lower(left),
    else inconclusive; ratio upper(left) / lower(right) (None where lower(right) <= 0). "=": holds iff both brackets
    lie within EQUAL (relative) of each other, refuted iff they are disjoint, else inconclusive; no ratio."""
    l_lo, l_hi, r_lo, r_hi = brackets[left].lower, brackets[left].upper, brackets[right].lower, brackets[right].upper
    text = f"{left} [{l_lo:.8g}, {l_hi:.8g}] {rel} {right} [{r_lo:.8g}, {r_hi:.8g}]"
    if rel == "<":
        ratio = max(0.0, l_hi) / r_lo if r_lo > 0.0 else None
        if r_lo - l_hi > err or r_hi - l_lo < -err:
            return Margin(r_lo - l_hi if r_lo - l_hi > err else r_hi - l_lo, err, text, ratio=ratio)
        return Margin(r_lo - l_hi, math.inf, f"{text}: the brackets overlap", ratio=ratio)
    spread, gap = max(l_hi, r_hi) - min(l_lo, r_lo), max(l_lo, r_lo) - min(l_hi, r_hi)
    if spread <= EQUAL * max(l_lo, r_lo):
        return Margin(EQUAL * max(l_lo, r_lo) - spread, err, text)
    if gap > err:
        return Margin(-gap, err, text)
    return Margin(EQUAL * max(l_lo, r_lo) - spread, math.inf, f"{text}: not resolved")


@measures("gap between the max-margin brackets of linked classes (absolute; '=' links: 1e-3 relative band minus spread)")
def margin_chain(case: GeometryCase) -> Margin:
    """The chain of classes in the case (names of :data:`CLASSES` joined by "<" or "="), every link by
    :func:`relation`; the worst link decides; ratio: the largest of the "<" links'."""
    case = as_case(case)
    ds, alpha, chain = case.dataset, float(case.params["alpha"]), list(case.params["chain"])
    brackets = {name: CLASSES[name](ds, alpha) for name in chain[::2]}
    err = MM.margin_error(ds.n, ds.d, ds.n + 1, ds.X_max)
    links = [relation(chain[k], chain[k + 1], chain[k + 2], brackets, err) for k in range(0, len(chain) - 2, 2)]
    out, ratio = worst(links), largest_ratio(links)
    slack = "" if ratio is None else f"; largest upper(left) / lower(right) over the '<' links = {ratio:.4g}"
    return Margin(out.value, out.error, f"{ds.name}, alpha = {alpha:g}: " + "; ".join(q.note for q in links) + slack,
                  ratio=ratio)


INTRO_D = static_claim(
    id="LY-Intro-d",
    node="INTRO", uses=("T42", "D33"),
    source="Secs. 1 and 2 (C-Intro (d): without symmetry a global-max-margin net may be nonlinear; sheet 3.3 D-S)",
    statement="On the non-symmetric D-S the global max margin (the LP net, 0.108106, certified by its dual) beats every "
              "linear net (((1+alpha)/4) gamma_lin = 0.092784), and width 2 (SLSQP) already attains it",
    check=margin_chain,
    over=fixed_params(D.d_s, chain=("linear", "<", "global", "=", "width2")),
    assumptions=("A3.2", "leaky", "m >= 2"),
)

S7_INTRO_D = planted(
    id="S7-Intro-d-m1",
    node="INTRO", uses=("T42", "D33"),
    source="sheet S-7 (m >= 2 dropped) applied to C-Intro (d)",
    statement="PLANTED: on D-S one neuron (m = 1) beats every linear net (false: its certified max 0.083647 < 0.092784)",
    check=margin_chain,
    over=fixed_params(D.d_s, chain=("linear", "<", "single_neuron")),
    assumptions=("A3.2", "leaky", "drops m >= 2 (m = 1)"),
)

S6_INTRO = static_claim(
    id="LY-S6I",
    node="S6I", uses=("D61", "T62", "D33"),
    source="Sec. 6 intro and footnote 3 (C-S6-intro; sheet C-T6.2 (5, 1, 0.05): gamma_f_inf = 0.025, LP 0.0676)",
    statement="PARTIALLY CHECKED: on hinted D-S (5, 1, 0.05) the limit (1/2) phi(<w*, x>) of T6.2 (gamma_f_inf = (1/2) "
              "min(eps, alpha gamma_neg(S), H) = 0.025) is the best single-direction net (f = A phi(<u, x>) - "
              "B phi(-<u, x>): derived, min(<u, x2'>, <u, x3'>) <= eps <u, w*>), and every single-direction net is "
              "suboptimal: the global max is 0.0677. Nets with a linear decision boundary beyond one direction are not "
              "certified",
    check=margin_chain,
    over=fixed_params(lambda: D.hinted(5.0, 1.0, 0.05), chain=("f_inf", "=", "single_direction", "<", "global")),
    assumptions=("A3.2", "leaky"),
)

S6I_UNHINTED = planted(
    id="S6I-unhinted-DS",
    node="S6I", uses=("D61", "T62", "D33"),
    source="C-S6-intro without the hint points (Definition 6.1 dropped)",
    statement="PLANTED: on plain D-S (no hints) the single leaky unit (1/2) phi(<w*, x>) is the best single-direction net "
              "(false: 0.0619 against 0.0932)",
    check=margin_chain,
    over=fixed_params(D.d_s, chain=("f_inf", "=", "single_direction")),
    assumptions=("A3.2", "leaky", "drops D6.1 (no hints)"),
)
