"""The judge protocol, the registry of backends, and the flow every verdict goes through.

A backend is a plug-in found by name (argus.judge.registry) and built from the project config
by ``get_judge(name, config)``. Its ``judge(packet)`` returns a *raw* verdict
(a dict in the verdict shape). ``run_judge`` then owns the rules no backend may bend:

- the view's identity (feature, target, state, appearance, iteration, reference_source) comes
  from the packet, never from the answer;
- the answer must pass ``argus.verdict.normalize_verdict`` (exactly the rubric's dimensions,
  scores 0/0.5/1, the rubric's anchors; all_pass re-derived);
- a malformed answer gets one retry; a second malformed answer, or a backend that could not
  answer at all, becomes an ``inconclusive`` verdict, which is never a pass;
- a model judge running on the implementer's own model is refused (it would grade itself);
- without a reference image, visual_fidelity abstains whatever the backend said (there is
  nothing to be faithful to), and closer_to_reference_than_prev is null.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from typing import Any, Protocol

from argus.config import ProjectConfig
from argus.errors import ConfigError, InputError, JudgeError
from argus.evidence.content import clip
from argus.judge.identity import same_model
from argus.judge.packet import Packet
from argus.schemas import Rubric
from argus.verdict import NormalizedVerdict, normalize_verdict

MAX_EVIDENCE_CHARS = 2000
MAX_ERROR_CHARS = 300
ATTEMPTS = 2  # the first answer and one retry
VISUAL = "visual_fidelity"
NO_REFERENCE = (
    "No reference image for this view, so there is nothing to compare the render with; "
    "visual fidelity is unverified (a score from the judge is not counted)."
)


class Judge(Protocol):
    """A backend: ``judge(packet)`` returns a raw verdict dict for the packet's view."""

    name: str
    model: str | None

    def judge(self, packet: Packet) -> dict[str, Any]: ...


class MalformedAnswer(JudgeError):
    """The backend answered, but not with a usable verdict (worth one retry)."""


def require_independent(judge_model: str, config: ProjectConfig, *, required: bool = True) -> None:
    """Refuse a model judge that runs on the model that built the change, and (``required``)
    one whose independence cannot be checked because the implementer's model is not named."""
    implementer = config.implementer.model.strip()
    where = config.source or "argus.toml"
    if judge_model and not implementer and required:
        raise ConfigError(
            f"{where}: the model judge {judge_model!r} needs the implementer's model named to "
            "check it is a different one; set [implementer].model"
        )
    if judge_model and implementer and same_model(judge_model, implementer):
        raise JudgeError(
            f"{where}: judge.model {judge_model!r} is the implementer's model; a judge must be a "
            "different model (set judge.model to another one)"
        )


def command_words(command: str) -> tuple[str, ...]:
    """A command line as words, placeholders ({packet}, {prompt_file}...) left out."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    return tuple(w for w in words if not re.search(r"\{[A-Za-z_]\w*\}", w))


def require_distinct_commands(
    judge_command: str, implementer_command: str, config: ProjectConfig
) -> None:
    """Refuse a command judge that is the implementer's own agent CLI, run the same way."""
    judge_words = command_words(judge_command)
    if judge_words and judge_words == command_words(implementer_command):
        where = config.source or "argus.toml"
        raise JudgeError(
            f"{where}: judge.command {judge_command!r} is the implementer's own command; the "
            "judge must be another agent or model (change judge.command)"
        )


def stamp(raw: Mapping[str, Any], packet: Packet, judge: Judge) -> dict[str, Any]:
    """The answer with the packet's view identity and the backend's name put on it."""
    stamped = {
        k: v
        for k, v in raw.items()
        if k not in ("feature", "target", "state", "appearance", "iteration", "reference_source")
    }
    stamped.update(packet.verdict_header())
    stamped["backend"] = judge.name
    stamped["model"] = judge.model
    dimensions = raw.get("dimensions")
    if isinstance(dimensions, Mapping):
        stamped["dimensions"] = {
            name: _stamp_dimension(entry, judge.name) for name, entry in dimensions.items()
        }
    return stamped


def _stamp_dimension(entry: Any, backend: str) -> Any:
    if not isinstance(entry, Mapping):
        return entry
    out = dict(entry)
    out.setdefault("judged_by", backend)
    if isinstance(out.get("evidence"), str):
        out["evidence"] = clip(out["evidence"], MAX_EVIDENCE_CHARS)
    return out


def inconclusive(packet: Packet, judge: Judge, reason: str) -> dict[str, Any]:
    """A verdict that says the judge could not judge: it scores nothing and never passes."""
    return {
        **packet.verdict_header(),
        "status": "inconclusive",
        "error": clip(reason.strip() or "the judge gave no reason", MAX_ERROR_CHARS),
        "backend": judge.name,
        "model": judge.model,
        "dimensions": {},
        "closer_to_reference_than_prev": None,
    }


def without_reference(raw: Mapping[str, Any], packet: Packet, rubric: Rubric) -> dict[str, Any]:
    """``raw`` with visual_fidelity abstained when the packet has no reference, for every
    backend alike: a model asked about all seven dimensions may score it anyway."""
    out = dict(raw)
    if packet.path("reference") is not None:
        return out
    out["closer_to_reference_than_prev"] = None
    dimensions = raw.get("dimensions")
    if VISUAL in rubric.dimensions and isinstance(dimensions, Mapping) and VISUAL in dimensions:
        given = dimensions[VISUAL]
        judged_by = given.get("judged_by") if isinstance(given, Mapping) else None
        entry: dict[str, Any] = {
            "score": None,
            "abstained": True,
            "anchor": rubric.dimensions[VISUAL].anchor,
            "evidence": NO_REFERENCE,
        }
        if judged_by is not None:
            entry["judged_by"] = judged_by
        out["dimensions"] = {**dimensions, VISUAL: entry}
    return out


def run_judge(judge: Judge, packet: Packet, rubric: Rubric) -> NormalizedVerdict:
    """Judge ``packet``: normalized verdict, one retry on a malformed answer, else inconclusive."""
    problem = ""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            raw = judge.judge(packet)
        except MalformedAnswer as exc:
            problem = f"attempt {attempt}: {exc}"
            continue
        except (JudgeError, InputError) as exc:
            # Could not answer at all (transport, timeout, a probe it cannot read): no retry.
            problem = str(exc)
            break
        try:
            return normalize_verdict(
                stamp(without_reference(raw, packet, rubric), packet, judge),
                rubric,
                source=f"{judge.name} judge",
            )
        except InputError as exc:
            problem = f"attempt {attempt}: {exc}"
    return normalize_verdict(
        inconclusive(packet, judge, problem), rubric, source=f"{judge.name} judge"
    )
