"""What a review reads: the task's acceptance (a feature's spec.md, or a file), the PR's words
and diff (a file, or ``git diff`` over a range), and the deterministic evidence beside them."""

from __future__ import annotations

import subprocess
from pathlib import Path

from argus.errors import InputError
from argus.io import read_bytes
from argus.loop.records.signoff import load_records
from argus.spec.paths import SPECS_DIR
from argus.spec.scaffold import check_feature_name

MAX_DIFF_BYTES = 20 * 1024 * 1024
MAX_TEXT_BYTES = 1024 * 1024
SIGNOFF = Path(".argus-runs") / "signoff.json"


def read_text(path: Path, what: str, limit: int = MAX_TEXT_BYTES) -> str:
    data = read_bytes(path, what=what, limit=limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: the {what} is not UTF-8 text") from exc


def feature_acceptance(root: Path, feature: str) -> tuple[str, dict[str, str]]:
    """A feature's spec.md (its acceptance criteria) and what its sign-off record says."""
    check_feature_name(feature)  # a name, never a path out of argus/specs
    spec_dir = root / SPECS_DIR / feature
    spec_md = spec_dir / "spec.md"
    if not spec_md.is_file():
        raise InputError(
            f"{spec_md}: no spec.md for feature '{feature}'; its acceptance is what a review "
            "compares the PR with (or give --task ID --acceptance FILE)"
        )
    evidence: dict[str, str] = {}
    records = load_records(spec_dir / SIGNOFF)  # read only: a review never signs anything
    if records:
        views = {(r["target"], r["state"], r["appearance"]) for r in records}
        evidence["sign-off"] = f"{len(views)} view(s) signed off ({SIGNOFF.as_posix()})"
    return read_text(spec_md, "spec.md"), evidence


def git_diff(root: Path, revisions: str) -> str:
    """``git diff`` over ``revisions`` (``BASE..HEAD``), run in ``root``."""
    if revisions.startswith("-") or ".." not in revisions:
        raise InputError(f"--git-range {revisions!r}: give BASE..HEAD, e.g. main..feature")
    try:
        done = subprocess.run(
            ["git", "diff", "--no-color", "--no-ext-diff", revisions, "--"],
            cwd=root,
            capture_output=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InputError(f"git diff {revisions} could not run in {root}: {exc}") from exc
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines() or ["failed"]
        raise InputError(f"git diff {revisions} in {root}: {reason[-1]}")
    if len(done.stdout) > MAX_DIFF_BYTES:
        raise InputError(f"git diff {revisions}: more than 20 MiB; review a smaller range")
    return done.stdout.decode("utf-8", "replace")
