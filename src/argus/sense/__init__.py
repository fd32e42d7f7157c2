"""Sensing: render one view in a browser (or an adapter script) and record what it saw.

    from argus.sense import Sensor, sense_view, sense_many, SenseResult

    with Sensor(config, controls=LOOP) as sensor:        # one warm browser for many views
        result = sensor.sense(spec, view, out_dir)       # SenseResult; failure is result.error
        results = sensor.sense_many(spec, views, out_root, workers=2)

Files written per view: render.png, probe.json, console.json, axe.json (when the axe gate is
enabled), controls.json (when the caller runs the dead-control probe: argus.sense.controls_choice)
and meta.json; see docs/sense.md. Playwright is imported only when a Sensor is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from argus.sense.browser import discover_browser, launch_args
from argus.sense.result import SenseResult
from argus.sense.truncate import MAX_TEXT, TRUNCATION_MARKER, truncate_probe, truncate_text
from argus.sense.views import ViewPlan, build_url, check_view, plan_view

if TYPE_CHECKING:
    from argus.sense.sensor import Sensor, sense_many, sense_view

__all__ = [
    "MAX_TEXT",
    "TRUNCATION_MARKER",
    "SenseResult",
    "Sensor",
    "ViewPlan",
    "build_url",
    "check_view",
    "discover_browser",
    "launch_args",
    "plan_view",
    "sense_many",
    "sense_view",
    "truncate_probe",
    "truncate_text",
]

_LAZY = {"Sensor", "sense_many", "sense_view"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from argus.sense import sensor

        return getattr(sensor, name)
    raise AttributeError(f"module 'argus.sense' has no attribute {name!r}")
