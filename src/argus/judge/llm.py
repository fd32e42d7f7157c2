"""The ``litellm`` judge: any vision model LiteLLM can reach, told our versioned instructions.

One request asks for the rubric's dimensions (strict JSON: a ``json_schema`` response format
where LiteLLM says the provider supports it, otherwise the answer is parsed and validated
here). When a reference and a previous render exist, two more requests ask which of the two
renders is closer to the reference, once in each order: single-order pairwise judging is
position-biased, so only an answer that survives the swap counts; otherwise it is null.

Transport failures (connection, timeout, HTTP 429 and 5xx) are retried a bounded number of
times with backoff; any other error, and a malformed answer, are not retried here (the judge
flow retries a malformed answer once). Every validated answer is cached by content hash, so an
identical packet is never sent twice. Tokens and cost are recorded (cost null when LiteLLM
does not know the model's price), and so are the model requested and the model the provider
says answered (a fallback or a dated snapshot may differ from the one asked for).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.config import ProjectConfig
from argus.errors import ConfigError, JudgeError
from argus.evidence.content import clip
from argus.judge._callbacks import honour_callbacks
from argus.judge.answer import check_schema, dimension_entries, parse_json_object
from argus.judge.base import MalformedAnswer, require_independent
from argus.judge.cache import AnswerCache, cache_key
from argus.judge.packet import Packet
from argus.judge.prompt import (
    RANK_SCHEMA,
    Prompt,
    answer_schema,
    judge_prompt,
    prompt_version,
    rank_prompt,
)
from argus.schemas import Rubric, load_rubric

ATTEMPTS = 3  # one request and up to two retries, for transport failures only
BACKOFF_SECONDS = (1.0, 3.0)
TRANSPORT_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})


def load_litellm() -> Any:
    """Import LiteLLM on first use (it is an optional extra and slow to import)."""
    # LiteLLM fetches a price list over the network at import unless told to use its own copy.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        import litellm
    except ImportError as exc:
        raise ConfigError(
            "the litellm judge needs LiteLLM: pip install 'argus-ui[llm]' "
            "(or choose another judge.backend)"
        ) from exc
    litellm.suppress_debug_info = True
    honour_callbacks(litellm)  # Langfuse and other tracing, when the environment asks for it
    return litellm


@dataclass(frozen=True)
class Usage:
    """What one call (or a sum of calls) cost, and which model was asked and which answered."""

    input_tokens: int | None = 0
    output_tokens: int | None = 0
    cost_usd: float | None = 0.0
    cached: bool = True
    model_requested: str | None = None  # None: no call was made (every answer was cached)
    model_actual: str | None = None  # as the provider's answer names it; None if it names none

    def __add__(self, other: Usage) -> Usage:
        def add(a: Any, b: Any) -> Any:
            return None if a is None or b is None else a + b

        return Usage(
            add(self.input_tokens, other.input_tokens),
            add(self.output_tokens, other.output_tokens),
            add(self.cost_usd, other.cost_usd),
            self.cached and other.cached,
            _both(self.model_requested, other.model_requested),
            _both(self.model_actual, other.model_actual),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost_usd": self.cost_usd,
            "cached": self.cached,
            "model_requested": self.model_requested,
            "model_actual": self.model_actual,
        }


def _both(a: str | None, b: str | None) -> str | None:
    """The models of two sums of calls: each name once, in order (", "-separated)."""
    names = [n for part in (a, b) if part for n in part.split(", ")]
    return ", ".join(dict.fromkeys(names)) or None


def answered_model(response: Any) -> str | None:
    """The model the provider says produced ``response`` (LiteLLM keeps the answer's
    ``model``); None when the answer names none. Clipped: the provider is not ours."""
    model = getattr(response, "model", None)
    if not isinstance(model, str) or not model.strip():
        return None
    return clip(model.strip(), 200)


def _is_transport_error(exc: Exception) -> bool:
    litellm = load_litellm()
    transport = (
        litellm.Timeout,
        litellm.APIConnectionError,
        litellm.RateLimitError,
        litellm.ServiceUnavailableError,
        litellm.InternalServerError,
        litellm.BadGatewayError,
    )
    return isinstance(exc, transport) or getattr(exc, "status_code", None) in TRANSPORT_STATUS


def complete_json(
    model: str,
    messages: list[dict[str, Any]],
    schema: dict[str, Any],
    *,
    timeout: float,
    attempts: int,
    backoff: Sequence[float] = BACKOFF_SECONDS,
    sleep: Callable[[float], None] = time.sleep,
    api_base: str | None = None,
    what: str = "judge model",
) -> Any:
    """One chat completion at temperature 0 asking for JSON matching ``schema`` (a strict
    ``json_schema`` response format where LiteLLM says the provider supports it). Transport
    failures are retried up to ``attempts`` calls in all; anything else is a JudgeError."""
    litellm = load_litellm()
    options: dict[str, Any] = {
        "model": model,
        "messages": messages,
        "timeout": timeout,
        "temperature": 0,
        "drop_params": True,
        "max_retries": 0,  # retries are ours: bounded, and for transport failures only
        "num_retries": 0,
    }
    if api_base:
        options["api_base"] = api_base
    structured = litellm.supports_response_schema(model=model)
    if structured:
        options["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "argus_answer", "strict": True, "schema": schema},
        }
    if not structured or api_base:
        # No structured output (or a self-hosted OpenAI-compatible server, which may accept
        # response_format and ignore it): the schema has to be in the instructions themselves.
        options["messages"] = with_schema_in_instructions(messages, schema)
    for attempt in range(1, attempts + 1):
        try:
            return litellm.completion(**options)
        except Exception as exc:  # LiteLLM's errors have no single base: classify them
            if not _is_transport_error(exc):
                raise JudgeError(f"{what} {model}: {_first_line(exc)}") from exc
            if attempt == attempts:
                raise JudgeError(
                    f"{what} {model}: {_first_line(exc)} (gave up after {attempts} attempts)"
                ) from exc
            sleep(backoff[min(attempt - 1, len(backoff) - 1)] if backoff else 0)
    raise AssertionError("unreachable")


SCHEMA_HEADING = "## The answer's JSON Schema"


def with_schema_in_instructions(
    messages: list[dict[str, Any]], schema: dict[str, Any]
) -> list[dict[str, Any]]:
    """``messages`` with the answer's JSON Schema appended to the system instructions."""
    block = (
        f"{SCHEMA_HEADING}\n\n"
        "This model is not held to a schema by the API, so here it is. Answer with exactly one "
        "JSON object that validates against it: every key it requires, no key it does not "
        "list, the values its enums allow, and nothing before or after the object.\n\n"
        f"```json\n{json.dumps(schema, indent=1, sort_keys=True)}\n```"
    )
    out = [dict(m) for m in messages]
    # The instructions: the system message, else a prompt sent as one user message.
    for role in ("system", "user"):
        for message in out:
            if message.get("role") == role and isinstance(message.get("content"), str):
                message["content"] = f"{message['content'].rstrip()}\n\n{block}\n"
                return out
    return [{"role": "system", "content": block}, *out]


def usage_of(response: Any, requested: str) -> Usage:
    """Tokens, cost (None when LiteLLM does not know the price) and the models requested and
    answered of one response to a request for the model ``requested``."""
    usage = getattr(response, "usage", None)
    try:
        cost: float | None = float(load_litellm().completion_cost(completion_response=response))
    except Exception:  # unknown models have no price: say so, do not guess
        cost = None
    return Usage(
        getattr(usage, "prompt_tokens", None),
        getattr(usage, "completion_tokens", None),
        cost,
        cached=False,
        model_requested=requested,
        model_actual=answered_model(response),
    )


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return clip(text[0] if text else type(exc).__name__, 200)


class LiteLLMJudge:
    name = "litellm"

    def __init__(
        self,
        config: ProjectConfig,
        *,
        api_base: str | None = None,
        backoff: Sequence[float] = BACKOFF_SECONDS,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        model = config.judge.model.strip()
        if not model:
            where = config.source or "argus.toml"
            raise ConfigError(
                f"{where}: judge.model is empty; name a vision model such as 'openai/gpt-4o'"
            )
        require_independent(model, config)
        self.model: str | None = model
        self.config = config
        self.api_base = api_base
        self.backoff = tuple(backoff)
        self.sleep = sleep
        self.cache = AnswerCache(config.root, config.judge.cache)

    def use_cache_dir(self, directory: Path) -> None:
        """Keep the answer cache in ``directory`` instead of .argus/judge-cache."""
        self.cache.directory = directory

    # -- the judge protocol ---------------------------------------------------------------
    def judge(self, packet: Packet) -> dict[str, Any]:
        rubric = load_rubric(packet.require("rubric"))
        answer, usage = self.ask_dimensions(packet, rubric, rubric.names)
        try:
            closer, rank_usage = self.rank(packet)
        except (MalformedAnswer, JudgeError):  # the ranking is a hint: losing it costs no verdict
            closer, rank_usage = None, Usage(cached=False)
        raw: dict[str, Any] = {
            "dimensions": dimension_entries(answer, rubric.names, self.name),
            "closer_to_reference_than_prev": closer,
            "usage": (usage + rank_usage).to_json(),
        }
        if answer.get("notes"):
            raw["notes"] = clip(str(answer["notes"]), 1000)
        return raw

    def ask_dimensions(
        self, packet: Packet, rubric: Rubric, names: Sequence[str]
    ) -> tuple[dict[str, Any], Usage]:
        """The model's answer for ``names`` (validated against the answer schema)."""
        prompt = judge_prompt(packet, rubric, names, max_pixels=self.config.judge.max_image_pixels)
        schema = answer_schema(rubric, names)
        return self._ask(prompt, schema, packet, "dimensions:" + ",".join(names), "judge answer")

    def rank(self, packet: Packet) -> tuple[bool | None, Usage]:
        """Closer to the reference than the previous render: asked in both orders."""
        if packet.path("reference") is None or packet.path("prev_render") is None:
            return None, Usage()
        pixels = self.config.judge.max_image_pixels
        answers = []
        usage = Usage()
        for first, second in (("render", "prev_render"), ("prev_render", "render")):
            prompt = rank_prompt(packet, first, second, max_pixels=pixels)
            answer, used = self._ask(
                prompt, RANK_SCHEMA, packet, f"rank:{first}>{second}", "ranking answer"
            )
            answers.append(answer["closer"])
            usage = usage + used
        # A consistent answer names the same render in both orders.
        if answers == ["A", "B"]:
            return True, usage
        if answers == ["B", "A"]:
            return False, usage
        return None, usage

    # -- one question -----------------------------------------------------------------------
    def _ask(
        self, prompt: Prompt, schema: dict[str, Any], packet: Packet, question: str, what: str
    ) -> tuple[dict[str, Any], Usage]:
        key = cache_key(prompt_version(), packet.fingerprint, str(self.model), question)
        hit = self.cache.get(key)
        if hit is not None and isinstance(hit.get("answer"), dict):
            return hit["answer"], Usage(cached=True)
        response = self.complete(prompt, schema)
        text = response.choices[0].message.content or ""
        answer = parse_json_object(text, what=what)
        check_schema(answer, schema, what=what)
        usage = self.usage_of(response)
        self.cache.put(
            key,
            {
                "prompt": prompt_version(),
                "model": self.model,
                "question": question,
                "answer": answer,
            },
        )
        return answer, usage

    def complete(self, prompt: Prompt, schema: dict[str, Any]) -> Any:
        """One model call (strict JSON where the provider supports it), transport-retried."""
        return complete_json(
            str(self.model),
            prompt.messages(),
            schema,
            timeout=self.config.judge.timeout,
            attempts=ATTEMPTS,
            backoff=self.backoff,
            sleep=self.sleep,
            api_base=self.api_base,
        )

    def usage_of(self, response: Any) -> Usage:
        return usage_of(response, str(self.model))
