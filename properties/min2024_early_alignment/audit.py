"""Seed 004's audit quantities (claim sheet 004 sections 1.8-1.10): the plug-in's ``audit`` hook.

On top of the generic audit (verify.audit: mu, cones rho+-, norms, class sums, the init's scale): zeta1,
xi, zeta2, m, t1, T(eps), the initialisation-scale condition (28) under both readings of errata R8 and
R9, t2 (39), alpha_rate and the path times, with findings for Theorem 1's assumptions and the errata
that change numbers (R8, R9, n = 1).

Scale. The eps convention is verify.audit's: ``(W0, v0)`` is the eps-free base, weights eps (W0, v0)
(004 eq. (3)); W_max, W_min are norms of base rows. The bounds are not invariant under moving scale
between eps and W0 (eq. (28) involves eps W_max^2, eps2 and T(eps) eps alone). Quantities that carry the
data's scale (alpha_rate: degree 1; t1, T_Pmax, Delta t, T(eps), t2: degree -1) are formed by
``quotient`` (no intermediate under- or overflow); ln eps bounds are logarithms (finite at any scale;
ln eps2 is -inf only where X_max / X_min itself exceeds float64), so eps2 = 1e-4300 is exact to float64
relative precision.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import numpy as np

from verify.audit import (BALANCE_RTOL, AppliedErratum, Audit, AuditInit, Finding, PaperAudit, audit, finding, fmt_num,
                          fmt_pow10, quotient)
from verify.data.dataset import Dataset
from verify.errors import InputError
from verify.model.init import Initialization
from verify.scenarios import EpsRule

ZETA1_SLACK = 1e-12  # zeta1 = zeta1_sup * (1 - ZETA1_SLACK): the sup itself is not attained
C_PRINTED = 4.0  # eq. (28) first-term constant as printed
C_CORRECTED = 8.0  # the constant (29) needs (erratum R9)
LN10 = math.log(10.0)


def harmonic(k: int) -> float:
    """H_k = sum_{i=1..k} 1/i, H_0 = 0."""
    return math.fsum(1.0 / i for i in range(1, k + 1))


def zeta1_sup(rho_plus: float | None, rho_minus: float | None) -> float:
    """Exact sup of valid zeta1 (004 Lemma 8): min(rho+, rho-)^2 over the present classes, 0 if <= 0.

    The cap S^zeta_x (half-angle arcsin sqrt(zeta)) lies in {y_i <x_i, z> > 0} iff sqrt(zeta) < y_i cos(x, x_i).
    """
    rho = min(r for r in (rho_plus, rho_minus) if r is not None)
    return rho * rho if rho > 0.0 else 0.0


def c_star(ds: Dataset, W0: np.ndarray, signs: np.ndarray) -> float:
    """max(cos(w_j, x-) over s_j = +1, cos(w_j, x+) over s_j = -1) (004 Assumption 2: < 1); an empty
    class sum contributes -inf (the condition is vacuous)."""
    from verify.data.dataset import unit_rows

    Wn = unit_rows(np.atleast_2d(np.asarray(W0, dtype=float)))
    best = -np.inf
    for s, label in ((1.0, -1), (-1.0, +1)):
        target = ds.class_direction(label)
        sel = np.asarray(signs, dtype=float) == s
        if np.any(target != 0.0) and sel.any():
            best = max(best, float(np.max(Wn[sel] @ target)))
    return best


def zeta2_of(c: float) -> float:
    """Largest valid zeta2 (004 eq. (26)): 1 - max(c_star, 0)^2 (0 when c_star >= 1)."""
    return 1.0 - max(c, 0.0) ** 2 if c < 1.0 else 0.0


def t1_bound(n: int, m: float, mu: float, X_min: float) -> float:
    """t1 = 16 ln n / (m sqrt(mu) X_min) (004 Theorem 1; 0 for n = 1, sheet 7.3)."""
    return quotient(16.0 * math.log(n), m, math.sqrt(mu), X_min)


def log_eps1(mm: float, mu: float, X_min: float, X_max: float, n: int, h: int, W_max: float, c: float) -> float:
    """ln eps1 = ln(mm sqrt(mu) X_min / (c sqrt(h) n X_max^2 W_max^2)) (004 eq. (28), first term; R9: c = 8)."""
    if mm <= 0.0:
        return -math.inf
    return (math.log(mm) + 0.5 * math.log(mu) + math.log(X_min)
            - math.log(c) - 0.5 * math.log(h) - math.log(n) - 2.0 * math.log(X_max) - 2.0 * math.log(W_max))


def log_eps2(n: int, X_max: float, m: float, mu: float, X_min: float, h: int) -> float:
    """ln eps2 = -(1/2) ln h - 64 n X_max ln n / (m sqrt(mu) X_min) (004 eq. (28), second term)."""
    return -0.5 * math.log(h) - 64.0 * n * math.log(n) * (X_max / X_min) / (m * math.sqrt(mu))  # X_max/X_min: any scale


def T_of_log_eps(log_eps: float, h: int, n: int, X_max: float) -> float:
    """T(eps) = ln(1/(sqrt(h) eps)) / (4 n X_max) (004 Lemmas 1, 3; R3). Negative: lemmas vacuous."""
    return quotient(-0.5 * math.log(h) - log_eps, 4.0 * n, X_max)


def t2_side_bound(t1: float, mu: float, n_side: int, X_min: float, X_max: float, n: int, log_eps: float, W_min: float) -> float:
    """t2+- = t1 + (6 + 4 [ln 2 - 2 ln eps - ln sqrt(mu) - ln X_min - 2 ln W_min + 4 n X_max t1]) / a,
    a = sqrt(mu) n+- X_min (004 eq. (39), reading R17)."""
    inv_a = quotient(1.0, math.sqrt(mu), n_side, X_min)
    log_term = math.log(2.0) - 2.0 * log_eps - 0.5 * math.log(mu) - math.log(X_min) - 2.0 * math.log(W_min)
    return t1 + 6.0 * inv_a + 4.0 * inv_a * (log_term + 4.0 * n * (X_max * t1))


def delta_t(n_a: int, m: float, mu: float, X_min: float) -> float:
    """Delta t(n_a) = 4 / (m sqrt(mu) n_a X_min) (004 App. C; R7)."""
    return quotient(4.0, m, math.sqrt(mu), n_a, X_min)


def _safe_exp(x: float) -> float:
    return math.exp(x) if x < 709.0 else math.inf


def _binding(zeta1: float, zeta2: float | None, xi: float, m: float) -> str:
    for name, val in (("zeta2", zeta2), ("xi", xi), ("zeta1", zeta1)):
        if val is not None and val == m:
            return name
    return "zeta1"


def theorem1_quantities(base: Audit) -> PaperAudit:
    """The hook: seed 004's quantities, findings, errata and display rows for ``base``."""
    ds, init, mu = base.dataset, base.init, base.mu
    n, X_min, X_max = ds.n, ds.X_min, ds.X_max
    na: dict[str, str] = {}
    positive = base.mu_sign > 0
    z1_sup = zeta1_sup(base.rho_plus, base.rho_minus)
    zeta1 = z1_sup * (1.0 - ZETA1_SLACK)
    xi = mu * mu if mu > 0.0 else 0.0
    if not ds.both_classes:
        missing = "x-" if ds.n_neg == 0 else "x+"
        na["zeta1"] = f"single class: zeta1 uses only the cap around the present class sum ({missing} = 0, its condition is vacuous)"
    alpha_rate = quotient(X_min, 32.0, X_max / X_min) * mu * mu if positive else None  # (mu X_min)^2/(32 X_max), R19
    if not positive:
        na["alpha_rate"] = "mu <= 0: Assumption 1 fails, the rate bound is undefined"
    elif alpha_rate == 0.0:
        alpha_rate, na["alpha_rate"] = None, "below the float64 range (X_min^2 / X_max underflows): rescale the data to compute it"
    zeta2 = cs = None
    if init is not None:
        cs = c_star(ds, init.W0, np.sign(init.v0))
        zeta2 = zeta2_of(cs)
    m = min(min(zeta1, zeta2) if zeta2 is not None else zeta1, xi)
    reason_bounds = "mu <= 0 (Assumption 1 fails)" if not positive else "m = min(zeta, xi) = 0"
    t1 = t1_bound(n, m, mu, X_min) if positive and m > 0.0 else None
    q: dict[str, Any] = dict(
        assumption1=positive, zeta1_sup=z1_sup, zeta1=zeta1, xi=xi,
        xi_exact=(base.mu_squared_exact if base.mu_sign > 0 else ("0" if base.mu_sign == 0 else None))
        if base.sign_structure_exact else None,
        alpha_rate=alpha_rate, m=m, m_binding=_binding(zeta1, zeta2, xi, m), mm=min(mu, m) if positive else 0.0,
        t1=t1, t1_reading=("m = min(zeta1, zeta2, xi) (corrected reading R8)" if init is not None
                           else "no init: m = min(zeta1, xi) (zeta2 omitted; the init can only lower m)"),
        t1_dead_path=None, T_Pmax_plus=None, T_Pmax_minus=None, T_Pmax=None, delta_t_coef=None, delta_t=None,
    )
    if t1 is None:
        for key in ("t1", "t1_dead_path", "T_Pmax", "delta_t_coef"):
            na[key] = f"bound undefined: {reason_bounds}"
    else:
        coef = delta_t(1, m, mu, X_min)
        q.update(delta_t_coef=coef, t1_dead_path=coef * harmonic(n),
                 delta_t={str(k): coef / k for k in sorted({1, n})})
        if ds.n_pos >= 1:
            q["T_Pmax_plus"] = coef * (harmonic(ds.n_pos - 1) + (harmonic(ds.n_neg) + 0.5 if ds.n_neg >= 1 else 0.0))
        else:
            na["T_Pmax_plus"] = "no positive points"
        if ds.n_neg >= 1:
            q["T_Pmax_minus"] = coef * (harmonic(ds.n_neg - 1) + (harmonic(ds.n_pos) + 0.5 if ds.n_pos >= 1 else 0.0))
        else:
            na["T_Pmax_minus"] = "no negative points"
        q["T_Pmax"] = max(t for t in (q["T_Pmax_plus"], q["T_Pmax_minus"]) if t is not None)
    if init is None:
        q.update({k: None for k in _INIT_KEYS})
        for key in ("zeta2", "eps_required", "T_eps", "t2"):
            na[key] = "no init given"
    else:
        q.update(_init_part(base, init, zeta1, xi, zeta2, cs, t1, na))
    return PaperAudit(q, _findings(base, q), _errata(base, q), na, _rows(base, q, na), _init_rows(base, q, na) if init else [])


_INIT_KEYS = ("c_star", "assumption2", "zeta2", "zeta_min", "zeta_max", "m_min", "m_max", "t1_min", "t1_max", "T_eps",
              "log_eps_L3", "eps_L3", "log_eps1", "log_eps1_printed", "eps1", "eps1_printed", "log_eps2", "eps2",
              "log_eps_required", "log10_eps_required", "eps_required", "log_eps_required_printed", "eps_satisfies",
              "eps_satisfies_printed", "eps_conditions", "readings", "T_at_eps_required", "t2_plus", "t2_minus", "t2")


def _init_part(base: Audit, init: AuditInit, zeta1: float, xi: float, zeta2: float, cs: float, t1: float | None,
               na: dict[str, str]) -> dict[str, Any]:
    """Init-dependent quantities of the master table (sheet 1.10), both readings of R8 and R9."""
    ds, mu, le = base.dataset, base.mu, init.log_eps
    n, X_min, X_max, h, W_max, W_min = ds.n, ds.X_min, ds.X_max, base.h, base.W_max, base.W_min
    positive = base.mu_sign > 0
    out: dict[str, Any] = {k: None for k in _INIT_KEYS}
    out.update(c_star=cs, assumption2=bool(cs < 1.0), zeta2=zeta2, zeta_min=min(zeta1, zeta2), zeta_max=max(zeta1, zeta2),
               T_eps=T_of_log_eps(le, h, n, X_max),
               log_eps_L3=-math.log(4.0) - 0.5 * math.log(h) - math.log(X_max) - 2.0 * math.log(W_max))
    out["eps_L3"] = _safe_exp(out["log_eps_L3"])
    readings: dict[str, dict[str, Any]] = {}
    conditions: dict[str, bool] = {}
    for reading, zeta in (("min", out["zeta_min"]), ("max", out["zeta_max"])):
        m = min(zeta, xi)
        r: dict[str, Any] = {"zeta": zeta, "m": m, "mm": min(mu, m) if positive else 0.0}
        if positive and m > 0.0:
            r["t1"] = t1_bound(n, m, mu, X_min)
            r["log_eps2"] = log_eps2(n, X_max, m, mu, X_min, h)
            for c in (C_PRINTED, C_CORRECTED):
                tag = f"c{int(c)}"
                r[f"log_eps1_{tag}"] = log_eps1(r["mm"], mu, X_min, X_max, n, h, W_max, c)
                r[f"log_eps_required_{tag}"] = min(r[f"log_eps1_{tag}"], r["log_eps2"])
                r[f"eps_satisfies_{tag}"] = bool(le <= r[f"log_eps_required_{tag}"])
                conditions[f"{reading},c={int(c)}"] = r[f"eps_satisfies_{tag}"]
        else:
            r["undefined"] = "mu <= 0 (Assumption 1 fails)" if not positive else "m = min(zeta, xi) = 0"
        readings[reading] = r
    out.update(m_min=readings["min"]["m"], m_max=readings["max"]["m"], t1_min=readings["min"].get("t1"),
               t1_max=readings["max"].get("t1"), readings=readings, eps_conditions=conditions)
    cor = readings["min"]
    if "t1" not in cor:
        for key in ("eps_required", "eps1", "eps2", "t2"):
            na[key] = f"bound undefined: {cor['undefined']}"
        return out
    out.update(
        log_eps1=cor["log_eps1_c8"], log_eps1_printed=cor["log_eps1_c4"],
        eps1=_safe_exp(cor["log_eps1_c8"]), eps1_printed=_safe_exp(cor["log_eps1_c4"]),
        log_eps2=cor["log_eps2"], eps2=_safe_exp(cor["log_eps2"]), log_eps_required=cor["log_eps_required_c8"],
        log10_eps_required=cor["log_eps_required_c8"] / LN10, eps_required=_safe_exp(cor["log_eps_required_c8"]),
        eps_satisfies=cor["eps_satisfies_c8"], T_at_eps_required=T_of_log_eps(cor["log_eps_required_c8"], h, n, X_max),
    )
    printed = readings["max"]
    if "log_eps_required_c4" in printed:
        out["log_eps_required_printed"] = printed["log_eps_required_c4"]
        out["eps_satisfies_printed"] = printed["eps_satisfies_c4"]
    sides = {}
    for side, n_side in (("t2_plus", ds.n_pos), ("t2_minus", ds.n_neg)):
        if n_side >= 1:
            sides[side] = t2_side_bound(t1, mu, n_side, X_min, X_max, n, le, W_min)
        else:
            na[side] = "class is empty"
    out.update(sides)
    if ds.both_classes:
        out["t2"] = max(sides.values())
    else:
        na["t2"] = "single class: Theorem 1 part 2 needs both classes (sheet 5 P14)"
    return out


def _findings(base: Audit, q: dict[str, Any]) -> list[Finding]:
    """Theorem 1's assumptions and preconditions with values, thresholds and margins."""
    F = [
        finding("both classes present", float(min(base.n_pos, base.n_neg)), ">=", 1.0, "004 Theorem 1 part 2; sheet 1.8",
                "" if base.both_classes else "single-class data: part 2 cannot apply (P14)"),
        finding("Assumption 1: mu > 0", base.mu, ">", 0.0, "004 Assumption 1",
                "exact sign" if base.sign_structure_exact else "float64 sign"),
        finding("same-label pairs correlated: min cos > 0", base.min_same_label_cos, ">", 0.0, "004 Assumption 1"),
    ]
    if base.max_opposite_label_cos is not None:
        F.append(finding("opposite-label pairs: max cos < 0", base.max_opposite_label_cos, "<", 0.0, "004 Assumption 1"))
    F += [
        finding("zeta1 > 0 (cap around x+/x- inside S+/S-)", q["zeta1_sup"], ">", 0.0, "004 Lemma 8"),
        finding("xi = mu^2 > 0", q["xi"], ">", 0.0, "004 Lemma 9; sheet 1.9"),
        finding("ReLU activation (leaky slope alpha = 0)", base.alpha, "<=", 0.0, "004 Theorem 1; sheet 5 P5",
                "leaky ReLU: S_dead is not trapping, Theorem 1 not certified" if base.alpha > 0 else ""),
        finding("n >= 2 (t1 = 16 ln n/... is 0 at n = 1)", float(base.n), ">=", 2.0, "004 Theorem 1; sheet 7.3, P9"),
    ]
    if not base.has_init:
        return F
    F += [
        finding("Assumption 2: c_star < 1", q["c_star"], "<", 1.0, "004 Assumption 2; eq. (26)",
                "vacuous (no neuron faces a nonempty opposite class)" if q["c_star"] == -math.inf else ""),
        finding("balanced init: max_j |v_j^2 - ||w_j||^2| / max(v_j^2, ||w_j||^2)", base.imbalance, "<=",
                BALANCE_RTOL, "004 eq. (3)", "" if base.balanced else "unbalanced: sign preservation and the bounds are not claimed"),
        finding("neurons of both signs", float(min(base.n_vpos, base.n_vneg)), ">=", 1.0,
                "004 Theorem 1 part 2 (S+ and S- each need a neuron)"),
        finding("T(eps) > 0 (sqrt(h) eps < 1)", q["T_eps"], ">", 0.0, "004 Lemmas 1, 3; R3"),
        finding("eps <= eps_L3 (ln eps vs ln eps_L3)", base.log_eps, "<=", q["log_eps_L3"], "004 Lemma 3; R3"),
    ]
    if q.get("log_eps_required") is not None:
        F.append(finding("eps condition (28), corrected: min reading, c = 8 (ln eps vs ln eps_req)",
                         base.log_eps, "<=", q["log_eps_required"], "004 eq. (28); errata R8, R9"))
    else:
        F.append(Finding("eps condition (28), corrected", None, base.log_eps, None, "<=", None, "004 eq. (28)", "undefined"))
    if q.get("log_eps_required_printed") is not None:
        F.append(finding("eps condition (28), as printed: max reading, c = 4 (ln eps vs ln eps_req)",
                         base.log_eps, "<=", q["log_eps_required_printed"], "004 eq. (28) as printed"))
    return F


def _errata(base: Audit, q: dict[str, Any]) -> list[AppliedErratum]:
    """R8 (zeta = max vs min), R9 (constant 4 vs 8 in (28)), n = 1 (t1 = 0)."""
    E: list[AppliedErratum] = []
    r8 = ("R8", "004 App. C.2 after eq. (26); sheet 0.3 R8, 7.1", "zeta := max{zeta1, zeta2} must be min")
    r9 = ("R9", "004 eq. (28) first term; sheet 0.3 R9, 7.2", "constant 4 in eq. (28) too weak for (29); 8 needed")
    if base.has_init:
        rmin, rmax = q["readings"]["min"], q["readings"]["max"]
        vals = {"zeta_min": q["zeta_min"], "zeta_max": q["zeta_max"], "m_min": q["m_min"], "m_max": q["m_max"],
                "t1_min": rmin.get("t1"), "t1_max": rmax.get("t1"),
                "log10_eps_required_min": _log10(rmin.get("log_eps_required_c8")),
                "log10_eps_required_max": _log10(rmax.get("log_eps_required_c8"))}
        differ = q["m_min"] != q["m_max"]
        detail = (f"t1 = {_fmt(vals['t1_min'])} (min, corrected) vs {_fmt(vals['t1_max'])} (max, as printed); "
                  f"log10 eps_req = {_fmt(vals['log10_eps_required_min'])} vs {_fmt(vals['log10_eps_required_max'])}"
                  if differ else "both readings give the same m (zeta2 does not bind)")
        vals["differ"] = differ
        E.append(AppliedErratum(*r8, differ, detail, vals))
        if "log_eps1_c8" in rmin:
            eps1_binds = rmin["log_eps1_c8"] < rmin["log_eps2"]
            gap = (base.log_eps <= rmin["log_eps_required_c4"]) and not (base.log_eps <= rmin["log_eps_required_c8"])
            v9 = {"log10_eps1_c4": _log10(rmin["log_eps1_c4"]), "log10_eps1_c8": _log10(rmin["log_eps1_c8"]),
                  "log10_eps2": _log10(rmin["log_eps2"]), "eps1_binds": eps1_binds, "eps_in_gap": gap}
            detail9 = (f"log10 eps1 = {_fmt(v9['log10_eps1_c4'])} (c = 4) vs {_fmt(v9['log10_eps1_c8'])} (c = 8); "
                       + ("eps1 binds, so eps_req halves" if eps1_binds else "eps2 binds, eps_req unchanged")
                       + ("; the given eps passes c = 4 but fails c = 8" if gap else ""))
            E.append(AppliedErratum(*r9, eps1_binds or gap, detail9, v9))
        else:
            E.append(AppliedErratum(*r9, False, "bounds undefined here"))
    else:
        E.append(AppliedErratum(*r8, False, "needs an init (zeta2); without one t1 uses min(zeta1, xi)"))
    n1 = base.n == 1
    E.append(AppliedErratum("N1", "004 Theorem 1 t1 formula; sheet 5 P9, 7.3", "t1 = 16 ln n/(...) is 0 for n = 1", n1,
                            (f"n = 1: t1 = 0; use the dead-path bound 4 H_1/(m sqrt(mu) X_min) = {_fmt(q['t1_dead_path'])}"
                             if n1 else "n >= 2: the formula is fine"),
                            {"t1": q["t1"], "t1_dead_path": q["t1_dead_path"]}))
    return E


def _rows(base: Audit, q: dict[str, Any], na: dict[str, str]) -> list[tuple[str, str, str]]:
    """The data rows of ``verify audit`` for seed 004."""
    sign_note = "exact (rational)" if base.sign_structure_exact else "float64"
    return [
        ("Assumption 1, mu > 0", fmt_num(q["assumption1"]), sign_note),
        ("zeta1_sup (Lemma 8)", fmt_num(q["zeta1_sup"]), na.get("zeta1", "")),
        ("zeta1 (valid, just below sup)", fmt_num(q["zeta1"]), ""),
        ("xi = mu^2 (Lemma 9)", fmt_num(q["xi"]), ""),
        ("m = min(zeta, xi)", fmt_num(q["m"]), f"binding: {q['m_binding']}"),
        ("t1 = 16 ln n/(m sqrt(mu) X_min)", fmt_num(q["t1"]), na.get("t1", q["t1_reading"])),
        ("T(P_max) (R13)", fmt_num(q["T_Pmax"]), na.get("T_Pmax", "")),
        ("dead-path bound 4 H_n/(m sqrt(mu) X_min)", fmt_num(q["t1_dead_path"]), ""),
        ("Delta t(1) = 4/(m sqrt(mu) X_min)", fmt_num(q["delta_t_coef"]), "Delta t(n_a) = Delta t(1)/n_a"),
        ("alpha = (mu X_min)^2/(32 X_max) (R19)", fmt_num(q["alpha_rate"]), na.get("alpha_rate", "")),
    ]


def _init_rows(base: Audit, q: dict[str, Any], na: dict[str, str]) -> list[tuple[str, str, str]]:
    """The initialisation rows of ``verify audit`` for seed 004."""
    return [
        ("c_star (Assumption 2: < 1)", fmt_num(q["c_star"]), ""),
        ("zeta2 (eq. 26)", fmt_num(q["zeta2"]), ""),
        ("zeta = min / max{zeta1, zeta2} (R8)", f"{fmt_num(q['zeta_min'])} / {fmt_num(q['zeta_max'])}",
         "min is the corrected reading"),
        ("m (min / max reading)", f"{fmt_num(q['m_min'])} / {fmt_num(q['m_max'])}", ""),
        ("t1 (min / max reading)", f"{fmt_num(q['t1_min'])} / {fmt_num(q['t1_max'])}", ""),
        ("T(eps) (Lemmas 1, 3)", fmt_num(q["T_eps"]), "vacuous if < 0"),
        ("eps_L3 (Lemma 3)", fmt_pow10(q["log_eps_L3"]), ""),
        ("eps1, c = 4 printed / c = 8 (R9)", f"{fmt_pow10(q['log_eps1_printed'])} / {fmt_pow10(q['log_eps1'])}", ""),
        ("eps2 (T(eps) >= t1)", fmt_pow10(q["log_eps2"]), ""),
        ("eps_required (min, c = 8)", fmt_pow10(q["log_eps_required"]),
         na.get("eps_required", f"float: {fmt_num(q['eps_required'])}")),
        ("eps_required as printed (max, c = 4)", fmt_pow10(q["log_eps_required_printed"]), ""),
        ("eps satisfies (28): corrected / printed", f"{fmt_num(q['eps_satisfies'])} / {fmt_num(q['eps_satisfies_printed'])}", ""),
        ("t2 bound (39, R17)", fmt_num(q["t2"]), na.get("t2", f"t2+ {fmt_num(q['t2_plus'])}, t2- {fmt_num(q['t2_minus'])}")),
    ]


def _log10(x: float | None) -> float | None:
    return None if x is None else x / LN10


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.6g}"


EPS_MODES = ("required", "required_printed", "eps1", "eps1_printed")
"""Seed 004's theorem scales (``scenario(eps=EPS_RULES[mode])``), eps from the drawn data and base init:

- ``"required"``: ln eps = ``log_eps_required`` = ln min(eps1 (c = 8), eps2), min reading of zeta (errata
  R8, R9): the theorem scale of eq. (28);
- ``"required_printed"``: the printed reading (zeta = max{zeta1, zeta2}, c = 4);
- ``"eps1"`` / ``"eps1_printed"``: only the first term of (28), eps1 with c = 8 / c = 4 (min reading of
  zeta), capped by Lemma 3's eps_L3; the scale at which eq. (29) follows from Lemma 3 alone.
"""


def required_log_eps(ds: Dataset, init: Initialization, mode: str = "required") -> tuple[float | None, str]:
    """ln eps for an ``EPS_MODES`` mode, from the audit of (data, eps-free base init); (None, reason) if undefined."""
    if mode not in EPS_MODES:
        raise InputError(f"unknown eps mode {mode!r}; choose one of {', '.join(EPS_MODES)}")
    q = theorem1_quantities(audit(ds, init.W0, init.v0, log_eps=0.0, papers=()))
    if mode == "required":
        value = q.quantities["log_eps_required"]
    elif mode == "required_printed":
        value = q.quantities["log_eps_required_printed"]
    else:
        raw = q.quantities["readings"].get("min", {}).get("log_eps1_c8" if mode == "eps1" else "log_eps1_c4")
        cap = q.quantities["log_eps_L3"]
        value = None if raw is None or cap is None else min(raw, cap)
    if value is None or not math.isfinite(value):
        why = q.na.get("eps_required") or q.quantities["readings"].get("min", {}).get("undefined") or "undefined"
        return None, f"eps mode {mode!r} undefined: {why}"
    return float(value), f"eps mode {mode!r}"


EPS_RULES = {mode: EpsRule(mode, partial(required_log_eps, mode=mode)) for mode in EPS_MODES}
