"""The project's event-driven gradient flow side by side with heyoka.py, the strongest public peer.

    python benchmarks/bench_peer.py [--quick] [--only NAME[,NAME...]] [--repeat K]
                                    [--scaling-around medium|reference]

Prints one JSON line per measurement (``"bench": "bench_peer"``), all measured in one process.

The peer (issue 18). heyoka.py (PyPI ``heyoka``, the optional ``bench`` extra: ``pip install -e '.[bench]'``;
not part of ``make venv``) integrates the same flow with its LLVM-compiled Taylor method: state
(W, v) of f(x) = sum_j v_j relu(<w_j, x>), summed exp loss (no 1/n, as :mod:`verify.model.losses`),
the activation mask m_ij = sigma'(<x_i, w_j>) (1 active, 0 inactive: sigma'(0) = 0) as runtime
parameters ``par[i h + j]``, so that in a fixed mode

    P_ij = <x_i, w_j>,  f_i = sum_j m_ij v_j P_ij,  g_i = y_i exp(-y_i f_i),
    w_j' = v_j sum_i m_ij g_i x_i,  v_j' = sum_i m_ij g_i P_ij,

and one terminal event per pair (i, j) on P_ij = 0, located as a root of its Taylor polynomial.
On an event the callback sets m_ij from the crossing direction (1 when P_ij increases through 0,
0 when it decreases; flipped when heyoka reports a zero derivative) and returns True, so the
integration continues in the new mode; heyoka's automatic cooldown re-arms the pair. There is no
Filippov sliding on the peer's side: the cases below have transversal crossings only (the
benchmark reports it when the event sequences differ). When heyoka is not installed, each peer
measurement prints one line with ``"skipped": "heyoka not installed"`` and the project's side is
still measured.

Problems (those of ``bench_gf.py``): orthogonally separable data (mu = 0.3, norms in [0.5, 2],
seed 0, positives first), balanced init (seed 0) scaled by eps = 1e-6, exp loss, horizon 40,
rtol (project) = tol (heyoka) = 1e-10.

Measurements (NAME):

- ``small`` (n=8, d=3, h=5; the size Hypothesis searches draw), ``medium`` (n=20, d=5, h=50),
  ``reference`` (n=40, d=10, h=100): the project's whole ``verify.simulate`` call against heyoka's
  ``propagate_until`` (state and mask reset included, compile excluded and reported as
  ``heyoka_compile_s``: a cold compile, heyoka's on-disk JIT cache is switched off for the process).
  The small case is run with heyoka in both its compiled modes (default and ``compact_mode``) and
  the faster one is compared; the larger cases use ``compact_mode`` (the default mode's compile time
  grows with the size of the expanded system: seconds already for the small case). Each line: crossings found by each, whether the sequences (i, j, direction) agree,
  the largest event-time difference over the agreeing prefix, the largest final-state difference
  (absolute, and relative to max |state|), both ratios ``heyoka_over_project`` and
  ``project_over_heyoka``. Where the project's call goes: ``project_engine_wall_s``, the median of the engine's
  own time (``Trajectory.stats["wall_s"]``: initial mode and step, the compiled loop, the event log, the samples'
  balancedness and outputs), and ``project_outside_engine_s``, the median of the rest of each call (validation, the
  form's choice, the engine's construction, the loss statistics and the ``Trajectory``), with ``engine_over_heyoka``,
  the engine's share alone against heyoka's whole call (context for the small case's target, which compares the
  whole call).
- ``hp_small``: high precision on the small case: the project's ``backend="mp"`` at dps 30 against
  heyoka's ``real128`` (quadruple precision, 113-bit mantissa, about 34 digits; tol = its epsilon,
  compact mode: the default mode's real128 compile takes minutes). Skipped with a reason when the
  heyoka wheel has no real128.
- ``accuracy``: equal tolerances are not equal accuracy. On the small case, each side's error against the mp
  backend (dps 30) at a few times in the growth phase and at the horizon, as max_j ||(w_j, v_j) - ref_j|| / ||ref_j||
  (relative to each neuron's size, which the project's per-neuron rtol controls): the project at rtol 1e-10 and
  heyoka at tol 1e-10 and 1e-12 (each in the faster of the small case's compiled modes), with the wall-time ratio
  project / heyoka at each tol, interleaved as above. Context for the small case's ratio, not a target.
- ``gd``: on the reference case, the event-driven flow against the project's numba GD
  (``backend="gd"``, lr 2e-3: 20,000 steps to t = 40): ``gf_over_gd_wall``.
- ``scaling``: the project's whole call around the medium case (``--scaling-around reference``:
  around the reference case) with n, h, d doubled one at a time: time ratios to the base (of the medians,
  which the target reads, and of the minima, ``wall_min_over_base``, less sensitive to a slow spell), and the
  ratios of the crossings (doubling n or h about doubles them, so 2x is the floor of an engine whose
  cost per crossing does not grow with n h).
- ``loop``: the whole ``verify.simulate`` call with the compiled step-to-next-event loop (``loop_jit``) against the
  same run iterated in Python (``engine.COMPILED_LOOP = False``, the oracle), per case: ``python_over_compiled``,
  and whether both logged the same events.
- ``targets``: one closing line with the issue's targets, the measured values and whether they are met; the small
  case's row notes the engine's share and, when ``accuracy`` ran, the ratio at equal accuracy (:func:`equal_accuracy`).

Timing: the two sides run interleaved, ``repeat`` times each (small 31, medium 7, reference 3,
hp 3, accuracy 31, gd 3, scaling 5, loop 7; ``--repeat`` overrides all), and the medians are compared; the minima are
reported too. The machine's load average at the start is in the ``setup`` line: on a shared
machine, compare ratios measured in one run, not absolute times across runs.
``--quick``: the small case only (heyoka compact mode, horizon 4), high precision at horizon 1, accuracy at horizon 4,
GD at horizon 1 and a tiny scaling table: a smoke test of a few seconds.

Targets (issue 18): small case project / heyoka <= 1; reference heyoka / project >= 15;
GF / GD wall <= 0.3; mp on the small case no slower than heyoka real128; doubling n or h at most
2.5x the time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verify import Dataset, simulate  # noqa: E402
from verify.data.generators import orthogonally_separable  # noqa: E402
from verify.model.init import balanced_init  # noqa: E402

NAMES = ("small", "medium", "reference", "hp_small", "accuracy", "gd", "scaling", "loop", "targets")
CASES = {"small": (8, 3, 5), "medium": (20, 5, 50), "reference": (40, 10, 100)}
REPEAT = {"small": 31, "medium": 7, "reference": 3, "hp_small": 3, "accuracy": 31, "gd": 3, "scaling": 5, "loop": 7}
TARGETS = {
    "small_project_over_heyoka_max": 1.0,
    "reference_heyoka_over_project_min": 15.0,
    "gf_over_gd_wall_max": 0.3,
    "hp_mp_over_real128_max": 1.0,
    "scaling_n_x2_max": 2.5,
    "scaling_h_x2_max": 2.5,
}
HEYOKA_MISSING = "heyoka not installed"


@dataclass(frozen=True)
class Config:
    eps: float = 1e-6
    horizon: float = 40.0
    tol: float = 1e-10
    mu: float = 0.3
    seed: int = 0
    dps: int = 30
    lr: float = 2e-3
    hp_horizon: float = 40.0
    gd_horizon: float = 40.0
    repeat: dict[str, int] = field(default_factory=lambda: dict(REPEAT))
    cases: dict[str, tuple[int, int, int]] = field(default_factory=lambda: dict(CASES))
    scaling_around: str = "medium"
    gd_case: str = "reference"
    small_modes: tuple[bool, ...] = (False, True)  # heyoka compact_mode values tried on the small case
    accuracy_times: tuple[float, ...] = (0.5, 1.0, 2.0, 3.0)  # and the horizon: the growth phase and the end
    accuracy_tols: tuple[float, ...] = (1e-10, 1e-12)  # heyoka's tol: the benchmark's, and a tighter one


QUICK = Config(horizon=4.0, hp_horizon=1.0, gd_horizon=1.0, repeat={k: 3 for k in REPEAT},
               cases={**CASES, "tiny": (6, 2, 3)}, scaling_around="tiny", gd_case="small", small_modes=(True,))


# problems -------------------------------------------------------------------------------------


def make_data(n: int, d: int, cfg: Config) -> Dataset:
    """Orthogonally separable data (the project's generator), as bench_gf.py."""
    return orthogonally_separable(n - n // 2, n // 2, d, cfg.mu, seed=cfg.seed, norm_range=(0.5, 2.0))


def make_init(h: int, d: int, cfg: Config) -> tuple[np.ndarray, np.ndarray]:
    """Balanced init scaled by eps (the project's generator), as bench_gf.py."""
    init = balanced_init(h, d, log_eps=0.0, seed=cfg.seed)
    return cfg.eps * init.W0, cfg.eps * init.v0


# output ---------------------------------------------------------------------------------------


def _jsonable(x: Any) -> Any:
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    return str(x)


def emit(name: str, **fields: Any) -> dict[str, Any]:
    record = {"bench": "bench_peer", "name": name, **fields}
    print(json.dumps(record, default=_jsonable), flush=True)
    return record


def _median(ts: list[float]) -> float:
    return float(statistics.median(ts))


def engine_share(whole: list[float], engine: list[float]) -> dict[str, float]:
    """Where the project's whole calls went: the median of the engine's own time (``stats["wall_s"]``: the initial
    mode and step, the compiled loop, the event log and the samples' balancedness and outputs) and the median of the
    rest of each call (validation, the form's choice, the engine's construction, the loss statistics and the
    Trajectory)."""
    return {"project_engine_wall_s": _median(engine), "project_outside_engine_s": _median([w - e for w, e in zip(whole, engine)])}


def equal_accuracy(project_error: list[float], peers: list[dict]) -> dict | None:
    """Of the ``accuracy`` measurement's heyoka runs, the one with the loosest tol whose error is at most the project's
    at every sample (None when none is): its tol and the wall-time ratio project / heyoka measured with it."""
    fair = [p for p in peers if all(e <= q for e, q in zip(p["heyoka_error"], project_error))]
    if not fair:
        return None
    best = max(fair, key=lambda p: p["heyoka_tol"])
    return {"heyoka_tol": best["heyoka_tol"], "project_over_heyoka": best["project_over_heyoka"]}


def interleaved(fns: dict[str, Callable[[], Any]], repeat: int) -> tuple[dict[str, list[float]], dict[str, Any]]:
    """Run each function ``repeat`` times, interleaved (a, b, a, b, ...); wall times and last results."""
    times: dict[str, list[float]] = {k: [] for k in fns}
    last: dict[str, Any] = {}
    for _ in range(max(1, repeat)):
        for key, fn in fns.items():
            start = time.perf_counter()
            last[key] = fn()
            times[key].append(time.perf_counter() - start)
    return times, last


# the peer -------------------------------------------------------------------------------------


def heyoka_module() -> Any | None:
    """heyoka, its on-disk JIT cache switched off for this process (compile times are cold ones), or None."""
    try:
        import heyoka
    except ImportError:
        return None
    state = getattr(heyoka, "llvm_state", None)
    if state is not None and hasattr(state, "set_diskcache_enabled"):  # heyoka >= 7.10; process-local
        state.set_diskcache_enabled(False)
    return heyoka


class HeyokaFlow:
    """The flow written for heyoka.py: one compiled integrator, re-run from any (W, v)."""

    def __init__(self, hy: Any, X: np.ndarray, y: np.ndarray, h: int, *, tol: float | None, compact: bool,
                 fp_type: Any = float) -> None:
        self.hy, self.fp = hy, fp_type
        self.X, self.y = np.asarray(X, float), np.asarray(y, float)
        n, d = self.X.shape
        self.n, self.d, self.h = n, d, h
        names = [f"w_{j}_{k}" for j in range(h) for k in range(d)] + [f"v_{j}" for j in range(h)]
        syms = hy.make_vars(*names)
        W = [[syms[j * d + k] for k in range(d)] for j in range(h)]
        v = syms[h * d:]
        m = [[hy.par[i * h + j] for j in range(h)] for i in range(n)]
        P = [[hy.sum([float(self.X[i, k]) * W[j][k] for k in range(d)]) for j in range(h)] for i in range(n)]
        f = [hy.sum([m[i][j] * v[j] * P[i][j] for j in range(h)]) for i in range(n)]
        g = [float(self.y[i]) * hy.exp(-float(self.y[i]) * f[i]) for i in range(n)]
        mg = [[m[i][j] * g[i] for j in range(h)] for i in range(n)]
        system = [(W[j][k], v[j] * hy.sum([mg[i][j] * float(self.X[i, k]) for i in range(n)])) for j in range(h) for k in range(d)]
        system += [(v[j], hy.sum([mg[i][j] * P[i][j] for i in range(n)])) for j in range(h)]
        self.log: list[tuple[Any, int, int, int]] = []
        events = [hy.t_event(P[i][j], callback=self._callback(i, j), fp_type=fp_type) for i in range(n) for j in range(h)]
        zero = self._array(np.zeros(h * d + h))
        kwargs = {} if tol is None else {"tol": self._num(tol)}
        start = time.perf_counter()
        self.ta = hy.taylor_adaptive(system, zero, pars=self._array(np.zeros(n * h)), compact_mode=compact,
                                     t_events=events, fp_type=fp_type, **kwargs)
        self.compile_s = time.perf_counter() - start
        self.compact = compact

    def _num(self, x: float) -> Any:
        return x if self.fp is float else self.fp(x)

    def _array(self, a: np.ndarray) -> Any:
        if self.fp is float:
            return np.asarray(a, dtype=float)
        return np.array([self.fp(float(x)) for x in np.ravel(a)])  # float64 -> real128 is exact

    def _callback(self, i: int, j: int) -> Callable[[Any, Any], bool]:
        idx, log = i * self.h + j, self.log

        def on_crossing(ta: Any, d_sgn: Any) -> bool:
            sign = int(d_sgn)
            pars = ta.pars
            if sign == 0:  # tangential: flip
                pars[idx] = self._num(1.0) - pars[idx]
            else:
                pars[idx] = self._num(1.0 if sign > 0 else 0.0)
            log.append((ta.time, i, j, sign))
            return True

        return on_crossing

    def prepare(self, W: np.ndarray, v: np.ndarray) -> tuple[Any, Any]:
        """The initial state and mask in the integrator's number type (outside the timed call)."""
        mask = (self.X @ W.T > 0.0).astype(float)  # sigma'(0) = 0
        return self._array(np.concatenate([W.ravel(), v])), self._array(mask.ravel())

    def run(self, prepared: tuple[Any, Any], t_end: float) -> Any:
        z0, mask = prepared
        ta = self.ta
        self.log.clear()
        ta.time = self._num(0.0)
        ta.state[:] = z0
        ta.pars[:] = mask
        ta.reset_cooldowns()
        out = ta.propagate_until(self._num(float(t_end)))
        return str(out[0]), int(out[3])  # outcome, steps taken (each crossing ends one)

    def final(self) -> tuple[np.ndarray, np.ndarray]:
        z = np.array(self.ta.state)
        return z[: self.h * self.d].reshape(self.h, self.d), z[self.h * self.d:]


# comparisons ----------------------------------------------------------------------------------


def compare_events(project: list[Any], peer: list[tuple[Any, int, int, int]], to_num: Callable[[Any], Any] = float) -> dict[str, Any]:
    """Crossings of each; whether (i, j, direction) agree; max |t_project - t_peer| over the agreeing prefix."""
    agree, dt = 0, 0.0
    for e, (t, i, j, sign) in zip(project, peer):
        if (int(e.i), int(e.j), int(e.direction)) != (i, j, sign):
            break
        agree += 1
        dt = max(dt, abs(to_num(e.t) - to_num(t)))
    return {
        "project_crossings": len(project),
        "heyoka_crossings": len(peer),
        "events_identical": agree == len(project) == len(peer),
        "events_agree_prefix": agree,
        "max_event_time_diff": float(dt) if agree else None,
    }


def compare_states(Wp: Any, vp: Any, Wh: Any, vh: Any, to_num: Callable[[Any], Any] = float) -> dict[str, float]:
    a = [to_num(x) for x in np.concatenate([np.ravel(Wp), np.ravel(vp)])]
    b = [to_num(x) for x in np.concatenate([np.ravel(Wh), np.ravel(vh)])]
    diff = max(abs(x - y) for x, y in zip(a, b))
    scale = max(abs(x) for x in a)
    return {"max_state_diff_abs": float(diff), "max_state_diff_rel": float(diff / scale) if scale else float(diff)}


def neuron_errors(Ws: np.ndarray, vs: np.ndarray, Wr: np.ndarray, vr: np.ndarray) -> list[float]:
    """Per sample time: max_j ||(w_j, v_j) - (w_j, v_j)_ref|| / ||(w_j, v_j)_ref||, the error relative to each neuron's
    size (the project's rtol bounds the local error so: ``atol="per-neuron"``); Ws (k, h, d), vs (k, h)."""
    a = np.concatenate([Ws, vs[..., None]], axis=-1)
    b = np.concatenate([Wr, vr[..., None]], axis=-1)
    return (np.linalg.norm(a - b, axis=-1) / np.linalg.norm(b, axis=-1)).max(axis=-1).tolist()


# the benchmark --------------------------------------------------------------------------------


class Bench:
    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.hy = heyoka_module()
        self.results: dict[str, dict[str, Any]] = {}

    def problem(self, case: str) -> tuple[Dataset, np.ndarray, np.ndarray, tuple[int, int, int]]:
        n, d, h = self.cfg.cases[case]
        ds = make_data(n, d, self.cfg)
        W, v = make_init(h, d, self.cfg)
        return ds, W, v, (n, d, h)

    def _project(self, ds: Dataset, W: np.ndarray, v: np.ndarray, horizon: float, **kw: Any) -> Callable[[], Any]:
        return lambda: simulate(ds, W, v, horizon, rtol=self.cfg.tol, **kw)

    # float64 cases
    def peer_case(self, case: str) -> None:
        cfg = self.cfg
        ds, W, v, (n, d, h) = self.problem(case)
        repeat = cfg.repeat[case]
        head = {"case": case, "n": n, "d": d, "h": h, "tol": cfg.tol, "horizon": cfg.horizon, "eps": cfg.eps, "loss": "exp", "repeat": repeat}
        whole = self._project(ds, W, v, cfg.horizon)
        whole()  # warm-up: numba's compiled kernels load once per process
        engine_s: list[float] = []

        def project() -> Any:  # the whole call, and the engine's share of it (its stats["wall_s"])
            tr = whole()
            engine_s.append(tr.stats["wall_s"])
            return tr

        if self.hy is None:
            times, last = interleaved({"project": project}, repeat)
            tr = last["project"]
            self.results[case] = emit("peer", **head, project_wall_s=_median(times["project"]), project_wall_s_min=min(times["project"]),
                                      **engine_share(times["project"], engine_s), project_crossings=len(tr.crossings()),
                                      skipped=HEYOKA_MISSING)
            return
        modes = cfg.small_modes if case == "small" else (True,)
        per_mode: dict[bool, dict[str, Any]] = {}
        for compact in modes:
            flow = HeyokaFlow(self.hy, ds.X, ds.y, h, tol=cfg.tol, compact=compact)
            prepared = flow.prepare(W, v)
            flow.run(prepared, cfg.horizon)  # warm-up
            engine_s.clear()
            times, last = interleaved({"project": project, "heyoka": lambda: flow.run(prepared, cfg.horizon)}, repeat)
            share = engine_share(times["project"], engine_s)
            tr = last["project"]
            Wh, vh = flow.final()
            per_mode[compact] = {
                "heyoka_compact_mode": compact,
                "heyoka_compile_s": flow.compile_s,
                "heyoka_wall_s": _median(times["heyoka"]),
                "heyoka_wall_s_min": min(times["heyoka"]),
                "heyoka_outcome": last["heyoka"][0],
                "heyoka_steps": last["heyoka"][1],
                "project_steps": tr.stats.get("steps"),
                "project_rejected_steps": tr.stats.get("rejected"),
                "project_rhs_evals": tr.stats.get("rhs_evals"),
                "project_wall_s": _median(times["project"]),
                "project_wall_s_min": min(times["project"]),
                **share,
                "engine_over_heyoka": share["project_engine_wall_s"] / _median(times["heyoka"]),
                **compare_events(tr.crossings(), flow.log),
                **compare_states(tr.W[-1], tr.v[-1], Wh, vh),
                "project_other_events": len(tr.events) - len(tr.crossings()),
            }
        best = min(per_mode.values(), key=lambda r: r["heyoka_wall_s"])
        others = [r for r in per_mode.values() if r is not best]
        record = dict(best)
        record["heyoka_over_project"] = best["heyoka_wall_s"] / best["project_wall_s"]
        record["project_over_heyoka"] = best["project_wall_s"] / best["heyoka_wall_s"]
        if others:
            record["heyoka_other_mode"] = {k: others[0][k] for k in ("heyoka_compact_mode", "heyoka_compile_s", "heyoka_wall_s", "project_wall_s")}
        self.results[case] = emit("peer", **head, **record)

    def small(self) -> None:
        self.peer_case("small")

    def medium(self) -> None:
        self.peer_case("medium")

    def reference(self) -> None:
        self.peer_case("reference")

    # high precision
    def hp_small(self) -> None:
        import mpmath

        cfg = self.cfg
        ds, W, v, (n, d, h) = self.problem("small")
        repeat = cfg.repeat["hp_small"]
        head = {"case": "hp_small", "n": n, "d": d, "h": h, "horizon": cfg.hp_horizon, "eps": cfg.eps, "project_backend": "mp",
                "project_dps": cfg.dps, "repeat": repeat}
        project = lambda: simulate(ds, W, v, cfg.hp_horizon, backend="mp", dps=cfg.dps)  # noqa: E731
        if self.hy is None or not hasattr(self.hy, "real128"):
            times, last = interleaved({"project": project}, repeat)
            why = HEYOKA_MISSING if self.hy is None else "this heyoka wheel has no real128"
            self.results["hp_small"] = emit("peer", **head, project_wall_s=_median(times["project"]), project_wall_s_min=min(times["project"]),
                                            project_crossings=len(last["project"].crossings()), skipped=why)
            return
        real128 = self.hy.real128
        flow = HeyokaFlow(self.hy, ds.X, ds.y, h, tol=None, compact=True, fp_type=real128)
        prepared = flow.prepare(W, v)
        times, last = interleaved({"project": project, "heyoka": lambda: flow.run(prepared, cfg.hp_horizon)}, repeat)
        tr = last["project"]
        Wh, vh = flow.final()
        with mpmath.workdps(2 * cfg.dps):  # the mp backend's numbers compute at the global precision
            def to_mp(x: Any) -> Any:  # float and mpf exactly; real128 through its full-digit decimal string
                return mpmath.mpf(x) if isinstance(x, (int, float, mpmath.mpf)) else mpmath.mpf(str(x))

            events = compare_events(tr.crossings(), flow.log, to_mp)
            states = compare_states(tr.W[-1], tr.v[-1], Wh, vh, to_mp)
        record = {
            "heyoka_fp_type": "real128", "heyoka_tol": str(flow.ta.tol), "heyoka_order": int(flow.ta.order),
            "heyoka_steps": last["heyoka"][1], "project_steps": tr.stats.get("steps"),
            "heyoka_compact_mode": True, "heyoka_compile_s": flow.compile_s,
            "heyoka_wall_s": _median(times["heyoka"]), "heyoka_wall_s_min": min(times["heyoka"]),
            "project_wall_s": _median(times["project"]), "project_wall_s_min": min(times["project"]),
            **events, **states,
        }
        record["heyoka_over_project"] = record["heyoka_wall_s"] / record["project_wall_s"]
        record["project_over_heyoka"] = record["project_wall_s"] / record["heyoka_wall_s"]
        self.results["hp_small"] = emit("peer", **head, **record)

    # accuracy along the run: equal tolerances are not equal accuracy
    def accuracy(self) -> None:
        cfg = self.cfg
        ds, W, v, (n, d, h) = self.problem("small")
        times = tuple(t for t in cfg.accuracy_times if t < cfg.horizon) + (cfg.horizon,)
        ref = simulate(ds, W, v, cfg.horizon, times=times, backend="mp", dps=cfg.dps)
        Wr, vr = np.array(ref.W, dtype=float), np.array(ref.v, dtype=float)
        sampled = simulate(ds, W, v, cfg.horizon, times=times, rtol=cfg.tol)
        head = {"case": "small", "n": n, "d": d, "h": h, "horizon": cfg.horizon, "eps": cfg.eps, "times": times,
                "reference": f"backend mp, dps {cfg.dps}", "error": "max_j ||(w_j, v_j) - ref|| / ||ref_j||",
                "project_rtol": cfg.tol, "project_error": neuron_errors(sampled.W, sampled.v, Wr, vr),
                "repeat": cfg.repeat["accuracy"]}
        if self.hy is None:
            emit("accuracy", **head, skipped=HEYOKA_MISSING)
            return
        project = self._project(ds, W, v, cfg.horizon)
        project()
        peers = []
        for tol in cfg.accuracy_tols:
            per_mode = []
            for compact in cfg.small_modes:  # as the small case: the faster of heyoka's compiled modes
                flow = HeyokaFlow(self.hy, ds.X, ds.y, h, tol=tol, compact=compact)
                prepared = flow.prepare(W, v)
                states = []
                for t in times:  # each from t = 0 (run resets the state)
                    flow.run(prepared, t)
                    states.append(flow.final())
                errors = neuron_errors(np.array([s[0] for s in states]), np.array([s[1] for s in states]), Wr, vr)
                wall, _ = interleaved({"project": project, "heyoka": lambda: flow.run(prepared, cfg.horizon)},
                                      cfg.repeat["accuracy"])
                per_mode.append({"heyoka_tol": tol, "heyoka_compact_mode": compact, "heyoka_error": errors,
                                 "heyoka_wall_s": _median(wall["heyoka"]), "project_wall_s": _median(wall["project"]),
                                 "project_over_heyoka": _median(wall["project"]) / _median(wall["heyoka"])})
            peers.append(min(per_mode, key=lambda r: r["heyoka_wall_s"]))
        self.results["accuracy"] = emit("accuracy", **head, peers=peers)

    # GD
    def gd(self) -> None:
        cfg = self.cfg
        case = cfg.gd_case
        ds, W, v, (n, d, h) = self.problem(case)
        gf = self._project(ds, W, v, cfg.gd_horizon)
        gd = lambda: simulate(ds, W, v, cfg.gd_horizon, backend="gd", lr=cfg.lr)  # noqa: E731
        gf(), gd()  # warm-up
        times, last = interleaved({"gf": gf, "gd": gd}, cfg.repeat["gd"])
        gf_wall, gd_wall = _median(times["gf"]), _median(times["gd"])
        self.results["gd"] = emit(
            "gd", case=case, n=n, d=d, h=h, horizon=cfg.gd_horizon, lr=cfg.lr, rtol=cfg.tol, repeat=cfg.repeat["gd"],
            gf_wall_s=gf_wall, gd_wall_s=gd_wall, gf_wall_s_min=min(times["gf"]), gd_wall_s_min=min(times["gd"]),
            gd_steps=last["gd"].stats.get("steps"), gf_crossings=len(last["gf"].crossings()),
            gf_over_gd_wall=gf_wall / gd_wall,
        )

    # scaling
    def scaling(self) -> None:
        cfg = self.cfg
        n, d, h = cfg.cases[cfg.scaling_around]
        variants = {"base": (n, d, h), "n x2": (2 * n, d, h), "h x2": (n, d, 2 * h), "d x2": (n, 2 * d, h)}
        fns, sizes = {}, {}
        for label, (nn, dd, hh) in variants.items():
            ds = make_data(nn, dd, cfg)
            W, v = make_init(hh, dd, cfg)
            fns[label] = self._project(ds, W, v, cfg.horizon)
            fns[label]()  # warm-up
            sizes[label] = (nn, dd, hh)
        times, last = interleaved(fns, cfg.repeat["scaling"])
        base = _median(times["base"])
        base_crossings = len(last["base"].crossings())
        ratios = {}
        for label, (nn, dd, hh) in sizes.items():
            tr, wall = last[label], _median(times[label])
            crossings = len(tr.crossings())
            ratios[label] = wall / base
            emit("scaling", around=cfg.scaling_around, variant=label, n=nn, d=dd, h=hh, horizon=cfg.horizon, repeat=cfg.repeat["scaling"],
                 wall_s=wall, wall_s_min=min(times[label]), wall_over_base=wall / base,
                 wall_min_over_base=min(times[label]) / min(times["base"]), crossings=crossings,
                 crossings_over_base=crossings / base_crossings if base_crossings else None,
                 steps=tr.stats.get("steps"), rhs_evals=tr.stats.get("rhs_evals"),
                 wall_per_crossing_s=wall / crossings if crossings else None)
        self.results["scaling"] = ratios

    # the compiled step-to-next-event loop against the Python iteration (the same steps, issue 18 item 1)
    def loop(self) -> None:
        from verify.dynamics import engine

        cfg = self.cfg
        quick = "tiny" in cfg.cases
        for case in ("small", "tiny") if quick else ("small", "medium", "reference"):
            ds, W, v, (n, d, h) = self.problem(case)

            def run(compiled: bool) -> Any:
                engine.COMPILED_LOOP = compiled
                try:
                    return simulate(ds, W, v, cfg.horizon, rtol=cfg.tol)
                finally:
                    engine.COMPILED_LOOP = True

            run(True), run(False)  # warm-up
            times, last = interleaved({"compiled": lambda: run(True), "python": lambda: run(False)}, cfg.repeat["loop"])
            same = [(e.i, e.j, e.kind) for e in last["compiled"].events] == [(e.i, e.j, e.kind) for e in last["python"].events]
            emit("loop", case=case, n=n, d=d, h=h, horizon=cfg.horizon, repeat=cfg.repeat["loop"],
                 compiled_wall_s=_median(times["compiled"]), python_wall_s=_median(times["python"]),
                 python_over_compiled=_median(times["python"]) / _median(times["compiled"]), same_events=same,
                 steps=(last["compiled"].stats.get("steps"), last["python"].stats.get("steps")))

    # targets
    def targets(self) -> None:
        r = self.results
        rows = []

        quick = "tiny" in self.cfg.cases  # --quick: other problems and horizons; the values measure no target

        def row(name: str, value: float | None, bound: float, le: bool, note: str = "") -> None:
            met = None if value is None or quick else (value <= bound if le else value >= bound)
            rows.append({"target": name, "value": value, "bound": bound, "kind": "<=" if le else ">=", "met": met, **({"note": note} if note else {})})

        def get(case: str, key: str) -> float | None:
            return r.get(case, {}).get(key)

        engine = get("small", "engine_over_heyoka")
        acc = r.get("accuracy", {})
        fair = equal_accuracy(acc["project_error"], acc["peers"]) if "peers" in acc else None
        notes = ([] if engine is None else [f"the engine's share alone {engine:.2f}x heyoka; the rest of the call is "
                                            "validation and assembly (project_outside_engine_s)"])
        notes += ([] if fair is None else [f"at equal accuracy (heyoka at tol {fair['heyoka_tol']:g}, at least as "
                                           "accurate as the project at every sample of the accuracy line) "
                                           f"{fair['project_over_heyoka']:.2f}x"])
        row("small: project / heyoka wall", get("small", "project_over_heyoka"), TARGETS["small_project_over_heyoka_max"], True,
            "; ".join(notes))
        row("reference: heyoka / project wall", get("reference", "heyoka_over_project"), TARGETS["reference_heyoka_over_project_min"], False)
        row("reference: event-GF / numba-GD wall", get("gd", "gf_over_gd_wall"), TARGETS["gf_over_gd_wall_max"], True)
        row("hp small: mp dps 30 / heyoka real128 wall", get("hp_small", "project_over_heyoka"), TARGETS["hp_mp_over_real128_max"], True)
        sc = r.get("scaling", {})
        row("scaling: n x2 time ratio", sc.get("n x2"), TARGETS["scaling_n_x2_max"], True, f"around {self.cfg.scaling_around}")
        row("scaling: h x2 time ratio", sc.get("h x2"), TARGETS["scaling_h_x2_max"], True, f"around {self.cfg.scaling_around}")
        extra = {"note": "--quick: smaller problems and horizons, so no target is judged"} if quick else {}
        judged = [x["met"] for x in rows if x["met"] is not None]
        emit("targets", rows=rows, all_measured_met=all(judged) if judged else None,
             unmeasured=[x["target"] for x in rows if x["met"] is None], **extra)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small case, short horizons, tiny scaling table (smoke test)")
    parser.add_argument("--only", default=None, help=f"comma-separated subset of: {', '.join(NAMES)}")
    parser.add_argument("--repeat", type=int, default=None, help="runs per side and measurement (default: per case)")
    parser.add_argument("--scaling-around", choices=("medium", "reference"), default=None, help="base case of the scaling table (default medium)")
    args = parser.parse_args(argv)
    cfg = QUICK if args.quick else Config()
    if args.repeat is not None:
        if args.repeat < 1:
            parser.error("--repeat must be >= 1")
        cfg = replace(cfg, repeat={k: args.repeat for k in cfg.repeat})
    if args.scaling_around is not None:
        cfg = replace(cfg, scaling_around=args.scaling_around)
    names = NAMES if args.only is None else tuple(s.strip() for s in args.only.split(","))
    unknown = [s for s in names if s not in NAMES]
    if unknown:
        parser.error(f"unknown measurement(s) {', '.join(unknown)}; choose from {', '.join(NAMES)}")
    if args.quick:
        names = tuple(s for s in names if s not in ("medium", "reference"))
    bench = Bench(cfg)
    hy = bench.hy
    emit("setup", quick=args.quick, python=platform.python_version(), numpy=np.__version__, machine=platform.machine(),
         cpus=os.cpu_count(), load_average=list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
         heyoka=getattr(hy, "__version__", None) if hy is not None else None,
         heyoka_real128=bool(hy is not None and hasattr(hy, "real128")), cases=cfg.cases, horizon=cfg.horizon, tol=cfg.tol, eps=cfg.eps)
    if hy is None:
        emit("heyoka", skipped=HEYOKA_MISSING, install="pip install -e '.[bench]' (or pip install heyoka)")
    for name in names:
        getattr(bench, name)()
    return 0


if __name__ == "__main__":
    sys.exit(main())
