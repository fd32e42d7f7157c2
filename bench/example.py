"""The Habits example as a benchmark subject: a private copy on free ports, served by its own
server (examples/habits/serve.py in a subprocess), as a user would run it.

    root = copy_example(tmp_dir)                 # argus.toml rewritten to a free port
    with served(root) as base_url: ...           # python serve.py --port N, stopped afterwards
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "habits"
SPEC = Path("argus/specs/habits/spec.json")
EXAMPLE_PORT = 8765
CANONICAL = ("list", "populated", "light")
_SKIP = shutil.ignore_patterns(".argus-runs", ".argus", "__snapshots__", "__pycache__")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def copy_example(parent: Path, port: int | None = None) -> Path:
    """A working copy at parent/habits whose argus.toml points at ``port`` (default: a free one)."""
    root = parent / "habits"
    shutil.copytree(EXAMPLE, root, ignore=_SKIP)
    config = root / "argus.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace(str(EXAMPLE_PORT), str(port or free_port())), encoding="utf-8")
    return root


def write_spec_variant(
    root: Path, *, width: int, height: int, full_page: bool, target: str = "list"
) -> None:
    """Rewrite the copy's spec so ``target`` renders at width x height (full page or not)."""
    path = root / SPEC
    spec: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    for item in spec["targets"]:
        if item["id"] == target:
            item["viewport"] = {"width": width, "height": height}
            item["full_page"] = full_page
    path.write_text(json.dumps(spec, indent=2), encoding="utf-8")


def wait_until_up(url: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (urllib.error.URLError, OSError):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the example server at {url} did not come up") from None
            time.sleep(0.05)


@contextmanager
def served(root: Path, port: int | None = None) -> Iterator[str]:
    """Run the copy's own serve.py on ``port`` (default: a free one); yield its base URL."""
    port = port or free_port()
    proc = subprocess.Popen(
        [sys.executable, "serve.py", "--port", str(port)],
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base_url + "/")
        yield base_url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
