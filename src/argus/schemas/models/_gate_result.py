"""The shape of gate-result.json: the deterministic floor's status per gate for one view."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StringConstraints

from argus.entrypoints import PLUGIN_NAME
from argus.schemas.models._base import Absent, Closed, Document
from argus.schemas.models._generate import Published

Status = Literal["pass", "fail", "skip", "error"]
# A built-in gate's name or an installed plug-in's (docs/plugins.md).
GateName = Annotated[str, StringConstraints(pattern=PLUGIN_NAME.pattern)]
Count = Annotated[int, Field(ge=0)]
Sha256 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]


class Inputs(Closed):
    """What the gates looked at: the sha256 of the view's render.png and probe.json (null when
    absent). The judge refuses a gate result that is not about the render it is given."""

    render_sha256: Sha256 | None = None
    probe_sha256: Sha256 | None = None


class IdCounts(Closed):
    status: Status | Absent = None
    expected: Count
    present: Count
    missing: list[str]


class Gates(Closed):
    """Status per gate: the built-ins below, and any installed plug-in's gate. 'skip': not
    configured or not applicable, ignored by all_green; 'error': the gate could not run, which
    is never green."""

    model_config = ConfigDict(
        extra="allow", json_schema_extra={"propertyNames": {"pattern": PLUGIN_NAME.pattern}}
    )
    __pydantic_extra__: dict[str, Status] = Field(init=False)  # a plug-in's gate

    token_contrast: Status | Absent = Field(
        default=None, description="WCAG contrast of the declared token pairs."
    )
    a11y_ids: Status | IdCounts | Absent = Field(
        default=None,
        description="The accessibility id contract: a status, or the counts with the missing ids.",
    )
    axe: Status | Absent = Field(default=None, description="axe-core audit of the rendered page.")
    console: Status | Absent = Field(
        default=None, description="Console errors and uncaught page errors while rendering."
    )
    rendered_contrast: Status | Absent = Field(
        default=None, description="Contrast of every visible text node as rendered."
    )
    token_compliance: Status | Absent = Field(
        default=None, description="Rendered colours and sizes against the design tokens."
    )
    source_tokens: Status | Absent = Field(
        default=None, description="Hard-coded colours or off-scale sizes in the feature's source."
    )
    snapshot: Literal["pass", "diff", "skip", "error", "new"] | Absent = Field(
        default=None,
        description="Comparison with the snapshot baseline; 'diff' means the render moved away "
        "from it; 'new' means there was none and this render, every other gate green, was "
        "written as the baseline.",
    )
    focus_visible: Status | Absent = Field(
        default=None,
        description="Each element the keyboard focus reaches visibly changes (WCAG 2.4.7).",
    )
    build: Status | Absent = None
    lint: Status | Absent = None
    type_check: Status | Absent = None
    flows: Status | Absent = Field(default=None, description="The project's functional flow tests.")
    tell_tales: Status | Absent = Field(
        default=None,
        description="Source code the implementer may edit that detects the sensor (webdriver "
        "flags, headless user agents, Argus's query parameters, the sensor's viewport).",
    )
    lighthouse: Status | Absent = Field(
        default=None, description="Lighthouse categories against their minimums (opt-in)."
    )


class Finding(Closed):
    """One offence: the element (id, data-testid or a short selector), the property, the value
    found and the nearest allowed one."""

    element: str
    property: str
    value: str
    expected: str | Absent = None
    message: str | Absent = None


class GateDetail(Closed):
    status: Literal["pass", "fail", "skip", "error", "diff", "new"] | Absent = None
    summary: str = Field(description="One line saying what the gate found.")
    findings: list[Finding] | Absent = None
    data: dict[str, Any] | Absent = Field(
        default=None, description="The gate's measurements (counts, ratios, ...)."
    )
    duration_ms: Annotated[float, Field(ge=0)] | Absent = None


class GateResultFile(Document):
    feature: str = Field(min_length=1)
    target: str = Field(min_length=1)
    state: str | Absent = None
    appearance: str | Absent = None
    iteration: Annotated[int, Field(ge=0)] | Absent = None
    created_at: str | Absent = Field(default=None, description="ISO 8601 time the gates finished.")
    inputs: Inputs | Absent = None
    gates: Gates
    all_green: bool = Field(
        description="No gate failed, errored or diffed and no contract id is missing. "
        "Recomputed by Argus."
    )
    details: dict[GateName, GateDetail] | Absent = Field(
        default=None, description="Evidence per gate, keyed by gate name."
    )


PUBLISHED = Published(
    GateResultFile,
    "Argus gate result (gate-result.json)",
    "The deterministic floor for one view: one status per gate. The judge is not run while "
    "all_green is false; Argus recomputes all_green from the statuses rather than trusting it.",
)
