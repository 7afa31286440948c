"""pytest plugin (entry point ``pytest11``: installed with the package): claims become test items.

In every module pytest collects, each module-level :class:`verify.Claim` the module defines (a
``@verify.claim`` function, or a list of claims), whatever its name, becomes one test item named by its
claim id. The item runs the claim's counterexample search:

- passes on PROVED / HOLDS;
- fails on REFUTED with the counterexample (sizes, margins, the first violated sample) and the command
  that replays it; fails on FAILED;
- on UNKNOWN fails, or is skipped (never passed) with ``--verify-allow-unknown``;
- a claim declared ``expected="REFUTED"`` (a planted false claim) is an expected failure: REFUTED shows as
  xfailed, anything else fails the run.

Options: ``--verify-budget N`` (default: the ci profile's budget), ``--verify-seed S`` (default 0),
``--verify-allow-unknown``, ``--verify-db DIR`` (the example database that replays earlier counterexamples
first; default ``.verify-examples`` in the rootdir, as ``verify search``; ``none`` disables it). Each
REFUTED result is written as JSON to pytest's cache (``.pytest_cache/d/relu-verify/``), the file its
replay command reads. ``--hypothesis-show-statistics`` prints each claim's search statistics.
A claim imported from another module is that module's, and is not collected again.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest

from verify.claims.model import Claim
from verify.verdicts import Verdict

CACHE_DIR = "relu-verify"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("relu-verify", "relu-verify claims (module-level verify.Claim objects)")
    group.addoption("--verify-budget", type=int, default=None, metavar="N",
                    help="examples searched per claim (default: the ci profile's budget)")
    group.addoption("--verify-seed", type=int, default=0, metavar="S", help="search seed (default 0)")
    group.addoption("--verify-allow-unknown", action="store_true",
                    help="skip (do not fail) a claim whose search ends UNKNOWN")
    group.addoption("--verify-db", default=None, metavar="DIR",
                    help="example database directory (default: .verify-examples in the rootdir; 'none' disables it)")


def pytest_configure(config: pytest.Config) -> None:
    budget = config.getoption("verify_budget")
    if budget is not None and budget < 1:
        raise pytest.UsageError(f"--verify-budget must be >= 1, got {budget}")


def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: Any) -> list[ClaimItem] | None:
    if not isinstance(collector, pytest.Module):
        return None
    found = [obj] if isinstance(obj, Claim) else [c for c in obj if isinstance(c, Claim)] if isinstance(obj, (list, tuple)) else []
    module_name = collector.module.__name__
    mine = [c for c in found if getattr(c.check, "__module__", None) == module_name]
    return [ClaimItem.from_parent(collector, name=c.id, claim=c) for c in mine] or None


class ClaimRefuted(Exception):
    """A claim's search found a confirmed counterexample (the failure text is the message)."""


class ClaimNotDecided(Exception):
    """A claim's search ended FAILED or UNKNOWN (the failure text is the message)."""


class ClaimItem(pytest.Item):
    """One claim's search as a test item."""

    def __init__(self, *, claim: Claim, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claim = claim
        if claim.expected == Verdict.REFUTED:
            self.add_marker(pytest.mark.xfail(reason=f"planted: {claim.id} is expected to be REFUTED", raises=ClaimRefuted,
                                              strict=True))

    def runtest(self) -> None:
        from verify.cli.profiles import budget_for
        from verify.search import search

        config = self.config
        budget = config.getoption("verify_budget") or budget_for("ci", self.claim.meta.get("budget"))
        seed = config.getoption("verify_seed")
        db = config.getoption("verify_db")
        database = None if db == "none" else db or str(config.rootpath / ".verify-examples")
        result = search(self.claim, budget=budget, seed=seed, database=database)
        self.hypothesis_statistics = _statistics(self.nodeid, result, budget, seed)  # printed by Hypothesis's plugin
        header = f"claim {self.claim.id} [{self.claim.source}]: {result.verdict} after {result.examples} valid example(s)"
        if result.verdict in (Verdict.PROVED, Verdict.HOLDS):
            return
        if result.verdict == Verdict.REFUTED:
            raise ClaimRefuted("\n".join([header, *self._refutation(result)]))
        text = f"{header}: {result.reason}"
        if result.verdict == Verdict.UNKNOWN and config.getoption("verify_allow_unknown"):
            pytest.skip(f"UNKNOWN (allowed by --verify-allow-unknown): {result.reason}")
        raise ClaimNotDecided(text + ("" if result.verdict == Verdict.FAILED else
                                      "\n(pass --verify-allow-unknown to skip undecided claims instead of failing)"))

    def _refutation(self, result: Any) -> list[str]:
        """The counterexample as text, with the JSON its replay command reads written to pytest's cache."""
        from verify.claims.registry import display_path
        from verify.claims.summary import counterexample_lines
        from verify.cli.search_cmd import replay_command
        from verify.report.document import claim_entry

        path = _results_dir(self.config) / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', self.claim.id)}.json"
        record = dict(result.counterexample)
        record["replay"] = replay_command(f"{display_path(self.path)}::{self.claim.id}", path)
        entry = claim_entry(result, record["replay"])
        path.write_text(json.dumps(entry, indent=2, allow_nan=False) + "\n")
        return [f"statement: {self.claim.statement}", result.reason, *counterexample_lines(self.claim, record)]

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, (ClaimRefuted, ClaimNotDecided)):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"claim {self.claim.id}"


def _results_dir(config: pytest.Config) -> Path:
    """Where REFUTED results are written: pytest's cache, or a temporary folder when the cache is disabled."""
    cache = getattr(config, "cache", None)
    return Path(cache.mkdir(CACHE_DIR)) if cache is not None else Path(tempfile.mkdtemp(prefix="relu-verify-"))


def _statistics(nodeid: str, result: Any, budget: int, seed: int) -> str:
    """The search's statistics in the layout of Hypothesis's own ``--hypothesis-show-statistics``."""
    times = sorted(result.example_times)
    timing = (f"{times[0] * 1e3:.0f}-{times[-1] * 1e3:.0f} ms per example" if times else "no example run")
    return "\n".join([
        f"{nodeid}:",
        f"  - relu-verify search, budget {budget}, seed {seed}: {result.examples} valid, {result.vacuous} vacuous, "
        f"{result.numerical_failures} numerical failure(s), {result.inconclusive} inconclusive; {timing}",
        f"  - smallest margin {result.min_margin:.4g} (error {result.min_margin_error:.2g}); {result.time_s:.2f} s in all",
        f"  - Stopped because: {result.verdict}: {result.reason}",
    ])
