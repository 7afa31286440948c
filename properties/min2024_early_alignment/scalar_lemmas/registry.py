"""Registry of the symbolic claims of sheet 004 (section 6, S1-S15, and the section-7 errata).

Id scheme: ``S<k>-<slug>``, where ``S<k>`` is the item of sheet 004 section 6 the entry belongs
to (S1 ... S15) and the slug names the lemma/equation; the sheet claim ids (EA-...), errata
numbers and planted cases (P8, P9) are in ``source``. Every entry has an expected verdict:
PROVED (certificate over the whole domain), HOLDS (integer range only), REFUTED (planted or
erratum: must be refuted with an exactly re-checked witness) or UNKNOWN (honestly undecided).
"""

from __future__ import annotations

from typing import Iterable

import sympy as sp

from verify.errors import InputError
from verify.symbolic.result import Claim, ClaimSpec, SymbolicResult, unknown

from properties.min2024_early_alignment.scalar_lemmas import identities as I
from properties.min2024_early_alignment.scalar_lemmas import inequalities as Q
from properties.min2024_early_alignment.scalar_lemmas import paths as P
from verify.verdicts import Verdict

R = sp.Rational
E = Verdict


def _cap_geometry(claim: Claim) -> SymbolicResult:
    return unknown(claim, "spherical-geometry reduction (min of <z, n> over a cap in R^D) has no symbolic "
                          "encoding here; only its algebraic core (S15-cap-criterion) is proved")


_Y1 = {Q.Y: 1, Q.YHAT: 0}

SYMBOLIC_CLAIMS: list[ClaimSpec] = [
    ClaimSpec("S1-balancedness-relu", "004 §6 S1; EA-A1 (Sec. 2.1)",
              "d/dt (v_j^2 - ||w_j||^2) = 2 v_j v_dot_j - 2 <w_j, w_dot_j> = 0 for ReLU, sigma(z) = z sigma'(z), "
              "sigma'(z) = 1{z > 0}", "any loss weights g_i, any (W, v), any n, D", E.PROVED,
              lambda c: I.check_s1_balancedness(c, leaky=False)),
    ClaimSpec("S1-balancedness-leaky", "004 §6 S1; EA-A1, App. B leaky (R4)",
              "d/dt (v_j^2 - ||w_j||^2) = 0 for leaky ReLU max(z, alpha z), sigma'(z) = 1{z>0} + alpha 1{z<=0}",
              "alpha <= 1, any g_i, (W, v), n, D", E.PROVED, lambda c: I.check_s1_balancedness(c, leaky=True)),
    ClaimSpec("S2-lemma2-exp", "004 Lemma 2 (R1); EA-B1; §6 S2",
              "|-l'(y, yhat) - y| <= 2 |yhat| for l = exp(-y yhat)", "y in {+1, -1}, yhat in [-1, 1]", E.PROVED,
              lambda c: Q.check_lemma2(c, "exp")),
    ClaimSpec("S2-lemma2-exp-widened", "004 Lemma 2 (exp) on a widened domain; sheet §1.3 [NUM] z < -1.2564",
              "|-l'(y, yhat) - y| <= 2 |yhat| for l = exp(-y yhat) with z = y yhat beyond -1.2564",
              "y = +1, yhat in [-13/10, 1]", E.REFUTED,
              lambda c: Q.check_lemma2(c, "exp", lo=R(-13, 10), ys=(1,), report_threshold=True)),
    ClaimSpec("S2-lemma2-logistic2", "004 Lemma 2 (App. B logistic 2 log(1 + e^{-y yhat})); EA-B1",
              "|-l'(y, yhat) - y| <= 2 |yhat| for l = 2 log(1 + exp(-y yhat))", "y in {+1, -1}, yhat in [-1, 1]",
              E.PROVED, lambda c: Q.check_lemma2(c, "logistic2")),
    ClaimSpec("S2-lemma2-logistic-main", "004 Lemma 2 (plain logistic, main-text reading); R2, P8, §7 erratum 4",
              "|-l'(y, yhat) - y| <= 2 |yhat| for l = log(1 + exp(-y yhat))", "y in {+1, -1}, yhat in [-1, 1]",
              E.REFUTED, lambda c: Q.check_lemma2(c, "logistic", candidates=[_Y1])),
    ClaimSpec("S2-lemma2-l2", "004 Remark 4 (l2 loss satisfies Lemma 2)",
              "|-l'(y, yhat) - y| <= 2 |yhat| for l = (y - yhat)^2 / 2", "y in {+1, -1}, yhat in [-1, 1]",
              E.PROVED, lambda c: Q.check_lemma2(c, "l2")),
    ClaimSpec("S2-logistic-factor", "004 Lemma 2 proof (logistic factor); §6 S2",
              "|tanh(z/2)| <= |e^{-z} - 1|", "z in [-1, 1]", E.PROVED, Q.check_logistic_factor),
    ClaimSpec("S2-eq40-exp", "004 eq. (40) (R18); EA-B2",
              "|yhat| <= 1/4 implies y g in [1/2, 3/2], g = -l'(y, yhat), l = exp(-y yhat)",
              "y in {+1, -1}, yhat in [-1/4, 1/4]", E.PROVED, lambda c: Q.check_eq40(c, "exp")),
    ClaimSpec("S2-eq40-logistic2", "004 eq. (40) (R18); EA-B2",
              "|yhat| <= 1/4 implies y g in [1/2, 3/2] for l = 2 log(1 + exp(-y yhat))",
              "y in {+1, -1}, yhat in [-1/4, 1/4]", E.PROVED, lambda c: Q.check_eq40(c, "logistic2")),
    ClaimSpec("S2-eq40-logistic-main", "004 eq. (40) with the main-text logistic [DER from P8]",
              "|yhat| <= 1/4 implies y g in [1/2, 3/2] for l = log(1 + exp(-y yhat))",
              "y in {+1, -1}, yhat in [-1/4, 1/4]", E.REFUTED, lambda c: Q.check_eq40(c, "logistic")),
    ClaimSpec("S3-lemma15", "004 Lemma 15 proof; EA-B3; §6 S3",
              "2x/(1+x) - log(1+x) >= 0", "x in [0, 1]", E.PROVED, Q.check_lemma15),
    ClaimSpec("S3-lemma15-widened", "004 Lemma 15 step on a widened domain; EA-B3 [NUM] holds up to x = 3.92",
              "2x/(1+x) - log(1+x) >= 0", "x in [0, 4]", E.REFUTED, lambda c: Q.check_lemma15(c, hi=R(4))),
    ClaimSpec("S3-e5-bound", "004 App. E.5 (|l'| <= l for 2x logistic); EA-B4; §6 S3",
              "u/(1+u) <= log(1+u)", "u in [0, oo)", E.PROVED, Q.check_e5_bound),
    ClaimSpec("S4-lemma11-identity", "004 Lemma 11 proof (R6); EA-D7; §6 S4",
              "n(1 + mu(n-1)) - mu n^2 = n(1 - mu)", "n, mu real", E.PROVED, I.check_s4_lemma11),
    ClaimSpec("S4-lemma11-root", "004 Lemma 11 last step (R6); EA-D7",
              "n(1 + mu(n-1)) >= mu n^2, hence sqrt(n_a(1 + mu(n_a - 1))) >= sqrt(mu) n_a",
              "n >= 0, mu <= 1", E.PROVED, I.check_s4_lemma11_root),
    ClaimSpec("S5-lemma10-identity", "004 Lemma 10 (eq. (24)); EA-E1; §6 S5",
              "x_r^T (I - w w^T) x_a = ||x_a|| (psi_ra - psi_rj psi_aj) for unit w",
              "x_r, x_a in R^D (x_a != 0), unit w; D = 3 coordinates + coordinate-free form", E.PROVED,
              I.check_s5_lemma10),
    ClaimSpec("S5-lemma5-factorisation", "004 Lemma 5 proof; EA-D2; §6 S5",
              "sum_{i,j} a_i b_j ||x_i|| ||x_j|| = (sum_i a_i ||x_i||)(sum_j b_j ||x_j||)",
              "n terms, n = 1..6 (integer-indexed)", E.HOLDS, I.check_s5_lemma5_factorisation),
    ClaimSpec("S6-direction-derivative", "004 §6 S6; Lemma 4 proof",
              "d/dt (w/||w||) = P_w w_dot / ||w||", "w(t) != 0 differentiable, any D", E.PROVED,
              I.check_s6_direction_derivative),
    ClaimSpec("S6-polar-equations", "004 sheet §1.11 polar form; §6 S6",
              "r_dot = s <u, G>, u_dot = s P_u G, f = s e^{2r} sigma(<u, x>) for balanced v = s ||w||",
              "D = 3, s in {+1, -1}, w != 0", E.PROVED, I.check_s6_polar),
    ClaimSpec("S6-closed-form-phi", "004 sheet §1.11 closed-form limit; §6 S6",
              "tan(phi/2) = tan(phi0/2) e^{-s k t} solves phi_dot = -s k sin(phi)", "phi0 in (0, pi), real s, k, t",
              E.PROVED, I.check_s6_closed_form_phi),
    ClaimSpec("S6-closed-form-r", "004 sheet §1.11 closed-form limit; §6 S6",
              "r = r0 - ln(sin phi / sin phi0) solves r_dot = s k cos(phi) along phi_dot = -s k sin(phi)",
              "phi in (0, pi)", E.PROVED, I.check_s6_closed_form_r),
    ClaimSpec("S6-closed-form-u", "004 sheet §1.11 closed-form limit; §6 S6",
              "u = cos(phi) a_hat + sin(phi) e solves u_dot = s P_u x_a, x_a = k a_hat", "phi(t) as above",
              E.PROVED, I.check_s6_closed_form_u),
    ClaimSpec("S6-crossing-time", "004 sheet §1.11 hyperplane crossing time; §6 S6",
              "t* = -(1/(s k)) ln(tan(phi*/2)/tan(phi0/2)) satisfies tan(phi(t*)/2) = tan(phi*/2)",
              "s in {+1, -1}, k > 0, phi0, phi* in (0, pi)", E.PROVED, I.check_s6_crossing_time),
    ClaimSpec("S7-lemma3-contradiction", "004 Lemma 3 proof (R3, R5); EA-C1; §6 S7",
              "exp(((1+delta)/2) ln(1/(sqrt(h) eps))) eps^2 W^2 <= eps W^2/sqrt(h) < 2 eps W^2/sqrt(h)",
              "0 <= delta <= 1, 0 < sqrt(h) eps <= 1, W > 0", E.PROVED, Q.check_s7_lemma3),
    ClaimSpec("S8-eps2-equivalence", "004 eq. (28) second term; EA-E2; §6 S8",
              "T(eps) >= t1 iff eps <= exp(-4 n X_max t1)/sqrt(h) = exp(-64 n X_max ln n/(m sqrt(mu) X_min))/sqrt(h)",
              "all constants positive", E.PROVED, I.check_s8_eps2),
    ClaimSpec("S8-eq28-implies-epsL3", "004 eq. (28) vs Lemma 3 hypothesis; EA-E2; §6 S8",
              "eps1 (c = 8) <= eps_L3 / 2, so (28) implies eps <= 1/(4 sqrt(h) X_max W_max^2)",
              "mm <= mu <= 1, X_min <= X_max, n >= 1", E.PROVED, Q.check_s8_epsl3),
    ClaimSpec("S8-eq28-c8-gives-29", "004 eq. (28)/(29) with denominator 8 (R9, R10)",
              "Fmax(eps1) = 2 eps1 sqrt(h) X_max W_max^2 = mm sqrt(mu) X_min/(4 n X_max) = F* for c = 8",
              "all constants positive", E.PROVED, I.check_s8_c8),
    ClaimSpec("S8-eq28-c4-gives-29", "004 eq. (28) as printed (c = 4); R9, §7 erratum 2",
              "Fmax(eps1) <= F* for eps1 = mm sqrt(mu) X_min/(4 sqrt(h) n X_max^2 W_max^2)",
              "mm <= mu <= 1, X_min <= X_max, n >= 1, h, W > 0", E.REFUTED, I.check_s8_c4),
    ClaimSpec("S9-tpmax-formula", "004 App. C maximal path (R13); EA-E5; §6 S9",
              "T(P_max) = 4/(m sqrt(mu) X_min) (H_{n-} + 1/2 + H_{n+ - 1})", "n+, n- >= 1", E.PROVED,
              P.check_tpmax_formula),
    ClaimSpec("S9-path-sum-4ln", "004 App. C, T(P_max) <= t1; EA-E5; §6 S9",
              "H_{n-} + 1/2 + H_{n+ - 1} <= 4 ln n, n = n+ + n-", "n+, n- >= 1 (so n >= 2)", E.PROVED,
              P.check_path_sum_bound),
    ClaimSpec("S9-Hn-4ln-n2", "004 App. C dead path 4 H_{n_a} <= 16 ln n; EA-E5; §6 S9",
              "H_n <= 4 ln n", "integers n >= 2", E.PROVED, P.check_hn_bound),
    ClaimSpec("S9-Hn-4ln-n1", "004 App. C dead path, n >= 1 reading; §7 erratum 3",
              "H_n <= 4 ln n", "integers n >= 1", E.REFUTED,
              lambda c: P.check_integer_claim(c, 4 * sp.log(P.N) - sp.harmonic(P.N), 1, 50)),
    ClaimSpec("S9-maxpath-monotone", "004 App. C (Figs. 14-17) T(P) <= T(P_max), monotone reading R12; EA-E5",
              "T(P) <= T(P_max) for every path with k+ non-decreasing, k- non-increasing",
              "1 <= n+, n- <= 12 (exhaustive, integer-indexed)", E.HOLDS, P.check_maxpath_monotone),
    ClaimSpec("S9-maxpath-literal", "004 App. C path condition 2, literal either/or reading (R12); §7 erratum 6",
              "T(P) <= T(P_max) for every simple path whose steps have k+ increasing or k- decreasing",
              "n+, n- >= 1", E.REFUTED, P.check_maxpath_literal),
    ClaimSpec("S9-t1-n1", "004 App. C t1 bound at n = 1; §7 erratum 3; P9",
              "every V+ neuron bound for S_dead arrives by t1 = 16 ln n/(m sqrt(mu) X_min)", "n = 1", E.REFUTED,
              P.check_t1_n1),
    ClaimSpec("S9-sqrt-na-path-sum", "004 Lemma 11 misreading sqrt(mu n_a) (R6); §7 erratum 7",
              "sum_{k=1}^{n} 1/sqrt(k) <= 4 ln n", "integers n >= 2", E.REFUTED, P.check_sqrt_sum),
    ClaimSpec("S10-termwise", "004 App. D.2 refined alignment (R18); EA-F5; §6 S10",
              "c_i c_j in [1/4, 9/4], hence sum c_i c_j G_ij <= (9/4) sum G_ij for G_ij >= 0",
              "c_i, c_j in [1/2, 3/2]", E.PROVED, Q.check_s10_termwise),
    ClaimSpec("S10-ratio", "004 App. D.2 cos(x+, x~_a) >= 1/3; EA-F5; §6 S10",
              "(1/2) sum G/(sqrt(sum G) sqrt(sum c_i c_j G_ij)) = 1/(2 sqrt q) >= 1/3",
              "q = sum c c G/sum G in [1/4, 9/4]", E.PROVED, Q.check_s10_ratio),
    ClaimSpec("S10-arithmetic", "004 App. D.2 (38) and t_a bound; §6 S10",
              "(1/3 - 1/4) * 1/2 = 1/24 and 6 * 1/24 = 1/4", "exact rationals", E.PROVED, I.check_s10_arithmetic),
    ClaimSpec("S11-t2-gronwall", "004 App. D.2 (36)-(39) (R17); EA-F6; §6 S11",
              "exp((sqrt(mu) n+ X_min/4) (4/(sqrt(mu) n+ X_min)) (ln(2/(eps^2 sqrt(mu) X_min W_min^2)) + 4 n X_max t1)) "
              "exp(-4 n X_max t1) eps^2 W_min^2 = 2/(sqrt(mu) X_min)", "all constants positive", E.PROVED,
              I.check_s11_gronwall),
    ClaimSpec("S11-t2-contradiction", "004 App. D.2 contradiction closing (39); §6 S11",
              "2/(sqrt(mu) X_min) > 1/(sqrt(mu) X_min)", "mu, X_min > 0", E.PROVED, I.check_s11_contradiction),
    ClaimSpec("S12-quadratic-mean", "004 App. D.2 alpha (R19); §6 S12",
              "a^2 + b^2 >= (a + b)^2 / 2", "a, b real", E.PROVED, I.check_s12_qm),
    ClaimSpec("S12-alpha-constant", "004 Thm 1 alpha = (mu X_min)^2/(32 X_max) (R19); §6 S12",
              "(1/4) (1/(4 X_max)) (1/2) = 1/(32 X_max)", "X_max > 0", E.PROVED, I.check_s12_constant),
    ClaimSpec("S12-loss-bound", "004 Thm 1 part 2 loss bound; EA-F4; §6 S12",
              "1/L(t) >= 1/L2 + alpha (t - t2) is L(t) <= L2/(L2 alpha (t - t2) + 1); the bound solves d/dt(1/L) = alpha",
              "L2, alpha > 0, t >= t2", E.PROVED, I.check_s12_loss_bound),
    ClaimSpec("S13-stable-rank", "004 App. D.3 (41)-(43); EA-G3; §6 S13",
              "(4 eps W^2/sqrt h)(|V+| + |V-|) + (2 eps W^2/sqrt h)|Vd| <= 4 sqrt(h) eps W^2",
              "|V+| + |V-| + |Vd| <= h, eps, W, h > 0", E.PROVED, I.check_s13_stable_rank),
    ClaimSpec("S14-E3-nonexistence", "004 App. E.3; EA-H3; §6 S14",
              "F_w(theta(0)) = (-a, 0) for exp loss, y = -1, x = (1,0), w(0) = (0,1), v(0) = 1, sigma'(0) = a; "
              "= 0 iff a = 0", "a >= 0", E.PROVED, I.check_s14_e3),
    ClaimSpec("S14-E4-nonuniqueness", "004 App. E.4 (47); EA-H4; §6 S14",
              "along (47) balancedness holds and a_dot(0) = 1 > 0", "a = w~_1 real, v~ = sqrt(1 + a^2)", E.PROVED,
              I.check_s14_e4),
    ClaimSpec("S15-cap-criterion", "004 sheet §1.9 zeta1 algorithm; Lemma 8; §6 S15",
              "cos(acos c + asin s) = c sqrt(1-s^2) - s sqrt(1-c^2) and its sign is that of c^2 - s^2 (cap in half-space "
              "iff sqrt(zeta) < y_i cos(x, x_i))", "c in (0, 1], s in [0, 1)", E.PROVED, I.check_s15_cap),
    ClaimSpec("S15-cap-geometry", "004 sheet §1.9 zeta1 algorithm; §6 S15",
              "min over z in the cap S^zeta_x of <z, n> equals cos(angle(x, n) + arcsin sqrt(zeta))",
              "unit x, n in R^D", E.UNKNOWN, _cap_geometry),
    ClaimSpec("S15-xi-bound", "004 sheet §1.9 xi = mu^2 proof; Lemma 9; §6 S15",
              "|cos(z1, z2)| <= sqrt(1 - mu^2) for unit z1 in K and unit z2 outside S+ and S- (xi = mu^2 is valid): "
              "both halves of the decomposition proof, and sqrt(1 - a^2) <= sqrt(1 - mu^2) for a in [mu, 1]",
              "0 <= mu <= 1 (mu of Lemma 5), any dimension D", E.PROVED, I.check_s15_xi),
]

_BY_ID = {spec.id: spec for spec in SYMBOLIC_CLAIMS}
if len(_BY_ID) != len(SYMBOLIC_CLAIMS):
    raise RuntimeError("duplicate symbolic claim ids")


def get_claim(claim_id: str) -> ClaimSpec:
    """The registry entry with this id (raises InputError for an unknown id)."""
    try:
        return _BY_ID[claim_id]
    except KeyError:
        raise InputError(f"unknown symbolic claim id {claim_id!r}") from None


def run_all(ids: Iterable[str] | None = None) -> list[SymbolicResult]:
    """Run the selected registry entries (all if ``ids`` is None), in registry order."""
    specs = SYMBOLIC_CLAIMS if ids is None else [get_claim(i) for i in ids]
    return [spec.run() for spec in specs]
