"""A stop request (Ctrl-C, SIGTERM) that is never lost.

The signal handler of a long run calls :func:`request` and raises KeyboardInterrupt. Python ignores an
exception raised while a garbage-collector callback runs ("Exception ignored in ..."), so the loops that
do the work also call :func:`raise_if_requested` between units of work (the search, before every example).
"""

from __future__ import annotations

_requested = False


def request() -> None:
    """Record a stop request."""
    global _requested
    _requested = True


def clear() -> None:
    """Forget a stop request (a new run starts)."""
    global _requested
    _requested = False


def requested() -> bool:
    return _requested


def raise_if_requested() -> None:
    """KeyboardInterrupt if a stop was requested."""
    if _requested:
        raise KeyboardInterrupt
