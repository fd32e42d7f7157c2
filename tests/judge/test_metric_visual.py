"""visual_fidelity and closer_to_reference_than_prev on drawn images: the candidate regression
check (size, tolerance, masks, region versus block changes), the human composition thresholds
at their boundaries, and the distance to the reference (no browser)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageDraw

from argus.config import ProjectConfig
from argus.diff.comparison import compare
from argus.judge._composition import DesignScores, design_scores
from argus.judge.metric import MetricJudge
from argus.judge.metric._visual import PARTIAL, PASS, distance_to, pixel_numbers
from argus.judge.packet import Packet
from argus.judge.picture import Picture
from argus.spec import View, load_spec
from tests.judge.conftest import PacketFactory, derived_gate_result, small_probe
from tests.judge.test_metric import measure
from tests.support.habits import HABITS_SPEC, copy_habits


@pytest.fixture(scope="module")
def habits_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the example per module (make_packet only reads it): quicker tests, so
    quicker mutation runs."""
    return copy_habits(tmp_path_factory.mktemp("habits"))


Rect = tuple[tuple[int, int, int, int], tuple[int, int, int, int]]
TITLE: Rect = ((10, 10, 200, 40), (20, 20, 20, 255))
BUTTON: Rect = ((200, 120, 280, 150), (52, 71, 196, 255))
EXTRA: Rect = ((20, 150, 100, 180), (200, 40, 40, 255))
CARD: Rect = ((20, 60, 300, 190), (255, 255, 255, 255))
LINE_1: Rect = ((40, 80, 120, 100), (30, 30, 30, 255))
LINE_2: Rect = ((40, 120, 200, 140), (30, 30, 30, 255))


def drawn(*rects: Rect, size: tuple[int, int] = (320, 200), shade: int = 245) -> Image.Image:
    image = Image.new("RGBA", size, (shade, shade, shade, 255))
    draw = ImageDraw.Draw(image)
    for box, fill in rects:
        draw.rectangle(box, fill=fill)
    return image


class Images:
    """PNG files in a test's directory, each drawn once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.count = 0

    def __call__(self, image: Image.Image) -> Path:
        self.count += 1
        path = self.root / f"drawn-{self.count}.png"
        image.save(path)
        return path


@pytest.fixture
def images(tmp_path: Path) -> Images:
    (tmp_path / "drawn").mkdir()
    return Images(tmp_path / "drawn")


@pytest.fixture
def packet_for(make_packet: PacketFactory, habits_root: Path, tmp_path: Path) -> PacketFactory:
    """make_packet with a drawn render (``extra["render"]``) and a gate result made over it."""
    spec = load_spec(habits_root / HABITS_SPEC)
    counter = iter(range(1000))

    def make(*, extra: dict[str, Path], **kw: Any) -> Packet:
        sensed = tmp_path / f"sensed-{next(counter)}"
        sensed.mkdir()
        shutil.copyfile(extra["render"], sensed / "render.png")
        probe = kw.pop("probe", None) or small_probe()
        (sensed / "probe.json").write_text(json.dumps(probe), "utf-8")
        view = View("habits", "list", "populated", "light")
        gates = derived_gate_result(spec, view, sensed)
        return make_packet(extra=extra, gate_result=gates, probe=probe, **kw)

    return make


def visual(
    packet_for: PacketFactory,
    render: Path,
    reference: Path,
    source: str,
    **contract: Any,
) -> Any:
    packet = packet_for(
        reference=source,
        extra={"render": render, "reference": reference},
        contract=contract or None,
    )
    return measure(packet, "visual_fidelity")


PAGE = (TITLE, BUTTON)


# --- against a candidate (same-sensor regression) ---


def test_candidate_identical_scores_1_with_every_number(
    packet_for: PacketFactory, images: Images
) -> None:
    result = visual(packet_for, images(drawn(*PAGE)), images(drawn(*PAGE)), "candidate")
    assert result.score == 1
    numbers = result.numbers
    assert numbers["comparison"] == "same-sensor regression"
    assert numbers["differing_pixels"] == 0 and numbers["counted_pixels"] == 0
    assert numbers["masks"] == 0 and numbers["masks_unresolved"] == []
    assert numbers["regions"] == []
    assert numbers["tolerance"]["threshold"] < 0.1  # measured from the palette


def test_candidate_within_the_tolerance_is_1_but_not_byte_identical(
    packet_for: PacketFactory, images: Images
) -> None:
    render = drawn(*PAGE)
    render.putpixel((300, 190), (246, 245, 245, 255))  # one pixel, one step off
    result = visual(packet_for, images(render), images(drawn(*PAGE)), "candidate")
    assert result.score == 1, result.evidence
    assert result.numbers["differing_pixels"] == 1
    assert result.numbers["counted_pixels"] == 0 and result.numbers["regions"] == []


def test_candidate_a_changed_block_is_half(packet_for: PacketFactory, images: Images) -> None:
    # A line of text gone inside a card that is still there: a change, not a new region.
    reference = images(drawn(TITLE, CARD, LINE_1, LINE_2))
    result = visual(packet_for, images(drawn(TITLE, CARD, LINE_1)), reference, "candidate")
    assert result.score == 0.5, result.evidence
    assert result.numbers["region_changes"] == 0
    assert len(result.numbers["regions"]) >= 1
    assert result.numbers["counted_pixels"] > 0


def test_candidate_a_region_that_appeared_is_0(packet_for: PacketFactory, images: Images) -> None:
    render = images(drawn(*PAGE, EXTRA))
    result = visual(packet_for, render, images(drawn(*PAGE)), "candidate")
    assert result.score == 0, result.evidence
    assert result.numbers["region_changes"] == 1


def test_candidate_an_unresolved_mask_is_reported(
    packet_for: PacketFactory, images: Images
) -> None:
    result = visual(
        packet_for,
        images(drawn(*PAGE)),
        images(drawn(*PAGE)),
        "candidate",
        masks=["[data-testid=nowhere]"],
    )
    assert result.score == 1
    assert result.numbers["masks"] == 0
    assert result.numbers["masks_unresolved"] == ["[data-testid=nowhere]"]


def test_candidate_of_another_size_is_not_the_same_page(
    packet_for: PacketFactory, images: Images
) -> None:
    # Only taller: the same regions and blocks, so half.
    taller = images(drawn(*PAGE, size=(320, 220)))
    result = visual(packet_for, images(drawn(*PAGE)), taller, "candidate")
    assert result.score == 0.5, result.evidence
    assert "320x200" in result.evidence and "320x220" in result.evidence
    assert result.numbers == {
        "size": [[320, 200], [320, 220]],
        "region_changes": 0,
        "block_changes": 0,
    }


def test_candidate_of_another_size_counts_block_and_region_changes(
    packet_for: PacketFactory, images: Images
) -> None:
    reference = images(drawn(TITLE, CARD, LINE_1, LINE_2, size=(320, 210)))
    blocks = visual(packet_for, images(drawn(TITLE, CARD, LINE_1)), reference, "candidate")
    assert blocks.score == 0.5
    assert blocks.numbers["region_changes"] == 0 and blocks.numbers["block_changes"] == 2
    regions = visual(
        packet_for, images(drawn(*PAGE, EXTRA)), images(drawn(*PAGE, size=(300, 200))), "candidate"
    )
    assert regions.score == 0
    assert regions.numbers["region_changes"] == 1 and regions.numbers["block_changes"] == 0
    assert regions.numbers["size"] == [[320, 200], [300, 200]]


# --- against a human reference (composition) ---


def test_human_identical_scores_1_with_its_numbers(
    packet_for: PacketFactory, images: Images
) -> None:
    result = visual(packet_for, images(drawn(*PAGE)), images(drawn(*PAGE)), "human")
    assert result.score == 1
    numbers = result.numbers
    assert numbers["block_match"] == 1 and numbers["position"] == 1 and numbers["colour"] == 1
    assert numbers["pairs"] == 2 and numbers["blocks"] == [2, 2]
    assert numbers["region_changes"] == 0
    assert numbers["ssim"] == 1 and numbers["diff_ratio"] == 0
    assert numbers["densest_window"] == 0 and numbers["window_px"] > 0


def test_human_a_mockup_at_another_scale_is_fitted(
    packet_for: PacketFactory, images: Images
) -> None:
    doubled = drawn(*PAGE).resize((640, 400), Image.Resampling.NEAREST)
    result = visual(packet_for, images(drawn(*PAGE)), images(doubled), "human")
    assert result.score == 1, result.evidence
    assert result.numbers["ssim"] is not None and result.numbers["ssim"] > 0.9


@pytest.mark.parametrize(("rects", "score"), [((*PAGE, EXTRA), 0.5), (PAGE[:1], 0.5)])
def test_human_one_region_change_is_at_best_half(
    packet_for: PacketFactory,
    images: Images,
    monkeypatch: pytest.MonkeyPatch,
    rects: tuple[Rect, ...],
    score: float,
) -> None:
    _scores(monkeypatch, PASS)  # the composition scores at the pass mark
    result = visual(packet_for, images(drawn(*rects)), images(drawn(*PAGE)), "human")
    assert result.numbers["region_changes"] == 1
    assert result.score == score, result.evidence


def test_human_two_region_changes_are_0(
    packet_for: PacketFactory, images: Images, monkeypatch: pytest.MonkeyPatch
) -> None:
    _scores(monkeypatch, PASS)
    moved = drawn(TITLE, ((20, 150, 100, 180), BUTTON[1]))  # gone from one place, new at another
    result = visual(packet_for, images(moved), images(drawn(*PAGE)), "human")
    assert result.numbers["region_changes"] == 2
    assert result.score == 0


def _scores(monkeypatch: pytest.MonkeyPatch, values: dict[str, float]) -> None:
    scores = DesignScores(
        block_match=values["block_match"],
        position=values["position"],
        colour=values["colour"],
        pairs=2,
        render_blocks=2,
        reference_blocks=2,
    )
    monkeypatch.setattr("argus.judge.metric._visual.design_scores", lambda *_: scores)


def _below(values: dict[str, float], key: str, by: float = 0.001) -> dict[str, float]:
    return {**values, key: values[key] - by}


@pytest.mark.parametrize(
    ("values", "score"),
    [
        (PASS, 1),
        (_below(PASS, "block_match"), 0.5),
        (_below(PASS, "position"), 0.5),
        (_below(PASS, "colour"), 0.5),
        (PARTIAL, 0.5),
        (_below(PARTIAL, "block_match"), 0),
        (_below(PARTIAL, "position"), 0),
        (_below(PARTIAL, "colour"), 0),
    ],
)
def test_human_composition_thresholds(
    packet_for: PacketFactory,
    images: Images,
    monkeypatch: pytest.MonkeyPatch,
    values: dict[str, float],
    score: float,
) -> None:
    _scores(monkeypatch, values)
    result = visual(packet_for, images(drawn(*PAGE)), images(drawn(*PAGE)), "human")
    assert result.score == score, result.evidence
    assert {k: result.numbers[k] for k in PASS} == {k: round(v, 3) for k, v in values.items()}


def test_the_thresholds_are_design2codes() -> None:
    assert PASS == {"block_match": 0.9, "position": 0.95, "colour": 0.7}
    assert PARTIAL == {"block_match": 0.75, "position": 0.9, "colour": 0.5}


def test_human_scores_are_rounded_to_3_places(
    packet_for: PacketFactory, images: Images, monkeypatch: pytest.MonkeyPatch
) -> None:
    _scores(monkeypatch, {"block_match": 0.91234, "position": 0.96789, "colour": 0.70049})
    result = visual(packet_for, images(drawn(*PAGE)), images(drawn(*PAGE)), "human")
    assert (result.numbers["block_match"], result.numbers["position"]) == (0.912, 0.968)
    assert result.numbers["colour"] == 0.7


# --- pixel numbers and the distance to the reference ---


def _picture(*rects: Rect, size: tuple[int, int] = (320, 200)) -> Picture:
    return Picture(np.asarray(drawn(*rects, size=size), dtype=np.uint8).copy())


def test_pixel_numbers_are_null_for_pictures_of_different_sizes() -> None:
    numbers = pixel_numbers(_picture(*PAGE), _picture(*PAGE, size=(320, 210)))
    assert numbers == {"ssim": None, "diff_ratio": None, "densest_window": None}


def test_pixel_numbers_measure_the_difference() -> None:
    numbers = pixel_numbers(_picture(*PAGE, EXTRA), _picture(*PAGE))
    assert 0 < numbers["ssim"] < 1
    assert numbers["diff_ratio"] == round(81 * 31 / (320 * 200), 4)
    assert numbers["densest_window"] > numbers["diff_ratio"]


def test_distance_counts_changes_then_dissimilarity() -> None:
    reference = _picture(*PAGE)
    assert distance_to(_picture(*PAGE), reference) == (0, 0)
    changes, dissimilarity = distance_to(_picture(*PAGE, EXTRA), reference)
    assert changes == 1 and 0 < dissimilarity < 1
    # A reference at another size is fitted to the image first.
    doubled = _pic(drawn(*PAGE).resize((640, 400), Image.Resampling.NEAREST))
    assert distance_to(_picture(*PAGE), doubled)[0] == 0


def _closer(
    packet_for: PacketFactory, images: Images, render: Image.Image, prev: Image.Image | None
) -> Any:
    extra = {"render": images(render), "reference": images(drawn(*PAGE))}
    if prev is not None:
        extra["prev_render"] = images(prev)
    packet = packet_for(reference="candidate", extra=extra)
    judge = MetricJudge(ProjectConfig(root=Path(".")))
    return judge.judge(packet)["closer_to_reference_than_prev"]


def test_closer_than_the_previous_render(packet_for: PacketFactory, images: Images) -> None:
    moved = drawn(TITLE, ((20, 150, 100, 180), BUTTON[1]))
    assert _closer(packet_for, images, drawn(*PAGE, EXTRA), moved) is True  # 1 change < 2
    assert _closer(packet_for, images, moved, drawn(*PAGE, EXTRA)) is False
    # As far as before is not closer.
    assert _closer(packet_for, images, drawn(*PAGE, EXTRA), drawn(*PAGE, EXTRA)) is False
    assert _closer(packet_for, images, drawn(*PAGE), None) is None


def test_closer_needs_a_reference(packet_for: PacketFactory, images: Images) -> None:
    packet = packet_for(prev=True, extra={"render": images(drawn(*PAGE))})
    judge = MetricJudge(ProjectConfig(root=Path(".")))
    assert judge.judge(packet)["closer_to_reference_than_prev"] is None


def test_the_same_changes_but_less_alike_is_further(
    packet_for: PacketFactory, images: Images
) -> None:
    # Both renders have the extra region (1 change); the one in a shade near the page's is
    # more alike at composition scale, so it is closer.
    faint = drawn(*PAGE, (EXTRA[0], (235, 235, 235, 255)))
    loud = drawn(*PAGE, EXTRA)
    reference = _pic(drawn(*PAGE))
    assert distance_to(_pic(faint), reference)[0] == distance_to(_pic(loud), reference)[0] == 1
    assert _closer(packet_for, images, faint, loud) is True
    assert _closer(packet_for, images, loud, faint) is False


def _pic(image: Image.Image) -> Picture:
    return Picture(np.asarray(image, dtype=np.uint8).copy())


def test_the_probe_is_not_needed_for_the_human_path(
    packet_for: PacketFactory, images: Images
) -> None:
    probe = small_probe()
    packet = packet_for(
        probe=probe,
        reference="human",
        extra={"render": images(drawn(*PAGE)), "reference": images(drawn(*PAGE))},
    )
    assert measure(packet, "visual_fidelity").score == 1


SPOTS = [(230, 15), (290, 15), (20, 70), (90, 70), (20, 150), (90, 150)]


def _extras(n: int) -> list[Rect]:
    """``n`` small regions apart from each other and from the page's."""
    return [((x, y, x + 15, y + 15), (200, 40, 40, 255)) for x, y in SPOTS[:n]]


@pytest.mark.parametrize("extra", [3, 4, 5])
def test_the_evidence_lists_three_changes_and_counts_the_rest(
    packet_for: PacketFactory, images: Images, extra: int
) -> None:
    render, reference = drawn(*PAGE, *_extras(extra)), drawn(*PAGE)
    changes = _pic(render).changes_from(_pic(reference))
    assert len(changes) == extra
    listing = "; ".join(c.describe() for c in changes[:3])
    for source in ("human", "candidate"):
        size = reference if source == "human" else drawn(*PAGE, size=(320, 210))
        result = visual(packet_for, images(render), images(size), source)
        assert result.score == 0
        more = f" (and {extra - 3} more)" if extra > 3 else ""
        assert listing + more + "." in result.evidence


@pytest.mark.parametrize("size", [(320, 200), (200, 320)])
def test_positions_are_measured_against_the_pages_larger_side(
    packet_for: PacketFactory, images: Images, size: tuple[int, int]
) -> None:
    # The button 4 px lower: its shift is measured as a share of the page's larger side
    # (the width of a landscape page, the height of a portrait one).
    page = (TITLE, ((100, 120, 180, 150), BUTTON[1]))
    render = drawn(TITLE, ((100, 124, 180, 154), BUTTON[1]), size=size)
    reference = drawn(*page, size=size)
    ours, theirs = _pic(render).layout.blocks, _pic(reference).layout.blocks
    expected = design_scores(ours, theirs, size)
    smaller = min(size)
    assert expected.position != design_scores(ours, theirs, (smaller, smaller)).position
    result = visual(packet_for, images(render), images(reference), "human")
    assert result.numbers["position"] == round(expected.position, 3)
    assert result.numbers["block_match"] == round(expected.block_match, 3)
    assert result.numbers["colour"] == round(expected.colour, 3)


@pytest.mark.parametrize("extra", [3, 4])
def test_candidate_evidence_lists_three_regions_and_counts_the_rest(
    packet_for: PacketFactory, images: Images, extra: int
) -> None:
    render = images(drawn(*PAGE, *_extras(extra)))
    result = visual(packet_for, render, images(drawn(*PAGE)), "candidate")
    assert result.score == 0 and len(result.numbers["regions"]) == extra
    assert (f"(and {extra - 3} more)" in result.evidence) is (extra > 3)


def test_pixel_numbers_are_rounded_to_4_places() -> None:
    spot: Rect = ((230, 15, 239, 24), (200, 40, 40, 255))  # 100 of a window's 256 pixels
    render, reference = _picture(*PAGE, spot), _picture(*PAGE)
    numbers = pixel_numbers(render, reference)
    ssim, density = render.ssim(reference), compare(render.pixels, reference.pixels).density_ratio
    assert numbers["ssim"] == round(ssim, 4) != round(ssim, 5)
    assert numbers["densest_window"] == round(density, 4) != round(density, 5)


def test_human_evidence_carries_the_scores(
    packet_for: PacketFactory, images: Images, monkeypatch: pytest.MonkeyPatch
) -> None:
    _scores(monkeypatch, {"block_match": 0.95, "position": 0.97, "colour": 0.8})
    passed = visual(packet_for, images(drawn(*PAGE)), images(drawn(*PAGE)), "human")
    assert passed.score == 1 and isinstance(passed.evidence, str)
    assert "0.95" in passed.evidence and "0.97" in passed.evidence and "0.80" in passed.evidence
    assert "2 paired blocks" in passed.evidence


def test_human_block_changes_inside_a_region_are_not_region_changes(
    packet_for: PacketFactory, images: Images, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A line gone inside a card: the blocks differ (the composition scores weigh that), but
    # no region appeared or vanished, so at the pass mark it is a pass.
    _scores(monkeypatch, PASS)
    reference = images(drawn(TITLE, CARD, LINE_1, LINE_2))
    result = visual(packet_for, images(drawn(TITLE, CARD, LINE_1)), reference, "human")
    assert result.numbers["region_changes"] == 0
    assert result.score == 1


def test_candidate_evidence_says_whether_any_pixel_differs(
    packet_for: PacketFactory, images: Images
) -> None:
    same = visual(packet_for, images(drawn(*PAGE)), images(drawn(*PAGE)), "candidate")
    assert same.score == 1 and "pixel(s) differ" not in same.evidence
    render = drawn(*PAGE)
    for x in (300, 302, 304):
        render.putpixel((x, 190), (246, 245, 245, 255))
    near = visual(packet_for, images(render), images(drawn(*PAGE)), "candidate")
    assert near.score == 1 and near.numbers["differing_pixels"] == 3
    assert "3 pixel(s) differ" in near.evidence


def test_candidate_evidence_counts_the_masks_painted_over(
    packet_for: PacketFactory, images: Images
) -> None:
    probe = small_probe()
    clock = {**probe["elements"][2], "index": 3, "testid": "clock", "text": "12:00"}
    clock["box"] = {"x": 225, "y": 10, "width": 30, "height": 30}
    probe["elements"].append(clock)
    packet = packet_for(
        probe=probe,
        reference="candidate",
        extra={"render": images(drawn(*PAGE, *_extras(1))), "reference": images(drawn(*PAGE))},
        contract={"masks": ["[data-testid=clock]"]},
    )
    result = measure(packet, "visual_fidelity")
    assert result.score == 1 and result.numbers["masks"] == 1, result.evidence
    assert "1 declared mask(s)" in result.evidence
    unmasked = visual(packet_for, images(drawn(*PAGE)), images(drawn(*PAGE)), "candidate")
    assert "mask" not in unmasked.evidence


def test_candidate_the_frameworks_preset_masks_are_painted_as_the_gate_paints_them(
    packet_for: PacketFactory, images: Images
) -> None:
    probe = small_probe()
    toolbar = {**probe["elements"][2], "index": 3, "testid": "stToolbar", "text": ""}
    toolbar["box"] = {"x": 225, "y": 10, "width": 30, "height": 30}
    probe["elements"].append(toolbar)
    packet = packet_for(
        probe=probe,
        reference="candidate",
        extra={"render": images(drawn(*PAGE, *_extras(1))), "reference": images(drawn(*PAGE))},
    )
    plain = measure(packet, "visual_fidelity")
    assert plain.score < 1, plain.evidence  # no framework: the change counts
    config = ProjectConfig(root=packet.directory, framework="streamlit")
    result = MetricJudge(config).measure(packet, ("visual_fidelity",))["visual_fidelity"]
    assert result.score == 1 and result.numbers["masks"] == 1, result.evidence
    # The preset's other masks match nothing on this page and are not reported.
    assert result.numbers["masks_unresolved"] == []
