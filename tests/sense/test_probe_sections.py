"""The probe's answer and probe.json: the sections besides the elements (what was sampled, the
graphics) are kept as the page returned them, held to the 256-character rule, and left out
when the page returned none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from argus.diff.masks import MaskSelectorError
from argus.errors import SensorError
from argus.sense.probe import assemble_probe, located_mask_error, read_probe
from argus.sense.views import ViewPlan
from argus.spec import View, Viewport

PLAN = ViewPlan(View("f", "t", "s", "light"), "web", "/", "", Viewport(800, 600), False, None)


def answer(**dumped: object) -> dict[str, object]:
    body = {"elements": [], "fonts": {"picked": [], "webfonts": []}, **dumped}
    return {"result": {"value": json.dumps(body)}}


def test_the_graphics_section_reaches_probe_json_cut_to_256_characters() -> None:
    graphics = {"marks": [{"name": "n" * 300}], "marks_total": 1, "charts": []}
    _elements, _fonts, sections = read_probe(answer(graphics=graphics, sampling=None))
    assert set(sections) == {"graphics"}  # a null section is no section
    probe = assemble_probe(PLAN, "http://x/", [], "", sections=sections)
    assert probe["graphics"]["marks_total"] == 1
    assert len(probe["graphics"]["marks"][0]["name"]) == 256
    assert "sampling" not in probe


def test_a_probe_without_sections_writes_none() -> None:
    _elements, _fonts, sections = read_probe(answer())
    assert sections == {}
    probe = assemble_probe(PLAN, "http://x/", [], "", sections=sections)
    assert "graphics" not in probe and "sampling" not in probe


def test_a_probe_that_threw_is_a_sensor_error() -> None:
    thrown = {"exceptionDetails": {"exception": {"description": "TypeError: boom"}}}
    with pytest.raises(SensorError, match="TypeError: boom"):
        read_probe(thrown)


def test_the_mask_boxes_reach_probe_json_as_the_page_returned_them() -> None:
    masks = {".ticker": [{"x": 1, "y": 2, "width": 3, "height": 4}], "#gone": []}
    _elements, _fonts, sections = read_probe(answer(masks=masks))
    assert assemble_probe(PLAN, "http://x/", [], "", sections=sections)["masks"] == masks


def test_a_mask_selector_the_page_could_not_parse_is_named() -> None:
    refused = {"div[": "Failed to execute 'querySelectorAll' on 'Document': not a valid selector"}
    with pytest.raises(MaskSelectorError) as caught:
        read_probe(answer(masks={}, mask_errors=refused))
    assert (caught.value.selector, caught.value.reason) == ("div[", refused["div["])


def test_an_unparsable_mask_is_located_in_the_spec_or_the_preset(tmp_path: Path) -> None:
    from argus.spec import load_spec
    from tests.support.habits import HABITS_SPEC, copy_habits

    root = copy_habits(tmp_path)
    path = root / HABITS_SPEC
    data = json.loads(path.read_text())
    data["targets"][0]["snapshot"] = {"masks": ["#clock", "div["]}
    path.write_text(json.dumps(data))
    spec = load_spec(path)
    target = spec.targets[0].id
    err = MaskSelectorError("div[", "not a valid selector")
    line = str(located_mask_error(err, spec, target, ""))
    assert line.startswith(f"{spec.path}: $.targets[0].snapshot.masks[1] 'div['")
    assert "not a valid selector" in line and "\n" not in line
    preset = str(located_mask_error(MaskSelectorError(".x[", "bad"), spec, target, "dash"))
    assert "mask preset of framework 'dash'" in preset and "'.x['" in preset
