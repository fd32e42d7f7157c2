"""Playwright's own Chromium, read from its registry without starting its driver.

The driver answers ``chromium.executable_path`` from the package's ``browsers.json`` (the
revision) and the registry folder (``PLAYWRIGHT_BROWSERS_PATH``, else the platform's cache
folder, ``ms-playwright``): ``chromium-REVISION``, one build folder inside. The same reading
here costs a file and a few ``stat`` calls instead of a Node process (seconds on a busy machine).
It answers only when it is sure: ``None`` when that folder does not exist (nothing installed,
so the driver's path would not exist either), the one executable in it, and ``UNSURE`` for
anything it does not recognise (a revision override, a layout it does not know), which sends
the caller to the driver.
"""

from __future__ import annotations

import json
import os
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Final, Literal

UNSURE: Final = "unsure"
MAX_BROWSERS_JSON_BYTES = 1024 * 1024

# The executable inside a build folder, by platform: the layouts Playwright has shipped
# (Chrome for Testing's, then the older chromium builds').
_LAYOUTS = {
    "linux": ("chrome-linux64/chrome", "chrome-linux-arm64/chrome", "chrome-linux/chrome"),
    "darwin": (
        "chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
        "chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
        "chrome-mac/Chromium.app/Contents/MacOS/Chromium",
    ),
    "win32": ("chrome-win64/chrome.exe", "chrome-win/chrome.exe"),
}


def registry_chromium() -> str | Literal["unsure"] | None:
    """Playwright's Chromium executable, None when none is installed, UNSURE to ask the driver."""
    package = _package_dir()
    layouts = _LAYOUTS.get(sys.platform)
    if package is None or layouts is None:
        return UNSURE
    revision = _chromium_revision(package / "driver" / "package" / "browsers.json")
    registry = _registry_dir(package)
    if revision is None or registry is None:
        return UNSURE
    build = registry / f"chromium-{revision}"
    if not build.is_dir():
        return None
    found = [build / layout for layout in layouts if (build / layout).is_file()]
    return str(found[0]) if len(found) == 1 else UNSURE


def _package_dir() -> Path | None:
    try:
        spec = find_spec("playwright")
    except (ImportError, ValueError):
        return None
    locations = spec.submodule_search_locations if spec is not None else None
    return Path(next(iter(locations))) if locations else None


def _chromium_revision(path: Path) -> str | None:
    try:
        with path.open("rb") as fh:
            data = json.loads(fh.read(MAX_BROWSERS_JSON_BYTES))
        (entry,) = [b for b in data["browsers"] if b.get("name") == "chromium"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    revision = entry.get("revision")
    if entry.get("revisionOverrides") or not isinstance(revision, str) or not revision.isdigit():
        return None  # an override names its folder by host platform: the driver knows it
    return revision


def _registry_dir(package: Path) -> Path | None:
    if any(
        os.environ.get(f"npm_{k}_playwright_browsers_path") for k in ("config", "package_config")
    ):
        return None
    named = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if named == "0":
        return None  # inside the driver's own package: its layout is the driver's business
    if named:
        return Path(named) if Path(named).is_absolute() else None
    home = Path.home()
    if sys.platform == "linux":
        cache = Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache")
    elif sys.platform == "darwin":
        cache = home / "Library" / "Caches"
    else:
        cache = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    return cache / "ms-playwright"
