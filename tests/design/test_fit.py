"""The fits behind design extract: base unit, type ratio, shadow ramp; and the untrusted input."""

from __future__ import annotations

import json

import pytest

from argus.design._fit import fit_base_unit, fit_ratio, order_shadows
from argus.design._schema import DesignSystem, read_design_system
from argus.design.extract import build_schema


@pytest.mark.parametrize(
    ("values", "unit"),
    [
        ([8, 16, 24, 32, 8, 16], 8.0),
        ([6, 12, 18, 24], 6.0),
        ([4, 8, 12, 16, 20], 4.0),
        ([8, 16, 24, 32, 8, 16, 24, 8, 16, 7.75], 8.0),  # within 0.5 px
        ([7, 13, 22, 9], None),
        ([], None),
    ],
)
def test_base_unit(values: list[float], unit: float | None) -> None:
    assert fit_base_unit(values).base_unit == unit


def test_base_unit_needs_ninety_percent() -> None:
    assert fit_base_unit([8] * 9 + [13]).base_unit == 8.0  # 90% exactly
    assert fit_base_unit([8] * 8 + [13, 13]).base_unit is None


@pytest.mark.parametrize(
    ("sizes", "ratio"),
    [
        ([16, 20, 25, 31.25, 39.0625], 1.25),
        ([12.8, 16, 20, 25], 1.25),
        ([16, 21.33, 28.43, 37.9], 1.333),
        ([16, 24, 36], 1.5),
        ([16, 17, 29, 33], None),  # no ratio without skipping most steps
        ([16, 20], None),  # too few sizes to fit anything
    ],
)
def test_type_ratio(sizes: list[float], ratio: float | None) -> None:
    assert fit_ratio(sizes, 16).ratio == ratio


def test_rounded_sizes_still_fit_within_two_percent() -> None:
    fit = fit_ratio([16, 20, 25, 31, 39], 16)
    assert fit.ratio is not None and abs(fit.ratio - 1.25) <= 0.005
    assert fit.worst_error is not None and fit.worst_error <= 0.02


def test_shadow_ramp_is_ordered_by_blur() -> None:
    big, small = "rgba(0, 0, 0, 0.2) 0px 8px 16px 0px", "rgba(0, 0, 0, 0.2) 0px 1px 2px 0px"
    assert order_shadows([big, small, big]) == [small, big]


def test_hostile_measurements_are_validated_and_the_result_reads_back() -> None:
    raw = {
        "spacing": [8, 16, float("nan"), "24", True, 1e12, 24],
        "font_sizes": [16, 20, 25, 31.25],
        "body_font_size": "16",
        "shadows": ['0 1px 2px red"; <script>alert(1)</script>', 42],
        "breakpoints": [640, -1, float("inf")],
        "components": {"button": [{"padding": [8, 16, "x", 16], "radius": 4}], "bogus": [1]},
        "columns": 500,
    }
    schema = build_schema(raw, "http://x/", "2026-01-01T00:00:00+00:00")
    assert schema["spacing"] == {
        "base_unit": 8.0,
        "scale": [8.0, 16.0, 24.0],
        "capture_method": "computed",
    }
    assert schema["type_scale"]["ratio"] == 1.25 and schema["grid"]["breakpoints"] == [640.0]
    assert schema["grid"]["columns"] == 48
    assert schema["elevation"]["shadows"] == ["0 1px 2px red scriptalert(1)script"]
    assert list(schema["components"]) == ["button"]
    assert schema["components"]["button"]["padding"] == [8.0, 16.0, None, 16.0]
    assert "<" not in json.dumps(schema)
    system = read_design_system(schema)
    assert isinstance(system, DesignSystem) and system.shape == "seed"
    assert (system.spacing_base, system.type_ratio, system.elevation_levels) == (8.0, 1.25, 1)


def test_nothing_measured_is_null_not_invented() -> None:
    schema = build_schema("not a dict", "http://x/", "t")
    assert schema["spacing"]["base_unit"] is None and schema["type_scale"]["ratio"] is None
    assert len(schema["confidence_notes"]) == 2


def test_buttons_in_the_browser_default_look_are_not_the_recipe() -> None:
    bare = {"padding": [1, 6, 1, 6], "radius": 0, "font_size": 13.33, "browser_default": True}
    styled = {"padding": [8, 16, 8, 16], "radius": 4, "font_size": 16, "browser_default": False}
    raw = {"components": {"button": [bare, bare, bare, styled]}}
    schema = build_schema(raw, "http://x/", "t")
    button = schema["components"]["button"]
    assert button["padding"] == [8.0, 16.0, 8.0, 16.0] and button["elements"] == 1
    assert any("3 button(s) in the browser's default look" in n for n in schema["confidence_notes"])
    only_bare = build_schema({"components": {"button": [bare]}}, "http://x/", "t")
    assert "button" not in only_bare["components"]
    # A forged flag that is not exactly true leaves the element in.
    forged = build_schema({"components": {"button": [{**bare, "browser_default": "yes"}]}}, "u")
    assert forged["components"]["button"]["padding"] == [1.0, 6.0, 1.0, 6.0]
