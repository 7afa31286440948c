"""Conversion of user numbers (float64, int, mpmath, decimal strings, Decimal, Fraction) to mpf.

Floats and ints convert exactly (mpf(float) is exact at any precision >= 53 bits); decimal
strings and Decimals are rounded once to the current mpmath precision; anything else, or a
non-finite value, raises :class:`InputError`.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from verify.errors import InputError


def to_mpf(x: Any, what: str = "value") -> mpmath.mpf:
    if isinstance(x, (bool, np.bool_)):
        raise InputError(f"{what}: booleans are not numbers ({x!r})")
    if isinstance(x, mpmath.mpf):
        out = x  # keep the exact value (unary + would round it to the working precision)
    elif isinstance(x, (int, np.integer)):
        out = mpmath.mpf(int(x))
    elif isinstance(x, (float, np.floating)):
        out = mpmath.mpf(float(x))
    elif isinstance(x, (str, np.str_)):
        try:
            out = mpmath.mpf(str(x).strip().replace("_", ""))
        except (ValueError, TypeError):
            raise InputError(f"{what}: {x!r} is not a decimal number") from None
    elif isinstance(x, Decimal):
        out = mpmath.mpf(str(x))
    elif isinstance(x, Fraction):
        out = mpmath.mpf(x.numerator) / x.denominator
    else:
        raise InputError(f"{what}: cannot use {type(x).__name__} {x!r} as a number (float, int, mpmath.mpf or decimal string)")
    if not mpmath.isfinite(out):
        raise InputError(f"{what}: must be finite, got {x!r}")
    return out


def to_mp_array(a: Any, ndim: int, what: str) -> tuple[list, tuple]:
    """Nested lists of mpf from an array-like of numbers/strings; returns (nested list, shape)."""
    try:
        arr = np.array(a, dtype=object)
    except (ValueError, TypeError) as exc:
        raise InputError(f"{what}: not a rectangular array ({exc})") from None
    if arr.ndim != ndim:
        raise InputError(f"{what} must have {ndim} dimension(s), got shape {arr.shape}")
    if arr.size == 0:
        raise InputError(f"{what} is empty")
    flat = [to_mpf(x, what) for x in arr.reshape(-1)]
    if ndim == 1:
        return flat, arr.shape
    rows, cols = arr.shape
    return [flat[r * cols : (r + 1) * cols] for r in range(rows)], arr.shape
