"""visual_fidelity, and closer_to_reference_than_prev: the render against the reference image.

Against a *candidate* reference (an earlier render a person approved as it was) the dimension
asserts only that the composition is unchanged: a regression check against the approved
baseline, never a claim that the design is good (that rests on the design-system dimensions).
Unchanged means two things hold: the block structure (the same regions, every block in place)
and the pixels agree at composition scale: the densest 16 px diff window is below
MAX_WINDOW_DENSITY (the change is local, edges and glyphs, not whole areas repainted) or the
SSIM of the 4×4-averaged images is at least MIN_SSIM (the tonal masses are the same). Blocks in
place over repainted areas (a page turned dark) score 0.5.
Against a *human* reference it is a fidelity check in the manner of Design2Code. Neither is a
bare pixel match: colours, spacing and type are other dimensions' business, and a list with one
row more or fewer is functional_correctness's.
"""

from __future__ import annotations

from typing import Any

from argus.diff.compare import compare
from argus.judge.composition import StructureChange, design_scores
from argus.judge.metric.context import Measured, MetricContext
from argus.judge.picture import Picture

# Human reference (Design2Code scores): at or above PASS for 1, at or above PARTIAL for 0.5.
# Colour is weighed lightly: exact colours are token_compliance's business, not composition's.
PASS = {"block_match": 0.9, "position": 0.95, "colour": 0.7}
PARTIAL = {"block_match": 0.75, "position": 0.9, "colour": 0.5}
MAX_LISTED = 3
# Candidate reference, the pixel half of "unchanged" (either bound is enough; see the doc).
MAX_WINDOW_DENSITY = 0.9
MIN_SSIM = 0.9


def _changes_text(changes: list[StructureChange]) -> str:
    listed = "; ".join(c.describe() for c in changes[:MAX_LISTED])
    more = f" (and {len(changes) - MAX_LISTED} more)" if len(changes) > MAX_LISTED else ""
    return listed + more


def pixel_numbers(render: Picture, reference: Picture) -> dict[str, Any]:
    """SSIM at composition scale and the windowed diff density; null when sizes differ."""
    if render.shape != reference.shape:
        return {"ssim": None, "diff_ratio": None, "densest_window": None}
    result = compare(render.pixels, reference.pixels)
    return {
        "ssim": round(render.ssim(reference), 4),
        "diff_ratio": round(result.ratio, 4),
        "densest_window": round(result.density_ratio, 4),
        "window_px": result.window,
    }


def visual_fidelity(ctx: MetricContext) -> Measured:
    reference = ctx.picture("reference")
    if reference is None:
        return Measured.abstain(
            "No approved reference image for this view, so composition cannot be compared."
        )
    render = ctx.render_picture
    if ctx.packet.reference_source == "candidate":
        return _unchanged(render, reference)
    return _fidelity(render, reference.fitted(render.shape))


def _unchanged(render: Picture, reference: Picture) -> Measured:
    numbers = pixel_numbers(render, reference)
    if numbers["diff_ratio"] == 0:
        return Measured(
            1, "The render is pixel-identical to the approved candidate baseline.", numbers
        )
    ours, theirs = render.layout, reference.layout
    changes = render.changes_from(reference)
    numbers = {
        **numbers,
        "regions": [len(ours.regions), len(theirs.regions)],
        "blocks": [len(ours.blocks), len(theirs.blocks)],
        "region_changes": sum(1 for c in changes if c.kind == "region"),
        "block_changes": sum(1 for c in changes if c.kind == "block"),
    }
    if not changes and not _repainted(numbers):
        return Measured(
            1,
            "Composition unchanged from the approved candidate baseline: all "
            f"{len(theirs.regions)} regions and their blocks are in place "
            f"(SSIM {numbers['ssim']}, densest window {numbers['densest_window']}); a regression "
            "check, not a quality judgement.",
            numbers,
        )
    if not changes:
        return Measured(
            0.5,
            "Blocks in place, but areas of the approved candidate baseline were repainted: "
            f"densest {numbers['window_px']} px window {numbers['densest_window']} changed "
            f"(below {MAX_WINDOW_DENSITY} would be local) and SSIM {numbers['ssim']} "
            f"(below {MIN_SSIM}).",
            numbers,
        )
    score = 0 if numbers["region_changes"] else 0.5
    return Measured(
        score,
        f"Composition changed from the approved candidate baseline: {_changes_text(changes)}.",
        numbers,
    )


def _repainted(numbers: dict[str, Any]) -> bool:
    """The pixels disagree at composition scale: dense windows repainted and a low SSIM.
    Unknown when the sizes differ (then the structure decides alone)."""
    density, ssim = numbers.get("densest_window"), numbers.get("ssim")
    if density is None or ssim is None:
        return False
    return bool(density >= MAX_WINDOW_DENSITY and ssim < MIN_SSIM)


def _fidelity(render: Picture, reference: Picture) -> Measured:
    ours, theirs = render.layout, reference.layout
    page = (render.shape[1], render.shape[0])
    scores = design_scores(ours.blocks, theirs.blocks, page)
    changes = [c for c in render.changes_from(reference) if c.kind == "region"]
    values = {
        "block_match": scores.block_match,
        "position": scores.position,
        "colour": scores.colour,
    }
    numbers = {
        **{k: round(v, 3) for k, v in values.items()},
        "pairs": scores.pairs,
        "blocks": [scores.render_blocks, scores.reference_blocks],
        "region_changes": len(changes),
        **pixel_numbers(render, reference),
    }
    summary = (
        f"block match {values['block_match']:.2f}, position {values['position']:.2f}, "
        f"colour {values['colour']:.2f} over {scores.pairs} paired blocks"
    )
    if not changes and all(values[k] >= PASS[k] for k in PASS):
        return Measured(1, f"Composition matches the reference: {summary}.", numbers)
    reason = f"; {_changes_text(changes)}" if changes else ""
    score = 0.5 if len(changes) <= 1 and all(values[k] >= PARTIAL[k] for k in PARTIAL) else 0
    return Measured(score, f"Composition departs from the reference: {summary}{reason}.", numbers)


def distance_to(image: Picture, reference: Picture) -> tuple[int, float]:
    """(composition changes, 1 - SSIM): smaller is closer to the reference."""
    fitted = reference.fitted(image.shape)
    return len(image.changes_from(fitted)), 1 - image.ssim(fitted)


def closer_than_previous(ctx: MetricContext) -> bool | None:
    """Is this render closer to the reference than the previous one? None when there is none."""
    reference, previous = ctx.picture("reference"), ctx.picture("prev_render")
    if reference is None or previous is None:
        return None
    return distance_to(ctx.render_picture, reference) < distance_to(previous, reference)
