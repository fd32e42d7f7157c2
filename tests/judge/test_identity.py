"""One model, many names: the identity every independence check compares."""

from __future__ import annotations

import pytest

from argus.judge.identity import model_identity, same_model

EXECUTOR = "anthropic/claude-sonnet-4-5"


@pytest.mark.parametrize(
    "grader",
    [
        "claude-sonnet-4-5",
        "cursor/claude-sonnet-4-5",
        "claude-sonnet-4-5-20250929",
        "openrouter/anthropic/claude-sonnet-4.5",
        "bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "vertex_ai/claude-sonnet-4-5@20250929",
        "Claude-Sonnet-4-5:latest",
        "openrouter/anthropic/claude-sonnet-4.5:free",
    ],
)
def test_a_route_a_date_or_a_version_is_the_same_model(grader: str) -> None:
    assert same_model(EXECUTOR, grader)
    assert model_identity(grader) == "claude-sonnet-4-5"


@pytest.mark.parametrize(
    "grader", ["claude-opus-4-1", "openai/gpt-5", "claude-sonnet-4", "claude-haiku-4-5"]
)
def test_another_model_is_another_model(grader: str) -> None:
    assert not same_model(EXECUTOR, grader)


def test_an_empty_name_is_never_the_same_model() -> None:
    assert not same_model("", "") and not same_model(EXECUTOR, " ")
