"""Claim sheet 000 sections 1.1 and 1.6 (definitions and their consequences, static): PL-D1 (b) OS implies strict
linear separability with the witness sum_i y_i x_i, PL-D1 (c) the prose intuition "opposite orthants" (false:
expected REFUTED), and the derived consequences of the span assumption (PL-A-SPAN).
"""

from __future__ import annotations

import itertools
from functools import partial

import numpy as np
from hypothesis import strategies as st

from verify.claims.model import Margin, measures
from verify.margins import max_margin
from verify.strategies import GeometryCase, as_case
from verify.verdicts import Verdict

from properties.phuong_lampert2021 import datasets as D
from properties.phuong_lampert2021 import sectors as S
from properties.phuong_lampert2021._shared import U_ROUND, exact_margin, lower_bound_ratio, paper_claim, worst
from properties.phuong_lampert2021.audit import span_part

static_claim = partial(paper_claim, horizon=None, tags=("pointwise", "static"))


@measures("min_j (y_j w^T x_j - ||x_j||^2) / X_max^2, w = sum_i y_i x_i (relative to X_max^2)")
def separator_margin(case: GeometryCase) -> Margin:
    """PL-D1 (b): w = sum_i y_i x_i has y_j w^T x_j >= ||x_j||^2 > 0 for every j; margin
    min_j (y_j w^T x_j - ||x_j||^2) / max_i ||x_i||^2, error 4 n d u; ratio max_j ||x_j||^2 / (y_j w^T x_j)."""
    ds = as_case(case).dataset
    X = ds.X / ds.X_max
    w = ds.y @ X
    sq = np.sum(X * X, axis=1)
    slack = ds.y * (X @ w) - sq
    ratio, said = lower_bound_ratio(sq, ds.y * (X @ w), "max_j ||x_j||^2 / (y_j w^T x_j)")
    return Margin(float(slack.min()), 4.0 * ds.n * ds.d * U_ROUND, f"min_j y_j w^T x_j - ||x_j||^2 = {slack.min():.6g}{said}",
                  ratio=ratio)


D1B = static_claim(
    id="PL-D1b",
    node="OS",
    source="Sec. 2, eq. (1) ('any training example can serve as a linear separator'); PL-D1 (a)-(b)",
    statement="On OS data w = sum_i y_i x_i separates strictly: y_j w^T x_j >= ||x_j||^2 > 0 for all j",
    check=separator_margin,
    over=D.os_cases(d=(1, 4), n_side=(1, 6)),
    assumptions=("H-OS (by construction)",),
)


@measures("max over sign vectors s of min_i,k y_i s_k x_ik / X_max (relative to X_max)")
def orthant_margin(case: GeometryCase) -> Margin:
    """PL-D1 (c), the prose intuition: some sign vector s has s (.) x_i >= 0 for every positive and <= 0 for every
    negative (the classes lie in opposite closed orthants of the standard basis). Margin max_s min_{i,k} y_i s_k x_ik
    (relative to X_max; exact signs, error 0)."""
    ds = as_case(case).dataset
    X = ds.X / ds.X_max
    best = max(float(np.min(ds.y[:, None] * np.asarray(s)[None, :] * X)) for s in itertools.product((1.0, -1.0), repeat=ds.d))
    return Margin(best, 0.0, f"best orthant pair: min_i,k y_i s_k x_ik = {best:.6g}")


D1C = static_claim(
    id="PL-D1c-orthants",
    node="OS",
    source="Sec. 1 prose ('positive and negative examples lie in opposite orthants'); PL-D1 (c) [INF]",
    statement="INFORMAL, AS WRITTEN: OS data put the two classes in opposite orthants. False: + at 10 and 80 deg, - at 175 deg "
              "is OS, and no orthant pair of the standard basis contains them",
    check=orthant_margin,
    over=st.one_of(D.fixed_cases(D.orthant_counterexample), D.os_cases()),
    expected=Verdict.REFUTED,
    assumptions=("H-OS (by construction)",),
    tags=("pointwise", "static", "prose"),
)


@measures("+1 holds / -1 violated (exact decisions on n+-, orthogonality and sigma+-)")
def span_consequences(case: GeometryCase) -> Margin:
    """PL-A-SPAN (derived): if both support sets of w+- span R^d then n+, n- >= d, no example is orthogonal to the
    whole other class, sigma+ = y and sigma- = -y (exact signs). Vacuous where H-SPAN fails."""
    ds = as_case(case).dataset
    if not ds.both_classes:
        return Margin(0.0, 0.0, "single class", vacuous=True)
    mm = max_margin(ds)
    for mp, rows in ((mm.plus, ds.I_pos), (mm.minus, ds.I_neg)):
        if mp.w is None or span_part(ds.X, mp, rows)["rank"] < ds.d:
            return Margin(0.0, 0.0, "H-SPAN fails (support rank < d)", vacuous=True)
    gram, _, _ = S.exact_signs(ds.X, ds.y)
    parts = [exact_margin(min(ds.n_pos, ds.n_neg) >= ds.d, f"n+ = {ds.n_pos}, n- = {ds.n_neg}, d = {ds.d}")]
    cross = ~np.equal.outer(ds.y, ds.y)
    lonely = [j for j in range(ds.n) if not np.any(gram[j][cross[j]] != 0)]
    parts.append(exact_margin(not lonely, f"examples orthogonal to the whole other class: {lonely}"))
    try:
        sp, sm = S.sigma_pm(ds.y, gram)
        parts.append(exact_margin(bool(np.array_equal(sp, ds.y) and np.array_equal(sm, -ds.y)),
                                  f"sigma+ = {sp.tolist()}, sigma- = {sm.tolist()}, y = {ds.y.astype(int).tolist()}"))
    except ValueError as exc:
        parts.append(Margin(0.0, 0.0, str(exc), vacuous=True))
    return worst(parts)


SPAN = static_claim(
    id="PL-A-SPAN",
    node="SPAN", uses=("OS",),
    source="Theorem 1 (support span assumption); PL-A-SPAN consequences [DER], sheet 1.6",
    statement="On OS data whose support examples of w+ and of w- each span R^d: n+, n- >= d, no example is orthogonal to all "
              "of the other class, so sigma+ = y and sigma- = -y (the zero cases of eqs. (13)-(14) are vacuous)",
    check=span_consequences,
    over=D.os_cases(families=("span", "orthant"), n_side=(2, 5)),
    assumptions=("H-OS (by construction)", "H-SPAN (checked; vacuous otherwise)"),
)
