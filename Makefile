# Two commands for a newcomer: `make run` starts the box, `make test` passes the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

TYPING := build/typing

.PHONY: run test lint walls types bench golden clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/spielleiter $(ARGS)

test: lint walls types
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check firmware host hardware tests benchmarks tools

# The walls of DESIGN.md section 2 (contracts in pyproject.toml).
walls: $(STAMP)
	$(BIN)/lint-imports

# mypy sees the source folders under their package names through two links.
types: $(STAMP)
	@mkdir -p $(TYPING)
	@ln -sfn ../../firmware $(TYPING)/spielleiter
	@ln -sfn ../../host $(TYPING)/spielleiter_host
	$(BIN)/mypy -p spielleiter -p spielleiter_host

bench: $(STAMP)
	@for b in benchmarks/*.py; do case $$b in *_baseline.py) continue;; esac; \
	  echo "== $$b"; $(BIN)/python $$b || exit 1; done

golden: $(STAMP)
	SPIELLEITER_REGOLD=1 $(BIN)/python -m pytest -k golden

clean:
	rm -rf $(VENV) *.egg-info
