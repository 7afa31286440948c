"""Seed 003's late phase (properties/lyu2021_margin/late_phase.py, theorem43.py, kkt_directions.py, theorem55.py,
theorem56.py): the scenario builders meet the theorems' hypotheses by construction, the certificates' derived bounds
hold (one sign: gamma <= (alpha/2) gamma_lin and N >= ((1 - alpha)/2) ||odd part||), the directions have the sheet's
reference margins (sheet 3.3, D-SYM), and the readers (envelope, gate, one_sign, beyond) decide the cases they are
written for. Catalogue claims are not re-run here.

Tolerances: margins and norms are sums of at most n d m products of O(1) numbers, so 1e-12 relative covers their
rounding (IEEE 754 double, unit roundoff 2^-53 ~ 1.1e-16, times n d m <= 360, with slack); the sheet's reference values
are printed to 10 decimals, hence 1e-10 absolute.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from verify.claims.model import Margin
from verify.claims.run import execute
from verify.data.dataset import Dataset
from verify.margins import max_margin

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import kkt_directions as KD
from properties.lyu2021_margin import late_phase as LP
from properties.lyu2021_margin import network as N
from properties.lyu2021_margin import quantities as Q
from properties.lyu2021_margin import theorem43 as T43
from properties.lyu2021_margin import theorem55 as T
from properties.lyu2021_margin import theorem56 as T56

ALPHA = 0.5
GLOBAL_DSYM = 0.0672083746  # sheet 3.3: ((1+alpha)/4) gamma_lin on D-SYM
SINGLE_DSYM = 0.0448055831  # sheet 3.3: (alpha/2) gamma_lin on D-SYM
DATA = [D.d_sym(), D.d_s(), D.random_symmetric(4, 2, seed=3), D.random_symmetric(3, 3, seed=8)]
SYMMETRIC = [D.d_sym(), D.random_symmetric(4, 2, seed=3), D.random_symmetric(5, 3, seed=11)]


def w_star(ds: Dataset) -> np.ndarray:
    return np.asarray(max_margin(ds).svm.direction, float)


@dataclass(eq=False)
class FakeRun:
    """What :func:`late_phase.read` reads from a run: samples, the initial state, the dataset, rtol."""

    times: np.ndarray
    W: np.ndarray
    v: np.ndarray
    dataset: Dataset
    trajectory: Any = None
    params: dict = field(default_factory=lambda: {"rtol": 1e-10})

    @property
    def W0(self) -> np.ndarray:
        return self.W[0]

    @property
    def v0(self) -> np.ndarray:
        return self.v[0]

    @property
    def X(self) -> np.ndarray:
        return self.dataset.X

    @property
    def y(self) -> np.ndarray:
        return self.dataset.y


K = LP.SAMPLES + 1  # the claims' log times and t = 0


def fake_run(W: np.ndarray, a: np.ndarray, ds: Dataset | None = None) -> FakeRun:
    """A run holding the given (K, m, d) and (K, m) samples at t = 0 and the claims' log times."""
    t = np.r_[0.0, np.geomspace(1e-3, LP.HORIZON, LP.SAMPLES)]
    return FakeRun(t, W, a, ds or D.d_sym())


# ---------------------------------------------------------------------------------------------- scenario builders


@pytest.mark.parametrize("ds", DATA, ids=lambda ds: ds.name)
@pytest.mark.parametrize("m", [0, 1, 4])
def test_separating_scenario_starts_below_ln2(ds: Dataset, m: int) -> None:
    """C-T3.1's start: q_min > 0 and n L(theta0) <= (ln 2)/2 < ln 2 by the construction's closed form."""
    sc = LP.separating_scenario(ds, m, seed=5)
    W, a = sc.init.W, sc.init.v
    assert W.shape == (m + 2, ds.d)
    assert np.min(N.margins(ds.X, ds.y, W, a, ALPHA)) > 0.0
    assert ds.n * N.mean_loss(ds.X, ds.y, W, a, ALPHA) <= 0.5 * math.log(2.0) * (1 + 1e-12)


@pytest.mark.parametrize("ds", SYMMETRIC, ids=lambda ds: ds.name)
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_bad_draw_is_in_the_bad_event(ds: Dataset, sign: float) -> None:
    """Fixture 3: every b-bar_k has the chosen sign, so b-bar is never a good embedding vector."""
    mu = Q.mean_signed(ds.X, ds.y)
    mu_hat = mu / np.linalg.norm(mu)
    for seed in range(5):
        draw = LP.bad_draw(Q.d_init(4, ds.d, seed), mu_hat, sign)
        b = Q.embedding_vector(draw, mu_hat)
        assert np.all(sign * b > 0.0) and not Q.good_embedding(b)


def test_fixed_draws_events() -> None:
    """The planted runs: the S-8 list is in the bad event, the good-event control list in the good one."""
    for scenarios, good in ((LP.fixed_draws(((4, 2, 0, 3), (4, 3, 2, 3), (5, 2, 4, 2)), bad=True), False),
                            (LP.fixed_draws(((3, 2, 0, 2), (5, 3, 5, 2))), True)):
        for sc in scenarios:
            mu = Q.mean_signed(sc.dataset.X, sc.dataset.y)
            b = Q.embedding_vector(Q.Draw(sc.init.W0, sc.init.v0, "D_init", 0), mu / np.linalg.norm(mu))
            assert Q.good_embedding(b) is good


@pytest.mark.parametrize("ds", SYMMETRIC + [D.d_s()], ids=lambda ds: ds.name)
@pytest.mark.parametrize("scale", T.SCALES)
def test_two_neuron_scenario_meets_theorem_55(ds: Dataset, scale: float) -> None:
    """T5.5's hypotheses: a1 = ||w1||, a2 = -||w2||, <w1, w*> > 0 > <w2, w*>, ||theta0|| = scale."""
    for seed in range(4):
        sc = T.two_neuron_scenario(ds, scale, seed)
        W, a = sc.init.W, sc.init.v
        assert sc.init.balanced and a[0] > 0.0 > a[1]
        ws = w_star(ds)
        assert W[0] @ ws > 0.0 > W[1] @ ws
        assert math.sqrt(N.norm_sq(W, a)) == pytest.approx(scale, rel=1e-12)


@pytest.mark.parametrize("seed", [22, 31, 80])
def test_unbalanced_scenario(seed: int) -> None:
    """The planted start keeps T5.5's sign conditions, drops balance, and has <w1, mu> < 0 (so a1 is pushed to 0)."""
    ds = D.random_symmetric(3 + seed % 3, 2 + seed % 2, seed=seed)
    sc = T.unbalanced_scenario(ds)
    W, a = sc.init.W0, sc.init.v0
    ws, mu = w_star(ds), Q.mean_signed(ds.X, ds.y)
    assert a[0] > 0.0 > a[1] and W[0] @ ws > 0.0 > W[1] @ ws
    assert not sc.init.balanced and W[0] @ mu < 0.0


# ---------------------------------------------------------------------------------------------- directions


@pytest.mark.parametrize("m", [2, 3, 5])
def test_embedded_optimum_on_d_sym(m: int) -> None:
    """pi_b((1/2)(w*, -w*, 1, -1)) is a unit vector with margin ((1+alpha)/4) gamma_lin (sheet 3.3), linear (N = 0)
    with odd part w*/2; its neurons follow sign(b_k) along w*. N's closed form has an O(sqrt(u)) floor: sqrt(1 - rho^2)
    at |rho| = 1 - O(u) is ~1.5e-8 (3e-10 measured here), hence 1e-7."""
    ds = D.d_sym()
    W, a = T56.anchor(ds, m, seed=4, target="optimum")
    assert N.norm_sq(W, a) == pytest.approx(1.0, rel=1e-12)
    assert N.normalised_margin(ds.X, ds.y, W, a, ALPHA) == pytest.approx(GLOBAL_DSYM, abs=1e-10)
    assert N.even_part_index(W, a, ALPHA) == pytest.approx(0.0, abs=1e-7)
    np.testing.assert_allclose(N.odd_part(W, a), w_star(ds) / 2.0, atol=1e-12)
    signs = np.where(np.arange(m) % 2 == 0, 1.0, -1.0)
    np.testing.assert_array_equal(np.sign(a), signs)
    np.testing.assert_array_equal(np.sign(W @ w_star(ds)), signs)


@pytest.mark.parametrize("ds", SYMMETRIC, ids=lambda ds: ds.name)
@pytest.mark.parametrize("m", [1, 2, 4])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_suboptimal_direction_is_kkt(ds: Dataset, m: int, sign: float) -> None:
    """C-KKTsub: unit, KKT residual and slack ~ 0, margin (alpha/2) gamma_lin, even part (1 - alpha)/4."""
    W, a = KD.suboptimal_direction(w_star(ds), m, seed=7, sign=sign)
    gamma_lin = max_margin(ds).gamma_lin
    assert N.norm_sq(W, a) == pytest.approx(1.0, rel=1e-12)
    eps, delta = N.kkt_residual(ds.X, ds.y, W, a, ALPHA, active_tol=1e-9)
    assert eps <= 1e-12 and abs(delta) <= 1e-12
    assert N.normalised_margin(ds.X, ds.y, W, a, ALPHA) == pytest.approx(0.5 * ALPHA * gamma_lin, rel=1e-12)
    assert N.even_part_index(W, a, ALPHA) == pytest.approx((1 - ALPHA) / 4, rel=1e-12)


def test_suboptimal_direction_reference_margin() -> None:
    """Sheet 3.3: (alpha/2) gamma_lin = 0.0448055831 on D-SYM."""
    ds = D.d_sym()
    W, a = KD.suboptimal_direction(w_star(ds), 3, seed=1)
    assert N.normalised_margin(ds.X, ds.y, W, a, ALPHA) == pytest.approx(SINGLE_DSYM, abs=1e-10)


def test_suboptimal_direction_not_kkt_on_d_s() -> None:
    """The planted S10-KKTsub-DS: on the non-symmetric D-S the same direction has a KKT residual far from 0."""
    ds = D.d_s()
    W, a = KD.suboptimal_direction(w_star(ds), 2, seed=0)
    assert N.kkt_residual(ds.X, ds.y, W, a, ALPHA, active_tol=1e-9)[0] > 1e-2


@pytest.mark.parametrize("eps", T56.EPSILONS)
@pytest.mark.parametrize("rho", T56.RHOS)
def test_perturbed_scenario(eps: float, rho: float) -> None:
    """T5.6's start: ||theta0|| = rho and ||theta0/rho - theta-bar*|| <= eps (a perturbation of size eps, then
    renormalised: the chord is at most eps)."""
    ds = D.random_symmetric(4, 3, seed=2)
    for target in ("optimum", "kkt"):
        sc = T56.perturbed_scenario(ds, 3, eps, rho, seed=6, target=target)
        W, a = sc.init.W, sc.init.v
        assert math.sqrt(N.norm_sq(W, a)) == pytest.approx(rho, rel=1e-12)
        assert T.direction_distance(W, a, T56.anchor(ds, 3, 6, target)) <= eps * (1 + 1e-12)


def test_kkt_anchor_has_a_zero_neuron_and_the_perturbation_the_other_sign() -> None:
    ds = D.random_symmetric(4, 2, seed=22)
    W, a = T56.anchor(ds, 2, 22, "kkt")
    assert np.all(W[-1] == 0.0) and a[-1] == 0.0 and a[0] > 0.0
    sc = T56.perturbed_scenario(ds, 2, 0.1, 1.0, 22, "kkt")
    assert sc.init.v0[-1] < 0.0 and sc.init.W0[-1] @ w_star(ds) < 0.0


# ---------------------------------------------------------------------------------------------- one-sign certificate


@pytest.mark.parametrize("ds", SYMMETRIC, ids=lambda ds: ds.name)
def test_single_signed_nets_are_bounded(ds: Dataset) -> None:
    """The derived one-sign bounds of late_phase's docstring on seeded random nets (all a_k > 0 or all < 0):
    gamma <= (alpha/2) gamma_lin and N >= ((1 - alpha)/2) ||sum a_k w_k|| / ||theta||^2."""
    rng = np.random.default_rng(0)
    gamma_lin = max_margin(ds).gamma_lin
    for _ in range(200):
        m = int(rng.integers(1, 6))
        W = rng.standard_normal((m, ds.d))
        a = rng.choice([-1.0, 1.0]) * np.abs(rng.standard_normal(m))
        assert N.normalised_margin(ds.X, ds.y, W, a, ALPHA) <= 0.5 * ALPHA * gamma_lin * (1 + 1e-12)
        bound = 0.5 * (1 - ALPHA) * np.linalg.norm(N.odd_part(W, a))
        assert N.even_part_index(W, a, ALPHA) >= bound * (1 - 1e-12)


def test_one_sign_reader() -> None:
    """one_sign: m = 1 always; all a_k of one sign with ||w_k||^2 >> |c_k| yes; not clear of c_k, or both signs, no."""
    ds = D.d_sym()
    grow = np.geomspace(1e-3, 10.0, K)[:, None]
    assert LP.one_sign(LP.read(fake_run(np.ones((K, 1, 3)), -np.ones((K, 1)), ds))) is not None
    W = grow[:, :, None] * np.ones((K, 3, 3))
    assert LP.one_sign(LP.read(fake_run(W, math.sqrt(3.0) * grow * np.ones((K, 3)), ds))) is not None
    assert LP.one_sign(LP.read(fake_run(W, 20.0 * np.ones((K, 3)), ds))) is None  # ||w||^2 < 100 |c|
    mixed = math.sqrt(3.0) * grow * np.array([1.0, -1.0, 1.0])
    assert LP.one_sign(LP.read(fake_run(W, mixed, ds))) is None


# ---------------------------------------------------------------------------------------------- readers


def test_window_and_envelope() -> None:
    """The window's halves are [1e4, 1e8] and (1e8, 1e12] (both decades hit exactly); envelope's value and ratio."""
    ds = D.d_sym()
    lt = LP.read(fake_run(np.ones((K, 2, 3)), np.ones((K, 2)), ds))
    assert lt.t[lt.early][0] == pytest.approx(1e4, rel=1e-12) and lt.t[lt.early][-1] == pytest.approx(1e8, rel=1e-12)
    assert lt.t[lt.late][-1] == pytest.approx(1e12, rel=1e-12) and not np.any(lt.early & lt.late)
    E = np.where(lt.t <= 1e8, 2.0, 1.0)
    m = LP.envelope(E, lt, 0.0, "E")
    assert (m.value, m.ratio) == (1.0, 0.5)
    rising = LP.envelope(lt.t, lt, 0.0, "t")
    assert rising.value < 0.0
    flat = LP.envelope(np.full(K, 1e-20), lt, 1e-9, "tiny")
    assert flat.value == 0.0 and flat.ratio is None


def test_gate_flags_drift() -> None:
    """The integrator gate: a conserved a^2 - ||w||^2 passes, a drifting one is inconclusive (error inf)."""
    ds = D.d_sym()
    grow = np.geomspace(1.0, 10.0, K)
    W = np.zeros((K, 2, 3))
    W[:, :, 0] = grow[:, None]
    assert LP.gate(fake_run(W, grow[:, None] * np.array([1.0, -1.0]), ds)) is None
    drifted = LP.gate(fake_run(W, 1.1 * grow[:, None] * np.array([1.0, -1.0]), ds))
    assert isinstance(drifted, Margin) and math.isinf(drifted.error)


def test_beyond_certificate() -> None:
    """Lyu-Li's certificate fires only below gamma~: at the scaled embedded optimum gamma~ < C gamma_lin (never above
    the global max), and a target well under gamma~ is ruled out."""
    ds = D.d_sym()
    W, a = T56.anchor(ds, 2, 0, "optimum")
    lt = LP.read(fake_run(np.repeat(10.0 * W[None], K, 0), np.repeat(10.0 * a[None], K, 0), ds))
    assert LP.beyond(lt, GLOBAL_DSYM, "C gamma_lin") is None
    smooth = N.smoothed_margin(ds.X, ds.y, 10.0 * W, 10.0 * a, ALPHA)
    out = LP.beyond(lt, 0.5 * smooth, "half")
    assert out is not None and out.value < -out.error


def test_checks_on_one_good_run() -> None:
    """One real good-event run (D-SYM, m = 3, seed 0, sigma = 1e-6; sheet 2.0's measured 0.9916 at t = 1e11): the
    gate passes, the margin rises toward 1, the run is two-signed and its linear structure shrinks."""
    from properties.lyu2021_margin import scenarios as SC

    sc = SC.draw_scenario(D.d_sym(), Q.d_init(3, 3, 0), 1e-6)
    run = execute(sc, LP.HORIZON, rtol=LP.RTOL, samples=LP.SAMPLES, spacing="log", papers=("003",))
    assert T43.good_event(run) is True and LP.gate(run) is None
    lt = LP.read(run)
    assert LP.one_sign(lt) is None
    assert 0.985 < LP.margin_ratio(lt)[-1] < 1.0
    for check in (T43.global_margin, T43.linear_structure):
        m = check(run)
        assert m.value >= -m.error and math.isfinite(m.error)


@pytest.mark.parametrize("sigma, seed", [(1e-6, 0), (1e-8, 4)])
def test_t31_loss_rise_of_one_rounding_unit_is_no_violation(sigma: float, seed: int) -> None:
    """The thorough profile's counterexamples to LY-T31-invariants (one D_init neuron on D-SYM at sigma = 1e-6, 1e-8):
    L barely moves at such a tiny theta, and the float64 mean loss rose by 1.6e-16 relative between two samples, one
    rounding unit; without the rounding of L in the error (5e-19 before) it was a confirmed violation."""
    from properties.lyu2021_margin import scenarios as SC
    from verify.search import evaluate

    ds = D.d_sym()
    ev = evaluate(LP.T31_INVARIANTS, SC.draw_scenario(ds, Q.d_init(1, ds.d, seed), sigma))
    assert ev.status == "ok" and "max relative loss increase 1.6e-16" in ev.margin.note
    assert -ev.margin.error <= ev.margin.value < 0.0  # a rise, within (n + 4) u per L
    assert ev.margin.error < 1e-14
