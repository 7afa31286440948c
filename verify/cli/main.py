"""Entry point and error policy of the ``verify`` command.

Every subcommand lives in its own module exposing ``register(subparsers)``; the parser calls
``args.func(args) -> int``. Bad input exits 2 with one line on stderr; an engine failure
exits 4 with one line; no path prints a traceback unless ``VERIFY_DEBUG=1``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Sequence

from verify.errors import InputError, VerifyError

SUBCOMMANDS = ("audit", "simulate", "list", "check", "search", "report")
EXIT_INPUT = 2
EXIT_FAILED = 4


class OneLineParser(argparse.ArgumentParser):
    """argparse with a one-line error message and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise InputError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    from verify import __version__

    parser = OneLineParser(prog="verify", description="Check gradient-flow theorems on two-layer ReLU networks.")
    parser.add_argument("--version", action="version", version=f"relu-verify {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    for name in SUBCOMMANDS:
        importlib.import_module(f"verify.cli.{name}_cmd").register(sub)
    return parser


def fail(message: str, code: int = EXIT_INPUT) -> int:
    print(f"verify: error: {message}".splitlines()[0], file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    debug = os.environ.get("VERIFY_DEBUG") == "1"
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "command", None):
            parser.print_help()
            return 0
        return int(args.func(args))
    except InputError as exc:
        if debug:
            raise
        return fail(str(exc), EXIT_INPUT)
    except VerifyError as exc:
        if debug:
            raise
        return fail(f"{type(exc).__name__}: {exc}", EXIT_FAILED)
    except KeyboardInterrupt:
        return fail("interrupted", 130)
    except Exception as exc:  # the engine itself failed: one line, exit 4
        if debug:
            raise
        return fail(f"internal error ({type(exc).__name__}: {exc}); rerun with VERIFY_DEBUG=1 for a traceback", EXIT_FAILED)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
