"""The gradient-flow field in high precision for a FIXED mode, as Taylor series of the solution.

Inside a mode (slope matrix S, sliding pairs aside) the field is analytic, and the Taylor
coefficients of the solution through (t0, z0) follow from the Picard recurrence
z_{k+1} = F_k / (k + 1), F_k being coefficient k of F(z(t)), computed order by order with the
recurrences of :mod:`taylor`. Work per order, reorganised so that only O(h d) series products
are needed (not O(n h)):

Cartesian (W, v), seed 004 eq. (12):
    f_i  = sum_j S_ij <x_i, w_j v_j>              (h d products w_jc v_j)
    g_i  = -l'(y_i, f_i)                           (exp / reciprocal recurrences, n of them)
    G_j  = sum_i S_ij g_i x_i                      (linear)
    w_j' = v_j G_j,   v_j' = <w_j, G_j>            (2 h d products; <w_j, G_j> = sum_i S_ij P_ij g_i)
Polar (r, U, s), sheet 004 section 1.11:
    E_j  = exp(2 r_j),  f_i = sum_j s_j S_ij <x_i, E_j u_j>
    rho_j = <u_j, G_j>,  r_j' = s_j rho_j,  u_j' = s_j (G_j - rho_j u_j)

Filippov sliding pairs (i in R_j, side 0) have <x_i, w_j> = 0, so they drop out of f; their
slopes c_i keep <x_i, G_j> = 0 for i in R_j. The products y_i = c_i g_i solve the linear
system K_RR y = -sum_{l not in R} S_lj g_l K_lR, which is linear in g: so y is obtained order
by order with one fixed small inverse (no series division). The slope c = y/g must stay in
[alpha, 1]; the exit functions (y - g, y - alpha g, signed by g) are series too.

Dead neurons (frozen) and neurons with an all-zero slope column are constant: skipped.
Numbers are gmpy2 mpfr at the gmpy2 context precision (:mod:`num`).
"""

from __future__ import annotations

from dataclasses import dataclass, field as dc_field

from verify.dynamics.field import NetworkField
from verify.dynamics.mp import num
from verify.dynamics.mp.num import dot, mpfr
from verify.dynamics.mp.taylor import cauchy, exp_coeff, recip_coeff
from verify.errors import InputError, NumericalError

MPF = mpfr


@dataclass
class MpMode:
    """Frozen switching state, in mp: slopes, sides, disarmed pairs, dead neurons, sliding rows."""

    S: list  # n x h mpf slopes (sliding pairs: placeholder, not used)
    side: list  # n x h int: +1 active, -1 inactive, 0 sliding
    onsurf: list  # n x h bool: put on their surface at the last event (root at x = 0 deflated)
    dead: list  # h bool
    sliding: dict = dc_field(default_factory=dict)  # j -> list of rows


class LossSeries:
    """Coefficients of g_i = -l'(y_i, f_i) from those of f_i, order by order."""

    def __init__(self, name: str, y: list) -> None:
        if name not in ("exp", "logistic2", "logistic", "square"):
            raise InputError(f"the mp backend does not know loss {name!r}")
        self.name, self.y = name, y
        n = len(y)
        self.a = [[] for _ in range(n)]
        self.E = [[] for _ in range(n)]
        self.Q = [[] for _ in range(n)]
        self.g = [[] for _ in range(n)]

    def step(self, k: int, fk: list) -> None:
        """Append coefficient k of every g_i given coefficient k of every f_i."""
        name, y = self.name, self.y
        for i, fi in enumerate(fk):
            yi = y[i]
            if name == "square":
                self.g[i].append((yi - fi) if k == 0 else -fi)
                continue
            a = self.a[i]
            a.append(-yi * fi if name == "exp" else yi * fi)
            E = self.E[i]
            E.append(exp_coeff(a, E, k))
            if name == "exp":
                self.g[i].append(yi * E[k])
                continue
            D = [1 + E[0]] + E[1:] if k else [1 + E[0]]
            Q = self.Q[i]
            Q.append(recip_coeff(D, Q, k))
            self.g[i].append((2 * yi if name == "logistic2" else yi) * Q[k])


def g_value(name: str, y, f):
    """g = -l'(y, f) at a point."""
    if name == "exp":
        return y * num.exp(-y * f)
    if name == "square":
        return y - f
    w = 1 / (1 + num.exp(y * f))
    return (2 * y if name == "logistic2" else y) * w


class MpField:
    """The data and loss of a :class:`NetworkField` converted exactly to mpfr (float64 -> mpfr is exact)."""

    def __init__(self, field: NetworkField) -> None:
        self.field = field
        X = field.X
        self.n, self.d = int(X.shape[0]), int(X.shape[1])
        self.X = [[MPF(float(X[i, c])) for c in range(self.d)] for i in range(self.n)]
        self.y = [MPF(float(v)) for v in field.y]
        self.K = [[dot(self.X[i], self.X[l]) for l in range(self.n)] for i in range(self.n)]
        self.xnorm = [num.sqrt(self.K[i][i]) for i in range(self.n)]
        self.alpha = MPF(float(field.alpha))
        self.loss = field.loss.name
        self.train_v = bool(field.train_v)

    # pointwise quantities ----------------------------------------------------------------------
    def preact(self, Wrows: list) -> list:
        """P_ij = <x_i, w_j> (n x h) for rows w_j (or u_j)."""
        return [[dot(xi, wj) for wj in Wrows] for xi in self.X]

    def outputs(self, P: list, S: list, gain_scale: list) -> list:
        """f_i = sum_j S_ij P_ij c_j, with c_j = v_j (Cartesian) or s_j e^{2 r_j} (polar)."""
        return [sum(S[i][j] * P[i][j] * gain_scale[j] for j in range(len(gain_scale))) for i in range(self.n)]

    def g_point(self, f: list) -> list:
        return [g_value(self.loss, self.y[i], f[i]) for i in range(self.n)]

    # series --------------------------------------------------------------------------------------
    def _sliding_setup(self, mode: MpMode) -> dict:
        """Per sliding neuron: rows R, complement, inverse of K_RR."""
        out = {}
        for j, rows in mode.sliding.items():
            M = [[self.K[a][b] for b in rows] for a in rows]
            try:
                m = len(rows)
                cols = [num.solve(M, [mpfr(1) if q == c else mpfr(0) for q in range(m)]) for c in range(m)]
                Kinv = [[cols[c][a] for c in range(m)] for a in range(m)]
            except ZeroDivisionError:
                raise NumericalError(f"mp backend: neuron {j} slides on linearly dependent hyperplanes {list(rows)}") from None
            out[j] = (list(rows), [l for l in range(self.n) if l not in rows], Kinv)
        return out

    def _weights(self, k: int, gs: LossSeries, mode: MpMode, slide: dict, moving: list, ys: dict) -> list:
        """Coefficient k of SG_ij = S_ij g_i (sliding: y_i = c_i g_i), only for moving j: {j: [n]}."""
        n = self.n
        out = {}
        for j in moving:
            col = [mode.S[i][j] * gs.g[i][k] for i in range(n)]
            if j in slide:
                rows, rest, Kinv = slide[j]
                for i in rows:
                    col[i] = MPF(0)
                b = [-sum(col[l] * self.K[l][i] for l in rest) for i in rows]
                yk = [dot(Kinv[a], b) for a in range(len(rows))]
                for a, i in enumerate(rows):
                    col[i] = yk[a]
                    ys[j][a].append(yk[a])
            out[j] = col
        return out

    def _moving(self, mode: MpMode) -> list:
        h = len(mode.dead)
        return [j for j in range(h) if not mode.dead[j] and (j in mode.sliding or any(mode.S[i][j] != 0 for i in range(self.n)))]

    def series_cartesian(self, W: list, v: list, mode: MpMode, N: int) -> "StepSeries":
        """Taylor coefficients 0..N of (W, v) through (W, v) in ``mode``."""
        n, d, h = self.n, self.d, len(v)
        X = self.X
        Ws = [[[W[j][c]] for c in range(d)] for j in range(h)]
        vs = [[v[j]] for j in range(h)]
        moving = self._moving(mode)
        fmask = [[(mode.S[i][j] if mode.side[i][j] != 0 else MPF(0)) for j in range(h)] for i in range(n)]
        SX = [[fmask[i][j] * X[i][c] for j in range(h) for c in range(d)] for i in range(n)]
        Xc = [[X[i][c] for i in range(n)] for c in range(d)]
        WV = [[[] for _ in range(d)] for _ in range(h)]
        G = [[[] for _ in range(d)] for _ in range(h)]
        gs = LossSeries(self.loss, self.y)
        slide = self._sliding_setup(mode)
        ys = {j: [[] for _ in slide[j][0]] for j in slide}
        for k in range(N):
            WVk = []
            for j in range(h):
                for c in range(d):
                    x = cauchy(Ws[j][c], vs[j], k)
                    WV[j][c].append(x)
                    WVk.append(x)
            fk = [dot(SX[i], WVk) for i in range(n)]
            gs.step(k, fk)
            SG = self._weights(k, gs, mode, slide, moving, ys)
            zero = MPF(0)
            for j in range(h):
                if j not in SG:
                    for c in range(d):
                        Ws[j][c].append(zero)
                    vs[j].append(zero)
                    continue
                col = SG[j]
                for c in range(d):
                    G[j][c].append(dot(col, Xc[c]))
                vdot = sum(cauchy(Ws[j][c], G[j][c], k) for c in range(d)) if self.train_v else zero
                for c in range(d):
                    Ws[j][c].append(cauchy(vs[j], G[j][c], k) / (k + 1))
                vs[j].append(vdot / (k + 1))
        comps = [Ws[j][c] for j in range(h) for c in range(d)] + [vs[j] for j in range(h)]
        owner = [j for j in range(h) for _ in range(d)] + list(range(h))
        return StepSeries(comps, owner, gs, slide, ys)

    def series_polar(self, r: list, U: list, s: list, mode: MpMode, N: int) -> "StepSeries":
        """Taylor coefficients 0..N of (r, U) through (r, U) in ``mode`` (balanced, signs s)."""
        n, d, h = self.n, self.d, len(r)
        X = self.X
        rs = [[r[j]] for j in range(h)]
        Us = [[[U[j][c]] for c in range(d)] for j in range(h)]
        moving = self._moving(mode)
        fmask = [[(mode.S[i][j] * s[j] if mode.side[i][j] != 0 else MPF(0)) for j in range(h)] for i in range(n)]
        SX = [[fmask[i][j] * X[i][c] for j in range(h) for c in range(d)] for i in range(n)]
        Xc = [[X[i][c] for i in range(n)] for c in range(d)]
        two_r = [[2 * r[j]] for j in range(h)]
        E = [[] for _ in range(h)]
        EU = [[[] for _ in range(d)] for _ in range(h)]
        G = [[[] for _ in range(d)] for _ in range(h)]
        rho = [[] for _ in range(h)]
        gs = LossSeries(self.loss, self.y)
        slide = self._sliding_setup(mode)
        ys = {j: [[] for _ in slide[j][0]] for j in slide}
        zero = MPF(0)
        for k in range(N):
            EUk = []
            for j in range(h):
                if k:
                    two_r[j].append(2 * rs[j][k])
                E[j].append(exp_coeff(two_r[j], E[j], k))
                for c in range(d):
                    x = cauchy(E[j], Us[j][c], k)
                    EU[j][c].append(x)
                    EUk.append(x)
            fk = [dot(SX[i], EUk) for i in range(n)]
            gs.step(k, fk)
            SG = self._weights(k, gs, mode, slide, moving, ys)
            for j in range(h):
                if j not in SG:
                    rs[j].append(zero)
                    for c in range(d):
                        Us[j][c].append(zero)
                    continue
                col = SG[j]
                for c in range(d):
                    G[j][c].append(dot(col, Xc[c]))
                rho[j].append(sum(cauchy(Us[j][c], G[j][c], k) for c in range(d)))
                sj = s[j]
                udot = [sj * (G[j][c][k] - cauchy(rho[j], Us[j][c], k)) for c in range(d)]
                rs[j].append(sj * rho[j][k] / (k + 1))
                for c in range(d):
                    Us[j][c].append(udot[c] / (k + 1))
        comps = [rs[j] for j in range(h)] + [Us[j][c] for j in range(h) for c in range(d)]
        owner = list(range(h)) + [j for j in range(h) for _ in range(d)]
        return StepSeries(comps, owner, gs, slide, ys)


@dataclass
class StepSeries:
    """Series of one step: flat state components (each a list of N+1 coefficients), the neuron
    owning each component, the data-weight series, and the sliding data (rows, y = c g)."""

    comps: list
    owner: list
    gs: LossSeries
    slide: dict
    ys: dict

    @property
    def order(self) -> int:
        return len(self.comps[0]) - 1
