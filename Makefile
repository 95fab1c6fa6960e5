# crkb — every target installs what it needs from the project's own files.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
HOST   ?= 127.0.0.1
PORT   ?= 5000

.PHONY: install run test lint format bench browser-deps clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $(STAMP)

install: $(STAMP)

run: install  ## build the bundled corpus (or $$CRKB_CORPUS) and serve it
	$(BIN)/crkb build
	$(BIN)/crkb serve --host $(HOST) --port $(PORT)

test: install  ## the whole suite; real-archive tests run when ../shared/corpus is there
	$(BIN)/pytest -q

lint: install
	$(BIN)/ruff check crkb tests scripts
	$(BIN)/ruff format --check crkb tests scripts

format: install
	$(BIN)/ruff format crkb tests scripts
	$(BIN)/ruff check --fix crkb tests scripts

bench: install  ## speed and memory figures; writes BENCHMARKS.md
	$(BIN)/python scripts/bench.py

browser-deps:  ## Debian's Chromium and a CJK font, for the browser tests
	bash scripts/install-browser.sh

clean:
	rm -rf instance .pytest_cache bench-out
