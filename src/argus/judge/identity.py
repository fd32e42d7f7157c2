"""Model identity: whether two model names run the same model, whatever route names them.

One function decides it for every independence check Argus makes (the judge against the
implementer, a contract's graders against the executor): a provider or router prefix
(``anthropic/``, ``openrouter/anthropic/``, ``cursor/``, ``bedrock/us.anthropic.``), a snapshot
date (``-20250929``, ``@20240620``, ``-2024-08-06``), a Bedrock version (``-v1:0``), an alias
suffix (``-latest``, ``:latest``) or a router's price tag (``:free``, ``:beta``) do not make
another model; ``4.5`` and ``4-5`` are the same version.

    model_identity("cursor/claude-sonnet-4-5")          -> "claude-sonnet-4-5"
    same_model("anthropic/claude-sonnet-4-5", "claude-sonnet-4-5-20250929")   -> True
"""

from __future__ import annotations

import re

# Bedrock names a model "vendor.model-vN:M", optionally behind a region ("us.", "eu.", "apac.").
_BEDROCK = re.compile(
    r"^(?:(?:us|eu|apac|global)\.)?"
    r"(?:anthropic|amazon|meta|mistral|cohere|ai21|openai|deepseek|qwen)\.(.+?)"
    r"(?:-v\d+(?::\d+)?)?$"
)
_DATED = re.compile(r"[-@_](?:\d{8}|\d{4}-\d{2}-\d{2}|\d{6}|\d{4})$")  # -20250514, -2024-08-06
_ALIAS = re.compile(r"(?:[-:](?:latest|free|beta|extended|nitro|floor|online|thinking))+$")
_VERSION_TAG = re.compile(r"-v\d+:\d+$")  # "-v1:0" left after a router's path
_DOTTED = re.compile(r"(?<=\d)\.(?=\d)")  # 4.5 -> 4-5


def model_identity(model: str) -> str:
    """The model a name runs: lower case, without route, snapshot date, version or alias."""
    name = model.strip().lower().rsplit("/", 1)[-1]
    bedrock = _BEDROCK.match(name)
    if bedrock:
        name = bedrock.group(1)
    previous = None
    while previous != name:  # "x-latest-20250101" and "x-20250101:free" both come down to "x"
        previous = name
        name = _ALIAS.sub("", name)
        name = _DATED.sub("", name)
        name = _VERSION_TAG.sub("", name)
    return _DOTTED.sub("-", name)


def same_model(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` name the same model (both non-empty)."""
    return bool(a.strip()) and bool(b.strip()) and model_identity(a) == model_identity(b)
