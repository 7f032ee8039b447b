# pedro — every task a developer or CI runs. `make help` lists them.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help install test test-slow test-fast durations lint typecheck format e2e bench eval demo clean
# Test workers, one per core: at twice the cores the tests that time deadlines missed them on a 2-core machine.
# The tests that time a signal against a child (Ctrl-C) run alone after the parallel pass: marked `serial`.
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)

help: ## List the targets
	@grep -hE '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# pedro's own modules compiled ahead, for the targets that start pedro many times: an editable install writes no
# bytecode where PYTHONDONTWRITEBYTECODE is set, and each pedro process then compiles its ~230 modules again (half a
# second on a 2-core machine). Up to date, this takes a tenth of a second.
BYTECODE = @$(PY) -m compileall -q pedro
# The same for the tests' modules as pytest rewrites their asserts: it reads that bytecode whatever the variable says
# but writes it only where the variable is unset, so each worker of each run rewrote them all again (collecting the
# suite took 12.8 s, against 4.0 s once they are written). A collection that fails is left for the run to report.
TEST_BYTECODE = $(BYTECODE) tests && { PYTHONDONTWRITEBYTECODE= $(PY) -m pytest --collect-only -q >/dev/null || true; }
# The tiers `make test` runs: all but the slow one, and under CI (CI=true) that one too, in the same workers, so
# that no second run collects the suite again and waits on its own last test.
TIERS := $(if $(filter true 1,$(CI)),,and not slow)

# jest and vitest from npm (once, cached), for the test tool's and repair's live jest and vitest tests; without npm
# they skip, saying why.
JS_RUNNERS = $(or $(PEDRO_TEST_NODE_MODULES),$(shell scripts/install-js-runners -q))

install: $(STAMP) ## Create .venv and install pedro with its development tools
	@echo "pedro installed in $(VENV): run $(VENV)/bin/pedro --help"

test: $(STAMP) ## The suite but the real-model tests and (unless CI=true) the slowest: WORKERS processes, then the signal tests alone
	$(TEST_BYTECODE)
	PEDRO_TEST_NODE_MODULES="$(JS_RUNNERS)" $(PY) -m pytest -m "not e2e and not serial $(TIERS)" -n $(WORKERS) --durations=15
	$(PY) -m pytest -m "serial and not e2e $(TIERS)"

test-slow: $(STAMP) ## The slowest tests alone (tests/durations.json: real servers, whole tasks), which make test runs under CI
	$(TEST_BYTECODE)
	$(PY) -m pytest -m "slow and not e2e and not serial" -n $(WORKERS) --durations=15
	$(PY) -m pytest -m "slow and serial and not e2e"

test-fast: $(STAMP) ## The edit-test loop: the suite without the tests that take half a second or more
	$(TEST_BYTECODE)
	$(PY) -m pytest -m "not e2e and not slow and not medium and not serial" -n $(WORKERS)

durations: $(STAMP) ## Measure every test again and rewrite tests/durations.json, which decides the tiers above
	$(TEST_BYTECODE)
	rm -f tests/durations.json
	$(PY) -m pytest -m "not e2e and not serial" -n $(WORKERS) --record-durations
	$(PY) -m pytest -m "serial and not e2e" --record-durations

lint: $(STAMP) ## ruff check and format check, and the code budgets (complexity as radon counts it, length, parameters)
	$(VENV)/bin/ruff check pedro tests benchmarks scripts
	$(VENV)/bin/ruff format --check pedro tests benchmarks scripts
	$(PY) scripts/budgets.py

format: $(STAMP) ## Format the code
	$(VENV)/bin/ruff format pedro tests benchmarks scripts
	$(VENV)/bin/ruff check --fix pedro tests benchmarks scripts

typecheck: $(STAMP) ## mypy --strict on pedro/
	$(VENV)/bin/mypy

e2e: $(STAMP) ## Real llama-server + real SmolLM2-135M model (and Codex CLI from npm): the whole product against reality
	$(BYTECODE)
	PYTHON=$(PY) scripts/install-model -q >/dev/null
	PYTHON=$(PY) scripts/install-model -q --model gemma3 >/dev/null
	@# Codex CLI from npm, for the tests that drive it; without npm they skip, and this line says why. One
	@# llama-server per worker: each generates on one thread (generation_threads), so two workers kept both cores busy
	@# where one left 40% of them idle (225 s against 150 s on 2 cores).
	codex="$$(scripts/install-codex -q)" || true; \
	server="$$(PYTHON=$(PY) scripts/install-llama-server)" && PATH="$$(dirname "$$server"):$$PATH" PEDRO_CODEX="$$codex" \
		$(PY) -m pytest -m e2e tests/e2e tests/backends/test_managed.py -p no:cacheprovider -n $(WORKERS)

bench: $(STAMP) ## Performance measurements; prints ratios, saves JSON under benchmarks/results/
	$(BYTECODE)
	$(PY) benchmarks/run.py

eval: $(STAMP) ## pedro eval --suite tasks with SmolLM2-135M and Gemma-3-270M, repair on and off (ARGS=--help lists options)
	$(BYTECODE)
	PYTHON=$(PY) scripts/install-model -q >/dev/null
	PYTHON=$(PY) scripts/install-model -q --model gemma3 >/dev/null
	server="$$(PYTHON=$(PY) scripts/install-llama-server)" && PATH="$$(dirname "$$server"):$$PATH" \
		$(PY) benchmarks/bench_repair.py $(ARGS)

demo: $(STAMP) ## The main job: a real small model fixes a bug in examples/calc, live
	$(BYTECODE)
	PYTHON=$(PY) scripts/demo

clean: ## Remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
	find pedro -name __pycache__ -prune -exec rm -rf {} +
