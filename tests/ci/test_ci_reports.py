"""CI output: JUnit XML valid against the Jenkins schema, GitHub annotations, JSON summary."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from argus.ci import (
    CaseResult,
    emit_reports,
    json_summary,
    junit_xml,
    parse_reporters,
    step_summary,
    workflow_annotations,
)
from argus.ci.cases import line_of
from argus.errors import InputError
from tests.ci.junit_schema import junit_errors

SPEC = Path("/repo/argus/specs/habits/spec.json")
CASES = [
    CaseResult("habits", "habits.list-populated-light", "a11y_ids", "passed", "4/4", time_s=0.01),
    CaseResult(
        "habits",
        "habits.list-populated-light",
        "axe",
        "failed",
        "2 rule(s) at serious+",
        "color-contrast on .summary: measured 3.1, expected 4.5\x07",
        SPEC,
        14,
        0.25,
    ),
    CaseResult("habits", "habits.list-empty-dark", "snapshot", "skipped", "no baseline yet"),
    CaseResult("other", "other.main-default-light", "console", "error", "could not run, 100%"),
]


def test_junit_output_validates_against_the_jenkins_schema() -> None:
    document = junit_xml(CASES, "argus gates")
    assert junit_errors(document) == []
    root = ET.fromstring(document)
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("4", "1", "1")
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["habits", "other"]
    assert (suites[0].get("tests"), suites[0].get("skipped")) == ("3", "1")
    failed = suites[0].findall("testcase")[1]
    failure = failed.find("failure")
    assert failure is not None and failure.get("message") == "2 rule(s) at serious+"
    assert failure.text == "color-contrast on .summary: measured 3.1, expected 4.5"  # no BEL
    assert failed.findtext("system-out") == f"{SPEC}:14"
    assert suites[0].findall("testcase")[2].findtext("skipped") == "no baseline yet"
    assert suites[1].find("testcase/error") is not None


def test_an_empty_run_is_still_a_valid_report() -> None:
    assert junit_errors(junit_xml([], "argus loop")) == []


def test_the_schema_check_catches_an_invalid_report() -> None:
    bad = b'<testsuites><testsuite tests="1"><testcase/></testsuite></testsuites>'
    assert len(junit_errors(bad)) == 2  # testsuite without name, testcase without name


def test_github_annotations_point_at_the_failing_line_and_escape_text() -> None:
    lines = workflow_annotations(CASES, root=Path("/repo"))
    assert lines == [
        "::error file=argus/specs/habits/spec.json,line=14,"
        "title=habits.list-populated-light axe::"
        "color-contrast on .summary: measured 3.1, expected 4.5\x07",
        "::error title=other.main-default-light console::could not run, 100%25",
    ]


def test_step_summary_is_a_table_of_every_case() -> None:
    text = step_summary(CASES, "argus gates")
    assert "1 of 4 passed" in text
    assert text.count("\n| ") == 6  # header, separator, 4 rows
    assert "| ❌ | axe | habits.list-populated-light | 2 rule(s) at serious+ |" in text


def test_json_summary_counts() -> None:
    summary = json_summary(CASES, "argus gates")
    assert (summary["ok"], summary["total"], summary["passed"], summary["failed"]) == (
        False,
        4,
        1,
        1,
    )
    assert (summary["error"], summary["skipped"]) == (1, 1)
    assert summary["cases"][1]["file"] == str(SPEC)
    assert json_summary(CASES[:1], "x")["ok"] is True


def test_emit_writes_every_report_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary_md = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary_md))
    printed: list[str] = []
    reporters = parse_reporters(
        [f"junit={tmp_path / 'out/j.xml'}", f"json={tmp_path / 's.json'}", "github"]
    )
    emit_reports(reporters, CASES, tool="argus gates", out=printed.append)
    assert junit_errors((tmp_path / "out/j.xml").read_bytes()) == []
    assert json.loads((tmp_path / "s.json").read_text())["failed"] == 1
    assert len(printed) == 2 and all(line.startswith("::error ") for line in printed)
    assert "1 of 4 passed" in summary_md.read_text()


@pytest.mark.parametrize("value", ["junit", "junit=", "xml=out.xml", "github=x", ""])
def test_an_unknown_reporter_is_bad_input(value: str) -> None:
    with pytest.raises(InputError, match="use junit=PATH, json=PATH or github"):
        parse_reporters([value])


def test_line_of_finds_the_first_occurrence(tmp_path: Path) -> None:
    path = tmp_path / "spec.json"
    path.write_text('{\n  "targets": [\n    {"id": "list"}\n  ]\n}\n')
    assert line_of(path, '"id": "list"') == 3
    assert line_of(path, "nope") is None
    assert line_of(tmp_path / "missing.json", "x") is None
