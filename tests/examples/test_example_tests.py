"""The Habits example's own pytest suite (examples/habits/tests), which uses Argus's plugin
with pytest-playwright, passes on the clean app in CI mode and catches a seeded defect."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.habits import HABITS_DIR, copy_habits

pytestmark = pytest.mark.browser


def run_example_tests(app: Path, out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CI": "true"}  # a missing baseline would fail, never be written
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(app / "tests"),
            "-q",
            "-p",
            "no:cacheprovider",
            "--update-snapshots=none",
            "--argus-output",
            str(out),
            *args,
        ],
        cwd=app,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_example_s_tests_pass_on_the_clean_app(tmp_path: Path) -> None:
    done = run_example_tests(HABITS_DIR, tmp_path / "out")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 passed" in done.stdout


def test_the_example_s_tests_catch_a_seeded_defect(tmp_path: Path) -> None:
    app = copy_habits(tmp_path, ["missing_id"])
    shutil.copytree(HABITS_DIR / "tests", app / "tests", dirs_exist_ok=True)
    done = run_example_tests(app, tmp_path / "out", "-k", "test_list and populated-light")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "red gate(s) a11y_ids" in done.stdout
    assert "1 failed" in done.stdout
