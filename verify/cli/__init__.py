"""Command-line interface: ``verify <subcommand>``; see ``verify --help``."""

from verify.cli.main import main

__all__ = ["main"]
