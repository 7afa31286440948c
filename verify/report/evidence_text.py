"""The evidence behind a verdict, as text: what was tested, the worst case, what the margin measures,
where a counterexample violates, and tidy renderings of witness values (shared by Markdown and HTML).

Entries from reports older than version 1.2 lack ``explored`` / ``worst_case``: they say
"not recorded (rerun)" rather than guessing.
"""

from __future__ import annotations

import math
import re
from typing import Any

from verify.report.content import fmt

NOT_RECORDED = "not recorded (rerun `verify check` to record it)"
_NAMES = {"log_eps": "ln eps", "horizon": "horizon t_end"}
_ORDER = ("n", "d", "h", "eps", "log_eps", "loss", "alpha", "init", "horizon")


def _value(v: Any) -> str:
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e6:
        return str(int(v))
    return fmt(v, 3)


def params_text(params: dict[str, Any]) -> str:
    """'n = 2, d = 2, h = 1, ln eps = -96.1, loss exp, ...' for one example's parameters."""
    keys = [k for k in _ORDER if k in params] + sorted(k for k in params if k not in _ORDER)
    return ", ".join(f"{_NAMES.get(k, k)} = {_value(params[k])}" for k in keys) or "-"


def explored_text(entry: dict[str, Any]) -> str | None:
    """'n in [2, 8], eps in [1e-06, 0.01], loss: exp, logistic' (None: not applicable to this verdict)."""
    ex = entry.get("explored")
    if not ex:
        if entry.get("verdict") not in ("HOLDS", "REFUTED") or _direct(entry):
            return None
        return NOT_RECORDED
    keys = [k for k in _ORDER if k in ex] + sorted(k for k in ex if k not in _ORDER)
    parts = []
    for k in keys:
        v = ex[k]
        name = _NAMES.get(k, k)
        if v and all(isinstance(x, (int, float)) for x in v) and len(v) == 2:
            parts.append(f"{name} = {_value(v[0])}" if v[0] == v[1] else f"{name} in [{_value(v[0])}, {_value(v[1])}]")
        else:
            parts.append(f"{name}: {', '.join(str(x) for x in v)}")
    return "; ".join(parts)


def _direct(entry: dict[str, Any]) -> bool:
    """A decision procedure (symbolic) rather than generated cases."""
    return "symbolic" in (entry.get("tags") or []) or entry.get("certificate") is not None


def worst_case_text(entry: dict[str, Any]) -> str | None:
    """HOLDS: 'margin 0.012 (err 1e-12) at n = 2, ...: <note>' (None where no worst case applies)."""
    if entry.get("verdict") != "HOLDS" or _direct(entry):
        return None
    wc = entry.get("worst_case")
    if not wc:
        return NOT_RECORDED
    err = wc.get("error")
    text = f"margin {fmt(wc.get('margin'), 4)}" + (f" (error {fmt(err, 2)})" if isinstance(err, float) and err > 0 else "")
    text += f" at {params_text(wc.get('params') or {})}"
    return text + (f": {wc['note']}" if wc.get("note") else "")


def margin_text_explained(entry: dict[str, Any]) -> str:
    """What the smallest margin means: sign convention, its error, and the unit the claim declares."""
    unit = entry.get("margin_unit")
    base = ("signed margin, >= 0 where the claim holds; a value in [-error, 0) is within the numerical error and "
            "never refutes")
    return base + ("; measures " + unit if unit else "; unit not declared by the claim (claim metadata 'margin_unit')")


def tidy(value: Any, digits: int = 4) -> str:
    """A witness value as readable text: numbers rounded, vectors in parentheses, matrices row by row,
    records as 'key = value' (never raw Python reprs)."""
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, float):
        return fmt(value, digits)
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "; ".join(f"{k} = {tidy(v, digits)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(r, (list, tuple)) for r in value):
            return "[" + "; ".join(tidy(r, digits) for r in value) + "]"
        return "(" + ", ".join(tidy(v, digits) for v in value) + ")"
    return str(value)


_T = re.compile(r"\bt\s*=\s*([-+]?\d[\d.]*(?:e[-+]?\d+)?)", re.IGNORECASE)
_PAIR = re.compile(r"\(\s*i\s*=\s*(\d+)\s*,\s*j\s*=\s*(\d+)\s*\)")
_NEURON = re.compile(r"\b(?:neuron|j)\s*=?\s*(\d+)\b")
_POINT = re.compile(r"\bi\s*=\s*(\d+)\b")


def violation_site(cx: dict[str, Any]) -> dict[str, Any]:
    """Where a scenario counterexample violates: ``t`` (time), ``j`` (neuron), ``i`` (data point) as the check's
    margin located it (the record's ``site``), else each as the check's note states it; ``t_end`` the claim's horizon
    (the time at which the claimed property is asserted when the claim is stated at its horizon)."""
    out: dict[str, Any] = {}
    t_end = (cx.get("params") or {}).get("t_end")
    if isinstance(t_end, (int, float)) and math.isfinite(t_end) and t_end > 0:
        out["t_end"] = float(t_end)
    if isinstance(cx.get("site"), dict) and cx["site"]:
        out.update({k: (float(v) if k == "t" else int(v)) for k, v in cx["site"].items() if k in ("t", "i", "j")})
        return out
    note = str(cx.get("note") or "")
    m = _T.search(note)
    if m:
        try:
            t = float(m.group(1))
            if math.isfinite(t):
                out["t"] = t
        except ValueError:
            pass
    pair = _PAIR.search(note)
    if pair:
        out["i"], out["j"] = int(pair.group(1)), int(pair.group(2))
    else:
        neuron = _NEURON.search(note)
        if neuron:
            out["j"] = int(neuron.group(1))
        point = _POINT.search(note)
        if point:
            out["i"] = int(point.group(1))
    return out


WITNESS_KEYS = ("value", "point", "expr", "relation", "path", "n_plus", "n_minus", "reading", "T_path", "T_Pmax",
                "smallest_violation", "data", "at_t1", "found_by", "domain")


def witness_rows(cx: dict[str, Any]) -> list[tuple[str, str]]:
    """(key, tidy value) rows of a symbolic or pointwise counterexample's witness."""
    w = cx.get("witness") if isinstance(cx.get("witness"), dict) else {}
    rows = []
    for key in WITNESS_KEYS:
        if key == "value":
            if "value" not in cx or cx["value"] is None:
                continue
            value = cx["value"]
            if isinstance(value, dict):  # a drawn record: one row per field
                rows += [(f"value.{k}", tidy(v)) for k, v in value.items()]
                continue
        else:
            value = w.get(key) if key in w else (cx.get("params") or {}).get(key)
            if value is None:
                continue
        rows.append((key, tidy(value)))
    return rows
