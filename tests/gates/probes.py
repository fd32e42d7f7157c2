"""Hand-written probe.json documents for the gate tests, in the sensor's format.

    doc = page(el("main", id="screen"), el("p", parent=1, text="Hi", color="rgb(0, 0, 0)"))

Element 0 is always the body (white background unless given); ``el`` keyword arguments that
are style properties with ``_`` for ``-`` override the computed style.
"""

from __future__ import annotations

from typing import Any

BASE_STYLE = {
    "color": "rgb(22, 24, 29)",
    "background-color": "rgba(0, 0, 0, 0)",
    "background-image": "none",
    "border-top-color": "rgb(22, 24, 29)",
    "border-right-color": "rgb(22, 24, 29)",
    "border-bottom-color": "rgb(22, 24, 29)",
    "border-left-color": "rgb(22, 24, 29)",
    "border-top-width": "0px",
    "border-right-width": "0px",
    "border-bottom-width": "0px",
    "border-left-width": "0px",
    "font-family": "Inter",
    "font-size": "16px",
    "font-weight": "400",
    "line-height": "24px",
    "margin-top": "0px",
    "margin-right": "0px",
    "margin-bottom": "0px",
    "margin-left": "0px",
    "padding-top": "0px",
    "padding-right": "0px",
    "padding-bottom": "0px",
    "padding-left": "0px",
    "row-gap": "normal",
    "column-gap": "normal",
    "border-radius": "0px",
    "opacity": "1",
}
FIELDS = {"id", "testid", "text", "parent", "visible", "box", "role", "name"}


def el(tag: str, **kw: Any) -> dict[str, Any]:
    style = {k.replace("_", "-"): v for k, v in kw.items() if k not in FIELDS}
    return {
        "tag": tag,
        "parent": kw.get("parent", 0),
        "id": kw.get("id", ""),
        "testid": kw.get("testid", ""),
        "text": kw.get("text", ""),
        "role": kw.get("role", "generic"),
        "name": kw.get("name", ""),
        "visible": kw.get("visible", True),
        "box": kw.get("box", {"x": 10, "y": 10, "width": 200, "height": 24}),
        "interactive": False,
        "heading_level": None,
        "style_overrides": style,
    }


def page(
    *elements: dict[str, Any], body_bg: str = "rgb(255, 255, 255)", **body: Any
) -> dict[str, Any]:
    """A probe.json document: the body, then ``elements`` in document order."""
    body_el = el("body", parent=None, background_color=body_bg, **body)
    body_el["box"] = {"x": 0, "y": 0, "width": 1280, "height": 800}
    out = []
    for index, item in enumerate([body_el, *elements]):
        item = dict(item)
        item["index"] = index
        item["style"] = {**BASE_STYLE, **item.pop("style_overrides")}
        out.append(item)
    return {
        "version": 1,
        "url": "http://127.0.0.1:8765/",
        "viewport": {"width": 1280, "height": 800},
        "elements": out,
        "aria_snapshot": "",
    }
