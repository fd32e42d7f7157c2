"""Textual's SVG screenshot as a PNG: the terminal's cells only, on a whole-pixel grid.

Rich draws the screenshot at 20 px type with cells of 0.61 x 1.22 times that, inside a window
frame (title, three dots). The frame is not the app's, so only the terminal area is kept (the
SVG's viewBox is narrowed to it), and it is scaled so a cell is CELL_WIDTH x CELL_HEIGHT whole
pixels: a widget's box is then its cell region times the cell size, exactly.

cairosvg (libcairo) rasterises. The same SVG gives the same PNG bytes on the same machine:
cairo draws without threads or time, and its PNG writer stores no date. The @font-face rules
(which name a web font by URL) are removed first, so nothing is ever fetched, and the text is
drawn in FONT, a monospace face fontconfig finds on a Debian machine (fonts-dejavu-core).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CELL_WIDTH = 12
CELL_HEIGHT = 24
FONT = "DejaVu Sans Mono"
_TERMINAL = re.compile(
    r'<g transform="translate\(([\d.]+), ([\d.]+)\)" clip-path="url\(#([\w-]+)-clip-terminal\)">'
)
_FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}")
_MATRIX_FONT = re.compile(r"font-family:\s*Fira Code, monospace;")
_CHAR_SIZE = re.compile(r"font-size:\s*([\d.]+)px;\s*line-height:\s*([\d.]+)px;")
# Rich draws a row's background from a little below the row's line (1.5 units): the first
# row's offset is where the grid starts, or the frame's fill shows through above it.
_ROW_OFFSET = re.compile(r'<rect fill="#[0-9a-f]{6}" x="0" y="([\d.]+)"')
_VIEWBOX = re.compile(r'<svg class="rich-terminal" viewBox="[^"]*"')
# The window frame's outline, drawn along the terminal's edge: the frame is not the app's.
_FRAME_STROKE = re.compile(r' stroke="rgba\(255,255,255,0.35\)" stroke-width="1"')


class ScreenshotError(ValueError):
    """The SVG is not the shape Rich writes (a Textual or Rich version this adapter does not
    know)."""


@dataclass(frozen=True)
class Grid:
    """Where the terminal's cells are in the SVG, and how large one is there."""

    unique_id: str  # Rich's prefix of the screenshot's ids
    x: float
    y: float
    cell_width: float
    line_height: float
    font_size: float

    @property
    def scale(self) -> float:
        return CELL_WIDTH / self.cell_width


def grid_of(svg: str) -> Grid:
    terminal = _TERMINAL.search(svg)
    sizes = _CHAR_SIZE.search(svg)
    if terminal is None or sizes is None:
        raise ScreenshotError("the screenshot has no terminal group Rich's export writes")
    font_size, line_height = float(sizes.group(1)), float(sizes.group(2))
    # Rich's cells: 0.61 of the type size wide, 1.22 of it high (half the line height).
    cell_width = line_height / 2
    if abs(line_height * CELL_WIDTH / cell_width - CELL_HEIGHT) > 1e-6:
        raise ScreenshotError("the screenshot's cells are not twice as high as they are wide")
    row = _ROW_OFFSET.search(svg)
    offset = float(row.group(1)) if row else 0.0
    x, y = float(terminal.group(1)), float(terminal.group(2)) + offset
    return Grid(terminal.group(3), x, y, cell_width, line_height, font_size)


def terminal_svg(svg: str, columns: int, rows: int) -> str:
    """The screenshot narrowed to the terminal's cells, with no web font."""
    grid = grid_of(svg)
    view = (
        f'<svg class="rich-terminal" width="{columns * CELL_WIDTH}" '
        f'height="{rows * CELL_HEIGHT}" viewBox="{grid.x:g} {grid.y:g} '
        f'{columns * grid.cell_width:g} {rows * grid.line_height:g}"'
    )
    svg, found = _VIEWBOX.subn(view, svg, count=1)
    if not found:
        raise ScreenshotError("the screenshot has no <svg viewBox> Rich's export writes")
    svg = _FRAME_STROKE.sub("", _FONT_FACE.sub("", svg))
    svg = _MATRIX_FONT.sub(f"font-family: {FONT}, monospace;", svg)
    # The terminal's clip stops a unit short of its last column and row, where the frame's
    # fill would show; the viewBox clips to the grid already.
    return svg.replace(f' clip-path="url(#{grid.unique_id}-clip-terminal)"', "", 1)


def rasterise(svg: str, columns: int, rows: int) -> bytes:
    """PNG bytes of the terminal area, CELL_WIDTH x CELL_HEIGHT px a cell."""
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: libcairo itself is missing
        raise ScreenshotError(
            f"cannot rasterise the screenshot ({exc}); install the 'textual' extra "
            "(pip install 'argus[textual]') and libcairo2"
        ) from exc
    png: bytes = cairosvg.svg2png(bytestring=terminal_svg(svg, columns, rows).encode("utf-8"))
    return png
