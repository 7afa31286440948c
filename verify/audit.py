"""Audit of a dataset (and optionally an initialisation): the data geometry every paper shares, plus
the quantities of each installed paper (its ``audit`` hook, :class:`verify.Paper`).

``audit(dataset, W0, v0, eps=..., log_eps=..., alpha=...)`` computes here: sizes and classes, norms,
class sums, the sign structure (mu = min_ij cos(y_i x_i, y_j x_j), exact in rational arithmetic when
affordable; orthogonal separability), the class cones (rho+-), the max-margin quantities (linearly
separable, w_svm, gamma_lin, w_plus, w_minus: :mod:`verify.margins`, solved on first use), and for an
init its scale, norms and balance. Each installed paper's hook then adds its own quantities, findings (assumptions with values,
thresholds and margins) and errata; they are read as attributes (``audit(ds).t1``) and stored flat in
:meth:`Audit.to_dict`. A quantity named by two papers, or by a paper and this module, is an error. The hooks
run on first use of a paper's part (``papers``, a paper quantity, ``assumptions``, ``errata``, ``na``,
``to_dict``), all of them at once, as the max-margin problems and the (exact) sign structure do: a claim whose
check never reads them pays for none of them (they were most of a search example's time).

Scale convention. With ``eps`` or ``log_eps`` given, ``(W0, v0)`` is the eps-free base and the initial
weights are ``eps * (W0, v0)``. With neither, ``(W0, v0)`` are the initial weights themselves, split as
eps = max_j ||W0_j|| and base ``(W0, v0)/eps`` (base W_max = 1). An ``Initialization`` may be passed as
``W0`` (its ``log_eps`` is used). Zero rows of W0 (with v0_j = 0) are dropped (they never move).

Data scale: signs, cosines, mu, rho and every verdict on them are computed from rows divided by a power
of two first (exact), so they do not change with the data's scale; quantities that carry the scale are
formed without intermediate under- or overflow (:func:`quotient`), and one that itself lies beyond
float64 is ``None`` with the reason in ``Audit.na``, never inf or nan. Undefined quantities are
``None`` with the reason in ``na``; all logarithms are natural.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any, Iterable

import numpy as np

from verify import geometry
from verify.data.dataset import Dataset, safe_row_norms
from verify.errors import InputError
from verify.exact import EXACT_BUDGET, exact_affordable, exact_sign_structure, near_zero_pairs
from verify.jsonable import jsonable
from verify.margins import MaxMargin, max_margin
from verify.model.init import Initialization, resolve_log_eps

BALANCE_RTOL = 1e-12


def quotient(num: float, *den: float) -> float:
    """num / (den_1 ... den_k) for nonzero den, with no under- or overflow in between: mantissas and
    binary exponents are divided separately, so the result is +-inf only where the quotient itself
    exceeds float64 (and 0 only where it is below the smallest subnormal)."""
    m, e = math.frexp(num)
    for d in den:
        dm, de = math.frexp(d)
        m, e = m / dm, e - de
    try:
        return math.ldexp(m, e)
    except OverflowError:
        return math.copysign(math.inf, m)


def fmt_num(x: Any) -> str:
    """Short display of a number, bool or None (audit tables)."""
    if x is None:
        return "n/a"
    if isinstance(x, bool):
        return "yes" if x else "NO"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return f"{x:.6g}"
    return str(x)


def fmt_pow10(log_e: float | None) -> str:
    """exp(log_e) written as 10^k (exact for any magnitude)."""
    if log_e is None:
        return "n/a"
    if not math.isfinite(log_e):
        return "0" if log_e < 0 else "inf"
    return f"10^{log_e / math.log(10.0):.6g}"


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


def finding(name: str, value: float | None, relation: str, threshold: float, source: str, note: str = "") -> Finding:
    """The :class:`Finding` ``value relation threshold`` (relation one of >, >=, <, <=)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return Finding(name, None, value, threshold, relation, None, source, note or "not computable")
    margin = value - threshold if relation in (">", ">=") else threshold - value
    if math.isnan(margin):  # inf - inf: same infinite value on both sides
        margin = 0.0
    holds = margin > 0 if relation in (">", "<") else margin >= 0
    return Finding(name, bool(holds), float(value), float(threshold), relation, float(margin), source, note)


@dataclass(frozen=True)
class AppliedErratum:
    """A paper's erratum and whether it changes numbers on the audited data."""

    id: str
    source: str
    title: str
    applies: bool
    detail: str
    values: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class AuditInit:
    """The resolved initialisation: eps-free base ``(W0, v0)``, ``log_eps``, zero neurons dropped."""

    W0: np.ndarray
    v0: np.ndarray
    log_eps: float
    from_weights: bool
    dropped: int


@dataclass
class PaperAudit:
    """What a paper's ``audit`` hook returns: its quantities (flat names, readable as ``Audit``
    attributes), findings, errata, reasons for undefined quantities (``na``) and display rows
    ``(label, value text, note)`` for ``verify audit`` (``init_rows`` only shown with an init)."""

    quantities: dict[str, Any]
    findings: list[Finding] = field(default_factory=list)
    errata: list[AppliedErratum] = field(default_factory=list)
    na: dict[str, str] = field(default_factory=dict)
    rows: list[tuple[str, str, str]] = field(default_factory=list)
    init_rows: list[tuple[str, str, str]] = field(default_factory=list)


SIGN_STRUCTURE = ("mu", "mu_exact", "mu_squared_exact", "mu_sign", "mu_pair", "orthogonally_separable",
                  "sign_structure_exact", "exact_note", "near_zero_pairs", "sign_disagreements")


def _signs(name: str, doc: str) -> property:
    """A read-only attribute of :attr:`Audit.sign_structure`."""
    return property(lambda self: self.sign_structure[name], doc=doc)


@dataclass(frozen=True, eq=False)
class Audit:
    """Result of :func:`audit`.

    Data: n, d, n_pos, n_neg, both_classes, I_pos, I_neg, x_plus, x_minus, X_min, X_max.
    Sign structure (computed on first use, :attr:`sign_structure`): mu (exact float when
    ``sign_structure_exact``), mu_exact ("sqrt(q)" or a rational), mu_squared_exact, mu_sign (-1, 0, 1; exact when
    affordable), mu_pair, orthogonally_separable (same-label products > 0, opposite <= 0); also
    min_same_label_cos, max_opposite_label_cos,
    near_zero_pairs (float64 sign could flip), sign_disagreements (exact vs float64 sign differ).
    Cones: rho_plus = min_i y_i cos(x+, x_i), rho_minus = min_i -y_i cos(x-, x_i). alpha (leaky slope).
    Init (None without one): h, h_dropped, n_vpos, n_vneg, W_max, W_min, imbalance, balanced,
    log_eps, eps, eps_from_weights; ``init`` the resolved base.
    Papers: ``papers`` maps each paper id to its :class:`PaperAudit` (the hooks of ``paper_ids``, None: every
    installed paper, run on first use); its quantities are attributes.
    Verdicts: assumptions (the papers' Findings), errata, na (field -> reason it is None, the papers' included).
    """

    dataset: Dataset
    n: int
    d: int
    n_pos: int
    n_neg: int
    both_classes: bool
    I_pos: np.ndarray
    I_neg: np.ndarray
    x_plus: np.ndarray | None
    x_minus: np.ndarray | None
    X_min: float
    X_max: float
    min_same_label_cos: float
    max_opposite_label_cos: float | None
    rho_plus: float | None
    rho_minus: float | None
    alpha: float
    has_init: bool
    init: AuditInit | None = None
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
    paper_ids: tuple[str, ...] | None = ()
    generic_na: dict[str, str] = field(default_factory=dict)

    @cached_property
    def sign_structure(self) -> dict[str, Any]:
        """The sign-structure quantities (:data:`SIGN_STRUCTURE`), computed on first use."""
        return _sign_structure(self.dataset)

    mu = _signs("mu", "min_ij cos(y_i x_i, y_j x_j) (exact float when sign_structure_exact).")
    mu_exact = _signs("mu_exact", 'mu exactly: "sqrt(q)" or a rational (None when not exact).')
    mu_squared_exact = _signs("mu_squared_exact", "mu^2 as an exact rational string (None when not exact).")
    mu_sign = _signs("mu_sign", "sign of mu: -1, 0 or 1 (exact when affordable).")
    mu_pair = _signs("mu_pair", "(i, j) attaining mu.")
    orthogonally_separable = _signs("orthogonally_separable", "same-label products > 0, opposite-label <= 0.")
    sign_structure_exact = _signs("sign_structure_exact", "the signs were decided in exact rational arithmetic.")
    exact_note = _signs("exact_note", "how the signs were decided.")
    near_zero_pairs = _signs("near_zero_pairs", "pairs whose float64 sign could flip.")
    sign_disagreements = _signs("sign_disagreements", "pairs whose exact and float64 signs differ.")

    @cached_property
    def papers(self) -> dict[str, PaperAudit]:
        """Each paper hook's part, computed on first use (the hooks see this audit without papers; what either
        solves of the data-only quantities, max-margin problems and sign structure, carries over to the other)."""
        if self.paper_ids == ():
            return {}
        base = replace(self, paper_ids=())
        shared = ("max_margin", "sign_structure")
        base.__dict__.update({k: self.__dict__[k] for k in shared if k in self.__dict__})
        try:
            parts = _paper_audits(base, self.paper_ids)
        except AttributeError as exc:  # raised out of a property, Python would report a missing 'papers' instead
            raise RuntimeError(f"a paper's audit hook failed: {type(exc).__name__}: {exc}") from exc
        for key in shared:
            if key in base.__dict__:
                self.__dict__.setdefault(key, base.__dict__[key])
        return parts

    @property
    def na(self) -> dict[str, str]:
        """Field or quantity -> why it is None: this module's and every paper's."""
        out = dict(self.generic_na)
        for part in self.papers.values():
            out.update(part.na)
        return out

    def __getattr__(self, name: str) -> Any:
        """A paper's quantity (called only when ``name`` is not a field)."""
        if name.startswith("__") or name in ("papers", "na"):
            raise AttributeError(name)
        for part in self.papers.values():
            if name in part.quantities:
                return part.quantities[name]
        raise AttributeError(f"the audit has no quantity {name!r} (installed papers: {', '.join(self.papers) or 'none'})")

    @cached_property
    def max_margin(self) -> MaxMargin:
        """The max-margin problems (:mod:`verify.margins`), solved on first use."""
        return max_margin(self.dataset)

    @property
    def linearly_separable(self) -> bool:
        """Some w has y_i <w, x_i> > 0 for every i."""
        return self.max_margin.linearly_separable

    @property
    def w_svm(self) -> np.ndarray | None:
        """argmin ||w||^2 s.t. y_i <w, x_i> >= 1 (hard-margin SVM through the origin); None if infeasible."""
        return self.max_margin.svm.w

    @property
    def gamma_lin(self) -> float | None:
        """1 / ||w_svm|| (None if not linearly separable)."""
        return self.max_margin.gamma_lin

    @property
    def w_plus(self) -> np.ndarray | None:
        """argmin ||w||^2 s.t. <w, x_i> >= 1 for y_i = +1 (None if infeasible or no positive point)."""
        return self.max_margin.plus.w

    @property
    def w_minus(self) -> np.ndarray | None:
        """argmin ||w||^2 s.t. <w, x_i> >= 1 for y_i = -1 (None if infeasible or no negative point)."""
        return self.max_margin.minus.w

    @property
    def assumptions(self) -> list[Finding]:
        """Every paper's findings, paper by paper."""
        return [f for part in self.papers.values() for f in part.findings]

    @property
    def errata(self) -> list[AppliedErratum]:
        return [e for part in self.papers.values() for e in part.errata]

    @property
    def failed(self) -> list[Finding]:
        """Findings that do not hold (holds is False)."""
        return [f for f in self.assumptions if f.holds is False]

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable dict: every field and every paper's quantity (flat), the findings as
        ``assumptions``, the ``errata``, ``na`` and ``papers`` (paper id -> its quantity names).

        Arrays become lists, tuples lists; non-finite floats become the strings "inf", "-inf", "nan";
        undefined quantities are null (reason under "na").
        """
        skip = {"dataset", "init", "paper_ids", "generic_na"}
        out = {}
        for f in fields(self):
            if f.name not in skip:
                out[f.name] = jsonable(getattr(self, f.name))
            if f.name in ("X_max", "max_opposite_label_cos"):  # the sign structure in its place of old
                part = SIGN_STRUCTURE[:6] if f.name == "X_max" else SIGN_STRUCTURE[6:]
                out.update({k: jsonable(self.sign_structure[k]) for k in part})
        out["na"] = self.na
        mm = self.max_margin
        out.update(linearly_separable=mm.linearly_separable, w_svm=jsonable(mm.svm.w), gamma_lin=jsonable(mm.gamma_lin),
                   w_plus=jsonable(mm.plus.w), w_minus=jsonable(mm.minus.w),
                   max_margin={"svm": mm.svm.to_dict(), "plus": mm.plus.to_dict(), "minus": mm.minus.to_dict()})
        na = dict(out["na"])
        for key, point in (("w_svm", mm.svm), ("w_plus", mm.plus), ("w_minus", mm.minus)):
            if point.w is None:
                na[key] = point.reason
        if mm.gamma_lin is None:
            na["gamma_lin"] = mm.svm.reason
        out["na"] = na
        for part in self.papers.values():
            out.update({k: jsonable(v) for k, v in part.quantities.items()})
        out["assumptions"] = jsonable(self.assumptions)
        out["errata"] = jsonable(self.errata)
        out["papers"] = {pid: sorted(part.quantities) for pid, part in self.papers.items()}
        return out


def _sign_structure(ds: Dataset) -> dict[str, Any]:
    """mu and orthogonal separability, exactly when affordable (exact.py)."""
    U = ds.y[:, None] * ds.unit  # row scales change no sign: float64 signs from unit rows (any data scale)
    signed_float = np.sign(U @ U.T).astype(np.int8)
    out: dict[str, Any] = {"near_zero_pairs": near_zero_pairs(ds.unit)}
    if exact_affordable(ds.n, ds.d):
        ss = exact_sign_structure(ds.X, ds.y)
        disagree = np.argwhere(np.triu(ss.signs != signed_float, k=1))
        out.update(
            mu=ss.mu.value, mu_exact=str(ss.mu), mu_squared_exact=str(ss.mu.q), mu_sign=int(ss.mu.sign),
            mu_pair=ss.mu.pair, orthogonally_separable=ss.orthogonally_separable, sign_structure_exact=True,
            exact_note="exact rational arithmetic on the float64 values as stored",
            sign_disagreements=[(int(i), int(j)) for i, j in disagree],
        )
    else:
        C = geometry.cosine_gram(ds)
        i, j = np.unravel_index(int(np.argmin(C)), C.shape)
        mu = float(C[i, j])
        out.update(
            mu=mu, mu_exact=None, mu_squared_exact=None, mu_sign=int(np.sign(mu)),
            mu_pair=(int(min(i, j)), int(max(i, j))), orthogonally_separable=geometry.orthogonally_separable(ds),
            sign_structure_exact=False,
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


def class_rhos(ds: Dataset) -> tuple[float | None, float | None]:
    """rho+ = min_i y_i cos(x+, x_i), rho- = min_i -y_i cos(x-, x_i); None if the class is empty."""
    out: list[float | None] = []
    for label in (+1, -1):
        target = ds.class_direction(label)
        out.append(float(np.min(label * ds.y * (ds.unit @ target))) if np.any(target != 0.0) else None)
    return out[0], out[1]


def _real_array(x: Any, name: str) -> np.ndarray:
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{name} is not a numeric array ({exc})") from None
    if arr.dtype.kind not in "biuf":
        raise InputError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    return arr.astype(float)


def resolve_init(ds: Dataset, W0: Any, v0: Any, eps: float | None, log_eps: float | None) -> AuditInit | None:
    """The eps-free base init of the scale convention (module docstring), validated; None without one."""
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
    for name, arr in (("W", W), ("v", v)):
        if not np.all(np.isfinite(arr)):
            at = tuple(int(k) for k in np.argwhere(~np.isfinite(arr))[0])
            raise InputError(f"init {name}{list(at)} is non-finite ({float(arr[at])!r}); every weight must be a finite number")
    row_norms = safe_row_norms(W)
    if not np.all(np.isfinite(row_norms)):
        raise InputError("init W has a row whose norm overflows float64")
    keep = row_norms > 0.0
    if np.any(~keep & (v != 0.0)):
        raise InputError(f"neuron {int(np.flatnonzero(~keep & (v != 0.0))[0])} has w_j = 0 but v_j != 0")
    if not keep.any():
        raise InputError("every neuron of the init is zero (nothing to train)")
    W, v = W[keep], v[keep]
    if from_weights:
        scale = float(row_norms[keep].max())
        W, v, le = W / scale, v / scale, math.log(scale)
    return AuditInit(W, v, float(le), from_weights, int((~keep).sum()))


def _safe_exp(x: float) -> float:
    return math.exp(x) if x < 709.0 else math.inf


def _init_part(init: AuditInit) -> dict[str, Any]:
    W0, v0 = init.W0, init.v0
    norms = safe_row_norms(W0)
    top = np.maximum(np.abs(v0), norms)  # |v^2 - ||w||^2| / max(v^2, ||w||^2), in units of the larger (no overflow)
    imbalance = float(np.max(np.abs((v0 / top) ** 2 - (norms / top) ** 2)))
    return dict(h=int(W0.shape[0]), h_dropped=init.dropped, n_vpos=int(np.sum(v0 > 0)), n_vneg=int(np.sum(v0 < 0)),
                W_max=float(norms.max()), W_min=float(norms.min()), imbalance=imbalance,
                balanced=imbalance <= BALANCE_RTOL, log_eps=init.log_eps, eps=_safe_exp(init.log_eps),
                eps_from_weights=init.from_weights)


def audit(
    dataset: Dataset,
    W0: Any = None,
    v0: Any = None,
    *,
    eps: float | None = None,
    log_eps: float | None = None,
    alpha: float = 0.0,
    papers: Iterable[str] | None = None,
) -> Audit:
    """Audit ``dataset`` (and an init) for every installed paper (``papers``: these paper ids only; ``()``:
    the generic geometry alone).

    ``alpha`` is the leaky-ReLU slope in [0, 1]. Raises InputError on invalid inputs; never on failed
    assumptions (those are findings).
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
    init = resolve_init(ds, W0, v0, eps, log_eps)
    na: dict[str, str] = {}
    min_same, max_opp = _class_cosines(ds)
    rho_p, rho_m = class_rhos(ds)
    if not ds.both_classes:
        na["x_minus" if ds.n_neg == 0 else "x_plus"] = "class is empty: the class sum is the zero vector"
        na["max_opposite_label_cos"] = "single class: no opposite-label pairs"
        na["rho_minus" if ds.n_neg == 0 else "rho_plus"] = "class is empty"
    a: dict[str, Any] = dict(
        dataset=ds, n=ds.n, d=ds.d, n_pos=ds.n_pos, n_neg=ds.n_neg, both_classes=ds.both_classes,
        I_pos=ds.I_pos.copy(), I_neg=ds.I_neg.copy(), x_plus=ds.x_plus.copy(), x_minus=ds.x_minus.copy(),
        X_min=ds.X_min, X_max=ds.X_max, min_same_label_cos=min_same, max_opposite_label_cos=max_opp,
        rho_plus=rho_p, rho_minus=rho_m, alpha=alpha, has_init=init is not None, init=init, na=na,
    )
    if init is not None:
        a.update(_init_part(init))
    drop_unrepresentable(a, na, ds)
    a["generic_na"] = a.pop("na")
    ids = None if papers is None else tuple(papers)
    if ids:
        from verify.claims.registry import select_papers  # local: the registry imports the plug-ins

        select_papers(ids)  # an unknown id is an InputError now, not on first use
    return Audit(**a, paper_ids=ids)


def _paper_audits(base: Audit, ids: Iterable[str] | None) -> dict[str, PaperAudit]:
    """Each paper hook's result; a quantity named twice (by two papers or a paper and this module) is an error."""
    own = {f.name for f in fields(Audit)} | {"assumptions", "errata", "failed", "max_margin", "linearly_separable",
                                              "w_svm", "gamma_lin", "w_plus", "w_minus", "papers", "na",
                                              "sign_structure", *SIGN_STRUCTURE}
    owner: dict[str, str] = {}
    out: dict[str, PaperAudit] = {}
    from verify.claims.registry import select_papers  # local: the registry imports the plug-ins

    wanted = None if ids is None else list(ids)  # consumed once: ids may be any iterable
    chosen = select_papers(None) if wanted is None else (select_papers(wanted) if wanted else [])
    for paper in (p for p in chosen if p.audit is not None):
        part = paper.audit(base)
        if not isinstance(part, PaperAudit):
            raise InputError(f"paper {paper.id}: its audit hook returned {type(part).__name__}, not a verify.PaperAudit")
        for key in part.quantities:
            if key in own:
                raise InputError(f"paper {paper.id}: audit quantity {key!r} clashes with the generic audit's")
            if key in owner:
                raise InputError(f"audit quantity {key!r} is defined by paper {owner[key]} and by paper {paper.id}")
            owner[key] = paper.id
        drop_unrepresentable(part.quantities, part.na, base.dataset)
        out[paper.id] = part
    return out


_MAY_BE_INFINITE = ("c_star", "log_eps", "eps")  # infinite on purpose: no neuron faces a class, ln eps = -inf, ...


def drop_unrepresentable(a: dict[str, Any], na: dict[str, str], ds: Dataset) -> None:
    """A time or rate that the data's scale puts beyond float64 (e.g. 1/X_min for X_min ~ 1e-310) is None
    with the reason in ``na``, never inf or nan as a result (names starting with c_star, log_eps or eps
    may be infinite on purpose)."""
    reason = (f"beyond the float64 range at this data scale (X_min = {ds.X_min:.3g}, X_max = {ds.X_max:.3g}); "
              "every verdict is scale-free: rescale the data to compute it")
    for key, value in a.items():
        if key.startswith(_MAY_BE_INFINITE):
            continue
        if isinstance(value, float) and not math.isfinite(value):
            a[key], na[key] = None, reason
        elif isinstance(value, np.ndarray) and value.dtype.kind == "f" and not np.all(np.isfinite(value)):
            a[key], na[key] = None, reason
