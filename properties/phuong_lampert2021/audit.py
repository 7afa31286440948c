"""Seed 000's audit quantities (claim sheet 000 section 4, items 1, 3, 4 and 7): the plug-in's ``audit`` hook.

On top of the generic audit (exact sign structure, orthogonal separability, and the max-margin problems
w_plus / w_minus with their supports and KKT residuals, :mod:`verify.margins`):

- the OS margin mu_OS = min(min_{y_i = y_j} K_ij, -max_{y_i != y_j} K_ij) of the Gram matrix K = X X^T
  (``os_margin``; ``os_margin_cos`` the same on cosines, scale-free) and the exactly-orthogonal
  cross-class pairs (exact rationals where affordable, else |K_ij| <= 1e-12 max_i ||x_i||^2);
- the span assumption: rank and smallest singular value of the support examples of w+ and w-
  (those with w^T x_i = 1, i.e. support and weakly active points of the generic solution);
- the class centres m+- = sum_{y_i = +-1} x_i / 2 (sheet 1.8, cross-entropy c_i = 1/2), their angles with
  w+-, and sigma+- of eqs. (13)-(14) (zero entries exact where affordable), checked against sign(X m+-);
- the predicted limits of item 7: ||w+-||, their ratio and the limit normalised margin 1/(2(||w+|| + ||w-||)).

Undefined quantities are None with the reason in ``na`` (single class, infeasible QP, non-OS data).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from verify.audit import Audit, Finding, PaperAudit, finding, fmt_num
from verify.data.dataset import safe_row_norms, unit_rows
from verify.margins import MinNormPoint

from properties.phuong_lampert2021 import sectors

SPAN_RTOL = 1e-9  # singular values below SPAN_RTOL * sigma_1 count as zero (the active set itself is found to ~1e-7)
ZERO_RTOL = 1e-12  # float fallback: |K_ij| <= ZERO_RTOL * max ||x||^2 is an exactly-orthogonal pair (sheet 1.1)


def _rescaled(value: float, e: int) -> float:
    """value * 2^e, NaN where that underflows to 0 from a nonzero value (dropped to None by the audit)."""
    with np.errstate(over="ignore", under="ignore"):  # beyond float64: inf, dropped to None by the audit
        out = float(np.ldexp(value, e))
    return math.nan if out == 0.0 and value != 0.0 else out


def os_margins(X: np.ndarray, y: np.ndarray) -> dict[str, float | None]:
    """min same-label and max cross-label entries of K = X X^T and of the cosine matrix, and mu_OS for both
    (sheet 1.1); cross-label entries are None for single-class data (mu_OS is then min_same)."""
    e = int(np.frexp(np.max(np.abs(X)))[1])
    Xs = np.ldexp(X, -e)  # exact: rows over a power of two
    with np.errstate(under="ignore"):
        K = Xs @ Xs.T
    U = unit_rows(X)  # cosines from unit rows: any row scales
    C = U @ U.T
    same = np.equal.outer(y, y)
    out: dict[str, float | None] = {}
    for tag, M, scale in (("", K, 2 * e), ("_cos", C, 0)):
        lo = _rescaled(M[same].min(), scale)
        hi = _rescaled(M[~same].max(), scale) if (~same).any() else None
        out[f"os_min_same{tag}"], out[f"os_max_cross{tag}"] = lo, hi
        out[f"os_margin{tag}"] = lo if hi is None else min(lo, -hi)
    return out


def span_part(X: np.ndarray, mp: MinNormPoint, rows: np.ndarray) -> dict[str, Any]:
    """Support examples {i : w^T x_i = 1} of one max-margin problem (global indices), their rank and the
    d-th singular value of their matrix (0 when fewer than d), as the span assumption needs."""
    active = sorted(mp.support + mp.weakly_active)
    idx = [int(rows[i]) for i in active]
    d = X.shape[1]
    e = int(np.frexp(np.max(np.abs(X[idx])))[1]) if idx else 0
    with np.errstate(under="ignore"):
        sv = np.ldexp(np.linalg.svd(np.ldexp(X[idx], -e), compute_uv=False), e) if idx else np.zeros(0)
    rank = int(np.sum(sv > SPAN_RTOL * sv[0])) if len(sv) else 0
    return {"support": idx, "rank": rank, "sigma_min": float(sv[d - 1]) if len(sv) >= d else 0.0}


def norm(v: np.ndarray) -> float:
    """||v|| without under- or overflow in the squares (scale-free data)."""
    return float(safe_row_norms(np.atleast_2d(v))[0])


def _angle_deg(a: np.ndarray, b: np.ndarray) -> float:
    cos = float((a / norm(a)) @ (b / norm(b)))
    return math.degrees(math.acos(max(-1.0, min(1.0, cos))))


def quantities(base: Audit) -> PaperAudit:
    """The hook: seed 000's data quantities, findings and display rows for ``base``."""
    ds = base.dataset
    X, y = ds.X, ds.y
    na: dict[str, str] = {}
    q: dict[str, Any] = os_margins(X, y)
    gram, cplus, cminus, exact = sectors.signs(X, y)
    cross = np.argwhere(np.triu((gram == 0) & ~np.equal.outer(y, y), k=1))
    q.update(os_orthogonal_pairs=[(int(i), int(j)) for i, j in cross], os_signs_exact=exact)
    if not ds.both_classes:
        for key in ("os_max_cross", "os_max_cross_cos"):
            na[key] = "single class: no opposite-label pairs"
    mm = base.max_margin
    for side, mp, rows in (("plus", mm.plus, ds.I_pos), ("minus", mm.minus, ds.I_neg)):
        if mp.inverse_norm is None:  # infeasible (w itself may lie beyond float64 with the supports known)
            for key in (f"span_support_{side}", f"span_rank_{side}", f"span_sigma_min_{side}", f"w_{side}_norm"):
                q[key] = None
                na[key] = f"w_{side} undefined: {mp.reason}"
            continue
        part = span_part(X, mp, rows)
        q.update({f"span_support_{side}": part["support"], f"span_rank_{side}": part["rank"],
                  f"span_sigma_min_{side}": part["sigma_min"],
                  f"w_{side}_norm": 1.0 / mp.inverse_norm if mp.inverse_norm > 0.0 else math.inf})
    ranks = (q["span_rank_plus"], q["span_rank_minus"])
    q["span_holds"] = None if None in ranks else bool(min(ranks) >= ds.d)
    if q["span_holds"] is None:
        na["span_holds"] = "a max-margin problem is undefined"
    m_plus, m_minus = sectors.centres(X, y)
    q.update(m_plus=m_plus, m_minus=m_minus, m_plus_norm=norm(m_plus), m_minus_norm=norm(m_minus))
    for side, m, w in (("plus", m_plus, mm.plus.direction), ("minus", m_minus, mm.minus.direction)):
        if q[f"m_{side}_norm"] == 0.0:
            q[f"m_hat_{side}"], na[f"m_hat_{side}"] = None, "class is empty" if not ds.both_classes else "m = 0 in float64"
        else:
            q[f"m_hat_{side}"] = m / q[f"m_{side}_norm"]
        if w is None or q[f"m_{side}_norm"] == 0.0:
            q[f"angle_m_w_{side}_deg"], na[f"angle_m_w_{side}_deg"] = None, f"m_{side} or w_{side} undefined"
        else:
            q[f"angle_m_w_{side}_deg"] = _angle_deg(m, w)
    try:
        sp, sm = sectors.sigma_pm(y, gram)
        q.update(sigma_plus=sp.tolist(), sigma_minus=sm.tolist(),
                 sigma_matches_centres=bool(np.array_equal(sp, cplus) and np.array_equal(sm, cminus)))
    except ValueError as exc:
        q.update(sigma_plus=None, sigma_minus=None, sigma_matches_centres=None)
        for key in ("sigma_plus", "sigma_minus", "sigma_matches_centres"):
            na[key] = str(exc)
    np_, nm = q["w_plus_norm"], q["w_minus_norm"]
    if np_ is None or nm is None:
        q.update(limit_norm_ratio=None, limit_margin=None)
        na["limit_norm_ratio"] = na["limit_margin"] = "needs both w_plus and w_minus"
    else:
        q.update(limit_norm_ratio=np_ / nm, limit_margin=1.0 / (2.0 * (np_ + nm)))
    return PaperAudit(q, _findings(base, q), [], na, _rows(base, q, na))


def _findings(base: Audit, q: dict[str, Any]) -> list[Finding]:
    """The hypotheses H-OS and H-SPAN of Theorem 1, with values and margins."""
    F = [finding("both classes present", float(min(base.n_pos, base.n_neg)), ">=", 1.0, "000 Theorem 1"),
         finding("H-OS: same-label products > 0 (min cosine)", q["os_min_same_cos"], ">", 0.0, "000 eq. (1); PL-D1",
                 "exact sign" if q["os_signs_exact"] else "float64 sign")]
    if q["os_max_cross_cos"] is not None:
        F.append(finding("H-OS: opposite-label products <= 0 (max cosine)", q["os_max_cross_cos"], "<=", 0.0,
                         "000 eq. (1); PL-D1", "exact sign" if q["os_signs_exact"] else "float64 sign"))
    F.append(finding("generic data: exactly-orthogonal cross pairs", float(len(q["os_orthogonal_pairs"])), "<=", 0.0,
                     "000 footnote 2; eqs. (13)-(14) zero entries",
                     "non-generic (measure zero): sigma+- have zero entries" if q["os_orthogonal_pairs"] else ""))
    for side in ("plus", "minus"):
        rank = q[f"span_rank_{side}"]
        F.append(finding(f"H-SPAN: support examples of w_{side} span R^d (rank)", None if rank is None else float(rank),
                         ">=", float(base.d), "000 Theorem 1 (support span)",
                         f"sigma_min = {fmt_num(q[f'span_sigma_min_{side}'])}"))
    return F


def _rows(base: Audit, q: dict[str, Any], na: dict[str, str]) -> list[tuple[str, str, str]]:
    """The data rows of ``verify audit`` for seed 000."""
    return [
        ("mu_OS = min(min same K_ij, -max cross K_ij)", fmt_num(q["os_margin"]), f"cosine form {fmt_num(q['os_margin_cos'])}"),
        ("exactly-orthogonal cross pairs", str(len(q["os_orthogonal_pairs"])),
         "exact rationals" if q["os_signs_exact"] else "float64, tolerance"),
        ("H-SPAN: rank of w+ / w- supports", f"{fmt_num(q['span_rank_plus'])} / {fmt_num(q['span_rank_minus'])}",
         f"d = {base.d}; sigma_min {fmt_num(q['span_sigma_min_plus'])} / {fmt_num(q['span_sigma_min_minus'])}"),
        ("||m+|| / ||m-|| (class centres, c_i = 1/2)", f"{fmt_num(q['m_plus_norm'])} / {fmt_num(q['m_minus_norm'])}", ""),
        ("angle(m+, w+) / angle(m-, w-) [deg]", f"{fmt_num(q['angle_m_w_plus_deg'])} / {fmt_num(q['angle_m_w_minus_deg'])}",
         "early alignment vs max margin tell apart when large"),
        ("sigma+ = sign(X m+), sigma- = sign(X m-) (eqs. 13-14)", fmt_num(q["sigma_matches_centres"]),
         na.get("sigma_plus", "")),
        ("||w+|| / ||w-|| (predicted limit ratio)", fmt_num(q["limit_norm_ratio"]), na.get("limit_norm_ratio", "")),
        ("1/(2(||w+|| + ||w-||)) (limit normalised margin)", fmt_num(q["limit_margin"]), na.get("limit_margin", "")),
    ]
