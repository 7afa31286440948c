"""Seed 000, Section 5.1 / Figure 1 (claim sheet 000 section 3.1): ``000-fig1-os`` (see :mod:`.experiments`)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from verify import simulate
from verify.data.dataset import Dataset
from verify.reproduce import Check, Figure, Outcome, Progress, png_bytes

from properties.phuong_lampert2021 import measures
from properties.phuong_lampert2021.training import BLUE, ORANGE, accuracy, fmt, sgd, torch_init, unit_rows

COS_HIGH = 0.9  # "above 0.9 for most neurons" (Fig. 1c)


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


def _cos_targets(W: np.ndarray, a: np.ndarray, plus: np.ndarray, minus: np.ndarray) -> np.ndarray:
    """cos(w_j, plus) for a_j > 0 and cos(w_j, minus) for a_j < 0 (0 for a zero row)."""
    T = np.where(a[:, None] > 0, unit_rows(plus)[None], unit_rows(minus)[None])
    return np.sum(unit_rows(W) * T, axis=1)


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
        "accuracy": accuracy(ds, W, a), "support": (len(rep.span_support_plus), len(rep.span_support_minus)),
        "span_rank": (rep.span_rank_plus, rep.span_rank_minus), "os": bool(rep.orthogonally_separable),
        "cos_m_w": (float(unit_rows(rep.m_plus) @ unit_rows(w_plus)), float(unit_rows(rep.m_minus) @ unit_rows(w_minus))),
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
            q = Vt[:2] @ unit_rows(np.asarray(vec))
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
          "seed 0 top 10: " + fmt(vals[0]["top10_singular_values"]) + "; sigma_3/sigma_1 per seed: "
          + fmt([v["sigma3_over_sigma1"] for v in vals]) + " (the rest stay at the init's scale: small, not zero)")
    check(f"(1b) projections on the top-2 singular directions lie along two rays split by sign(a_j) (per sign, >= 90% of "
          f"the projected ||W||_F^2 within cos {COS_HIGH} of the group's ray; rays >= 30 deg apart)",
          [v["ray_share_plus"] is not None and v["ray_share_minus"] is not None and min(v["ray_share_plus"], v["ray_share_minus"]) >= 0.9
           and v["ray_angle_deg"] >= 30.0 for v in vals],
          "share a>0 / a<0: " + "; ".join(f"{v['ray_share_plus']:.3f} / {v['ray_share_minus']:.3f}" for v in vals)
          + "; angle between the rays [deg]: " + fmt([v["ray_angle_deg"] for v in vals], 4))
    check(f"(1c) most neurons have cos(w_j, w_sign(a_j)) > {COS_HIGH} (paper: 'above 0.9 for most neurons')",
          [v["frac_cos_w_above_0.9"] > 0.5 for v in vals],
          "fraction > 0.9: " + fmt([v["frac_cos_w_above_0.9"] for v in vals]) + "; medians "
          + fmt([v["median_cos_w_sign"] for v in vals], 4) + " (sheet: 79%, median 0.946)")
    check("sheet 3.1: the cosine with the class centre m^_sign is higher still (median), so Fig. 1c cannot tell "
          "'converged to max margin' from 'sits at the early-phase extremal direction'",
          [v["median_cos_m_sign"] > v["median_cos_w_sign"] and v["median_cos_w_sign"] > COS_HIGH for v in vals],
          "median cos with m^ vs with w: " + "; ".join(f"{v['median_cos_m_sign']:.4f} vs {v['median_cos_w_sign']:.4f}" for v in vals)
          + " (sheet: 0.988 vs 0.946); fraction > 0.9 with m^: " + fmt([v["frac_cos_m_above_0.9"] for v in vals]))
    check("sheet 3.1: 100% training accuracy", [v["train_accuracy"] == 1.0 for v in vals],
          "accuracy " + fmt([v["train_accuracy"] for v in vals], 4))
    check("sheet 3.1 / PC4: second-layer signs flip under the unbalanced init", [v["sign_flips"] > 0 for v in vals],
          "flips out of 100: " + ", ".join(str(v["sign_flips"]) for v in vals) + " (sheet: 39/100)")
    check("sheet 1.6: H-SPAN violated on the paper's own data (fewer than d = 20 support vectors per class)",
          [max(r["span_rank"]) < r["ds"].d for r in runs],
          "support vectors (+, -): " + "; ".join(f"{v['support_vectors_plus_minus'][0]}, {v['support_vectors_plus_minus'][1]}"
                                                 for v in vals) + " (sheet: 5-8); cos(m, w) (+, -): "
          + "; ".join(fmt(v["cos_m_w_plus_minus"], 3) for v in vals) + " (sheet: 0.91-0.97)")

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
