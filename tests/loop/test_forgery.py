"""Forgery routes a hostile implementer could take (issue 12, docs/security.md): each one is
played as an attack and must end in a refused or restored run, never DONE with the forgery kept.
The implementer's attacks run three times: hash-checked only, under bubblewrap and under the
Landlock fallback (each skipped, saying why, where this machine lacks it): the checks must hold
in every case.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from argus.confine import _bwrap as bwrap
from argus.confine._landlock import abi_version
from argus.loop.engine.modes import Mode
from argus.loop.engine.run import LoopOptions, RunOutcome, run_loop
from argus.loop.records.signoff import load_records
from argus.loop.records.status import Status
from argus.spec.model import View
from tests.conftest import REPO_ROOT
from tests.loop.fakeapp import (
    FEATURE,
    HOSTILE,
    FakeServices,
    implementer_command,
    make_repo,
    set_defects,
)
from tests.support.processes import running
from tests.support.warm_runner import run_module

HASHED, SANDBOXED, LANDLOCKED = "hash-checked only", "sandboxed: bubblewrap", "sandboxed: landlock"
SPEC_DIR = Path("argus") / "specs" / FEATURE
RUNS = SPEC_DIR / ".argus-runs"
GATE = {"name": "bad-id", "kind": "gate", "target": "a11y_ids", "fixable": True}


@pytest.fixture(params=[HASHED, SANDBOXED, LANDLOCKED])
def protection(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test hash-checked only, then under each confinement (skipped only where this
    machine lacks it)."""
    if request.param == SANDBOXED:
        if bwrap.problem():
            pytest.skip(bwrap.problem())
        monkeypatch.delenv("ARGUS_SANDBOX", raising=False)
    elif request.param == LANDLOCKED:
        if abi_version() == 0:
            pytest.skip("this kernel offers no Landlock (or it is disabled): no sandbox to test")
        monkeypatch.setenv("ARGUS_SANDBOX", "landlock")
    return str(request.param)


def _protections(root: Path) -> set[str]:
    """The protection each implementer call of view a recorded."""
    found = (root / RUNS / "list-a-light").glob("iteration-*/implementer.json")
    return {json.loads(p.read_text()).get("protection") for p in found}


def _drive(root: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "ARGUS_TEST_KILL_AT"}
    return run_module(  # a process of its own, forked warm (tests/support/warm_runner.py)
        [sys.executable, "-m", "tests.loop.drive_fake_loop", str(root), "headless", *flags],
        cwd=REPO_ROOT,
        env=env,
        timeout=120,
    )


def _run(root: Path, factory: Any = FakeServices, **kw: Any) -> RunOutcome:
    options = LoopOptions(feature=FEATURE, root=root, mode=kw.pop("mode", Mode.HEADLESS), **kw)
    return run_loop(options, services_factory=factory)


def _outcome(root: Path, n: int, slug: str = "list-a-light") -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (root / RUNS / slug / f"iteration-{n}/outcome.json").read_text()
    )
    return data


def _originals(root: Path) -> dict[str, bytes]:
    return {name: (root / SPEC_DIR / name).read_bytes() for name in ("spec.json", "spec.md")}


# -- route 1: kill the parent, then resume ----------------------------------------------------


def test_kill_the_parent_after_an_edit_is_caught_on_resume(tmp_path: Path, protection: str) -> None:
    root = make_repo(tmp_path, [dict(GATE)])
    originals = _originals(root)
    killed = _drive(root, "--hostile", "--kill-parent")
    # Under bubblewrap the loop is outside the implementer's PID namespace: it cannot be killed.
    assert (killed.returncode == -signal.SIGKILL) is (protection != SANDBOXED), killed.stderr
    edited = (root / SPEC_DIR / "spec.md").read_bytes() != originals["spec.md"]
    assert edited is (protection == HASHED)  # the sandbox refused the edit itself
    resumed = _drive(root)  # the same run, resumed with an honest implementer
    assert resumed.returncode in (0, 1, 2), resumed.stderr
    assert _originals(root) == originals  # put back, not kept
    if protection == HASHED:
        outcome = _outcome(root, 2)
        assert outcome["kind"] == "integrity"
        assert "argus/specs/demo/spec.json" in outcome["integrity"]["modified"]
        assert outcome["integrity"]["restored"] is True


def test_a_protected_file_changed_between_edits_refuses_the_resume(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [], states=("a", "b"))
    first = _run(root, mode=Mode.INTERACTIVE)
    assert first.status is Status.NEEDS_CONTEXT and first.paused
    (root / SPEC_DIR / "spec.md").write_text("- edited while the run was paused\n")
    again = _run(root, mode=Mode.INTERACTIVE)
    assert again.status is Status.BLOCKED
    assert "refused to resume" in again.notes[0] and "spec.md" in again.notes[0]
    fresh = _run(root, mode=Mode.INTERACTIVE, new_run=True)  # the way out it names
    assert fresh.status is Status.NEEDS_CONTEXT and fresh.run_id != first.run_id


# -- route 2: a forged sign-off record --------------------------------------------------------


def test_a_signoff_forged_before_killing_the_parent_is_not_kept(
    tmp_path: Path, protection: str
) -> None:
    root = make_repo(tmp_path, [dict(GATE)])
    killed = _drive(root, "--hostile", "--forge-signoff")
    assert (killed.returncode == -signal.SIGKILL) is (protection != SANDBOXED), killed.stderr
    _drive(root)
    records = load_records(root / RUNS / "signoff.json")
    assert all(r["iterations"] != 99 for r in records), records
    assert all(r["human_spotcheck"]["status"] == "pending" for r in records)


def test_a_signoff_record_the_run_store_did_not_record_is_refused(
    tmp_path: Path, run_argus: Any
) -> None:
    root = make_repo(tmp_path, [], states=("a", "b"))
    first = _run(root, mode=Mode.INTERACTIVE)
    assert first.status is Status.NEEDS_CONTEXT  # view a signed off, waits for the spot-check
    approve = run_argus("approve", "--feature", FEATURE, "--target", "list", cwd=root)
    assert approve.returncode == 0, approve.stderr
    signoff = root / RUNS / "signoff.json"
    data = json.loads(signoff.read_text())
    forged = {**data["records"][0], "state": "b", "iterations": 99}
    forged["human_spotcheck"] = {"status": "pending"}
    data["records"].append(forged)
    signoff.write_text(json.dumps(data))
    outcome = _run(root, mode=Mode.INTERACTIVE)
    assert outcome.status is Status.BLOCKED
    b = next(v for v in outcome.views if v.view.state == "b")
    assert b.status is Status.BLOCKED and "run store" in b.detail


def test_a_spotcheck_approved_in_the_file_only_still_waits(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [], states=("a", "b"))
    assert _run(root, mode=Mode.INTERACTIVE).status is Status.NEEDS_CONTEXT
    signoff = root / RUNS / "signoff.json"
    data = json.loads(signoff.read_text())
    data["records"][0]["human_spotcheck"] = {"status": "approved", "checked_at": "2026-01-01"}
    signoff.write_text(json.dumps(data))  # not `argus approve`: nothing in the run store
    again = _run(root, mode=Mode.INTERACTIVE)
    assert again.status is Status.NEEDS_CONTEXT
    assert [v.end for v in again.views][1] == "waiting_for_spotcheck"


# -- route 3: a poisoned backup copy ----------------------------------------------------------


def test_a_restore_that_fails_stops_the_view_blocked(tmp_path: Path, protection: str) -> None:
    root = make_repo(tmp_path, [dict(GATE)])
    original = (root / SPEC_DIR / "spec.md").read_bytes()
    outcome = _run(root, implementer=implementer_command("--poison-copy", script=HOSTILE))
    assert _protections(root) == {protection}
    if protection != HASHED:  # neither the copy nor the spec could be written
        assert (root / SPEC_DIR / "spec.md").read_bytes() == original
        assert outcome.status is Status.DONE
        refused = (root / "scratch" / "refused.txt").read_text()
        assert "Permission denied" in refused or "Read-only file system" in refused
        return
    assert outcome.status is Status.BLOCKED
    second = _outcome(root, 2)
    assert second["kind"] == "integrity"
    assert second["integrity"]["restored"] is False
    assert outcome.views[0].status is Status.BLOCKED
    assert "could not be restored" in outcome.views[0].detail
    assert not list((root / RUNS / "list-a-light").glob("iteration-3"))  # nothing after it


# -- route 4: a detached child edits after the implementer returned --------------------------


def _wait_gone(marker: str) -> None:
    for _ in range(4000):  # bounded: the attack gives up after ~30 s
        if not running(marker):
            return
        # A zombie of ours (the loop reaps what it kills; this is belt and braces).
        with contextlib.suppress(ChildProcessError):
            os.waitpid(-1, os.WNOHANG)
        time.sleep(0.01)
    raise AssertionError(f"still running: {running(marker)}")


def test_a_detached_child_of_the_implementer_does_not_outlive_it(
    tmp_path: Path, protection: str
) -> None:
    root = make_repo(tmp_path, [dict(GATE)])
    original = (root / SPEC_DIR / "spec.md").read_bytes()
    outcome = _run(root, implementer=implementer_command("--detached-edit", script=HOSTILE))
    assert (root / "scratch" / "detached.pid").is_file()  # the detached child was started
    _wait_gone(str(root))
    assert (root / SPEC_DIR / "spec.md").read_bytes() == original
    assert not (root / "scratch" / "detached-edited.txt").exists()  # ended with its group
    assert outcome.status is Status.DONE
    assert _protections(root) == {protection}


class _LateEdit(FakeServices):
    """Services during which something edits the spec: after the gates (before the judge), or
    during the confirm's unchanged check (before the sign-off)."""

    when = "gates"

    def gates(self, view: View, sensed: Path, *, iteration: int) -> Any:
        report = super().gates(view, sensed, iteration=iteration)
        if self.when == "gates" and iteration == 1:
            (self.spec.spec_dir / "spec.md").write_text("- late edit\n")
        return report

    def unchanged(self, previous: Path, current: Path) -> Any:
        if self.when == "confirm":
            (self.spec.spec_dir / "spec.md").write_text("- late edit\n")
        return super().unchanged(previous, current)


def test_an_edit_before_the_judge_is_caught_and_put_back(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    original = (root / SPEC_DIR / "spec.md").read_bytes()
    _run(root, factory=_LateEdit)
    assert (root / SPEC_DIR / "spec.md").read_bytes() == original
    first = _outcome(root, 1)
    assert first["kind"] == "integrity" and first["integrity"]["restored"] is True


class _ConfirmEdit(_LateEdit):
    when = "confirm"


def test_an_edit_before_the_signoff_refuses_it(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    original = (root / SPEC_DIR / "spec.md").read_bytes()
    outcome = _run(root, factory=_ConfirmEdit)
    assert outcome.status is Status.BLOCKED
    assert (root / SPEC_DIR / "spec.md").read_bytes() == original
    assert load_records(root / RUNS / "signoff.json") == []


# -- route 5: symlinked baseline, reference and run directories -------------------------------


def test_a_symlinked_snapshots_directory_is_refused(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / SPEC_DIR / "__snapshots__").symlink_to(outside, target_is_directory=True)
    outcome = _run(root)
    assert outcome.status is Status.BLOCKED
    assert "__snapshots__" in outcome.notes[0] and "symlink" in outcome.notes[0]
    assert list(outside.iterdir()) == []


def test_a_symlinked_runs_directory_is_refused(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / RUNS).symlink_to(outside, target_is_directory=True)
    outcome = _run(root)
    assert outcome.status is Status.BLOCKED
    assert list(outside.iterdir()) == []


# -- route 6: the lock --------------------------------------------------------------------------


def test_approve_cannot_take_the_lock_from_a_running_loop(tmp_path: Path, protection: str) -> None:
    root = make_repo(tmp_path, [])
    assert _run(root).status is Status.DONE  # view a signed off, spot-check pending
    set_defects(root, [dict(GATE)])
    _run(root, implementer=implementer_command("--steal-lock", script=HOSTILE))
    assert (root / "scratch" / "approve-rc.txt").read_text() == "2"
    # it knows the passphrase: unconfined, the lock stops it; confined, the confinement does
    refused = (root / "scratch" / "approve-err.txt").read_text()
    confined = protection in (SANDBOXED, LANDLOCKED)
    assert ("confined by Argus" if confined else "another argus loop is running") in refused
    records = load_records(root / RUNS / "signoff.json")
    assert [r["human_spotcheck"]["status"] for r in records] == ["pending", "pending"]


def _hold_lock(root: Path) -> subprocess.Popen[str]:
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
            str(root / RUNS),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    return holder


def test_deleting_the_lock_file_does_not_release_the_lock(tmp_path: Path, run_argus: Any) -> None:
    root = make_repo(tmp_path, [])
    holder = _hold_lock(root)
    try:
        (root / RUNS / "loop.lock").unlink()
        second = run_argus("loop", "--feature", FEATURE, "--mode", "headless", cwd=root)
        assert second.returncode == 2
        assert "another argus" in second.stderr
    finally:
        holder.kill()
        holder.wait()


def test_state_writes_take_the_lock(tmp_path: Path, run_argus: Any) -> None:
    root = make_repo(tmp_path, [])
    view = ["--feature", FEATURE, "--target", "list", "--state", "a", "--appearance", "light"]
    holder = _hold_lock(root)
    try:
        reset = run_argus("state", "init", *view, "--reset", cwd=root)
        assert reset.returncode == 2, reset.stdout
        assert "another argus" in reset.stderr
        assert not (root / RUNS / "list-a-light" / "state.json").exists()
        shown = run_argus("state", "show", *view, cwd=root)  # a reader needs no lock
        assert "another argus" not in shown.stderr
    finally:
        holder.kill()
        holder.wait()


def test_baselines_are_neither_read_nor_written_through_a_symlinked_folder(tmp_path: Path) -> None:
    from argus.diff import Tolerance, baseline_path, compare_to_baseline
    from argus.errors import InputError
    from tests.loop.fakeapp import write_png

    spec_dir = tmp_path / "spec"
    outside = tmp_path / "outside"
    outside.mkdir()
    spec_dir.mkdir()
    (spec_dir / "__snapshots__").symlink_to(outside, target_is_directory=True)
    render = tmp_path / "render.png"
    write_png(render, "x")
    baseline = baseline_path(spec_dir, "list", "a", "light")
    for mode in ("missing", "compare"):  # a write, then a read
        try:
            compare_to_baseline(render, baseline, Tolerance(), update_mode=mode)  # type: ignore[arg-type]
        except InputError as err:
            assert "symlink" in str(err)
        else:
            raise AssertionError(f"update mode {mode}: a symlinked __snapshots__ was used")
    assert list(outside.iterdir()) == []
