"""The shape of a contract file (``argus contract start FILE``; YAML or JSON), after the
seed's camelCase names are mapped to Argus's (``argus.contract.source``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from pydantic.config import JsonDict, JsonValue

from argus.schemas.models._base import UNIQUE_ITEMS, Absent, Closed, Document
from argus.schemas.models._generate import Published

Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9._-]{0,63}$")]
Text = Annotated[str, Field(min_length=1)]
Count = Annotated[int, Field(ge=0)]


def _only(stage_type: JsonDict, needs: str, refuses: tuple[str, str]) -> JsonDict:
    """A stage of ``stage_type`` needs the key ``needs`` and may have neither of ``refuses``."""
    return {
        "if": {"properties": {"type": stage_type}},
        "then": {
            "required": [needs],
            "not": {"anyOf": [{"required": [key]} for key in refuses]},
        },
    }


_STAGE_RULES: list[JsonValue] = [
    _only({"const": "mechanical"}, "command", ("grader", "prompt")),
    _only({"const": "executor"}, "prompt", ("grader", "command")),
    _only({"enum": ["judgment", "stage-verifier", "loop-grader"]}, "grader", ("command", "prompt")),
    {
        "if": {"properties": {"type": {"const": "judgment"}}},
        "then": {"required": ["pass_criteria"]},
    },
]


class Budget(Closed):
    max_attempts_per_stage: Count = Field(
        default=3,
        description="mechanical attempts per stage; spent: the run blocks; 0: an explicit no-op",
    )
    max_total_attempts: Count = 8
    max_judgment_dispatches: Count = Field(
        default=4,
        description="grader dispatches in the run; spent: that dispatch is refused; "
        "0: an explicit no-op",
    )


class Skill(BaseModel):
    """an optional opaque skill reference"""

    model_config = ConfigDict(frozen=True, extra="allow")

    id: str | Absent = None


class FailurePolicy(Closed):
    max_mechanical_failures: Annotated[int, Field(ge=1)] | Absent = Field(
        default=None, description="failed mechanical runs in the whole run before it blocks"
    )


class Grader(Closed):
    # A grader is a model or a command, never both.
    model_config = ConfigDict(
        json_schema_extra={"oneOf": [{"required": ["model"]}, {"required": ["command"]}]}
    )

    model: Text | Absent = Field(
        default=None, description="a LiteLLM model, different from the executor's"
    )
    command: Text | Absent = Field(
        default=None, description="an agent CLI reading the prompt on standard input"
    )
    rounds: int = Field(default=3, ge=1)
    role: Text | Absent = None
    timeout: Annotated[float, Field(gt=0)] | Absent = Field(
        default=None, description="seconds this grader may take (default: the contract's timeout)"
    )
    fallback_models: list[Text] | Absent = Field(
        default=None, description="tried in order when the model cannot be reached"
    )
    harness: str | Absent = None


class Prompt(Closed):
    text: Text
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class Stage(Closed):
    model_config = ConfigDict(json_schema_extra={"allOf": _STAGE_RULES})

    id: Id
    name: Text
    type: Literal["executor", "mechanical", "stage-verifier", "loop-grader", "judgment"]
    required: bool = True
    requires: Annotated[list[str], Field(json_schema_extra=UNIQUE_ITEMS)] | Absent = None
    command: Text | Absent = Field(
        default=None,
        description="mechanical: the shell command Argus runs in the repository root",
    )
    pass_criteria: Text | Absent = Field(
        default=None, description="judgment: what the grader must find to say GO"
    )
    grader: Grader | Absent = None
    prompt: Prompt | Absent = None


class ContractFile(Document):
    id: Id
    name: Text
    stages: list[Stage] = Field(min_length=1)
    budget: Budget | Absent = None
    timeout: float = Field(
        default=900, gt=0, description="Seconds a mechanical command or a grader may take."
    )
    skill: Skill | Absent = None
    failure_policy: FailurePolicy | Absent = None


PUBLISHED = Published(
    ContractFile,
    "Argus contract (argus contract start FILE; YAML or JSON)",
    "The stages a piece of work must pass before its session may end: executor stages "
    "(prompt-driven work the executor completes against an exact input packet), mechanical "
    "stages Argus runs itself (pass = exit code 0), stage-verifier and loop-grader stages an "
    "independent reviewer decides (GO / NO-GO). 'judgment' is the older name of "
    "stage-verifier. camelCase names of the seed (passCriteria, executionBudget, "
    "failurePolicy, stageVerifier, loopGrader, fallbackModels, timeoutMs) are accepted and "
    "mapped to these.",
)
