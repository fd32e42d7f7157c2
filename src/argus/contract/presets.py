"""Built-in contracts: ``argus contract start --preset NAME`` writes one and starts it.

- ``frontend-ui``: lint, typecheck, test, build (the project's gate commands from argus.toml
  ``[gates.commands]``; ``argus lint`` when no lint command is set), visual (``argus loop
  --mode headless`` for every feature with a spec: Argus's own gates and judge), then a
  ``review`` stage-verifier over all of them and a ``verify`` loop-grader of the whole loop;
- ``docs-workflow``: build (``[gates.commands] build``), then a ``scope-fidelity``
  stage-verifier;
- ``custom-pipeline``: an executor stage ``work`` (its prompt asks for the session's task),
  a ``review`` stage-verifier and a ``verify`` loop-grader.

The reviewers grade with ``[judge] model`` (else ``[review] model``, else ``[judge] command``,
else ``[review] command``); a preset needs one of them. A stage whose command is not configured
is left out, and the preset says so. The contract is written to ``.argus/presets/NAME.yaml``
(its digest pins the run like any contract's).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import yaml

from argus.config import ProjectConfig
from argus.errors import InputError
from argus.io import atomic_write_text
from argus.spec.paths import find_specs

PRESETS = ("frontend-ui", "docs-workflow", "custom-pipeline")
WORK_PROMPT = (
    "Do the work this session was asked to do, within the declared contract. When it is done, "
    "complete this stage with a SHA-256 of what you produced and references to its evidence."
)


def _grader(config: ProjectConfig, role: str, rounds: int) -> dict[str, Any]:
    for model in (config.judge.model, config.review.model):
        if model.strip():
            return {"role": role, "model": model.strip(), "rounds": rounds}
    for command in (config.judge.command, config.review.command):
        if command.strip():
            return {"role": role, "command": command.strip(), "rounds": rounds}
    where = config.source or "argus.toml"
    raise InputError(
        f"{where}: the preset's reviewers need a grader: set [judge] model (or command) to a "
        "model other than the implementer's, or write the contract yourself"
    )


def _mechanical(stage_id: str, name: str, command: str, after: list[str]) -> dict[str, Any]:
    stage: dict[str, Any] = {"id": stage_id, "name": name, "type": "mechanical"}
    stage["command"] = command
    if after:
        stage["requires"] = after[-1:]
    return stage


def build_preset(root: Path, name: str, config: ProjectConfig) -> tuple[dict[str, Any], list[str]]:
    """The preset's contract and the notes on what it left out."""
    if name not in PRESETS:
        raise InputError(f"no preset {name!r}; presets: {', '.join(PRESETS)}")
    commands = {k: v.command for k, v in config.gates.commands.items()}
    stages: list[dict[str, Any]] = []
    notes: list[str] = []
    done: list[str] = []

    def add(stage_id: str, label: str, command: str | None) -> None:
        if not command:
            notes.append(f"{stage_id}: no [gates.commands] {stage_id} in argus.toml; left out")
            return
        stages.append(_mechanical(stage_id, label, command, done))
        done.append(stage_id)

    if name == "frontend-ui":
        add("lint", "Lint clean", commands.get("lint") or "argus lint")
        add("typecheck", "Types check", commands.get("type_check") or commands.get("typecheck"))
        add("test", "Tests pass", commands.get("test"))
        add("build", "Builds", commands.get("build"))
        features = [p.parent.name for p in find_specs(root)]
        if not features:
            notes.append("visual: no feature spec under argus/specs; left out")
        for feature in features:
            add(f"visual-{feature}", f"{feature} signed off", f"argus loop --feature {feature} "
                "--mode headless")  # fmt: skip
    elif name == "docs-workflow":
        add("build", "Docs build clean", commands.get("build"))
    else:
        text = WORK_PROMPT
        digest = hashlib.sha256(text.encode()).hexdigest()
        stages.append(
            {"id": "work", "name": "Do the work", "type": "executor",
             "prompt": {"text": text, "sha256": digest}}
        )  # fmt: skip
        done.append("work")
    if name == "docs-workflow":
        stages.append(
            {"id": "scope-fidelity", "name": "Scope fidelity", "type": "stage-verifier",
             "requires": done[-1:], "stageVerifier": _grader(config, "critic", 2),
             "passCriteria": "The docs match the stated scope and nothing else."}
        )  # fmt: skip
    else:
        stages.append(
            {"id": "review", "name": "Code review", "type": "stage-verifier",
             "requires": list(done), "stageVerifier": _grader(config, "code-reviewer", 3),
             "passCriteria": "The change does what was asked, with no blocking issue."}
        )  # fmt: skip
        stages.append(
            {"id": "verify", "name": "Whole-loop completeness", "type": "loop-grader",
             "requires": ["review"], "loopGrader": _grader(config, "verifier", 3)}
        )  # fmt: skip
    contract = {"id": name, "name": f"Preset {name}", "stages": stages}
    return contract, notes


def write_preset(root: Path, name: str, config: ProjectConfig) -> tuple[Path, list[str]]:
    contract, notes = build_preset(root, name, config)
    path = root / ".argus" / "presets" / f"{name}.yaml"
    atomic_write_text(path, yaml.safe_dump(contract, sort_keys=False, width=100))
    return path, notes
