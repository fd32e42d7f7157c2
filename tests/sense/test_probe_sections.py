"""The probe's answer and probe.json: the sections besides the elements (what was sampled, the
graphics) are kept as the page returned them, held to the 256-character rule, and left out
when the page returned none."""

from __future__ import annotations

import json

import pytest

from argus.errors import SensorError
from argus.sense.probe import assemble_probe, read_probe
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
