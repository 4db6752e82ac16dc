# The two commands a fresh machine needs: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: serve test lint bench clean browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[server]'
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP) $@

serve: $(STAMP)
	$(BIN)/ludoteca serve

# Debian's Chromium drives the browser tests; Playwright's own browser download is not
# reachable, so the tests point Playwright at /usr/bin/chromium. A CJK font makes the
# Japanese pages readable in screenshots.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@if ! command -v chromium >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -qi ipa; then \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium fonts-ipafont-gothic >/dev/null; fi

test: $(TEST_STAMP) browser
	$(BIN)/ruff check src tests bench tools
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 -q

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests bench tools
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/engine_speed.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache
