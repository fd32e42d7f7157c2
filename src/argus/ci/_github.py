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
        if case.status not in ("failed", "error") or len(lines) >= MAX_ANNOTATIONS:
            continue
        props = []
        if case.file is not None:
            path = case.file
            if root is not None:
                with suppress(ValueError):  # outside the root: the path as it is
                    path = case.file.resolve().relative_to(root.resolve())
            props.append(f"file={_property(path.as_posix())}")
            if case.line:
                props.append(f"line={case.line}")
        props.append(f"title={_property(f'{case.classname} {case.name}')}")
        body = case.details or case.message
        lines.append(f"::error {','.join(props)}::{_data(body)}")
    return lines


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
