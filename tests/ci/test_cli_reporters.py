"""--reporter on `argus gates` and `argus loop`: JUnit, GitHub annotations, JSON summary."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree as ET

from argus.cli._reporters import loop_cases
from argus.loop.engine._context import ViewResult
from argus.loop.engine.modes import Mode
from argus.loop.engine.run import RunOutcome
from argus.loop.records.status import Status
from argus.spec import View, load_spec
from tests.ci.junit_schema import junit_errors
from tests.conftest import RunArgus
from tests.gates.test_cli_gates import VIEW, project
from tests.loop.fakeapp import FEATURE, make_repo


def test_gates_write_junit_annotations_and_a_summary(tmp_path: Path, run_argus: RunArgus) -> None:
    root, sensed = project(tmp_path, page_errors=1)
    junit, summary = tmp_path / "ci/junit.xml", tmp_path / "ci/summary.json"
    done = run_argus(
        "gates",
        *VIEW,
        "--sensed",
        str(sensed),
        "--reporter",
        f"junit={junit}",
        "--reporter",
        "github",
        "--reporter",
        f"json={summary}",
        cwd=root,
    )
    assert done.returncode == 1, done.stderr
    assert junit_errors(junit.read_bytes()) == []
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("name") == "habits"
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert set(cases) == {"token_contrast", "a11y_ids", "axe", "console", "token_compliance"}
    assert cases["console"].find("failure") is not None
    assert cases["a11y_ids"].find("failure") is None
    assert all(c.get("classname") == "habits.list-populated-light" for c in cases.values())
    spec_text = (root / "argus/specs/habits/spec.json").read_text().splitlines()
    line = next(i for i, text in enumerate(spec_text, 1) if '"id": "list"' in text)
    annotations = [x for x in done.stdout.splitlines() if x.startswith("::error ")]
    assert annotations == [
        f"::error file=argus/specs/habits/spec.json,line={line},"
        f"title=habits.list-populated-light console::{annotations[0].split('::', 2)[2]}"
    ]
    data = json.loads(summary.read_text())
    assert (data["tool"], data["total"], data["failed"], data["ok"]) == ("argus gates", 5, 1, False)


def test_a_bad_reporter_is_refused_before_any_work(tmp_path: Path, run_argus: RunArgus) -> None:
    root, sensed = project(tmp_path)
    out = tmp_path / "out"
    done = run_argus(
        "gates", *VIEW, "--sensed", str(sensed), "--out", str(out), "--reporter", "xml", cwd=root
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "argus: --reporter 'xml': use junit=PATH, json=PATH or github"
    ]
    assert not out.exists()


def test_a_blocked_loop_is_one_error_case_never_an_empty_report(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    root = make_repo(tmp_path, [])
    spec_path = root / "argus/specs" / FEATURE / "spec.json"
    spec = json.loads(spec_path.read_text())
    spec["targets"][0]["canonical"] = {"state": "zzz"}
    spec_path.write_text(json.dumps(spec))
    junit = tmp_path / "junit.xml"
    done = run_argus("loop", "--feature", FEATURE, "--reporter", f"junit={junit}", cwd=root)
    assert done.returncode == 2
    assert junit_errors(junit.read_bytes()) == []
    (case,) = ET.parse(junit).getroot().iter("testcase")
    assert case.get("classname") == f"{FEATURE}.run"
    error = case.find("error")
    assert error is not None and error.get("message") == "BLOCKED: no view reached"


def test_loop_cases_pass_only_a_clean_sign_off(tmp_path: Path) -> None:
    spec = load_spec(make_repo(tmp_path, []) / "argus/specs" / FEATURE / "spec.json")
    views = (
        ViewResult(View(FEATURE, "list", "a", "light"), "signed_off", Status.DONE, 2),
        ViewResult(
            View(FEATURE, "list", "b", "light"),
            "budget",
            Status.DONE_WITH_CONCERNS,
            12,
            concerns=("frozen: hierarchy",),
        ),
        ViewResult(View(FEATURE, "list", "c", "light"), "reported", Status.NEEDS_CONTEXT, 1),
        ViewResult(View(FEATURE, "list", "d", "light"), "no_implementer", Status.BLOCKED, 1),
    )
    outcome = RunOutcome(Status.DONE_WITH_CONCERNS, FEATURE, Mode.HEADLESS, views=views)
    cases = loop_cases(FEATURE, spec, outcome)
    assert [c.status for c in cases] == ["passed", "failed", "failed", "error"]
    assert cases[1].details == "DONE_WITH_CONCERNS: budget\nfrozen: hierarchy"
    assert all(c.file == spec.path and c.line is not None for c in cases)


def test_a_source_finding_is_annotated_on_its_css_line_not_the_spec(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    root, sensed = project(tmp_path)
    config = root / "argus.toml"
    config.write_text(config.read_text().replace('"token_compliance"]', '"source_tokens"]'))
    css = root / "app.css"
    css.write_text(css.read_text() + "\n.promo { color: #123456; }\n")
    line = len(css.read_text().splitlines())
    done = run_argus("gates", *VIEW, "--sensed", str(sensed), "--reporter", "github", cwd=root)
    assert done.returncode == 1, done.stderr
    annotations = [x for x in done.stdout.splitlines() if x.startswith("::error ")]
    assert annotations, done.stdout
    assert annotations[0].startswith(
        f"::error file=app.css,line={line},title=habits.list-populated-light source_tokens::"
    )
    assert "#123456" in annotations[0]
    assert not any("spec.json" in a and "source_tokens" in a for a in annotations)
