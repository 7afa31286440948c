"""The phase diagram of a sweep: the claim's margin over two grid keys, one panel per value of the others.

Each cell is one grid point. Its colour is the smallest *decided* margin over the seeds with a valid
example: the margin where it is >= 0 (blue: holds), margin + error where it is below -error (red: violated
beyond the error estimate), 0 (white) where it lies within its error. Its text is the smallest raw margin
and how many seeds gave a valid example, or "VIOLATED" (a confirmed violation at some seed), "vacuous"
(every seed's hypotheses failed) or the failure status.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import Any

from verify.errors import InputError
from verify.scaleout.sweep import SweepStore

PHASE_PNG = "phase.png"


def _ordered(values: set[Any]) -> list[Any]:
    return sorted(values, key=lambda v: (0, v, "") if isinstance(v, (int, float)) else (1, 0, str(v)))


def decided(margin: float, error: float) -> float:
    """The margin beyond its error: itself when >= 0, margin + error when below -error, else 0."""
    if margin >= 0.0 or math.isnan(error):
        return margin
    return margin + error if margin < -error else 0.0


def _valid(row: dict[str, Any]) -> bool:
    return row["status"] in ("ok", "inconclusive") and row["margin"] is not None and not math.isnan(row["margin"])


def _cell(rows: list[dict[str, Any]]) -> tuple[float, str]:
    """(colour value or NaN, text) of one grid point's rows."""
    if not rows:
        return math.nan, "no data"
    valid = [r for r in rows if _valid(r)]
    colour = min((decided(r["margin"], r["error"]) for r in valid), default=math.nan)
    worst = min((r["margin"] for r in valid), default=math.nan)
    if any(r["violated"] for r in rows):
        return colour, f"VIOLATED\n{worst:.2g}"
    if valid:
        return colour, f"{worst:.2g}\n{len(valid)}/{len(rows)} seeds"
    if all(r["vacuous"] for r in rows):
        return math.nan, "vacuous"
    return math.nan, rows[0]["status"]


def phase_diagram(out: str | Path, path: str | Path | None = None) -> Path:
    """Draw ``out/phase.png`` (or ``path``) from the sweep stored in ``out``; returns the PNG's path."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.colors import TwoSlopeNorm

    out = Path(out)
    store = SweepStore(out)
    if not out.is_dir():
        raise InputError(f"--plot: {out} is not a directory")
    rows = list(store.load().values())
    if not rows:
        raise InputError(f"--plot: {out} holds no sweep results ({out / 'results.parquet'})")
    keys = list(store.keys or [])
    x_key, y_key, rest = keys[0], (keys[1] if len(keys) > 1 else None), keys[2:]
    xs = _ordered({r[x_key] for r in rows})
    ys = _ordered({r[y_key] for r in rows}) if y_key else [None]
    panels = list(itertools.product(*(_ordered({r[k] for r in rows}) for k in rest)))
    finite = [v for v in (decided(r["margin"], r["error"]) for r in rows if _valid(r)) if math.isfinite(v)]
    lo, hi = min(finite, default=-1.0), max(finite, default=1.0)
    scale = max(abs(lo), abs(hi), 1e-300)
    norm = TwoSlopeNorm(vcenter=0.0, vmin=min(lo, -1e-3 * scale), vmax=max(hi, 1e-3 * scale))
    cmap = plt.get_cmap("RdBu").with_extremes(bad="lightgrey")
    ncols = min(3, len(panels))
    nrows = math.ceil(len(panels) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(1.6 + 1.3 * len(xs) * ncols, 1.2 + 1.0 * len(ys) * nrows + 0.4),
                             squeeze=False, layout="constrained")
    image = None
    for ax, values in zip(axes.flat, panels):
        fixed = dict(zip(rest, values))
        grid = np.full((len(ys), len(xs)), np.nan)
        for (iy, yv), (ix, xv) in itertools.product(enumerate(ys), enumerate(xs)):
            cell = [r for r in rows if r[x_key] == xv and (y_key is None or r[y_key] == yv)
                    and all(r[k] == v for k, v in fixed.items())]
            value, text = _cell(cell)
            grid[iy, ix] = value
            ax.text(ix, iy, text, ha="center", va="center", fontsize=7,
                    color="darkred" if text.startswith("VIOLATED") else "black",
                    bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "alpha": 0.75, "linewidth": 0})
        image = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, norm=norm, origin="lower", aspect="auto")
        ax.set_xticks(range(len(xs)), [f"{v:g}" if isinstance(v, float) else str(v) for v in xs])
        ax.set_xlabel(x_key)
        if y_key:
            ax.set_yticks(range(len(ys)), [f"{v:g}" if isinstance(v, float) else str(v) for v in ys])
            ax.set_ylabel(y_key)
        else:
            ax.set_yticks([])
        if fixed:
            ax.set_title(", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in fixed.items()),
                         fontsize=9)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    if image is not None:
        fig.colorbar(image, ax=axes.ravel().tolist(), label="min margin beyond its error (0: within error)",
                     shrink=0.8)
    fig.suptitle(f"verify sweep {store.claim_id}: margin over {x_key}" + (f" x {y_key}" if y_key else ""), fontsize=10)
    target = Path(path) if path is not None else out / PHASE_PNG
    try:
        fig.savefig(target, dpi=110)
    except OSError as exc:
        raise InputError(f"cannot write {target} ({exc.strerror or exc})") from None
    finally:
        plt.close(fig)
    return target
