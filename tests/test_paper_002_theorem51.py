"""Seed 002, Theorem 5.1 / Appendix C / LT-X51 / LT-X52 / Corollary 6.1 (properties/sarussi2021_linear_teachers/
theorem51.py) and Section 5's prose (linearity.py): the exact evaluator against the float64 network, the sheet's exact
numbers (P1: N = 0 with g = 1; P2: N = +0.008 = 1/125 at alpha = 0.2 while g < 0; P14's rays), each check holding and
failing where the sheet says, and the share formula's closed forms."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings

from properties.sarussi2021_linear_teachers import linearity as L
from properties.sarussi2021_linear_teachers import appendix_c as C
from properties.sarussi2021_linear_teachers import exact_network as E
from properties.sarussi2021_linear_teachers import theorem51 as T
from properties.sarussi2021_linear_teachers.network import output
from properties.sarussi2021_linear_teachers.quantities import nonlinear_share
from verify.claims.model import held, violated

F = Fraction
ALPHA = F(1, 5)


def vec(*xs) -> E.Vec:
    return tuple(F(x) for x in xs)


def test_sigma_and_sharp_constant():
    assert E.sigma(F(3), ALPHA) == 3 and E.sigma(F(-3), ALPHA) == F(-3, 5) and E.sigma(F(-3), F(0)) == 0
    assert E.sharp(ALPHA) == F(2, 3)


def test_exact_clusters_of_a_small_net():
    net = E.ExactNet((vec(1, 0), vec(3, 0)), (vec(0, 1), vec(0, -1)), ALPHA)
    assert net.w_bar == vec(2, 0) and net.u_bar == vec(0, 0) and net.r2 == 1
    x = vec(1, 2)
    assert net.output(x) == 1 + 3 - 2 - E.sigma(F(-2), ALPHA)


@settings(max_examples=40, database=None, deadline=None)
@given(E.cluster_cases())
def test_exact_output_matches_float_network(case):
    """N_W(x) in Fractions equals network.output in float64 to rounding."""
    net = case.net
    exact = float(net.output(case.x))
    approx = float(output(net.floats(), np.array([[float(v) for v in case.x]]), float(net.alpha))[0])
    scale = sum(abs(float(E.dot(row, case.x))) for row in net.plus + net.minus) + 1.0
    assert abs(exact - approx) <= 1e-12 * scale


@settings(max_examples=40, database=None, deadline=None)
@given(E.cluster_cases())
def test_cluster_draws_have_the_designed_shape(case):
    net = case.net
    assert len(net.plus) == len(net.minus) >= 1
    assert {len(row) for row in net.plus + net.minus} == {len(case.x)}
    assert any(case.x) and 0 < net.alpha < 1


def test_p1_relu_numbers_and_checks():
    """Sheet P1: g = 1 > 0 = 2 r ||x||, N = 0 exactly; Theorem 5.1, Lemma C.2 and Corollary 6.1 fail; leaky holds."""
    case = E.P1_CASE
    geo = E.geometry(case.net, case.x)
    assert geo.g == 1 and geo.r2 == 0 and case.net.output(case.x) == 0
    for check in (T.linear_regime_margin, C.lc2_margin):
        assert violated(check(case))
    clustered = E.Case(case.net, case.x, E.TWO, "perfectly clustered")
    assert violated(T.clustered_sign_margin(clustered))
    leaky = E.Case(E.ExactNet(case.net.plus, case.net.minus, ALPHA), case.x, E.TWO, "perfectly clustered")
    assert leaky.net.output(leaky.x) == F(1, 5)  # alpha k g
    for check in (T.linear_regime_margin, C.lc2_margin, T.clustered_sign_margin):
        assert held(check(leaky))


def test_p2_tightness_numbers():
    """Sheet P2 / LT-X51: alpha = 0.2, r = 1, Delta = 0.99 (2/3) = 0.66: N = (1 - alpha) r - (1 + alpha) Delta = +1/125
    = +0.008 while g = -Delta; refuted at c = 0.98 (2/3), vacuous at the sharp constant (Delta < (2/3) r)."""
    case = E.P2_CASE
    geo = E.geometry(case.net, case.x)
    assert geo.g == F(-66, 100) and geo.r2 == 1
    assert case.net.output(case.x) == F(1, 125)
    assert violated(T.linear_regime_margin(case))
    assert T.linear_regime_margin(E.Case(case.net, case.x, E.sharp(ALPHA))).vacuous


@pytest.mark.parametrize("q", [F(1, 2), F(9, 10), F(1), F(11, 10), F(3)])
def test_x51_construction_value(q):
    """N = (1 - alpha) r - (1 + alpha) Delta for Delta = q (1 - alpha) r / (1 + alpha) <= r, -2 alpha Delta beyond r;
    zero exactly at the sharp constant."""
    r = F(3, 2)
    delta = q * E.sharp(ALPHA) * r
    net = E.axis_net(ALPHA, 1, 2, r, -delta / r, F(0), 1)
    expected = (1 - ALPHA) * r - (1 + ALPHA) * delta if delta <= r else -2 * ALPHA * delta
    assert net.output(vec(1, 0)) == expected
    assert (expected > 0) == (q < 1) and (expected == 0) == (q == 1)


def test_region_formulas():
    """Proposition C.1's four regions on perfectly clustered nets (exact equality)."""
    for w, u in ((vec(2, 0), vec(1, 0)), (vec(-2, 0), vec(-1, 0)), (vec(2, 0), vec(-1, 0)), (vec(-2, 0), vec(1, 0))):
        net = E.ExactNet((w, w), (u, u), ALPHA)
        geo = E.geometry(net, vec(1, 1))
        assert net.output(vec(1, 1)) == C.region_formula(geo, 2, ALPHA)
        assert held(C.pc1_margin(E.Case(net, vec(1, 1), E.ONE)))


def test_planted_boundary_cases_break_the_lemmas():
    """a = r ||x||, b = -r ||x||: Corollary C.1 fails for c < 2 (vacuous at c = 2); a = r ||x|| with w = w-bar +- r x^:
    Lemma C.1's weak reading holds, strict signs fail."""
    net = E.axis_net(ALPHA, 1, 2, F(1), F(1), F(-1), 0)
    assert violated(C.cc1_margin(E.Case(net, vec(1, 0), F(3, 2))))
    assert C.cc1_margin(E.Case(net, vec(1, 0), E.TWO)).vacuous
    edge = E.axis_net(ALPHA, 1, 2, F(1), F(1), F(0), 1)
    assert held(C.lc1_margin(E.Case(edge, vec(1, 0), E.ONE, "weak")))
    assert violated(C.lc1_margin(E.Case(edge, vec(1, 0), E.ONE, "weak-strict")))
    assert C.lc1_margin(E.Case(edge, vec(1, 0), E.ONE, "strict")).vacuous


def test_pc2_relu_plant():
    """w-bar = -3 r e1 (agrees), u-bar = -r/2 e1 with - neurons +-r e2: alpha = 0 gives N = 0 while g < -2 r."""
    net = E.axis_net(F(0), 1, 2, F(1), F(-3), F(-1, 2), 1)
    case = E.Case(net, vec(1, 0), E.TWO)
    assert net.output(case.x) == 0 and violated(C.pc2_margin(case))
    leaky = E.Case(E.ExactNet(net.plus, net.minus, ALPHA), vec(1, 0), E.TWO)
    assert held(C.pc2_margin(leaky))


def test_share_closed_forms():
    """d = 2: (2/pi) arcsin tau; d = 3: tau (Archimedes); tau >= 1: 1."""
    for tau in (0.1, 0.5, 0.9):
        assert nonlinear_share(tau, 2) == pytest.approx(2 / math.pi * math.asin(tau), abs=1e-12)
        assert nonlinear_share(tau, 3) == pytest.approx(tau, abs=1e-12)
    assert nonlinear_share(1.0, 4) == 1.0


def test_share_monte_carlo_and_its_plant():
    assert held(L.share_margin(L.ShareCase(0.5, 3, 7)))
    assert violated(L.share_margin(L.ShareCase(0.5, 3, 7, "tau")))


def test_cone_on_the_p2_net():
    """P2's net disagrees near x = e1 (|cos| = 1): inside the cone at the sharp constant (tau > 1), outside at half."""
    assert held(L.cone_margin(L.ConeCase(E.Case(E.P2_NET, vec(1, 0), E.sharp(ALPHA)), 0)))
    assert violated(L.cone_margin(L.ConeCase(E.Case(E.P2_NET, vec(1, 0), E.sharp(ALPHA) / 2), 0)))


def test_figures_and_output_linearity():
    """Fig. 3 / 5 (a): N = sigma(x1) - sigma(x2), N(x) + N(-x) = (1 - alpha)(|x1| - |x2|); u-bar = -w-bar: linear."""
    net = L.FIGURE3
    assert net.output(vec(1, 0)) + net.output(vec(-1, 0)) == 1 - ALPHA
    assert held(L.output_linearity_margin(L.LinearityCase(net, ())))
    assert violated(L.output_linearity_margin(L.LinearityCase(net, (), "always")))
    anti = L.clustered(vec(1, 2), vec(-1, -2), ALPHA, 3)
    assert anti.output(vec(3, -1)) == 3 * (1 + ALPHA) * 1
    assert held(L.output_linearity_margin(L.LinearityCase(anti, ((vec(1, 0), vec(0, -1)),), "iff")))


def test_figure5_relu_dead_zone():
    """Fig. 5 (b): N = 0 on the third quadrant while x1 - x2 takes both signs; Fig. 5 (a) has N = alpha (x1 - x2) there."""
    relu, leaky = L.FIGURE5["b"], L.FIGURE5["a"]
    for x in (vec(-1, -2), vec(-2, -1)):
        assert relu.output(x) == 0 and leaky.output(x) == ALPHA * (x[0] - x[1])
    assert held(L.dead_zone_margin(L.figure5("b")))
    assert violated(L.dead_zone_margin(L.figure5("a")))


def test_p14_rays_and_vacuity():
    """Sheet P14: N = 0 on (alpha, -1) and (-1, alpha), 4 r^2 = 2 >= ||w-bar||^2 = 1/2; acute c2 = (1, 1) is not vacuous;
    x = (1, -3): N = 1 - 3 alpha > 0 while g = -1 (the planted 'two clusters' reading of Corollary 6.1 fails)."""
    split = L.SHEET_SPLIT
    assert split.point(ALPHA, F(-1)) == vec(ALPHA, -1) and split.net.output(vec(ALPHA, -1)) == 0
    assert 4 * split.net.r2 == 2 and held(L.split_cluster_margin(split))
    assert violated(L.split_cluster_margin(L.SplitCase(vec(1, 0), vec(1, 1), 1, ALPHA, "any")))
    case = E.Case(split.net, vec(1, -3), E.TWO, "two clusters")
    assert split.net.output(case.x) == 1 - 3 * ALPHA and violated(T.clustered_sign_margin(case))
