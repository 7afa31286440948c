PY ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
# Tested dependency versions; `make test VENV=.venv-newest CONSTRAINTS=` tests against the newest ones.
CONSTRAINTS ?= constraints.txt
REPORT ?= reports/latest

.PHONY: check test venv reference bench clean

$(BIN)/verify: pyproject.toml $(CONSTRAINTS)
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q $(if $(CONSTRAINTS),-c $(CONSTRAINTS)) -e '.[test]'
	@touch $(BIN)/verify

venv: $(BIN)/verify

# The catalogue under a git-ignored path, then its verdicts against the committed reference.
check: venv
	@$(BIN)/python scripts/numba_cache_guard.py
	@status=0; $(BIN)/verify check --profile ci --seed 0 --report $(REPORT) || status=$$?; \
	$(BIN)/python -m verify.report.compare $(REPORT)/report.json reports/ci/report.json || status=$$((status ? status : 1)); \
	exit $$status

# Regenerate the committed reference report (reports/ci); commit the result.
reference: venv
	@$(BIN)/python scripts/numba_cache_guard.py
	$(BIN)/verify check --profile ci --seed 0 --report reports/ci

test: venv
	HYPOTHESIS_PROFILE=ci $(BIN)/python -m pytest -q -n 2 --durations=15

# The peer (heyoka.py) is the optional `bench` extra, not part of `make venv`:
# `$(BIN)/pip install -e '.[bench]'`; without it bench_peer.py measures the project's side only.
# BASELINE=DIR (a checkout of the baseline code, e.g. `git worktree add DIR 2ff34ac`, issue 18's start) measures the
# search throughput side by side with it (bench_search_throughput.py --against DIR).
bench: venv
	@$(BIN)/python scripts/numba_cache_guard.py
	$(BIN)/python benchmarks/bench_gf.py
	$(BIN)/python benchmarks/bench_peer.py
	$(BIN)/python benchmarks/bench_search_throughput.py $(if $(BASELINE),--against $(BASELINE))

clean:
	rm -rf $(VENV) .venv-newest .hypothesis .pytest_cache
