"""The pytest plugin's reports of a split run, read and merged (argus.shard.pytest_reports):
what a version 2 report must say of its tests, and a version 1 report still merging alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from argus.errors import InputError
from argus.shard.outcomes import collection
from argus.shard.pytest_reports import merge_pytest_reports, parse_pytest_report

TESTS = {"t.py::test_a": "passed", "t.py::test_b": "skipped"}
ASSERTION = {"test": "t.py::test_a", "name": "home", "status": "passed", "gates": []}


def _report(**change: Any) -> dict[str, Any]:
    raw = {
        "version": 2,
        "shard": None,
        "collected": collection(TESTS),
        "tests": TESTS,
        "assertions": [ASSERTION],
    }
    return {**raw, **change}


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"version": 3}, "version must be one of 1, 2"),
        ({"tests": ["t.py::test_a"]}, "tests must map each node id to one of: passed, failed"),
        ({"tests": {"t.py::test_a": "green"}}, "tests must map each node id"),
        ({"tests": {"": "passed"}}, "tests must map each node id"),
        ({"tests": {"t.py::test_b": "passed"}}, "an assertion of t.py::test_a, a test the"),
        ({"collected": None}, "collected is missing: the run never said what it collected"),
        ({"collected": {"count": -1, "sha256": "ab"}}, "collected must be an object {count,"),
        ({"collected": {"count": 2}}, "collected must be an object {count, sha256}"),
    ],
)
def test_a_malformed_version_2_report_is_one_line_naming_the_file(
    change: dict[str, Any], needle: str
) -> None:
    with pytest.raises(InputError) as caught:
        parse_pytest_report(_report(**change), Path("r.json"))
    assert str(caught.value).startswith("r.json: not an argus pytest report: ")
    assert needle in str(caught.value)


def test_a_whole_run_merges_with_its_tests_and_their_failures() -> None:
    failing = {**TESTS, "t.py::test_c": "not run"}
    raw = _report(tests=failing, collected=collection(failing))
    merged = merge_pytest_reports([parse_pytest_report(raw, Path("r.json"))])
    assert (merged.failed, merged.failing_tests, merged.exit_code) == (
        0,
        {"t.py::test_c": "not run"},
        1,
    )
    assert merged.tests == failing and merged.collected == collection(failing)


def test_a_version_1_report_merges_as_before_without_tests() -> None:
    raw = {"version": 1, "shard": None, "assertions": [{**ASSERTION, "status": "failed"}]}
    merged = merge_pytest_reports([parse_pytest_report(raw, Path("r.json"))])
    assert (merged.tests, merged.collected, merged.failing_tests) == (None, None, {})
    assert (merged.failed, merged.exit_code) == (1, 1)
