"""The implementer sandbox (argus.loop.sandbox): writes limited to what it may edit, where the
kernel has Landlock; hash-checked only otherwise, and the run and the report say which."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.loop.engine.modes import Mode
from argus.loop.engine.run import LoopOptions, RunOutcome, run_loop
from argus.loop.landlock_exec import abi_version
from argus.loop.records.status import Status
from argus.loop.sandbox import HASH_CHECKED, LANDLOCK, detect, write_rules
from tests.loop.fakeapp import FEATURE, FakeServices, implementer_command, make_repo

RUNS = Path("argus") / "specs" / FEATURE / ".argus-runs"
GATE = {"name": "bad-id", "kind": "gate", "target": "a11y_ids", "fixable": True}
needs_landlock = pytest.mark.skipif(
    abi_version() == 0, reason="this kernel offers no Landlock (or it is disabled)"
)


@pytest.fixture
def sandboxed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARGUS_SANDBOX", raising=False)  # auto: what a user gets


def _run(root: Path, **kw: Any) -> RunOutcome:
    options = LoopOptions(feature=FEATURE, root=root, mode=Mode.HEADLESS, **kw)
    return run_loop(options, services_factory=FakeServices)


def _implementer_records(root: Path) -> list[dict[str, Any]]:
    found = sorted((root / RUNS / "list-a-light").glob("iteration-*/implementer.json"))
    return [json.loads(p.read_text()) for p in found]


def test_rules_allow_every_write_but_beneath_what_is_denied(tmp_path: Path) -> None:
    for rel in ("repo/spec/s.json", "repo/app/a.js", "repo/app/fixtures/f.json", "repo/top.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    (tmp_path / "repo" / "link").symlink_to(tmp_path / "repo" / "spec")
    repo = tmp_path / "repo"
    rules = write_rules(7, [repo / "spec", repo / "app" / "fixtures" / "f.json"])
    dirs, files = set(rules["dirs"]), set(rules["files"])
    assert str(repo / "app" / "fixtures") not in dirs  # it holds a denied file
    assert str(repo / "spec") not in dirs and str(repo / "link") not in dirs | files
    assert {str(repo), str(repo / "app"), str(tmp_path)}.isdisjoint(dirs)  # hold denied paths
    assert str(repo / "top.txt") in files and str(repo / "app" / "a.js") in files
    assert not any(d.startswith(str(repo / "spec")) for d in dirs | files)
    assert "/proc" in dirs or "/usr" in dirs  # the rest of the system is left as it was


def test_off_means_hash_checked_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARGUS_SANDBOX", "off")
    sandbox = detect()
    assert not sandbox.active and sandbox.protection == HASH_CHECKED and sandbox.why_not


def test_hash_checked_runs_say_so(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [dict(GATE)])
    assert _run(root, implementer=implementer_command()).status is Status.DONE
    assert [r["protection"] for r in _implementer_records(root)] == [HASH_CHECKED]
    assert json.loads((root / RUNS / "run.json").read_text())["protection"] == HASH_CHECKED


@needs_landlock
def test_an_honest_implementer_works_sandboxed(tmp_path: Path, sandboxed: None) -> None:
    root = make_repo(tmp_path, [dict(GATE)])
    outcome = _run(root, implementer=implementer_command())
    assert outcome.status is Status.DONE
    assert [r["protection"] for r in _implementer_records(root)] == [LANDLOCK]
    assert json.loads((root / RUNS / "run.json").read_text())["protection"] == LANDLOCK


@needs_landlock
def test_a_sandboxed_implementer_cannot_write_the_spec(
    tmp_path: Path, sandboxed: None, run_argus: Any
) -> None:
    root = make_repo(tmp_path, [dict(GATE)])
    spec_md = root / "argus" / "specs" / FEATURE / "spec.md"
    original = spec_md.read_text()
    outcome = _run(root, implementer=implementer_command("--tamper"), max_iterations=3)
    assert spec_md.read_text() == original  # never written, so nothing to put back
    assert outcome.status is Status.BLOCKED  # it crashes every time: the defect stays
    records = _implementer_records(root)
    assert records and all(r["protection"] == LANDLOCK for r in records)
    assert all(r["outcome"] == "crashed" for r in records)
    log = (root / RUNS / "list-a-light" / "iteration-2" / "implementer.log").read_text()
    assert "Permission denied" in log
    outcomes = (root / RUNS / "list-a-light").glob("iteration-*/outcome.json")
    assert all(json.loads(p.read_text())["kind"] != "integrity" for p in outcomes)
    out = tmp_path / "report.html"
    report = run_argus("report", "--feature", FEATURE, "--out", str(out), cwd=root)
    assert report.returncode == 0, report.stderr
    assert LANDLOCK in out.read_text()  # each iteration's protection, in the report
