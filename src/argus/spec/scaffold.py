"""`argus init`: a new feature's spec files from the shipped templates, plus .gitignore rules."""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from argus.errors import InputError
from argus.io import atomic_write_text, read_bytes
from argus.schemas.rubric import default_rubric_text
from argus.spec.paths import SPECS_DIR, escape_problem

TEMPLATE_FILES = ("spec.json", "spec.md", "tokens.json", "contrast-pairs.json")
FEATURE_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")

# Run directories hold renders and probe dumps (fixture data); only the sign-off is committed.
# The negation must follow the wildcard, so the two lines are always written together, in order.
FEATURE_IGNORE_RULES = (
    "# Argus: run artefacts stay local; only the sign-off record is committed.",
    ".argus-runs/*",
    "!.argus-runs/signoff.json",
)
ROOT_IGNORE_RULES = ("# Argus: the local run store.", "/.argus/")


@dataclass(frozen=True)
class AdapterScaffold:
    """What ``argus init --adapter NAME`` puts in a new feature for a non-web UI: the spec's
    adapter, the target's route and the viewport, and the adapter's sense.sh (written only
    when the project has none yet)."""

    name: str
    route: str
    viewport: tuple[int, int]
    script: str
    gates: tuple[str, ...]  # the gates that apply to the platform, for a new argus.toml


@dataclass(frozen=True)
class Scaffold:
    feature_dir: Path
    written: tuple[Path, ...]  # every file created or changed, in order


def check_feature_name(feature: str) -> None:
    if not FEATURE_SLUG.match(feature):
        raise InputError(
            f"invalid feature name '{feature}': use lowercase letters, digits and hyphens, "
            "starting with a letter or digit (at most 64 characters)"
        )


def render_templates(feature: str, adapter: AdapterScaffold | None = None) -> dict[str, str]:
    """The four spec files for ``feature``, as text (spec.json for ``adapter``'s platform)."""
    files = resources.files("argus.spec").joinpath("templates")
    rendered = {
        name: files.joinpath(name).read_text("utf-8").replace("{{feature}}", feature)
        for name in TEMPLATE_FILES
    }
    for name, text in rendered.items():
        if name.endswith(".json"):
            json.loads(text)  # a broken template is our bug; fail before writing anything
    if adapter is not None:
        spec = json.loads(rendered["spec.json"])
        spec["adapter"] = adapter.name
        spec["viewport"] = {"width": adapter.viewport[0], "height": adapter.viewport[1]}
        for target in spec["targets"]:
            target["route"] = adapter.route.replace("{{feature}}", feature)
        rendered["spec.json"] = json.dumps(spec, indent=2) + "\n"
    return rendered


def adapter_script_path(root: Path, name: str) -> Path:
    return root / "argus" / "adapters" / name / "sense.sh"


def ensure_ignore_rules(path: Path, block: tuple[str, ...]) -> bool:
    """Make the .gitignore ``path`` hold ``block``'s rules in order; False if it already did.

    ``block`` may start with comment lines. Rules that are missing or out of order are removed
    and the whole block is appended, so running this twice changes nothing the second time.
    """
    text = ""
    if path.exists():
        try:
            text = read_bytes(path, what=".gitignore").decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"{path}: .gitignore is not UTF-8 text") from exc
    lines = text.splitlines()
    stripped = [line.strip() for line in lines]
    rules = [line for line in block if not line.startswith("#")]
    positions = [stripped.index(rule) if rule in stripped else -1 for rule in rules]
    if -1 not in positions and positions == sorted(positions):
        return False
    kept = [line for line in lines if line.strip() not in block]
    while kept and not kept[-1].strip():
        kept.pop()
    atomic_write_text(path, "\n".join([*kept, "", *block] if kept else block) + "\n")
    return True


def init_feature(
    root: Path,
    feature: str,
    *,
    with_rubric: bool = False,
    adapter: AdapterScaffold | None = None,
) -> Scaffold:
    """Create argus/specs/{feature}/ under ``root`` (and ``adapter``'s sense.sh when the project
    has none); InputError if the feature already exists."""
    check_feature_name(feature)
    relative = (SPECS_DIR / feature).as_posix()
    problem = escape_problem(root, root, relative)
    if problem:
        raise InputError(f"{root / relative}: {problem}")
    feature_dir = root / relative
    names = (*TEMPLATE_FILES, "rubric.json") if with_rubric else TEMPLATE_FILES
    existing = [name for name in names if (feature_dir / name).exists()]
    if existing:
        raise InputError(
            f"{feature_dir / existing[0]}: feature '{feature}' already exists; "
            "edit its files or choose another name (argus init never overwrites)"
        )
    contents = render_templates(feature, adapter)
    if with_rubric:
        contents["rubric.json"] = default_rubric_text()
    # Written one by one, so a failure half-way (a directory where a file goes, a full disk)
    # is rolled back: argus init leaves the whole feature or nothing.
    undo = _Undo()
    written: list[Path] = []
    try:
        undo.make_dirs(feature_dir)
        for name, text in contents.items():
            undo.new_file(feature_dir / name)
            atomic_write_text(feature_dir / name, text)
            written.append(feature_dir / name)
        undo.make_dirs(feature_dir / "references")
        if adapter is not None:
            script = adapter_script_path(root, adapter.name)
            if not script.exists():
                undo.make_dirs(script.parent)
                undo.new_file(script)
                atomic_write_text(script, adapter.script)
                script.chmod(0o755)
                written.append(script)
        for path, rules in (
            (feature_dir / ".gitignore", FEATURE_IGNORE_RULES),
            (root / ".gitignore", ROOT_IGNORE_RULES),
        ):
            undo.changed_file(path)
            if ensure_ignore_rules(path, rules):
                written.append(path)
    except BaseException:
        undo.roll_back()
        raise
    return Scaffold(feature_dir, tuple(written))


class _Undo:
    """What init created or changed, to put back as it was when a later step fails."""

    def __init__(self) -> None:
        self._files: list[tuple[Path, bytes | None]] = []  # path, old content (None: new)
        self._dirs: list[Path] = []  # created by us, outermost first

    def make_dirs(self, directory: Path) -> None:
        missing = [d for d in (directory, *directory.parents) if not d.exists()]
        directory.mkdir(parents=True, exist_ok=True)
        self._dirs.extend(reversed(missing))

    def new_file(self, path: Path) -> None:
        self._files.append((path, None))

    def changed_file(self, path: Path) -> None:
        if path.is_file():
            self._files.append((path, path.read_bytes()))
        elif not path.exists():
            self._files.append((path, None))

    def roll_back(self) -> None:
        for path, old in reversed(self._files):
            try:
                if old is None:
                    if path.is_file():
                        path.unlink()
                else:
                    path.write_bytes(old)
            except OSError:
                pass  # best effort: the original error is the one to report
        for directory in reversed(self._dirs):
            # rmdir only removes an empty directory: never what someone else put there.
            with contextlib.suppress(OSError):
                directory.rmdir()
