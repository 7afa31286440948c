"""JSON Schema (draft 2020-12) of ``report.json`` (DESIGN.md sections 5-6).

``SCHEMA`` is the machine contract of the report; :func:`validate` checks a report against it
with :mod:`jsonschema` (a test dependency; ``verify report --validate`` uses it when installed).
Report versions: ``1.0`` (initial), ``1.1`` (claim entries carry ``definition_hash``; a
re-rendered report may carry ``obsolete`` flags and ``summary.obsolete``; optional evidence fields
``cross_check`` and ``teeth``), ``1.2`` (claim entries carry ``engine_hash``, ``explored``, ``worst_case``,
``margin_unit``; a user claim's entry names its ``file``; ``tool.engine`` holds per-module hashes). An optional
top-level ``reproductions`` list (``verify check --with-reproductions``) needs no new version: readers ignore it. Extra keys are
allowed everywhere (extend, don't break); the keys listed as required are what readers rely on.
"""

from __future__ import annotations

from typing import Any

VERDICTS = ["PROVED", "HOLDS", "REFUTED", "UNKNOWN", "FAILED"]

_NUMBER_OR_TEXT = {
    "description": "a float, or 'inf' / '-inf' / 'nan' for non-finite values, or null",
    "anyOf": [{"type": "number"}, {"enum": ["inf", "-inf", "nan"]}, {"type": "null"}],
}

_TIMING = {
    "description": "per-example wall time in seconds (null when no example ran)",
    "anyOf": [
        {"type": "null"},
        {
            "type": "object",
            "required": ["min", "median", "max"],
            "properties": {k: {"type": "number", "minimum": 0} for k in ("min", "median", "max")},
        },
    ],
}

_COUNTEREXAMPLE = {
    "type": "object",
    "description": "a confirmed, shrunk counterexample. Scenario claims fill X, y, W0, v0 (eps-free base), "
    "log_eps, init_kind, loss, alpha; pointwise and symbolic ones leave X empty and give 'value' or 'witness'.",
    "required": ["X", "y", "W0", "v0", "params"],
    "properties": {
        "X": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
        "y": {"type": "array", "items": {"type": "number"}},
        "W0": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
        "v0": {"type": "array", "items": {"type": "number"}},
        "log_eps": {"type": "number"},
        "init_kind": {"type": "string"},
        "loss": {"type": "string"},
        "alpha": {"type": "number"},
        "params": {
            "type": "object",
            "description": "how the scenario was built, plus loss, alpha, t_end (simulated horizon), horizon",
            "properties": {"t_end": {"type": "number"}},
        },
        "margin": _NUMBER_OR_TEXT,
        "confirmed_margin": _NUMBER_OR_TEXT,
        "mp_margin": _NUMBER_OR_TEXT,
        "mp_dps": {"type": "integer"},
        "mp_confirmation": {"type": "string", "description": "violated | cleared | inconsistent (FAILED) | failed: ... | not applicable (...)"},
        "note": {"type": "string"},
        "site": {"type": "object", "description": "where the check located the violation: t (time), j (neuron), i (data point)",
                 "properties": {"t": {"type": "number"}, "j": {"type": "integer", "minimum": 0},
                                "i": {"type": "integer", "minimum": 0}}, "additionalProperties": False},
        "witness": {"description": "exact witness of a symbolic refutation"},
        "value": {"description": "the drawn point of a pointwise claim"},
        "replay": {"type": "string", "description": "command line that re-evaluates this counterexample"},
    },
}

_CROSS_CHECK = {
    "type": "object",
    "description": "HOLDS of a trajectory claim: the worst example and a seeded sample rerun on an independent "
    "path and compared state by state (verify/evidence/cross_check.py); runs 0 with 'skipped' reasons when none "
    "could be rerun (cost cap), or with 'not_applicable' when the claim has no engine trajectory",
    "required": ["runs", "backend", "max_disagreement", "error"],
    "properties": {
        "runs": {"type": "integer", "minimum": 0},
        "engine": {"type": "string", "description": "the backend whose runs were checked (events, limit)"},
        "backend": {"type": "string", "description": "the first references used: taylor (the float64 Taylor engine), "
                    "mp (where it declined), scipy-radau (limit runs beyond the mp cost cap), joined by ' + '"},
        "dps": {"type": "integer", "description": "digits of the mp first references (present when one ran)"},
        "max_disagreement": _NUMBER_OR_TEXT,
        "error": _NUMBER_OR_TEXT,
        "pattern_mismatches": {"type": "integer", "minimum": 0},
        "skipped": {"type": "array", "items": {"type": "string"}},
        "escalated": {"type": "array", "items": {"type": "string"}},
        "declined": {"type": "array", "items": {"type": "string"}, "description": "examples the float64 Taylor engine "
                     "declined (crowded surfaces, a line of rows that slides, ...) and the mp backend ran instead"},
        "stiff": {"type": "array", "items": {"type": "string"}, "description": "limit-engine examples beyond the mp "
                  "cost cap compared with the stiff reference (scipy Radau on the limit field)"},
        "estimate_exceeded": {"type": "array", "items": {"type": "string"}, "description": "examples whose float64 run "
                              "at the claim's rtol was off its converged mp reference beyond its error estimate while "
                              "its rerun at rtol / 100 agrees (the comparison that counts), with the check's margin "
                              "on the reference"},
        "detail": {"type": "string"},
        "not_applicable": {"type": "string", "description": "why this HOLDS has no rerun (no engine trajectory, ...)"},
    },
}

_CLAIM = {
    "type": "object",
    "required": ["id", "source", "statement", "assumptions", "expected", "verdict", "as_expected", "examples",
                 "min_margin", "time_s", "reason"],
    "properties": {
        "id": {"type": "string", "minLength": 1},
        "source": {"type": "string", "description": "seed file number and item, e.g. '<seed> Lemma <k>'"},
        "statement": {"type": "string"},
        "assumptions": {
            "type": "object",
            "required": ["checked", "assumed"],
            "properties": {
                "checked": {"type": "array", "items": {"type": "string"}, "description": "checked on every example"},
                "assumed": {"type": "array", "items": {"type": "string"}, "description": "taken on trust"},
            },
        },
        "expected": {"enum": VERDICTS},
        "verdict": {"enum": VERDICTS},
        "as_expected": {"type": "boolean"},
        "horizon": {"type": ["number", "string", "null"]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "depends_on": {"type": "array", "items": {"type": "string"}},
        "node": {"type": ["string", "null"], "description": "the blueprint node this claim checks"},
        "paper": {"type": ["string", "null"], "description": "id of the paper that holds the claim (null: a user claim)"},
        "uses": {"type": "array", "items": {"type": "string"}, "description": "blueprint nodes the claim relies on"},
        "examples": {"type": "integer", "minimum": 0},
        "vacuous": {"type": "integer", "minimum": 0},
        "numerical_failures": {"type": "integer", "minimum": 0},
        "inconclusive": {"type": "integer", "minimum": 0, "description": "examples whose margin had an infinite error"},
        "min_margin": _NUMBER_OR_TEXT,
        "min_margin_error": _NUMBER_OR_TEXT,
        "time_s": {"type": "number", "minimum": 0},
        "example_time_s": _TIMING,
        "reason": {"type": "string"},
        "definition_hash": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "engine_hash": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                        "description": "SHA-256 of the engine modules the claim runs through (verify/report/obsolete.py)"},
        "file": {"type": "string", "description": "a user claim's .py file (paper null)"},
        "margin_unit": {"type": "string", "description": "what the margin measures, in which unit (claim metadata)"},
        "explored": {
            "type": "object",
            "description": "each scenario parameter of the non-vacuous examples -> [min, max] (numbers) or its "
                           "distinct values (text), e.g. {'n': [2, 8], 'eps': [1e-6, 1e-2], 'loss': ['exp']}",
            "additionalProperties": {"type": "array"},
        },
        "worst_case": {
            "type": "object",
            "required": ["margin", "params"],
            "description": "HOLDS: the valid example with the smallest margin (its margin, error, the check's note "
                           "and parameters)",
            "properties": {"margin": _NUMBER_OR_TEXT, "error": _NUMBER_OR_TEXT, "note": {"type": "string"},
                           "params": {"type": "object"}},
        },
        "certificate": {"description": "PROVED results: the symbolic or interval certificate"},
        "counterexample": _COUNTEREXAMPLE,
        "cross_check": _CROSS_CHECK,
        "slack": {"type": "object", "required": ["worst_ratio"],
                  "description": "bound claims: the largest measured / bound over the valid examples (the search "
                                 "targets it); <= 1 where the bound holds, small values say the bound is loose",
                  "properties": {"worst_ratio": _NUMBER_OR_TEXT, "note": {"type": "string"}}},
        "teeth": {"type": "array", "items": {"type": "string"},
                  "description": "planted claim ids and engine mutant ids that make this claim's check fail "
                                 "(verify/evidence/mutants.py); empty: nothing was shown to break it"},
        "obsolete": {
            "type": "object",
            "required": ["reason"],
            "properties": {"reason": {"type": "string"}},
            "description": "set by 'verify report --from' when the claim or the tool changed since the run",
        },
    },
    "allOf": [
        {"if": {"properties": {"verdict": {"const": "REFUTED"}}}, "then": {"required": ["counterexample"]}},
    ],
}

_REPRODUCTION = {
    "type": "object",
    "description": "one experiment's summary as 'verify reproduce' writes it; figures relative to the report directory; "
                   "passed: at least one check, all passed, no error",
    "required": ["name", "paper", "checks", "figures", "passed"],
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "paper": {"type": "string"},
        "title": {"type": "string"},
        "source": {"type": "string"},
        "data": {"type": "string"},
        "quick": {"type": "boolean"},
        "checks": {"type": "array", "items": {"type": "object", "required": ["name", "passed", "detail"],
                                              "properties": {"name": {"type": "string"}, "passed": {"type": "boolean"},
                                                             "detail": {"type": "string"}}}},
        "figures": {"type": "array", "items": {"type": "string"}},
        "notes": {"type": "array", "items": {"type": "string"}},
        "time_s": {"type": "number", "minimum": 0},
        "dir": {"type": "string"},
        "passed": {"type": "boolean"},
        "error": {"type": "string", "description": "the experiment raised: no checks, never passed"},
    },
}

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "relu-verify/report.schema.json",
    "title": "relu-verify report",
    "type": "object",
    "required": ["report_version", "tool", "settings", "environment", "summary", "claims"],
    "properties": {
        "report_version": {"type": "string", "pattern": r"^1\.[0-9]+$"},
        "tool": {
            "type": "object",
            "required": ["name", "version", "git_commit"],
            "properties": {
                "name": {"const": "relu-verify"},
                "version": {"type": "string"},
                "git_commit": {"type": ["string", "null"]},
                "command": {"type": ["string", "null"], "description": "the verify command line that regenerates the report"},
                "engine": {"type": "object", "additionalProperties": {"type": "string"},
                           "description": "engine module -> first 16 hex digits of its source's SHA-256"},
            },
        },
        "settings": {
            "type": "object",
            "required": ["profile", "seed"],
            "properties": {
                "profile": {"type": "string"},
                "seed": {"type": "integer"},
                "budget_override": {"type": ["integer", "null"]},
                "precision": {"type": "string"},
                "tolerances": {"type": "object", "additionalProperties": {"type": "number"}},
                "sigma_prime_at_zero": {"type": "number"},
                "wall_time_s": {"type": "number"},
            },
        },
        "environment": {
            "type": "object",
            "required": ["python", "numpy"],
            "properties": {
                "python": {"type": "string"},
                "platform": {"type": "string"},
                "float": {"type": "object", "properties": {k: {"type": "number"} for k in ("epsilon", "min", "max")}},
            },
            "additionalProperties": {"type": ["string", "object", "null"]},
        },
        "summary": {
            "type": "object",
            "required": ["claims", "counts", "refuted_as_expected", "unexpected"],
            "properties": {
                "claims": {"type": "integer", "minimum": 0},
                "counts": {
                    "type": "object",
                    "required": VERDICTS,
                    "properties": {v: {"type": "integer", "minimum": 0} for v in VERDICTS},
                    "additionalProperties": False,
                },
                "refuted_as_expected": {"type": "integer", "minimum": 0},
                "unexpected": {"type": "array", "items": {"type": "string"}},
                "obsolete": {"type": "integer", "minimum": 0},
                "no_engine_hash": {"type": "integer", "minimum": 0,
                                   "description": "re-rendered entries without engine_hash (computed before version 1.2)"},
                "rerendered_against": {"type": "string"},
                "partial": {"type": "boolean", "description": "the run was interrupted: unfinished claims are UNKNOWN"},
            },
        },
        "papers": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "title"],
                "properties": {
                    "id": {"type": "string"},
                    "title": {"type": "string"},
                    "source": {"type": ["string", "null"]},
                    "claims": {"type": "array", "items": {"type": "string"}},
                    "blueprint": {"type": ["object", "null"]},
                    "errata": {"type": "array", "items": {"type": "object", "required": ["id", "title"]}},
                },
            },
        },
        "claims": {"type": "array", "items": _CLAIM},
        "reproductions": {"type": "array", "items": _REPRODUCTION,
                          "description": "optional (verify check --with-reproductions): the papers' experiments run with "
                                         "the report (verify/reproduce.py run_for_report)"},
    },
}


def validate(report: dict[str, Any]) -> None:
    """Raise ``jsonschema.ValidationError`` if ``report`` does not follow :data:`SCHEMA`."""
    import jsonschema

    jsonschema.validate(report, SCHEMA, cls=jsonschema.Draft202012Validator)


def errors(report: dict[str, Any]) -> list[str]:
    """Every schema violation as 'path: message' (empty when valid; needs jsonschema)."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(SCHEMA)
    return [f"{'/'.join(str(p) for p in e.absolute_path) or '(root)'}: {e.message}" for e in validator.iter_errors(report)]
