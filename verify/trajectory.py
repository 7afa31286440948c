"""Trajectories: samples of (W, v) at requested times, the event log and error monitors.

``Trajectory.times`` is strictly increasing and always ends at ``t_end``. For the polar
backend the exact state is kept as log-norms ``r`` (k, h) and directions ``U`` (k, h, d);
``W``/``v`` are then ``exp(r) U`` / ``s exp(r)`` and may underflow to 0 for tiny eps.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterator

import numba
import numpy as np

from verify.errors import InputError

EVENT_KINDS = ("activate", "deactivate", "sliding", "sliding_exit", "grazing", "dead")
TINY = np.finfo(float).tiny


def balancedness_change(W0: np.ndarray, v0: np.ndarray, W: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(c_j(t) - c_j(0), max(v_j(t)^2, ||w_j(t)||^2, tiny)) at each sample (k, h) of float64 samples W (k, h, d),
    v (k, h) from W0 (h, d), v0 (h,), where c_j = v_j^2 - ||w_j||^2 (conserved by gradient flow): the largest ratio of
    the first's magnitude to the second is :attr:`Trajectory.balancedness_drift`. Compiled
    (:func:`balancedness_change_kernel`); NaN where a square is."""
    f = np.float64
    return balancedness_change_kernel(np.asarray(W0, f), np.asarray(v0, f), np.asarray(W, f), np.asarray(v, f))


@numba.njit(cache=True)
def balancedness_change_kernel(W0: np.ndarray, v0: np.ndarray, W: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    k, h, d = W.shape
    change, size2 = np.empty((k, h)), np.empty((k, h))
    for j in range(h):
        ww0 = 0.0
        for q in range(d):
            ww0 += W0[j, q] * W0[j, q]
        c0 = v0[j] * v0[j] - ww0
        for s in range(k):
            ww = 0.0
            for q in range(d):
                ww += W[s, j, q] * W[s, j, q]
            vv = v[s, j] * v[s, j]
            change[s, j] = vv - ww - c0
            size2[s, j] = math.nan if math.isnan(vv) or math.isnan(ww) else max(vv, ww, TINY)
    return change, size2


@dataclass(frozen=True)
class Event:
    """One switch of the activation pattern: time ``t``, data index ``i``, neuron ``j``.

    ``kind``: "activate" / "deactivate" (transversal crossing of <x_i, w_j> = 0), "sliding"
    (Filippov: both sides push into the surface), "sliding_exit", "grazing" (touches and
    returns), "dead" (neuron j entered S_dead and is frozen; ``i`` is -1). ``direction`` is
    +1 when <x_i, w_j> goes from <= 0 to > 0, -1 the other way, 0 otherwise.
    Both attribute and key access work (``e.t`` and ``e["t"]``).
    """

    t: float
    i: int
    j: int
    kind: str
    direction: int = 0

    def __getitem__(self, key: str) -> Any:
        if key not in self.__dataclass_fields__:
            raise KeyError(key)
        return getattr(self, key)

    def keys(self) -> Iterator[str]:
        return iter(self.__dataclass_fields__)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_log(cls, t: list[float], ij: list[list[int]], codes: list[list[int]]) -> list["Event"]:
        """The events of a compiled event log: times, (i, j) and (kind as an index of EVENT_KINDS, direction). Each
        is filled as ``__init__`` would fill it (its fields in the instance dict), less the frozen class's per-field
        ``object.__setattr__`` calls: a run's hand-over makes one per crossing."""
        new, kinds, out = object.__new__, EVENT_KINDS, []
        for time, (i, j), (kind, direction) in zip(t, ij, codes):
            e = new(cls)
            fields = e.__dict__
            fields["t"], fields["i"], fields["j"], fields["kind"], fields["direction"] = time, i, j, kinds[kind], direction
            out.append(e)
        return out


def sliding_mask(events: list[Event] | tuple[Event, ...], times: np.ndarray, n: int, h: int) -> np.ndarray:
    """mask[s, i, j]: the pair (x_i, w_j) slides on its kink <x_i, w_j> = 0 at ``times[s]``, read from the event log
    (entered by a "sliding" event at or before times[s], not left by "sliding_exit" or a crossing since). There the
    exact flow has <x_i, w_j> = 0; a float64 state holds it only to rounding, so sign readings use this mask."""
    times = np.asarray(times, float)
    mask = np.zeros((times.size, n, h), dtype=bool)
    on: set[tuple[int, int]] = set()
    order = sorted(events, key=lambda e: e.t)
    pos = 0
    for s, t in enumerate(times):
        while pos < len(order) and order[pos].t <= t:
            e = order[pos]
            if e.kind == "sliding":
                on.add((e.i, e.j))
            elif e.kind in ("sliding_exit", "activate", "deactivate"):
                on.discard((e.i, e.j))
            pos += 1
        for i, j in on:
            mask[s, i, j] = True
    return mask


@dataclass(eq=False)
class Trajectory:
    """Sampled solution of one simulation (float arrays, or mpmath objects for backend "mp")."""

    times: np.ndarray  # (k,)
    W: np.ndarray  # (k, h, d)
    v: np.ndarray  # (k, h)
    events: list[Event] = field(default_factory=list)
    backend: str = "events"
    r: np.ndarray | None = None  # (k, h) log-norms, polar form only
    U: np.ndarray | None = None  # (k, h, d) unit directions, polar form only
    log_eps: float | None = None
    balancedness_drift: float = 0.0  # max_t max_j |c_j(t) - c_j(0)| / max(v_j^2, ||w_j||^2)
    error_estimate: float = float("nan")  # estimated max abs error of the sampled state (relative units)
    stats: dict[str, Any] = field(default_factory=dict)  # steps, rhs_evals, events, warnings...
    params: dict[str, Any] = field(default_factory=dict)  # loss, alpha, rtol, t_end, ...

    @classmethod
    def from_polar(cls, times: np.ndarray, r: np.ndarray, U: np.ndarray, s: np.ndarray, **fields: Any) -> "Trajectory":
        """A polar-form run: W = e^r U and v = s e^r built from the log-norms r (k, h), unit directions U (k, h, d)
        and signs s (h,) (W, v under- or overflow past |r| ~ 745 / 709; r and U stay exact)."""
        with np.errstate(under="ignore", over="ignore"):
            scale = np.exp(r)
        return cls(times=times, W=scale[..., None] * U, v=np.asarray(s)[None, :] * scale, r=r, U=U, **fields)

    @property
    def t_end(self) -> float:
        return float(self.times[-1])

    @property
    def polar(self) -> bool:
        return self.r is not None

    @property
    def uncertified(self) -> str | None:
        """Why this run is not a determined solution, or None: a crossing whose switching settling found no fixed
        point (``stats["unsettled"]`` > 0; the limit engine's ``stats["exact"]`` or the hybrid's
        ``stats["limit_exact"]`` False) has no outcome the law determines, so the run after it is one of several."""
        unsettled = int(self.stats.get("unsettled", 0) or 0)
        if unsettled:
            return f"{unsettled} crossing(s) whose switching settling found no fixed point (backend {self.backend!r})"
        if self.stats.get("exact") is False or self.stats.get("limit_exact") is False:
            return f"a simultaneous switch of the limit engine found no fixed point (backend {self.backend!r})"
        return None

    def crossings(self) -> list[Event]:
        """The transversal crossings (kinds "activate" and "deactivate")."""
        return [e for e in self.events if e.kind in ("activate", "deactivate")]

    def to_float(self, rtol_floor: float = 1e-15) -> "Trajectory":
        """A float64 copy (for the mp backend: states rounded once; ``params["rtol"]`` and
        ``error_estimate`` raised to float64's floor, since checks then compute in float64)."""

        def as_float(a: np.ndarray | None) -> np.ndarray | None:
            return None if a is None else np.asarray(a, dtype=float)

        params = dict(self.params)
        params["rtol"] = max(float(params.get("rtol") or 0.0), rtol_floor)
        estimate = float(self.error_estimate)
        return Trajectory(
            times=np.asarray(self.times, dtype=float), W=as_float(self.W), v=as_float(self.v),
            events=[Event(float(e.t), e.i, e.j, e.kind, e.direction) for e in self.events],
            backend=self.backend, r=as_float(self.r), U=as_float(self.U), log_eps=self.log_eps,
            balancedness_drift=float(self.balancedness_drift),
            error_estimate=max(estimate if np.isfinite(estimate) else rtol_floor, 0.1 * rtol_floor),
            stats=dict(self.stats), params=params,
        )

    def until(self, k: int) -> "Trajectory":
        """The first ``k`` >= 1 samples, with the events up to the last of them (a prefix of the run)."""
        if not 1 <= k <= len(self.times):
            raise ValueError(f"a prefix needs 1 <= k <= {len(self.times)} samples, got {k}")
        t_last = float(self.times[k - 1])
        return dataclasses.replace(
            self, times=self.times[:k], W=self.W[:k], v=self.v[:k], events=[e for e in self.events if e.t <= t_last],
            r=None if self.r is None else self.r[:k], U=None if self.U is None else self.U[:k])

    def save(self, path: str | Path) -> None:
        """Write ``.npz``: t, W, v (+ r, U when polar) and the event table ev_t, ev_i, ev_j, ev_kind, ev_dir."""
        arrays: dict[str, Any] = {
            "t": np.asarray(self.times, dtype=float),
            "W": np.asarray(self.W, dtype=float),
            "v": np.asarray(self.v, dtype=float),
            "ev_t": np.array([e.t for e in self.events], dtype=float),
            "ev_i": np.array([e.i for e in self.events], dtype=np.int64),
            "ev_j": np.array([e.j for e in self.events], dtype=np.int64),
            "ev_kind": np.array([e.kind for e in self.events], dtype="U16"),
            "ev_dir": np.array([e.direction for e in self.events], dtype=np.int64),
            "backend": np.array(self.backend),
            "balancedness_drift": np.array(self.balancedness_drift),
            "error_estimate": np.array(self.error_estimate),
        }
        if self.polar:
            arrays["r"] = np.asarray(self.r, dtype=float)
            arrays["U"] = np.asarray(self.U, dtype=float)
            arrays["log_eps"] = np.array(np.nan if self.log_eps is None else self.log_eps)
        np.savez(Path(path), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> "Trajectory":
        from verify.data.loaders import load_npz_arrays

        base = load_npz_arrays(path, ("t", "W", "v", "ev_t", "ev_i", "ev_j", "ev_kind", "ev_dir"))
        events = [
            Event(float(t), int(i), int(j), str(k), int(dr))
            for t, i, j, k, dr in zip(base["ev_t"], base["ev_i"], base["ev_j"], base["ev_kind"], base["ev_dir"])
        ]
        with np.load(Path(path), allow_pickle=False) as z:
            extra = {k: np.array(z[k]) for k in z.files if k not in base}
        if base["t"].ndim != 1 or base["W"].ndim != 3 or base["v"].ndim != 2:
            raise InputError(f"{path}: not a trajectory archive (bad array shapes)")
        log_eps = float(extra["log_eps"]) if "log_eps" in extra else None
        return cls(
            times=base["t"],
            W=base["W"],
            v=base["v"],
            events=events,
            backend=str(extra.get("backend", "events")),
            r=extra.get("r"),
            U=extra.get("U"),
            log_eps=None if log_eps is None or np.isnan(log_eps) else log_eps,
            balancedness_drift=float(extra.get("balancedness_drift", 0.0)),
            error_estimate=float(extra.get("error_estimate", np.nan)),
        )
