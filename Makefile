PY ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: check test venv bench clean

$(BIN)/verify: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	@touch $(BIN)/verify

venv: $(BIN)/verify

check: venv
	$(BIN)/verify check --profile ci --report reports/ci

test: venv
	HYPOTHESIS_PROFILE=ci $(BIN)/python -m pytest -q -n 2

bench: venv
	$(BIN)/python benchmarks/bench_gf.py

clean:
	rm -rf $(VENV) .hypothesis .pytest_cache
