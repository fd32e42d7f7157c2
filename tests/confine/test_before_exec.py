"""No code the confined program could have planted runs before the confinement holds: Argus
starts no interpreter on the way (a .pth file in its environment's site-packages would run in
it), and its own environment inside the workspace is read-only to what it confines."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from argus.confine import Confinement, workspace
from argus.loop._implementer import run_implementer


def test_a_planted_pth_does_not_run_before_confinement(
    backend: Confinement, repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    [site] = venv.glob("lib/python*/site-packages")
    escaped = tmp_path / "escaped.txt"  # outside the workspace: only an unconfined run writes it
    (site / "plant.pth").write_text(f"import os; open({str(escaped)!r}, 'a').write('ran')\n")
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-c", "pass"], check=True)
    assert "ran" in escaped.read_text()  # the plant is live: any interpreter from there runs it
    escaped.unlink()
    monkeypatch.setattr(sys, "executable", str(python))  # Argus's own interpreter, planted
    result = run_implementer(
        "sh -c 'echo STATUS: DONE'",
        {},
        cwd=repo,
        timeout=30,
        log_path=tmp_path / "implementer.log",
        policy=workspace("implementer", repo),
        confinement=backend,
    )
    assert result.outcome == "ok" and result.protection == backend.protection
    assert not escaped.exists()


def test_argus_s_environment_inside_the_workspace_is_read_only(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    venv = repo / ".venv"
    venv.mkdir()
    monkeypatch.setattr(sys, "prefix", str(venv))
    assert venv.resolve() in workspace("implementer", repo).read_only
    monkeypatch.setattr(sys, "prefix", str(repo.parent))  # outside: read-only anyway
    assert repo.parent.resolve() not in workspace("implementer", repo).read_only
