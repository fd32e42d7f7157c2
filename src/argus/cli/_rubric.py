"""Which rubric a command uses: kept apart from `argus state` so that `argus verdict check`
loads the rubric without the loop, sensing and configuration modules `state` needs."""

from __future__ import annotations

import re
from pathlib import Path

from argus.errors import InputError
from argus.schemas import Rubric, load_rubric
from argus.spec.paths import find_repo_root

# A feature, target, state or appearance name that is safe as one path component.
PLAIN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def resolve_rubric(explicit: Path | None, start: Path, feature: object) -> Rubric:
    """--rubric, else the feature's own argus/specs/FEATURE/rubric.json, else Argus's default."""
    if explicit is not None:
        return load_rubric(explicit)
    if isinstance(feature, str) and PLAIN_NAME.match(feature):
        try:
            root = find_repo_root(start)
        except InputError:
            return load_rubric(None)
        candidate = root / "argus" / "specs" / feature / "rubric.json"
        if candidate.is_file():
            return load_rubric(candidate)
    return load_rubric(None)
