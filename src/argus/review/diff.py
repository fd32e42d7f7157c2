"""A PR's diff cut to a budget: the file list first, then hunks, tests before code before the rest.

A reviewer that reads only part of a large diff must know what it did not read. The file list
(with lines added and removed) always goes first; hunks are then taken whole, in order of how
much they say about acceptance: test files, then source, then generated or static files
(lockfiles, minified or built output, snapshots, images), until the character budget is spent.
Whatever did not fit is named. The listing (and the names of what did not fit) stop at
``MAX_LISTED_FILES`` files, the rest counted, so a huge PR cannot spend the budget on names.
The cut is *material* when a hunk of a test or source file was
left out: then the reviewer cannot see all the evidence, and a "met" cannot be confident.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

DEFAULT_BUDGET_CHARS = 60_000
MAX_LISTED_FILES = 200
NO_FILES = "nothing to review: the diff has no `diff --git` file sections; pass git diff output"
TESTS, SOURCE, GENERATED = 0, 1, 2
KIND_NAMES = ("test", "source", "generated")
_HEADER = re.compile(r"^diff --git a/(.*?) b/(.*)$")
_TEST_NAME = re.compile(r"(^test_.*|.*_test\.[^.]+$|.*\.(test|spec)\.[^.]+$|^conftest\.py$)")
_TEST_DIRS = frozenset({"test", "tests", "__tests__", "spec", "specs", "e2e"})
_GENERATED_NAMES = frozenset(
    {
        "package-lock.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "poetry.lock",
        "uv.lock",
        "Cargo.lock",
        "Gemfile.lock",
        "composer.lock",
        "go.sum",
    }
)
_GENERATED_DIRS = frozenset({"dist", "build", "vendor", "node_modules", "__snapshots__", ".next"})
_GENERATED_SUFFIXES = (".min.js", ".min.css", ".map", ".lock", ".snap")
_STATIC_SUFFIXES = frozenset(
    {".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico", ".svg", ".pdf", ".woff", ".woff2", ".ttf"}
)


@dataclass
class FileDiff:
    path: str
    header: str  # the lines before the first hunk (diff --git, index, ---/+++ ...)
    hunks: list[str] = field(default_factory=list)
    added: int = 0
    removed: int = 0

    @property
    def kind(self) -> int:
        return classify(self.path)


@dataclass(frozen=True)
class CutDiff:
    text: str  # what the reviewer reads: the file list, then the hunks that fit
    files: int
    hunks_total: int
    hunks_shown: int
    left_out: tuple[str, ...]  # paths with at least one hunk left out
    material_cut: bool  # a test or source hunk was left out

    def to_json(self) -> dict[str, object]:
        return {
            "files": self.files,
            "hunks_total": self.hunks_total,
            "hunks_shown": self.hunks_shown,
            "left_out": list(self.left_out),
            "material_cut": self.material_cut,
            "chars": len(self.text),
        }


def classify(path: str) -> int:
    """TESTS, SOURCE or GENERATED, from the path alone."""
    pure = PurePosixPath(path)
    name = pure.name
    parts = set(pure.parts[:-1])
    if name in _GENERATED_NAMES or parts & _GENERATED_DIRS:
        return GENERATED
    if name.endswith(_GENERATED_SUFFIXES) or pure.suffix.lower() in _STATIC_SUFFIXES:
        return GENERATED
    if _TEST_NAME.match(name) or parts & _TEST_DIRS:
        return TESTS
    return SOURCE


def parse_diff(text: str) -> list[FileDiff]:
    """A unified diff (``git diff`` output) as files and hunks; text before the first file
    header is ignored."""
    files: list[FileDiff] = []
    current: FileDiff | None = None
    hunk: list[str] | None = None
    for line in text.splitlines(keepends=True):
        match = _HEADER.match(line.rstrip("\n"))
        if match:
            current = FileDiff(path=match.group(2), header=line)
            files.append(current)
            hunk = None
            continue
        if current is None:
            continue
        if line.startswith("@@"):
            hunk = [line]
            current.hunks.append("")
        elif hunk is None:
            current.header += line
            continue
        else:
            hunk.append(line)
            if line.startswith("+"):
                current.added += 1
            elif line.startswith("-"):
                current.removed += 1
        current.hunks[-1] = "".join(hunk)
    return files


def _more(count: int) -> str:
    extra = count - MAX_LISTED_FILES
    return f"(+{extra} more file{'s' if extra != 1 else ''})" if extra > 0 else ""


def cut_diff(text: str, budget: int = DEFAULT_BUDGET_CHARS) -> CutDiff:
    files = parse_diff(text)
    listing = ["files changed (+added -removed, kind):"]
    listing += [
        f"  {f.path} (+{f.added} -{f.removed}, {KIND_NAMES[f.kind]})"
        for f in files[:MAX_LISTED_FILES]
    ]
    if len(files) > MAX_LISTED_FILES:
        listing.append(f"  {_more(len(files))}")
    head = "\n".join(listing) + "\n\n"
    spent = len(head)
    chosen: dict[str, list[str]] = {}
    left_out: list[str] = []
    material = False
    total = shown = 0
    for f in sorted(files, key=lambda f: f.kind):  # stable: diff order within a kind
        total += len(f.hunks)
        for hunk in f.hunks:
            cost = len(hunk) + (len(f.header) if f.path not in chosen else 0)
            if spent + cost > budget:
                if f.path not in left_out:
                    left_out.append(f.path)
                material = material or f.kind != GENERATED
                continue
            chosen.setdefault(f.path, []).append(hunk)
            spent += cost
            shown += 1
    body = [f.header + "".join(chosen[f.path]) for f in files if f.path in chosen]
    note = ""
    if left_out:
        named = ", ".join(left_out[:MAX_LISTED_FILES])
        more = f" {_more(len(left_out))}" if len(left_out) > MAX_LISTED_FILES else ""
        note = f"\n[left out for length: hunks of {named}{more}]\n"
    return CutDiff(head + "".join(body) + note, len(files), total, shown, tuple(left_out), material)
