"""Entry point and error policy of the ``verify`` command.

Every subcommand lives in its own module exposing ``register(subparsers)``; the parser calls
``args.func(args) -> int``. Bad input exits 2 with one line on stderr; a ``verify simulate`` run
that cannot be completed numerically (:class:`NumericalError`) exits 3 (elsewhere a NumericalError
that escapes is an engine failure: ``search`` and ``check`` turn numerical runs into verdicts); an
engine failure exits 4 with one line; Ctrl-C exits 130; ``verify`` without a command is a usage
error (exit 2); no path prints a traceback unless ``VERIFY_DEBUG=1``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import shlex
import sys
from typing import Sequence

from verify.errors import InputError, NumericalError, VerifyError

SUBCOMMANDS = ("audit", "simulate", "list", "check", "search", "report", "reproduce", "sweep")
EXIT_INPUT = 2
EXIT_NUMERICAL = 3
EXIT_FAILED = 4


# A negative number (or a comma-separated list starting with one) as an option's value
# (``--log-eps -1e4``, ``--times -1,2``): argparse's own matcher knows no exponents, so ``-1e4``
# would be taken for an option; no option of ``verify`` looks like a number. ``-inf`` and ``-nan``
# are values too, refused by the option's own validation.
_NUMBER = r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|[-+]?(inf|infinity|nan)"
NEGATIVE_NUMBER = re.compile(rf"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?(\s*,\s*({_NUMBER}))*$|^-(inf|infinity|nan)$", re.IGNORECASE)


class OneLineParser(argparse.ArgumentParser):
    """argparse with a one-line error message and exit code 2; negative numbers with exponents
    (``-1e4``, ``-2.5E-3``) and number lists (``-1,2``) are values, not options."""

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003 - argparse's own signature
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = NEGATIVE_NUMBER

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
    command = None
    try:
        parser = build_parser()
        words = list(sys.argv[1:] if argv is None else argv)
        args = parser.parse_args(words)
        args.command_line = "verify " + shlex.join(words)  # what a report records to regenerate itself
        command = getattr(args, "command", None)
        if not command:
            return fail(f"a command is required: verify {{{','.join(SUBCOMMANDS)}}} ... (see 'verify --help')", EXIT_INPUT)
        return int(args.func(args))
    except InputError as exc:
        if debug:
            raise
        return fail(str(exc), EXIT_INPUT)
    except NumericalError as exc:  # verify simulate: the run could not be completed numerically
        if debug:
            raise
        if command == "simulate":
            return fail(f"numerical failure: {exc}", EXIT_NUMERICAL)
        return fail(f"NumericalError: {exc}", EXIT_FAILED)
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
