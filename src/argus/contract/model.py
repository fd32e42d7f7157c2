"""A contract: the stages a piece of work must pass, read from YAML or JSON, checked whole.

Stage types: ``executor`` (prompt-driven work the executor completes against an exact input
packet), ``mechanical`` (a command Argus runs), ``stage-verifier`` (an independent reviewer of
this stage and its predecessors) and ``loop-grader`` (an independent reviewer of the whole
loop); ``judgment``, the older name, is a stage-verifier. Beyond the schema
(contract.schema.json): stage ids are unique, ``requires`` names stages of the same contract
and forms no cycle, an executor prompt's SHA-256 is that of its text, and a grader is not the
executor (checked by ``check_grader``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.errors import InputError

GRADED = frozenset({"stage-verifier", "loop-grader", "judgment"})


@dataclass(frozen=True)
class Grader:
    model: str | None
    command: str | None
    rounds: int
    fallback_models: tuple[str, ...] = ()
    role: str = ""
    timeout: float | None = None


@dataclass(frozen=True)
class Stage:
    id: str
    name: str
    type: str  # executor | mechanical | stage-verifier | loop-grader | judgment
    required: bool
    requires: tuple[str, ...]
    command: str | None
    pass_criteria: str | None
    grader: Grader | None
    prompt: str | None = None  # executor: the exact prompt text
    prompt_sha256: str | None = None

    @property
    def graded(self) -> bool:
        """Decided by an independent grader's verdict."""
        return self.type in GRADED


@dataclass(frozen=True)
class Budget:
    max_attempts_per_stage: int = 3
    max_total_attempts: int = 8
    max_judgment_dispatches: int = 4
    max_mechanical_failures: int | None = None  # failurePolicy: failed runs before blocking


@dataclass(frozen=True)
class Contract:
    id: str
    name: str
    stages: tuple[Stage, ...]
    budget: Budget
    timeout: float
    path: Path
    digest: str  # SHA-256 of the contract file: the contract a run started with

    def stage(self, stage_id: str) -> Stage:
        for stage in self.stages:
            if stage.id == stage_id:
                return stage
        known = ", ".join(s.id for s in self.stages)
        raise InputError(f"{self.path}: no stage '{stage_id}' (stages: {known})")


def _stage(raw: dict[str, Any], where: Path) -> Stage:
    grader = raw.get("grader")
    prompt = raw.get("prompt") or {}
    if prompt and hashlib.sha256(prompt["text"].encode()).hexdigest() != prompt["sha256"]:
        raise InputError(
            f"{where}: stage '{raw['id']}': prompt.sha256 is not the SHA-256 of prompt.text "
            "(lower-case hex of its UTF-8 bytes)"
        )
    return Stage(
        id=raw["id"],
        name=raw["name"],
        type=raw["type"],
        required=bool(raw.get("required", True)),
        requires=tuple(raw.get("requires", ())),
        command=raw.get("command"),
        pass_criteria=raw.get("pass_criteria"),
        grader=(
            Grader(
                grader.get("model"),
                grader.get("command"),
                int(grader.get("rounds", 3)),
                tuple(grader.get("fallback_models", ())),
                str(grader.get("role", "")),
                float(grader["timeout"]) if "timeout" in grader else None,
            )
            if isinstance(grader, dict)
            else None
        ),
        prompt=prompt.get("text"),
        prompt_sha256=prompt.get("sha256"),
    )


def _check_graph(stages: tuple[Stage, ...], where: Path) -> None:
    ids = [s.id for s in stages]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise InputError(f"{where}: stage id(s) {', '.join(repeated)} used more than once")
    for stage in stages:
        unknown = [r for r in stage.requires if r not in ids]
        if unknown:
            raise InputError(
                f"{where}: stage '{stage.id}' requires {', '.join(unknown)}, which is no stage"
            )
    requires = {s.id: s.requires for s in stages}
    done: set[str] = set()

    def visit(stage_id: str, path: tuple[str, ...]) -> None:
        if stage_id in path:
            cycle = " -> ".join((*path[path.index(stage_id) :], stage_id))
            raise InputError(f"{where}: the stages' requires form a cycle ({cycle})")
        if stage_id in done:
            return
        for needed in requires[stage_id]:
            visit(needed, (*path, stage_id))
        done.add(stage_id)

    for stage_id in ids:
        visit(stage_id, ())


def check_graph_errors(data: Any, where: Path) -> list[str]:
    """What is wrong beyond the schema (ids, the requires graph, prompt digests): [] if nothing."""
    try:
        _check_graph(tuple(_stage(s, where) for s in data["stages"]), where)
    except InputError as exc:
        return [str(exc).removeprefix(f"{where}: ")]
    return []


def check_independence(
    contract: Contract, root: Path, executor_model: str, executor_command: str
) -> None:
    """A grader may not be the executor: not its model (by identity: a provider or router
    prefix, a snapshot date or a version suffix is the same model), not the implementer's
    command, and not a program the executor could have written (argus.contract._graderexec)."""
    for stage in contract.stages:
        if stage.grader is not None:
            check_grader(contract, stage, root, executor_model, executor_command)


def check_grader(
    contract: Contract, stage: Stage, root: Path, executor_model: str, executor_command: str
) -> list[str] | None:
    """Refuse a grader that is not independent of the executor (E_NO_DIVERSITY); the argv of
    a command grader, None for a model grader."""
    from argus.contract._graderexec import grader_argv
    from argus.judge.base import command_words
    from argus.judge.identity import same_model

    grader = stage.grader
    assert grader is not None
    where = f"{contract.path}: stage '{stage.id}'"
    if grader.model:
        if not executor_model.strip():
            raise InputError(
                f"{where} has a model grader, but the executor's model is unknown; name it "
                "in argus.toml [implementer] model so Argus can check they differ"
            )
        for model in (grader.model, *grader.fallback_models):
            if same_model(model, executor_model):
                raise InputError(
                    f"{where}: E_NO_DIVERSITY: the grader model {model!r} is the executor's "
                    f"own model ({executor_model}); name a different model"
                )
        return None
    assert grader.command is not None
    words = command_words(grader.command)
    implementer = command_words(executor_command)
    if implementer and words == implementer:
        raise InputError(
            f"{where}: E_NO_DIVERSITY: the grader command is the implementer's own command"
        )
    return grader_argv(grader.command, root, where)


def load_contract(path: Path) -> Contract:
    # Imported here: the Stop hook imports this module on every event but loads a contract
    # only when a run is open; YAML and JSON Schema stay out of its start-up.
    from argus.contract.source import read_contract
    from argus.schemas import validate

    raw_bytes, data = read_contract(path)
    validate("contract", data, source=path)
    stages = tuple(_stage(s, path) for s in data["stages"])
    _check_graph(stages, path)
    failures = data.get("failure_policy", {}).get("max_mechanical_failures")
    budget = Budget(**data.get("budget", {}), max_mechanical_failures=failures)
    return Contract(
        id=data["id"],
        name=data["name"],
        stages=stages,
        budget=budget,
        timeout=float(data.get("timeout", 900)),
        path=path.resolve(),
        digest=hashlib.sha256(raw_bytes).hexdigest(),
    )
