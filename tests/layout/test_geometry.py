"""Rows, columns and edge alignment (argus.layout._geometry), each rule at its boundary."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argus.layout._geometry import (
    full_bleed,
    gaps,
    intersecting_pairs,
    intersects,
    lines,
    misalignment,
    neighbours,
)
from argus.layout.model import Box


def box(name: str, x: float, y: float, w: float, h: float) -> Box:
    return Box(name, x, y, w, h)


def names(found: list[list[Box]]) -> list[list[str]]:
    return [[b.name for b in line] for line in found]


GRID = [  # two cards at y=80 and two at y=400, 16 px apart, listed out of order
    box("d", 336, 400, 296, 300),
    box("a", 24, 80, 296, 300),
    box("c", 24, 400, 296, 300),
    box("b", 336, 80, 296, 300),
]


def test_a_two_by_two_grid_is_two_rows_and_two_columns_with_their_real_gaps() -> None:
    rows = lines(GRID, "y", 2)
    assert names(rows) == [["a", "b"], ["c", "d"]]
    assert [gaps(row, "x") for row in rows] == [[16.0], [16.0]]
    columns = lines(GRID, "x", 2)
    assert names(columns) == [["a", "c"], ["b", "d"]]
    assert [gaps(column, "y") for column in columns] == [[20.0], [20.0]]


def test_a_row_is_boxes_one_line_crosses_so_a_tall_chart_is_in_two_rows() -> None:
    chart = box("chart", 24, 24, 400, 600)
    upper, lower = box("upper", 440, 24, 200, 280), box("lower", 440, 344, 200, 280)
    assert names(lines([lower, chart, upper], "y", 2)) == [["chart", "upper"], ["chart", "lower"]]


def test_touching_edges_do_not_share_a_row_and_sub_pixel_noise_is_no_overlap() -> None:
    top, below = box("top", 0, 0, 100, 100), box("below", 200, 100, 100, 50)
    assert names(lines([top, below], "y", 2)) == [["top"], ["below"]]
    almost = box("almost", 200, 99.995, 100, 50)
    assert names(lines([top, almost], "y", 2)) == [["top"], ["almost"]]
    into = box("into", 200, 99.9, 100, 50)
    assert names(lines([top, into], "y", 2)) == [["top", "into"]]


def test_intersecting_boxes_are_left_to_check_1_so_no_gap_is_negative() -> None:
    left, over = box("left", 0, 0, 100, 50), box("over", 80, 0, 100, 50)
    third = box("third", 300, 0, 100, 50)
    assert names(lines([left, over, third], "y", 2)) == [["third"]]


def test_boxes_of_no_width_or_height_are_in_no_line() -> None:
    assert lines([box("rule", 0, 0, 0, 50), box("line", 0, 60, 50, 0)], "y", 2) == []
    assert lines([], "x", 2) == []


@pytest.mark.parametrize(
    ("x", "w", "bleeds"),
    [
        (0, 1280, True),  # the header spanning the page
        (2, 1276, True),  # within the 2 px tolerance at both ends
        (3, 1277, False),  # padded by 3 px on the left
        (0, 1277, False),  # 3 px short of the far edge
        (24, 1256, False),  # padded content
    ],
)
def test_full_bleed_runs_from_the_canvas_edge_to_the_far_edge(
    x: float, w: float, bleeds: bool
) -> None:
    assert full_bleed(box("h", x, 0, w, 64), "x", 1280, 2) is bleeds


def test_a_full_bleed_header_is_no_column_mate_and_a_full_height_sidebar_no_row_mate() -> None:
    header = box("header", 0, 0, 1280, 64)
    card = box("card", 24, 88, 296, 120)
    wide = box("wide", 24, 232, 1256, 100)  # reaches the far edge but is padded on the left
    assert names(lines([header, card, wide], "x", 2)) == [["card", "wide"]]
    sidebar = box("sidebar", 0, 0, 200, 800)
    cards = [box(f"c{i}", 224 + 216 * i, 24, 200, 120) for i in range(3)]
    assert names(lines([sidebar, *cards, box("foot", 224, 700, 200, 100)], "y", 2)) == [
        ["c0", "c1", "c2"],
        ["foot"],
    ]


def test_each_pair_of_neighbours_is_given_once() -> None:
    a, b, c = box("a", 0, 0, 10, 100), box("b", 20, 0, 10, 40), box("c", 20, 60, 10, 40)
    pairs = list(neighbours([[a, b], [a, c], [a, b]]))
    assert [(p.name, q.name) for p, q in pairs] == [("a", "b"), ("a", "c")]


# (above: x, width), (below: x, width), expected (edge, offset) or None, on a 2 px tolerance
ALIGNMENT = [
    ((24, 296), (24, 296), None),  # one column
    ((24, 296), (26, 296), None),  # 2 px: within the tolerance
    ((24, 296), (27, 296), ("left", 3.0)),  # 3 px: a near miss
    ((24, 296), (27, 293), None),  # the left edges miss, the right edges agree
    ((24, 816), (440, 400), None),  # a card under the right half of a chart: right edges agree
    ((24, 816), (440, 396), ("right", 4.0)),  # ... and 4 px short of it
    ((24, 816), (34, 400), ("left", 10.0)),  # the title 10 px off the chart's left edge
    ((24, 816), (64, 400), ("left", 40.0)),  # 40 px: the edge of the window
    ((24, 816), (65, 400), None),  # 41 px, inside the chart's span: placed by intent
    ((24, 1232), (336, 296), None),  # the middle card under a full-width chart
    ((24, 296), (80, 296), ("left", 56.0)),  # most of each shared, no edge: one column, off
    ((24, 400), (240, 400), None),  # 184 of 400 px shared: under half, another column
    ((24, 400), (224, 400), None),  # exactly half shared is not "most"
    ((24, 400), (223, 400), ("left", 199.0)),  # 201 of 400 shared: most of each
    ((24, 296), (80, 600), None),  # most of the narrow one, not of the wide one
]


@pytest.mark.parametrize(("above", "below", "expected"), ALIGNMENT)
def test_misalignment_of_stacked_neighbours(
    above: tuple[float, float], below: tuple[float, float], expected: tuple[str, float] | None
) -> None:
    a = box("a", above[0], 0, above[1], 100)
    b = box("b", below[0], 120, below[1], 100)
    found = misalignment(a, b, "x", 2)
    assert (None if found is None else (found.edge, found.offset)) == expected
    # the same pair turned a quarter is a row: top and bottom edges instead of left and right
    turned = misalignment(
        box("a", 0, above[0], 100, above[1]), box("b", 120, below[0], 100, below[1]), "y", 2
    )
    flipped = None if expected is None else ({"left": "top", "right": "bottom"}[expected[0]],)
    assert (None if turned is None else (turned.edge,)) == flipped


def test_a_wider_tolerance_widens_the_near_miss_window() -> None:
    a, b = box("a", 24, 0, 816, 100), box("b", 74, 120, 400, 100)  # 50 px off
    assert misalignment(a, b, "x", 2) is None  # beyond the 40 px window
    found = misalignment(a, b, "x", 12.5)  # window 4 x 12.5 = 50
    assert found is not None and found.offset == 50.0
    assert misalignment(a, b, "x", 50) is None  # within the tolerance itself


coordinate = st.integers(min_value=0, max_value=600)
extent = st.integers(min_value=0, max_value=300)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(coordinate, coordinate, extent, extent), max_size=12))
def test_every_line_is_crossed_by_one_line_and_its_gaps_are_never_negative(
    raw: list[tuple[int, int, int, int]],
) -> None:
    boxes = [box(f"b{i}", x, y, w, h) for i, (x, y, w, h) in enumerate(raw)]
    for across, along in (("y", "x"), ("x", "y")):
        found = lines(boxes, across, 2)  # type: ignore[arg-type]
        for line in found:
            starts = [b.y if across == "y" else b.x for b in line]
            ends = [b.bottom if across == "y" else b.right for b in line]
            assert max(starts) < min(ends)  # one line crosses every member
            assert all(g >= 0 for g in gaps(line, along))  # type: ignore[arg-type]
        sets = [frozenset(b.name for b in line) for line in found]
        assert not any(a < b for a in sets for b in sets)  # maximal: none inside another


def test_the_canvas_is_the_page_or_the_far_edge_of_the_boxes_whichever_is_nearer() -> None:
    header, card = box("header", 0, 0, 1265, 64), box("card", 24, 88, 296, 120)
    assert names(lines([header, card], "x", 2, canvas=1280)) == [["card"]]  # a 15 px scrollbar
    banner = box("banner", 0, 0, 1000, 64)
    assert names(lines([banner, card, box("far", 1100, 88, 180, 120)], "x", 2, 1280)) == [
        ["banner", "card"],
        ["far"],
    ]


def test_when_every_box_spans_the_canvas_none_is_set_aside() -> None:
    strip = [box(f"s{i}", 120 * i, 0, 100, 50) for i in range(3)]  # one row, nothing below
    assert names(lines(strip, "y", 2)) == [["s0", "s1", "s2"]]


def test_the_window_is_four_times_the_tolerance_when_that_is_wider() -> None:
    a = box("a", 24, 0, 816, 100)
    assert misalignment(a, box("b", 75, 120, 400, 100), "x", 12.5) is None  # 51 > 4 x 12.5


def test_sub_pixel_overlap_in_a_row_is_a_gap_of_zero_not_a_negative_one() -> None:
    a, b, c = box("a", 0, 0, 100, 50), box("b", 99.995, 0, 100, 50), box("c", 216, 0, 100, 50)
    row = lines([a, b, c, box("below", 0, 100, 10, 10)], "y", 2)[0]
    assert [x.name for x in row] == ["a", "b", "c"]
    assert gaps(row, "x") == [0.0, pytest.approx(16.005)]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(coordinate, coordinate, extent, extent), max_size=16))
def test_the_sweep_finds_every_intersecting_pair_and_no_other(
    raw: list[tuple[int, int, int, int]],
) -> None:
    boxes = [box(f"b{i}", x, y, w, h) for i, (x, y, w, h) in enumerate(raw)]
    brute = [
        (i, j) for i, j in combinations(range(len(boxes)), 2) if intersects(boxes[i], boxes[j])
    ]
    assert intersecting_pairs(boxes) == brute
