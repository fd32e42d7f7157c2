"""Peer tools for the benchmarks, installed from the npm registry into bench/.peers/.

The folder is git-ignored; ``ensure_peers`` installs only what is missing (or at another
version), with the ordinary ``npm install --prefix``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from importlib.metadata import version as _pkg_version
from pathlib import Path


class PeerError(RuntimeError):
    """A peer could not be installed or found."""


PEERS_DIR = Path(__file__).resolve().parent / ".peers"
DIFF_PEERS = ("pixelmatch@7.2.0", "pngjs@7", "odiff-bin@4")
# Playwright Test at the Python package's minor version, so both drive Chromium alike, and
# @axe-core/playwright at the minor version of the axe-core build Argus runs (the one
# axe-playwright-python ships), so both sides run the same rules.
AXE_BUILD = re.compile(r"axe v(\d+)\.(\d+)\.")


def _axe_minor() -> str:
    from importlib.resources import files

    head = files("axe_playwright_python").joinpath("axe.min.js").open("r", encoding="utf-8")
    with head:
        found = AXE_BUILD.search(head.read(200))
    if found is None:
        raise PeerError("cannot read the axe-core version of axe-playwright-python's build")
    return f"{found[1]}.{found[2]}"


VIEW_PEERS = (
    "@playwright/test@" + ".".join(_pkg_version("playwright").split(".")[:2]),
    "@axe-core/playwright@" + _axe_minor(),
)
ALL_PEERS = DIFF_PEERS + VIEW_PEERS
# Python peers from PyPI, installed with pip into bench/.peers/python (never into the venv).
PYTHON_PEERS_DIR = PEERS_DIR / "python"
PLUGIN_PEERS = ("pytest-playwright-visual==2.1.2", "pixelmatch==0.3.0")


def _split(spec: str) -> tuple[str, str]:
    name, _, version = spec.rpartition("@") if spec.rfind("@") > 0 else (spec, "", "")
    return name, version


def installed_version(name: str, root: Path = PEERS_DIR) -> str | None:
    manifest = root / "node_modules" / name / "package.json"
    if not manifest.exists():
        return None
    version: str = json.loads(manifest.read_text())["version"]
    return version


def _satisfied(spec: str, root: Path) -> bool:
    name, wanted = _split(spec)
    have = installed_version(name, root)
    if have is None:
        return False
    # "7.2.0" must match exactly; "7" means any 7.x.y, "1.50" any 1.50.z.
    return not wanted or have == wanted or have.startswith(wanted + ".")


def ensure_peers(specs: Sequence[str] = DIFF_PEERS, root: Path = PEERS_DIR) -> Path:
    """Install the npm packages ``specs`` into ``root`` unless already there; return it."""
    missing = [spec for spec in specs if not _satisfied(spec, root)]
    if missing:
        npm = shutil.which("npm")
        if npm is None:
            raise PeerError("npm not found: install Node.js 18+ to run the peer benchmarks")
        root.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(
            [npm, "install", "--prefix", str(root), "--no-audit", "--no-fund", *missing],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            raise PeerError(f"npm install {' '.join(missing)} failed: {proc.stderr.strip()[-500:]}")
    return root


def odiff_binary(root: Path = PEERS_DIR) -> Path:
    """The native odiff executable shipped in the odiff-bin package (not its Node wrapper)."""
    for candidate in sorted((root / "node_modules" / "@odiff").glob("*/odiff")):
        if candidate.is_file():
            return candidate
    raise PeerError(f"odiff binary not found under {root}/node_modules/@odiff")


def node_version() -> str:
    node = shutil.which("node")
    if node is None:
        raise PeerError("node not found: install Node.js 18+ to run the peer benchmarks")
    return subprocess.run(
        [node, "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()


def ensure_python_peers(specs: Sequence[str] = PLUGIN_PEERS, root: Path = PYTHON_PEERS_DIR) -> Path:
    """pip-install ``specs`` (without their dependencies: Pillow and pytest-playwright are
    Argus's own) into ``root`` unless a marker says they are there; return ``root``."""
    marker = root / ".installed"
    wanted = "\n".join(specs)
    if marker.exists() and marker.read_text() == wanted:
        return root
    root.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--upgrade",
         "--target", str(root), *specs],
        capture_output=True,
        text=True,
        check=False,
    )  # fmt: skip
    if proc.returncode != 0:
        raise PeerError(f"pip install {' '.join(specs)} failed: {proc.stderr.strip()[-500:]}")
    marker.write_text(wanted)
    return root
