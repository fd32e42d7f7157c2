from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from argus.config import ConsoleConfig
from argus.console_policy import ConsolePolicy
from argus.errors import InputError
from argus.gates._console import check_console, console_gate
from argus.gates.base import GateInputs, GateStatus

SECRET = "token=hunter2 do-what-I-say"


@pytest.mark.parametrize(
    ("console", "limit", "status"),
    [
        ({"messages": [], "page_errors": []}, 0, GateStatus.PASS),
        ({"messages": [{"level": "warning", "text": "w"}], "page_errors": []}, 0, GateStatus.PASS),
        ({"messages": [{"level": "error", "text": SECRET}], "page_errors": []}, 0, GateStatus.FAIL),
        ({"messages": [{"level": "error", "text": SECRET}], "page_errors": []}, 1, GateStatus.PASS),
        (
            {"messages": [{"level": "error", "text": "a"}] * 2, "page_errors": []},
            1,
            GateStatus.FAIL,
        ),
        # An uncaught page error fails whatever the console-error allowance.
        ({"messages": [], "page_errors": [{"text": SECRET}]}, 5, GateStatus.FAIL),
    ],
)
def test_console_status(console: dict, limit: int, status: GateStatus) -> None:
    assert check_console(console, limit).status is status


def test_outcome_carries_counts_never_text() -> None:
    outcome = check_console(
        {
            "messages": [{"level": "error", "text": SECRET, "location": "x.js:1:1"}],
            "page_errors": [{"text": SECRET}],
        }
    )
    assert outcome.data["console_errors"] == 1
    assert outcome.data["page_errors"] == 1
    assert {f.property for f in outcome.findings} == {"page_errors", "console_errors"}
    assert "hunter2" not in json.dumps(outcome.to_json())


@pytest.mark.parametrize(
    "console", [{"messages": "oops"}, {"messages": ["text"]}, {"page_errors": {}}]
)
def test_malformed_console_json_is_an_input_error(console: dict) -> None:
    with pytest.raises(InputError, match=r"console\.json"):
        check_console(console)


NOT_FOUND = "Failed to load resource: the server responded with a status of 404 (File not found)"


def resource_error(location: str, text: str = NOT_FOUND) -> dict:
    return {"messages": [{"level": "error", "text": text, "location": location}], "page_errors": []}


@pytest.mark.parametrize(
    ("console", "status"),
    [
        # Chromium asks every page's origin for /favicon.ico; a page without one is no fault.
        (resource_error("http://127.0.0.1:8765/favicon.ico:0:0"), GateStatus.PASS),
        (resource_error("https://app.example/favicon.ico:0:0"), GateStatus.PASS),
        # Any other missing resource is a fault, an icon the page names included.
        (resource_error("http://127.0.0.1:8765/missing.png:0:0"), GateStatus.FAIL),
        (resource_error("http://127.0.0.1:8765/img/favicon.ico:0:0"), GateStatus.FAIL),
        (resource_error("http://127.0.0.1:8765/favicon.ico.js:0:0"), GateStatus.FAIL),
        # Only the resource error is forgiven, not whatever else the favicon URL logs.
        (resource_error("http://127.0.0.1:8765/favicon.ico:0:0", "boom"), GateStatus.FAIL),
    ],
)
def test_the_implicit_favicon_request_is_not_a_console_error(console: dict, status) -> None:
    outcome = check_console(console)
    assert outcome.status is status
    if status is GateStatus.PASS:
        assert outcome.data["console_errors"] == 0 and outcome.data["ignored_favicon"] == 1


def test_findings_name_the_page_with_each_count_and_its_allowance() -> None:
    console = {
        "messages": [{"level": "error", "text": "a"}] * 3,
        "page_errors": [{"text": "x"}, {"text": "y"}],
    }
    outcome = check_console(console, 2)
    assert outcome.name == "console"
    assert [(f.element, f.property, f.value, f.expected) for f in outcome.findings] == [
        ("page", "page_errors", "2", "0"),
        ("page", "console_errors", "3", "<= 2"),
    ]
    assert all(f.message for f in outcome.findings)
    assert outcome.data == {
        "page_errors": 2,
        "console_errors": 3,
        "console_warnings": 0,
        "ignored_favicon": 0,
        "ignored_by_pattern": 0,
        "max_console_errors": 2,
    }


def test_a_clean_console_is_named_and_summarised_with_its_counts() -> None:
    outcome = check_console({"messages": [], "page_errors": []}, 4)
    assert (outcome.name, outcome.status, outcome.findings) == ("console", GateStatus.PASS, ())
    assert outcome.data["max_console_errors"] == 4
    assert [int(n) for n in re.findall(r"\d+", outcome.summary)] == [0, 0, 4]


def test_the_summary_counts_everything_the_policy_ignored() -> None:
    favicon = resource_error("http://127.0.0.1:8765/favicon.ico:0:0")["messages"][0]
    widget = {"level": "error", "text": "widget.js exploded", "location": "cdn/widget.js:1:1"}
    console = {"messages": [favicon, favicon, widget, {"level": "error", "text": "a"}]}
    console["page_errors"] = []
    outcome = check_console(console, 1, ConsolePolicy.from_patterns(["widget"]))
    assert outcome.status is GateStatus.PASS
    assert (outcome.data["ignored_favicon"], outcome.data["ignored_by_pattern"]) == (2, 1)
    # page errors, console errors, the allowance, then everything ignored (2 + 1)
    assert [int(n) for n in re.findall(r"\d+", outcome.summary)] == [0, 1, 1, 3]


def settings(inputs: GateInputs, adapter: str = "web", **gates: Any) -> GateInputs:
    """The inputs with another adapter and other [gates] settings."""
    config = inputs.config.model_copy(
        update={"gates": inputs.config.gates.model_copy(update=gates)}
    )
    return replace(inputs, spec=replace(inputs.spec, adapter=adapter), config=config)


ONE_ERROR = {"messages": [{"level": "error", "text": "widget failed"}], "page_errors": []}


def test_the_gate_judges_the_capture_with_the_projects_allowance_and_policy(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    inputs = habits_inputs(console=ONE_ERROR)
    outcome = console_gate(settings(inputs, max_console_errors=0))
    assert (outcome.name, outcome.status) == ("console", GateStatus.FAIL)
    allowed = console_gate(settings(inputs, max_console_errors=1))
    assert allowed.status is GateStatus.PASS and allowed.data["max_console_errors"] == 1
    policy = ConsoleConfig(ignore=["widget"])
    ignored = console_gate(settings(inputs, max_console_errors=0, console=policy))
    assert ignored.status is GateStatus.PASS and ignored.data["ignored_by_pattern"] == 1


def test_a_web_view_needs_its_console_capture_an_adapters_may_lack_it(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    inputs = habits_inputs()
    with pytest.raises(InputError, match=r"console\.json"):
        console_gate(inputs)
    skipped = console_gate(settings(inputs, adapter="ios"))
    assert (skipped.name, skipped.status, skipped.data) == ("console", GateStatus.SKIP, {})
    # an adapter that did write one is judged on it
    written = habits_inputs(console=ONE_ERROR)
    assert console_gate(settings(written, adapter="ios")).status is GateStatus.FAIL
