"""Conversion of results to JSON-ready values (one convention for every document the tool writes).

Non-finite floats become the strings "nan", "inf", "-inf" (JSON has no such numbers); numpy
scalars and arrays become Python numbers and lists; Fractions and mpmath numbers become exact
decimal/rational strings; dataclasses and objects with ``to_dict`` become dicts.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any

import numpy as np


def jsonable(obj: Any) -> Any:
    """A JSON-serialisable copy of ``obj``; raises TypeError for anything it cannot represent."""
    if obj is None or isinstance(obj, str):
        return obj
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        value = float(obj)
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(obj, Fraction):
        return str(obj)
    if isinstance(obj, np.ndarray):
        return [jsonable(v) for v in obj.tolist()]
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if hasattr(obj, "to_dict"):
        return jsonable(obj.to_dict())
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if type(obj).__module__.startswith("mpmath"):
        return str(obj)
    raise TypeError(f"cannot serialise {type(obj).__name__}")
