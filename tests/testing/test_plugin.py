"""The pytest plugin end to end: inner pytest runs (pytester, in subprocesses) on a real page.

Each inner run gets its own project: a page, an argus.toml, a test file and a conftest whose
``page`` fixture is a plain Playwright page (the plugin works on any page, not only
pytest-playwright's). ``CI`` is set or removed explicitly for every run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from PIL import Image

from tests.ci.junit_schema import junit_errors
from tests.support.one_comparison import CONFTEST as INNER_CONFTEST

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>
<style>body {{ margin: 0; font-family: "DejaVu Sans"; background: #ffffff; color: #111114; }}
h1 {{ margin: 8px; font-size: 20px; }}</style></head>
<body><main data-testid="screen"><h1 id="title">{title}</h1>
<button type="button">Go</button></main></body></html>
"""

# The inner project's conftest: one Chromium as Argus launches it, a 320×160 page.
CONFTEST = INNER_CONFTEST.format(width=320, height=160)

TESTS = """
from pathlib import Path

URL = (Path(__file__).parent / "page.html").as_uri()


def test_hello(page, argus_snapshot):
    page.goto(URL)
    argus_snapshot(page, "hello")
"""

BASELINE = Path("__snapshots__/test_views/hello-chromium-" + sys.platform + ".png")


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    pytester.makefile(".toml", argus="")
    pytester.makeconftest(CONFTEST)
    (pytester.path / "page.html").write_text(PAGE.format(title="Hello"))
    pytester.makepyfile(test_views=TESTS)
    return pytester


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """An inner run in this process (no interpreter start-up); plugins of the outer environment
    that would change node ids stay out."""
    return pytester.runpytest_inprocess("-p", "no:playwright", "-p", "no:cacheprovider", *args)


def retitle(pytester: pytest.Pytester, title: str) -> None:
    (pytester.path / "page.html").write_text(PAGE.format(title=title))


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
    result = project.runpytest_subprocess(
        "-p",
        "no:playwright",
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


def test_the_spec_target_s_gates_run_on_the_page(project: pytest.Pytester) -> None:
    spec_dir = project.path / "argus" / "specs" / "demo"
    spec_dir.mkdir(parents=True)
    (spec_dir / "tokens.json").write_text(json.dumps({"colors": {"ink": "#111114"}}))
    spec = {
        "feature": "demo",
        "adapter": "web",
        "design_system": {"tokens": "argus/specs/demo/tokens.json"},
        "targets": [
            {
                "id": "page",
                "route": "/",
                "states": ["default"],
                "a11y_contract": ["screen", "title", "missing.id"],
                "gates": ["a11y_ids", "console", "snapshot", "build"],
            }
        ],
    }
    (spec_dir / "spec.json").write_text(json.dumps(spec))
    project.makepyfile(
        test_views=TESTS
        + """

def test_gated(page, argus_snapshot):
    page.goto(URL)
    page.evaluate("console.error('boom')")
    argus_snapshot(page, feature="demo", target="page")
"""
    )
    junit = project.path / "junit.xml"
    result = run(
        project,
        "--update-snapshots",
        "-k",
        "gated",
        "--argus-reporter",
        f"junit={junit}",
        "--argus-reporter",
        "github",
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*view page-default-light: red gate(s) a11y_ids, console",
            "*a11y_ids: fail: *",
            "*where: missing.id*",
            "*console: fail: *",
            "::error file=test_views.py,line=*,"
            "title=test_views.py%3A%3Atest_gated page-default-light::*",
        ]
    )
    # A page with red gates never becomes the baseline (it would ask for the defect back).
    result.stdout.fnmatch_lines(
        ["*baseline not written or updated while the page's gates are red*"]
    )
    assert not list(project.path.glob("__snapshots__/**/*.png"))
    assert junit_errors(junit.read_bytes()) == []
    # The plugin only gates: the dead-control probe is left out, and the view's record says so.
    (meta,) = project.path.rglob("*-sensed/meta.json")
    assert json.loads(meta.read_text())["controls"] == {
        "ran": False, "why": "no reader: gates only (the pytest plugin)"
    }  # fmt: skip
    assert not (meta.parent / "controls.json").exists()


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
