"""Writing one web view's files: render.png, probe.json, console.json, axe.json, focus.json,
controls.json, meta.json.

Each is written whole or not at all (a temporary file renamed), but not flushed to disk one by
one (``durable=False``, as the attempt record that seals them): a sense's files are evidence,
sensed again when lost, and their seal's hashes tell a file a power cut emptied from the one
sensed. The loop flushes a view's evidence before it signs off on it (argus.io.sync_tree). Two
fsyncs per file were six to twelve per sense, 25 to 130 ms of a capture on this machine."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.io import atomic_write_bytes, atomic_write_json
from argus.sense import result as files
from argus.sense.controls_choice import ControlsChoice, controls_record
from argus.sense.probe import assemble_probe
from argus.sense.truncate import truncate_probe
from argus.sense.views import ViewPlan

# The element dump, the ARIA snapshot (None: it ran out of time) and the probe's other
# sections (what was sampled, the graphics; argus.sense.probe.SECTIONS).
Probed = tuple[list[dict[str, Any]], str | None, dict[str, Any]]


@dataclass(frozen=True)
class WebCapture:
    """What the browser gave for one view."""

    url: str
    png: bytes
    probed: Probed | None  # None: capture only
    console: dict[str, Any]
    axe: dict[str, Any] | None  # None: the axe gate is off (or capture only)
    settled: bool
    attempts: int
    focus_order: list[dict[str, str] | None] | None = None  # None: not asked for
    focus_visible: dict[str, Any] | None = None  # the focus walk (None: capture only)
    focus_trap: dict[str, Any] | None = None  # the focus-trap walk (None: not asked for)
    controls: dict[str, Any] | None = None  # the dead-control probe (None: not run)


def write_sensed_files(plan: ViewPlan, out_dir: Path, capture: WebCapture) -> None:
    """Everything but meta.json; files a run did not produce are removed, never left stale."""
    out_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(out_dir / files.RENDER, capture.png, durable=False)
    if capture.probed is not None:
        elements, aria, sections = capture.probed
        probe = assemble_probe(
            plan,
            capture.url,
            elements,
            aria,
            capture.focus_order,
            sections=sections,
            focus_trap=capture.focus_trap,
        )
        atomic_write_json(out_dir / files.PROBE, probe, durable=False)
    else:
        (out_dir / files.PROBE).unlink(missing_ok=True)
    atomic_write_json(out_dir / files.CONSOLE, capture.console, durable=False)
    if capture.axe is not None:
        atomic_write_json(out_dir / files.AXE, truncate_probe(capture.axe), durable=False)
    else:
        (out_dir / files.AXE).unlink(missing_ok=True)
    if capture.focus_visible is not None:
        atomic_write_json(out_dir / files.FOCUS, capture.focus_visible, durable=False)
    else:
        (out_dir / files.FOCUS).unlink(missing_ok=True)
    if capture.controls is not None:
        atomic_write_json(out_dir / files.CONTROLS, truncate_probe(capture.controls), durable=False)
    else:
        (out_dir / files.CONTROLS).unlink(missing_ok=True)


def web_meta(
    plan: ViewPlan,
    capture: WebCapture,
    fonts: Mapping[str, Any] | None,
    *,
    browser: Mapping[str, str],
    timings: Mapping[str, float],
    probed: bool,
    controls: ControlsChoice,
) -> dict[str, Any]:
    """meta.json for a web view; ``controls``: whether the dead-control probe ran, and why
    (``{"ran": false, "why": "no reader: gates only ..."}``: the judge reads its absence as
    not measured)."""
    meta = {
        "version": 1,
        "adapter": "web",
        "view": {**plan.view.__dict__, "slug": plan.view.slug},
        "url": capture.url,
        "browser": dict(browser),
        "viewport": {"width": plan.viewport.width, "height": plan.viewport.height},
        "full_page": plan.full_page,
        "appearance": plan.view.appearance,
        "color_scheme": plan.color_scheme,
        "fixture": plan.fixture,
        "fonts": dict(fonts) if fonts is not None else {},
        "timings_ms": dict(timings),
        "settled": capture.settled,
        "attempts": capture.attempts,
        "axe": capture.axe is not None,
        "probed": probed,
        "controls": controls_record(controls),
    }
    if not probed:
        # The named faster path (argus sense --snapshot-only): it says it collected less.
        meta["evidence"] = "snapshot-only"
    result: dict[str, Any] = truncate_probe(meta)
    return result
