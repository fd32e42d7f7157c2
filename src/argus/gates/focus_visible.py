"""focus_visible: every element the keyboard reaches shows that it has the focus (WCAG 2.4.7).

Reads the sensor's focus walk (focus.json, argus.sense.focus_visible): for each element Tab
reaches, the pixels around its box that change when it holds the focus, compared with the
render where nothing had it. An element whose surroundings do not change at all has no visible
focus indicator (``outline: none`` with no replacement): a finding. No walk (another sensor,
an adapter) is a skip that says so, never a pass; stops off the viewport are counted apart.
"""

from __future__ import annotations

from typing import Any

from argus.errors import InputError
from argus.gates._registry import register_gate
from argus.gates.base import Finding, GateInputs, GateOutcome, GateStatus
from argus.io import read_json
from argus.sense.result import FOCUS

MAX_FINDINGS = 50


def check_focus_visible(walk: dict[str, Any], source: str = FOCUS) -> GateOutcome:
    stops = walk.get("stops")
    if not isinstance(stops, list):
        raise InputError(f"{source}: 'stops' must be a list; re-sense the view")
    compared = [s for s in stops if isinstance(s, dict) and _measured(s.get("changed_pixels"))]
    invisible = [s for s in compared if s["changed_pixels"] == 0]
    data: dict[str, Any] = {
        "stops": len(stops),
        "compared": len(compared),
        "not_compared": len(stops) - len(compared),
        "invisible": len(invisible),
    }
    bounded = walk.get("bounded")
    if isinstance(bounded, dict):
        data["bounded"] = bounded
    if not compared:
        why = "no element takes the keyboard focus" if not stops else "no stop was on screen"
        return GateOutcome("focus_visible", GateStatus.SKIP, f"not measured: {why}", (), data)
    findings = tuple(
        Finding(
            element=_name(s),
            property="focus indicator",
            value="0 pixels change when focused",
            expected="a visible change (WCAG 2.4.7)",
            message=f"{_name(s)} shows no sign of holding the keyboard focus",
        )
        for s in invisible[:MAX_FINDINGS]
    )
    summary = f"{len(compared) - len(invisible)} of {len(compared)} focus stops visibly change"
    if data["not_compared"]:
        summary += f" ({data['not_compared']} off screen, not compared)"
    if isinstance(bounded, dict):
        summary += (
            f"; walk bounded on a page of {bounded.get('elements')} elements: it ended at the "
            "first stop that scrolled the page, later stops not visited"
        )
    status = GateStatus.FAIL if invisible else GateStatus.PASS
    return GateOutcome("focus_visible", status, summary, findings, data)


def _measured(changed: Any) -> bool:
    """A pixel count: a whole number from 0 (true, false or -1 is no measurement)."""
    return isinstance(changed, int) and not isinstance(changed, bool) and changed >= 0


def _name(stop: dict[str, Any]) -> str:
    if stop.get("id"):
        return f"#{stop['id']}"
    if stop.get("testid"):
        return f'[data-testid="{stop["testid"]}"]'
    box = stop.get("box") or {}
    return f"{stop.get('tag', 'element')} at ({box.get('x')}, {box.get('y')})"


def focus_visible_gate(inputs: GateInputs) -> GateOutcome:
    path = inputs.sensed.dir / FOCUS
    if not path.is_file():
        return GateOutcome(
            "focus_visible",
            GateStatus.SKIP,
            f"not measured: the sensor wrote no {FOCUS} (the web sensor walks the focus when "
            "this gate is configured; re-sense the view)",
        )
    walk = read_json(path, what="the focus walk")
    if not isinstance(walk, dict):
        raise InputError(f"{path}: must be a JSON object; re-sense the view")
    return check_focus_visible(walk, str(path))


# Registered by a call, not a decorator, so that mutation testing (mutmut skips decorated
# functions) reaches the gate's body.
register_gate("focus_visible", wcag="2.4.7 Focus Visible")(focus_visible_gate)
