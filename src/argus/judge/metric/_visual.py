"""visual_fidelity, and closer_to_reference_than_prev: the render against the reference image.

Against a *candidate* reference (an earlier render by Argus's own sensor that a person approved)
the dimension is a regression check: the same sensor renders an unchanged view to the same
pixels, so every region that differs beyond the palette-measured tolerance (anti-aliasing set
aside) is listed with its box, its share of the pixels, the elements under it and what changed
(argus.judge._regression), and fails the dimension (0.5; 0 when a whole region of the page
appeared or vanished). Only a mask the spec declares (``snapshot.masks``, for dynamic content),
or the mask preset of the project's framework (argus.frameworks), accepts a changed region.
It is never a claim that the design is good (that rests on the design-system dimensions).
Against a *human* reference (a mockup, drawn by other means) it is a lenient composition check
in the manner of Design2Code: block match, position and colour, where a bare pixel match would
mean nothing.
"""

from __future__ import annotations

from typing import Any

from argus.diff.comparison import compare
from argus.diff.masks import resolve_masks
from argus.diff.sensor_tolerance import sensor_tolerance
from argus.frameworks import framework_masks
from argus.judge._composition import StructureChange, design_scores
from argus.judge._regression import compare_same_sensor
from argus.judge.metric._context import Measured, MetricContext
from argus.judge.picture import Picture

# Human reference (Design2Code scores): at or above PASS for 1, at or above PARTIAL for 0.5.
# Colour is weighed lightly: exact colours are token_compliance's business, not composition's.
PASS = {"block_match": 0.9, "position": 0.95, "colour": 0.7}
PARTIAL = {"block_match": 0.75, "position": 0.9, "colour": 0.5}
MAX_LISTED = 3


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
        return _unchanged(ctx, render, reference)
    return _fidelity(render, reference.fitted(render.shape))


def _unchanged(ctx: MetricContext, render: Picture, reference: Picture) -> Measured:
    """A regression check against a same-sensor baseline: every changed region is listed and
    fails the dimension unless a declared mask covers it."""
    tolerance = sensor_tolerance(ctx.tokens.palette(ctx.appearance))
    if render.shape != reference.shape:
        changes = render.changes_from(reference)
        numbers: dict[str, Any] = {
            "size": [list(render.shape[1::-1]), list(reference.shape[1::-1])],
            "region_changes": sum(1 for c in changes if c.kind == "region"),
            "block_changes": sum(1 for c in changes if c.kind == "block"),
        }
        listed = f": {_changes_text(changes)}" if changes else ""
        return Measured(
            0 if numbers["region_changes"] else 0.5,
            f"The render is {render.shape[1]}x{render.shape[0]} px, the approved candidate "
            f"baseline {reference.shape[1]}x{reference.shape[0]}: not the same page{listed}.",
            numbers,
        )
    declared = list(ctx.contract.get("masks") or [])
    # The framework's preset (its spinners, toolbar), as the snapshot gate paints it: one
    # answer on the same evidence. A preset mask the page does not show is not reported.
    preset = [m for m in framework_masks(ctx.config.framework) if m not in declared]
    masks = resolve_masks(declared + preset, ctx.probe_raw)
    unresolved = [m for m in masks.unresolved if m not in preset]
    found = compare_same_sensor(render.pixels, reference.pixels, ctx.probe, tolerance, masks.boxes)
    compared = (
        f"compared pixel by pixel with the approved candidate baseline (same sensor) at "
        f"{tolerance.describe()}, anti-aliasing set aside"
        + (f", {found.masked} declared mask(s) painted over" if found.masked else "")
    )
    numbers = {
        "comparison": "same-sensor regression",
        "tolerance": tolerance.to_json(),
        "differing_pixels": found.exact_differing,
        "counted_pixels": found.counted,
        "masks": found.masked,
        "masks_unresolved": unresolved,
        "regions": [c.to_json() for c in found.changes],
    }
    if not found.changes:
        if found.exact_differing == 0:
            return Measured(1, f"Every pixel equals the baseline's: {compared}.", numbers)
        return Measured(
            1,
            f"Not byte-identical: {found.exact_differing} pixel(s) differ, none beyond the "
            f"tolerance once anti-aliasing is set aside; {compared}.",
            numbers,
        )
    structure = render.changes_from(reference)
    numbers["region_changes"] = sum(1 for c in structure if c.kind == "region")
    listed = "; ".join(c.describe() for c in found.changes[:MAX_LISTED])
    more = (
        f" (and {len(found.changes) - MAX_LISTED} more)" if len(found.changes) > MAX_LISTED else ""
    )
    return Measured(
        0 if numbers["region_changes"] else 0.5,
        f"{len(found.changes)} region(s) changed from the approved candidate baseline, none "
        f"covered by a declared mask: {listed}{more}. {compared[:1].upper()}{compared[1:]}.",
        numbers,
    )


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
