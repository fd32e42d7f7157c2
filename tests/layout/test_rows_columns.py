"""Rows (check 3) and columns (check 4) through the linter: report pages and web boxes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.errors import InputError
from argus.layout.lint import lint
from tests.conftest import RunArgus
from tests.layout.pbir import PAGE_SCHEMA, field


def card(name: str, x: float, y: float, w: float = 296, h: float = 300) -> dict[str, Any]:
    """A card in the linter's own page format: visualType and queryState on the item."""
    return {
        "name": name,
        "position": {"x": x, "y": y, "z": 0, "width": w, "height": h},
        "visualType": "card",
        "queryState": {"Values": field("Values")},
    }


def page(*visuals: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "$schema": PAGE_SCHEMA,
        "name": "grid",
        "displayOption": "FitToPage",
        "width": 1280,
        "height": 720,
        "visuals": list(visuals),
        **extra,
    }


def run(tmp_path: Path, doc: Any, name: str = "page.json", sub: str = "") -> dict[str, Any]:
    (tmp_path / sub).mkdir(exist_ok=True)
    (tmp_path / sub / name).write_text(json.dumps(doc))
    result: dict[str, Any] = lint(tmp_path / sub / name, tmp_path).to_json()
    return result


def fired(result: dict[str, Any]) -> list[tuple[str, list[str]]]:
    return [(f["check"], f["visuals"]) for f in result["findings"]]


def grid(second_row_x: tuple[float, float, float]) -> dict[str, Any]:
    """Two rows of three cards: the first 16 px apart, the second at the given x."""
    top = [card(f"t{i}", 24 + 312 * i, 80) for i in range(3)]
    bottom = [card(f"b{i}", x, 400) for i, x in enumerate(second_row_x)]
    return page(*top, *bottom)


def test_a_two_by_two_grid_is_two_clean_rows(tmp_path: Path) -> None:
    doc = page(card("a", 24, 80), card("b", 336, 80), card("c", 24, 400), card("d", 336, 400))
    assert fired(run(tmp_path, doc)) == []


def test_a_hand_tuned_row_fires_check_3_until_its_lint_config_tolerance_allows_it(
    tmp_path: Path,
) -> None:
    tuned = grid((24, 336, 654))  # gaps 16 and 22 in the second row; right edge 950 vs 944
    result = run(tmp_path, tuned)
    assert fired(result) == [("check-3", ["b0", "b1", "b2"]), ("check-4", ["t2", "b2"])]
    assert result["findings"][0]["measured"]["gaps"] == [16.0, 22.0]  # its own row's gaps
    assert "set b2 x=648" in result["findings"][1]["fix"]
    for sub, tolerance in (("number", 8), ("object", {"equal_gap_px": 8, "column_align_px": 8})):
        allowed = {**tuned, "_lintConfig": {"tolerance": tolerance}}
        assert fired(run(tmp_path, allowed, sub=sub)) == []
    tight = {**tuned, "_lintConfig": {"tolerance": 5}}
    assert {f[0] for f in fired(run(tmp_path, tight, sub="tight"))} == {"check-3", "check-4"}


@pytest.mark.parametrize("tolerance", [-1, "8", True, [8], {"gap": 8}])
def test_a_bad_lint_config_tolerance_is_bad_input(tmp_path: Path, tolerance: Any) -> None:
    with pytest.raises(InputError, match="tolerance"):
        run(tmp_path, page(card("a", 24, 80), _lintConfig={"tolerance": tolerance}))


def test_stacked_visuals_sharing_most_of_a_column_but_no_edge_fire_check_4(
    tmp_path: Path,
) -> None:
    above, below = card("above", 24, 80), card("below", 80, 400)  # x 24-320 over x 80-376
    result = run(tmp_path, page(above, below))
    assert fired(result) == [("check-4", ["above", "below"])]
    finding = result["findings"][0]
    assert finding["measured"] == {"offset": 56.0, "edge": "left", "tolerance": 2.0}
    assert "x=24" in finding["fix"]
    assert fired(run(tmp_path, page(above, card("below", 24, 400)), sub="ok")) == []


def web_page(**changes: dict[str, float]) -> dict[str, Any]:
    """A web dashboard's boxes: a full-bleed header, four padded cards, a chart and a table."""
    boxes = [
        {"name": "header", "x": 0, "y": 0, "width": 1280, "height": 64},
        *(
            {"name": f"kpi{i}", "x": 24 + 312 * i, "y": 88, "width": 296, "height": 120}
            for i in range(4)
        ),
        {"name": "chart", "x": 24, "y": 232, "width": 816, "height": 400},
        {"name": "table", "x": 856, "y": 232, "width": 400, "height": 400},
    ]
    for item in boxes:
        item.update(changes.get(str(item["name"]), {}))
    return {"width": 1280, "height": 800, "boxes": boxes}


def test_a_web_page_with_a_full_bleed_header_and_padded_cards_is_clean(tmp_path: Path) -> None:
    assert fired(run(tmp_path, web_page(), "boxes.json")) == []


def test_a_header_inset_from_the_page_edges_is_a_column_mate_again(tmp_path: Path) -> None:
    result = run(tmp_path, web_page(header={"x": 12, "width": 1256}), "boxes.json")
    assert fired(result) == [("check-4", ["header", "kpi0"]), ("check-4", ["header", "kpi3"])]
    assert [f["measured"]["edge"] for f in result["findings"]] == ["left", "right"]


def test_a_card_3_px_below_its_row_fires_check_3(tmp_path: Path) -> None:
    result = run(tmp_path, web_page(kpi2={"y": 91}), "boxes.json")
    assert fired(result) == [("check-3", ["kpi1", "kpi2"]), ("check-3", ["kpi2", "kpi3"])]
    assert result["findings"][0]["measured"] == {"offset": 3.0, "edge": "top", "tolerance": 2.0}
    assert {f["fix"].split(" to ")[0] for f in result["findings"]} == {"set kpi2 y=88"}


def test_a_card_within_the_alignment_tolerance_of_its_row_passes(tmp_path: Path) -> None:
    assert fired(run(tmp_path, web_page(kpi2={"y": 90}), "boxes.json")) == []


def test_the_web_page_through_the_cli(tmp_path: Path, run_argus: RunArgus) -> None:
    (tmp_path / "argus.toml").write_text("")
    (tmp_path / "good.json").write_text(json.dumps(web_page()))
    (tmp_path / "low.json").write_text(json.dumps(web_page(kpi2={"y": 91})))
    assert run_argus("layout", "lint", "good.json", "--strict", cwd=tmp_path).returncode == 0
    low = run_argus("layout", "lint", "low.json", "--strict", cwd=tmp_path)
    assert low.returncode == 1 and "kpi2" in low.stdout and "top edges" in low.stdout
    loose = run_argus(
        "layout", "lint", "low.json", "--strict", "--tolerance-align", "3", cwd=tmp_path
    )
    assert loose.returncode == 0


def test_the_fix_for_a_missed_right_or_bottom_edge_moves_the_box_onto_it(
    tmp_path: Path,
) -> None:
    short = run(tmp_path, web_page(table={"width": 396}), "boxes.json", "right")
    assert fired(short) == [("check-4", ["kpi3", "table"])]
    assert short["findings"][0]["fix"].startswith("set table x=860 ")  # 1256 - 396
    beside = {"name": "note", "x": 1272, "y": 500, "width": 8, "height": 128}  # bottom 628
    doc = web_page()
    doc["boxes"].append(beside)
    low = run(tmp_path, doc, "boxes.json", "bottom")
    assert fired(low) == [("check-3", ["table", "note"])]
    assert low["findings"][0]["measured"]["edge"] == "bottom"
    assert low["findings"][0]["fix"].startswith("set note y=504 ")  # 632 - 128


@pytest.mark.parametrize(("third_x", "fires"), [(652, False), (653, True)])
def test_a_rows_gaps_may_spread_by_the_gap_tolerance_and_no_more(
    tmp_path: Path, third_x: float, fires: bool
) -> None:
    doc = page(card("a", 24, 80), card("b", 336, 80), card("c", third_x, 80, 296 - (third_x - 648)))
    result = run(tmp_path, doc)  # gaps 16 and 20 (spread 4) or 16 and 21 (spread 5)
    assert fired(result) == ([("check-3", ["a", "b", "c"])] if fires else [])


def test_a_box_running_off_the_canvas_does_not_rob_the_header_or_sidebar_of_full_bleed(
    tmp_path: Path,
) -> None:
    toast = {"name": "toast", "x": 1100, "y": 700, "width": 200, "height": 40}  # to x=1300
    wide = web_page()
    wide["boxes"].append(toast)
    assert [f[0] for f in fired(run(tmp_path, wide, "boxes.json", "wide"))] == ["check-2"]
    sidebar = {"name": "nav", "x": 0, "y": 0, "width": 200, "height": 800}
    cards = [
        {"name": f"c{i}", "x": 224 + 216 * i, "y": 24, "width": 200, "height": 120}
        for i in range(3)
    ]
    tall = {"name": "chart", "x": 224, "y": 168, "width": 632, "height": 652}  # to y=820
    doc = {"width": 1280, "height": 800, "boxes": [sidebar, *cards, tall]}
    assert [f[0] for f in fired(run(tmp_path, doc, "boxes.json", "tall"))] == ["check-2"]
