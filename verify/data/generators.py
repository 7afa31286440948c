"""Deterministic dataset generators with guaranteed geometry (issue 2, item 3).

Every generator builds valid data directly from a few structured parameters (no rejection
sampling) and returns a :class:`verify.Dataset` whose ``name`` records the call. Random
generators are deterministic functions of an integer ``seed`` (``numpy.random.default_rng``).

Notation: ``s_i = y_i x_i / ||x_i||`` are the signed unit data; the
``mu = min_{i,j} cos(y_i x_i, y_j x_j) = min_{i,j} <s_i, s_j>``.

The spherical-cap construction used by :func:`orthogonally_separable` and :func:`near_miss`:
for a core unit vector ``u`` and a half-angle ``theta``, the two *extremes*
``s_a,b = cos(theta) u +- sin(theta) e`` (``e`` a unit vector orthogonal to ``u``) are at angle
exactly ``2 theta``; every other ``s_i`` lies at angle ``< theta`` from ``u``, so by the
triangle inequality of the geodesic distance no other pair is ``2 theta`` apart. Hence the
minimal pairwise cosine is ``cos(2 theta)``, attained by the extremes.
"""

from __future__ import annotations

import ast
import inspect
import math
from collections.abc import Callable, Sequence

import numpy as np

from verify.data.dataset import Dataset
from verify.data.digits import digits_pair
from verify.data.mnist import mnist_pair
from verify.errors import InputError, NumericalError

MU_TOL = 1e-12
"""Default tolerance of the achieved mu: ``|mu_got - mu| <= MU_TOL`` (float64 rounding ~1e-16)."""

INNER_FRACTION = 0.9
"""Non-extreme points lie within ``INNER_FRACTION * radius`` of the core direction."""


# --------------------------------------------------------------------------- validation


def _int(name: str, value: object, lo: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InputError(f"{name} must be an integer, got {value!r}")
    if value < lo:
        raise InputError(f"{name} must be >= {lo}, got {value}")
    return int(value)


def _float(name: str, value: object) -> float:
    if isinstance(value, bool):
        raise InputError(f"{name} must be a real number, got {value!r}")
    try:
        out = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InputError(f"{name} must be a real number, got {value!r}") from None
    if not math.isfinite(out):
        raise InputError(f"{name} must be finite, got {value!r}")
    return out


def in_range(name: str, value: object, lo: float, hi: float, *, lo_open: bool, hi_open: bool) -> float:
    v = _float(name, value)
    below = v <= lo if lo_open else v < lo
    above = v >= hi if hi_open else v > hi
    if below or above:
        interval = f"{'(' if lo_open else '['}{lo:g}, {hi:g}{')' if hi_open else ']'}"
        raise InputError(f"{name} must lie in {interval}, got {v!r}")
    return v


def _rng(seed: object) -> np.random.Generator:
    return np.random.default_rng(_int("seed", seed, 0))


def _norm_range(norm_range: object) -> tuple[float, float]:
    try:
        lo, hi = norm_range  # type: ignore[misc]
    except (TypeError, ValueError):
        raise InputError(f"norm_range must be a pair (X_min, X_max), got {norm_range!r}") from None
    lo, hi = _float("norm_range[0]", lo), _float("norm_range[1]", hi)
    if not 0.0 < lo <= hi:
        raise InputError(f"norm_range must satisfy 0 < X_min <= X_max, got ({lo!r}, {hi!r})")
    return lo, hi


def _fmt(**params: object) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in params.items())


# --------------------------------------------------------------------------- geometry helpers


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def _frame(d: int, rng: np.random.Generator, core: np.ndarray | None = None) -> np.ndarray:
    """A random orthonormal basis of R^d as columns; column 0 is ``core`` (unit) or a random direction."""
    M = rng.standard_normal((d, d))
    if core is not None:
        M[:, 0] = core
    Q, R = np.linalg.qr(M)
    Q = Q * np.where(np.diag(R) < 0.0, -1.0, 1.0)
    if core is not None:
        Q[:, 0] = core
    return Q


def _tangent_dirs(Q: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """k random unit vectors orthogonal to Q[:, 0], shape (k, d)."""
    coeffs = rng.standard_normal((k, Q.shape[0] - 1))
    coeffs /= np.linalg.norm(coeffs, axis=1, keepdims=True)
    return coeffs @ Q[:, 1:].T


def _cap(n: int, d: int, theta: float, inner: float, extremes: tuple[int, int] | None,
         rng: np.random.Generator) -> np.ndarray:
    """n unit rows: rows ``extremes`` at cos(theta) u +- sin(theta) e, the rest within angle inner of u.

    Requires d >= 2 when theta > 0, and inner < theta so the extremes realise the minimal cosine.
    """
    Q = _frame(d, rng)
    u = Q[:, 0]
    if d == 1:
        return np.tile(u, (n, 1))
    phi = rng.uniform(0.0, inner, size=n)
    S = np.cos(phi)[:, None] * u + np.sin(phi)[:, None] * _tangent_dirs(Q, n, rng)
    if extremes is not None:
        e = Q[:, 1]
        a, b = extremes
        S[a] = math.cos(theta) * u + math.sin(theta) * e
        S[b] = math.cos(theta) * u - math.sin(theta) * e
    return S


def _labels(n_pos: int, n_neg: int) -> np.ndarray:
    return np.concatenate([np.ones(n_pos), -np.ones(n_neg)])


def _norms(n: int, lo: float, hi: float, rng: np.random.Generator) -> np.ndarray:
    return np.full(n, lo) if lo == hi else rng.uniform(lo, hi, size=n)


def _min_cos(ds: Dataset) -> float:
    U = ds.signed / ds.norms[:, None]
    return float(np.clip(U @ U.T, -1.0, 1.0).min())


def _check_mu(ds: Dataset, target: float, tol: float) -> Dataset:
    got = _min_cos(ds)
    if abs(got - target) > tol:
        raise NumericalError(f"{ds.name}: constructed mu = {got!r} misses the target {target!r} by more than {tol:g}")
    return ds


# --------------------------------------------------------------------------- mu > 0 (and its near misses)


def _split_cap(y: np.ndarray, d: int, theta: float, inner: float, split: float, rng: np.random.Generator) -> np.ndarray:
    """Unit rows for labels ``y`` (both classes present, d >= 2) with the classes on opposite sides of the cap.

    Core ``u`` and side ``e`` (orthonormal); class ``c`` (+-1) is centred at ``cos(b) u + c sin(b) e`` with
    ``b = split * inner`` and spread within angle ``(1 - split) * inner`` of that centre, so every row is
    within ``inner`` of ``u`` (triangle inequality). A random positive is the extreme ``cos(theta) u + sin(theta) e``
    and a random negative ``cos(theta) u - sin(theta) e``: the pair at angle exactly ``2 theta``.
    """
    n = y.size
    Q = _frame(d, rng)
    u, e = Q[:, 0], Q[:, 1]
    beta, radius = split * inner, (1.0 - split) * inner
    S = np.empty((n, d))
    for c in (1.0, -1.0):
        rows = np.flatnonzero(y == c)
        centre = math.cos(beta) * u + c * math.sin(beta) * e
        phi = rng.uniform(0.0, radius, size=rows.size)
        S[rows] = np.cos(phi)[:, None] * centre + np.sin(phi)[:, None] * _tangent_dirs(_frame(d, rng, core=centre), rows.size, rng)
        S[int(rng.choice(rows))] = math.cos(theta) * u + c * math.sin(theta) * e
    return S


def orthogonally_separable(n_pos: int, n_neg: int, d: int, mu: float, *, seed: int,
                           norm_range: tuple[float, float] = (1.0, 1.0), tol: float = MU_TOL, split: float = 0.0) -> Dataset:
    """Data with ``mu = min_ij cos(y_i x_i, y_j x_j)`` exactly the given value > 0 (|error| <= tol).

    Signed directions ``s_i`` lie in the cap of half-angle ``theta = arccos(mu)/2 < pi/4`` around a
    random core ``u``; two of them (random indices) are the extremes at angle exactly
    ``2 theta = arccos(mu)``, the rest within ``0.9 theta`` of ``u``. Then ``x_i = y_i r_i s_i`` with
    ``r_i ~ U[X_min, X_max]``, positives first. Every pair then has cosine >= mu > 0, so the data are
    orthogonally separable as well. ``mu = 1`` gives collinear data; n = 1 or d = 1 forces it.

    ``split`` in [0, 1] (with both classes present and d >= 2) pulls the classes to opposite sides of the
    cap: the positives' signed directions spread within ``(1 - split) 0.9 theta`` of a centre at
    ``split 0.9 theta`` from ``u`` towards the positive extreme, the negatives' likewise towards the other,
    and the extremes are one positive and one negative. 0 (the default) is the unsplit cap. Every positive s
    has ``<s, e> >= sin(b)``, ``b = (2 split - 1) 0.9 theta``, and every negative ``<s, e> <= -sin(b)``, so for
    split > 1/2 the class directions (normalised sums) are at least ``2 b`` apart: 1.8 theta at split 1
    (near-orthogonal classes when mu is small). mu is exact either way.
    """
    n_pos, n_neg, d = _int("n_pos", n_pos, 0), _int("n_neg", n_neg, 0), _int("d", d, 1)
    n = n_pos + n_neg
    if n < 1:
        raise InputError("need at least one point (n_pos + n_neg >= 1)")
    mu = in_range("mu", mu, 0.0, 1.0, lo_open=True, hi_open=False)
    lo, hi = _norm_range(norm_range)
    tol = in_range("tol", tol, 0.0, 1.0, lo_open=True, hi_open=False)
    split = in_range("split", split, 0.0, 1.0, lo_open=False, hi_open=False)
    if mu < 1.0 and n == 1:
        raise InputError(f"a single point has mu = 1 (the i = j term); mu = {mu!r} is impossible")
    if mu < 1.0 and d == 1:
        raise InputError(f"in d = 1 the signed data are collinear, so mu = 1; mu = {mu!r} is impossible")
    rng = _rng(seed)
    theta = 0.5 * math.acos(mu)
    y = _labels(n_pos, n_neg)
    if split > 0.0 and n_pos and n_neg and d >= 2:
        S = _split_cap(y, d, theta, INNER_FRACTION * theta, split, rng)
    else:
        extremes = tuple(int(i) for i in rng.choice(n, size=2, replace=False)) if n >= 2 else None
        S = _cap(n, d, theta, INNER_FRACTION * theta, extremes, rng)  # type: ignore[arg-type]
    X = y[:, None] * _norms(n, lo, hi, rng)[:, None] * S
    extra = {"split": split} if split > 0.0 else {}
    name = f"orthogonally_separable({_fmt(n_pos=n_pos, n_neg=n_neg, d=d, mu=mu, seed=seed, norm_range=(lo, hi), **extra)})"
    return _check_mu(Dataset(X, y, name=name), mu, tol)


def near_miss(n_pos: int, n_neg: int, d: int, violation: float, *, seed: int,
              norm_range: tuple[float, float] = (1.0, 1.0), tol: float = MU_TOL) -> Dataset:
    """Data with mu > 0 violated by exactly ``violation``: ``mu = -violation`` (|error| <= tol).

    Row 0 (label +1) and row ``n_pos`` (label -1) are the only pair with a negative signed cosine:
    ``cos(x_0, x_{n_pos}) = violation > 0`` (a cross-class acute pair), i.e.
    ``cos(y_0 x_0, y_{n_pos} x_{n_pos}) = -violation``. Construction: the cap of half-angle
    ``theta = arccos(-violation)/2 in (pi/4, pi/2)`` with those two rows as extremes and every other
    signed direction within ``0.9 (pi/2 - theta)`` of the core, so all other pairs have cosine > 0.
    Needs both classes, d >= 2 and violation in (0, 1).
    """
    n_pos, n_neg, d = _int("n_pos", n_pos, 1), _int("n_neg", n_neg, 1), _int("d", d, 2)
    violation = in_range("violation", violation, 0.0, 1.0, lo_open=True, hi_open=True)
    lo, hi = _norm_range(norm_range)
    tol = in_range("tol", tol, 0.0, 1.0, lo_open=True, hi_open=False)
    rng = _rng(seed)
    n = n_pos + n_neg
    theta = 0.5 * math.acos(-violation)
    S = _cap(n, d, theta, INNER_FRACTION * (0.5 * math.pi - theta), (0, n_pos), rng)
    y = _labels(n_pos, n_neg)
    X = y[:, None] * _norms(n, lo, hi, rng)[:, None] * S
    name = f"near_miss({_fmt(n_pos=n_pos, n_neg=n_neg, d=d, violation=violation, seed=seed, norm_range=(lo, hi))})"
    return _check_mu(Dataset(X, y, name=name), -violation, tol)


def _polar(angles: Sequence[float]) -> np.ndarray:
    a = np.asarray(angles, dtype=float)
    return np.column_stack([np.cos(a), np.sin(a)])


def angular(pos: Sequence[float], neg: Sequence[float], name: str) -> Dataset:
    """Unit points (cos a, sin a) in the plane: label +1 at the angles ``pos``, -1 at ``neg`` (radians)."""
    X = np.vstack([_polar(pos), _polar(neg)])
    return Dataset(X, _labels(len(pos), len(neg)), name=name)


def pc2_cross_class_acute() -> Dataset:
    """A cross-class acute pair (not orthogonally separable, linearly separable by u(10 deg)): unit points
    u(phi) = (cos phi, sin phi).

    +1 at u(0 deg), u(80 deg); -1 at u(120 deg), u(135 deg). The cross pair u(80), u(120) is acute
    (cos 40 deg > 0), so orthogonal separability fails; mu = cos(140 deg) ~ -0.766.
    """
    return angular(np.radians([0.0, 80.0]), np.radians([120.0, 135.0]), "pc2_cross_class_acute")


# --------------------------------------------------------------------------- seeds 002 / 003: linear teachers


def _teacher(d: int, teacher: object, rng: np.random.Generator) -> np.ndarray:
    if teacher is None:
        return _frame(d, rng)[:, 0]
    try:
        w = np.asarray(teacher, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        w = np.zeros(0)
    if w.shape != (d,) or not np.all(np.isfinite(w)) or not np.any(w):
        raise InputError(f"teacher must be a finite nonzero vector of length d = {d}, got {teacher!r}")
    return _unit(w)


def _half_slab(k: int, w: np.ndarray, margin: float, rng: np.random.Generator, band: float = 1.0,
               unit_norm: bool = False) -> np.ndarray:
    """k points in the unit ball with <w, x> in [margin, 1]; row 0 is the support vector margin * w.

    ``<w, x> = t ~ U[margin, hi]`` with ``hi = margin + band (1 - margin)`` (1 for the default band 1);
    the part orthogonal to w has a random direction and length ``U[0, sqrt(1 - t^2)]``, so ``||x|| <= 1``,
    or, with ``unit_norm``, the full length ``sqrt(1 - t^2)``, so ``||x|| = 1`` (rows 1.., d >= 2).
    """
    d = w.size
    hi = 1.0 if band == 1.0 else margin + band * (1.0 - margin)
    t = rng.uniform(margin, hi, size=k)
    t[0] = margin
    P = np.zeros((k, d))
    if d > 1:
        length = np.sqrt(1.0 - t * t)
        if not unit_norm:
            length = rng.uniform(0.0, 1.0, size=k) * length
        else:
            rng.uniform(0.0, 1.0, size=k)  # drawn all the same: the ball's <w, x> and orthogonal directions
        P = _tangent_dirs(_frame(d, rng, core=w), k, rng) * length[:, None]
    P[0] = 0.0
    return t[:, None] * w + P


def symmetric_separable(n_half: int, d: int, margin: float, *, seed: int) -> Dataset:
    """Symmetric data: rows i < n_half are +1, row i + n_half is -x_i with label -1.

    Linearly separable through the origin with linear max margin exactly ``margin``:
    ``||x_i|| <= 1``, ``<w*, x_i> ~ U[margin, 1]`` for a random unit ``w*``, and row 0 is the support
    vector ``margin * w*``, so ``gamma_lin = max_{||w||=1} min_i y_i <w, x_i> = margin`` with
    maximiser ``w* = X[0] / ||X[0]||``.
    """
    n_half, d = _int("n_half", n_half, 1), _int("d", d, 1)
    margin = in_range("margin", margin, 0.0, 1.0, lo_open=True, hi_open=False)
    rng = _rng(seed)
    P = _half_slab(n_half, _frame(d, rng)[:, 0], margin, rng)
    name = f"symmetric_separable({_fmt(n_half=n_half, d=d, margin=margin, seed=seed)})"
    return Dataset(np.vstack([P, -P]), _labels(n_half, n_half), name=name)


def linear_teacher(n: int, d: int, margin: float, *, seed: int, teacher: Sequence[float] | None = None,
                   band: float = 1.0, unit_norm: bool = False, tilt: float = 0.0) -> Dataset:
    """Seed 002 data: ``y = sign(<w*, x>)`` for a unit teacher ``w*`` (random, or ``teacher`` normalised).

    Each point: a label y (row 0: +1, row 1: -1, the rest fair coins), ``<w*, x> = y t`` with
    ``t ~ U[margin, 1]`` and an orthogonal part of random direction and length ``U[0, sqrt(1-t^2)]``.
    Guarantees ``||x|| <= 1``, ``y <w*, x> >= margin`` (so ``y cos(w*, x) >= margin``, and the
    functional margin ``y <w*/margin, x> >= 1``), and row 0 is the support vector
    ``margin * w*`` (tilt 0, the default), making ``w*`` the max-margin direction with ``gamma_lin = margin``
    exactly.

    ``band`` in (0, 1] narrows ``t`` to ``U[margin, margin + band (1 - margin)]``: every point within that
    band of the separating hyperplane (many near-support vectors; with a small band, opposite-class points
    at an acute angle are common). ``unit_norm`` puts rows 1.. on the unit sphere (orthogonal part of length
    ``sqrt(1 - t^2)``; d >= 2), so the classes have comparable norms. Both keep every guarantee above.

    ``tilt`` in [0, 1] (n >= 2, d >= 2) replaces the single support vector by a pair: row 0 (+1) is
    ``margin w* + l e`` and row 1 (-1) is ``-margin w* + l e`` for a random unit ``e`` orthogonal to w* and
    ``l = tilt sqrt(1 - margin^2)`` (so ``||x|| <= 1``). Then ``y_0 x_0 + y_1 x_1 = 2 margin w*`` and, for any
    unit w, ``min_i y_i <w, x_i> <= margin <w, w*>``: w* is still the max-margin direction with
    ``gamma_lin = margin`` exactly. ``<x_0, x_1> = l^2 - margin^2``: for ``l > margin`` the support vectors are
    a cross-class acute pair (the data are not orthogonally separable).
    """
    n, d = _int("n", n, 1), _int("d", d, 1)
    margin = in_range("margin", margin, 0.0, 1.0, lo_open=True, hi_open=False)
    band = in_range("band", band, 0.0, 1.0, lo_open=True, hi_open=False)
    tilt = in_range("tilt", tilt, 0.0, 1.0, lo_open=False, hi_open=False)
    if not isinstance(unit_norm, (bool, np.bool_)):
        raise InputError(f"unit_norm must be True or False, got {unit_norm!r}")
    rng = _rng(seed)
    w = _teacher(d, teacher, rng)
    y = rng.choice([-1.0, 1.0], size=n)
    y[0] = 1.0
    if n > 1:
        y[1] = -1.0
    X = y[:, None] * _half_slab(n, w, margin, rng, band, bool(unit_norm))
    if tilt > 0.0 and n >= 2 and d >= 2:
        e = _tangent_dirs(_frame(d, rng, core=w), 1, rng)[0]
        offset = tilt * math.sqrt(1.0 - margin * margin) * e
        X[0], X[1] = margin * w + offset, -margin * w + offset
    tag = "random" if teacher is None else "given"
    extra: dict[str, object] = {"band": band} if band != 1.0 else {}
    if unit_norm:
        extra["unit_norm"] = True
    if tilt > 0.0:
        extra["tilt"] = tilt
    return Dataset(X, y, name=f"linear_teacher({_fmt(n=n, d=d, margin=margin, seed=seed, **extra)}, teacher={tag})")


# --------------------------------------------------------------------------- registry


GENERATORS: dict[str, Callable[..., Dataset]] = {
    "orthogonally_separable": orthogonally_separable,
    "near_miss": near_miss,
    "pc2_cross_class_acute": pc2_cross_class_acute,
    "symmetric_separable": symmetric_separable,
    "linear_teacher": linear_teacher,
    "digits_pair": digits_pair,
    "mnist_pair": mnist_pair,
}


def _coerce(value: object) -> object:
    if not isinstance(value, str):
        return value
    try:
        return ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return value


def generators() -> dict[str, Callable[..., Dataset]]:
    """The generic families (:data:`GENERATORS`) and every installed paper's datasets (``Paper.datasets``);
    a name given twice is an InputError naming both owners."""
    from verify.claims.registry import papers  # local: the registry imports the plug-ins

    out, owner = dict(GENERATORS), {k: "verify" for k in GENERATORS}
    for paper in papers().values():
        for key, fn in paper.datasets.items():
            if key in owner:
                raise InputError(f"dataset {key!r} is defined by {owner[key]} and by paper {paper.id}")
            out[key], owner[key] = fn, f"paper {paper.id}"
    return out


def make_dataset(name: str, **params: object) -> Dataset:
    """``generators()[name](**params)``; string values are parsed as Python literals ("3", "0.5", "(1, 2)").

    Unknown names and bad or missing parameters raise :class:`verify.InputError`.
    """
    known = generators()
    if name not in known:
        raise InputError(f"unknown generator {name!r}; choose one of {', '.join(sorted(known))}")
    fn = known[name]
    kwargs = {k: _coerce(v) for k, v in params.items()}
    try:
        inspect.signature(fn).bind(**kwargs)
    except TypeError as exc:
        raise InputError(f"generator {name!r}{inspect.signature(fn)}: {exc}") from None
    return fn(**kwargs)
