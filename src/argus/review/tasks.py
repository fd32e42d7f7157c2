"""The task a review compares a PR with, and where tasks live in a repository.

A task is found by its id, in this order:

1. a task file ``argus/tasks/ID.toml`` (for an issue ``#7``: ``argus/tasks/7.toml``) with a
   ``title``, a ``why``, and either its ``acceptance`` text or the ``feature`` whose spec.md
   holds it;
2. a feature named ID (``argus/specs/ID/spec.md``): its spec.md is the acceptance.

An id that could leave the tasks folder (``../x``, ``a/b``) names no task: ids are names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from argus.config import read_toml
from argus.errors import InputError
from argus.review.inputs import feature_acceptance
from argus.spec.paths import SPECS_DIR
from argus.spec.scaffold import FEATURE_SLUG

TASKS_DIR = Path("argus") / "tasks"
TASK_ID = re.compile(r"#?[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


@dataclass(frozen=True)
class Task:
    id: str  # what the review is filed under
    title: str
    why: str
    acceptance: str
    source: str  # where the acceptance was read: a task file, a spec.md, a file given
    evidence: Mapping[str, str] = field(default_factory=dict)  # e.g. a feature's sign-off
    feature: str | None = None  # the feature whose spec.md is the acceptance, if one is


class TaskFile(BaseModel):
    """``argus/tasks/ID.toml``: what a task is, for a person and for the reviewer."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    title: str = ""
    why: str = ""
    acceptance: str = ""
    feature: str = ""  # instead of acceptance: this feature's spec.md is the acceptance


def task_file(root: Path, task_id: str) -> Path | None:
    """Where the task file of ``task_id`` is (None: the id is not a name)."""
    if not TASK_ID.fullmatch(task_id):
        return None
    return root / TASKS_DIR / f"{task_id.lstrip('#')}.toml"


def load_task_file(root: Path, task_id: str, path: Path) -> Task:
    """The task a task file describes; InputError (one line, the file) when it is not one."""
    try:
        parsed = TaskFile.model_validate(read_toml(path, what="task file"))
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(part) for part in first["loc"]) or "(top)"
        what = "unknown key" if first["type"] == "extra_forbidden" else "must be text"
        raise InputError(
            f"{path}: {key}: {what}; a task file has title, why, and acceptance or feature"
        ) from exc
    if bool(parsed.acceptance.strip()) == bool(parsed.feature.strip()):
        raise InputError(
            f"{path}: give the task's acceptance (text) or the feature whose spec.md holds it, "
            "one of the two"
        )
    title = parsed.title.strip() or task_id
    if parsed.feature.strip():
        feature = parsed.feature.strip()
        acceptance, evidence = feature_acceptance(root, feature)
        source = _relative(root, path)
        return Task(task_id, title, parsed.why, acceptance, source, evidence, feature)
    return Task(task_id, title, parsed.why, parsed.acceptance, _relative(root, path))


def feature_task(root: Path, feature: str) -> Task:
    acceptance, evidence = feature_acceptance(root, feature)
    source = (SPECS_DIR / feature / "spec.md").as_posix()
    return Task(feature, feature, "", acceptance, source, evidence, feature)


def find_task(root: Path, task_id: str) -> Task | None:
    """The task called ``task_id``: its task file, else the feature of that name, else None."""
    path = task_file(root, task_id)
    if path is None:
        return None
    if path.is_file():
        return load_task_file(root, task_id, path)
    feature = task_id.lstrip("#")
    named = task_id == feature and FEATURE_SLUG.match(feature) is not None
    if named and (root / SPECS_DIR / feature / "spec.md").is_file():
        return feature_task(root, feature)
    return None


def _relative(root: Path, path: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)
