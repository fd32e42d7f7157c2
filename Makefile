# The two set-up commands from the README: `make demo` and `make test`.
# Both create what they need (virtualenv, packages, a Chromium) and are safe to run twice.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint typecheck unit browser-tests bench browser clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the package metadata changed.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

browser: $(STAMP)
	@scripts/ensure-browser.sh $(BIN)/python

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	scripts/pytest-group.sh $(BIN)/python -m "not browser"

browser-tests: browser
	scripts/pytest-group.sh $(BIN)/python -m browser

test: lint typecheck unit browser-tests

demo: browser
	$(BIN)/argus demo

bench: browser
	$(BIN)/python -m bench.run

clean:
	rm -rf $(VENV) .argus .pytest_cache .mypy_cache .ruff_cache
