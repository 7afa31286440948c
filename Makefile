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
	@status=0; $(BIN)/verify check --profile ci --seed 0 --report $(REPORT) || status=$$?; \
	$(BIN)/python -m verify.report.compare $(REPORT)/report.json reports/ci/report.json || status=$$((status ? status : 1)); \
	exit $$status

# Regenerate the committed reference report (reports/ci); commit the result.
reference: venv
	$(BIN)/verify check --profile ci --seed 0 --report reports/ci

test: venv
	HYPOTHESIS_PROFILE=ci $(BIN)/python -m pytest -q -n 2 --durations=15

bench: venv
	$(BIN)/python benchmarks/bench_gf.py

clean:
	rm -rf $(VENV) .venv-newest .hypothesis .pytest_cache
