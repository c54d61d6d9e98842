# The two set-up commands: `make demo` and `make test`. Both work on a fresh clone.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test venv bench clean package

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	@echo "== cairn check on fixtures/demo (a copy, so the demo never changes) =="
	@rm -rf $(VENV)/demo && cp -r fixtures/demo $(VENV)/demo
	-cd $(VENV)/demo && ../bin/cairn check

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/engine_bench.py

clean:
	rm -rf $(VENV) .pytest_cache
