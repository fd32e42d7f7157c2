"""pixelmatch 7.2.0's own test table: same count and a pixel-identical diff image."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from argus.diff import load_png, pixelmatch

from .conftest import FIXTURES

OPTION_NAMES = {
    "threshold": "threshold",
    "includeAA": "include_aa",
    "alpha": "alpha",
    "aaColor": "aa_color",
    "diffColor": "diff_color",
    "diffColorAlt": "diff_color_alt",
    "diffMask": "diff_mask",
    "checkerboard": "checkerboard",
}

TABLE = json.loads((FIXTURES / "cases.json").read_text())
IMAGE_CASES = [c for c in TABLE["cases"] if not c.get("pixels")]
PIXEL_CASES = [
    (group, case) for group in TABLE["cases"] if group.get("pixels") for case in group["cases"]
]


def options(raw: dict[str, Any]) -> dict[str, Any]:
    return {OPTION_NAMES[key]: value for key, value in raw.items()}


@pytest.mark.parametrize(
    "case", IMAGE_CASES, ids=[f"{c['a']}-{c['b']}-{json.dumps(c['options'])}" for c in IMAGE_CASES]
)
def test_image_case(case: dict[str, Any]) -> None:
    a = load_png(FIXTURES / case["a"])
    b = load_png(FIXTURES / case["b"])
    expected = load_png(FIXTURES / case["diff"])
    # pixelmatch's tests draw into a zeroed buffer; diffMask leaves the rest untouched.
    output = np.zeros_like(a)

    mismatch = pixelmatch(a, b, output, **options(case["options"]))

    assert mismatch == case["expected_mismatch"]
    differing = np.argwhere((output != expected).any(axis=2))
    assert differing.size == 0, f"{len(differing)} diff pixels differ, first at {differing[:3]}"
    # Without an output image the count is the same.
    assert pixelmatch(a, b, **options(case["options"])) == case["expected_mismatch"]


@pytest.mark.parametrize(
    ("group", "case"), PIXEL_CASES, ids=[json.dumps(c["options"]) for _, c in PIXEL_CASES]
)
def test_pixel_case(group: dict[str, Any], case: dict[str, Any]) -> None:
    a = np.array(group["a_rgba"], dtype=np.uint8).reshape(1, 1, 4)
    b = np.array(group["b_rgba"], dtype=np.uint8).reshape(1, 1, 4)
    assert pixelmatch(a, b, **options(case["options"])) == case["expected_mismatch"]


def test_table_is_complete() -> None:
    # Every image case has a diff image to check, and the 1x1 cases are all collected.
    assert len(IMAGE_CASES) == 12
    assert all(case.get("diff") for case in IMAGE_CASES)
    assert len(PIXEL_CASES) == 2
