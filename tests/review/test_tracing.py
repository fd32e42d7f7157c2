"""A review's model call is traced by LiteLLM's callbacks (Langfuse or any other), through
LiteLLM's real client against the local stub server, and the event keeps usage and cost."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from argus.judge.llm import load_litellm
from tests.conftest import RunArgus
from tests.judge.stub_llm import StubLLM
from tests.review.test_cli import answer, review

CALLBACK_LISTS = (
    "callbacks",
    "input_callback",
    "success_callback",
    "failure_callback",
    "_async_success_callback",
    "_async_failure_callback",
    "service_callback",
)


class Traced:
    """What a LiteLLM callback saw: filled in by LiteLLM's logging thread."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.calls: list[dict[str, Any]] = []


@pytest.fixture
def traced() -> Iterator[Traced]:
    """A CustomLogger registered the way LiteLLM documents it (``litellm.callbacks``); every
    callback list LiteLLM copies it into is restored afterwards."""
    litellm = load_litellm()
    from litellm.integrations.custom_logger import CustomLogger

    saved = {name: list(getattr(litellm, name)) for name in CALLBACK_LISTS}
    seen = Traced()

    class Recorder(CustomLogger):  # type: ignore[misc]
        def log_success_event(
            self, kwargs: Any, response_obj: Any, start_time: Any, end_time: Any
        ) -> None:
            logged = kwargs.get("standard_logging_object") or {}
            seen.calls.append(
                {
                    "model": kwargs.get("model"),
                    "messages": kwargs.get("messages"),
                    "prompt_tokens": response_obj.usage.prompt_tokens,
                    "completion_tokens": response_obj.usage.completion_tokens,
                    "cost": logged.get("response_cost"),
                }
            )
            seen.done.set()

    litellm.callbacks.append(Recorder())
    yield seen
    for name, before in saved.items():  # in place: LiteLLM's modules hold these very lists
        getattr(litellm, name)[:] = before


def test_a_registered_callback_traces_the_review_call_and_the_event_keeps_usage(
    run_argus: RunArgus,
    habits: Path,
    stub: StubLLM,
    traced: Traced,
) -> None:
    stub.queue(content=answer(verdict="partial", confidence=0.7))
    done = review(run_argus, habits, stub, "--json")
    assert done.returncode == 0, done.stderr
    assert traced.done.wait(30), "LiteLLM never called the registered callback"
    (call,) = traced.calls
    assert call["model"] == "stub-reasoner"
    assert "### Acceptance" in call["messages"][1]["content"], "the review's own prompt"
    usage = json.loads(done.stdout)["payload"]["usage"]
    assert (
        (usage["input_tokens"], usage["output_tokens"])
        == (
            call["prompt_tokens"],
            call["completion_tokens"],
        )
        == (120, 30)
    )
    assert "cost_usd" in usage and usage["cached"] is False


def test_langfuse_keys_without_langfuse_installed_leave_the_review_untraced_not_lost(
    run_argus: RunArgus,
    habits: Path,
    stub: StubLLM,
    traced: Traced,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("argus.judge._callbacks._installed", lambda package: False)
    monkeypatch.setattr("argus.judge._callbacks._warned", set())
    stub.queue(content=answer())
    monkeypatch.setenv("LANGFUSE_PUBLIC_KEY", "pk-lf-test")
    monkeypatch.setenv("LANGFUSE_SECRET_KEY", "sk-lf-test")
    done = review(run_argus, habits, stub)
    assert done.returncode == 0, done.stderr
    assert "flag info" in done.stdout
    assert "the langfuse package is not installed: pip install langfuse" in done.stderr
    assert "langfuse" not in load_litellm().success_callback


def test_an_unknown_callback_name_is_bad_input_before_any_call(
    run_argus: RunArgus,
    habits: Path,
    stub: StubLLM,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ARGUS_LITELLM_CALLBACKS", "no-such-tracer")
    done = review(run_argus, habits, stub)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "ARGUS_LITELLM_CALLBACKS: 'no-such-tracer' is not a LiteLLM callback" in done.stderr
    assert not stub.requests
