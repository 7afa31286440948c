"""Seed 003's sympy helpers (properties/lyu2021_margin/symbolic.py): the symbolic phi, networks, G, M_mu~, pi_b and the
witness points of the printed / planted readings, checked against the package's float64 implementations (network.py,
quantities.py) and numpy at exact rational points. The claims themselves run once in the catalogue test.

Tolerances: the float64 side sums at most a dozen O(1) terms, so its error is a few units of 2^-53 ~ 1.1e-16 times
the magnitude (IEEE 754 round-to-nearest); 1e-12 absolute leaves a wide margin. Exact comparisons are exact."""

from __future__ import annotations

import random

import numpy as np
import pytest
import sympy as sp

from properties.lyu2021_margin import network as N
from properties.lyu2021_margin import quantities as Q
from properties.lyu2021_margin import symbolic as S
from properties.lyu2021_margin.blueprint import NODES
from verify.symbolic import recheck_witness
from verify.symbolic.result import Claim as Texts
from verify.verdicts import Verdict

TOL = 1e-12


def rational(rng: random.Random) -> sp.Rational:
    return sp.Rational(rng.randint(-9, 9), rng.randint(1, 5))


def rvec(rng: random.Random, d: int) -> sp.Matrix:
    return sp.Matrix([rational(rng) for _ in range(d)])


def as_np(v: sp.Matrix) -> np.ndarray:
    return np.array([float(c) for c in v])


TEXTS = Texts("T", "test statement", "test domain", "test")


@pytest.mark.parametrize("alpha", [sp.Rational(1, 10), sp.Rational(1, 2), sp.Rational(9, 10)])
def test_phi_forms_agree_with_max_and_with_numpy(alpha):
    rng = random.Random(0)
    for z in [sp.Integer(0)] + [rational(rng) for _ in range(20)]:
        exact = S.phi(z, alpha)
        assert exact == sp.Max(z, alpha * z) == S.phi_abs(z, alpha)
        assert float(exact) == pytest.approx(float(N.phi(float(z), float(alpha))), abs=TOL)
    kappa = sp.Symbol("kappa")
    assert [S.phi_prime(z, kappa, alpha) for z in (sp.Integer(2), sp.Integer(-2), sp.Integer(0))] == [1, alpha, kappa]
    assert [S.phi_abs_prime(z, alpha) for z in (sp.Integer(2), sp.Integer(-2), sp.Integer(0))] == \
        [1, alpha, (1 + alpha) / 2]


def test_net_and_gradient_match_numpy_and_sympy_diff():
    alpha, m, d, rng = sp.Rational(1, 2), 3, 2, random.Random(3)
    a, W, x = [rational(rng) for _ in range(m)], [rvec(rng, d) for _ in range(m)], rvec(rng, d)
    f = S.net(a, W, x, alpha)
    f_np = N.outputs(as_np(x)[None, :], np.array([as_np(w) for w in W]), np.array([float(c) for c in a]), 0.5)[0]
    assert float(f) == pytest.approx(f_np, abs=TOL)
    syms = [sp.Symbol(f"p{j}", real=True) for j in range(m * d + m)]
    Ws = [sp.Matrix(syms[k * d:(k + 1) * d]) for k in range(m)]
    at = dict(zip(syms, [c for w in W for c in w] + a))
    grad = [e.subs(S.ALPHA, alpha) for e in S.net_gradient(a, W, x)]
    assert all(S.dot(w, x) != 0 for w in W)  # off the kinks, where the abs-form derivative is the classical one
    assert grad == [sp.diff(S.net(syms[m * d:], Ws, x, alpha), p).subs(at) for p in syms]


def test_symmetrisation_identity_holds_numerically_at_random_points():
    """(f(x) - f(-x))/2 = ((1+alpha)/2) <sum a_k w_k, x> with the package's float network (LY-T42-sym's identity)."""
    rng = np.random.default_rng(0)
    for _ in range(20):
        W, a, x = rng.normal(size=(4, 3)), rng.normal(size=4), rng.normal(size=(1, 3))
        f_sym = (N.outputs(x, W, a, 0.5) - N.outputs(-x, W, a, 0.5))[0] / 2
        assert f_sym == pytest.approx(0.75 * float((a @ W) @ x[0]), abs=TOL)


def test_g_and_mu_agree_with_quantities_and_the_corrected_coefficient():
    alpha, rng = sp.Rational(1, 2), random.Random(4)
    X, y = S.mirror([rvec(rng, 3) for _ in range(3)])
    assert y == [1, 1, 1, -1, -1, -1] and X[3] == -X[0]
    w = rvec(rng, 3)
    X_np, y_np = np.array([as_np(x) for x in X]), np.array(y, float)
    g = S.G(w, X, y, alpha)
    assert float(g) == pytest.approx(float(Q.G(as_np(w), X_np, y_np, 0.5)[0]), abs=TOL)
    mu = S.mean_signed(X, y)
    assert np.allclose(as_np(mu), Q.mean_signed(X_np, y_np), atol=TOL)
    assert g == (1 + alpha) / 4 * S.dot(mu, w)  # exact: the corrected coefficient of erratum S-1


def test_printed_g_witness_violates_numerically():
    pt = S.WITNESS["S1-G-printed"]
    X = np.array([[1.0, 0, 0], [0, 0, 0], [0, 0, 0]])
    X, y = np.vstack([X, -X]), np.array([1.0] * 3 + [-1.0] * 3)
    w, alpha = np.array([1.0, 0, 0]), float(pt["alpha"])
    g, mu_w = Q.G(w, X, y, alpha)[0], float(Q.mean_signed(X, y) @ w)
    assert g == pytest.approx((1 + alpha) / 4 * mu_w, abs=TOL)
    assert abs(g - (1 + alpha) / 2 * mu_w) > 0.1


def test_m_matrix_spectrum_numerically_and_printed_eigenvector():
    mt = rvec(random.Random(5), 3)
    assert any(c != 0 for c in mt)
    M = np.array(S.m_matrix(mt).tolist(), dtype=float)
    n = float(np.linalg.norm(as_np(mt)))
    assert np.allclose(np.sort(np.linalg.eigvalsh(M)), [-n, 0, 0, n], atol=TOL)
    v = np.append(as_np(mt) / n, 1) / np.sqrt(2)
    assert np.allclose(M @ v, n * v, atol=TOL) and np.linalg.norm(v) == pytest.approx(1, abs=TOL)
    mt_w = np.array([float(S.WITNESS["S2-eigvec-printed"]["mt0"]), 0, 0])
    Mw = np.array(S.m_matrix(sp.Matrix([S.HALF, 0, 0])).tolist(), dtype=float)
    v_printed = np.append(mt_w, 1) / np.sqrt(2)
    assert np.linalg.norm(v_printed) ** 2 == pytest.approx(5 / 8, abs=TOL)
    assert np.linalg.norm(Mw @ v_printed - 0.5 * v_printed) > 0.1


def test_limit_direction_norms_and_t55_witness():
    wstar = S.unit(sp.Matrix([S.WITNESS["S3-T55-printed"][f"v{j}"] for j in range(3)]))
    assert wstar == sp.Matrix([1, 2, 2]) / 3
    assert sp.sqrt(S.dot(S.limit_direction(wstar, S.HALF), S.limit_direction(wstar, S.HALF))) == 1
    assert np.linalg.norm(as_np(S.limit_direction(wstar, sp.Rational(1, 4)))) == pytest.approx(0.5, abs=TOL)
    # f of the corrected limit on the package's float network: ((1+alpha)/4) <w*, x>
    W, a, x = np.array([as_np(wstar) / 2, -as_np(wstar) / 2]), np.array([0.5, -0.5]), np.array([[0.3, -1.2, 0.7]])
    assert N.outputs(x, W, a, 0.5)[0] == pytest.approx(0.375 * float(as_np(wstar) @ x[0]), abs=TOL)


def test_embedding_matches_numpy_and_fails_with_a_negative_scale():
    b = [sp.Integer(2), sp.Integer(1), sp.Integer(-3), sp.Rational(-1, 2)]
    rng = random.Random(6)
    w1, w2, a1, a2 = rvec(rng, 2), rvec(rng, 2), sp.Rational(3, 2), sp.Rational(-2, 3)
    a, W = S.embed(b, w1, w2, a1, a2)
    X = np.random.default_rng(1).normal(size=(8, 2))
    f4 = N.outputs(X, np.array([as_np(w) for w in W]), np.array([float(c) for c in a]), 0.5)
    f2 = N.outputs(X, np.array([as_np(w1), as_np(w2)]), np.array([float(a1), float(a2)]), 0.5)
    assert np.allclose(f4, f2, atol=TOL)
    assert N.norm_sq(np.array([as_np(w) for w in W]), np.array([float(c) for c in a])) == \
        pytest.approx(N.norm_sq(np.array([as_np(w1), as_np(w2)]), np.array([float(a1), float(a2)])), abs=TOL)
    a_bad, W_bad = S.embed([b[0], -b[1], b[2], b[3]], w1, w2, a1, a2, groups=(1, 1, 2, 2))
    f_bad = N.outputs(X, np.array([as_np(w) for w in W_bad]), np.array([float(c) for c in a_bad]), 0.5)
    assert np.max(np.abs(f_bad - f2)) > 1e-3


def test_planted_witnesses_violate_numerically():
    alpha = float(S.WITNESS["LY-I3-negative-c"]["alpha"])
    assert N.phi(-1.0, alpha) != -1.0 * N.phi(1.0, alpha)  # phi(c z) vs c phi(z) at c = -1, z = 1
    # bias: -2 a dL/da + 2 w.dL/dw = -(2a/n) g y s beta at the witness (a = g = y = s = beta = 1, n = 3)
    x0 = np.zeros(3)
    a, beta, w = 1.0, 1.0, np.zeros(3)
    dl_da, dl_dw = (w @ x0 + beta) / 3, a * x0 / 3
    assert -2 * a * dl_da + 2 * w @ dl_dw == pytest.approx(-2 / 3, abs=TOL)
    # non-mirrored partner -x + delta = 0: (f(x) - f(0))/2 = 1/2 versus ((1+alpha)/2) <v, x> = 3/4
    W, av, x = np.array([[1.0, 0, 0]]), np.array([1.0]), np.array([[1.0, 0, 0]])
    assert (N.outputs(x, W, av, 0.5) - N.outputs(0 * x, W, av, 0.5))[0] / 2 == pytest.approx(0.5, abs=TOL)


def test_decide_uses_the_candidate_then_falls_back_to_a_proof():
    z = sp.Symbol("z", real=True)
    out = S.decide(TEXTS, [2 * z], [z], candidate={"z": 1})
    assert out.verdict is Verdict.REFUTED and recheck_witness(out.witness)[0]
    assert S.decide(TEXTS, [(z + 1)**2], [z**2 + 2 * z + 1], candidate={"z": 1}).verdict is Verdict.PROVED
    with pytest.raises(ValueError):
        S.decide(TEXTS, [S.ALPHA * z], [z], candidate={"z": 1})  # alpha > 0 left at 0


def test_all_of_keeps_the_first_failure():
    z = sp.Symbol("z", real=True)
    ok, bad = S.decide(TEXTS, [z], [z]), S.decide(TEXTS, [z], [z + 1])
    assert S.all_of(TEXTS, [ok, ok]).verdict is Verdict.PROVED
    assert S.all_of(TEXTS, [ok, bad, ok]) is bad


def test_catalogue_wiring():
    keys = {n.key for n in NODES}
    claims = {c.id: c for c in S.CLAIMS_SYMBOLIC}
    assert all(c.node in keys and set(c.uses) <= keys and c.source.startswith("003 ") for c in claims.values())
    for printed, corrected in (("S1-G-printed", "LY-EQ23-G"), ("S2-eigvec-printed", "LY-EIG"),
                               ("S3-T55-printed", "LY-T55-limit")):
        assert "erratum" in claims[printed].tags and claims[printed].expected is Verdict.REFUTED
        assert claims[printed].check is claims[corrected].check  # the printed reading is its family's teeth
    assert all(("planted" in c.tags) == c.id.startswith("LY-") for c in claims.values()
               if c.expected is Verdict.REFUTED)
    assert set(S.WITNESS) <= set(claims)
