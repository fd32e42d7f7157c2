"""Fuzz settings and the tally `make fuzz` prints.

``make test`` runs every target with a few generated inputs (ARGUS_FUZZ_EXAMPLES, default 6);
``make fuzz`` sets it to 600 per target (over 10,000 in all) and turns on the hang watchdog.
Hypothesis keeps no example database here: a run never writes into the repository.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("ARGUS_FUZZ_EXAMPLES", "6"))
# Seconds one input may take before it counts as a hang (make fuzz only; 0: no watchdog).
HANG_SECONDS = int(os.environ.get("ARGUS_FUZZ_HANG_SECONDS", "0"))

FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=EXAMPLES <= 20,  # make test: the same inputs every run
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
        HealthCheck.filter_too_much,
    ],
)

TALLY: Counter[tuple[str, int]] = Counter()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not TALLY:
        return
    total = sum(TALLY.values())
    targets = sorted({name for name, _ in TALLY})
    terminalreporter.section("argus fuzz")
    for name in targets:
        codes = {code: n for (t, code), n in sorted(TALLY.items()) if t == name}
        terminalreporter.write_line(
            f"{name:<20} {sum(codes.values()):>6} inputs, exit codes {codes}"
        )
    by_code: Counter[int] = Counter()
    for (_, code), n in TALLY.items():
        by_code[code] += n
    terminalreporter.write_line(
        f"total: {total} inputs over {len(targets)} targets, "
        f"exit codes {dict(sorted(by_code.items()))}"
    )
