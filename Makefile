# crkb — every target installs what it needs from the project's own files.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SUM    := $(shell cat pyproject.toml | cksum | cut -d' ' -f1)
RUNTIME := $(VENV)/.installed-run-$(SUM)
STAMP  := $(VENV)/.installed-$(SUM)
HOST   ?= 127.0.0.1
PORT   ?= 5000

.PHONY: install run test lint format bench browser-deps clean

# What `make run` needs (the service), then the development tools on top for everything else.
$(RUNTIME): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	rm -f $(VENV)/.installed-* && touch $(RUNTIME)

$(STAMP): $(RUNTIME)
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(RUNTIME)  ## build the whole bundled archive (and $$CRKB_CORPUS layered over it), serve it
	$(BIN)/crkb build
	$(BIN)/crkb serve --host $(HOST) --port $(PORT)

test: install  ## the whole suite, real-archive tests included (read from the bundled archive)
	$(BIN)/pytest -q

lint: install  ## ruff (lint + format) and mypy --strict on crkb/
	$(BIN)/ruff check crkb tests scripts
	$(BIN)/ruff format --check crkb tests scripts
	$(BIN)/mypy crkb

format: install
	$(BIN)/ruff format crkb tests scripts
	$(BIN)/ruff check --fix crkb tests scripts

bench: install  ## speed and memory figures; writes BENCHMARKS.md
	$(BIN)/python scripts/bench.py

browser-deps:  ## Debian's Chromium and a CJK font, for the browser tests
	bash scripts/install-browser.sh

clean:
	rm -rf instance .pytest_cache bench-out
