# The two set-up commands: `make demo` and `make test`. Both work on a fresh clone.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# what the demo needs alone: Cairn and its own dependencies, none of the test or PostgreSQL extras
BASE := $(VENV)/.installed-base
# the support check's rules compiled with mypyc (server/cairn/native.py); remade when a source they
# are built from changes; lenient: without a C compiler the rules run as pure Python, same verdicts
NATIVE := $(VENV)/.native
NATIVE_SRC := $(wildcard server/cairn/meaning/*.py server/cairn/support/*.py) server/cairn/native.py server/cairn/native_build.py

.PHONY: demo test test-python test-vscode lint venv native bench clean package dist

$(BASE): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(BASE)

$(STAMP): $(BASE) pyproject.toml
	$(BIN)/pip install --quiet -e '.[test,postgres]'
	touch $(STAMP)

$(NATIVE): $(STAMP) $(NATIVE_SRC)
	$(BIN)/python -m cairn.native_build build --lenient
	touch $(NATIVE)

venv: $(STAMP) $(NATIVE)

native: $(NATIVE)

# the demo needs no compiler: the rules run as Python until `make native` (or `make test`) builds them
demo: $(BASE)
	@echo "== cairn check on a fresh copy of fixtures/demo in $(abspath $(VENV)/demo) (the fixture itself never changes) =="
	@$(BIN)/python fixtures/make_demo.py $(VENV)/demo >/dev/null
	@cd $(VENV)/demo && ../bin/cairn check; status=$$?; \
	  echo "== cairn check exited $$status (1 = some claims failed, as the demo intends) =="; \
	  echo "== the demo's copy is $(abspath $(VENV)/demo); to check it again: cd $(abspath $(VENV)/demo) && ../bin/cairn check =="; \
	  test $$status -le 1

test: lint test-python test-vscode

# ruff (rules in pyproject.toml) and mypy (its config there too); both must pass before the tests run.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# the tests run in JOBS processes (pytest-xdist; CI has 2 cores); JOBS=0 runs them in this one process
JOBS ?= 2
test-python: $(STAMP) $(NATIVE) lint
	$(BIN)/python -m pytest -q -n $(JOBS)

# The VS Code extension: unit tests, lint and the real-VS-Code end-to-end test.
test-vscode: $(STAMP) $(NATIVE)
	@if [ -x client-vscode/scripts/test.sh ]; then CAIRN_PYTHON=$(CURDIR)/$(BIN)/python client-vscode/scripts/test.sh; else echo "client-vscode: no tests yet"; fi

package:
	client-vscode/scripts/package.sh

# A wheel of Cairn in dist/, to install outside this clone (README: "Install Cairn for real use").
dist:
	rm -rf dist/cairn-*.whl
	$(PYTHON) -m pip wheel --quiet --no-deps --wheel-dir dist .

# Benchmarks print figures; nothing here is a pass/fail test.
bench: $(STAMP) $(NATIVE)
	$(BIN)/python bench/engine_bench.py
	$(BIN)/python bench/lsp_bench.py
	$(BIN)/python bench/startup_bench.py
	$(BIN)/python bench/support_modes.py
	$(BIN)/python bench/html_bench.py

clean:
	rm -rf $(VENV) .pytest_cache dist build
