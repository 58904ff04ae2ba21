# Every target makes its own virtual environment (.venv) on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test check lint typecheck unit fast bench proto clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,ray,batch,rl,arena]'
	touch $(STAMP)

## demo: a demo league over the example bots, ending in a built leaderboard
demo: $(STAMP)
	$(BIN)/bullring demo

## test: every test and check (lint, types, tests)
test: lint typecheck unit

## check: the fast loop: lint, types, and the tests that need no bubblewrap, chromium or npm
check: lint typecheck fast

# The rules, the SDK, the wire and the import contract: no sandboxed bot, browser or Node.js.
FAST_TESTS := tests/sdk tests/test_architecture.py tests/test_codec_split.py \
	tests/test_doc_links.py tests/test_errors.py tests/test_merge_markers.py \
	tests/test_opponents.py tests/test_strength.py \
	tests/human_seat/test_table.py tests/human_seat/test_web_desk.py

fast: $(STAMP)
	$(BIN)/pytest -q -n auto -m "not slow and not serial" $(FAST_TESTS)

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
