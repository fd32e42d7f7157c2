"""The start-up area's comparisons: CPU medians against odiff and against fixed budgets."""

from __future__ import annotations

import pytest
from bench.summary import comparisons

REPORT = {
    "medians_ms": {
        "python": 9.0,
        "version": 18.0,
        "hook_stop": 120.0,
        "diff": 150.0,
        "odiff": 25.0,
    },
    "budgets_ms": {"version": 60.0, "hook_stop": 100.0},
    "diff_target": 3.0,
}


def test_each_command_is_compared_with_its_target() -> None:
    rows = {row.subject: row for row in comparisons("startup", REPORT)}
    assert set(rows) == {"`argus --version`", "`argus hook stop`", "`argus diff` (process)"}
    assert rows["`argus --version`"].ratio == pytest.approx(0.3)
    assert rows["`argus --version`"].status == "met"
    assert rows["`argus hook stop`"].ratio == pytest.approx(1.2)
    assert rows["`argus hook stop`"].status == "missed"
    assert rows["`argus diff` (process)"].ratio == pytest.approx(6.0)
    assert rows["`argus diff` (process)"].status == "missed"
    assert {row.issue for row in rows.values()} == {17}


def test_a_report_without_a_median_is_a_key_error() -> None:
    broken = {**REPORT, "medians_ms": {"version": 18.0}}
    with pytest.raises(KeyError):
        comparisons("startup", broken)
