"""Mask selectors resolved against probe.json elements, painted identically in both images."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from argus.diff import MASK_RGBA, Box, paint_masks, resolve_masks
from argus.errors import InputError


def element(
    tag: str,
    id_: str = "",
    testid: str = "",
    box: tuple[float, ...] = (0, 0, 10, 10),
    visible: bool = True,
) -> dict[str, Any]:
    x, y, w, h = box
    return {
        "tag": tag,
        "id": id_,
        "testid": testid,
        "visible": visible,
        "box": {"x": x, "y": y, "width": w, "height": h},
    }


PROBE = {
    "version": 1,
    "elements": [
        element("body", box=(0, 0, 100, 100)),
        element("time", id_="clock", box=(5, 5, 20, 8)),
        element("span", testid="avatar", box=(50, 5, 16, 16)),
        element("time", box=(5, 60, 20, 8)),
        element("div", id_="hidden", box=(0, 0, 5, 5), visible=False),
        element("div", id_="empty", box=(0, 0, 0, 5)),
    ],
}


@pytest.mark.parametrize(
    ("selector", "boxes"),
    [
        ("#clock", [Box(5, 5, 20, 8)]),
        ("[data-testid=avatar]", [Box(50, 5, 16, 16)]),
        ('[data-testid="avatar"]', [Box(50, 5, 16, 16)]),
        ("clock", [Box(5, 5, 20, 8)]),  # a bare element id
        ("avatar", [Box(50, 5, 16, 16)]),  # a bare data-testid
        ("time", [Box(5, 5, 20, 8), Box(5, 60, 20, 8)]),  # a tag name
    ],
)
def test_selectors_resolve_to_boxes(selector: str, boxes: list[Box]) -> None:
    resolved = resolve_masks([selector], PROBE)
    assert list(resolved.boxes) == boxes and resolved.unresolved == ()


@pytest.mark.parametrize("selector", ["#missing", "#hidden", "#empty", "video"])
def test_unmatched_or_invisible_selectors_are_reported(selector: str) -> None:
    resolved = resolve_masks([selector], PROBE)
    assert resolved.boxes == () and resolved.unresolved == (selector,)


@pytest.mark.parametrize("selector", ["div > span", ".card", "a:hover"])
def test_unsupported_selectors_are_an_input_error(selector: str) -> None:
    with pytest.raises(InputError, match="unsupported selector"):
        resolve_masks([selector], PROBE)


def test_probe_without_elements_is_an_input_error() -> None:
    with pytest.raises(InputError, match=r"probe\.json"):
        resolve_masks(["#clock"], {"version": 1})


def test_boxes_are_scaled_by_the_device_pixel_ratio_and_grown_to_whole_pixels() -> None:
    assert Box(5, 5, 20, 8).to_pixels(2.0) == (10, 10, 40, 16)
    assert Box(0.5, 0.5, 1, 1).to_pixels(1.0) == (0, 0, 2, 2)


def test_paint_clips_to_the_image() -> None:
    img = np.zeros((10, 10, 4), np.uint8)
    paint_masks(img, [Box(8, 8, 5, 5), Box(-3, -3, 4, 4)], scale=1.0)
    assert (img[8:, 8:] == MASK_RGBA).all() and (img[:1, :1] == MASK_RGBA).all()
    assert int((img == MASK_RGBA).all(axis=2).sum()) == 4 + 1
