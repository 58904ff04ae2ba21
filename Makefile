# Every target makes its own virtual environment (.venv) on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test lint typecheck unit bench proto clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,ray,batch,rl]'
	touch $(STAMP)

## demo: a demo league over the example bots, ending in a built leaderboard
demo: $(STAMP)
	$(BIN)/bullring demo

## test: every test and check (lint, types, tests)
test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -q -n auto -m "not serial" && $(BIN)/pytest -q -m serial

## bench: the speed benchmarks (figures printed, not asserted)
bench: $(STAMP)
	$(BIN)/python -m benchmarks.engine

## proto: regenerate the committed gRPC code from proto/
proto: $(STAMP)
	$(BIN)/python -m sdk.protocol.generate

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
