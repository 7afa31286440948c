"""Encodings of the sheet-004 identities (section 6: S1, S4, S5, S6, S8, S10-S15).

Each ``check_*`` takes the :class:`Claim` texts from the registry and returns a
:class:`SymbolicResult` through :func:`prove_identity` or :func:`prove_nonneg_symbolic`.
"""

from __future__ import annotations

import sympy as sp

from verify.symbolic.identities import normal_form_zero, prove_identity
from verify.symbolic.result import Claim, SymbolicResult, holds, proved, unknown
from verify.symbolic.signs import prove_nonneg_symbolic
from verify.verdicts import Verdict

R = dict(real=True)
P = dict(positive=True)
NN = dict(nonnegative=True)


def balancedness_derivative(act_prime: sp.Expr, p: sp.Expr, v: sp.Expr, g: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """Per-summand terms of d/dt(v^2 - ||w||^2) (EA-A1, S1): ``2 v v_dot_i`` and ``2 <w, w_dot_i>``.

    With p = <x_i, w>, sigma(p) = p sigma'(p) (positive 1-homogeneity), v_dot_i = g sigma(p) and
    w_dot_i = v sigma'(p) g x_i, so <w, w_dot_i> = v sigma'(p) g p.
    """
    return 2 * v * (g * act_prime * p), 2 * (v * act_prime * g * p)


def check_s1_balancedness(claim: Claim, leaky: bool = False) -> SymbolicResult:
    """S1: d/dt (v^2 - ||w||^2) = 0 with activation indicators (ReLU, or leaky if ``leaky``)."""
    v, g, a, p, alpha = sp.symbols("v g a p alpha", **R)
    act = a + alpha * (1 - a) if leaky else a
    lhs, rhs = [], []
    two_vvdot, two_wwdot = balancedness_derivative(act, p, v, g)
    lhs.append(two_vvdot)
    rhs.append(two_wwdot)
    # homogeneity sigma(z) = z sigma'(z) for the actual activations, on z > 0, z < 0 and z = 0
    zp, zn = sp.Symbol("z", positive=True), sp.Symbol("z", negative=True)
    b = sp.Symbol("b", nonnegative=True)  # leaky slope alpha = 1 - b <= 1
    for z, ind in ((zp, 1), (zn, 0), (sp.Integer(0), 0)):
        if leaky:
            slope = 1 - b
            lhs.append(sp.Max(z, slope * z))
            rhs.append(z * (ind + slope * (1 - ind)))
        else:
            lhs.append(sp.Max(z, 0))
            rhs.append(z * ind)
    # the full vector computation for D = 3, n = 3 with indicator symbols
    xs = sp.Matrix(3, 3, lambda i, j: sp.Symbol(f"x{i}{j}", **R))
    w = sp.Matrix(3, 1, lambda i, _: sp.Symbol(f"w{i}", **R))
    ind = [sp.Symbol(f"a{i}", **R) for i in range(3)]
    gs = [sp.Symbol(f"g{i}", **R) for i in range(3)]
    acts = [ai + alpha * (1 - ai) if leaky else ai for ai in ind]
    proj = [(xs[:, i].T * w)[0] for i in range(3)]
    v_dot = sum(gs[i] * acts[i] * proj[i] for i in range(3))
    w_dot = sum((v * acts[i] * gs[i] * xs[:, i] for i in range(3)), sp.zeros(3, 1))
    lhs.append(2 * v * v_dot - 2 * (w.T * w_dot)[0])
    rhs.append(sp.Integer(0))
    note = ("component 0 is one summand i of d/dt(v^2 - ||w||^2) with p = <x_i, w>; the derivative is "
            "the sum over i of such zero summands, so it vanishes for every n and every D. Components 1-3 "
            "check sigma(z) = z sigma'(z) on z > 0, z < 0, z = 0 for the actual activation "
            f"({'max(z, alpha z), alpha = 1 - b <= 1' if leaky else 'max(z, 0)'}). Component 4 is the full "
            "D = 3, n = 3 vector computation.")
    return prove_identity(claim, lhs, rhs, note=note)


def check_s4_lemma11(claim: Claim) -> SymbolicResult:
    """S4: n(1 + mu(n-1)) - mu n^2 = n(1 - mu)."""
    n, mu = sp.symbols("n mu", **R)
    return prove_identity(claim, n * (1 + mu * (n - 1)) - mu * n ** 2, n * (1 - mu))


def check_s4_lemma11_root(claim: Claim) -> SymbolicResult:
    """S4: n(1 + mu(n-1)) >= mu n^2 for n >= 0, 0 <= mu <= 1 (so sqrt(n_a(1+mu(n_a-1))) >= sqrt(mu) n_a)."""
    n, m = sp.symbols("n m", **NN)
    mu = sp.Symbol("mu", **R)
    return prove_nonneg_symbolic(claim, n * (1 + mu * (n - 1)) - mu * n ** 2, {mu: 1 - m},
                                 note="mu = 1 - m with m = 1 - mu >= 0; sqrt is increasing on [0, oo)")


def check_s5_lemma10(claim: Claim) -> SymbolicResult:
    """S5: x_r^T (I - w w^T) x_a = ||x_a|| (psi_ra - psi_rj psi_aj) for unit w (D = 3)."""
    s, t = sp.symbols("s t", **R)
    den = 1 + s ** 2 + t ** 2
    w = sp.Matrix([(1 - s ** 2 - t ** 2) / den, 2 * s / den, 2 * t / den])  # unit (stereographic)
    xr = sp.Matrix(sp.symbols("r0:3", **R))
    xa = sp.Matrix(sp.symbols("q0:3", **R))
    norm_a = sp.sqrt((xa.T * xa)[0])
    lhs = (xr.T * (sp.eye(3) - w * w.T) * xa)[0]
    psi_rj = (xr.T * w)[0]
    psi_ra = (xr.T * xa)[0] / norm_a
    psi_aj = (xa.T * w)[0] / norm_a
    rhs = norm_a * (psi_ra - psi_rj * psi_aj)
    scal = sp.symbols("A B C", **R)
    nrm = sp.Symbol("N", **P)
    return prove_identity(
        claim, [lhs, scal[0] - scal[1] * scal[2]], [rhs, nrm * (scal[0] / nrm - scal[1] * scal[2] / nrm)],
        note="component 0: D = 3 with w = inverse stereographic image of (s, t) (every unit vector but one; "
             "the identity extends by continuity); component 1: the coordinate-free form with "
             "A = <x_r, x_a>, B = <x_r, w>, C = <w, x_a>, N = ||x_a|| > 0, valid in any dimension since "
             "x_r^T (I - w w^T) x_a = A - B C by bilinearity.")


def check_s5_lemma5_factorisation(claim: Claim, n_max: int = 6) -> SymbolicResult:
    """S5: sum_{i,j} a_i b_j N_i N_j = (sum_i a_i N_i)(sum_j b_j N_j) for n = 1..n_max (HOLDS)."""
    checked = []
    for n in range(1, n_max + 1):
        a = sp.symbols(f"a0:{n}", **NN)
        b = sp.symbols(f"b0:{n}", **NN)
        N = sp.symbols(f"N0:{n}", **P)
        lhs = sum(a[i] * b[j] * N[i] * N[j] for i in range(n) for j in range(n))
        rhs = sum(a[i] * N[i] for i in range(n)) * sum(b[j] * N[j] for j in range(n))
        method = normal_form_zero(lhs - rhs)
        if method is None:
            return unknown(claim, f"n = {n}: the difference did not expand to 0")
        checked.append({"n": n, "method": method})
    return holds(claim, {"checked_n": f"1..{n_max}", "per_n": checked},
                 f"HOLDS on n <= {n_max} (exact expansion for each n; integer-indexed, so not PROVED)")


def check_s6_direction_derivative(claim: Claim) -> SymbolicResult:
    """S6: d/dt (w/||w||) = P_w w_dot / ||w||, coordinatewise with S = ||w||^2, S' = 2 <w, w_dot>."""
    t = sp.Symbol("t", **R)
    q = sp.Symbol("q", **R)
    wk = sp.Function("w_k", real=True)(t)
    S = sp.Function("S", positive=True)(t)
    lhs = sp.diff(wk / sp.sqrt(S), t).subs(sp.Derivative(S, t), 2 * q)
    rhs = (sp.Derivative(wk, t) - wk * q / S) / sp.sqrt(S)
    return prove_identity(claim, lhs, rhs,
                          note="k-th coordinate for any dimension D: S = sum_i w_i^2, q = <w, w_dot>, "
                               "S' = 2q by the product rule; (P_w w_dot)_k = w_dot_k - w_k q / S.")


def check_s6_polar(claim: Claim) -> SymbolicResult:
    """S6 / sheet 1.11: r_dot = s <u, G>, u_dot = s P_u G, f = s e^{2r} sigma(<u, x>) (D = 3, s = +-1)."""
    w = sp.Matrix(sp.symbols("w0:3", **R))
    G = sp.Matrix(sp.symbols("G0:3", **R))
    x = sp.Matrix(sp.symbols("x0:3", **R))
    a = sp.Symbol("a", **R)  # sigma'(<w, x>) indicator; sigma(z) = a z
    norm = sp.sqrt((w.T * w)[0])
    u = w / norm
    r = sp.log(norm)
    lhs, rhs = [], []
    for s in (1, -1):
        v = s * norm
        w_dot = v * G
        lhs.append((w.T * w_dot)[0] / norm ** 2)
        rhs.append(s * (u.T * G)[0])
        u_dot = (sp.eye(3) - w * w.T / norm ** 2) * w_dot / norm
        target = s * (sp.eye(3) - u * u.T) * G
        lhs.extend(list(u_dot))
        rhs.extend(list(target))
        lhs.append(v * a * (w.T * x)[0])
        rhs.append(s * sp.exp(2 * r) * a * (u.T * x)[0])
    return prove_identity(claim, lhs, rhs,
                          note="balanced v = s ||w||, w_dot = v G, r = ln ||w||, u = w/||w||; checked for "
                               "s = +1 and s = -1 in D = 3 with sigma(z) = a z (any activation value a).")


def check_s6_closed_form_phi(claim: Claim) -> SymbolicResult:
    """S6: tan(phi/2) = tan(phi0/2) e^{-s k t} solves phi_dot = -s k sin(phi)."""
    t, k, s = sp.symbols("t k s", **R)
    T0 = sp.Symbol("T0", **P)  # T0 = tan(phi0/2), phi0 in (0, pi)
    phi = 2 * sp.atan(T0 * sp.exp(-s * k * t))
    return prove_identity(claim, [sp.diff(phi, t) + s * k * sp.sin(phi), sp.tan(phi / 2).subs(t, 0)], [0, T0],
                          note="phi0 in (0, pi) <-> T0 = tan(phi0/2) in (0, oo); phi(t) in (0, pi) for all t.")


def check_s6_closed_form_r(claim: Claim) -> SymbolicResult:
    """S6: r = r0 - ln(sin phi / sin phi0) solves r_dot = s k cos(phi) when phi_dot = -s k sin(phi)."""
    t, k, s, r0 = sp.symbols("t k s r0", **R)
    phi0 = sp.Symbol("phi0", **P)
    phi = sp.Function("phi", real=True)(t)
    r = r0 - sp.log(sp.sin(phi) / sp.sin(phi0))
    lhs = sp.diff(r, t).subs(sp.Derivative(phi, t), -s * k * sp.sin(phi))
    return prove_identity(claim, lhs, s * k * sp.cos(phi),
                          note="r_dot = s <u, x_a> = s k cos(phi) in the limit (g_i = y_i); r(0) = r0 "
                               "because the log term vanishes at phi = phi0.")


def check_s6_closed_form_u(claim: Claim) -> SymbolicResult:
    """S6: u = cos(phi) a_hat + sin(phi) e satisfies u_dot = s P_u x_a with x_a = k a_hat."""
    t, k, s = sp.symbols("t k s", **R)
    phi = sp.Function("phi", real=True)(t)
    u = sp.Matrix([sp.cos(phi), sp.sin(phi)])
    xa = sp.Matrix([k, 0])
    u_dot = sp.diff(u, t).subs(sp.Derivative(phi, t), -s * k * sp.sin(phi))
    target = s * (sp.eye(2) - u * u.T) * xa
    return prove_identity(claim, list(u_dot), list(target),
                          note="coordinates in the orthonormal pair (a_hat, e), which spans u(t) for all t.")


def check_s6_crossing_time(claim: Claim) -> SymbolicResult:
    """S6: t* = -(1/(s k)) ln(tan(phi*/2)/tan(phi0/2)) gives tan(phi(t*)/2) = tan(phi*/2)."""
    k = sp.Symbol("k", **P)
    T0, Ts = sp.symbols("T0 Tstar", **P)
    lhs, rhs = [], []
    for s in (1, -1):
        tstar = -(1 / (s * k)) * sp.log(Ts / T0)
        lhs.append(T0 * sp.exp(-s * k * tstar))
        rhs.append(Ts)
    return prove_identity(claim, lhs, rhs, note="s = +1 and s = -1; T0 = tan(phi0/2), Tstar = tan(phi*/2) > 0.")


def _eps_quantities():
    h, n, X, Xmin, W, m, mu, mm = sp.symbols("h n X_max X_min W_max m mu mm", **P)
    t1 = 16 * sp.log(n) / (m * sp.sqrt(mu) * Xmin)
    return h, n, X, Xmin, W, m, mu, mm, t1


def check_s8_eps2(claim: Claim) -> SymbolicResult:
    """S8: T(eps) >= t1 iff eps <= exp(-4 n X_max t1)/sqrt(h) = second term of (28)."""
    h, n, X, Xmin, W, m, mu, mm, t1 = _eps_quantities()
    eps = sp.Symbol("eps", **P)
    T = sp.log(1 / (sp.sqrt(h) * eps)) / (4 * n * X)
    eps2 = sp.exp(-4 * n * X * t1) / sp.sqrt(h)
    eps2_28 = sp.exp(-64 * n * X * sp.log(n) / (m * sp.sqrt(mu) * Xmin)) / sp.sqrt(h)
    slope = sp.diff(T, eps)
    if not slope.is_negative:
        return unknown(claim, f"could not certify dT/deps = {slope} < 0")
    return prove_identity(claim, [T.subs(eps, eps2), eps2], [t1, eps2_28],
                          note=f"dT/deps = {slope} < 0 (sympy, positive symbols), so T(eps) >= t1 = T(eps2) "
                               "iff eps <= eps2.")


def check_s8_c8(claim: Claim) -> SymbolicResult:
    """S8 / R9: with c = 8, Lemma 3's Fmax(eps1) = 2 eps1 sqrt(h) X_max W^2 equals F* of (29)."""
    h, n, X, Xmin, W, m, mu, mm, _ = _eps_quantities()
    eps1 = mm * sp.sqrt(mu) * Xmin / (8 * sp.sqrt(h) * n * X ** 2 * W ** 2)
    fmax = 2 * eps1 * sp.sqrt(h) * X * W ** 2
    fstar = mm * sp.sqrt(mu) * Xmin / (4 * n * X)
    return prove_identity(claim, fmax, fstar)


def check_s8_c4(claim: Claim) -> SymbolicResult:
    """S8 / R9 (erratum 2): with the printed c = 4, Fmax(eps1) <= F* is false (Fmax = 2 F*)."""
    h, n, X, Xmin, W, m, mu, mm, _ = _eps_quantities()
    eps1 = mm * sp.sqrt(mu) * Xmin / (4 * sp.sqrt(h) * n * X ** 2 * W ** 2)
    fmax = 2 * eps1 * sp.sqrt(h) * X * W ** 2
    fstar = mm * sp.sqrt(mu) * Xmin / (4 * n * X)
    one = {sym: 1 for sym in (h, n, X, Xmin, W, mu, mm)}
    return prove_nonneg_symbolic(claim, fstar - fmax, candidates=[one])


def check_s10_arithmetic(claim: Claim) -> SymbolicResult:
    """S10: (1/3 - 1/4) * 1/2 = 1/24 and 6 * 1/24 = 1/4."""
    third, quarter = sp.Rational(1, 3), sp.Rational(1, 4)
    return prove_identity(claim, [(third - quarter) * sp.Rational(1, 2), 6 * sp.Rational(1, 24)],
                          [sp.Rational(1, 24), quarter])


def check_s11_gronwall(claim: Claim) -> SymbolicResult:
    """S11: the t2 Gronwall product equals 2/(sqrt(mu) X_min)."""
    mu, npl, Xmin, eps, Wmin, n, X, t1 = sp.symbols("mu n_plus X_min eps W_min n X_max t1", **P)
    rate = sp.sqrt(mu) * npl * Xmin / 4
    dur = (4 / (sp.sqrt(mu) * npl * Xmin)) * (sp.log(2 / (eps ** 2 * sp.sqrt(mu) * Xmin * Wmin ** 2)) + 4 * n * X * t1)
    lhs = sp.exp(rate * dur) * sp.exp(-4 * n * X * t1) * eps ** 2 * Wmin ** 2
    return prove_identity(claim, lhs, 2 / (sp.sqrt(mu) * Xmin))


def check_s11_contradiction(claim: Claim) -> SymbolicResult:
    """S11: 2/(sqrt(mu) X_min) > 1/(sqrt(mu) X_min), the contradiction that closes (39)."""
    mu, Xmin = sp.symbols("mu X_min", **P)
    return prove_nonneg_symbolic(claim, 2 / (sp.sqrt(mu) * Xmin) - 1 / (sp.sqrt(mu) * Xmin), strict=True)


def check_s12_qm(claim: Claim) -> SymbolicResult:
    """S12: a^2 + b^2 >= (a + b)^2 / 2 for real a, b."""
    a, b = sp.symbols("a b", **R)
    return prove_nonneg_symbolic(claim, a ** 2 + b ** 2 - (a + b) ** 2 / 2)


def check_s12_constant(claim: Claim) -> SymbolicResult:
    """S12: (1/4) (1/(4 X)) (1/2) = 1/(32 X)."""
    X = sp.Symbol("X_max", **P)
    return prove_identity(claim, sp.Rational(1, 4) * (1 / (4 * X)) * sp.Rational(1, 2), 1 / (32 * X))


def check_s12_loss_bound(claim: Claim) -> SymbolicResult:
    """S12: d/dt(1/L) >= alpha gives L(t) <= L2/(L2 alpha (t - t2) + 1); equality case solves d/dt(1/L) = alpha."""
    L2, alpha = sp.symbols("L2 alpha", **P)
    t, t2 = sp.symbols("t t2", **R)
    bound = L2 / (L2 * alpha * (t - t2) + 1)
    return prove_identity(claim, [1 / (1 / L2 + alpha * (t - t2)), sp.diff(1 / bound, t), bound.subs(t, t2)],
                          [bound, alpha, L2],
                          note="integrating d/dt(1/L) >= alpha on [t2, t] gives 1/L(t) >= 1/L2 + alpha (t - t2) > 0; "
                               "component 0 rewrites its reciprocal as the stated bound.")


def check_s13_stable_rank(claim: Claim) -> SymbolicResult:
    """S13: (4 eps W^2/sqrt h)(|V+|+|V-|) + (2 eps W^2/sqrt h)|Vd| <= 4 sqrt(h) eps W^2 if |V+|+|V-|+|Vd| <= h."""
    h, eps, W = sp.symbols("h eps W", **P)
    a, d, s = sp.symbols("a d s", **NN)  # a = |V+| + |V-|, d = |Vd|, s = h - a - d >= 0
    lhs = (4 * eps * W ** 2 / sp.sqrt(h)) * a + (2 * eps * W ** 2 / sp.sqrt(h)) * d
    return prove_nonneg_symbolic(claim, 4 * sp.sqrt(h) * eps * W ** 2 - lhs, {a: h - d - s},
                                 note="a = h - d - s with s = h - a - d >= 0 (the hypothesis)")


def check_s14_e3(claim: Claim) -> SymbolicResult:
    """S14 / E.3: F_w(theta(0)) = (-a, 0) for exp loss, y = -1, x = (1, 0), w = (0, 1), v = 1, sigma'(0) = a."""
    a = sp.Symbol("a", **NN)
    yhat, y = sp.symbols("yhat y", **R)
    loss = sp.exp(-y * yhat)
    x = sp.Matrix([1, 0])
    w = sp.Matrix([0, 1])
    v = sp.Integer(1)
    pre = (x.T * w)[0]  # = 0: on the hyperplane, sigma(0) = 0 and sigma'(0) = a
    f = v * 0
    g = (-sp.diff(loss, yhat)).subs({y: -1, yhat: f})
    F_w = v * a * g * x if pre == 0 else None
    F_v = 0 * g
    if F_w is None:
        return unknown(claim, "encoding error: <x, w(0)> != 0")
    res = prove_identity(claim, [F_w[0], F_w[1], F_v, F_w.subs(a, 0).norm()], [-a, 0, 0, 0],
                         note="F_w = v sigma'(<x,w>) g x with g = -l'(y, f) = y e^{-y f} = -1 at f = 0; "
                              f"||F_w||^2 = a^2 is positive for a > 0: {sp.Symbol('a', positive=True) ** 2 > 0}.")
    return res


def check_s14_e4(claim: Claim) -> SymbolicResult:
    """S14 / E.4: along (47) with a = w~_1, v~ = sqrt(1 + a^2): balancedness kept and a_dot(0) = 1."""
    a = sp.Symbol("a", **R)
    v = sp.sqrt(1 + a ** 2)
    w = sp.Matrix([a, 1])
    x = sp.Matrix([1, 0])
    y = 1
    pre = (x.T * w)[0]
    w_dot = y * sp.exp(-y * v * pre) * v * x
    v_dot = y * sp.exp(-y * v * pre) * pre
    bal = 2 * v * v_dot - 2 * (w.T * w_dot)[0]
    return prove_identity(claim, [bal, w_dot[0].subs(a, 0), w_dot[1]], [0, 1, 0],
                          note="a_dot = sqrt(1 + a^2) exp(-a sqrt(1 + a^2)) = 1 at a = 0, so solution 2 leaves "
                               "w(0) = (0, 1) immediately; w~_2 stays 1.")


def check_s15_cap(claim: Claim) -> SymbolicResult:
    """S15: algebraic core of the cap criterion: min over the cap = cos(acos c + asin s), > 0 iff s < c."""
    c = sp.Symbol("c", **P)
    s = sp.Symbol("s", **NN)
    lhs = [sp.expand_trig(sp.cos(sp.acos(c) + sp.asin(s))), c ** 2 * (1 - s ** 2) - s ** 2 * (1 - c ** 2)]
    rhs = [c * sp.sqrt(1 - s ** 2) - s * sp.sqrt(1 - c ** 2), c ** 2 - s ** 2]
    return prove_identity(claim, lhs, rhs,
                          note="with c = y_i cos(x, x_i) in (0, 1] and s = sqrt(zeta) in [0, 1): the smallest "
                               "<z, y_i x_i_hat> over the cap is cos(acos c + asin s) (spherical geometry, stated "
                               "not proved here); it is > 0 iff c sqrt(1-s^2) > s sqrt(1-c^2) iff c^2 > s^2 "
                               "(both sides >= 0; component 1) iff sqrt(zeta) < c.")


def check_s15_xi(claim: Claim, xi_of_mu=lambda mu: mu ** 2) -> SymbolicResult:
    """S15 (Lemma 9 with xi = mu^2, sheet 1.9): |<z1, z2>| <= sqrt(1 - mu^2) for unit z1 in K and
    unit z2 outside S+ and S-, proved in three parts that must all be PROVED.

    Coordinates (the trusted step: Gram-Schmidt and Cauchy-Schwarz): for the data point i with
    <c, z2> <= 0, c = y_i x_i/||x_i|| (z2 outside S+), write z1 = a c + b e (e a unit vector
    orthogonal to c, b = sqrt(1 - a^2) >= 0) and p = <c, z2> <= 0, q = <e, z2> <= 1; Lemma 5 gives
    a >= mu >= 0. Then
      (i)   b - <z1, z2> = b - (a p + b q) >= 0 for a, b >= 0, p <= 0, q <= 1;
      (ii)  b <= sqrt(1 - xi): (1 - xi) - (1 - a^2) >= 0 for a in [mu, 1] (sqrt is increasing), xi = mu^2
            (``xi_of_mu``: a planted xi = mu must be refuted);
      (iii) the S- half: -z1 in -K and z2 outside S- give, with c' = -y_i x_i/||x_i|| for the point
            with <c', z2> <= 0, <z1, c'> = -a with a >= mu; z1 = -a c' + b e' gives
            -<z1, z2> = a p' - b q' <= b for a, b >= 0, p' <= 0, q' >= -1.
    """
    a, b, p, q, mu = sp.symbols("a b p q mu", **R)
    A, B, Pn, Qn, M, D = sp.symbols("A B P Q M D", **NN)
    upper = prove_nonneg_symbolic(claim, b - (a * p + b * q), {a: A, b: B, p: -Pn, q: 1 - Qn},
                                  note="(i) <z1, z2> = a p + b q <= b: a = A, b = B, p = -P, q = 1 - Q, all >= 0")
    half = sp.Rational(1, 2)
    root = prove_nonneg_symbolic(claim, (1 - xi_of_mu(mu)) - (1 - a ** 2), {a: M + D, mu: M},
                                 note="(ii) a >= mu >= 0: mu = M, a = M + D with M, D >= 0",
                                 candidates=[{mu: half, a: half}])
    lower = prove_nonneg_symbolic(claim, b - (a * p - b * q), {a: A, b: B, p: -Pn, q: Qn - 1},
                                  note="(iii) z1 = -a c' + b e', so -<z1, z2> = a p' - b q' <= b: a = A, b = B, "
                                       "p' = -P <= 0 (z2 outside S-), q' = Q - 1 >= -1 (Cauchy-Schwarz)")
    parts = (upper, root, lower)
    if all(part.verdict == Verdict.PROVED for part in parts):
        return proved(claim, [part.certificate for part in parts],
                      "(i) upper half, (ii) b <= sqrt(1 - mu^2), (iii) S- half: each a sum of products of "
                      "nonnegative terms; the reduction to (a, b, p, q) is Gram-Schmidt and Cauchy-Schwarz")
    worst = next(part for part in parts if part.verdict != Verdict.PROVED)
    return worst
