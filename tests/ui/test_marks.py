"""Findings pointing at boxes on the render: the probe's box of the element a finding names,
in image pixels, and changed regions largest first."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from argus.diff.regions import Region
from argus.ui._marks import MAX_REGIONS, finding_marks, region_marks


def _element(
    index: int, parent: int | None, tag: str, box: tuple[float, ...], **extra: str
) -> dict[str, object]:
    x, y, w, h = box
    return {
        "index": index,
        "parent": parent,
        "tag": tag,
        "role": "",
        "name": "",
        "id": extra.get("id", ""),
        "testid": "",
        "text": "",
        "box": {"x": x, "y": y, "width": w, "height": h},
        "visible": True,
        "style": {},
    }


def test_a_red_gates_finding_is_boxed_at_its_element_scaled_to_image_pixels(
    tmp_path: Path,
) -> None:
    Image.new("RGBA", (200, 100)).save(tmp_path / "render.png")  # 2x a 100px viewport
    probe = {
        "version": 1,
        "viewport": {"width": 100, "height": 50},
        "elements": [
            _element(0, None, "html", (0, 0, 100, 50)),
            _element(1, 0, "body", (0, 0, 100, 50)),
            _element(2, 1, "button", (10, 20, 30, 5), id="add"),
        ],
    }
    (tmp_path / "probe.json").write_text(json.dumps(probe))
    gate_result = {
        "details": {
            "a11y_ids": {
                "status": "fail",
                "findings": [
                    {"element": "#add", "property": "id", "value": "", "message": "no id"},
                    {"element": "#gone", "property": "id", "value": "", "message": "missing"},
                ],
            },
            "console": {"status": "pass", "findings": [{"element": "#add", "message": "x"}]},
        }
    }
    (tmp_path / "gate-result.json").write_text(json.dumps(gate_result))
    boxed, unboxed = finding_marks(tmp_path / "render.png")
    assert (boxed.source, boxed.label) == ("a11y_ids", "#add: no id")
    assert (boxed.x, boxed.y, boxed.width, boxed.height) == (20, 40, 60, 10)
    assert unboxed.label == "#gone: missing" and not unboxed.boxed


def test_no_gate_result_no_marks(tmp_path: Path) -> None:
    assert finding_marks(tmp_path / "render.png") == []


def test_changed_regions_largest_first_and_capped() -> None:
    regions = tuple(Region(i, 0, 1, 1, pixels=i) for i in range(MAX_REGIONS + 5))
    marks = region_marks(regions)
    assert len(marks) == MAX_REGIONS
    assert [m.x for m in marks[:2]] == [MAX_REGIONS + 4, MAX_REGIONS + 3]
