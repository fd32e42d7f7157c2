"""The pytest plugin end to end: inner pytest runs (pytester) on a real page, each in a project
of its own (tests/support/plugin_project.py); ``CI`` is set or removed explicitly for every run.
Two xdist workers: test_plugin_xdist.py; the spec target's gates: test_plugin_spec_gates.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from tests.support.plugin_project import BASELINE, PAGE, TESTS, new_project, retitle, run

pytestmark = pytest.mark.browser


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    return new_project(pytester, monkeypatch)


def test_record_compare_fail_with_details_and_update(project: pytest.Pytester) -> None:
    first = run(project)
    first.assert_outcomes(failed=1)
    first.stdout.fnmatch_lines(["*A baseline did not exist at *hello-chromium-*.png*"])
    baseline = project.path / BASELINE
    assert Image.open(baseline).size == (320, 160)
    run(project, "--update-snapshots=none").assert_outcomes(passed=1)

    retitle(project, "Hullo")
    report = project.path / "report.json"
    html = project.path / "report.html"
    result = run(project, "--argus-report", str(report), f"--html={html}", "--self-contained-html")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*view 'hello' does not match its baseline",
            "*measured: * pixels differ (*); allowed 0",
            "*expected: threshold 0.1, max_diff_pixels 0*",
            "*where: *x* at (*, *)",
            "*render: *hello-actual.png",
            "*baseline: *hello-chromium-*.png",
            "*diff: *hello-actual-diff.png",
        ]
    )
    data = json.loads(report.read_text())
    (record,) = data["assertions"]
    assert (data["total"], data["failed"], record["status"]) == (1, 1, "failed")
    assert record["mismatch"] > 0
    assert Path(record["diff"]).is_file() and Path(record["render"]).is_file()
    assert record["test"] == "test_views.py::test_hello"
    text = html.read_text()  # pytest-html carries the three images
    for label in ("hello render", "hello baseline", "hello diff"):
        assert label in text

    before = baseline.read_bytes()
    run(project, "--update-snapshots").assert_outcomes(passed=1)  # bare flag: changed
    assert baseline.read_bytes() != before
    run(project).assert_outcomes(passed=1)


def test_in_ci_a_missing_baseline_fails_and_nothing_is_written(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI", "true")
    result = run(project)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*view 'hello' has no baseline: nothing was compared",
            "*why: *no baseline at *hello-chromium-*.png (update mode none)*",
            "*render: *hello-actual.png",
        ]
    )
    assert "does not match its baseline" not in result.stdout.str()
    assert not (project.path / BASELINE).exists()
    run(project, "--update-snapshots=missing").assert_outcomes(passed=1)
    assert (project.path / BASELINE).is_file()


def test_bad_reporter_and_bad_names_are_usage_errors(project: pytest.Pytester) -> None:
    result = run(project, "--argus-reporter", "xml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--reporter 'xml': use junit=PATH, json=PATH or github*"])
    project.makepyfile(
        test_views=TESTS.replace('argus_snapshot(page, "hello")', 'argus_snapshot(page, "../x")')
    )
    bad = run(project)
    bad.assert_outcomes(failed=1)
    bad.stdout.fnmatch_lines(["*view name '../x': use letters, digits, _ . - only*"])
    assert not (project.path / "__snapshots__").exists()


def test_without_a_target_the_frameworks_preset_masks_its_chrome(
    project: pytest.Pytester,
) -> None:
    """A Flask debug toolbar (the server-rendered preset's #flDebug) changes between runs: with
        the framework in argus.toml it is masked as the test's own locators are (the baseline holds
    the mask, not the toolbar)."""
    toolbar = '<div id="flDebug" style="height: 20px">{}</div></body>'

    def page(text: str) -> None:
        html = PAGE.format(title="Hello").replace("</body>", toolbar.format(text))
        (project.path / "page.html").write_text(html)

    (project.path / "argus.toml").write_text('framework = "server-rendered"\n')
    page("12 queries in 3 ms")
    run(project, "--update-snapshots=all").assert_outcomes(passed=1)
    page("14 queries in 9 ms")
    run(project).assert_outcomes(passed=1)
    (project.path / "argus.toml").write_text("")  # the toolbar shown: not the baseline
    run(project).assert_outcomes(failed=1)
