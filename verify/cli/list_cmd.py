"""``verify list [--paper ID ...]``: the catalogue, one claim per line (id, source, expected verdict)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("list", help="list the claim catalogue",
                       description="List every claim of the installed papers: id, source, expected verdict.")
    p.add_argument("--paper", action="append", metavar="ID", help="only this paper's claims (repeatable)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from verify.claims import catalogue

    claims = catalogue(args.paper)
    if not claims:
        return 0
    width = max(len(c.id) for c in claims)
    src = max(len(c.source) for c in claims)
    for c in claims:
        print(f"{c.id:<{width}}  {c.source:<{src}}  {c.expected}")
    return 0
