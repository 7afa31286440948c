"""Seed 002's symbolic.py and appendix_e.py helpers: the loss constants of sheet 1.3 / 2.4 (s* = W_0(1/e),
f'(0) = 1/(2 log 2)), the decision helpers, the QP (8) feature map against quantities.par_rows, and the exact /
float helpers of the Appendix E, sheet 2.8 and Appendix K checks. Catalogue verdicts are searched in
properties/test_catalogue.py, not here."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from verify.symbolic.result import Claim as Texts
from verify.verdicts import Verdict

from properties.sarussi2021_linear_teachers import appendix_e as E
from properties.sarussi2021_linear_teachers import appendix_k as K
from properties.sarussi2021_linear_teachers import datasets as D
from properties.sarussi2021_linear_teachers import derived as DV
from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers import symbolic as S
from properties.sarussi2021_linear_teachers.quantities import S_STAR, par_rows
from properties.sarussi2021_linear_teachers.exact_network import ExactNet

TEXTS = Texts("T", "test statement", "test domain", "test")
SHEET_S_STAR = "0.2784645427610738"  # sheet 1.3 l4 (W_0(1/e))
SHEET_F_PRIME_0 = "0.72135"  # sheet 2.4 (1/(2 log 2))


def test_s_star_is_w0_of_inverse_e_and_the_max_of_c_z():
    with mpmath.workdps(40):
        w = mpmath.lambertw(1 / mpmath.e).real
        assert abs(w - mpmath.mpf(SHEET_S_STAR)) < mpmath.mpf("1e-16")
        assert abs(w * mpmath.exp(w + 1) - 1) < mpmath.mpf("1e-35")  # the defining equation used by LT-L4
        lo, hi = S.W0_BRACKET
        assert mpmath.mpf(lo.p) / lo.q < w < mpmath.mpf(hi.p) / hi.q
        cz = lambda z: z / (1 + mpmath.exp(z))  # noqa: E731
        z0 = 1 + w
        assert abs(cz(z0) - w) < mpmath.mpf("1e-35")
        assert cz(z0 - mpmath.mpf("1e-3")) < w and cz(z0 + mpmath.mpf("1e-3")) < w
    assert float(S.W0_BRACKET[0]) <= S_STAR <= float(S.W0_BRACKET[1])


def test_f_prime_at_zero_is_one_over_two_log_two():
    exact = S.lyu_li_f_prime(sp.Integer(0))
    assert sp.simplify(exact - 1 / (2 * sp.log(2))) == 0
    assert abs(float(exact) - float(SHEET_F_PRIME_0)) < 5e-6
    with mpmath.workdps(30):
        assert abs(mpmath.mpf(sp.N(exact, 30)) - 1 / (2 * mpmath.log(2))) < mpmath.mpf("1e-28")


def test_f_prime_formula_matches_a_numeric_derivative():
    q = sp.Symbol("q", real=True)
    f, fp = (sp.lambdify(q, e, "mpmath") for e in (S.lyu_li_f(q), S.lyu_li_f_prime(q)))
    with mpmath.workdps(30):
        for at in (-3, 0, 0.5, 4):
            assert abs(mpmath.diff(f, mpmath.mpf(at)) - fp(mpmath.mpf(at))) < mpmath.mpf("1e-20")


def test_sheet_slope_reference_fails_near_zero():
    """Sheet 2.4 [NUM] says d/dq [q f'(q)] >= 0.75 on (0, 50]; near 0 it is ~ f'(0) = 0.7213 (LT-EB3-slope-sheet)."""
    fp = lambda t: 1 / ((1 + mpmath.exp(t)) * mpmath.log(1 + mpmath.exp(-t)))  # noqa: E731
    with mpmath.workdps(30):
        slope = mpmath.diff(lambda t: t * fp(t), mpmath.mpf("0.01"))
        assert 1 / (2 * mpmath.log(2)) < slope < mpmath.mpf("0.75")


def test_first_violation_and_from_zero():
    z = sp.Symbol("z", real=True)
    out = S.first_violation(TEXTS, sp.Rational(27, 100) - z / (1 + sp.exp(z)), [{z: sp.Rational(5, 4)}])
    assert out is not None and out.verdict is Verdict.REFUTED
    assert S.first_violation(TEXTS, S_STAR_EXPR - z / (1 + sp.exp(z)), [{z: sp.Rational(5, 4)}]) is None
    assert S.from_zero(TEXTS, S.U - sp.log(1 + S.U)).verdict is Verdict.PROVED
    assert S.from_zero(TEXTS, sp.log(1 + S.U) - S.U).verdict is Verdict.UNKNOWN


S_STAR_EXPR = sp.Rational("0.2784645427610739")  # just above W_0(1/e): c(z) z <= it everywhere


def test_reparametrisation_and_loss_formulas():
    assert sp.simplify(S.in_t(S.weight(S.Z)) - 1 / (1 + S.T)) == 0
    assert sp.simplify(S.in_t(S.loss(S.Z), sign=-1) - sp.log(1 + S.T)) == 0
    z = np.linspace(-30.0, 30.0, 121)
    weight, loss = (sp.lambdify(S.Z, e, "mpmath") for e in (S.weight(S.Z), S.loss(S.Z)))
    with mpmath.workdps(30):
        assert np.allclose(N.point_weight(z), [float(weight(mpmath.mpf(v))) for v in z], rtol=0, atol=1e-15)
        assert np.allclose(N.point_loss(z), [float(loss(mpmath.mpf(v))) for v in z], rtol=1e-13, atol=0)


def test_leaky_and_feature_map_against_the_numeric_modules():
    z = np.array([-2.0, -0.5, 0.0, 0.5, 2.0])
    for alpha in (0.01, 0.2, 0.99):
        assert np.array_equal(N.leaky(z, alpha), [float(S.leaky(sp.Float(v), sp.Float(alpha))) for v in z])
        assert np.allclose(N.leaky(z, alpha) - N.leaky(-z, alpha), (1 + alpha) * z, rtol=0, atol=1e-15)
    rng = np.random.default_rng(0)
    X, y, alpha = rng.standard_normal((6, 3)), np.array([1.0, -1.0, 1.0, 1.0, -1.0, -1.0]), 0.3
    phi = np.array([np.r_[x, -alpha * x] if t > 0 else np.r_[alpha * x, -x] for x, t in zip(X, y)])
    assert np.allclose(par_rows(X, y, alpha), y[:, None] * phi)  # QP (8)'s rows are y phi(x, y)
    kernel = (X @ X.T) * ((1 + alpha) ** 2 + (1 - alpha) ** 2 * np.outer(y, y)) / 2
    assert np.allclose(phi @ phi.T, kernel)


def test_euler_sum_at_a_kink_for_every_selection():
    half = Fraction(1, 2)
    net = ExactNet(((Fraction(1), Fraction(-1)),), ((Fraction(2), Fraction(1)),), Fraction(1, 5))
    x = (Fraction(1), Fraction(1))  # <w, x> = 0 (the kink), <u, x> = 3
    assert net.output(x) == -3
    for at_zero in (net.alpha, half, Fraction(1)):
        assert E.euler_sum(net, x, at_zero) == net.output(x)


def test_homogeneity_fails_for_negative_scale_by_the_abs_formula():
    net = ExactNet(((Fraction(2),),), ((Fraction(-1),),), Fraction(1, 5))
    x, c = (Fraction(1),), Fraction(-3)
    scaled = ExactNet(((c * 2,),), ((-c,),), net.alpha).output(x)
    assert scaled - c * net.output(x) == abs(c) * (1 - net.alpha) * (2 - 1)
    assert E.homogeneity_margin(E.ExactCase(net, x, c)).value < 0
    assert E.homogeneity_margin(E.ExactCase(net, x, -c)).value > 0


def test_lipschitz_ratio_is_one_on_aligned_pairs():
    k, x = 3, np.array([0.6, -0.8])
    unit, t = x, 0.25
    W = np.tile(3.0 * unit, (2 * k, 1))
    step = np.vstack([np.tile(t * unit, (k, 1)), np.tile(-t * unit, (k, 1))])
    tight = E.lipschitz_margin(E.PairCase(W, W + step, x, 0.2, "sqrt(2k)", "aligned"))
    assert abs(tight.ratio - 1.0) < 1e-12 and tight.value >= -tight.error
    loose = E.lipschitz_margin(E.PairCase(W, W + step, x, 0.2, "1", "aligned"))
    assert abs(loose.ratio - math.sqrt(2 * k)) < 1e-12


def test_first_sign_change():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    W = np.array([[1.0, 1.0], [2.0, -1.0]])
    D = np.array([[-1.0, 0.0], [-1.0, -1.0]])
    assert DV.first_sign_change(W, D, X) == pytest.approx(1.0)  # <w_1 + t d_1, e_1> = 1 - t
    assert math.isinf(DV.first_sign_change(W, -D, np.array([[1.0, 0.0]])))


def test_smoothed_margin_gap_is_zero_for_one_point_and_positive_for_two():
    X, y = np.array([[0.5, 0.0], [0.0, 0.5]]), np.array([1.0, 1.0])
    W = np.array([[10.0, 10.0], [-1.0, -1.0]])
    one = DV.smoothed_margin_gap(DV.StateCase(X[:1], y[:1], W, 0.2, "<="))
    assert abs(one.value) <= 1e-14 and abs(one.ratio - 1.0) < 1e-12
    two = DV.smoothed_margin_gap(DV.StateCase(X, y, W, 0.2, "<="))
    assert two.value > 0.0 and two.ratio < 1.0
    assert DV.smoothed_margin_gap(DV.StateCase(X, y, 1e-3 * W, 0.2, "<=")).vacuous  # n L_S >= log 2


def test_margin_bound_maximiser_ratio():
    for alpha in (0.2, 0.99):
        X, y, k = np.array([[0.0, 1.0]]), np.array([1.0]), 2
        W = np.vstack([np.tile([0.0, 1.0], (k, 1)), np.tile([0.0, -alpha], (k, 1))])
        out = DV.margin_bound_margin(DV.BoundCase(X, y, W, alpha, "sqrt(2k)"))
        assert out.ratio == pytest.approx(math.sqrt((1 + alpha ** 2) / 2))
        assert DV.margin_bound_margin(DV.BoundCase(X, y, W, alpha, "1")).value < 0


def test_augmentation_norm_separability_and_asymmetry():
    p13 = D.affine_only()
    raw, aug = K.AugmentCase(p13.X, p13.y, None), K.AugmentCase(p13.X, p13.y, 1 / math.sqrt(2))
    assert np.array_equal(K.augmented(raw), p13.X)
    assert np.allclose(K.augmented(aug), D.bias_augmented(p13).X)
    assert K.separable_margin(raw).value < 0 and "both signs" in K.separable_margin(raw).note
    assert K.separable_margin(aug).value > 0
    sym = D.symmetric_teacher(3, 2, 0.2, seed=1)
    assert K.asymmetry_margin(K.AugmentCase(sym.X, sym.y, None)).value < 0
    assert K.asymmetry_margin(K.AugmentCase(sym.X, sym.y, 1 / math.sqrt(2))).value >= math.sqrt(2) - 1e-9
    assert K.augmented_norm_margin(K.AugmentCase(sym.X, sym.y, 1 / math.sqrt(2))).value >= 0
    assert K.augmented_norm_margin(K.AugmentCase(sym.X, sym.y, 1.0)).value < 0
