"""Id harvesting from probe JSON of any shape and ARIA snapshot text; the contract check."""

from __future__ import annotations

from typing import Any

import pytest

from argus.errors import InputError
from argus.evidence.a11y_ids import check_ids, harvest_aria_ids, harvest_ids

ARGUS_PROBE = {
    "version": 1,
    "elements": [
        {"index": 0, "tag": "body", "id": "", "testid": "", "name": "", "text": ""},
        {"index": 1, "tag": "ul", "id": "habit-list", "testid": "list.habits", "name": "Habits"},
        {"index": 2, "tag": "li", "id": "", "testid": "row.habit.1", "text": "Drink water"},
        {"index": 3, "tag": "button", "id": "", "testid": "button.add", "name": "Add habit"},
    ],
    "aria_snapshot": '- heading "Habits" [level=1]\n- button "Add" [data-testid=aria.only]',
}


@pytest.mark.parametrize(
    ("probe", "expected"),
    [
        (ARGUS_PROBE, {"habit-list", "list.habits", "row.habit.1", "button.add", "aria.only"}),
        # An iOS-style accessibility tree, nested children.
        (
            {
                "identifier": "screen.list",
                "children": [
                    {"accessibilityIdentifier": "row.item.1", "children": []},
                    {"accessibilityIdentifier": "row.item.2", "label": "Two"},
                ],
            },
            {"screen.list", "row.item.1", "row.item.2"},
        ),
        # A bare list at the top, and every key spelling.
        (
            [{"testId": "a"}, {"data-testid": "b"}, {"dataTestid": "c"}, [{"id": "d"}]],
            {"a", "b", "c", "d"},
        ),
        # DOM attribute shapes: an object, CDP's flat list, and a list of name/value objects.
        (
            {
                "nodes": [
                    {"attributes": {"data-testid": "e", "class": "x"}},
                    {"attributes": ["class", "row", "data-testid", "f"]},
                    {"attributes": [{"name": "id", "value": "g"}, {"name": "title", "value": "h"}]},
                ]
            },
            {"e", "f", "g"},
        ),
        # Non-string and empty values are not ids; other keys are not ids.
        ({"id": 3, "testid": "  ", "name": "id", "title": "x", "identifier": None}, set()),
        # A value the sensor truncated is not the element's id.
        ({"testid": "row." + "x" * 250 + "…[truncated]"}, set()),
    ],
)
def test_harvest_from_probe_json_of_any_shape(probe: Any, expected: set[str]) -> None:
    assert harvest_ids(probe) == expected


def test_harvest_survives_deep_nesting() -> None:
    probe: Any = {"id": "leaf"}
    for _ in range(5000):
        probe = {"child": [probe]}
    assert harvest_ids(probe) == {"leaf"}


ARIA = """\
- banner:
  - heading "Habits" [level=1]
- list "Habits" [data-testid=list.habits]:
  - listitem [testid="row.habit.1"]: Drink water
  - listitem [id=row.habit.2] [selected]
  - 'button "Add: now" [data-testid=button.add]'
  - button "Save" [disabled] [id="button.save"]
  - link "About":
    - /url: /about
    - /testid: link.about
"""


def test_harvest_from_aria_snapshot_text() -> None:
    assert harvest_aria_ids(ARIA) == {
        "list.habits",
        "row.habit.1",
        "row.habit.2",
        "button.add",
        "button.save",
        "link.about",
    }
    assert harvest_ids(ARIA) == harvest_aria_ids(ARIA)


@pytest.mark.parametrize(
    "line",
    [
        '- button "[data-testid=fake]"',  # inside an accessible name
        '- button "say \\"[id=fake]\\"" [pressed]',  # escaped quotes inside a name
        "- button /Save [id=fake]/",  # inside a regex name
        '- text: "[id=fake]"',  # text content
        "- listitem: see [testid=fake]",  # inline text after the colon
        '- paragraph: "- /testid: fake"',  # text that looks like a property
        '- textbox "Name" [ref=e5]',  # per-snapshot handles are not ids
        '- heading "Plain" [level=1]',  # Playwright's own attributes
    ],
)
def test_page_content_in_aria_text_is_never_an_id(line: str) -> None:
    assert harvest_aria_ids(line) == set()


def test_probe_field_aria_snapshot_is_read_as_aria_text() -> None:
    probe = {"aria_snapshot": '- button "[id=fake]" [id=real]', "elements": []}
    assert harvest_ids(probe) == {"real"}


@pytest.mark.parametrize(
    ("contract", "ids", "present", "missing"),
    [
        (["a", "b"], {"a", "b", "c"}, ("a", "b"), ()),
        (["a", "b"], {"a"}, ("a",), ("b",)),
        (["row.habit.*"], {"row.habit.1", "row.habit.2"}, ("row.habit.*",), ()),
        (["row.habit.*"], {"row.habits", "row.item.1"}, (), ("row.habit.*",)),
        (["row.habit.*", "row.habit.*"], {"row.habit.9"}, ("row.habit.*",), ()),
        ([], {"a"}, (), ()),
    ],
)
def test_check_ids_exact_and_prefix_families(
    contract: list[str], ids: set[str], present: tuple[str, ...], missing: tuple[str, ...]
) -> None:
    report = check_ids(contract, ids)
    assert report.present == present
    assert report.missing == missing
    assert report.passed == (not missing)
    assert report.as_gate_result() == {
        "expected": len(report.expected),
        "present": len(present),
        "missing": list(missing),
    }


def test_prefix_family_reports_which_ids_matched() -> None:
    report = check_ids(["row.habit.*"], {"row.habit.2", "row.habit.1", "other"})
    assert report.matches == {"row.habit.*": ("row.habit.1", "row.habit.2")}


@pytest.mark.parametrize("entry", ["*", "", "  ", 3])
def test_bad_contract_entries(entry: Any) -> None:
    with pytest.raises(InputError):
        check_ids([entry], {"a"})
