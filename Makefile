# The two set-up commands from the README: `make demo` and `make test`.
# Both create what they need (virtualenv, packages, a Chromium) and are safe to run twice.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint typecheck unit browser-tests suite bench browser sandbox cairo clean image fuzz mutate refree-table

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the package metadata changed.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,frameworks,textual]'
	touch $(STAMP)

browser: $(STAMP)
	@scripts/ensure-browser.sh $(BIN)/python

# bubblewrap confines the implementer, the app's server, gate scripts and graders (apt, when
# missing and root); without it runs fall back to Landlock, and say so.
sandbox:
	@scripts/ensure-bubblewrap.sh

# libcairo and a monospace font, for the Textual adapter's rasteriser (apt, when missing and root).
cairo:
	@scripts/ensure-cairo.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples

typecheck: $(STAMP)
	$(BIN)/mypy

# Each group alone, on every core (pytest-xdist); the browser group keeps each file on one worker
# (--dist loadfile), so a module's served app and warm browser are started once.
unit: $(STAMP) sandbox cairo
	scripts/pytest-group.sh $(BIN)/python -m "not browser" -n auto

browser-tests: browser sandbox
	scripts/pytest-group.sh $(BIN)/python -m browser -n auto --dist loadfile

# Both groups in one xdist session (tests/support/xdist_groups.py): each browser module on one
# worker, the browser modules queued first (in collection order, so no reordering by size), then
# the non-browser tests one by one, which keep both cores busy to the end.
SUITE := scripts/pytest-group.sh $(BIN)/python -n auto --dist loadgroup --no-loadscope-reorder
suite: browser sandbox cairo
	$(SUITE)

# mypy runs beside the suite: alone it keeps one core busy for most of a minute while the other
# idles, and the suite's xdist workers fill both. Its report is printed once the suite is over;
# either failing fails the target.
test: lint browser sandbox cairo
	@echo "$(BIN)/mypy (beside the suite)"; $(BIN)/mypy > $(VENV)/mypy.log 2>&1 & mypy=$$!; \
	  echo "$(SUITE)"; $(SUITE); suite=$$?; \
	  wait $$mypy; typed=$$?; echo "mypy:"; cat $(VENV)/mypy.log; \
	  test $$suite -eq 0 && test $$typed -eq 0

# The long fuzz run: 600 generated inputs for each of the readers in tests/fuzz (over 10,000 in
# all; `make test` runs a few of each), a 60 s watchdog per input, a tally of exit codes.
fuzz: $(STAMP)
	ARGUS_FUZZ_EXAMPLES=600 ARGUS_FUZZ_HANG_SECONDS=60 \
		scripts/pytest-group.sh $(BIN)/python tests/fuzz -q -p no:cacheprovider

# Mutation testing of the deciding code (mutmut; not part of `make test`): each module is
# mutated in a scratch copy under .mutate/ and judged by its own non-browser tests only.
# `make mutate MODULES="src/argus/verdict.py=tests/verdict ..."` picks the modules (module=tests
# pairs, tests comma-separated); the default list is in scripts/mutate.py. Results:
# .mutate/results.json (every mutant) and .mutate/summary.md (per module, with the score).
MODULES ?=
MUTATE_STAMP := $(VENV)/.mutate-installed
$(MUTATE_STAMP): pyproject.toml | $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,mutate]'
	touch $(MUTATE_STAMP)

mutate: $(MUTATE_STAMP)
	nice $(BIN)/python scripts/mutate.py $(MODULES)

demo: browser sandbox
	$(BIN)/argus demo

bench: browser
	$(BIN)/python -m bench.run

# The reference-free results table of docs/judge.md, measured again (about two minutes).
refree-table: browser
	$(BIN)/python -m bench.refree --write docs/judge.md

# The pinned rendering image (Dockerfile): skipped with a message where Docker cannot build.
IMAGE ?= argus-render
image:
	@if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then \
	  version=$$(sed -n 's/^__version__ = "\(.*\)"/\1/p' src/argus/__init__.py); \
	  docker build -t $(IMAGE):$${version:-dev} -f Dockerfile . ; \
	else \
	  echo "make image: skipped: Docker is not available here (no docker command, or no daemon to talk to)"; \
	fi

clean:
	rm -rf $(VENV) .argus .pytest_cache .mypy_cache .ruff_cache
