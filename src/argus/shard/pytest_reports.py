"""The pytest plugin's ``--argus-report`` JSON files of a split run (``--argus-shard I/N``),
merged as ``argus merge`` merges the CLI's results files.

    is_pytest_report(raw)               the plugin's report shape, not a results file
    parse_pytest_report(raw, path)      one shard's report, checked (InputError naming the file)
    merge_pytest_reports(reports)       every shard once, each assertion once, one exit code

As for results files, a missing or repeated shard is bad input, never a smaller green run, and
nothing is taken on the file's word: whether an assertion passed is re-derived from its status
and its gates, and the totals are counted again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.shard.merge import check_shards
from argus.shard.split import Shard

PYTEST_REPORT_VERSION = 1
# The statuses of a view assertion that pass (argus.testing.ViewResult.ok).
PASSING = ("passed", "written", "updated")
RED_GATE = ("fail", "error")


@dataclass(frozen=True)
class PytestReport:
    path: Path
    shard: Shard | None
    assertions: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class MergedPytest:
    shards: int
    assertions: tuple[dict[str, Any], ...]  # each with ``ok`` re-derived
    corrected: tuple[str, ...]  # "test: name" whose recorded ``ok`` the re-derivation changed

    @property
    def failed(self) -> int:
        return sum(not a["ok"] for a in self.assertions)

    @property
    def exit_code(self) -> int:
        return 1 if self.failed else 0


def is_pytest_report(raw: object) -> bool:
    return isinstance(raw, dict) and "assertions" in raw and "schema" not in raw


def parse_pytest_report(raw: object, path: Path) -> PytestReport:
    def bad(what: str) -> InputError:
        return InputError(f"{path}: not an argus pytest report: {what}")

    if not isinstance(raw, dict) or raw.get("version") != PYTEST_REPORT_VERSION:
        raise bad(f"version must be {PYTEST_REPORT_VERSION}")
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
    return PytestReport(path, _shard(raw.get("shard"), bad), tuple(assertions))


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
    return MergedPytest(total, tuple(merged), tuple(corrected))
