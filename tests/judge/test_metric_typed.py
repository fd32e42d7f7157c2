"""The typed checks of functional_correctness on hand-written probes: a failing and a passing
input for each (numeric columns right-aligned, formats, sort order, shown elements, a focus
trap), and the rule that a check nobody could measure fails."""

from __future__ import annotations

from typing import Any

import pytest

from argus.errors import InputError
from tests.judge.conftest import PacketFactory
from tests.judge.test_metric import el, measure, page

CELL_RIGHT = 300.0  # every cell of the column spans x 200..300, 8px padding on the right


def table(
    rows: list[tuple[str, str]],
    *,
    align: str = "right",
    header: tuple[str, str] = ("Date", "Amount"),
    testid: str = "orders",
) -> list[dict[str, Any]]:
    """table > tr(th, th) + tr(td, td) per row; the second column's text drawn ``align``."""
    out = [el(1, 0, "table", role="table", testid=testid, box=(0, 0, 300, 200))]

    def row(cells: tuple[str, str], tag: str, role: str) -> None:
        tr = len(out) + 1
        out.append(el(tr, 1, "tr", role="row", box=(0, 0, 300, 24)))
        for i, text in enumerate(cells):
            width = 7.0 * len(text)
            x = 0.0 if i == 0 else (CELL_RIGHT - 8 - width if align == "right" else 208.0)
            cell = el(
                len(out) + 1,
                tr,
                tag,
                role=role,
                text=text,
                box=(0, 0, 200, 24) if i == 0 else (200, 0, 100, 24),
                padding_right="8px",
            )
            cell["text_rects"] = [{"x": x, "y": 0, "width": width, "height": 20}]
            out.append(cell)

    row(header, "th", "columnheader")
    for cells in rows:
        row(cells, "td", "cell")
    return out


def judge(make_packet: PacketFactory, elements: list[dict[str, Any]], **expect: Any) -> Any:
    probe = page(*elements)
    probe.update(expect.pop("probe_extra", {}))
    contract = {"expectations": expect, "component_contracts": []}
    return measure(
        make_packet(probe=probe, contract=contract, spec_md=False), "functional_correctness"
    )


ROWS = [("2026-03-02", "1,250.00"), ("2026-03-01", "980.50"), ("2026-02-27", "12.00")]
AMOUNT = {"column": "Amount", "table": "orders", "list": None}


@pytest.mark.parametrize(("align", "score"), [("right", 1), ("left", 0)])
def test_a_numeric_column_must_be_right_aligned(
    make_packet: PacketFactory, align: str, score: float
) -> None:
    result = judge(make_packet, table(ROWS, align=align), numeric_columns=[AMOUNT])
    assert result.score == score, result.evidence
    found = result.numbers["typed"]["column 'Amount' of 'orders'"]
    assert found["measured"] == 3
    assert (found["not_right_aligned"] == []) is (align == "right")


def test_a_column_that_is_not_there_or_has_no_text_boxes_is_not_passed(
    make_packet: PacketFactory,
) -> None:
    missing = judge(make_packet, table(ROWS), numeric_columns=[{**AMOUNT, "column": "Total"}])
    assert missing.score == 0 and "not found" in missing.evidence
    other_table = judge(make_packet, table(ROWS), numeric_columns=[{**AMOUNT, "table": "other"}])
    assert other_table.score == 0
    boxless = table(ROWS)
    for item in boxless:
        item.pop("text_rects", None)
    unmeasured = judge(make_packet, boxless, numeric_columns=[AMOUNT])
    assert unmeasured.score == 0 and "not measured" in unmeasured.evidence


@pytest.mark.parametrize(
    ("fmt", "column", "rows", "score"),
    [
        ("iso_date", "Date", ROWS, 1),
        ("iso_date", "Date", [("02/03/2026", "1.00"), ("2026-03-01", "2.00")], 0),
        ("iso_date", "Date", [("2026-02-30", "1.00")], 0),  # shaped like one, not a date
        ("thousands", "Amount", ROWS, 1),
        ("thousands", "Amount", [("2026-03-02", "1250.00")], 0),
        ("currency", "Amount", [("2026-03-02", "$1,250.00"), ("2026-03-01", "€9.50")], 1),
        ("currency", "Amount", [("2026-03-02", "1,250.00")], 0),
        ("percent", "Amount", [("2026-03-02", "12.5%")], 1),
        ("percent", "Amount", [("2026-03-02", "0.125")], 0),
        ("decimal2", "Amount", [("2026-03-02", "1250.00")], 1),
        ("decimal2", "Amount", [("2026-03-02", "1250.5")], 0),
        ("integer", "Amount", [("2026-03-02", "-1250")], 1),
        ("integer", "Amount", [("2026-03-02", "1,250")], 0),
    ],
)
def test_values_must_be_written_in_the_named_format(
    make_packet: PacketFactory, fmt: str, column: str, rows: Any, score: float
) -> None:
    where = {"column": column, "table": None, "list": None}
    result = judge(
        make_packet, table(rows), formats=[{"values": where, "format": fmt, "pattern": None}]
    )
    assert result.score == score, result.evidence
    assert "02/03" not in result.evidence  # positions, never the page's text


def test_values_can_be_held_to_a_pattern(make_packet: PacketFactory) -> None:
    check = {
        "values": {"column": "Date", "list": None},
        "format": None,
        "pattern": r"\d{4}-03-\d\d",
    }
    assert judge(make_packet, table(ROWS[:2]), formats=[check]).score == 1
    result = judge(make_packet, table(ROWS), formats=[check])
    assert result.score == 0 and "value 3" in result.evidence


@pytest.mark.parametrize(
    ("column", "by", "order", "score"),
    [
        ("Date", "date", "desc", 1),
        ("Date", "date", "asc", 0),
        ("Amount", "number", "desc", 1),  # 1,250 > 980.5 > 12: as numbers, not as text
        ("Amount", "text", "desc", 0),  # "980.50" > "12.00" > "1,250.00" as text
        ("Amount", "number", "asc", 0),
    ],
)
def test_a_column_must_be_in_the_stated_order(
    make_packet: PacketFactory, column: str, by: str, order: str, score: float
) -> None:
    check = {"values": {"column": column, "list": None}, "order": order, "by": by}
    result = judge(make_packet, table(ROWS), sort=[check])
    assert result.score == score, result.evidence


def test_dates_in_a_stated_format_sort_as_dates(make_packet: PacketFactory) -> None:
    rows = [("2 Mar 2026", "1"), ("28 Feb 2026", "2"), ("3 Jan 2026", "3")]
    check = {
        "values": {"column": "Date", "list": None},
        "order": "desc",
        "by": "date",
        "date_format": "%d %b %Y",
    }
    assert judge(make_packet, table(rows), sort=[check]).score == 1
    unreadable = judge(make_packet, table([*rows, ("soon", "4")]), sort=[check])
    assert unreadable.score == 0 and "does not read as a date" in unreadable.evidence


def test_a_list_is_read_item_by_item(make_packet: PacketFactory) -> None:
    items = [el(1, 0, "ul", role="list", testid="names")] + [
        el(2 + i, 1, "li", role="listitem", text=name)
        for i, name in enumerate(["Ada", "bob", "Cy"])
    ]
    check = {"values": {"list": "names"}, "order": "asc", "by": "text"}
    assert judge(make_packet, items, sort=[check]).score == 1
    items[2]["text"] = "Zed"
    assert judge(make_packet, items, sort=[check]).score == 0


def empty_state(*, visible: bool = True, text: str = "No orders in this period") -> list[Any]:
    return [
        el(1, 0, "section", testid="orders.empty", box=(0, 0, 300, 80), visible=visible),
        el(2, 1, "p", role="paragraph", text=text, box=(0, 0, 300, 24), visible=visible),
    ]


@pytest.mark.parametrize(
    ("elements", "score", "says"),
    [
        (empty_state(), 1, "is shown with"),
        (empty_state(visible=False), 0, "it is not shown"),
        (empty_state(text="Loading…"), 0, "but not with"),
        ([], 0, "no element has that id"),
    ],
)
def test_an_empty_state_shows_what_the_spec_says(
    make_packet: PacketFactory, elements: list[Any], score: float, says: str
) -> None:
    check = {"id": "orders.empty", "text": "No orders in this period"}
    result = judge(make_packet, elements, shown=[check])
    assert result.score == score and says in result.evidence, result.evidence


def walk(*inside: bool, region: str = "wizard") -> dict[str, Any]:
    stops = [
        {"id": "", "testid": f"s{i}", "tag": "input", "inside": v} for i, v in enumerate(inside)
    ]
    return {"focus_trap": {"region": region, "from": "s0", "stops": stops}}


@pytest.mark.parametrize(
    ("traps", "extra", "score", "says"),
    [
        (False, walk(True, True, False), 1, "Tab 2 leaves"),
        (False, walk(True, True, True, True), 0, "a focus trap"),
        (True, walk(True, True, True), 1, "keeps the focus"),
        (True, walk(True, False), 0, "must keep the focus"),
        (False, walk(False, True), 0, "did not start inside"),
        (False, walk(True, False, region="other"), 0, "not measured"),
        (False, {}, 0, "not measured"),
    ],
)
def test_a_focus_trap_is_measured_from_the_walk(
    make_packet: PacketFactory, traps: bool, extra: dict[str, Any], score: float, says: str
) -> None:
    trap = {"region": "wizard", "traps": traps, "start": "s0", "presses": 3}
    result = judge(make_packet, [], focus_trap=trap, probe_extra=extra)
    assert result.score == score and says in result.evidence, result.evidence


@pytest.mark.parametrize(
    "broken",
    [
        {"formats": [{"format": "iso_date"}]},  # no values
        {"sort": [{"values": {"column": "Date"}}]},  # no order
        {"formats": [{"values": {"column": "Date"}, "format": None, "pattern": "("}]},
        {"shown": ["orders.empty"]},
    ],
)
def test_a_malformed_typed_check_in_the_contract_is_bad_input(
    make_packet: PacketFactory, broken: dict[str, Any]
) -> None:
    with pytest.raises(InputError, match=r"contract\.json: a typed check .* is malformed"):
        judge(make_packet, table(ROWS), **broken)


@pytest.mark.parametrize(
    ("traps", "probe", "check", "inside"),
    [
        (False, walk(True, True, False), ("Tab 2 leaves 'wizard'", True), [True, True, False]),
        (
            False,
            walk(True, True, True, True),
            ("focus stays in 'wizard' for 3 Tab presses: a focus trap", False),
            [True, True, True, True],
        ),
        (
            True,
            walk(True, True),
            ("'wizard' keeps the focus for 1 Tab presses", True),
            [True, True],
        ),
        (
            True,
            walk(True, True, False, False),
            ("Tab 2 leaves 'wizard', which must keep the focus", False),
            [True, True, False, False],
        ),
        (
            True,
            walk(False, True),
            ("the focus walk did not start inside 'wizard', so its trap was not measured", False),
            [False, True],
        ),
        (
            True,
            {"focus_trap": {"region": "wizard", "stops": [{"inside": True}, "x", {"inside": 1}]}},
            ("Tab 1 leaves 'wizard', which must keep the focus", False),
            [True, False, False],
        ),
        (
            True,
            walk(True),
            ("whether 'wizard' keeps the focus was not measured (no Tab was recorded)", False),
            None,
        ),
        (
            False,
            {"focus_trap": {"region": "wizard", "stops": "s0 s1"}},
            ("whether 'wizard' lets Tab leave was not measured (no Tab was recorded)", False),
            None,
        ),
        (
            False,
            walk(True, False, region="other"),
            (
                "whether 'wizard' lets Tab leave was not measured (the probe has no focus walk)",
                False,
            ),
            None,
        ),
        (
            True,
            {"focus_trap": ["wizard"]},
            (
                "whether 'wizard' keeps the focus was not measured (the probe has no focus walk)",
                False,
            ),
            None,
        ),
    ],
)
def test_the_trap_check_says_exactly_what_the_walk_showed(
    traps: bool, probe: dict[str, Any], check: tuple[str, bool], inside: list[bool] | None
) -> None:
    from argus.judge.metric.checks._trap import trap_check

    numbers: dict[str, Any] = {}
    assert trap_check(probe, {"region": "wizard", "traps": traps}, numbers) == check
    expected = {"region": "wizard", "traps": traps, "inside": inside}
    assert numbers == ({} if inside is None else {"focus_trap": expected})
