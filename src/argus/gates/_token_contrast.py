"""token_contrast: WCAG contrast of the design system's declared fg/bg token pairs.

A thin wrapper over argus.tokens.contrast.check_pairs (every declared pair, every appearance, as
the seed's gate does): the declared palette must hold up before any render is looked at.
"""

from __future__ import annotations

from pathlib import Path

from argus.gates._registry import register_gate
from argus.gates.base import Finding, GateInputs, GateOutcome, GateStatus
from argus.tokens import Tokens
from argus.tokens.contrast import ContrastReport, check_pairs


def check_token_contrast(tokens: Tokens, pairs_path: Path) -> GateOutcome:
    report: ContrastReport = check_pairs(tokens, pairs_path)
    findings = tuple(
        Finding(
            element=f"{row.fg} on {row.bg}",
            property=f"contrast ({row.appearance})",
            value=f"{row.ratio:.2f}:1",
            expected=f">= {row.minimum:g}:1",
            message=f"declared pair {row.fg}/{row.bg} is below its minimum in {row.appearance}",
        )
        for row in report.failures
    )
    whitelisted = sum(1 for row in report.rows if row.status == "whitelisted")
    summary = (
        f"{len(report.failures)} of {len(report.rows)} declared pair(s) below their minimum"
        + (f", {whitelisted} whitelisted" if whitelisted else "")
    )
    status = GateStatus.PASS if report.passed else GateStatus.FAIL
    return GateOutcome("token_contrast", status, summary, findings, report.as_json())


def token_contrast_gate(inputs: GateInputs) -> GateOutcome:
    pairs = inputs.spec.contrast_pairs_path
    if pairs is None:
        return GateOutcome(
            "token_contrast", GateStatus.SKIP, "the spec declares no contrast_pairs file"
        )
    return check_token_contrast(inputs.tokens, pairs)


# Registered by a call, not a decorator, so that mutation testing (mutmut skips decorated
# functions) reaches the gate's body.
register_gate("token_contrast", wcag="1.4.3 Contrast (Minimum), for the declared token pairs")(
    token_contrast_gate
)
