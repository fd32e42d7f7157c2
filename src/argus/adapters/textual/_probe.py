"""probe.json from a Textual screen: one element per displayed widget, in the web probe's
element format (docs/sense.md, "Textual"), so the gates that read styles run on it.

- ``box``: the widget's region (padding and border in, margin out) in cells, times the cell
  size of the render (``_raster``);
- ``text``: what a widget with no children of its own shows, read off the rendered screen
  inside its content region; ``text_rects``: where that text is;
- ``style``: colours as Textual resolved them (``Widget.colors``: the background blended over
  the parent's, the text colour over that), borders, margins, padding in px, the cell font;
- ``role``: from the widget's type (``Button`` is a button), or a ``role-NAME`` class
  (``role-heading-1`` is a level-1 heading); ``name``: a control's text, else its tooltip;
- ``interactive``: the widget takes the focus (capture.py adds ``focus_order``, the widgets
  Tab visits). A wide character (CJK, most emoji) takes two cells: text is read by cell.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from textual.color import Color
from textual.geometry import Region
from textual.widget import Widget

from argus.adapters.textual._raster import CELL_HEIGHT, CELL_WIDTH

ROLES: dict[str, str] = {
    "Screen": "document",
    "Button": "button",
    "ListView": "listbox",
    "ListItem": "option",
    "OptionList": "listbox",
    "Input": "textbox",
    "TextArea": "textbox",
    "Checkbox": "checkbox",
    "RadioButton": "radio",
    "RadioSet": "radiogroup",
    "Switch": "switch",
    "Select": "combobox",
    "DataTable": "grid",
    "Tree": "tree",
    "Tabs": "tablist",
    "Tab": "tab",
    "Header": "banner",
    "Footer": "contentinfo",
    "Link": "link",
    "ProgressBar": "progressbar",
    "Markdown": "document",
}
# Roles named by their text, as a button or a heading is by its content on the web.
NAMED_BY_TEXT = frozenset(
    {"button", "checkbox", "heading", "link", "option", "radio", "switch", "tab"}
)
_ROLE_CLASS = re.compile(r"^role-([a-z]+?)(?:-(\d))?$")
INVISIBLE_EDGES = frozenset({"", "none", "hidden", "blank"})


def _px(cells: float, size: int) -> str:
    return f"{cells * size:g}px"


def _rgba(color: Color) -> str:
    r, g, b = color.rgb
    return f"rgba({r}, {g}, {b}, {color.a:g})" if color.a < 1 else f"rgb({r}, {g}, {b})"


def role_of(widget: Widget) -> tuple[str, int | None]:
    """The widget's role and heading level: a ``role-NAME[-N]`` class, else its type's."""
    for name in sorted(widget.classes):
        match = _ROLE_CLASS.match(name)
        if match:
            level = int(match.group(2)) if match.group(2) else None
            return match.group(1), level if match.group(1) == "heading" else None
    for cls in type(widget).__mro__:
        if cls.__name__ in ROLES:
            return ROLES[cls.__name__], None
    return "generic", None


def _style(widget: Widget, font_size: float) -> dict[str, str]:
    styles = widget.styles
    _, _, background, color = widget.colors
    style = {
        "color": _rgba(color),
        "background-color": _rgba(background) if styles.background.a > 0 else "rgba(0, 0, 0, 0)",
        "background-image": "none",
        "font-family": "monospace",
        "font-size": f"{font_size:.2f}px",
        "font-weight": "700" if styles.text_style.bold else "400",
        "font-style": "italic" if styles.text_style.italic else "normal",
        "line-height": f"{CELL_HEIGHT}px",
        "row-gap": "normal",
        "column-gap": "normal",
        "border-radius": "0px",
        "opacity": f"{styles.opacity:g}",
        "visibility": "visible",
    }
    margin, padding = styles.margin, styles.padding
    for side, size in (
        ("top", CELL_HEIGHT),
        ("right", CELL_WIDTH),
        ("bottom", CELL_HEIGHT),
        ("left", CELL_WIDTH),
    ):
        edge_type, edge_color = getattr(styles, f"border_{side}")
        drawn = edge_type not in INVISIBLE_EDGES
        style[f"border-{side}-width"] = _px(1 if drawn else 0, size)
        style[f"border-{side}-color"] = _rgba(background + edge_color if drawn else color)
        style[f"margin-{side}"] = _px(getattr(margin, side), size)
        style[f"padding-{side}"] = _px(getattr(padding, side), size)
    return style


def box_of(region: Region) -> dict[str, int]:
    return {
        "x": region.x * CELL_WIDTH,
        "y": region.y * CELL_HEIGHT,
        "width": region.width * CELL_WIDTH,
        "height": region.height * CELL_HEIGHT,
    }


def screen_cells(lines: Sequence[str]) -> list[list[str]]:
    """The screen's text a cell at a time: a wide character (CJK, most emoji) fills its cell
    and leaves the next one empty, so a region's columns index the row directly."""
    rows = []
    for line in lines:
        cells: list[str] = []
        for char in line:
            cells.append(char)
            cells.extend([""] * (cell_len(char) - 1))
        rows.append(cells)
    return rows


def shown_text(rows: Sequence[Sequence[str]], region: Region) -> tuple[str, list[dict[str, int]]]:
    """The text shown inside ``region`` of the screen, and one rectangle per line of it."""
    shown, rects = [], []
    for row in range(region.y, min(region.bottom, len(rows))):
        cells = rows[row][region.x : region.right]
        filled = [i for i, cell in enumerate(cells) if cell.strip()]
        if not filled:
            continue
        first, last = filled[0], filled[-1]
        last += 1 if last + 1 < len(cells) and cells[last + 1] == "" else 0  # a wide char's tail
        shown.append("".join(cells[first : last + 1]))
        rects.append(box_of(Region(region.x + first, row, last + 1 - first, 1)))
    return " ".join(shown), rects


def widget_elements(screen: Widget, lines: Sequence[str], font_size: float) -> list[dict[str, Any]]:
    """The screen and every displayed widget below it, parents first (document order)."""
    elements: list[dict[str, Any]] = []
    rows = screen_cells(lines)

    def visit(widget: Widget, parent: int | None) -> None:
        if not widget.display:
            return
        region = widget.region if parent is not None else screen.region
        index = len(elements)
        role, level = role_of(widget)
        children = [c for c in widget.children if isinstance(c, Widget) and c.display]
        text, rects = ("", []) if children else shown_text(rows, widget.content_region)
        name = text if role in NAMED_BY_TEXT else ""
        tooltip = widget.tooltip
        if not name and isinstance(tooltip, str):
            name = tooltip
        elements.append(
            {
                "index": index,
                "parent": parent,
                "tag": type(widget).__name__.lower(),
                "id": widget.id or "",
                "testid": "",
                "text": text,
                "text_rects": rects,
                "role": role,
                "name": name,
                "heading_level": level,
                "visible": widget.visible and region.area > 0,
                "interactive": widget.focusable,
                "disabled": widget.disabled,
                "box": box_of(region),
                "style": _style(widget, font_size),
            }
        )
        for child in children:
            visit(child, index)

    visit(screen, None)
    return elements
