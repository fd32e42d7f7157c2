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


def test_the_gate_holds_the_page_to_the_projects_viewport_and_each_targets_own(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    from argus.config import ViewportConfig

    inputs = habits_inputs()
    spec = inputs.spec
    # No viewport in the spec: the project's (1366x768) is every target's but one.
    targets = tuple(
        dataclasses.replace(t, viewport=Viewport(390, 844) if t.id == "list" else None)
        for t in spec.targets
    )
    spec = dataclasses.replace(spec, viewport=None, targets=targets)
    config = inputs.config.model_copy(update={"viewport": ViewportConfig(width=1366, height=768)})
    lines = [
        "if (innerWidth === 1366) x();",  # the project's width
        "if (innerHeight === 768) x();",  # the project's height
        "if (innerWidth === 390) x();",  # the list target's own width
        "if (innerWidth === 1280) x();",  # nobody's: the spec's viewport is gone
        "if (params.has('argus_fixture')) x();",  # the URL template's parameter
    ]
    (inputs.root / "app.js").write_text("\n".join(lines) + "\n")
    (inputs.root / "index.html").write_text("<!doctype html><p>clean</p>\n")
    outcome = tell_tales_gate(dataclasses.replace(inputs, spec=spec, config=config))
    assert [(f.element, f.property) for f in outcome.findings] == [
        ("app.js:1", "the sensor's viewport tested"),
        ("app.js:2", "the sensor's viewport tested"),
        ("app.js:3", "the sensor's viewport tested"),
        ("app.js:5", "argus_fixture presence tested"),
    ]


def test_a_finding_names_the_file_line_rule_and_text(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("x();\n  if (window.__argusFocus) clean();  \n")
    outcome = check_tell_tales(tmp_path, [Path("a.js")], RULES)
    assert outcome.name == "tell_tales" and outcome.status is GateStatus.FAIL
    (finding,) = outcome.findings
    assert (finding.element, finding.property, finding.value, finding.expected) == (
        "a.js:2",
        "automation flag or hook",
        "if (window.__argusFocus) clean();",
        "no code that detects the sensor",
    )
    assert finding.message == (
        "a.js:2: automation flag or hook; a page must render the same for the sensor "
        "as for a person"
    )
    passed = check_tell_tales(tmp_path, [], RULES)
    assert (passed.name, passed.summary) == ("tell_tales", "no tell-tale in 0 source file(s)")


def test_a_user_agent_test_for_an_automation_agent_is_named_with_its_line() -> None:
    (found,) = scan_text("serve.py", "  if 'Headless' in request.headers['User-Agent']:\n", RULES)
    assert (found.rule, found.text) == (
        "automation user agent tested",
        "if 'Headless' in request.headers['User-Agent']:",
    )


@pytest.mark.parametrize(("hits", "more"), [(5, ""), (6, " and 1 more")])
def test_the_summary_lists_five_lines_and_counts_the_rest(
    tmp_path: Path, hits: int, more: str
) -> None:
    (tmp_path / "a.js").write_text("navigator.webdriver;\n" * hits)
    outcome = check_tell_tales(tmp_path, [Path("a.js")], RULES)
    assert outcome.summary.endswith(f"a.js:5 (automation flag or hook){more}")


def test_a_file_in_another_encoding_or_gone_is_still_scanned_or_passed_over(
    tmp_path: Path,
) -> None:
    # Latin-1 bytes are not UTF-8: the line is still read (the bad byte replaced).
    legacy = "// café\nif (navigator.webdriver) x();\n".encode("latin-1")
    (tmp_path / "legacy.js").write_bytes(legacy)
    (tmp_path / "z.js").write_text("navigator.webdriver;\n")
    files = [Path("gone.js"), Path("legacy.js"), Path("z.js")]  # gone.js: removed since the walk
    outcome = check_tell_tales(tmp_path, files, RULES)
    assert [f.element for f in outcome.findings] == ["legacy.js:2", "z.js:1"]


def test_a_parameter_without_a_value_is_one_the_sensor_adds() -> None:
    assert sensor_parameters("{route}?argus_debug&argus_fixture={fixture}&mode=") == [
        "argus_debug",
        "argus_fixture",
        "mode",
    ]


def test_an_ignored_file_leaves_the_rest_of_its_folder_scanned(tmp_path: Path) -> None:
    for rel in ("a.js", "b.js", "src/a.js", "src/b.js"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("navigator.webdriver\n")
    found = [p.as_posix() for p in source_files(tmp_path, ["a.js", "src/a.js"])]
    assert found == ["b.js", "src/b.js"]
