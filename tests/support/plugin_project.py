"""The pytest plugin's inner projects (pytester): a page, an argus.toml, a test file and a
conftest whose ``page`` fixture is a plain Playwright page (the plugin works on any page, not only
pytest-playwright's). Shared by the modules of tests/testing/test_plugin*.py, which are split
only so that pytest-xdist (``--dist loadfile``) can run them on different workers.

    @pytest.fixture
    def project(pytester, monkeypatch):
        return new_project(pytester, monkeypatch)

    run(project, "--update-snapshots").assert_outcomes(passed=1)
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.support.one_comparison import CONFTEST as INNER_CONFTEST
from tests.support.one_comparison import INNER_PLUGINS_OFF

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


def new_project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """An inner project with ``CI`` and ``GITHUB_STEP_SUMMARY`` removed (a test sets them)."""
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
    return pytester.runpytest_inprocess(*INNER_PLUGINS_OFF, *args)


def retitle(pytester: pytest.Pytester, title: str) -> None:
    (pytester.path / "page.html").write_text(PAGE.format(title=title))
