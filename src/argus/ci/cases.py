"""One reported check: a gate on a view, a view of a loop, a view assertion in a test."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

CaseStatus = Literal["passed", "failed", "error", "skipped"]


@dataclass(frozen=True)
class SourceLine:
    """A line of a source file a finding names (a hard-coded colour in a stylesheet, say):
    a CI annotation for it points there, not at the spec."""

    file: Path
    line: int
    message: str


@dataclass(frozen=True)
class CaseResult:
    suite: str  # a feature, or a test file
    classname: str  # e.g. "habits.list-populated-light"
    name: str  # e.g. "axe"
    status: CaseStatus
    message: str = ""  # one line
    details: str = ""  # what was measured, expected and where; file paths
    file: Path | None = None  # where a CI annotation points: the spec or the test file
    line: int | None = None
    time_s: float = 0.0
    sources: tuple[SourceLine, ...] = ()  # findings in source files: annotated each on its line

    def to_json(self) -> dict[str, Any]:
        return {
            "suite": self.suite,
            "classname": self.classname,
            "name": self.name,
            "status": self.status,
            "message": self.message,
            "details": self.details,
            "file": None if self.file is None else str(self.file),
            "line": self.line,
            "time_s": round(self.time_s, 3),
        }


def line_of(path: Path, needle: str) -> int | None:
    """The 1-based line of the first occurrence of ``needle`` in a text file, else None."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    at = text.find(needle)
    return None if at < 0 else text.count("\n", 0, at) + 1
