# The two commands: `make run` plays, `make test` checks.  Both set up .venv first (scripts/bootstrap.sh).
VENV := .venv
BIN := $(VENV)/bin
PYTEST_WORKERS ?= 2

.PHONY: setup run test lint typecheck pytest fuzz bench clean

setup:
	@bash scripts/bootstrap.sh

run: setup
	@$(BIN)/ludotheque

lint: setup
	$(BIN)/ruff check src tests benchmarks

typecheck: setup
	$(BIN)/mypy

pytest: setup
	$(BIN)/pytest -q -n $(PYTEST_WORKERS)

test: lint typecheck pytest

# The long share of the random-play fuzzing; each fuzz test prints its counts.
fuzz: setup
	LUDOTHEQUE_FUZZ=long $(BIN)/pytest -q -m fuzz -rP -n $(PYTEST_WORKERS)

bench: setup
	$(BIN)/python -m benchmarks.run

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
