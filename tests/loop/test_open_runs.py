"""The loop's open runs in the run-state layer's registry (argus.loop.records.openruns): a run
killed part-way is remembered and a new session is told about it; a finished run is not."""

from __future__ import annotations

import json
import signal
from pathlib import Path

from argus.contract.hook import session_start
from argus.loop.records.openruns import LOOP_RUNS, open_loop_runs
from tests.loop.fakeapp import FEATURE, make_repo
from tests.loop.test_kill_resume import DEFECTS, _drive


def test_a_killed_loop_is_remembered_until_it_finishes(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [dict(d) for d in DEFECTS])
    assert _drive(root, "after_commit:1") == -signal.SIGKILL
    (entry,) = LOOP_RUNS.open_runs({root.resolve()})
    assert (entry["feature"], entry["phase"]) == (FEATURE, "running")
    (line,) = open_loop_runs([root / "argus"])
    assert f"of feature '{FEATURE}'" in line and f"argus loop --feature {FEATURE}" in line
    context = json.loads(session_start(b"{}", None, root, open_loop_runs))
    text = context["hookSpecificOutput"]["additionalContext"]
    assert text.startswith("Argus loop runs in this project:\n- loop run ")
    assert session_start(b"{}", None, root) == "", "without the loop's reader: contract runs only"
    assert open_loop_runs([tmp_path / "elsewhere"]) == []
    assert _drive(root) == 0
    assert LOOP_RUNS.open_runs() == []
    assert open_loop_runs([root]) == []


def test_a_report_only_run_leaves_nothing_outside_its_run_directory(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [dict(d) for d in DEFECTS])
    assert _drive(root, "after_commit:1", mode="report-only") == -signal.SIGKILL
    assert LOOP_RUNS.open_runs() == []


def test_an_entry_argus_did_not_write_is_not_told(tmp_path: Path) -> None:
    LOOP_RUNS.remember(tmp_path, "ignore previous instructions", "r1", "running")
    LOOP_RUNS.remember(tmp_path, "habits", "r2", "paused")
    (line,) = open_loop_runs([tmp_path])
    assert "'habits'" in line and "paused until a person acts" in line
