"""Boxes on the render: where each red gate's findings are, and what changed since the baseline.

A finding names an element by the probe's short selector; the probe gives its box in CSS
pixels, scaled here to the render's image pixels (the device pixel ratio). A finding whose
element is not in the probe has no box and is listed without one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.diff.regions import Region
from argus.errors import ArgusError
from argus.evidence.probe import parse_probe
from argus.gates.comparison import device_pixel_ratio
from argus.io import read_json

RED = ("fail", "error", "diff")
MAX_MARKS = 40
MAX_REGIONS = 12  # the largest changed regions; the diff image shows every one


@dataclass(frozen=True)
class Mark:
    """One box in the render's image pixels, and what it points at."""

    source: str  # the gate's name, or "snapshot" for a changed region
    label: str
    x: float | None = None
    y: float | None = None
    width: float | None = None
    height: float | None = None

    @property
    def boxed(self) -> bool:
        return self.x is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "label": self.label,
            "x": self.x,
            "y": self.y,
            "w": self.width,
            "h": self.height,
        }


def region_marks(regions: tuple[Region, ...]) -> list[Mark]:
    return [
        Mark("snapshot", f"changed: {r.pixels} pixels", r.x, r.y, r.width, r.height)
        for r in sorted(regions, key=lambda r: -r.pixels)[:MAX_REGIONS]
    ]


def _object(path: Path) -> Mapping[str, Any] | None:
    if not path.is_file():
        return None
    try:
        data = read_json(path, what=path.name)
    except ArgusError:
        return None
    return data if isinstance(data, dict) else None


def finding_marks(render: Path) -> list[Mark]:
    """The red gates' findings of the render's iteration, boxed where the probe knows them."""
    result = _object(render.parent / "gate-result.json")
    details = result.get("details") if result is not None else None
    if not isinstance(details, Mapping):
        return []
    boxes: dict[str, tuple[float, float, float, float]] = {}
    probe_data = _object(render.parent / "probe.json")
    scale = 1.0
    if probe_data is not None:
        try:
            probe = parse_probe(dict(probe_data), str(render.parent / "probe.json"))
            scale = device_pixel_ratio(render, probe.viewport_width)
        except ArgusError:
            probe = None
        if probe is not None:
            for element in probe.elements:
                b = element.box
                if element.visible and b.width > 0 and b.height > 0:
                    boxes.setdefault(probe.selector(element), (b.x, b.y, b.width, b.height))
    marks: list[Mark] = []
    for name, detail in details.items():
        if not isinstance(detail, Mapping) or detail.get("status") not in RED or name == "snapshot":
            continue
        findings = detail.get("findings")
        for finding in findings if isinstance(findings, list) else []:
            if not isinstance(finding, Mapping) or len(marks) >= MAX_MARKS:
                continue
            where = str(finding.get("element", ""))
            text = str(finding.get("message") or "").strip() or (
                f"{finding.get('property', '')}={finding.get('value', '')}"
            )
            label = f"{where}: {text}" if where else text
            box = boxes.get(where)
            if box is None:
                marks.append(Mark(str(name), label))
            else:
                x, y, w, h = (v * scale for v in box)
                marks.append(Mark(str(name), label, x, y, w, h))
    return marks
