"""Command-line interface: ``verify <subcommand>`` (entry point ``verify.cli.main:main``)."""
