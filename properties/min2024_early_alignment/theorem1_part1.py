"""Claim sheet 004, section 2.E, second part: EA-E6 Theorem 1 part 1 (with the worked toy4 example of
sheet 3.2) and EA-E7 random init, with the errata R8 (sheet 7.1) and n = 1 (sheet 7.3, P9) as paired
claims (as printed vs corrected), the planted counterexamples P3, P6, P7 and the negative controls
P7-near and P14.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from verify.audit import audit as audit_data
from properties.min2024_early_alignment import patterns as pat
from properties.min2024_early_alignment import measures as tm
from verify.claims.model import Margin, measures
from verify.data import generators as gen
from properties.min2024_early_alignment import datasets as d004
from verify.model.init import Initialization, balanced_init
from verify.scenarios import SEEDS, Scenario, scenario
from verify.verdicts import Verdict

from properties.min2024_early_alignment.audit import required_log_eps
from properties.min2024_early_alignment._shared import SEED, THEOREM_POLAR, paper_claim
from properties.min2024_early_alignment.preconditions import _theorem_scale
from properties.min2024_early_alignment.theorem_scale import THEOREM, _rot, _scenario


def part1_at(time_of):
    """Theorem 1 part 1 at the time ``time_of(run)`` (must be 0 or the horizon): every V+ neuron in
    S+ or S_dead, and in S+ if it initially activated a positive point; likewise V- with S-.
    Margin: min over neurons of the signed region margin (normalised pre-activations)."""

    @measures("min over neurons of the allowed-region margin min_i +-<x_i, u_j> / ||x_i|| at the check time (cosine)")
    def check(run) -> Margin:
        t_check = time_of(run)
        t, R, U, s = tm.polar_samples(run)
        k = 0 if t_check == 0.0 else t.size - 1
        if t_check != 0.0 and abs(t[k] - t_check) > 1e-9 * max(1.0, t_check):
            raise ValueError(f"part-1 check at t = {t_check} but the horizon is {t[k]}")
        _, U0, _ = tm.initial_polar(run)
        own = tm.initially_active_own(run.X, run.y, U0, s)
        worst, note, site = math.inf, "", None
        for j in range(U.shape[1]):
            m = tm.allowed_margin(run.X, run.y, U[k, j], s[j], bool(own[j]))
            if m < worst:
                worst, site = m, {"t": float(t[k]), "j": j}
                note = (f"t = {t[k]:.6g}: neuron {j} (s = {int(s[j]):+d}, initially active on own class: {bool(own[j])}) "
                        f"is in {tm.region_of(run.X, run.y, U[k, j])}, margin {m:.6g}")
        return Margin(worst, pat.state_error(run) + tm.SURFACE_RTOL, note, site=site)

    return check


def _at_horizon(run) -> float:
    return float(run.horizon)


# one function for EA-E6, its planted P3, P6, P7, R8-printed and the controls R8-corrected, P7-near, P14: the
# planted refutations are the controls' teeth (verify.evidence.teeth.planted_teeth)
PART1_AT_HORIZON = part1_at(_at_horizon)


E6 = paper_claim(
    id="EA-E6",
    node="T1A", uses=("PATHS", "E78", "L12", "EXIST", "L1"),
    source="Theorem 1 part 1",
    statement="at eps = eps_required and t = t1 (min reading): every V+ neuron in S+ or S_dead (in S+ if it initially activated a "
              "positive point), every V- neuron in S- or S_dead (in S- if it initially activated a negative point)",
    check=PART1_AT_HORIZON,
    over=THEOREM,
    horizon="t1",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "n >= 2", "eps = eps_required (28)", "regular solution (engine freezes dead neurons)"),
    tags=THEOREM_POLAR,
)


@measures("t1 - t1_emp, the bound minus the empirical alignment time (time units)")
def t1_emp_margin(run) -> Margin:
    """EA-E6: t1_emp <= t1, t1_emp = inf{t : every neuron in its trapping set for all later t <= horizon}."""
    t1 = float(run.audit.t1)
    t1e = tm.alignment_time(run)
    return Margin(t1 - t1e, tm.TIME_RTOL * max(1.0, t1),
                  f"t1_emp = {t1e:.10g} vs t1 = {t1:.6g} (ratio {t1e / t1:.3g}); zeta2 = {run.audit.zeta2:.3g}",
                  ratio=t1e / t1 if math.isfinite(t1e) and t1 > 0.0 else None)


E6_T1EMP = paper_claim(
    id="EA-E6-t1emp",
    node="T1A", uses=("PATHS", "E78", "L12", "EXIST", "L1"),
    source="Theorem 1 part 1 (t1_emp <= t1)",
    statement="the empirical alignment time t1_emp (every neuron in its trapping set for all later t) is <= t1 at eps = eps_required",
    check=t1_emp_margin,
    over=THEOREM,
    horizon="t1",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2", "n >= 2", "eps = eps_required"),
    tags=THEOREM_POLAR,
)


def toy4_scenario() -> Scenario:
    """Sheet 3.2 toy4 (a = 0.3) with h = 8 directions 0.2 + k pi/4, signs +,-,..., W_max = 1, at eps_required."""
    ds = d004.toy4()
    ang = 0.2 + np.arange(8) * math.pi / 4
    W0 = np.column_stack([np.cos(ang), np.sin(ang)])
    s = np.where(np.arange(8) % 2 == 0, 1.0, -1.0)
    base = _scenario(ds, W0, s, 0.0)
    value, _ = required_log_eps(ds, base.init, "required")
    return _scenario(ds, W0, s, value, construction="sheet 3.2 toy4, h = 8")


E6_TOY4 = paper_claim(
    id="EA-E6-toy4",
    node="T1A", uses=("PATHS", "E78", "L12", "EXIST", "L1"),
    source="sheet 3.2 worked example (toy4, h = 8)",
    statement="toy4 at eps_required (log10 eps = -4298.8): t1_emp <= t1 = 618.6; the exact t1_emp is 1.362790997720063 "
              "(limit engine; the sheet's 1.380 is a sampling artefact)",
    check=t1_emp_margin,
    over=st.just(toy4_scenario()),
    horizon="t1",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2",),
    tags=("worked example",),
)


def init_law(rng: np.random.Generator, N: int, m: int, d: int) -> np.ndarray:
    """N draws of m i.i.d. N(0, I/d) directions, shape (N, m, d): the symmetric law EA-E7 speaks of (a module name,
    so that a test can plant an asymmetric law and see the check fail)."""
    return rng.standard_normal((N, m, d)) / math.sqrt(d)


@measures("min over V+, V- of the Monte Carlo frequency minus 1 - 2^-m (probability units; error 5 sd)")
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
        W = init_law(rng, N, m, X.shape[1])
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


E7 = paper_claim(
    id="EA-E7",
    node="T1A", uses=("PATHS", "E78", "L12", "EXIST", "L1"),
    source="Sec. 3.3 'Merits of random initialization' [P/INF]",
    statement="with m+ V+ neurons of a symmetric random init, P(some V+ neuron activates a positive point at init) >= 1 - 2^{-m+} "
              "(likewise V-; Monte Carlo, N = 20000, 5-sd error)",
    check=random_init_margin,
    over=scenario(n=(1, 6), d=(2, 4), h=(1, 6)),
    horizon=None,
    assumptions=("Gaussian N(0, I/d) directions (symmetric law)",),
)

MAX_T = 1e12  # verify.claims.run.MAX_HORIZON


def _h_t1max(sc, a):
    return a.t1_max


def _h_t1min_capped(sc, a):
    return None if a.t1_min is None else min(a.t1_min, MAX_T)


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


R8_PRINTED = paper_claim(
    id="R8-t1-max-printed",
    source="App. C.2 after (26), zeta := max{zeta1, zeta2} as printed [erratum R8, sheet 7.1]",
    statement="PAIRED (as printed): Theorem 1 part 1 at t1 = 16 ln n/(min{max{zeta1,zeta2}, xi} sqrt(mu) X_min) and eps = eps_required "
              "of the printed reading -- refuted by inits with a V+ neuron within 1e-5 rad of x-",
    check=PART1_AT_HORIZON,
    over=near_assumption2("required_printed"),
    horizon=_h_t1max,
    expected=Verdict.REFUTED,
    assumptions=("Assumptions 1, 2 (zeta2 ~ 1e-10)", "eps = eps_required, printed reading"),
    tags=("erratum R8", "printed"),
)

R8_CORRECTED = paper_claim(
    id="R8-t1-min-corrected",
    source="App. C.2 after (26), zeta := min{zeta1, zeta2} [erratum R8, sheet 7.1]",
    statement="PAIRED (corrected): Theorem 1 part 1 at t1 with zeta = min{zeta1, zeta2} (~1e11 here) and eps = eps_required, on the "
              "same near-boundary inits that refute the printed reading",
    check=PART1_AT_HORIZON,
    over=near_assumption2("required"),
    horizon=_h_t1min_capped,
    backend="limit",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2 (zeta2 ~ 1e-10)", "eps = eps_required (corrected), ln eps ~ -9e11: run on the exact "
                 "eps -> 0 limit engine (f <= e^{-1e12} on [0, t1]; the explicit event engine needs ~k t steps once "
                 "directions converge, infeasible at t1 ~ 1e11)"),
    tags=("erratum R8", "corrected"),
)


def p3_data():
    """Sheet P3/P7 data: x1 = (1, 0.2) (+1), x2 = (-1, 0.2) (-1); n = 2, mu = 0.923, t1 ~ 13.3."""
    from verify.data.dataset import Dataset

    return Dataset([[1.0, 0.2], [-1.0, 0.2]], [1.0, -1.0], name="p3_data")


def p3_scenario(log_eps: float = 2.0) -> Scenario:
    """P3: V+ u0 = (0, 1) (activates both points), V- u0 = (-1, 0); ||w_j(0)|| = eps = e^2."""
    return _scenario(p3_data(), [[0.0, 1.0], [-1.0, 0.0]], [1.0, -1.0], log_eps, construction="sheet P3")


P3 = paper_claim(
    id="P3-large-eps",
    source="sheet P3 (eps far above eps_required; Theorem 1 part 1)",
    statement="PLANTED: Theorem 1 part 1 at t1 = 13.3 with ||w_j(0)|| = eps = e^2 (violates (28) and eps_L3 ~ 0.173): the V+ neuron "
              "still activates x2 (sheet: cos(u+, x2) = 0.196 at t = 10, 0.120 at t = 1e5)",
    check=PART1_AT_HORIZON,
    over=st.just(p3_scenario()),
    horizon="t1",
    expected=Verdict.REFUTED,
    assumptions=("Assumptions 1, 2", "eps = e^2 (drops (28))"),
)


def p6_scenario() -> Scenario:
    """P6: x1 = (1, 0), x2 = (0, 1), both +1 (mu = 0); one V+ neuron at angle -0.5 rad."""
    return _scenario(d004.orthogonal_pair(), [[math.cos(-0.5), math.sin(-0.5)]], [1.0], -20.0, construction="sheet P6")


P6 = paper_claim(
    id="P6-mu-zero-moreover",
    source="sheet P6 (mu = 0, App. A.3; Theorem 1 'moreover' clause)",
    statement="PLANTED: with orthogonal data (mu = 0, t1 undefined; checked at t = 5), a V+ neuron that initially activates x1 "
              "ends in S+ -- fails: <x2, w(t)> = <x2, w(0)> < 0 for all t",
    check=PART1_AT_HORIZON,
    over=st.just(p6_scenario()),
    horizon=5.0,
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 1 (mu = 0)",),
)


def _h_data_t1(sc, a):
    """t1 with the data-only m = min(zeta1, xi) (what remains when Assumption 2's zeta2 is dropped)."""
    return audit_data(sc.dataset, papers=(SEED,)).t1


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


P7 = paper_claim(
    id="P7-assumption2",
    source="sheet P7 (Assumption 2 violated)",
    statement="PLANTED: Theorem 1 part 1 at the data-only t1 = 13.3 with a V+ neuron exactly along x- = x2: its direction is "
              "frozen in S- (purely radial flow), never in S+ or S_dead",
    check=PART1_AT_HORIZON,
    over=st.just(p7_scenario()),
    horizon=_h_data_t1,
    expected=Verdict.REFUTED,
    assumptions=("drops Assumption 2 (c_star = 1, zeta2 = 0)", "eps = e^-30"),
)

P7_NEAR = paper_claim(
    id="P7-near-control",
    source="sheet P7 near-violation negative control",
    statement="NEGATIVE CONTROL: cos(w(0), x-) = 1 - 1e-6 (zeta2 ~ 2e-6, t1 ~ 5.7e6, log10 eps_req ~ -2e7): Theorem 1 part 1 holds at t1",
    check=PART1_AT_HORIZON,
    over=st.just(p7_scenario(near=1e-6)),
    horizon="t1",
    backend="limit",
    precondition=_theorem_scale,
    assumptions=("Assumptions 1, 2 (barely)", "eps = eps_required (ln eps ~ -4.6e7): exact eps -> 0 limit engine"),
)


def p9_scenario() -> Scenario:
    """P9: n = 1, x1 = (1, 0), y1 = -1; one V+ neuron u0 = (cos 1, sin 1); eps = eps_required."""
    from verify.data.dataset import Dataset

    ds = Dataset([[1.0, 0.0]], [-1.0], name="p9_data")
    base = _scenario(ds, [[math.cos(1.0), math.sin(1.0)]], [1.0], 0.0)
    value, _ = required_log_eps(ds, base.init, "required")
    return _scenario(ds, [[math.cos(1.0), math.sin(1.0)]], [1.0], value, construction="sheet P9")


def with_dead_time(check):
    """Append the observed S_dead entry times (events of kind "dead") to the check's note (P9: t* = 0.604 in the limit)."""

    @measures(check.margin_unit)
    def wrapped(run) -> Margin:
        m = check(run)
        dead = sorted((e.j, e.t) for e in run.events if e.kind == "dead")
        extra = "; dead at " + ", ".join(f"j={j}: t={t:.6g}" for j, t in dead) if dead else "; no neuron died"
        return Margin(m.value, m.error, m.note + extra + f" (limit t* = ln tan((pi-1)/2) = {tm.p9_dead_time():.6g})", m.vacuous,
                      site=m.site)

    return wrapped


P9 = paper_claim(
    id="P9-n1-t1-printed",
    node="T1A", uses=("PATHS", "E78", "L12", "EXIST", "L1"),
    source="sheet P9 / erratum 3 (n = 1: t1 = 16 ln 1/(...) = 0)",
    statement="PAIRED (as printed) PLANTED: for n = 1, at t1 = 0 every V+ neuron is in S+ or S_dead -- fails: the neuron reaches "
              "S_dead only at t* = ln tan((pi-1)/2) = 0.604 (eps -> 0)",
    check=with_dead_time(part1_at(lambda run: 0.0)),
    over=st.just(p9_scenario()),
    horizon=lambda sc, a: a.t1_dead_path,
    expected=Verdict.REFUTED,
    assumptions=("n = 1", "eps = eps_required"),
    tags=("erratum 3", "printed"),
)

P9_CORRECTED = paper_claim(
    id="EA-E6-n1-dead-path",
    node="T1A", uses=("PATHS", "E78", "L12", "EXIST", "L1"),
    source="erratum 3 corrected (n = 1: dead-path bound 4 H_1/(m sqrt(mu) X_min))",
    statement="PAIRED (corrected): for n = 1, at t = 4 H_1/(m sqrt(mu) X_min) every V+ neuron is in S+ or S_dead (P9's neuron: dead at 0.604)",
    check=with_dead_time(part1_at(_at_horizon)),
    over=st.just(p9_scenario()),
    horizon=lambda sc, a: a.t1_dead_path,
    assumptions=("n = 1", "eps = eps_required"),
    tags=("erratum 3", "corrected"),
)


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
        rep = audit_data(ds, init.W0, init.v0, log_eps=0.0, papers=(SEED,))
        if rep.zeta2 is not None and rep.zeta2 >= 0.1:
            break
    init_seed += k
    value, why = required_log_eps(ds, init, "required")
    params = {"n_pos": n_pos, "n_neg": 0, "d": d, "mu": mu, "seed": seed, "h": h, "init_seed": init_seed}
    if value is None:
        params["eps_mode_undefined"] = why
        value = -50.0
    return Scenario(ds, Initialization(init.W0, init.v0, value, "balanced"), "exp", 0.0, {**params, "log_eps": value})


P14 = paper_claim(
    id="P14-single-class-part1",
    source="sheet P14 (n- = 0; negative control)",
    statement="NEGATIVE CONTROL: with positive points only (x- = 0, S- = S_dead), Theorem 1 part 1 holds at t1 and eps_required",
    check=PART1_AT_HORIZON,
    over=single_class(),
    horizon="t1",
    precondition=_theorem_scale,
    assumptions=("Assumption 1", "Assumption 2 (vacuous for V+)", "eps = eps_required"),
)
