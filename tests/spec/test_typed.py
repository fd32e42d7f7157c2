"""Typed checks in spec.json: the schema's shapes, the semantic lint, the model and the
contract the judge reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from argus.errors import InputError
from argus.judge.assemble import view_contract
from argus.spec import View, lint_spec, load_spec
from argus.spec.typed import FocusTrap, FormatCheck, ShownCheck, SortCheck, Values
from tests.spec.project import make_project, spec_data, write_json

FEATURE = Path("argus/specs/habits")
TYPED: dict[str, Any] = {
    "numeric_columns": [{"table": "orders", "column": "Amount"}],
    "formats": [
        {"column": "Date", "format": "iso_date"},
        {"list": "totals", "pattern": r"^\$\d+$"},
    ],
    "sort": [{"column": "Date", "order": "desc", "by": "date", "date_format": "%d %b %Y"}],
    "shown": [{"id": "orders.empty", "text": "No orders"}],
    "focus_trap": {"region": "wizard", "traps": False, "from": "wizard.name", "presses": 4},
}


def lint(tmp_path: Path, typed: dict[str, Any], adapter: str = "web") -> list[str]:
    root = tmp_path / "repo"
    data = spec_data()
    make_project(root, data)
    data["adapter"] = adapter
    data["targets"][0]["expectations"]["empty"] = typed
    path = write_json(root / FEATURE / "spec.json", data)
    return [str(issue) for issue in lint_spec(path).errors]


def test_typed_checks_load_into_the_model_and_reach_the_judges_contract(tmp_path: Path) -> None:
    assert lint(tmp_path, TYPED) == []
    spec = load_spec(tmp_path / "repo" / FEATURE / "spec.json")
    typed = spec.target("list").expectations["empty"].typed
    assert typed.numeric_columns == (Values(column="Amount", table="orders"),)
    assert typed.formats[0] == FormatCheck(Values(column="Date"), format="iso_date")
    assert typed.formats[1].pattern == r"^\$\d+$" and typed.formats[1].values.list == "totals"
    assert typed.sort == (SortCheck(Values(column="Date"), "desc", "date", "%d %b %Y"),)
    assert typed.shown == (ShownCheck("orders.empty", "No orders"),)
    assert typed.focus_trap == FocusTrap("wizard", False, "wizard.name", 4)
    contract = view_contract(spec, View("habits", "list", "empty", "light"))["expectations"]
    assert contract["focus_trap"] == {
        "region": "wizard",
        "traps": False,
        "start": "wizard.name",
        "presses": 4,
    }
    assert contract["sort"][0]["values"] == {"column": "Date", "table": None, "list": None}
    populated = view_contract(spec, View("habits", "list", "populated", "light"))
    assert "focus_trap" not in populated["expectations"]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ({"formats": [{"column": "Date"}]}, "format"),  # neither format nor pattern
        ({"formats": [{"format": "iso_date"}]}, "formats[0]"),  # no column or list
        ({"formats": [{"column": "A", "format": "roman"}]}, "roman"),
        ({"sort": [{"column": "A", "list": "b", "order": "asc"}]}, "sort[0]"),
        ({"focus_trap": {"region": "wizard"}}, "traps"),
        ({"shown": [{"text": "No orders"}]}, "id"),
    ],
)
def test_the_schema_refuses_a_malformed_typed_check(
    tmp_path: Path, typed: dict[str, Any], expected: str
) -> None:
    errors = lint(tmp_path, typed)
    assert errors and any(expected in error for error in errors), errors


@pytest.mark.parametrize(
    ("typed", "adapter", "expected"),
    [
        ({"formats": [{"column": "A", "pattern": "(unclosed"}]}, "web", "formats[0].pattern"),
        ({"sort": [{"table": "t", "list": "l", "order": "asc"}]}, "web", "sort[0].table"),
        ({"sort": [{"column": "A", "order": "asc", "date_format": "%d"}]}, "web", "only a"),
        (
            {"sort": [{"column": "A", "order": "asc", "by": "date", "date_format": "dd"}]},
            "web",
            "strftime",
        ),
        ({"focus_trap": {"region": "w", "traps": True}}, "streamlit", "web sensor"),
    ],
)
def test_lint_refuses_what_the_schema_lets_through(
    tmp_path: Path, typed: dict[str, Any], adapter: str, expected: str
) -> None:
    errors = lint(tmp_path, typed, adapter)
    assert any(expected in error for error in errors), errors
    with pytest.raises(InputError):
        load_spec(tmp_path / "repo" / FEATURE / "spec.json")
