"""The interaction steps of a spec's target: how a state is reached before the capture."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field
from pydantic.config import JsonValue

from argus.schemas.models._base import Absent, Closed

Text = Annotated[str, Field(min_length=1)]
Pixels = Annotated[int, Field(ge=1, le=16384)]

Action = Literal[
    "click",
    "fill",
    "press",
    "hover",
    "focus",
    "select",
    "check",
    "uncheck",
    "scroll_into_view",
    "wait_for",
    "wait_for_text",
    "set_viewport",
    "emulate",
]

# What each action needs beside its name: keys it requires, and any one-of / any-of rule.
_NEEDS: dict[str, JsonValue] = {
    "click": {"required": ["locator"]},
    "fill": {"required": ["locator", "value"]},
    "press": {"required": ["key"]},
    "hover": {"required": ["locator"]},
    "focus": {"required": ["locator"]},
    "select": {
        "required": ["locator"],
        "oneOf": [{"required": ["value"]}, {"required": ["values"]}],
    },
    "check": {"required": ["locator"]},
    "uncheck": {"required": ["locator"]},
    "scroll_into_view": {"required": ["locator"]},
    "wait_for": {"required": ["locator"]},
    "wait_for_text": {"required": ["text"]},
    "set_viewport": {"required": ["width", "height"]},
    "emulate": {"anyOf": [{"required": ["reduced_motion"]}, {"required": ["color_scheme"]}]},
}
_STEP_RULES: list[JsonValue] = [
    {"if": {"properties": {"action": {"const": action}}, "required": ["action"]}, "then": needs}
    for action, needs in _NEEDS.items()
]


class Locator(Closed):
    """Which element a step acts on, as Playwright finds it: exactly one of role (with an
    optional accessible name), testid (data-testid), text or css. The locator must match
    exactly one element."""

    model_config = ConfigDict(
        json_schema_extra={
            "oneOf": [{"required": [key]} for key in ("role", "testid", "text", "css")],
            "dependentRequired": {"name": ["role"]},
        }
    )

    role: Text | Absent = Field(default=None, description="ARIA role, e.g. 'button' or 'dialog'.")
    name: Text | Absent = Field(default=None, description="Accessible name, with role only.")
    testid: Text | Absent = Field(default=None, description="The element's data-testid.")
    text: Text | Absent = Field(default=None, description="Visible text.")
    css: Text | Absent = Field(default=None, description="A CSS selector.")
    exact: bool = Field(
        default=False,
        description="Match name or text exactly (case and whole string) instead of as a "
        "case-insensitive substring.",
    )


class Step(Closed):
    """One interaction: Playwright's action on a located element, or a change to the page's
    emulation."""

    model_config = ConfigDict(json_schema_extra={"allOf": _STEP_RULES})

    action: Action = Field(
        description="click, fill (value), press (key; on the locator, else the focused "
        "element), hover, focus, select (value or values), check, uncheck, scroll_into_view, "
        "wait_for (the locator is visible), wait_for_text (text visible anywhere), set_viewport "
        "(width, height), emulate (reduced_motion and/or color_scheme)."
    )
    locator: Locator | Absent = None
    value: Annotated[str, Field(max_length=10000)] | Absent = Field(
        default=None, description="fill: the text typed; select: the option's value or label."
    )
    values: Annotated[list[str], Field(min_length=1)] | Absent = Field(
        default=None, description="select: several options of a multiple select."
    )
    key: Annotated[str, Field(min_length=1, max_length=64)] | Absent = Field(
        default=None,
        description="press: a key or chord as Playwright names it, e.g. 'Tab', 'Enter', "
        "'Shift+Tab'.",
    )
    text: Annotated[str, Field(min_length=1, max_length=1000)] | Absent = Field(
        default=None, description="wait_for_text: text that must become visible."
    )
    width: Pixels | Absent = None
    height: Pixels | Absent = None
    reduced_motion: Literal["reduce", "no-preference"] | Absent = None
    color_scheme: Literal["light", "dark", "no-preference"] | Absent = None
    timeout_s: Annotated[float, Field(gt=0, le=120)] | Absent = Field(
        default=None, description="How long the step may wait for its element; default 5 seconds."
    )
