"""Benchmark of the event-driven gradient-flow backend against GD and a naive DOP853 baseline.

Prints one JSON line per measurement, all measured side by side in one process on the
reference problem: orthogonally separable data (n = 40, d = 10, mu = 0.3, norms in
[0.5, 2], seed 0), balanced init (h = 100, eps = 1e-6, seed 0), exp loss, horizon 40.

    python benchmarks/bench_gf.py [--quick] [--only NAME[,NAME...]] [--dop-cap S]
                                  [--large-cap S] [--large-horizon T]

Measurements (NAME): gf, gd, dop853, accuracy, ratios, pieces, polar, scaling, large. ``--quick``
shrinks every problem and horizon for a smoke test (a few seconds in all). GF, GD and the
DOP853 baseline evaluate the same compiled vector field (:mod:`verify.dynamics.field_jit`) with
one BLAS thread, so the ratios compare the algorithms, not two implementations of the field.
Targets (issue 3): GF/GD wall-time ratio <= 1 while >= 1e4 times more accurate than GD;
>= 20x faster than DOP853 without events; polar at eps = 1e-1000 no slower than at 1e-6;
the large case (n = 200, d = 50, h = 200, theorem-scale eps) within 60 s.

Caps: the DOP853 baseline stops after ``--dop-cap`` s (default 120) and its full-horizon
cost is then extrapolated linearly in t (labelled ``extrapolated``); the large case (eps =
the audit's eps_required, horizon the audit's t1, or ``--large-horizon`` when the audit has
none; backend "events", whose polar form runs the exact limit engine while the outputs are
provably negligible) stops after ``--large-cap`` s (default 120) and reports the time reached
(``completed: false``); the same case is then run with the closed-form "limit" backend. GF, GD
and the polar runs report the best of ``repeat`` (3) wall times.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scipy.integrate import solve_ivp  # noqa: E402

from verify import Dataset, simulate  # noqa: E402
from verify.dynamics.field import NetworkField, single_thread_blas  # noqa: E402
from verify.dynamics.forms import CartesianForm  # noqa: E402
from verify.model.init import balanced_init  # noqa: E402
from verify.trajectory import Trajectory  # noqa: E402

NAMES = ("gf", "gd", "dop853", "accuracy", "ratios", "pieces", "polar", "scaling", "large")
LOG_EPS_1000 = -1000.0 * math.log(10.0)


@dataclass(frozen=True)
class Config:
    """Problem sizes and budgets (full or quick)."""

    n: int = 40
    d: int = 10
    h: int = 100
    eps: float = 1e-6
    horizon: float = 40.0
    lr: float = 2e-3
    rtol: float = 1e-10
    ref_rtol: float = 1e-13
    dop_cap_s: float = 120.0
    large: tuple[int, int, int] = (200, 50, 200)
    large_horizon: float = 40.0
    large_cap_s: float = 120.0
    repeat: int = 3
    mu: float = 0.3
    seed: int = 0


QUICK = Config(n=12, d=4, h=10, horizon=3.0, dop_cap_s=3.0, large=(30, 8, 20), large_horizon=3.0, large_cap_s=5.0, repeat=1)


def make_data(n: int, d: int, cfg: Config) -> Dataset:
    """Orthogonally separable data with mu = cfg.mu (the project's generator)."""
    from verify.data.generators import orthogonally_separable

    return orthogonally_separable(n - n // 2, n // 2, d, cfg.mu, seed=cfg.seed, norm_range=(0.5, 2.0))


def make_init(h: int, d: int, cfg: Config) -> tuple[np.ndarray, np.ndarray]:
    """eps-free balanced base (W0, v0) with random signs."""
    init = balanced_init(h, d, log_eps=0.0, seed=cfg.seed)
    return init.W0, init.v0


def emit(name: str, **fields: Any) -> None:
    print(json.dumps({"bench": "bench_gf", "name": name, **fields}, default=_jsonable), flush=True)


def _jsonable(x: Any) -> Any:
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating,)):
        return float(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    return str(x)


def _stat(traj: Trajectory, *keys: str) -> Any:
    for key in keys:
        if key in traj.stats:
            value = traj.stats[key]
            return len(value) if isinstance(value, (list, tuple, dict)) else value
    return None


def _timed(fn: Callable[[], Trajectory], repeat: int = 1) -> tuple[Trajectory, float]:
    """Run ``fn`` ``repeat`` times; return the last result and the best wall time."""
    best = math.inf
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return out, best


def rel_w_error(a: Trajectory, ref: Trajectory) -> float:
    """max |W_a(t_end) - W_ref(t_end)| / max |W_ref(t_end)|."""
    return float(np.max(np.abs(a.W[-1] - ref.W[-1])) / np.max(np.abs(ref.W[-1])))


def gf_fields(traj: Trajectory, wall: float) -> dict[str, Any]:
    return {
        "wall_s": wall,
        "steps": _stat(traj, "steps", "n_steps"),
        "rhs_evals": _stat(traj, "rhs_evals", "nfev", "n_rhs"),
        "events": len(traj.events),
        "crossings": len(traj.crossings()),
        "balancedness_drift": traj.balancedness_drift,
    }


def loop_piece_costs(ds: Dataset, traj: Trajectory, calls: int = 400) -> dict[str, float]:
    """Microseconds per call of the compiled loop's pieces (:meth:`Bench.pieces`) on a Cartesian exp-loss run (the
    benchmark's problem), each the best of five rounds of ``calls`` calls made from a compiled loop, at the state of
    ``traj`` a third of the way in (its activation pattern, every pair armed): the field (:func:`field_jit.form_rhs`),
    the 3(2), 5(4) and DOP853 steps' arithmetic beyond their evaluations (the stage sums, the error norm, the dense matrix),
    the preactivations, the crossing scan, the re-arming, and the settling of one event point
    (:func:`settle_jit.settle_simple`; neuron 0 projected onto the plane of its nearest row, on copies of the state,
    whose cost is timed alone and subtracted)."""
    import numba

    from verify.dynamics import crossings, engine_jit, field_jit, rk_jit, scan, settle_jit
    from verify.dynamics.settle import SURFACE_TOL

    @numba.njit
    def field(k, f, z, S, X, y, sgn, r_ref, h, d, work):
        for _ in range(k):
            field_jit.form_rhs(f, 0.0, z, S, X, y, sgn, r_ref, h, d, 0, True, False, False, work[4], work[5], work[6],
                               work[7], work[8])

    @numba.njit
    def low(k, z_new, f_new, F, work, z, f, rtol, atol, S, X, y, sgn, r_ref, h, d, slide, tab):
        for _ in range(k):
            rk_jit.low_step_into(z_new, f_new, F, work, 0.0, z, f, 1e-3, rtol, atol, S, X, y, sgn, r_ref, h, d, 0, True,
                                 False, False, slide, tab[0], tab[1], tab[2], tab[3], tab[4])

    @numba.njit
    def dop853(k, z_new, f_new, F, work, z, f, rtol, atol, S, X, y, sgn, r_ref, h, d, slide, tab, dense):
        for _ in range(k):
            rk_jit.dop853_step_into(z_new, f_new, work, 0.0, z, f, 1e-3, rtol, atol, S, X, y, sgn, r_ref, h, d, 0, True,
                                    False, False, slide, tab[0], tab[1], tab[2], tab[3], tab[4])
            rk_jit.dop853_dense_into(F, work, 0.0, z, f, z_new, f_new, 1e-3, S, X, y, sgn, r_ref, h, d, 0, True, False,
                                     False, slide, dense[0], dense[1], dense[2])

    @numba.njit
    def preact(k, E0, VT, X, z, h):
        for _ in range(k):
            field_jit.preact_into(E0, VT, X, z, 0, h)

    @numba.njit
    def scan_(k, z, F, h, E0, X, xnorm, side, armed, dead, cheb, der):
        work = scan.scan_workspace(X.shape[0], h)
        for _ in range(k):
            scan.scan_step_into(work, z, F, 0, h, E0, X, xnorm, side, armed, dead, 1e-12, cheb, der)

    @numba.njit
    def rearm(k, armed, side, X, V, xnorm):
        for _ in range(k):
            engine_jit.rearm(armed, side, X, V, xnorm, 1e-12)

    @numba.njit
    def settle(k, z, S, side, armed, dead, pairs, X, xnorm, K, y, sgn, r_ref, shared, h, d, ev, settling):
        for _ in range(k):  # on copies of the state it changes (timed alone too, and subtracted)
            z2, S2, side2, armed2, dead2 = z.copy(), S.copy(), side.copy(), armed.copy(), dead.copy()
            ks, stats = np.zeros(6, np.int64), np.zeros(7, np.int64)
            if settling:
                settle_jit.settle_simple(0.0, z2, pairs, S2, side2, armed2, dead2, X, xnorm, K, y, sgn, r_ref, 0.0, 0,
                                       False, shared, 0, h, d, SURFACE_TOL, ev[0], ev[1], ev[2], ks, stats)

    def best(fn: Callable[[int], None]) -> float:
        fn(1)  # compile
        rounds = []
        for _ in range(5):
            start = time.perf_counter()
            fn(calls)
            rounds.append((time.perf_counter() - start) / calls)
        return 1e6 * min(rounds)

    k = len(traj.times) // 3
    W, v = traj.W[k], traj.v[k]
    X, y = np.ascontiguousarray(ds.X, dtype=float), np.asarray(ds.y, dtype=float)
    n, d = X.shape
    h = W.shape[0]
    z = np.concatenate([W.ravel(), v])
    N = z.size
    P = X @ W.T
    S = (P > 0).astype(float)
    side = np.where(P > 0, 1, -1).astype(np.int64)
    armed, dead = np.ones((n, h), dtype=bool), np.zeros(h, dtype=bool)
    sgn, r_ref = np.ones(h), np.zeros(h)
    xnorm = np.linalg.norm(X, axis=1)
    work = rk_jit.step_workspace(n, d, h, N)
    f, z_new, f_new = np.empty(N), np.empty(N), np.empty(N)
    slide = (np.empty(0, np.int64), np.empty(0, np.int64), np.zeros((n, h)), 0.0)
    rtol, atol = np.full(N, 1e-10), 1e-10 * engine_jit.neuron_size_per_component(z, h, d, 1e-300)
    F5 = np.empty((7, N))  # the low-order pairs' dense matrix
    F8 = np.empty((3 + rk_jit.DENSE_853[2].shape[0], N))  # (7, N), as dop853_dense_into fills it
    field_jit.form_rhs(f, 0.0, z, S, X, y, sgn, r_ref, h, d, 0, True, False, False, *work[4:])  # the field's scratch
    E0, VT = np.empty((n, h)), np.empty((d, h))
    per = {"field": best(lambda c: field(c, np.empty(N), z, S, X, y, sgn, r_ref, h, d, work))}
    rk45_us = best(lambda c: low(c, z_new, f_new, F5, work, z, f, rtol, atol, S, X, y, sgn, r_ref, h, d, slide,
                                 rk_jit.TABLEAUS[1]))
    rk23_us = best(lambda c: low(c, z_new, f_new, F5, work, z, f, rtol, atol, S, X, y, sgn, r_ref, h, d, slide,
                                 rk_jit.TABLEAUS[0]))
    dop_us = best(lambda c: dop853(c, z_new, f_new, F8, work, z, f, rtol, atol, S, X, y, sgn, r_ref, h, d, slide,
                                   rk_jit.TABLEAU_853, rk_jit.DENSE_853))
    per["rk45_arithmetic"] = rk45_us - (rk_jit.TABLEAUS[1][1].size) * per["field"]
    per["rk23_arithmetic"] = rk23_us - (rk_jit.TABLEAUS[0][1].size) * per["field"]
    per["dop853_arithmetic"] = dop_us - (rk_jit.TABLEAU_853[1].size + rk_jit.DENSE_853[1].size) * per["field"]
    per["preact"] = best(lambda c: preact(c, E0, VT, X, z, h))
    rk_jit.low_step_into(z_new, f_new, F5, work, 0.0, z, f, 1e-3, rtol, atol, S, X, y, sgn, r_ref, h, d, 0, True, False,
                         False, slide, *rk_jit.TABLEAUS[1])
    per["scan"] = best(lambda c: scan_(c, z, F5, h, P, X, xnorm, side, armed, dead, crossings.CHEB, scan.DER))
    per["rearm"] = best(lambda c: rearm(c, armed, side, X, np.ascontiguousarray(W), xnorm))
    i = int(np.argmin(np.abs(P[:, 0])))  # an event point: neuron 0 projected onto the plane of its nearest row
    Wc = W.copy()
    Wc[0] -= (X[i] @ Wc[0]) / (X[i] @ X[i]) * X[i]
    zc = np.concatenate([Wc.ravel(), v])
    Sc, sidec = S.copy(), side.copy()
    Sc[i, 0], sidec[i, 0] = 1.0, 1
    ev = (np.empty(64), np.empty((64, 2), np.int64), np.empty((64, 2), np.int64))
    args = (zc, Sc, sidec, armed, dead, np.array([[i, 0]], np.int64), X, xnorm, X @ X.T, y, sgn, r_ref,
            np.zeros(n, dtype=bool), h, d, ev)
    per["settle"] = best(lambda c: settle(c, *args, True)) - best(lambda c: settle(c, *args, False))
    return per


class Bench:
    """Runs the measurements lazily, caching shared results (one process, side by side)."""

    def __init__(self, cfg: Config, quick: bool) -> None:
        self.cfg = cfg
        self.quick = quick
        self.ds = make_data(cfg.n, cfg.d, cfg)
        self.W0, self.v0 = make_init(cfg.h, cfg.d, cfg)
        self.W, self.v = cfg.eps * self.W0, cfg.eps * self.v0
        self.cache: dict[str, Any] = {}
        self.problem = {"n": cfg.n, "d": cfg.d, "h": cfg.h, "eps": cfg.eps, "loss": "exp", "horizon": cfg.horizon, "mu": cfg.mu, "seed": cfg.seed}

    def _once(self, key: str, fn: Callable[[], Any]) -> Any:
        if key not in self.cache:
            self.cache[key] = fn()
        return self.cache[key]

    def run_gf(self) -> tuple[Trajectory, float]:
        cfg = self.cfg
        return self._once("gf", lambda: _timed(lambda: simulate(self.ds, self.W, self.v, cfg.horizon, rtol=cfg.rtol), cfg.repeat))

    def run_gd(self) -> tuple[Trajectory, float]:
        cfg = self.cfg
        return self._once("gd", lambda: _timed(lambda: simulate(self.ds, self.W, self.v, cfg.horizon, backend="gd", lr=cfg.lr), cfg.repeat))

    def run_ref(self) -> tuple[Trajectory, float]:
        cfg = self.cfg
        return self._once("ref", lambda: _timed(lambda: simulate(self.ds, self.W, self.v, cfg.horizon, rtol=cfg.ref_rtol)))

    def run_ref_check(self) -> tuple[Trajectory, float]:
        cfg = self.cfg
        rtol = math.sqrt(cfg.ref_rtol * cfg.rtol) if cfg.ref_rtol < cfg.rtol else cfg.ref_rtol
        return self._once("ref_check", lambda: _timed(lambda: simulate(self.ds, self.W, self.v, cfg.horizon, rtol=rtol)))

    def run_dop(self) -> dict[str, Any]:
        return self._once("dop", self._dop853)

    def _dop853(self) -> dict[str, Any]:
        """solve_ivp DOP853 without events; the pattern is recomputed at every RHS call, and the
        field is the same compiled one the event engine uses (one BLAS thread, as there)."""
        cfg = self.cfg
        field = NetworkField.from_dataset(self.ds, "exp")
        h, d = self.W.shape
        form = CartesianForm(field, h, d)
        state = {"nfev": 0, "t": 0.0}
        start = time.perf_counter()

        class Cap(Exception):
            pass

        def rhs(t: float, z: np.ndarray) -> np.ndarray:
            state["nfev"] += 1
            state["t"] = max(state["t"], t)
            if state["nfev"] % 200 == 0 and time.perf_counter() - start > cfg.dop_cap_s:
                raise Cap
            return form.rhs(z, field.mode(field.X @ form.weights(z).T))

        z0 = form.pack(self.W, self.v)
        atol = cfg.rtol * cfg.eps
        capped = False
        W_end = None
        try:
            with single_thread_blas(field.n, h, d):
                sol = solve_ivp(rhs, (0.0, cfg.horizon), z0, method="DOP853", rtol=cfg.rtol, atol=atol)
            t_reached = cfg.horizon
            W_end = sol.y[: h * d, -1].reshape(h, d)
            status = sol.message
        except Cap:
            capped = True
            t_reached = state["t"]
            status = f"stopped at the {cfg.dop_cap_s:g} s cap"
        wall = time.perf_counter() - start
        frac = t_reached / cfg.horizon if t_reached > 0 else float("nan")
        out = {
            "wall_s": wall,
            "nfev": state["nfev"],
            "t_reached": t_reached,
            "capped": capped,
            "atol": atol,
            "status": status,
            "wall_s_full_horizon": wall if not capped else (wall / frac if frac > 0 else float("inf")),
            "nfev_full_horizon": state["nfev"] if not capped else (state["nfev"] / frac if frac > 0 else float("inf")),
            "extrapolated": capped,
        }
        if capped:
            out["note"] = "wall_s_full_horizon and nfev_full_horizon are linear extrapolations from t_reached"
        if W_end is not None:
            ref, _ = self.run_ref()
            out["rel_error_W_t_end"] = float(np.max(np.abs(W_end - ref.W[-1])) / np.max(np.abs(ref.W[-1])))
        return out

    # measurements ---------------------------------------------------------------------------

    def gf(self) -> None:
        traj, wall = self.run_gf()
        emit("gf_events", problem=self.problem, rtol=self.cfg.rtol, form=traj.params.get("form"), **gf_fields(traj, wall))

    def gd(self) -> None:
        traj, wall = self.run_gd()
        emit("gd", problem=self.problem, lr=self.cfg.lr, wall_s=wall, steps=_stat(traj, "steps"), balancedness_drift=traj.balancedness_drift)

    def dop853(self) -> None:
        emit("dop853_naive", problem=self.problem, rtol=self.cfg.rtol, **self.run_dop())

    def accuracy(self) -> None:
        gf, _ = self.run_gf()
        gd, _ = self.run_gd()
        ref, ref_wall = self.run_ref()
        check, _ = self.run_ref_check()
        err_gf, err_gd = rel_w_error(gf, ref), rel_w_error(gd, ref)
        ratio = err_gd / err_gf if err_gf > 0 else float("inf")
        emit(
            "accuracy",
            problem=self.problem,
            reference_rtol=self.cfg.ref_rtol,
            reference_wall_s=ref_wall,
            reference_check_rtol=check.params.get("rtol"),
            reference_check_rel_diff=rel_w_error(check, ref),
            gf_vs_check_rel_diff=rel_w_error(gf, check),
            gf_rel_error=err_gf,
            gd_rel_error=err_gd,
            gd_over_gf_error=ratio,
            gf_error_estimate=gf.error_estimate,
            note="errors are max|W(t_end) - W_ref(t_end)| / max|W_ref(t_end)|; gf_rel_error is bounded below by the reference's own error",
        )

    def ratios(self) -> None:
        gf, gf_wall = self.run_gf()
        gd, gd_wall = self.run_gd()
        ref, _ = self.run_ref()
        dop = self.run_dop()
        err_gf, err_gd = rel_w_error(gf, ref), rel_w_error(gd, ref)
        acc = err_gd / err_gf if err_gf > 0 else float("inf")
        gf_gd = gf_wall / gd_wall
        speedup = dop["wall_s_full_horizon"] / gf_wall
        emit(
            "ratios",
            problem=self.problem,
            gf_over_gd_wall=gf_gd,
            gd_over_gf_error=acc,
            dop853_over_gf_wall=speedup,
            dop853_extrapolated=dop["extrapolated"],
            target_gf_gd_wall_le_1=bool(gf_gd <= 1.0),
            target_accuracy_ge_1e4=bool(acc >= 1e4),
            target_dop853_speedup_ge_20=bool(speedup >= 20.0),
        )

    def pieces(self) -> None:
        """Where the GF run's time goes: each piece of the compiled loop (:mod:`verify.dynamics.loop_jit`) timed
        alone inside a compiled loop (:func:`loop_piece_costs`), times how often the run calls it; the remainder is
        what is not timed (the moves and samples on the dense output, loop control, the per-run Python). GD's step,
        for comparison, is one field evaluation plus its Python loop (``gd_field_share``).

        A piece's isolated cost is not what removing it saves: inside the run it overlaps with its neighbours.
        Measured 2026-11-28: reusing one preactivation matrix for the event point's settling and the next step's
        scan (two of the ``preact`` calls per event, 8 us isolated, 14 ms over the run) saved 0-1.5% side by side,
        so it was not kept. Timings from Python overstate the small kernels more: a few us of dispatch per call
        (the field 13.7 us from Python, 11.3 in a compiled loop). Rejected steps are counted as 5(4) steps."""
        traj, wall = self.run_gf()
        gd, gd_wall = self.run_gd()
        per = loop_piece_costs(self.ds, traj)
        st = traj.stats
        evals, steps = int(st["rhs_evals"]), int(st["steps"])
        rk23, rk45 = int(st["steps_rk23"]), int(st["steps_rk45"])
        spent = {
            "field": evals * per["field"],
            "rk23_arithmetic": rk23 * per["rk23_arithmetic"],
            "rk45_arithmetic": (rk45 + int(st.get("rejected", 0))) * per["rk45_arithmetic"],
            "dop853_arithmetic": (steps - rk23 - rk45) * per["dop853_arithmetic"],
            "preact": steps * per["preact"],
            "scan": steps * per["scan"],
            "rearm": steps * per["rearm"],
            "settle": int(st["n_restarts"]) * per["settle"],
        }
        spent = {k: v * 1e-6 for k, v in spent.items()}
        gd_steps = int(gd.stats["steps"])
        emit("pieces", problem=self.problem, per_call_us=per,
             counts={"rhs_evals": evals, "steps": steps, "steps_rk23": rk23, "steps_rk45": rk45, "rejected": int(st.get("rejected", 0)),
                     "events": len(traj.events), "restarts": int(st["n_restarts"])},
             seconds=spent, wall_s=wall, remainder_s=wall - sum(spent.values()),
             field_share=spent["field"] / wall, gd_step_us=1e6 * gd_wall / gd_steps,
             gd_field_share=gd_steps * per["field"] * 1e-6 / gd_wall)

    def polar(self) -> None:
        cfg = self.cfg
        T = cfg.horizon
        small, wall_small = _timed(lambda: simulate(self.ds, self.W0, self.v0, T, log_eps=math.log(cfg.eps), form="polar", rtol=cfg.rtol), cfg.repeat)
        tiny, wall_tiny = _timed(lambda: simulate(self.ds, self.W0, self.v0, T, log_eps=LOG_EPS_1000, rtol=cfg.rtol), cfg.repeat)
        emit(
            "polar_eps",
            problem=self.problem,
            wall_s_eps_1e6=wall_small,
            wall_s_eps_1e1000=wall_tiny,
            ratio_1e1000_over_1e6=wall_tiny / wall_small,
            rhs_evals_eps_1e6=_stat(small, "rhs_evals", "nfev"),
            rhs_evals_eps_1e1000=_stat(tiny, "rhs_evals", "nfev"),
            events_eps_1e6=len(small.events),
            events_eps_1e1000=len(tiny.events),
            r_finite=bool(np.all(np.isfinite(tiny.r))),
            target_no_slower=bool(wall_tiny <= wall_small),
        )

    def scaling(self) -> None:
        cfg = self.cfg
        base_traj, base_wall = self.run_gf()
        emit("scaling", case="reference", n=cfg.n, d=cfg.d, h=cfg.h, **gf_fields(base_traj, base_wall))
        for label, (n, d, h) in {
            "n x2": (2 * cfg.n, cfg.d, cfg.h),
            "h x2": (cfg.n, cfg.d, 2 * cfg.h),
            "d x2": (cfg.n, 2 * cfg.d, cfg.h),
        }.items():
            ds = make_data(n, d, cfg)
            W0, v0 = make_init(h, d, cfg)
            traj, wall = _timed(lambda: simulate(ds, cfg.eps * W0, cfg.eps * v0, cfg.horizon, rtol=cfg.rtol))
            emit("scaling", case=label, n=n, d=d, h=h, wall_over_reference=wall / base_wall, **gf_fields(traj, wall))

    def large(self) -> None:
        cfg = self.cfg
        n, d, h = cfg.large
        ds = make_data(n, d, cfg)
        W0, v0 = make_init(h, d, cfg)
        log_eps, horizon, source, t1 = -1e4, cfg.large_horizon, "fallback log_eps = -1e4", None
        try:
            from verify.audit import audit

            report = audit(ds, W0, v0, log_eps=0.0)
            if report.log_eps_required is not None and math.isfinite(report.log_eps_required):
                log_eps, source = float(report.log_eps_required), "audit log_eps_required"
            t1 = getattr(report, "t1_max", None) or getattr(report, "t1", None)
        except Exception as exc:  # the audit is optional here: report and fall back
            source = f"fallback log_eps = -1e4 (audit unavailable: {type(exc).__name__})"
        t_lim = float(t1) if t1 is not None and math.isfinite(t1) and t1 > 0 else horizon
        horizon = t_lim  # the events backend (polar: exact limit phase while |f| <= 2^-60, then the ODE) through t1
        reached = {"t": 0.0}
        start = time.perf_counter()

        class Cap(Exception):
            pass

        def watch(t: float) -> None:
            reached["t"] = max(reached["t"], float(t))
            if time.perf_counter() - start > cfg.large_cap_s:
                raise Cap

        fields: dict[str, Any]
        try:
            traj = simulate(ds, W0, v0, horizon, log_eps=log_eps, rtol=cfg.rtol, backend="events", progress=watch)
            wall = time.perf_counter() - start
            fields = {"completed": True, "t_reached": horizon, "form": traj.params.get("form"), "limit_phase_until": traj.stats.get("limit_phase_until"), **gf_fields(traj, wall)}
        except Cap:
            wall = time.perf_counter() - start
            fields = {"completed": False, "t_reached": reached["t"], "wall_s": wall, "note": f"stopped at the {cfg.large_cap_s:g} s cap"}
        emit(
            "large",
            backend="events",
            n=n,
            d=d,
            h=h,
            log_eps=log_eps,
            log_eps_source=source,
            audit_t1=t1,
            horizon=horizon,
            horizon_note="audit t1" if horizon != cfg.large_horizon else "stated horizon",
            target_le_60s=bool(fields["completed"] and wall <= 60.0),
            **fields,
        )
        lim, wall_lim = _timed(lambda: simulate(ds, W0, v0, t_lim, log_eps=log_eps, backend="limit"))
        emit(
            "large",
            backend="limit",
            n=n,
            d=d,
            h=h,
            log_eps=log_eps,
            log_eps_source=source,
            horizon=t_lim,
            horizon_note="audit t1" if t_lim != cfg.large_horizon else "stated horizon",
            completed=True,
            wall_s=wall_lim,
            events=len(lim.events),
            crossings=len(lim.crossings()),
            exact=lim.stats.get("exact"),
            target_le_60s=bool(wall_lim <= 60.0),
            note="closed-form eps -> 0 engine; at this eps float64 outputs f = e^(2r) underflow to 0, so the events backend integrates the same limit dynamics",
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small problems and short horizons (smoke test)")
    parser.add_argument("--only", default=None, help=f"comma-separated subset of: {', '.join(NAMES)}")
    parser.add_argument("--dop-cap", type=float, default=None, help="wall-time cap in s for the DOP853 baseline")
    parser.add_argument("--large-cap", type=float, default=None, help="wall-time cap in s for the large case")
    parser.add_argument("--large-horizon", type=float, default=None, help="horizon of the large case when the audit gives no t1 (default 40)")
    args = parser.parse_args(argv)
    cfg = QUICK if args.quick else Config()
    overrides = {"dop_cap_s": args.dop_cap, "large_cap_s": args.large_cap, "large_horizon": args.large_horizon}
    cfg = Config(**{**cfg.__dict__, **{k: v for k, v in overrides.items() if v is not None}})
    names = NAMES if args.only is None else tuple(s.strip() for s in args.only.split(","))
    unknown = [s for s in names if s not in NAMES]
    if unknown:
        parser.error(f"unknown measurement(s) {', '.join(unknown)}; choose from {', '.join(NAMES)}")
    bench = Bench(cfg, args.quick)
    emit("setup", quick=args.quick, python=platform.python_version(), numpy=np.__version__, machine=platform.machine(), problem=bench.problem)
    for name in names:
        getattr(bench, name)()
    return 0


if __name__ == "__main__":
    sys.exit(main())
