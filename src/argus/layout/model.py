"""What the layout linter reads: pages of boxes, from PBIR files or a plain list of boxes.

    load_pages(path, root)  ->  tuple[Page, ...]

Accepted inputs (every file read through argus.io: capped, regular files only):

- a PBIR page directory ``…/pages/<page>/`` holding ``page.json`` and
  ``visuals/<visual>/visual.json``;
- a single page JSON (its sibling ``visuals/`` directory is read when the file is a
  ``page.json``; an inline ``visuals`` list is read too);
- the linter's own page JSON: one file whose ``visuals[]`` carry ``visualType``,
  ``queryState.<Role>.projections[]``, ``objects`` and ``visualContainerObjects`` inline
  rather than under a PBIR ``visual`` object (``visual_body`` reads both into one shape);
- a directory of pages (``<dir>/pages/*/page.json`` or ``<dir>/*/page.json``);
- a plain JSON list of boxes ``[{"name", "x", "y", "width", "height"}]``, or an object
  ``{"width", "height", "boxes": [...], "_lintConfig": {...}}`` for web dashboards.

Every path, the symlinks inside the page directory included, must stay inside the repository
root: anything else is bad input (exit 2), like a malformed number.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.io import loads_json, read_json

MAX_BOXES = 2000
_NAME_SAFE = re.compile(r"[^A-Za-z0-9_.:-]")
CONFIG_KEYS = ("tolerance", "max_overrides")
# the visual's own keys in the linter's page format (PBIR nests them under ``visual``)
INLINE_KEYS = ("visualType", "query", "queryState", "objects", "visualContainerObjects")
TOLERANCE_KEYS = ("equal_gap_px", "column_align_px")


@dataclass(frozen=True)
class PageConfig:
    """A page's own ``_lintConfig``: every value set here wins over the command line."""

    equal_gap_px: float | None = None
    column_align_px: float | None = None
    max_overrides: int | None = None


@dataclass(frozen=True)
class Box:
    name: str
    x: float
    y: float
    width: float
    height: float
    hidden: bool = False
    group: bool = False  # a PBIR visualGroup container: it encloses its members by design
    ignore: frozenset[str] = frozenset()
    visual: Mapping[str, Any] | None = None  # PBIR ``visual`` (visualType, query, objects)

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height


@dataclass(frozen=True)
class Page:
    name: str
    source: str
    width: float | None
    height: float | None
    display_option: Any
    pbir: bool
    config: PageConfig
    boxes: tuple[Box, ...] = field(default_factory=tuple)
    plain: bool = False  # a list of boxes, not a page JSON: no displayOption to check


def safe_name(text: Any) -> str:
    """A name from a file as data: name characters only, at most 60 of them."""
    return _NAME_SAFE.sub("_", str(text))[:60] or "_"


def _inside(path: Path, root: Path) -> Path:
    resolved = path.resolve()
    if not resolved.is_relative_to(root):
        raise InputError(f"{path}: leads outside the repository {root}; lint files inside it")
    return resolved


def _relative(path: Path, root: Path) -> str:
    return path.resolve().relative_to(root).as_posix()


def _number(value: Any, where: str, what: str, *, minimum: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InputError(f"{where}: {what} must be a finite number, not {json.dumps(value)[:40]}")
    if minimum is not None and value < minimum:
        raise InputError(f"{where}: {what} must be >= {minimum:g}, not {value}")
    return float(value)


def _optional_number(doc: Mapping[str, Any], key: str, where: str) -> float | None:
    return None if doc.get(key) is None else _number(doc[key], where, key, minimum=0)


def _annotation(doc: Mapping[str, Any], name: str, where: str) -> Any:
    """A PBIR ``annotations`` entry's value, parsed as JSON (the schema-valid place for our
    settings: Microsoft's schemas refuse unknown top-level keys such as ``_lintConfig``)."""
    annotations = doc.get("annotations")
    if not isinstance(annotations, list):
        return None
    for entry in annotations:
        if isinstance(entry, dict) and entry.get("name") == name:
            try:
                return loads_json(str(entry.get("value")))
            except json.JSONDecodeError as exc:
                raise InputError(f"{where}: annotation {name} is not JSON text") from exc
    return None


def page_config(doc: Mapping[str, Any], where: str) -> PageConfig:
    raw = doc.get("_lintConfig", _annotation(doc, "_lintConfig", where))
    if raw is None:
        return PageConfig()
    if not isinstance(raw, dict) or set(raw) - set(CONFIG_KEYS):
        raise InputError(f"{where}: _lintConfig takes only {', '.join(CONFIG_KEYS)}")
    tolerance = raw.get("tolerance", {})
    if not isinstance(tolerance, dict):  # one number: the same pixels for gaps and alignment
        both = _number(tolerance, f"{where}: _lintConfig", "tolerance", minimum=0)
        tolerance = dict.fromkeys(TOLERANCE_KEYS, both)
    if set(tolerance) - set(TOLERANCE_KEYS):
        raise InputError(
            f"{where}: _lintConfig.tolerance is a number of pixels or an object with only "
            f"{', '.join(TOLERANCE_KEYS)}"
        )
    overrides = _optional_number(raw, "max_overrides", f"{where}: _lintConfig")
    return PageConfig(
        equal_gap_px=_optional_number(tolerance, "equal_gap_px", f"{where}: _lintConfig"),
        column_align_px=_optional_number(tolerance, "column_align_px", f"{where}: _lintConfig"),
        max_overrides=None if overrides is None else int(overrides),
    )


def _ignores(doc: Mapping[str, Any], where: str) -> frozenset[str]:
    raw = doc.get("_lintIgnore", _annotation(doc, "_lintIgnore", where))
    if raw is None:
        return frozenset()
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise InputError(f'{where}: _lintIgnore must be a list of check ids, e.g. ["check-3"]')
    return frozenset(raw)


def visual_body(doc: Mapping[str, Any], where: str) -> Mapping[str, Any] | None:
    """A visual's type, query and formatting, whichever shape carries them.

    PBIR nests them under ``visual`` (``visual.query.queryState``); the linter's own page
    format puts them on the item itself (``queryState`` directly, or ``query.queryState``).
    Both come back in the PBIR shape. An item that mixes the two is ambiguous: bad input.
    """
    nested = doc.get("visual")
    inline = {key: doc[key] for key in INLINE_KEYS if key in doc}
    if nested is not None:
        if not isinstance(nested, dict):
            raise InputError(f"{where}: visual must be an object")
        if inline:
            raise InputError(
                f"{where}: has both a visual object and inline {', '.join(sorted(inline))}; "
                "keep one shape"
            )
        return nested
    if not inline:
        return None
    if "queryState" in inline:
        if "query" in inline:
            raise InputError(f"{where}: has both query and queryState; keep one")
        inline["query"] = {"queryState": inline.pop("queryState")}
    return inline


def bound_roles(visual: Mapping[str, Any]) -> set[str]:
    """The query roles of a visual body that hold a projection or a field parameter."""
    query = visual.get("query")
    state = query.get("queryState") if isinstance(query, dict) else None
    if not isinstance(state, dict):
        return set()
    return {
        str(role)
        for role, entry in state.items()
        if isinstance(entry, dict) and (entry.get("projections") or entry.get("fieldParameters"))
    }


def _box(doc: Any, where: str, fallback: str) -> Box:
    if not isinstance(doc, dict):
        raise InputError(f"{where}: a visual or box must be a JSON object")
    position = doc.get("position", doc)
    if not isinstance(position, dict):
        raise InputError(f"{where}: position must be an object with x, y, width, height")
    x, y = (_number(position.get(k), where, f"position.{k}") for k in ("x", "y"))
    width, height = (
        _number(position.get(k), where, f"position.{k}", minimum=0) for k in ("width", "height")
    )
    visual = visual_body(doc, where)
    return Box(
        name=safe_name(doc.get("name") or doc.get("id") or fallback),
        x=x,
        y=y,
        width=width,
        height=height,
        hidden=doc.get("isHidden") is True or doc.get("hidden") is True,
        group="visualGroup" in doc,
        ignore=_ignores(doc, where),
        visual=visual,
    )


def _boxes_page(doc: Any, path: Path, root: Path) -> Page:
    where = str(path)
    items = doc if isinstance(doc, list) else doc.get("boxes")
    if not isinstance(items, list):
        raise InputError(f"{where}: expected a list of boxes or an object with a 'boxes' list")
    if len(items) > MAX_BOXES:
        raise InputError(f"{where}: {len(items)} boxes, over the {MAX_BOXES} a page may hold")
    meta: Mapping[str, Any] = doc if isinstance(doc, dict) else {}
    boxes = tuple(_box(item, f"{where}: boxes[{i}]", f"box-{i}") for i, item in enumerate(items))
    return Page(
        name=safe_name(meta.get("name", path.stem)),
        source=_relative(path, root),
        width=_optional_number(meta, "width", where),
        height=_optional_number(meta, "height", where),
        display_option=None,
        pbir=False,
        config=page_config(meta, where),
        boxes=boxes,
        plain=True,
    )


def _pbir_page(path: Path, root: Path) -> Page:
    where = str(path)
    doc = read_json(path, what="page JSON")
    if isinstance(doc, list) or (isinstance(doc, dict) and "boxes" in doc):
        return _boxes_page(doc, path, root)
    if not isinstance(doc, dict):
        raise InputError(f"{where}: a page JSON must be an object (or a list of boxes)")
    if "visualContainers" in doc:
        raise InputError(
            f"{where}: a legacy report layout (visualContainers); save the report as PBIR"
        )
    sized = doc.get("width") is not None and doc.get("height") is not None
    if not sized and doc.get("displayOption") != "DeprecatedDynamic":
        raise InputError(f"{where}: a page JSON needs width and height (PBIR page.json)")
    pbir = "$schema" in doc
    boxes: list[Box] = []
    inline = doc.get("visuals", [])
    if not isinstance(inline, list):
        raise InputError(f"{where}: visuals must be a list of visual objects")
    for i, item in enumerate(inline):
        boxes.append(_box(item, f"{where}: visuals[{i}]", f"visual-{i}"))
        pbir = pbir or (isinstance(item, dict) and "$schema" in item)
    visuals_dir = path.parent / "visuals"
    if path.name == "page.json" and visuals_dir.is_dir():
        for visual_path in sorted(visuals_dir.glob("*/visual.json")):
            resolved = _inside(visual_path, root)
            visual_doc = read_json(resolved, what="visual JSON")
            boxes.append(_box(visual_doc, str(visual_path), visual_path.parent.name))
            pbir = pbir or (isinstance(visual_doc, dict) and "$schema" in visual_doc)
    if len(boxes) > MAX_BOXES:
        raise InputError(f"{where}: {len(boxes)} visuals, over the {MAX_BOXES} a page may hold")
    name = doc.get("name") or (path.parent.name if path.name == "page.json" else path.stem)
    return Page(
        name=safe_name(name),
        source=_relative(path, root),
        width=_optional_number(doc, "width", where),
        height=_optional_number(doc, "height", where),
        display_option=doc.get("displayOption"),
        pbir=pbir,
        config=page_config(doc, where),
        boxes=tuple(boxes),
    )


def load_pages(path: Path, root: Path) -> tuple[Page, ...]:
    """The pages at ``path`` (a file or a directory inside ``root``)."""
    root = root.resolve()
    if "\0" in str(path):
        raise InputError("the layout path contains a NUL character")
    target = _inside(path, root)
    if not target.exists():
        raise InputError(f"{path}: not found; pass a page.json, a page directory or boxes JSON")
    if target.is_file():
        return (_pbir_page(target, root),)
    if (target / "page.json").is_file():
        return (_pbir_page(_inside(target / "page.json", root), root),)
    pages_dir = target / "pages" if (target / "pages").is_dir() else target
    found = sorted(pages_dir.glob("*/page.json"))
    if not found:
        raise InputError(f"{path}: no page.json here or in its page directories")
    return tuple(_pbir_page(_inside(p, root), root) for p in found)
