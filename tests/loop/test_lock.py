"""One loop per feature: a second holder is refused with a clear message; a dead holder frees it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from argus.errors import StateError
from argus.loop.guard.lock import FeatureLock


def test_second_lock_is_refused_and_names_the_holder(tmp_path: Path) -> None:
    with FeatureLock(tmp_path, "habits"):
        with pytest.raises(StateError, match=r"another argus loop is running on feature 'habits'"):
            FeatureLock(tmp_path, "habits").acquire()
        try:
            FeatureLock(tmp_path, "habits").acquire()
        except StateError as err:
            assert f"pid {os.getpid()}" in str(err)
    # Released: a new holder gets it.
    with FeatureLock(tmp_path, "habits"):
        pass


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from argus.loop.guard.lock import FeatureLock\n"
        "FeatureLock(Path(sys.argv[1]), 'habits').acquire()\n"
        "print('locked', flush=True)\n"
        "time.sleep(60)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "locked"
        with pytest.raises(StateError):
            FeatureLock(tmp_path, "habits").acquire()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    with FeatureLock(tmp_path, "habits"):
        pass
