"""The pytest plugin's ``--argus-report`` JSON files of a split run (``--argus-shard I/N``),
merged as ``argus merge`` merges the CLI's results files.

    is_pytest_report(raw)               the plugin's report shape, not a results file
    parse_pytest_report(raw, path)      one shard's report, checked (InputError naming the file)
    merge_pytest_reports(reports)       every shard once, each assertion once, one exit code

As for results files, a missing or repeated shard is bad input, never a smaller green run, and
nothing is taken on the file's word: whether an assertion passed is re-derived from its status
and its gates, and the totals are counted again.

A version 2 report also says what its run collected before the split (a count and a digest
of the node ids) and each of its tests' outcome. The shards must have collected the same tests
and, together, run each of them once: a test that ran in no shard (machines that computed
different splits, from different durations files) or in two is bad input. A test that failed,
errored or never finished makes the merge exit 1, as a failed assertion does, whether or not
it made an assertion. Version 1 reports, which say neither, still merge among themselves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.shard.merge import check_shards
from argus.shard.outcomes import FAILING, OUTCOMES, collection
from argus.shard.split import Shard

PYTEST_REPORT_VERSIONS = (1, 2)
# The statuses of a view assertion that pass (argus.testing.ViewResult.ok).
PASSING = ("passed", "written", "updated")
RED_GATE = ("fail", "error")


@dataclass(frozen=True)
class PytestReport:
    path: Path
    shard: Shard | None
    assertions: tuple[Mapping[str, Any], ...]
    collected: Mapping[str, Any] | None = None  # version 2: {"count", "sha256"}
    tests: Mapping[str, str] | None = None  # version 2: node id -> outcome


@dataclass(frozen=True)
class MergedPytest:
    shards: int
    assertions: tuple[dict[str, Any], ...]  # each with ``ok`` re-derived
    corrected: tuple[str, ...]  # "test: name" whose recorded ``ok`` the re-derivation changed
    collected: Mapping[str, Any] | None = None
    tests: Mapping[str, str] | None = None  # every shard's, when the reports say them

    @property
    def failed(self) -> int:
        return sum(not a["ok"] for a in self.assertions)

    @property
    def failing_tests(self) -> dict[str, str]:
        tests = self.tests or {}
        return {test: outcome for test, outcome in sorted(tests.items()) if outcome in FAILING}

    @property
    def exit_code(self) -> int:
        return 1 if self.failed or self.failing_tests else 0


def is_pytest_report(raw: object) -> bool:
    return isinstance(raw, dict) and "assertions" in raw and "schema" not in raw


def parse_pytest_report(raw: object, path: Path) -> PytestReport:
    def bad(what: str) -> InputError:
        return InputError(f"{path}: not an argus pytest report: {what}")

    if not isinstance(raw, dict) or raw.get("version") not in PYTEST_REPORT_VERSIONS:
        raise bad(f"version must be one of {', '.join(map(str, PYTEST_REPORT_VERSIONS))}")
    assertions = raw.get("assertions")
    if not isinstance(assertions, list):
        raise bad("assertions must be a list")
    for i, item in enumerate(assertions):
        if not isinstance(item, dict) or not all(
            isinstance(item.get(k), str) and item.get(k) for k in ("test", "name", "status")
        ):
            raise bad(f"assertions[{i}] must name its test, name and status")
        if not isinstance(item.get("gates", []), list):
            raise bad(f"assertions[{i}].gates must be a list")
    shard = _shard(raw.get("shard"), bad)
    if raw["version"] == 1:
        return PytestReport(path, shard, tuple(assertions))
    tests = raw.get("tests")
    if not isinstance(tests, dict) or not all(
        isinstance(k, str) and k and v in OUTCOMES for k, v in tests.items()
    ):
        raise bad(f"tests must map each node id to one of: {', '.join(OUTCOMES)}")
    for item in assertions:
        if item["test"] not in tests:
            raise bad(f"an assertion of {item['test']}, a test the report does not list")
    return PytestReport(
        path, shard, tuple(assertions), _collected(raw.get("collected"), bad), tests
    )


def _collected(value: object, bad: Any) -> Mapping[str, Any]:
    if value is None:
        raise bad("collected is missing: the run never said what it collected (a worker lost?)")
    count = value.get("count") if isinstance(value, dict) else None
    digest = value.get("sha256") if isinstance(value, dict) else None
    if not (isinstance(count, int) and count >= 0 and isinstance(digest, str) and digest):
        raise bad("collected must be an object {count, sha256}")
    return {"count": count, "sha256": digest}


def _shard(value: object, bad: Any) -> Shard | None:
    if value is None:
        return None
    index = value.get("index") if isinstance(value, dict) else None
    total = value.get("total") if isinstance(value, dict) else None
    if not (isinstance(index, int) and isinstance(total, int)) or not 1 <= index <= total:
        raise bad("shard must be an object {index, total} with 1 <= index <= total, or null")
    return Shard(index, total)


def assertion_ok(assertion: Mapping[str, Any]) -> bool:
    """A passing status and no red gate: what the plugin decided, decided again."""
    gates = assertion.get("gates") or []
    red = any(isinstance(g, dict) and g.get("status") in RED_GATE for g in gates)
    return assertion["status"] in PASSING and not red


def merge_pytest_reports(reports: Sequence[PytestReport]) -> MergedPytest:
    if not reports:
        raise InputError("argus merge: give at least one report")
    total = check_shards(reports)
    seen: dict[tuple[str, str], Path] = {}
    merged: list[dict[str, Any]] = []
    corrected: list[str] = []
    for report in reports:
        for item in report.assertions:
            key = (str(item["test"]), str(item["name"]))
            if key in seen:
                raise InputError(
                    f"{report.path}: {key[0]} ({key[1]}) was also run by {seen[key]}; "
                    "merge the shards of one split"
                )
            seen[key] = report.path
            ok = assertion_ok(item)
            if item.get("ok") is not ok:
                corrected.append(f"{key[0]}: {key[1]}")
            merged.append({**item, "ok": ok})
    merged.sort(key=lambda a: (str(a["test"]), str(a["name"])))
    collected, tests = _merge_tests(reports)
    return MergedPytest(total, tuple(merged), tuple(corrected), collected, tests)


def _merge_tests(
    reports: Sequence[PytestReport],
) -> tuple[Mapping[str, Any] | None, dict[str, str] | None]:
    """Every shard's tests, once each, checked against the collection all shards share."""
    listed = [r for r in reports if r.tests is not None]
    if not listed:
        return None, None
    if len(listed) != len(reports):
        old = next(r for r in reports if r.tests is None)
        raise InputError(
            f"{old.path}: a version 1 report (no tests listed) cannot be merged with version 2 "
            "ones; run every shard with the same Argus"
        )
    first = listed[0]
    tests: dict[str, str] = {}
    owner: dict[str, Path] = {}
    for report in listed:
        if report.collected != first.collected:
            raise InputError(
                f"{report.path}: collected {_told(report)}, {first.path} {_told(first)}: the "
                "shards collected different tests; run them on one commit with the same options"
            )
        assert report.tests is not None
        for test, outcome in report.tests.items():
            if test in owner:
                raise InputError(
                    f"{report.path}: {test} also ran in {owner[test]}; give every machine the "
                    "same --argus-durations file (the split depends on it)"
                )
            owner[test], tests[test] = report.path, outcome
    assert first.collected is not None
    if collection(tests) != first.collected:
        count = int(first.collected["count"])
        missing = count - len(tests)
        what = (
            f"{missing} of the {count} collected tests ran in no shard"
            if missing > 0
            else f"the shards ran {len(tests)} tests, not the {count} collected"
        )
        raise InputError(
            f"argus merge: {what}; give every machine the same --argus-durations file "
            "(the split depends on it)"
        )
    return first.collected, dict(sorted(tests.items()))


def _told(report: PytestReport) -> str:
    assert report.collected is not None
    return f"{report.collected['count']} tests ({str(report.collected['sha256'])[:12]})"
