"""LiteLLM's callbacks switched on from the environment, added beside what a program set."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from argus.errors import ConfigError
from argus.judge._callbacks import LANGFUSE_KEYS, NAMES_ENV, honour_callbacks


def fake_litellm(**lists: list[Any]) -> SimpleNamespace:
    return SimpleNamespace(
        success_callback=lists.get("success", []),
        failure_callback=lists.get("failure", []),
        callbacks=lists.get("callbacks", []),
        _known_custom_logger_compatible_callbacks=["langsmith", "datadog", "langfuse"],
    )


@pytest.fixture(autouse=True)
def _no_tracing_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in (*LANGFUSE_KEYS, NAMES_ENV):
        monkeypatch.delenv(key, raising=False)


def test_langfuse_keys_add_langfuse_to_success_and_failure_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LANGFUSE_PUBLIC_KEY", "pk-lf-1")
    monkeypatch.setenv("LANGFUSE_SECRET_KEY", "sk-lf-1")
    mine = object()
    litellm = fake_litellm(success=[mine])
    for _ in range(3):  # Argus loads LiteLLM again and again: never a second entry
        honour_callbacks(litellm, installed=lambda package: package == "langfuse")
    assert litellm.success_callback == [mine, "langfuse"], "a program's own callback is kept"
    assert litellm.failure_callback == ["langfuse"]
    assert litellm.callbacks == []


@pytest.mark.parametrize(
    "keys",
    [{}, {"LANGFUSE_PUBLIC_KEY": "pk"}, {"LANGFUSE_SECRET_KEY": "sk"},
     {"LANGFUSE_PUBLIC_KEY": "pk", "LANGFUSE_SECRET_KEY": "  "}],
)  # fmt: skip
def test_without_both_langfuse_keys_nothing_is_added(
    monkeypatch: pytest.MonkeyPatch, keys: dict[str, str]
) -> None:
    for key, value in keys.items():
        monkeypatch.setenv(key, value)
    litellm = fake_litellm()
    honour_callbacks(litellm, installed=lambda package: True)
    assert (litellm.success_callback, litellm.failure_callback, litellm.callbacks) == ([], [], [])


def test_langfuse_keys_without_the_package_warn_and_leave_the_call_untraced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LANGFUSE_PUBLIC_KEY", "pk")
    monkeypatch.setenv("LANGFUSE_SECRET_KEY", "sk")
    warnings: list[str] = []
    litellm = fake_litellm()
    honour_callbacks(litellm, installed=lambda package: False, warn=warnings.append)
    assert litellm.success_callback == [] and litellm.failure_callback == []
    assert warnings == [
        "Langfuse keys are set but the langfuse package is not installed: pip install "
        "langfuse; model calls are not traced"
    ]


def test_named_callbacks_join_litellm_callbacks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(NAMES_ENV, " langsmith , datadog,,langfuse")
    litellm = fake_litellm(callbacks=["langsmith"])
    honour_callbacks(litellm, installed=lambda package: True)
    assert litellm.callbacks == ["langsmith", "datadog"]
    assert litellm.success_callback == ["langfuse"], "langfuse by name is the Langfuse logger"


def test_a_name_litellm_does_not_know_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(NAMES_ENV, "langsmith,slack")
    litellm = fake_litellm()
    with pytest.raises(ConfigError, match=r"ARGUS_LITELLM_CALLBACKS: 'slack' is not a LiteLLM"):
        honour_callbacks(litellm, installed=lambda package: True)
    assert litellm.callbacks == [], "nothing is added from a list with a bad name"
