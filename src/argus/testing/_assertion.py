"""One view assertion on a test's page: the stable capture, the snapshot comparison with
Argus's kernel and the view's comparison options (argus.gates.comparison: the same threshold
and masks as ``argus gates`` and the review page), and, when the test names a spec target, the
page's gates.

    result = check_view(page, "checkout-empty", Where(...), Settings(...))
    if not result.ok: raise ViewAssertionError(result.message)

Update modes are Playwright's: ``missing`` writes a baseline that does not exist, ``changed``
also rewrites one that differs, ``all`` rewrites every one, ``none`` writes nothing. As in
Playwright, a baseline written because it was missing fails the test unless updating was
asked for (``--update-snapshots``): a first run records and says so, it never passes silently;
and on CI (``CI`` set) the default mode is ``none``, so a missing baseline fails there.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from playwright.sync_api import Locator, Page

from argus.config import ProjectConfig
from argus.diff import SnapshotOutcome, compare_to_baseline
from argus.diff.masks import Box, MaskSelectorError
from argus.diff.snapshot import COMPARE_IF_PRESENT
from argus.diff.snapshot import UpdateMode as DiffUpdateMode
from argus.gates.base import GateOutcome, GateStatus
from argus.gates.comparison import Comparison
from argus.gates.inputs import gate_inputs
from argus.gates.runner import run_gates
from argus.io import atomic_write_bytes, read_json
from argus.sense.framework_settle import settle_framework_sync
from argus.sense.probe import located_mask_error
from argus.sense.web import readable_images
from argus.spec.model import Spec, View
from argus.testing._capture import sense_page, stable_render

UpdateMode = Literal["missing", "changed", "all", "none"]
# written/updated: the baseline was (re)written as asked; recorded: written because it was
# missing, unasked, which fails the test (as in Playwright).
Status = Literal["passed", "failed", "written", "updated", "recorded"]
# The gates the assertion runs, through the runner's gate functions: those that read the page
# itself (focus_visible: the sensor's focus walk, run on the test's page), and the source
# scans, which read only the repository and the project's config (found from the test's
# directory). Command gates (build, lint ...: a build tool) and Lighthouse are left to argus
# gates, and the snapshot gate is the assertion's own comparison.
PAGE_GATES = (
    "token_contrast",
    "a11y_ids",
    "axe",
    "console",
    "rendered_contrast",
    "token_compliance",
    "source_tokens",
    "tell_tales",
    "focus_visible",
)
MAX_FINDINGS = 5


class ViewAssertionError(AssertionError):
    """A view assertion failed; the message lists what was measured, expected and where."""


@dataclass(frozen=True)
class Where:
    """Where one assertion's files go."""

    baseline: Path  # __snapshots__/{test file}/{name}-{browser}-{platform}.png
    out_dir: Path  # the render, the diff and the sensed files of this assertion


@dataclass(frozen=True)
class Settings:
    mode: UpdateMode = "missing"
    asked_to_update: bool = False  # --update-snapshots given (a written baseline then passes)
    comparison: Comparison = field(default_factory=Comparison)
    full_page: bool = False
    mask: Sequence[Locator] = ()
    # The project's framework (argus.frameworks; "" none) and how long its page may take to
    # settle: the page waits for the framework's ready rule before the capture.
    framework: str = ""
    settle_timeout: float = 30.0


@dataclass(frozen=True)
class SpecView:
    """The spec target the test names: its gates run on the page."""

    spec: Spec
    view: View
    config: ProjectConfig


@dataclass(frozen=True)
class ViewResult:
    name: str
    status: Status
    message: str
    baseline: Path
    render: Path
    diff: Path | None = None
    mismatch: int | None = None
    ratio: float | None = None
    gates: tuple[GateOutcome, ...] = ()
    view: str | None = None
    duration_ms: float = 0.0
    # The target's gates this assertion cannot run on a test's page (argus gates runs them).
    gates_not_run: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status in ("passed", "written", "updated")

    @property
    def red_gates(self) -> tuple[str, ...]:
        return tuple(g.name for g in self.gates if g.status in (GateStatus.FAIL, GateStatus.ERROR))

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "status": self.status,
            "ok": self.ok,
            "message": self.message,
            "baseline": str(self.baseline),
            "render": str(self.render),
            "diff": None if self.diff is None else str(self.diff),
            "mismatch": self.mismatch,
            "ratio": self.ratio,
            "view": self.view,
            "gates": [
                {"name": g.name, "status": g.status.value, "summary": g.summary} for g in self.gates
            ],
            "gates_not_run": list(self.gates_not_run),
            "duration_ms": self.duration_ms,
        }


def check_view(
    page: Page,
    name: str,
    where: Where,
    settings: Settings,
    target_view: SpecView | None = None,
) -> ViewResult:
    """Capture ``page`` and judge it (see the module docstring); never raises for a failed
    comparison or a red gate (that is the result), SensorError when the page cannot be
    captured."""
    started = time.perf_counter()
    where.out_dir.mkdir(parents=True, exist_ok=True)
    render_path = where.out_dir / f"{name}-actual.png"
    gates: tuple[GateOutcome, ...] = ()
    boxes: Sequence[Box] = ()
    scale = 1.0
    if target_view is None:
        settle_framework_sync(page, settings.framework, settings.settle_timeout)
        # No target: the project's framework preset (all_masks holds only it) masks as the
        # test's own locators do, in the screenshot.
        preset = tuple(page.locator(selector) for selector in settings.comparison.all_masks)
        render = stable_render(
            page,
            full_page=settings.full_page,
            mask=(*settings.mask, *preset),
            expected=readable_images([where.baseline]),
        )
        atomic_write_bytes(render_path, render.png)
    else:
        sensed = where.out_dir / f"{name}-sensed"
        names, _ = page_gates_for(target_view)
        try:
            sense_page(
                page,
                target_view.view,
                sensed,
                target_view.config,
                gates=names,
                full_page=settings.full_page,
                mask=settings.mask,
                masks=settings.comparison.all_masks,
            )
        except MaskSelectorError as err:
            spec, view = target_view.spec, target_view.view
            raise located_mask_error(err, spec, view.target, settings.framework) from None
        atomic_write_bytes(render_path, (sensed / "render.png").read_bytes())
        # The target's masks as the snapshot gate paints them: resolved in the page by the
        # probe (probe.json's masks).
        probe = read_json(sensed / "probe.json", what="probe.json")
        boxes, scale = settings.comparison.masks_on(render_path, probe)
        inputs = gate_inputs(target_view.spec, target_view.view, sensed, config=target_view.config)
        if names:  # a target whose gates are none of the page's (snapshot only) runs none
            gates = run_gates(inputs, names, record=False).outcomes
    # A page with red gates is compared but never becomes (or replaces) a baseline: a defect
    # kept as the baseline would later ask for the defect back.
    red = any(g.status in (GateStatus.FAIL, GateStatus.ERROR) for g in gates)
    mode: DiffUpdateMode = COMPARE_IF_PRESENT if red else settings.mode
    outcome = compare_to_baseline(
        render_path, where.baseline, settings.comparison.tolerance, boxes, mode, scale=scale
    )
    result = _result(name, outcome, render_path, settings, gates, target_view)
    if red and settings.mode != "none":
        note = (
            f"baseline not written or updated while the page's gates are red ({outcome.baseline})"
        )
        result = replace(result, message=f"{result.message}\n{note}")
    return replace(result, duration_ms=round((time.perf_counter() - started) * 1000, 1))


def configured_gates_for(target_view: SpecView) -> tuple[str, ...]:
    target = target_view.spec.target(target_view.view.target)
    return target_view.config.gates.for_target(target.gates)


def page_gates_for(target_view: SpecView) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The target's gates this assertion runs on the page, and those it leaves to ``argus
    gates`` (command gates, Lighthouse), said, never skipped silently. The snapshot gate is
    neither: the assertion compares its own baseline, with the view's comparison options."""
    configured = configured_gates_for(target_view)
    run = tuple(g for g in configured if g in PAGE_GATES)
    left = tuple(g for g in configured if g not in PAGE_GATES and g != "snapshot")
    return run, left


def _result(
    name: str,
    outcome: SnapshotOutcome,
    render: Path,
    settings: Settings,
    gates: tuple[GateOutcome, ...],
    target_view: SpecView | None,
) -> ViewResult:
    status: Status
    if outcome.action == "written":
        if settings.asked_to_update:
            status, message = "written", f"baseline written: {outcome.baseline}"
        else:
            status = "recorded"
            message = (
                f"A baseline did not exist at {outcome.baseline}: the render was written "
                "there; check it, commit it and run again"
            )
    elif outcome.action == "updated":
        status, message = "updated", f"baseline updated: {outcome.baseline}"
    elif outcome.status == "pass":
        status, message = "passed", outcome.message
    else:
        status, message = "failed", _mismatch_message(name, outcome, render, settings)
    result = ViewResult(
        name=name,
        status=status,
        message=message,
        baseline=outcome.baseline,
        render=render,
        diff=outcome.diff_image,
        mismatch=outcome.mismatch,
        ratio=outcome.ratio,
        gates=gates,
        view=None if target_view is None else target_view.view.slug,
        gates_not_run=() if target_view is None else page_gates_for(target_view)[1],
    )
    if result.red_gates:
        gate_text = _gates_message(result)
        text = gate_text if result.ok else f"{result.message}\n{gate_text}"
        result = replace(result, status="failed", message=text)
    return result


def _mismatch_message(name: str, outcome: SnapshotOutcome, render: Path, settings: Settings) -> str:
    if not outcome.baseline.exists():
        # Nothing was compared: say so, not "does not match" (CI never writes a baseline).
        return "\n".join(
            [
                f"view {name!r} has no baseline: nothing was compared",
                f"  why:      {outcome.message}",
                f"  render:   {render}",
                "  run with --update-snapshots to write the baseline, check it and commit it",
            ]
        )
    lines = [
        f"view {name!r} does not match its baseline",
        f"  measured: {outcome.message}",
        f"  expected: {settings.comparison.describe()}",
    ]
    if outcome.regions:
        first = outcome.regions[:3]
        boxes = "; ".join(f"{r.width}x{r.height} at ({r.x}, {r.y})" for r in first)
        more = f" (+{len(outcome.regions) - 3} more)" if len(outcome.regions) > 3 else ""
        lines.append(f"  where: {boxes}{more}")
    lines.append(f"  render:   {render}")
    lines.append(f"  baseline: {outcome.baseline}")
    if outcome.diff_image is not None:
        lines.append(f"  diff:     {outcome.diff_image}")
    return "\n".join(lines)


def _gates_message(result: ViewResult) -> str:
    lines = [f"view {result.view}: red gate(s) {', '.join(result.red_gates)}"]
    for gate in result.gates:
        if gate.name not in result.red_gates:
            continue
        lines.append(f"  {gate.name}: {gate.status.value}: {gate.summary}")
        for finding in gate.findings[:MAX_FINDINGS]:
            lines.append(
                f"    - where: {finding.element} ({finding.property}); "
                f"measured: {finding.value}; expected: {finding.expected or '-'}"
            )
        if len(gate.findings) > MAX_FINDINGS:
            lines.append(f"    (+{len(gate.findings) - MAX_FINDINGS} more)")
    if result.gates_not_run:
        lines.append(f"  not run here (argus gates runs them): {', '.join(result.gates_not_run)}")
    lines.append(f"  render: {result.render}")
    return "\n".join(lines)
