"""The snapshot gate's outcome from the diff package's: status, findings, the element under a
changed region (image pixels over the device pixel ratio), and its data."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from argus.diff import SnapshotOutcome
from argus.diff.regions import Region
from argus.errors import InputError
from argus.evidence.probe import Probe, parse_probe
from argus.gates._snapshot import _wanted_write, snapshot_outcome
from argus.gates.base import GateOutcome, GateStatus
from argus.gates.comparison import device_pixel_ratio
from tests.gates.probes import el, page

BASELINE = Path("__snapshots__") / "list-populated-light.png"


def probe(*elements: dict[str, object]) -> Probe:
    return parse_probe(page(*elements))


def diff(*regions: Region, status: str = "diff") -> SnapshotOutcome:
    return SnapshotOutcome(status, "none", BASELINE, "16 pixels differ", regions=regions)  # type: ignore[arg-type]


def box(x: float, y: float, width: float, height: float) -> dict[str, float]:
    return {"x": x, "y": y, "width": width, "height": height}


def test_a_diff_without_regions_still_has_a_finding_naming_the_baseline() -> None:
    outcome = snapshot_outcome(diff(), probe(), 1.0, ())
    assert outcome.status is GateStatus.DIFF
    (finding,) = outcome.findings
    assert (finding.element, finding.property) == ("render", "pixels")
    assert finding.value == "16 pixels differ"
    assert finding.expected and finding.message == str(BASELINE)


@pytest.mark.parametrize("status", ["pass", "skip"])
def test_a_green_outcome_has_no_findings(status: str) -> None:
    region = Region(0, 0, 10, 10, 5)
    outcome = snapshot_outcome(diff(region, status=status), probe(), 1.0, ("#gone",))
    assert outcome.findings == ()
    assert outcome.status is {"pass": GateStatus.PASS, "skip": GateStatus.SKIP}[status]


def test_the_data_keeps_the_scale_and_unresolved_masks_and_the_summary_its_reason() -> None:
    outcome = snapshot_outcome(diff(), probe(), 2.0, ("#gone", "#lost"))
    assert outcome.data["scale"] == 2.0
    assert outcome.data["masks_unresolved"] == ["#gone", "#lost"]
    assert outcome.summary.startswith("16 pixels differ")
    assert "#gone" in outcome.summary and "#lost" in outcome.summary


def test_a_region_is_placed_in_css_pixels_at_its_centre() -> None:
    # Image region 200..240 at a ratio of 2: CSS 100..120, centre (110, 110).
    doc = probe(
        el("div", id="centre", box=box(108, 108, 4, 4)),
        el("div", id="image-space", box=box(215, 215, 10, 10)),  # where (220, 220) would be
        el("div", id="third", box=box(104, 104, 4, 4)),  # where a third of the size would put it
    )
    outcome = snapshot_outcome(diff(Region(200, 200, 40, 40, 100)), doc, 2.0, ())
    (finding,) = outcome.findings
    assert finding.element == "#centre"
    assert (finding.property, finding.value) == ("pixels", "100 differing")
    assert finding.expected and finding.message


@pytest.mark.parametrize(
    ("element_box", "hit"),
    [
        (box(110, 0, 10, 200), True),  # the point on its left edge
        (box(100, 0, 10, 200), True),  # on its right edge
        (box(0, 110, 200, 10), True),  # on its top edge
        (box(0, 100, 200, 10), True),  # on its bottom edge
        (box(111, 0, 10, 200), False),  # just right of the point
        (box(0, 0, 200, 109), False),  # its x range holds the point, its y range does not
        (box(0, 0, 109, 200), False),  # its y range holds the point, its x range does not
    ],
)
def test_the_element_under_a_region_holds_its_centre_edges_included(
    element_box: dict[str, float], hit: bool
) -> None:
    doc = probe(el("div", id="target", box=element_box))
    (finding,) = snapshot_outcome(diff(Region(100, 100, 20, 20, 10)), doc, 1.0, ()).findings
    # the body (element 0) covers the whole page, so a miss names the body's selector
    assert (finding.element == "#target") is hit


def test_a_hidden_element_over_a_region_is_not_named() -> None:
    doc = probe(
        el("div", id="shown", box=box(0, 0, 300, 300)),
        el("div", id="hidden", visible=False, box=box(100, 100, 20, 20)),
    )
    (finding,) = snapshot_outcome(diff(Region(100, 100, 20, 20, 10)), doc, 1.0, ()).findings
    assert finding.element == "#shown"


MISSING = {"action": "none", "baseline": str(BASELINE)}
# (status, data, mode) -> what the mode would do to the baseline after the comparison
WANTED = [
    (GateStatus.SKIP, MISSING, "missing", "written"),
    (GateStatus.SKIP, MISSING, "changed", "written"),
    (GateStatus.SKIP, MISSING, "all", "written"),
    (GateStatus.SKIP, MISSING, "none", None),
    (GateStatus.SKIP, MISSING, "compare", None),
    (GateStatus.SKIP, {"action": "none"}, "missing", None),  # a skip with no baseline to write
    (GateStatus.SKIP, {"action": "written", "baseline": "b"}, "missing", None),
    (GateStatus.SKIP, {}, "all", None),
    (GateStatus.DIFF, MISSING, "changed", "updated"),
    (GateStatus.DIFF, MISSING, "all", "updated"),
    (GateStatus.DIFF, MISSING, "missing", None),
    (GateStatus.DIFF, MISSING, "none", None),
    (GateStatus.PASS, MISSING, "all", "updated"),
    (GateStatus.PASS, MISSING, "changed", None),
    (GateStatus.PASS, MISSING, "missing", None),
    (GateStatus.FAIL, MISSING, "all", None),
    (GateStatus.FAIL, MISSING, "changed", None),
]


@pytest.mark.parametrize(("status", "data", "mode", "wanted"), WANTED)
def test_what_each_update_mode_would_do_to_the_baseline(
    status: GateStatus, data: dict[str, str], mode: str, wanted: str | None
) -> None:
    outcome = GateOutcome("snapshot", status, "s", (), data)
    assert _wanted_write(mode, outcome) == wanted  # type: ignore[arg-type]


def test_the_device_pixel_ratio_is_the_renders_width_over_the_viewports(tmp_path: Path) -> None:
    render = tmp_path / "render.png"
    Image.new("RGB", (40, 30)).save(render)
    assert device_pixel_ratio(render, 20.0) == 2.0
    assert device_pixel_ratio(render, 80.0) == 0.5
    assert device_pixel_ratio(render, 1.0) == 40.0
    assert device_pixel_ratio(render, 0.5) == 80.0
    assert device_pixel_ratio(render, 0.0) == 1.0  # no viewport recorded: image pixels
    with pytest.raises(InputError):
        device_pixel_ratio(tmp_path / "missing.png", 20.0)
