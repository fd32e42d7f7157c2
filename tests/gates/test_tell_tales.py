"""tell_tales: source the implementer may edit that detects the sensor fails the view, naming
file and line; a clean page (the fixture plumbing reading its parameter included) passes."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

from argus.config import ALL_GATES, ProjectConfig
from argus.gates import GateInputs, GateStatus, configured_gates
from argus.gates._tell_tales import (
    check_tell_tales,
    scan_text,
    sensor_parameters,
    source_files,
    tell_tale_rules,
    tell_tales_gate,
)
from argus.spec.model import Viewport

RULES = tell_tale_rules(["argus_fixture", "argus_appearance"], [Viewport(1280, 800)])

HIDING_PAGE = """<!doctype html><html><body>
<script>
  if (navigator.webdriver) {
    document.body.innerHTML = '<h1 id="title">Clean</h1>';
  } else {
    document.body.innerHTML = '<h1 id="title" style="color:#ccc">Real</h1>';
  }
</script></body></html>
"""


@pytest.mark.parametrize(
    "line",
    [
        "if (navigator.webdriver) { hide(); }",
        "const watched = window.navigator['webdriver'];",
        "if (/HeadlessChrome/.test(navigator.userAgent)) clean();",
        "if (navigator.userAgent.toLowerCase().includes('headless')) clean()",
        "if 'Headless' in request.headers.get('User-Agent', ''):",
        "ua = self.headers['user-agent']; bot = 'playwright' in ua",
        "if (window.__playwright || window.__pwInitScripts) clean();",
        "if (window.__argusFocus) clean();",
        "if (document.cdc_adoQpoasnfa76pfcZLmcfl_Array) clean();",
        "if (params.has('argus_fixture')) clean();",
        'if "argus_appearance" in request.args:',
        "if (location.search.includes('argus')) clean();",
        "if (window.innerWidth === 1280) clean();",
        "if (800 == window.innerHeight) clean();",
        "@media (width: 1280px) { .defect { display: none } }",
    ],
)
def test_a_line_that_can_detect_the_sensor_is_a_tell_tale(line: str) -> None:
    (found,) = scan_text("app.js", f"const a = 1;\n{line}\n", RULES)
    assert (found.path, found.line) == ("app.js", 2)


@pytest.mark.parametrize(
    "line",
    [
        'const name = params.get("argus_fixture") || "populated";',
        'const forced = params.get("argus_appearance");',
        "if (window.innerWidth > 1280) wide();",
        "@media (max-width: 1280px) { .nav { display: none } }",
        "import { Dialog } from '@headlessui/react';",
        ".container { width: 1280px; }",
        "const agent = navigator.userAgent;",
        "const driver = new CarDriver();",
    ],
)
def test_ordinary_code_is_not_a_tell_tale(line: str) -> None:
    assert scan_text("app.js", line, RULES) == []


def test_the_rules_follow_the_sensor_s_parameters_and_viewport() -> None:
    rules = tell_tale_rules(["fixture"], [Viewport(390, 844)])
    assert scan_text("a.js", "if (params.has('fixture')) x();", rules)
    assert scan_text("a.js", "if (innerWidth === 390) x();", rules)
    assert not scan_text("a.js", "if (innerWidth === 1280) x();", rules)
    assert not scan_text("a.js", "if (params.has('argus_fixture')) x();", rules)
    template = "{route}?argus_fixture={fixture}&argus_appearance={appearance}"
    assert sensor_parameters(template) == ["argus_fixture", "argus_appearance"]
    assert sensor_parameters("{route}") == []


def test_only_files_the_implementer_may_edit_are_scanned(tmp_path: Path) -> None:
    for rel in (
        "app.js",
        "src/view.tsx",
        "serve.py",
        "README.md",
        "tests/test_app.py",
        "fixtures/hide.js",
        "node_modules/lib/index.js",
        "argus/specs/demo/page.html",
        "argus/other.js",
        "vendor/min.js",
    ):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("navigator.webdriver\n")
    found = sorted(p.as_posix() for p in source_files(tmp_path))
    assert found == ["app.js", "argus/other.js", "serve.py", "src/view.tsx", "vendor/min.js"]
    assert sorted(p.as_posix() for p in source_files(tmp_path, ["vendor/*"])) == [
        "app.js",
        "argus/other.js",
        "serve.py",
        "src/view.tsx",
    ]


def test_a_page_that_hides_from_webdriver_fails_naming_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "hide.html").write_text(HIDING_PAGE)
    (tmp_path / "clean.js").write_text("export const x = 1;\n")
    outcome = check_tell_tales(tmp_path, [Path("clean.js"), Path("hide.html")], RULES)
    assert outcome.status is GateStatus.FAIL
    (finding,) = outcome.findings
    assert finding.element == "hide.html:3"
    assert finding.value == "if (navigator.webdriver) {"
    assert "hide.html:3 (automation flag or hook)" in outcome.summary
    (tmp_path / "hide.html").write_text(HIDING_PAGE.replace("navigator.webdriver", "false"))
    passed = check_tell_tales(tmp_path, [Path("clean.js"), Path("hide.html")], RULES)
    assert passed.status is GateStatus.PASS and passed.findings == ()


def test_the_gate_is_on_by_default_and_passes_the_example_app(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    inputs = habits_inputs()
    assert "tell_tales" in ALL_GATES and "tell_tales" in configured_gates(inputs)
    assert tell_tales_gate(inputs).status is GateStatus.PASS  # app.js reads argus_fixture
    app = inputs.root / "app.js"
    app.write_text(app.read_text() + "\nif (navigator.webdriver) { render(clean); }\n")
    outcome = tell_tales_gate(inputs)
    assert outcome.status is GateStatus.FAIL
    line = len(app.read_text().splitlines())
    assert [f.element for f in outcome.findings] == [f"app.js:{line}"]
    # A file left out is named by the (pinned) config, never by a comment in the file.
    gates = inputs.config.gates
    ignored = gates.model_copy(
        update={"tell_tales": gates.tell_tales.model_copy(update={"ignore": ["app.js"]})}
    )
    config: ProjectConfig = inputs.config.model_copy(update={"gates": ignored})
    assert tell_tales_gate(dataclasses.replace(inputs, config=config)).status is GateStatus.PASS


def test_every_hit_is_counted_but_at_most_100_are_listed(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("navigator.webdriver;\n" * 101)
    outcome = check_tell_tales(tmp_path, [Path("a.js")], RULES)
    assert outcome.data == {"count": 101} and len(outcome.findings) == 100
    assert outcome.summary.startswith("101 line(s) that can detect the sensor: a.js:1 ")
    assert outcome.summary.endswith("a.js:5 (automation flag or hook) and 96 more")


def test_a_file_over_2_mb_is_a_build_output_and_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "bundle.js").write_text("navigator.webdriver;\n" + "x" * 2_000_000)
    (tmp_path / "edge.js").write_text("navigator.webdriver;\n" + "x" * (2_000_000 - 21))
    assert (tmp_path / "edge.js").stat().st_size == 2_000_000
    outcome = check_tell_tales(tmp_path, [Path("bundle.js"), Path("edge.js")], RULES)
    assert [f.element for f in outcome.findings] == ["edge.js:1"]
