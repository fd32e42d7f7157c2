"""The Habits example app as a test subject, with seeded defects.

    from tests.support.habits import HABITS_DIR, copy_habits, load_defects

    root = copy_habits(tmp_path)                              # a clean working copy
    root = copy_habits(tmp_path, defects=["missing_id"])      # with one defect applied
    spec_path = root / "argus/specs/habits/spec.json"

``copy_habits`` copies examples/habits (without run directories) to ``tmp_path/"habits"``,
applies each named defect from examples/habits/defects.json (asserting its ``find`` text
occurs exactly once, so a drifted defect fails loudly), and rewrites the copy's argus.toml
to a free port so copies never share a web server.

Each defect is ``{name, file, find, replace, gate, also_red, dimension, description}``:
``gate`` is the deterministic gate that must turn red (None: only the judge can see it),
``also_red`` other gates that see the same fault (e.g. axe also flags low contrast), and
``dimension`` the rubric dimension it fails. The snapshot gate sees every visible change
once a baseline exists; that is not repeated in ``also_red``.
"""

from __future__ import annotations

import json
import shutil
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
HABITS_DIR = REPO_ROOT / "examples" / "habits"
HABITS_SPEC = Path("argus/specs/habits/spec.json")  # relative to a copy's root
EXAMPLE_PORT = 8765
_SKIP = shutil.ignore_patterns(".argus-runs", ".argus", "__snapshots__", "__pycache__")


@dataclass(frozen=True)
class Defect:
    name: str
    file: str
    find: str
    replace: str
    gate: str | None
    also_red: tuple[str, ...]
    dimension: str
    description: str
    # The view that shows it ("target-state-appearance"); None: the example's canonical view.
    view: str | None = None


def load_defects(directory: Path = HABITS_DIR) -> list[Defect]:
    raw = json.loads((directory / "defects.json").read_text(encoding="utf-8"))
    return [Defect(**{**item, "also_red": tuple(item.get("also_red", ()))}) for item in raw]


def defect(name: str) -> Defect:
    for item in load_defects():
        if item.name == name:
            return item
    raise KeyError(f"no defect named {name!r} in examples/habits/defects.json")


@dataclass(frozen=True)
class Refactor:
    """A change that must not change what is seen: every gate and the judge still sign off."""

    name: str
    edits: tuple[tuple[str, str, str], ...]  # (file, find, replace), applied in order
    description: str


def load_refactors(directory: Path = HABITS_DIR) -> list[Refactor]:
    raw = json.loads((directory / "refactors.json").read_text(encoding="utf-8"))
    return [
        Refactor(
            item["name"],
            tuple((e["file"], e["find"], e["replace"]) for e in item["edits"]),
            item["description"],
        )
        for item in raw
    ]


def apply_refactor(root: Path, item: Refactor) -> None:
    for file, find, replace in item.edits:
        apply_defect(root, Defect(item.name, file, find, replace, None, (), "", ""))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def apply_defect(root: Path, item: Defect) -> None:
    path = root / item.file
    text = path.read_text(encoding="utf-8")
    count = text.count(item.find)
    assert count == 1, f"defect {item.name}: 'find' occurs {count} times in {item.file}"
    path.write_text(text.replace(item.find, item.replace), encoding="utf-8")


def copy_habits(
    tmp_path: Path, defects: Iterable[str | Defect] = (), *, port: int | None = None
) -> Path:
    """A working copy of the example at tmp_path/habits with ``defects`` applied."""
    items = [defect(item) if isinstance(item, str) else item for item in defects]
    return copy_example(HABITS_DIR, tmp_path, items, port=port, example_port=EXAMPLE_PORT)


def copy_example(
    directory: Path,
    tmp_path: Path,
    defects: Iterable[Defect] = (),
    *,
    port: int | None = None,
    example_port: int,
) -> Path:
    """A working copy of an example app at tmp_path/NAME with ``defects`` applied, its
    argus.toml moved from ``example_port`` to a free port."""
    root = tmp_path / directory.name
    shutil.copytree(directory, root, ignore=_SKIP)
    for item in defects:
        apply_defect(root, item)
    config = root / "argus.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace(str(example_port), str(port or free_port())), encoding="utf-8")
    return root


def short_step_waits(spec_path: Path, target: str, seconds: float = 1) -> None:
    """Rewrite an example's spec so every step of ``target`` waits at most ``seconds``: a step
    that can never succeed (a seeded dead button) fails fast instead of after the default."""
    spec = json.loads(spec_path.read_text(encoding="utf-8"))
    (found,) = [t for t in spec["targets"] if t["id"] == target]
    for steps in found["steps"].values():
        for step in steps:
            step["timeout_s"] = seconds
    spec_path.write_text(json.dumps(spec, indent=2), encoding="utf-8")
