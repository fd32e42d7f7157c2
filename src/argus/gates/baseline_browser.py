"""Which browser build a snapshot baseline was rendered with, and a note when it differs.

A baseline is only comparable with renders of the same Chromium build and fonts: remote
browser farms (``[browser] connect``) make a silent drift easy. When the snapshot gate writes
a baseline it records the render's browser (from meta.json) beside it as
``<baseline>.browser.json``; later comparisons say when the render's browser differs, so a
pixel diff is not mistaken for a UI change (and a pass is known to cross builds).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.io import atomic_write_json, read_json


def sidecar(baseline: Path) -> Path:
    return baseline.with_name(baseline.name + ".browser.json")


def render_browser(meta: Mapping[str, Any]) -> str:
    """``chromium 150.0.7871.100`` from meta.json; empty when the sensor did not record one."""
    browser = meta.get("browser")
    if not isinstance(browser, Mapping):
        return ""
    name, version = browser.get("name"), browser.get("version")
    if not isinstance(name, str) or not isinstance(version, str) or not version:
        return ""
    return f"{name} {version}"


def record_browser(baseline: Path, meta: Mapping[str, Any]) -> None:
    """Write the sidecar for a baseline just written from this render."""
    browser = render_browser(meta)
    if browser:
        atomic_write_json(sidecar(baseline), {"browser": browser})
    else:
        sidecar(baseline).unlink(missing_ok=True)


def browser_drift(baseline: Path, meta: Mapping[str, Any]) -> str | None:
    """A one-line note when the baseline and the render name different browsers."""
    path = sidecar(baseline)
    if not path.is_file():
        return None
    try:
        recorded = read_json(path, what="baseline browser record")
    except InputError:
        return f"{path.name} is unreadable: the baseline's browser build is unknown"
    was = recorded.get("browser") if isinstance(recorded, dict) else None
    if not isinstance(was, str) or not was:  # a forged or partial record is not "same build"
        return f"{path.name} names no browser: the baseline's browser build is unknown"
    now = render_browser(meta)
    if not now or was == now:
        return None
    return (
        f"baseline rendered with {was}, this render with {now}: pixels may differ by browser "
        "build alone; render both with one build (docs/sense.md, remote browsers)"
    )
