"""JSON I/O for mp-backend trajectories, numbers as decimal strings at full precision.

Every mpf is written with enough significant digits to round-trip its binary value exactly
(``mpmath.libmp.repr_dps`` of its precision, the digits ``repr`` uses), so
``read_json(write_json(traj))`` gives back the same mpf values (parsed at that precision).
Floats (``times``, ``balancedness_drift``, ``error_estimate``) are written with ``repr``
(exact round trip too); event times are strings.

Layout: ``{"format": "relu-verify/mp-trajectory", "version": 1, "backend": "mp",
"dps": int, "digits": int, "prec": int (bits; values are parsed back at this precision), "times": [float], "W": [[[str]]], "v": [[str]], "r", "U"
(polar only), "log_eps": str | null, "events": [{"t": str, "i", "j", "kind", "direction"}],
"balancedness_drift", "error_estimate", "stats", "params"}``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import mpmath
import numpy as np

from verify.errors import InputError
from verify.trajectory import Event, Trajectory

FORMAT = "relu-verify/mp-trajectory"


def _bits(x: Any) -> int:
    if isinstance(x, mpmath.mpf):
        man = x._mpf_[1]
        return max(53, int(man).bit_length())
    return 53


def _prec_of(traj: Trajectory) -> int:
    bits = 53
    for arr in (traj.W, traj.v, traj.r, traj.U):
        if arr is not None:
            for x in np.asarray(arr, dtype=object).reshape(-1):
                bits = max(bits, _bits(x))
    for e in traj.events:
        bits = max(bits, _bits(e.t))
    work = traj.stats.get("work_dps")
    if isinstance(work, int):
        bits = max(bits, mpmath.libmp.dps_to_prec(work))
    return bits


def _num_str(x: Any, digits: int) -> str:
    if isinstance(x, mpmath.mpf):
        return mpmath.libmp.to_str(x._mpf_, digits)
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return str(int(x))
    return repr(float(x))


def _nested(arr: Any, digits: int) -> Any:
    if arr is None:
        return None
    a = np.asarray(arr, dtype=object)
    return np.vectorize(lambda x: _num_str(x, digits), otypes=[object])(a).tolist()


def _jsonable(obj: Any, digits: int) -> Any:
    """stats/params to plain JSON (mpf -> string, numpy scalars -> Python, others repr)."""
    if isinstance(obj, dict):
        return {str(k): _jsonable(v, digits) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v, digits) for v in obj]
    if isinstance(obj, mpmath.mpf):
        return _num_str(obj, digits)
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        f = float(obj)
        return f if math.isfinite(f) else repr(f)
    if obj is None or isinstance(obj, str):
        return obj
    return repr(obj)


def to_json_dict(traj: Trajectory) -> dict:
    prec = _prec_of(traj)
    digits = mpmath.libmp.repr_dps(prec)
    dps = traj.params.get("dps", traj.stats.get("dps"))
    return {
        "format": FORMAT,
        "version": 1,
        "backend": traj.backend,
        "dps": dps,
        "digits": digits,
        "prec": prec,
        "times": [float(t) for t in np.asarray(traj.times, dtype=float)],
        "W": _nested(traj.W, digits),
        "v": _nested(traj.v, digits),
        "r": _nested(traj.r, digits),
        "U": _nested(traj.U, digits),
        "log_eps": None if traj.log_eps is None else traj.params.get("log_eps", repr(float(traj.log_eps))),
        "events": [{"t": _num_str(e.t, digits), "i": int(e.i), "j": int(e.j), "kind": e.kind, "direction": int(e.direction)} for e in traj.events],
        "balancedness_drift": _jsonable(traj.balancedness_drift, digits),
        "error_estimate": _jsonable(traj.error_estimate, digits),
        "stats": _jsonable(traj.stats, digits),
        "params": _jsonable(traj.params, digits),
    }


def write_json(traj: Trajectory, path: str | Path) -> None:
    """Write ``traj`` (any backend; mpf entries keep full precision) to ``path`` as JSON."""
    Path(path).write_text(json.dumps(to_json_dict(traj), indent=1) + "\n")


def _parse_array(a: Any, ndim: int, what: str) -> np.ndarray | None:
    if a is None:
        return None
    arr = np.array(a, dtype=object)
    if arr.ndim != ndim:
        raise InputError(f"{what}: expected {ndim} dimensions, got shape {arr.shape}")
    try:
        flat = [mpmath.mpf(str(x)) for x in arr.reshape(-1)]
    except (ValueError, TypeError):
        raise InputError(f"{what}: entries must be decimal strings") from None
    out = np.empty(arr.shape, dtype=object)
    out.reshape(-1)[:] = flat
    return out


def _float(x: Any) -> float:
    return float(x)


def from_json_dict(data: dict) -> Trajectory:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"not an mp trajectory file (format must be {FORMAT!r})")
    prec = int(data.get("prec", 53))
    with mpmath.workprec(prec):
        W = _parse_array(data["W"], 3, "W")
        v = _parse_array(data["v"], 2, "v")
        r = _parse_array(data.get("r"), 2, "r")
        U = _parse_array(data.get("U"), 3, "U")
        events = [Event(mpmath.mpf(e["t"]), int(e["i"]), int(e["j"]), str(e["kind"]), int(e.get("direction", 0))) for e in data.get("events", [])]
        le = data.get("log_eps")
        log_eps = None if le is None else float(mpmath.mpf(le))
    times = np.asarray(data["times"], dtype=float)
    return Trajectory(
        times=times,
        W=W,
        v=v,
        events=events,
        backend=str(data.get("backend", "mp")),
        r=r,
        U=U,
        log_eps=log_eps,
        balancedness_drift=_float(data.get("balancedness_drift", 0.0)),
        error_estimate=_float(data.get("error_estimate", float("nan"))),
        stats=dict(data.get("stats", {})),
        params=dict(data.get("params", {})),
    )


def read_json(path: str | Path) -> Trajectory:
    """Read a trajectory written by :func:`write_json` (mpf values exactly as written)."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read mp trajectory JSON ({exc})") from None
    try:
        return from_json_dict(data)
    except KeyError as exc:
        raise InputError(f"{path}: missing key {exc}") from None
