"""``verify audit DATA [--json PATH] [--init INIT.npz] [--eps EPS | --log-eps LOGEPS] [--alpha A]``.

Prints the seed-004 assumption audit (verify.audit) as tables: rich when installed, plain
aligned text otherwise; both read well when piped. Exit 0 whatever the assumptions say;
bad input exits 2 with one line on stderr (verify.cli.main).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from verify.audit import Audit, audit
from verify.data.loaders import load_dataset, load_npz_arrays
from verify.cli.outputs import output_file, write_text
from verify.errors import InputError

Row = list[str]


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "audit",
        help="check seed 004's assumptions and constants on a dataset (and an init)",
        description=(
            "Audit a dataset for seed 004 (Min, Mallada & Vidal): mu, orthogonal separability, "
            "zeta1, xi, t1; with --init also zeta2, T(eps), eq. (28)'s eps bound under both readings "
            "(errata R8, R9), t2. DATA is .npz (X, y) or .csv (label last)."
        ),
    )
    p.add_argument("data", metavar="DATA", help="dataset: .npz with X (n, d), y (n,) or .csv with the label last")
    p.add_argument("--json", metavar="PATH", help="also write the audit as JSON to PATH")
    p.add_argument("--init", metavar="INIT.npz", help="initial weights: .npz with W (h, d) and v (h,)")
    scale = p.add_mutually_exclusive_group()
    scale.add_argument("--eps", type=float, metavar="EPS",
                       help="init scale: weights are EPS * (W, v); without --eps/--log-eps W, v are the actual weights")
    scale.add_argument("--log-eps", type=float, metavar="LOGEPS", help="natural log of the init scale (for eps below 1e-308)")
    p.add_argument("--alpha", type=float, default=0.0, metavar="A", help="leaky-ReLU slope in [0, 1] (default 0: ReLU)")
    p.set_defaults(func=run)


def _load_init(path: str) -> tuple[Any, Any]:
    arrays = load_npz_arrays(path, ("W", "v"))
    return arrays["W"], arrays["v"]


def run(args: argparse.Namespace) -> int:
    if (args.eps is not None or args.log_eps is not None) and args.init is None:
        raise InputError("--eps/--log-eps need --init INIT.npz")
    if args.eps is not None and not (math.isfinite(args.eps) and args.eps > 0.0):
        raise InputError(f"--eps must be a positive finite number, got {args.eps!r}")
    if args.log_eps is not None and not math.isfinite(args.log_eps):
        raise InputError(f"--log-eps must be finite, got {args.log_eps!r}")
    if not (math.isfinite(args.alpha) and 0.0 <= args.alpha <= 1.0):
        raise InputError(f"--alpha must be in [0, 1], got {args.alpha!r}")
    dataset = load_dataset(args.data)
    json_path = output_file(args.json, "--json") if args.json else None
    if args.init is None:
        result = audit(dataset, alpha=args.alpha)
    else:
        W, v = _load_init(args.init)
        try:
            result = audit(dataset, W, v, eps=args.eps, log_eps=args.log_eps, alpha=args.alpha)
        except InputError as exc:
            raise InputError(f"{args.init}: {exc}") from None
    if json_path is not None:
        write_text(json_path, json.dumps(result.to_dict(), indent=2, allow_nan=False) + "\n", "--json")
    print_audit(result, Path(args.data).name)
    return 0




def num(x: Any) -> str:
    """Short display of a number, bool or None."""
    if x is None:
        return "n/a"
    if isinstance(x, bool):
        return "yes" if x else "NO"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return f"{x:.6g}"
    return str(x)


def pow10(log_e: float | None) -> str:
    """exp(log_e) written as 10^k (exact for any magnitude)."""
    if log_e is None:
        return "n/a"
    if not math.isfinite(log_e):
        return "0" if log_e < 0 else "inf"
    return f"10^{log_e / math.log(10.0):.6g}"


def _short(text: str | None, width: int = 60) -> str:
    if text is None:
        return "n/a"
    return text if len(text) <= width else text[: width - 3] + "..."


def data_rows(a: Audit) -> list[Row]:
    sign_note = "exact (rational)" if a.sign_structure_exact else "float64"
    rows = [
        ["n (n+ / n-)", f"{a.n} ({a.n_pos} / {a.n_neg})", "" if a.both_classes else "single class"],
        ["d", num(a.d), ""],
        ["X_min, X_max", f"{num(a.X_min)}, {num(a.X_max)}", ""],
        ["mu", num(a.mu), f"exact: {_short(a.mu_exact)}" if a.mu_exact else "float64"],
        ["orthogonally separable (000)", num(a.orthogonally_separable), sign_note],
        ["Assumption 1, mu > 0 (004)", num(a.assumption1), sign_note],
        ["near-zero pairs (sign could flip)", num(len(a.near_zero_pairs)), _short(str(a.near_zero_pairs[:6])) if a.near_zero_pairs else ""],
        ["exact vs float sign disagreements", num(len(a.sign_disagreements)), _short(a.exact_note)],
        ["zeta1_sup (Lemma 8)", num(a.zeta1_sup), a.na.get("zeta1", "")],
        ["zeta1 (valid, just below sup)", num(a.zeta1), ""],
        ["xi = mu^2 (Lemma 9)", num(a.xi), ""],
        ["m = min(zeta, xi)", num(a.m), f"binding: {a.m_binding}"],
        ["t1 = 16 ln n/(m sqrt(mu) X_min)", num(a.t1), a.na.get("t1", a.t1_reading)],
        ["T(P_max) (R13)", num(a.T_Pmax), a.na.get("T_Pmax", "")],
        ["dead-path bound 4 H_n/(m sqrt(mu) X_min)", num(a.t1_dead_path), ""],
        ["Delta t(1) = 4/(m sqrt(mu) X_min)", num(a.delta_t(1)), "Delta t(n_a) = Delta t(1)/n_a"],
        ["alpha = (mu X_min)^2/(32 X_max) (R19)", num(a.alpha_rate), a.na.get("alpha_rate", "")],
    ]
    return rows


def init_rows(a: Audit) -> list[Row]:
    scale_note = "split from the given weights (base W_max = 1)" if a.eps_from_weights else "given"
    return [
        ["h (V+ / V-)", f"{a.h} ({a.n_vpos} / {a.n_vneg})", f"{a.h_dropped} zero neuron(s) dropped" if a.h_dropped else ""],
        ["eps", pow10(a.log_eps), scale_note],
        ["W_max, W_min", f"{num(a.W_max)}, {num(a.W_min)}", ""],
        ["balanced", num(a.balanced), f"max rel. imbalance {num(a.imbalance)}"],
        ["c_star (Assumption 2: < 1)", num(a.c_star), ""],
        ["zeta2 (eq. 26)", num(a.zeta2), ""],
        ["zeta = min / max{zeta1, zeta2} (R8)", f"{num(a.zeta_min)} / {num(a.zeta_max)}", "min is the corrected reading"],
        ["m (min / max reading)", f"{num(a.m_min)} / {num(a.m_max)}", ""],
        ["t1 (min / max reading)", f"{num(a.t1_min)} / {num(a.t1_max)}", ""],
        ["T(eps) (Lemmas 1, 3)", num(a.T_eps), "vacuous if < 0"],
        ["eps_L3 (Lemma 3)", pow10(a.log_eps_L3), ""],
        ["eps1, c = 4 printed / c = 8 (R9)", f"{pow10(a.log_eps1_printed)} / {pow10(a.log_eps1)}", ""],
        ["eps2 (T(eps) >= t1)", pow10(a.log_eps2), ""],
        ["eps_required (min, c = 8)", pow10(a.log_eps_required), a.na.get("eps_required", f"float: {num(a.eps_required)}")],
        ["eps_required as printed (max, c = 4)", pow10(a.log_eps_required_printed), ""],
        ["eps satisfies (28): corrected / printed", f"{num(a.eps_satisfies)} / {num(a.eps_satisfies_printed)}", ""],
        ["t2 bound (39, R17)", num(a.t2), a.na.get("t2", f"t2+ {num(a.t2_plus)}, t2- {num(a.t2_minus)}")],
    ]


def assumption_rows(a: Audit) -> list[Row]:
    rows = []
    for f in a.assumptions:
        status = "n/a" if f.holds is None else ("holds" if f.holds else "FAILS")
        rows.append([f.name, status, num(f.value), f"{f.relation} {num(f.threshold)}", num(f.margin), f.source])
    return rows


def errata_rows(a: Audit) -> list[Row]:
    return [[e.id, "applies" if e.applies else "-", e.title, e.detail] for e in a.errata]


def summary_lines(a: Audit) -> list[str]:
    failed = a.failed
    if not failed:
        return ["All checked assumptions hold."]
    lines = [f"{len(failed)} assumption(s) FAIL:"]
    for f in failed:
        lines.append(f"  - {f.name}: value {num(f.value)}, needs {f.relation} {num(f.threshold)} (short by {num(-f.margin if f.margin is not None else None)}) [{f.source}]")
    return lines


SECTIONS = (
    ("Data geometry (seed 004 sections 1.8-1.10)", ["quantity", "value", "note"], data_rows),
    ("Initialisation", ["quantity", "value", "note"], init_rows),
    ("Assumptions", ["condition", "status", "value", "needs", "margin", "source"], assumption_rows),
    ("Errata", ["id", "status", "issue", "effect here"], errata_rows),
)


def print_audit(a: Audit, label: str) -> None:
    """Print the audit tables (rich if importable, else plain text) and the failure summary."""
    header = f"verify audit: {label} (n = {a.n}, d = {a.d})"
    sections = [(t, h, fn(a)) for t, h, fn in SECTIONS if fn is not init_rows or a.has_init]
    try:
        _print_rich(header, sections, summary_lines(a))
    except ImportError:
        _print_plain(header, sections, summary_lines(a))


def _print_rich(header: str, sections: list[tuple[str, list[str], list[Row]]], summary: list[str]) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    tty = sys.stdout.isatty()
    console = Console(highlight=False, width=None if tty else 160, soft_wrap=False)
    console.print(Text(header))
    for title, head, rows in sections:
        table = Table(title=title, box=box.SIMPLE if tty else box.ASCII, title_justify="left")
        for col in head:
            table.add_column(col, overflow="fold")
        for row in rows:
            table.add_row(*(Text(cell) for cell in row), style="bold red" if "FAILS" in row else None)
        console.print(table)
    for line in summary:
        console.print(Text(line))


def _print_plain(header: str, sections: list[tuple[str, list[str], list[Row]]], summary: list[str]) -> None:
    out = [header]
    for title, head, rows in sections:
        widths = [max(len(r[k]) for r in [head, *rows]) for k in range(len(head))]
        out += ["", title, "  ".join(h.ljust(w) for h, w in zip(head, widths)), "  ".join("-" * w for w in widths)]
        out += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    out += [""] + summary
    print("\n".join(out))
