"""Durability: a loop SIGKILLed at any point resumes to the same end, with no sign-off lost or
written twice and a consistent run store. Also: two loops on one feature at once.

Each drive is a process of its own, forked by a warm parent that has the loop's imports
(tests/support/warm_runner.py), so a SIGKILL ends it as it ends a new interpreter."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from argus.loop.records.signoff import load_records
from argus.store.runstore import RunStore
from tests.conftest import REPO_ROOT
from tests.loop.fakeapp import FEATURE, make_repo
from tests.support.warm_runner import run_module

DEFECTS = [
    {"name": "bad-id", "kind": "gate", "target": "a11y_ids", "fixable": True},
    {"name": "row", "kind": "dimension", "target": "functional_correctness", "fixable": True},
]


def _drive(root: Path, kill_at: str | None = None, mode: str = "headless") -> int:
    env = {k: v for k, v in os.environ.items() if k != "ARGUS_TEST_KILL_AT"}
    if kill_at:
        env["ARGUS_TEST_KILL_AT"] = kill_at
    proc = run_module(
        [sys.executable, "-m", "tests.loop.drive_fake_loop", str(root), mode],
        cwd=REPO_ROOT,
        env=env,
        timeout=120,
    )
    assert proc.returncode in (-signal.SIGKILL, 0, 1, 2, 3), proc.stderr
    return proc.returncode


def _check_consistent(root: Path) -> None:
    spec_dir = root / "argus" / "specs" / FEATURE
    records = load_records(spec_dir / ".argus-runs" / "signoff.json")
    assert len(records) == 1, records
    run = json.loads((spec_dir / ".argus-runs" / "run.json").read_text())
    assert run["status"] == "finished" and run["final_status"] == "DONE"
    assert records[0]["run_id"] == run["run_id"]
    state = json.loads((spec_dir / ".argus-runs" / "list-a-light" / "state.json").read_text())
    with RunStore.open(root) as store:
        runs = store.runs(feature=FEATURE)
        events = store.events(run_id=run["run_id"])
    assert [r.run_id for r in runs] == [run["run_id"]]  # resumed, not restarted
    assert runs[0].status == "DONE"
    # Nothing appended twice (notes, the protected-set manifests and commit notes of
    # argus.loop.guard.manifest, are taken again whenever the loop takes them).
    keys = Counter((e.kind, e.iteration) for e in events if e.kind != "note")
    assert all(count == 1 for count in keys.values()), keys
    decisions = [e.iteration for e in events if e.kind == "decision"]
    assert decisions == list(range(1, state["iteration"] + 1))  # one per committed iteration
    kinds = [e.kind for e in events if e.kind != "note"]
    assert kinds.count("sign_off") == 1
    assert kinds[0] == "run_started" and kinds[-1] == "run_finished"
    # No leftover iteration beyond the committed ones.
    dirs = sorted((spec_dir / ".argus-runs" / "list-a-light").glob("iteration-*"))
    assert len(dirs) == state["iteration"]


KILL_POINTS = [
    "run_started",
    "before_implement:2",
    "after_implement:2",
    "after_sense:1",
    "after_gates:1",
    "after_judge:2",
    "before_commit:3",
    "after_commit:2",
    "after_events:3",
    "after_baseline",
    "after_signoff_record",
    "after_signoff_event",
    "before_finish",
]


@pytest.mark.parametrize("kill_at", KILL_POINTS)
def test_kill_at_any_point_then_resume(tmp_path: Path, kill_at: str) -> None:
    root = make_repo(tmp_path, [dict(d) for d in DEFECTS])
    assert _drive(root, kill_at) == -signal.SIGKILL
    assert _drive(root) == 0
    _check_consistent(root)


def test_killed_twice_in_different_places(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [dict(d) for d in DEFECTS])
    assert _drive(root, "after_commit:1") == -signal.SIGKILL
    assert _drive(root, "after_judge:3") == -signal.SIGKILL
    assert _drive(root, "after_signoff_record") == -signal.SIGKILL
    assert _drive(root) == 0
    _check_consistent(root)


def test_kill_during_a_tampering_edit_is_still_caught(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [dict(DEFECTS[0])])
    spec_md = root / "argus" / "specs" / FEATURE / "spec.md"
    original = spec_md.read_text()
    env = dict(os.environ, ARGUS_TEST_KILL_AT="after_implement:2")
    proc = run_module(
        [sys.executable, "-m", "tests.loop.drive_fake_loop", str(root), "headless", "--tamper"],
        cwd=REPO_ROOT,
        env=env,
        timeout=120,
    )
    assert proc.returncode == -signal.SIGKILL
    # Put back as soon as the implementer returned, before the loop was killed; a kill during
    # the edit itself is test_forgery.py's test_kill_the_parent_after_an_edit_is_caught_on_resume.
    assert spec_md.read_text() == original
    _drive(root)  # resumes with an honest implementer
    assert spec_md.read_text() == original


def test_second_loop_on_the_same_feature_is_refused(tmp_path: Path, run_argus: object) -> None:
    root = make_repo(tmp_path, [])
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from pathlib import Path\n"
            "from argus.loop.guard.lock import FeatureLock\n"
            "FeatureLock(Path(sys.argv[1]), 'demo').acquire()\n"
            "print('locked', flush=True)\n"
            "time.sleep(60)\n",
            str(root / "argus/specs/demo/.argus-runs"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        second = run_argus("loop", "--feature", FEATURE, "--mode", "headless", cwd=root)  # type: ignore[operator]
        assert second.returncode == 2
        assert "another argus loop is running on feature 'demo'" in second.stderr
        assert f"pid {holder.pid}" in second.stderr
        assert len(second.stderr.strip().splitlines()) == 1
    finally:
        holder.kill()
        holder.wait()


def test_kill_before_run_json_names_the_run_closes_the_orphan(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [dict(d) for d in DEFECTS])
    assert _drive(root, "store_run_started") == -signal.SIGKILL
    assert _drive(root) == 0
    with RunStore.open(root) as store:
        runs = sorted(store.runs(feature=FEATURE), key=lambda r: r.started_at)
    assert [r.status for r in runs] == ["ABANDONED", "DONE"]  # nothing left open
    assert all(r.finished_at is not None for r in runs)
