"""What the report renderings show, computed once from ``report.json`` (shared by Markdown and HTML).

Pure functions of the report dict (no simulation, no plotting): number formatting, per-claim
rows, the trusted base (backends, precisions, tolerances, the sigma'(0) convention, hypotheses
taken on trust), and the paper errata the run found.
"""

from __future__ import annotations

import json
import re
from typing import Any

def fmt(value: Any, digits: int = 3) -> str:
    """Compact number text: floats with ``digits`` significant digits; None as a dash."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "nan"
        return f"{value:.{digits}g}"
    return str(value)


def paper_text(entry: dict[str, Any]) -> str:
    """The id of the paper that holds the claim ('-' for a user claim)."""
    return entry.get("paper") or "-"


def timing(entry: dict[str, Any]) -> str:
    t = entry.get("example_time_s")
    if not t:
        return "-"
    return f"{t['min']:.3g} / {t['median']:.3g} / {t['max']:.3g}"


def margin_text(entry: dict[str, Any]) -> str:
    m = entry.get("min_margin")
    err = entry.get("min_margin_error")
    if m is None or m == "nan" or (isinstance(m, float) and m != m):
        return "-"
    text = fmt(m)
    if isinstance(err, float) and err > 0 and isinstance(m, float):
        text += f" (err {fmt(err, 2)})"
    return text


def cross_check_text(cc: dict[str, Any]) -> str:
    """e.g. '2 run(s) on taylor (float64 Taylor, tolerance 1e-13), max disagreement 3.1e-10 (error estimate 1.2e-07)';
    a run the Taylor engine declined ran on mp: 'on taylor + mp (float64 Taylor / 16 digits, ...)'."""
    if cc.get("not_applicable"):
        return "not applicable: " + str(cc["not_applicable"])
    if not cc.get("runs"):
        return "no run (" + "; ".join(cc.get("skipped") or ["nothing to rerun"]) + ")"
    engine = "" if cc.get("engine", "events") == "events" else f"{cc['engine']} engine vs "
    tol = f", tolerance 1e-{cc['tol_digits']}" if cc.get("tol_digits") else ""
    what = [name for name, used in (("float64 Taylor", "taylor" in str(cc.get("backend"))),
                                    (f"{cc.get('dps')} digits", bool(cc.get("dps")))) if used]
    digits = f" ({' / '.join(what)}{tol})" if what else ""
    text = (f"{engine}{cc['runs']} run(s) on {cc.get('backend', '?')}{digits}"
            + f", max disagreement {fmt(cc.get('max_disagreement'), 2)} (error estimate {fmt(cc.get('error'), 2)})")
    if cc.get("pattern_mismatches"):
        text += f", {cc['pattern_mismatches']} activation sign mismatch(es)"
    if cc.get("escalated"):
        text += f"; {len(cc['escalated'])} decided at higher precision ({'; '.join(cc['escalated'])})"
    if cc.get("estimate_exceeded"):
        text += (f"; float64 error estimate exceeded on {len(cc['estimate_exceeded'])} example(s), converging when "
                 f"tightened ({'; '.join(cc['estimate_exceeded'])})")
    if cc.get("declined"):
        text += f"; {len(cc['declined'])} declined by the Taylor engine, run on mp ({'; '.join(cc['declined'])})"
    if cc.get("stiff"):
        text += (f"; {len(cc['stiff'])} beyond the mp cost cap compared with scipy's Radau on the limit field "
                 f"(verify/evidence/stiff_limit.py)")
    if cc.get("skipped"):
        text += f"; {len(cc['skipped'])} skipped"
    return text


LOOSE_RATIO = 0.1  # a bound whose tightest case found is below this fraction is reported as loose


def slack_text(slack: dict[str, Any]) -> str:
    """e.g. 'tightest case found: measured / bound = 0.025 (loose: best ratio 2.5%)'."""
    r = slack.get("worst_ratio")
    if not isinstance(r, (int, float)):
        return f"measured / bound = {r}"
    text = f"tightest case found: measured / bound = {fmt(r, 3)}"
    if r < LOOSE_RATIO:
        text += f" (loose: best ratio {100.0 * r:.2g}%)"
    return text


def verdict_text(entry: dict[str, Any]) -> str:
    text = entry["verdict"]
    if entry["verdict"] != entry["expected"]:
        text += f" (expected {entry['expected']})"
    if not entry.get("as_expected", True):
        text += " UNEXPECTED"
    return text


def planted(entry: dict[str, Any]) -> bool:
    return entry.get("expected") == "REFUTED" or "planted" in (entry.get("tags") or [])


def header_facts(report: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, value) pairs for the report header."""
    tool, st, env = report.get("tool", {}), report.get("settings", {}), report.get("environment", {})
    flt = env.get("float") or {}
    facts = [
        ("tool", f"{tool.get('name', 'relu-verify')} {tool.get('version')}"),
        ("git commit", str(tool.get("git_commit") or "unknown")),
        ("report version", str(report.get("report_version"))),
        ("profile", str(st.get("profile"))),
        ("seed", str(st.get("seed"))),
        ("budget override", fmt(st.get("budget_override"))),
        ("precision", str(st.get("precision", "-"))),
        ("tolerances", ", ".join(f"{k} = {fmt(v)}" for k, v in (st.get("tolerances") or {}).items()) or "-"),
        ("sigma'(0)", fmt(st.get("sigma_prime_at_zero"))),
        ("wall time", f"{fmt(st.get('wall_time_s'))} s"),
    ]
    libs = [f"{k} {v}" for k, v in env.items() if k not in ("float", "platform") and isinstance(v, str)]
    facts.append(("libraries", ", ".join(libs)))
    facts.append(("platform", str(env.get("platform", "-"))))
    if flt:
        facts.append(("float environment", f"IEEE binary64: epsilon {flt.get('epsilon')}, min normal {flt.get('min')}, "
                                           f"max {flt.get('max')}"))
    summary = report.get("summary", {})
    if "rerendered_against" in summary:
        facts.append(("re-rendered against", f"relu-verify {summary['rerendered_against']} and the current catalogue"))
    return facts


def trusted_base(report: dict[str, Any]) -> dict[str, Any]:
    """What the verdicts rest on: engines, precisions, tolerances, conventions, trusted hypotheses."""
    st, env = report.get("settings", {}), report.get("environment", {})
    assumed: dict[str, list[str]] = {}
    for e in report.get("claims", []):
        for text in (e.get("assumptions") or {}).get("assumed", []) or []:
            assumed.setdefault(text, []).append(e["id"])
    tol = st.get("tolerances") or {}
    backends = [
        f"Numerical evidence (HOLDS / REFUTED on simulated runs): {st.get('precision', 'float64')}; relative tolerance "
        f"rtol = {fmt(tol.get('rtol', tol.get('default_rtol')))} unless a claim sets its own; a candidate violation must exceed its error estimate and survive a rerun at "
        f"rtol x {fmt(tol.get('confirm_rtol_factor'))} before it counts.",
        "Balanced initialisations with tiny eps run in polar (log-norm, direction) form in float64, so eps far below the "
        "float64 range (e.g. ln eps = -30 or less) is exact in the log scale.",
        f"Symbolic verdicts (PROVED, and REFUTED with an exact witness): sympy {env.get('sympy', '?')} identities and sign "
        f"analysis, with mpmath {env.get('mpmath', '?')} interval enclosures (backend {env.get('mpmath_backend', '?')}) "
        "re-checking every witness.",
        f"Counterexample search: hypothesis {env.get('hypothesis', '?')} with seed {st.get('seed')} (profile "
        f"{st.get('profile')}); shrunk counterexamples are re-confirmed at every shrink step.",
    ]
    conventions = [
        f"ReLU subgradient fixed at sigma'(0) = {fmt(st.get('sigma_prime_at_zero', 0.0))}: the engine computes the "
        "Caratheodory solution of the ODE with 1{z > 0} and freezes neurons with no active data point.",
        "Losses are summed over the data (not averaged); 'logistic2' is 2 log(1 + e^{-y yhat}), "
        "'logistic' log(1 + e^{-y yhat}), 'poly' sqrt(1 + (y yhat)^2) - y yhat.",
        "UNKNOWN is never a pass; vacuous examples (hypotheses false) are never evidence.",
    ]
    return {"backends": backends, "tolerances": tol, "conventions": conventions, "assumed": assumed}


def paper_counts(report: dict[str, Any], paper_id: str) -> str:
    """'N claims: a PROVED, b HOLDS, c REFUTED, d UNKNOWN, e FAILED; u unexpected' for one paper's claims."""
    mine = [e for e in report.get("claims", []) if e.get("paper") == paper_id]
    counts = {v: sum(e["verdict"] == v for e in mine) for v in ("PROVED", "HOLDS", "REFUTED", "UNKNOWN", "FAILED")}
    unexpected = sum(not e.get("as_expected", True) for e in mine)
    return f"{len(mine)} claims: " + ", ".join(f"{n} {v}" for v, n in counts.items()) + f"; {unexpected} unexpected"


def errata(report: dict[str, Any]) -> dict[str, Any]:
    """Per paper, its declared errata with the report entries of the claims that decide each; and the
    planted / errata claims refuted as expected (or, a defect, not refuted)."""
    by_id = {e["id"]: e for e in report.get("claims", [])}
    papers = [(p, [(er, [by_id[c] for c in er.get("claims", []) if c in by_id]) for er in p.get("errata") or []])
              for p in report.get("papers") or [] if p.get("errata")]
    refuted = [e for e in report.get("claims", []) if planted(e) and e["verdict"] == "REFUTED"]
    missed = [e for e in report.get("claims", []) if e.get("expected") == "REFUTED" and e["verdict"] != "REFUTED"]
    return {"papers": papers, "refuted": refuted, "missed": missed}


def witness_summary(cx: dict[str, Any]) -> str:
    """One line describing a counterexample (its note, margin, or symbolic witness)."""
    parts = []
    w = cx.get("witness")
    if isinstance(w, dict):
        if w.get("recheck"):
            parts.append(str(w["recheck"]))
        elif w.get("point"):
            parts.append(f"at {w['point']}")
    if cx.get("note"):
        parts.append(str(cx["note"]))
    if cx.get("margin") is not None:
        parts.append(f"margin {fmt(cx.get('margin'), 4)} (confirmed {fmt(cx.get('confirmed_margin'), 4)})")
    if cx.get("mp_confirmation"):
        mp = (f"{cx['mp_dps']}-digit rerun" if cx.get("mp_dps") else "high-precision rerun") + f": {cx['mp_confirmation']}"
        if cx.get("mp_margin") is not None:
            mp += f", margin {fmt(cx.get('mp_margin'), 4)}"
        parts.append(mp)
    return "; ".join(parts) or "-"


def shrunk_data(cx: dict[str, Any]) -> str:
    """The shrunk counterexample as compact JSON text (scenario fields, or the pointwise value / witness)."""
    if cx.get("X"):
        keys = ("X", "y", "W0", "v0", "log_eps", "init_kind", "loss", "alpha", "params")
    else:
        keys = ("value", "witness", "params")
    doc = {k: cx[k] for k in keys if k in cx}
    text = json.dumps(doc, indent=1, default=str)
    text = re.sub(r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text)
    return text if len(text) <= 4000 else text[:4000] + "\n... (truncated; full record in report.json)"
