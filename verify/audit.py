"""Assumption audit of a dataset (and optionally an initialisation) for seed 004's Theorem 1.

``audit(dataset, W0, v0, eps=..., log_eps=...)`` computes the quantities of the claim sheet
004 (sections 1.8-1.10): mu, orthogonal separability, zeta1, xi, zeta2, t1, T(eps), the
initialisation-scale condition (28), t2 (39), alpha and the path times, and reports which
assumptions hold and by how much, plus the errata that change numbers (R8, R9, n = 1).

Scale convention. With ``eps`` or ``log_eps`` given, ``(W0, v0)`` is the eps-free base and the
initial weights are ``eps * (W0, v0)`` (seed 004 eq. (3)); W_max, W_min are norms of W0 rows.
With neither given, ``(W0, v0)`` are taken as the initial weights themselves and are split
as eps = max_j ||W0_j|| and base ``(W0, v0)/eps``, so that the base has W_max = 1 (as in the
sheet's worked examples). The paper's bounds are not invariant under moving scale between eps
and W0 (eq. (28) involves eps W_max^2, eq. (28)'s eps2 and T(eps) involve eps alone); with
eps = 1 instead, T(eps) < 0 and eps2 would fail for every already-scaled init, which says
nothing. An ``Initialization`` may be passed as ``W0`` (its ``log_eps`` is used). Zero rows of W0 (with v0_j = 0) are dropped (004 Remark 2).

Undefined quantities are ``None``, with the reason in ``Audit.na``; all logarithms are natural.
Bounds are evaluated in log space, so eps2 = 1e-4300 is exact to float64 relative precision.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from verify import geometry
from verify.data.dataset import Dataset, safe_row_norms
from verify.errors import InputError
from verify.jsonable import jsonable
from verify.exact import EXACT_BUDGET, exact_affordable, exact_sign_structure, near_zero_pairs
from verify.model.init import Initialization, resolve_log_eps

ZETA1_SLACK = 1e-12  # zeta1 = zeta1_sup * (1 - ZETA1_SLACK): the sup itself is not attained
C_PRINTED = 4.0  # eq. (28) first-term constant as printed
C_CORRECTED = 8.0  # the constant (29) needs (erratum R9)
BALANCE_RTOL = 1e-12
LN10 = math.log(10.0)


def harmonic(k: int) -> float:
    """H_k = sum_{i=1..k} 1/i, H_0 = 0."""
    return math.fsum(1.0 / i for i in range(1, k + 1))


def t1_bound(n: int, m: float, mu: float, X_min: float) -> float:
    """t1 = 16 ln n / (m sqrt(mu) X_min) (004 Theorem 1; 0 for n = 1, sheet 7.3)."""
    return 16.0 * math.log(n) / (m * math.sqrt(mu) * X_min)


def log_eps1(mm: float, mu: float, X_min: float, X_max: float, n: int, h: int, W_max: float, c: float) -> float:
    """ln eps1 = ln(mm sqrt(mu) X_min / (c sqrt(h) n X_max^2 W_max^2)) (004 eq. (28), first term; R9)."""
    if mm <= 0.0:
        return -math.inf
    return (
        math.log(mm) + 0.5 * math.log(mu) + math.log(X_min)
        - math.log(c) - 0.5 * math.log(h) - math.log(n) - 2.0 * math.log(X_max) - 2.0 * math.log(W_max)
    )


def log_eps2(n: int, X_max: float, m: float, mu: float, X_min: float, h: int) -> float:
    """ln eps2 = -(1/2) ln h - 64 n X_max ln n / (m sqrt(mu) X_min) (004 eq. (28), second term)."""
    return -0.5 * math.log(h) - 64.0 * n * math.log(n) * (X_max / X_min) / (m * math.sqrt(mu))  # X_max/X_min: any scale


def T_of_log_eps(log_eps: float, h: int, n: int, X_max: float) -> float:
    """T(eps) = ln(1/(sqrt(h) eps)) / (4 n X_max) (004 Lemmas 1, 3; R3). Negative: lemmas vacuous."""
    return (-0.5 * math.log(h) - log_eps) / (4.0 * n * X_max)


def t2_side_bound(t1: float, mu: float, n_side: int, X_min: float, X_max: float, n: int, log_eps: float, W_min: float) -> float:
    """t2+- <= t1 + 6/(sqrt(mu) n+- X_min) + 4/(sqrt(mu) n+- X_min) (ln(2/(eps^2 sqrt(mu) X_min W_min^2)) + 4 n X_max t1).

    004 eq. (39), reading R17.
    """
    a = math.sqrt(mu) * n_side * X_min
    log_term = math.log(2.0) - 2.0 * log_eps - 0.5 * math.log(mu) - math.log(X_min) - 2.0 * math.log(W_min)
    return t1 + 6.0 / a + (4.0 / a) * (log_term + 4.0 * n * X_max * t1)


def delta_t(n_a: int, m: float, mu: float, X_min: float) -> float:
    """Delta t(n_a) = 4 / (m sqrt(mu) n_a X_min) (004 App. C; R7)."""
    return 4.0 / (m * math.sqrt(mu) * n_a * X_min)


def _safe_exp(x: float) -> float:
    """exp(x) as a float: 0.0 where it underflows, inf where it overflows."""
    return math.exp(x) if x < 709.0 else math.inf


@dataclass(frozen=True)
class Finding:
    """One assumption or precondition: ``holds`` iff ``value relation threshold``.

    ``margin`` is signed "by how much": value - threshold for > / >=, threshold - value for
    < / <=, so it is >= 0 (> 0 for strict relations) exactly when the condition holds.
    ``holds`` is None when the condition cannot be evaluated (reason in ``note``).
    """

    name: str
    holds: bool | None
    value: float | None
    threshold: float | None
    relation: str
    margin: float | None
    source: str
    note: str = ""


def _finding(name: str, value: float | None, relation: str, threshold: float, source: str, note: str = "") -> Finding:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return Finding(name, None, value, threshold, relation, None, source, note or "not computable")
    margin = value - threshold if relation in (">", ">=") else threshold - value
    if math.isnan(margin):  # inf - inf: same infinite value on both sides
        margin = 0.0
    holds = margin > 0 if relation in (">", "<") else margin >= 0
    return Finding(name, bool(holds), float(value), float(threshold), relation, float(margin), source, note)


@dataclass(frozen=True)
class Erratum:
    """A paper issue (claim sheet 004 sections 0.3 and 7) and whether it changes numbers here."""

    id: str
    source: str
    title: str
    applies: bool
    detail: str
    values: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class Audit:
    """Result of :func:`audit` (claim sheet 004 sections 1.8-1.10).

    Data: n, d, n_pos, n_neg, both_classes, I_pos, I_neg, x_plus, x_minus, X_min, X_max.
    Sign structure: mu (exact float when ``sign_structure_exact``), mu_exact ("sqrt(q)" or a
    rational), mu_pair, assumption1 (004: mu > 0), orthogonally_separable (000: same-label
    products > 0, opposite <= 0), near_zero_pairs (float64 sign could flip),
    sign_disagreements (exact vs float64 sign differ).
    Constants: rho_plus/minus, zeta1_sup (exact sup, Lemma 8), zeta1 (valid, just below),
    xi = mu^2 (Lemma 9), alpha (leaky slope), alpha_rate = (mu X_min)^2/(32 X_max) (R19).
    Times: m, mm = min(mu, m), t1, t1_dead_path = 4 H_n/(m sqrt(mu) X_min), T_Pmax (R13; the
    V- version mirrored), delta_t_coef (Delta t(n_a) = coef/n_a, R7).
    Init (None without one): h, W_max, W_min, balanced, log_eps/eps, c_star, assumption2,
    zeta2, zeta_min/zeta_max and m_min/m_max, t1_min/t1_max (R8), T_eps, eps_L3, eps1 (c = 8)
    and eps1_printed (c = 4, R9), eps2, log_eps_required = ln min(eps1, eps2) (corrected
    reading), eps_required (float, 0.0 on underflow), eps_satisfies / eps_satisfies_printed,
    eps_conditions per reading, readings (all per-reading numbers), t2_plus/minus, t2 (R17).
    Verdicts: assumptions (Findings), errata (R8, R9, N1), na (field -> reason it is None).
    """

    # data (004 section 1.1)
    n: int
    d: int
    n_pos: int
    n_neg: int
    both_classes: bool
    I_pos: np.ndarray
    I_neg: np.ndarray
    x_plus: np.ndarray
    x_minus: np.ndarray
    X_min: float
    X_max: float
    # Assumption 1 and the sign structure (004 Assumption 1; 000 orthogonal separability)
    mu: float
    mu_exact: str | None
    mu_pair: tuple[int, int] | None
    assumption1: bool
    orthogonally_separable: bool
    min_same_label_cos: float
    max_opposite_label_cos: float | None
    sign_structure_exact: bool
    exact_note: str
    near_zero_pairs: list[tuple[int, int]]
    sign_disagreements: list[tuple[int, int]]
    # cones and constants (004 Lemmas 8, 9; sheet 1.9)
    rho_plus: float | None
    rho_minus: float | None
    zeta1_sup: float
    zeta1: float
    xi: float
    xi_exact: str | None
    alpha: float
    alpha_rate: float | None
    # alignment-time bounds (data only: m = min(zeta1, xi) when there is no init)
    m: float
    m_binding: str
    mm: float
    t1: float | None
    t1_reading: str
    t1_dead_path: float | None
    T_Pmax_plus: float | None
    T_Pmax_minus: float | None
    T_Pmax: float | None
    delta_t_coef: float | None
    # initialisation (None without init)
    has_init: bool
    h: int | None = None
    h_dropped: int = 0
    n_vpos: int | None = None
    n_vneg: int | None = None
    W_max: float | None = None
    W_min: float | None = None
    imbalance: float | None = None
    balanced: bool | None = None
    log_eps: float | None = None
    eps: float | None = None
    eps_from_weights: bool | None = None
    c_star: float | None = None
    assumption2: bool | None = None
    zeta2: float | None = None
    zeta_min: float | None = None
    zeta_max: float | None = None
    m_min: float | None = None
    m_max: float | None = None
    t1_min: float | None = None
    t1_max: float | None = None
    T_eps: float | None = None
    log_eps_L3: float | None = None
    eps_L3: float | None = None
    log_eps1: float | None = None
    log_eps1_printed: float | None = None
    eps1: float | None = None
    eps1_printed: float | None = None
    log_eps2: float | None = None
    eps2: float | None = None
    log_eps_required: float | None = None
    log10_eps_required: float | None = None
    eps_required: float | None = None
    log_eps_required_printed: float | None = None
    eps_satisfies: bool | None = None
    eps_satisfies_printed: bool | None = None
    eps_conditions: dict[str, bool] = field(default_factory=dict)
    readings: dict[str, dict[str, Any]] = field(default_factory=dict)
    T_at_eps_required: float | None = None
    t2_plus: float | None = None
    t2_minus: float | None = None
    t2: float | None = None
    # verdicts
    assumptions: list[Finding] = field(default_factory=list)
    errata: list[Erratum] = field(default_factory=list)
    na: dict[str, str] = field(default_factory=dict)

    def delta_t(self, n_a: int) -> float | None:
        """Delta t(n_a) = 4 / (m sqrt(mu) n_a X_min) (004 App. C, R7), with the audit's m."""
        return None if self.delta_t_coef is None else self.delta_t_coef / n_a

    @property
    def failed(self) -> list[Finding]:
        """Findings that do not hold (holds is False)."""
        return [f for f in self.assumptions if f.holds is False]

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable dict of every field.

        Arrays become lists, tuples lists, Findings/Errata dicts. Non-finite floats become the
        strings "inf", "-inf", "nan"; undefined quantities are null (reason under "na").
        """
        out = {f.name: jsonable(getattr(self, f.name)) for f in fields(self)}
        out["delta_t"] = None if self.delta_t_coef is None else {str(k): jsonable(self.delta_t(k)) for k in sorted({1, self.n})}
        return out


def _sign_structure(ds: Dataset) -> dict[str, Any]:
    """mu, Assumption 1 and orthogonal separability, exactly when affordable (exact.py)."""
    U = ds.y[:, None] * ds.unit  # row scales change no sign: float64 signs from unit rows (any data scale)
    signed_float = np.sign(U @ U.T).astype(np.int8)
    out: dict[str, Any] = {"near_zero_pairs": near_zero_pairs(ds.unit)}
    if exact_affordable(ds.n, ds.d):
        ss = exact_sign_structure(ds.X, ds.y)
        disagree = np.argwhere(np.triu(ss.signs != signed_float, k=1))
        out.update(
            mu=ss.mu.value, mu_exact=str(ss.mu), mu_pair=ss.mu.pair,
            assumption1=ss.assumption1, orthogonally_separable=ss.orthogonally_separable,
            xi_exact=str(ss.mu.q) if ss.mu.sign > 0 else ("0" if ss.mu.sign == 0 else None),
            sign_structure_exact=True,
            exact_note="exact rational arithmetic on the float64 values as stored",
            sign_disagreements=[(int(i), int(j)) for i, j in disagree],
        )
    else:
        C = geometry.cosine_gram(ds)
        i, j = np.unravel_index(int(np.argmin(C)), C.shape)
        mu = float(C[i, j])
        out.update(
            mu=mu, mu_exact=None, mu_pair=(int(min(i, j)), int(max(i, j))),
            assumption1=mu > 0.0, orthogonally_separable=geometry.orthogonally_separable(ds),
            xi_exact=None, sign_structure_exact=False,
            exact_note=f"exact pass skipped: n*n*d = {ds.n * ds.n * ds.d} > {EXACT_BUDGET}; float64 signs",
            sign_disagreements=[],
        )
    return out


def _class_cosines(ds: Dataset) -> tuple[float, float | None]:
    """(min cos over same-label pairs, max raw cos over opposite-label pairs or None)."""
    U = ds.unit
    C = np.clip(U @ U.T, -1.0, 1.0)
    same = np.equal.outer(ds.y, ds.y)
    return float(C[same].min()), (float(C[~same].max()) if ds.both_classes else None)


def _rho(ds: Dataset) -> tuple[float | None, float | None]:
    """rho+ = min_i y_i cos(x+, x_i), rho- = min_i -y_i cos(x-, x_i) (sheet 1.9); None if the class is empty."""
    out: list[float | None] = []
    for label in (+1, -1):
        target = ds.class_direction(label)
        out.append(float(np.min(label * ds.y * (ds.unit @ target))) if np.any(target != 0.0) else None)
    return out[0], out[1]


@dataclass
class _Init:
    W0: np.ndarray
    v0: np.ndarray
    log_eps: float
    from_weights: bool
    dropped: int


def _real_array(x: Any, name: str) -> np.ndarray:
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{name} is not a numeric array ({exc})") from None
    if arr.dtype.kind not in "biuf":
        raise InputError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    return arr.astype(float)


def _resolve_init(ds: Dataset, W0: Any, v0: Any, eps: float | None, log_eps: float | None) -> _Init | None:
    if isinstance(W0, Initialization):
        if v0 is not None or eps is not None or log_eps is not None:
            raise InputError("pass an Initialization alone (it carries v0 and log_eps)")
        W, v, le, from_weights = W0.W0, W0.v0, W0.log_eps, False
    else:
        if W0 is None and v0 is None:
            if eps is not None or log_eps is not None:
                raise InputError("eps/log_eps need initial weights W0, v0")
            return None
        if W0 is None or v0 is None:
            raise InputError("give both W0 and v0 (or neither)")
        W, v = _real_array(W0, "W0"), _real_array(v0, "v0")
        from_weights = eps is None and log_eps is None
        le = 0.0 if from_weights else resolve_log_eps(eps, log_eps)
    if W.ndim == 1 and v.ndim == 0:
        W, v = W[None, :], v.reshape(1)
    if W.ndim != 2 or v.ndim != 1 or v.shape[0] != W.shape[0]:
        raise InputError(f"init shapes must be W (h, d) and v (h,), got W {W.shape} and v {v.shape}")
    if W.shape[1] != ds.d:
        raise InputError(f"init W has {W.shape[1]} columns but the data have dimension d = {ds.d}")
    if W.shape[0] == 0:
        raise InputError("init has no neurons (h = 0)")
    if not (np.all(np.isfinite(W)) and np.all(np.isfinite(v))):
        raise InputError("init W or v contains a non-finite value")
    row_norms = safe_row_norms(W)
    if not np.all(np.isfinite(row_norms)):
        raise InputError("init W has a row whose norm overflows float64")
    keep = row_norms > 0.0
    if np.any(~keep & (v != 0.0)):
        raise InputError(f"neuron {int(np.flatnonzero(~keep & (v != 0.0))[0])} has w_j = 0 but v_j != 0")
    if not keep.any():
        raise InputError("every neuron of the init is zero (004 Remark 2: nothing to train)")
    W, v = W[keep], v[keep]
    if from_weights:
        scale = float(row_norms[keep].max())
        W, v, le = W / scale, v / scale, math.log(scale)
    return _Init(W, v, float(le), from_weights, int((~keep).sum()))


def _binding(zeta1: float, zeta2: float | None, xi: float, m: float) -> str:
    for name, val in (("zeta2", zeta2), ("xi", xi), ("zeta1", zeta1)):
        if val is not None and val == m:
            return name
    return "zeta1"


def audit(
    dataset: Dataset,
    W0: Any = None,
    v0: Any = None,
    *,
    eps: float | None = None,
    log_eps: float | None = None,
    alpha: float = 0.0,
) -> Audit:
    """Audit seed 004's assumptions and explicit constants on ``dataset`` (and an init).

    See the module docstring for the eps convention. ``alpha`` is the leaky-ReLU slope in
    [0, 1]; Theorem 1 is for alpha = 0 (planted counterexample P5), so alpha > 0 is reported as
    a failed precondition. Raises InputError on invalid inputs; never on failed assumptions.
    """
    if not isinstance(dataset, Dataset):
        raise InputError(f"audit needs a verify.Dataset, got {type(dataset).__name__}")
    try:
        alpha = float(alpha)
    except (TypeError, ValueError):
        raise InputError(f"alpha must be a number in [0, 1], got {alpha!r}") from None
    if not (0.0 <= alpha <= 1.0):
        raise InputError(f"alpha must be in [0, 1], got {alpha!r}")
    ds = dataset
    init = _resolve_init(ds, W0, v0, eps, log_eps)
    na: dict[str, str] = {}
    n, X_min, X_max = ds.n, ds.X_min, ds.X_max

    sign = _sign_structure(ds)
    mu = float(sign["mu"])
    min_same, max_opp = _class_cosines(ds)
    rho_p, rho_m = _rho(ds)
    rhos = [r for r in (rho_p, rho_m) if r is not None]
    rho = min(rhos)
    zeta1_sup = rho * rho if rho > 0.0 else 0.0
    zeta1 = zeta1_sup * (1.0 - ZETA1_SLACK)
    xi = mu * mu if mu > 0.0 else 0.0
    if not ds.both_classes:
        missing = "x-" if ds.n_neg == 0 else "x+"
        na["zeta1"] = f"single class: zeta1 uses only the cap around the present class sum ({missing} = 0, its condition is vacuous)"
        na["x_minus" if ds.n_neg == 0 else "x_plus"] = "class is empty: the class sum is the zero vector"
        na["max_opposite_label_cos"] = "single class: no opposite-label pairs"

    positive = mu > 0.0
    alpha_rate = (mu * X_min) * (mu * X_min) / (32.0 * X_max) if positive else None
    if not positive:
        na["alpha_rate"] = "mu <= 0: Assumption 1 fails, the rate bound is undefined"

    # --- data-only alignment bound: m = min(zeta1, xi) (zeta2 needs an init) ---
    zeta2 = None
    if init is not None:
        signs = np.sign(init.v0)
        c_star = geometry.c_star(ds, init.W0, signs)
        zeta2 = 1.0 - max(c_star, 0.0) ** 2 if c_star < 1.0 else 0.0
    zeta_min = min(zeta1, zeta2) if zeta2 is not None else zeta1
    m = min(zeta_min, xi)
    mm = min(mu, m) if positive else 0.0
    binding = _binding(zeta1, zeta2, xi, m)

    def bounds_ok(mval: float) -> bool:
        return positive and mval > 0.0

    def t1_of(mval: float) -> float | None:
        return t1_bound(n, mval, mu, X_min) if bounds_ok(mval) else None

    reason_bounds = "mu <= 0 (Assumption 1 fails)" if not positive else "m = min(zeta, xi) = 0"
    t1 = t1_of(m)
    t1_reading = (
        "m = min(zeta1, zeta2, xi) (corrected reading R8)" if init is not None
        else "no init: m = min(zeta1, xi) (zeta2 omitted; the init can only lower m)"
    )
    t1_dead = T_plus = T_minus = T_max_path = dt_coef = None
    if t1 is None:
        for key in ("t1", "t1_dead_path", "T_Pmax", "delta_t_coef"):
            na[key] = f"bound undefined: {reason_bounds}"
    else:
        coef = 4.0 / (m * math.sqrt(mu) * X_min)
        dt_coef = coef
        t1_dead = coef * harmonic(n)
        if ds.n_pos >= 1:
            T_plus = coef * (harmonic(ds.n_pos - 1) + (harmonic(ds.n_neg) + 0.5 if ds.n_neg >= 1 else 0.0))
        if ds.n_neg >= 1:
            T_minus = coef * (harmonic(ds.n_neg - 1) + (harmonic(ds.n_pos) + 0.5 if ds.n_pos >= 1 else 0.0))
        T_max_path = max(t for t in (T_plus, T_minus) if t is not None)
        if T_plus is None:
            na["T_Pmax_plus"] = "no positive points"
        if T_minus is None:
            na["T_Pmax_minus"] = "no negative points"

    a = dict(
        n=n, d=ds.d, n_pos=ds.n_pos, n_neg=ds.n_neg, both_classes=ds.both_classes,
        I_pos=ds.I_pos.copy(), I_neg=ds.I_neg.copy(), x_plus=ds.x_plus.copy(), x_minus=ds.x_minus.copy(),
        X_min=X_min, X_max=X_max,
        mu=mu, mu_exact=sign["mu_exact"], mu_pair=sign["mu_pair"],
        assumption1=bool(sign["assumption1"]), orthogonally_separable=bool(sign["orthogonally_separable"]),
        min_same_label_cos=min_same, max_opposite_label_cos=max_opp,
        sign_structure_exact=sign["sign_structure_exact"], exact_note=sign["exact_note"],
        near_zero_pairs=sign["near_zero_pairs"], sign_disagreements=sign["sign_disagreements"],
        rho_plus=rho_p, rho_minus=rho_m, zeta1_sup=zeta1_sup, zeta1=zeta1, xi=xi, xi_exact=sign["xi_exact"],
        alpha=alpha, alpha_rate=alpha_rate,
        m=m, m_binding=binding, mm=mm, t1=t1, t1_reading=t1_reading, t1_dead_path=t1_dead,
        T_Pmax_plus=T_plus, T_Pmax_minus=T_minus, T_Pmax=T_max_path, delta_t_coef=dt_coef,
        has_init=init is not None, na=na,
    )
    if init is None:
        for key in ("zeta2", "eps_required", "T_eps", "t2"):
            na[key] = "no init given"
    else:
        a.update(_init_part(ds, init, mu, zeta1, xi, zeta2, c_star, t1, na))
    _drop_unrepresentable(a, na)
    a["assumptions"] = _findings(a, init)
    a["errata"] = _errata(a)
    return Audit(**a)


# Infinite on purpose: c_star = -inf (no neuron faces a nonempty class), ln eps = -inf, eps = 0 or inf.
_MAY_BE_INFINITE = ("c_star", "log_eps", "eps")


def _drop_unrepresentable(a: dict[str, Any], na: dict[str, str]) -> None:
    """A time or rate that the data's scale puts beyond float64 (e.g. t1 ~ 1/X_min for X_min ~ 1e-310)
    is None with the reason in ``na``, never inf or nan as a result."""
    reason = (f"beyond the float64 range at this data scale (X_min = {a['X_min']:.3g}, X_max = {a['X_max']:.3g}); "
              "every verdict is scale-free: rescale the data to compute it")
    for key, value in a.items():
        if key.startswith(_MAY_BE_INFINITE):
            continue
        if isinstance(value, float) and not math.isfinite(value):
            a[key], na[key] = None, reason
        elif isinstance(value, np.ndarray) and value.dtype.kind == "f" and not np.all(np.isfinite(value)):
            a[key], na[key] = None, reason


def _init_part(
    ds: Dataset, init: _Init, mu: float, zeta1: float, xi: float, zeta2: float, c_star: float, t1: float | None, na: dict[str, str]
) -> dict[str, Any]:
    """Init-dependent quantities of the master table (sheet 1.10), both readings of R8 and R9."""
    n, X_min, X_max = ds.n, ds.X_min, ds.X_max
    W0, v0, le = init.W0, init.v0, init.log_eps
    h = int(W0.shape[0])
    norms = safe_row_norms(W0)
    W_max, W_min = float(norms.max()), float(norms.min())
    top = np.maximum(np.abs(v0), norms)  # |v^2 - ||w||^2| / max(v^2, ||w||^2), in units of the larger (no overflow)
    imbalance = float(np.max(np.abs((v0 / top) ** 2 - (norms / top) ** 2)))
    positive = mu > 0.0
    out: dict[str, Any] = dict(
        h=h, h_dropped=init.dropped, n_vpos=int(np.sum(v0 > 0)), n_vneg=int(np.sum(v0 < 0)),
        W_max=W_max, W_min=W_min, imbalance=imbalance, balanced=imbalance <= BALANCE_RTOL, log_eps=le, eps=_safe_exp(le),
        eps_from_weights=init.from_weights, c_star=c_star, assumption2=bool(c_star < 1.0), zeta2=zeta2,
        zeta_min=min(zeta1, zeta2), zeta_max=max(zeta1, zeta2),
        T_eps=T_of_log_eps(le, h, n, X_max),
    )
    out["log_eps_L3"] = -math.log(4.0) - 0.5 * math.log(h) - math.log(X_max) - 2.0 * math.log(W_max)
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
    out.update(m_min=readings["min"]["m"], m_max=readings["max"]["m"],
               t1_min=readings["min"].get("t1"), t1_max=readings["max"].get("t1"),
               readings=readings, eps_conditions=conditions)
    cor = readings["min"]
    if "t1" not in cor:
        reason = f"bound undefined: {cor['undefined']}"
        for key in ("eps_required", "eps1", "eps2", "t2"):
            na[key] = reason
        return out
    out.update(
        log_eps1=cor["log_eps1_c8"], log_eps1_printed=cor["log_eps1_c4"],
        eps1=_safe_exp(cor["log_eps1_c8"]), eps1_printed=_safe_exp(cor["log_eps1_c4"]),
        log_eps2=cor["log_eps2"], eps2=_safe_exp(cor["log_eps2"]),
        log_eps_required=cor["log_eps_required_c8"],
        log10_eps_required=cor["log_eps_required_c8"] / LN10,
        eps_required=_safe_exp(cor["log_eps_required_c8"]),
        eps_satisfies=cor["eps_satisfies_c8"],
        T_at_eps_required=T_of_log_eps(cor["log_eps_required_c8"], h, n, X_max),
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


def _findings(a: dict[str, Any], init: _Init | None) -> list[Finding]:
    """Assumption and precondition findings with values, thresholds and margins."""
    F = [
        _finding("both classes present", float(min(a["n_pos"], a["n_neg"])), ">=", 1.0,
                 "004 Theorem 1 part 2; sheet 1.8", "single-class data: part 2 cannot apply (P14)"
                 if not a["both_classes"] else ""),
        _finding("Assumption 1: mu > 0", a["mu"], ">", 0.0, "004 Assumption 1",
                 "exact sign" if a["sign_structure_exact"] else "float64 sign"),
        _finding("same-label pairs correlated: min cos > 0", a["min_same_label_cos"], ">", 0.0,
                 "000 orthogonal separability; 004 Assumption 1"),
    ]
    if a["max_opposite_label_cos"] is not None:
        F.append(_finding("opposite-label pairs: max cos <= 0", a["max_opposite_label_cos"], "<=", 0.0,
                          "000 orthogonal separability (004 needs < 0)"))
    F += [
        _finding("zeta1 > 0 (cap around x+/x- inside S+/S-)", a["zeta1_sup"], ">", 0.0, "004 Lemma 8"),
        _finding("xi = mu^2 > 0", a["xi"], ">", 0.0, "004 Lemma 9; sheet 1.9"),
        _finding("ReLU activation (leaky slope alpha = 0)", a["alpha"], "<=", 0.0, "004 Theorem 1; sheet 5 P5",
                 "leaky ReLU: S_dead is not trapping, Theorem 1 not certified" if a["alpha"] > 0 else ""),
        _finding("n >= 2 (t1 = 16 ln n/... is 0 at n = 1)", float(a["n"]), ">=", 2.0, "004 Theorem 1; sheet 7.3, P9"),
    ]
    if init is None:
        return F
    F += [
        _finding("Assumption 2: c_star < 1", a["c_star"], "<", 1.0, "004 Assumption 2; eq. (26)",
                 "vacuous (no neuron faces a nonempty opposite class)" if a["c_star"] == -math.inf else ""),
        _finding("balanced init: max_j |v_j^2 - ||w_j||^2| / max(v_j^2, ||w_j||^2)", a["imbalance"], "<=",
                 BALANCE_RTOL, "004 eq. (3)",
                 "" if a["balanced"] else "unbalanced: sign preservation and the bounds are not claimed"),
        _finding("neurons of both signs", float(min(a["n_vpos"], a["n_vneg"])), ">=", 1.0,
                 "004 Theorem 1 part 2 (S+ and S- each need a neuron)"),
        _finding("T(eps) > 0 (sqrt(h) eps < 1)", a["T_eps"], ">", 0.0, "004 Lemmas 1, 3; R3"),
        _finding("eps <= eps_L3 (ln eps vs ln eps_L3)", a["log_eps"], "<=", a["log_eps_L3"], "004 Lemma 3; R3"),
    ]
    if a.get("log_eps_required") is not None:
        F.append(_finding("eps condition (28), corrected: min reading, c = 8 (ln eps vs ln eps_req)",
                          a["log_eps"], "<=", a["log_eps_required"], "004 eq. (28); errata R8, R9"))
    else:
        F.append(Finding("eps condition (28), corrected", None, a["log_eps"], None, "<=", None,
                         "004 eq. (28)", a["na"].get("eps_required", "undefined")))
    if a.get("log_eps_required_printed") is not None:
        F.append(_finding("eps condition (28), as printed: max reading, c = 4 (ln eps vs ln eps_req)",
                          a["log_eps"], "<=", a["log_eps_required_printed"], "004 eq. (28) as printed"))
    return F


def _errata(a: dict[str, Any]) -> list[Erratum]:
    """R8 (zeta = max vs min), R9 (constant 4 vs 8 in (28)), n = 1 (t1 = 0)."""
    E: list[Erratum] = []
    if a["has_init"]:
        rmin, rmax = a["readings"]["min"], a["readings"]["max"]
        vals = {
            "zeta_min": a["zeta_min"], "zeta_max": a["zeta_max"], "m_min": a["m_min"], "m_max": a["m_max"],
            "t1_min": rmin.get("t1"), "t1_max": rmax.get("t1"),
            "log10_eps_required_min": _log10(rmin.get("log_eps_required_c8")),
            "log10_eps_required_max": _log10(rmax.get("log_eps_required_c8")),
        }
        differ = a["m_min"] != a["m_max"]
        detail = (
            f"t1 = {_fmt(vals['t1_min'])} (min, corrected) vs {_fmt(vals['t1_max'])} (max, as printed); "
            f"log10 eps_req = {_fmt(vals['log10_eps_required_min'])} vs {_fmt(vals['log10_eps_required_max'])}"
            if differ else "both readings give the same m (zeta2 does not bind)"
        )
        vals["differ"] = differ
        E.append(Erratum("R8", "004 App. C.2 after eq. (26); sheet 0.3 R8, 7.1",
                         "zeta := max{zeta1, zeta2} must be min", differ, detail, vals))
        if "log_eps1_c8" in rmin:
            eps1_binds = rmin["log_eps1_c8"] < rmin["log_eps2"]
            gap = (a["log_eps"] <= rmin["log_eps_required_c4"]) and not (a["log_eps"] <= rmin["log_eps_required_c8"])
            v9 = {"log10_eps1_c4": _log10(rmin["log_eps1_c4"]), "log10_eps1_c8": _log10(rmin["log_eps1_c8"]),
                  "log10_eps2": _log10(rmin["log_eps2"]), "eps1_binds": eps1_binds, "eps_in_gap": gap}
            detail9 = (f"log10 eps1 = {_fmt(v9['log10_eps1_c4'])} (c = 4) vs {_fmt(v9['log10_eps1_c8'])} (c = 8); "
                       + ("eps1 binds, so eps_req halves" if eps1_binds else "eps2 binds, eps_req unchanged")
                       + ("; the given eps passes c = 4 but fails c = 8" if gap else ""))
            E.append(Erratum("R9", "004 eq. (28) first term; sheet 0.3 R9, 7.2",
                             "constant 4 in eq. (28) too weak for (29); 8 needed", eps1_binds or gap, detail9, v9))
        else:
            E.append(Erratum("R9", "004 eq. (28) first term; sheet 0.3 R9, 7.2",
                             "constant 4 in eq. (28) too weak for (29); 8 needed", False, "bounds undefined here"))
    else:
        E.append(Erratum("R8", "004 App. C.2 after eq. (26); sheet 0.3 R8, 7.1", "zeta := max{zeta1, zeta2} must be min",
                         False, "needs an init (zeta2); without one t1 uses min(zeta1, xi)"))
    n1 = a["n"] == 1
    E.append(Erratum("N1", "004 Theorem 1 t1 formula; sheet 5 P9, 7.3", "t1 = 16 ln n/(...) is 0 for n = 1", n1,
                     (f"n = 1: t1 = 0; use the dead-path bound 4 H_1/(m sqrt(mu) X_min) = {_fmt(a['t1_dead_path'])}"
                      if n1 else "n >= 2: the formula is fine"),
                     {"t1": a["t1"], "t1_dead_path": a["t1_dead_path"]}))
    return E


def _log10(x: float | None) -> float | None:
    return None if x is None else x / LN10


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.6g}"
