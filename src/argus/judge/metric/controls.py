"""Dead controls, for functional_correctness: what the sensor's dead-control probe found
(controls.json, argus.sense.controls), less the controls the spec declares inert.

A control whose activation changed nothing (no DOM mutation, focus move, URL, dialog, request,
new window, storage, clipboard or print) is a failed check, named by its selector; page text is
never quoted. No controls.json (an adapter, an older sense) or a probe that could not run
measures nothing: the number is recorded and no check is added, as a clean probe adds none
either (working controls alone say nothing about what the spec asks of them).

A sense that left the probe out on purpose (a gates-only path: meta.json's ``controls`` record,
carried into the packet as ``{"ran": false, "why": ...}`` by argus.judge.assemble) is another
matter: nothing was looked for, so ``probe_not_run`` names it and functional_correctness stays
unverified (abstains) unless other evidence fails it; never a silent pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from argus.errors import InputError
from argus.evidence.content import clip
from argus.judge.metric.context import MetricContext
from argus.spec.selectors import names_element

MAX_LISTED = 3
SELECTOR_CHARS = 60


def declared_inert(control: dict[str, Any], selectors: Sequence[str]) -> bool:
    """Whether a selector of the spec's ``inert`` names the control or one of its ancestors
    (the probe's ``chain``: the control first)."""
    chain = control.get("chain")
    links = [c for c in chain if isinstance(c, dict)] if isinstance(chain, list) else [control]
    return any(names_element(selector, link) for selector in selectors for link in links)


def probe_not_run(ctx: MetricContext) -> str | None:
    """Why the dead-control probe did not run for this view; None when it ran or nothing says
    it did not (no controls.json at all keeps the older behaviour)."""
    data = ctx.optional_json("controls")
    if data is None or data.get("ran") is not False:
        return None
    return clip(str(data.get("why") or "no reason given"), SELECTOR_CHARS * 2)


def dead_controls(ctx: MetricContext, numbers: dict[str, Any]) -> tuple[str, bool] | None:
    """A failed check naming the dead controls; None when there are none or nothing ran."""
    data = ctx.optional_json("controls")
    if data is None:
        return None
    if data.get("ran") is False:
        numbers["controls"] = {"measured": False, "ran": False, "why": probe_not_run(ctx)}
        return None
    if data.get("error"):
        numbers["controls"] = {"measured": False}
        return None
    controls = data.get("controls")
    if not isinstance(controls, list):
        where = ctx.packet.require("controls")
        raise InputError(f"{where}: 'controls' must be a list; re-sense the view")
    inert = [str(s) for s in ctx.contract.get("inert") or []]
    tried = [c for c in controls if isinstance(c, dict) and c.get("outcome") in ("live", "dead")]
    excused = [c for c in tried if inert and declared_inert(c, inert)]
    dead = [c for c in tried if c.get("outcome") == "dead" and c not in excused]
    found = data.get("found")
    numbers["controls"] = {
        "measured": True,
        "found": found,
        "activated": len(tried),
        "dead": len(dead),
        "declared_inert": len(excused),
        "capped": data.get("capped") is True,
    }
    if not dead:
        return None
    listed = ", ".join(clip(str(c.get("selector", "?")), SELECTOR_CHARS) for c in dead[:MAX_LISTED])
    more = f" and {len(dead) - MAX_LISTED} more" if len(dead) > MAX_LISTED else ""
    cap = ""
    if data.get("capped") is True:
        cap = f" ({len(tried)} of {found} controls activated: [sense] max_controls)"
    return (
        f"{len(dead)} control(s) change nothing when activated (no DOM, focus, URL, dialog or "
        f"request): {listed}{more}{cap}; mark one the spec means to do nothing as inert",
        False,
    )
