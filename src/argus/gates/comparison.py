"""How one view's render is compared with its baseline, decided in one place for every surface
that compares: the snapshot gate (``argus gates``), the pytest plugin, the review page and the
baseline writer (the loop's sign-off, ``argus approve --baseline``).

    comparison = comparison_for(config, spec, view)        # + the plugin's keyword arguments
    outcome = compare_to_baseline(render, baseline, comparison.tolerance,
                                  comparison.mask_boxes(probe).boxes, mode, scale=...)

What a person set wins, most specific first: the plugin's keyword arguments, the target's
``snapshot`` settings, the project's ``[gates.snapshot]``. A threshold nobody set is measured
from the view's palette (``argus.diff.sensor_tolerance``: half the distance of the two closest
tokens), because a baseline is a render by the same sensor and pixelmatch's default (0.1)
would let a swap between neighbouring tokens, or an off-palette chart bar, through unseen.
Only without a view (an assertion naming no spec target) or without a palette for its
appearance is the threshold pixelmatch's default. The masks are the target's
``snapshot.masks`` and the mask preset of the project's ``framework`` (argus.frameworks: its
spinners, toolbar, deploy button), CSS selectors the sensor resolved in the page beside the
render (probe.json ``masks``; an older probe's element dump otherwise: argus.diff.masks) and
painted in both images; a preset mask that matches nothing is not reported, as the framework
shows those parts only at times.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from argus.config import ProjectConfig
from argus.diff.masks import Box, MaskResolution, resolve_masks
from argus.diff.png import read_png_header
from argus.diff.sensor_tolerance import SensorTolerance, sensor_tolerance
from argus.diff.tolerance import Tolerance
from argus.errors import InputError
from argus.frameworks import framework_masks
from argus.spec.model import Spec, Target, View
from argus.tokens import Tokens, load_tokens


@dataclass(frozen=True)
class Overrides:
    """Tolerance values a caller sets for one comparison (None: not set)."""

    threshold: float | None = None
    max_diff_pixels: int | None = None
    max_diff_pixel_ratio: float | None = None
    max_window_density: float | None = None

    def apply(self, tolerance: Tolerance) -> Tolerance:
        chosen = {k: v for k, v in self.__dict__.items() if v is not None}
        return replace(tolerance, **chosen)


@dataclass(frozen=True)
class Comparison:
    """The options of one comparison: the tolerance, how its threshold was measured (None:
    set by a person, or pixelmatch's default), the target's mask selectors and the framework's
    preset ones."""

    tolerance: Tolerance = field(default_factory=Tolerance)
    measured: SensorTolerance | None = None
    masks: tuple[str, ...] = ()
    preset_masks: tuple[str, ...] = ()

    @property
    def all_masks(self) -> tuple[str, ...]:
        return (*self.masks, *self.preset_masks)

    def threshold_json(self) -> dict[str, object]:
        """The threshold as the gate's outcome records it (``data.tolerance``)."""
        if self.measured is not None:
            return self.measured.to_json()
        return {"threshold": self.tolerance.threshold}

    def describe(self) -> str:
        """The tolerance in one line, for failure messages."""
        t = self.tolerance
        threshold = (
            self.measured.describe() if self.measured is not None else f"threshold {t.threshold:g}"
        )
        return (
            f"{threshold}, max_diff_pixels {t.max_diff_pixels}, "
            f"max_diff_pixel_ratio {t.max_diff_pixel_ratio:g}, "
            f"max_window_density {t.max_window_density:g}"
        )

    def mask_boxes(self, probe: Mapping[str, Any]) -> MaskResolution:
        """The masks' boxes (CSS pixels) the probe recorded (argus.diff.resolve_masks); only
        the target's own masks are reported when they match nothing. InputError for a selector
        the probe cannot answer (sensed before it was added, by an older Argus)."""
        found = resolve_masks(self.all_masks, probe)
        unresolved = tuple(m for m in found.unresolved if m not in self.preset_masks)
        return MaskResolution(found.boxes, unresolved)

    def masks_on(self, render: Path, probe: Mapping[str, Any]) -> tuple[tuple[Box, ...], float]:
        """The masks' boxes in the probe and the render's image pixels per CSS pixel, as
        ``compare_to_baseline`` takes them (nothing to paint without masks)."""
        if not self.all_masks:
            return (), 1.0
        return self.mask_boxes(probe).boxes, device_pixel_ratio(render, viewport_width(probe))


def viewport_width(probe: object) -> float:
    """The probed viewport's CSS width; 0 when the probe does not say (scale 1 then)."""
    viewport = probe.get("viewport") if isinstance(probe, dict) else None
    width = viewport.get("width", 0) if isinstance(viewport, dict) else 0
    return float(width) if isinstance(width, int | float) and not isinstance(width, bool) else 0.0


def device_pixel_ratio(render: Path, css_width: float) -> float:
    """Image pixels per CSS pixel: the render's width over the probed viewport's (``css_width``;
    0: not recorded, scale 1)."""
    if not render.is_file():
        raise InputError(f"{render}: render.png not found; sense the view first (argus sense)")
    width = read_png_header(render).width  # header only: nothing decoded, bombs refused
    return width / css_width if css_width > 0 else 1.0


def comparison_for(
    config: ProjectConfig | None,
    spec: Spec | None = None,
    view: View | None = None,
    *,
    tokens: Tokens | None = None,
    target: Target | None = None,
    overrides: Overrides | None = None,
) -> Comparison:
    """The comparison options of ``view`` of ``spec`` in the project ``config`` (see the module
    docstring). ``tokens`` and ``target`` when the caller holds them (a gate's inputs), else read
    from the spec (ArgusError when its tokens file cannot be read)."""
    chosen = overrides or Overrides()
    project = config.gates.snapshot if config is not None else None
    settings = None
    if spec is not None and view is not None:
        settings = (target or spec.target(view.target)).snapshot
    tolerance = chosen.apply(Tolerance.resolve(project, settings))
    masks = tuple(settings.masks) if settings is not None else ()
    preset = framework_masks(config.framework) if config is not None else ()
    if spec is None or view is None:
        return Comparison(tolerance, None, masks, preset)
    if chosen.threshold is not None or Tolerance.threshold_set(project, settings):
        return Comparison(tolerance, None, masks, preset)
    palette_of = tokens if tokens is not None else load_tokens(spec.tokens_path)
    if not palette_of.has_appearance(view.appearance):
        return Comparison(tolerance, None, masks, preset)
    measured = sensor_tolerance(palette_of.palette(view.appearance))
    return Comparison(replace(tolerance, threshold=measured.threshold), measured, masks, preset)
