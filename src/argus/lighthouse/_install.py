"""Find Lighthouse, or install it on demand from the npm registry into a cache directory.

Order: ``lighthouse`` on PATH; then the cache (``$ARGUS_LIGHTHOUSE_DIR``, else
``$XDG_CACHE_HOME/argus/lighthouse``, else ``~/.cache/argus/lighthouse``); else
``npm install --prefix CACHE lighthouse@12`` under a file lock (two runs never install at
once), with the ordinary npm client. Node.js absent is LighthouseUnavailable: one line saying
what to install.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

from argus.errors import ArgusError

LIGHTHOUSE_PACKAGE = "lighthouse@12"
INSTALL_TIMEOUT_S = 600.0


class LighthouseUnavailable(ArgusError):
    """Lighthouse could not be found or installed (no Node.js, npm failed)."""


def cache_dir() -> Path:
    explicit = os.environ.get("ARGUS_LIGHTHOUSE_DIR", "").strip()
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "argus" / "lighthouse"


def node_binary() -> str:
    node = shutil.which("node")
    if node is None:
        raise LighthouseUnavailable(
            "Node.js not found: install Node 18 or later (apt-get install nodejs npm) to run "
            "Lighthouse"
        )
    return node


def _cached_cli(root: Path) -> Path | None:
    cli = root / "node_modules" / "lighthouse" / "cli" / "index.js"
    return cli if cli.is_file() else None


def lighthouse_command(*, install: bool = True) -> list[str]:
    """The argv prefix that runs Lighthouse's CLI."""
    on_path = shutil.which("lighthouse")
    if on_path:
        return [on_path]
    node = node_binary()
    root = cache_dir()
    cli = _cached_cli(root)
    if cli is None and install:
        _install(root)
        cli = _cached_cli(root)
    if cli is None:
        raise LighthouseUnavailable(
            f"Lighthouse is not installed in {root}; run `argus lighthouse` once with network "
            "access, or put `lighthouse` on PATH"
        )
    return [node, str(cli)]


def _install(root: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise LighthouseUnavailable("npm not found: install Node.js with npm to get Lighthouse")
    root.mkdir(parents=True, exist_ok=True)
    with (root / ".install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _cached_cli(root) is not None:  # another run installed it while we waited
            return
        command = [npm, "install", "--prefix", str(root), "--no-audit", "--no-fund"]
        try:
            proc = subprocess.run(
                [*command, LIGHTHOUSE_PACKAGE],
                capture_output=True,
                text=True,
                timeout=INSTALL_TIMEOUT_S,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise LighthouseUnavailable(f"npm install {LIGHTHOUSE_PACKAGE} failed: {exc}") from exc
        if proc.returncode != 0:
            tail = " ".join(proc.stderr.split())[-300:]
            raise LighthouseUnavailable(f"npm install {LIGHTHOUSE_PACKAGE} failed: {tail}")
