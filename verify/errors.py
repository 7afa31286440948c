"""Typed exceptions: every user-facing failure is one of these, never a bare traceback."""


class VerifyError(Exception):
    """Base class of relu-verify's errors."""


class InputError(VerifyError, ValueError):
    """Bad user input: malformed data, wrong shapes, unreadable files, invalid options."""


class NumericalError(VerifyError, RuntimeError):
    """A numerical procedure failed (step size underflow, non-finite state, unresolvable event)."""
