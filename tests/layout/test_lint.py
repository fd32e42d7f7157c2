"""The layout linter: each check fired by its own bad page, a clean page and a tuned grid pass."""

from __future__ import annotations

import copy
import dataclasses
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from argus.errors import InputError
from argus.layout import checks as checks_module
from argus.layout.checks import CHECKS, Settings
from argus.layout.lint import LintOptions, lint
from tests.conftest import RunArgus
from tests.layout.pbir import good_page, variant, write_inline, write_page

OVERRIDES = {f"p{i}": {"expr": {"Literal": {"Value": "true"}}} for i in range(11)}

# One bad page per check: it fires exactly that check and nothing else.
BAD: dict[str, dict[str, Any]] = {
    "check-1": variant(chart={"position.height": 545}),  # runs 5 px into the textbox
    "check-2": variant(table={"position.width": 430}),  # right edge 1286 on a 1280 canvas
    "check-3": variant(card3={"position.x": 866, "position.width": 390}),  # gaps 16 and 26
    "check-4": variant(title={"position.x": 34}),  # 10 px off the chart's left edge
    "check-5": variant(chart={"visual.query": {"queryState": {"Y": {"projections": []}}}}),
    "check-6": variant(card1={"visual.objects": {"labels": [{"properties": OVERRIDES}]}}),
    "check-7": variant(table={"visual.visualType": "tableExx"}),
}


def fired(result_json: dict[str, Any]) -> set[str]:
    return {f["check"] for f in result_json["findings"]}


# The same pages in both shapes the linter reads: a PBIR page folder (page.json and
# visuals/*/visual.json) and the linter's own one-file page (visuals[] with visualType,
# queryState, objects and visualContainerObjects inline).
SHAPES = ("folder", "inline")


def run(tmp_path: Path, page: dict[str, Any], shape: str = "folder", **options: Any) -> Any:
    if shape == "inline":
        target = write_inline(tmp_path / "report" / "overview.json", page)
    else:
        target = write_page(tmp_path / "report" / "pages" / "p1", page)
    return lint(target, tmp_path, LintOptions(**options)).to_json()


@pytest.mark.parametrize("shape", SHAPES)
def test_a_clean_page_passes_every_check(tmp_path: Path, shape: str) -> None:
    result = run(tmp_path, good_page(), shape, strict=True)
    assert (result["exit_code"], result["findings"], result["pbir"]) == (0, [], True)
    assert result["summary"]["visuals"] == 6 and result["schema_version"] == 1


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("check", sorted(BAD))
def test_each_bad_page_fires_exactly_its_check(tmp_path: Path, check: str, shape: str) -> None:
    result = run(tmp_path, BAD[check], shape, strict=True)
    assert fired(result) == {check}
    assert result["exit_code"] == 1
    severity = CHECKS[check].severity
    assert {f["severity"] for f in result["findings"]} == {severity}


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("check", sorted(BAD))
def test_an_always_pass_mutant_of_a_check_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check: str, shape: str
) -> None:
    def silent(*_: Any) -> Iterator[checks_module.Finding]:
        return iter(())

    monkeypatch.setitem(CHECKS, check, dataclasses.replace(CHECKS[check], run=silent))
    result = run(tmp_path, BAD[check], shape, strict=True)
    assert result["exit_code"] == 0  # the mutant lets the bad page through: the test above fails


def test_warnings_exit_zero_without_strict_and_errors_always_fail(tmp_path: Path) -> None:
    assert run(tmp_path / "w", BAD["check-3"])["exit_code"] == 0
    assert run(tmp_path / "e", BAD["check-1"])["exit_code"] == 1


def test_the_fix_hint_names_the_visuals_and_numbers(tmp_path: Path) -> None:
    finding = run(tmp_path, BAD["check-1"])["findings"][0]
    assert finding["visuals"] == ["chart", "title"]
    assert finding["measured"] == {"overlap_width": 400.0, "overlap_height": 5.0}
    assert "y=705" in finding["fix"]


def test_touching_edges_are_not_overlap(tmp_path: Path) -> None:
    page = variant(chart={"position.height": 540})  # bottom 700 == textbox top
    assert run(tmp_path, page)["findings"] == []


def tuned_grid() -> dict[str, Any]:
    """A hand-tuned grid: gaps 16/24 and a left edge 6 px in, accepted by its _lintConfig."""
    page = variant(card2={"position.x": 440}, card3={"position.x": 864}, title={"position.x": 30})
    page["visuals"][2]["position"]["width"] = 392
    page["page"]["_lintConfig"] = {"tolerance": {"equal_gap_px": 10, "column_align_px": 8}}
    return page


def test_a_tuned_grid_passes_with_its_lint_config_and_its_config_wins_over_flags(
    tmp_path: Path,
) -> None:
    strict_flags = Settings(equal_gap_px=0, column_align_px=0)
    result = run(tmp_path / "a", tuned_grid(), strict=True, settings=strict_flags)
    assert (result["exit_code"], result["findings"]) == (0, [])
    without = tuned_grid()
    del without["page"]["_lintConfig"]
    assert fired(run(tmp_path / "b", without, strict=True)) == {"check-3", "check-4"}


def test_lint_ignore_opts_one_visual_out_of_one_check(tmp_path: Path) -> None:
    page = variant(chart={"position.height": 545, "_lintIgnore": ["check-1"]})
    assert run(tmp_path / "a", page)["findings"] == []
    other = variant(chart={"position.height": 545, "_lintIgnore": ["check-3"]})
    assert fired(run(tmp_path / "b", other)) == {"check-1"}
    by_name = variant(chart={"position.height": 545, "_lintIgnore": ["no-overlap"]})
    assert run(tmp_path / "c", by_name)["findings"] == []


def test_settings_in_pbir_annotations_are_read_too(tmp_path: Path) -> None:
    page = variant(chart={"position.height": 545})
    page["visuals"][3]["annotations"] = [{"name": "_lintIgnore", "value": '["check-1"]'}]
    assert run(tmp_path, page)["findings"] == []


def test_a_bad_display_option_fires_check_7(tmp_path: Path) -> None:
    result = run(tmp_path, variant(page={"displayOption": "Stretch"}))
    assert fired(result) == {"check-7"} and result["findings"][0]["visuals"] == []
    deprecated = run(tmp_path / "d", variant(page={"displayOption": "ActualSizeTopLeft"}))
    assert deprecated["findings"] == []  # in Microsoft's schema, though deprecated


def test_a_field_parameter_binding_is_a_binding(tmp_path: Path) -> None:
    state = {"Y": {"projections": [], "fieldParameters": [{"index": 0, "parameterExpr": {}}]}}
    assert run(tmp_path, variant(chart={"visual.query": {"queryState": state}}))["findings"] == []


def test_pbir_checks_switch_with_schema_and_flags(tmp_path: Path) -> None:
    assert run(tmp_path / "a", BAD["check-7"], pbir=False)["findings"] == []
    plain = copy.deepcopy(BAD["check-7"])  # BAD is shared: the other tests need it whole
    plain["page"].pop("$schema")
    for item in plain["visuals"]:
        item.pop("$schema")
    assert run(tmp_path / "b", plain)["pbir"] is False
    assert fired(run(tmp_path / "c", plain, pbir=True)) == {"check-7"}


def test_a_missing_reference_is_exit_3_unless_the_layout_already_fails(tmp_path: Path) -> None:
    broken = tmp_path / "types.json"
    broken.write_text("{not json")
    clean = run(tmp_path / "a", good_page(), visual_types=broken)
    assert clean["exit_code"] == 3
    assert clean["summary"]["unverified_checks"] == ["check-5", "check-7"]
    failing = run(tmp_path / "b", BAD["check-1"], visual_types=broken)
    assert failing["exit_code"] == 1  # a failing lint never reads as "could not verify"


def test_a_plain_list_of_boxes_is_linted_without_pbir(tmp_path: Path) -> None:
    boxes = [
        {"name": "a", "x": 0, "y": 0, "width": 100, "height": 50},
        {"name": "b", "x": 90, "y": 0, "width": 100, "height": 50},
    ]
    (tmp_path / "boxes.json").write_text(json.dumps(boxes))
    result = lint(tmp_path / "boxes.json", tmp_path).to_json()
    assert (fired(result), result["pbir"], result["exit_code"]) == ({"check-1"}, False, 1)
    framed = {"width": 150, "height": 100, "boxes": [boxes[0], {**boxes[1], "x": 100}]}
    (tmp_path / "framed.json").write_text(json.dumps(framed))
    assert fired(lint(tmp_path / "framed.json", tmp_path).to_json()) == {"check-2"}


def test_a_directory_of_pages_lints_each(tmp_path: Path) -> None:
    write_page(tmp_path / "def" / "pages" / "a", good_page())
    write_page(tmp_path / "def" / "pages" / "b", BAD["check-2"])
    result = lint(tmp_path / "def", tmp_path).to_json()
    assert result["summary"]["pages"] == 2 and fired(result) == {"check-2"}


def test_bad_input_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text('[{"name": "a", "x": "0", "y": 0, "width": 1, "height": 1}]')
    with pytest.raises(InputError, match=r"position\.x must be a finite number"):
        lint(tmp_path / "bad.json", tmp_path)
    with pytest.raises(InputError, match="outside the repository"):
        lint(tmp_path.parent, tmp_path)


def test_cli_json_envelope_and_exit_codes(tmp_path: Path, run_argus: RunArgus) -> None:
    (tmp_path / "argus.toml").write_text("")
    write_page(tmp_path / "pages" / "good", good_page())
    write_page(tmp_path / "pages" / "bad", BAD["check-4"])
    ok = run_argus("layout", "lint", "pages/good", "--format", "json", cwd=tmp_path)
    assert ok.returncode == 0 and json.loads(ok.stdout)["exit_code"] == 0
    warn = run_argus("layout", "lint", "pages/bad", "--strict", cwd=tmp_path)
    assert warn.returncode == 1 and "check-4" in warn.stdout
    loose = run_argus("layout", "lint", "pages/bad", "--tolerance-align", "12", cwd=tmp_path)
    assert loose.returncode == 0
    outside = run_argus("layout", "lint", "..", cwd=tmp_path)
    assert outside.returncode == 2 and outside.stderr.count("\n") == 1
    (tmp_path / "types.json").write_text("[]")
    degraded = run_argus(
        "layout", "lint", "pages/good", "--visual-types", "types.json", cwd=tmp_path
    )
    assert degraded.returncode == 3
    listed = run_argus("layout", "lint", "--list-checks", "--format", "json", cwd=tmp_path)
    assert [c["id"] for c in json.loads(listed.stdout)] == [f"check-{i}" for i in range(1, 8)]


def test_a_visual_type_reference_that_is_not_there_is_exit_2(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    """From the flag or the environment, a wrong path is one line, whatever the page holds."""
    (tmp_path / "argus.toml").write_text("")
    write_page(tmp_path / "pages" / "good", good_page())
    env = {**os.environ, "ARGUS_VISUAL_TYPES": str(tmp_path / "nope.json")}
    done = run_argus("layout", "lint", "pages/good", cwd=tmp_path, env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "nope.json: no visual-type reference there" in done.stderr
    flag = run_argus("layout", "lint", "pages/good", "--visual-types", "x.json", cwd=tmp_path)
    assert flag.returncode == 2 and "x.json: no visual-type reference there" in flag.stderr
    assert run_argus("layout", "lint", "pages/good", cwd=tmp_path).returncode == 0


# Each bad page's one finding in full: the fix's numbers are what a person or agent acts on.
FINDINGS: dict[str, dict[str, Any]] = {
    "check-1": {
        "check": "check-1",
        "name": "no-overlap",
        "severity": "error",
        "page": "overview",
        "visuals": ["chart", "title"],
        "message": "chart and title overlap by 400x5 px",
        "fix": "move title to x=840 (right of chart) or to y=705 (below it), or shrink one of them",
        "measured": {"overlap_width": 400.0, "overlap_height": 5.0},
    },
    "check-2": {
        "check": "check-2",
        "name": "within-canvas",
        "severity": "error",
        "page": "overview",
        "visuals": ["table"],
        "message": "table (856,160 430x536) leaves the 1280x720 canvas",
        "fix": "move table to x=850, y=160 or shrink it to fit",
        "measured": {"outside_x": 6.0, "outside_y": 0.0},
    },
    "check-3": {
        "check": "check-3",
        "name": "equal-gaps",
        "severity": "warning",
        "page": "overview",
        "visuals": ["card1", "card2", "card3"],
        "message": "gaps in the row card1, card2, card3 are 16, 26 px (spread 10 > 4)",
        "fix": "space the row evenly at 26 px between neighbours",
        "measured": {"gaps": [16.0, 26.0], "spread": 10.0, "tolerance": 4.0},
    },
    "check-4": {
        "check": "check-4",
        "name": "column-alignment",
        "severity": "warning",
        "page": "overview",
        "visuals": ["chart", "title"],
        "message": "title is stacked with chart but their left edges are 10 px apart (> 2)",
        "fix": "set title x=24 to line up with chart's left edge",
        "measured": {"offset": 10.0, "edge": "left", "tolerance": 2.0},
    },
    "check-5": {
        "check": "check-5",
        "name": "no-empty-binding",
        "severity": "error",
        "page": "overview",
        "visuals": ["chart"],
        "message": "chart is a clusteredColumnChart with no field bound in query.queryState",
        "fix": "bind a field to one of clusteredColumnChart's roles (Category, Y, Series, "
        "Tooltips) or remove the visual",
        "measured": {"projections": 0},
    },
    "check-6": {
        "check": "check-6",
        "name": "bounded-overrides",
        "severity": "warning",
        "page": "overview",
        "visuals": ["card1"],
        "message": "card1 sets 11 formatting properties of its own (limit 10)",
        "fix": "move 1 or more of card1's objects/visualContainerObjects properties into "
        "the report theme",
        "measured": {"overrides": 11, "limit": 10},
    },
    "check-7": {
        "check": "check-7",
        "name": "valid-types",
        "severity": "error",
        "page": "overview",
        "visuals": ["table"],
        "message": "table: visualType is not one the reference knows",
        "fix": "use a built-in visualType (argus layout lint --list-checks shows the "
        'reference), or add "check-7" to table\'s _lintIgnore for a custom visual',
        "measured": {"visual_type_valid": False},
    },
}


@pytest.mark.parametrize("check", sorted(BAD))
def test_each_finding_is_reported_in_full(tmp_path: Path, check: str) -> None:
    assert run(tmp_path, BAD[check])["findings"] == [FINDINGS[check]]


@pytest.mark.parametrize(
    ("display_option", "shown"), [("Stretch", "not a known value"), (None, "missing")]
)
def test_a_bad_or_missing_display_option_is_said_in_full(
    tmp_path: Path, display_option: str | None, shown: str
) -> None:
    page = variant(page={"displayOption": display_option})
    if display_option is None:
        del page["page"]["displayOption"]
    assert run(tmp_path, page)["findings"] == [
        {
            "check": "check-7",
            "name": "valid-types",
            "severity": "error",
            "page": "overview",
            "visuals": [],
            "message": f"page overview: displayOption is {shown}",
            "fix": "set displayOption to one of ActualSize, ActualSizeTopLeft, DeprecatedDynamic, "
            "FitToPage, FitToWidth",
            "measured": {"display_option_valid": False},
        }
    ]


def lint_boxes(tmp_path: Path, doc: Any, **options: Any) -> Any:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "boxes.json").write_text(json.dumps(doc))
    return lint(tmp_path / "boxes.json", tmp_path, LintOptions(**options)).to_json()


def test_a_box_off_the_top_left_corner_is_moved_to_the_origin(tmp_path: Path) -> None:
    doc = {
        "width": 1280,
        "height": 720,
        "boxes": [{"name": "a", "x": -10, "y": -6, "width": 100, "height": 50}],
    }
    (finding,) = lint_boxes(tmp_path, doc)["findings"]
    assert (finding["check"], finding["measured"]) == (
        "check-2",
        {"outside_x": 10.0, "outside_y": 6.0},
    )
    assert finding["fix"] == "move a to x=0, y=0 or shrink it to fit"


def test_a_box_off_the_bottom_only_is_outside_on_that_axis_only(tmp_path: Path) -> None:
    doc = {
        "width": 1280,
        "height": 720,
        "boxes": [{"name": "a", "x": 10, "y": 700, "width": 100, "height": 50}],
    }
    (finding,) = lint_boxes(tmp_path, doc)["findings"]
    assert finding["measured"] == {"outside_x": 0.0, "outside_y": 30.0}
    assert finding["fix"] == "move a to x=10, y=670 or shrink it to fit"


@pytest.mark.parametrize(
    ("x", "y", "inside"), [(-0.01, 0, True), (0, -0.01, True), (-0.02, 0, False), (0, -0.02, False)]
)
def test_a_box_within_float_noise_of_the_canvas_is_inside(
    tmp_path: Path, x: float, y: float, inside: bool
) -> None:
    doc = {
        "width": 1280,
        "height": 720,
        "boxes": [{"name": "a", "x": x, "y": y, "width": 100, "height": 50}],
    }
    assert fired(lint_boxes(tmp_path, doc)) == (set() if inside else {"check-2"})


@pytest.mark.parametrize("size", [{"width": 150}, {"height": 100}])
def test_a_canvas_of_half_known_size_is_not_checked(tmp_path: Path, size: dict[str, int]) -> None:
    doc = {**size, "boxes": [{"name": "a", "x": 400, "y": 400, "width": 100, "height": 50}]}
    assert lint_boxes(tmp_path, doc)["findings"] == []


def test_boxes_without_a_visual_pass_the_pbir_checks(tmp_path: Path) -> None:
    doc = [{"name": "a", "x": 0, "y": 0, "width": 100, "height": 50}]
    result = lint_boxes(tmp_path, doc, pbir=True)
    assert (result["findings"], result["exit_code"]) == ([], 0)


def test_a_group_or_a_textbox_first_on_the_page_hides_no_later_visual(tmp_path: Path) -> None:
    page = variant(
        chart={"visual.query": {"queryState": {"Y": {"projections": []}}}},
        table={"visual.visualType": "tableExx"},
        card1={"visual.objects": {"labels": [{"properties": OVERRIDES}]}},
    )
    group = {
        "name": "group",
        "position": {"x": 0, "y": 0, "width": 10, "height": 10},
        "visualGroup": {"displayName": "Group"},
    }
    textbox = next(v for v in page["visuals"] if v["name"] == "title")
    others = [v for v in page["visuals"] if v["name"] != "title"]
    doc = {**page["page"], "visuals": [group, textbox, *others]}
    (tmp_path / "overview.json").write_text(json.dumps(doc))
    result = lint(tmp_path / "overview.json", tmp_path).to_json()
    assert [(f["check"], f["visuals"]) for f in result["findings"]] == [
        ("check-5", ["chart"]),
        ("check-6", ["card1"]),
        ("check-7", ["table"]),
    ]


@pytest.mark.parametrize("aside", [{"hidden": True}, {"visualGroup": {}}, {}])
def test_hidden_visuals_and_groups_take_no_part_in_rows_and_columns(
    tmp_path: Path, aside: dict[str, Any]
) -> None:
    row = [
        {"name": n, "x": x, "y": 0, "width": 100, "height": 50}
        for n, x in (("a", 0), ("b", 116), ("c", 232))
    ]
    uneven = {"name": "d", "x": 360, "y": 0, "width": 100, "height": 50, **aside}  # gap 28
    off_column = {"name": "e", "x": 10, "y": 66, "width": 100, "height": 50, **aside}
    result = lint_boxes(tmp_path, [*row, uneven, off_column])
    expected = set() if aside else {"check-3", "check-4"}
    assert fired(result) == expected


def test_each_kind_of_formatting_entry_counts_its_properties(tmp_path: Path) -> None:
    objects = {
        "labels": ["not an object"],  # one override, whatever it is
        "title": [{"selector": {"id": "x"}}],  # an entry naming no property still sets one
        "legend": {"properties": {"show": True, "position": "Top"}},  # two
        "border": {"show": True, "selector": {}, "$id": "1"},  # flat: one
    }
    page = variant(card1={"visual.objects": objects})
    result = run(tmp_path, page, settings=Settings(max_overrides=0))
    assert [(f["visuals"], f["measured"]) for f in result["findings"]] == [
        (["card1"], {"overrides": 5, "limit": 0})
    ]


@pytest.mark.parametrize("aside", [{"hidden": True}, {"visualGroup": {}}, {}])
def test_hidden_visuals_and_groups_overlap_nothing_but_must_stay_on_the_canvas(
    tmp_path: Path, aside: dict[str, Any]
) -> None:
    a = {"name": "a", "x": 0, "y": 0, "width": 100, "height": 50}
    over = {"name": "b", "x": 50, "y": 0, "width": 100, "height": 50, **aside}
    assert fired(lint_boxes(tmp_path / "o", [a, over])) == (set() if aside else {"check-1"})
    off = {"name": "c", "x": 1200, "y": 0, "width": 100, "height": 50, **aside}
    framed = {"width": 1280, "height": 720, "boxes": [a, off]}
    assert fired(lint_boxes(tmp_path, framed)) == {"check-2"}


def test_a_visual_type_that_is_not_a_string_is_check_7s_finding(tmp_path: Path) -> None:
    result = run(tmp_path, variant(chart={"visual.visualType": ["clusteredColumnChart"]}))
    assert [(f["check"], f["visuals"]) for f in result["findings"]] == [("check-7", ["chart"])]


def test_a_missed_top_edge_moves_the_box_to_its_neighbours_top(tmp_path: Path) -> None:
    row = [
        {"name": "a", "x": 0, "y": 0, "width": 100, "height": 50},
        {"name": "b", "x": 116, "y": 3, "width": 100, "height": 80},
    ]
    (finding,) = lint_boxes(tmp_path, row)["findings"]
    assert (finding["measured"]["edge"], finding["fix"]) == (
        "top",
        "set b y=0 to line up with a's top edge",
    )


@pytest.mark.parametrize("pair_y", [0, 200])
def test_a_row_of_two_hides_no_uneven_row(tmp_path: Path, pair_y: int) -> None:
    def box(name: str, x: float, y: float) -> dict[str, Any]:
        return {"name": name, "x": x, "y": y, "width": 100, "height": 50}

    pair = [box("a", 0, pair_y), box("b", 116, pair_y)]
    uneven = [box("c", 0, 100), box("d", 116, 100), box("e", 242, 100)]  # gaps 16 and 26
    result = lint_boxes(tmp_path, [*pair, *uneven])
    assert [(f["check"], f["visuals"]) for f in result["findings"]] == [
        ("check-3", ["c", "d", "e"])
    ]


def test_a_spread_equal_to_the_gap_tolerance_passes(tmp_path: Path) -> None:
    row = [
        {"name": n, "x": x, "y": 0, "width": 100, "height": 50}
        for n, x in (("a", 0), ("b", 116), ("c", 236))  # gaps 16 and 20
    ]
    # 3.99 + the 0.01 of float noise is exactly 4.0, the spread.
    assert lint_boxes(tmp_path, row, settings=Settings(equal_gap_px=3.99))["findings"] == []
    tighter = lint_boxes(tmp_path, row, settings=Settings(equal_gap_px=3.98))
    assert fired(tighter) == {"check-3"}


def test_a_box_larger_than_the_canvas_is_moved_to_the_origin(tmp_path: Path) -> None:
    doc = {
        "width": 1280,
        "height": 720,
        "boxes": [{"name": "a", "x": 10, "y": 10, "width": 1300, "height": 800}],
    }
    (finding,) = lint_boxes(tmp_path, doc)["findings"]
    assert finding["fix"] == "move a to x=0, y=0 or shrink it to fit"
