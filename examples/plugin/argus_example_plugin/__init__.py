"""An example Argus plug-in: a gate and a judge backend, each with its own settings model.

``HEADING_COUNT`` and ``SIGNED_METRIC`` are published through this package's entry points
(pyproject.toml); Argus loads them like its own built-ins. docs/plugins.md walks through it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from argus.config import ProjectConfig
from argus.evidence.probe import parse_probe
from argus.gates import Finding, GateInputs, GateOutcome, GatePlugin, GateStatus
from argus.judge import Judge, JudgePlugin, Packet, get_judge


class HeadingCountSettings(BaseModel):
    """``[gates.heading_count]``: how many ``h1`` elements a view may show."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    max_h1: int = Field(default=1, ge=0)


def heading_count(inputs: GateInputs) -> GateOutcome:
    """Fail a view whose render shows more ``h1`` elements than ``max_h1``."""
    settings = HEADING_COUNT.settings_from(inputs.config)
    assert isinstance(settings, HeadingCountSettings)
    probe = parse_probe(inputs.probe)
    headings = [e for e in probe.elements if e.tag == "h1" and e.visible]
    summary = f"{len(headings)} h1 element(s), at most {settings.max_h1} allowed"
    if len(headings) <= settings.max_h1:
        return GateOutcome("heading_count", GateStatus.PASS, summary)
    findings = tuple(
        Finding(probe.selector(e), "h1", "present", f"at most {settings.max_h1}", "one too many")
        for e in headings[settings.max_h1 :]
    )
    return GateOutcome("heading_count", GateStatus.FAIL, summary, findings)


HEADING_COUNT = GatePlugin("heading_count", heading_count, settings=HeadingCountSettings)


class SignedMetricSettings(BaseModel):
    """``[judge.signed-metric]``: the words added to each dimension's evidence."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    signature: str = Field(default="checked by the example plug-in", min_length=1, max_length=80)


class SignedMetric:
    """Judges like Argus's metric judge and signs each dimension's evidence."""

    name = "signed-metric"
    model: str | None = None

    def __init__(self, config: ProjectConfig) -> None:
        settings = SIGNED_METRIC.settings_from(config)
        assert isinstance(settings, SignedMetricSettings)
        self.signature = settings.signature
        self.inner: Judge = get_judge("metric", config)

    def judge(self, packet: Packet) -> dict[str, Any]:
        verdict = self.inner.judge(packet)
        for dimension in verdict.get("dimensions", {}).values():
            dimension["evidence"] = f"{dimension.get('evidence', '')} ({self.signature})"
        return verdict


SIGNED_METRIC = JudgePlugin("signed-metric", SignedMetric, settings=SignedMetricSettings)
