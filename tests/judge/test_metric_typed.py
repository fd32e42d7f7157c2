"""The typed checks of functional_correctness on hand-written probes: a failing and a passing
input for each (numeric columns right-aligned, formats, sort order, shown elements, a focus
trap), and the rule that a check nobody could measure fails."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from argus.errors import InputError
from argus.evidence.probe import parse_probe
from argus.judge.metric.checks._alignment import numeric_column_check
from argus.judge.metric.checks._formats import format_check, matches_format
from argus.judge.metric.checks._order import first_out_of_order, sort_check, sort_key
from argus.judge.metric.checks._shown import shown_check
from argus.judge.metric.checks._values import (
    Tree,
    Value,
    column_values,
    describe,
    list_values,
    values_of,
)
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


# The checks asked directly, on a tree built from a hand-written probe: each answer and what it
# records in the numbers, in full (the judge's score alone cannot tell a wrong count or a wrong
# position from a right one).


def tree_of(elements: list[dict[str, Any]]) -> Tree:
    raw = page(*elements)
    return Tree(parse_probe(raw), raw["elements"])


AMOUNT_CELLS = (7, 10, 13)  # the second column's cells in table(ROWS), header at 4
LABEL = "column 'Amount' of 'orders'"


def ending_at(elements: list[dict[str, Any]], index: int, *rights: float) -> None:
    """Give element ``index`` one text rectangle per right edge (40px wide each)."""
    elements[index - 1]["text_rects"] = [
        {"x": r - 40, "y": 20.0 * i, "width": 40, "height": 20} for i, r in enumerate(rights)
    ]


def test_the_alignment_check_answers_exactly() -> None:
    numbers: dict[str, Any] = {}
    assert numeric_column_check(tree_of(table(ROWS)), AMOUNT, numbers) == (
        f"{LABEL}: all 3 figures right-aligned",
        True,
    )
    assert numbers == {LABEL: {"cells": 3, "measured": 3, "not_right_aligned": []}}
    numbers = {}
    assert numeric_column_check(tree_of(table(ROWS, align="left")), AMOUNT, numbers) == (
        f"{LABEL}: 3 of 3 figure(s) are not right-aligned "
        "(up to 49px short of the cell's right edge)",
        False,
    )
    # text ends at 208 + 7 x 8, 6, 5 characters; the content edge is at 300 - 8 = 292
    assert numbers[LABEL]["not_right_aligned"] == [28.0, 42.0, 49.0]


def test_the_alignment_tolerance_is_2px_from_the_content_edge() -> None:
    elements = table(ROWS)
    ending_at(elements, 7, 290.0)  # 2px short: right-aligned
    ending_at(elements, 10, 250.0, 289.46)  # the widest of two lines counts: 2.54px short
    numbers: dict[str, Any] = {}
    assert numeric_column_check(tree_of(elements), AMOUNT, numbers) == (
        f"{LABEL}: 1 of 3 figure(s) are not right-aligned "
        "(up to 2.5px short of the cell's right edge)",
        False,
    )
    assert numbers[LABEL] == {"cells": 3, "measured": 3, "not_right_aligned": [2.5]}  # 0.1px


def test_the_alignment_content_edge_is_the_box_less_border_and_padding() -> None:
    elements = table(ROWS)
    elements[6]["style"]["border-right-width"] = "6px"
    ending_at(elements, 7, 286.0)  # 8px padding and a 6px border: flush
    del elements[9]["style"]["padding-right"]
    ending_at(elements, 10, 297.5)  # no padding, no border: 2.5px short of 300
    numbers: dict[str, Any] = {}
    assert not numeric_column_check(tree_of(elements), AMOUNT, numbers)[1]
    assert numbers[LABEL]["not_right_aligned"] == [2.5]


def test_the_alignment_reads_the_text_of_the_cell_and_its_shown_descendants() -> None:
    elements = table(ROWS)
    ending_at(elements, 7, 250.0)  # the cell's own text is 42px short...
    span = el(14, 7, "span", text="00", box=(250, 0, 42, 20))
    ending_at([span], 1, 292.0)  # ...but a child's text reaches the edge
    ending_at(elements, 10, 250.0)  # 42px short, and a hidden child's text box is not read
    hidden = el(15, 10, "span", text="00", box=(250, 0, 42, 20), visible=False)
    ending_at([hidden], 1, 292.0)
    numbers: dict[str, Any] = {}
    assert numeric_column_check(tree_of([*elements, span, hidden]), AMOUNT, numbers) == (
        f"{LABEL}: 1 of 3 figure(s) are not right-aligned "
        "(up to 42px short of the cell's right edge)",
        False,
    )
    assert numbers[LABEL]["not_right_aligned"] == [42.0]


def test_the_alignment_of_a_column_partly_or_never_measured() -> None:
    elements = table(ROWS)
    del elements[9]["text_rects"]
    numbers: dict[str, Any] = {}
    assert numeric_column_check(tree_of(elements), AMOUNT, numbers) == (
        f"{LABEL}: all 2 figures right-aligned",
        True,
    )
    assert numbers[LABEL] == {"cells": 3, "measured": 2, "not_right_aligned": []}
    for index in AMOUNT_CELLS:
        elements[index - 1].pop("text_rects", None)
    numbers = {}
    assert numeric_column_check(tree_of(elements), AMOUNT, numbers) == (
        f"{LABEL}: no cell's text box was recorded, so its alignment was not measured",
        False,
    )
    assert numbers[LABEL] == {"cells": 3, "measured": 0, "not_right_aligned": []}
    numbers = {}
    total = {**AMOUNT, "column": "Total"}
    assert numeric_column_check(tree_of(elements), total, numbers) == (
        "column 'Total' of 'orders': not found, so its alignment was not measured",
        False,
    )
    assert numbers == {"column 'Total' of 'orders'": {"cells": 0}}


@pytest.mark.parametrize(
    ("text", "name", "pattern", "written"),
    [
        ("2026-03-01", "iso_date", None, True),
        ("2026-02-30", "iso_date", None, False),  # shaped like a date, not one
        ("2026-3-01", "iso_date", None, False),
        ("on 2026-03-01", "iso_date", None, False),  # the whole value, not a part
        ("-1200", "integer", None, True),
        ("1.2", "integer", None, False),
        ("1,200", "thousands", None, True),
        ("-1,200.5", "thousands", None, True),
        ("1200", "thousands", None, False),
        ("12,00", "thousands", None, False),
        ("-1200.50", "decimal2", None, True),
        ("1200.5", "decimal2", None, False),
        ("$1,200.50", "currency", None, True),
        ("-£0.99", "currency", None, True),
        ("€1200.50", "currency", None, False),
        ("1,200.50", "currency", None, False),
        ("12.5%", "percent", None, True),
        ("-3%", "percent", None, True),
        ("12", "percent", None, False),
        ("A-12", None, r"[A-Z]-\d+", True),
        ("A-12x", None, r"[A-Z]-\d+", False),
    ],
)
def test_one_value_is_written_in_a_format_or_not(
    text: str, name: str | None, pattern: str | None, written: bool
) -> None:
    assert matches_format(text, name, pattern) is written


def test_the_format_check_answers_exactly() -> None:
    tree = tree_of(table(ROWS))
    numbers: dict[str, Any] = {}
    where = {"column": "Amount", "list": None}
    thousands = {"values": where, "format": "thousands", "pattern": None}
    assert format_check(tree, thousands, numbers) == (
        "column 'Amount': all 3 value(s) written as thousands",
        True,
    )
    decimal2 = {"values": where, "format": "decimal2", "pattern": None}
    assert format_check(tree, decimal2, numbers) == (
        "column 'Amount': 1 of 3 value(s) not written as decimal2 (first: value 1)",
        False,
    )
    pattern = {"values": where, "format": None, "pattern": r"\d+\.5\d"}
    assert format_check(tree, pattern, numbers) == (
        r"column 'Amount': 2 of 3 value(s) not written as /\d+\.5\d/ (first: value 1)",
        False,
    )
    assert numbers == {
        "column 'Amount' format": {"values": 3, "wrong": [1, 3], "format": r"/\d+\.5\d/"}
    }
    numbers = {}
    assert format_check(tree, thousands, numbers)[1]
    assert numbers == {"column 'Amount' format": {"values": 3, "wrong": [], "format": "thousands"}}
    numbers = {}
    missing = {"values": {"list": "totals"}, "format": "integer"}
    assert format_check(tree, missing, numbers) == (
        "list 'totals': not found (or empty), so its format (integer) was not measured",
        False,
    )
    assert numbers == {"list 'totals' format": {"values": 0}}


@pytest.mark.parametrize(
    ("text", "by", "date_format", "key"),
    [
        ("1,250.00", "number", None, 1250.0),
        ("12.5%", "number", None, 12.5),
        ("-5", "number", None, -5.0),
        ("−5 kg", "number", None, -5.0),  # a minus sign, not a hyphen
        ("(12.50)", "number", None, -12.5),  # an accountant's negative
        ("  −3", "number", None, -3.0),
        ("-$4.00", "number", None, -4.0),
        ("$ -4", "number", None, -4.0),  # the figure's own minus, taken once
        ("n/a", "number", None, None),
        ("2026-03-01", "date", None, date(2026, 3, 1)),
        ("01/03/2026", "date", None, None),
        ("01/03/2026", "date", "%d/%m/%Y", date(2026, 3, 1)),
        ("1 March", "date", "%d/%m/%Y", None),
        ("Straße", "text", None, "strasse"),
        ("Straße", "anything else", None, "strasse"),
    ],
)
def test_a_value_reads_as_its_kind_or_not_at_all(
    text: str, by: str, date_format: str | None, key: Any
) -> None:
    assert sort_key(text, by, date_format) == key


@pytest.mark.parametrize(
    ("keys", "descending", "position"),
    [
        ([1.0, 2.0, 2.0, 3.0], False, None),
        ([1.0, 3.0, 2.0], False, 3),
        ([2.0, 1.0], False, 2),
        ([3.0, 2.0, 2.0, 1.0], True, None),
        ([3.0, 1.0, 2.0], True, 3),
        ([1.0, 2.0], True, 2),
        ([], False, None),
    ],
)
def test_the_first_value_out_of_order(
    keys: list[Any], descending: bool, position: int | None
) -> None:
    assert first_out_of_order(keys, descending) == position


def test_the_sort_check_answers_exactly() -> None:
    dates = {"column": "Date", "list": None}
    numbers: dict[str, Any] = {}
    desc = {"values": dates, "order": "desc", "by": "date"}
    assert sort_check(tree_of(table(ROWS)), desc, numbers) == (
        "column 'Date': 3 values in desc date order",
        True,
    )
    assert numbers == {
        "column 'Date' sort": {
            "values": 3,
            "by": "date",
            "order": "desc",
            "first_out_of_order": None,
        }
    }
    numbers = {}
    asc = {"values": dates, "order": "asc", "by": "date"}
    assert sort_check(tree_of(table(ROWS)), asc, numbers) == (
        "column 'Date': not in asc date order (value 2 breaks it)",
        False,
    )
    assert numbers["column 'Date' sort"]["first_out_of_order"] == 2
    numbers = {}
    unreadable = [ROWS[0], ("soon", "1"), ROWS[1], ("later", "2")]
    assert sort_check(tree_of(table(unreadable)), desc, numbers) == (
        "column 'Date': value 2 does not read as a date",
        False,
    )
    assert numbers == {
        "column 'Date' sort": {"values": 4, "by": "date", "order": "desc", "unreadable": [2, 4]}
    }


def test_the_sort_check_reads_text_unless_told_and_needs_two_values() -> None:
    numbers: dict[str, Any] = {}
    amounts = {"values": {"column": "Amount", "list": None}, "order": "desc"}
    assert sort_check(tree_of(table(ROWS)), amounts, numbers) == (
        "column 'Amount': not in desc text order (value 2 breaks it)",
        False,
    )
    assert numbers["column 'Amount' sort"]["by"] == "text"
    numbers = {}
    two = sort_check(tree_of(table(ROWS[1:])), {**amounts, "by": "number"}, numbers)
    assert two == ("column 'Amount': 2 values in desc number order", True)
    numbers = {}
    one = sort_check(tree_of(table(ROWS[:1])), amounts, numbers)
    assert one == (
        "column 'Amount': fewer than two values, so its order (desc) was not measured",
        False,
    )
    assert numbers == {"column 'Amount' sort": {"values": 1}}
    numbers = {}
    missing = sort_check(tree_of(table(ROWS)), {**amounts, "values": {"list": "x"}}, numbers)
    assert missing == (
        "list 'x': fewer than two values, so its order (desc) was not measured",
        False,
    )
    assert numbers == {"list 'x' sort": {"values": 0}}


EMPTY_TEXT = "No orders in this period"


def shown(elements: list[dict[str, Any]], entry: dict[str, Any]) -> tuple[Any, Any]:
    numbers: dict[str, Any] = {}
    check = shown_check(tree_of(elements), entry, numbers)
    return check, numbers["shown"]


@pytest.mark.parametrize(
    ("elements", "text", "check", "recorded"),
    [
        (
            empty_state(),
            EMPTY_TEXT,
            (f"'orders.empty' is shown with {EMPTY_TEXT!r}", True),
            {"found": 1, "shown": 1},
        ),
        (empty_state(), None, ("'orders.empty' is shown", True), {"found": 1, "shown": 1}),
        (empty_state(), "", ("'orders.empty' is shown", True), {"found": 1, "shown": 1}),
        (  # white space collapsed, in the stated text and on the page
            empty_state(text="No orders  in this\nperiod"),
            "No  orders in this period",
            ("'orders.empty' is shown with 'No  orders in this period'", True),
            {"found": 1, "shown": 1},
        ),
        (
            empty_state(visible=False),
            EMPTY_TEXT,
            (f"'orders.empty' with {EMPTY_TEXT!r} is expected, but it is not shown", False),
            {"found": 1, "shown": 0},
        ),
        (
            [],
            None,
            ("'orders.empty' is expected, but no element has that id", False),
            {"found": 0, "shown": 0},
        ),
        (
            empty_state(text="Loading…"),
            EMPTY_TEXT,
            (f"'orders.empty' is shown, but not with {EMPTY_TEXT!r}", False),
            {"found": 1, "shown": 1, "text_found": False},
        ),
    ],
)
def test_the_shown_check_answers_exactly(
    elements: list[dict[str, Any]],
    text: str | None,
    check: tuple[str, bool],
    recorded: dict[str, Any],
) -> None:
    assert shown(elements, {"id": "orders.empty", "text": text}) == (
        check,
        {"orders.empty": recorded},
    )


@pytest.mark.parametrize(
    ("box", "is_shown"),
    [((0, 0, 2, 2), True), ((0, 0, 1, 40), False), ((0, 0, 300, 1), False)],
)
def test_a_box_of_1px_is_not_shown(box: tuple[float, float, float, float], is_shown: bool) -> None:
    elements = [el(1, 0, "div", testid="orders.empty", text="x", box=box)]
    answer, recorded = shown(elements, {"id": "orders.empty"})
    assert answer[1] is is_shown
    assert recorded == {"orders.empty": {"found": 1, "shown": int(is_shown)}}


def test_the_shown_check_reads_every_match_and_clips_the_stated_text() -> None:
    first = el(1, 0, "div", testid="status", text="Saved", box=(0, 0, 100, 20))
    second = el(2, 0, "div", text="Saving failed", box=(0, 30, 100, 20))
    second["id"] = "status"
    hidden = el(3, 0, "div", testid="status", text="Saving failed", visible=False)
    numbers: dict[str, Any] = {}
    tree = tree_of([first, second, hidden])
    assert shown_check(tree, {"id": "status", "text": "failed"}, numbers) == (
        "'status' is shown with 'failed'",
        True,
    )
    long = "failed " * 20
    assert shown_check(tree, {"id": "elsewhere", "text": long}, numbers) == (
        f"'elsewhere' with {long[:68] + '…[truncated]'!r} is expected, "  # held to 80
        "but no element has that id",
        False,
    )
    assert shown_check(tree, {"id": "status", "text": long}, numbers) == (
        f"'status' is shown, but not with {long[:68] + '…[truncated]'!r}",
        False,
    )
    assert numbers == {
        "shown": {
            "status": {"found": 3, "shown": 2, "text_found": False},
            "elsewhere": {"found": 0, "shown": 0},
        }
    }


def texts(values: list[Value] | None) -> list[str] | None:
    return None if values is None else [v.text for v in values]


def test_the_tree_reads_roles_descendants_and_text_in_document_order() -> None:
    elements = [
        el(1, 0, "div", testid="card", text="Total"),
        el(2, 1, "span", text="  1,250  "),
        el(3, 2, "b", text="EUR"),
        el(4, 1, "span", text="   "),  # no text of its own
        el(5, 1, "span", text="hidden", visible=False),
        el(6, 1, "i", text="today"),
    ]
    elements[1]["role"] = None
    raw = page(*elements)
    tree = Tree(parse_probe(raw), [*raw["elements"][:-1], "not an element"])
    assert tree.roles == ["generic", "generic", "", "generic", "generic", "generic", ""]
    card = tree.by_id("card")[0]
    assert [e.index for e in tree.descendants(card)] == [2, 3, 4, 5, 6]
    assert tree.text(card) == "Total 1,250 EUR today"
    assert tree.text(tree.probe.elements[5]) == ""  # hidden: none of its text is shown
    assert tree.by_id("nothing") == []


def grid(table_role: str, cell_role: str, *, tag: str = "div") -> list[dict[str, Any]]:
    """A table drawn with ARIA roles: Month | Amount, then Jan (a row header) | 5."""
    return [
        el(1, 0, tag, role=table_role, testid="sales"),
        el(2, 1, "div", role="row"),
        el(3, 2, "div", role="columnheader", text="Month"),
        el(4, 2, "div", role="columnheader", text="Amount"),
        el(5, 1, "div", role="row"),
        el(6, 5, "div", role="rowheader", text="Jan"),
        el(7, 5, "div", role=cell_role, text="5"),
    ]


@pytest.mark.parametrize("table_role", ["table", "grid", "treegrid"])
@pytest.mark.parametrize("cell_role", ["cell", "gridcell"])
def test_a_column_is_read_from_an_aria_table(table_role: str, cell_role: str) -> None:
    tree = tree_of(grid(table_role, cell_role))
    assert texts(column_values(tree, "Amount", None)) == ["5"]
    assert texts(column_values(tree, "Month", "sales")) == ["Jan"]


def test_a_column_is_not_read_outside_a_table_or_from_a_header_of_none() -> None:
    assert column_values(tree_of(grid("list", "cell")), "Amount", None) is None
    assert column_values(tree_of(grid("table", "cell")), "Amount", "other") is None
    assert texts(column_values(tree_of(grid("group", "cell", tag="table")), "Amount", None)) == [
        "5"
    ]


def shifted(elements: list[dict[str, Any]], by: int) -> list[dict[str, Any]]:
    """The elements renumbered to follow ``by`` others (the body stays their root)."""
    return [
        {**e, "index": e["index"] + by, "parent": e["parent"] + by if e["parent"] else 0}
        for e in elements
    ]


def test_a_header_outside_a_table_or_a_cell_that_only_reads_like_one_is_passed_over() -> None:
    stray = [
        el(1, 0, "div", role="list"),
        el(2, 1, "div", role="row"),
        el(3, 2, "th", role="columnheader", text="Amount"),  # no table around it
        el(4, 0, "table", role="table"),
        el(5, 4, "tr", role="row"),
        el(6, 5, "td", role="cell", text="Amount"),  # a data cell, not a header
        el(7, 5, "td", role="cell", text="x"),
        el(8, 4, "tr", role="row"),
        el(9, 8, "td", role="cell", text="y"),
    ]
    tree = tree_of([*stray, *shifted(table(ROWS), 9)])
    assert texts(column_values(tree, "Amount", None)) == ["1,250.00", "980.50", "12.00"]


def test_a_th_is_a_header_whatever_role_the_probe_recorded() -> None:
    elements = table(ROWS)
    for header in elements[2:4]:
        header["role"] = "generic"
    assert texts(column_values(tree_of(elements), "Amount", None)) == [
        "1,250.00",
        "980.50",
        "12.00",
    ]


def test_a_list_of_figures_is_held_to_the_right_edge_too() -> None:
    items = [el(1, 0, "ol", testid="totals")]
    for i, right in enumerate((300.0, 297.0, 300.0)):
        item = el(2 + i, 1, "li", text="12.00", box=(200, 20.0 * i, 100, 20))
        ending_at([item], 1, right)
        items.append(item)
    items.append(el(5, 0, "ul", testid="none"))
    tree = tree_of(items)
    found = list_values(tree, "totals")
    assert found is not None and [v.element.index for v in found] == [2, 3, 4]
    numbers: dict[str, Any] = {}
    assert numeric_column_check(tree, {"list": "totals"}, numbers) == (
        "list 'totals': 1 of 3 figure(s) are not right-aligned "
        "(up to 3px short of the cell's right edge)",
        False,
    )
    assert list_values(tree, "none") == []  # a list with no items is empty, not missing


def test_a_column_is_read_from_the_table_its_contract_names() -> None:
    first = table(ROWS, testid="orders")
    second = [
        el(14, 0, "section", testid="refunds"),
        *(
            {**item, "index": item["index"] + 14, "parent": item["parent"] + 14}
            for item in table([("2026-01-01", "3.00")], testid="")
        ),
    ]
    tree = tree_of([*first, *second])
    assert texts(column_values(tree, "Amount", None)) == ["1,250.00", "980.50", "12.00"]
    assert texts(column_values(tree, "Amount", "orders")) == ["1,250.00", "980.50", "12.00"]
    assert texts(column_values(tree, "Amount", "refunds")) == ["3.00"]  # a wrapper's id
    assert column_values(tree, "Amount", "nowhere") is None


def test_a_column_skips_short_rows_hidden_cells_and_nested_tables() -> None:
    elements = table(ROWS)
    elements[9]["visible"] = False  # the second row's amount
    elements.append(el(14, 1, "tr", role="row"))  # a row of one cell
    elements.append(el(15, 14, "td", role="cell", text="note"))
    elements.append(el(16, 12, "table", role="table"))  # a table inside the first date cell
    elements.append(el(17, 16, "tr", role="row"))
    elements.append(el(18, 17, "td", role="cell", text="a"))
    elements.append(el(19, 17, "td", role="cell", text="b"))
    assert texts(column_values(tree_of(elements), "Amount", None)) == ["1,250.00", "12.00"]
    assert texts(column_values(tree_of(elements), "Date", None)) == [
        "2026-03-02",
        "2026-03-01",
        "2026-02-27 a b",
        "note",
    ]


def test_a_list_is_its_first_match_items_that_show_text() -> None:
    elements = [
        el(1, 0, "ul", testid="names"),
        el(2, 1, "li", text="Ada"),
        el(3, 1, "li", text="Bob", visible=False),
        el(4, 1, "li", text=" "),
        el(5, 1, "li"),
        el(6, 5, "span", text="Cy"),
        el(7, 0, "ol", testid="names"),
        el(8, 7, "li", text="Dee"),
    ]
    tree = tree_of(elements)
    assert texts(list_values(tree, "names")) == ["Ada", "Cy"]
    assert list_values(tree, "people") is None
    assert texts(values_of(tree, {"list": "names", "column": "Amount"})) == ["Ada", "Cy"]


@pytest.mark.parametrize(
    ("where", "label"),
    [
        ({"list": "names", "column": "Amount", "table": "orders"}, "list 'names'"),
        ({"list": None, "column": "Amount", "table": "orders"}, "column 'Amount' of 'orders'"),
        ({"list": "", "column": "Amount", "table": None}, "column 'Amount'"),
        ({"column": "Amount", "table": ""}, "column 'Amount'"),
    ],
)
def test_what_a_check_reads_is_named(where: dict[str, Any], label: str) -> None:
    assert describe(where) == label


def test_a_column_without_a_name_is_the_one_under_a_blank_header() -> None:
    corner = table(ROWS, header=("", "Amount"))  # the row labels' column has no header text
    tree = tree_of(corner)
    expected = ["2026-03-02", "2026-03-01", "2026-02-27"]
    assert texts(values_of(tree, {"column": None, "list": None})) == expected
    assert values_of(tree_of(table(ROWS)), {"list": ""}) is None
