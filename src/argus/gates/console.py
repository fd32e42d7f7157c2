"""console: uncaught page errors always fail; console errors fail above a configured count.

The outcome carries counts only, never message text: a page can write anything to its
console, and that text must not reach a verdict or a prompt as if it were ours.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Mapping
from typing import Any

from argus.errors import InputError
from argus.gates.base import Finding, GateInputs, GateOutcome, GateStatus, register_gate

# console.json locations are "url:line:column".
_LOCATION_SUFFIX = re.compile(r":\d+:\d+$")


def check_console(console: Mapping[str, Any], max_console_errors: int = 0) -> GateOutcome:
    """Judge console.json: every page error fails; console errors fail above the limit."""
    messages = console.get("messages", [])
    page_errors = console.get("page_errors", [])
    if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
        raise InputError("console.json: 'messages' must be a list of objects; re-sense the view")
    if not isinstance(page_errors, list):
        raise InputError("console.json: 'page_errors' must be a list; re-sense the view")
    levels: dict[str, int] = {}
    favicon = 0
    for message in messages:
        level = str(message.get("level", "log"))
        if level == "error" and is_missing_favicon(message):
            favicon += 1
            continue
        levels[level] = levels.get(level, 0) + 1
    errors = levels.get("error", 0)
    data = {
        "page_errors": len(page_errors),
        "console_errors": errors,
        "console_warnings": levels.get("warning", 0),
        "max_console_errors": max_console_errors,
        "ignored_favicon": favicon,
    }
    findings: list[Finding] = []
    if page_errors:
        findings.append(
            Finding(
                element="page",
                property="page_errors",
                value=str(len(page_errors)),
                expected="0",
                message=f"{len(page_errors)} uncaught page error(s) while rendering",
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
    summary = (
        f"{len(page_errors)} page error(s), {errors} console error(s) (max {max_console_errors})"
    )
    status = GateStatus.FAIL if findings else GateStatus.PASS
    return GateOutcome("console", status, summary, tuple(findings), data)


def is_missing_favicon(message: Mapping[str, Any]) -> bool:
    """Chromium's resource error for the ``/favicon.ico`` it asks every origin for by itself.

    A page that names no icon is not at fault when that implicit request fails; only this one
    message is forgiven (an icon the page links to elsewhere, or anything else logged against
    the favicon URL, still counts).
    """
    text = str(message.get("text", ""))
    if not text.startswith("Failed to load resource"):
        return False
    url = _LOCATION_SUFFIX.sub("", str(message.get("location", "")))
    return urllib.parse.urlsplit(url).path == "/favicon.ico"


@register_gate("console")
def console_gate(inputs: GateInputs) -> GateOutcome:
    if inputs.spec.adapter != "web" and not inputs.sensed.console.is_file():
        # console.json is optional in the adapter contract; a web view always has one.
        return GateOutcome(
            "console",
            GateStatus.SKIP,
            f"the {inputs.spec.adapter!r} adapter wrote no console.json",
        )
    return check_console(inputs.console, inputs.config.gates.max_console_errors)
