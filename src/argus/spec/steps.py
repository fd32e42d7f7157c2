"""Interaction steps: how a spec state is reached after the page loads (a click, a fill ...).

The schema (the ``Step`` and ``Locator`` models in ``argus.schemas.models.spec_steps``) fixes
which fields each action needs; this module holds the frozen model built from a schema-valid
step and the one line that names a step in an error ("step 2 (click button 'Add habit')").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names live with the file's model; only a type here
    from argus.schemas.models.spec_steps import Action

DEFAULT_STEP_TIMEOUT_S = 5.0


@dataclass(frozen=True)
class Locator:
    """Exactly one of role (with an optional accessible name), testid, text or css."""

    role: str | None = None
    name: str | None = None
    testid: str | None = None
    text: str | None = None
    css: str | None = None
    exact: bool = False

    def describe(self) -> str:
        if self.role is not None:
            return self.role if self.name is None else f"{self.role} {self.name!r}"
        if self.testid is not None:
            return f"testid {self.testid!r}"
        if self.text is not None:
            return f"text {self.text!r}"
        return f"css {self.css!r}"


@dataclass(frozen=True)
class Step:
    action: Action
    locator: Locator | None = None
    value: str | None = None
    values: tuple[str, ...] = ()
    key: str | None = None
    text: str | None = None
    width: int | None = None
    height: int | None = None
    reduced_motion: str | None = None
    color_scheme: str | None = None
    timeout_s: float = DEFAULT_STEP_TIMEOUT_S

    def describe(self) -> str:
        """What the step does, in a few words (its typed text is not repeated)."""
        parts: list[str] = [self.action]
        if self.locator is not None:
            parts.append(self.locator.describe())
        if self.key is not None:
            parts.append(self.key)
        if self.text is not None:
            parts.append(repr(self.text))
        if self.width is not None:
            parts.append(f"{self.width}x{self.height}")
        if self.reduced_motion is not None:
            parts.append(f"reduced_motion={self.reduced_motion}")
        if self.color_scheme is not None:
            parts.append(f"color_scheme={self.color_scheme}")
        return " ".join(parts)


def parse_locator(raw: dict[str, Any]) -> Locator:
    return Locator(
        role=raw.get("role"),
        name=raw.get("name"),
        testid=raw.get("testid"),
        text=raw.get("text"),
        css=raw.get("css"),
        exact=bool(raw.get("exact", False)),
    )


def parse_step(raw: dict[str, Any]) -> Step:
    """The model of one schema-valid step."""
    locator = raw.get("locator")
    return Step(
        action=raw["action"],
        locator=None if locator is None else parse_locator(locator),
        value=raw.get("value"),
        values=tuple(raw.get("values", ())),
        key=raw.get("key"),
        text=raw.get("text"),
        width=raw.get("width"),
        height=raw.get("height"),
        reduced_motion=raw.get("reduced_motion"),
        color_scheme=raw.get("color_scheme"),
        timeout_s=float(raw.get("timeout_s", DEFAULT_STEP_TIMEOUT_S)),
    )


def parse_steps(raw: list[dict[str, Any]]) -> tuple[Step, ...]:
    return tuple(parse_step(item) for item in raw)
