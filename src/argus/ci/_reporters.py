"""``--reporter`` values and writing the reports they ask for.

--reporter junit=PATH    JUnit XML at PATH
--reporter github        workflow annotations on stdout; a job summary table appended to
                         $GITHUB_STEP_SUMMARY when it is set
--reporter json=PATH     the JSON summary at PATH
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from argus.ci._github import step_summary, workflow_annotations
from argus.ci._junit import junit_xml
from argus.ci._summary import json_summary
from argus.ci.cases import CaseResult
from argus.errors import InputError
from argus.io import atomic_write_bytes, atomic_write_json

Kind = Literal["junit", "github", "json"]
USAGE = "use junit=PATH, json=PATH or github"


@dataclass(frozen=True)
class Reporter:
    kind: Kind
    path: Path | None = None


def parse_reporter(text: str) -> Reporter:
    """One ``--reporter`` value; InputError naming it when it is not one we know."""
    kind, sep, path = text.partition("=")
    if kind == "github" and not sep:
        return Reporter("github")
    if kind in ("junit", "json") and sep and path.strip():
        return Reporter(kind, Path(path))  # type: ignore[arg-type]
    raise InputError(f"--reporter {text!r}: {USAGE}")


def parse_reporters(values: Iterable[str]) -> list[Reporter]:
    return [parse_reporter(value) for value in values]


def emit_reports(
    reporters: Sequence[Reporter],
    cases: Sequence[CaseResult],
    *,
    tool: str,
    root: Path | None = None,
    out: Callable[[str], None] = print,
) -> None:
    """Write every report asked for (atomic files; annotations through ``out``)."""
    for reporter in reporters:
        if reporter.kind == "junit" and reporter.path is not None:
            atomic_write_bytes(reporter.path, junit_xml(cases, tool))
        elif reporter.kind == "json" and reporter.path is not None:
            atomic_write_json(reporter.path, json_summary(cases, tool))
        elif reporter.kind == "github":
            for line in workflow_annotations(cases, root):
                out(line)
            summary_file = os.environ.get("GITHUB_STEP_SUMMARY")
            if summary_file:
                with open(summary_file, "a", encoding="utf-8") as handle:
                    handle.write(step_summary(cases, tool))
