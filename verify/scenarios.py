"""Scenarios: (dataset, initialisation, loss, alpha) and the Hypothesis strategies that build them.

A strategy draws a few *structured* parameters (class sizes, dimension, mu, width, decade of
eps, seeds) and builds valid data from them with the deterministic generators of
:mod:`verify.data.generators`; nothing is rejection-filtered from random floats. Shrinking
therefore moves toward few points, few neurons, low dimension, seed 0 and round numbers (and, for
the structures drawn with them, toward split classes, one support vector, both signs of v and no
anchored neuron).

``scenario(...)`` is the public entry point (see its docstring)::

    scenario(data="orthogonally_separable" | "linearly_separable" | "symmetric" | "any",
             init="balanced" | "unbalanced" | "dominated", n=(lo, hi), d=(lo, hi),
             h=(lo, hi), eps=(lo, hi), loss="exp" | "logistic" | "logistic2" | "square" | "poly",
             alpha=0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from hypothesis import strategies as st

from verify.data import generators as gen
from verify.data.dataset import Dataset
from verify.errors import InputError
from verify.model.activation import check_alpha
from verify.model.init import Initialization, balanced_init, dominated_init, unbalanced_init
from verify.model.losses import get_loss

DATA_KINDS = ("orthogonally_separable", "linearly_separable", "symmetric", "any")
INIT_KINDS = ("balanced", "unbalanced", "dominated")
SEEDS = st.integers(min_value=0, max_value=2**16 - 1)


@dataclass(frozen=True, eq=False)
class Scenario:
    """One concrete problem: data, initialisation, loss, leaky slope; ``params`` says how it was built.

    The model variant and the algorithm, where a paper needs them: ``train_v`` False keeps the second layer
    fixed at ``init.v0`` (times exp(log_eps); give log_eps = 0 for fixed +-1 weights); ``lr`` is the step of
    the "gd" backend (a claim with ``backend="gd"`` needs it), ``batch_size`` < n makes it SGD without
    replacement in epochs (one permutation of the data per epoch, drawn from ``order_seed``). The engine's loss
    is summed (DESIGN.md): a mean-loss step eta is ``lr = eta / n`` (:func:`verify.model.losses.summed_lr`).
    """

    dataset: Dataset
    init: Initialization
    loss: str = "exp"
    alpha: float = 0.0
    params: dict[str, Any] = field(default_factory=dict)
    train_v: bool = True
    lr: float | None = None
    batch_size: int | None = None
    order_seed: int = 0

    def __post_init__(self) -> None:
        get_loss(self.loss)
        check_alpha(self.alpha)
        if self.init.d != self.dataset.d:
            raise InputError(f"init dimension {self.init.d} does not match data dimension {self.dataset.d}")
        if not isinstance(self.train_v, (bool, np.bool_)):
            raise InputError(f"train_v must be True or False, got {self.train_v!r}")
        if self.lr is not None and not (isinstance(self.lr, (int, float)) and not isinstance(self.lr, bool)
                                        and math.isfinite(self.lr) and self.lr > 0.0):
            raise InputError(f"lr must be a positive finite number or None, got {self.lr!r}")
        if self.batch_size is not None:
            if self.lr is None:
                raise InputError("batch_size needs a step lr (SGD runs on the gd backend)")
            if isinstance(self.batch_size, bool) or not isinstance(self.batch_size, (int, np.integer)) \
                    or not 1 <= self.batch_size <= self.dataset.n:
                raise InputError(f"batch_size must be an integer in [1, {self.dataset.n}], got {self.batch_size!r}")
        if isinstance(self.order_seed, bool) or not isinstance(self.order_seed, (int, np.integer)):
            raise InputError(f"order_seed must be an integer, got {self.order_seed!r}")

    @property
    def algorithm(self) -> dict[str, Any]:
        """The training variant as a record: train_v, and lr / batch_size / order_seed where set (empty for GF
        with a trained second layer, the default)."""
        out: dict[str, Any] = {} if self.train_v else {"train_v": False}
        if self.lr is not None:
            out["lr"] = float(self.lr)
        if self.batch_size is not None:
            out.update({"batch_size": int(self.batch_size), "order_seed": int(self.order_seed)})
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description: X, y, the eps-free W0, v0, log_eps, and the structured params."""
        return {
            "X": self.dataset.X.tolist(),
            "y": self.dataset.y.tolist(),
            "W0": self.init.W0.tolist(),
            "v0": self.init.v0.tolist(),
            "log_eps": self.init.log_eps,
            "init_kind": self.init.kind,
            "loss": self.loss,
            "alpha": self.alpha,
            "params": dict(self.params),
            **self.algorithm,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Scenario":
        """Inverse of :meth:`to_dict` (used to replay counterexamples)."""
        try:
            ds = Dataset(np.asarray(data["X"], dtype=float), np.asarray(data["y"], dtype=float), name="replay")
            init = Initialization(
                np.asarray(data["W0"], dtype=float),
                np.asarray(data["v0"], dtype=float),
                float(data["log_eps"]),
                str(data.get("init_kind", "given")),
            )
            lr, batch = data.get("lr"), data.get("batch_size")
            return cls(ds, init, str(data.get("loss", "exp")), float(data.get("alpha", 0.0)), dict(data.get("params", {})),
                       train_v=bool(data.get("train_v", True)), lr=None if lr is None else float(lr),
                       batch_size=None if batch is None else int(batch), order_seed=int(data.get("order_seed", 0)))
        except KeyError as exc:
            raise InputError(f"scenario description lacks the key {exc}") from None
        except (TypeError, ValueError) as exc:
            if isinstance(exc, InputError):
                raise
            raise InputError(f"malformed scenario description: {exc}") from None


def _range(name: str, value: tuple[float, float] | float, lo_bound: float) -> tuple[float, float]:
    lo, hi = (value, value) if isinstance(value, (int, float)) else value
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo > hi or lo < lo_bound:
        raise InputError(f"{name} range must satisfy {lo_bound} <= lo <= hi, got {value!r}")
    return lo, hi


def _int_range(name: str, value: tuple[int, int] | int, lo_bound: int) -> st.SearchStrategy[int]:
    lo, hi = _range(name, value, lo_bound)
    return st.integers(min_value=int(lo), max_value=int(hi))


def log_eps_strategy(eps: tuple[float, float] | float) -> st.SearchStrategy[float]:
    """ln(eps) for eps log-uniform over the whole decades in [lo, hi] (any eps when the range is narrower)."""
    lo, hi = _range("eps", eps, 0.0)
    if lo <= 0.0:
        raise InputError(f"eps must be positive, got {eps!r}")
    a, b = math.log10(lo), math.log10(hi)
    if math.floor(b) - math.ceil(a) >= 1:
        decades = st.integers(min_value=math.ceil(a), max_value=math.floor(b))
        return decades.map(lambda k: k * math.log(10.0))
    return st.floats(min_value=a, max_value=b).map(lambda e: e * math.log(10.0))


SPLITS = (0.9, 0.0)  # orthogonally separable: classes split to the two sides of the cap, or mixed in it
BANDS = (1.0, 0.25)  # linearly separable: <w*, x> over all of [margin, 1], or within a quarter of it
TILTS = (0.0, 1.0)  # linearly separable: one support vector on the teacher axis, or a support pair off it


def log_hundredths(lo: int, hi: int) -> st.SearchStrategy[int]:
    """An integer k in [lo, hi] (1 <= lo), spread log-uniformly: as many draws in [lo, 2 lo] as in [2 lo, 4 lo].

    mu = k / 100 near its lower end is the hard case (slow alignment, nearly orthogonal classes): a uniform
    draw over [0.05, 0.95] falls below 0.2 one time in six, a log-spread one about half the time. Shrinks to lo."""
    if hi <= lo:
        return st.just(lo)
    return st.integers(min_value=0, max_value=1000).map(lambda u: min(hi, max(lo, round(lo * (hi / lo) ** (u / 1000)))))


@st.composite
def datasets(draw: st.DrawFn, data: str = "orthogonally_separable", n: tuple[int, int] = (2, 8), d: tuple[int, int] = (2, 4),
             mu: tuple[float, float] = (0.05, 0.95)) -> tuple[Dataset, dict[str, Any]]:
    """A dataset of the named family and the structured parameters that built it."""
    n_lo, n_hi = (int(v) for v in _range("n", n, 1))
    dim = draw(_int_range("d", d, 1))
    seed = draw(SEEDS)
    if data == "orthogonally_separable":
        n_pos = draw(st.integers(min_value=1, max_value=max(1, n_hi - 1)))
        n_neg = draw(st.integers(min_value=max(1, n_lo - n_pos), max_value=max(1, n_hi - n_pos)))
        mu_lo, mu_hi = _range("mu", mu, 0.0)
        k = draw(log_hundredths(max(1, math.ceil(mu_lo * 100)), min(100, math.floor(mu_hi * 100))))
        value = 1.0 if dim == 1 else k / 100.0
        spread = draw(st.sampled_from([1.0, 2.0, 4.0]))
        split = draw(st.sampled_from(SPLITS))
        params = {"n_pos": n_pos, "n_neg": n_neg, "d": dim, "mu": value, "seed": seed, "norm_range": (1.0, spread),
                  "split": split}
        return gen.orthogonally_separable(**params), {"data": data, **params}
    if data == "linearly_separable":
        count = draw(st.integers(min_value=max(2, n_lo), max_value=max(2, n_hi)))
        margin = draw(st.integers(min_value=5, max_value=50)) / 100.0
        band = draw(st.sampled_from(BANDS))
        unit_norm = draw(st.booleans())
        tilt = draw(st.sampled_from(TILTS))
        params = {"n": count, "d": dim, "margin": margin, "seed": seed, "band": band, "unit_norm": unit_norm, "tilt": tilt}
        return gen.linear_teacher(**params), {"data": data, **params}
    if data == "symmetric":
        half = draw(st.integers(min_value=max(1, n_lo // 2), max_value=max(1, n_hi // 2)))
        margin = draw(st.integers(min_value=5, max_value=50)) / 100.0
        params = {"n_half": half, "d": dim, "margin": margin, "seed": seed}
        return gen.symmetric_separable(**params), {"data": data, **params}
    if data == "any":
        count = draw(st.integers(min_value=n_lo, max_value=n_hi))
        rng = np.random.default_rng(seed)
        X = rng.standard_normal((count, dim))
        y = np.where(rng.random(count) < 0.5, -1.0, 1.0)
        return Dataset(X, y, name=f"gaussian(n={count}, d={dim}, seed={seed})"), {"data": data, "n": count, "d": dim, "seed": seed}
    raise InputError(f"unknown data family {data!r}; choose one of {', '.join(DATA_KINDS)}")


def make_init(kind: str, h: int, d: int, log_eps: float, seed: int) -> Initialization:
    """The initialisation family by name, at scale exp(log_eps)."""
    if kind == "balanced":
        return balanced_init(h, d, log_eps=log_eps, seed=seed)
    if kind == "unbalanced":
        return unbalanced_init(h, d, log_eps=log_eps, seed=seed)
    if kind == "dominated":
        return dominated_init(h, d, log_eps=log_eps, seed=seed)
    raise InputError(f"unknown init family {kind!r}; choose one of {', '.join(INIT_KINDS)}")


ANCHOR_ANGLE = (0.02, 0.2)  # radians: how far from a point's activation boundary an anchored neuron starts


def anchor_neurons(init: Initialization, ds: Dataset, count: int, seed: int) -> Initialization:
    """The init with its first ``count`` neurons turned to start just inside a point's active half-space.

    Neuron j < count keeps its norm ||W0_j|| and the direction of W0_j's part orthogonal to a point x_i of
    its own class (y_i = sign(v0_j); any point where that class is empty; i drawn from ``seed``), and is
    tilted by an angle in ``ANCHOR_ANGLE`` to the active side of <x_i, w> = 0: a barely active neuron that
    either grows with its class or is pushed across that surface early in the flow. v0 is unchanged, so
    every |v0_j| / ||W0_j|| (balancedness, domination) stays as it was. No change in d = 1 (the surface is
    w = 0) or where W0_j is parallel to x_i."""
    if count <= 0 or init.d < 2:
        return init
    rng = np.random.default_rng([int(seed), 1])
    W0 = init.W0.copy()
    unit = ds.X / np.linalg.norm(ds.X, axis=1, keepdims=True)
    for j in range(min(count, init.h)):
        own = np.flatnonzero(ds.y == np.sign(init.v0[j]))
        pool = own if own.size else np.arange(ds.n)
        a = unit[int(rng.choice(pool))]
        tilt = float(rng.uniform(*ANCHOR_ANGLE))
        norm = float(np.linalg.norm(W0[j]))
        t = W0[j] - float(W0[j] @ a) * a
        if np.linalg.norm(t) <= 1e-9 * norm:
            continue
        W0[j] = norm * (math.cos(tilt) * t / np.linalg.norm(t) + math.sin(tilt) * a)
    return Initialization(W0, init.v0, init.log_eps, init.kind)


def mix_signs(init: Initialization, seed: int) -> Initialization:
    """The init with both signs of v0 present (h >= 2): where every v0_j has one sign, one (drawn from
    ``seed``) is flipped. |v0_j| is unchanged."""
    v0 = init.v0
    if init.h < 2 or not (np.all(v0 > 0.0) or np.all(v0 < 0.0)):
        return init
    v0 = v0.copy()
    j = int(np.random.default_rng([int(seed), 2]).integers(init.h))
    v0[j] = -v0[j]
    return Initialization(init.W0, v0, init.log_eps, init.kind)


@dataclass(frozen=True)
class EpsRule:
    """A rule that picks ln eps from the drawn data and eps-free base init (a paper's theorem scale):
    ``log_eps(dataset, init) -> (value, reason)``, value None where the rule is undefined for the case.
    ``name`` is recorded in the scenario's ``params["eps_mode"]``."""

    name: str
    log_eps: Callable[[Dataset, Initialization], tuple[float | None, str]]


EPS_FALLBACK_LOG = -50.0  # ln eps used when an eps mode is undefined for the drawn case (recorded in params)


def scenario(data: str = "orthogonally_separable", init: str = "balanced", n: tuple[int, int] = (2, 8),
             d: tuple[int, int] = (2, 4), h: tuple[int, int] = (2, 6), eps: tuple[float, float] | EpsRule = (1e-6, 1e-2),
             loss: str = "exp", alpha: float = 0.0, mu: tuple[float, float] = (0.05, 0.95),
             eps_offset: float = 0.0) -> st.SearchStrategy[Scenario]:
    """A Hypothesis strategy of :class:`Scenario` (dataset, initialisation, loss, alpha) for ``@verify.claim(over=...)``.

    Every argument is checked when the strategy is made (a bad one is a :class:`verify.InputError`).
    Valid data are built from a few drawn integers (sizes, seeds, hundredths of mu or of a margin), never
    filtered from random floats, so shrinking moves to few points, few neurons, low dimension and seed 0.

    data -- the dataset family:
        "orthogonally_separable" (default): n_pos >= 1 positives and n_neg >= 1 negatives with
            mu = min_ij cos(y_i x_i, y_j x_j) exactly a drawn hundredth in ``mu``; every same-label pair has
            a positive and every opposite-label pair a negative inner product; row norms in [1, s],
            s in {1, 2, 4} (collinear data when d = 1). mu is spread log-uniformly over its range (about half
            the draws below 0.2 for the default range: the nearly orthogonal hard case), and the classes are
            either split to the two sides of the cap of signed directions (``params["split"] = 0.9``: class
            directions at least 0.72 arccos(mu) apart, the mu pair one positive and one negative) or mixed in
            it (``split = 0``); see :func:`verify.data.generators.orthogonally_separable`.
        "linearly_separable": n >= 2 points labelled by a random unit teacher w*, ||x|| <= 1,
            y <w*, x> >= margin (a drawn hundredth in [0.05, 0.5]) and w* the max-margin direction, so the
            linear max margin through the origin is that margin exactly. Drawn with it: ``band`` (1 or 0.25:
            y <w*, x> spread over [margin, 1] or within a quarter of it, points near the separator),
            ``unit_norm`` (rows on the unit sphere: comparable norms) and ``tilt`` (0: row 0 is the support
            vector margin w*; 1: rows 0 (+1) and 1 (-1) are a support pair margin w* +- ..., a cross-class
            acute pair); see :func:`verify.data.generators.linear_teacher`. Cross-class acute pairs (the
            data are then not orthogonally separable) occur in roughly half the draws or more.
        "symmetric": n_half >= 1 positives x_i and their mirrors -x_i labelled -1 (n = 2 n_half), linearly
            separable with max margin the drawn margin, ||x|| <= 1.
        "any": n i.i.d. Gaussian rows with fair-coin labels: no separability of any kind is promised.
    init -- the initialisation family, scaled by eps (W(0) = eps W0, v(0) = eps v0):
        "balanced" (default): W0 rows ~ N(0, I/d), v0_j = s_j ||W0_j|| with random signs s_j, so
            v_j^2 = ||w_j||^2 (stored in log-eps form: any eps, even exp(-10^4), is representable);
        "unbalanced": W0 rows ~ N(0, I/d) and v0_j ~ N(0, 1/h) independent: generically |v_j| != ||w_j||;
        "dominated": |v0_j| = 2 ||W0_j|| (the second layer dominates), random signs.
        Every family then draws two structures (recorded in ``params``): ``signs`` "mixed" (both signs of v0
        present when h >= 2: where all agree one is flipped, see :func:`mix_signs`) or "random"; and
        ``anchored`` in [0, h]: that many neurons turned, norm kept, to start just inside the active
        half-space of a point of their own class (:func:`anchor_neurons`): barely active neurons, which
        cross, slide or grow early. |v0_j| and ||W0_j|| are unchanged, so each family's guarantee holds.
    n -- (lo, hi) inclusive range of the number of examples (an integer fixes it). The orthogonally separable
        family draws n_pos in [1, hi - 1] and n_neg so that n_pos + n_neg lies in [lo, hi] where it can.
    d -- (lo, hi) inclusive range of the input dimension.
    h -- (lo, hi) inclusive range of the width (number of neurons).
    eps -- (lo, hi) with 0 < lo <= hi: the init scale, log-uniform over the whole decades of the range
        (any value when the range spans less than a decade); or a :class:`EpsRule` (a paper's theorem scale
        for the drawn data and base init; where the rule is undefined ln eps = ``EPS_FALLBACK_LOG`` and
        ``params["eps_mode_undefined"]`` says why, and claims should treat such examples as vacuous).
    eps_offset -- with an :class:`EpsRule`: how far below the rule's scale to start, in log space
        (ln eps = rule - eps_offset, eps_offset >= 0).
    loss -- "exp" (default), "logistic", "logistic2", "square" or "poly", summed over the examples.
    alpha -- the leaky-ReLU slope in [0, 1) (0: ReLU, with sigma'(0) = 0).
    mu -- (lo, hi) in [0, 1]: the range of mu for "orthogonally_separable" data (ignored otherwise).

    Each drawn Scenario records what built it in ``scenario.params`` (family, sizes, seeds, mu or margin, the
    data structures split or band / unit_norm / tilt, h, log_eps, signs, anchored, loss, alpha), which a
    counterexample stores and ``verify search --replay`` reads back.
    Restrict a claim's scenarios with ``precondition=`` on the claim, not with ``.filter``.

    Example: ``scenario(data="linearly_separable", n=(4, 12), d=(2, 5), h=(2, 8), eps=(1e-8, 1e-4),
    loss="logistic", alpha=0.1)``.
    """
    if data not in DATA_KINDS:
        raise InputError(f"unknown data family {data!r}; choose one of {', '.join(DATA_KINDS)}")
    if init not in INIT_KINDS:
        raise InputError(f"unknown init family {init!r}; choose one of {', '.join(INIT_KINDS)}")
    get_loss(loss)
    alpha = check_alpha(alpha)
    widths = _int_range("h", h, 1)
    eps_mode = eps if isinstance(eps, EpsRule) else None
    if isinstance(eps, str):
        raise InputError(f"unknown eps {eps!r}: give a (lo, hi) range or a verify.scenarios.EpsRule")
    if not (math.isfinite(eps_offset) and eps_offset >= 0.0):
        raise InputError(f"eps_offset must be a finite number >= 0, got {eps_offset!r}")
    log_eps = st.just(0.0) if eps_mode is not None else log_eps_strategy(eps)  # type: ignore[arg-type]
    _range("n", n, 1)
    _range("d", d, 1)

    @st.composite
    def build(draw: st.DrawFn) -> Scenario:
        ds, data_params = draw(datasets(data, n, d, mu))
        width = draw(widths)
        le = draw(log_eps)
        init_seed = draw(SEEDS)
        signs = draw(st.sampled_from(("mixed", "random")))
        anchored = draw(st.integers(min_value=0, max_value=width))
        params = {**data_params, "init": init, "h": width, "log_eps": le, "init_seed": init_seed, "signs": signs,
                  "anchored": anchored, "loss": loss, "alpha": alpha}
        built = make_init(init, width, ds.d, le, init_seed)
        if signs == "mixed":
            built = mix_signs(built, init_seed)
        built = anchor_neurons(built, ds, anchored, init_seed)
        if eps_mode is not None:
            value, why = eps_mode.log_eps(ds, built)
            params["eps_mode"] = eps_mode.name
            if value is None:
                value = EPS_FALLBACK_LOG
                params["eps_mode_undefined"] = why
            le = value - eps_offset
            params["log_eps"] = le
            built = Initialization(built.W0, built.v0, le, built.kind)
        return Scenario(ds, built, loss, alpha, params)

    strategy = build()
    strategy.produces_scenarios = True  # what @verify.claim checks its ``over`` for (is_scenario_strategy)
    # the arguments it was built from: ``verify sweep`` rebuilds it with some of them fixed (verify.scaleout)
    strategy.scenario_args = {"data": data, "init": init, "n": n, "d": d, "h": h, "eps": eps, "loss": loss,
                              "alpha": alpha, "mu": mu, "eps_offset": eps_offset}
    return strategy


def is_scenario_strategy(value: object) -> bool:
    """True for a strategy made by :func:`scenario` (derived strategies such as ``.filter`` are not:
    a claim restricts its scenarios with ``precondition=`` instead)."""
    return isinstance(value, st.SearchStrategy) and getattr(value, "produces_scenarios", False) is True
