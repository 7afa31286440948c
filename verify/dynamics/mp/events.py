"""Event location to full precision and switching rules, in mpmath.

Location. On a step of length h every event function is a polynomial in x = (t - t0)/h on
[0, 1]: phi_ij(x) = side_ij <x_i, w_j(t0 + x h)> (or u_j), and, for a Filippov sliding pair,
the two slope-exit functions of :mod:`field`. :func:`first_root` returns the first x where
phi turns negative, *for every pair*, including two roots inside one step whose end values
agree:

1. exclusion: |q_0| > sum_{k>=1} |q_k| means no root on the interval;
2. monotone: |q_1| > sum_{k>=2} k |q_k| means one root at most, present iff the end values
   change sign; it is then located by safeguarded Newton on the polynomial to working
   precision;
3. otherwise split the interval in two (Taylor shift, O(N^2)) and search the left half first.
   Intervals narrower than 2^-(prec/2) that pass neither test hold a double root: a sign
   change there is located by bisection, a touch without one is reported as grazing.

A pair put on its surface at the previous event has phi(0) = 0 by projection; its root at
x = 0 is deflated (phi(x)/x) so the same crossing is never found twice, and a later return
to the surface is a new event.

Switching (same rules as the float64 backend, :mod:`verify.dynamics.switching`): on the
surface the normal rate is affine in the slope c of the pair, d(c) = gamma_j (sum_{k != i}
S_kj g_k K_ki + c g_i K_ii) with gamma_j = v_j (Cartesian) or s_j (polar); with d0 = d(alpha),
d1 = d(1): d0 > 0, d1 >= 0 -> active; d0 > 0 > d1 -> sliding (Filippov); d0 <= 0 -> inactive
(d0 < 0 < d1, non-unique, takes the sigma'(0) = 0 side and is logged "grazing"). |d| below
tol = 10^-dps |gamma_j| sum |terms| reads as 0. Pairs of one neuron are settled jointly.

Root location works on gmpy2 mpfr (the solver) and on mpmath mpf alike; the switching
helpers use mpfr (:mod:`num`).
"""

from __future__ import annotations

import gmpy2
import mpmath

from verify.dynamics.mp import num
from verify.dynamics.mp.taylor import deriv_tail, horner, horner_d, shift, tail_sum


def _is_fr(x) -> bool:
    return isinstance(x, type(gmpy2.mpfr(0)))


def _prec(x) -> int:
    return num.prec() if _is_fr(x) else mpmath.mp.prec


def _ldexp(x, n: int, like):
    return num.ldexp(x, n) if _is_fr(like) else mpmath.ldexp(x, n)
ACTIVE, INACTIVE, SLIDING = 1, 0, 2
MAX_DEPTH = 200  # bisection depth of the root search: intervals down to 2^-min(prec/2, 200) of a step
MAX_INTERVALS = 4096  # search budget per polynomial (only a phi that is 0 to working precision exhausts it)


# root location ------------------------------------------------------------------------------
def _newton_bracketed(q: list):
    """Root in [0, 1] of a monotone polynomial with q(0) >= 0 > q(1)."""
    zero = 0 * q[0]
    lo, hi = zero, zero + 1
    v0, v1 = q[0], sum(q)
    x = v0 / (v0 - v1)
    prec = _prec(q[0])
    eps = _ldexp(1, -prec + 4, q[0])
    for _ in range(4 * prec):
        p, dp = horner_d(q, x)
        if p >= 0:
            lo = x
        else:
            hi = x
        xn = x - p / dp if dp != 0 else (lo + hi) / 2
        if not lo <= xn <= hi:
            xn = (lo + hi) / 2
        if abs(xn - x) <= eps or hi - lo <= eps:
            x = xn
            break
        x = xn
    # return a point on the negative side (or the root itself) so that phi has turned
    return x


def _bisect_first_negative(q: list):
    """First sign change from >= 0 to < 0 of q on [0, 1], q(1) < 0 (grid then bisection)."""
    m = 64
    zero = 0 * q[0]
    prev = zero
    lo, hi = zero, zero + 1
    for k in range(1, m + 1):
        x = (zero + k) / m
        if horner(q, x) < 0:
            lo, hi = prev, x
            break
        prev = x
    for _ in range(_prec(q[0])):
        mid = (lo + hi) / 2
        if horner(q, mid) < 0:
            hi = mid
        else:
            lo = mid
    return hi


def first_root(c: list, on_surface: bool = False, touch_tol=None) -> tuple:
    """First x in (0, 1] where the polynomial phi (coefficients c in x) turns negative.

    Returns (x or None, touches): touches are x of tangential zeros before it (grazing).
    ``on_surface``: phi(0) = 0 by construction; search phi(x)/x instead.
    """
    q = list(c[1:]) if on_surface else list(c)
    if not q or all(ck == 0 for ck in q):  # phi identically 0: never turns negative
        return None, []
    zero = 0 * q[0]
    if len(q) == 1:
        return (None if q[0] >= 0 else zero), []
    if q[0] < 0 and abs(q[0]) > tail_sum(q, 1):
        return zero, []
    touches: list = []
    min_w = _ldexp(1, -min(_prec(q[0]) // 2, MAX_DEPTH), q[0])
    tt = zero if touch_tol is None else touch_tol
    half = (zero + 1) / 2
    x = None
    stack = [(zero, zero + 1, q)]  # intervals still to search, leftmost on top
    budget = MAX_INTERVALS
    while stack:
        a, w, qq = stack.pop()
        budget -= 1
        if budget < 0:  # noise-level polynomial (phi = 0 to working precision): a touch
            touches.append(a)
            break
        rest = tail_sum(qq, 1)
        if abs(qq[0]) > rest:  # no root here
            if qq[0] > 0:
                continue
            x = a
            break
        if abs(qq[1]) > deriv_tail(qq):  # monotone: a root iff the ends differ in sign
            if qq[0] < 0:
                x = a
                break
            if sum(qq) < 0:
                x = a + w * _newton_bracketed(qq)
                break
            continue
        if w < min_w:  # a double root: sign change or tangential touch
            if sum(qq) < 0:
                x = a + w * _bisect_first_negative(qq) if qq[0] >= 0 else a
                break
            if abs(qq[0]) <= tt * 2 + rest:
                touches.append(a + w / 2)
            continue
        stack.append((a + w / 2, w / 2, shift(qq, half, half)))
        stack.append((a, w / 2, shift(qq, 0, half)))
    if x is not None:
        touches = [t for t in touches if t < x]
    # merge touches closer than min_w (one tangency reported once)
    merged: list = []
    for t in sorted(touches):
        if not merged or t - merged[-1] > 4 * min_w:
            merged.append(t)
    return x, merged


# switching ------------------------------------------------------------------------------------
def normal_rates(col: list, g: list, K: list, gam, rows: list, alpha, tol_rel) -> tuple:
    """(d0, d1, tol) lists for the rows i of one neuron whose slope column is ``col``."""
    n = len(g)
    d0s, d1s, tols = [], [], []
    for i in rows:
        terms = [col[k] * g[k] * K[k][i] for k in range(n)]
        base = sum(terms) - terms[i]
        own = g[i] * K[i][i]
        d0s.append(gam * (base + alpha * own))
        d1s.append(gam * (base + own))
        tols.append(tol_rel * abs(gam) * (sum(abs(t) for t in terms) + abs(own)))
    return d0s, d1s, tols


def classify(d0, d1, tol) -> int:
    if d0 > tol:
        return ACTIVE if d1 >= -tol else SLIDING
    return INACTIVE


def repelling(d0, d1, tol) -> bool:
    return d0 < -tol and d1 > tol


def sliding_slopes(col: list, g: list, K: list, rows: list) -> list:
    """Slopes c keeping <x_i, w_j'> = 0 for i in rows: sum_{k in rows} c_k g_k K_ki = -sum_{k not in rows} col_k g_k K_ki."""
    n = len(g)
    rs = set(rows)
    rhs = [-sum(col[k] * g[k] * K[k][i] for k in range(n) if k not in rs) for i in rows]
    M = [[K[i][k] * g[k] for k in rows] for i in rows]
    return num.solve(M, rhs)


def resolve_neuron(col: list, g: list, K: list, gam, rows: list, alpha, tol_rel, max_iter: int = 50) -> tuple:
    """Jointly settle the on-surface ``rows`` of one neuron (port of switching.resolve_neuron).

    Returns (states, slopes, repelling flags) per row."""
    col = list(col)
    state = None
    one = num.mpfr(1)
    for _ in range(max_iter):
        d0, d1, tol = normal_rates(col, g, K, gam, rows, alpha, tol_rel)
        new = [classify(a, b, t) for a, b, t in zip(d0, d1, tol)]
        for r, st in zip(rows, new):
            if st == ACTIVE:
                col[r] = one
            elif st == INACTIVE:
                col[r] = alpha
        slide = [r for r, st in zip(rows, new) if st == SLIDING]
        if slide:
            cs = sliding_slopes(col, g, K, slide) if alpha < 1 else [one] * len(slide)
            for r, cval in zip(slide, cs):
                col[r] = min(max(cval, alpha), one)
                if cval > 1:
                    new[rows.index(r)] = ACTIVE
                elif cval < alpha:
                    new[rows.index(r)] = INACTIVE
        if new == state:
            break
        state = new
    d0, d1, tol = normal_rates(col, g, K, gam, rows, alpha, tol_rel)
    rep = [repelling(a, b, t) for a, b, t in zip(d0, d1, tol)]
    return state, [col[r] for r in rows], rep


def project_out(w: list, X: list, K: list, rows: list) -> list:
    """w minus its orthogonal projection onto span{x_i : i in rows} (so <x_i, w> = 0 for i in
    rows). Modified Gram-Schmidt with re-orthogonalisation; dependent x_i (e.g. x_k = -x_i, the
    same hyperplane) are skipped, like a least-squares projection."""
    basis: list = []
    for i in rows:
        q = list(X[i])
        for _ in range(2):
            for b in basis:
                dp = num.dot(b, q)
                q = [qc - dp * bc for qc, bc in zip(q, b)]
        nrm = num.sqrt(num.dot(q, q))
        if nrm > num.ldexp(1, -num.prec() // 2) * num.sqrt(K[i][i]):
            basis.append([qc / nrm for qc in q])
    out = list(w)
    for _ in range(2):
        for b in basis:
            dp = num.dot(b, out)
            out = [oc - dp * bc for oc, bc in zip(out, b)]
    return out


def event_kind(prev: int, new: int, trig: bool, rep: bool) -> tuple:
    """(kind or None, direction) exactly as the float64 backend logs them."""
    if new == SLIDING:
        return (None if prev == 0 else "sliding"), 0
    if prev == 0:
        return "sliding_exit", (1 if new == ACTIVE else -1)
    if prev == -1 and new == ACTIVE:
        return "activate", 1
    if prev == 1 and new == INACTIVE:
        return "deactivate", -1
    if rep or trig:
        return "grazing", 0
    return None, 0


def resolve_lines(col: list, g: list, K: list, gam, members: list, signs: list, alpha, tol_rel,
                  max_iter: int = 50) -> tuple:
    """Settle the on-surface lines of one neuron (port of switching.resolve_lines): rows on one line through 0 share the
    surface, a row has its representative's slope s (parallel) or 1 + alpha - s (mirror). Returns (state, slope of the
    representative, repelling) per line. A line that slides is refused (NumericalError): the mp series integrates
    sliding per independent row, not for coupled rows."""
    from verify.errors import NumericalError

    col = list(col)
    n, one = len(g), num.mpfr(1)
    state, flags = None, []
    for _ in range(max_iter):
        new, flags = [], []
        for rows, sg in zip(members, signs):
            r = rows[0]
            fixed = list(col)
            for m, s in zip(rows, sg):
                fixed[m] = (one + alpha) if s < 0 else num.mpfr(0)
            terms = [fixed[k] * g[k] * K[k][r] for k in range(n)]
            own = sum(s * g[m] * K[m][r] for m, s in zip(rows, sg))
            base = sum(terms)
            d0, d1 = gam * (base + alpha * own), gam * (base + own)
            tol = tol_rel * abs(gam) * (sum(abs(t) for t in terms) + abs(own))
            new.append(classify(d0, d1, tol))
            flags.append(repelling(d0, d1, tol))
        if SLIDING in new:
            raise NumericalError("mp backend: rows on one line through 0 (x_k = +-c x_i) slide together; coupled "
                                 "sliding is integrated by the float64 engine only")
        for (rows, sg), st in zip(zip(members, signs), new):
            s_rep = one if st == ACTIVE else alpha
            for m, s in zip(rows, sg):
                col[m] = s_rep if s > 0 else one + alpha - s_rep
        if new == state:
            break
        state = new
    return state, [col[rows[0]] for rows in members], flags
