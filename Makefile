# The two commands: `make run` serves the games in the browser, `make test` checks.  Both set up .venv first
# (scripts/bootstrap.sh): `make run` with only what running needs, `make test` with the test and RL extras.
VENV := .venv
BIN := $(VENV)/bin
PYTEST_WORKERS ?= 2

.PHONY: setup setup-run run play test lint typecheck pytest fuzz cluster bench screenshots clean

setup:
	@bash scripts/bootstrap.sh

setup-run:
	@LUDOTHEQUE_EXTRAS= bash scripts/bootstrap.sh

# The table server on the embedded SQLite database (data/ludotheque.db); it prints the address to open.
run: setup-run
	@$(BIN)/ludotheque serve

# The terminal game's menu.
play: setup-run
	@$(BIN)/ludotheque

lint: setup
	$(BIN)/ruff check src tests benchmarks

typecheck: setup
	$(BIN)/mypy

pytest: setup
	@bash scripts/browser.sh >/dev/null
	@bash scripts/axe.sh >/dev/null
	$(BIN)/pytest -q -n $(PYTEST_WORKERS) --durations=25

test: lint typecheck pytest

# The long share of the random-play fuzzing; each fuzz test prints its counts.
fuzz: setup
	LUDOTHEQUE_FUZZ=long $(BIN)/pytest -q -m fuzz -rP -n $(PYTEST_WORKERS)

# A site of two server hosts and a client host in network namespaces (root): the site's tests across them.
cluster: setup
	bash scripts/cluster.sh

bench: setup
	$(BIN)/python -m benchmarks.run

# Each game's table after a few bot moves, at 1280 px and 360 px wide, as PNGs in the folder $$SCREENSHOTS names (screenshots/ by default).
screenshots: setup
	@bash scripts/browser.sh >/dev/null
	$(BIN)/python scripts/screenshots.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
