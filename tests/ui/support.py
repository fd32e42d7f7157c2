"""Repositories for the review page's tests, and a real `argus ui` server to drive."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.loop.engine.modes import Mode
from argus.loop.engine.run import LoopOptions, RunOutcome, run_loop
from argus.spec.model import View
from argus.store import RunStore
from tests.loop.fakeapp import FEATURE, FakeServices, make_repo, write_png

VIEW = View(FEATURE, "list", "a", "light")


def spec_dir(root: Path) -> Path:
    return root / "argus" / "specs" / FEATURE


def loop(root: Path, mode: Mode = Mode.HEADLESS) -> RunOutcome:
    return run_loop(
        LoopOptions(feature=FEATURE, root=root, mode=mode), services_factory=FakeServices
    )


def changed_snapshot_repo(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A signed-off view whose committed baseline no longer matches its latest render."""
    root = make_repo(tmp_path, [])
    loop(root)
    render = spec_dir(root) / ".argus-runs" / "list-a-light" / "iteration-2" / "render.png"
    baseline = spec_dir(root) / "__snapshots__" / "list-a-light.png"
    assert render.is_file() and baseline.read_bytes() == render.read_bytes()
    write_png(baseline, "the look before a deliberate change")
    return root, render, baseline


def decisions(root: Path) -> list[Any]:
    with RunStore.open(root) as store:
        return store.events(kind="human_decision")


@dataclass(frozen=True)
class Served:
    url: str  # ends with "/"
    token: str
    process: subprocess.Popen[str]


@contextmanager
def serve_ui(root: Path) -> Iterator[Served]:
    """`argus ui --port 0` on ``root``; the address and token as it printed them."""
    process = subprocess.Popen(
        [sys.executable, "-m", "argus", "ui", "--port", "0", "--root", str(root)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(3)]
        link = lines[2].strip()
        if not link.startswith("open with the token: "):
            process.kill()
            raise AssertionError(f"argus ui did not start: {lines} {process.stderr.read()}")
        url, token = link.removeprefix("open with the token: ").split("#token=")
        # The socket listens before the address is printed: this waits until uvicorn answers.
        with urllib.request.urlopen(f"{url}favicon.ico", timeout=60) as answered:
            assert answered.status == 204
        yield Served(url, token, process)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
