# Two commands for a newcomer: `make run` starts the box, `make test` passes the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench golden clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/spielleiter $(ARGS)

test: $(STAMP)
	$(BIN)/ruff check firmware host hardware tests benchmarks tools
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check firmware host hardware tests benchmarks tools

bench: $(STAMP)
	@for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

golden: $(STAMP)
	SPIELLEITER_REGOLD=1 $(BIN)/python -m pytest -k golden

clean:
	rm -rf $(VENV) *.egg-info
