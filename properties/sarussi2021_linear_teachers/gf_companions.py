"""Exact gradient-flow companions of seed 002's Section-6 figures (4 and 9): the paper ran GD (eta = 0.5 on the
mean loss); its Section-6 theorems (6.1, 6.2) and the Lyu-Li monotonicity they use are about gradient flow. Each
companion runs the exact event-driven flow (``verify.simulate``, backend "events", leaky ReLU sigma'(0) = alpha,
second layer fixed at (1_k, -1_k), logistic loss) from the same init to the same time (t = steps * eta / n on the
summed loss), reads it with the same :func:`training.read`, checks the same stated outcomes on it, and says in
notes where GD and GF disagree. Readings are indexed by the GD step of the same time, t / lr.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable

import numpy as np

from verify import simulate
from verify.data.dataset import Dataset
from verify.reproduce import Check
from verify.trajectory import sliding_mask

from properties.sarussi2021_linear_teachers import network as N
from properties.sarussi2021_linear_teachers import quantities as Q
from properties.sarussi2021_linear_teachers._shared import ALPHA, LOSS, engine_lr
from properties.sarussi2021_linear_teachers.training import Reading, first_step, par_share, read


def flow(ds: Dataset, W0: np.ndarray, eta: float, steps: int,
         samples: int = 30) -> tuple[Any, list[Reading], np.ndarray]:
    """The exact flow from W0 to t = steps * lr (lr = eta / n), sampled at the GD steps :func:`training.train`
    samples (0, geometric in [1, steps], steps), its readings and its sliding pairs per sample (read as <w, x> = 0)."""
    lr = engine_lr(eta, ds.n)
    k = np.asarray(W0).shape[0] // 2
    ks = np.unique(np.r_[0, np.geomspace(1, steps, samples).astype(int), steps])
    traj = simulate(ds, W0, N.second_layer(k), steps * lr, loss=LOSS, alpha=ALPHA, train_v=False, times=ks * lr)
    on_kink = sliding_mask(traj.events, traj.times, ds.n, 2 * k)
    return traj, read(SimpleNamespace(params={"lr": lr}, times=traj.times, W=traj.W), ds, on_kink=on_kink), on_kink


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def fig4(ds: Dataset, W0: np.ndarray, eta: float, steps: int, gd_rows: list[Reading], gd_cos: list[float],
         par: Q.ParSvm, k: int, progress: Callable[[str], None]) -> tuple[list[Check], list[str], dict[str, Any]]:
    """Figure 4 under the exact flow: PAR entered and kept (Thm 6.2 (i)), r conserved in the NAR (LT-X1), the
    smoothed margin non-decreasing (Lyu-Li, a GF theorem), w-bar turning toward the QP (8) solution w~."""
    progress(f"exact GF to t = {steps} * eta / n")
    traj, rows, _ = flow(ds, W0, eta, steps)
    t_par = first_step(rows, "par")
    inside = [i for i, r in enumerate(rows) if t_par is not None and r.step >= t_par]
    drift = max((abs(rows[i].r - rows[inside[0]].r) / rows[inside[0]].r for i in inside), default=np.inf)
    cos = [_cos(N.clusters(W).w_bar, par.w) for W in traj.W]
    smooth = [r.smoothed_margin for r in rows if np.isfinite(r.smoothed_margin)]
    checks = [
        Check("GF: the run enters the PAR and stays (Thm 6.2 (i))", t_par is not None, f"PAR from the time of step {t_par}"),
        Check("GF: r is conserved inside the NAR (LT-X1: relative drift <= 1e-9)", drift <= 1e-9,
              f"r = {rows[-1].r:.6g}, drift {drift:.2g}"),
        Check("GF: the smoothed margin is non-decreasing once defined (Lyu-Li, LT-IMP-A7)",
              bool(smooth) and all(b >= a - 1e-9 * abs(a) for a, b in zip(smooth, smooth[1:])),
              f"gamma~ {smooth[0] if smooth else np.nan:.4f} -> {smooth[-1] if smooth else np.nan:.4f}"),
        Check("GF: w-bar turns toward w~ over the last decade and the margin stays below gamma*_PAR",
              cos[-1] > cos[len(cos) // 2] and rows[-1].normalised_margin <= par.limit_margin(k) * (1 + 1e-9),
              f"cos(w-bar, w~) {cos[len(cos) // 2]:.5f} -> {cos[-1]:.5f}; gamma-bar {rows[-1].normalised_margin:.4f}"),
    ]
    g_par = first_step(gd_rows, "par")
    notes = [f"GD (eta = 0.5) vs exact GF from the same init to the same time: PAR from step {g_par} vs {t_par}; "
             f"cos(w-bar, w~) at the end {gd_cos[-1]:.6f} vs {cos[-1]:.6f}; gamma-bar {gd_rows[-1].normalised_margin:.5f} vs "
             f"{rows[-1].normalised_margin:.5f}; r {gd_rows[-1].r:.6g} vs {rows[-1].r:.6g}; mean loss {gd_rows[-1].loss:.4g} vs "
             f"{rows[-1].loss:.4g}; {len(traj.events)} GF crossing events"]
    return checks, notes, {"gf_cos": cos, "gf_par_from_step": t_par, "gf_r": rows[-1].r, "gf_steps": [r.step for r in rows]}


def fig9(runs: list[tuple[Any, Dataset, np.ndarray, list[Reading], list[tuple[float, float]]]], eta: float, steps: int,
         progress: Callable[[str], None]) -> tuple[list[Check], list[str], list[dict[str, Any]]]:
    """Figure 9 under the exact flow, at every outlier position of the GD runs ``(position, data, W0, GD readings,
    GD PAR shares)``: 100% accuracy, an NAR at the sheet's position, some run ending outside the PAR."""
    flows = []
    for at, ds, W0, _, _ in runs:
        progress(f"outlier at {at}: exact GF")
        traj, rows, on_kink = flow(ds, W0, eta, steps)
        flows.append((at, rows, [par_share(W, ds.X, ds.y, m) for W, m in zip(traj.W, on_kink)],
                      f"{len(traj.events)} GF events; {int(on_kink[-1].sum())} (point, neuron) pairs sliding on their "
                      "kink at the end, read as <w, x> = 0"))
    ends = "; ".join(f"{at}: D_max {rows[-1].d_max}, NAR {rows[-1].nar}, PAR share +/- {sh[-1][0]:.2f}/{sh[-1][1]:.2f}"
                     for at, rows, sh, _ in flows)
    checks = [
        Check("GF: 100% training accuracy at the end at both positions (Fig. 9 (a))",
              all(rows[-1].train_error == 0.0 for _, rows, _, _ in flows), ends),
        Check("GF: D_max -> 0 (an NAR) at the sheet's position (0.1, 1.0) (Fig. 9 (c))",
              flows[0][1][-1].d_max == 0 and flows[0][1][-1].nar, ends),
        Check("GF: learning does not always converge to a PAR (App. J, Fig. 9 (d)): some run ends outside the PAR",
              any(min(sh[-1]) < 1.0 for _, _, sh, _ in flows), ends),
    ]
    notes = []
    for (at, _, _, g_rows, g_sh), (_, rows, sh, events) in zip(runs, flows):
        notes.append(f"outlier {at}, GD vs exact GF at the same time: D_max {g_rows[-1].d_max} vs {rows[-1].d_max}, NAR "
                     f"{g_rows[-1].nar} vs {rows[-1].nar}, PAR share +/- {g_sh[-1][0]:.2f}/{g_sh[-1][1]:.2f} vs "
                     f"{sh[-1][0]:.2f}/{sh[-1][1]:.2f}, NAR from step {first_step(g_rows, 'nar')} vs {first_step(rows, 'nar')}, "
                     f"mean loss {g_rows[-1].loss:.4g} vs {rows[-1].loss:.4g} ({events})")
    values = [{"outlier": at, "gf_d_max": [r.d_max for r in rows], "gf_par_share": sh} for at, rows, sh, _ in flows]
    return checks, notes, values
