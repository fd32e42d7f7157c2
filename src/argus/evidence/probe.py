"""A read-only view over probe.json for the gates: elements, ancestry, short names.

probe.json is written by a sensor (possibly a project adapter), so it is validated here at
the boundary: a malformed element is an InputError naming the field, never a KeyError deep
inside a gate.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from argus.color import RGBA, parse_color
from argus.diff.masks import Box
from argus.errors import InputError

# A short selector stops climbing after this many steps below its anchor.
MAX_SELECTOR_DEPTH = 3


@dataclass(frozen=True)
class FieldText:
    """Text an input, textarea or select draws without a text node."""

    kind: str  # "value", "placeholder" or "label" (a submit, reset or button input)
    color: str
    opacity: float
    rects: tuple[Box, ...]


@dataclass(frozen=True)
class GlyphControl:
    """A control (button, link, tab ...) whose visible text is short, and its name."""

    name: str
    text: str


@dataclass(frozen=True)
class Element:
    index: int
    parent: int | None
    tag: str
    id: str
    testid: str
    text: str
    visible: bool
    box: Box
    style: Mapping[str, str]
    # The rectangles of the element's own text (one per line fragment); empty when the sensor
    # did not record them, and the text is then taken to fill ``box``.
    text_rects: tuple[Box, ...] = ()
    # What paints under or over the text besides the element's and its ancestors' backgrounds
    # (a positioned ::before/::after, a sibling, an image), as the sensor saw it.
    backdrop: tuple[str, ...] = ()
    # The element has own text, but none of it can be seen (clipped, off-screen, zero-sized).
    text_hidden: bool = False
    # Why the element belongs to an inactive component ("" when it does not): "disabled",
    # "aria-disabled", "disabled fieldset", "label of a disabled control".
    inactive: str = ""
    # The element or an ancestor has aria-hidden="true".
    aria_hidden: bool = False
    # The text a form field draws itself (value, placeholder, a button input's label).
    field_text: FieldText | None = None
    # The control the text is in, when its visible text is a glyph or two: its accessible
    # name and that visible text (an "×" button named "Close").
    control: GlyphControl | None = None

    @property
    def text_boxes(self) -> tuple[Box, ...]:
        """Where the element's own text is drawn: its text rectangles, else its box."""
        return self.text_rects or (self.box,)

    def px(self, prop: str) -> float | None:
        """A computed length in px, or None for keywords such as ``normal``."""
        return parse_px(self.style.get(prop, ""))

    @property
    def has_text(self) -> bool:
        return bool(self.text.strip())


def parse_px(value: str) -> float | None:
    value = value.strip()
    if not value.endswith("px"):
        return None
    try:
        return float(value[:-2])
    except ValueError:
        return None


@dataclass(frozen=True)
class Probe:
    elements: tuple[Element, ...]
    viewport_width: float
    viewport_height: float
    # The colour the browser paints under the root's background (the web sensor derives it
    # from the root's used color-scheme); None when the probe does not say.
    canvas: RGBA | None = None

    def ancestors(self, element: Element) -> Iterator[Element]:
        """The element's ancestors, nearest first."""
        seen = 0
        parent = element.parent
        while parent is not None and seen < len(self.elements):
            node = self.elements[parent]
            yield node
            parent = node.parent
            seen += 1

    def selector(self, element: Element) -> str:
        """A short CSS selector naming the element: its id, test id, or a path below one."""
        own = _anchor(element)
        if own:
            return own
        steps = [self._step(element)]
        for node in self.ancestors(element):
            if node.parent is None and node.tag == "html":
                break  # "body > main" says enough; every path starts at <html>
            anchor = _anchor(node)
            if anchor:
                return " > ".join([anchor, *reversed(steps)])
            if len(steps) >= MAX_SELECTOR_DEPTH:
                return " ".join(["…", *reversed(steps)])
            steps.append(self._step(node))
        return " > ".join(reversed(steps))

    def _step(self, element: Element) -> str:
        if element.parent is None:
            return element.tag
        same = [
            e.index
            for e in self._children(element.parent)
            if e.tag == element.tag  # nth-of-type counts siblings of one tag
        ]
        if len(same) <= 1:
            return element.tag
        return f"{element.tag}:nth-of-type({same.index(element.index) + 1})"

    def _children(self, parent: int) -> list[Element]:
        return self._children_by_parent.get(parent, [])

    @cached_property
    def _children_by_parent(self) -> dict[int, list[Element]]:
        children: dict[int, list[Element]] = {}
        for e in self.elements:
            if e.parent is not None:
                children.setdefault(e.parent, []).append(e)
        return children


def _anchor(element: Element) -> str:
    if element.id:
        return f"#{element.id}"
    if element.testid:
        return f'[data-testid="{element.testid}"]'
    return ""


def parse_probe(data: Mapping[str, Any], source: str = "probe.json") -> Probe:
    """Validate the parts of probe.json the gates use and return them typed."""
    raw_elements = data.get("elements")
    if not isinstance(raw_elements, list):
        raise InputError(f"{source}: 'elements' must be a list; re-sense the view")
    viewport = data.get("viewport") or {}
    if not isinstance(viewport, dict):
        raise InputError(f"{source}: 'viewport' must be an object; re-sense the view")
    elements = tuple(_element(raw, i, source) for i, raw in enumerate(raw_elements))
    return Probe(
        elements=elements,
        viewport_width=_number(viewport.get("width", 0), f"{source}: viewport.width"),
        viewport_height=_number(viewport.get("height", 0), f"{source}: viewport.height"),
        canvas=_canvas(raw_elements, source),
    )


def _canvas(raw_elements: list[Any], source: str) -> RGBA | None:
    """The root element's ``canvas`` colour, when the sensor recorded one."""
    if not raw_elements or not isinstance(raw_elements[0], dict):
        return None
    raw = raw_elements[0].get("canvas")
    if raw is None:
        return None
    try:
        return parse_color(raw)
    except InputError as exc:
        raise InputError(f"{source}: elements[0].canvas {raw!r} is not a colour") from exc


def _element(raw: Any, position: int, source: str) -> Element:
    where = f"{source}: elements[{position}]"
    if not isinstance(raw, dict):
        raise InputError(f"{where} must be an object; re-sense the view")
    index = raw.get("index", position)
    if index != position:
        raise InputError(f"{where}.index is {index!r}, expected {position} (document order)")
    parent = raw.get("parent")
    if parent is not None and (not isinstance(parent, int) or not 0 <= parent < position):
        raise InputError(f"{where}.parent {parent!r} is not an earlier element index")
    style = raw.get("style") or {}
    if not isinstance(style, dict) or not all(isinstance(v, str) for v in style.values()):
        raise InputError(f"{where}.style must map property names to strings")
    box = raw.get("box") or {}
    if not isinstance(box, dict):
        raise InputError(f"{where}.box must be an object with x, y, width, height")
    return Element(
        index=position,
        parent=parent,
        tag=str(raw.get("tag", "")).lower(),
        id=str(raw.get("id") or ""),
        testid=str(raw.get("testid") or ""),
        text=str(raw.get("text") or ""),
        visible=bool(raw.get("visible", True)),
        box=_box(box, f"{where}.box"),
        style=style,
        text_rects=_text_rects(raw.get("text_rects"), where),
        backdrop=_backdrop(raw.get("backdrop"), where),
        text_hidden=raw.get("text_hidden") is True,
        inactive=_string(raw.get("inactive"), f"{where}.inactive"),
        aria_hidden=raw.get("aria_hidden") is True,
        field_text=_field_text(raw.get("field_text"), f"{where}.field_text"),
        control=_control(raw.get("control"), f"{where}.control"),
    )


def _control(raw: Any, where: str) -> GlyphControl | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise InputError(f"{where} must be an object with name and text")
    return GlyphControl(
        _string(raw.get("name"), f"{where}.name"), _string(raw.get("text"), f"{where}.text")
    )


def _string(raw: Any, where: str) -> str:
    if raw is None:
        return ""
    if not isinstance(raw, str):
        raise InputError(f"{where} must be a string")
    return raw


FIELD_KINDS = ("value", "placeholder", "label")


def _field_text(raw: Any, where: str) -> FieldText | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or raw.get("kind") not in FIELD_KINDS:
        raise InputError(f"{where} must be an object with kind one of {', '.join(FIELD_KINDS)}")
    color = raw.get("color")
    if not isinstance(color, str) or not color:
        raise InputError(f"{where}.color must be a colour string")
    try:
        opacity = min(max(float(raw.get("opacity", "1")), 0.0), 1.0)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{where}.opacity must be a number") from exc
    rects = _text_rects(raw.get("rects") or [], where)
    return FieldText(str(raw["kind"]), color, opacity, rects)


def _backdrop(raw: Any, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(b, str) and b for b in raw):
        raise InputError(f"{where}.backdrop must be a list of non-empty strings")
    return tuple(raw)


def _box(raw: Mapping[str, Any], where: str) -> Box:
    return Box(*(_number(raw.get(k, 0), f"{where}.{k}") for k in ("x", "y", "width", "height")))


def _text_rects(raw: Any, where: str) -> tuple[Box, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(
        isinstance(r, dict) and {"x", "y", "width", "height"} <= r.keys() for r in raw
    ):
        raise InputError(f"{where}.text_rects must be a list of {{x, y, width, height}} objects")
    return tuple(_box(r, f"{where}.text_rects[{i}]") for i, r in enumerate(raw))


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{where} must be a number, got {value!r}")
    return float(value)
