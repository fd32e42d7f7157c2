"""snapshot: the render against its committed baseline (argus.diff), with the target's masks.

Masks (CSS selectors from the target's ``snapshot.masks``, and the framework's preset) are
the boxes the sensor recorded for them in the page (probe.json ``masks``; argus.diff.masks).
Status is ``pass``, ``diff`` (moved beyond the tolerance; the diff image is written next to
the render) or ``skip`` (no baseline to compare with; with ``update = "missing"`` the render
becomes the baseline). Findings name each changed region
and the element under it. The tolerance and the masks are the view's comparison options
(argus.gates.comparison), the same the pytest plugin and the review page compare with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from argus.color import to_hex
from argus.config import SnapshotConfig
from argus.diff import SnapshotOutcome, UpdateMode, baseline_path, compare_to_baseline
from argus.diff.masks import MaskResolution
from argus.diff.regions import Region
from argus.diff.snapshot import COMPARE_IF_PRESENT
from argus.evidence.probe import Element, Probe, parse_probe
from argus.gates._registry import register_gate
from argus.gates._stale_baseline import stale_regions
from argus.gates.base import (
    Finding,
    GateInputs,
    GateOutcome,
    GateStatus,
    adapter_probe_without_elements,
)
from argus.gates.baseline_browser import browser_drift, record_browser
from argus.gates.comparison import comparison_for, device_pixel_ratio

MAX_REGIONS = 10


def snapshot_outcome(
    result: SnapshotOutcome, probe: Probe, scale: float, unresolved: tuple[str, ...]
) -> GateOutcome:
    """Turn the diff package's outcome into the gate's, naming the element under each region."""
    status = {"pass": GateStatus.PASS, "diff": GateStatus.DIFF, "skip": GateStatus.SKIP}[
        result.status
    ]
    findings = tuple(_region_finding(r, probe, scale) for r in result.regions[:MAX_REGIONS])
    if status is GateStatus.DIFF and not findings:
        findings = (
            Finding("render", "pixels", result.message, "the baseline", str(result.baseline)),
        )
    data = {**result.to_json(), "masks_unresolved": list(unresolved), "scale": scale}
    summary = result.message
    if unresolved:
        summary += f"; masks matching nothing: {', '.join(unresolved)}"
    return GateOutcome(
        "snapshot", status, summary, findings if status is GateStatus.DIFF else (), data
    )


def _region_finding(region: Region, probe: Probe, scale: float) -> Finding:
    cx = (region.x + region.width / 2) / scale
    cy = (region.y + region.height / 2) / scale
    element = _deepest_at(probe, cx, cy)
    where = probe.selector(element) if element is not None else "page"
    box = f"{region.width}x{region.height} at ({region.x}, {region.y})"
    return Finding(
        element=where,
        property="pixels",
        value=f"{region.pixels} differing",
        expected="as in the baseline",
        message=f"changed region {box} (image pixels)",
    )


def _deepest_at(probe: Probe, x: float, y: float) -> Element | None:
    """The last (innermost, in document order) visible element whose box holds the point."""
    found = None
    for element in probe.elements:
        b = element.box
        if element.visible and b.x <= x <= b.x + b.width and b.y <= y <= b.y + b.height:
            found = element
    return found


def snapshot_gate(inputs: GateInputs) -> GateOutcome:
    """Compare without writing: whether a baseline may be written (or overwritten) depends on
    the view's other gates, which ``settle_baseline`` looks at once they have all run."""
    settings = inputs.config.gates.snapshot
    outcome = _snapshot(inputs, "none" if settings.update == "none" else COMPARE_IF_PRESENT)
    if outcome.status not in (GateStatus.PASS, GateStatus.DIFF, GateStatus.SKIP):
        return outcome
    wanted = _wanted_write(settings.update, outcome)
    if wanted is None:
        return outcome
    return replace(outcome, data={**outcome.data, "pending_write": wanted})


def _wanted_write(mode: UpdateMode, outcome: GateOutcome) -> str | None:
    """What ``mode`` would do to the baseline after this comparison (None: nothing)."""
    missing = outcome.status is GateStatus.SKIP and outcome.data.get("action") == "none"
    if missing and mode in ("missing", "changed", "all") and "baseline" in outcome.data:
        return "written"
    if outcome.status is GateStatus.DIFF and mode == "changed":
        return "updated"
    if outcome.status in (GateStatus.PASS, GateStatus.DIFF) and mode == "all":
        return "updated"
    return None


GREEN = (GateStatus.PASS, GateStatus.SKIP, GateStatus.NEW)


def settle_baseline(inputs: GateInputs, outcomes: Sequence[GateOutcome]) -> GateOutcome | None:
    """The snapshot outcome once the other gates are known: a pending baseline is written
    only from a view whose other gates are all green, else withheld and said so. None when
    there is no snapshot outcome with a pending write."""
    snapshot = next((o for o in outcomes if o.name == "snapshot"), None)
    if snapshot is None or "pending_write" not in snapshot.data:
        return None
    red = [o.name for o in outcomes if o.name != "snapshot" and o.status not in GREEN]
    data = {k: v for k, v in snapshot.data.items() if k != "pending_write"}
    if red:
        note = (
            f"baseline not {snapshot.data['pending_write']}: the view is red "
            f"({', '.join(red)}), and a baseline is only taken from a view whose other gates "
            "are green"
        )
        return replace(
            snapshot,
            summary=f"{snapshot.summary}; {note}",
            data={**data, "baseline_withheld": red},
        )
    written = _snapshot(inputs, inputs.config.gates.snapshot.update)
    if written.status is GateStatus.SKIP and written.data.get("action") == "written":
        return replace(written, status=GateStatus.NEW)
    return written


def _snapshot(inputs: GateInputs, mode: UpdateMode) -> GateOutcome:
    view = inputs.view
    settings = inputs.config.gates.snapshot
    comparison = comparison_for(
        inputs.config, inputs.spec, view, tokens=inputs.tokens, target=inputs.target
    )
    snapshot_only = sensed_snapshot_only(inputs)
    if snapshot_only or adapter_probe_without_elements(inputs):
        # The render is still compared; only masks (and naming the element under a change)
        # need the element list.
        if comparison.masks:
            return GateOutcome(
                "snapshot",
                GateStatus.ERROR if snapshot_only else GateStatus.SKIP,
                "snapshot masks need the probe's 'elements' list, and the view was sensed "
                "with --snapshot-only (no probe); sense it without"
                if snapshot_only
                else f"snapshot masks need the probe's 'elements' list, and the "
                f"{inputs.spec.adapter!r} adapter's probe has none",
            )
        probe = Probe((), _meta_viewport_width(inputs), 0.0)
        masks = MaskResolution((), ())
    else:
        probe = parse_probe(inputs.probe, str(inputs.sensed.probe))
        masks = comparison.mask_boxes(inputs.probe)
    scale = device_pixel_ratio(inputs.sensed.render, probe.viewport_width)
    baseline = baseline_path(
        inputs.spec.spec_dir, view.target, view.state, view.appearance, settings.platform_suffix
    )
    result = compare_to_baseline(
        inputs.sensed.render,
        baseline,
        comparison.tolerance,
        masks.boxes,
        mode,
        scale=scale,
    )
    outcome = snapshot_outcome(result, probe, scale, masks.unresolved)
    outcome = replace(outcome, data={**outcome.data, "tolerance": comparison.threshold_json()})
    if result.written or result.updated:
        record_browser(baseline, inputs.meta)
        return outcome
    if result.status == "diff" and result.regions:
        outcome = _stale_baseline(inputs, outcome, baseline, result.regions)
    drift = browser_drift(baseline, inputs.meta)
    if drift is None:
        return outcome
    data = {**outcome.data, "browser_drift": drift}
    return replace(outcome, summary=f"{outcome.summary}; {drift}", data=data)


def _stale_baseline(
    inputs: GateInputs, outcome: GateOutcome, baseline: Path, regions: Sequence[Region]
) -> GateOutcome:
    """Mark a diff whose baseline breaks the tokens where the render does not: the baseline may
    be stale, and matching it would put a defect back (argus.gates._stale_baseline)."""
    appearance = inputs.view.appearance
    if not inputs.tokens.has_appearance(appearance):
        return outcome
    found = stale_regions(
        baseline, inputs.sensed.render, regions, inputs.tokens.palette(appearance)
    )
    if not found:
        return outcome
    view = inputs.view
    where = (
        f"--feature {view.feature} --target {view.target} --state {view.state} "
        f"--appearance {view.appearance}"
    )
    accept = [
        f"argus gates {where} --sense --update-snapshots changed",
        f"argus approve {where} --baseline",
    ]
    first = found[0]
    advice = (
        f"baseline may be stale: it shows {to_hex(first.color)} (no token; nearest "
        f"{first.nearest}, ΔE {first.delta_e:.1f}) where the render keeps the tokens; do not "
        "put it back. If the render is right, a person accepts it (argus gates "
        "--update-snapshots changed, or argus approve --baseline)"
    )
    finding = Finding(
        element="baseline",
        property="stale_baseline",
        value=to_hex(first.color),
        expected=f"a token colour (nearest {first.nearest})",
        message=advice,
    )
    data = {
        **outcome.data,
        "stale_baseline": [f.to_json() for f in found],
        "stale_baseline_accept": accept,
    }
    return replace(
        outcome,
        summary=f"{outcome.summary}; the baseline may be stale (it breaks the tokens)",
        findings=(finding, *outcome.findings),
        data=data,
    )


def sensed_snapshot_only(inputs: GateInputs) -> bool:
    """True when meta.json says the view was sensed on the snapshot-only path (argus sense
    --snapshot-only) and there is no probe.json: the render is all there is to compare. A
    probe.json beside such a record is read, and refused, as usual."""
    return inputs.meta.get("evidence") == "snapshot-only" and not inputs.sensed.probe.exists()


def _meta_viewport_width(inputs: GateInputs) -> float:
    """The viewport width meta.json records (the adapter's render may be at a device scale)."""
    viewport = inputs.meta.get("viewport")
    width = viewport.get("width") if isinstance(viewport, dict) else None
    return float(width) if isinstance(width, int | float) and not isinstance(width, bool) else 0.0


# Registered by a call, not a decorator, so that mutation testing (mutmut skips decorated
# functions) reaches the gate's body.
register_gate("snapshot", settings=SnapshotConfig)(snapshot_gate)
