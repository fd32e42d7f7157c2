"""Mask selectors resolved to boxes: the boxes the sensor recorded in the page (probe.json
``masks``), else, for an older probe, its elements; painted identically in both images."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from argus.diff import MASK_RGBA, Box, paint_masks, resolve_masks
from argus.diff.masks import newly_masked
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
def test_a_selector_an_old_probe_cannot_answer_asks_for_a_fresh_sense(selector: str) -> None:
    # An older probe (no recorded masks) has only its element dump: a class or a combinator
    # cannot be matched there, and the mask is never dropped in silence.
    with pytest.raises(InputError, match="sense the view again") as caught:
        resolve_masks([selector], PROBE)
    assert repr(selector) in str(caught.value) and "\n" not in str(caught.value)


RECORDED = {
    **PROBE,
    "masks": {
        ".ticker": [{"x": 1, "y": 2, "width": 30, "height": 10}],
        "section.news > p": [
            {"x": 0, "y": 40, "width": 200, "height": 20},
            {"x": 0, "y": 64, "width": 200, "height": 20},
        ],
        ".gone": [],
        "#clock": [{"x": 7, "y": 7, "width": 3, "height": 3}],
    },
}


def test_recorded_boxes_answer_any_css_selector() -> None:
    resolved = resolve_masks([".ticker", "section.news > p"], RECORDED)
    assert list(resolved.boxes) == [
        Box(1, 2, 30, 10),
        Box(0, 40, 200, 20),  # every match of one selector
        Box(0, 64, 200, 20),
    ]
    assert resolved.unresolved == ()


def test_a_recorded_selector_wins_over_the_element_dump() -> None:
    # The page's own answer, taken beside the render, not the dump's #clock (5, 5, 20, 8).
    assert resolve_masks(["#clock"], RECORDED).boxes == (Box(7, 7, 3, 3),)


def test_a_recorded_selector_with_no_box_is_reported_as_matching_nothing() -> None:
    resolved = resolve_masks([".gone"], RECORDED)
    assert resolved.boxes == () and resolved.unresolved == (".gone",)


def test_a_selector_added_since_the_sense_falls_back_or_asks_for_a_fresh_one() -> None:
    # Not recorded (the spec gained it after the sense): the dump answers what it can ...
    assert resolve_masks(["avatar"], RECORDED).boxes == (Box(50, 5, 16, 16),)
    # ... and anything else needs the view sensed again.
    with pytest.raises(InputError, match="sense the view again"):
        resolve_masks([".new-banner"], RECORDED)


@pytest.mark.parametrize(
    "masks",
    [
        [".ticker"],
        {".ticker": {"x": 1}},
        {".ticker": [{"x": 1, "y": 2, "width": 3}]},
        {".ticker": [{"x": "1", "y": 2, "width": 3, "height": 4}]},
        {".ticker": [{"x": True, "y": 2, "width": 3, "height": 4}]},
    ],
)
def test_a_broken_record_is_an_input_error(masks: object) -> None:
    with pytest.raises(InputError, match=r"probe\.json: 'masks'"):
        resolve_masks([".ticker"], {**PROBE, "masks": masks})


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


def test_newly_masked_counts_the_covered_pixels_the_baseline_shows_clipped_to_it() -> None:
    baseline = np.zeros((10, 10, 4), np.uint8)
    baseline[0, 0] = MASK_RGBA  # painted when the baseline was written: not newly hidden
    boxes = [Box(-3, -3, 4, 4), Box(8, 8, 5, 5), Box(20, 20, 5, 5)]  # one wholly outside
    assert newly_masked(baseline, boxes, scale=1.0) == 4
    assert newly_masked(baseline, boxes[:1], scale=1.0) == 0
    assert newly_masked(baseline, [Box(0, 0, 2, 1)], scale=2.0) == 8 - 1
    assert newly_masked(baseline, [], scale=1.0) == 0
