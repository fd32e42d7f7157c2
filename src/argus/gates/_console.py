"""console: uncaught page errors always fail; console errors fail above a configured count.

Which messages count is argus.console_policy's decision (the favicon rule, ignore patterns).

The outcome carries counts only, never message text: a page can write anything to its
console, and that text must not reach a verdict or a prompt as if it were ours.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from argus.config import ConsoleConfig
from argus.console_policy import ConsolePolicy
from argus.errors import InputError
from argus.gates._registry import register_gate
from argus.gates.base import Finding, GateInputs, GateOutcome, GateStatus


def check_console(
    console: Mapping[str, Any],
    max_console_errors: int = 0,
    policy: ConsolePolicy | None = None,
) -> GateOutcome:
    """Judge console.json: every page error fails; console errors fail above the limit.

    Which entries count is argus.console_policy's decision, shared with the metric judge and
    the referee.
    """
    # Both lists are required: a capture that lacks one recorded nothing, which is not zero.
    for key in ("messages", "page_errors"):
        if key not in console:
            raise InputError(
                f"console.json: no '{key}' list, so nothing was captured; re-sense the view"
            )
    counts = (policy or ConsolePolicy()).count(console)
    page_errors, errors = counts.page_errors, counts.console_errors
    data = {**counts.to_json(), "max_console_errors": max_console_errors}
    findings: list[Finding] = []
    if page_errors:
        findings.append(
            Finding(
                element="page",
                property="page_errors",
                value=str(page_errors),
                expected="0",
                message=f"{page_errors} uncaught page error(s) while rendering",
            )
        )
    if errors > max_console_errors:
        findings.append(
            Finding(
                element="page",
                property="console_errors",
                value=str(errors),
                expected=f"<= {max_console_errors}",
                message=f"{errors} console error(s), more than the {max_console_errors} allowed",
            )
        )
    summary = f"{page_errors} page error(s), {errors} console error(s) (max {max_console_errors})"
    ignored = counts.ignored_favicon + counts.ignored_by_pattern
    if ignored:
        summary += f"; {ignored} ignored by the console policy"
    status = GateStatus.FAIL if findings else GateStatus.PASS
    return GateOutcome("console", status, summary, tuple(findings), data)


def console_gate(inputs: GateInputs) -> GateOutcome:
    if inputs.spec.adapter != "web" and not inputs.sensed.console.is_file():
        # console.json is optional in the adapter contract; a web view always has one.
        return GateOutcome(
            "console",
            GateStatus.SKIP,
            f"the {inputs.spec.adapter!r} adapter wrote no console.json",
        )
    gates = inputs.config.gates
    return check_console(inputs.console, gates.max_console_errors, gates.console.policy())


# Registered by a call, not a decorator, so that mutation testing (mutmut skips decorated
# functions) reaches the gate's body.
register_gate("console", settings=ConsoleConfig)(console_gate)
