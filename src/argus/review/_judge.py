"""The acceptance-fidelity review: one judgment of a merged PR against its task's acceptance.

The reviewer (a reasoning model through LiteLLM, or an agent command) gets the task's title,
why and acceptance, the PR's title, body and cut diff, and the deterministic evidence (merged
commit, CI, deploy, sign-off), and answers strict JSON: met / partial / unmet, a confidence, a
one-line rationale and the acceptance clauses left unmet. The answer is checked here, then a
conservative policy derives the flag a person sees:

- a "met" is capped at ``low_confidence`` when the diff was cut where it mattered (a test or
  source hunk left out), or the PR body, the acceptance or the why was cut for length (each is
  held to a fifth of ``max_diff_chars``): the reviewer could not see all the evidence, so a capped
  verdict is flagged ``low_confidence``;
- confidence below ``low_confidence``: ``low_confidence`` (look at it; no failure claimed);
- "unmet" at or above ``high_confidence``: ``notify`` (a person is told, with the rationale);
- "partial" or "unmet" otherwise: ``needs_review``;
- "met" below ``high_confidence``: ``needs_review`` (a wrong met is the costly mistake);
- "met" at or above ``high_confidence``: ``info``.

No answer at all (transport failure after one retry, a malformed answer, a failing command)
is recorded as such and flagged ``needs_review``. The review never writes a sign-off and never
changes an exit status of anything else: it is advice.
"""

from __future__ import annotations

import hashlib
import math
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from argus.config import ProjectConfig, ReviewConfig
from argus.errors import ConfigError, JudgeError
from argus.evidence.content import clip, fence
from argus.judge.answer import parse_json_object
from argus.review.diff import CutDiff

PROMPT_NAME = "acceptance-fidelity-v1"
ATTEMPTS = 2  # the call and one retry, for transport failures only
VERDICTS = ("met", "partial", "unmet")
MAX_RATIONALE = 300
MAX_MISSING = 20
TEXT_SHARE = 5  # the PR body, the acceptance and the why each get at most 1/5 of max_diff_chars
CUT_MARKER = "…[cut for length]"
ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["verdict", "confidence", "rationale", "missing_acceptance"],
    "properties": {
        "verdict": {"type": "string", "enum": list(VERDICTS)},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "rationale": {"type": "string"},
        "missing_acceptance": {"type": "array", "items": {"type": "string"}},
    },
}


@cache
def instructions() -> str:
    return (
        resources.files("argus.review").joinpath("prompts", f"{PROMPT_NAME}.md").read_text("utf-8")
    )


@cache
def prompt_version() -> str:
    return f"{PROMPT_NAME}+{hashlib.sha256(instructions().encode()).hexdigest()[:12]}"


@dataclass(frozen=True)
class ReviewInputs:
    subject: str  # the feature or task id the review is filed under
    title: str
    acceptance: str
    pr_title: str
    pr_body: str
    diff: CutDiff
    pr_number: int | None = None
    evidence: Mapping[str, str] = field(default_factory=dict)  # merged commit, CI, deploy ...
    cut: tuple[str, ...] = ()  # inputs cut for length besides the diff: "acceptance", "PR body"
    why: str = ""  # what the task is for, in the words of whoever filed it


@dataclass(frozen=True)
class ReviewAnswer:
    verdict: str
    confidence: float
    rationale: str
    missing: tuple[str, ...]


@dataclass(frozen=True)
class Review:
    answer: ReviewAnswer | None  # None: no acceptable answer (see ``error``)
    confidence: float | None  # after the policy (a cut diff caps a met)
    flag: str  # info | needs_review | low_confidence | notify
    notes: tuple[str, ...]
    error: str | None = None


def cut_text(text: str, limit: int) -> tuple[str, bool]:
    """``text`` held to ``limit`` characters (marker included) and whether it was cut."""
    if len(text) <= limit:
        return text, False
    return text[: max(0, limit - len(CUT_MARKER))] + CUT_MARKER, True


def bounded(
    texts: Mapping[str, str], settings: ReviewConfig
) -> tuple[dict[str, str], tuple[str, ...]]:
    """Each of ``texts`` (the acceptance, the why, the PR body, by name) cut to its share of
    the prompt, and the names of those cut."""
    limit = settings.max_diff_chars // TEXT_SHARE
    kept: dict[str, str] = {}
    cut: list[str] = []
    for name, text in texts.items():
        kept[name], was_cut = cut_text(text, limit)
        if was_cut:
            cut.append(name)
    return kept, tuple(cut)


def review_prompt(inputs: ReviewInputs) -> list[dict[str, Any]]:
    """The chat messages: our instructions, the task (trusted), the PR (the author's words)."""
    evidence = "\n".join(f"- {k}: {v}" for k, v in inputs.evidence.items()) or "- (none given)"
    why = inputs.why.strip() or "(not given)"
    task = f"## Task: {inputs.title}\n\n### Why\n{why}\n\n### Acceptance\n{inputs.acceptance}"
    number = f" #{inputs.pr_number}" if inputs.pr_number is not None else ""
    pr = f"title: {inputs.pr_title}\n\nbody:\n{inputs.pr_body or '(empty)'}\n\ndiff:\n"
    pr += inputs.diff.text
    user = "\n\n".join(
        [
            task,
            f"## Deterministic evidence (the change landed; not proof of acceptance)\n{evidence}",
            f"## Pull request{number} (written by its author)\n" + fence("pull-request", pr),
        ]
    )
    return [{"role": "system", "content": instructions()}, {"role": "user", "content": user}]


def parse_answer(text: str) -> ReviewAnswer:
    """The reviewer's JSON answer, checked; JudgeError says what is wrong with it."""
    value = parse_json_object(text, what="review answer")
    verdict = value.get("verdict")
    if verdict not in VERDICTS:
        shown = clip(repr(verdict), 40)
        raise JudgeError(f"review answer: verdict {shown} is not met, partial or unmet")
    confidence = value.get("confidence")
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, int | float)
        or not math.isfinite(confidence)
        or not 0.0 <= confidence <= 1.0
    ):
        raise JudgeError(f"review answer: confidence {clip(repr(confidence), 40)} is not in 0..1")
    rationale = value.get("rationale")
    if not isinstance(rationale, str) or not rationale.strip():
        raise JudgeError("review answer: no rationale")
    missing = value.get("missing_acceptance", [])
    if not isinstance(missing, list) or not all(isinstance(m, str) for m in missing):
        raise JudgeError("review answer: missing_acceptance must be a list of strings")
    line = " ".join(rationale.split())
    return ReviewAnswer(
        verdict=str(verdict),
        confidence=float(confidence),
        rationale=clip(line, MAX_RATIONALE),
        missing=tuple(clip(" ".join(m.split()), 200) for m in missing[:MAX_MISSING]),
    )


def apply_policy(
    answer: ReviewAnswer, diff: CutDiff, settings: ReviewConfig, cut: tuple[str, ...] = ()
) -> Review:
    """``cut``: the inputs besides the diff that were cut for length (see ``bounded``)."""
    notes: list[str] = []
    confidence = answer.confidence
    if answer.verdict == "met" and confidence > settings.low_confidence:
        if diff.material_cut:
            notes.append(
                "confidence capped: the diff was cut where it mattered "
                f"({', '.join(diff.left_out[:3])}{', …' if len(diff.left_out) > 3 else ''})"
            )
        if cut:
            notes.append(
                f"confidence capped: the {' and the '.join(cut)} cut for length; the reviewer "
                "did not read all of it"
            )
        if notes:
            confidence = settings.low_confidence
    if notes or confidence < settings.low_confidence:
        flag = "low_confidence"  # a capped verdict is a low-confidence one
    elif answer.verdict == "unmet" and confidence >= settings.high_confidence:
        flag = "notify"
    elif answer.verdict == "met" and confidence >= settings.high_confidence:
        flag = "info"
    else:
        flag = "needs_review"
    return Review(answer, confidence, flag, tuple(notes))


def no_answer(error: str) -> Review:
    return Review(None, None, "needs_review", (), error=clip(error, 300))


@dataclass(frozen=True)
class Asked:
    text: str | None
    error: str | None
    model: str | None
    usage: dict[str, Any]


def ask_reviewer(inputs: ReviewInputs, config: ProjectConfig) -> Asked:
    settings = config.review
    messages = review_prompt(inputs)
    if settings.backend == "command":
        return _ask_command(messages, config)
    model = settings.model.strip()
    if not model:
        where = config.source or "argus.toml"
        raise ConfigError(
            f"{where}: review.model is empty; name a reasoning model such as "
            "'openai/o3', or set review.backend = \"command\""
        )
    from argus.judge.llm import complete_json, usage_of

    try:
        response = complete_json(
            model,
            messages,
            ANSWER_SCHEMA,
            timeout=settings.timeout,
            attempts=ATTEMPTS,
            what="review model",
        )
    except JudgeError as exc:
        return Asked(None, str(exc), model, {})
    text = response.choices[0].message.content or ""
    return Asked(text, None, model, usage_of(response, model).to_json())


def _ask_command(messages: list[dict[str, Any]], config: ProjectConfig) -> Asked:
    from argus.judge.command import CommandJudge

    settings = config.review
    if not settings.command.strip():
        where = config.source or "argus.toml"
        raise ConfigError(f'{where}: review.command is empty; e.g. command = "claude -p"')
    judge_settings = config.judge.model_copy(
        update={"command": settings.command, "timeout": settings.timeout, "model": ""}
    )
    runner = CommandJudge(config.model_copy(update={"judge": judge_settings}), role="review")
    prompt = "\n\n".join(str(m["content"]) for m in messages) + "\n"
    with tempfile.TemporaryDirectory(prefix="argus-review-") as scratch:
        try:
            text = runner.run_command(Path(scratch), prompt)
        except JudgeError as exc:
            return Asked(None, str(exc), None, {})
    return Asked(text, None, None, {})


def review(inputs: ReviewInputs, config: ProjectConfig) -> tuple[Review, Asked]:
    asked = ask_reviewer(inputs, config)
    if asked.text is None:
        return no_answer(asked.error or "no answer"), asked
    try:
        answer = parse_answer(asked.text)
    except JudgeError as exc:
        return no_answer(str(exc)), asked
    return apply_policy(answer, inputs.diff, config.review, inputs.cut), asked


def review_payload(
    inputs: ReviewInputs, result: Review, asked: Asked, backend: str
) -> dict[str, Any]:
    """What the store records for one review (the event's payload)."""
    answer = result.answer
    return {
        "verdict": answer.verdict if answer else None,
        "confidence": result.confidence,
        "confidence_answered": answer.confidence if answer else None,
        "rationale": answer.rationale if answer else None,
        "missing_acceptance": list(answer.missing) if answer else [],
        "flag": result.flag,
        "notes": list(result.notes),
        "error": result.error,
        "title": inputs.title,
        "why": inputs.why,
        "pr": {"number": inputs.pr_number, "title": clip(inputs.pr_title, 200)},
        "evidence": dict(inputs.evidence),
        "diff": inputs.diff.to_json(),
        "cut_for_length": list(inputs.cut),
        "reviewer": {"backend": backend, "model": asked.model, "prompt": prompt_version()},
        "usage": asked.usage,
        "raw_answer": clip(asked.text, 4000) if asked.text is not None else None,
        "answer_sha256": (
            hashlib.sha256(asked.text.encode()).hexdigest() if asked.text is not None else None
        ),
        "advisory": True,
    }
