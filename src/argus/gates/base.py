"""What every gate shares: its inputs and its outcome (argus.gates._registry names the gates).

A gate is a function ``(GateInputs) -> GateOutcome``. A red gate is data (status ``fail``
with findings naming the offending elements); an exception means the gate could not run, and
the runner turns it into status ``error``. Nothing a caller says about a gate's status is ever
trusted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argus.errors import InputError
from argus.evidence.content import clip, defuse
from argus.io import read_json

if TYPE_CHECKING:
    from argus.config import ProjectConfig
    from argus.spec import Spec, Target, View
    from argus.tokens import Tokens


class GateStatus(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    SKIP = "skip"
    ERROR = "error"
    DIFF = "diff"  # snapshot only: the render moved away from its baseline
    NEW = "new"  # snapshot only: no baseline existed; this (green) render was written as it


# What one field of a finding may hold: a page-set id or name is cut to this.
MAX_FINDING_CHARS = 256


@dataclass(frozen=True)
class Finding:
    """One offence: which element, which property, what it was, what it should be."""

    element: str
    property: str
    value: str
    expected: str = ""
    message: str = ""

    def __post_init__(self) -> None:
        # Element ids, names, selectors and text are set by the page under test: page content
        # is data, so each is cut to MAX_FINDING_CHARS and any fence tag in it is defused.
        for name in ("element", "property", "value", "expected", "message"):
            text = getattr(self, name)
            if isinstance(text, str):
                object.__setattr__(self, name, clip(defuse(text), MAX_FINDING_CHARS))

    def to_json(self) -> dict[str, str]:
        return {
            "element": self.element,
            "property": self.property,
            "value": self.value,
            "expected": self.expected,
            "message": self.message,
        }


@dataclass(frozen=True)
class GateOutcome:
    name: str
    status: GateStatus
    summary: str
    findings: tuple[Finding, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "summary": self.summary,
            "findings": [f.to_json() for f in self.findings],
            "data": dict(self.data),
        }


@dataclass(frozen=True)
class SensedFiles:
    """The files a sensor wrote for one view (see docs/internals.md)."""

    dir: Path

    @property
    def render(self) -> Path:
        return self.dir / "render.png"

    @property
    def probe(self) -> Path:
        return self.dir / "probe.json"

    @property
    def console(self) -> Path:
        return self.dir / "console.json"

    @property
    def axe(self) -> Path:
        return self.dir / "axe.json"

    @property
    def meta(self) -> Path:
        return self.dir / "meta.json"


@dataclass(frozen=True)
class GateInputs:
    """Everything a gate may look at for one view. Sensed JSON is read once and shared."""

    spec: Spec
    target: Target
    view: View
    tokens: Tokens
    sensed: SensedFiles
    run_dir: Path
    config: ProjectConfig
    root: Path

    @cached_property
    def probe(self) -> dict[str, Any]:
        return _read_object(self.sensed.probe, "probe.json")

    @cached_property
    def console(self) -> dict[str, Any]:
        return _read_object(self.sensed.console, "console.json")

    @cached_property
    def axe(self) -> dict[str, Any]:
        return _read_object(self.sensed.axe, "axe.json")

    @cached_property
    def meta(self) -> dict[str, Any]:
        if not self.sensed.meta.is_file():
            return {}
        return _read_object(self.sensed.meta, "meta.json")


def adapter_probe_without_elements(inputs: GateInputs) -> bool:
    """True for a non-web adapter whose probe has no ``elements`` list.

    The adapter contract lets a probe have any shape; a gate that reads the web probe's element
    list skips such a view instead of failing it. A web view's probe always has the list, so
    there a missing one stays an error.
    """
    return inputs.spec.adapter != "web" and not isinstance(inputs.probe.get("elements"), list)


def skip_for_adapter_probe(inputs: GateInputs, gate: str) -> GateOutcome:
    return GateOutcome(
        gate,
        GateStatus.SKIP,
        f"the {inputs.spec.adapter!r} adapter's probe has no 'elements' list "
        "(docs/sense.md, adapter contract), so there is nothing for this gate to read",
    )


def _read_object(path: Path, what: str) -> dict[str, Any]:
    if not path.is_file():
        raise InputError(f"{path}: {what} not found; sense the view first (argus sense)")
    data = read_json(path, what=what)
    if not isinstance(data, dict):
        raise InputError(f"{path}: {what} must be a JSON object; re-sense the view")
    return data


Gate = Callable[[GateInputs], GateOutcome]
