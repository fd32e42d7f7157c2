"""The pytest plugin runs the spec target's gates on the page (an inner pytest run on a real
page, tests/support/plugin_project.py) and leaves the dead-control probe out."""

from __future__ import annotations

import json

import pytest

from tests.ci.junit_schema import junit_errors
from tests.support.plugin_project import TESTS, new_project, run

pytestmark = pytest.mark.browser


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    return new_project(pytester, monkeypatch)


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
