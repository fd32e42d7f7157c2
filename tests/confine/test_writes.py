"""Confined programs write in the workspace but its protected set, and nowhere else; the gate
commands and mechanical stages that run them say which confinement held them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from argus.confine import HASH_CHECKED, Confinement, run_confined, workspace
from argus.gates._commands import run_command_gate
from argus.gates.base import GateStatus

ATTEMPTS = (
    "echo edited > app.css",
    "echo forged > argus.toml",
    "echo forged > argus/specs/demo/spec.md",
    "echo planted > argus/specs/demo/new.md",
    "echo 'cat fake.png' > argus/adapters/tui/sense.sh",
    "mkdir -p .argus && echo planted > .argus/argus.db",
    "echo escaped > ../outside.txt",
    'echo escaped > "$HOME/argus-confine-test-escape"',
)


def _attack(root: Path, backend: Confinement, log: Path) -> None:
    script = "; ".join(ATTEMPTS) + "; echo finished"
    run = run_confined(
        script, workspace("test", root), cwd=root, timeout=30, log_path=log, confinement=backend
    )
    assert run.exit_code == 0 and "finished" in log.read_text()


def test_a_confined_command_writes_only_what_it_may_edit(
    repo: Path, backend: Confinement, tmp_path: Path
) -> None:
    home_file = Path(os.path.expanduser("~/argus-confine-test-escape"))
    _attack(repo, backend, tmp_path / "run.log")
    assert (repo / "app.css").read_text() == "edited\n"  # the workspace is its to edit
    assert (repo / "argus.toml").read_text() == "# config\n"
    assert (repo / "argus" / "specs" / "demo" / "spec.md").read_text() == "- the spec\n"
    assert not (repo / "argus" / "specs" / "demo" / "new.md").exists()
    assert (repo / "argus" / "adapters" / "tui" / "sense.sh").read_text() == "#!/bin/sh\n"
    assert not (repo / ".argus" / "argus.db").exists()
    assert not (tmp_path / "outside.txt").exists()
    assert not home_file.exists()


def test_metadata_of_a_protected_file_cannot_change_under_bubblewrap(
    repo: Path, backend: Confinement, tmp_path: Path
) -> None:
    if backend.backend != "bubblewrap":
        pytest.skip("Landlock has no right for metadata: the hash checks catch what it allows")
    spec = repo / "argus" / "specs" / "demo" / "spec.md"
    before = spec.stat()
    log = tmp_path / "run.log"
    script = "chmod 777 argus/specs/demo/spec.md; touch -d 2001-01-01 argus/specs/demo/spec.md"
    run_confined(
        script, workspace("test", repo), cwd=repo, timeout=30, log_path=log, confinement=backend
    )
    after = spec.stat()
    assert (after.st_mode, after.st_mtime) == (before.st_mode, before.st_mtime)
    assert "Read-only file system" in log.read_text()


def test_a_gate_script_cannot_write_outside_the_workspace(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("ARGUS_SANDBOX", raising=False)  # what a user gets
    # Outside the workspace (under bubblewrap: into its private /tmp, never the host's), then
    # into the run store, refused either way.
    command = "echo escaped > ../outside.txt; echo planted > .argus/x"
    outcome = run_command_gate(
        "lint", command, timeout=30, cwd=repo, log_path=tmp_path / "lint.log"
    )
    assert outcome.data["protection"] != HASH_CHECKED  # this machine confines
    assert outcome.status is GateStatus.FAIL  # the write into .argus/ was refused
    assert not (repo / ".argus" / "x").exists() and not (tmp_path / "outside.txt").exists()


def test_an_unconfined_gate_says_so(repo: Path, tmp_path: Path) -> None:
    # tests run with ARGUS_SANDBOX=off (tests/conftest.py): the outcome says what held it.
    outcome = run_command_gate("lint", "true", timeout=30, cwd=repo, log_path=tmp_path / "l.log")
    assert outcome.status is GateStatus.PASS and outcome.data["protection"] == HASH_CHECKED
