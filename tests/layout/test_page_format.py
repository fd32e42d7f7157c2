"""The linter's one-file page format: what its visuals carry inline is read like PBIR's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.errors import InputError
from argus.layout.lint import lint
from tests.layout.pbir import PAGE_SCHEMA, field

LITERAL = {"expr": {"Literal": {"Value": "true"}}}


def one_file(*visuals: dict[str, Any]) -> dict[str, Any]:
    return {
        "$schema": PAGE_SCHEMA,
        "name": "sales",
        "displayOption": "FitToPage",
        "width": 1280,
        "height": 720,
        "visuals": list(visuals),
    }


def kpi(**inline: Any) -> dict[str, Any]:
    return {"name": "kpi", "position": {"x": 24, "y": 24, "width": 400, "height": 120}, **inline}


def fired(tmp_path: Path, doc: dict[str, Any]) -> list[str]:
    (tmp_path / "sales.json").write_text(json.dumps(doc))
    return [f["check"] for f in lint(tmp_path / "sales.json", tmp_path).to_json()["findings"]]


BOUND = {"visualType": "card", "queryState": {"Values": field("Values")}}


@pytest.mark.parametrize(
    ("inline", "checks"),
    [
        (BOUND, []),
        ({**BOUND, "visualType": "cardd"}, ["check-7"]),  # unknown type
        ({"queryState": {"Values": field("Values")}}, ["check-7"]),  # no type at all
        ({**BOUND, "queryState": {"Values": {"projections": []}}}, ["check-5"]),
        ({"visualType": "card", "query": {"queryState": {}}}, ["check-5"]),  # query.queryState
        ({"visualType": "textbox"}, []),  # decorative: nothing to bind
    ],
)
def test_type_and_bindings_carried_inline_are_checked(
    tmp_path: Path, inline: dict[str, Any], checks: list[str]
) -> None:
    assert fired(tmp_path, one_file(kpi(**inline))) == checks


def test_overrides_in_either_object_and_in_a_flat_entry_are_counted(tmp_path: Path) -> None:
    container = {f"k{i}": [{"properties": {"show": LITERAL}}] for i in range(11)}
    assert fired(tmp_path, one_file(kpi(**BOUND, visualContainerObjects=container))) == ["check-6"]
    flat = {"labels": {f"p{i}": LITERAL for i in range(11)}}  # no properties wrapper
    assert fired(tmp_path, one_file(kpi(**BOUND, objects=flat))) == ["check-6"]
    # ten properties and a selector, which is not a property: within the limit of ten
    ten = {"labels": {"selector": {"id": "x"}, **{f"p{i}": LITERAL for i in range(10)}}}
    assert fired(tmp_path, one_file(kpi(**BOUND, objects=ten))) == []


@pytest.mark.parametrize(
    "item",
    [
        kpi(**BOUND, visual={"visualType": "card"}),  # both shapes
        kpi(visualType="card", query={"queryState": {}}, queryState={}),  # both queries
        kpi(visual=["card"]),
    ],
)
def test_an_item_in_two_shapes_at_once_is_bad_input(tmp_path: Path, item: dict[str, Any]) -> None:
    (tmp_path / "sales.json").write_text(json.dumps(one_file(item)))
    with pytest.raises(InputError, match=r"sales\.json: visuals\[0\]: .*(keep one|object)"):
        lint(tmp_path / "sales.json", tmp_path)


def test_an_item_may_carry_its_position_inline_too(tmp_path: Path) -> None:
    item = {"name": "kpi", "x": 24, "y": 24, "width": 400, "height": 120, **BOUND}
    off = {**item, "name": "off", "x": 1000, "visualType": "cardd"}  # 1000 + 400 > 1280
    assert fired(tmp_path, one_file(item)) == []
    assert sorted(fired(tmp_path, one_file(item, off))) == ["check-2", "check-7"]
