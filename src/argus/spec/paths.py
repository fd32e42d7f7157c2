"""Where a project's root is, and keeping the paths a spec names inside it."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from argus.errors import InputError

ROOT_MARKERS = ("argus.toml", "pyproject.toml", ".git")
SPECS_DIR = Path("argus") / "specs"


def find_repo_root(start: Path) -> Path:
    """The nearest directory at or above ``start`` holding argus.toml, pyproject.toml or .git."""
    here = start.resolve()
    if not here.is_dir():
        here = here.parent
    for directory in (here, *here.parents):
        if any((directory / marker).exists() for marker in ROOT_MARKERS):
            return directory
    raise InputError(
        f"{here}: no project root here or above (looked for {', '.join(ROOT_MARKERS)}); "
        "run inside your project or create an argus.toml"
    )


def find_specs(root: Path) -> list[Path]:
    """Every argus/specs/*/spec.json under ``root``, sorted by feature directory."""
    return sorted(p for p in (root / SPECS_DIR).glob("*/spec.json") if p.is_file())


def escape_problem(root: Path, base: Path, text: str) -> str | None:
    """Why ``text`` (relative to ``base``, or absolute) leaves the repository, or None if it stays.

    '..' is refused outright, even when it would land inside, so a spec reads the same wherever
    it is copied; symlinks are followed, so a link pointing out of the repository is caught.
    """
    if "\0" in text:
        return f"{text!r} contains a NUL character; no file has such a name"
    if ".." in PurePosixPath(text.replace("\\", "/")).parts:
        return f"'{text}' contains '..'; use a path inside the repository"
    candidate = Path(text) if Path(text).is_absolute() else base / text
    real_root = root.resolve()
    try:
        real = candidate.resolve()
    except (OSError, RuntimeError, ValueError) as exc:  # a symlink loop, an unreadable part
        return f"'{text}' cannot be resolved ({exc})"
    if real.is_relative_to(real_root):
        return None
    if candidate.absolute().is_relative_to(root.absolute()):
        return f"'{text}' leads through a symlink to {real}, outside the repository {real_root}"
    return f"'{text}' is outside the repository {real_root}"


def repo_path(root: Path, base: Path, text: str) -> Path:
    """``text`` joined to ``base`` (absolute paths kept); call escape_problem first."""
    path = Path(text)
    return path if path.is_absolute() else base / path


# Snapshot baseline names (Playwright's shape); here rather than in argus.diff so that naming a
# baseline (the sensor, the CLI) never imports numpy.
_NAME_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")


def baseline_path(
    spec_dir: Path, target: str, state: str, appearance: str, platform: str | None = None
) -> Path:
    """``{spec_dir}/__snapshots__/{target}-{state}-{appearance}[-{platform}].png``."""
    parts = [target, state, appearance] + ([platform] if platform else [])
    for part in parts:
        if not _NAME_PART.match(part) or ".." in part:
            raise InputError(f"snapshot name part {part!r}: use letters, digits, _ . - only")
    return spec_dir / "__snapshots__" / ("-".join(parts) + ".png")
