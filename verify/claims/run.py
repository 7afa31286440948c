"""From a scenario to a run: audit, horizon, simulation, and the object a claim's check reads.

Data flow: Scenario -> audit -> horizon -> simulate -> Run -> claim.check(run) -> Margin.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from verify.audit import Audit, audit
from verify.claims.registry import named_horizons
from verify.dynamics.field import NetworkField
from verify.dynamics.gd import steps_at
from verify.dynamics.taylor64 import simulate_taylor
from verify.errors import InputError
from verify.scenarios import Scenario
from verify.simulate import simulate
from verify.trajectory import Event, Trajectory

MAX_HORIZON = 1e12


@dataclass(eq=False)
class Run:
    """What a claim's check receives: one scenario, its audit and its simulated trajectory (``verify.Run``).

    Arrays are float64. ``times`` are the sample times in (0, t_end] (t_end = the claim's horizon for this
    scenario; pointwise claims, horizon None, get the single sample t = 0 and no trajectory). ``W0``/``v0``
    are the scaled initial weights; for a theorem-scale eps below float64 (ln eps < -745) they are zero:
    read ``init.W0``/``init.v0`` (the eps-free base) with ``log_eps`` instead.

    Fields:
        scenario -- the drawn :class:`verify.scenarios.Scenario` (dataset, init, loss, alpha, params).
        audit -- the assumption audit of the data and init (``run.audit.mu``, ``.t1``, ``.zeta2``, ...;
            see :func:`verify.audit`).
        field -- the gradient-flow vector field of this data and loss (to evaluate it at a state).
        trajectory -- the full :class:`verify.trajectory.Trajectory` (polar log-norms ``r``, directions ``U``,
            ``error_estimate``, ``stats``); None for a pointwise claim.
        horizon -- t_end of the simulation (the claim's horizon resolved for this scenario); None for a
            pointwise claim.
    The properties below read them: ``X``, ``y``, ``dataset``, ``init``, ``log_eps``, ``W0``, ``v0``,
    ``times``, ``W``, ``v``, ``events``, ``params``.
    """

    scenario: Scenario
    audit: Audit
    field: NetworkField
    trajectory: Trajectory | None
    horizon: float | None

    @property
    def X(self) -> np.ndarray:
        """The inputs, shape (n, d)."""
        return self.scenario.dataset.X

    @property
    def y(self) -> np.ndarray:
        """The labels in {-1, +1}, shape (n,)."""
        return self.scenario.dataset.y

    @property
    def dataset(self):
        """The :class:`verify.Dataset` (X, y)."""
        return self.scenario.dataset

    @property
    def init(self):
        """The initialisation: eps-free base ``init.W0`` (h, d), ``init.v0`` (h,), ``init.log_eps``, ``init.kind``."""
        return self.scenario.init

    @property
    def log_eps(self) -> float:
        """ln eps, the initialisation scale (W(0) = eps init.W0)."""
        return self.scenario.init.log_eps

    @property
    def W0(self) -> np.ndarray:
        """The initial first layer eps init.W0, shape (h, d) (zeros when eps underflows float64)."""
        return math.exp(self.log_eps) * self.init.W0 if self.log_eps > -745.0 else np.zeros_like(self.init.W0)

    @property
    def v0(self) -> np.ndarray:
        """The initial second layer eps init.v0, shape (h,) (zeros when eps underflows float64)."""
        return math.exp(self.log_eps) * self.init.v0 if self.log_eps > -745.0 else np.zeros_like(self.init.v0)

    @property
    def times(self) -> np.ndarray:
        """Sample times, shape (k,), strictly increasing, the last one t_end ([0.0] for a pointwise claim)."""
        return np.array([0.0]) if self.trajectory is None else self.trajectory.times

    @property
    def W(self) -> np.ndarray:
        """First-layer weights at the sample times, shape (k, h, d)."""
        return self.W0[None] if self.trajectory is None else self.trajectory.W

    @property
    def v(self) -> np.ndarray:
        """Second-layer weights at the sample times, shape (k, h)."""
        return self.v0[None] if self.trajectory is None else self.trajectory.v

    @property
    def events(self) -> list[Event]:
        """The engine's event log: records with ``t``, ``i`` (example), ``j`` (neuron), ``kind`` ("activate",
        "deactivate", "sliding", ...) and ``direction``; attribute or key access."""
        return [] if self.trajectory is None else self.trajectory.events

    @property
    def params(self) -> dict[str, Any]:
        """The scenario's parameters (family, sizes, seeds, h, ...) with ``loss``, ``alpha``, ``log_eps`` and
        ``t_end``, plus the simulation's own (``rtol``, backend, ...)."""
        out = dict(self.scenario.params)
        out.update({"loss": self.scenario.loss, "alpha": self.scenario.alpha, "log_eps": self.log_eps})
        if self.horizon is not None:
            out["t_end"] = self.horizon
        if self.trajectory is not None:
            out.update({k: v for k, v in self.trajectory.params.items() if k not in out})
        return out


def resolve_horizon(horizon: Any, scenario: Scenario, report: Audit) -> float | None:
    """A numeric horizon: a float, a name an installed paper defines (``Paper.horizons``, evaluated on the
    audit), or a callable ``(scenario, audit) -> float``; None where it is undefined or not positive."""
    if horizon is None:
        return None
    if callable(horizon):
        value = horizon(scenario, report)
    elif isinstance(horizon, str):
        names = named_horizons() or {}
        if horizon not in names:
            raise InputError(f"unknown horizon {horizon!r}; use a number, a callable or one of {', '.join(sorted(names)) or 'none'}")
        value = names[horizon](report)
    else:
        value = horizon
    if value is None or not math.isfinite(float(value)) or float(value) <= 0.0:
        return None
    return min(float(value), MAX_HORIZON)


SPACINGS = ("mixed", "log", "steps")
LOG_START = 1e-3  # first sample of the "log" spacing (or t_end / 10 when that is earlier)


def sample_times(t_end: float, count: int, spacing: str = "mixed") -> np.ndarray:
    """``count`` sample times in (0, t_end]. "mixed": half uniform, half geometric toward t_end = 0 (dense
    early); "log": geometric from min(LOG_START, t_end / 10) to t_end (the same count per decade, for the
    asymptotic trend tests of long horizons); "steps" (gd backend: every iterate) is served by :func:`execute`."""
    if spacing not in SPACINGS or spacing == "steps":
        raise InputError(f"unknown sample spacing {spacing!r}; choose one of mixed, log")
    if spacing == "log":
        return np.geomspace(min(LOG_START, t_end / 10.0), t_end, max(2, count))
    half = max(2, count // 2)
    uniform = np.linspace(t_end / half, t_end, half)
    geometric = t_end * np.geomspace(1e-4, 1.0, half)
    return np.unique(np.concatenate([uniform, geometric]))


def execute(scenario: Scenario, horizon: Any, *, rtol: float = 1e-10, samples: int = 64, backend: str = "events",
            form: str | None = None, dps: int = 30, papers: tuple[str, ...] | None = None,
            spacing: str = "mixed", tol_digits: int | None = None) -> Run:
    """Audit the scenario (with the hooks of ``papers``; None: every installed paper), resolve the horizon
    and simulate (balanced inits in log-eps form) the scenario's model (``train_v``).

    Backend "mp" runs the mpmath backend at ``dps`` digits (step tolerance 10^-``tol_digits``, default
    dps + 2) and hands the check a float64 copy of its trajectory (:meth:`Trajectory.to_float`); backend "taylor"
    the same run on the float64 Taylor engine (:func:`taylor64.simulate_taylor`, the cross-check's first reference;
    :class:`taylor64.Declined` off its path).
    Backend "gd" takes the scenario's ``lr`` (an InputError where it has none), ``batch_size`` and
    ``order_seed``; spacing "steps" samples every iterate k lr, k = 0 .. floor(t_end / lr) (gd only).
    """
    init = scenario.init
    ds = scenario.dataset
    report = audit(ds, init.W0, init.v0, log_eps=init.log_eps, alpha=scenario.alpha, papers=papers)
    field = NetworkField.from_dataset(ds, scenario.loss, scenario.alpha, scenario.train_v)
    t_end = resolve_horizon(horizon, scenario, report)
    if t_end is None:
        return Run(scenario, report, field, None, None if horizon is None else math.nan)
    options: dict[str, Any] = {"dps": dps} if backend == "mp" else {"rtol": rtol}
    if backend == "gd":
        if scenario.lr is None:
            raise InputError("backend 'gd' needs a scenario with a step lr")
        options = {"lr": scenario.lr, "batch_size": scenario.batch_size, "seed": scenario.order_seed}
    options["tol_digits"] = tol_digits  # simulate refuses it on a backend other than mp
    if spacing == "steps":
        if backend != "gd":
            raise InputError(f"spacing 'steps' samples every GD iterate; backend {backend!r} has none")
        times = scenario.lr * np.arange(int(steps_at(np.array([t_end]), scenario.lr)[0]) + 1)
        t_end = float(times[-1])
    else:
        times = sample_times(t_end, samples, spacing)
    if backend == "taylor":
        balanced = init.balanced and scenario.train_v
        traj = simulate_taylor(ds, init.W0 if balanced else init.W, init.v0 if balanced else init.v, times,
                               loss=scenario.loss, alpha=scenario.alpha, tol_digits=tol_digits or dps + 2,
                               log_eps=init.log_eps if balanced else None, form=form, train_v=scenario.train_v)
    elif init.balanced and scenario.train_v:
        traj = simulate(ds, init.W0, init.v0, t_end, loss=scenario.loss, alpha=scenario.alpha, times=times,
                        log_eps=init.log_eps, backend=backend, form=form, **options)
    else:
        traj = simulate(ds, init.W, init.v, t_end, loss=scenario.loss, alpha=scenario.alpha, times=times,
                        backend=backend, form=form, train_v=scenario.train_v, **options)
    if backend == "mp":
        traj = traj.to_float()
    return Run(scenario, report, field, traj, t_end)
