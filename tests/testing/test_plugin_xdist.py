"""The pytest plugin under two pytest-xdist workers (an inner pytest run in a subprocess on a
real page, tests/support/plugin_project.py): nothing shared, and the controller reports."""

from __future__ import annotations

import json
import sys

import pytest

from tests.ci.junit_schema import junit_errors
from tests.support.plugin_project import TESTS, new_project

pytestmark = pytest.mark.browser


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    return new_project(pytester, monkeypatch)


def test_two_xdist_workers_share_nothing_and_the_controller_reports(
    project: pytest.Pytester,
) -> None:
    tests = "\n".join(
        f"""
def test_view_{i}(page, argus_snapshot):
    page.goto(URL)
    argus_snapshot(page, "view-{i}")
    argus_snapshot(page)
"""
        for i in range(4)
    )
    project.makepyfile(test_views=TESTS + tests)
    report = project.path / "out" / "report.json"
    junit = project.path / "out" / "junit.xml"
    # Dash's plug-in (the frameworks extra) left out as in INNER_PLUGINS_OFF: the controller
    # and both workers would each import all of Dash.
    result = project.runpytest_subprocess(
        "-p",
        "no:playwright",
        "-p",
        "no:dash",
        "-n",
        "2",
        "--update-snapshots=missing",
        "--argus-report",
        str(report),
        "--argus-reporter",
        f"junit={junit}",
    )
    result.assert_outcomes(passed=5)
    result.stdout.fnmatch_lines(["*2 workers*"])
    snapshots = sorted(p.name for p in (project.path / "__snapshots__/test_views").iterdir())
    suffix = f"-chromium-{sys.platform}.png"
    assert snapshots == sorted(
        ["hello" + suffix]
        + [f"view-{i}{suffix}" for i in range(4)]
        + [f"test_view_{i}{suffix}" for i in range(4)]
    )
    data = json.loads(report.read_text())
    assert (data["total"], data["failed"]) == (9, 0)
    assert {r["status"] for r in data["assertions"]} == {"written"}
    assert junit_errors(junit.read_bytes()) == []
