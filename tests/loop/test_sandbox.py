"""The implementer under confinement (argus.confine): writes limited to what it may edit, under
bubblewrap, else Landlock; hash-checked only otherwise, and the run and the report say which."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.confine import BUBBLEWRAP, HASH_CHECKED, LANDLOCK, detect
from argus.confine import _bwrap as bwrap_backend
from argus.confine._landlock import abi_version
from argus.loop.engine.modes import Mode
from argus.loop.engine.run import LoopOptions, RunOutcome, run_loop
from argus.loop.records.status import Status
from tests.loop.fakeapp import FEATURE, FakeServices, implementer_command, make_repo

RUNS = Path("argus") / "specs" / FEATURE / ".argus-runs"
GATE = {"name": "bad-id", "kind": "gate", "target": "a11y_ids", "fixable": True}


@pytest.fixture(params=[BUBBLEWRAP, LANDLOCK])
def sandboxed(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each confinement in turn (skipped, saying why, where this machine lacks it)."""
    if request.param == BUBBLEWRAP:
        if bwrap_backend.problem():
            pytest.skip(bwrap_backend.problem())
        monkeypatch.delenv("ARGUS_SANDBOX", raising=False)  # auto: what a user gets
    else:
        if abi_version() == 0:
            pytest.skip("this kernel offers no Landlock (or it is disabled)")
        monkeypatch.setenv("ARGUS_SANDBOX", "landlock")
    return str(request.param)


def _run(root: Path, **kw: Any) -> RunOutcome:
    options = LoopOptions(feature=FEATURE, root=root, mode=Mode.HEADLESS, **kw)
    return run_loop(options, services_factory=FakeServices)


def _implementer_records(root: Path) -> list[dict[str, Any]]:
    found = sorted((root / RUNS / "list-a-light").glob("iteration-*/implementer.json"))
    return [json.loads(p.read_text()) for p in found]


def test_off_means_hash_checked_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARGUS_SANDBOX", "off")
    confinement = detect()
    assert not confinement.active and confinement.protection == HASH_CHECKED
    assert confinement.why_not == "ARGUS_SANDBOX=off"


def test_hash_checked_runs_say_so(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [dict(GATE)])
    assert _run(root, implementer=implementer_command()).status is Status.DONE
    assert [r["protection"] for r in _implementer_records(root)] == [HASH_CHECKED]
    run = json.loads((root / RUNS / "run.json").read_text())
    assert (run["protection"], run["containment"]) == (HASH_CHECKED, "sweep")
    [signoff] = json.loads((root / RUNS / "signoff.json").read_text())["records"]
    assert signoff["protection"] == HASH_CHECKED  # the sign-off says it too


def test_an_honest_implementer_works_sandboxed(tmp_path: Path, sandboxed: str) -> None:
    root = make_repo(tmp_path, [dict(GATE)])
    outcome = _run(root, implementer=implementer_command())
    assert outcome.status is Status.DONE
    assert [r["protection"] for r in _implementer_records(root)] == [sandboxed]
    run = json.loads((root / RUNS / "run.json").read_text())
    assert run["protection"] == sandboxed
    assert run["containment"] == ("pid namespace" if sandboxed == BUBBLEWRAP else "cgroup")
    [signoff] = json.loads((root / RUNS / "signoff.json").read_text())["records"]
    assert signoff["protection"] == sandboxed


def test_a_sandboxed_implementer_cannot_write_the_spec(
    tmp_path: Path, sandboxed: str, run_argus: Any
) -> None:
    root = make_repo(tmp_path, [dict(GATE)])
    spec_md = root / "argus" / "specs" / FEATURE / "spec.md"
    original = spec_md.read_text()
    outcome = _run(root, implementer=implementer_command("--tamper"), max_iterations=3)
    assert spec_md.read_text() == original  # never written, so nothing to put back
    assert outcome.status is Status.BLOCKED  # it crashes every time: the defect stays
    records = _implementer_records(root)
    assert records and all(r["protection"] == sandboxed for r in records)
    assert all(r["outcome"] == "crashed" for r in records)
    log = (root / RUNS / "list-a-light" / "iteration-2" / "implementer.log").read_text()
    assert ("Permission denied" if sandboxed == LANDLOCK else "Read-only file system") in log
    outcomes = (root / RUNS / "list-a-light").glob("iteration-*/outcome.json")
    assert all(json.loads(p.read_text())["kind"] != "integrity" for p in outcomes)
    out = tmp_path / "report.html"
    report = run_argus("report", "--feature", FEATURE, "--out", str(out), cwd=root)
    assert report.returncode == 0, report.stderr
    assert sandboxed in out.read_text()  # each iteration's protection, in the report
