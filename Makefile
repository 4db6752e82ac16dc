# The two commands a fresh machine needs: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: serve test lint bench clean browser fast fast-check

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

# Three workers on two cores: a browser test spends much of its time waiting on Chromium and
# a served page, and a third worker fills those waits (a quiet run used about one core of two
# with two workers). worksteal hands a finished worker the queued tests of a busy one.
test: $(TEST_STAMP) browser
	$(BIN)/ruff check src tests bench tools
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 3 --dist worksteal -q

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests bench tools
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/engine_speed.py

# Optional, for long benchmarks and searches: the hottest modules compiled with mypyc, in a copy
# of the package under build/fast/; the sources, the plain install and `make test` stay as they
# are. Put it first on the path to use it: PYTHONPATH=build/fast .venv/bin/ludoteca bench crusaders
# A copy, not .so files beside the sources: an edited rules.py can never run stale compiled code;
# the copy is rebuilt whenever a source file changes. `make fast-check` runs the record pins on it.
FAST := build/fast
FAST_MODULES := ludoteca/engine/rng.py ludoteca/games/iwari/rules.py \
	ludoteca/games/crusaders/rules.py ludoteca/games/crusaders/actions.py ludoteca/games/crusaders/sowing.py \
	ludoteca/games/crusaders/economy.py ludoteca/games/crusaders/opening.py \
	ludoteca/games/hadrianswall/rules.py ludoteca/games/hadrianswall/sheets.py \
	ludoteca/games/hadrianswall/follow_ups.py ludoteca/games/hadrianswall/years.py ludoteca/games/hadrianswall/cards.py \
	ludoteca/games/bloodrage/board.py ludoteca/games/bloodrage/effects.py ludoteca/games/bloodrage/battle.py
FAST_SOURCES := $(shell find src/ludoteca -type f -not -path '*/__pycache__/*')

$(FAST)/.built: $(TEST_STAMP) $(FAST_SOURCES)
	rm -rf $(FAST)
	mkdir -p $(FAST)
	cp -r src/ludoteca $(FAST)/ludoteca
	find $(FAST) -name __pycache__ -prune -exec rm -rf {} +
	cd $(FAST) && $(abspath $(BIN))/mypyc $(FAST_MODULES) >mypyc.log 2>&1 || { tail -20 mypyc.log; exit 1; }
	touch $@

fast: $(FAST)/.built

fast-check: fast
	PYTHONPATH=$(FAST) $(BIN)/python -c "import ludoteca.games.crusaders.rules as m; assert m.__file__.endswith('.so'), m.__file__"
	PYTHONPATH=$(FAST) $(BIN)/python -m pytest -p no:cacheprovider -q tests/games/*/test_*_record_pins.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache $(FAST)
