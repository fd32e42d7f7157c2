"""JUnit XML in the shape CI systems read (Jenkins' JUnit schema, which GitLab, Azure
Pipelines, CircleCI and the GitHub test-report actions accept): testsuites > testsuite (one per
suite) > testcase, with failure, error or skipped, and the details as the element's text."""

from __future__ import annotations

import socket
from collections.abc import Sequence
from datetime import UTC, datetime
from xml.etree import ElementTree as ET

from argus.ci.cases import CaseResult

# Characters XML 1.0 cannot carry (a page's text may contain them).
_INVALID = dict.fromkeys(c for c in range(32) if chr(c) not in "\t\n\r")


def _text(value: str) -> str:
    return value.translate(_INVALID)


def _counts(cases: Sequence[CaseResult]) -> dict[str, str]:
    return {
        "tests": str(len(cases)),
        "failures": str(sum(c.status == "failed" for c in cases)),
        "errors": str(sum(c.status == "error" for c in cases)),
        "time": f"{sum(c.time_s for c in cases):.3f}",
    }


def junit_xml(cases: Sequence[CaseResult], name: str) -> bytes:
    """The report as UTF-8 bytes, suites in the order they first appear."""
    suites: dict[str, list[CaseResult]] = {}
    for case in cases:
        suites.setdefault(case.suite, []).append(case)
    root = ET.Element("testsuites", {"name": _text(name), **_counts(cases)})
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S")
    for index, (suite_name, members) in enumerate(suites.items()):
        counts = _counts(members)
        suite = ET.SubElement(
            root,
            "testsuite",
            {
                "name": _text(suite_name),
                "tests": counts["tests"],
                "failures": counts["failures"],
                "errors": counts["errors"],
                "skipped": str(sum(c.status == "skipped" for c in members)),
                "time": counts["time"],
                "timestamp": stamp,
                "hostname": _text(socket.gethostname()),
                "id": str(index),
            },
        )
        for case in members:
            _case(suite, case)
    ET.indent(root)
    body: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return body


def _case(suite: ET.Element, case: CaseResult) -> None:
    element = ET.SubElement(
        suite,
        "testcase",
        {
            "name": _text(case.name),
            "classname": _text(case.classname),
            "time": f"{case.time_s:.3f}",
        },
    )
    if case.status == "skipped":
        ET.SubElement(element, "skipped").text = _text(case.message)
    elif case.status in ("failed", "error"):
        kind = "failure" if case.status == "failed" else "error"
        child = ET.SubElement(
            element, kind, {"message": _text(case.message), "type": f"argus.{kind}"}
        )
        child.text = _text(case.details or case.message)
    if case.file is not None:
        where = f"{case.file}:{case.line}" if case.line else str(case.file)
        ET.SubElement(element, "system-out").text = _text(where)
