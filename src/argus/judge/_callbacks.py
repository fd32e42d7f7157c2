"""LiteLLM's logging callbacks, switched on from the environment, so a model call Argus makes
(a judge, a review, an assertion) is traced by whatever the person has set up.

LiteLLM's Python client reads no environment variable to choose its callbacks: a program
sets ``litellm.success_callback`` (and the others) itself. Argus does it here, each time it
loads LiteLLM, and only adds: callbacks a program registered in-process are kept as they are.

- ``LANGFUSE_PUBLIC_KEY`` and ``LANGFUSE_SECRET_KEY`` both set: ``"langfuse"`` joins
  ``success_callback`` and ``failure_callback`` (LiteLLM's Langfuse logger then reads those
  keys and ``LANGFUSE_HOST``). Without the ``langfuse`` package LiteLLM would fail the call
  itself, so the call goes untraced instead, with one warning saying what to install.
- ``ARGUS_LITELLM_CALLBACKS``: a comma-separated list of LiteLLM's own callback names
  (``langsmith``, ``datadog``, ``opik`` …, each configured by its own environment); they join
  ``litellm.callbacks``. A name LiteLLM does not know is a ConfigError.

Usage and cost are still read from the response by ``usage_of``: tracing adds a copy
elsewhere, it never replaces the record in the run store.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from typing import Any

from argus.errors import ConfigError

LANGFUSE_KEYS = ("LANGFUSE_PUBLIC_KEY", "LANGFUSE_SECRET_KEY")
NAMES_ENV = "ARGUS_LITELLM_CALLBACKS"
_warned: set[str] = set()  # each warning once a process (LiteLLM is loaded again and again)


def _warn_once(line: str) -> None:
    if line not in _warned:
        _warned.add(line)
        print(f"argus: {line}", file=sys.stderr)


def _installed(package: str) -> bool:
    return importlib.util.find_spec(package) is not None


def _add(callbacks: list[Any], name: str) -> None:
    if name not in callbacks:
        callbacks.append(name)


def named_callbacks(litellm: Any) -> list[str]:
    """The names in ``ARGUS_LITELLM_CALLBACKS``, each one LiteLLM knows (else ConfigError)."""
    raw = os.environ.get(NAMES_ENV, "")
    names = [n.strip() for n in raw.split(",") if n.strip()]
    known = set(getattr(litellm, "_known_custom_logger_compatible_callbacks", ()))
    for name in names:
        if name not in known:
            raise ConfigError(
                f"{NAMES_ENV}: {name[:60]!r} is not a LiteLLM callback name; use one LiteLLM "
                "lists (e.g. langsmith, datadog, opik, langfuse)"
            )
    return names


def honour_callbacks(
    litellm: Any,
    *,
    installed: Callable[[str], bool] = _installed,
    warn: Callable[[str], None] = _warn_once,
) -> None:
    """Add the callbacks the environment asks for to ``litellm``'s lists (never remove any)."""
    langfuse = all(os.environ.get(key, "").strip() for key in LANGFUSE_KEYS)
    names = named_callbacks(litellm)
    if "langfuse" in names:
        names.remove("langfuse")
        langfuse = True
    if langfuse:
        if installed("langfuse"):
            _add(litellm.success_callback, "langfuse")
            _add(litellm.failure_callback, "langfuse")
        else:
            warn(
                "Langfuse keys are set but the langfuse package is not installed: "
                "pip install langfuse; model calls are not traced"
            )
    for name in names:
        _add(litellm.callbacks, name)
