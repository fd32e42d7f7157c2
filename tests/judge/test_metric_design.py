"""The metric judge's design dimensions (token_compliance, layout_spacing, typography) on
hand-written probes and tokens: exact numbers, scores and boundaries (no browser, no gates run).

The packet here is the bare Packet a MetricContext reads (probe, tokens, contract), written
straight to disk, so each test measures one dimension in a few milliseconds.
"""

from __future__ import annotations

import json
from itertools import count
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from argus.config import ProjectConfig
from argus.errors import InputError
from argus.judge.metric import _design as design
from argus.judge.metric._context import Measured, MetricContext
from argus.judge.packet import Packet, PacketFile
from tests.support.habits import HABITS_DIR

HABITS_TOKENS = HABITS_DIR / "argus" / "specs" / "habits" / "tokens.json"
INK = "rgb(22, 24, 29)"  # text-primary (light)
PAGE = "rgb(245, 246, 248)"  # background (light)
SURFACE = "rgb(255, 255, 255)"
BORDER = "rgb(226, 229, 234)"
DANGER = "rgb(179, 38, 30)"  # kept for role=alert by the example's colour roles
CLEAR = "rgba(0, 0, 0, 0)"
_numbers = count()


def el(
    index: int,
    parent: int | None = 0,
    tag: str = "div",
    *,
    text: str = "",
    role: str = "generic",
    box: tuple[float, float, float, float] = (10, 10, 100, 20),
    visible: bool = True,
    testid: str = "",
    truncated: str = "",
    **style: str,
) -> dict[str, Any]:
    css = {"color": INK, "background-color": CLEAR, "font-size": "16px", "font-family": "Inter"}
    css.update({k.replace("_", "-"): v for k, v in style.items()})
    raw: dict[str, Any] = {
        "index": index,
        "parent": parent,
        "tag": tag,
        "role": role,
        "name": "",
        "id": "",
        "testid": testid,
        "text": text,
        "heading_level": None,
        "visible": visible,
        "interactive": False,
        "box": dict(zip(("x", "y", "width", "height"), box, strict=True)),
        "style": css,
    }
    if truncated:
        raw["truncated"] = truncated
    return raw


def body(**style: str) -> dict[str, Any]:
    return el(0, None, "body", box=(0, 0, 320, 400), background_color=PAGE, **style)


def ctx(
    tmp_path: Path,
    *elements: dict[str, Any],
    tokens: dict[str, Any] | None = None,
    contract: dict[str, Any] | None = None,
    appearance: str = "light",
    graphics: dict[str, Any] | None = None,
    spec: dict[str, Any] | None = None,
    render: Path | None = None,
    **settings: Any,
) -> MetricContext:
    """A context over ``body()`` and ``elements`` (and the probe's ``graphics``, the packet's
    ``spec`` when given); ``settings`` go to [gates.token_compliance]."""
    directory = tmp_path / f"packet-{next(_numbers)}"
    directory.mkdir()
    probe = {
        "version": 1,
        "viewport": {"width": 320, "height": 400},
        "elements": [body(), *elements] if not elements or elements[0]["index"] else elements,
    }
    if graphics is not None:
        probe["graphics"] = graphics
    written = {
        "probe": probe,
        "tokens": tokens if tokens is not None else json.loads(HABITS_TOKENS.read_text("utf-8")),
        "contract": contract or {},
    }
    if spec is not None:
        written["spec"] = spec
    files = {}
    for role, data in written.items():
        path = directory / f"{role}.json"
        path.write_text(json.dumps(data), "utf-8")
        files[role] = PacketFile(role, path, "0" * 64)
    if render is not None:
        files["render"] = PacketFile("render", render, "0" * 64)
    packet = Packet(directory, "habits", "list", "populated", appearance, 1, None, files)
    config = ProjectConfig.model_validate(
        {"root": tmp_path, "gates": {"token_compliance": settings}}
    )
    return MetricContext(packet, config)


def text(index: int, words: str = "Read 20 pages", parent: int = 0, **style: str) -> dict[str, Any]:
    return el(index, parent, "p", text=words, role="paragraph", **style)


# --- token_compliance -----------------------------------------------------------------


def test_token_compliance_counts_every_checked_value(tmp_path: Path) -> None:
    result = design.token_compliance(
        ctx(
            tmp_path,
            text(1),  # color, background-color
            el(
                2,
                background_color=SURFACE,
                border_radius="8px",
                border_top_width="1px",
                border_top_color=BORDER,
                border_left_width="0px",
                border_left_color=DANGER,  # no border there: not shown, not checked
            ),
            text(3, color=DANGER, visible=False),  # hidden: neither checked nor misplaced
        )
    )
    assert result.score == 1, result.evidence
    # body bg 1 + p 2 + div bg, radius, top border 3
    assert dict(result.numbers) == {
        "checked": 6,
        "off_token": 0,
        "colour_roles": 1,
        "off_role": 0,
        "chart_paints": 0,
        "canvas_colours": 0,
        "legend_mismatches": 0,
        "chart_unmeasured": 0,
    }


PRIMARY = "rgb(52, 71, 196)"  # primary (light)
SUCCESS = "rgb(29, 122, 74)"  # success (light)


def bar(index: int, fill: str, series: str = "revenue", **extra: Any) -> dict[str, Any]:
    return {
        "index": index,
        "svg": 1,
        "tag": "rect",
        "path": f"rect:nth-of-type({index + 1})",
        "series": series,
        "box": {"x": 10 + 40 * index, "y": 20, "width": 30, "height": 80},
        "fill": fill,
        "stroke": "none",
        "stroke_width": 1,
        "opacity": 1,
        "fill_opacity": 1,
        "stroke_opacity": 1,
        **extra,
    }


def chart(*marks: dict[str, Any], swatch: str | None = None) -> dict[str, Any]:
    legend = None
    if swatch is not None:
        box = {"x": 0, "y": 0, "width": 10, "height": 10}
        item = {
            "series": "revenue",
            "label": "Revenue",
            "swatch": {"kind": "box", "color": swatch, "box": box, "element": 2},
        }
        legend = {"source": "data-argus-legend", "items": [item]}
    return {
        "marks": list(marks),
        "marks_total": len(marks),
        "charts": [{"svg": 1, "role": "img", "name": "Revenue", "legend": legend}],
    }


def svg() -> dict[str, Any]:
    return el(1, 0, "svg", role="img", box=(0, 0, 200, 120))


def test_token_compliance_weighs_chart_marks_legends_and_series_tokens(tmp_path: Path) -> None:
    on = design.token_compliance(ctx(tmp_path, svg(), graphics=chart(bar(0, PRIMARY))))
    assert on.score == 1 and on.numbers["chart_paints"] == 1, on.evidence
    said = "All 3 rendered colour and radius (chart marks and canvases included) values are light"
    assert on.evidence.startswith(said), on.evidence
    # #374ac8 is within 5 ΔE of primary: a near miss, and named.
    near = design.token_compliance(ctx(tmp_path, svg(), graphics=chart(bar(0, "rgb(55, 74, 200)"))))
    assert near.score == 0.5 and "fill #374ac8" in near.evidence
    # The legend says revenue is success; the bars are primary: never a near miss.
    swatch = el(2, 0, "span", box=(0, 150, 10, 10), background_color=SUCCESS)
    wrong = design.token_compliance(
        ctx(tmp_path, svg(), swatch, graphics=chart(bar(0, PRIMARY), swatch=SUCCESS))
    )
    assert wrong.score == 0 and wrong.numbers["legend_mismatches"] == 1
    assert "legend swatch #1d7a4a" in wrong.evidence
    # The spec maps revenue to success: the primary bars are off their series' token.
    mapped = design.token_compliance(
        ctx(
            tmp_path,
            svg(),
            graphics=chart(bar(0, PRIMARY)),
            spec={"charts": {"series": {"revenue": "success"}}},
        )
    )
    assert mapped.score == 0 and "success #1d7a4a" in mapped.evidence


def test_a_series_near_its_token_is_a_near_miss_whatever_the_tokens_name(tmp_path: Path) -> None:
    # A token name with a space: the near miss is weighed against its colour, the expected
    # value's last word, never a word of its name ("blue", itself a CSS colour).
    tokens = json.loads(HABITS_TOKENS.read_text("utf-8"))
    tokens["colors"]["brand blue"] = {"light": "#008080", "dark": "#008080"}
    series = {"charts": {"series": {"revenue": "brand blue"}}}
    drawn = chart(bar(0, "rgb(3, 131, 133)"))
    result = design.token_compliance(
        ctx(tmp_path, svg(), tokens=tokens, graphics=drawn, spec=series)
    )
    assert result.score == 0.5 and "brand blue #008080" in result.evidence, result.evidence


def test_token_compliance_counts_a_canvas_charts_colours(tmp_path: Path) -> None:
    # A 100 px canvas chart in white with a primary block: two palette colours read from the
    # render's pixels, and the sentence says charts were included.
    pixels = np.full((400, 320, 3), 255, dtype=np.uint8)
    pixels[10:90, 10:40] = (52, 71, 196)
    Image.fromarray(pixels).save(tmp_path / "render.png")
    canvas = {"element": 1, "tag": "canvas", "name": "Sales", "how": "role=img"}
    graphics = {
        "marks": [],
        "marks_total": 0,
        "charts": [],
        "canvases": [{**canvas, "box": {"x": 0, "y": 0, "width": 100, "height": 100}}],
    }
    shown = el(1, 0, "canvas", role="img", box=(0, 0, 100, 100))
    result = design.token_compliance(
        ctx(tmp_path, shown, graphics=graphics, render=tmp_path / "render.png")
    )
    assert (result.numbers["chart_paints"], result.numbers["canvas_colours"]) == (0, 2)
    assert "(chart marks and canvases included)" in result.evidence, result.evidence


def test_token_compliance_says_which_chart_colours_it_could_not_measure(tmp_path: Path) -> None:
    graphics = chart(bar(0, 'url("#fade")', id="fancy", path="#fancy"))
    result = design.token_compliance(ctx(tmp_path, svg(), graphics=graphics))
    assert result.numbers["chart_unmeasured"] == 1
    assert "1 chart colour(s) not measured: #fancy fill" in result.evidence


def test_a_forged_chart_series_map_is_bad_input(tmp_path: Path) -> None:
    context = ctx(tmp_path, svg(), graphics=chart(), spec={"charts": {"series": ["revenue"]}})
    with pytest.raises(InputError, match=r"charts\.series must map series names"):
        design.token_compliance(context)


def test_token_compliance_checks_radii_only_when_the_tokens_have_a_scale(tmp_path: Path) -> None:
    tokens = json.loads(HABITS_TOKENS.read_text("utf-8"))
    del tokens["radii"]
    result = design.token_compliance(
        ctx(tmp_path, el(1, background_color=SURFACE, border_radius="13px"), tokens=tokens)
    )
    assert result.score == 1 and result.numbers["checked"] == 2


@pytest.mark.parametrize(
    ("radius", "score"),
    [
        ("8px", 1),
        ("7px", 0.5),
        ("6px", 0.5),  # exactly NEAR_PX from a step
        ("18px", 0),
        ("6px 7px", 0.5),
        ("6px 18px", 0),  # every part must be near
        ("6px / 7px", 0.5),
        ("6px 50%", 0),  # a part that is no length is not a near miss
    ],
)
def test_token_compliance_radius_near_misses(tmp_path: Path, radius: str, score: float) -> None:
    result = design.token_compliance(
        ctx(tmp_path, el(1, background_color=SURFACE, border_radius=radius))
    )
    assert result.score == score, result.evidence
    assert result.numbers["off_token"] == (0 if score == 1 else 1)


@pytest.mark.parametrize(
    ("colours", "score"),
    [
        ((INK, INK), 1),
        (("rgb(30, 30, 40)", INK), 0.5),  # ΔE about 4 from text-primary
        (("rgb(30, 30, 40)", "rgb(200, 30, 200)"), 0),  # one near, one far: 0
        (("rgb(200, 30, 200)", "rgb(30, 30, 40)"), 0),
    ],
)
def test_token_compliance_every_offence_must_be_near_for_half(
    tmp_path: Path, colours: tuple[str, str], score: float
) -> None:
    result = design.token_compliance(
        ctx(tmp_path, text(1, color=colours[0]), text(2, color=colours[1]))
    )
    assert result.score == score, result.evidence
    assert result.numbers["off_token"] == sum(c != INK for c in colours)


def test_token_compliance_without_colour_tokens_nothing_is_near(tmp_path: Path) -> None:
    tokens = {"colors": {}, "spacing": {"md": 16}, "type": {"body": 16}}
    result = design.token_compliance(ctx(tmp_path, text(1), tokens=tokens))
    assert result.score == 0
    assert result.numbers["off_token"] == 2 and result.numbers["colour_roles"] == 0


def test_token_compliance_uses_the_gate_settings(tmp_path: Path) -> None:
    near = text(1, color="rgb(30, 30, 40)", testid="summary")
    assert design.token_compliance(ctx(tmp_path, near)).score == 0.5
    wide = design.token_compliance(ctx(tmp_path, near, delta_e=6.0))
    assert wide.score == 1 and wide.numbers["off_token"] == 0
    allowed = design.token_compliance(ctx(tmp_path, near, allow=["summary"]))
    assert allowed.score == 1 and allowed.numbers["checked"] == 1  # the body only


def test_token_compliance_misplaced_colours_score_0_with_both_counts(tmp_path: Path) -> None:
    misplaced = [text(i, color=DANGER, box=(10, 30 * i, 100, 20)) for i in range(1, 6)]
    result = design.token_compliance(ctx(tmp_path, *misplaced))
    assert result.score == 0
    assert result.numbers["off_role"] == 5 and result.numbers["off_token"] == 0
    assert "and 2 more" in result.evidence  # three listed, the rest counted
    also_off = design.token_compliance(
        ctx(tmp_path, text(1, color=DANGER), text(2, color="rgb(30, 30, 40)"))
    )
    assert also_off.score == 0
    assert also_off.numbers["off_role"] == 1 and also_off.numbers["off_token"] == 1


def test_token_compliance_lists_three_offences_and_counts_the_rest(tmp_path: Path) -> None:
    off = [text(i, color="rgb(30, 30, 40)", testid=f"t{i}") for i in range(1, 6)]
    result = design.token_compliance(ctx(tmp_path, *off))
    assert result.score == 0.5 and result.numbers["off_token"] == 5
    assert all(f'"t{i}"' in result.evidence for i in (1, 2, 3))
    assert '"t4"' not in result.evidence and "2 more" in result.evidence


# --- colour roles -----------------------------------------------------------------------


def _tokens(**extra: Any) -> dict[str, Any]:
    tokens = json.loads(HABITS_TOKENS.read_text("utf-8"))
    tokens.update(extra)
    return tokens


def test_a_role_colour_inside_an_allowed_ancestor_is_in_place(tmp_path: Path) -> None:
    tokens = _tokens(color_roles={"danger": {"only": ["[data-testid=errors]", "role=alert"]}})
    inside = ctx(tmp_path, el(1, testid="errors"), text(2, parent=1, color=DANGER), tokens=tokens)
    assert design.colour_role_findings(inside) == []
    in_alert = ctx(tmp_path, el(1, role="alert"), text(2, parent=1, color=DANGER), tokens=tokens)
    assert design.colour_role_findings(in_alert) == []
    outside = ctx(tmp_path, el(1, testid="list"), text(2, parent=1, color=DANGER), tokens=tokens)
    assert len(design.colour_role_findings(outside)) == 1


@pytest.mark.parametrize("side", ["top", "right", "bottom", "left"])
def test_a_role_colour_on_a_shown_border_is_misplaced(tmp_path: Path, side: str) -> None:
    drawn = el(1, **{f"border-{side}-width": "1px", f"border-{side}-color": DANGER})
    assert len(design.colour_role_findings(ctx(tmp_path, drawn))) == 1
    none = el(1, **{f"border-{side}-width": "0px", f"border-{side}-color": DANGER})
    assert design.colour_role_findings(ctx(tmp_path, none)) == []


def test_a_role_colour_is_only_seen_where_it_is_shown(tmp_path: Path) -> None:
    no_text = el(1, color=DANGER)  # no text: its colour paints nothing
    hidden = text(2, color=DANGER, box=(10, 10, 1, 1))
    invisible = text(3, color=DANGER, visible=False)
    assert design.colour_role_findings(ctx(tmp_path, no_text, hidden, invisible)) == []
    filled = el(1, background_color=DANGER)
    assert len(design.colour_role_findings(ctx(tmp_path, filled))) == 1


def test_an_unreadable_colour_is_passed_over_not_the_rest(tmp_path: Path) -> None:
    odd = el(1, background_color="url(x.png)")
    assert len(design.colour_role_findings(ctx(tmp_path, odd, text(2, color=DANGER)))) == 1


def test_a_transparent_colour_is_never_a_misplaced_token(tmp_path: Path) -> None:
    tokens = {
        "colors": {"ink": "#16181d", "page": "#f5f6f8", "veil-dark": "rgba(0, 0, 0, 0)"},
        "spacing": {"md": 16},
        "type": {"body": 16},
    }
    assert design.colour_role_findings(ctx(tmp_path, text(1), tokens=tokens)) == []
    # the same token opaque is a dark-only colour in a light view
    tokens["colors"]["veil-dark"] = "#2b3039"
    assert (
        len(design.colour_role_findings(ctx(tmp_path, text(1, color="#2b3039"), tokens=tokens)))
        == 1
    )


def test_a_colour_shared_with_an_unrestricted_token_is_in_place(tmp_path: Path) -> None:
    colors = _tokens()["colors"]
    colors["brand-red"] = "#b3261e"  # the danger red again, for any use
    tokens = _tokens(colors=colors)
    assert design.colour_role_findings(ctx(tmp_path, text(1, color=DANGER), tokens=tokens)) == []


def test_a_colour_of_two_restricted_tokens_is_in_place_if_either_allows_it(
    tmp_path: Path,
) -> None:
    colors = _tokens()["colors"]
    colors["alarm"] = "#b3261e"
    roles = {"danger": {"only": ["role=alert"]}, "alarm": {"only": ["[data-testid=warn]"]}}
    tokens = _tokens(colors=colors, color_roles=roles)
    warn = ctx(tmp_path, el(1, testid="warn"), text(2, parent=1, color=DANGER), tokens=tokens)
    assert design.colour_role_findings(warn) == []
    alert = ctx(tmp_path, el(1, role="alert"), text(2, parent=1, color=DANGER), tokens=tokens)
    assert design.colour_role_findings(alert) == []
    elsewhere = ctx(tmp_path, el(1), text(2, parent=1, color=DANGER), tokens=tokens)
    assert len(design.colour_role_findings(elsewhere)) == 1


def test_colour_roles_match_within_the_configured_delta_e(tmp_path: Path) -> None:
    close = text(1, color="rgb(183, 42, 34)")  # a few ΔE from the danger red
    assert design.colour_role_findings(ctx(tmp_path, close)) == []
    assert len(design.colour_role_findings(ctx(tmp_path, close, delta_e=5.0))) == 1
    # as a whole: a near miss of the palette (0.5) until it is read as the danger token (0)
    assert design.token_compliance(ctx(tmp_path, close)).score == 0.5
    assert design.token_compliance(ctx(tmp_path, close, delta_e=5.0)).score == 0


def _appearance_tokens(role: dict[str, Any] | None, night: Any = "#2b3039") -> dict[str, Any]:
    tokens: dict[str, Any] = {
        "colors": {"ink": "#16181d", "page": "#f5f6f8", "night": night},
        "spacing": {"md": 16},
        "type": {"body": 16},
    }
    if role is not None:
        tokens["color_roles"] = {"night": role}
    return tokens


@pytest.mark.parametrize(
    ("role", "night", "misplaced"),
    [
        ({"appearances": ["dark"]}, "#2b3039", 1),  # a dark token in a light view
        ({"appearances": ["light"]}, "#2b3039", 0),
        ({"appearances": ["light", "dark"]}, "#2b3039", 0),
        (None, "#2b3039", 0),  # no role, no appearance in the name: anywhere
        (None, {"light": "#2b3039", "dark": "#ffffff"}, 0),  # split by appearance: its value
    ],
)
def test_colour_role_appearances(
    tmp_path: Path, role: dict[str, Any] | None, night: Any, misplaced: int
) -> None:
    tokens = _appearance_tokens(role, night)
    if isinstance(night, dict):
        tokens["colors"] = {k: {"light": v, "dark": v} for k, v in tokens["colors"].items()}
        tokens["colors"]["night"] = night
    shown = ctx(tmp_path, el(1, background_color="#2b3039"), tokens=tokens)
    assert len(design.colour_role_findings(shown)) == misplaced


def test_a_token_named_dark_is_dark_only_when_the_file_has_a_dark_appearance(
    tmp_path: Path,
) -> None:
    colors: dict[str, Any] = {
        "ink": {"light": "#16181d"},
        "page": {"light": "#f5f6f8"},
        "panel-dark": "#2b3039",
    }
    tokens = {"colors": colors, "spacing": {"md": 16}, "type": {"body": 16}}
    panel = el(1, background_color="#2b3039")
    assert design.colour_role_findings(ctx(tmp_path, panel, tokens=tokens)) == []
    colors["ink"]["dark"] = "#f1f3f6"
    colors["page"]["dark"] = "#0e1014"
    assert len(design.colour_role_findings(ctx(tmp_path, panel, tokens=tokens))) == 1
    assert design.colour_role_findings(ctx(tmp_path, panel, tokens=tokens, appearance="dark")) == []


def test_a_role_with_only_appearances_allows_every_place(tmp_path: Path) -> None:
    tokens = _appearance_tokens({"appearances": ["light"]})
    nested = ctx(
        tmp_path, el(1, testid="x"), el(2, parent=1, background_color="#2b3039"), tokens=tokens
    )
    assert design.colour_role_findings(nested) == []


# --- layout_spacing ---------------------------------------------------------------------


def test_layout_spacing_reports_exact_numbers(tmp_path: Path) -> None:
    result = design.layout_spacing(
        ctx(
            tmp_path,
            text(1, box=(10, 10, 100, 20), margin_top="16px", padding_left="8px"),
            text(2, box=(10, 40, 100, 20), margin_top="14px"),
            text(3, box=(12, 70, 100, 20), row_gap="24px"),
        )
    )
    assert dict(result.numbers) == {
        "checked": 4,
        "off_scale": 1,
        "stacked_pairs": 2,
        "misaligned_pairs": 1,
    }
    assert result.score == 0.5


@pytest.mark.parametrize(
    ("lower_y", "stacked"), [(40.6, False), (41.4, False), (41.5, True), (42, True), (60, True)]
)
def test_layout_spacing_a_pair_is_stacked_from_half_a_pixel_of_overlap(
    tmp_path: Path, lower_y: float, stacked: bool
) -> None:
    upper = text(1, box=(10, 10, 100, 32))  # bottom edge at 42
    lower = text(2, box=(12, lower_y, 100, 20))
    result = design.layout_spacing(ctx(tmp_path, upper, lower))
    assert result.numbers["stacked_pairs"] == int(stacked)
    assert result.score == (0.5 if stacked else 1)


@pytest.mark.parametrize(
    ("dx", "misaligned"),
    [(0, False), (0.5, False), (0.6, True), (1, True), (2, True), (3, True), (3.5, False)],
)
def test_layout_spacing_almost_aligned_edges(tmp_path: Path, dx: float, misaligned: bool) -> None:
    upper = text(1, box=(10, 10, 100, 20))
    lower = text(2, box=(10 + dx, 40, 100, 20))
    result = design.layout_spacing(ctx(tmp_path, upper, lower))
    assert result.numbers["misaligned_pairs"] == int(misaligned)
    assert result.score == (0.5 if misaligned else 1)


def test_layout_spacing_pairs_only_shown_siblings(tmp_path: Path) -> None:
    result = design.layout_spacing(
        ctx(
            tmp_path,
            el(1, box=(0, 0, 320, 100)),
            text(2, parent=1, box=(10, 10, 100, 20)),
            text(3, parent=0, box=(12, 120, 100, 20)),  # another parent: no pair with 2
            text(4, parent=1, box=(12, 40, 100, 20), visible=False),
            text(5, parent=1, box=(12, 60, 1, 1)),
        )
    )
    assert result.numbers["stacked_pairs"] == 1  # 1 over 3, both the body's
    assert result.numbers["misaligned_pairs"] == 0 and result.score == 1


@pytest.mark.parametrize(
    ("margin", "aligned", "score"),
    [
        ("14px", True, 0.5),
        ("-14px", True, 0.5),  # a negative margin pulls by a step of the same scale
        ("14px", False, 0.5),
        ("20px", True, 0),
        ("20px", False, 0),
    ],
)
def test_layout_spacing_scores(tmp_path: Path, margin: str, aligned: bool, score: float) -> None:
    upper = text(1, box=(10, 10, 100, 20), margin_top=margin)
    lower = text(2, box=(10 if aligned else 12, 40, 100, 20))
    result = design.layout_spacing(ctx(tmp_path, upper, lower))
    assert result.score == score, result.evidence
    assert result.numbers["off_scale"] == 1


# --- typography -------------------------------------------------------------------------


def test_typography_reports_exact_numbers(tmp_path: Path) -> None:
    result = design.typography(
        ctx(
            tmp_path,
            el(
                1,
                0,
                "h1",
                text="Habits",
                role="heading",
                font_size="28px",
                font_weight="700",
                line_height="32px",
            ),
            text(2, font_weight="400", line_height="24px"),
            text(3, font_family="", box=(10, 40, 100, 20)),  # no family: not judged on one
            text(4, font_family="Comic Sans MS", visible=False),
        )
    )
    assert result.score == 1, result.evidence
    assert dict(result.numbers) == {
        "checked": 3,
        "off_scale": 0,
        "families_checked": 2,
        "off_family": 0,
        "type_roles": 6,
        "off_role": 0,
        "truncated": 0,
    }


@pytest.mark.parametrize(
    ("family", "off"),
    [
        ("Inter", 0),
        ('"Inter", sans-serif', 0),
        ("'Inter', sans-serif", 0),
        ("INTER", 0),
        (" Inter ,Arial", 0),
        ("DejaVu Sans, Inter", 1),  # only a stack's first family is the token's family
        ("Arial, Inter", 1),
        ("Comic Sans MS", 1),
        ("InterX", 1),  # only quotes and spaces are trimmed
    ],
)
def test_typography_families(tmp_path: Path, family: str, off: int) -> None:
    result = design.typography(ctx(tmp_path, text(1, font_family=family)))
    assert result.numbers["off_family"] == off and result.numbers["families_checked"] == 1
    assert result.score == 1 - off


def test_typography_without_token_families_checks_none(tmp_path: Path) -> None:
    tokens = _tokens()
    del tokens["fonts"]
    result = design.typography(ctx(tmp_path, text(1, font_family="Comic Sans MS"), tokens=tokens))
    assert result.score == 1
    assert result.numbers["families_checked"] == 0 and result.numbers["off_family"] == 0


@pytest.mark.parametrize(
    ("style", "score", "off_scale"),
    [
        ({"font-size": "17px"}, 0.5, 1),
        ({"font-size": "15px"}, 0.5, 1),  # exactly NEAR_TYPE_PX from two steps
        ({"font-size": "18px"}, 0, 1),
        ({"font-size": "17px", "font-family": "Arial"}, 0, 1),
        ({"font-size": "17px", "font-weight": "300"}, 0.5, 1),  # off the scale, not charged twice
    ],
)
def test_typography_scores(
    tmp_path: Path, style: dict[str, str], score: float, off_scale: int
) -> None:
    result = design.typography(
        ctx(tmp_path, text(1, **{k.replace("-", "_"): v for k, v in style.items()}))
    )
    assert result.score == score, result.evidence
    assert result.numbers["off_scale"] == off_scale and result.numbers["off_role"] == 0


def test_typography_an_off_scale_text_does_not_stop_the_role_check(tmp_path: Path) -> None:
    result = design.typography(
        ctx(
            tmp_path,
            text(1, font_size="17px"),
            text(2, font_weight="300"),
            text(3, font_weight="300"),
        )
    )
    assert result.numbers["off_scale"] == 1 and result.numbers["off_role"] == 2
    assert result.score == 0


def test_typography_text_without_a_size_is_not_held_to_a_role(tmp_path: Path) -> None:
    sizeless = text(1, font_weight="300")
    del sizeless["style"]["font-size"]
    result = design.typography(ctx(tmp_path, sizeless, text(2, font_weight="300")))
    assert result.numbers["off_role"] == 1


def test_typography_a_weight_that_is_no_number_matches_any(tmp_path: Path) -> None:
    result = design.typography(ctx(tmp_path, text(1, font_weight="bold", line_height="24px")))
    assert result.numbers["off_role"] == 0 and result.score == 1


def _role_tokens(**roles: dict[str, Any]) -> dict[str, Any]:
    return {
        "colors": {"ink": "#16181d", "page": "#f5f6f8"},
        "spacing": {"md": 16},
        "type": {"body": 16, "title": 28},
        "fonts": {"sans": "Inter"},
        "typography": roles,
    }


@pytest.mark.parametrize(
    ("spacing", "role_spacing", "off"),
    [
        ("normal", 0, 0),  # "normal" is 0
        ("0px", 0, 0),
        ("0.5px", 0, 1),
        ("normal", 0.5, 1),
        ("0.5px", 0.5, 0),
    ],
)
def test_typography_letter_spacing_is_part_of_a_role(
    tmp_path: Path, spacing: str, role_spacing: float, off: int
) -> None:
    tokens = _role_tokens(body={"size": 16, "weight": 400, "letter_spacing": role_spacing})
    result = design.typography(
        ctx(tmp_path, text(1, font_weight="400", letter_spacing=spacing), tokens=tokens)
    )
    assert result.numbers["off_role"] == off, result.evidence
    assert result.score == 1 - off


NUMERIC_ROLES = {
    "body": {"size": 16, "weight": 400},
    "figure": {"size": 16, "weight": 600, "role": "numeric"},
    "title": {"size": 28, "weight": 700, "role": "heading"},
}


@pytest.mark.parametrize(
    ("words", "role", "weight", "size", "off"),
    [
        ("42", "paragraph", "400", "16px", 1),  # a number set as body text
        ("1,234.50 €", "paragraph", "400", "16px", 1),
        ("42", "paragraph", "600", "16px", 0),
        ("Read", "paragraph", "400", "16px", 0),
        ("Read", "paragraph", "600", "16px", 0),  # body text in a numeric role is not charged
        ("Read", "paragraph", "700", "28px", 0),  # nor body text in a heading role
        ("Habits", "heading", "400", "16px", 1),  # a heading set as body text
        ("Habits", "heading", "700", "28px", 0),
    ],
)
def test_typography_text_kinds(
    tmp_path: Path, words: str, role: str, weight: str, size: str, off: int
) -> None:
    node = el(1, text=words, role=role, font_weight=weight, font_size=size)
    result = design.typography(ctx(tmp_path, node, tokens=_role_tokens(**NUMERIC_ROLES)))
    assert result.numbers["off_role"] == off, result.evidence
    assert result.score == 1 - off


def test_typography_lists_three_role_offences_and_names_the_element(tmp_path: Path) -> None:
    off = [text(i, testid=f"t{i}", font_weight="300") for i in range(1, 6)]
    result = design.typography(ctx(tmp_path, *off))
    assert result.numbers["off_role"] == 5 and result.score == 0
    assert all(f'"t{i}"' in result.evidence for i in (1, 2, 3))
    assert '"t4"' not in result.evidence


def test_typography_truncation(tmp_path: Path) -> None:
    probe = [
        el(1, testid="list", box=(0, 0, 320, 200)),
        text(2, parent=1),
        text(3, parent=1, truncated="ellipsis"),
        text(4, truncated="clip"),
        text(5, truncated="line-clamp", visible=False),
    ]
    cut = design.typography(ctx(tmp_path, *probe))
    assert cut.numbers["truncated"] == 2 and cut.score == 0
    allowed = design.typography(
        ctx(tmp_path, *probe, contract={"allow_truncation": ["[data-testid=list]"]})
    )
    assert allowed.numbers["truncated"] == 1 and allowed.score == 0
    both = design.typography(ctx(tmp_path, *probe, contract={"allow_truncation": ["list", "p"]}))
    assert both.numbers["truncated"] == 0 and both.score == 1


def test_measured_abstain_keeps_its_numbers() -> None:
    measured = Measured.abstain("no reference", pixels=3)
    assert measured.score is None and dict(measured.numbers) == {"pixels": 3}


def test_token_compliance_judges_every_offence_past_the_gate_report_cap(tmp_path: Path) -> None:
    # The gate lists at most 100 findings; the judge must still weigh and count all of them.
    near = [text(i, color="rgb(30, 30, 40)") for i in range(1, 102)]
    result = design.token_compliance(ctx(tmp_path, *near, text(102, color="rgb(200, 30, 200)")))
    assert result.numbers["off_token"] == 102
    assert result.score == 0, result.evidence


def _sentence(evidence: object) -> None:
    assert isinstance(evidence, str) and len(evidence) > 20, evidence
    assert not evidence[0].islower() and evidence.endswith(".") and ".." not in evidence, evidence


@pytest.mark.parametrize(
    "elements",
    [
        [text(1, box=(10, 10, 100, 20)), text(2, box=(10, 40, 100, 20))],  # all good
        [text(1, box=(10, 10, 100, 20), margin_top="14px"), text(2, box=(12, 40, 100, 20))],
        [text(1, color=DANGER, font_size="17px", font_family="Arial", truncated="clip")],
        [text(1, color="rgb(30, 30, 40)", font_weight="300")],
    ],
)
def test_design_evidence_is_one_sentence(tmp_path: Path, elements: list[dict[str, Any]]) -> None:
    for measure in (design.token_compliance, design.layout_spacing, design.typography):
        _sentence(measure(ctx(tmp_path, *elements)).evidence)


LONG = "x" * 100


@pytest.mark.parametrize(
    ("style", "measure"),
    [
        ({"color": DANGER}, design.token_compliance),  # a misplaced colour
        ({"color": "rgb(30, 30, 40)"}, design.token_compliance),  # an off-token colour
        ({"margin_top": "14px"}, design.layout_spacing),
        ({"font_weight": "300"}, design.typography),  # no type role
        ({"truncated": "clip"}, design.typography),
        ({"font_family": "Arial"}, design.typography),
        ({"box": (12, 40, 100, 20)}, design.layout_spacing),  # almost under the next one
    ],
)
def test_design_evidence_clips_long_selectors(
    tmp_path: Path, style: dict[str, Any], measure: Any
) -> None:
    above = text(2, testid="y" * 100, box=(10, 10, 100, 20))
    result = measure(ctx(tmp_path, text(1, testid=LONG, **style), above))
    assert result.score != 1
    assert "x" * design.SELECTOR_CHARS not in result.evidence and "xxxx" in result.evidence
    assert "y" * design.SELECTOR_CHARS not in result.evidence


def test_typography_evidence_gives_the_style_that_matched_no_role(tmp_path: Path) -> None:
    odd = text(1, font_weight="300", line_height="20px", letter_spacing="0.5px")
    result = design.typography(ctx(tmp_path, odd))
    assert result.numbers["off_role"] == 1
    assert "16px weight 300 line height 20px letter spacing 0.5px" in result.evidence


@pytest.mark.parametrize(("shown", "more"), [(1, 0), (3, 0), (4, 1), (6, 3)])
def test_evidence_lists_three_and_counts_the_rest(tmp_path: Path, shown: int, more: int) -> None:
    cases = [
        (design.token_compliance, {"color": DANGER}),  # misplaced colours
        (design.token_compliance, {"color": "rgb(30, 30, 40)"}),  # off-token colours
        (design.typography, {"font_weight": "300"}),  # off the type roles
        (design.typography, {"truncated": "clip"}),
    ]
    for measure, style in cases:
        elements = [text(i, testid=f"t{i}", **style) for i in range(1, shown + 1)]
        evidence = measure(ctx(tmp_path, *elements)).evidence
        assert [f'"t{i}"' in evidence for i in range(1, shown + 1)] == [
            i <= design.MAX_LISTED for i in range(1, shown + 1)
        ], evidence
        assert (f"and {more} more" in evidence) is bool(more), evidence
        assert "more" in evidence or not more


def test_misplaced_colour_evidence_adds_the_off_token_values_only_when_there_are_some(
    tmp_path: Path,
) -> None:
    alone = design.token_compliance(ctx(tmp_path, text(1, color=DANGER, testid="red")))
    assert '"red"' in alone.evidence and " 0 " not in alone.evidence, alone.evidence
    assert "more" not in alone.evidence
    mixed = design.token_compliance(
        ctx(
            tmp_path,
            text(1, color=DANGER, testid="red"),
            text(2, color="rgb(30, 30, 40)", testid="off"),
        )
    )
    assert '"red"' in mixed.evidence and '"off"' in mixed.evidence, mixed.evidence


def test_a_style_off_every_role_names_up_to_two_roles_of_its_size(tmp_path: Path) -> None:
    # The example has three roles at 16px: body, label and action.
    result = design.typography(ctx(tmp_path, text(1, font_weight="300")))
    assert "body (" in result.evidence and "label (" in result.evidence, result.evidence
    assert "action (" not in result.evidence
    tokens = _role_tokens(
        body={"size": 16, "weight": 400}, lead={"size": 17, "weight": 400}, big={"size": 28}
    )
    tokens["type"]["lead"] = 17
    near = design.typography(ctx(tmp_path, text(1, font_weight="300"), tokens=tokens))
    assert "body (" in near.evidence and "lead (" not in near.evidence, near.evidence
    tokens["typography"] = {"body": {"size": 16, "weight": 400}}
    alone = design.typography(
        ctx(tmp_path, text(1, font_size="28px", font_weight="300"), tokens=tokens)
    )
    assert alone.numbers["off_role"] == 1
    assert alone.evidence.endswith("which is no type role."), alone.evidence


def test_typography_text_without_a_family_is_not_judged_on_one(tmp_path: Path) -> None:
    unnamed = text(1)
    del unnamed["style"]["font-family"]
    result = design.typography(ctx(tmp_path, unnamed, text(2, font_family="Arial")))
    assert result.numbers["families_checked"] == 1 and result.numbers["off_family"] == 1


def test_an_unsupported_allow_truncation_selector_is_refused(tmp_path: Path) -> None:
    cut = text(1, truncated="clip")
    with pytest.raises(InputError):
        design.typography(ctx(tmp_path, cut, contract={"allow_truncation": ["p > span"]}))


def test_typography_says_what_the_tokens_left_unchecked(tmp_path: Path) -> None:
    full = design.typography(ctx(tmp_path, text(1, font_weight="400", line_height="24px")))
    assert full.score == 1 and "not checked" not in full.evidence
    assert "6 type roles" in full.evidence and "famil" in full.evidence, full.evidence
    bare = {"colors": {"ink": "#16181d", "page": "#f5f6f8"}, "type": {"body": 16}}
    sizes_only = design.typography(ctx(tmp_path, text(1), tokens=bare))
    assert sizes_only.score == 1
    assert sizes_only.evidence.count("not checked") == 2, sizes_only.evidence
    assert "None" not in sizes_only.evidence
    off = design.typography(ctx(tmp_path, text(1, font_size="17px"), tokens=bare))
    assert off.score == 0.5 and off.evidence.count("not checked") == 1, off.evidence


def test_colour_roles_look_past_what_they_cannot_judge(tmp_path: Path) -> None:
    hidden = text(1, color=DANGER, box=(10, 10, 1, 1))
    filled = el(2, background_color=DANGER)
    assert len(design.colour_role_findings(ctx(tmp_path, hidden, filled))) == 1
    # on one element: an unreadable or unrestricted text colour, then a misplaced fill
    for ink in ("url(x.png)", INK):
        both = text(1, color=ink, background_color=DANGER)
        assert len(design.colour_role_findings(ctx(tmp_path, both))) == 1, ink
    unstyled = text(1)
    del unstyled["style"]["background-color"]
    assert design.colour_role_findings(ctx(tmp_path, unstyled, filled)) != []


def test_colour_roles_with_a_zero_delta_e_still_match_the_exact_token(tmp_path: Path) -> None:
    assert len(design.colour_role_findings(ctx(tmp_path, text(1, color=DANGER), delta_e=0.0))) == 1


def test_an_unsupported_colour_role_selector_is_refused(tmp_path: Path) -> None:
    tokens = _tokens(color_roles={"danger": {"only": ["p > span"]}})
    with pytest.raises(InputError):
        design.colour_role_findings(ctx(tmp_path, text(1, color=DANGER), tokens=tokens))
