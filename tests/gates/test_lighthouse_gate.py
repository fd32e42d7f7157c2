"""The opt-in lighthouse gate on a recorded report: Lighthouse, the browser and the web server
replaced by fakes (the real run is in tests/lighthouse/test_run.py, a browser test)."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import argus.lighthouse.run
import argus.sense.browser
import argus.sense.server
from argus.gates._lighthouse import lighthouse_gate
from argus.gates.base import GateInputs, GateOutcome, GateStatus
from argus.sense.views import plan_view

MakeInputs = Callable[..., GateInputs]


def report(**scores: Any) -> dict[str, Any]:
    """A Lighthouse report with the given category scores (0..1); ``best_practices`` is
    written ``best-practices``."""
    return {"categories": {name.replace("_", "-"): {"score": s} for name, s in scores.items()}}


@pytest.fixture
def gate(
    habits_inputs: MakeInputs, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., tuple[GateOutcome, dict[str, Any]]]:
    """run(report, **minimums) -> (outcome, what the fakes were called with)."""

    def run(recorded: Any, **minimums: float) -> tuple[GateOutcome, dict[str, Any]]:
        inputs = habits_inputs()
        section = inputs.config.gates.lighthouse.model_copy(update={"timeout": 77.0, **minimums})
        gates = inputs.config.gates.model_copy(update={"lighthouse": section})
        inputs = dataclasses.replace(
            inputs, config=inputs.config.model_copy(update={"gates": gates})
        )
        calls: dict[str, Any] = {"server": []}

        def fake_lighthouse(url: str, **kwargs: Any) -> Any:
            calls.update(kwargs, url=url, server_up=list(calls["server"]))
            return recorded

        @contextlib.contextmanager
        def fake_server(config: Any, root: Path | None = None, spec: Any = None) -> Iterator[None]:
            calls["server"].append((config, root, spec))
            yield None
            calls["server"].clear()

        monkeypatch.setattr(argus.lighthouse.run, "run_lighthouse", fake_lighthouse)

        def fake_browser(config: Any) -> str:
            calls["browser_config"] = config
            return "/x/chromium"

        monkeypatch.setattr(argus.sense.browser, "discover_browser", fake_browser)
        monkeypatch.setattr(argus.sense.server, "web_server", fake_server)
        calls["inputs"] = inputs
        return lighthouse_gate(inputs), calls

    return run


def by_category(outcome: GateOutcome) -> dict[str, tuple[str, str]]:
    # Each finding's message names the category's minimum (and its score, when it has one).
    for f in outcome.findings:
        assert f.expected.removeprefix(">= ") in f.message
        if f.value not in ("missing", "invalid"):
            assert f.value in f.message
    return {f.property: (f.value, f.expected) for f in outcome.findings}


def test_every_category_at_its_minimum_passes(gate) -> None:
    outcome, calls = gate(report(accessibility=0.9, performance=0.8, best_practices=0.8, seo=0.8))
    assert outcome.name == "lighthouse"
    assert outcome.status is GateStatus.PASS
    assert outcome.findings == ()
    assert outcome.data == {
        "categories": [
            {"category": "accessibility", "status": "pass", "score": 90.0, "minimum": 90.0},
            {"category": "performance", "status": "pass", "score": 80.0, "minimum": 80.0},
            {"category": "best-practices", "status": "pass", "score": 80.0, "minimum": 80.0},
            {"category": "seo", "status": "pass", "score": 80.0, "minimum": 80.0},
        ],
        "next_action": None,
    }
    assert "accessibility 90.0" in outcome.summary
    # Lighthouse ran on the view's URL, with the discovered browser, while the server was up,
    # writing lighthouse.json into the view's run directory, with the configured timeout.
    inputs = calls["inputs"]
    assert calls["url"] == plan_view(inputs.spec, inputs.view, inputs.config).url
    assert calls["browser"] == "/x/chromium"
    assert calls["out"] == inputs.run_dir / "lighthouse.json"
    assert calls["timeout_s"] == 77.0
    # The project's own browser setting and web server (started in the repository root, with
    # the spec whose a11y contract proves a reused server is the app's).
    assert calls["browser_config"] is inputs.config
    assert calls["server_up"] == [(inputs.config, inputs.root, inputs.spec)]


def test_a_category_under_its_minimum_fails_naming_it(gate) -> None:
    outcome, _ = gate(
        report(accessibility=0.89, performance=0.5, best_practices=1, seo=1), performance=60.0
    )
    assert outcome.status is GateStatus.FAIL
    assert by_category(outcome) == {
        "accessibility": ("89", ">= 90"),
        "performance": ("50", ">= 60"),
    }
    assert all(f.element == "page" for f in outcome.findings)
    assert outcome.data["next_action"] == "improve-accessibility"


def test_an_invalid_score_is_an_error_never_a_pass(gate) -> None:
    outcome, _ = gate(report(accessibility=1.5, performance=1, best_practices=1, seo=1))
    assert outcome.status is GateStatus.ERROR
    assert by_category(outcome) == {"accessibility": ("invalid", ">= 90")}
    assert "performance 100.0" in outcome.summary
    assert "accessibility -" in outcome.summary  # no score is shown for it


def test_a_category_missing_from_the_report_is_an_error(gate) -> None:
    outcome, _ = gate(report(accessibility=1, performance=1, best_practices=1))
    assert outcome.status is GateStatus.ERROR
    assert by_category(outcome) == {"seo": ("missing", ">= 80")}
    assert outcome.data["categories"][3] == {
        "category": "seo",
        "status": "not_captured",
        "score": None,
        "minimum": 80.0,
    }


@pytest.mark.parametrize("recorded", [{}, {"categories": {}}, [], None])
def test_a_report_without_any_category_is_an_error(gate, recorded: Any) -> None:
    outcome, _ = gate(recorded)
    assert outcome.name == "lighthouse"
    assert outcome.status is GateStatus.ERROR
    assert outcome.findings == ()


def test_an_adapter_view_is_skipped(habits_inputs: MakeInputs) -> None:
    inputs = habits_inputs()
    inputs = dataclasses.replace(inputs, spec=dataclasses.replace(inputs.spec, adapter="ios"))
    outcome = lighthouse_gate(inputs)
    assert outcome.name == "lighthouse"
    assert outcome.status is GateStatus.SKIP
