"""Command-line interface: ``verify <subcommand>``; see ``verify --help``.

``main`` is imported lazily so that ``python -m verify.cli.main`` does not import the module twice.
"""

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "main":
        from verify.cli.main import main

        return main
    raise AttributeError(name)


__all__ = ["main"]
