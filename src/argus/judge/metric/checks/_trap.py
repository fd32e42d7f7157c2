"""focus_trap: where Tab goes from inside a region.

The web sensor focuses the spec's ``from`` control (else keeps the focus the state left), then
presses Tab ``presses`` times and records, for each stop, whether the focused element is inside
the region (probe.json ``focus_trap``, read in an isolated world). A region that must trap (a
modal dialog) keeps every stop inside; a region that must not trap lets Tab leave it at least
once. A walk nobody recorded, or one that started outside the region, fails the check: the
trap was not measured, and that is never a pass.
"""

from __future__ import annotations

from typing import Any

Check = tuple[str, bool]


def trap_check(probe: dict[str, Any], entry: dict[str, Any], numbers: dict[str, Any]) -> Check:
    region, traps = str(entry["region"]), bool(entry["traps"])
    walk = probe.get("focus_trap")
    what = "keeps the focus" if traps else "lets Tab leave"
    if not isinstance(walk, dict) or walk.get("region") != region:
        return (f"whether {region!r} {what} was not measured (the probe has no focus walk)", False)
    stops = walk.get("stops")
    if not isinstance(stops, list) or len(stops) < 2:
        return (f"whether {region!r} {what} was not measured (no Tab was recorded)", False)
    inside = [isinstance(s, dict) and s.get("inside") is True for s in stops]
    numbers["focus_trap"] = {"region": region, "traps": traps, "inside": inside}
    if not inside[0]:
        return (
            f"the focus walk did not start inside {region!r}, so its trap was not measured",
            False,
        )
    left = inside.index(False) if False in inside else None
    if traps and left is not None:
        return (f"Tab {left} leaves {region!r}, which must keep the focus", False)
    if not traps and left is None:
        return (
            f"focus stays in {region!r} for {len(stops) - 1} Tab presses: a focus trap",
            False,
        )
    if traps:
        return (f"{region!r} keeps the focus for {len(stops) - 1} Tab presses", True)
    return (f"Tab {left} leaves {region!r}", True)
