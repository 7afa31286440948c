"""Seed 003's substitute experiment E1 (claim sheet 003 section 3.4; Theorem 4.2, C-T4.2): ``003-e1-global-margin``.

On symmetric separable data (D-SYM and seeded :func:`datasets.random_symmetric`) and leaky slopes alpha, every network
has gamma(theta) <= ((1+alpha)/4) gamma_lin; the optimum at width m >= 2 equals it (SLSQP on (P), the infinite-width
LP bracket, the maximiser linear with corollary (c)'s structure) and one neuron reaches (alpha/2) gamma_lin. Each
outcome is decided by the catalogue's own checks (:func:`theorem42.symmetric_bound`, LY-T42-bound;
:func:`theorem42.closed_form_optimum`, LY-T42-optimum and LY-T42-b-m1), read with :mod:`.reading`; the planted S-10
(the non-symmetric D-S, A4.1 dropped) must break the bound. The figure re-reads the same cached optimisers.
"""

from __future__ import annotations

import numpy as np

from verify.data.dataset import Dataset
from verify.reproduce import Check, Figure, Outcome, Progress, png_bytes
from verify.strategies import GeometryCase

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import max_margin as MM
from properties.lyu2021_margin import single_direction as SD
from properties.lyu2021_margin.margin_runs import _plt
from properties.lyu2021_margin.network import normalised_margin
from properties.lyu2021_margin.reading import holds, refutes, short
from properties.lyu2021_margin.theorem42 import COEF, closed_form_optimum, symmetric_bound

RANDOM_PER_WIDTH = 40  # random theta per width in the figure (the bound's own witnesses are the check's)


def _datasets(quick: bool) -> list[tuple[Dataset, dict]]:
    """D-SYM and seeded random symmetric data (n_half, d, seed)."""
    shapes = ((3, 2, 1),) if quick else ((2, 2, 1), (3, 3, 2), (4, 2, 3), (5, 3, 4))
    return [(D.d_sym(), {"data": "d_sym"})] + [
        (D.random_symmetric(n_half, d, seed=seed), {"data": "random_symmetric", "n_half": n_half, "d": d, "seed": seed})
        for n_half, d, seed in shapes]


def e1_global_margin(quick: bool, progress: Progress) -> Outcome:
    """E1: the bound gamma <= ((1+alpha)/4) gamma_lin, the optimum per width, and the planted non-symmetric D-S."""
    alphas, widths = ((0.5,), (1, 2, 3)) if quick else ((0.1, 0.5, 0.9), (1, 2, 3, 5))
    rows = []
    for ds, params in _datasets(quick):
        for alpha in alphas:
            progress(f"{ds.name}, alpha = {alpha:g}")
            bound = symmetric_bound(GeometryCase(ds, 0, {**params, "alpha": alpha, "m": 2}))
            optima = {m: closed_form_optimum(GeometryCase(ds, 0, {**params, "alpha": alpha, "m": m,
                                                                   "value": "alpha/2" if m == 1 else "(1+alpha)/4"}))
                      for m in widths}
            rows.append({"data": ds.name, "alpha": alpha, "bound": bound, "optima": optima, "dataset": ds})
    planted = symmetric_bound(GeometryCase(D.d_s(), 0, {"data": "d_s", "alpha": 0.5, "m": 2, "drops": "A4.1"}))
    checks = [
        Check("every theta has gamma(theta) <= ((1+alpha)/4) gamma_lin on symmetric data (random theta of widths 1-6, "
              "the SLSQP optimum and the LP net as witnesses; LY-T42-bound's check)",
              all(holds(r["bound"]) for r in rows),
              "; ".join(f"{r['data']} alpha {r['alpha']:g}: largest / bound {r['bound'].ratio:.10f}" for r in rows)),
        Check("the optimum at width m >= 2 equals ((1+alpha)/4) gamma_lin (SLSQP reaches it, the LP dual certifies it, "
              "within 1e-5) and the maximiser is linear with corollary (c)'s structure (LY-T42-optimum's check)",
              all(holds(q) for r in rows for m, q in r["optima"].items() if m >= 2),
              "; ".join(f"{r['data']} alpha {r['alpha']:g} m {m}: {'ok' if holds(q) else short(q)}"
                        for r in rows for m, q in r["optima"].items() if m >= 2)),
        Check("one neuron (m = 1) reaches exactly (alpha/2) gamma_lin, certified by the one-neuron bound (LY-T42-b-m1)",
              all(holds(r["optima"][1]) for r in rows),
              "; ".join(f"{r['data']} alpha {r['alpha']:g}: {'ok' if holds(r['optima'][1]) else short(r['optima'][1])}"
                        for r in rows)),
        Check("planted S-10: on the non-symmetric D-S the same bound fails (A4.1 dropped; found by optimisation)",
              refutes(planted), short(planted)),
    ]
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(12.5, 4))
    rng = np.random.default_rng(0)
    for k, r in enumerate(row for row in rows if row["alpha"] == 0.5):
        ds, (_, hi, _) = r["dataset"], MM.linear_bracket(r["dataset"])
        reference = COEF["(1+alpha)/4"](0.5) * hi
        for m in range(1, 7):
            ratios = [normalised_margin(ds.X, ds.y, rng.standard_normal((m, ds.d)), rng.standard_normal(m), 0.5)
                      / reference for _ in range(RANDOM_PER_WIDTH)]
            axes[0].scatter(np.full(len(ratios), m + 0.12 * (k - 1)), ratios, s=4, alpha=0.4,
                            color=f"C{k}", label=r["data"] if m == 1 else None)
        best = [MM.fixed_width(ds, 0.5, m).gamma / reference for m in widths]
        axes[1].plot(widths, best, marker="o", color=f"C{k}", label=r["data"])
    for ax in axes:
        ax.axhline(1.0, color="gray", ls="--", lw=0.8)
        ax.axhline(2 * 0.5 / 1.5, color="gray", ls=":", lw=0.8)
    ds_s = D.d_s()
    axes[1].plot(widths, [MM.fixed_width(ds_s, 0.5, m).gamma / (COEF["(1+alpha)/4"](0.5) * MM.linear_bracket(ds_s)[1])
                          for m in widths], marker="x", color="k", ls="-.", label="D-S (planted S-10)")
    lp = MM.global_margin(D.d_sym(), 0.5)
    axes[1].text(widths[0], 1.01, f"1 = ((1+alpha)/4) gamma_lin (D-SYM LP [{lp.lower:.6f}, {lp.upper:.6f}])", fontsize=7)
    axes[0].set(xlabel="width m of random theta", ylabel="gamma(theta) / ((1+alpha)/4 gamma_lin)",
                ylim=(-3.0, 1.15), title="003 E1 (Thm 4.2): random theta below 1, alpha = 1/2")
    axes[1].set(xlabel="width m", ylabel="max gamma (SLSQP) / ((1+alpha)/4 gamma_lin)",
                title="003 E1: optimum per width (dotted: alpha/2 gamma_lin)")
    axes[0].legend(fontsize=6, markerscale=3)
    axes[1].legend(fontsize=6)
    return Outcome(f"D-SYM and seeded random symmetric separable data ({len(rows) // len(alphas)} datasets), alpha in "
                   f"{alphas}, widths {widths}; the non-symmetric D-S as planted S-10",
                   checks, [Figure("e1_global_margin", "003 E1 global max margin", png_bytes(fig))],
                   ["Static: no gradient flow. Closed forms ((1+alpha)/4) gamma_lin (m >= 2) and (alpha/2) gamma_lin "
                    "(m = 1) from C-T4.2 (a)-(b); every check is the catalogue claim's own check function."],
                   {"rows": [{"data": r["data"], "alpha": r["alpha"], "bound_ratio": r["bound"].ratio,
                              "optima": {str(m): q.value for m, q in r["optima"].items()}} for r in rows],
                    "planted_d_s": planted.note, "single_neuron_d_sym": SD.single_neuron(D.d_sym(), 0.5).lower})
