"""One sensing of a Textual app: run it under its pilot at a fixed terminal size, in the
appearance's theme, and write render.png, probe.json and focus.json to the output folder.

The app is sensed at rest: once mounted, the pilot waits for the app's pending messages and
animations (``Pilot.pause``, ``wait_for_scheduled_animations``) and the focus is let go, so the
render shows no focused widget whatever the app focused on start. The focus walk then focuses
each widget of the screen's focus chain in turn (the order Tab follows) and counts the pixels
of its box that change against that render (WCAG 2.4.7, the focus_visible gate's focus.json).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops
from rich.console import Console
from textual.app import App
from textual.pilot import Pilot

from argus.adapters.textual._probe import box_of, widget_elements
from argus.adapters.textual._raster import CELL_HEIGHT, CELL_WIDTH, grid_of, rasterise


@dataclass(frozen=True)
class Shot:
    """The screen as drawn now: its SVG screenshot and its text, one string a row."""

    svg: str
    lines: tuple[str, ...]


def shoot(app: App[Any]) -> Shot:
    """Draw the current screen once, into both an SVG and plain text (Textual's own
    ``export_screenshot``, with the text kept)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(app.screen._compositor.render_update(full=True))
    text = console.export_text(clear=False)
    svg = console.export_svg(title=app.title, clear=True)
    return Shot(svg, tuple(text.splitlines()))


def _changed(base: Image.Image, other: Image.Image, box: dict[str, int]) -> int:
    area = (box["x"], box["y"], box["x"] + box["width"], box["y"] + box["height"])
    diff = ImageChops.difference(base.crop(area), other.crop(area)).convert("L")
    return diff.width * diff.height - diff.histogram()[0]


def _image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


async def focus_walk(app: App[Any], pilot: Pilot[Any], base: Image.Image) -> list[dict[str, Any]]:
    """Each widget Tab reaches (the screen's focus chain, in order), focused in turn: its box
    and how many of its pixels differ from ``base``, the render with nothing focused."""
    columns, rows = app.size
    stops: list[dict[str, Any]] = []
    for order, widget in enumerate(list(app.screen.focus_chain)):
        widget.focus()
        await pilot.pause()
        focused = _image(rasterise(shoot(app).svg, columns, rows))
        box = box_of(widget.region)
        stops.append(
            {
                "order": order,
                "id": widget.id or "",
                "testid": "",
                "tag": type(widget).__name__.lower(),
                "box": box,
                "changed_pixels": _changed(base, focused, box),
                "method": "focused",
            }
        )
    app.screen.set_focus(None)
    return stops


async def sense_app(
    make_app: Callable[[], App[Any]], out: Path, *, theme: str, size: tuple[int, int]
) -> None:
    """Sense the app ``make_app`` builds into ``out`` (render.png, probe.json, focus.json)."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        app.theme = theme
        app.screen.set_focus(None)
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        columns, rows = app.size
        shot = shoot(app)
        png = rasterise(shot.svg, columns, rows)
        grid = grid_of(shot.svg)
        elements = widget_elements(app.screen, shot.lines, grid.font_size * grid.scale)
        stops = await focus_walk(app, pilot, _image(png))
    probe = {
        "version": 1,
        "platform": "textual",
        "terminal": {"columns": columns, "rows": rows, "cell": [CELL_WIDTH, CELL_HEIGHT]},
        "viewport": {"width": columns * CELL_WIDTH, "height": rows * CELL_HEIGHT},
        "elements": elements,
        # The web probe's shape, read by the spec's focus_order expectation.
        "focus_order": [{"id": s["id"], "testid": "", "tag": s["tag"]} for s in stops],
        "aria_snapshot": "",
    }
    (out / "render.png").write_bytes(png)
    (out / "probe.json").write_text(json.dumps(probe, indent=1, sort_keys=True))
    (out / "focus.json").write_text(json.dumps({"version": 1, "stops": stops}, indent=1))
