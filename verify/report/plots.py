"""Report figures (matplotlib, Agg backend, PNG bytes): representative runs and counterexamples.

Representative runs, one per dataset of :data:`REPRESENTATIVE` that is installed (``gen:`` names: the
generic families and the papers' datasets; all exp loss, balanced init of width h = 8 from
:func:`verify.model.init.balanced_init` with seed 0, simulated in polar form at ``log_eps = -30``; the
horizon is twice the time at which the loss has fallen by 1% from L(0)):

- ``toy4`` (4 unit points (+-cos a, +-sin a), a = 0.3, S_dead = {0}), when a paper provides it;
- ``orthsep``: ``orthogonally_separable(3, 3, 2, 0.5, seed=0)`` (6 points, mu = 0.5).

For each: the 2-D cones (data, S+ / S- / S_dead sectors, neuron directions at four times),
cos(w_j, x+) and cos(w_j, x-) over time, the loss (log scale) and the stable rank
||W||_F^2 / ||W||_2^2, and the activation-transition timeline from ``trajectory.events``.
A Cartesian run (toy4, eps = 1e-2) shows the balancedness drift max_j |v_j^2 - ||w_j||^2| /
max(v_j^2, ||w_j||^2) over time. Everything together takes a few seconds.

:func:`counterexample_png` re-simulates a stored counterexample scenario and plots its
pre-activations <x_i, w_j(t)> (directions <x_i, u_j(t)> in polar form) and second-layer
weights v_j(t) (log-norms r_j(t) in polar form).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

POS, NEG = "#1565c0", "#c62828"
LOG_EPS = -30.0
WIDTH = 8
DPI = 80
CX_DPI = 90  # counterexample plots: readable at print size


@dataclass(frozen=True)
class Figure:
    """One rendered figure: a file-name stem, a title, a caption and the PNG bytes."""

    name: str
    title: str
    caption: str
    png: bytes


def _plt():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _png(fig: Any, dpi: int = DPI) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    _plt().close(fig)
    return buf.getvalue()


# ------------------------------------------------------------------------------- quantities


def _states(traj: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Directions U (k, h, d), log-norms r (k, h) and signs s (h,) of a trajectory (either form)."""
    if traj.polar:
        U, r = np.asarray(traj.U, float), np.asarray(traj.r, float)
        s = np.sign(np.asarray(traj.v, float)[0])
        if np.any(s == 0):  # v underflowed: signs are stored with the polar params
            s = np.where(s == 0, 1.0, s)
        return U, r, s
    W = np.asarray(traj.W, float)
    norms = np.linalg.norm(W, axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        U = np.where(norms[..., None] > 0, W / norms[..., None], 0.0)
        r = np.log(norms)
    return U, r, np.sign(np.asarray(traj.v, float)[0])


def _outputs(X: np.ndarray, U: np.ndarray, r: np.ndarray, s: np.ndarray) -> np.ndarray:
    """f(x_i) at every sample (k, n), balanced: v_j relu(<w_j, x>) = s_j exp(2 r_j) relu(<u_j, x>)."""
    pre = np.einsum("khd,nd->khn", U, X)
    return np.einsum("kh,khn->kn", s[None, :] * np.exp(2.0 * r), np.maximum(pre, 0.0))


def _loss(y: np.ndarray, f: np.ndarray) -> np.ndarray:
    return np.sum(np.exp(-y[None, :] * f), axis=1)


def _stable_rank(U: np.ndarray, r: np.ndarray) -> np.ndarray:
    out = np.empty(len(r))
    for k in range(len(r)):
        W = np.exp(r[k] - r[k].max())[:, None] * U[k]
        sv = np.linalg.svd(W, compute_uv=False)
        out[k] = float(np.sum(sv**2) / sv[0] ** 2) if sv[0] > 0 else math.nan
    return out


def _cos(U: np.ndarray, x: np.ndarray) -> np.ndarray:
    nx = np.linalg.norm(x)
    return np.einsum("khd,d->kh", U, x) / nx if nx > 0 else np.full(U.shape[:2], np.nan)


def _sector_labels(X: np.ndarray, y: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """0 mixed, 1 S+, 2 S-, 3 S_dead for unit directions at the given angles (2-D data)."""
    Z = np.column_stack([np.cos(angles), np.sin(angles)])
    act = Z @ X.T > 0
    pos, neg = y > 0, y < 0
    lab = np.zeros(len(angles), int)
    lab[np.all(act == pos[None, :], axis=1)] = 1
    lab[np.all(act == neg[None, :], axis=1)] = 2
    lab[~act.any(axis=1)] = 3
    return lab


# ------------------------------------------------------------------------------ simulations


def _representative(ds: Any, log_eps: float = LOG_EPS, h: int = WIDTH, seed: int = 0):
    from verify import simulate
    from verify.model.init import balanced_init

    init = balanced_init(h, ds.d, log_eps=log_eps, seed=seed)
    xp = ds.X[ds.y > 0].sum(axis=0)
    probe_end = 3.0 * abs(log_eps) / max(np.linalg.norm(xp), 1e-3)
    probe = simulate(ds, init.W0, init.v0, probe_end, log_eps=log_eps, times=np.linspace(0.0, probe_end, 301))
    U, r, s = _states(probe)
    L = _loss(ds.y, _outputs(ds.X, U, r, s))
    fallen = np.nonzero(L < 0.99 * L[0])[0]
    t_fall = float(probe.times[fallen[0]]) if len(fallen) else probe_end / 2
    t_end = 2.0 * t_fall
    times = np.unique(np.concatenate([np.linspace(0.0, t_end, 240), np.geomspace(1e-3 * t_end, t_end, 160)]))
    traj = simulate(ds, init.W0, init.v0, t_end, log_eps=log_eps, times=times)
    return traj, t_fall


def _family_figures(name: str, label: str, ds: Any) -> list[Figure]:
    plt = _plt()
    traj, t_fall = _representative(ds)
    X, y = np.asarray(ds.X, float), np.asarray(ds.y, float)
    t = np.asarray(traj.times, float)
    U, r, s = _states(traj)
    figs: list[Figure] = []
    setting = (f"{label}; exp loss, balanced init h = {WIDTH} (seed 0), polar form with ln eps = {LOG_EPS:g}; "
               f"the loss starts to fall at t = {t_fall:.3g}, horizon {t[-1]:.3g}")

    # 1. cones and neuron directions at four times
    snap = [0.0, min(0.05 * t_fall, t[-1]), 0.6 * t_fall, t[-1]]
    ang = np.linspace(0.0, 2 * np.pi, 1441)
    lab = _sector_labels(X, y, ang)
    fig, axes = plt.subplots(1, 4, figsize=(13, 3.6))
    R = 1.25 * max(1.0, float(np.linalg.norm(X, axis=1).max()))
    colours = {1: ("#bbdefb", "S+"), 2: ("#ffcdd2", "S-"), 3: ("#e0e0e0", "S_dead")}
    for ax, ts in zip(axes, snap):
        k = int(np.argmin(np.abs(t - ts)))
        for code, (col, _) in colours.items():
            idx = np.nonzero(lab == code)[0]
            if len(idx) == 0:
                continue
            for run in np.split(idx, np.nonzero(np.diff(idx) > 1)[0] + 1):  # one wedge per contiguous sector
                a = ang[run]
                ax.fill(np.concatenate([[0.0], R * np.cos(a)]), np.concatenate([[0.0], R * np.sin(a)]), color=col, lw=0)
        ax.scatter(X[y > 0, 0], X[y > 0, 1], marker="+", s=70, c=POS, zorder=3)
        ax.scatter(X[y < 0, 0], X[y < 0, 1], marker="_", s=70, c=NEG, zorder=3, linewidths=2)
        for j in range(U.shape[1]):
            u = U[k, j]
            ax.arrow(0.0, 0.0, u[0], u[1], width=0.012, head_width=0.07, length_includes_head=True, lw=0,
                     color=POS if s[j] > 0 else NEG, alpha=0.9 if s[j] > 0 else 0.6, zorder=4)
        ax.set_xlim(-R, R)
        ax.set_ylim(-R, R)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_title(f"t = {t[k]:.3g}", fontsize=10)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c, _ in colours.values()]
    fig.legend(handles + [plt.Line2D([], [], color=POS), plt.Line2D([], [], color=NEG, alpha=0.6)],
               [n for _, n in colours.values()] + ["v_j > 0 neuron", "v_j < 0 neuron (lighter)"], loc="lower center", ncol=5,
               frameon=False, fontsize=9)
    fig.subplots_adjust(bottom=0.14)
    figs.append(Figure(f"{name}-cones", f"{label}: cones and neuron directions",
                       "Data (+ blue, - red), the sectors S+ (blue), S- (red), S_dead (grey, white = mixed patterns) and "
                       f"unit neuron directions w_j/||w_j|| at four times. {setting}.", _png(fig)))

    # 2. alignment, loss and stable rank
    xp, xm = X[y > 0].sum(axis=0), X[y < 0].sum(axis=0)
    fig, axes = plt.subplots(1, 4, figsize=(14, 3.3))
    tt = np.where(t > 0, t, np.nan)
    for ax, x, title in ((axes[0], xp, "cos(w_j, x+)"), (axes[1], xm, "cos(w_j, x-)")):
        c = _cos(U, x)
        for j in range(U.shape[1]):
            ax.plot(tt, c[:, j], color=POS if s[j] > 0 else NEG, ls="-" if s[j] > 0 else "--", lw=1.2)
        ax.set_xscale("log")
        ax.set_ylim(-1.05, 1.05)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("t (log scale)")
        ax.axvline(t_fall, color="#999", lw=0.8, ls=":")
    L = _loss(y, _outputs(X, U, r, s))
    axes[2].semilogy(t, L, color="#333")
    axes[2].set_title("loss L(t) (log scale)", fontsize=10)
    axes[2].set_xlabel("t")
    axes[3].plot(t, _stable_rank(U, r), color="#6a1b9a")
    axes[3].set_title("stable rank ||W||_F^2 / ||W||_2^2", fontsize=10)
    axes[3].set_xlabel("t")
    axes[3].axhline(2.0, color="#999", lw=0.8, ls=":")
    fig.tight_layout()
    figs.append(Figure(f"{name}-dynamics", f"{label}: alignment, loss and stable rank",
                       "Left: cosines of each neuron with x+ and x- (v_j > 0 solid blue, v_j < 0 dashed red; dotted line: "
                       f"loss onset). Right: the training loss and the stable rank. {setting}.", _png(fig)))

    # 3. activation-transition timeline
    fig, ax = plt.subplots(figsize=(10, 3.2))
    n = len(y)
    ev = [e for e in traj.events if e.kind in ("activate", "deactivate")]
    other = [e for e in traj.events if e.kind not in ("activate", "deactivate")]
    positive = [e.t for e in traj.events if e.t > 0]
    t_lo = min(min(positive) / 3.0, 1e-2 * t[-1]) if positive else 1e-3 * t[-1]
    for e in ev:
        ax.scatter([max(e.t, t_lo)], [e.j * n + e.i], marker="^" if e.kind == "activate" else "v",
                   color="#2e7d32" if e.kind == "activate" else "#c62828", s=36, zorder=3)
    for e in other:
        ax.scatter([max(e.t, t_lo)], [max(e.j, 0) * n + max(e.i, 0)], marker="x", color="#555", s=30)
    ax.set_yticks([j * n + (n - 1) / 2 for j in range(U.shape[1])])
    ax.set_yticklabels([f"neuron {j} ({'+' if s[j] > 0 else '-'})" for j in range(U.shape[1])], fontsize=8)
    for j in range(1, U.shape[1]):
        ax.axhline(j * n - 0.5, color="#e0e0e0", lw=0.8)
    ax.set_ylim(-0.5, U.shape[1] * n - 0.5)
    ax.set_xscale("log")
    ax.set_xlim(t_lo / 1.5, t[-1])
    ax.set_xlabel("t (log scale; events at t = 0 drawn at the left edge)")
    ax.scatter([], [], marker="^", color="#2e7d32", label="activate: <x_i, w_j> becomes > 0")
    ax.scatter([], [], marker="v", color="#c62828", label="deactivate")
    if other:
        ax.scatter([], [], marker="x", color="#555", label="sliding / grazing / dead")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    ax.set_title(f"activation transitions: {len(ev)} crossings (row = neuron j, offset = data index i)", fontsize=10)
    fig.tight_layout()
    figs.append(Figure(f"{name}-events", f"{label}: activation-transition timeline",
                       "Each marker is a crossing of the hyperplane <x_i, w_j> = 0 recorded by the event-driven engine "
                       f"(neuron j's band, data index i within the band). {setting}.", _png(fig)))
    return figs


REPRESENTATIVE = (("toy4", "toy4", {}, "#1565c0"),
                  ("orthsep", "orthogonally_separable", {"n_pos": 3, "n_neg": 3, "d": 2, "mu": 0.5, "seed": 0}, "#ef6c00"))
"""(key, ``gen:`` name, parameters, colour) of the representative runs; names not installed are skipped."""


def _representative_datasets() -> list[tuple[str, str, Any, str]]:
    """(key, title, dataset, colour) for each installed :data:`REPRESENTATIVE` entry."""
    from verify.data.generators import generators, make_dataset

    known = generators()
    out = []
    for key, name, params, col in REPRESENTATIVE:
        if name in known:
            title = f"{name}({', '.join(f'{k}={v}' for k, v in params.items())})" if params else name
            out.append((key, title, make_dataset(name, **params), col))
    return out


def _balancedness_figure(cases: list[tuple[str, str, Any, str]]) -> Figure:
    from verify import simulate
    from verify.model.init import balanced_init

    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for label, _, ds, col in cases:
        init = balanced_init(WIDTH, ds.d, eps=1e-2, seed=0)
        t_end = 2.0 * 2.0 * math.log(1e2) / np.linalg.norm(ds.X[ds.y > 0].sum(axis=0))
        times = np.linspace(0.0, t_end, 300)
        traj = simulate(ds, init.W, init.v, t_end, times=times, form="cartesian")
        W, v = np.asarray(traj.W, float), np.asarray(traj.v, float)
        c = v**2 - np.sum(W**2, axis=2)
        scale = np.maximum(v**2, np.sum(W**2, axis=2))
        drift = np.max(np.abs(c - c[0]) / scale, axis=1)
        ax.semilogy(traj.times, np.maximum(drift, 1e-18), color=col, label=f"{label} (max {drift.max():.1e})")
    ax.set_xlabel("t")
    ax.set_title("balancedness drift max_j |c_j(t) - c_j(0)| / max(v_j^2, ||w_j||^2)", fontsize=10)
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return Figure("balancedness", "Balancedness drift (Cartesian runs)",
                  "c_j = v_j^2 - ||w_j||^2 is conserved exactly by the flow; the plot shows the float64 drift "
                  f"of the Cartesian event-driven engine (rtol 1e-10), eps = 1e-2, h = {WIDTH}, exp loss.", _png(fig))


def representative_figures() -> list[Figure]:
    """The representative-run figures (one family per installed :data:`REPRESENTATIVE` dataset) and the
    balancedness drift."""
    cases = _representative_datasets()
    figs = [f for key, title, ds, _ in cases for f in _family_figures(key, title, ds)]
    figs.append(_balancedness_figure(cases))
    return figs


# ------------------------------------------------------------------------------- counterexamples


def counterexample_png(entry: dict[str, Any], samples: int = 240) -> bytes | None:
    """The re-simulated violating trajectory of a scenario counterexample (None: nothing to simulate).

    The violation is marked where the check's note states it (:func:`verify.report.evidence_text.violation_site`):
    the violating neuron j (or data/neuron pair (i, j)) drawn thick with the others grey, a red line and dot
    at the time of the violation, and a dashed line at the claim's horizon t_end (the time its bound names).
    A violation early in the run switches the time axis to a log scale so that it is visible."""
    from verify import simulate
    from verify.report.evidence_text import violation_site
    from verify.scenarios import Scenario

    cx = entry.get("counterexample") or {}
    if not cx.get("X"):
        return None
    t_end = float((cx.get("params") or {}).get("t_end") or 0.0)
    if not (math.isfinite(t_end) and t_end > 0):
        return None
    site = violation_site(cx)
    t_v = site.get("t") if 0.0 <= site.get("t", -1.0) <= t_end else None
    log_axis = t_v is not None and 0.0 < t_v < 0.05 * t_end
    sc = Scenario.from_dict(cx)
    init, ds = sc.init, sc.dataset
    grid = [np.linspace(0.0, t_end, samples)] + ([np.geomspace(t_end * 1e-4, t_end, samples)] if log_axis else [])
    times = np.unique(np.concatenate(grid + ([np.array([t_v])] if t_v is not None else [])))
    if init.balanced:
        traj = simulate(ds, init.W0, init.v0, t_end, loss=sc.loss, alpha=sc.alpha, times=times, log_eps=init.log_eps)
    else:
        traj = simulate(ds, init.W, init.v, t_end, loss=sc.loss, alpha=sc.alpha, times=times)
    plt = _plt()
    X = np.asarray(ds.X, float)
    t = np.asarray(traj.times, float)
    if traj.polar:
        U, r, s = _states(traj)
        pre, pre_label = np.einsum("khd,nd->khn", U, X), "<x_i, w_j(t)> / ||w_j(t)||"
        second, second_label = r, "log-norm r_j(t) = ln ||w_j(t)||"
    else:
        pre, pre_label = np.einsum("khd,nd->khn", np.asarray(traj.W, float), X), "<x_i, w_j(t)>"
        second, second_label = np.asarray(traj.v, float), "second layer v_j(t)"
    h, n = pre.shape[1], pre.shape[2]
    j_v, i_v = site.get("j"), site.get("i")
    j_v = j_v if j_v is not None and j_v < h else None
    i_v = i_v if i_v is not None and i_v < n else None
    with plt.rc_context({"font.size": 12, "axes.titlesize": 13, "axes.labelsize": 12, "legend.fontsize": 10,
                         "xtick.labelsize": 11, "ytick.labelsize": 11}):
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.3))
        cmap = plt.get_cmap("tab10")
        for j in range(h):
            for i in range(n):
                hot = j_v is not None and j == j_v and (i_v is None or i == i_v)
                style = dict(color=NEG if hot else (cmap((j * n + i) % 10) if j_v is None else "#9e9e9e"),
                             lw=2.8 if hot else (1.4 if j_v is None else 0.9), ls="-" if ds.y[i] > 0 else "--",
                             alpha=1.0 if hot or j_v is None else 0.6, zorder=3 if hot else 2)
                label = (f"violating: i={i} (y={int(ds.y[i]):+d}), j={j}" if hot
                         else (f"i={i} (y={int(ds.y[i]):+d}), j={j}" if j_v is None and h * n <= 8 else None))
                axes[0].plot(t, pre[:, j, i], label=label, **style)
            hot = j_v is not None and j == j_v
            axes[1].plot(t, second[:, j], color=NEG if hot else (cmap(j % 10) if j_v is None else "#9e9e9e"),
                         lw=2.8 if hot else 1.4, label=(f"violating neuron j={j}" if hot else (f"j={j}" if j_v is None and h <= 8 else None)))
        if j_v is not None:
            axes[0].plot([], [], color="#9e9e9e", lw=0.9, label="other pairs (grey)")
        for k, (ax, title) in enumerate(((axes[0], pre_label), (axes[1], second_label))):
            ax.axhline(0.0, color="#777", lw=0.8)
            ax.axvline(t_end, color="#333", lw=1.2, ls=":", label=f"claim's horizon t_end = {t_end:.4g}")
            if t_v is not None:
                ax.axvline(t_v, color=NEG, lw=1.6, ls="--", label=f"violation at t = {t_v:.4g}")
                if j_v is not None:
                    kv = int(np.argmin(np.abs(t - t_v)))
                    yv = pre[kv, j_v, i_v if i_v is not None else 0] if k == 0 else second[kv, j_v]
                    ax.plot([t[kv]], [yv], "o", ms=10, mfc="none", mec=NEG, mew=2.2, zorder=4)
            if log_axis:
                ax.set_xscale("log")
                ax.set_xlim(t_end * 1e-4, t_end * 1.02)
            ax.set_xlabel("t (log scale)" if log_axis else "t")
            ax.set_title(title)
            ax.legend(frameon=False, loc="best")
        note = str(cx.get("note") or "")
        fig.suptitle(f"{entry['id']}: {sc.loss} loss, {init.kind} init, ln eps = {init.log_eps:.3g}\n"
                     + (note if len(note) <= 120 else note[:117] + "..."), fontsize=12)
        fig.tight_layout()
        return _png(fig, CX_DPI)
