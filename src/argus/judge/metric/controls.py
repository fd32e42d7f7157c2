"""Dead controls, for functional_correctness: what the sensor's dead-control probe found
(controls.json, argus.sense._controls), less the controls the spec declares inert.

A control whose activation changed nothing (no DOM mutation, focus move, URL, dialog, request,
new window, storage, clipboard or print) is a failed check, named by its selector; page text is
never quoted. Working controls alone add no check (they say nothing about what the spec asks
of them).

Only a whole probe result is read as one: ``unmeasured`` says why controls.json measured
nothing, and then no check is added and functional_correctness stays unverified (abstains,
naming the reason) unless other evidence fails it; never a silent pass. Unmeasured is:
- no controls.json in the packet (an older sense, a hand-built packet);
- a probe left out on purpose (meta.json's ``controls`` record, carried into the packet as
  ``{"ran": false, "why": ...}`` by argus.judge.assemble);
- a probe that ran but failed (``error``: the copy could not be brought to the view's state,
  a browser error, a timeout);
- a file that is not what the probe writes: a value of the wrong type, a version this judge
  does not read, ``capped`` that disagrees with ``found`` and ``limit``, fewer (or more)
  controls listed than it was to activate, a ``live`` control with no effect or a ``dead``
  one with some.
For a spec whose adapter is not ``web`` (a terminal or native UI: no page whose controls the
probe could activate) a probe that did not run does not apply, as axe does not; a file such an
adapter does write is read like any other. A file of another sense attempt or view never
reaches here: the packet is built only from a
view's last successful sense, every file hashed in its meta.json (argus.evidence.attempt).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeGuard

from argus.evidence.content import clip
from argus.judge.metric._context import MetricContext
from argus.spec.selectors import names_element

MAX_LISTED = 3
SELECTOR_CHARS = 60


def declared_inert(control: dict[str, Any], selectors: Sequence[str]) -> bool:
    """Whether a selector of the spec's ``inert`` names the control or one of its ancestors
    (the probe's ``chain``: the control first)."""
    chain = control.get("chain")
    links = [c for c in chain if isinstance(c, dict)] if isinstance(chain, list) else [control]
    return any(names_element(selector, link) for selector in selectors for link in links)


# What argus.sense._controls writes (not imported: the judge loads no browser code). Version 2
# adds ``ambient`` (what a click on the page's body did: its effects are no control's) and a
# control's ``not_counted``; version 1 files (an older sense) are read as they were.
CONTROLS_VERSION = 2
VERSIONS = (1, CONTROLS_VERSION)
TRIED = ("live", "dead")
OUTCOMES = (*TRIED, "not_found", "not_activated")


def _count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _names(ambient: object) -> bool:
    """Whether ``ambient`` is what the probe writes: measured or not, effects and requests."""
    if not isinstance(ambient, dict) or not isinstance(ambient.get("measured"), bool):
        return False
    lists = [ambient.get("effects"), ambient.get("requests")]
    return all(isinstance(v, list) and all(isinstance(e, str) for e in v) for v in lists)


def ambient_effects(data: dict[str, Any]) -> list[str]:
    """What a click on the page's body did (version 2): kinds, then its requests."""
    ambient = data.get("ambient")
    if not isinstance(ambient, dict) or not ambient.get("measured"):
        return []
    return [*ambient["effects"], *ambient["requests"]]


def _entry_fault(control: object) -> str | None:
    if not isinstance(control, dict):
        return "a control that is not an object"
    outcome, effects = control.get("outcome"), control.get("effects")
    if outcome not in OUTCOMES:
        return f"a control whose outcome is {clip(repr(outcome), 40)}"
    if not isinstance(effects, list) or not all(isinstance(e, str) for e in effects):
        return "a control whose effects are not a list of names"
    if outcome == "live" and not effects:
        return "a live control with no effect"
    if outcome != "live" and effects:
        return f"a {outcome} control with effects"
    if not isinstance(control.get("selector"), str):
        return "a control with no selector"
    return None


def _fault(data: dict[str, Any]) -> str | None:
    """What makes ``data`` other than a whole result of the probe; None when it is one."""
    version = data.get("version")
    if isinstance(version, bool) or version not in VERSIONS:
        return f"controls.json has version {clip(repr(version), 20)}, not 1 or 2"
    if version == CONTROLS_VERSION and not _names(data.get("ambient")):
        return "controls.json's ambient is not what a click on the page did"
    found, limit, capped = data.get("found"), data.get("limit"), data.get("capped")
    if not _count(found) or not _count(limit) or not isinstance(capped, bool):
        return "controls.json's found, limit and capped are not two counts and a yes or no"
    if capped != (found > limit):
        return f"controls.json says capped {capped} with {found} found and a limit of {limit}"
    controls = data.get("controls")
    if not isinstance(controls, list):
        return "controls.json's controls are not a list"
    if len(controls) != min(found, limit):
        return (
            f"controls.json lists {len(controls)} control(s) where the probe was to activate "
            f"{min(found, limit)}: a partial result"
        )
    for control in controls:
        fault = _entry_fault(control)
        if fault:
            return f"controls.json has {fault}"
    return None


def _applies(ctx: MetricContext) -> bool:
    """Whether the dead-control probe applies to the view: it activates a web page's
    controls; for a spec whose adapter is not ``web`` (a terminal or native UI) that did not
    run it, it does not, as axe does not (argus.judge.metric._accessibility)."""
    if ctx.adapter == "web":
        return True
    data = ctx.packet.json("controls") if ctx.packet.path("controls") is not None else None
    return not (data is None or (isinstance(data, dict) and data.get("ran") is False))


def _read(ctx: MetricContext) -> tuple[dict[str, Any] | None, str | None]:
    """controls.json when it is a whole probe result, else None and why dead controls were
    not measured (None too when the probe does not apply)."""
    if not _applies(ctx):
        return None, None
    if ctx.packet.path("controls") is None:
        return None, "the packet has no controls.json (the dead-control probe's result)"
    data = ctx.packet.json("controls")
    if isinstance(data, dict) and data.get("ran") is False:
        why = data.get("why")
        return (
            None,
            f"the dead-control probe did not run ({clip(str(why or 'no reason given'), 120)})",
        )
    if isinstance(data, dict) and "error" in data:
        error = data.get("error")
        said = error if isinstance(error, str) and error.strip() else "no reason given"
        return None, f"the dead-control probe failed ({clip(said, 120)})"
    if not isinstance(data, dict):
        return None, "controls.json is not a JSON object"
    fault = _fault(data)
    return (None, fault) if fault is not None else (data, None)


def unmeasured(ctx: MetricContext) -> str | None:
    """Why controls.json measured no dead controls for this view (the module's docstring);
    None when it is a whole result of the probe."""
    return _read(ctx)[1]


def dead_controls(ctx: MetricContext, numbers: dict[str, Any]) -> tuple[str, bool] | None:
    """A failed check naming the dead controls; None when there are none or nothing was
    measured (``unmeasured`` says why)."""
    data, why = _read(ctx)
    if data is None and why is None:
        numbers["controls"] = {"measured": False, "applies": False, "adapter": ctx.adapter}
        return None
    if data is None:
        numbers["controls"] = {"measured": False, "why": why}
        return None
    controls = data["controls"]
    inert = [str(s) for s in ctx.contract.get("inert") or []]
    tried = [c for c in controls if c["outcome"] in TRIED]
    excused = [c for c in tried if inert and declared_inert(c, inert)]
    dead = [c for c in tried if c["outcome"] == "dead" and c not in excused]
    found = data["found"]
    numbers["controls"] = {
        "measured": True,
        "found": found,
        "activated": len(tried),
        "dead": len(dead),
        "declared_inert": len(excused),
        "capped": data["capped"],
        # Not counted as any control's: what a click on the body did too (a click tracker).
        "ambient": ambient_effects(data),
    }
    if not dead:
        return None
    listed = ", ".join(clip(str(c["selector"]), SELECTOR_CHARS) for c in dead[:MAX_LISTED])
    more = f" and {len(dead) - MAX_LISTED} more" if len(dead) > MAX_LISTED else ""
    cap = ""
    if data["capped"]:
        cap = f" ({len(tried)} of {found} controls activated: [sense] max_controls)"
    return (
        f"{len(dead)} control(s) change nothing when activated (no DOM, focus, URL, dialog or "
        f"request): {listed}{more}{cap}; mark one the spec means to do nothing as inert",
        False,
    )
