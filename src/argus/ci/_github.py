"""GitHub Actions: workflow commands that annotate the spec or test line of a failure, and a
Markdown job summary table."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path

from argus.ci.cases import CaseResult

MAX_ANNOTATIONS = 50  # GitHub shows at most 10 per step and 50 per job
_ICON = {"passed": "✅", "failed": "❌", "error": "⚠️", "skipped": "➖"}


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_annotations(cases: Sequence[CaseResult], root: Path | None = None) -> list[str]:
    """``::error file=…,line=…,title=…::message`` lines for failed and erroring cases."""
    lines: list[str] = []
    for case in cases:
        if case.status not in ("failed", "error"):
            continue
        title = f"{case.classname} {case.name}"
        # A finding in a source file is annotated on its own line; the rest on the case's.
        for source in case.sources:
            lines.append(_annotation(source.file, source.line, title, source.message, root))
        if not case.sources:
            lines.append(
                _annotation(case.file, case.line, title, case.details or case.message, root)
            )
    return lines[:MAX_ANNOTATIONS]


def _annotation(
    file: Path | None, line: int | None, title: str, body: str, root: Path | None
) -> str:
    props = []
    if file is not None:
        path = file
        if root is not None:
            with suppress(ValueError):  # outside the root: the path as it is
                path = file.resolve().relative_to(root.resolve())
        props.append(f"file={_property(path.as_posix())}")
        if line:
            props.append(f"line={line}")
    props.append(f"title={_property(title)}")
    return f"::error {','.join(props)}::{_data(body)}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def step_summary(cases: Sequence[CaseResult], title: str) -> str:
    """A Markdown table of every case, for $GITHUB_STEP_SUMMARY."""
    passed = sum(c.status == "passed" for c in cases)
    rows = [
        f"### {title}",
        "",
        f"{passed} of {len(cases)} passed",
        "",
        "| | check | view | result |",
        "| --- | --- | --- | --- |",
    ]
    for case in cases:
        icon = _ICON[case.status]
        rows.append(
            f"| {icon} | {_cell(case.name)} | {_cell(case.classname)} | {_cell(case.message)} |"
        )
    return "\n".join(rows) + "\n"
