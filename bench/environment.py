"""What the numbers were measured on: the machine and the versions of everything timed.

Every probe here is best effort: a version that cannot be found is ``None``, never a guess.
"""

from __future__ import annotations

import os
import platform
import subprocess
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any

from bench.peers import PeerError, installed_version, node_version

REPO = Path(__file__).resolve().parent.parent


def _cpu_model(cpuinfo: Path = Path("/proc/cpuinfo")) -> str | None:
    try:
        for line in cpuinfo.read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name":
                return value.strip()
    except OSError:
        return None
    return platform.processor() or None


def _memory_bytes(meminfo: Path = Path("/proc/meminfo")) -> int | None:
    try:
        for line in meminfo.read_text(encoding="utf-8").splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024  # the kernel reports kB
    except (OSError, ValueError, IndexError):
        return None
    return None


def machine() -> dict[str, Any]:
    memory = _memory_bytes()
    return {
        "cpus": os.cpu_count(),
        "cpu_model": _cpu_model(),
        "memory_bytes": memory,
        "memory_gib": round(memory / 2**30, 1) if memory else None,
        "platform": platform.platform(),
    }


def _package(name: str) -> str | None:
    try:
        return package_version(name)
    except PackageNotFoundError:
        return None


def chromium_version(browser: bool) -> dict[str, str | None]:
    """The Chromium Argus would launch (``discover_browser``) and its ``--version``."""
    if not browser:
        return {"executable": None, "version": None}
    try:
        from argus.sense import discover_browser

        executable = discover_browser()
        proc = subprocess.run(
            [executable, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except Exception:  # no browser is a fact to record, not a crash of the report
        return {"executable": None, "version": None}
    return {"executable": executable, "version": proc.stdout.strip() or None}


def versions(browser: bool = True) -> dict[str, Any]:
    try:
        node: str | None = node_version()
    except (PeerError, OSError, subprocess.CalledProcessError):
        node = None
    chromium = chromium_version(browser)
    return {
        "python": platform.python_version(),
        "numpy": _package("numpy"),
        "pillow": _package("pillow"),
        "playwright": _package("playwright"),
        "argus": _package("argus-ui"),
        "chromium": chromium["version"],
        "chromium_executable": chromium["executable"],
        "node": node,
        "pixelmatch": installed_version("pixelmatch"),
        "pngjs": installed_version("pngjs"),
        "odiff": installed_version("odiff-bin"),
        "playwright_test": installed_version("@playwright/test"),
    }


def source(repo: Path = REPO) -> dict[str, Any]:
    """The commit measured, and whether the measured code (src/, bench/) had local edits."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain", "--", "src", "bench"],
            cwd=repo,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return {"commit": None, "local_edits": None}
    edited = [line[3:] for line in status.splitlines() if not line[3:].startswith("bench/results")]
    return {"commit": commit, "local_edits": edited}
