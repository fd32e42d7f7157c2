"""A named target's source scans and focus walk run in the plugin's assertion (inner pytest runs
on a real page): a hard-coded colour in the app's source fails source_tokens, a check of
navigator.webdriver fails tell_tales, focus rings taken away fail focus_visible, and a clean
project passes all three, with only the build-tool gate left to ``argus gates``."""

from __future__ import annotations

import json

import pytest

from tests.support.plugin_project import CONFTEST, run

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>
<style>body {{ margin: 0; font-family: "DejaVu Sans"; background: #ffffff; color: #111114; }}
h1 {{ margin: 8px; font-size: 20px; }} button {{ margin: 8px; }} {extra}</style></head>
<body><main data-testid="screen"><h1 id="title">Hello</h1>
<button type="button">Go</button> <a href="#more">More</a></main></body></html>
"""
NO_RING = "*:focus, *:focus-visible { outline: none; }"

TESTS = """
from pathlib import Path

URL = (Path(__file__).parent / "page.html").as_uri()


def test_gated(page, argus_snapshot):
    page.goto(URL)
    argus_snapshot(page, feature="demo", target="page")
"""

SPEC = {
    "feature": "demo",
    "adapter": "web",
    "design_system": {"tokens": "argus/specs/demo/tokens.json"},
    "targets": [
        {
            "id": "page",
            "route": "/",
            "states": ["default"],
            "gates": ["source_tokens", "tell_tales", "focus_visible", "snapshot", "build"],
        }
    ],
}
CLEAN_CSS = ".chart-bar { fill: var(--accent); }\n"
CLEAN_JS = "export const greet = (name) => `Hello ${name}`;\n"


def _project(
    pytester: pytest.Pytester,
    *,
    css: str = CLEAN_CSS,
    js: str = CLEAN_JS,
    page_css: str = "",
) -> pytest.Pytester:
    pytester.makefile(".toml", argus='[gates.source_tokens]\npaths = ["app/**/*.css"]\n')
    pytester.makeconftest(CONFTEST)
    (pytester.path / "page.html").write_text(PAGE.format(extra=page_css))
    app = pytester.path / "app"
    app.mkdir()
    (app / "chart.css").write_text(css)
    (app / "main.js").write_text(js)
    spec_dir = pytester.path / "argus" / "specs" / "demo"
    spec_dir.mkdir(parents=True)
    tokens = {"colors": {"ink": "#111114", "accent": "#2f5bd3"}}
    (spec_dir / "tokens.json").write_text(json.dumps(tokens))
    (spec_dir / "spec.json").write_text(json.dumps(SPEC))
    pytester.makepyfile(test_views=TESTS)
    return pytester


def _record(pytester: pytest.Pytester, *args: str) -> tuple[pytest.RunResult, dict[str, object]]:
    report = pytester.path / "report.json"
    result = run(pytester, "--update-snapshots", "--argus-report", str(report), *args)
    (record,) = json.loads(report.read_text())["assertions"]
    return result, record


def _statuses(record: dict[str, object]) -> dict[str, str]:
    gates = record["gates"]
    assert isinstance(gates, list)
    return {g["name"]: g["status"] for g in gates}


@pytest.fixture(autouse=True)
def _no_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


def test_a_clean_target_passes_its_scans_and_focus_walk(pytester: pytest.Pytester) -> None:
    result, record = _record(_project(pytester))
    result.assert_outcomes(passed=1)
    assert _statuses(record) == {
        "source_tokens": "pass",
        "tell_tales": "pass",
        "focus_visible": "pass",
    }
    assert record["gates_not_run"] == ["build"]  # a build tool: argus gates runs it


def test_a_hard_coded_off_palette_colour_fails_source_tokens(pytester: pytest.Pytester) -> None:
    project = _project(pytester, css=".chart-bar { fill: #3d6be0; }\n")
    result, record = _record(project)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*view page-default-light: red gate(s) source_tokens",
            "*where: app/chart.css:1 (color*); measured: #3d6be0; expected: token accent*",
            "*not run here (argus gates runs them): build",
        ]
    )
    assert _statuses(record)["tell_tales"] == "pass"
    assert not list(project.path.glob("__snapshots__/**/*.png"))  # red: no baseline


def test_source_checking_navigator_webdriver_fails_tell_tales(pytester: pytest.Pytester) -> None:
    js = CLEAN_JS + "if (navigator.webdriver) { document.body.dataset.quiet = '1'; }\n"
    result, record = _record(_project(pytester, js=js))
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*red gate(s) tell_tales",
            "*where: app/main.js:2 (automation flag or hook)*",
        ]
    )
    assert _statuses(record)["source_tokens"] == "pass"


def test_focus_rings_taken_away_fail_focus_visible(pytester: pytest.Pytester) -> None:
    result, record = _record(_project(pytester, page_css=NO_RING))
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*red gate(s) focus_visible",
            "*focus_visible: fail: 0 of 2 focus stops visibly change*",
            "*where: button at (*); measured: 0 pixels change when focused*",
        ]
    )
    assert (_statuses(record)["source_tokens"], _statuses(record)["tell_tales"]) == (
        "pass",
        "pass",
    )


def test_a_masked_control_is_walked_against_the_page_without_the_mask(
    pytester: pytest.Pytester,
) -> None:
    """The mask paints the render; the walk's reference is the page unmasked, so a control
    under a mask is not seen as changing when focused (a mask must not hide a missing ring)."""
    project = _project(pytester, page_css=NO_RING)
    masked = TESTS.replace(
        'target="page")', 'target="page", mask=[page.locator("button"), page.locator("a")])'
    )
    assert masked != TESTS
    project.makepyfile(test_views=masked)
    result, record = _record(project)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*focus_visible: fail: 0 of 2 focus stops visibly change*"])
    assert _statuses(record)["focus_visible"] == "fail"
