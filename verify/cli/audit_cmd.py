"""``verify audit DATA [--json PATH] [--init INIT.npz] [--eps EPS | --log-eps LOGEPS] [--alpha A]``.

Prints the audit (verify.audit: the data geometry and every installed paper's quantities) as tables: rich when installed, plain
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

from verify.audit import Audit, audit, fmt_num as num, fmt_pow10 as pow10
from verify.data.loaders import load_dataset, load_npz_arrays
from verify.cli.outputs import output_file, write_text
from verify.errors import InputError

Row = list[str]


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "audit",
        help="check the installed papers' assumptions and constants on a dataset (and an init)",
        description=(
            "Audit a dataset: its geometry (mu, orthogonal separability, norms, class cones) and, for every "
            "installed paper, its quantities, assumptions and errata (with --init also the init-dependent "
            "ones). DATA is .npz (X, y) or .csv (label last)."
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




def _short(text: str | None, width: int = 60) -> str:
    if text is None:
        return "n/a"
    return text if len(text) <= width else text[: width - 3] + "..."


def data_rows(a: Audit) -> list[Row]:
    sign_note = "exact (rational)" if a.sign_structure_exact else "float64"
    return [
        ["n (n+ / n-)", f"{a.n} ({a.n_pos} / {a.n_neg})", "" if a.both_classes else "single class"],
        ["d", num(a.d), ""],
        ["X_min, X_max", f"{num(a.X_min)}, {num(a.X_max)}", ""],
        ["mu = min cos(y_i x_i, y_j x_j)", num(a.mu), f"exact: {_short(a.mu_exact)}" if a.mu_exact else "float64"],
        ["orthogonally separable", num(a.orthogonally_separable), sign_note],
        ["near-zero pairs (sign could flip)", num(len(a.near_zero_pairs)), _short(str(a.near_zero_pairs[:6])) if a.near_zero_pairs else ""],
        ["exact vs float sign disagreements", num(len(a.sign_disagreements)), _short(a.exact_note)],
        ["rho+ / rho- (class cones)", f"{num(a.rho_plus)} / {num(a.rho_minus)}", ""],
        ["linearly separable (through 0)", num(a.linearly_separable), _short(a.max_margin.svm.reason) if not a.linearly_separable
         else f"KKT residual {num(a.max_margin.svm.kkt_residual)}, support {_short(str(a.max_margin.svm.support))}"],
        ["gamma_lin = 1/||w_svm||", num(a.gamma_lin), ""],
        ["1/||w_plus||, 1/||w_minus||", f"{num(a.max_margin.plus.inverse_norm)}, {num(a.max_margin.minus.inverse_norm)}",
         "min-norm points of <w, x_i> >= 1 over each class"],
    ]


def init_rows(a: Audit) -> list[Row]:
    scale_note = "split from the given weights (base W_max = 1)" if a.eps_from_weights else "given"
    return [
        ["h (V+ / V-)", f"{a.h} ({a.n_vpos} / {a.n_vneg})", f"{a.h_dropped} zero neuron(s) dropped" if a.h_dropped else ""],
        ["eps", pow10(a.log_eps), scale_note],
        ["W_max, W_min", f"{num(a.W_max)}, {num(a.W_min)}", ""],
        ["balanced", num(a.balanced), f"max rel. imbalance {num(a.imbalance)}"],
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


QUANTITY = ["quantity", "value", "note"]


def audit_sections(a: Audit) -> list[tuple[str, list[str], list[Row]]]:
    """(title, header, rows) per table: the data geometry, each paper's quantities, the initialisation
    (generic, then each paper's), the assumptions and the errata."""
    sections = [("Data geometry", QUANTITY, data_rows(a))]
    sections += [(f"Paper {pid}", QUANTITY, [list(r) for r in part.rows]) for pid, part in a.papers.items() if part.rows]
    if a.has_init:
        sections.append(("Initialisation", QUANTITY, init_rows(a)))
        sections += [(f"Paper {pid}: initialisation", QUANTITY, [list(r) for r in part.init_rows])
                     for pid, part in a.papers.items() if part.init_rows]
    sections += [("Assumptions", ["condition", "status", "value", "needs", "margin", "source"], assumption_rows(a)),
                 ("Errata", ["id", "status", "issue", "effect here"], errata_rows(a))]
    return sections


def print_audit(a: Audit, label: str) -> None:
    """Print the audit tables (rich if importable, else plain text) and the failure summary."""
    header = f"verify audit: {label} (n = {a.n}, d = {a.d})"
    sections = audit_sections(a)
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
