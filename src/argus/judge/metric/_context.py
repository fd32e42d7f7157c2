"""What every metric dimension reads (the packet, parsed once) and what it returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from argus.config import ProjectConfig
from argus.diff.png import load_png
from argus.errors import InputError
from argus.evidence.graphics import Graphics, parse_graphics
from argus.evidence.probe import Element, Probe, parse_probe
from argus.gates.render_pixels import RenderImage
from argus.judge.packet import Packet
from argus.judge.picture import Picture, picture_of
from argus.tokens import Tokens, load_tokens

IMAGE_ROLES = ("render", "reference", "prev_render")


@dataclass(frozen=True)
class Measured:
    """One dimension's result: a score from measurements, or an explicit abstention."""

    score: float | None  # 0, 0.5 or 1; None = abstained
    evidence: str  # a short sentence in Argus's words, with the numbers that decided it
    numbers: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def abstain(cls, why: str, **numbers: Any) -> Measured:
        return cls(None, why, numbers)


@dataclass(frozen=True)
class Node:
    """A probe element with the accessibility facts the gates' view leaves out."""

    element: Element
    role: str
    name: str
    heading_level: int | None
    interactive: bool
    disabled: bool = False  # disabled (or aria-disabled): not an action competing for the eye
    truncated: str = ""  # how its text is cut short (ellipsis, clip, line-clamp), if it is

    @property
    def shown(self) -> bool:
        """Visible with a box bigger than the 1 px 'visually hidden' pattern."""
        box = self.element.box
        return self.element.visible and box.width > 1 and box.height > 1


class MetricContext:
    """The packet's inputs, parsed lazily; each dimension takes what it needs."""

    def __init__(self, packet: Packet, config: ProjectConfig) -> None:
        self.packet = packet
        self.config = config
        self.appearance = packet.appearance
        self._pictures: dict[str, Picture] = {}

    @cached_property
    def probe_raw(self) -> dict[str, Any]:
        raw = self.packet.json("probe")
        if not isinstance(raw, dict):
            raise InputError(f"{self.packet.require('probe')}: probe.json must be a JSON object")
        return raw

    @cached_property
    def probe(self) -> Probe:
        return parse_probe(self.probe_raw, str(self.packet.require("probe")))

    @cached_property
    def nodes(self) -> tuple[Node, ...]:
        raw_elements = self.probe_raw.get("elements", [])
        nodes = []
        for element, raw in zip(self.probe.elements, raw_elements, strict=True):
            level = raw.get("heading_level")
            nodes.append(
                Node(
                    element=element,
                    role=str(raw.get("role") or ""),
                    name=str(raw.get("name") or ""),
                    heading_level=level
                    if isinstance(level, int) and not isinstance(level, bool)
                    else None,
                    interactive=bool(raw.get("interactive", False)),
                    disabled=raw.get("disabled") is True,
                    truncated=str(raw.get("truncated") or ""),
                )
            )
        return tuple(nodes)

    @cached_property
    def graphics(self) -> Graphics:
        """The probe's SVG marks, charts and declared canvases (argus.evidence.graphics)."""
        return parse_graphics(self.probe_raw, self.probe, str(self.packet.require("probe")))

    @cached_property
    def chart_series(self) -> dict[str, str]:
        """The spec's charts.series: a series name -> its colour token."""
        spec = self.packet.json("spec") if self.packet.path("spec") is not None else None
        charts = spec.get("charts") if isinstance(spec, dict) else None
        series = charts.get("series") if isinstance(charts, dict) else None
        if series is None:
            return {}
        if not isinstance(series, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in series.items()
        ):
            raise InputError(
                f"{self.packet.require('spec')}: charts.series must map series names to "
                "colour token names; fix the spec and rebuild the packet"
            )
        return dict(series)

    def render_image(self) -> RenderImage | None:
        """The render, for measures read from its pixels (canvas charts); None without one."""
        # Kept under another name than the method's: an instance attribute ``render_image``
        # would hide the method, and a second call would call the image.
        if "_render_image" not in self.__dict__:
            path = self.packet.path("render")
            self.__dict__["_render_image"] = (
                None if path is None else RenderImage.load(path, self.probe.viewport_width)
            )
        image: RenderImage | None = self.__dict__["_render_image"]
        return image

    @cached_property
    def tokens(self) -> Tokens:
        return load_tokens(self.packet.require("tokens"))

    @cached_property
    def contract(self) -> dict[str, Any]:
        data = self.packet.json("contract")
        return data if isinstance(data, dict) else {}

    @cached_property
    def adapter(self) -> str:
        """The spec's sensor: ``web``, or a project adapter for a non-web platform (the spec is
        the person's, pinned, never the sensor's word)."""
        spec = self.optional_json("spec") or {}
        adapter = spec.get("adapter", "web")
        return adapter if isinstance(adapter, str) else "web"

    def optional_json(self, role: str) -> dict[str, Any] | None:
        if self.packet.path(role) is None:
            return None
        data = self.packet.json(role)
        if not isinstance(data, dict):
            raise InputError(f"{self.packet.require(role)}: expected a JSON object")
        return data

    def _load(self, role: str) -> Picture:
        if role not in self._pictures:
            self._decode_images()
        return self._pictures[role]

    def _decode_images(self) -> None:
        """Every image of the packet at once: a measure that needs one image (the reference)
        needs the others too. Pictures kept from an earlier judge call (same file digest) are
        reused. The rest are decoded one after the other: decoder threads won a few ms on an
        idle machine and lost more than they won on a busy one."""
        for role in IMAGE_ROLES:
            entry = self.packet.files.get(role)
            if entry is not None and role not in self._pictures:
                self._pictures[role] = picture_of(entry.sha256, partial(load_png, entry.path))

    def picture(self, role: str) -> Picture | None:
        """The packet's image for ``role``, decoded once and shared by every measure."""
        path: Path | None = self.packet.path(role)
        return self._load(role) if path is not None else None

    def image(self, role: str) -> NDArray[np.uint8] | None:
        picture = self.picture(role)
        return picture.pixels if picture is not None else None

    @property
    def render_picture(self) -> Picture:
        self.packet.require("render")
        return self._load("render")

    @property
    def render(self) -> NDArray[np.uint8]:
        return self.render_picture.pixels
